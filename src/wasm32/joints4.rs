//! The 4-wide wasm SIMD128 pieces that the `wasm32` successors of
//! `slerp_joints` and `lerp_joints` (`Impl::Simd128`) share: the horizontal
//! sum of four joints' products, x86's `minps`/`maxps` semantics, the slerp
//! arithmetic of Appendix A (`SlerpOptimized`) on four lanes and the
//! `lerp >= 1` copy; the NEON pieces of `crate::aarch64::joints4`, lane for
//! lane. The duplicate rule is `crate::blocks::in_list_order` with
//! `crate::blocks::OneByOne` (the entries compared one by one).
//!
//! **Layout.** As the NEON forms: a block handles four joints `j0..j3`,
//! each joint's `q` (or `t`) half in one `v128` as it lies in memory (one
//! `v128.load`, no shuffle). [`hsum4`] turns the four registers of a
//! block's products into one *SoA register* whose lane `k` is joint `jk`'s
//! sum (three pairwise adds, each two `i32x4.shuffle` and an `f32x4.add`,
//! where NEON has one `faddp`), and a lane of a SoA register multiplies a
//! joint's register after an `i32x4.shuffle` that copies it to all four
//! lanes ([`mul_lanes`], [`fma_lanes`]), where NEON has the by-lane
//! `fmul`/`fmla`.
//!
//! Every step is the lane-for-lane twin of the NEON pieces, of the AVX2
//! successor's (`crate::x86::slerp_core8`) and of the portable forms' order
//! of operations (`crate::slerp_joints::portable`,
//! `crate::lerp_joints::portable`): the same products and sums in the same
//! association, a fused multiply-add exactly where they fuse (wasm has
//! none: [`crate::wasm32::fma::fma`], `a · b + c` rounded once, and
//! [`crate::wasm32::fma::fnma`], `c - a · b`, exact from f64 pairs),
//! correctly rounded `f32x4.sqrt` and `f32x4.div`, and x86's `min`/`max`
//! rules written with a compare and a `v128.bitselect` (wasm's `f32x4.min`
//! and `f32x4.max` propagate NaN and order signed zeros).
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm and its coefficients). Port licensed under the GNU LGPL 2.1 or
//! later.

use super::fma::{fma, fnma};
use crate::consts::{
    Align16, SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4, SIMD_SP_ATAN_C5,
    SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_POLY_FLOOR, SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0,
    SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4, SIMD_SP_TINY,
};
use crate::types::JointQuat;
use core::arch::wasm32::*;

/// A float constant of `crate::consts` in all four lanes.
#[inline(always)]
pub(crate) fn splat(c: &'static Align16<[f32; 4]>) -> v128 {
    f32x4_splat(c.0[0])
}

/// The sign bit in all four lanes.
#[inline(always)]
pub(crate) fn sign_bit() -> v128 {
    u32x4_splat(SIMD_SP_SIGN_BIT.0[0])
}

/// `x` with the bits of `mask` flipped (x86's `xorps`).
#[inline(always)]
pub(crate) fn xor(x: v128, mask: v128) -> v128 {
    v128_xor(x, mask)
}

/// The sign bit where `x < 0` (not for `-0.0` or NaN; x86's `cmpltps`
/// against zero and `andps` with the sign bit).
#[inline(always)]
pub(crate) fn sign_where_negative(x: v128) -> v128 {
    v128_and(f32x4_lt(x, f32x4_splat(0.0)), sign_bit())
}

/// x86's `minps(a, b)`: `a < b ? a : b` per lane (`b` on equality, signed
/// zeros and NaN).
#[inline(always)]
pub(crate) fn min_x86(a: v128, b: v128) -> v128 {
    v128_bitselect(a, b, f32x4_lt(a, b))
}

/// x86's `maxps(a, b)`: `a > b ? a : b` per lane (`b` on equality, signed
/// zeros and NaN).
#[inline(always)]
pub(crate) fn max_x86(a: v128, b: v128) -> v128 {
    v128_bitselect(a, b, f32x4_gt(a, b))
}

