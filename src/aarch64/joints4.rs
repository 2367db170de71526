//! The 4-wide NEON pieces that the `aarch64` successors of `slerp_joints`
//! and `lerp_joints` (`Impl::Neon`) share: the horizontal sum of four
//! joints' products, x86's `minps`/`maxps` semantics, the slerp arithmetic
//! of Appendix A (`SlerpOptimized`) on four lanes, the one rule for
//! duplicate index entries and the `lerp >= 1` copy.
//!
//! **Layout.** A block handles four joints `j0..j3` (four index entries),
//! each joint's `q` (or `t`) half in one register as it lies in memory (one
//! `ld1`, no shuffle). [`hsum4`] turns the four registers of a block's
//! products into one *SoA register* whose lane `k` is joint `jk`'s sum, and
//! a lane of a SoA register multiplies a joint's register with the by-lane
//! forms `vmulq_laneq_f32` / `vfmaq_laneq_f32` (`fmul`/`fmla v, v, v.s[k]`),
//! so no broadcast is needed either.
//!
//! Every step is the lane-for-lane twin of the AVX2 successor's
//! (`crate::x86::slerp_core8`) and of the portable forms' order of
//! operations (`crate::slerp_joints::portable`,
//! `crate::lerp_joints::portable`): the same products and sums in the same
//! association, a fused multiply-add (`vfmaq_f32(c, a, b)` = `c + a·b`
//! rounded once, `vfmsq_f32(c, a, b)` = `c - a·b`) exactly where they fuse,
//! correctly rounded `vsqrtq_f32` and `vdivq_f32`, and x86's `min`/`max`
//! rules written with a compare and a select (NEON's `fmin`/`fmax` differ
//! on NaN and on signed zeros).
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm and its coefficients). Port licensed under the GNU LGPL 2.1 or
//! later.

use crate::blocks::Repeats;
use crate::consts::{
    Align16, SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4, SIMD_SP_ATAN_C5,
    SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_POLY_FLOOR, SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0,
    SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4, SIMD_SP_TINY,
};
use crate::types::JointQuat;
use core::arch::aarch64::*;

/// A float constant of `src/x86/consts.rs` in all four lanes.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn splat(c: &'static Align16<[f32; 4]>) -> float32x4_t {
    vdupq_n_f32(c.0[0])
}

/// The sign bit in all four lanes.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn sign_bit() -> uint32x4_t {
    vdupq_n_u32(SIMD_SP_SIGN_BIT.0[0])
}

/// `x` with the bits of `mask` flipped (x86's `xorps`).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn xor(x: float32x4_t, mask: uint32x4_t) -> float32x4_t {
    vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(x), mask))
}

/// The sign bit where `x < 0` (not for `-0.0` or NaN; x86's `cmpltps`
/// against zero and `andps` with the sign bit).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn sign_where_negative(x: float32x4_t) -> uint32x4_t {
    vandq_u32(vcltzq_f32(x), sign_bit())
}

/// x86's `minps(a, b)`: `a < b ? a : b` per lane (`b` on equality, signed
/// zeros and NaN).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn min_x86(a: float32x4_t, b: float32x4_t) -> float32x4_t {
    vbslq_f32(vcltq_f32(a, b), a, b)
}

/// x86's `maxps(a, b)`: `a > b ? a : b` per lane (`b` on equality, signed
/// zeros and NaN).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn max_x86(a: float32x4_t, b: float32x4_t) -> float32x4_t {
    vbslq_f32(vcgtq_f32(a, b), a, b)
}

/// The four-float sums of four joints' registers, as one SoA register:
/// lane `k` is `(x + y) + (z + w)` of `p[k]` (three `faddp`, the same
/// association as x86's `vhaddps` pair and the portable forms).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn hsum4(p: &[float32x4_t; 4]) -> float32x4_t {
    vpaddq_f32(vpaddq_f32(p[0], p[1]), vpaddq_f32(p[2], p[3]))
}

/// The 16-byte half at `off` floats into joint `j` of `list`.
///
/// # Safety
///
/// `list.add(j)` is a joint valid for reads; `off` is 0 or 4.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn load(list: *const JointQuat, j: usize, off: usize) -> float32x4_t {
    // SAFETY: a 16-byte half inside a valid 32-byte joint (caller's
    // contract); `ld1` needs no alignment.
    unsafe { vld1q_f32(list.add(j).cast::<f32>().add(off)) }
}

/// Stores `v` as the 16-byte half at `off` floats into joint `j` of `list`.
///
/// # Safety
///
/// `list.add(j)` is a joint valid for writes; `off` is 0 or 4.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn store(list: *mut JointQuat, j: usize, off: usize, v: float32x4_t) {
    // SAFETY: as in `load`, for a write.
    unsafe { vst1q_f32(list.add(j).cast::<f32>().add(off), v) }
}

/// `r` of the four joints: `r[k] = v · lane k of s` (`fmul v, v, s.s[k]`).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn mul_lanes(v: &[float32x4_t; 4], s: float32x4_t) -> [float32x4_t; 4] {
    [
        vmulq_laneq_f32::<0>(v[0], s),
        vmulq_laneq_f32::<1>(v[1], s),
        vmulq_laneq_f32::<2>(v[2], s),
        vmulq_laneq_f32::<3>(v[3], s),
    ]
}

