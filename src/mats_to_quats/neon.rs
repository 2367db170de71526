//! The successor of Appendix B for NEON (`Impl::Neon`, the `aarch64`
//! baseline): four matrices per iteration in structure-of-arrays form,
//! branch-free, the per-lane arithmetic of [`super::portable`] (the one
//! order of operations, written out there), so its results are the portable
//! form's and the AVX2 form's bit for bit.
//!
//! **What the form is.** Each block loads the rows of four [`JointMat`]s
//! (twelve 16-byte loads) and transposes them into the twelve four-lane
//! vectors `m00 .. m22`, `tx ty tz`. The case of each lane comes from the
//! listing's conditions as x86's `cmpnltps` computes them: `!(a < b)`,
//! `mvn` of `fcmgt` (`vcltq_f32`), true for NaN operands, never `fcmge`
//! (`vcgeq_f32`, false for them), so a zero or NaN trace takes `w` and ties
//! take the earlier case as on every form. The two case bits `b0`, `!b1`
//! give the sign multipliers as sign bits (`eor`), `t = (s0 m00 + s1 m11)
//! + (s2 m22 + 1)`, `s = 0.5 / sqrt(t)` (`fsqrt`, `fdiv`: correctly
//! rounded, no `frsqrte` estimate), the four values in store order and two
//! layers of `bsl` for the blueprint's permutation `c -> c xor e`. Two
//! transposes turn `x y z w` and `tx ty tz 0` back into joints (eight
//! 16-byte stores). A tail of 1 to 3 joints goes through the same block on
//! a zero-padded stack copy (`crate::aarch64::blocks4`).
//!
//! **What changed from the AVX2 successor, and why.** Only the layout: four
//! lanes (one joint each) instead of eight, so a plain 4x4 transpose each
//! way replaces the AVX2 form's pairs, blends and lane swaps; `bsl`
//! (`vbslq_f32(mask, a, b)`: `mask ? a : b`) replaces `vblendvps` (`mask ?
//! b : a`) with the operands swapped, and the `!(a < b)` comparisons
//! replace `_CMP_NLT_UQ`. The arithmetic is the same sequence of IEEE
//! operations per lane, so no result changes.

use crate::aarch64::blocks4::transpose4;
use crate::blocks::by_blocks_of_4;
use crate::types::{JointMat, JointQuat};
use core::arch::aarch64::*;

/// `ConvertJointMatsToJointQuats` for NEON: writes the quaternion of the
/// rotation part of `joint_mats[i]` (paper convention) and its translation
/// `(m03, m13, m23, 0)` into `joint_quats[i]` for `i` in `0..num_joints`,
/// four joints per iteration, the last 1 to 3 through a zero-padded stack
/// block. A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// If `num_joints > 0`: `joint_mats` is valid for reads of `num_joints`
/// [`JointMat`] and `joint_quats` for writes of `num_joints` [`JointQuat`],
/// both aligned for their types, and the two lists do not overlap.
#[target_feature(enable = "neon")]
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    // SAFETY: `num_joints.max(0)` elements of both lists are valid, aligned
    // and do not overlap (caller's contract); `block` converts four.
    unsafe { by_blocks_of_4(joint_quats, joint_mats, num_joints.max(0) as usize, block) }
}

/// `!(a < b)` lane by lane: x86's `cmpnltps` (`_CMP_NLT_UQ`), true where
/// `a >= b` or either is NaN.
#[inline]
#[target_feature(enable = "neon")]
fn not_less(a: float32x4_t, b: float32x4_t) -> uint32x4_t {
    vmvnq_u32(vcltq_f32(a, b))
}

/// `v` with its sign bit flipped where `sign` has it set.
#[inline]
#[target_feature(enable = "neon")]
fn flip(v: float32x4_t, sign: uint32x4_t) -> float32x4_t {
    vreinterpretq_f32_u32(veorq_u32(vreinterpretq_u32_f32(v), sign))
}