/// The sums of adjacent lanes of `a` and `b`: `[a0 + a1, a2 + a3, b0 + b1,
/// b2 + b3]` (NEON's `faddp`, `vpaddq_f32`).
#[inline(always)]
fn pairwise_add(a: v128, b: v128) -> v128 {
    f32x4_add(i32x4_shuffle::<0, 2, 4, 6>(a, b), i32x4_shuffle::<1, 3, 5, 7>(a, b))
}

/// The four-float sums of four joints' registers, as one SoA register:
/// lane `k` is `(x + y) + (z + w)` of `p[k]` (three pairwise adds, the
/// association of x86's `vhaddps` pair, NEON's `faddp` and the portable
/// forms).
#[inline(always)]
pub(crate) fn hsum4(p: &[v128; 4]) -> v128 {
    pairwise_add(pairwise_add(p[0], p[1]), pairwise_add(p[2], p[3]))
}

/// The 16-byte half at `off` floats into joint `j` of `list`.
///
/// # Safety
///
/// `list.add(j)` is a joint valid for reads; `off` is 0 or 4.
#[inline(always)]
pub(crate) unsafe fn load(list: *const JointQuat, j: usize, off: usize) -> v128 {
    // SAFETY: a 16-byte half inside a valid 32-byte joint (caller's
    // contract); `v128.load` needs no alignment.
    unsafe { v128_load(list.add(j).cast::<f32>().add(off).cast::<v128>()) }
}

/// Stores `v` as the 16-byte half at `off` floats into joint `j` of `list`.
///
/// # Safety
///
/// `list.add(j)` is a joint valid for writes; `off` is 0 or 4.
#[inline(always)]
pub(crate) unsafe fn store(list: *mut JointQuat, j: usize, off: usize, v: v128) {
    // SAFETY: as in `load`, for a write.
    unsafe { v128_store(list.add(j).cast::<f32>().add(off).cast::<v128>(), v) }
}

/// The entries `idx[4 v..4 v + 4]` of block `v`, as joint numbers.
///
/// # Safety
///
/// `idx` points to `4 v + 4` readable `i32`, none negative.
#[inline(always)]
pub(crate) unsafe fn block_entries(idx: *const i32, v: usize) -> [usize; 4] {
    // SAFETY: entries `4 v..4 v + 4` are readable (caller's contract).
    unsafe {
        let e = idx.add(4 * v);
        [*e as usize, *e.add(1) as usize, *e.add(2) as usize, *e.add(3) as usize]
    }
}

/// The halves at `off` floats of the four joints `j` of `list`.
///
/// # Safety
///
/// As [`load`], for each of the four joints.
#[inline(always)]
pub(crate) unsafe fn load4(list: *const JointQuat, j: &[usize; 4], off: usize) -> [v128; 4] {
    // SAFETY: the caller's contract, for each joint.
    unsafe { [load(list, j[0], off), load(list, j[1], off), load(list, j[2], off), load(list, j[3], off)] }
}

/// Stores `r[k]` as the half at `off` floats of joint `j[k]` of `list`.
///
/// # Safety
///
/// As [`store`], for each of the four joints.
#[inline(always)]
pub(crate) unsafe fn store4(list: *mut JointQuat, j: &[usize; 4], off: usize, r: &[v128; 4]) {
    // SAFETY: the caller's contract, for each joint.
    unsafe {
        store(list, j[0], off, r[0]);
        store(list, j[1], off, r[1]);
        store(list, j[2], off, r[2]);
        store(list, j[3], off, r[3]);
    }
}

/// `a[k] · b[k]` for the four joints.
#[inline(always)]
pub(crate) fn mul4(a: &[v128; 4], b: &[v128; 4]) -> [v128; 4] {
    [f32x4_mul(a[0], b[0]), f32x4_mul(a[1], b[1]), f32x4_mul(a[2], b[2]), f32x4_mul(a[3], b[3])]
}

