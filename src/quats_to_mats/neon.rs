//! The successor of Appendix A for NEON (`Impl::Neon`, the `aarch64`
//! baseline): four joints per iteration in structure-of-arrays form, the
//! per-lane arithmetic of [`super::portable`] (the one order of operations,
//! written out there) with `fmla`/`fmls`, so its results are the portable
//! form's and the AVX2 form's bit for bit.
//!
//! **What the form is.** Each block loads the quaternions and the
//! translations of four [`JointQuat`]s (eight 16-byte loads), transposes
//! them into four-lane vectors `x y z w` and `tx ty tz`, computes the nine
//! rotation elements with three products and nine fused multiply-adds
//! (`vfmaq_f32(c, a, b)` = `c + a b`, `vfmsq_f32(c, a, b)` = `c - a b`,
//! each rounded once; `a b - c` is `vfmaq_f32(-c, a, b)`), transposes the
//! rows back (`(m_r0, m_r1, m_r2, t_r)` per joint) and stores them (twelve
//! 16-byte stores). A tail of 1 to 3 joints goes through the same block on
//! a zero-padded stack copy (`crate::aarch64::blocks4`): no one-at-a-time
//! loop and no access outside the two lists.
//!
//! **What changed from the AVX2 successor, and why.** Only the layout: four
//! lanes (one joint each) instead of eight, so the joints need no pairing
//! into 128-bit halves, the AVX2 form's blends and lane swaps; a plain 4x4
//! transpose (`trn1`/`trn2`) each way. The arithmetic is the same sequence
//! of IEEE operations per lane, the fused ones fused, so no result changes.
//! NEON has no AVX2 `vfmsub`: `a b - c` is `fmla` on `-c` (negation is
//! exact, so the bits are the same). The translation only goes through
//! loads, transposes and stores, so it is copied bit for bit.

use crate::aarch64::blocks4::transpose4;
use crate::blocks::by_blocks_of_4;
use crate::types::{JointMat, JointQuat};
use core::arch::aarch64::*;

/// `ConvertJointQuatsToJointMats` for NEON: writes section 3's matrix of
/// `joint_quats[i]` into `joint_mats[i]` for `i` in `0..num_joints`, four
/// joints per iteration, the last 1 to 3 through a zero-padded stack block.
/// A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// If `num_joints > 0`: `joint_quats` is valid for reads of `num_joints`
/// [`JointQuat`] and `joint_mats` for writes of `num_joints` [`JointMat`],
/// both aligned for their types, and the two lists do not overlap.
#[target_feature(enable = "neon")]
pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    // SAFETY: `num_joints.max(0)` elements of both lists are valid, aligned
    // and do not overlap (caller's contract); `block` converts four.
    unsafe { by_blocks_of_4(joint_mats, joint_quats, num_joints.max(0) as usize, block) }
}

/// Four joints: `mats[0..4]` from `quats[0..4]`.
///
/// # Safety
///
/// `quats` valid for reads of four [`JointQuat`], `mats` for writes of four
/// [`JointMat`], not overlapping.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn block(mats: *mut JointMat, quats: *const JointQuat) {
    let qf = quats.cast::<f32>();
    // SAFETY: floats `8j..8j + 8` are joint `j < 4`, inside the four
    // (caller); `vld1q_f32` takes any alignment.
    let (q, t): ([float32x4_t; 4], [float32x4_t; 4]) = unsafe {
        (core::array::from_fn(|j| vld1q_f32(qf.add(8 * j))), core::array::from_fn(|j| vld1q_f32(qf.add(8 * j + 4))))
    };
    let [x, y, z, w] = transpose4(q[0], q[1], q[2], q[3]);
    let [tx, ty, tz, _] = transpose4(t[0], t[1], t[2], t[3]);

    let one = vdupq_n_f32(1.0);
    let x2 = vaddq_f32(x, x);
    let y2 = vaddq_f32(y, y);
    let z2 = vaddq_f32(z, z);
    let wx2 = vmulq_f32(w, x2);
    let wy2 = vmulq_f32(w, y2);
    let wz2 = vmulq_f32(w, z2);
    let one_zz2 = vfmsq_f32(one, z, z2); // 1 - zz2
    let one_yy2 = vfmsq_f32(one, y, y2); // 1 - yy2

    let m00 = vfmsq_f32(one_zz2, y, y2); //             (1 - zz2) - yy2
    let m01 = vfmaq_f32(wz2, x, y2); //                 xy2 + wz2
    let m02 = vfmaq_f32(vnegq_f32(wy2), x, z2); //      xz2 - wy2
    let m10 = vfmaq_f32(vnegq_f32(wz2), x, y2); //      xy2 - wz2
    let m11 = vfmsq_f32(one_zz2, x, x2); //             (1 - zz2) - xx2
    let m12 = vfmaq_f32(wx2, y, z2); //                 yz2 + wx2
    let m20 = vfmaq_f32(wy2, x, z2); //                 xz2 + wy2
    let m21 = vfmaq_f32(vnegq_f32(wx2), y, z2); //      yz2 - wx2
    let m22 = vfmsq_f32(one_yy2, x, x2); //             (1 - yy2) - xx2

    // rows[r][j]: row r of joint j.
    let rows = [transpose4(m00, m01, m02, tx), transpose4(m10, m11, m12, ty), transpose4(m20, m21, m22, tz)];
    let out = mats.cast::<f32>();
    for j in 0..4 {
        for (r, row) in rows.iter().enumerate() {
            // SAFETY: floats `12j..12j + 12` are matrix `j < 4`, inside the
            // four (caller); `vst1q_f32` takes any alignment.
            unsafe { vst1q_f32(out.add(12 * j + 4 * r), row[j]) };
        }
    }
}
