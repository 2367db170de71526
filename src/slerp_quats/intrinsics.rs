//! `ProcessOptimizedKernel` of Mehrotra and Hubbard, *Benefits of Intel AVX
//! for Quaternion Spherical Linear Interpolation* (Intel), with
//! `core::arch::x86_64` AVX intrinsics: the article's C intrinsics, one for
//! one, in source order, with the article's variable names (in snake case)
//! and each statement commented with the VEX instruction it names, as
//! `asm_notes/slerp_quats.listing.s` writes it.
//!
//! Port licensed under the GNU LGPL 2.1 or later. The algorithm is van
//! Waveren's SSE slerp (*Slerping Clock Cycles*, Copyright (C) 2005 Id
//! Software, Inc., written by J.M.P. van Waveren); the AVX code is the
//! article's "partial source code listing".
//!
//! Two kernels, named so that nobody takes one for the other:
//! - [`slerp_quats_as_published`]: the listing as printed, every erratum
//!   kept (`asm_notes/slerp_quats.md`): `HALF_PI` = 22/7/2 (E1), `sqrtC1`
//!   initialised with `RSQRT_C0` (E2), the Newton-Raphson refinement of
//!   `sinom` computed and then overwritten (E3), the remainder loop's
//!   `reciprocalSqrt` (E6). About 1e-3 against an f64 slerp.
//! - [`slerp_quats_corrected`]: the same statements with E1, E2, E3 and E6
//!   fixed: `halfPi` = pi/2, `sqrtC1` = `RSQRT_C1`, the refinement assigned
//!   to `sinom`, `1.0f / sqrtf` in the remainder loop. About 4.8e-7, the
//!   accuracy of van Waveren's SSE slerp.
//!
//! [`slerp_quats_with`] runs the published statements with any subset of
//! the fixes, and with the sign masks that compilers really build from the
//! article's `DECLARE_INIT_M256I` (E4): the tests measure each erratum with
//! it.
//!
//! How the article's C maps to Rust:
//! - its globals (`fromQuaternion`, `toQuaternion`, `resultQuaternion`,
//!   `g_factor`, `g_quaternionCount`) are the kernels' parameters, the
//!   result first;
//! - its `__m256` constants are the `AVX_*` statics of [`crate::consts`],
//!   loaded once before the loop (`sinC0` is `AVX_SIN_C0`, ...); the masks
//!   `clearSignBit` / `setSignBit` of `initializationFunction` are
//!   `_mm256_castsi256_ps` of the 32-bit patterns;
//! - `_mm256_cmpeq_ps`, which no AVX header declares (E5), is
//!   `_mm256_cmp_ps::<_CMP_EQ_OQ>`, the `vcmpeqps` it names;
//! - the remainder loop is [`super::scalar::remainder_loop_as_published`]
//!   (or `_corrected`), called with `first = count & 0xfffffff0`.
//!
//! Every output that is not a NaN is bit-identical to [`super::asm`]'s
//! kernel of the same name on the same CPU; NaN outputs are NaN in both,
//! with a sign and payload that may differ (LLVM commutes `vmulps` /
//! `vaddps` operands, and the asm swaps the operands of the products with a
//! constant or `factor` in memory, which picks the other NaN).

use crate::consts::{
    AVX_ALL_ONES, AVX_ATAN_C0, AVX_ATAN_C1, AVX_ATAN_C2, AVX_ATAN_C3, AVX_ATAN_C4, AVX_ATAN_C5, AVX_ATAN_C6,
    AVX_ATAN_C7, AVX_CLEAR_SIGN_BIT, AVX_CLEAR_SIGN_BIT_AS_GCC, AVX_CLEAR_SIGN_BIT_AS_MSVC, AVX_HALF_PI,
    AVX_HALF_PI_CORRECTED, AVX_SET_SIGN_BIT, AVX_SET_SIGN_BIT_AS_GCC, AVX_SET_SIGN_BIT_AS_MSVC, AVX_SIN_C0, AVX_SIN_C1,
    AVX_SIN_C2, AVX_SIN_C3, AVX_SIN_C4, AVX_SQRT_C0, AVX_SQRT_C1, AVX_SQRT_C1_CORRECTED, AVX_TINY, Align32,
};
use crate::types::Quat;
use core::arch::x86_64::*;

use super::scalar::{remainder_loop_as_published, remainder_loop_corrected};

/// Which sign masks the kernel's `clearSignBit` and `setSignBit` hold
/// (erratum E4). Not a fix: the article's `DECLARE_INIT_M256I` cannot build
/// the masks it means, and what it builds depends on the compiler's
/// `__m256i`; both named kernels use [`SignMasks::AsIntended`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SignMasks {
    /// 0x7fffffff and 0x80000000 in all eight lanes, as the names and the
    /// code mean ([`AVX_CLEAR_SIGN_BIT`], [`AVX_SET_SIGN_BIT`]).
    #[default]
    AsIntended,
    /// What GCC, Clang and ICC on Linux and macOS build (`__m256i` is four
    /// `long long`): the masks in the even 32-bit lanes, 0 in the odd ones
    /// ([`AVX_CLEAR_SIGN_BIT_AS_GCC`], [`AVX_SET_SIGN_BIT_AS_GCC`]).
    AsGcc,
    /// What MSVC (and ICC on Windows) build, by the C rules for its
    /// `__m256i` union (first member `__int8 m256i_i8[32]`): clearSignBit
    /// all ones in lanes 0 and 1 and 0 elsewhere, setSignBit all zero
    /// ([`AVX_CLEAR_SIGN_BIT_AS_MSVC`], [`AVX_SET_SIGN_BIT_AS_MSVC`]).
    AsMsvc,
}

/// Which errata of the published kernel [`slerp_quats_with`] corrects.
/// [`Fixes::NONE`] is [`slerp_quats_as_published`], [`Fixes::ALL`] is
/// [`slerp_quats_corrected`] (bit for bit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Fixes {
    /// E1: `halfPi` = pi/2 ([`AVX_HALF_PI_CORRECTED`]) instead of 22/7/2.
    pub half_pi: bool,
    /// E2: `sqrtC1` = `RSQRT_C1` = -0.5 ([`AVX_SQRT_C1_CORRECTED`]) instead
    /// of `RSQRT_C0` = 3.0. Alone it changes nothing: E3 discards the value
    /// it enters.
    pub sqrt_c1: bool,
    /// E3: the Newton-Raphson refinement is assigned to `sinom` (`sinom =
    /// _mm256_mul_ps(ymmR0, ymmR1)`) instead of being overwritten. Alone,
    /// with `sqrtC1` = 3.0, it makes `sinom` about -6 times too large.
    pub newton_raphson: bool,
    /// E6: the remainder loop takes `1.0f / sqrtf( sinSqr )` instead of the
    /// `reciprocalSqrt` bit trick.
    pub remainder: bool,
    /// E4: the sign masks (not a fix; see [`SignMasks`]).
    pub sign_masks: SignMasks,
}

