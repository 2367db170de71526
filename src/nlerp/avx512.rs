//! `nlerp16_fma`, `fnlerp16_fma` and `onlerp16_fma` (`Impl::Avx512`): zeux's
//! AVX2 FMA forms ([`super::avx2`]'s `*8_fma`) widened by this crate to
//! sixteen lanes with AVX-512 (F, VL, DQ, BW). Not published (the article
//! stops at AVX2): the published recipe on more lanes
//! ([`crate::Origin::Widened`]).
//!
//! Per block of sixteen: four 512-bit loads give `r[0..4]`, `r[4..8]`,
//! `r[8..12]`, `r[12..16]` (one quaternion per 128-bit lane), and
//! `transpose16_lane4` (the article's `_MM_TRANSPOSE8_LANE4_PS` on 512-bit
//! registers) transposes each 128-bit lane as `_MM_TRANSPOSE4_PS` does, so
//! lane `j` of 128-bit lane `L` of `rX` is `r[4 j + L].x`. The `t` vector is
//! permuted to the same lane order with one `vpermps`
//! (`_mm512_permutexvar_ps`, indices `0 4 8 12 1 5 9 13 2 6 10 14 3 7 11
//! 15`); the same in-lane transpose applied to the results restores the
//! order, so the stores need no permute.
//!
//! The arithmetic is [`super::avx2`]'s FMA forms lane for lane, with
//! `_mm512_*`: the same fused pairs, the same order, the same sign-bit
//! double cover, and the reciprocal square root estimate plus one
//! Newton-Raphson step, with `vrsqrt14ps` (`_mm512_rsqrt14_ps`, relative
//! error below 2^-14 on every AVX-512 CPU, documented) in place of
//! `rsqrtps` (below 1.5 * 2^-12). So the results are within the AVX2 FMA
//! forms' bounds against the scalar functions (`tests/nlerp.rs`), but not
//! their bits (the estimates differ).
//!
//! Counts that are not a multiple of sixteen: the last `size % 16` elements
//! go through one block with masked loads and stores
//! (`_mm512_maskz_loadu_ps`, `_mm512_mask_storeu_ps`): the lanes beyond the
//! last element are neither read nor written (no stack copy), and their
//! zeros give values that are never stored.
//!
//! The kernels need AVX-512 F, VL, DQ and BW; the safe functions of
//! [`super`] check the CPU before calling them.

use crate::consts::{NLERP_FNLERP_K, NLERP_ONLERP_A, NLERP_ONLERP_B};
use crate::types::Quat;
use core::arch::x86_64::*;

/// `R_SHUFFLE_PS( 0, 1, 0, 1 )`, per 128-bit lane.
const S0101: i32 = crate::x86::shuffle::r_shuffle_ps(0, 1, 0, 1);
/// `R_SHUFFLE_PS( 2, 3, 2, 3 )`, per 128-bit lane.
const S2323: i32 = crate::x86::shuffle::r_shuffle_ps(2, 3, 2, 3);

/// [`super::avx2::transpose8_lane4`] on 512-bit registers: transposes the
/// 4x4 matrix in each 128-bit lane of `r0..r3` (rows in, columns out).
/// Applied twice it is the identity.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn transpose16_lane4(r0: &mut __m512, r1: &mut __m512, r2: &mut __m512, r3: &mut __m512) {
    let mut r4 = *r2;
    *r2 = _mm512_unpacklo_ps(*r2, *r3);
    r4 = _mm512_unpackhi_ps(r4, *r3);
    *r3 = *r0;
    *r0 = _mm512_unpacklo_ps(*r0, *r1);
    *r3 = _mm512_unpackhi_ps(*r3, *r1);
    *r1 = *r0;
    *r0 = _mm512_shuffle_ps::<S0101>(*r0, *r2);
    *r1 = _mm512_shuffle_ps::<S2323>(*r1, *r2);
    *r2 = *r3;
    *r2 = _mm512_shuffle_ps::<S0101>(*r2, r4);
    *r3 = _mm512_shuffle_ps::<S2323>(*r3, r4);
}

/// `lX, lY, lZ, lW` broadcast to every lane.
#[derive(Clone, Copy)]
struct L16 {
    x: __m512,
    y: __m512,
    z: __m512,
    w: __m512,
}

#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn splat(l: &Quat) -> L16 {
    L16 { x: _mm512_set1_ps(l.x), y: _mm512_set1_ps(l.y), z: _mm512_set1_ps(l.z), w: _mm512_set1_ps(l.w) }
}

/// `signMask` in every lane.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn sign_mask() -> __m512 {
    _mm512_castsi512_ps(_mm512_set1_epi32(0x8000_0000_u32 as i32))
}

/// The masks of a block of `n` (1 to 16) elements: for each of the four
/// quaternion vectors the lanes of its elements below `n`, and for `t` the
/// first `n` lanes.
#[inline]
fn masks(n: usize) -> ([__mmask16; 4], __mmask16) {
    let first = |k: usize| ((1u32 << k.min(16)) - 1) as __mmask16;
    (core::array::from_fn(|v| first(4 * n.saturating_sub(4 * v))), first(n))
}

