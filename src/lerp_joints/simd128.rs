//! The wasm SIMD128 successor of Appendix B (`Impl::Simd128`):
//! `LerpJoints` on `wasm32` with `core::arch::wasm32` intrinsics, four
//! joints per block, three blocks interleaved per group, the lane-for-lane
//! twin of the NEON successor (`crate::lerp_joints::neon`) and
//! bit-identical with the portable (`crate::lerp_joints::portable`), AVX2
//! and NEON successors.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm). Port licensed under the GNU LGPL 2.1 or later.
//!
//! **What it is.** The portable successor's order of operations (its module
//! documentation writes it out) on four lanes, as the NEON form:
//! `scaledLerp = lerp / (1 - lerp)` once per call, each joint's `q` and `t`
//! loaded as they lie (`v128.load`), the dot products and the norms `|Q|²`
//! summed per four joints (`crate::wasm32::joints4::hsum4`: `(x·x' +
//! y·y') + (z·z' + w·w')`), `Q = J ± scaledLerp · B` with one exact fused
//! multiply-add per joint (`crate::wasm32::fma`), `1 / sqrt(|Q|²)` with
//! `f32x4.sqrt` and `f32x4.div` (correctly rounded), applied with one
//! multiply per joint, and the translations as one fused multiply-add each.
//!
//! **What changed from the NEON form, and why.** Nothing in the arithmetic;
//! the instructions wasm lacks are written out: NEON's pairwise `faddp` as
//! two `i32x4.shuffle` and an `f32x4.add`, its by-lane `fmul`/`fmla` as a
//! lane copied by `i32x4.shuffle` and a full-width operation, its `fmla` as
//! `crate::wasm32::fma::fma` (wasm has no fused multiply-add: the exact sum
//! from f64 pairs, about 30 wasm instructions for four lanes, 2 per joint
//! here and most of the time: with a plain multiply and add in their place,
//! which gives other bits, a joint takes 3.8 ns instead of 9.0, or 13.6 at
//! `lerp` 0.5, where the sums are often exact ties and take the fused
//! multiply-add's longer path), and the duplicate test of
//! `crate::blocks::in_list_order` compares the entries one by one
//! (`crate::blocks::OneByOne`). Three blocks per group instead of two, as
//! `crate::slerp_joints::simd128` (here 2% faster than two under V8). The
//! translations are computed and stored right after the loads
//! (all loads still come before the first store). `lerp` and `scaledLerp`
//! are splatted once per call; `each!` writes the blocks of a group out.
//!
//! It gives the one answer: the same bits as every other successor
//! (`tests/golden.rs`). As every successor: `lerp <= 0` returns at once;
//! `!(lerp < 1)` (NaN included) copies the indexed blend joints; the
//! entries of `index` are applied in list order
//! (`crate::blocks::in_list_order`). Speed: `asm_notes/lerp_joints.md`,
//! "Successor: Impl::Simd128".

use crate::blocks::{OneByOne, copy_indexed, in_list_order};
use crate::types::{JOINTQUAT_Q_OFFSET as Q, JOINTQUAT_T_OFFSET as T, JointQuat};
use crate::wasm32::joints4::{
    block_entries, each, fma_lanes, hsum4, lerp_translations, load4, mul_lanes, mul4, sign_where_negative, store4, xor,
};
use core::arch::wasm32::*;

/// The wasm SIMD128 successor of `LerpJoints`: for every `j` in
/// `index[0..num_joints]`, in order, lerps `joints[j].q` towards the nearer
/// of `±blend_joints[j].q` (`cosom < 0` flips) and renormalises it, and
/// lerps `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place.
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
pub unsafe fn lerp_joints(
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
    // scaledLerp = lerp / (1 - lerp): finite and positive for 0 < lerp < 1.
    let scaled4 = f32x4_splat(lerp / (1.0 - lerp));
    // SAFETY: `num_joints` entries of `index` are readable, none negative,
    // and `in_list_order` hands each call `4 BLOCKS` (resp. four) of them or
    // copies of them, each naming a joint of both lists, which do not
    // overlap (caller's contract).
    unsafe {
        in_list_order::<BLOCKS, OneByOne>(
            index,
            n,
            |idx| group::<BLOCKS>(joints, blend_joints, lerp4, scaled4, idx),
            |idx| group::<1>(joints, blend_joints, lerp4, scaled4, idx),
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
unsafe fn group<const N: usize>(
    joints: *mut JointQuat,
    blend: *const JointQuat,
    lerp4: v128,
    scaled4: v128,
    idx: *const i32,
) {
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
        // are free for the rotations'.
        let t = each!(|v| lerp_translations(lerp4, &tj[v], &tb[v]));
        each!(|v| store4(joints, &j[v], jt, &t[v]));

        let cosom = each!(|v| hsum4(&mul4(&qj[v], &qb[v])));
        // ±scaledLerp: negative where cosom < 0 (not for -0.0 or NaN).
        let s = each!(|v| xor(scaled4, sign_where_negative(cosom[v])));
        // Q = J + (±s) B, |Q|², 1 / sqrt(|Q|²).
        let q = each!(|v| fma_lanes(&qj[v], &qb[v], s[v]));
        let norm2 = each!(|v| hsum4(&mul4(&q[v], &q[v])));
        let inv = each!(|v| f32x4_div(f32x4_splat(1.0), f32x4_sqrt(norm2[v])));
        let r = each!(|v| mul_lanes(&q[v], inv[v]));
        each!(|v| store4(joints, &j[v], jq, &r[v]));
    }
}
