//! The 8-wide pieces that the AVX2 + FMA successors of `slerp_joints` and
//! `lerp_joints` (`Impl::Avx2`) share: the joint-pair layout, the horizontal
//! sum of four such registers, the lane broadcast and the slerp arithmetic of
//! Appendix A (`SlerpOptimized`) on eight lanes with fused multiply-adds.
//!
//! **Layout.** A block handles eight joints `j0..j7` (eight index entries).
//! A *pair register* holds the 16-byte half (`q` or `t`) of joint `jk` in
//! its low 128-bit lane and that of joint `j(k+4)` in its high lane, `k` in
//! `0..4`: it is one 128-bit load and one `vinsertf128` from memory
//! ([`load_pair`]), neither of which queues on a shuffle port, and it is
//! stored back with one 128-bit store and one `vextractf128` to memory
//! ([`store_pair`]). [`hsum4`] turns the four pair registers of products
//! into one *SoA register* `(s0, s1, s2, s3 | s4, s5, s6, s7)` (lane `k` of
//! the low half is joint `jk`, of the high half joint `j(k+4)`), and
//! [`lane`] broadcasts lane `k` of each half of a SoA register to all four
//! floats of that half, which is exactly the pair register layout again.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm and its coefficients). Port licensed under the GNU LGPL 2.1 or
//! later.

use crate::types::JointQuat;
use crate::x86::consts::{
    SIMD_SP_ABS_MASK, SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4,
    SIMD_SP_ATAN_C5, SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_ONE, SIMD_SP_RSQRT_C1,
    SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0, SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4, SIMD_SP_TINY,
};
use core::arch::x86_64::*;

/// `_mm256_shuffle_ps` immediate `R_SHUFFLE_PS( 0, 2, 0, 2 )`: the even
/// floats of each 128-bit lane of `a`, then of `b`.
const EVEN: i32 = crate::x86::shuffle::r_shuffle_ps(0, 2, 0, 2);
/// `R_SHUFFLE_PS( 1, 3, 1, 3 )`: the odd floats.
const ODD: i32 = crate::x86::shuffle::r_shuffle_ps(1, 3, 1, 3);

/// A float constant of `src/x86/consts.rs` in all eight lanes (LLVM emits a
/// `vbroadcastss` from the constant pool or a memory operand).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn splat(c: &'static crate::x86::consts::Align16<[f32; 4]>) -> __m256 {
    _mm256_set1_ps(c.0[0])
}

/// A bit-pattern constant of `src/x86/consts.rs` in all eight lanes.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn splat_bits(c: &'static crate::x86::consts::Align16<[u32; 4]>) -> __m256 {
    _mm256_castsi256_ps(_mm256_set1_epi32(c.0[0] as i32))
}

/// The pair register of the 16 bytes at `lo` (low lane) and at `hi` (high
/// lane): `vmovups xmm, [lo]` + `vinsertf128 ymm, ymm, [hi], 1`.
///
/// # Safety
///
/// `lo` and `hi` are each valid for a 16-byte read (no alignment needed).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn load_pair(lo: *const f32, hi: *const f32) -> __m256 {
    // SAFETY: the caller guarantees both 16-byte reads; unaligned loads.
    unsafe { _mm256_loadu2_m128(hi, lo) }
}

/// Stores the low lane of `v` at `lo` and its high lane at `hi`
/// (`vmovups [lo], xmm` + `vextractf128 [hi], ymm, 1`).
///
/// # Safety
///
/// `lo` and `hi` are each valid for a 16-byte write (no alignment needed).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn store_pair(lo: *mut f32, hi: *mut f32, v: __m256) {
    // SAFETY: the caller guarantees both 16-byte writes; unaligned stores.
    unsafe { _mm256_storeu2_m128(hi, lo, v) }
}

/// The four-float sums of four pair registers, as one SoA register: lane
/// `k` of the low half is `x + y + z + w` of `p[k]`'s low lane, lane `k` of
/// the high half that of `p[k]`'s high lane, summed as `(x + y) + (z + w)`.
/// Written as six in-lane shuffles and three adds; LLVM recognises the
/// pattern and emits three `vhaddps` (the same operations: two shuffles and
/// an add each), all within 128-bit lanes, no cross-lane shuffle.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn hsum4(p: &[__m256; 4]) -> __m256 {
    // (0x, 0z, 1x, 1z) + (0y, 0w, 1y, 1w) = (0 x+y, 0 z+w, 1 x+y, 1 z+w)
    let u01 = _mm256_add_ps(_mm256_shuffle_ps::<EVEN>(p[0], p[1]), _mm256_shuffle_ps::<ODD>(p[0], p[1]));
    let u23 = _mm256_add_ps(_mm256_shuffle_ps::<EVEN>(p[2], p[3]), _mm256_shuffle_ps::<ODD>(p[2], p[3]));
    // (0 x+y, 1 x+y, 2 x+y, 3 x+y) + (0 z+w, 1 z+w, 2 z+w, 3 z+w)
    _mm256_add_ps(_mm256_shuffle_ps::<EVEN>(u01, u23), _mm256_shuffle_ps::<ODD>(u01, u23))
}