impl Fixes {
    /// No fix: the kernel as published.
    pub const NONE: Fixes = Fixes {
        half_pi: false,
        sqrt_c1: false,
        newton_raphson: false,
        remainder: false,
        sign_masks: SignMasks::AsIntended,
    };
    /// Every fix: the corrected kernel.
    pub const ALL: Fixes = Fixes {
        half_pi: true,
        sqrt_c1: true,
        newton_raphson: true,
        remainder: true,
        sign_masks: SignMasks::AsIntended,
    };
}

/// The four `__m256` globals that differ between the variants.
struct Globals {
    half_pi: &'static Align32<[f32; 8]>,
    sqrt_c1: &'static Align32<[f32; 8]>,
    d_clear_sign_bit: &'static Align32<[u32; 8]>,
    d_set_sign_bit: &'static Align32<[u32; 8]>,
}

impl Globals {
    const fn of(fixes: Fixes) -> Globals {
        let (d_clear_sign_bit, d_set_sign_bit) = match fixes.sign_masks {
            SignMasks::AsIntended => (&AVX_CLEAR_SIGN_BIT, &AVX_SET_SIGN_BIT),
            SignMasks::AsGcc => (&AVX_CLEAR_SIGN_BIT_AS_GCC, &AVX_SET_SIGN_BIT_AS_GCC),
            SignMasks::AsMsvc => (&AVX_CLEAR_SIGN_BIT_AS_MSVC, &AVX_SET_SIGN_BIT_AS_MSVC),
        };
        Globals {
            half_pi: if fixes.half_pi { &AVX_HALF_PI_CORRECTED } else { &AVX_HALF_PI },
            sqrt_c1: if fixes.sqrt_c1 { &AVX_SQRT_C1_CORRECTED } else { &AVX_SQRT_C1 },
            d_clear_sign_bit,
            d_set_sign_bit,
        }
    }
}

/// The remainder loops' signature: `(result, from, to, factor, first, count)`.
type RemainderLoop = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32, i32);

/// `ProcessOptimizedKernel` as published: `result[i] = slerp( from[i],
/// to[i], factor )` for `0 <= i < count`, sixteen quaternions per iteration
/// of the AVX loop (two copies of the eight-quaternion body), the last
/// `count % 16` through the article's scalar remainder loop. Keeps every
/// erratum (module documentation): about 1e-3 against an f64 slerp where
/// the angle between the quaternions is above 45 degrees (E1), a few 1e-4
/// below (E3), about 3.4e-3 in the remainder loop (E6).
///
/// # Safety
///
/// - the CPU supports AVX (`is_x86_feature_detected!("avx")`);
/// - `count >= 0`; if `count > 0`, `from` and `to` are valid for reads and
///   `result` for writes of `count` quaternions;
/// - if `count >= 16`, all three are 32-byte aligned (`vmovaps` with
///   `ymmword` operands faults otherwise);
/// - `result` may be one of the inputs (every group of eight is read before
///   it is written, each remainder element too) but must not overlap them
///   otherwise.
#[inline(never)]
pub unsafe fn slerp_quats_as_published(result: *mut Quat, from: *const Quat, to: *const Quat, factor: f32, count: i32) {
    const G: Globals = Globals::of(Fixes::NONE);
    // SAFETY: the caller's contract, which is `process_optimized_kernel`'s.
    unsafe { process_optimized_kernel::<false>(&G, remainder_loop_as_published, result, from, to, factor, count) }
}

/// The corrected kernel: [`slerp_quats_as_published`] with `halfPi` = pi/2
/// (E1), `sqrtC1` = `RSQRT_C1` (E2), the Newton-Raphson refinement reaching
/// `sinom` (E3) and `1.0f / sqrtf` in the remainder loop (E6). The same
/// statements in the same order otherwise. About 4.8e-7 against an f64
/// slerp, like van Waveren's SSE slerp.
///
/// # Safety
///
/// As [`slerp_quats_as_published`].
#[inline(never)]
pub unsafe fn slerp_quats_corrected(result: *mut Quat, from: *const Quat, to: *const Quat, factor: f32, count: i32) {
    const G: Globals = Globals::of(Fixes::ALL);
    // SAFETY: the caller's contract, which is `process_optimized_kernel`'s.
    unsafe { process_optimized_kernel::<true>(&G, remainder_loop_corrected, result, from, to, factor, count) }
}

/// The published statements with the fixes (and sign masks) of `fixes`: a
/// tool to measure each erratum on its own. `slerp_quats_with(Fixes::NONE,
/// ..)` computes what [`slerp_quats_as_published`] computes, and
/// `slerp_quats_with(Fixes::ALL, ..)` what [`slerp_quats_corrected`]
/// computes, bit for bit.
///
/// # Safety
///
/// As [`slerp_quats_as_published`].
#[inline(never)]
pub unsafe fn slerp_quats_with(
    fixes: Fixes,
    result: *mut Quat,
    from: *const Quat,
    to: *const Quat,
    factor: f32,
    count: i32,
) {
    let g = Globals::of(fixes);
    let remainder: RemainderLoop = if fixes.remainder { remainder_loop_corrected } else { remainder_loop_as_published };
    // SAFETY: the caller's contract, which is `process_optimized_kernel`'s.
    unsafe {
        if fixes.newton_raphson {
            process_optimized_kernel::<true>(&g, remainder, result, from, to, factor, count)
        } else {
            process_optimized_kernel::<false>(&g, remainder, result, from, to, factor, count)
        }
    }
}