/// Four joints: `quats[0..4]` from `mats[0..4]`.
///
/// # Safety
///
/// `mats` valid for reads of four [`JointMat`], `quats` for writes of four
/// [`JointQuat`], not overlapping.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn block(quats: *mut JointQuat, mats: *const JointMat) {
    let mf = mats.cast::<f32>();
    // rows[r][j]: row r of joint j.
    // SAFETY: floats `12j..12j + 12` are matrix `j < 4`, inside the four
    // (caller); `vld1q_f32` takes any alignment.
    let rows: [[float32x4_t; 4]; 3] =
        unsafe { core::array::from_fn(|r| core::array::from_fn(|j| vld1q_f32(mf.add(12 * j + 4 * r)))) };
    let [m00, m01, m02, tx] = transpose4(rows[0][0], rows[0][1], rows[0][2], rows[0][3]);
    let [m10, m11, m12, ty] = transpose4(rows[1][0], rows[1][1], rows[1][2], rows[1][3]);
    let [m20, m21, m22, tz] = transpose4(rows[2][0], rows[2][1], rows[2][2], rows[2][3]);

    let zero = vdupq_n_f32(0.0);
    let one = vdupq_n_f32(1.0);
    let sign = vdupq_n_u32(0x8000_0000);

    // The listing's conditions (`>=`, true when unordered); the trace summed
    // as the C and the listing sum it.
    let trace = vaddq_f32(vaddq_f32(m00, m11), m22);
    let c0 = not_less(trace, zero); // w
    let c1 = vandq_u32(not_less(m00, m11), not_less(m00, m22)); // x
    let c2 = not_less(m11, m22); // y
    // b0 = w | y (bit 0 of e), nb1 = x | y (bit 1 of e clear); `vbicq_u32(a,
    // b)` is `a & !b`.
    let b0 = vorrq_u32(c0, vbicq_u32(c2, c1));
    let nb1 = vbicq_u32(vorrq_u32(c1, c2), c0);
    // Sign multipliers as sign bits: s0 for y and z (b0 == nb1), s1 for x
    // and z (!b0), s2 for x and y (nb1).
    let s0 = vbicq_u32(sign, veorq_u32(b0, nb1));
    let s1 = vbicq_u32(sign, b0);
    let s2 = vandq_u32(nb1, sign);

    // t = (s0 m00 + s1 m11) + (s2 m22 + 1), in the listing's pairs.
    let t = vaddq_f32(vaddq_f32(flip(m00, s0), flip(m11, s1)), vaddq_f32(flip(m22, s2), one));
    // s = 0.5 / sqrt(t), both correctly rounded (no estimate).
    let s = vdivq_f32(vdupq_n_f32(0.5), vsqrtq_f32(t));

    // In the order k0..k3.
    let v0 = vmulq_f32(s, t);
    let v1 = vmulq_f32(vsubq_f32(m01, flip(m10, s2)), s);
    let v2 = vmulq_f32(vsubq_f32(m20, flip(m02, s1)), s);
    let v3 = vmulq_f32(vsubq_f32(m12, flip(m21, s0)), s);
    // Component c is v[c ^ e]: swap neighbours where bit 0 of e is set, then
    // pairs where bit 1 is.
    let a0 = vbslq_f32(b0, v1, v0);
    let a1 = vbslq_f32(b0, v0, v1);
    let a2 = vbslq_f32(b0, v3, v2);
    let a3 = vbslq_f32(b0, v2, v3);
    let qx = vbslq_f32(nb1, a0, a2);
    let qy = vbslq_f32(nb1, a1, a3);
    let qz = vbslq_f32(nb1, a2, a0);
    let qw = vbslq_f32(nb1, a3, a1);

    let q = transpose4(qx, qy, qz, qw);
    let tt = transpose4(tx, ty, tz, zero);
    let out = quats.cast::<f32>();
    for j in 0..4 {
        // SAFETY: floats `8j..8j + 8` are joint `j < 4`, inside the four
        // (caller); `vst1q_f32` takes any alignment.
        unsafe {
            vst1q_f32(out.add(8 * j), q[j]);
            vst1q_f32(out.add(8 * j + 4), tt[j]);
        }
    }
}
