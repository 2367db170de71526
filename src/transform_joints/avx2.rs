//! The successor of Appendix C (`Impl::Avx2`): `TransformJoints` as it
//! would be written for an AVX2 + FMA core, with `core::arch::x86_64`
//! intrinsics. The same algorithm and contract as the listing: `result[i] =
//! joints1[i] * joints2[i]` for the 3x4 row-major affine matrices `i` in
//! `0..numJoints`, row `r` of the result being `a[r][0] * b_row0 + a[r][1] *
//! b_row1 + a[r][2] * b_row2 + (0, 0, 0, a[r][3])`.
//!
//! **What changed from the 2005 listing, and why.** The listing spreads the
//! nine scalars `a[r][k]` of `joints1[i]` with `pshufd` (nine shuffles per
//! joint, all on one shuffle port on Intel cores), multiplies and adds in
//! separate `mulps` / `addps` and adds the translation with `andps
//! SIMD_SP_clearFirstThree` + `addps`, one 4-lane row at a time. The
//! successor computes the result's rows 0 and 1 together in one 8-lane
//! `ymm` register: `joints1[i]`'s rows 0 and 1 are one 32-byte load, and one
//! in-lane `vpermilps` (`vshufps`) per column `k` gives `(a[0][k] x4 |
//! a[1][k] x4)`, so six broadcasts cost three shuffles; `joints2[i]`'s rows
//! are duplicated into both halves by `vbroadcastf128` loads (no shuffle);
//! row 2 takes its three scalars with `vbroadcastss` from memory (load
//! ports). Each result row is the C's `((a0 b0 + a1 b1) + a2 b2)` with
//! separate multiplies and adds (no FMA: see "Roundings" below), then the row
//! of `joints1[i]` blended into `(-0.0, -0.0, -0.0, t)` (`vblendps`, with a
//! sign-bit vector, [`IEEE_SP_SIGN`]) added last. Per joint: 6 multiplies,
//! 6 adds (8 lanes for rows 0 and 1, 4 for row 2), 3 shuffles, 2 blends, 2
//! stores, against the listing's 9 `pshufd`, 9 `mulps`, 9 `addps`, 3
//! `andps` and 3 stores. One joint is one iteration, as in the
//! listing, so there is no tail (no remainder loop, no masked or padded
//! block): the 8 lanes are filled by two rows of one joint, not by joints.
//! The loads and stores are unaligned forms (`JointMat` is only 16-byte
//! aligned), and the kernel touches exactly the bytes the listing touches.
//!
//! **Listing behaviours.** Kept: in-place calls, `result` equal to
//! `joints1` or to `joints2` (every element of an input joint is read before
//! the result joint at the same place is written; the raw kernel allows it
//! as the listing's does); `numJoints <= 0` reads and writes nothing; the
//! product `joints1 * joints2` (erratum E1 of `asm_notes/transform_joints.md`
//! is the paper's text naming Appendix B; the successor, like the listing,
//! computes Appendix C's product). Corrected: erratum E2, the listing's
//! `+0.0` added to the rotation elements (a rotation element that sums to
//! `-0.0` in the C comes out `+0.0` from the listing): the successor starts
//! each FMA chain from `(-0.0, -0.0, -0.0, t)`, and `x + (-0.0) == x` for
//! every `x`, so the C's signed zeros survive.
//!
//! **Roundings.** The successor rounds as the C does (products, then sums
//! left to right, the translation last), so its results are the scalar
//! port's bit for bit (NaN payloads aside), including the C's `-0.0`. A
//! first version fused the multiply-adds (three FMAs per row, the
//! translation first): 4.6 instead of 5.6 ticks per joint, but its largest
//! error against the f64 product on the report's data was 2.0e-6 where the
//! listing's is 1.8e-6, and a successor is to be no less accurate than the listing.
//! NaN and infinite inputs give the C's outputs.
//!
//! **The one answer.** No estimate, no fused operation, and every joint is
//! one iteration (no tail): each element is computed in the order that
//! [`super::portable`] writes out, so the results are `Impl::Portable`'s and
//! `Impl::Neon`'s bit for bit, on every CPU (NaN bits aside;
//! `tests/golden.rs`). It needed no change for that.

use crate::consts::IEEE_SP_SIGN;
use crate::types::JointMat;
use core::arch::x86_64::*;