/// Loads `r[0..n]` and `t[0..n]` (`n` = 16: plain loads; 1 to 15: masked
/// loads, zeros in the other lanes), transposes `r` within lanes and
/// permutes `t` to the same lane order.
///
/// # Safety
///
/// `r` must be valid for reading `n` quaternions and `t` for reading `n`
/// floats, `1 <= n <= 16`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn load(r: *const Quat, t: *const f32, n: usize) -> ([__m512; 4], __m512) {
    let rf = r.cast::<f32>();
    // SAFETY: the caller guarantees `n` readable elements; with `n < 16` the
    // masked loads read only the lanes of elements below `n` (and do not
    // fault on the others); the addresses of the vectors past `n` are made
    // with `wrapping_add` and only used with an empty mask. The loads are
    // unaligned (`Quat` is only 16-byte aligned).
    let (mut v, tt) = unsafe {
        if n == 16 {
            (core::array::from_fn(|k| _mm512_loadu_ps(rf.add(16 * k))), _mm512_loadu_ps(t))
        } else {
            let (mr, mt) = masks(n);
            (
                core::array::from_fn(|k| _mm512_maskz_loadu_ps(mr[k], rf.wrapping_add(16 * k))),
                _mm512_maskz_loadu_ps(mt, t),
            )
        }
    };
    let [r0, r1, r2, r3] = &mut v;
    transpose16_lane4(r0, r1, r2, r3);
    let order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    (v, _mm512_permutexvar_ps(order, tt))
}

/// Transposes the results back (order restored) and stores `dest[0..n]`
/// (`n` = 16: plain stores; 1 to 15: masked stores).
///
/// # Safety
///
/// `dest` must be valid for writing `n` quaternions, `1 <= n <= 16`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn store(dest: *mut Quat, n: usize, mut q: [__m512; 4]) {
    let [q0, q1, q2, q3] = &mut q;
    transpose16_lane4(q0, q1, q2, q3);
    let d = dest.cast::<f32>();
    // SAFETY: the caller guarantees `n` writable quaternions; with `n < 16`
    // the masked stores write only the lanes of elements below `n`, and a
    // vector with an empty mask writes nothing (its address, made with
    // `wrapping_add`, is not accessed).
    unsafe {
        if n == 16 {
            for (k, v) in q.into_iter().enumerate() {
                _mm512_storeu_ps(d.add(16 * k), v);
            }
        } else {
            let (mr, _) = masks(n);
            for (k, v) in q.into_iter().enumerate() {
                _mm512_mask_storeu_ps(d.wrapping_add(16 * k), mr[k], v);
            }
        }
    }
}

/// `ca = fma(lX, rX, lY rY) + fma(lZ, rZ, lW rW)`: [`super::avx2`]'s
/// `dot_fma`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn dot_fma(l: &L16, r: &[__m512; 4]) -> __m512 {
    _mm512_add_ps(
        _mm512_fmadd_ps(l.x, r[0], _mm512_mul_ps(l.y, r[1])),
        _mm512_fmadd_ps(l.z, r[2], _mm512_mul_ps(l.w, r[3])),
    )
}

/// `unit(lerp(l, r, 1 - ot, ca > 0 ? ot : -ot))`: [`super::avx2`]'s
/// `finish_fma` (`u = fma(l, lt, r rt)`, `un = fma(ux, ux, uy uy) + fma(uz,
/// uz, uw uw)`, one Newton-Raphson step `0.5 us0 fnmadd(us0 us0, un, 3)`)
/// with `vrsqrt14ps` as the estimate.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn finish_fma(l: &L16, r: &[__m512; 4], ca: __m512, ot: __m512) -> [__m512; 4] {
    let lt = _mm512_sub_ps(_mm512_set1_ps(1.0), ot);
    let rt = _mm512_xor_ps(ot, _mm512_and_ps(sign_mask(), ca));
    let ux = _mm512_fmadd_ps(l.x, lt, _mm512_mul_ps(r[0], rt));
    let uy = _mm512_fmadd_ps(l.y, lt, _mm512_mul_ps(r[1], rt));
    let uz = _mm512_fmadd_ps(l.z, lt, _mm512_mul_ps(r[2], rt));
    let uw = _mm512_fmadd_ps(l.w, lt, _mm512_mul_ps(r[3], rt));
    let un =
        _mm512_add_ps(_mm512_fmadd_ps(ux, ux, _mm512_mul_ps(uy, uy)), _mm512_fmadd_ps(uz, uz, _mm512_mul_ps(uw, uw)));
    let us0 = _mm512_rsqrt14_ps(un);
    let us1 = _mm512_mul_ps(
        _mm512_mul_ps(_mm512_set1_ps(0.5), us0),
        _mm512_fnmadd_ps(_mm512_mul_ps(us0, us0), un, _mm512_set1_ps(3.0)),
    );
    [_mm512_mul_ps(ux, us1), _mm512_mul_ps(uy, us1), _mm512_mul_ps(uz, us1), _mm512_mul_ps(uw, us1)]
}