/// The four joints' translations lerped: `fma(lerp, tb - tj, tj)` per
/// component (the last step of both portable forms).
#[inline(always)]
pub(crate) fn lerp_translations(lerp: v128, tj: &[v128; 4], tb: &[v128; 4]) -> [v128; 4] {
    [
        fma(lerp, f32x4_sub(tb[0], tj[0]), tj[0]),
        fma(lerp, f32x4_sub(tb[1], tj[1]), tj[1]),
        fma(lerp, f32x4_sub(tb[2], tj[2]), tj[2]),
        fma(lerp, f32x4_sub(tb[3], tj[3]), tj[3]),
    ]
}

/// Lane `K` of `s` in all four lanes (one `i32x4.shuffle`).
#[inline(always)]
fn lane<const K: usize>(s: v128) -> v128 {
    i32x4_shuffle::<K, K, K, K>(s, s)
}

/// `r` of the four joints: `r[k] = v[k] · lane k of s` (NEON's `fmul v, v,
/// s.s[k]`).
#[inline(always)]
pub(crate) fn mul_lanes(v: &[v128; 4], s: v128) -> [v128; 4] {
    [
        f32x4_mul(v[0], lane::<0>(s)),
        f32x4_mul(v[1], lane::<1>(s)),
        f32x4_mul(v[2], lane::<2>(s)),
        f32x4_mul(v[3], lane::<3>(s)),
    ]
}

/// `c[k] + v[k] · lane k of s`, rounded once (NEON's `fmla c, v, s.s[k]`).
#[inline(always)]
pub(crate) fn fma_lanes(c: &[v128; 4], v: &[v128; 4], s: v128) -> [v128; 4] {
    [
        fma(v[0], lane::<0>(s), c[0]),
        fma(v[1], lane::<1>(s), c[1]),
        fma(v[2], lane::<2>(s), c[2]),
        fma(v[3], lane::<3>(s), c[3]),
    ]
}

/// `[e(0), .., e(N - 1)]` for the `N` (1 to 3) interleaved blocks of a
/// group: `each!(|v| e)` writes `e` out once per block, with `v` the
/// block's number, so that nothing is left as a loop or a closure for the
/// optimiser to keep out of line (the fused multiply-add is large, and an
/// outlined closure or a rolled loop keeps the group's registers in
/// memory). `N` is the const parameter in scope; `e`'s type is `Copy`.
macro_rules! each {
    (|$v:ident| $e:expr) => {{
        const { assert!(N >= 1 && N <= 3, "one to three blocks per group") };
        let first = {
            let $v = 0;
            $e
        };
        let mut out = [first; N];
        // `% N` keeps the (unreached) indices in range where `N` is smaller.
        if N >= 2 {
            let $v = 1 % N;
            out[1 % N] = $e;
        }
        if N >= 3 {
            let $v = 2 % N;
            out[2 % N] = $e;
        }
        out
    }};
}
pub(crate) use each;

