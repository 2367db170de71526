//! The successor of Appendix B (`Impl::Avx2`): `UntransformSkeleton` as it
//! would be written for an AVX2 + FMA core, with `core::arch::x86_64`
//! intrinsics. The same algorithm and contract as the listing: for `i` from
//! `lastJoint` down to `firstJoint`, `jointMats[i] = Rp^T (jointMats[i] -
//! tp)` with `[Rp | tp] = jointMats[parents[i]]` (the rigid inverse of the
//! parent times the joint), in place, one joint per iteration, last joint
//! first so that every parent is still global when its children read it.
//!
//! **What changed from the 2005 listing, and why.** The listing subtracts
//! the parent's translation from the child's rows with `movss` + `pshufd`
//! (three shuffles), then spreads the nine rotation scalars `b[k][r]` with
//! `pshufd` (nine more: twelve shuffles per joint on one shuffle port on
//! Intel cores, which bounds it at 12 cycles per joint there) and sums with
//! separate `mulps` / `addps`. The successor computes the result's rows 0 and
//! 1 together in one 8-lane `ymm` register. Each row `k` of the parent and
//! of the child is loaded once into both 128-bit halves with
//! `vbroadcastf128` (a load, no shuffle). The translation is subtracted from
//! the child's duplicated row as `(0, 0, 0, t_k)` made by a `vblendps` with
//! zero (not a shuffle). One `vpermilps` with the per-lane control `(0, 0,
//! 0, 0 | 1, 1, 1, 1)` turns the parent's duplicated row `k` into `(b[k][0]
//! x4 | b[k][1] x4)`: the two scalars rows 0 and 1 of the result need, in
//! one shuffle. Row 2's scalars `b[k][2]` are one in-lane shuffle each. The
//! sums are a `vmulps` and two FMAs per register. Per joint: 6 shuffles (3
//! `vpermilps`, 3 `vshufps`), 6 multiply-adds, 3 blends, 3 subtractions, 2
//! stores, against the listing's 12 `pshufd`, 9 `mulps`, 6 `addps`, 3
//! `subps`, 3 `movss` and 3 stores. The control is read once per call with a
//! volatile load: with a constant control LLVM rewrites the `vpermilps`
//! into a `vshufps` and a lane-crossing `vpermpd` (two shuffles, measured
//! 1.3 times slower). The iterations are independent (each parent is read
//! before it is itself untransformed), so the loop is a plain counted one,
//! one joint per iteration as in the listing, with no tail. The kernel
//! touches exactly the bytes the listing touches: the 48 bytes of each
//! joint of the range and of its parent, and `parents[first..=last]`.
//!
//! **Listing behaviours.** Kept: the order (last joint first, parents read
//! while still global), the translation subtracted before the products
//! (`Rp^T (a - tp)`, not `Rp^T a - Rp^T tp`: no cancellation between two
//! rotated translations), the rigid inverse (the transpose, exact only for
//! orthonormal parents, as the paper assumes), `-0.0` kept (the translation
//! is subtracted as `(0, 0, 0, t)` and `x - (+0.0) == x`; the listing has no
//! erratum here), the empty range (`first > last`, signed) reads and writes
//! nothing. Changed: the roundings of the sums, `fma(b2, a2, fma(b1, a1, b0
//! a0))` with one rounding per FMA instead of the C's rounding per product
//! and per sum, so results differ from the C and the listing in the last
//! bits (within the same bounds against the f64 oracle). NaN and infinite
//! inputs give NaN and infinite outputs in the same places as the C, except
//! where the C's rounded products overflow to infinity and the FMA's exact
//! ones do not.

use crate::types::JointMat;
use core::arch::x86_64::*;

/// Floats per joint matrix (`JOINTMAT_SIZE / 4`).
const FLOATS: isize = 12;

/// The `vpermilps` control that takes element 0 of the low 128-bit lane
/// into all four low lanes and element 1 of the high lane into all four
/// high lanes: `(b[k][0] x4 | b[k][1] x4)` from the parent's row `k` in both
/// halves.
static SPREAD_01: [i32; 8] = [0, 0, 0, 0, 1, 1, 1, 1];

