//! `nlerp8`, `fnlerp8` and `onlerp8` of *Optimizing slerp* ("Going wider"):
//! the SSE2 code with 8-wide AVX2 registers, and the FMA forms
//! (`*8_fma`) that fuse every multiply-add the article lets clang fuse with
//! `-mfma -ffast-math`. The article prints only `onlerp8` in its table; the
//! conversion is the same mechanical step for all three ("an AVX2 version of
//! our lerping functions"), so all three are here.
//!
//! Per block of eight: four unaligned 256-bit loads give `r[0]|r[1]`,
//! `r[2]|r[3]`, `r[4]|r[5]`, `r[6]|r[7]` (low|high 128-bit lane), and
//! [`transpose8_lane4`] (the article's `_MM_TRANSPOSE8_LANE4_PS`) transposes
//! each 128-bit lane as `_MM_TRANSPOSE4_PS` does:
//!
//! ```text
//! x0 y0 z0 w0 | x1 y1 z1 w1        x0 x2 x4 x6 | x1 x3 x5 x7
//! x2 y2 z2 w2 | x3 y3 z3 w3   ->   y0 y2 y4 y6 | y1 y3 y5 y7
//! x4 y4 z4 w4 | x5 y5 z5 w5   ->   z0 z2 z4 z6 | z1 z3 z5 z7
//! x6 y6 z6 w6 | x7 y7 z7 w7        w0 w2 w4 w6 | w1 w3 w5 w7
//! ```
//!
//! (the article's diagram prints the first column of rows 2 to 4 as `y2`,
//! `z4`, `w6`: erratum E3 of `asm_notes/nlerp.md`). The `t` vector is
//! permuted to the same lane order with `_mm256_permutevar8x32_ps(tt, (0, 2,
//! 4, 6, 1, 3, 5, 7))`. The same in-lane transpose applied to the results
//! turns lane `j` of register `i` back into `dest[2 i + j]`, so the stores
//! are in order without another permute.
//!
//! The arithmetic is `super::sse2`'s with `_mm256_*`; the non-FMA kernels are
//! lane for lane the same operations, so they give the same bits as the SSE2
//! kernels on the same CPU (`tests/nlerp.rs`). The FMA kernels round once per
//! fused pair (listed in `asm_notes/nlerp.md`).
//!
//! Counts that are not a multiple of eight: the last `size % 8` elements go
//! through one padded block of eight, as in `super::sse2` (option 2 of the
//! article, without touching the caller's arrays).
//!
//! The kernels need AVX2 (`*8`) or AVX2 and FMA (`*8_fma`); the safe
//! functions of [`super`] check the CPU before calling them.

use crate::consts::{NLERP_FNLERP_K, NLERP_ONLERP_A, NLERP_ONLERP_B};
use crate::types::Quat;
use core::arch::x86_64::*;

/// `R_SHUFFLE_PS( 0, 1, 0, 1 )`, per 128-bit lane.
const S0101: i32 = crate::x86::shuffle::r_shuffle_ps(0, 1, 0, 1);
/// `R_SHUFFLE_PS( 2, 3, 2, 3 )`, per 128-bit lane.
const S2323: i32 = crate::x86::shuffle::r_shuffle_ps(2, 3, 2, 3);

/// `_MM_TRANSPOSE8_LANE4_PS`: transposes the 4x4 matrix in each 128-bit lane
/// of `r0..r3` (rows in, columns out), the twelve operations of
/// The SSE `TRANSPOSE_4x4` with 256-bit registers. Applied twice it is
/// the identity.
///
/// # Safety
///
/// Safe to call from code that enables AVX; elsewhere a call is `unsafe`
/// and sound only on a CPU with AVX.
#[inline]
#[target_feature(enable = "avx")]
pub fn transpose8_lane4(r0: &mut __m256, r1: &mut __m256, r2: &mut __m256, r3: &mut __m256) {
    let mut r4 = *r2; //                                   movaps   reg4, reg2
    *r2 = _mm256_unpacklo_ps(*r2, *r3); //                 unpcklps reg2, reg3
    r4 = _mm256_unpackhi_ps(r4, *r3); //                   unpckhps reg4, reg3
    *r3 = *r0; //                                          movaps   reg3, reg0
    *r0 = _mm256_unpacklo_ps(*r0, *r1); //                 unpcklps reg0, reg1
    *r3 = _mm256_unpackhi_ps(*r3, *r1); //                 unpckhps reg3, reg1
    *r1 = *r0; //                                          movaps   reg1, reg0
    *r0 = _mm256_shuffle_ps::<S0101>(*r0, *r2); //         shufps   reg0, reg2, (0,1,0,1)
    *r1 = _mm256_shuffle_ps::<S2323>(*r1, *r2); //         shufps   reg1, reg2, (2,3,2,3)
    *r2 = *r3; //                                          movaps   reg2, reg3
    *r2 = _mm256_shuffle_ps::<S0101>(*r2, r4); //          shufps   reg2, reg4, (0,1,0,1)
    *r3 = _mm256_shuffle_ps::<S2323>(*r3, r4); //          shufps   reg3, reg4, (2,3,2,3)
}

