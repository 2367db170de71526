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
use crate::{JointQuat, Quat, Vec4};

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

/// `ReciprocalSqrt` (section 5): the `0x5f3759df` bit trick and one
/// Newton-Raphson step.
///
/// The C shifts a 32-bit `long` arithmetically; for negative `x` its
/// subtraction overflows (undefined in C), which this port wraps.
pub fn reciprocal_sqrt(x: f32) -> f32 {
    let mut i: i32;
    let (y, mut r): (f32, f32);

    y = x * 0.5f32;
    i = x.to_bits() as i32;
    i = 0x5f3759df_i32.wrapping_sub(i >> 1);
    r = f32::from_bits(i as u32);
    r = r * (1.5f32 - r * r * y);
    r
}

/// `SinZeroHalfPI` (section 5): `sin(a)` for `a` in `[0, PI/2]` as an odd
/// polynomial of degree 11; the paper gives a maximum absolute error of
/// 2.308e-9 (`tests/accuracy.rs` measures it).
#[allow(clippy::excessive_precision)]
pub fn sin_zero_half_pi(a: f32) -> f32 {
    let (s, mut t): (f32, f32);

    s = a * a;
    t = -2.39e-08f32;
    t *= s;
    t += 2.7526e-06f32;
    t *= s;
    t += -1.98409e-04f32;
    t *= s;
    t += 8.3333315e-03f32;
    t *= s;
    t += -1.666666664e-01f32;
    t *= s;
    t += 1.0f32;
    t *= a;
    t
}

/// `ATanPositive` (section 5): `atan2(y, x)` for `y, x >= 0` as a polynomial
/// in `min/max` of degree 17; the paper gives a maximum absolute error of
/// 1.359e-8.
#[allow(clippy::excessive_precision)]
pub fn atan_positive(y: f32, x: f32) -> f32 {
    let (a, d, s, mut t): (f32, f32, f32, f32);

    if y > x {
        a = -x / y;
        d = (core::f64::consts::PI / 2.0) as f32;
    } else {
        a = y / x;
        d = 0.0f32;
    }
    s = a * a;
    t = 0.0028662257f32;
    t *= s;
    t += -0.0161657367f32;
    t *= s;
    t += 0.0429096138f32;
    t *= s;
    t += -0.0752896400f32;
    t *= s;
    t += 0.1065626393f32;
    t *= s;
    t += -0.1420889944f32;
    t *= s;
    t += 0.1999355085f32;
    t *= s;
    t += -0.3333314528f32;
    t *= s;
    t += 1.0f32;
    t *= a;
    t += d;
    t
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

/// `Vec4Lerp` (section 6): `from * (1 - t) + to * t`.
pub fn vec4_lerp(from: &Vec4, to: &Vec4, t: f32) -> Vec4 {
    let s = 1.0f32 - t;
    Vec4 { x: from.x * s + to.x * t, y: from.y * s + to.y * t, z: from.z * s + to.z * t, w: from.w * s + to.w * t }
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
