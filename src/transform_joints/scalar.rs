//! The C of *The Skeleton Assembly Line*, section 5 (`MultiplyJoints`), and
//! the loop over it that the paper times as "TransformJoints (C)", ported
//! line by line.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! The OCR of `MultiplyJoints` is garbled: of its twelve lines it keeps the
//! first row whole but with wrong indices in the translation (`b.mat[1 * 4 +
//! 2]`, `b.mat[2 * 4 + 2]` and no `+ a.mat[0 * 4 + 3]`), the second row
//! without its `[1 * 4 + 2]` line and with `b.mat[0 * 4 + 2]` for `b.mat[0 *
//! 4 + 1]`, and the third row as two run-together fragments. The port writes
//! the twelve lines from the math that the intact lines, the text ("multiply
//! the joint matrices of the animated skeleton with the precalculated inverse
//! joint matrices") and Appendix C agree on: `result = a * b` for 3x4 affine
//! matrices with an implicit last row `0 0 0 1`,
//!
//! ```text
//! result.mat[r*4+c] = a.mat[r*4+0] * b.mat[0*4+c] + a.mat[r*4+1] * b.mat[1*4+c]
//!                   + a.mat[r*4+2] * b.mat[2*4+c]   ( + a.mat[r*4+3] for c == 3 )
//! ```
//!
//! in the form of the intact lines (terms left to right, the translation
//! `a.mat[r*4+3]` added last, as the fragments of the third row and the
//! listing's `addps xmm3, xmm7` do). The OCR shows no C for the loop; it is
//! written as section 3's `TransformSkeleton` loop over `TransformJoint`.

use crate::types::JointMat;

/// `MultiplyJoints` (section 5): `result = a * b`, the product of two 3x4
/// affine joint matrices (row-major, implicit last row `0 0 0 1`), summed
/// left to right in `f32`.
///
/// The C writes through a `result` reference that may alias `a` or `b`; it
/// reads `a.mat[r*4+0]` again after writing `result.mat[r*4+0]`, so an
/// aliased call computes garbage there. Here `result` is a `&mut` and cannot
/// alias.
#[allow(clippy::identity_op, clippy::erasing_op)]
pub fn multiply_joints(result: &mut JointMat, a: &JointMat, b: &JointMat) {
    result.mat[0 * 4 + 0] =
        a.mat[0 * 4 + 0] * b.mat[0 * 4 + 0] + a.mat[0 * 4 + 1] * b.mat[1 * 4 + 0] + a.mat[0 * 4 + 2] * b.mat[2 * 4 + 0];
    result.mat[0 * 4 + 1] =
        a.mat[0 * 4 + 0] * b.mat[0 * 4 + 1] + a.mat[0 * 4 + 1] * b.mat[1 * 4 + 1] + a.mat[0 * 4 + 2] * b.mat[2 * 4 + 1];
    result.mat[0 * 4 + 2] =
        a.mat[0 * 4 + 0] * b.mat[0 * 4 + 2] + a.mat[0 * 4 + 1] * b.mat[1 * 4 + 2] + a.mat[0 * 4 + 2] * b.mat[2 * 4 + 2];
    result.mat[0 * 4 + 3] = a.mat[0 * 4 + 0] * b.mat[0 * 4 + 3]
        + a.mat[0 * 4 + 1] * b.mat[1 * 4 + 3]
        + a.mat[0 * 4 + 2] * b.mat[2 * 4 + 3]
        + a.mat[0 * 4 + 3];

    result.mat[1 * 4 + 0] =
        a.mat[1 * 4 + 0] * b.mat[0 * 4 + 0] + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 0] + a.mat[1 * 4 + 2] * b.mat[2 * 4 + 0];
    result.mat[1 * 4 + 1] =
        a.mat[1 * 4 + 0] * b.mat[0 * 4 + 1] + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 1] + a.mat[1 * 4 + 2] * b.mat[2 * 4 + 1];
    result.mat[1 * 4 + 2] =
        a.mat[1 * 4 + 0] * b.mat[0 * 4 + 2] + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 2] + a.mat[1 * 4 + 2] * b.mat[2 * 4 + 2];
    result.mat[1 * 4 + 3] = a.mat[1 * 4 + 0] * b.mat[0 * 4 + 3]
        + a.mat[1 * 4 + 1] * b.mat[1 * 4 + 3]
        + a.mat[1 * 4 + 2] * b.mat[2 * 4 + 3]
        + a.mat[1 * 4 + 3];

    result.mat[2 * 4 + 0] =
        a.mat[2 * 4 + 0] * b.mat[0 * 4 + 0] + a.mat[2 * 4 + 1] * b.mat[1 * 4 + 0] + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 0];
    result.mat[2 * 4 + 1] =
        a.mat[2 * 4 + 0] * b.mat[0 * 4 + 1] + a.mat[2 * 4 + 1] * b.mat[1 * 4 + 1] + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 1];
    result.mat[2 * 4 + 2] =
        a.mat[2 * 4 + 0] * b.mat[0 * 4 + 2] + a.mat[2 * 4 + 1] * b.mat[1 * 4 + 2] + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 2];
    result.mat[2 * 4 + 3] = a.mat[2 * 4 + 0] * b.mat[0 * 4 + 3]
        + a.mat[2 * 4 + 1] * b.mat[1 * 4 + 3]
        + a.mat[2 * 4 + 2] * b.mat[2 * 4 + 3]
        + a.mat[2 * 4 + 3];
}

/// `TransformJoints` in C: `MultiplyJoints( result[i], joints1[i],
/// joints2[i] )` for `i` in `0..numJoints`.
///
/// ```c
/// void TransformJoints( JointMat *result, const JointMat *joints1, const JointMat *joints2, const int numJoints ) {
///     int i;
///
///     for( i = 0; i < numJoints; i++ ) {
///         MultiplyJoints( result[i], joints1[i], joints2[i] );
///     }
/// }
/// ```
///
/// # Safety
///
/// - `result` is valid for writes, `joints1` and `joints2` for reads, of
///   `num_joints` [`JointMat`]s each (`num_joints <= 0` does nothing);
/// - `result[0..num_joints]` overlaps neither input list (unlike the asm and
///   intrinsics kernels, the C reads an input element after it has written
///   the result element at the same place, so in-place calls are not
///   allowed; here they would also break the `&mut` rules).
#[inline(never)]
pub unsafe fn transform_joints(
    result: *mut JointMat,
    joints1: *const JointMat,
    joints2: *const JointMat,
    num_joints: i32,
) {
    let mut i = 0;
    while i < num_joints {
        // SAFETY: `0 <= i < num_joints`: the caller guarantees the three
        // elements are valid and that `result[i]` overlaps neither input.
        unsafe {
            multiply_joints(&mut *result.add(i as usize), &*joints1.add(i as usize), &*joints2.add(i as usize));
        }
        i += 1;
    }
}
