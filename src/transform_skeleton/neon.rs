//! The NEON successor of Appendix A (`Impl::Neon`, `aarch64`): the
//! successors' `TransformSkeleton` with `core::arch::aarch64` intrinsics,
//! bit-identical to [`super::portable`] (and to `super::avx2` on `x86_64`):
//! the same IEEE operations in the same order for every element, the order
//! [`super::portable`] writes out.
//!
//! One joint per iteration, one 4-lane register per row. NEON's multiply and
//! fused multiply-add by element (`fmul v.4s, v.4s, v.s[k]`, `fmla v.4s,
//! v.4s, v.s[k]`) take the parent's scalar `b[r][k]` straight from the
//! register that holds the parent's row `r`, so the listing's nine `pshufd`
//! broadcasts (and the AVX2 successor's three shuffles and three
//! `vbroadcastss`) are not needed. Each result row `r` is
//!
//! ```text
//! y = a0 * b_r[0]               fmul  (by element)
//! y = fma(y, a1, b_r[1])        fmla  (by element: one rounding)
//! y = fma(y, a2, b_r[2])        fmla
//! y = y + (-0.0, -0.0, -0.0, b_r[3])   fadd, the translation last
//! ```
//!
//! with `a0..a2` the child's rows: per element exactly the portable form's
//! `((b[r][0] a[0][c] ⊕fma b[r][1] a[1][c]) ⊕fma b[r][2] a[2][c]) + t`.
//! `(-0.0, -0.0, -0.0, b_r[3])` is one `ins` (`vcopyq_laneq_f32`) of the
//! parent's translation into a vector of `-0.0`; adding `-0.0` keeps every
//! value, signed zeros included (erratum E1 corrected, as in every
//! successor). Per joint, as built: the six rows in 2 `ldp q` + 2 `ldr q`,
//! 3 `fmul`, 6 `fmla`, 3 `movi` + 3 `mov v.s[3]` (the `-0.0` vectors with
//! the translation inserted), 3 `fadd`, 1 `stp q` + 1 `str q`: 32
//! instructions with the loop's own.
//!
//! The loop is the listing's (parents first, one joint per iteration, no
//! tail, so no joint's operations depend on its position, the range or the
//! count); the kernel reads and writes exactly the listing's bytes (the 48
//! bytes of each joint of the range and of its parent, and
//! `parents[first..=last]`), and reads the parent and the joint whole
//! before it writes, so `p == i` (raw kernel only) gives the joint times
//! itself, as the other successors do. NEON is part of the `aarch64`
//! baseline: no run-time detection.

use crate::types::JointMat;
use core::arch::aarch64::*;

/// One result row: `a0 b[0] ⊕fma a1 b[1] ⊕fma a2 b[2]`, plus `(-0.0, -0.0,
/// -0.0, b[3])` (`neg_zero` holds `-0.0` in every lane).
#[inline]
#[target_feature(enable = "neon")]
fn row(a0: float32x4_t, a1: float32x4_t, a2: float32x4_t, b: float32x4_t, neg_zero: float32x4_t) -> float32x4_t {
    let mut y = vmulq_laneq_f32::<0>(a0, b);
    y = vfmaq_laneq_f32::<1>(y, a1, b);
    y = vfmaq_laneq_f32::<2>(y, a2, b);
    vaddq_f32(y, vcopyq_laneq_f32::<3, 3>(neg_zero, b))
}

/// `TransformSkeleton` for NEON: for `i` from `first_joint` to `last_joint`,
/// in order, `jointMats[i] = jointMats[parents[i]] * jointMats[i]`, with the
/// bits of [`super::portable::transform_skeleton`]. `first_joint >
/// last_joint` (signed) reads and writes nothing.
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
/// The paper's semantics need `p < i` (parents first); a later parent is
/// read as it is at that point, and `p == i` reads the whole joint before
/// it is written (the product of the joint with itself).
#[inline(never)]
#[target_feature(enable = "neon")]
pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    let base = joint_mats.cast::<f32>();
    let neg_zero = vdupq_n_f32(-0.0);
    for i in first_joint..=last_joint {
        // SAFETY: `first_joint <= i <= last_joint` and `0 <= first_joint`, so
        // `parents[i]` is readable and joint `i` and its parent are joints of
        // the array, each 12 floats valid (caller's contract); every load
        // and store stays inside those two joints, and all six loads come
        // before the three stores.
        unsafe {
            let p = parents.add(i as usize).read() as usize;
            let parent = base.add(p * 12).cast_const();
            let child = base.add(i as usize * 12);
            let (a0, a1, a2) = (vld1q_f32(child), vld1q_f32(child.add(4)), vld1q_f32(child.add(8)));
            let (b0, b1, b2) = (vld1q_f32(parent), vld1q_f32(parent.add(4)), vld1q_f32(parent.add(8)));
            vst1q_f32(child, row(a0, a1, a2, b0, neg_zero));
            vst1q_f32(child.add(4), row(a0, a1, a2, b1, neg_zero));
            vst1q_f32(child.add(8), row(a0, a1, a2, b2, neg_zero));
        }
    }
}