/// `UntransformSkeleton` for AVX2 + FMA: for `i` from `last_joint` down to
/// `first_joint`, `jointMats[i] = Rp^T (jointMats[i] - tp)` with `[Rp | tp]
/// = jointMats[parents[i]]` (see the module documentation for what differs
/// from the listing). `first_joint > last_joint` (signed) reads and writes
/// nothing.
///
/// # Safety
///
/// If `first_joint <= last_joint`:
/// - the CPU supports AVX2 and FMA;
/// - `joint_mats` is 16-byte aligned (as [`JointMat`] is; the kernel needs
///   no more), `0 <= first_joint`, and `joint_mats.add(i)` is valid for
///   reads and writes of a [`JointMat`] for every `i` in
///   `first_joint..=last_joint`;
/// - `parents.add(i)` is readable for every such `i`, and `p = parents[i]`
///   is `0 <= p` with `joint_mats.add(p)` valid for reads; `isize` holds
///   `last_joint * 48` and `p * 48`.
///
/// The paper's semantics need `p < i` (parents first); `p == i` reads the
/// whole joint before it is written.
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    if first_joint > last_joint {
        return;
    }
    let base = joint_mats.cast::<f32>();
    let zero = _mm256_setzero_ps();
    // SAFETY: `SPREAD_01` is a static of 8 `i32`s, read whole (volatile, so
    // that LLVM keeps one `vpermilps` per row instead of two shuffles).
    let spread = unsafe { core::ptr::read_volatile(&SPREAD_01) };
    // SAFETY: `spread` is 32 bytes; the load is the unaligned form.
    let spread = unsafe { _mm256_loadu_si256(spread.as_ptr().cast()) };
    let first = first_joint as isize;
    let mut i = last_joint as isize;
    loop {
        // SAFETY: `first <= i <= last_joint`, so `parents[i]` is readable and
        // joint `i` and its parent `parents[i]` are joints of the array, each
        // 48 bytes valid (caller's contract); every access below stays inside
        // them, and the loads come before the stores. The `&__m128`
        // references are to rows of 16-byte-aligned joints, so aligned.
        unsafe {
            let p = parents.offset(i).read() as isize;
            let parent = base.offset(p * FLOATS).cast_const();
            let child = base.offset(i * FLOATS);
            let mut a = [zero; 3];
            let mut b01 = [zero; 3];
            let mut b2 = [_mm256_castps256_ps128(zero); 3];
            for k in 0..3 {
                // Row k of the parent and of the child, in both halves.
                let pk = _mm256_broadcast_ps(&*parent.add(4 * k).cast::<__m128>());
                let ak = _mm256_broadcast_ps(&*child.add(4 * k).cast::<__m128>());
                // a_k - (0, 0, 0, t_k): the listing's `subps`, first.
                a[k] = _mm256_sub_ps(ak, _mm256_blend_ps::<0x88>(zero, pk));
                // (b[k][0] x4 | b[k][1] x4) and b[k][2] x4.
                b01[k] = _mm256_permutevar_ps(pk, spread);
                b2[k] = _mm_permute_ps::<0xAA>(_mm256_castps256_ps128(pk));
            }
            // Rows 0 and 1: sum over k of b[k][r] * (a_k - t_k).
            let mut y = _mm256_mul_ps(b01[0], a[0]);
            y = _mm256_fmadd_ps(b01[1], a[1], y);
            y = _mm256_fmadd_ps(b01[2], a[2], y);
            // Row 2.
            let mut x = _mm_mul_ps(b2[0], _mm256_castps256_ps128(a[0]));
            x = _mm_fmadd_ps(b2[1], _mm256_castps256_ps128(a[1]), x);
            x = _mm_fmadd_ps(b2[2], _mm256_castps256_ps128(a[2]), x);
            _mm256_storeu_ps(child, y);
            _mm_storeu_ps(child.add(8), x);
        }
        if i == first {
            break;
        }
        i -= 1;
    }
}
