//! The wasm SIMD128 successor of Appendix A (`Impl::Simd128`, builds with
//! `-C target-feature=+simd128`): the NEON successor (`super::neon`) lane
//! for lane, bit-identical to [`super::portable`] (and to `super::avx2` on
//! `x86_64`, `super::neon` on `aarch64`): the same IEEE operations in the
//! same order for every element, the order [`super::portable`] writes out.
//!
//! One joint per iteration, one 4-lane register per row. Each result row
//! `r` is
//!
//! ```text
//! y = a0 * splat(b_r[0])                f32x4_mul
//! y = fma(a1, splat(b_r[1]), y)         crate::wasm32::fma (one rounding)
//! y = fma(a2, splat(b_r[2]), y)
//! y = y + (-0.0, -0.0, -0.0, b_r[3])    f32x4_add, the translation last
//! ```
//!
//! with `a0..a2` the child's rows: per element exactly the portable form's
//! `((b[r][0] a[0][c] ⊕fma b[r][1] a[1][c]) ⊕fma b[r][2] a[2][c]) + t`;
//! adding `-0.0` keeps every value, signed zeros included (erratum E1
//! corrected, as in every successor).
//!
//! **What changed from the NEON form, and why.** wasm has no fused
//! multiply-add, so each `fmla` is the exact f64 construction of
//! `crate::wasm32::fma`, with its test deferred (`fma_deferred`: the same
//! bits as `fmla` whenever the sum is not a rare case, halfway between two
//! f32 in f64 or below f32's normal range). The joint's six are gathered
//! and tested once its rows are stored; a rare case (about one f64 sum in
//! 2^29 on random data) redoes the joint with
//! [`super::portable::transform_joint`] from the child's old rows, over
//! what was stored: the one answer either way, and nothing but those rows
//! and the pointers live across the out-of-line call (a V8 call clobbers
//! every vector register). wasm's arithmetic has no by-element operand, so
//! the parent's scalars `b_r[k]` are broadcast by a one-lane shuffle first
//! (`crate::wasm32::blocks4::splat_lane`, a `pshufd` under V8) and the
//! `ins` of the translation is a blending shuffle. The child's rows are
//! the same operands in all three rows, so their widening to f64 is done
//! once per joint. The emulation is most of the cost: the same loop with
//! unfused `f32x4` products and sums (wrong bits, timed only) takes 0.2
//! times as long (`asm_notes/transform_skeleton.md`, "Successor:
//! Impl::Simd128").
//!
//! The loop is the listing's (parents first, one joint per iteration, no
//! tail, so no joint's operations depend on its position, the range or the
//! count); the kernel reads and writes exactly the listing's bytes (the 48
//! bytes of each joint of the range and of its parent, and
//! `parents[first..=last]`), and reads the parent and the joint whole
//! before it writes, so `p == i` (raw kernel only) gives the joint times
//! itself, as the other successors do.

use super::portable::transform_joint;
use crate::types::JointMat;
use crate::wasm32::blocks4::{joint_exactly, load, splat_lane, store, with_lane3_of};
use crate::wasm32::fma::{Rare, fma_deferred};
use core::arch::wasm32::*;

/// One result row: `a0 b[0] ⊕fma a1 b[1] ⊕fma a2 b[2]`, plus `(-0.0, -0.0,
/// -0.0, b[3])` (`neg_zero` holds `-0.0` in every lane); the fused
/// multiply-adds' rare cases go to `rare`.
#[inline(always)]
fn row(a0: v128, a1: v128, a2: v128, b: v128, neg_zero: v128, rare: &mut Rare) -> v128 {
    let mut y = f32x4_mul(a0, splat_lane::<0>(b));
    y = fma_deferred(a1, splat_lane::<1>(b), y, rare);
    y = fma_deferred(a2, splat_lane::<2>(b), y, rare);
    f32x4_add(y, with_lane3_of(neg_zero, b))
}

/// `TransformSkeleton` for wasm SIMD128: for `i` from `first_joint` to
/// `last_joint`, in order, `jointMats[i] = jointMats[parents[i]] *
/// jointMats[i]`, with the bits of
/// [`super::portable::transform_skeleton`]. `first_joint > last_joint`
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
/// The paper's semantics need `p < i` (parents first); a later parent is
/// read as it is at that point, and `p == i` reads the whole joint before
/// it is written (the product of the joint with itself).
#[inline(never)]
pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    let base = joint_mats.cast::<f32>();
    let neg_zero = f32x4_splat(-0.0);
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
            let (a0, a1, a2) = (load(child), load(child.add(4)), load(child.add(8)));
            let (b0, b1, b2) = (load(parent), load(parent.add(4)), load(parent.add(8)));
            let mut rare = Rare::new();
            let y0 = row(a0, a1, a2, b0, neg_zero, &mut rare);
            let y1 = row(a0, a1, a2, b1, neg_zero, &mut rare);
            let y2 = row(a0, a1, a2, b2, neg_zero, &mut rare);
            store(child, y0);
            store(child.add(4), y1);
            store(child.add(8), y2);
            // Stored first and tested after: only the pointers and the
            // child's old rows are live into the rare call.
            if rare.any() {
                joint_exactly(child, parent, [a0, a1, a2], transform_joint);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::portable;
    use crate::wasm32::blocks4::tests::check_rare_joints;

    /// Skeletons with a joint whose multiply-add the common path rounds
    /// wrongly give the portable form's bits (`wasm32::blocks4::tests::check_rare_joints`;
    /// the parent's row 0 `(1, b, 0, t)` puts the crafted factor where this routine
    /// reads it). Made to skip the rare path, this test fails.
    #[test]
    fn rare_joints_give_the_portable_bits() {
        check_rare_joints(super::transform_skeleton, portable::transform_skeleton, |b| {
            [1.0, b, 0.0, 0.5, 0.0, 1.0, 0.0, 0.25, 0.0, 0.0, 1.0, 0.125]
        });
    }
}
