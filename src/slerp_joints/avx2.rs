//! The successor of Appendix A (`Impl::Avx2`): `SlerpJoints` rewritten for a
//! 2026 core with AVX2 and FMA, eight joints per block, three blocks per
//! iteration, written with `core::arch::x86_64` intrinsics (no `asm!`);
//! deterministic: bit for bit the portable successor
//! (`crate::slerp_joints::portable`, whose module documentation writes out
//! the one order of operations that this form follows lane for lane) and
//! the NEON one.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm, `SlerpOptimized`, and its coefficients). Port licensed under
//! the GNU LGPL 2.1 or later.
//!
//! **What it is.** The listing's algorithm, `SlerpOptimized` of section 5 as
//! Appendix A vectorises it: `sin = sqrt(1 - cos²)` and `1 / sin`, the
//! angle from the paper's `ATanPositive` polynomial of `min / max`, the
//! two sines from `SinZeroHalfPI`, the same `SIMD_SP_*` coefficients
//! (`src/x86/consts.rs`), the same patch of `1 - cos²` (`SIMD_SP_tiny`,
//! `SIMD_SP_absMask`) instead of a linear fallback, the same
//! `omega - lerp · omega`, and the translations as `t + lerp · (b - t)`. The
//! arithmetic is `crate::x86::slerp_core8::slerp_scales`; this file holds the
//! loop, the loads and the stores.
//!
//! **What changed from the 2005 listing, and why.** The listing spends its
//! time on data movement, not on the slerp: per four joints two
//! `TRANSPOSE_4x4` (24 `shufps`/`unpck*` and 8 `movaps` copies), four
//! `movlps`/`movhps` pairs, two `movss`+`shufps` broadcasts of `lerp`, eight
//! spills of the transposed columns to the stack and their reloads, and a
//! 1-wide loop of 116 instructions per joint for the `numJoints % 4` tail
//! (and for all joints when there are four or fewer). Every `shufps`,
//! `unpcklps` and `movhlps` queues on one shuffle port on Intel cores (port
//! 5) and on two of the four FP pipes on Zen. Here:
//! - each joint's `q` and `t` halves are loaded straight into the layout the
//!   arithmetic needs: one 128-bit load and one `vinsertf128` from memory
//!   per pair of joints (`jk` in the low lane, `j(k+4)` in the high lane),
//!   which are load-port operations, not shuffles; the results go back with
//!   a 128-bit store and a `vextractf128` to memory, again no shuffle;
//! - no transpose: the four dot products per lane are summed with six
//!   in-lane shuffles and three adds (`hsum4`), the slerp runs on one SoA
//!   register of eight dot products, and each joint's two scales are
//!   broadcast back over its quaternion with one `vpermilps` each: 14 in-lane
//!   shuffles per eight joints where the listing needs 48 (24 per four);
//! - constants and `lerp` are broadcast from memory (`vbroadcastss`) and
//!   stay in registers; nothing is spilled;
//! - every multiply that feeds an add is one FMA (`1 - cos²`, the
//!   polynomials, the final blend `J · scale0 + (B · scale1)`, the
//!   translations);
//! - the slerp of `N` blocks is interleaved step by step (three blocks, 24
//!   joints, per iteration of the main loop): one block's chain from the
//!   loads to the scales is about 100 cycles of latency, and a single chain
//!   per iteration left the core waiting (14 ticks per joint measured with
//!   one block, 8.1 with three); the two polynomials are evaluated in
//!   Estrin's scheme (same coefficients, shorter chains);
//! - no 1-wide loop: after the groups of 24, the rest goes through blocks of
//!   eight, the last one padded: its index is copied to a stack `[i32; 8]`
//!   and padded with the last valid entry (a padding lane loads, computes and
//!   stores exactly what the lane of that entry does), so the kernel reads
//!   and writes nothing that the index does not name;
//! - the shortest-arc test is the C's `cosom < 0` (a compare and an `and`
//!   instead of the listing's `and` with the sign bit);
//! - no estimate instructions, for one answer on every CPU: `rsqrtps` and
//!   `rcpps` (whose bits differ between vendors) with their Newton-Raphson
//!   steps are replaced by correctly rounded operations, `sin =
//!   vsqrtps(1 - cos²)`, `sinom = 1 / sin` and `a = min / max` (`vdivps`);
//!   `sin` is now the root itself rather than the listing's `(1 - cos²) ·
//!   sinom`, which keeps the division off the chain into the atan (as fast
//!   as the estimates, measured; `asm_notes/slerp_joints.md`);
//! - duplicate index entries follow the one rule of every successor: the
//!   entries are applied in list order. A group (and each block of eight)
//!   first checks its entries for a repeated joint
//!   (`crate::x86::slerp_core8::in_list_order`: a strictly increasing run
//!   is recognised with three compares, anything else compares every pair
//!   with `vpcmpeqd` against `vpermd` rotations; the tail's padding copies
//!   do not count); a group with a repeat runs block by block, a block with
//!   a repeat entry by entry, each entry as a block of eight copies of
//!   itself, through the same per-lane arithmetic.
//!
//! **Listing behaviours** (the errata of `asm_notes/slerp_joints.md`):
//! - kept: E4, a NaN `lerp` copies the indexed blend joints (the listing's
//!   prologue, `lerp <= 0` returns, `!(lerp < 1)` copies); E5, translations
//!   as `t + lerp · (b - t)` (now one FMA, so rounded once: `b == t` still
//!   gives `t` exactly and `b - t` can still overflow); E7, no linear
//!   fallback (`1 - cos² == ±0` becomes `1e-10`, a negative value its
//!   absolute value); E8, an atan tie `sin == |cos|` takes the listing's
//!   `π/2 - ...` branch; E9, the constants' values;
//! - corrected: E1 and E2, every joint goes through the same 8-wide code
//!   whatever the count and its position in `index` (a joint's result does
//!   not depend on the list it is in; the dot product is summed as
//!   `(x·x' + y·y') + (z·z' + w·w')` everywhere); E3, a dot product of `-0.0`
//!   keeps the blend quaternion, as the C's `cosom >= 0.0f` does;
//! - changed: E6, the entries of `index` are applied in list order, as the
//!   paper's C does: a joint named twice is interpolated twice, rotation and
//!   translation, the second time from the first's result, wherever the two
//!   entries are (the listing lerps the translation twice and the rotation
//!   once within a group of four); the result equals calling the form once
//!   per entry, bit for bit.
//!
//! NaN or infinite components: a joint whose quaternions give a NaN or
//! infinite dot product gets a NaN rotation (all four components; its
//! translation is lerped as usual), as the listing's; lanes do not mix, so
//! the other joints of the block are not affected.