/// `lX, lY, lZ, lW` broadcast to every lane.
#[derive(Clone, Copy)]
struct L8 {
    x: __m256,
    y: __m256,
    z: __m256,
    w: __m256,
}

#[inline]
#[target_feature(enable = "avx")]
fn splat(l: &Quat) -> L8 {
    L8 { x: _mm256_set1_ps(l.x), y: _mm256_set1_ps(l.y), z: _mm256_set1_ps(l.z), w: _mm256_set1_ps(l.w) }
}

/// `signMask` in every lane.
#[inline]
#[target_feature(enable = "avx")]
fn sign_mask() -> __m256 {
    _mm256_castsi256_ps(_mm256_set1_epi32(0x8000_0000_u32 as i32))
}

/// Loads `r[0..8]` and transposes within lanes: `[rX, rY, rZ, rW]` in lane
/// order 0, 2, 4, 6 | 1, 3, 5, 7.
///
/// # Safety
///
/// `r` must be valid for reading eight quaternions.
#[inline]
#[target_feature(enable = "avx")]
unsafe fn load_soa(r: *const Quat) -> [__m256; 4] {
    // SAFETY: the caller guarantees eight readable quaternions; the loads
    // are unaligned (`Quat` is only 16-byte aligned).
    let (mut rx, mut ry, mut rz, mut rw) = unsafe {
        (
            _mm256_loadu_ps(r.cast::<f32>()),
            _mm256_loadu_ps(r.add(2).cast::<f32>()),
            _mm256_loadu_ps(r.add(4).cast::<f32>()),
            _mm256_loadu_ps(r.add(6).cast::<f32>()),
        )
    };
    transpose8_lane4(&mut rx, &mut ry, &mut rz, &mut rw);
    [rx, ry, rz, rw]
}

/// Loads `t[0..8]` and permutes it to the transposed lane order.
///
/// # Safety
///
/// `t` must be valid for reading eight floats.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn load_t(t: *const f32) -> __m256 {
    // SAFETY: the caller guarantees eight readable floats.
    let tt = unsafe { _mm256_loadu_ps(t) };
    _mm256_permutevar8x32_ps(tt, _mm256_setr_epi32(0, 2, 4, 6, 1, 3, 5, 7))
}

/// Transposes the results back (lane order restored) and stores `dest[0..8]`.
///
/// # Safety
///
/// `dest` must be valid for writing eight quaternions.
#[inline]
#[target_feature(enable = "avx")]
unsafe fn store_aos(dest: *mut Quat, mut qx: __m256, mut qy: __m256, mut qz: __m256, mut qw: __m256) {
    transpose8_lane4(&mut qx, &mut qy, &mut qz, &mut qw);
    // SAFETY: the caller guarantees eight writable quaternions.
    unsafe {
        _mm256_storeu_ps(dest.cast::<f32>(), qx);
        _mm256_storeu_ps(dest.add(2).cast::<f32>(), qy);
        _mm256_storeu_ps(dest.add(4).cast::<f32>(), qz);
        _mm256_storeu_ps(dest.add(6).cast::<f32>(), qw);
    }
}

// ---------------------------------------------------------------- AVX2 ---

/// `ca = (lX rX + lY rY) + (lZ rZ + lW rW)`.
#[inline]
#[target_feature(enable = "avx2")]
fn dot(l: &L8, r: &[__m256; 4]) -> __m256 {
    _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(l.x, r[0]), _mm256_mul_ps(l.y, r[1])),
        _mm256_add_ps(_mm256_mul_ps(l.z, r[2]), _mm256_mul_ps(l.w, r[3])),
    )
}

