//! The wasm SIMD128 successor of Appendix A (`Impl::Simd128`):
//! `SlerpJoints` on `wasm32` with `core::arch::wasm32` intrinsics, four
//! joints per block, three blocks interleaved per group, the lane-for-lane
//! twin of the NEON successor (`crate::slerp_joints::neon`) and
//! bit-identical with the portable (`crate::slerp_joints::portable`), AVX2
//! and NEON successors.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm, `SlerpOptimized`, and its coefficients). Port licensed under
//! the GNU LGPL 2.1 or later.
//!
//! **What it is.** The portable successor's order of operations (its module
//! documentation writes it out) on four lanes, as the NEON form: each
//! joint's `q` and `t` loaded as they lie (`v128.load`), the four products
//! of a block summed into one register of four dot products
//! (`crate::wasm32::joints4::hsum4`: `(x·x' + y·y') + (z·z' + w·w')`), the
//! slerp arithmetic on that register (`crate::wasm32::joints4::slerp_scales`:
//! the exact `crate::wasm32::fma` where the order fuses, `f32x4.sqrt` and
//! `f32x4.div` correctly rounded, x86's `min`/`max` as a compare and
//! `v128.bitselect`), each joint's two scales applied after an
//! `i32x4.shuffle` that copies its lane, and the translations as one fused
//! multiply-add each.
//!
//! **What changed from the NEON form, and why.** Nothing in the arithmetic;
//! the instructions wasm lacks are written out: NEON's pairwise `faddp` as
//! two `i32x4.shuffle` and an `f32x4.add`, its by-lane `fmul`/`fmla` as a
//! lane copied by `i32x4.shuffle` and a full-width operation, its
//! `fmla`/`fmls` as `crate::wasm32::fma::{fma, fnma}` (wasm has no fused
//! multiply-add: each is the exact sum from f64 pairs, about 30 wasm
//! instructions for four lanes, 7 per joint here and three quarters of the
//! time: with a plain multiply and add in their place, which gives other
//! bits, a joint takes 6.3 ns instead of 24), and the duplicate test of
//! `crate::blocks::in_list_order` compares the entries one by one
//! (`crate::blocks::OneByOne`). Three blocks per group instead of two: the
//! fused multiply-adds make each block's chain long, and a third chain in
//! flight was faster under V8 on x86_64 (24.3 ns per joint at `lerp` 0.37
//! against 26.7 with two, and 26.6 with four, whose registers spill: V8
//! has 16). The translations are computed and stored right after the loads
//! (all loads still come before the first store), which frees their
//! registers for the slerp. `lerp` is splatted once per call; `each!` writes the blocks of a
//! group out (no closure or loop left for LLVM to keep out of line).
//!
//! It gives the one answer: the same bits as every other successor
//! (`tests/golden.rs`). As every successor: `lerp <= 0` returns at once;
//! `!(lerp < 1)` (NaN included) copies the indexed blend joints; the
//! entries of `index` are applied in list order
//! (`crate::blocks::in_list_order`: a group or block whose entries repeat
//! a joint runs entry by entry). Speed: `asm_notes/slerp_joints.md`,
//! "Successor: Impl::Simd128".

use crate::blocks::{OneByOne, copy_indexed, in_list_order};
use crate::types::{JOINTQUAT_Q_OFFSET as Q, JOINTQUAT_T_OFFSET as T, JointQuat};
use crate::wasm32::joints4::{
    block_entries, each, fma_lanes, hsum4, lerp_translations, load4, mul_lanes, mul4, slerp_scales, store4,
};
use core::arch::wasm32::*;

/// The wasm SIMD128 successor of `SlerpJoints`: for every `j` in
/// `index[0..num_joints]`, in order, slerps `joints[j].q` towards
/// `blend_joints[j].q` (shorter arc, `cosom < 0` flips) and lerps
/// `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place, four
/// index entries per block.
///
/// As the listing: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
/// included) copies the indexed blend joints; a `num_joints <= 0` does
/// nothing. See the module documentation for what differs from the listing.
///
/// # Safety
///
/// - `joints` and `blend_joints` do not overlap (no alignment is needed
///   beyond the type's);
/// - `num_joints <= super::MAX_JOINTS`, and `index` points to `num_joints`
///   readable `i32` when `num_joints > 0`;
/// - every entry `j` of `index` satisfies `0 <= j`, with `joints.add(j)`
///   valid for reads and writes and `blend_joints.add(j)` valid for reads.
pub unsafe fn slerp_joints(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    if lerp <= 0.0 || num_joints <= 0 {
        return;
    }
    let n = num_joints as usize;
    if lerp >= 1.0 || lerp.is_nan() {
        // SAFETY: `num_joints` entries of `index` are readable, each a joint
        // of both lists, which do not overlap (caller's contract).
        unsafe { copy_indexed(joints, blend_joints, index, n) };
        return;
    }
    let lerp4 = f32x4_splat(lerp);
    // SAFETY: `num_joints` entries of `index` are readable, none negative,
    // and `in_list_order` hands each call `4 BLOCKS` (resp. four) of them or
    // copies of them, each naming a joint of both lists, which do not
    // overlap (caller's contract).
    unsafe {
        in_list_order::<BLOCKS, OneByOne>(
            index,
            n,
            |idx| group::<BLOCKS>(joints, blend_joints, lerp4, idx),
            |idx| group::<1>(joints, blend_joints, lerp4, idx),
        )
    };
}

/// Blocks of four joints per group.
const BLOCKS: usize = 3;

/// One group: the `4 N` joints named by `idx[0..4 N]`, in `N` interleaved
/// blocks of four. Every load of the group comes before its first store.
///
/// # Safety
///
/// `idx` points to `4 N` readable `i32`, each a joint of both lists, which
/// do not overlap.
#[inline(never)]
unsafe fn group<const N: usize>(joints: *mut JointQuat, blend: *const JointQuat, lerp4: v128, idx: *const i32) {
    let (jq, jt) = (Q / 4, T / 4);
    // SAFETY: the caller guarantees the `4 N` index entries and that each
    // names a joint of both lists (16-byte halves at float offsets 0 and 4
    // of valid 32-byte joints); the lists do not overlap.
    unsafe {
        let j = each!(|v| block_entries(idx, v));
        let qj = each!(|v| load4(joints, &j[v], jq));
        let qb = each!(|v| load4(blend, &j[v], jq));
        let tj = each!(|v| load4(joints, &j[v], jt));
        let tb = each!(|v| load4(blend, &j[v], jt));

        // The translations first (every load is done): their registers
        // are free for the slerp's.
        let t = each!(|v| lerp_translations(lerp4, &tj[v], &tb[v]));
        each!(|v| store4(joints, &j[v], jt, &t[v]));

        let cosom = each!(|v| hsum4(&mul4(&qj[v], &qb[v])));
        let (scale0, scale1) = slerp_scales::<N>(cosom, lerp4);
        // J · scale0 + (B · scale1): the product rounded, then one fused
        // multiply-add.
        let r = each!(|v| fma_lanes(&mul_lanes(&qb[v], scale1[v]), &qj[v], scale0[v]));
        each!(|v| store4(joints, &j[v], jq, &r[v]));
    }
}
