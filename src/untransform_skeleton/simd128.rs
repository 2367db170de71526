//! The wasm SIMD128 successor of Appendix B (`Impl::Simd128`, builds with
//! `-C target-feature=+simd128`): the NEON successor (`super::neon`) lane
//! for lane, bit-identical to [`super::portable`] (and to `super::avx2` on
//! `x86_64`, `super::neon` on `aarch64`): the same IEEE operations in the
//! same order for every element, the order [`super::portable`] writes out.
//!
//! One joint per iteration, one 4-lane register per row. The translation is
//! subtracted first from each of the child's rows, as `a_k - (0, 0, 0,
//! b_k[3])` (lane 3 of the parent's row shuffled into a vector of zeros,
//! then `f32x4_sub`; `x - (+0.0) == x`, so the C's `-0.0` survive). The
//! result's row `r` needs the parent's column `r`, the scalars `b_k[r]`:
//!
//! ```text
//! y = d0 * splat(b_0[r])                f32x4_mul
//! y = fma(d1, splat(b_1[r]), y)         crate::wasm32::fma (one rounding)
//! y = fma(d2, splat(b_2[r]), y)
//! ```
//!
//! per element exactly the portable form's `(b[0][r] d[0][c] ⊕fma b[1][r]
//! d[1][c]) ⊕fma b[2][r] d[2][c]`.
//!
//! **What changed from the NEON form, and why.** wasm has no fused
//! multiply-add, so each `fmla` is the exact f64 construction of
//! `crate::wasm32::fma`, with its test deferred (`fma_deferred`: the same
//! bits as `fmla` whenever the sum is not a rare case, halfway between two
//! f32 in f64 or below f32's normal range). The joint's six are gathered
//! and tested once its rows are stored; a rare case (about one f64 sum in
//! 2^29 on random data) redoes the joint with
//! [`super::portable::untransform_joint`] from the child's old rows, over
//! what was stored: the one answer either way, and nothing but those rows
//! and the pointers live across the out-of-line call (a V8 call clobbers
//! every vector register). wasm's arithmetic has no by-element operand, so
//! the scalars `b_k[r]` are broadcast by a one-lane shuffle first
//! (`crate::wasm32::blocks4::splat_lane`, a `pshufd` under V8) and the
//! `ins` of the translation is a blending shuffle. The rows `d1`, `d2` are
//! the same operands in all three rows, so their widening to f64 is done
//! once per joint. The emulation is most of the cost: the same loop with
//! unfused `f32x4` products and sums (wrong bits, timed only) takes 0.2
//! times as long (`asm_notes/untransform_skeleton.md`, "Successor:
//! Impl::Simd128").
//!
//! The loop is the listing's (last joint first, one joint per iteration, no
//! tail: no joint's operations depend on its position, the range or the
//! count); the kernel reads and writes exactly the listing's bytes, and
//! reads the parent and the joint whole before it writes (`p == i`, raw
//! kernel only, is sound).

use super::portable::untransform_joint;
use crate::types::JointMat;
use crate::wasm32::blocks4::{joint_exactly, load, splat_lane, store, with_lane3_of};
use crate::wasm32::fma::{Rare, fma_deferred};
use core::arch::wasm32::*;

/// `UntransformSkeleton` for wasm SIMD128: for `i` from `last_joint` down
/// to `first_joint`, `jointMats[i] = Rp^T (jointMats[i] - tp)` with `[Rp |
/// tp] = jointMats[parents[i]]`, with the bits of
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
pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    let base = joint_mats.cast::<f32>();
    let zero = f32x4_splat(0.0);
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
            let (b0, b1, b2) = (load(parent), load(parent.add(4)), load(parent.add(8)));
            // d_k = a_k - (0, 0, 0, t_k): the translation first.
            let (a0, a1, a2) = (load(child), load(child.add(4)), load(child.add(8)));
            let d0 = f32x4_sub(a0, with_lane3_of(zero, b0));
            let d1 = f32x4_sub(a1, with_lane3_of(zero, b1));
            let d2 = f32x4_sub(a2, with_lane3_of(zero, b2));
            // Row r: sum over k of b_k[r] d_k.
            let mut rare = Rare::new();
            let mut fma = |a, b, c| fma_deferred(a, b, c, &mut rare);
            let y0 = fma(d1, splat_lane::<0>(b1), f32x4_mul(d0, splat_lane::<0>(b0)));
            let y1 = fma(d1, splat_lane::<1>(b1), f32x4_mul(d0, splat_lane::<1>(b0)));
            let y2 = fma(d1, splat_lane::<2>(b1), f32x4_mul(d0, splat_lane::<2>(b0)));
            let y0 = fma(d2, splat_lane::<0>(b2), y0);
            let y1 = fma(d2, splat_lane::<1>(b2), y1);
            let y2 = fma(d2, splat_lane::<2>(b2), y2);
            store(child, y0);
            store(child.add(4), y1);
            store(child.add(8), y2);
            // Stored first and tested after: only the pointers and the
            // child's old rows are live into the rare call.
            if rare.any() {
                joint_exactly(child, parent, [a0, a1, a2], untransform_joint);
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
    /// the parent's column 0 `(1, b, 0)` puts the crafted factor where this routine
    /// reads it). Made to skip the rare path, this test fails.
    #[test]
    fn rare_joints_give_the_portable_bits() {
        check_rare_joints(super::untransform_skeleton, portable::untransform_skeleton, |b| {
            [1.0, 0.0, 0.0, 0.5, b, 1.0, 0.0, 0.25, 0.0, 0.0, 1.0, 0.125]
        });
    }
}
