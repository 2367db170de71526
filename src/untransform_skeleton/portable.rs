//! The portable successor of Appendix B (`Impl::Portable`): the successors'
//! `UntransformSkeleton` in plain Rust, one joint at a time, with the same
//! IEEE operations in the same order as `super::avx2` (and `super::neon` on
//! `aarch64`), so every successor form gives the same bits for the same
//! input on every CPU (NaN results aside: NaN everywhere, payloads may
//! differ).
//!
//! **The one order.** For each joint `i` of the range, from the last to the
//! first, with `a` = the joint (global) and `b` = its parent (still global),
//! both read whole before the joint is written:
//!
//! ```text
//! d[k][c]   = a[k][c] - (c == 3 ? b[k][3] : +0.0)          (k = 0, 1, 2)
//! s         = b[0][r] * d[0][c]
//! s         = fma(b[1][r], d[1][c], s)                        (one rounding)
//! out[r][c] = fma(b[2][r], d[2][c], s)                        (one rounding)
//! ```
//!
//! for `r = 0, 1, 2` and `c = 0, 1, 2, 3`: `Rb^T (a - tb)`, the translation
//! subtracted first (as the C and the listing do), then the C's sum
//! `(b0 d0 + b1 d1) + b2 d2` over the parent's column `r` with the second
//! and third products fused into their sums. The rotation columns subtract `+0.0`,
//! which changes no value (`x - (+0.0) == x`, `-0.0` included), so the C's
//! signed zeros survive. The fused multiply-add is `crate::portable`'s
//! `mul_add` (`f32::mul_add` with `std`, `libm::fmaf` without), correctly
//! rounded on every target.
//!
//! The loop, the empty range and the bytes touched are the listing's: the
//! 48 bytes of each joint of the range and of its parent, and
//! `parents[first..=last]`; a joint that is its own parent (the raw kernel
//! allows it) is read whole before it is written, as in `super::avx2`.

use crate::portable::{MulAdd, Soft, fma_versions};
use crate::types::JointMat;

/// `a = [Rb^T | -Rb^T tb] * a` (the rigid inverse of the parent `b` times
/// the joint `a`) in the successors' one order (module documentation): the
/// bits every successor form of [`crate::untransform_skeleton()`] gives for
/// one joint.
#[inline]
pub fn untransform_joint(a: &mut JointMat, b: &JointMat) {
    untransform_joint_with::<Soft>(a, b)
}

/// [`untransform_joint`] with the fused multiply-add `F`.
#[inline(always)]
pub(crate) fn untransform_joint_with<F: MulAdd>(a: &mut JointMat, b: &JointMat) {
    let b = &b.mat;
    let mut d = a.mat;
    for k in 0..3 {
        for c in 0..4 {
            d[k * 4 + c] -= if c == 3 { b[k * 4 + 3] } else { 0.0 };
        }
    }
    for r in 0..3 {
        for c in 0..4 {
            let mut s = b[r] * d[c];
            s = F::mul_add(b[4 + r], d[4 + c], s);
            a.mat[r * 4 + c] = F::mul_add(b[8 + r], d[8 + c], s);
        }
    }
}

fma_versions! {
    /// `UntransformSkeleton`, portable successor: for `i` from `last_joint` down
    /// to `first_joint`, `jointMats[i] = Rp^T (jointMats[i] - tp)` with `[Rp |
    /// tp] = jointMats[parents[i]]`, by [`untransform_joint`].
    /// `first_joint > last_joint` (signed) reads and writes nothing.
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
    /// The paper's semantics need `p < i` (parents first); `p == i` reads the
    /// whole joint before it is written.
    pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) => untransform_skeleton_with;
}

/// [`untransform_skeleton`] with the fused multiply-add `F`.
///
/// # Safety
///
/// [`untransform_skeleton`]'s contract.
#[inline(always)]
unsafe fn untransform_skeleton_with<F: MulAdd>(
    joint_mats: *mut JointMat,
    parents: *const i32,
    first_joint: i32,
    last_joint: i32,
) {
    for i in (first_joint..=last_joint).rev() {
        // SAFETY: `first_joint <= i <= last_joint` and `0 <= first_joint`,
        // so `parents[i]` is readable and joint `i` and its parent are
        // joints of the array (caller's contract). Both are copied before
        // anything is written, so `p == i` is sound and reads the old joint.
        unsafe {
            let p = parents.add(i as usize).read();
            let parent = joint_mats.add(p as usize).read();
            let child = joint_mats.add(i as usize);
            let mut a = child.read();
            untransform_joint_with::<F>(&mut a, &parent);
            child.write(a);
        }
    }
}
