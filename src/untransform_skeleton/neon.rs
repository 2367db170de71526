//! The NEON successor of Appendix B (`Impl::Neon`, `aarch64`): the
//! successors' `UntransformSkeleton` with `core::arch::aarch64`
//! intrinsics, bit-identical to [`super::portable`] (and to `super::avx2` on
//! `x86_64`): the same IEEE operations in the same order for every element,
//! the order [`super::portable`] writes out.
//!
//! One joint per iteration, one 4-lane register per row. The translation is
//! subtracted first from each of the child's rows, as `a_k - (0, 0, 0,
//! b_k[3])` (one `ins`, `vcopyq_laneq_f32`, of the parent's translation into
//! a vector of zeros, then `fsub`; `x - (+0.0) == x`, so the C's `-0.0`
//! survive). The result's row `r` needs the parent's column `r`, the scalars
//! `b_k[r]`; NEON's multiply and fused multiply-add by element take them
//! straight from the registers that hold the parent's rows, so the
//! listing's twelve `pshufd` (and the AVX2 successor's six shuffles) are not
//! needed:
//!
//! ```text
//! y = d0 * b_0[r]               fmul  (by element)
//! y = fma(y, d1, b_1[r])        fmla  (by element: one rounding)
//! y = fma(y, d2, b_2[r])        fmla
//! ```
//!
//! per element exactly the portable form's `(b[0][r] d[0][c] ⊕fma b[1][r]
//! d[1][c]) ⊕fma b[2][r] d[2][c]`. Per joint, as built: the six rows in 2
//! `ldp q` + 2 `ldr q`, 3 `movi` + 3 `mov v.s[3]`, 3 `fsub`, 3 `fmul`, 6
//! `fmla`, 1 `stp q` + 1 `str q`: 34 instructions with the loop's own.
//!
//! The loop is the listing's (last joint first, one joint per iteration, no
//! tail: no joint's operations depend on its position, the range or the
//! count); the kernel reads and writes exactly the listing's bytes, and
//! reads the parent and the joint whole before it writes (`p == i`, raw
//! kernel only, is sound). NEON is part of the `aarch64` baseline: no
//! run-time detection.

use crate::types::JointMat;
use core::arch::aarch64::*;

/// `UntransformSkeleton` for NEON: for `i` from `last_joint` down to
/// `first_joint`, `jointMats[i] = Rp^T (jointMats[i] - tp)` with `[Rp | tp] =
/// jointMats[parents[i]]`, with the bits of
/// [`super::portable::untransform_skeleton`]. `first_joint > last_joint`
/// (signed) reads and writes nothing.
///
/// # Safety
///
/// If `first_joint <= last_joint`:
/// - `0 <= first_joint`, and `joint_mats.add(i)` is valid for reads and
///   writes of a [`JointMat`] for every `i` in `first_joint..=last_joint`
///   (no alignment beyond 4 bytes is needed);
/// - `parents.add(i)` is readable for every such `i`, and `p = parents[i]`
///   is `0 <= p` with `joint_mats.add(p)` valid for reads.
///
/// The paper's semantics need `p < i` (parents first); `p == i` reads the
/// whole joint before it is written.
#[inline(never)]
#[target_feature(enable = "neon")]
pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    let base = joint_mats.cast::<f32>();
    let zero = vdupq_n_f32(0.0);
    for i in (first_joint..=last_joint).rev() {
        // SAFETY: `first_joint <= i <= last_joint` and `0 <= first_joint`, so
        // `parents[i]` is readable and joint `i` and its parent are joints of
        // the array, each 12 floats valid (caller's contract); every load
        // and store stays inside those two joints, and all six loads come
        // before the three stores.
        unsafe {
            let p = parents.add(i as usize).read() as usize;
            let parent = base.add(p * 12).cast_const();
            let child = base.add(i as usize * 12);
            let (b0, b1, b2) = (vld1q_f32(parent), vld1q_f32(parent.add(4)), vld1q_f32(parent.add(8)));
            // d_k = a_k - (0, 0, 0, t_k): the translation first.
            let d0 = vsubq_f32(vld1q_f32(child), vcopyq_laneq_f32::<3, 3>(zero, b0));
            let d1 = vsubq_f32(vld1q_f32(child.add(4)), vcopyq_laneq_f32::<3, 3>(zero, b1));
            let d2 = vsubq_f32(vld1q_f32(child.add(8)), vcopyq_laneq_f32::<3, 3>(zero, b2));
            // Row r: sum over k of b_k[r] d_k.
            let y0 = vfmaq_laneq_f32::<0>(vfmaq_laneq_f32::<0>(vmulq_laneq_f32::<0>(d0, b0), d1, b1), d2, b2);
            let y1 = vfmaq_laneq_f32::<1>(vfmaq_laneq_f32::<1>(vmulq_laneq_f32::<1>(d0, b0), d1, b1), d2, b2);
            let y2 = vfmaq_laneq_f32::<2>(vfmaq_laneq_f32::<2>(vmulq_laneq_f32::<2>(d0, b0), d1, b1), d2, b2);
            vst1q_f32(child, y0);
            vst1q_f32(child.add(4), y1);
            vst1q_f32(child.add(8), y2);
        }
    }
}