use crate::types::{JOINTQUAT_Q_OFFSET as Q, JOINTQUAT_T_OFFSET as T, JointQuat};
use crate::x86::slerp_core8::{at, copy_indexed, each, hsum4, in_list_order, lane, pair, slerp_scales, store_pair};
use core::arch::x86_64::*;

/// The successor of `SlerpJoints` (Appendix A) with AVX2 and FMA: for every
/// `j` in `index[0..num_joints]`, slerps `joints[j].q` towards
/// `blend_joints[j].q` (shorter arc, `cosom < 0` flips) and lerps
/// `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place, eight
/// index entries per block.
///
/// As the listing: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
/// included) copies the indexed blend joints; a `num_joints <= 0` does
/// nothing. See the module documentation for what differs from the listing.
///
/// # Safety
///
/// - the CPU supports AVX2 and FMA;
/// - `joints` and `blend_joints` do not overlap (no alignment is needed
///   beyond the type's);
/// - `num_joints <= super::MAX_JOINTS`, and `index` points to `num_joints`
///   readable `i32` when `num_joints > 0`;
/// - every entry `j` of `index` satisfies `0 <= j`, with `joints.add(j)`
///   valid for reads and writes and `blend_joints.add(j)` valid for reads.
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
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
    let lerp8 = _mm256_set1_ps(lerp);
    // SAFETY: `num_joints` entries of `index` are readable, none negative,
    // and `in_list_order` hands each call `8 BLOCKS` (resp. eight) of them or
    // copies of them, each naming a joint of both lists, which do not overlap
    // (caller's contract); AVX2 and FMA are available.
    unsafe {
        in_list_order::<BLOCKS>(
            index,
            n,
            |idx| group::<BLOCKS>(joints, blend_joints, lerp8, idx),
            |idx| group::<1>(joints, blend_joints, lerp8, idx),
        )
    };
}

