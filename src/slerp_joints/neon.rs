//! The NEON successor of Appendix A (`Impl::Neon`): `SlerpJoints` on
//! `aarch64` with `core::arch::aarch64` intrinsics, four joints per block,
//! two blocks interleaved per group, bit-identical with the portable
//! (`crate::slerp_joints::portable`) and AVX2 successors.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm, `SlerpOptimized`, and its coefficients). Port licensed under
//! the GNU LGPL 2.1 or later.
//!
//! **What it is.** The portable successor's order of operations (its module
//! documentation writes it out) on four lanes: each joint's `q` and `t`
//! loaded as they lie (`ld1`), the four products of a block summed into one
//! register of four dot products with three `faddp` (`(x·x' + y·y') + (z·z'
//! + w·w')`), the slerp arithmetic on that register
//! (`crate::aarch64::joints4::slerp_scales`: `fmla`/`fmls` where the order
//! fuses, `fsqrt` and `fdiv` correctly rounded, x86's `min`/`max` as
//! compare-and-select), each joint's two scales applied with the by-lane
//! `fmul`/`fmla`, and the translations as one `fmla` each.
//!
//! **What changed from the AVX2 successor, and why.** Four lanes per block
//! instead of eight and two blocks per group instead of three (NEON has 32
//! registers of four floats; two chains of a 100-cycle dependency already
//! overlap, and the group's duplicate check stays at 8 entries); no pair
//! registers, horizontal adds or lane broadcasts are needed, since
//! `faddp` sums adjacent lanes of two registers and `fmul`/`fmla` take a
//! lane operand; the padded last block is four entries. Speed is not
//! measured here (no ARM hardware); `asm_notes/slerp_joints.md` says so.
//!
//! As every successor: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
//! included) copies the indexed blend joints; the entries of `index` are
//! applied in list order (`crate::blocks::in_list_order`: a group
//! or block whose entries repeat a joint runs entry by entry).

use crate::aarch64::joints4::{NeonRepeats, fma_lanes, hsum4, load, mul_lanes, slerp_scales, store};
use crate::blocks::{copy_indexed, in_list_order};
use crate::types::{JOINTQUAT_Q_OFFSET as Q, JOINTQUAT_T_OFFSET as T, JointQuat};
use core::arch::aarch64::*;

/// The NEON successor of `SlerpJoints`: for every `j` in
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
/// - the CPU has NEON (every `aarch64` CPU);
/// - `joints` and `blend_joints` do not overlap (no alignment is needed
///   beyond the type's);
/// - `num_joints <= super::MAX_JOINTS`, and `index` points to `num_joints`
///   readable `i32` when `num_joints > 0`;
/// - every entry `j` of `index` satisfies `0 <= j`, with `joints.add(j)`
///   valid for reads and writes and `blend_joints.add(j)` valid for reads.
#[target_feature(enable = "neon")]
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
    let lerp4 = vdupq_n_f32(lerp);
    // SAFETY: `num_joints` entries of `index` are readable, none negative,
    // and `in_list_order` hands each call `4 BLOCKS` (resp. four) of them or
    // copies of them, each naming a joint of both lists, which do not
    // overlap (caller's contract).
    unsafe {
        in_list_order::<BLOCKS, NeonRepeats>(
            index,
            n,
            |idx| group::<BLOCKS>(joints, blend_joints, lerp4, idx),
            |idx| group::<1>(joints, blend_joints, lerp4, idx),
        )
    };
}

/// Blocks of four joints per group.
const BLOCKS: usize = 2;

/// One group: the `4 N` joints named by `idx[0..4 N]`, in `N` interleaved
/// blocks of four. Every load of the group comes before its first store.
///
/// # Safety
///
/// `idx` points to `4 N` readable `i32`, each a joint of both lists, which
/// do not overlap.
#[inline(never)]
#[target_feature(enable = "neon")]
unsafe fn group<const N: usize>(joints: *mut JointQuat, blend: *const JointQuat, lerp4: float32x4_t, idx: *const i32) {
    let (jq, jt) = (Q / 4, T / 4);
    // SAFETY: the caller guarantees the `4 N` index entries and that each
    // names a joint of both lists (16-byte halves at float offsets 0 and 4
    // of valid 32-byte joints); the lists do not overlap.
    unsafe {
        let j: [[usize; 4]; N] = core::array::from_fn(|v| core::array::from_fn(|k| *idx.add(4 * v + k) as usize));
        let qj: [[float32x4_t; 4]; N] = core::array::from_fn(|v| j[v].map(|j| load(joints, j, jq)));
        let qb: [[float32x4_t; 4]; N] = core::array::from_fn(|v| j[v].map(|j| load(blend, j, jq)));
        let tj: [[float32x4_t; 4]; N] = core::array::from_fn(|v| j[v].map(|j| load(joints, j, jt)));
        let tb: [[float32x4_t; 4]; N] = core::array::from_fn(|v| j[v].map(|j| load(blend, j, jt)));

        let cosom: [float32x4_t; N] =
            core::array::from_fn(|v| hsum4(&core::array::from_fn(|k| vmulq_f32(qj[v][k], qb[v][k]))));
        let (scale0, scale1) = slerp_scales::<N>(cosom, lerp4);
        for v in 0..N {
            // J · scale0 + (B · scale1): the product rounded, then one fused
            // multiply-add.
            let r = fma_lanes(&mul_lanes(&qb[v], scale1[v]), &qj[v], scale0[v]);
            for k in 0..4 {
                let t = vfmaq_f32(tj[v][k], lerp4, vsubq_f32(tb[v][k], tj[v][k]));
                store(joints, j[v][k], jq, r[k]);
                store(joints, j[v][k], jt, t);
            }
        }
    }
}
