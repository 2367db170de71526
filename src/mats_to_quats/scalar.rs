//! The two C routines of section 4 of *From Quaternion to Matrix and Back*
//! (`ConvertJointMatsToJointQuats`), ported line by line.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! - [`mats_to_quats`]: the four unrolled cases with `ReciprocalSqrt`, the
//!   routine the paper times as "C" (172 clock cycles per joint on a P4
//!   130nm);
//! - [`mats_to_quats_blueprint`]: the same routine rewritten with the indices
//!   `k0..k3` and the sign multipliers `s0..s2`, the "blue print" of the SSE
//!   listing. The paper says it is slower as FPU code and not meant to
//!   replace the former; it computes the same bits (multiplying by `±1.0f`
//!   and subtracting `-x` are exact), which `tests/mats_to_quats.rs` checks.
//!
//! Both read the matrices in the paper's convention (section 3): the 3x3
//! part of a `JointMat` is the *transpose* of the usual column-vector
//! rotation matrix `R` of the quaternion, `mat[r * 4 + c] = R[c][r]`
//! (`mat[0 * 4 + 1] = 2xy + 2wz`). See the module documentation of
//! [`crate::mats_to_quats`](mod@crate::mats_to_quats).
//!
//! `ReciprocalSqrt` printed in section 4 is, character for character, the
//! routine of *Slerping Clock Cycles* (section 5): the `0x5f3759df` bit trick
//! and one Newton-Raphson step (relative error up to about 1.75e-3). It is
//! used from [`crate::math::reciprocal_sqrt`] (public as `animasm::slerp_joints::scalar::reciprocal_sqrt`), not copied.
//!
//! The paper's C is C++ (`float *q = &jointQuats[i].q;` points at the
//! quaternion and runs on into the translation as `q[4..8]`); here `q` is the
//! joint's eight floats and `m` the matrix's twelve.

// The C's `m[0 * 4 + 0]`-style indices are kept as printed.
#![allow(clippy::identity_op, clippy::erasing_op)]

use crate::math::reciprocal_sqrt;
use crate::types::{JointMat, JointQuat};

/// The joint's eight floats `q[0..8]` (`x, y, z, w` of the quaternion, then
/// the translation), as the C's `float *q = &jointQuats[i].q;` sees them.
///
/// # Safety
///
/// `joint` must be valid for reads and writes of a [`JointQuat`] and not be
/// accessed otherwise while the reference lives.
#[inline(always)]
unsafe fn floats_mut<'a>(joint: *mut JointQuat) -> &'a mut [f32; 8] {
    // SAFETY: `JointQuat` is `repr(C)`, 32 bytes of eight `f32` (`Quat` then
    // `Vec4`, no padding: asserted in types.rs); validity is the caller's.
    unsafe { &mut *joint.cast::<[f32; 8]>() }
}

