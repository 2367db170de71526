//! The C routines of *Slerping Clock Cycles* (sections 3 to 6), ported line by
//! line.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! The paper's code is C++ (it passes `Quaternion &`), so `acos`, `sin`,
//! `sqrt`, `atan2` and `fabs` of a `float` resolve to the `float` overloads:
//! the arithmetic stays in single precision, as here. The C routines write
//! through a `result` reference that may alias `from` (`SlerpJoints` passes
//! `joints[j].q` for both); every component is read before it is written, so
//! returning the result, as these ports do, computes the same values.

use crate::math::{acos, atan2, fabs, sin, sqrt};
use crate::types::{JointQuat, Quat};

/// The paper's helpers that other routines' C shares (`lerp_joints`,
/// `mats_to_quats` and `slerp_quats` call them too), defined in
/// `src/math.rs` so that no routine imports from another.
pub use crate::math::{atan_positive, reciprocal_sqrt, sin_zero_half_pi, vec4_lerp};

/// `Slerp` (section 3): the reference spherical linear interpolation with
/// `acos` and three `sin`, falling back to a linear blend when
/// `1 - |cos| <= 1e-6`.
pub fn slerp(from: &Quat, to: &Quat, t: f32) -> Quat {
    let (omega, sinom, scale0, mut scale1);

    let cosom = from.x * to.x + from.y * to.y + from.z * to.z + from.w * to.w;
    let abs_cosom = fabs(cosom);
    if (1.0f32 - abs_cosom) > 1e-6f32 {
        omega = acos(abs_cosom);
        sinom = 1.0f32 / sin(omega);
        scale0 = sin((1.0f32 - t) * omega) * sinom;
        scale1 = sin(t * omega) * sinom;
    } else {
        scale0 = 1.0f32 - t;
        scale1 = t;
    }
    scale1 = if cosom >= 0.0f32 { scale1 } else { -scale1 };
    Quat {
        x: scale0 * from.x + scale1 * to.x,
        y: scale0 * from.y + scale1 * to.y,
        z: scale0 * from.z + scale1 * to.z,
        w: scale0 * from.w + scale1 * to.w,
    }
}

/// `SlerpTransformed` (section 5): `Slerp` with the sine taken from the
/// cosine (`sqrt(1 - cos^2)`) and the angle from `atan2` instead of `acos`.
pub fn slerp_transformed(from: &Quat, to: &Quat, t: f32) -> Quat {
    let (sin_sqr, sinom, omega, scale0, mut scale1);

    let cosom = from.x * to.x + from.y * to.y + from.z * to.z + from.w * to.w;
    let abs_cosom = fabs(cosom);
    if (1.0f32 - abs_cosom) > 1e-6f32 {
        sin_sqr = 1.0f32 - abs_cosom * abs_cosom;
        sinom = 1.0f32 / sqrt(sin_sqr);
        omega = atan2(sin_sqr * sinom, abs_cosom);
        scale0 = sin((1.0f32 - t) * omega) * sinom;
        scale1 = sin(t * omega) * sinom;
    } else {
        scale0 = 1.0f32 - t;
        scale1 = t;
    }
    scale1 = if cosom >= 0.0f32 { scale1 } else { -scale1 };
    Quat {
        x: scale0 * from.x + scale1 * to.x,
        y: scale0 * from.y + scale1 * to.y,
        z: scale0 * from.z + scale1 * to.z,
        w: scale0 * from.w + scale1 * to.w,
    }
}

/// `SlerpOptimized` (section 5): `SlerpTransformed` with `ReciprocalSqrt`,
/// `ATanPositive` and `SinZeroHalfPI`. The SSE listing vectorises this one.
pub fn slerp_optimized(from: &Quat, to: &Quat, t: f32) -> Quat {
    let (sin_sqr, sinom, omega, scale0, mut scale1);

    let cosom = from.x * to.x + from.y * to.y + from.z * to.z + from.w * to.w;
    let abs_cosom = fabs(cosom);
    if (1.0f32 - abs_cosom) > 1e-6f32 {
        sin_sqr = 1.0f32 - abs_cosom * abs_cosom;
        sinom = reciprocal_sqrt(sin_sqr);
        omega = atan_positive(sin_sqr * sinom, abs_cosom);
        scale0 = sin_zero_half_pi((1.0f32 - t) * omega) * sinom;
        scale1 = sin_zero_half_pi(t * omega) * sinom;
    } else {
        scale0 = 1.0f32 - t;
        scale1 = t;
    }
    scale1 = if cosom >= 0.0f32 { scale1 } else { -scale1 };
    Quat {
        x: scale0 * from.x + scale1 * to.x,
        y: scale0 * from.y + scale1 * to.y,
        z: scale0 * from.z + scale1 * to.z,
        w: scale0 * from.w + scale1 * to.w,
    }
}

/// `SlerpJoints` (section 6), the C loop the paper times: for each `j` in
/// `index[0..numJoints]`, `Slerp` the rotations and `Vec4Lerp` the
/// translations of `joints[j]` towards `blendJoints[j]`, in place.
///
/// Like the paper's C it has no early-outs: `lerp <= 0` and `lerp >= 1` are
/// interpolated like any other value (the safe [`crate::slerp_joints()`] adds
/// the listing's early-outs around it).
///
/// # Safety
///
/// `index` must point to `num_joints` readable `i32`; every entry `j` must be
/// such that `joints.add(j)` is valid for reads and writes and
/// `blend_joints.add(j)` for reads, and the two lists must not overlap.
#[inline(never)]
pub unsafe fn slerp_joints(
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
            joint.q = slerp(&joint.q, &blend.q, lerp);
            joint.t = vec4_lerp(&joint.t, &blend.t, lerp);
        }
    }
}
