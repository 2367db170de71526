//! The successor of Appendix C (`Impl::Avx512`): `TransformJoints` for a
//! core with AVX-512 (F, VL, DQ, BW), four joints in three 512-bit vectors,
//! with `core::arch::x86_64` intrinsics. The same product and contract as
//! the listing and [`super::avx2`]: `result[i] = joints1[i] * joints2[i]`
//! for the 3x4 row-major affine matrices `i` in `0..numJoints`.
//!
//! **What the form is.** Four joints are 12 rows of four floats, three
//! 512-bit vectors; the result has the same layout, so vector `v` of the
//! result is computed in the lanes of vector `v` of `joints1`: its
//! 128-bit lane `p` is row `r` of joint `j` (`4v + p = 3j + r`), and that
//! row is `a[r][0] * b_row0 + a[r][1] * b_row1 + a[r][2] * b_row2`, then the
//! translation `a[r][3]` added to lane 3. Per vector and column `k`:
//!
//! - `a[r][k]` in the four floats of each row: one in-lane `vpermilps`
//!   (`_mm512_permute_ps`) of the loaded `joints1` vector;
//! - row `k` of `joints2[j]` in each 128-bit lane: the rows of a vector
//!   belong to two joints (`0 0 0 1`, `1 1 2 2`, `2 3 3 3`), so one
//!   `vbroadcastf32x4` from memory (a load, no shuffle) and one masked
//!   `vbroadcastf32x4` from memory into the lanes of the second joint (a
//!   load and a blend on either vector port; written as `asm!`, since LLVM
//!   compiles `_mm512_mask_broadcast_f32x4` of a load into a broadcast and
//!   two lane inserts on the shuffle port: 5.7 ticks per joint against
//!   4.7).
//!
//! Then the C's roundings: three multiplies, two adds, and the translation
//! as a masked add (`_mm512_mask_add_ps`, lanes 3, 7, 11, 15). Per four
//! joints: 3 loads, 9 shuffles, 18 broadcast loads (9 of them masked), 18
//! arithmetic operations, 3 stores, where `Avx2` spends 12 shuffles, 8
//! blends and 48 arithmetic operations on half-width and quarter-width
//! registers (its row 2 is a 4-lane `xmm`). A tail of 1 to 3 joints goes
//! through the same code with masked loads (`_mm512_maskz_loadu_ps`), the
//! broadcasts of joints past the last one skipped, and masked stores
//! (`_mm512_mask_storeu_ps`): no stack copy, no access outside the lists.
//!
//! **What changed from `Avx2`, and why.** `Avx2` computes one joint per
//! iteration, rows 0 and 1 in one `ymm` and row 2 in an `xmm`, so a
//! quarter of its arithmetic is on 4-lane registers; here every lane of
//! every register is a result element. The 512-bit vectors do not hold
//! whole joints, which costs the masked broadcasts of `joints2`'s rows; the
//! translation add is masked rather than a blend and a full add. The
//! arithmetic is not fused, as in `Avx2` (see its "Roundings").
//!
//! **Listing behaviours** are `Avx2`'s: in-place calls (`result` exactly
//! `joints1` or `joints2`: the four joints of a group are read whole before
//! any of them is written), `numJoints <= 0` reads and writes nothing, E2
//! corrected (no `+0.0` added to the rotation elements).
//!
//! **The one answer.** No estimate, no fused operation: each element is
//! `((a0 b0 + a1 b1) + a2 b2) + t` rounded as [`super::portable`] writes it,
//! the masked add leaving the rotation lanes as they are (the portable form
//! adds `-0.0` there, which changes no number). So the results are
//! `Impl::Portable`'s bit for bit on every CPU (NaN bits aside;
//! `tests/golden.rs`), the tail included.

use crate::types::JointMat;
use core::arch::x86_64::*;

/// The translation lanes (column 3 of each row).
const TRANSLATION: __mmask16 = 0x8888;

/// For vector `v` (0..3) of a group of four joints: the first of the two
/// joints its rows belong to, and the 128-bit lanes (as a float mask) of
/// the second (joint `first + 1`).
const SPLIT: [(usize, __mmask16); 3] = [(0, 0xF000), (1, 0xFF00), (2, 0xFFF0)];

/// `v` with the 128-bit lanes of `mask` (a float mask, whole lanes) set to
/// the four floats at `p`: one masked `vbroadcastf32x4` from memory (a load
/// and a blend on any vector port). Written as `asm!` because LLVM turns
/// `_mm512_mask_broadcast_f32x4` of a load into a 128-bit broadcast and two
/// lane inserts, shuffles that queue on the one shuffle port.
///
/// # Safety
///
/// AVX-512 F; `p` valid for reads of four floats (any alignment).
#[cfg(not(miri))]
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn mask_broadcast_row(v: __m512, mask: __mmask16, p: *const f32) -> __m512 {
    let mut v = v;
    // SAFETY: reads the 16 bytes at `p` (caller), writes only `v`.
    unsafe {
        core::arch::asm!(
            "vbroadcastf32x4 {v}{{{k}}}, xmmword ptr [{p}]",
            v = inout(zmm_reg) v,
            k = in(kreg) mask,
            p = in(reg) p,
            options(pure, readonly, nostack, preserves_flags),
        );
    }
    v
}