/// `unit(lerp(l, r, 1 - ot, ca > 0 ? ot : -ot))`, stored in order.
///
/// # Safety
///
/// `dest` must be valid for writing eight quaternions.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn finish(dest: *mut Quat, l: &L8, r: &[__m256; 4], ca: __m256, ot: __m256) {
    let lt = _mm256_sub_ps(_mm256_set1_ps(1.0), ot);
    let rt = _mm256_xor_ps(ot, _mm256_and_ps(sign_mask(), ca));
    let ux = _mm256_add_ps(_mm256_mul_ps(l.x, lt), _mm256_mul_ps(r[0], rt));
    let uy = _mm256_add_ps(_mm256_mul_ps(l.y, lt), _mm256_mul_ps(r[1], rt));
    let uz = _mm256_add_ps(_mm256_mul_ps(l.z, lt), _mm256_mul_ps(r[2], rt));
    let uw = _mm256_add_ps(_mm256_mul_ps(l.w, lt), _mm256_mul_ps(r[3], rt));
    let un = _mm256_add_ps(
        _mm256_add_ps(_mm256_mul_ps(ux, ux), _mm256_mul_ps(uy, uy)),
        _mm256_add_ps(_mm256_mul_ps(uz, uz), _mm256_mul_ps(uw, uw)),
    );
    let us0 = _mm256_rsqrt_ps(un);
    let us1 = _mm256_mul_ps(
        _mm256_mul_ps(_mm256_set1_ps(0.5), us0),
        _mm256_sub_ps(_mm256_set1_ps(3.0), _mm256_mul_ps(_mm256_mul_ps(us0, us0), un)),
    );
    // SAFETY: the caller guarantees eight writable quaternions.
    unsafe {
        store_aos(dest, _mm256_mul_ps(ux, us1), _mm256_mul_ps(uy, us1), _mm256_mul_ps(uz, us1), _mm256_mul_ps(uw, us1))
    };
}

/// One block of `nlerp8`.
///
/// # Safety
///
/// `r`, `t` valid for reading and `dest` for writing eight elements; `dest`
/// may equal `r`.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn nlerp8_block(dest: *mut Quat, l: &L8, r: *const Quat, t: *const f32) {
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let ot = load_t(t);
        let ca = dot(l, &r);
        finish(dest, l, &r, ca, ot);
    }
}

/// One block of `fnlerp8`.
///
/// # Safety
///
/// As [`nlerp8_block`].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn fnlerp8_block(dest: *mut Quat, l: &L8, r: *const Quat, t: *const f32) {
    let [k0, k1, k2] = NLERP_FNLERP_K.map(|c| _mm256_set1_ps(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let tt = load_t(t);
        let ca = dot(l, &r);
        let d = _mm256_andnot_ps(sign_mask(), ca);
        let k = _mm256_add_ps(k0, _mm256_mul_ps(d, _mm256_add_ps(k1, _mm256_mul_ps(d, k2))));
        let th = _mm256_sub_ps(tt, _mm256_set1_ps(0.5));
        let t1 = _mm256_sub_ps(tt, _mm256_set1_ps(1.0));
        let ot = _mm256_add_ps(tt, _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(tt, th), t1), k));
        finish(dest, l, &r, ca, ot);
    }
}

/// One block of `onlerp8`.
///
/// # Safety
///
/// As [`nlerp8_block`].
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn onlerp8_block(dest: *mut Quat, l: &L8, r: *const Quat, t: *const f32) {
    let [a0, a1, a2, a3] = NLERP_ONLERP_A.map(|c| _mm256_set1_ps(c));
    let [b0, b1, b2] = NLERP_ONLERP_B.map(|c| _mm256_set1_ps(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let tt = load_t(t);
        let ca = dot(l, &r);
        let d = _mm256_andnot_ps(sign_mask(), ca);
        let a = _mm256_add_ps(
            a0,
            _mm256_mul_ps(d, _mm256_add_ps(a1, _mm256_mul_ps(d, _mm256_sub_ps(a2, _mm256_mul_ps(d, a3))))),
        );
        let b = _mm256_add_ps(b0, _mm256_mul_ps(d, _mm256_add_ps(b1, _mm256_mul_ps(d, b2))));
        let th = _mm256_sub_ps(tt, _mm256_set1_ps(0.5));
        let k = _mm256_add_ps(_mm256_mul_ps(_mm256_mul_ps(a, th), th), b);
        let t1 = _mm256_sub_ps(tt, _mm256_set1_ps(1.0));
        let ot = _mm256_add_ps(tt, _mm256_mul_ps(_mm256_mul_ps(_mm256_mul_ps(tt, th), t1), k));
        finish(dest, l, &r, ca, ot);
    }
}

// ----------------------------------------------------------- AVX2 + FMA ---
//
// Every `a * b + c` of the code above becomes `fmadd(a, b, c)` and every
// `c - a * b` becomes `fnmadd(a, b, c)`; in a sum of two products the first
// product is fused and the second rounded (`fmadd(a, b, c * d)`).

/// `ca = fma(lX, rX, lY rY) + fma(lZ, rZ, lW rW)`.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn dot_fma(l: &L8, r: &[__m256; 4]) -> __m256 {
    _mm256_add_ps(
        _mm256_fmadd_ps(l.x, r[0], _mm256_mul_ps(l.y, r[1])),
        _mm256_fmadd_ps(l.z, r[2], _mm256_mul_ps(l.w, r[3])),
    )
}

