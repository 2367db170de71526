//! The successor of Appendix B (`LerpJoints`) for a core with AVX-512 (F,
//! VL, DQ, BW): sixteen joints per block, one block per call of the loop, with
//! `core::arch::x86_64` intrinsics; deterministic: bit for bit the portable
//! successor (`crate::lerp_joints::portable`) and so the AVX2 and NEON
//! ones.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm). Port licensed under the GNU LGPL 2.1 or later.
//!
//! **What the form is.** The listing's algorithm as the AVX2 successor
//! ([`super::avx2`]) computes it (`scaledLerp = lerp / (1 - lerp)` once per
//! call, `Q = J ± scaledLerp · B`, `Q · 1 / sqrt(|Q|²)`, `t + lerp · (b -
//! t)`), on sixteen lanes in the layout of the slerp's AVX-512 successor
//! (`crate::slerp_joints::avx512`, `crate::x86::slerp_core16`): sixteen
//! joints named by the index are eight *joint-pair registers* per list, two
//! whole 32-byte joints each (one 256-bit load and one `vinsertf64x4` from
//! memory per two joints, each joint read once per list). The two
//! horizontal sums (the dot product and `|Q|²`) are four two-source permutes
//! (`vpermt2ps`) and six in-lane shuffles per sixteen joints each; the sign
//! of `±scaledLerp` is a masked `vxorps` on the SoA register; `±scaledLerp`
//! and `1 / |Q|` go back over the joint-pair registers with one `vpermps`
//! each; the output is computed in the joint-pair register (the translation
//! lanes `fma(lerp, tb - tj, tj)`, the rotation lanes `Q · inv` by a masked
//! multiply) and each joint is stored as two 16-byte stores (a block of
//! consecutive joints as eight 64-byte stores).
//!
//! **What changed from `Avx2`, and why.** The width, the whole-joint layout
//! (no `vperm2f128` to recombine `q` and `t` before the store), one block
//! per group, each joint loaded once (both lists' sixteen registers and the
//! eight of `Q` stay in the 32 `zmm` registers; loading them again for the
//! blend, as the slerp does, was 1.3x slower: each load's `vinsertf64x4`
//! queues on port 5), a block of sixteen consecutive joints (a run of the
//! index) read as eight 64-byte loads and written as eight 64-byte stores
//! (`slerp_core16::load_block`, `store_block`), the
//! masked load of the index list's tail (1 to 15 entries, the other lanes
//! the last entry: no access outside what the index names; the entries then
//! go to the stack, the offsets being scalars) and the duplicate test in
//! mask registers (`slerp_core16::in_list_order`). The slerp's three-stage
//! pipeline (`crate::slerp_joints::avx512`) was tried here too and was
//! slower (the lerp's chain is short).
//!
//! **Speed** (`asm_notes/lerp_joints.md`, "Successor: Impl::Avx512"): on
//! the Intel Xeon measured this form is slower than `Avx2`: 0.88-0.89x
//! back to back and 0.60-0.66x after a pause without 512-bit instructions
//! (the report's "after a pause" section). The routine is bound by its
//! memory traffic (`Avx2` runs at 0.85-0.93x its floor), and a 512-bit
//! operation runs on ports 0 and 5 only, where the 256-bit form has three
//! ports for its shuffles and arithmetic. So it comes after `Avx2` in
//! `FORMS` and `Impl::Auto` does not pick it.
//!
//! **The one answer.** No estimate instructions: `1 / sqrt(|Q|²)` is
//! `vsqrtps` and `vdivps`, both correctly rounded. Every lane performs the
//! portable successor's steps 1 to 7 in its order, with the fused
//! multiply-adds in its places (the sums `(x·x' + y·y') + (z·z' + w·w')`, `Q
//! = fma(b, ±s, q)`, the translation's `fma`); masks choose lanes without
//! arithmetic. So every joint is `Impl::Portable`'s bit for bit, on every
//! CPU (NaN bits aside; `tests/golden.rs`), whatever its position in the
//! index; duplicate index entries are applied in list order.
//!
//! **Listing behaviours** are `Avx2`'s ([`super::avx2`]): the `scaledLerp`
//! trick, E4, E5, E7 kept; E1, E2, E3 corrected; E6 changed (list order).

use crate::consts::{SIMD_SP_ONE, SIMD_SP_SIGN_BIT};
use crate::types::JointQuat;
use crate::x86::pipeline16::{Joints16, block_joints};
use crate::x86::slerp_core8::copy_indexed;
use crate::x86::slerp_core16::{
    BLOCK, QLANES, dots, each16, in_list_order, load_block, splat, splat_bits, spread, store_block,
};
use core::arch::x86_64::*;

