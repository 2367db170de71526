//! The successor of Appendix A (`SlerpJoints`) for a core with AVX-512 (F,
//! VL, DQ, BW): sixteen joints per block, two blocks per iteration, with
//! `core::arch::x86_64` intrinsics; deterministic: bit for bit the portable
//! successor (`crate::slerp_joints::portable`) and so the AVX2 and NEON
//! ones.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm, `SlerpOptimized`, and its coefficients). Port licensed under
//! the GNU LGPL 2.1 or later.
//!
//! **What the form is.** The listing's algorithm as the AVX2 successor
//! ([`super::avx2`]) computes it, on sixteen lanes
//! (`crate::x86::slerp_core16`). Sixteen joints named by the index are
//! eight *joint-pair registers* per list, each two whole 32-byte joints
//! (`[q t]` of joint `j(2i)`, then of `j(2i+1)`): one 256-bit load and one
//! `vinsertf64x4` from memory per two joints (the AVX2 form reads `q` and
//! `t` separately), read for the dot products and again for the blend (a
//! block's sixteen registers do not fit next to the other blocks' work). The
//! sixteen dot products come from the eight products by four two-source
//! permutes (`vpermt2ps`, the rotation lanes of two registers into one) and
//! one in-lane horizontal sum (six shuffles); the slerp runs on one SoA
//! register of sixteen lanes (`slerp_core16::slerp_scales`, the lane
//! choices in mask registers); each scale goes back over its joint-pair
//! register with one `vpermps`, and every output float is computed in the
//! joint-pair register itself: the rotation lanes `fma(q, scale0, b ·
//! scale1)` (a multiply and a masked `vfmadd`, mask `0x0F0F`), the
//! translation lanes `fma(lerp, tb - tj, tj)` (a subtract and a masked
//! `vfmadd`, mask `0xF0F0`), so each joint is written back as two 16-byte
//! stores (`vmovups` / `vextractf32x4` to memory: a 16-byte store never
//! crosses a cache line).
//!
//! **What changed from `Avx2`, and why.** Besides the width and the
//! whole-joint layout above:
//! - the strictly increasing prefix of the index (whole blocks of sixteen,
//!   `pipeline16::increasing_blocks`; all of a sorted index) is
//!   software-pipelined in three stages (`pipeline16::pipeline`): while
//!   block `k` is blended and stored, block `k + 1`'s slerp arithmetic runs
//!   and block `k + 2`'s joints are loaded for its dot products, so the
//!   slerp's chain of about 150 cycles sits between independent loads and
//!   stores. Its joints are distinct, so loading a later block before an
//!   earlier one is stored changes nothing. With each block's steps in a
//!   row, the chain's waiting instructions filled the scheduler and the
//!   next block could not start (measured 1.2x slower);
//! - a block whose sixteen joints are consecutive (a run of the index, as
//!   when every joint is blended) is read as eight 64-byte loads
//!   (`slerp_core16::load_block`), without the `vinsertf64x4` per two joints
//!   that queues on port 5, and written back as eight 64-byte stores
//!   (`slerp_core16::store_block`; 3-10% faster than the 16-byte stores,
//!   measured, though on a list that is not 64-byte aligned every one
//!   splits across two cache lines);
//! - the rest of the index runs in groups of two blocks, interleaved step
//!   by step, with their duplicate test (below);
//! - the tail of the index list (1 to 15 entries) is read with a masked
//!   load whose other lanes are the last entry (no copy loop; the sixteen
//!   entries then go to the stack, as the offsets are used as scalars; the
//!   padding lanes repeat the last joint's loads, arithmetic and stores, so
//!   nothing outside what the index names is read or written);
//! - the duplicate test compares the entries with `vpcmpd` into mask
//!   registers (a strictly increasing index is recognised with one masked
//!   load and compare per block).
//!
//! The gather instruction (`vgatherdps`) was not used: the joints are
//! 32-byte records, and a 16-lane gather per component would issue 16 loads
//! for 16 floats where a 256-bit load brings 8 floats.
//!
//! **Speed** (`asm_notes/slerp_joints.md`, "Successor: Impl::Avx512"): on
//! the Intel Xeon measured, 1.06-1.19x `Avx2` when calls come back to back
//! and 1.04-1.26x in the report's successors table, so it comes first in
//! `FORMS`; but 0.80-0.82x after a pause of a millisecond without 512-bit
//! instructions (the first microseconds of 512-bit work run slower, and a
//! call of 1024 joints lasts about that long: the report's section "The
//! AVX-512 forms after a pause").
//!
//! **The one answer.** No estimate instructions: `sin = vsqrtps(1 - cos²)`,
//! `sinom = 1 / sin` and `min / max` are correctly rounded. Every lane
//! performs the IEEE operations of the portable successor's steps 1 to 10,
//! in its order, with the fused multiply-adds in its places: the dot
//! product `(x·x' + y·y') + (z·z' + w·w')` (the in-lane sum adds the same
//! pairs), the masked `vfmadd` computes the same fused operation in its
//! lanes and leaves the others, the masked blends and sign flips choose bits
//! without arithmetic. So every joint is `Impl::Portable`'s bit for bit, on
//! every CPU (NaN bits aside; `tests/golden.rs`), whatever its position in
//! the index. Duplicate index entries follow the successors' rule: applied
//! in list order, a group or block with a repeat running block by block
//! or entry by entry (`slerp_core16::in_list_order`).
//!
//! **Listing behaviours** are `Avx2`'s ([`super::avx2`]): E4 (a NaN `lerp`
//! copies), E5, E7, E8, E9 kept; E1, E2, E3 corrected; E6 changed (list
//! order).