/// Lane `K` of each 128-bit half of the SoA register `v`, broadcast to the
/// four floats of that half: the pair register of joints `jK` and
/// `j(K+4)` (`vpermilps ymm, ymm, K * 0x55`, one in-lane shuffle).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn lane<const K: i32>(v: __m256) -> __m256 {
    match K {
        0 => _mm256_permute_ps::<0x00>(v),
        1 => _mm256_permute_ps::<0x55>(v),
        2 => _mm256_permute_ps::<0xAA>(v),
        _ => _mm256_permute_ps::<0xFF>(v),
    }
}

/// `rsqrtps` and one Newton-Raphson step: the listing's step
/// `-0.5 r (x r² - 3)` (section 6), rewritten as `r - (-0.5 r)(1 - x r · r)`
/// (the same step, `SIMD_SP_rsqrt_c1` = -0.5) so that FMA rounds the small
/// correction `1 - x r²` once and adds it to `r` last: the error of the
/// refined value drops from about 2 ulp to below 1 (the successor's slerp
/// against the f64 oracle: 3.34e-7 where the listing's form gives 4.53e-7).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn rsqrt_nr(x: __m256) -> __m256 {
    let r = _mm256_rsqrt_ps(x);
    let e = _mm256_fnmadd_ps(_mm256_mul_ps(x, r), r, splat(&SIMD_SP_ONE));
    _mm256_fnmadd_ps(_mm256_mul_ps(r, splat(&SIMD_SP_RSQRT_C1)), e, r)
}

/// `[f(0), .., f(N - 1)]` of `__m256` for the `N` of the enclosing
/// function: one step of `N` independent blocks, written so that the steps of
/// the blocks interleave in program order. A loop, not
/// `core::array::from_fn`: closures do not inherit `#[target_feature]` and
/// are not always inlined.
macro_rules! each {
    (|$v:ident| $e:expr) => {{
        let mut out = [core::arch::x86_64::_mm256_setzero_ps(); N];
        for $v in 0..N {
            out[$v] = $e;
        }
        out
    }};
}
pub(crate) use each;