/// Under Miri, which interprets no `asm!`: the intrinsic, the same result.
///
/// # Safety
///
/// AVX-512 F; `p` valid for reads of four floats (any alignment).
#[cfg(miri)]
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn mask_broadcast_row(v: __m512, mask: __mmask16, p: *const f32) -> __m512 {
    // SAFETY: reads the 16 bytes at `p` (caller).
    unsafe { _mm512_mask_broadcast_f32x4(v, mask, _mm_loadu_ps(p)) }
}

/// The mask of the first `n` (at most 16) lanes.
#[inline]
fn first(n: usize) -> __mmask16 {
    ((1u32 << n.min(16)) - 1) as __mmask16
}

/// Four joints: `r[0..4] = a[0..4] * b[0..4]`, or, with `MASKED`, the first
/// `n` (1 to 3): only their floats are read and written. All reads come
/// before the first write.
///
/// # Safety
///
/// AVX-512 F, VL, DQ, BW. `a` and `b` valid for reads and `r` for writes
/// of 4 (`MASKED`: `n`) [`JointMat`]s, `r` exactly `a` or `b` or not
/// overlapping them.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn group<const MASKED: bool>(r: *mut f32, a: *const f32, b: *const f32, n: usize) {
    let n_f = if MASKED { 12 * n } else { 48 };
    let mut out = [_mm512_setzero_ps(); 3];
    for (v, o) in out.iter_mut().enumerate() {
        let (j0, second) = SPLIT[v];
        let av = if MASKED {
            let mask = first(n_f.saturating_sub(16 * v));
            // SAFETY: a masked load reads only the floats of its mask,
            // `16v..n_f`, inside the `n` joints (caller), and does not fault
            // on the others (never an empty mask: the vectors past the
            // last joint are not computed, see the loop's `break`).
            unsafe { _mm512_maskz_loadu_ps(mask, a.wrapping_add(16 * v)) }
        } else {
            // SAFETY: floats `16v..16v + 16` of the four joints (caller).
            unsafe { _mm512_loadu_ps(a.add(16 * v)) }
        };
        // Row k of joints2[j0] in every 128-bit lane, row k of joint j0 + 1
        // in the lanes `second`, if that joint is in the list.
        let has_second = !MASKED || j0 + 1 < n;
        let bk: [__m512; 3] = core::array::from_fn(|k| {
            // SAFETY: row k of joint j0 (and of j0 + 1 when `has_second`),
            // inside the list: `j0 < n` since vector `v` holds floats of the
            // first `n` joints (caller; the loop stops before a vector past
            // them). 16 bytes each; `loadu` takes any alignment.
            unsafe {
                let lo = _mm512_broadcast_f32x4(_mm_loadu_ps(b.add(12 * j0 + 4 * k)));
                if has_second { mask_broadcast_row(lo, second, b.add(12 * (j0 + 1) + 4 * k)) } else { lo }
            }
        });
        // ((a0 b0 + a1 b1) + a2 b2) + t, the translation in lanes 3 only.
        let mut s = _mm512_mul_ps(_mm512_permute_ps::<0x00>(av), bk[0]);
        s = _mm512_add_ps(s, _mm512_mul_ps(_mm512_permute_ps::<0x55>(av), bk[1]));
        s = _mm512_add_ps(s, _mm512_mul_ps(_mm512_permute_ps::<0xAA>(av), bk[2]));
        *o = _mm512_mask_add_ps(s, TRANSLATION, s, av);
        if MASKED && n_f <= 16 * (v + 1) {
            break;
        }
    }
    for (v, o) in out.into_iter().enumerate() {
        if MASKED {
            let mask = first(n_f.saturating_sub(16 * v));
            if mask == 0 {
                break;
            }
            // SAFETY: a masked store writes only the floats of its mask,
            // `16v..n_f`, inside the `n` joints (caller), and does not
            // fault on the others.
            unsafe { _mm512_mask_storeu_ps(r.wrapping_add(16 * v), mask, o) };
        } else {
            // SAFETY: floats `16v..16v + 16` of the four joints (caller).
            unsafe { _mm512_storeu_ps(r.add(16 * v), o) };
        }
    }
}

/// `TransformJoints` for AVX-512: `result[i] = joints1[i] * joints2[i]` for
/// `i` in `0..num_joints`, four joints (three 512-bit vectors) at a time,
/// the last 1 to 3 with masked loads and stores. `num_joints <= 0` reads
/// and writes nothing.
///
/// # Safety
///
/// If `num_joints > 0`:
/// - the CPU supports AVX-512 F, VL, DQ and BW;
/// - `joints1` and `joints2` are valid for reads and `result` for writes of
///   `num_joints` [`JointMat`]s each, aligned for the type (the kernel
///   needs no alignment);
/// - `result` may be exactly `joints1` or `joints2` (each group of four
///   joints is read whole before any of it is written); no other overlap.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub unsafe fn transform_joints(
    result: *mut JointMat,
    joints1: *const JointMat,
    joints2: *const JointMat,
    num_joints: i32,
) {
    let n = num_joints.max(0) as usize;
    let (r, a, b) = (result.cast::<f32>(), joints1.cast::<f32>(), joints2.cast::<f32>());
    let mut i = 0;
    while i + 4 <= n {
        // SAFETY: joints `i..i + 4` are inside the three lists (caller's
        // contract); `result` is exactly an input or overlaps neither.
        unsafe { group::<false>(r.add(12 * i), a.add(12 * i), b.add(12 * i), 4) };
        i += 4;
    }
    if i < n {
        // SAFETY: joints `i..n` are inside the three lists; the masked
        // group touches no float outside them.
        unsafe { group::<true>(r.add(12 * i), a.add(12 * i), b.add(12 * i), n - i) };
    }
}