/// The successor of `LerpJoints` (Appendix B) with AVX-512: for every `j`
/// in `index[0..num_joints]`, lerps `joints[j].q` towards the nearer of
/// `±blend_joints[j].q` (`cosom < 0` flips) and renormalises it, and lerps
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
        // of both lists, which do not overlap (caller's contract); AVX-512 F
        // implies the AVX2 and FMA of `copy_indexed`.
        unsafe { copy_indexed(joints, blend_joints, index, n) };
        return;
    }
    let lerp16 = _mm512_set1_ps(lerp);
    // scaledLerp = lerp / (1 - lerp): finite and positive for 0 < lerp < 1.
    let scaled16 = _mm512_set1_ps(lerp / (1.0 - lerp));
    // SAFETY: `num_joints` entries of `index` are readable, none negative,
    // and `in_list_order` hands each call `16 BLOCKS` (resp. sixteen) of
    // them or copies of them, each naming a joint of both lists, which do
    // not overlap (caller's contract); AVX-512 F/VL/DQ/BW are available.
    unsafe {
        in_list_order::<BLOCKS>(
            index,
            n,
            |idx| group::<BLOCKS>(joints, blend_joints, lerp16, scaled16, idx),
            |idx| group::<1>(joints, blend_joints, lerp16, scaled16, idx),
        )
    };
}

/// Blocks of sixteen joints per group (per iteration of the main loop):
/// one (two spilled registers and were slower, measured).
const BLOCKS: usize = 1;

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
unsafe fn group<const N: usize>(
    joints: *mut JointQuat,
    blend: *const JointQuat,
    lerp16: __m512,
    scaled16: __m512,
    idx: *const i32,
) {
    // SAFETY: the caller guarantees the `16 N` index entries and that each
    // names a joint of both lists: `joints.add(j)` / `blend.add(j)` are
    // valid 32-byte `JointQuat`s, read (and for `joints` written) whole;
    // the lists do not overlap.
    unsafe {
        // Each block's offsets (only the first for a run) and whether its
        // joints are a run.
        let blocks: [Joints16; N] = core::array::from_fn(|v| block_joints(idx.add(BLOCK * v)));
        let off: [[u32; BLOCK]; N] = core::array::from_fn(|v| blocks[v].0);
        // The joint-pair registers of block `v`, each loaded once: with one
        // block, both lists' sixteen registers and the eight of `Q` stay in
        // the 32 `zmm` registers (loading them again for the blend, as the
        // slerp does, cost 1.3x: the `vinsertf64x4` of each load queues on
        // port 5).
        let run: [bool; N] = core::array::from_fn(|v| blocks[v].1);
        let mut a = [[_mm512_setzero_ps(); 8]; N];
        let mut b = [[_mm512_setzero_ps(); 8]; N];
        for v in 0..N {
            a[v] = load_block(joints, &off[v], run[v]);
            b[v] = load_block(blend, &off[v], run[v]);
        }
        let cosom: [__m512; N] = each16!(|v| dots(&a[v], &b[v]));
        // ±scaledLerp: negative where cosom < 0 (not for -0.0 or NaN).
        let sign_bit = splat_bits(&SIMD_SP_SIGN_BIT);
        let zero = _mm512_setzero_ps();
        let s: [__m512; N] = each16!(|v| _mm512_mask_xor_ps(
            scaled16,
            _mm512_cmp_ps_mask::<_CMP_LT_OQ>(cosom[v], zero),
            scaled16,
            sign_bit
        ));
        // Q = fma(b, ±s, q) (in the rotation lanes; the others are not used).
        let mut q = [[_mm512_setzero_ps(); 8]; N];
        for v in 0..N {
            for i in 0..8 {
                q[v][i] = _mm512_fmadd_ps(b[v][i], spread(i, s[v]), a[v][i]);
            }
        }
        let inv: [__m512; N] = each16!(|v| _mm512_div_ps(splat(&SIMD_SP_ONE), _mm512_sqrt_ps(dots(&q[v], &q[v]))));
        let mut r = [[_mm512_setzero_ps(); 8]; N];
        for v in 0..N {
            for i in 0..8 {
                // Translation lanes: fma(lerp, tb - tj, tj); rotation lanes Q · inv.
                let t = _mm512_fmadd_ps(lerp16, _mm512_sub_ps(b[v][i], a[v][i]), a[v][i]);
                r[v][i] = _mm512_mask_mul_ps(t, QLANES, q[v][i], spread(i, inv[v]));
            }
        }
        for v in 0..N {
            store_block(joints, &off[v], run[v], &r[v]);
        }
    }
}