/// The signed scales `(scale0, scale1)` of `SlerpOptimized` for `N`
/// registers of eight dot products `cosom` at `lerp` (broadcast): Appendix
/// A's arithmetic from `movaps xmm1, xmm0` (after the dot product) to `xorps
/// xmm6, xmm1`, with FMA where a multiply feeds an add. The `N` registers
/// are independent chains, interleaved step by step: one chain is about 100
/// cycles of latency, and interleaving is what lets the core overlap them.
///
/// - `1 - cos²` is one `vfnmadd` (rounded once); ±0 is replaced by
///   `SIMD_SP_tiny` and a negative value made positive (`SIMD_SP_absMask`),
///   as the listing does (no linear fallback, erratum E7 kept);
/// - `sinom = 1 / sqrt(1 - cos²)` by [`rsqrt_nr`]; `sin = (1 - cos²) sinom`;
/// - `omega = atan2(sin, |cos|)` by `ATanPositive`, selected as the listing
///   does (`min`/`max`/`cmpeq`, so a tie `sin == |cos|` takes the `π/2 - ...`
///   branch, erratum E8 kept), `1 / max` by `rcpps` and one Newton-Raphson
///   step `r (2 - max r)`;
/// - the `ATanPositive` and `SinZeroHalfPI` polynomials with the paper's
///   coefficients, evaluated with FMA in Estrin's scheme (pairs of terms
///   first, then powers `s²`, `s⁴`) instead of Horner's: the same polynomial,
///   rounded differently, with a dependency chain of 5 FMA latencies instead
///   of 9 (atan) and 4 instead of 6 (sin);
/// - `omega1 = lerp omega`, `omega0 = omega - omega1` (the listing's form);
/// - `scale1` is negated where `cosom < 0`: the C's `cosom >= 0.0f` test,
///   which keeps `scale1` for a dot product of `-0.0` (erratum E3
///   corrected), not the listing's sign bit.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn slerp_scales<const N: usize>(cosom: [__m256; N], lerp: __m256) -> ([__m256; N], [__m256; N]) {
    let sign_bit = splat_bits(&SIMD_SP_SIGN_BIT);
    let abs_mask = splat_bits(&SIMD_SP_ABS_MASK);
    let one = splat(&SIMD_SP_ONE);
    let zero = _mm256_setzero_ps();
    // scale1's sign: negative where cosom < 0 (false for -0.0 and NaN).
    let flip: [__m256; N] = each!(|v| _mm256_and_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(cosom[v], zero), sign_bit));
    let abs_cos: [__m256; N] = each!(|v| _mm256_and_ps(cosom[v], abs_mask));

    // sinSqr = 1 - cos², made safe for rsqrt as the listing does.
    let sin_sqr: [__m256; N] = each!(|v| _mm256_fnmadd_ps(cosom[v], cosom[v], one));
    let tiny: [__m256; N] =
        each!(|v| _mm256_and_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(sin_sqr[v], zero), splat(&SIMD_SP_TINY)));
    let sin_sqr: [__m256; N] = each!(|v| _mm256_or_ps(_mm256_and_ps(sin_sqr[v], abs_mask), tiny[v]));
    let sinom: [__m256; N] = each!(|v| rsqrt_nr(sin_sqr[v]));
    let sin: [__m256; N] = each!(|v| _mm256_mul_ps(sin_sqr[v], sinom[v]));

    // omega = ATanPositive( y = sin, x = |cos| ), the listing's selection.
    let min: [__m256; N] = each!(|v| _mm256_min_ps(abs_cos[v], sin[v]));
    let max: [__m256; N] = each!(|v| _mm256_max_ps(sin[v], abs_cos[v]));
    let y_ge_x: [__m256; N] = each!(|v| _mm256_cmp_ps::<_CMP_EQ_OQ>(abs_cos[v], min[v]));
    let r: [__m256; N] = each!(|v| _mm256_rcp_ps(max[v]));
    let r: [__m256; N] = each!(|v| _mm256_fmadd_ps(r[v], _mm256_fnmadd_ps(max[v], r[v], one), r[v]));
    let a: [__m256; N] = each!(|v| _mm256_xor_ps(_mm256_mul_ps(min[v], r[v]), _mm256_and_ps(y_ge_x[v], sign_bit)));
    let offset: [__m256; N] = each!(|v| _mm256_and_ps(y_ge_x[v], splat(&SIMD_SP_HALF_PI)));
    let s: [__m256; N] = each!(|v| _mm256_mul_ps(a[v], a[v]));
    // ((c0 s + c1) s² + (c2 s + c3)) s⁴ + ((c4 s + c5) s² + (c6 s + c7)),
    // then · s + 1, then · a + offset.
    let s2: [__m256; N] = each!(|v| _mm256_mul_ps(s[v], s[v]));
    let s4: [__m256; N] = each!(|v| _mm256_mul_ps(s2[v], s2[v]));
    let a01: [__m256; N] = each!(|v| _mm256_fmadd_ps(splat(&SIMD_SP_ATAN_C0), s[v], splat(&SIMD_SP_ATAN_C1)));
    let a23: [__m256; N] = each!(|v| _mm256_fmadd_ps(splat(&SIMD_SP_ATAN_C2), s[v], splat(&SIMD_SP_ATAN_C3)));
    let a45: [__m256; N] = each!(|v| _mm256_fmadd_ps(splat(&SIMD_SP_ATAN_C4), s[v], splat(&SIMD_SP_ATAN_C5)));
    let a67: [__m256; N] = each!(|v| _mm256_fmadd_ps(splat(&SIMD_SP_ATAN_C6), s[v], splat(&SIMD_SP_ATAN_C7)));
    let b03: [__m256; N] = each!(|v| _mm256_fmadd_ps(a01[v], s2[v], a23[v]));
    let b47: [__m256; N] = each!(|v| _mm256_fmadd_ps(a45[v], s2[v], a67[v]));
    let q: [__m256; N] = each!(|v| _mm256_fmadd_ps(b03[v], s4[v], b47[v]));
    let p: [__m256; N] = each!(|v| _mm256_fmadd_ps(q[v], s[v], one));
    let omega: [__m256; N] = each!(|v| _mm256_fmadd_ps(p[v], a[v], offset[v]));

    let omega1: [__m256; N] = each!(|v| _mm256_mul_ps(lerp, omega[v]));
    let omega0: [__m256; N] = each!(|v| _mm256_sub_ps(omega[v], omega1[v]));

    // SinZeroHalfPI of both angles: ((c0 x + c1) x² + (c2 x + c3)) x + c4,
    // then · x + 1, then · omega, with x = omega².
    let mut scale = [omega0, omega1];
    for w in &mut scale {
        let x: [__m256; N] = each!(|v| _mm256_mul_ps(w[v], w[v]));
        let x2: [__m256; N] = each!(|v| _mm256_mul_ps(x[v], x[v]));
        let a01: [__m256; N] = each!(|v| _mm256_fmadd_ps(splat(&SIMD_SP_SIN_C0), x[v], splat(&SIMD_SP_SIN_C1)));
        let a23: [__m256; N] = each!(|v| _mm256_fmadd_ps(splat(&SIMD_SP_SIN_C2), x[v], splat(&SIMD_SP_SIN_C3)));
        let b: [__m256; N] = each!(|v| _mm256_fmadd_ps(a01[v], x2[v], a23[v]));
        let c: [__m256; N] = each!(|v| _mm256_fmadd_ps(b[v], x[v], splat(&SIMD_SP_SIN_C4)));
        let p: [__m256; N] = each!(|v| _mm256_fmadd_ps(c[v], x[v], one));
        *w = each!(|v| _mm256_mul_ps(_mm256_mul_ps(w[v], p[v]), sinom[v]));
    }
    let [scale0, scale1] = scale;
    (scale0, each!(|v| _mm256_xor_ps(scale1[v], flip[v])))
}