/// `c[k] + v[k] · lane k of s`, rounded once (`fmla c, v, s.s[k]`).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn fma_lanes(c: &[float32x4_t; 4], v: &[float32x4_t; 4], s: float32x4_t) -> [float32x4_t; 4] {
    [
        vfmaq_laneq_f32::<0>(c[0], v[0], s),
        vfmaq_laneq_f32::<1>(c[1], v[1], s),
        vfmaq_laneq_f32::<2>(c[2], v[2], s),
        vfmaq_laneq_f32::<3>(c[3], v[3], s),
    ]
}

/// The signed scales `(scale0, scale1)` of `SlerpOptimized` for `N` SoA
/// registers of four dot products `cosom` at `lerp` (broadcast), the `N`
/// independent chains written step by step so that they interleave: the
/// order of operations of `crate::slerp_joints::portable` (steps 2 to 9),
/// lane for lane, as `crate::x86::slerp_core8::slerp_scales` on eight
/// lanes.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn slerp_scales<const N: usize>(
    cosom: [float32x4_t; N],
    lerp: float32x4_t,
) -> ([float32x4_t; N], [float32x4_t; N]) {
    // `[f(0), .., f(N - 1)]`: one step of the `N` blocks.
    macro_rules! each {
        ($f:expr) => {
            core::array::from_fn::<_, N, _>($f)
        };
    }
    let one = vdupq_n_f32(1.0);
    let flip: [uint32x4_t; N] = each!(|v| sign_where_negative(cosom[v]));
    let abs_cos = each!(|v| vabsq_f32(cosom[v]));

    // sinSqr = 1 - cos², patched as the listing does: ±0 becomes tiny,
    // anything else its absolute value.
    let sin_sqr = each!(|v| vfmsq_f32(one, cosom[v], cosom[v]));
    let sin_sqr = each!(|v| vbslq_f32(vceqzq_f32(sin_sqr[v]), splat(&SIMD_SP_TINY), vabsq_f32(sin_sqr[v])));
    let sin = each!(|v| vsqrtq_f32(sin_sqr[v]));
    let sinom = each!(|v| vdivq_f32(one, sin[v]));

    // omega = ATanPositive( y = sin, x = |cos| ), the listing's selection.
    let min = each!(|v| min_x86(abs_cos[v], sin[v]));
    let max = each!(|v| max_x86(sin[v], abs_cos[v]));
    let y_ge_x: [uint32x4_t; N] = each!(|v| vceqq_f32(abs_cos[v], min[v]));
    let a = each!(|v| xor(vdivq_f32(min[v], max[v]), vandq_u32(y_ge_x[v], sign_bit())));
    let offset = each!(|v| vbslq_f32(y_ge_x[v], splat(&SIMD_SP_HALF_PI), vdupq_n_f32(0.0)));
    // s = max(2^-24, a²) with x86's `maxps` rule (NaN kept): the x86 cores'
    // floor, the same bits.
    let s = each!(|v| max_x86(splat(&SIMD_SP_POLY_FLOOR), vmulq_f32(a[v], a[v])));
    let s2 = each!(|v| vmulq_f32(s[v], s[v]));
    let s4 = each!(|v| vmulq_f32(s2[v], s2[v]));
    let a01 = each!(|v| vfmaq_f32(splat(&SIMD_SP_ATAN_C1), splat(&SIMD_SP_ATAN_C0), s[v]));
    let a23 = each!(|v| vfmaq_f32(splat(&SIMD_SP_ATAN_C3), splat(&SIMD_SP_ATAN_C2), s[v]));
    let a45 = each!(|v| vfmaq_f32(splat(&SIMD_SP_ATAN_C5), splat(&SIMD_SP_ATAN_C4), s[v]));
    let a67 = each!(|v| vfmaq_f32(splat(&SIMD_SP_ATAN_C7), splat(&SIMD_SP_ATAN_C6), s[v]));
    let b03 = each!(|v| vfmaq_f32(a23[v], a01[v], s2[v]));
    let b47 = each!(|v| vfmaq_f32(a67[v], a45[v], s2[v]));
    let q = each!(|v| vfmaq_f32(b47[v], b03[v], s4[v]));
    let p = each!(|v| vfmaq_f32(one, q[v], s[v]));
    let omega = each!(|v| vfmaq_f32(offset[v], p[v], a[v]));

    let omega1 = each!(|v| vmulq_f32(lerp, omega[v]));
    let omega0 = each!(|v| vsubq_f32(omega[v], omega1[v]));

    // SinZeroHalfPI of both angles, times sinom.
    let sin_zero_half_pi = |w: [float32x4_t; N]| {
        let x = each!(|v| max_x86(splat(&SIMD_SP_POLY_FLOOR), vmulq_f32(w[v], w[v])));
        let x2 = each!(|v| vmulq_f32(x[v], x[v]));
        let a01 = each!(|v| vfmaq_f32(splat(&SIMD_SP_SIN_C1), splat(&SIMD_SP_SIN_C0), x[v]));
        let a23 = each!(|v| vfmaq_f32(splat(&SIMD_SP_SIN_C3), splat(&SIMD_SP_SIN_C2), x[v]));
        let b = each!(|v| vfmaq_f32(a23[v], a01[v], x2[v]));
        let c = each!(|v| vfmaq_f32(splat(&SIMD_SP_SIN_C4), b[v], x[v]));
        let p = each!(|v| vfmaq_f32(one, c[v], x[v]));
        each!(|v| vmulq_f32(vmulq_f32(w[v], p[v]), sinom[v]))
    };
    let scale0 = sin_zero_half_pi(omega0);
    let scale1 = sin_zero_half_pi(omega1);
    (scale0, each!(|v| xor(scale1[v], flip[v])))
}

