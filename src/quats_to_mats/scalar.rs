//! The two C routines of *From Quaternion to Matrix and Back*, section 3
//! ("Quaternion to Matrix"), ported line by line.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! Both are called `ConvertJointQuatsToJointMats` in the paper:
//!
//! - the first groups the common products inside braces "to make it easier
//!   for the compiler to produce optimized FPU code"; it is the routine the
//!   paper times as "C" (54 clock cycles per joint on a P4 130nm). Here:
//!   [`quats_to_mats`] and its per-joint body [`joint_quat_to_joint_mat`];
//! - the second is the "prototype" that the SSE code of Appendix A is built
//!   from: all nine products first, in the order the SSE computes them, then
//!   the twelve elements in memory order. The paper says it is "significantly
//!   slower when compiled to FPU code". Here: [`quats_to_mats_prototype`] and
//!   [`joint_quat_to_joint_mat_prototype`].
//!
//! The C reads the joint through `const float *q = &jointQuats[i].q;` and
//! takes the translation as `q[4]`, `q[5]`, `q[6]` (past the end of the
//! `Quaternion`, into `t`); the ports read the same eight floats of the
//! [`JointQuat`] as `q[0..8]`. The OCR prints the first lines of both
//! routines as `float x^2 = q[0] + q[0];`, `float y^2 = ...`,
//! `float z_2 = ...`, `float w^2 = ...`: the names are `x2`, `y2`, `z2`, `w2`
//! (every later line uses them). Everything else is as printed.
//!
//! Both write the paper's `M` of section 3, `m[0*4+1] = 2xy + 2wz`: the
//! transpose of the usual column-vector rotation matrix of `q` (see the
//! module documentation of [`super`]). The translation is copied into
//! column 3 (`t.w` is not stored); the source copies bits, but LLVM may
//! quiet a signalling NaN on the way (rustc 1.95's SLP vectorizer turns the
//! prototype's `m[2*4+3] = q[6]` into a lane of a vector `fadd` with `-0.0`).
//!
//! The arithmetic is single precision as in the C (`1.0f`); no operation is
//! fused or reordered (Rust does not contract `a * b + c`). The two routines
//! give identical off-diagonal elements; the diagonal elements are summed in
//! different orders (`1 - yy2 - zz2` against `-yy2 - zz2 + 1`) and may differ
//! in the last bit, and the SSE listing uses a third order for two of them
//! (`asm_notes/quats_to_mats.md`, erratum E4).

use crate::types::{JointMat, JointQuat};

/// The eight floats of a joint as the C's `q[0..8]`: `q.x, q.y, q.z, q.w,
/// t.x, t.y, t.z, t.w`.
#[inline(always)]
fn floats(j: &JointQuat) -> [f32; 8] {
    [j.q.x, j.q.y, j.q.z, j.q.w, j.t.x, j.t.y, j.t.z, j.t.w]
}

/// The loop body of the first `ConvertJointQuatsToJointMats` of section 3
/// (grouped products, the routine the paper times as "C") for one joint:
/// writes the paper's matrix `M` of `joint.q` into the rotation part of `m`
/// and copies `joint.t.x/y/z` into column 3, in the C's statement order.
#[allow(clippy::identity_op, clippy::erasing_op)]
pub fn joint_quat_to_joint_mat(m: &mut JointMat, joint: &JointQuat) {
    let q = floats(joint);
    let m = &mut m.mat;

    m[0 * 4 + 3] = q[4];
    m[1 * 4 + 3] = q[5];
    m[2 * 4 + 3] = q[6];

    let x2 = q[0] + q[0];
    let y2 = q[1] + q[1];
    let z2 = q[2] + q[2];

    {
        let xx2 = q[0] * x2;
        let yy2 = q[1] * y2;
        let zz2 = q[2] * z2;

        m[0 * 4 + 0] = 1.0f32 - yy2 - zz2;
        m[1 * 4 + 1] = 1.0f32 - xx2 - zz2;
        m[2 * 4 + 2] = 1.0f32 - xx2 - yy2;
    }
    {
        let yz2 = q[1] * z2;
        let wx2 = q[3] * x2;

        m[2 * 4 + 1] = yz2 - wx2;
        m[1 * 4 + 2] = yz2 + wx2;
    }
    {
        let xy2 = q[0] * y2;
        let wz2 = q[3] * z2;

        m[1 * 4 + 0] = xy2 - wz2;
        m[0 * 4 + 1] = xy2 + wz2;
    }
    {
        let xz2 = q[0] * z2;
        let wy2 = q[3] * y2;

        m[0 * 4 + 2] = xz2 - wy2;
        m[2 * 4 + 0] = xz2 + wy2;
    }
}

