//! The C routines of section 3 of *The Skeleton Assembly Line*
//! (`TransformJoint` and `TransformSkeleton`), ported line by line.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later).
//!
//! # Reconstruction
//!
//! The OCR of section 3 printed `TransformJoint` with its second and third
//! columns mangled: the second `tmp[2]` line is missing and the stores
//! write `a.mat[0 * 4 + 1]` four times; the third column repeats `tmp[1]`
//! twice and `tmp[2]` five times, one of them with `b.mat[1 * 4 + 1]` for
//! `b.mat[2 * 4 + 1]`, the last one cut off. The first and the fourth
//! columns are printed whole and agree with each other and with the listing
//! of Appendix A, so the port writes all four columns after the pattern they
//! share (column `c` = rotation of `b` times column `c` of `a`), and keeps
//! the printed order of the operands, the sums and the stores:
//!
//! ```text
//! tmp[r]       = a[0][c] * b[r][0] + a[1][c] * b[r][1] + a[2][c] * b[r][2]   (r = 0, 1, 2)
//! a[0..3][c]   = tmp[0..3]                                                   (c = 0, 1, 2, 3)
//! a[r][3]     += b[r][3]                                                     (r = 0, 1, 2)
//! ```
//!
//! That is `a = b * a` for 3x4 affine matrices (the implicit fourth row
//! `0 0 0 1`), with `b` the parent: **parent times child**. The rotation part
//! is `R_b * R_a`, the translation `R_b * t_a + t_b`, the child's
//! translation rotated into the parent's frame and moved by the parent's
//! translation. It is the usual composition for column vectors (`v' = M v`,
//! rotation in the rows and columns 0..3, translation in column 3):
//! `local_to_model(child) = local_to_model(parent) * local(child)`.
//! `tests/transform_skeleton.rs` checks this against the float64
//! local-to-model reference of `data/Fox.glb.pose.json`, built with the
//! standard column-vector rotation matrix of a quaternion.
//!
//! Appendix A computes the same sums in the same order (`b[r][0] * row 0 of
//! a + b[r][1] * row 1 + b[r][2] * row 2`, then `+ (0, 0, 0, b[r][3])`), so
//! the listing and this port agree bit for bit, except that the listing's
//! last `addps` adds `+0.0` to the rotation lanes and turns a `-0.0` there
//! into `+0.0` (erratum E1 in `asm_notes/transform_skeleton.md`).

use crate::types::JointMat;