/// One block of `nlerp16_fma`: `ot = t`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn nlerp16_fma_block(l: &L16, r: &[__m512; 4], tt: __m512) -> [__m512; 4] {
    finish_fma(l, r, dot_fma(l, r), tt)
}

/// One block of `fnlerp16_fma`: `k = fma(d, fma(d, K2, K1), K0)`, `ot =
/// fma(t (t - 0.5) (t - 1), k, t)`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn fnlerp16_fma_block(l: &L16, r: &[__m512; 4], tt: __m512) -> [__m512; 4] {
    let [k0, k1, k2] = NLERP_FNLERP_K.map(|c| _mm512_set1_ps(c));
    let ca = dot_fma(l, r);
    let d = _mm512_andnot_ps(sign_mask(), ca);
    let k = _mm512_fmadd_ps(d, _mm512_fmadd_ps(d, k2, k1), k0);
    let th = _mm512_sub_ps(tt, _mm512_set1_ps(0.5));
    let t1 = _mm512_sub_ps(tt, _mm512_set1_ps(1.0));
    let ot = _mm512_fmadd_ps(_mm512_mul_ps(_mm512_mul_ps(tt, th), t1), k, tt);
    finish_fma(l, r, ca, ot)
}

/// One block of `onlerp16_fma`: `A = fma(d, fma(d, fnmadd(d, A3, A2), A1),
/// A0)`, `B = fma(d, fma(d, B2, B1), B0)`, `k = fma(A (t - 0.5), t - 0.5,
/// B)`, `ot = fma(t (t - 0.5) (t - 1), k, t)`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn onlerp16_fma_block(l: &L16, r: &[__m512; 4], tt: __m512) -> [__m512; 4] {
    let [a0, a1, a2, a3] = NLERP_ONLERP_A.map(|c| _mm512_set1_ps(c));
    let [b0, b1, b2] = NLERP_ONLERP_B.map(|c| _mm512_set1_ps(c));
    let ca = dot_fma(l, r);
    let d = _mm512_andnot_ps(sign_mask(), ca);
    let a = _mm512_fmadd_ps(d, _mm512_fmadd_ps(d, _mm512_fnmadd_ps(d, a3, a2), a1), a0);
    let b = _mm512_fmadd_ps(d, _mm512_fmadd_ps(d, b2, b1), b0);
    let th = _mm512_sub_ps(tt, _mm512_set1_ps(0.5));
    let k = _mm512_fmadd_ps(_mm512_mul_ps(a, th), th, b);
    let t1 = _mm512_sub_ps(tt, _mm512_set1_ps(1.0));
    let ot = _mm512_fmadd_ps(_mm512_mul_ps(_mm512_mul_ps(tt, th), t1), k, tt);
    finish_fma(l, r, ca, ot)
}

macro_rules! kernel16 {
    ($(#[$doc:meta])* $name:ident => $block:ident) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// The CPU must support AVX-512 F, VL, DQ and BW (see
        /// [`super::forms`]); `r` must be valid for reading and `dest` for
        /// writing `size` quaternions, `t` valid for reading `size` floats;
        /// `dest` may be `r` itself but must not otherwise overlap `r` or
        /// `t`.
        #[inline(never)]
        #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
        pub unsafe fn $name(dest: *mut Quat, l: &Quat, r: *const Quat, t: *const f32, size: usize) {
            let l16 = splat(l);
            let mut i = 0;
            while i < size {
                let n = (size - i).min(16);
                // SAFETY: `i + n <= size`: `n` elements of each stream, in
                // the ranges the caller guarantees; a block is loaded whole
                // before it is stored (so `dest == r` works). The pointers
                // are in range (`i < size`).
                unsafe {
                    let (r16, t16) = load(r.add(i), t.add(i), n);
                    store(dest.add(i), n, $block(&l16, &r16, t16));
                }
                i += n;
            }
        }
    };
}

kernel16! {
    /// `nlerp16_fma`: `dest[i] = nlerp(l, r[i], t[i])` for `i < size`,
    /// sixteen at a time with AVX-512 ([`super::avx2::nlerp8_fma`] widened).
    nlerp16_fma => nlerp16_fma_block
}
kernel16! {
    /// `fnlerp16_fma`: `dest[i] = fnlerp(l, r[i], t[i])` for `i < size`,
    /// sixteen at a time with AVX-512 ([`super::avx2::fnlerp8_fma`]
    /// widened).
    fnlerp16_fma => fnlerp16_fma_block
}
kernel16! {
    /// `onlerp16_fma`: `dest[i] = onlerp(l, r[i], t[i])` for `i < size`,
    /// sixteen at a time with AVX-512 ([`super::avx2::onlerp8_fma`]
    /// widened).
    onlerp16_fma => onlerp16_fma_block
}
