//! The C routines of *The Skeleton Assembly Line*, section 4
//! (`UntransformJoint`, `UntransformSkeleton`), ported line by line.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! The OCR of section 4 (lines 122-152 of the text) mangles half of the
//! `tmp` lines of `UntransformJoint`: column 0's `tmp[0]` has lost its `+` terms (`a.mat[0 * 4 + 0] *
//! b.mat[0 * 4 + 0] * b.mat[1 * 4 + 0] * ...`) and runs into `tmp[1]`, which
//! is readable; column 1 keeps the first two terms of `tmp[0]` and loses the
//! rest of the column in a run of `* b.mat[...]`; column 2 prints `tmp[1]`
//! twice (the first with a stray `* b.mat[2 * 4 + 2]`) and `tmp[2]` with a
//! `*` for its second `+` and a trailing stray factor; column 3's `tmp[2]`
//! has a stray `* b.mat[2 * 4 + 3]`. The closing braces of both functions
//! are missing, and `b` is typed `const idJointMat &` (the id Tech 4 name of
//! the type) where the loop passes a `JointMat`. The lines that survive
//! whole (column 0 `tmp[1]`, `tmp[2]`; column 2 `tmp[0]`, the second
//! `tmp[1]`; column 3 `tmp[0]`, `tmp[1]`), the stores, and Appendix B agree
//! on one formula, which this port writes out for every line:
//!
//! `tmp[r] = a.mat[0 * 4 + c] * b.mat[0 * 4 + r] + a.mat[1 * 4 + c] * b.mat[1 * 4 + r] + a.mat[2 * 4 + c] * b.mat[2 * 4 + r]`
//!
//! for column `c` of `a` and `r = 0, 1, 2`, after the translation of `b` has
//! been subtracted from the translation of `a`. That is `a' = Rb^T (a - tb)`:
//! the product of the inverse of the rigid transform `b = [Rb | tb]` with `a`,
//! where the inverse is taken as `[Rb^T | -Rb^T tb]`, which is the inverse
//! only when `Rb` is orthonormal (section 2: the joints are "a 3x3
//! orthonormal rotation matrix and a 3D translation vector").
//!
//! The arithmetic is single precision, each `tmp` summed left to right, as
//! the C compiles without contraction; it performs the same roundings in the
//! same order as Appendix B (whose `subps` of a zero in the rotation lanes
//! changes nothing), so the port and the listing agree bit for bit on every
//! input whose result is not a NaN (`tests/untransform_skeleton.rs`).

use crate::types::JointMat;

/// `UntransformJoint` (section 4): turns `a` from global space into the
/// space of `b`, in place: `a = [Rb^T | -Rb^T tb] * a`, the inverse of
/// `TransformJoint` when `b`'s rotation is orthonormal.
///
/// Column 0's `tmp[0]`, column 1's three lines, column 2's `tmp[1]` and
/// `tmp[2]` and column 3's `tmp[2]` are rebuilt from the formula the
/// surviving lines and the listing agree on (see the module documentation).
#[allow(clippy::identity_op, clippy::erasing_op)]
pub fn untransform_joint(a: &mut JointMat, b: &JointMat) {
    let mut tmp = [0.0f32; 3];

    a.mat[0 * 4 + 3] -= b.mat[0 * 4 + 3];
    a.mat[1 * 4 + 3] -= b.mat[1 * 4 + 3];
    a.mat[2 * 4 + 3] -= b.mat[2 * 4 + 3];

    tmp[0] =
        a.mat[0 * 4 + 0] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 0] * b.mat[1 * 4 + 0] + a.mat[2 * 4 + 0] * b.mat[2 * 4 + 0];
    tmp[1] =
        a.mat[0 * 4 + 0] * b.mat[0 * 4 + 1] + a.mat[1 * 4 + 0] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 0] * b.mat[2 * 4 + 1];
    tmp[2] =
        a.mat[0 * 4 + 0] * b.mat[0 * 4 + 2] + a.mat[1 * 4 + 0] * b.mat[1 * 4 + 2] + a.mat[2 * 4 + 0] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 0] = tmp[0];
    a.mat[1 * 4 + 0] = tmp[1];
    a.mat[2 * 4 + 0] = tmp[2];

    tmp[0] =
        a.mat[0 * 4 + 1] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 0] + a.mat[2 * 4 + 1] * b.mat[2 * 4 + 0];
    tmp[1] =
        a.mat[0 * 4 + 1] * b.mat[0 * 4 + 1] + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 1] * b.mat[2 * 4 + 1];
    tmp[2] =
        a.mat[0 * 4 + 1] * b.mat[0 * 4 + 2] + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 2] + a.mat[2 * 4 + 1] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 1] = tmp[0];
    a.mat[1 * 4 + 1] = tmp[1];
    a.mat[2 * 4 + 1] = tmp[2];

    tmp[0] =
        a.mat[0 * 4 + 2] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 2] * b.mat[1 * 4 + 0] + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 0];
    tmp[1] =
        a.mat[0 * 4 + 2] * b.mat[0 * 4 + 1] + a.mat[1 * 4 + 2] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 1];
    tmp[2] =
        a.mat[0 * 4 + 2] * b.mat[0 * 4 + 2] + a.mat[1 * 4 + 2] * b.mat[1 * 4 + 2] + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 2] = tmp[0];
    a.mat[1 * 4 + 2] = tmp[1];
    a.mat[2 * 4 + 2] = tmp[2];

    tmp[0] =
        a.mat[0 * 4 + 3] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 3] * b.mat[1 * 4 + 0] + a.mat[2 * 4 + 3] * b.mat[2 * 4 + 0];
    tmp[1] =
        a.mat[0 * 4 + 3] * b.mat[0 * 4 + 1] + a.mat[1 * 4 + 3] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 3] * b.mat[2 * 4 + 1];
    tmp[2] =
        a.mat[0 * 4 + 3] * b.mat[0 * 4 + 2] + a.mat[1 * 4 + 3] * b.mat[1 * 4 + 2] + a.mat[2 * 4 + 3] * b.mat[2 * 4 + 2];
    a.mat[0 * 4 + 3] = tmp[0];
    a.mat[1 * 4 + 3] = tmp[1];
    a.mat[2 * 4 + 3] = tmp[2];
}

/// `UntransformSkeleton` (section 4), the C loop the paper times: for `i`
/// from `last_joint` down to `first_joint`, `UntransformJoint( jointMats[i],
/// jointMats[parents[i]] )`, turning global joint matrices back into local
/// ones (relative to their parents) in place. Last joint first, so that a
/// parent inside the range is still global when its children read it. An
/// empty range (`first_joint > last_joint`) does nothing.
///
/// # Safety
///
/// If `first_joint <= last_joint`:
/// - `0 <= first_joint` and `joint_mats.add(i)` is valid for reads and writes
///   of a [`JointMat`] for every `i` in `first_joint..=last_joint`;
/// - `parents.add(i)` is readable for every such `i`, and `parents[i]` is
///   the index of another joint of the array (`parents[i] != i`, readable
///   through `joint_mats`). The paper's semantics need `0 <= parents[i] < i`
///   (parents first); memory safety needs only this.
#[inline(never)]
pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    for i in (first_joint..=last_joint).rev() {
        // SAFETY: `i` is in the range, so the caller guarantees that
        // `parents[i]` is readable and that joints `i` and `parents[i]` are
        // two distinct valid joints, so the two references do not overlap.
        unsafe {
            let p = *parents.add(i as usize);
            untransform_joint(&mut *joint_mats.add(i as usize), &*joint_mats.add(p as usize));
        }
    }
}