/// `TransformJoint( JointMat &a, const JointMat &b )` (section 3): `a = b * a`
/// for row-major 3x4 affine matrices, `b` the parent, `a` the child, in
/// place. Column by column as the paper's C (reconstructed where the OCR
/// mangled it; see the module documentation): first the rotation of `b`
/// times each of the four columns of `a`, then `b`'s translation added to
/// `a`'s fourth column.
#[allow(clippy::identity_op, clippy::erasing_op)]
pub fn transform_joint(a: &mut JointMat, b: &JointMat) {
    let mut tmp = [0.0f32; 3];

    tmp[0] =
        a.mat[0 * 4 + 0] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 0] * b.mat[0 * 4 + 1] + a.mat[2 * 4 + 0] * b.mat[0 * 4 + 2];
    tmp[1] =
        a.mat[0 * 4 + 0] * b.mat[1 * 4 + 0] + a.mat[1 * 4 + 0] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 0] * b.mat[1 * 4 + 2];
    tmp[2] =
        a.mat[0 * 4 + 0] * b.mat[2 * 4 + 0] + a.mat[1 * 4 + 0] * b.mat[2 * 4 + 1] + a.mat[2 * 4 + 0] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 0] = tmp[0];
    a.mat[1 * 4 + 0] = tmp[1];
    a.mat[2 * 4 + 0] = tmp[2];

    // Rebuilt: the OCR drops this column's `tmp[2]` line and stores every
    // `tmp` into `a.mat[0 * 4 + 1]`.
    tmp[0] =
        a.mat[0 * 4 + 1] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 1] * b.mat[0 * 4 + 1] + a.mat[2 * 4 + 1] * b.mat[0 * 4 + 2];
    tmp[1] =
        a.mat[0 * 4 + 1] * b.mat[1 * 4 + 0] + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 1] * b.mat[1 * 4 + 2];
    tmp[2] =
        a.mat[0 * 4 + 1] * b.mat[2 * 4 + 0] + a.mat[1 * 4 + 1] * b.mat[2 * 4 + 1] + a.mat[2 * 4 + 1] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 1] = tmp[0];
    a.mat[1 * 4 + 1] = tmp[1];
    a.mat[2 * 4 + 1] = tmp[2];

    // Rebuilt: the OCR repeats this column's `tmp[1]` and `tmp[2]` lines.
    tmp[0] =
        a.mat[0 * 4 + 2] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 2] * b.mat[0 * 4 + 1] + a.mat[2 * 4 + 2] * b.mat[0 * 4 + 2];
    tmp[1] =
        a.mat[0 * 4 + 2] * b.mat[1 * 4 + 0] + a.mat[1 * 4 + 2] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 2] * b.mat[1 * 4 + 2];
    tmp[2] =
        a.mat[0 * 4 + 2] * b.mat[2 * 4 + 0] + a.mat[1 * 4 + 2] * b.mat[2 * 4 + 1] + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 2] = tmp[0];
    a.mat[1 * 4 + 2] = tmp[1];
    a.mat[2 * 4 + 2] = tmp[2];

    tmp[0] =
        a.mat[0 * 4 + 3] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 3] * b.mat[0 * 4 + 1] + a.mat[2 * 4 + 3] * b.mat[0 * 4 + 2];
    tmp[1] =
        a.mat[0 * 4 + 3] * b.mat[1 * 4 + 0] + a.mat[1 * 4 + 3] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 3] * b.mat[1 * 4 + 2];
    tmp[2] =
        a.mat[0 * 4 + 3] * b.mat[2 * 4 + 0] + a.mat[1 * 4 + 3] * b.mat[2 * 4 + 1] + a.mat[2 * 4 + 3] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 3] = tmp[0];
    a.mat[1 * 4 + 3] = tmp[1];
    a.mat[2 * 4 + 3] = tmp[2];

    a.mat[0 * 4 + 3] += b.mat[0 * 4 + 3];
    a.mat[1 * 4 + 3] += b.mat[1 * 4 + 3];
    a.mat[2 * 4 + 3] += b.mat[2 * 4 + 3];
}

/// `TransformSkeleton( JointMat *jointMats, const int *parents, const int
/// firstJoint, const int lastJoint )` (section 3), the C loop the paper times:
/// for `i = firstJoint ..= lastJoint`, `TransformJoint( jointMats[i],
/// jointMats[parents[i]] )`, local to global in place. With parents before
/// their children, every parent is already global when its child is
/// transformed. `first_joint > last_joint` does nothing.
///
/// # Safety
///
/// - `0 <= first_joint` (or `first_joint > last_joint`, when nothing is
///   read or written);
/// - `parents.add(i)` is readable for every `i` in `first_joint..=last_joint`;
/// - for every such `i`, `joint_mats.add(i)` is valid for reads and writes
///   of a [`JointMat`], `p = parents[i]` is `0 <= p` with `joint_mats.add(p)`
///   valid for reads, and `p != i` (the C's two references would alias).
///   The result is the local-to-global transform when `p < i`; a later
///   parent is read as it is at that point.
#[inline(never)]
pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    for i in first_joint..=last_joint {
        // SAFETY: `i` and `parents[i]` address joints of the array and differ
        // (caller's contract), so the `&mut` and the `&` do not alias.
        unsafe {
            let p = *parents.add(i as usize);
            transform_joint(&mut *joint_mats.add(i as usize), &*joint_mats.add(p as usize));
        }
    }
}
