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

use crate::consts::{
    SIMD_SP_ABS_MASK, SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4,
    SIMD_SP_ATAN_C5, SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_ONE, SIMD_SP_POLY_FLOOR,
    SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0, SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4, SIMD_SP_TINY,
};
use crate::types::JointQuat;
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
pub(crate) fn splat(c: &'static crate::consts::Align16<[f32; 4]>) -> __m256 {
    _mm256_set1_ps(c.0[0])
}

/// A bit-pattern constant of `src/x86/consts.rs` in all eight lanes.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn splat_bits(c: &'static crate::consts::Align16<[u32; 4]>) -> __m256 {
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

/// `1 / sqrt(x)`, both correctly rounded (`vsqrtps`, then `vdivps`): the
/// deterministic successors' reciprocal square root (`lerp_joints`' norm),
/// in place of the listing's `rsqrtps` estimate and Newton-Raphson step
/// (whose bits differ between CPU vendors). The portable forms compute `1.0 / x.sqrt()`, the
/// NEON forms `vdivq_f32(1, vsqrtq_f32(x))`: the same two roundings.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn rsqrt_exact(x: __m256) -> __m256 {
    _mm256_div_ps(splat(&SIMD_SP_ONE), _mm256_sqrt_ps(x))
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
/// - `sin = sqrt(1 - cos²)` (`vsqrtps`, correctly rounded) and
///   `sinom = 1 / sin` (`vdivps`, correctly rounded): the listing's
///   `rsqrtps` and Newton-Raphson step are estimates whose bits differ
///   between CPUs; and with the root at hand, `sin` is the root itself
///   instead of the listing's `(1 - cos²) · sinom`, which keeps the division
///   off the chain that leads to the atan (measured: as fast as the
///   estimate; `sin` from `(1 - cos²) · (1 / sqrt)` was 2-5% slower);
/// - `omega = atan2(sin, |cos|)` by `ATanPositive`, selected as the listing
///   does (`min`/`max`/`cmpeq`, so a tie `sin == |cos|` takes the `π/2 - ...`
///   branch, erratum E8 kept), `min / max` one correctly rounded division
///   (`vdivps`; the listing's `rcpps` and Newton-Raphson step are estimates);
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

    // sinSqr = 1 - cos², patched as the listing does.
    let sin_sqr: [__m256; N] = each!(|v| _mm256_fnmadd_ps(cosom[v], cosom[v], one));
    let tiny: [__m256; N] =
        each!(|v| _mm256_and_ps(_mm256_cmp_ps::<_CMP_EQ_OQ>(sin_sqr[v], zero), splat(&SIMD_SP_TINY)));
    let sin_sqr: [__m256; N] = each!(|v| _mm256_or_ps(_mm256_and_ps(sin_sqr[v], abs_mask), tiny[v]));
    let sin: [__m256; N] = each!(|v| _mm256_sqrt_ps(sin_sqr[v]));
    let sinom: [__m256; N] = each!(|v| _mm256_div_ps(one, sin[v]));

    // omega = ATanPositive( y = sin, x = |cos| ), the listing's selection.
    let min: [__m256; N] = each!(|v| _mm256_min_ps(abs_cos[v], sin[v]));
    let max: [__m256; N] = each!(|v| _mm256_max_ps(sin[v], abs_cos[v]));
    let y_ge_x: [__m256; N] = each!(|v| _mm256_cmp_ps::<_CMP_EQ_OQ>(abs_cos[v], min[v]));
    let a: [__m256; N] = each!(|v| _mm256_xor_ps(_mm256_div_ps(min[v], max[v]), _mm256_and_ps(y_ge_x[v], sign_bit)));
    let offset: [__m256; N] = each!(|v| _mm256_and_ps(y_ge_x[v], splat(&SIMD_SP_HALF_PI)));
    // s = max(2^-24, a²): the polynomial is exactly 1 below the floor, and
    // s⁴ stays normal (no subnormal assist on a held pose). The floor first,
    // so a NaN `s` is kept (`maxps` returns its second operand on NaN).
    let s: [__m256; N] = each!(|v| _mm256_max_ps(splat(&SIMD_SP_POLY_FLOOR), _mm256_mul_ps(a[v], a[v])));
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
        let x: [__m256; N] = each!(|v| _mm256_max_ps(splat(&SIMD_SP_POLY_FLOOR), _mm256_mul_ps(w[v], w[v])));
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

/// `v` rotated by `K` lanes: lane `i` of the result is lane `(i + K) mod 8`
/// of `v` (one `vpermd`).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn rot<const K: i32>(v: __m256i) -> __m256i {
    let k = |i: i32| (i + K) & 7;
    _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(k(0), k(1), k(2), k(3), k(4), k(5), k(6), k(7)))
}

/// All ones in lane `i` where lane `i` of `v` equals another lane of `v`
/// (somewhere; every pair of lanes is compared by the rotations by 1 to 4).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn equal_within(v: __m256i) -> __m256i {
    let a = _mm256_or_si256(_mm256_cmpeq_epi32(v, rot::<1>(v)), _mm256_cmpeq_epi32(v, rot::<2>(v)));
    let b = _mm256_or_si256(_mm256_cmpeq_epi32(v, rot::<3>(v)), _mm256_cmpeq_epi32(v, rot::<4>(v)));
    _mm256_or_si256(a, b)
}