/// `TransformJoints` for AVX2 + FMA: `result[i] = joints1[i] * joints2[i]`
/// for `i` in `0..num_joints` (see the module documentation for what
/// differs from the listing). `num_joints <= 0` reads and writes nothing.
///
/// # Safety
///
/// If `num_joints > 0`:
/// - the CPU supports AVX2 and FMA;
/// - `result`, `joints1` and `joints2` are 16-byte aligned (as
///   [`JointMat`] is; the kernel needs no more); `joints1` and `joints2`
///   are valid for reads and `result` for writes of `num_joints`
///   [`JointMat`]s each;
/// - `result` may be exactly `joints1` or `joints2` (each input joint is
///   read whole before the result joint at the same place is written); no
///   other overlap.
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
pub unsafe fn transform_joints(
    result: *mut JointMat,
    joints1: *const JointMat,
    joints2: *const JointMat,
    num_joints: i32,
) {
    if num_joints <= 0 {
        return;
    }
    // (-0.0, ..., -0.0): the rotation lanes' start of every FMA chain.
    let neg_zero = _mm256_castsi256_ps(_mm256_set1_epi32(IEEE_SP_SIGN as i32));
    for i in 0..num_joints as usize {
        // SAFETY: `i < num_joints`, so the three are joint `i` of each
        // list, valid for 48 bytes and 16-byte aligned (caller's contract):
        // `multiply`'s contract, on a CPU with AVX2 and FMA.
        unsafe { multiply(result.add(i).cast(), joints1.add(i).cast(), joints2.add(i).cast(), neg_zero) };
    }
}

/// One joint: `r = a * b` for the 3x4 matrices at `r`, `a` and `b`
/// (products rounded, summed left to right, then the translation;
/// `-0.0` in the rotation lanes). Every load comes before the stores. The
/// one order of operations of the successors (the whole pose's `Avx2` form
/// calls it too).
///
/// # Safety
///
/// AVX2 and FMA; `a` and `b` valid for reads of 12 floats, `r` for writes
/// of 12, each 16-byte aligned; `r` may be `a` or `b` (read whole first),
/// no other overlap; `neg_zero` is `-0.0` in every lane.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn multiply(r: *mut f32, a: *const f32, b: *const f32, neg_zero: __m256) {
    // SAFETY: the caller's contract: the three 48-byte matrices are valid
    // and 16-byte aligned, so the `&__m128` rows are aligned; the 32-byte
    // accesses are the unaligned forms; the loads come before the stores.
    unsafe {
        // joints2[i]'s rows, each in both 128-bit halves.
        let b0 = _mm256_broadcast_ps(&*b.cast::<__m128>());
        let b1 = _mm256_broadcast_ps(&*b.add(4).cast::<__m128>());
        let b2 = _mm256_broadcast_ps(&*b.add(8).cast::<__m128>());
        // Rows 0 and 1 of the result: (row 0 | row 1).
        let a01 = _mm256_loadu_ps(a);
        let t01 = _mm256_blend_ps::<0x88>(neg_zero, a01);
        let mut y = _mm256_mul_ps(_mm256_permute_ps::<0x00>(a01), b0);
        y = _mm256_add_ps(y, _mm256_mul_ps(_mm256_permute_ps::<0x55>(a01), b1));
        y = _mm256_add_ps(y, _mm256_mul_ps(_mm256_permute_ps::<0xAA>(a01), b2));
        y = _mm256_add_ps(y, t01);
        // Row 2.
        let a2 = a.add(8);
        let t2 = _mm_blend_ps::<0x8>(_mm256_castps256_ps128(neg_zero), _mm_loadu_ps(a2));
        let mut x = _mm_mul_ps(_mm_broadcast_ss(&*a2), _mm256_castps256_ps128(b0));
        x = _mm_add_ps(x, _mm_mul_ps(_mm_broadcast_ss(&*a2.add(1)), _mm256_castps256_ps128(b1)));
        x = _mm_add_ps(x, _mm_mul_ps(_mm_broadcast_ss(&*a2.add(2)), _mm256_castps256_ps128(b2)));
        x = _mm_add_ps(x, t2);
        _mm256_storeu_ps(r, y);
        _mm_storeu_ps(r.add(8), x);
    }
}
