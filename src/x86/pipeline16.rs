//! The software pipeline of the AVX-512 successor of `slerp_joints`
//! (`Impl::Avx512`), beside the 16-lane pieces of
//! [`slerp_core16`](super::slerp_core16): which whole blocks of sixteen at
//! the start of an index are strictly increasing ([`increasing_blocks`]),
//! a block's joints as the stages see them ([`block_joints`]: a run of
//! consecutive joints, or their offsets), and the three-stage driver
//! ([`pipeline`]).
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm). Port licensed under the GNU LGPL 2.1 or later.

use crate::x86::slerp_core16::{BLOCK, lanes, offsets};
use core::arch::x86_64::*;

/// The number of whole blocks of sixteen at the start of `index[0..n]`
/// whose entries are strictly increasing (across the blocks too), and so
/// name distinct joints: the part of the list that [`pipeline`] may run,
/// since its stages load later blocks before earlier ones are stored. A
/// sorted index (the common case: joints listed in skeleton order) is
/// increasing throughout; the scan stops at the first block that is not.
///
/// # Safety
///
/// `index` points to `n` readable `i32`, none negative.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn increasing_blocks(index: *const i32, n: usize) -> usize {
    let mut blocks = 0;
    // The last entry of the blocks before (entries are not negative).
    let mut prev = -1;
    while n - BLOCK * blocks >= BLOCK {
        // SAFETY: entries `16 blocks .. 16 blocks + 16 <= n` are readable
        // (caller's contract); the masked load reads the 15 entries after the
        // block's first, all inside the block.
        unsafe {
            let idx = index.add(BLOCK * blocks);
            let v = _mm512_loadu_si512(idx.cast());
            let next = _mm512_maskz_loadu_epi32(0x7FFF, idx.add(1));
            if _mm512_mask_cmpgt_epi32_mask(0x7FFF, next, v) != 0x7FFF || *idx <= prev {
                break;
            }
            prev = *idx.add(BLOCK - 1);
        }
        blocks += 1;
    }
    blocks
}

/// The joints of a block of sixteen index entries as [`pipeline`]'s stages
/// see them: their byte offsets (`slerp_core16::offsets`) and whether they are
/// consecutive; for a run only the first offset is filled
/// (the loads and stores of a run need no other).
pub(crate) type Joints16 = ([u32; BLOCK], bool);

/// [`Joints16`] of the sixteen entries at `idx`: whether they are
/// consecutive, from one compare of the entries with `idx[0] + k`, and the
/// offsets if they are not.
///
/// # Safety
///
/// `idx` points to sixteen readable `i32`, each in `0..2^27`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn block_joints(idx: *const i32) -> Joints16 {
    static STEPS: [u32; BLOCK] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    // SAFETY: sixteen entries are readable (caller's contract).
    unsafe {
        let first = *idx;
        let v = _mm512_loadu_si512(idx.cast());
        let want = _mm512_add_epi32(_mm512_set1_epi32(first), lanes(&STEPS));
        if _mm512_cmpeq_epi32_mask(v, want) == 0xFFFF {
            let mut off = [0u32; BLOCK];
            off[0] = (first as u32) << 5;
            (off, true)
        } else {
            (offsets::<1>(idx)[0], false)
        }
    }
}

/// Runs `blocks` blocks of sixteen index entries (`index[0..16 blocks]`,
/// `blocks >= 1`) through three stages, software-pipelined: iteration `k`
/// runs `first` of block `k`, `second` of block `k - 1` (on what `first`
/// returned for it) and `third` of block `k - 2` (on what `second`
/// returned), in that order, so that a block's long dependency chain (the
/// slerp's, about 150 cycles) sits in the instruction stream between
/// independent loads and stores of the blocks around it, where the
/// out-of-order core overlaps them. (With the stages of one block in a row,
/// the chain's waiting instructions filled the scheduler and the next
/// block's loads could not start: measured 1.1-1.25x slower.) Each stage
/// is given its block's [`Joints16`]: whether its joints are a run, and
/// their offsets if not (computing sixteen offsets that a run does not
/// use cost 1.07x, measured).
///
/// Every block runs the same three stages as alone, in the same order, so
/// the results are the same bits; but block `k`'s loads (in `first` and
/// `second`) come before blocks `k - 1` and `k - 2` are stored, so the
/// blocks must name distinct joints ([`increasing_blocks`]).
///
/// # Safety
///
/// `index` points to `16 blocks` readable `i32`, none negative; the stages
/// are sound for the offsets of any of these blocks, run in the order
/// above.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn pipeline<A: Copy, B: Copy>(
    index: *const i32,
    blocks: usize,
    mut first: impl FnMut(&Joints16) -> A,
    mut second: impl FnMut(&Joints16, A) -> B,
    mut third: impl FnMut(&Joints16, B),
) {
    // The offsets of blocks k, k - 1 and k - 2, at k, k + 2 and k + 1 mod 3.
    let mut ring = [([0u32; BLOCK], false); 3];
    let mut a: Option<A> = None;
    let mut b: Option<B> = None;
    // One loop with each stage at one call site (the closures are inlined
    // once each); the first two and last two iterations skip the stages
    // that have no block.
    for k in 0..blocks + 2 {
        let a_new = if k < blocks {
            // SAFETY: block `k < blocks` of the caller's entries.
            ring[k % 3] = unsafe { block_joints(index.add(BLOCK * k)) };
            Some(first(&ring[k % 3]))
        } else {
            None
        };
        let b_new = a.map(|x| second(&ring[(k + 2) % 3], x));
        if let Some(y) = b {
            third(&ring[(k + 1) % 3], y);
        }
        a = a_new;
        b = b_new;
    }
}
