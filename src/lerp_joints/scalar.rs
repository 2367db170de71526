//! The C of *Slerping Clock Cycles* section 4 (`Lerp`) and the joint loop the
//! paper times as "LerpJoints (C)", ported line by line.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.

use crate::math::sqrt;
use crate::math::vec4_lerp;
use crate::types::{JointQuat, Quat};

/// `Lerp` (section 4): linear interpolation towards the nearer of `to` and
/// `-to`, renormalised with `1 / sqrt`.
pub fn lerp(from: &Quat, to: &Quat, t: f32) -> Quat {
    let (cosom, scale0, scale1, s): (f32, f32, f32, f32);

    cosom = from.x * to.x + from.y * to.y + from.z * to.z + from.w * to.w;

    scale0 = 1.0f32 - t;
    scale1 = if cosom >= 0.0f32 { t } else { -t };

    let mut result = Quat {
        x: scale0 * from.x + scale1 * to.x,
        y: scale0 * from.y + scale1 * to.y,
        z: scale0 * from.z + scale1 * to.z,
        w: scale0 * from.w + scale1 * to.w,
    };

    s = 1.0f32 / sqrt(result.x * result.x + result.y * result.y + result.z * result.z + result.w * result.w);

    result.x *= s;
    result.y *= s;
    result.z *= s;
    result.w *= s;
    result
}

/// `LerpJoints` in C: the paper's `SlerpJoints` loop with `Lerp` in place of
/// `Slerp` (section 7 times it as "LerpJoints (C)"): for each `j` in
/// `index[0..numJoints]`, `Lerp` the rotations and `Vec4Lerp` the
/// translations of `joints[j]` towards `blendJoints[j]`, in place.
///
/// Like the paper's C it has no early-outs for `lerp <= 0` or `lerp >= 1`
/// (the safe [`crate::lerp_joints()`] adds the listing's around it).
///
/// # Safety
///
/// `index` must point to `num_joints` readable `i32`; every entry `j` must be
/// such that `joints.add(j)` is valid for reads and writes and
/// `blend_joints.add(j)` for reads, and the two lists must not overlap.
#[inline(never)]
pub unsafe fn lerp_joints(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: the caller guarantees `index[0..num_joints]` is readable and
        // that each entry addresses a joint of both lists, which do not overlap.
        unsafe {
            let j = *index.add(i) as usize;
            let joint = &mut *joints.add(j);
            let blend = &*blend_joints.add(j);
            joint.q = self::lerp(&joint.q, &blend.q, lerp);
            joint.t = vec4_lerp(&joint.t, &blend.t, lerp);
        }
    }
}