/// [`finish`] with `u = fma(l, lt, r rt)`, `un = fma(ux, ux, uy uy) +
/// fma(uz, uz, uw uw)` and `3 - us0 us0 un = fnmadd(us0 us0, un, 3)`.
///
/// # Safety
///
/// `dest` must be valid for writing eight quaternions.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn finish_fma(dest: *mut Quat, l: &L8, r: &[__m256; 4], ca: __m256, ot: __m256) {
    let lt = _mm256_sub_ps(_mm256_set1_ps(1.0), ot);
    let rt = _mm256_xor_ps(ot, _mm256_and_ps(sign_mask(), ca));
    let ux = _mm256_fmadd_ps(l.x, lt, _mm256_mul_ps(r[0], rt));
    let uy = _mm256_fmadd_ps(l.y, lt, _mm256_mul_ps(r[1], rt));
    let uz = _mm256_fmadd_ps(l.z, lt, _mm256_mul_ps(r[2], rt));
    let uw = _mm256_fmadd_ps(l.w, lt, _mm256_mul_ps(r[3], rt));
    let un =
        _mm256_add_ps(_mm256_fmadd_ps(ux, ux, _mm256_mul_ps(uy, uy)), _mm256_fmadd_ps(uz, uz, _mm256_mul_ps(uw, uw)));
    let us0 = _mm256_rsqrt_ps(un);
    let us1 = _mm256_mul_ps(
        _mm256_mul_ps(_mm256_set1_ps(0.5), us0),
        _mm256_fnmadd_ps(_mm256_mul_ps(us0, us0), un, _mm256_set1_ps(3.0)),
    );
    // SAFETY: the caller guarantees eight writable quaternions.
    unsafe {
        store_aos(dest, _mm256_mul_ps(ux, us1), _mm256_mul_ps(uy, us1), _mm256_mul_ps(uz, us1), _mm256_mul_ps(uw, us1))
    };
}

/// One block of `nlerp8_fma`.
///
/// # Safety
///
/// As [`nlerp8_block`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn nlerp8_fma_block(dest: *mut Quat, l: &L8, r: *const Quat, t: *const f32) {
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let ot = load_t(t);
        let ca = dot_fma(l, &r);
        finish_fma(dest, l, &r, ca, ot);
    }
}

/// One block of `fnlerp8_fma`: `k = fma(d, fma(d, K2, K1), K0)`, `ot =
/// fma(t (t - 0.5) (t - 1), k, t)`.
///
/// # Safety
///
/// As [`nlerp8_block`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn fnlerp8_fma_block(dest: *mut Quat, l: &L8, r: *const Quat, t: *const f32) {
    let [k0, k1, k2] = NLERP_FNLERP_K.map(|c| _mm256_set1_ps(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let tt = load_t(t);
        let ca = dot_fma(l, &r);
        let d = _mm256_andnot_ps(sign_mask(), ca);
        let k = _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, k2, k1), k0);
        let th = _mm256_sub_ps(tt, _mm256_set1_ps(0.5));
        let t1 = _mm256_sub_ps(tt, _mm256_set1_ps(1.0));
        let ot = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_mul_ps(tt, th), t1), k, tt);
        finish_fma(dest, l, &r, ca, ot);
    }
}

