//! The portable successor of Appendix A (`Impl::Portable`): the successors'
//! `TransformSkeleton` in plain Rust, one joint at a time, with the same
//! IEEE operations in the same order as `super::avx2` (and
//! `super::neon` on `aarch64`), so every successor form gives the same bits
//! for the same input on every CPU (NaN results aside: NaN everywhere,
//! payloads may differ).
//!
//! **The one order.** For each joint `i` of the range, in order, with `a` =
//! the joint (the child) and `b` = its parent, both read whole before the
//! joint is written, every element of the result is
//!
//! ```text
//! s         = b[r][0] * a[0][c]
//! s         = fma(b[r][1], a[1][c], s)      (one rounding)
//! s         = fma(b[r][2], a[2][c], s)      (one rounding)
//! out[r][c] = s + (c == 3 ? b[r][3] : -0.0)
//! ```
//!
//! for `r = 0, 1, 2` and `c = 0, 1, 2, 3`: the C's sum `((b0 a0 + b1 a1) +
//! b2 a2) + t` with the second and third products fused into their sums,
//! and the translation added last. The rotation columns add `-0.0`, which
//! changes no value (`x + (-0.0) == x`, `-0.0` included): the successors
//! keep the C's signed zeros (they correct the listing's erratum E1). The
//! fused multiply-add is `crate::portable`'s `mul_add` (`f32::mul_add`
//! with `std`, `libm::fmaf` without), correctly rounded on every target: an
//! instruction where the CPU has FMA, a library call where it has not (then
//! this form is slow, but gives the same bits).
//!
//! The loop, the empty range and the bytes touched are the listing's: the
//! 48 bytes of each joint of the range and of its parent, and
//! `parents[first..=last]`; a parent is read as it is when its child is
//! transformed (parents first), and a joint that is its own parent (the
//! raw kernel allows it) is read whole before it is written, as in
//! `super::avx2`.

use crate::portable::{MulAdd, Soft, fma_versions};
use crate::types::JointMat;

/// `a = b * a` (parent `b` times child `a`) in the successors' one order
/// (module documentation): every element `((b[r][0] a[0][c] ⊕fma b[r][1]
/// a[1][c]) ⊕fma b[r][2] a[2][c]) + (c == 3 ? b[r][3] : -0.0)`. The bits
/// every successor form of [`crate::transform_skeleton()`] gives for one
/// joint.
#[inline]
pub fn transform_joint(a: &mut JointMat, b: &JointMat) {
    transform_joint_with::<Soft>(a, b)
}

/// [`transform_joint`] with the fused multiply-add `F`.
#[inline(always)]
pub(crate) fn transform_joint_with<F: MulAdd>(a: &mut JointMat, b: &JointMat) {
    let a_in = a.mat;
    let b = &b.mat;
    for r in 0..3 {
        for c in 0..4 {
            let mut s = b[r * 4] * a_in[c];
            s = F::mul_add(b[r * 4 + 1], a_in[4 + c], s);
            s = F::mul_add(b[r * 4 + 2], a_in[8 + c], s);
            a.mat[r * 4 + c] = s + if c == 3 { b[r * 4 + 3] } else { -0.0 };
        }
    }
}

fma_versions! {
    /// `TransformSkeleton`, portable successor: for `i` from `first_joint` to
    /// `last_joint`, in order, `jointMats[i] = jointMats[parents[i]] *
    /// jointMats[i]` by [`transform_joint`]. `first_joint > last_joint`
    /// (signed) reads and writes nothing.
    ///
    /// # Safety
    ///
    /// If `first_joint <= last_joint`:
    /// - `0 <= first_joint`, and `joint_mats.add(i)` is valid for reads and
    ///   writes of a [`JointMat`] (aligned, as the type is) for every `i` in
    ///   `first_joint..=last_joint`;
    /// - `parents.add(i)` is readable for every such `i`, and `p = parents[i]`
    ///   is `0 <= p` with `joint_mats.add(p)` valid for reads.
    ///
    /// The paper's semantics need `p < i` (parents first); a later parent is
    /// read as it is at that point, and `p == i` reads the whole joint before
    /// it is written (the product of the joint with itself), as
    /// `super::avx2::transform_skeleton` does.
    pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) => transform_skeleton_with;
}

/// [`transform_skeleton`] with the fused multiply-add `F`.
///
/// # Safety
///
/// [`transform_skeleton`]'s contract.
#[inline(always)]
unsafe fn transform_skeleton_with<F: MulAdd>(
    joint_mats: *mut JointMat,
    parents: *const i32,
    first_joint: i32,
    last_joint: i32,
) {
    for i in first_joint..=last_joint {
        // SAFETY: `first_joint <= i <= last_joint` and `0 <= first_joint`,
        // so `parents[i]` is readable and joint `i` and its parent are
        // joints of the array (caller's contract). Both are copied before
        // anything is written, so `p == i` is sound and reads the old joint.
        unsafe {
            let p = parents.add(i as usize).read();
            let parent = joint_mats.add(p as usize).read();
            let child = joint_mats.add(i as usize);
            let mut a = child.read();
            transform_joint_with::<F>(&mut a, &parent);
            child.write(a);
        }
    }
}