/// The signed scales `(scale0, scale1)` of `SlerpOptimized` for `N` SoA
/// registers of four dot products `cosom` at `lerp` (broadcast), the `N`
/// independent chains written step by step so that they interleave: the
/// order of operations of `crate::slerp_joints::portable` (steps 2 to 9),
/// lane for lane, as `crate::aarch64::joints4::slerp_scales`.
#[inline(always)]
pub(crate) fn slerp_scales<const N: usize>(cosom: [v128; N], lerp: v128) -> ([v128; N], [v128; N]) {
    let one = f32x4_splat(1.0);
    let zero = f32x4_splat(0.0);
    let flip = each!(|v| sign_where_negative(cosom[v]));
    let abs_cos = each!(|v| f32x4_abs(cosom[v]));

    // sinSqr = 1 - cos², patched as the listing does: ±0 becomes tiny,
    // anything else its absolute value.
    let sin_sqr = each!(|v| fnma(cosom[v], cosom[v], one));
    let sin_sqr = each!(|v| v128_bitselect(splat(&SIMD_SP_TINY), f32x4_abs(sin_sqr[v]), f32x4_eq(sin_sqr[v], zero)));
    let sin = each!(|v| f32x4_sqrt(sin_sqr[v]));
    let sinom = each!(|v| f32x4_div(one, sin[v]));

    // omega = ATanPositive( y = sin, x = |cos| ), the listing's selection.
    let min = each!(|v| min_x86(abs_cos[v], sin[v]));
    let max = each!(|v| max_x86(sin[v], abs_cos[v]));
    let y_ge_x = each!(|v| f32x4_eq(abs_cos[v], min[v]));
    let a = each!(|v| xor(f32x4_div(min[v], max[v]), v128_and(y_ge_x[v], sign_bit())));
    // yGeX ? π/2 : 0 (the mask is all ones or zero).
    let offset = each!(|v| v128_and(y_ge_x[v], splat(&SIMD_SP_HALF_PI)));
    // s = max(2^-24, a²) with x86's `maxps` rule (NaN kept): the x86 cores'
    // floor, the same bits.
    let s = each!(|v| max_x86(splat(&SIMD_SP_POLY_FLOOR), f32x4_mul(a[v], a[v])));
    let s2 = each!(|v| f32x4_mul(s[v], s[v]));
    let s4 = each!(|v| f32x4_mul(s2[v], s2[v]));
    let a01 = each!(|v| fma(splat(&SIMD_SP_ATAN_C0), s[v], splat(&SIMD_SP_ATAN_C1)));
    let a23 = each!(|v| fma(splat(&SIMD_SP_ATAN_C2), s[v], splat(&SIMD_SP_ATAN_C3)));
    let a45 = each!(|v| fma(splat(&SIMD_SP_ATAN_C4), s[v], splat(&SIMD_SP_ATAN_C5)));
    let a67 = each!(|v| fma(splat(&SIMD_SP_ATAN_C6), s[v], splat(&SIMD_SP_ATAN_C7)));
    let b03 = each!(|v| fma(a01[v], s2[v], a23[v]));
    let b47 = each!(|v| fma(a45[v], s2[v], a67[v]));
    let q = each!(|v| fma(b03[v], s4[v], b47[v]));
    let p = each!(|v| fma(q[v], s[v], one));
    let omega = each!(|v| fma(p[v], a[v], offset[v]));

    let omega1 = each!(|v| f32x4_mul(lerp, omega[v]));
    let omega0 = each!(|v| f32x4_sub(omega[v], omega1[v]));

    let scale0 = sin_zero_half_pi::<N>(omega0, sinom);
    let scale1 = sin_zero_half_pi::<N>(omega1, sinom);
    (scale0, each!(|v| xor(scale1[v], flip[v])))
}

/// `SinZeroHalfPI` of the angles `w`, times `sinom` (step 8 of
/// `crate::slerp_joints::portable`).
#[inline(always)]
fn sin_zero_half_pi<const N: usize>(w: [v128; N], sinom: [v128; N]) -> [v128; N] {
    let one = f32x4_splat(1.0);
    let x = each!(|v| max_x86(splat(&SIMD_SP_POLY_FLOOR), f32x4_mul(w[v], w[v])));
    let x2 = each!(|v| f32x4_mul(x[v], x[v]));
    let a01 = each!(|v| fma(splat(&SIMD_SP_SIN_C0), x[v], splat(&SIMD_SP_SIN_C1)));
    let a23 = each!(|v| fma(splat(&SIMD_SP_SIN_C2), x[v], splat(&SIMD_SP_SIN_C3)));
    let b = each!(|v| fma(a01[v], x2[v], a23[v]));
    let c = each!(|v| fma(b[v], x[v], splat(&SIMD_SP_SIN_C4)));
    let p = each!(|v| fma(c[v], x[v], one));
    each!(|v| f32x4_mul(f32x4_mul(w[v], p[v]), sinom[v]))
}