use crate::types::JointQuat;
use crate::x86::pipeline16::{Joints16, block_joints, increasing_blocks, pipeline};
use crate::x86::slerp_core8::copy_indexed;
use crate::x86::slerp_core16::{
    BLOCK, QLANES, TLANES, dots, each16, in_list_order, load_block, slerp_scales, spread, store_block,
};
use core::arch::x86_64::*;

/// The successor of `SlerpJoints` (Appendix A) with AVX-512: for every `j`
/// in `index[0..num_joints]`, slerps `joints[j].q` towards
/// `blend_joints[j].q` (shorter arc, `cosom < 0` flips) and lerps
/// `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place, sixteen
/// index entries per block.
///
/// As the listing: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
/// included) copies the indexed blend joints; a `num_joints <= 0` does
/// nothing. See the module documentation for what differs from the listing.
///
/// # Safety
///
/// - the CPU supports AVX-512 F, VL, DQ and BW;
/// - `joints` and `blend_joints` do not overlap (no alignment is needed
///   beyond the type's);
/// - `num_joints <= super::MAX_JOINTS`, and `index` points to `num_joints`
///   readable `i32` when `num_joints > 0`;
/// - every entry `j` of `index` satisfies `0 <= j`, with `joints.add(j)`
///   valid for reads and writes and `blend_joints.add(j)` valid for reads.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
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
        // of both lists, which do not overlap (caller's contract); AVX-512 F
        // implies the AVX2 and FMA of `copy_indexed`.
        unsafe { copy_indexed(joints, blend_joints, index, n) };
        return;
    }
    let lerp16 = _mm512_set1_ps(lerp);
    // SAFETY: `num_joints` entries of `index` are readable, none negative;
    // the first `16 sorted` of them are strictly increasing, so distinct,
    // each naming a joint of both lists, which do not overlap (caller's
    // contract); AVX-512 F/VL/DQ/BW are available.
    let sorted = unsafe { increasing_blocks(index, n) };
    if sorted > 0 {
        // SAFETY: as above.
        unsafe { pipelined(joints, blend_joints, lerp16, index, sorted) };
    }
    // The rest of the list, from the first block that is not increasing.
    let (index, n) = (index.wrapping_add(BLOCK * sorted), n - BLOCK * sorted);
    // SAFETY: `num_joints` entries of `index` are readable, none negative,
    // and `in_list_order` hands each call `16 BLOCKS` (resp. sixteen) of
    // them or copies of them, each naming a joint of both lists, which do
    // not overlap (caller's contract); AVX-512 F/VL/DQ/BW are available.
    unsafe {
        in_list_order::<BLOCKS>(
            index,
            n,
            |idx| group::<BLOCKS>(joints, blend_joints, lerp16, idx),
            |idx| group::<1>(joints, blend_joints, lerp16, idx),
        )
    };
}

/// Blocks of sixteen joints per group (per iteration of the main loop).
const BLOCKS: usize = 2;