/// `ProcessOptimizedKernel( void )`: the article's function body. With
/// `REFINED_SINOM`, the one statement that E3 is about assigns the
/// refinement to `sinom`; everything else is the printed sequence (both
/// halves of the unrolled loop printed out, as in the article).
///
/// # Safety
///
/// As [`slerp_quats_as_published`]; `remainder` is one of the scalar
/// remainder loops.
#[inline]
#[target_feature(enable = "avx")]
#[allow(clippy::identity_op, clippy::erasing_op, clippy::needless_late_init)]
unsafe fn process_optimized_kernel<const REFINED_SINOM: bool>(
    globals: &Globals,
    remainder: RemainderLoop,
    result_quaternion: *mut Quat,
    from_quaternion: *const Quat,
    to_quaternion: *const Quat,
    g_factor: f32,
    g_quaternion_count: i32,
) {
    let (mut from_x, mut from_y, mut from_z, mut from_w, mut to_x, mut to_y, mut to_z, mut to_w): (
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
    );
    let factor: __m256;
    let (mut cosom, mut abs_cosom, mut sinsqr, mut sinom): (__m256, __m256, __m256, __m256);
    let (mut ymm_r0, mut ymm_r1, mut ymm_r2, mut ymm_r3, mut ymm_r4, mut ymm_r5, mut ymm_r6, mut ymm_r7): (
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
        __m256,
    );
    let (mut scale0, mut scale1): (__m256, __m256);
    let mut sign_bit: __m256;
    let mut omega: __m256;

    // The article's global constants (`DECLARE_INIT_M256`, and
    // `initializationFunction` for the two masks).
    // SAFETY: the statics are 32 bytes, 32-byte aligned and 'static.
    let (sin_c0, sin_c1, sin_c2, sin_c3, sin_c4) = unsafe {
        (
            _mm256_load_ps(AVX_SIN_C0.0.as_ptr()),
            _mm256_load_ps(AVX_SIN_C1.0.as_ptr()),
            _mm256_load_ps(AVX_SIN_C2.0.as_ptr()),
            _mm256_load_ps(AVX_SIN_C3.0.as_ptr()),
            _mm256_load_ps(AVX_SIN_C4.0.as_ptr()),
        )
    };
    // SAFETY: as above.
    let (sqrt_c0, sqrt_c1) =
        unsafe { (_mm256_load_ps(AVX_SQRT_C0.0.as_ptr()), _mm256_load_ps(globals.sqrt_c1.0.as_ptr())) };
    // SAFETY: as above.
    let (atan_c0, atan_c1, atan_c2, atan_c3, atan_c4, atan_c5, atan_c6, atan_c7) = unsafe {
        (
            _mm256_load_ps(AVX_ATAN_C0.0.as_ptr()),
            _mm256_load_ps(AVX_ATAN_C1.0.as_ptr()),
            _mm256_load_ps(AVX_ATAN_C2.0.as_ptr()),
            _mm256_load_ps(AVX_ATAN_C3.0.as_ptr()),
            _mm256_load_ps(AVX_ATAN_C4.0.as_ptr()),
            _mm256_load_ps(AVX_ATAN_C5.0.as_ptr()),
            _mm256_load_ps(AVX_ATAN_C6.0.as_ptr()),
            _mm256_load_ps(AVX_ATAN_C7.0.as_ptr()),
        )
    };
    // SAFETY: as above.
    let (all_ones, half_pi, tiny) = unsafe {
        (
            _mm256_load_ps(AVX_ALL_ONES.0.as_ptr()),
            _mm256_load_ps(globals.half_pi.0.as_ptr()),
            _mm256_load_ps(AVX_TINY.0.as_ptr()),
        )
    };
    // clearSignBit = _mm256_castsi256_ps(dClearSignBit);
    // setSignBit = _mm256_castsi256_ps(dSetSignBit);
    // SAFETY: as above.
    let (clear_sign_bit, set_sign_bit) = unsafe {
        (
            _mm256_castsi256_ps(_mm256_load_si256(globals.d_clear_sign_bit.0.as_ptr().cast())),
            _mm256_castsi256_ps(_mm256_load_si256(globals.d_set_sign_bit.0.as_ptr().cast())),
        )
    };

    // Initialize data in and out pointers
    let p_from_quat = from_quaternion as *const f32; //                     pFromQuat = (float *) fromQuaternion;
    let p_to_quat = to_quaternion as *const f32; //                         pToQuat = (float *) toQuaternion;
    let p_results = result_quaternion as *mut f32; //                       pResults = (float *) resultQuaternion;

    // Other initializations
    // An `unsafe fn` in Rust 1.88 (the crate's `rust-version`), safe to
    // call here in later releases, which then find the block unused.
    #[allow(unused_unsafe)]
    // SAFETY: reads the `f32` `g_factor` through a reference; AVX is enabled
    // (the caller's contract).
    let broadcast = unsafe { _mm256_broadcast_ss(&g_factor) };
    factor = broadcast; //                                                   vbroadcastss factor, g_factor
    let mod16_quaternion_count = (g_quaternion_count as u32 & 0xfffffff0) as i32; // int mod16QuaternionCount = g_quaternionCount & 0xfffffff0;

    // Operate on all the quaternions
    let mut i: usize = 0; //                                                 for(int i = 0;
    while (i as i64) < i64::from(mod16_quaternion_count) {
        //                                                                   i < mod16QuaternionCount;
        // SAFETY: quaternions i..i+16 are in bounds (i + 16 <=
        // mod16QuaternionCount <= count) and the pointers are 32-byte aligned
        // (count >= 16 here): the caller's contract. Offsets are in floats
        // (`i/8*32` = 4 floats per quaternion).
        unsafe {
            // Load From-Quat 0 and Quat 1 into one register
            from_x = _mm256_load_ps(p_from_quat.add(i / 8 * 32)); //                   vmovaps fromX, [pFromQuat+i/8*32]
            // Load From-Quat 2 and Quat 3 into one register
            from_y = _mm256_load_ps(p_from_quat.add(i / 8 * 32 + 2 * 4)); //           vmovaps fromY, [pFromQuat+i/8*32+2*4]
            // Load From-Quat 4 and Quat 5 into one register
            from_z = _mm256_load_ps(p_from_quat.add(i / 8 * 32 + 4 * 4)); //           vmovaps fromZ, [pFromQuat+i/8*32+4*4]
            // Load From-Quat 6 and Quat 7 into one register
            from_w = _mm256_load_ps(p_from_quat.add(i / 8 * 32 + 6 * 4)); //           vmovaps fromW, [pFromQuat+i/8*32+6*4]
            // Load To-Quat 0 and Quat 1 into one register
            to_x = _mm256_load_ps(p_to_quat.add(i / 8 * 32)); //                       vmovaps toX, [pToQuat+i/8*32]
            // Load To-Quat 2 and Quat 3 into one register
            to_y = _mm256_load_ps(p_to_quat.add(i / 8 * 32 + 2 * 4)); //               vmovaps toY, [pToQuat+i/8*32+2*4]
            // Load To-Quat 4 and Quat 5 into one register
            to_z = _mm256_load_ps(p_to_quat.add(i / 8 * 32 + 4 * 4)); //               vmovaps toZ, [pToQuat+i/8*32+4*4]
            // Load To-Quat 6 and Quat 7 into one register
            to_w = _mm256_load_ps(p_to_quat.add(i / 8 * 32 + 6 * 4)); //               vmovaps toW, [pToQuat+i/8*32+6*4]

            // *** Compute product terms: fromx*tox, fromy*toy, fromz*toz, fromw*tow
            // ymmR0 = fromw1*tow1, fromz1*toz1, fromy1*toy1, fromx1*tox
            // fromw0*tow0, fromz0*toz0, fromy0*toy0, fromx0*tox0
            ymm_r0 = _mm256_mul_ps(from_x, to_x); //                                   vmulps ymmR0, fromX, toX // Quaternion 0 and 1
            ymm_r1 = _mm256_mul_ps(from_y, to_y); //                                   vmulps ymmR1, fromY, toY // Quaternion 2 and 3
            ymm_r2 = _mm256_mul_ps(from_z, to_z); //                                   vmulps ymmR2, fromZ, toZ // Quaternion 4 and 5
            ymm_r3 = _mm256_mul_ps(from_w, to_w); //                                   vmulps ymmR3, fromW, toW // Quaternion 6 and 7

            // *** Swizzle products to prepare for additions
            // Start collecting product terms (step 1 of 2)
            // Get y3, y1, x3, x1, y2, y0, x2, x0
            ymm_r4 = _mm256_unpacklo_ps(ymm_r0, ymm_r1); //                            vunpcklps ymmR4, ymmR0, ymmR1
            // Get w3, w1, z3, z1, w2, w0, z2, z0
            ymm_r5 = _mm256_unpackhi_ps(ymm_r0, ymm_r1); //                            vunpckhps ymmR5, ymmR0, ymmR1
            // Get y7, y5, x7, x5, y6, y4, x6, x4
            ymm_r6 = _mm256_unpacklo_ps(ymm_r2, ymm_r3); //                            vunpcklps ymmR6, ymmR2, ymmR3
            // Get w7, w5, z7, z5, w6, w4, z6, z4
            ymm_r7 = _mm256_unpackhi_ps(ymm_r2, ymm_r3); //                            vunpckhps ymmR7, ymmR2, ymmR3

            // Finish collecting product terms (step 2 of 2)
            // Get x7, x5, x3, x1, x6, x4, x2, x0
            ymm_r0 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(ymm_r4), _mm256_castps_pd(ymm_r6))); // vunpcklpd ymmR0, ymmR4, ymmR6
            // Get y7, y5, y3, y1, y6, y4, y2, y0
            ymm_r1 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(ymm_r4), _mm256_castps_pd(ymm_r6))); // vunpckhpd ymmR1, ymmR4, ymmR6
            // calculate first partial sum
            ymm_r4 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR4, ymmR0, ymmR1
            // Get z7, z5, z3, z1, z6, z4, z2, z0
            ymm_r2 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(ymm_r5), _mm256_castps_pd(ymm_r7))); // vunpcklpd ymmR2, ymmR5, ymmR7
            // Get w7, w5, w3, w1, w6, w4, w2, w0
            ymm_r3 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(ymm_r5), _mm256_castps_pd(ymm_r7))); // vunpckhpd ymmR3, ymmR5, ymmR7

            // Finish adding the terms
            // Second partial sum
            ymm_r5 = _mm256_add_ps(ymm_r2, ymm_r3); //                                 vaddps ymmR5, ymmR2, ymmR3
            // Final sum
            cosom = _mm256_add_ps(ymm_r4, ymm_r5); //                                  vaddps cosom, ymmR4, ymmR5

            // *** Compute the absolute value of above
            abs_cosom = _mm256_and_ps(cosom, clear_sign_bit); //                       vandps absCosom, cosom, clearSignBit // E4: clearSignBit as intended
            // Save the sign bit, used to invert scale1 later
            sign_bit = _mm256_and_ps(cosom, set_sign_bit); //                          vandps signBit, cosom, setSignBit // E4: setSignBit as intended

            // *** Compute 1.0 - (above squared)
            ymm_r0 = _mm256_mul_ps(abs_cosom, abs_cosom); //                           vmulps ymmR0, absCosom, absCosom
            sinsqr = _mm256_sub_ps(all_ones, ymm_r0); //                               vsubps sinsqr, allOnes, ymmR0
            // Watch for very small values
            ymm_r1 = _mm256_xor_ps(ymm_r1, ymm_r1); //                                 vxorps ymmR1, ymmR1, ymmR1 // Zeros
            ymm_r1 = _mm256_cmp_ps::<_CMP_EQ_OQ>(ymm_r1, sinsqr); //                   vcmpeqps ymmR1, ymmR1, sinsqr // E5: _mm256_cmpeq_ps, read as vcmpeqps
            ymm_r1 = _mm256_and_ps(ymm_r1, tiny); //                                   vandps ymmR1, ymmR1, tiny // Make them tiny, not zero
            sinsqr = _mm256_and_ps(sinsqr, clear_sign_bit); //                         vandps sinsqr, sinsqr, clearSignBit // Make them positive
            sinsqr = _mm256_or_ps(sinsqr, ymm_r1); //                                  vorps sinsqr, sinsqr, ymmR1

            // Compute 1/(square root of above)
            sinom = _mm256_rsqrt_ps(sinsqr); //                                        vrsqrtps sinom, sinsqr
            ymm_r0 = _mm256_mul_ps(sinsqr, sinom); //                                  vmulps ymmR0, sinsqr, sinom
            ymm_r0 = _mm256_mul_ps(ymm_r0, sinom); //                                  vmulps ymmR0, ymmR0, sinom
            ymm_r0 = _mm256_sub_ps(ymm_r0, sqrt_c0); //                                vsubps ymmR0, ymmR0, sqrtC0
            ymm_r1 = _mm256_mul_ps(sinom, sqrt_c1); //                                 vmulps ymmR1, sinom, sqrtC1 // E2: sqrtC1 holds RSQRT_C0 = 3.0f, not RSQRT_C1 = -0.5f
            ymm_r0 = _mm256_mul_ps(ymm_r0, ymm_r1); //                                 vmulps ymmR0, ymmR0, ymmR1 // E3: the refined 1/sqrt, overwritten on the next line (as published)
            if REFINED_SINOM {
                sinom = ymm_r0; // corrected kernel only: the refinement reaches sinom (E3)
            }
            ymm_r0 = _mm256_mul_ps(sinsqr, sinom); //                                  vmulps ymmR0, sinsqr, sinom // E3: as published, sinom is still the vrsqrtps estimate

            // *** Compute the ArcTangent (omega = arctan(sinom*sinsqr, absCosom))
            ymm_r1 = abs_cosom; //                                                     vmovaps ymmR1, absCosom
            abs_cosom = _mm256_min_ps(abs_cosom, ymm_r0); //                           vminps absCosom, absCosom, ymmR0
            ymm_r0 = _mm256_max_ps(ymm_r0, ymm_r1); //                                 vmaxps ymmR0, ymmR0, ymmR1
            ymm_r1 = _mm256_cmp_ps::<_CMP_EQ_OQ>(ymm_r1, abs_cosom); //                vcmpeqps ymmR1, ymmR1, absCosom // E5
            ymm_r2 = _mm256_rcp_ps(ymm_r0); //                                         vrcpps ymmR2, ymmR0
            ymm_r0 = _mm256_mul_ps(ymm_r0, ymm_r2); //                                 vmulps ymmR0, ymmR0, ymmR2
            ymm_r0 = _mm256_mul_ps(ymm_r0, ymm_r2); //                                 vmulps ymmR0, ymmR0, ymmR2
            ymm_r2 = _mm256_add_ps(ymm_r2, ymm_r2); //                                 vaddps ymmR2, ymmR2, ymmR2
            ymm_r2 = _mm256_sub_ps(ymm_r2, ymm_r0); //                                 vsubps ymmR2, ymmR2, ymmR0
            abs_cosom = _mm256_mul_ps(abs_cosom, ymm_r2); //                           vmulps absCosom, absCosom, ymmR2
            ymm_r0 = ymm_r1; //                                                        vmovaps ymmR0, ymmR1 // copy the mask
            ymm_r0 = _mm256_and_ps(ymm_r0, set_sign_bit); //                           vandps ymmR0, ymmR0, setSignBit
            abs_cosom = _mm256_xor_ps(abs_cosom, ymm_r0); //                           vxorps absCosom, absCosom, ymmR0

            // cmp mask determines contents: Pi/2 or 0.0
            ymm_r1 = _mm256_and_ps(ymm_r1, half_pi); //                                vandps ymmR1, ymmR1, halfPi // E1: halfPi = 22/7/2

            // finish ArcTangent calculation
            ymm_r0 = _mm256_mul_ps(abs_cosom, abs_cosom); //                           vmulps ymmR0, absCosom, absCosom
            ymm_r2 = _mm256_mul_ps(atan_c0, ymm_r0); //                                vmulps ymmR2, atanC0, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c1); //                                vaddps ymmR2, ymmR2, atanC1
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c2); //                                vaddps ymmR2, ymmR2, atanC2
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c3); //                                vaddps ymmR2, ymmR2, atanC3
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c4); //                                vaddps ymmR2, ymmR2, atanC4
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c5); //                                vaddps ymmR2, ymmR2, atanC5
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c6); //                                vaddps ymmR2, ymmR2, atanC6
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c7); //                                vaddps ymmR2, ymmR2, atanC7
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, all_ones); //                               vaddps ymmR2, ymmR2, allOnes
            ymm_r2 = _mm256_mul_ps(ymm_r2, abs_cosom); //                              vmulps ymmR2, ymmR2, absCosom
            // Adjust by adding Pi/2 or 0.0
            omega = _mm256_add_ps(ymm_r2, ymm_r1); //                                  vaddps omega, ymmR2, ymmR1

            // *** Compute the first scale factor
            // Compute [1.0 - (move factor)]*above?
            ymm_r1 = _mm256_mul_ps(factor, omega); //                                  vmulps ymmR1, factor, omega
            ymm_r0 = _mm256_sub_ps(omega, ymm_r1); //                                  vsubps ymmR0, omega, ymmR1

            // Compute both scale factors
            // Compute sin(above)
            ymm_r1 = ymm_r0; //                                                        vmovaps ymmR1, ymmR0 // used to calculate scale0
            // Compute factor*omega
            ymm_r6 = _mm256_mul_ps(factor, omega); //                                  vmulps ymmR6, factor, omega
            ymm_r4 = ymm_r6; //                                                        vmovaps ymmR4, ymmR6 // used to calculate scale1
            ymm_r1 = _mm256_mul_ps(ymm_r1, ymm_r1); //                                 vmulps ymmR1, ymmR1, ymmR1
            ymm_r4 = _mm256_mul_ps(ymm_r4, ymm_r4); //                                 vmulps ymmR4, ymmR4, ymmR4 // scale1
            ymm_r2 = _mm256_mul_ps(sin_c0, ymm_r1); //                                 vmulps ymmR2, sinC0, ymmR1
            ymm_r5 = _mm256_mul_ps(sin_c0, ymm_r4); //                                 vmulps ymmR5, sinC0, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c1); //                                 vaddps ymmR2, ymmR2, sinC1
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c1); //                                 vaddps ymmR5, ymmR5, sinC1 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c2); //                                 vaddps ymmR2, ymmR2, sinC2
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c2); //                                 vaddps ymmR5, ymmR5, sinC2 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c3); //                                 vaddps ymmR2, ymmR2, sinC3
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c3); //                                 vaddps ymmR5, ymmR5, sinC3 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c4); //                                 vaddps ymmR2, ymmR2, sinC4
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c4); //                                 vaddps ymmR5, ymmR5, sinC4 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, all_ones); //                               vaddps ymmR2, ymmR2, allOnes
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0 // ymmR2 has the sin(x) for eight
            ymm_r5 = _mm256_add_ps(ymm_r5, all_ones); //                               vaddps ymmR5, ymmR5, allOnes // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r6); //                                 vmulps ymmR5, ymmR5, ymmR6 // ymmR5 has the sin(x) for eight

            // Compute above*sinom
            scale0 = _mm256_mul_ps(ymm_r2, sinom); //                                  vmulps scale0, ymmR2, sinom // scale0 has the first scale factor
            scale1 = _mm256_mul_ps(ymm_r5, sinom); //                                  vmulps scale1, ymmR5, sinom // scale1 has the second scale factor

            // *** invert the second scale factor if that first sum of products is negative
            scale1 = _mm256_xor_ps(scale1, sign_bit); //                               vxorps scale1, scale1, signBit

            // *** Compute the final results by scaling
            // Copy scale values for quat 1 and 0 to all spots in their 128-bit lane
            // ymmR6 = scale01, scale01, scale01, scale01, scale00, scale00, scale00, scale00
            ymm_r6 = _mm256_shuffle_ps::<0x00>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0x00
            // ymmR7 = scale11, scale11, scale11, scale11, scale10, scale10, scale10, scale10
            ymm_r7 = _mm256_shuffle_ps::<0x00>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0x00
            // Scale the original From quaternions 1 and 0
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_x); //                                 vmulps ymmR0, ymmR6, fromX
            // Scale the original To quaternions 1 and 0
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_x); //                                   vmulps ymmR1, ymmR7, toX
            // Add to complete the SLERP, then store results to memory.
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 0 and 1 results
            _mm256_store_ps(p_results.add(i / 8 * 32), ymm_r2); //                     vmovaps [pResults+i/8*32], ymmR2

            // Copy scale values for quat 3 and 2 to all spots in their 128-bit lane
            ymm_r6 = _mm256_shuffle_ps::<0x55>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0x55
            ymm_r7 = _mm256_shuffle_ps::<0x55>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0x55
            // Scale, add, and store results for quats 2 and 3
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_y); //                                 vmulps ymmR0, ymmR6, fromY
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_y); //                                   vmulps ymmR1, ymmR7, toY
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 2 and 3 results
            _mm256_store_ps(p_results.add(i / 8 * 32 + 2 * 4), ymm_r2); //             vmovaps [pResults+i/8*32+2*4], ymmR2

            // Copy scale values for quat 5 and 4 to all spots in their 128-bit lane
            ymm_r6 = _mm256_shuffle_ps::<0xaa>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0xaa
            ymm_r7 = _mm256_shuffle_ps::<0xaa>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0xaa
            // Scale, add, and store results for quats 4 and 5
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_z); //                                 vmulps ymmR0, ymmR6, fromZ
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_z); //                                   vmulps ymmR1, ymmR7, toZ
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 4 and 5 results
            _mm256_store_ps(p_results.add(i / 8 * 32 + 4 * 4), ymm_r2); //             vmovaps [pResults+i/8*32+4*4], ymmR2

            // Copy scale values for quat 7 and 6 to all spots in their 128-bit lane
            ymm_r6 = _mm256_shuffle_ps::<0xff>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0xff
            ymm_r7 = _mm256_shuffle_ps::<0xff>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0xff
            // Scale, add, and store results for quats 6 and 7
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_w); //                                 vmulps ymmR0, ymmR6, fromW
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_w); //                                   vmulps ymmR1, ymmR7, toW
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 6 and 7 results
            _mm256_store_ps(p_results.add(i / 8 * 32 + 6 * 4), ymm_r2); //             vmovaps [pResults+i/8*32+6*4], ymmR2

            // Unrolled once - repeat the above for another eight quaternions
            from_x = _mm256_load_ps(p_from_quat.add(i / 8 * 32 + 32)); //              vmovaps fromX, [pFromQuat+i/8*32+32]
            // Load From-Quat 2 and Quat 3 into one register
            from_y = _mm256_load_ps(p_from_quat.add(i / 8 * 32 + 2 * 4 + 32)); //      vmovaps fromY, [pFromQuat+i/8*32+2*4+32]
            // Load From-Quat 4 and Quat 5 into one register
            from_z = _mm256_load_ps(p_from_quat.add(i / 8 * 32 + 4 * 4 + 32)); //      vmovaps fromZ, [pFromQuat+i/8*32+4*4+32]
            // Load From-Quat 6 and Quat 7 into one register
            from_w = _mm256_load_ps(p_from_quat.add(i / 8 * 32 + 6 * 4 + 32)); //      vmovaps fromW, [pFromQuat+i/8*32+6*4+32]
            // Load To-Quat 0 and Quat 1 into one register
            to_x = _mm256_load_ps(p_to_quat.add(i / 8 * 32 + 32)); //                  vmovaps toX, [pToQuat+i/8*32+32]
            // Load To-Quat 2 and Quat 3 into one register
            to_y = _mm256_load_ps(p_to_quat.add(i / 8 * 32 + 2 * 4 + 32)); //          vmovaps toY, [pToQuat+i/8*32+2*4+32]
            // Load To-Quat 4 and Quat 5 into one register
            to_z = _mm256_load_ps(p_to_quat.add(i / 8 * 32 + 4 * 4 + 32)); //          vmovaps toZ, [pToQuat+i/8*32+4*4+32]
            // Load To-Quat 6 and Quat 7 into one register
            to_w = _mm256_load_ps(p_to_quat.add(i / 8 * 32 + 6 * 4 + 32)); //          vmovaps toW, [pToQuat+i/8*32+6*4+32]

            // *** Compute fromx*tox, fromy*toy, fromz*toz, fromw*tow
            ymm_r0 = _mm256_mul_ps(from_x, to_x); //                                   vmulps ymmR0, fromX, toX // Quaternion 0 and 1
            ymm_r1 = _mm256_mul_ps(from_y, to_y); //                                   vmulps ymmR1, fromY, toY // Quaternion 2 and 3
            ymm_r2 = _mm256_mul_ps(from_z, to_z); //                                   vmulps ymmR2, fromZ, toZ // Quaternion 4 and 5
            ymm_r3 = _mm256_mul_ps(from_w, to_w); //                                   vmulps ymmR3, fromW, toW // Quaternion 6 and 7

            // *** Swizzle to perform adds
            // Start collecting terms (step 1 of 2)
            // Get y3, y1, x3, x1, y2, y0, x2, x0
            ymm_r4 = _mm256_unpacklo_ps(ymm_r0, ymm_r1); //                            vunpcklps ymmR4, ymmR0, ymmR1
            // Get w3, w1, z3, z1, w2, w0, z2, z0
            ymm_r5 = _mm256_unpackhi_ps(ymm_r0, ymm_r1); //                            vunpckhps ymmR5, ymmR0, ymmR1
            // Get y7, y5, x7, x5, y6, y4, x6, x4
            ymm_r6 = _mm256_unpacklo_ps(ymm_r2, ymm_r3); //                            vunpcklps ymmR6, ymmR2, ymmR3
            // Get w7, w5, z7, z5, w6, w4, z6, z4
            ymm_r7 = _mm256_unpackhi_ps(ymm_r2, ymm_r3); //                            vunpckhps ymmR7, ymmR2, ymmR3

            // Finish collecting terms (step 2 of 2)
            // Get x7, x5, x3, x1, x6, x4, x2, x0
            ymm_r0 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(ymm_r4), _mm256_castps_pd(ymm_r6))); // vunpcklpd ymmR0, ymmR4, ymmR6
            // Get y7, y5, y3, y1, y6, y4, y2, y0
            ymm_r1 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(ymm_r4), _mm256_castps_pd(ymm_r6))); // vunpckhpd ymmR1, ymmR4, ymmR6
            ymm_r4 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR4, ymmR0, ymmR1
            // Get z7, z5, z3, z1, z6, z4, z2, z0
            ymm_r2 = _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(ymm_r5), _mm256_castps_pd(ymm_r7))); // vunpcklpd ymmR2, ymmR5, ymmR7
            // Get w7, w5, w3, w1, w6, w4, w2, w0
            ymm_r3 = _mm256_castpd_ps(_mm256_unpackhi_pd(_mm256_castps_pd(ymm_r5), _mm256_castps_pd(ymm_r7))); // vunpckhpd ymmR3, ymmR5, ymmR7

            // Finish adding the terms
            ymm_r5 = _mm256_add_ps(ymm_r2, ymm_r3); //                                 vaddps ymmR5, ymmR2, ymmR3
            cosom = _mm256_add_ps(ymm_r4, ymm_r5); //                                  vaddps cosom, ymmR4, ymmR5

            // *** Compute the absolute value of above
            abs_cosom = _mm256_and_ps(cosom, clear_sign_bit); //                       vandps absCosom, cosom, clearSignBit // E4: clearSignBit as intended
            sign_bit = _mm256_and_ps(cosom, set_sign_bit); //                          vandps signBit, cosom, setSignBit // Used to invert scale1 later; E4: setSignBit as intended

            // *** Compute 1.0 - (above squared)
            ymm_r0 = _mm256_mul_ps(abs_cosom, abs_cosom); //                           vmulps ymmR0, absCosom, absCosom
            sinsqr = _mm256_sub_ps(all_ones, ymm_r0); //                               vsubps sinsqr, allOnes, ymmR0
            // Watch for very small values
            ymm_r1 = _mm256_xor_ps(ymm_r1, ymm_r1); //                                 vxorps ymmR1, ymmR1, ymmR1 // Zeros
            ymm_r1 = _mm256_cmp_ps::<_CMP_EQ_OQ>(ymm_r1, sinsqr); //                   vcmpeqps ymmR1, ymmR1, sinsqr // E5: _mm256_cmpeq_ps, read as vcmpeqps
            ymm_r1 = _mm256_and_ps(ymm_r1, tiny); //                                   vandps ymmR1, ymmR1, tiny // Make them tiny, not zero
            sinsqr = _mm256_and_ps(sinsqr, clear_sign_bit); //                         vandps sinsqr, sinsqr, clearSignBit // Make them positive
            sinsqr = _mm256_or_ps(sinsqr, ymm_r1); //                                  vorps sinsqr, sinsqr, ymmR1

            // Compute 1/(square root of above)
            sinom = _mm256_rsqrt_ps(sinsqr); //                                        vrsqrtps sinom, sinsqr
            ymm_r0 = _mm256_mul_ps(sinsqr, sinom); //                                  vmulps ymmR0, sinsqr, sinom
            ymm_r0 = _mm256_mul_ps(ymm_r0, sinom); //                                  vmulps ymmR0, ymmR0, sinom
            ymm_r0 = _mm256_sub_ps(ymm_r0, sqrt_c0); //                                vsubps ymmR0, ymmR0, sqrtC0
            ymm_r1 = _mm256_mul_ps(sinom, sqrt_c1); //                                 vmulps ymmR1, sinom, sqrtC1 // E2: sqrtC1 holds RSQRT_C0 = 3.0f, not RSQRT_C1 = -0.5f
            ymm_r0 = _mm256_mul_ps(ymm_r0, ymm_r1); //                                 vmulps ymmR0, ymmR0, ymmR1 // E3: the refined 1/sqrt, overwritten on the next line (as published)
            if REFINED_SINOM {
                sinom = ymm_r0; // corrected kernel only: the refinement reaches sinom (E3)
            }
            ymm_r0 = _mm256_mul_ps(sinsqr, sinom); //                                  vmulps ymmR0, sinsqr, sinom // E3: as published, sinom is still the vrsqrtps estimate

            // *** Compute the ArcTangent (omega = arctan(sinom*sinsqr, absCosom)
            ymm_r1 = abs_cosom; //                                                     vmovaps ymmR1, absCosom
            abs_cosom = _mm256_min_ps(abs_cosom, ymm_r0); //                           vminps absCosom, absCosom, ymmR0
            ymm_r0 = _mm256_max_ps(ymm_r0, ymm_r1); //                                 vmaxps ymmR0, ymmR0, ymmR1
            ymm_r1 = _mm256_cmp_ps::<_CMP_EQ_OQ>(ymm_r1, abs_cosom); //                vcmpeqps ymmR1, ymmR1, absCosom // E5
            ymm_r2 = _mm256_rcp_ps(ymm_r0); //                                         vrcpps ymmR2, ymmR0
            ymm_r0 = _mm256_mul_ps(ymm_r0, ymm_r2); //                                 vmulps ymmR0, ymmR0, ymmR2
            ymm_r0 = _mm256_mul_ps(ymm_r0, ymm_r2); //                                 vmulps ymmR0, ymmR0, ymmR2
            ymm_r2 = _mm256_add_ps(ymm_r2, ymm_r2); //                                 vaddps ymmR2, ymmR2, ymmR2
            ymm_r2 = _mm256_sub_ps(ymm_r2, ymm_r0); //                                 vsubps ymmR2, ymmR2, ymmR0
            abs_cosom = _mm256_mul_ps(abs_cosom, ymm_r2); //                           vmulps absCosom, absCosom, ymmR2
            ymm_r0 = ymm_r1; //                                                        vmovaps ymmR0, ymmR1 // copy the mask
            ymm_r0 = _mm256_and_ps(ymm_r0, set_sign_bit); //                           vandps ymmR0, ymmR0, setSignBit
            abs_cosom = _mm256_xor_ps(abs_cosom, ymm_r0); //                           vxorps absCosom, absCosom, ymmR0

            // cmp mask determines contents: Pi/2 or 0.0
            ymm_r1 = _mm256_and_ps(ymm_r1, half_pi); //                                vandps ymmR1, ymmR1, halfPi // E1: halfPi = 22/7/2
            ymm_r0 = _mm256_mul_ps(abs_cosom, abs_cosom); //                           vmulps ymmR0, absCosom, absCosom
            ymm_r2 = _mm256_mul_ps(atan_c0, ymm_r0); //                                vmulps ymmR2, atanC0, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c1); //                                vaddps ymmR2, ymmR2, atanC1
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c2); //                                vaddps ymmR2, ymmR2, atanC2
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c3); //                                vaddps ymmR2, ymmR2, atanC3
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c4); //                                vaddps ymmR2, ymmR2, atanC4
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c5); //                                vaddps ymmR2, ymmR2, atanC5
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c6); //                                vaddps ymmR2, ymmR2, atanC6
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, atan_c7); //                                vaddps ymmR2, ymmR2, atanC7
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0
            ymm_r2 = _mm256_add_ps(ymm_r2, all_ones); //                               vaddps ymmR2, ymmR2, allOnes
            ymm_r2 = _mm256_mul_ps(ymm_r2, abs_cosom); //                              vmulps ymmR2, ymmR2, absCosom
            omega = _mm256_add_ps(ymm_r2, ymm_r1); //                                  vaddps omega, ymmR2, ymmR1

            // *** Compute the first scale factor
            // Compute [1.0 - (move factor)]*above?
            ymm_r1 = _mm256_mul_ps(factor, omega); //                                  vmulps ymmR1, factor, omega
            ymm_r0 = _mm256_sub_ps(omega, ymm_r1); //                                  vsubps ymmR0, omega, ymmR1

            // Compute both scale factors
            // Compute sin(above)
            ymm_r1 = ymm_r0; //                                                        vmovaps ymmR1, ymmR0 // used to calculate scale0
            // Compute factor*omega
            ymm_r6 = _mm256_mul_ps(factor, omega); //                                  vmulps ymmR6, factor, omega
            ymm_r4 = ymm_r6; //                                                        vmovaps ymmR4, ymmR6 // used to calculate scale1
            ymm_r1 = _mm256_mul_ps(ymm_r1, ymm_r1); //                                 vmulps ymmR1, ymmR1, ymmR1
            ymm_r4 = _mm256_mul_ps(ymm_r4, ymm_r4); //                                 vmulps ymmR4, ymmR4, ymmR4 // scale1
            ymm_r2 = _mm256_mul_ps(sin_c0, ymm_r1); //                                 vmulps ymmR2, sinC0, ymmR1
            ymm_r5 = _mm256_mul_ps(sin_c0, ymm_r4); //                                 vmulps ymmR5, sinC0, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c1); //                                 vaddps ymmR2, ymmR2, sinC1
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c1); //                                 vaddps ymmR5, ymmR5, sinC1 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c2); //                                 vaddps ymmR2, ymmR2, sinC2
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c2); //                                 vaddps ymmR5, ymmR5, sinC2 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c3); //                                 vaddps ymmR2, ymmR2, sinC3
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c3); //                                 vaddps ymmR5, ymmR5, sinC3 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, sin_c4); //                                 vaddps ymmR2, ymmR2, sinC4
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r1); //                                 vmulps ymmR2, ymmR2, ymmR1
            ymm_r5 = _mm256_add_ps(ymm_r5, sin_c4); //                                 vaddps ymmR5, ymmR5, sinC4 // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r4); //                                 vmulps ymmR5, ymmR5, ymmR4 // scale1
            ymm_r2 = _mm256_add_ps(ymm_r2, all_ones); //                               vaddps ymmR2, ymmR2, allOnes
            ymm_r2 = _mm256_mul_ps(ymm_r2, ymm_r0); //                                 vmulps ymmR2, ymmR2, ymmR0 // ymmR2 has the sin(x) for eight
            ymm_r5 = _mm256_add_ps(ymm_r5, all_ones); //                               vaddps ymmR5, ymmR5, allOnes // scale1
            ymm_r5 = _mm256_mul_ps(ymm_r5, ymm_r6); //                                 vmulps ymmR5, ymmR5, ymmR6 // ymmR5 has the sin(x) for eight

            // Compute above*sinom
            scale0 = _mm256_mul_ps(ymm_r2, sinom); //                                  vmulps scale0, ymmR2, sinom // scale0 has the first scale factor
            scale1 = _mm256_mul_ps(ymm_r5, sinom); //                                  vmulps scale1, ymmR5, sinom // scale1 has the second scale factor

            // *** invert the second scale factor if
            // *** that first sum of products is negative
            scale1 = _mm256_xor_ps(scale1, sign_bit); //                               vxorps scale1, scale1, signBit

            // *** Compute the final results by scaling, adding, then storing
            ymm_r6 = _mm256_shuffle_ps::<0x00>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0x00
            ymm_r7 = _mm256_shuffle_ps::<0x00>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0x00
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_x); //                                 vmulps ymmR0, ymmR6, fromX
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_x); //                                   vmulps ymmR1, ymmR7, toX
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 0 and 1 results
            _mm256_store_ps(p_results.add(i / 8 * 32 + 32), ymm_r2); //                vmovaps [pResults+i/8*32+32], ymmR2

            ymm_r6 = _mm256_shuffle_ps::<0x55>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0x55
            ymm_r7 = _mm256_shuffle_ps::<0x55>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0x55
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_y); //                                 vmulps ymmR0, ymmR6, fromY
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_y); //                                   vmulps ymmR1, ymmR7, toY
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 2 and 3 results
            _mm256_store_ps(p_results.add(i / 8 * 32 + 2 * 4 + 32), ymm_r2); //        vmovaps [pResults+i/8*32+2*4+32], ymmR2

            ymm_r6 = _mm256_shuffle_ps::<0xaa>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0xaa
            ymm_r7 = _mm256_shuffle_ps::<0xaa>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0xaa
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_z); //                                 vmulps ymmR0, ymmR6, fromZ
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_z); //                                   vmulps ymmR1, ymmR7, toZ
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 4 and 5 results
            _mm256_store_ps(p_results.add(i / 8 * 32 + 4 * 4 + 32), ymm_r2); //        vmovaps [pResults+i/8*32+4*4+32], ymmR2

            ymm_r6 = _mm256_shuffle_ps::<0xff>(scale0, scale0); //                     vshufps ymmR6, scale0, scale0, 0xff
            ymm_r7 = _mm256_shuffle_ps::<0xff>(scale1, scale1); //                     vshufps ymmR7, scale1, scale1, 0xff
            ymm_r0 = _mm256_mul_ps(ymm_r6, from_w); //                                 vmulps ymmR0, ymmR6, fromW
            ymm_r1 = _mm256_mul_ps(ymm_r7, to_w); //                                   vmulps ymmR1, ymmR7, toW
            ymm_r2 = _mm256_add_ps(ymm_r0, ymm_r1); //                                 vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 6 and 7 results
            _mm256_store_ps(p_results.add(i / 8 * 32 + 6 * 4 + 32), ymm_r2); //        vmovaps [pResults+i/8*32+6*4+32], ymmR2
        }
        i += 16; //                                                          i += 16)
    }

    // Handle any remaining quaternions
    // SAFETY: elements mod16QuaternionCount..count, the caller's contract.
    unsafe {
        remainder(
            result_quaternion,
            from_quaternion,
            to_quaternion,
            g_factor,
            mod16_quaternion_count,
            g_quaternion_count,
        )
    };
}