// ------------------------------------------------ the duplicate rule ---

/// Non-zero lanes where a lane of `v` equals another lane of `v` (every
/// pair compared by the rotations by 1 and 2).
#[inline]
#[target_feature(enable = "neon")]
fn equal_within(v: int32x4_t) -> uint32x4_t {
    vorrq_u32(vceqq_s32(v, vextq_s32::<1>(v, v)), vceqq_s32(v, vextq_s32::<2>(v, v)))
}

/// Non-zero lanes where a lane of `a` equals some lane of `b` (`a`
/// against the four rotations of `b`).
#[inline]
#[target_feature(enable = "neon")]
fn equal_across(a: int32x4_t, b: int32x4_t) -> uint32x4_t {
    let m0 = vorrq_u32(vceqq_s32(a, b), vceqq_s32(a, vextq_s32::<1>(b, b)));
    let m1 = vorrq_u32(vceqq_s32(a, vextq_s32::<2>(b, b)), vceqq_s32(a, vextq_s32::<3>(b, b)));
    vorrq_u32(m0, m1)
}

/// The NEON test of [`crate::blocks::in_list_order`]: the entries
/// compared in vectors, the answers of [`Repeats`]' provided methods.
pub(crate) struct NeonRepeats;

impl Repeats for NeonRepeats {
    #[inline(always)]
    unsafe fn group<const N: usize>(idx: *const i32) -> bool {
        // SAFETY: the caller's contract (`4 N` readable entries), passed on;
        // NEON is part of the aarch64 baseline.
        unsafe { group_repeats::<N>(idx) }
    }

    #[inline(always)]
    unsafe fn block(idx: *const i32, m: usize) -> bool {
        // SAFETY: as above (four readable entries, `1 <= m <= 4`).
        unsafe { block_repeats(idx, m) }
    }
}

/// Whether the `4 N` entries at `idx` name some joint twice. A strictly
/// increasing run (a sorted index) is recognised first; otherwise every
/// pair of entries is compared.
///
/// # Safety
///
/// `idx` points to `4 N` readable `i32`.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn group_repeats<const N: usize>(idx: *const i32) -> bool {
    // SAFETY: every load reads four entries of `idx[0..4 N]`: block `b` at
    // `4 b`, its successors at `4 b + 1` for `b < N - 1`, the last block's
    // predecessors at `4 N - 5` when `N > 1` (caller's contract).
    unsafe {
        let v: [int32x4_t; N] = core::array::from_fn(|b| vld1q_s32(idx.add(4 * b)));
        if N > 1 {
            let mut inc = vcgtq_s32(v[N - 1], vld1q_s32(idx.add(4 * N - 5)));
            for (b, vb) in v.iter().enumerate().take(N - 1) {
                inc = vandq_u32(inc, vcgtq_s32(vld1q_s32(idx.add(4 * b + 1)), *vb));
            }
            if vminvq_u32(inc) != 0 {
                return false;
            }
        }
        let mut m = vdupq_n_u32(0);
        for b in 0..N {
            m = vorrq_u32(m, equal_within(v[b]));
            for c in b + 1..N {
                m = vorrq_u32(m, equal_across(v[b], v[c]));
            }
        }
        vmaxvq_u32(m) != 0
    }
}

/// Whether the first `m` (1 to 4) of the four entries at `idx` name some
/// joint twice; the lanes from `m` on (a padded block's copies of its last
/// entry) are replaced by distinct negative values first.
///
/// # Safety
///
/// `idx` points to four readable `i32`; `1 <= m <= 4`; the first `m` are
/// not negative.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn block_repeats(idx: *const i32, m: usize) -> bool {
    const LANES: [i32; 4] = [0, 1, 2, 3];
    const PAD: [i32; 4] = [-1, -2, -3, -4];
    // SAFETY: four entries are readable (caller's contract); the constants
    // are four `i32` each.
    let (v, lanes, pad) = unsafe { (vld1q_s32(idx), vld1q_s32(LANES.as_ptr()), vld1q_s32(PAD.as_ptr())) };
    let v = vbslq_s32(vcltq_s32(lanes, vdupq_n_s32(m as i32)), v, pad);
    vmaxvq_u32(equal_within(v)) != 0
}