/// One group: the `16 N` joints named by `idx[0..16 N]`, in `N`
/// interleaved blocks of sixteen. Every load of the group comes before its
/// first store.
///
/// # Safety
///
/// `idx` points to `16 N` readable `i32`, each a joint of both lists, which
/// do not overlap; AVX-512 F/VL/DQ/BW are available.
// The blocks and registers are indexed on purpose: `v` and `i` address
// several arrays in step, in the order the steps should interleave.
#[allow(clippy::needless_range_loop)]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn group<const N: usize>(joints: *mut JointQuat, blend: *const JointQuat, lerp16: __m512, idx: *const i32) {
    // SAFETY: the caller guarantees the `16 N` index entries and that each
    // names a joint of both lists: `joints.add(j)` / `blend.add(j)` are
    // valid 32-byte `JointQuat`s, read (and for `joints` written) whole;
    // the lists do not overlap.
    unsafe {
        // Each block's offsets (only the first for a run) and whether its
        // joints are a run.
        let blocks: [Joints16; N] = core::array::from_fn(|v| block_joints(idx.add(BLOCK * v)));
        let off: [[u32; BLOCK]; N] = core::array::from_fn(|v| blocks[v].0);
        // The joint-pair registers of block `v`: loaded for the dot products
        // and again for the blend (cheaper than keeping 16 N registers live
        // across the slerp: 32 registers would spill).
        let run: [bool; N] = core::array::from_fn(|v| blocks[v].1);
        let mut a = [[_mm512_setzero_ps(); 8]; N];
        let mut b = [[_mm512_setzero_ps(); 8]; N];
        for v in 0..N {
            a[v] = load_block(joints, &off[v], run[v]);
            b[v] = load_block(blend, &off[v], run[v]);
        }
        let cosom: [__m512; N] = each16!(|v| dots(&a[v], &b[v]));
        let (scale0, scale1) = slerp_scales::<N>(cosom, lerp16);
        let mut r = [[_mm512_setzero_ps(); 8]; N];
        for v in 0..N {
            let (a, b) = (load_block(joints, &off[v], run[v]), load_block(blend, &off[v], run[v]));
            for i in 0..8 {
                let (jv, bv) = (a[i], b[i]);
                let (s0, s1) = (spread(i, scale0[v]), spread(i, scale1[v]));
                // Rotation lanes: fma(q, scale0, b · scale1); the others keep t.
                let q = _mm512_mask_fmadd_ps(jv, QLANES, s0, _mm512_mul_ps(bv, s1));
                // Translation lanes: fma(lerp, tb - tj, tj); the others keep q.
                r[v][i] = _mm512_mask3_fmadd_ps(lerp16, _mm512_sub_ps(bv, jv), q, TLANES);
            }
        }
        for v in 0..N {
            store_block(joints, &off[v], run[v], &r[v]);
        }
    }
}

/// The main loop over `blocks` blocks of sixteen distinct joints
/// (`index[0..16 blocks]`), software-pipelined in three stages
/// (`pipeline16::pipeline`): while block `k` is blended and stored, block
/// `k + 1`'s slerp arithmetic runs and block `k + 2`'s joints are loaded
/// for its dot products. Each block does what [`group`]`::<1>` does, lane
/// for lane: the same loads, the same [`dots`], [`slerp_scales`] and blend,
/// so the same bits; only the order of the blocks' steps in the
/// instruction stream differs.
///
/// # Safety
///
/// `index` points to `16 blocks` readable `i32` (`blocks >= 1`), which name
/// distinct joints of both lists (each `joints.add(j)` valid for reads and
/// writes, `blend.add(j)` for reads); the lists do not overlap; AVX-512
/// F/VL/DQ/BW are available.
// `i` addresses the pair registers and their results in step.
#[allow(clippy::needless_range_loop)]
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn pipelined(joints: *mut JointQuat, blend: *const JointQuat, lerp16: __m512, index: *const i32, blocks: usize) {
    // SAFETY: `pipeline` hands each stage the offsets of one block of the
    // caller's `16 blocks` entries, each a valid joint of both lists; a
    // block's stores come after every load of the blocks before it and
    // touch no joint of the blocks after it (the joints are distinct).
    unsafe {
        pipeline(
            index,
            blocks,
            // Stage 1: the sixteen dot products.
            |&(ref off, run)| dots(&load_block(joints, off, run), &load_block(blend, off, run)),
            // Stage 2: the scales.
            |_, cosom| {
                let ([s0], [s1]) = slerp_scales::<1>([cosom], lerp16);
                (s0, s1)
            },
            // Stage 3: the blend and the stores, as `group`.
            |&(ref off, run), (s0, s1)| {
                let (a, b) = (load_block(joints, off, run), load_block(blend, off, run));
                let mut r = [_mm512_setzero_ps(); 8];
                for i in 0..8 {
                    let (jv, bv) = (a[i], b[i]);
                    let q = _mm512_mask_fmadd_ps(jv, QLANES, spread(i, s0), _mm512_mul_ps(bv, spread(i, s1)));
                    r[i] = _mm512_mask3_fmadd_ps(lerp16, _mm512_sub_ps(bv, jv), q, TLANES);
                }
                store_block(joints, off, run, &r);
            },
        )
    }
}