/// The loop body of the second `ConvertJointQuatsToJointMats` of section 3,
/// the prototype of the SSE code, for one joint: the nine products in the
/// order the SSE forms them, then the twelve elements in memory order.
///
/// `w2` is computed and never used, as in the C (the SSE's `addps xmm1,
/// xmm1` doubles all four components too).
#[allow(clippy::identity_op, clippy::erasing_op)]
pub fn joint_quat_to_joint_mat_prototype(m: &mut JointMat, joint: &JointQuat) {
    let q = floats(joint);
    let m = &mut m.mat;

    let x2 = q[0] + q[0];
    let y2 = q[1] + q[1];
    let z2 = q[2] + q[2];
    let _w2 = q[3] + q[3];

    let yy2 = q[1] * y2;
    let xy2 = q[0] * y2;
    let xz2 = q[0] * z2;
    let yz2 = q[1] * z2;
    let zz2 = q[2] * z2;
    let wz2 = q[3] * z2;
    let wy2 = q[3] * y2;
    let wx2 = q[3] * x2;
    let xx2 = q[0] * x2;

    m[0 * 4 + 0] = -yy2 - zz2 + 1.0f32;
    m[0 * 4 + 1] = xy2 + wz2;
    m[0 * 4 + 2] = xz2 - wy2;
    m[0 * 4 + 3] = q[4];

    m[1 * 4 + 0] = xy2 - wz2;
    m[1 * 4 + 1] = -xx2 - zz2 + 1.0f32;
    m[1 * 4 + 2] = yz2 + wx2;
    m[1 * 4 + 3] = q[5];

    m[2 * 4 + 0] = xz2 + wy2;
    m[2 * 4 + 1] = yz2 - wx2;
    m[2 * 4 + 2] = -xx2 - yy2 + 1.0f32;
    m[2 * 4 + 3] = q[6];
}

/// `ConvertJointQuatsToJointMats`, the first C routine of section 3 (the
/// paper's "C" timing): for `i` in `0..num_joints`, writes the matrix of
/// `joint_quats[i]` into `joint_mats[i]` with [`joint_quat_to_joint_mat`].
/// A `num_joints <= 0` converts nothing, as the C's `for` loop.
///
/// # Safety
///
/// If `num_joints > 0`: `joint_quats` is valid for reads of `num_joints`
/// [`JointQuat`], `joint_mats` is valid for reads and writes of `num_joints`
/// [`JointMat`], both are aligned for their types, and the two lists do not
/// overlap.
#[inline(never)]
pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`, so both elements are in the caller's
        // valid, aligned, non-overlapping ranges.
        unsafe { joint_quat_to_joint_mat(&mut *joint_mats.add(i), &*joint_quats.add(i)) }
    }
}

/// `ConvertJointQuatsToJointMats`, the second C routine of section 3 (the
/// prototype of the SSE code): as [`quats_to_mats`] with
/// [`joint_quat_to_joint_mat_prototype`].
///
/// # Safety
///
/// As [`quats_to_mats`].
#[inline(never)]
pub unsafe fn quats_to_mats_prototype(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: as in `quats_to_mats`.
        unsafe { joint_quat_to_joint_mat_prototype(&mut *joint_mats.add(i), &*joint_quats.add(i)) }
    }
}