/// One block of `onlerp8_fma` (the article's "onlerp8 FMA"): `A =
/// fma(d, fma(d, fnmadd(d, A3, A2), A1), A0)`, `B = fma(d, fma(d, B2, B1),
/// B0)`, `k = fma(A (t - 0.5), t - 0.5, B)`, `ot = fma(t (t - 0.5) (t - 1), k,
/// t)`.
///
/// # Safety
///
/// As [`nlerp8_block`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn onlerp8_fma_block(dest: *mut Quat, l: &L8, r: *const Quat, t: *const f32) {
    let [a0, a1, a2, a3] = NLERP_ONLERP_A.map(|c| _mm256_set1_ps(c));
    let [b0, b1, b2] = NLERP_ONLERP_B.map(|c| _mm256_set1_ps(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let tt = load_t(t);
        let ca = dot_fma(l, &r);
        let d = _mm256_andnot_ps(sign_mask(), ca);
        let a = _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, _mm256_fnmadd_ps(d, a3, a2), a1), a0);
        let b = _mm256_fmadd_ps(d, _mm256_fmadd_ps(d, b2, b1), b0);
        let th = _mm256_sub_ps(tt, _mm256_set1_ps(0.5));
        let k = _mm256_fmadd_ps(_mm256_mul_ps(a, th), th, b);
        let t1 = _mm256_sub_ps(tt, _mm256_set1_ps(1.0));
        let ot = _mm256_fmadd_ps(_mm256_mul_ps(_mm256_mul_ps(tt, th), t1), k, tt);
        finish_fma(dest, l, &r, ca, ot);
    }
}

/// The loop over blocks of eight, with the padded last block.
macro_rules! stream8 {
    ($block:ident, $dest:ident, $l:ident, $r:ident, $t:ident, $size:ident) => {{
        let l8 = splat($l);
        let full = $size - $size % 8;
        let mut i = 0;
        while i < full {
            // SAFETY: `i + 8 <= size`: eight elements of each stream, in the
            // ranges the caller guarantees.
            unsafe { $block($dest.add(i), &l8, $r.add(i), $t.add(i)) };
            i += 8;
        }
        if i < $size {
            let n = $size - i;
            // SAFETY: `size - 1` is in range; the tail is read into the local
            // block before any of `dest`'s tail is written (so `dest == r`
            // works); the local arrays are disjoint from the caller's memory.
            unsafe {
                let mut rp = [*$r.add($size - 1); 8];
                let mut tp = [*$t.add($size - 1); 8];
                core::ptr::copy_nonoverlapping($r.add(i), rp.as_mut_ptr(), n);
                core::ptr::copy_nonoverlapping($t.add(i), tp.as_mut_ptr(), n);
                let mut out = [Quat::default(); 8];
                $block(out.as_mut_ptr(), &l8, rp.as_ptr(), tp.as_ptr());
                core::ptr::copy_nonoverlapping(out.as_ptr(), $dest.add(i), n);
            }
        }
    }};
}

macro_rules! kernel8 {
    ($(#[$doc:meta])* $feature:literal, $name:ident => $block:ident) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        #[doc = concat!("The CPU must support `", $feature, "` (see [`super::forms`]);")]
        /// `r` must be valid for reading and `dest` for writing `size`
        /// quaternions, `t` valid for reading `size` floats; `dest` may be
        /// `r` itself but must not otherwise overlap `r` or `t`.
        #[inline(never)]
        #[target_feature(enable = $feature)]
        pub unsafe fn $name(dest: *mut Quat, l: &Quat, r: *const Quat, t: *const f32, size: usize) {
            stream8!($block, dest, l, r, t, size)
        }
    };
}

kernel8! {
    /// `nlerp8`: `dest[i] = nlerp(l, r[i], t[i])` for `i < size`, eight at a
    /// time with AVX2.
    "avx2", nlerp8 => nlerp8_block
}
kernel8! {
    /// `fnlerp8`: `dest[i] = fnlerp(l, r[i], t[i])` for `i < size`, eight at
    /// a time with AVX2.
    "avx2", fnlerp8 => fnlerp8_block
}
kernel8! {
    /// `onlerp8`: `dest[i] = onlerp(l, r[i], t[i])` for `i < size`, eight at a
    /// time with AVX2 (the article's "onlerp8" row).
    "avx2", onlerp8 => onlerp8_block
}
kernel8! {
    /// `nlerp8` with fused multiply-adds.
    "avx2,fma", nlerp8_fma => nlerp8_fma_block
}
kernel8! {
    /// `fnlerp8` with fused multiply-adds.
    "avx2,fma", fnlerp8_fma => fnlerp8_fma_block
}
kernel8! {
    /// `onlerp8` with fused multiply-adds (the article's "onlerp8 FMA" row).
    "avx2,fma", onlerp8_fma => onlerp8_fma_block
}
