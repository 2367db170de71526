//! The successor of Appendix B (`Impl::Avx2`): `LerpJoints` rewritten for a
//! 2026 core with AVX2 and FMA, eight joints per block, written with
//! `core::arch::x86_64` intrinsics (no `asm!`); deterministic: bit for bit
//! the portable successor (`crate::lerp_joints::portable`, whose module
//! documentation writes out the one order of operations that this form
//! follows lane for lane) and the NEON one.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm). Port licensed under the GNU LGPL 2.1 or later.
//!
//! **What it is.** The listing's algorithm: `scaledLerp = lerp / (1 - lerp)`
//! once per call (`divss`), then per joint `Q = J ± scaledLerp · B` (the sign
//! from the dot product `J · B`), normalised by `1 / sqrt(|Q|²)`, and the
//! translations as `t + lerp · (b - t)`.
//!
//! **What changed from the 2005 listing, and why.** As in the slerp
//! successor (`crate::slerp_joints::avx2`, whose layout and loop this file
//! shares through `crate::x86::slerp_core8`): each joint's `q` and `t` halves
//! are loaded as *pair registers* (one 128-bit load and one `vinsertf128`
//! from memory per two joints, no shuffle) instead of two `TRANSPOSE_4x4`
//! (24 shuffles per four joints) and `movlps`/`movhps` stores; the two
//! horizontal sums (the dot product and `|Q|²`) are six in-lane shuffles and
//! three adds per eight joints each, and `±scaledLerp` and `1/|Q|` are
//! broadcast back over each quaternion with one `vpermilps`: 20 in-lane
//! shuffles per eight joints where the listing needs 48 (24 per four, and
//! its 1-wide loop 7 per joint); each joint's `q` and `t` are recombined
//! with one `vperm2f128` and stored with one 256-bit store (measured 5%
//! faster here than two 128-bit stores per joint); `Q = J + s·B` is one FMA per pair register,
//! as is the translation; `scaledLerp` and the
//! constants are broadcast once (`vbroadcastss`); blocks are interleaved
//! two at a time so that their dependency chains overlap; and the
//! `numJoints % 8` tail goes through one padded block (the index copied to a
//! stack `[i32; 8]`, padded with the last valid entry) instead of the 1-wide
//! loop. The shortest-arc test is the C's `cosom < 0`.
//!
//! **Listing behaviours** (the errata of `asm_notes/lerp_joints.md`):
//! - kept: the `scaledLerp` trick (`lerp / (1 - lerp)` in one `divss`); E4,
//!   a NaN `lerp` copies the indexed blend joints (the listing's prologue);
//!   E5, translations as `t + lerp · (b - t)` (one FMA, rounded once); E7,
//!   the constants' values;
//! - corrected: E1 and E2, every joint goes through the same 8-wide code
//!   whatever the count and its position in `index` (sums as
//!   `(x·x' + y·y') + (z·z' + w·w')` everywhere); E3, a dot product of `-0.0`
//!   keeps the blend quaternion, as the C's `cosom >= 0.0f` does;
//! - changed: E6, the entries of `index` are applied in list order, as the
//!   paper's C does: a joint named twice is interpolated twice, rotation and
//!   translation, the second time from the first's result, wherever the two
//!   entries are (the listing lerps the translation twice and the rotation
//!   once within a group of four); the result equals calling the form once
//!   per entry, bit for bit. A group of 16 (and each block of eight) first
//!   checks its entries for a repeated joint
//!   (`crate::x86::slerp_core8::in_list_order`); a group with a repeat runs
//!   block by block, a block with a repeat entry by entry, each entry as a
//!   block of eight copies of itself, through the same per-lane arithmetic.
//!
//! **No estimates** (for one answer on every CPU): the listing's `rsqrtps`
//! and Newton-Raphson step, whose bits differ between CPU vendors, are
//! replaced by `1 / sqrt(|Q|²)` with `vsqrtps` and `vdivps`, both correctly
//! rounded (`crate::x86::slerp_core8::rsqrt_exact`; as fast, measured:
//! `asm_notes/lerp_joints.md`). NaN or infinite components: a joint whose
//! `Q` has a NaN component gets a NaN rotation; one whose `Q` has an
//! infinite component gets NaN there and ±0 in the other components
//! (`1 / sqrt(inf) = 0`, `inf · 0 = NaN`; the listing's estimate gave NaN
//! in all four); a zero `Q` (opposite quaternions at `lerp = 0.5`) gives
//! NaN (`1 / sqrt(0) = inf`, `0 · inf`), as in the listing; lanes do not
//! mix.