/// Non-zero lanes where a lane of `a` equals some lane of `b` (every pair
/// compared: `a` against the eight rotations of `b`).
#[inline]
#[target_feature(enable = "avx2,fma")]
fn equal_across(a: __m256i, b: __m256i) -> __m256i {
    let e = |r: __m256i| _mm256_cmpeq_epi32(a, r);
    let m0 = _mm256_or_si256(e(b), e(rot::<1>(b)));
    let m1 = _mm256_or_si256(e(rot::<2>(b)), e(rot::<3>(b)));
    let m2 = _mm256_or_si256(e(rot::<4>(b)), e(rot::<5>(b)));
    let m3 = _mm256_or_si256(e(rot::<6>(b)), e(rot::<7>(b)));
    _mm256_or_si256(_mm256_or_si256(m0, m1), _mm256_or_si256(m2, m3))
}

/// Whether the `8 N` entries at `idx` name some joint twice. A strictly
/// increasing run of entries (a sorted index, the common case) is
/// recognised first with three more loads and compares; otherwise every
/// pair of entries is compared ([`equal_within`], [`equal_across`]).
///
/// # Safety
///
/// `idx` points to `8 N` readable `i32`.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn group_repeats<const N: usize>(idx: *const i32) -> bool {
    // SAFETY: every load reads eight entries of `idx[0..8 N]`: block `b`
    // at `8 b`, its successors at `8 b + 1` for `b < N - 1` (up to entry
    // `8 b + 8 <= 8 N - 8`), and the last block's predecessors at `8 N - 9`
    // when `N > 1` (caller's contract).
    unsafe {
        let load = |at: usize| _mm256_loadu_si256(idx.add(at).cast());
        let mut v = [_mm256_setzero_si256(); N];
        for (b, vb) in v.iter_mut().enumerate() {
            *vb = load(8 * b);
        }
        if N > 1 {
            let mut inc = _mm256_cmpgt_epi32(v[N - 1], load(8 * N - 9));
            for (b, vb) in v.iter().enumerate().take(N - 1) {
                inc = _mm256_and_si256(inc, _mm256_cmpgt_epi32(load(8 * b + 1), *vb));
            }
            if _mm256_movemask_epi8(inc) == -1 {
                return false;
            }
        }
        let mut m = _mm256_setzero_si256();
        for b in 0..N {
            m = _mm256_or_si256(m, equal_within(v[b]));
            for c in b + 1..N {
                m = _mm256_or_si256(m, equal_across(v[b], v[c]));
            }
        }
        _mm256_testz_si256(m, m) == 0
    }
}

/// Whether the first `m` (1 to 8) of the eight entries at `idx` name some
/// joint twice. The lanes from `m` on (a padded block's copies of its last
/// entry) are replaced by distinct negative values first, so padding is
/// not a repeat.
///
/// # Safety
///
/// `idx` points to eight readable `i32`; `1 <= m <= 8`; the first `m` are
/// not negative.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn block_repeats(idx: *const i32, m: usize) -> bool {
    // SAFETY: eight entries are readable (caller's contract).
    let v = unsafe { _mm256_loadu_si256(idx.cast()) };
    let lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    let real = _mm256_cmpgt_epi32(_mm256_set1_epi32(m as i32), lanes);
    let v = _mm256_blendv_epi8(_mm256_setr_epi32(-1, -2, -3, -4, -5, -6, -7, -8), v, real);
    let e = equal_within(v);
    _mm256_testz_si256(e, e) == 0
}

/// The one rule for duplicate index entries of the successors: the entries
/// of `index[0..n]` are applied in list order, each interpolating from what
/// the entries before it left (a joint named twice is interpolated twice,
/// as the paper's C does), while every joint goes through the same per-lane
/// arithmetic whatever its position.
///
/// `groups` runs `8 N` entries (`N` interleaved blocks of eight) and `block`
/// eight, each loading everything before storing anything, so they may run
/// only entries that name distinct joints:
/// - each group of `8 N` entries runs as one `groups` call if its entries
///   are distinct ([`group_repeats`]), else block by block;
/// - after the groups, blocks of eight, the last one padded with the last
///   entry ([`block_of_8`]);
/// - a block whose entries are distinct ([`block_repeats`]: the padding
///   does not count) runs as one `block` call, else entry by entry, each
///   entry as a block of eight copies of itself (the same lanes' arithmetic,
///   eight times the same loads and stores).
///
/// # Safety
///
/// `index` points to `n` readable `i32`, none negative; `groups` and `block`
/// are sound for any pointer to `8 N` (resp. eight) entries of `index`
/// (or copies of them).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn in_list_order<const N: usize>(
    index: *const i32,
    n: usize,
    mut groups: impl FnMut(*const i32),
    mut block: impl FnMut(*const i32),
) {
    let g = 8 * N;
    let mut i = 0;
    // SAFETY: entries `i..i + 8 N` (resp. the blocks' entries) are readable
    // as each call needs (caller's contract, `i + 8 N <= n`).
    unsafe {
        while n - i >= g {
            let idx = index.add(i);
            if group_repeats::<N>(idx) {
                for b in 0..N {
                    block_in_list_order(idx.add(8 * b), 8, &mut block);
                }
            } else {
                groups(idx);
            }
            i += g;
        }
        let mut pad = [0i32; 8];
        while i < n {
            let m = (n - i).min(8);
            block_in_list_order(block_of_8(index, i, n, &mut pad), m, &mut block);
            i += 8;
        }
    }
}

/// One block of [`in_list_order`]: the eight entries at `idx`, of which the
/// first `m` are real, as one `block` call or, if two real entries name the
/// same joint, entry by entry.
///
/// # Safety
///
/// As [`block_repeats`]; `block` is sound for `idx` and for eight copies
/// of any of its entries.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn block_in_list_order(idx: *const i32, m: usize, block: &mut impl FnMut(*const i32)) {
    // SAFETY: eight entries at `idx`, `m` real (caller's contract).
    unsafe {
        if block_repeats(idx, m) {
            for e in 0..m {
                let one = [*idx.add(e); 8];
                block(one.as_ptr());
            }
        } else {
            block(idx);
        }
    }
}
