//! The successor of Appendix C for NEON (`Impl::Neon`, the `aarch64`
//! baseline): one joint per iteration, one 4-lane register per row, the
//! per-lane arithmetic of [`super::portable`] (the one order of operations,
//! written out there), so its results are the portable form's and the AVX2
//! form's bit for bit.
//!
//! **What the form is.** Per joint: the three rows of `joints2[i]` and of
//! `joints1[i]` (six 16-byte loads, all before the stores, so in-place calls
//! work); each result row `r` is `b0 * a[r][0]`, plus `b1 * a[r][1]`, plus
//! `b2 * a[r][2]` (`fmul` by element, `vmulq_laneq_f32`, and separate
//! `fadd`s: no fused operation), plus `(-0.0, -0.0, -0.0, a[r][3])` (`bsl`
//! of the row into a `-0.0` vector), then three 16-byte stores.
//!
//! **What changed from the AVX2 successor, and why.** Only the layout: the
//! AVX2 form computes rows 0 and 1 in one 8-lane register and row 2 in a
//! 4-lane one; NEON has 4 lanes, so each row is one register, and the
//! broadcast of `a[r][k]` is the multiply's by-element operand rather than
//! a shuffle. The operations per lane and their order are the same (the
//! C's roundings, the translation added last), so no result changes.

use crate::types::JointMat;
use core::arch::aarch64::*;

/// `TransformJoints` for NEON: `result[i] = joints1[i] * joints2[i]` for
/// `i` in `0..num_joints`. `num_joints <= 0` reads and writes nothing.
///
/// # Safety
///
/// If `num_joints > 0`:
/// - `joints1` and `joints2` are valid for reads and `result` for writes of
///   `num_joints` [`JointMat`]s each, all aligned for the type;
/// - `result` may be exactly `joints1` or `joints2` (each input joint is
///   read whole before the result joint at the same place is written); no
///   other overlap.
#[target_feature(enable = "neon")]
pub unsafe fn transform_joints(
    result: *mut JointMat,
    joints1: *const JointMat,
    joints2: *const JointMat,
    num_joints: i32,
) {
    // (-0.0, -0.0, -0.0, -0.0) and the mask of lane 3: the rotation lanes'
    // last addend is -0.0, the translation lane's a[r][3].
    let neg_zero = vdupq_n_f32(-0.0);
    let lane3 = vsetq_lane_u32::<3>(u32::MAX, vdupq_n_u32(0));
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`, so `a`, `b` and `r` are joint `i` of
        // each list, valid for 48 bytes (caller's contract); every access
        // below stays inside them, and all loads of joint `i` come before
        // its stores (in-place calls read the inputs whole first).
        // `vld1q_f32`/`vst1q_f32` take any alignment.
        unsafe {
            let a = joints1.add(i).cast::<f32>();
            let b = joints2.add(i).cast::<f32>();
            let r = result.add(i).cast::<f32>();
            let (b0, b1, b2) = (vld1q_f32(b), vld1q_f32(b.add(4)), vld1q_f32(b.add(8)));
            let rows = [vld1q_f32(a), vld1q_f32(a.add(4)), vld1q_f32(a.add(8))];
            let out = rows.map(|ar| {
                let mut y = vmulq_laneq_f32::<0>(b0, ar);
                y = vaddq_f32(y, vmulq_laneq_f32::<1>(b1, ar));
                y = vaddq_f32(y, vmulq_laneq_f32::<2>(b2, ar));
                vaddq_f32(y, vbslq_f32(lane3, ar, neg_zero))
            });
            vst1q_f32(r, out[0]);
            vst1q_f32(r.add(4), out[1]);
            vst1q_f32(r.add(8), out[2]);
        }
    }
}