use crate::consts::SIMD_SP_SIGN_BIT;
use crate::types::{JOINTQUAT_Q_OFFSET as Q, JOINTQUAT_T_OFFSET as T, JointQuat};
use crate::x86::slerp_core8::{at, copy_indexed, each, hsum4, in_list_order, lane, pair, rsqrt_exact, splat_bits};
use core::arch::x86_64::*;

/// The successor of `LerpJoints` (Appendix B) with AVX2 and FMA: for every
/// `j` in `index[0..num_joints]`, lerps `joints[j].q` towards the nearer of
/// `±blend_joints[j].q` (`cosom < 0` flips) and renormalises it, and lerps
/// `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place.
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
    let lerp8 = _mm256_set1_ps(lerp);
    // scaledLerp = lerp / (1 - lerp): finite and positive for 0 < lerp < 1.
    let scaled8 = _mm256_set1_ps(lerp / (1.0 - lerp));
    // SAFETY: `num_joints` entries of `index` are readable, none negative,
    // and `in_list_order` hands each call `8 BLOCKS` (resp. eight) of them or
    // copies of them, each naming a joint of both lists, which do not overlap
    // (caller's contract); AVX2 and FMA are available.
    unsafe {
        in_list_order::<BLOCKS>(
            index,
            n,
            |idx| group::<BLOCKS>(joints, blend_joints, lerp8, scaled8, idx),
            |idx| group::<1>(joints, blend_joints, lerp8, scaled8, idx),
        )
    };
}

/// Blocks of eight joints per group (per iteration of the main loop).
const BLOCKS: usize = 2;

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
unsafe fn group<const N: usize>(
    joints: *mut JointQuat,
    blend: *const JointQuat,
    lerp8: __m256,
    scaled8: __m256,
    idx: *const i32,
) {
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
        // ±scaledLerp: negative where cosom < 0 (not for -0.0 or NaN).
        let sign_bit = splat_bits(&SIMD_SP_SIGN_BIT);
        let zero = _mm256_setzero_ps();
        let s: [__m256; N] =
            each!(|v| _mm256_xor_ps(scaled8, _mm256_and_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(cosom[v], zero), sign_bit)));
        // Q = J + (±s) B, and |Q|² per joint.
        let mut q = [[_mm256_setzero_ps(); 4]; N];
        for v in 0..N {
            let sv = [lane::<0>(s[v]), lane::<1>(s[v]), lane::<2>(s[v]), lane::<3>(s[v])];
            for k in 0..4 {
                q[v][k] = _mm256_fmadd_ps(pair(blend, &j[v], k, jq), sv[k], pair(joints, &j[v], k, jq));
            }
        }
        let norm2: [__m256; N] = each!(|v| hsum4(&[
            _mm256_mul_ps(q[v][0], q[v][0]),
            _mm256_mul_ps(q[v][1], q[v][1]),
            _mm256_mul_ps(q[v][2], q[v][2]),
            _mm256_mul_ps(q[v][3], q[v][3]),
        ]));
        let inv: [__m256; N] = each!(|v| rsqrt_exact(norm2[v]));
        let mut r = [[_mm256_setzero_ps(); 8]; N];
        for v in 0..N {
            let iv = [lane::<0>(inv[v]), lane::<1>(inv[v]), lane::<2>(inv[v]), lane::<3>(inv[v])];
            for k in 0..4 {
                r[v][k] = _mm256_mul_ps(q[v][k], iv[k]);
            }
        }
        // The translations, then each joint stored whole: `q` and `t`
        // recombined with one `vperm2f128` per joint and one 256-bit store.
        for v in 0..N {
            for k in 0..4 {
                let tj = pair(joints, &j[v], k, jt);
                let tb = pair(blend, &j[v], k, jt);
                let t = _mm256_fmadd_ps(lerp8, _mm256_sub_ps(tb, tj), tj);
                r[v][k + 4] = _mm256_permute2f128_ps::<0x31>(r[v][k], t);
                r[v][k] = _mm256_permute2f128_ps::<0x20>(r[v][k], t);
            }
        }
        for v in 0..N {
            for k in 0..8 {
                _mm256_storeu_ps(at(joints, j[v][k], jq), r[v][k]);
            }
        }
    }
}