/// Blocks of eight joints per group (per iteration of the main loop).
const BLOCKS: usize = 3;

/// One group: the `8 N` joints named by `idx[0..8 N]`, in `N` interleaved
/// blocks of eight. Every load of the group comes before its first store.
///
/// # Safety
///
/// `idx` points to `8 N` readable `i32`, each a joint of both lists, which
/// do not overlap; AVX2 and FMA are available.
// The blocks and pairs are indexed on purpose: `v` and `k` address several
// arrays in step, in the order the steps should interleave.
#[allow(clippy::needless_range_loop)]
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
unsafe fn group<const N: usize>(joints: *mut JointQuat, blend: *const JointQuat, lerp8: __m256, idx: *const i32) {
    // SAFETY: the caller guarantees the `8 N` index entries and that each
    // names a joint of both lists: `joints.add(j)` / `blend.add(j)` are valid
    // 32-byte `JointQuat`s, of which `q` (offset 0) and `t` (offset 16) are
    // each read or written as 16 bytes; the lists do not overlap.
    unsafe {
        let mut j = [[0usize; 8]; N];
        for v in 0..N {
            for k in 0..8 {
                j[v][k] = *idx.add(8 * v + k) as usize;
            }
        }
        let (jq, jt) = (Q / 4, T / 4);

        // The dot products, pair by pair, summed into one SoA register per block.
        let cosom: [__m256; N] = each!(|v| {
            let mut p = [_mm256_setzero_ps(); 4];
            for k in 0..4 {
                let qj = pair(joints, &j[v], k, jq);
                let qb = pair(blend, &j[v], k, jq);
                p[k] = _mm256_mul_ps(qj, qb);
            }
            hsum4(&p)
        });
        let (scale0, scale1) = slerp_scales::<N>(cosom, lerp8);

        // J · scale0 + B · scale1 (the quaternions loaded again: cheaper than
        // keeping 8 N registers live across the slerp) and the translations.
        let mut r = [[_mm256_setzero_ps(); 4]; N];
        for v in 0..N {
            let s0 = [lane::<0>(scale0[v]), lane::<1>(scale0[v]), lane::<2>(scale0[v]), lane::<3>(scale0[v])];
            let s1 = [lane::<0>(scale1[v]), lane::<1>(scale1[v]), lane::<2>(scale1[v]), lane::<3>(scale1[v])];
            for k in 0..4 {
                let qj = pair(joints, &j[v], k, jq);
                let qb = pair(blend, &j[v], k, jq);
                r[v][k] = _mm256_fmadd_ps(qj, s0[k], _mm256_mul_ps(qb, s1[k]));
            }
        }
        for v in 0..N {
            for k in 0..4 {
                store_pair(at(joints, j[v][k], jq), at(joints, j[v][k + 4], jq), r[v][k]);
            }
        }
        // The translations: every `t` load of the group before its first `t`
        // store (the `q` stores above do not touch the `t` halves).
        let mut t = [[_mm256_setzero_ps(); 4]; N];
        for v in 0..N {
            for k in 0..4 {
                let tj = pair(joints, &j[v], k, jt);
                let tb = pair(blend, &j[v], k, jt);
                t[v][k] = _mm256_fmadd_ps(lerp8, _mm256_sub_ps(tb, tj), tj);
            }
        }
        for v in 0..N {
            for k in 0..4 {
                store_pair(at(joints, j[v][k], jt), at(joints, j[v][k + 4], jt), t[v][k]);
            }
        }
    }
}