/// The float at `off` floats into joint `j` of `list` (address arithmetic
/// only).
#[inline(always)]
pub(crate) fn at(list: *const JointQuat, j: usize, off: usize) -> *mut f32 {
    list.wrapping_add(j).cast::<f32>().wrapping_add(off).cast_mut()
}

/// The pair register of the 16-byte halves at `off` floats into joints
/// `j[k]` (low lane) and `j[k + 4]` (high lane) of `list`.
///
/// # Safety
///
/// `list.add(j[k])` and `list.add(j[k + 4])` are valid joints for reads.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn pair(list: *const JointQuat, j: &[usize; 8], k: usize, off: usize) -> __m256 {
    // SAFETY: the caller guarantees both joints; `off` is 0 or 4 floats, a
    // 16-byte half inside the 32-byte joint.
    unsafe { load_pair(at(list, j[k], off), at(list, j[k + 4], off)) }
}

/// The listings' `lerp >= 1` (and NaN `lerp`) early-out of both joint
/// interpolators: copies `blend_joints[j]` to `joints[j]` for every `j` in
/// `index[0..n]`, in order, one 256-bit load and store per joint.
///
/// # Safety
///
/// `index` points to `n` readable `i32`, each a joint of both lists
/// (`joints` valid for writes, `blend_joints` for reads), which do not
/// overlap; AVX is available.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn copy_indexed(joints: *mut JointQuat, blend_joints: *const JointQuat, index: *const i32, n: usize) {
    for i in 0..n {
        // SAFETY: `i < n` entries of `index` are readable; the entry names a
        // joint of both lists (32 bytes each, unaligned 256-bit access), and
        // the lists do not overlap (caller's contract).
        unsafe {
            let j = *index.add(i) as usize;
            _mm256_storeu_ps(joints.add(j).cast(), _mm256_loadu_ps(blend_joints.add(j).cast()));
        }
    }
}

/// The index entries of the block of eight that starts at entry `i` of
/// `index[0..n]`: `index.add(i)` itself when eight entries remain, else
/// `pad` filled with the `n - i` remaining entries and padded with the last
/// entry `index[n - 1]` (a padding lane repeats that joint's loads,
/// arithmetic and stores, so nothing outside what the index names is
/// touched).
///
/// # Safety
///
/// `i < n` and `index` points to `n` readable `i32`.
#[inline(always)]
pub(crate) unsafe fn block_of_8(index: *const i32, i: usize, n: usize, pad: &mut [i32; 8]) -> *const i32 {
    // SAFETY: entries `i..min(i + 8, n)` and `n - 1` of `index` are readable
    // (caller's contract); `pad` holds eight entries.
    unsafe {
        if n - i >= 8 {
            index.add(i)
        } else {
            pad.fill(*index.add(n - 1));
            core::ptr::copy_nonoverlapping(index.add(i), pad.as_mut_ptr(), n - i);
            pad.as_ptr()
        }
    }
}