/// `ConvertJointMatsToJointQuats` (section 4, the first routine): for each
/// joint, the quaternion of the rotation part of `jointMats[i]` (paper
/// convention, see the module documentation) by the four unrolled cases,
/// `ReciprocalSqrt`, and the translation copied with `q[7] = 0`.
///
/// The case is chosen as the C chooses it, with strict comparisons:
/// `m00 + m11 + m22 > 0` takes `w` as the divisor, else
/// `m00 > m11 && m00 > m22` takes `x`, else `m11 > m22` takes `y`, else `z`.
/// The chosen component comes out positive. The OCR garbles the `x` case
/// (three copies of its `float t = ...` line and a stray fragment); it is
/// written here from the blueprint's `k0..k3 = 0, 1, 2, 3` and
/// `s0, s1, s2 = 1, -1, -1`, which the two surviving lines
/// (`q[2] = ( m[2*4+0] + m[0*4+2] ) * s;`, `q[3] = ( m[1*4+2] - m[2*4+1] ) * s;`)
/// and the other three cases confirm.
///
/// `ReciprocalSqrt` is accurate to about 1.75e-3 relative, so the
/// quaternions are too (they are not renormalised).
///
/// # Safety
///
/// `joint_quats` must be valid for writes and `joint_mats` for reads of
/// `num_joints` elements (`num_joints <= 0` does nothing); the two lists
/// must not overlap. No alignment beyond the types' own is assumed.
#[inline(never)]
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`: the caller guarantees both elements are
        // valid and that the lists do not overlap.
        let (q, m) = unsafe { (floats_mut(joint_quats.add(i)), &(*joint_mats.add(i)).mat) };
        if m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f32 {
            let t = m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] + 1.0f32;
            let s = reciprocal_sqrt(t) * 0.5f32;
            q[3] = s * t;
            q[2] = (m[0 * 4 + 1] - m[1 * 4 + 0]) * s;
            q[1] = (m[2 * 4 + 0] - m[0 * 4 + 2]) * s;
            q[0] = (m[1 * 4 + 2] - m[2 * 4 + 1]) * s;
        } else if m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2] {
            let t = m[0 * 4 + 0] - m[1 * 4 + 1] - m[2 * 4 + 2] + 1.0f32;
            let s = reciprocal_sqrt(t) * 0.5f32;
            q[0] = s * t;
            q[1] = (m[0 * 4 + 1] + m[1 * 4 + 0]) * s;
            q[2] = (m[2 * 4 + 0] + m[0 * 4 + 2]) * s;
            q[3] = (m[1 * 4 + 2] - m[2 * 4 + 1]) * s;
        } else if m[1 * 4 + 1] > m[2 * 4 + 2] {
            let t = -m[0 * 4 + 0] + m[1 * 4 + 1] - m[2 * 4 + 2] + 1.0f32;
            let s = reciprocal_sqrt(t) * 0.5f32;
            q[1] = s * t;
            q[0] = (m[0 * 4 + 1] + m[1 * 4 + 0]) * s;
            q[3] = (m[2 * 4 + 0] - m[0 * 4 + 2]) * s;
            q[2] = (m[1 * 4 + 2] + m[2 * 4 + 1]) * s;
        } else {
            let t = -m[0 * 4 + 0] - m[1 * 4 + 1] + m[2 * 4 + 2] + 1.0f32;
            let s = reciprocal_sqrt(t) * 0.5f32;
            q[2] = s * t;
            q[3] = (m[0 * 4 + 1] - m[1 * 4 + 0]) * s;
            q[0] = (m[2 * 4 + 0] + m[0 * 4 + 2]) * s;
            q[1] = (m[1 * 4 + 2] + m[2 * 4 + 1]) * s;
        }
        q[4] = m[0 * 4 + 3];
        q[5] = m[1 * 4 + 3];
        q[6] = m[2 * 4 + 3];
        q[7] = 0.0f32;
    }
}

/// `ConvertJointMatsToJointQuats` (section 4, the second routine): the
/// "blue print" of the SSE listing. Each case only sets the store order
/// `k0..k3` and the sign multipliers `s0, s1, s2`; one sequence of
/// arithmetic follows:
///
/// ```text
/// t     = s0 * m00 + s1 * m11 + s2 * m22 + 1
/// s     = ReciprocalSqrt( t ) * 0.5
/// q[k0] = s * t
/// q[k1] = ( m01 - s2 * m10 ) * s
/// q[k2] = ( m20 - s1 * m02 ) * s
/// q[k3] = ( m12 - s0 * m21 ) * s
/// ```
///
/// Same cases, same comparisons and the same bits as [`mats_to_quats`].
///
/// # Safety
///
/// As [`mats_to_quats`].
#[inline(never)]
pub unsafe fn mats_to_quats_blueprint(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    for i in 0..num_joints.max(0) as usize {
        let (s0, s1, s2): (f32, f32, f32);
        let (k0, k1, k2, k3): (usize, usize, usize, usize);
        // SAFETY: as in `mats_to_quats`.
        let (q, m) = unsafe { (floats_mut(joint_quats.add(i)), &(*joint_mats.add(i)).mat) };
        if m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f32 {
            k0 = 3;
            k1 = 2;
            k2 = 1;
            k3 = 0;
            s0 = 1.0f32;
            s1 = 1.0f32;
            s2 = 1.0f32;
        } else if m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2] {
            k0 = 0;
            k1 = 1;
            k2 = 2;
            k3 = 3;
            s0 = 1.0f32;
            s1 = -1.0f32;
            s2 = -1.0f32;
        } else if m[1 * 4 + 1] > m[2 * 4 + 2] {
            k0 = 1;
            k1 = 0;
            k2 = 3;
            k3 = 2;
            s0 = -1.0f32;
            s1 = 1.0f32;
            s2 = -1.0f32;
        } else {
            k0 = 2;
            k1 = 3;
            k2 = 0;
            k3 = 1;
            s0 = -1.0f32;
            s1 = -1.0f32;
            s2 = 1.0f32;
        }
        let t = s0 * m[0 * 4 + 0] + s1 * m[1 * 4 + 1] + s2 * m[2 * 4 + 2] + 1.0f32;
        let s = reciprocal_sqrt(t) * 0.5f32;
        q[k0] = s * t;
        q[k1] = (m[0 * 4 + 1] - s2 * m[1 * 4 + 0]) * s;
        q[k2] = (m[2 * 4 + 0] - s1 * m[0 * 4 + 2]) * s;
        q[k3] = (m[1 * 4 + 2] - s0 * m[2 * 4 + 1]) * s;
        q[4] = m[0 * 4 + 3];
        q[5] = m[1 * 4 + 3];
        q[6] = m[2 * 4 + 3];
        q[7] = 0.0f32;
    }
}
