//! The successor of Appendix A (`Impl::Avx2`): `TransformSkeleton` as it
//! would be written for an AVX2 + FMA core, with `core::arch::x86_64`
//! intrinsics. The same algorithm and contract as the listing: for `i` in
//! `firstJoint..=lastJoint`, in order,
//! `jointMats[i] = jointMats[parents[i]] * jointMats[i]` (parent times
//! child, 3x4 row-major affine matrices), in place, one joint per
//! iteration, parents before children.
//!
//! **What changed from the 2005 listing, and why.** The listing spreads each
//! of the parent's nine rotation scalars over an `xmm` register with
//! `pshufd` (nine shuffles per joint, all on the one shuffle port of the
//! Intel cores of its time and of Skylake-derived ones), multiplies and adds
//! in separate `mulps` / `addps` (two roundings and two instructions per
//! term) and works on one 4-lane row at a time. The successor computes the
//! result's rows 0 and 1 together in one 8-lane `ymm` register: the parent's
//! rows 0 and 1 are one 32-byte load, and one in-lane `vpermilps` (`vshufps`)
//! per column `k` gives `(b[0][k] x4 | b[1][k] x4)`, so six broadcasts cost
//! three shuffles; the child's rows are duplicated into both halves by
//! `vbroadcastf128` loads (load ports, no shuffle); row 2 takes its three
//! scalars with `vbroadcastss` from memory (load ports). Each result row is
//! one `vmulps` and two FMAs, `fma(b[r][2], a2, fma(b[r][1], a1, b[r][0]
//! a0))`, then one `vaddps` of the parent's row blended into `(-0.0, -0.0,
//! -0.0, t)` (`vblendps` with a sign-bit vector, [`IEEE_SP_SIGN`]) instead
//! of the listing's `andps SIMD_SP_clearFirstThree` + `addps`. The
//! translation is added last, as in the C: a parent's translation is a
//! global one (tens to hundreds of units), and starting the FMA chain from it
//! (one instruction less per register, 2% faster) rounds every partial sum
//! at its magnitude; measured against the f64 oracle that was up to 3 times
//! the listing's translation error on a 64-joint chain, and it is below the
//! listing's with the translation last. Per joint: 2 `vmulps`, 4 FMAs, 2
//! `vaddps`, 3 `vpermilps`, 3 `vbroadcastf128` and 3 `vbroadcastss` (loads),
//! 2 blends, 2 stores, against the listing's 9 `pshufd`, 9 `mulps`, 9
//! `addps`, 3 `andps` and 3 stores. The loop is a
//! counted pointer loop (no tail: one joint is one iteration, as in the
//! listing, and the serial parent-to-child dependency leaves nothing to
//! batch). The loads are unaligned (`JointMat` is only 16-byte aligned and a
//! 32-byte load may cross a cache line), and the kernel touches exactly the
//! bytes the listing touches: the 48 bytes of each joint of the range and of
//! its parent, and `parents[first..=last]`.
//!
//! **Listing behaviours.** Kept: the order (parents first, a parent read as
//! it is when its child is transformed, so the chain through a just-stored
//! parent stays; the store of the parent's rows 0 and 1 is one 32-byte store
//! that the child's 32-byte load forwards from), the empty range (`first >
//! last`, signed) reads and writes nothing, no validation (the safe function
//! does it). Corrected: erratum E1 of `asm_notes/transform_skeleton.md`:
//! the listing adds `(0, 0, 0, t)` to every row, turning a `-0.0` in the
//! rotation into `+0.0` (and the changed sign carries on to the children);
//! the successor adds `(-0.0, -0.0, -0.0, t)`, and `x + (-0.0) == x` for
//! every `x`, `-0.0` included, so the C's signed zeros survive. Changed: the roundings. Each element is `((b0 a0 + b1 a1) + b2
//! a2) + t` in the C's order, but with the second and third products fused
//! into their sums (two roundings fewer), so results differ from the C and
//! the listing in the last bits (within the same bounds against the f64
//! oracle, and closer on average). NaN and infinite
//! inputs give NaN and infinite outputs in the same places as the C, except
//! where the C's rounded products overflow to infinity and the FMA's exact
//! ones do not.

use crate::consts::IEEE_SP_SIGN;
use crate::types::JointMat;
use core::arch::x86_64::*;

/// Floats per joint matrix (`JOINTMAT_SIZE / 4`).
const FLOATS: isize = 12;

/// `TransformSkeleton` for AVX2 + FMA: for `i` from `first_joint` to
/// `last_joint`, in order, `jointMats[i] = jointMats[parents[i]] *
/// jointMats[i]` (see the module documentation for what differs from the
/// listing). `first_joint > last_joint` (signed) reads and writes nothing.
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
/// The paper's semantics need `p < i` (parents first); a later parent is
/// read as it is at that point, and `p == i` reads the whole joint before it
/// is written (the product of the joint with itself).
#[inline(never)]
#[target_feature(enable = "avx2,fma")]
pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    if first_joint > last_joint {
        return;
    }
    let base = joint_mats.cast::<f32>();
    // (-0.0, ..., -0.0): what the rotation lanes add instead of the
    // translation (`x + (-0.0) == x`, signed zeros included).
    let neg_zero = _mm256_castsi256_ps(_mm256_set1_epi32(IEEE_SP_SIGN as i32));
    // SAFETY: `first_joint` and `last_joint` are joints of the array
    // (caller's contract), so these are pointers into it.
    let (mut child, last, mut parent_index) = unsafe {
        (
            base.offset(first_joint as isize * FLOATS),
            base.offset(last_joint as isize * FLOATS),
            parents.offset(first_joint as isize),
        )
    };
    loop {
        // SAFETY: `child` is joint `i` of the range and `parent_index` is
        // `&parents[i]` (they start at `first_joint` and advance together
        // until `child == last`); `parents[i]` is a joint of the array, so
        // its 48 bytes and joint `i`'s are valid and 16-byte aligned
        // (caller's contract): `compose`'s contract, on a CPU with AVX2 and
        // FMA.
        unsafe {
            let parent = base.offset(parent_index.read() as isize * FLOATS).cast_const();
            compose(child, parent, neg_zero);
            if child == last {
                break;
            }
            child = child.offset(FLOATS);
            parent_index = parent_index.add(1);
        }
    }
}

/// One joint of the chain: `child = parent * child` for the 3x4 matrices at
/// `child` and `parent` (rows 0 and 1 in one 8-lane chain, row 2 in a
/// 4-lane one; each FMA chain starts with a multiply and ends with the
/// translation added, `-0.0` in the rotation lanes), stored and returned
/// (`rows 0 | 1`, row 2). Every load comes before the stores. The one order
/// of operations of the successors (the whole pose's `Avx2` and `Avx512`
/// forms run it too, through [`child_rows`], [`compose_loaded`] and
/// [`compose_held`]).
///
/// # Safety
///
/// AVX2 and FMA; `child` valid for reads and writes of 12 floats, `parent`
/// for reads of 12, each 16-byte aligned; `parent == child` reads the whole
/// joint before it is written; `neg_zero` is `-0.0` in every lane.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn compose(child: *mut f32, parent: *const f32, neg_zero: __m256) -> (__m256, __m128) {
    // SAFETY: the caller's contract: both 48-byte matrices are valid and
    // 16-byte aligned (`child_rows`' and `compose_loaded`'s contracts); the
    // 32-byte store is the unaligned form; the loads come before the stores.
    unsafe {
        let a = child_rows(child, child.add(4), child.add(8));
        let (y, x) = compose_loaded(a, parent, neg_zero);
        _mm256_storeu_ps(child, y);
        _mm_storeu_ps(child.add(8), x);
        (y, x)
    }
}

/// The child's rows `r0`, `r1`, `r2`, each in both 128-bit halves
/// (`vbroadcastf128` loads: load ports, no shuffle): the child operand of
/// [`compose_loaded`] and [`compose_held`].
///
/// # Safety
///
/// AVX; each row valid for reads of 4 floats, 16-byte aligned.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn child_rows(r0: *const f32, r1: *const f32, r2: *const f32) -> [__m256; 3] {
    // SAFETY: the caller's contract: each row is 16 valid, aligned bytes.
    unsafe {
        [
            _mm256_broadcast_ps(&*r0.cast::<__m128>()),
            _mm256_broadcast_ps(&*r1.cast::<__m128>()),
            _mm256_broadcast_ps(&*r2.cast::<__m128>()),
        ]
    }
}

/// [`compose`]'s arithmetic on the child's rows `a` ([`child_rows`]) and the
/// parent's matrix in memory: rows 0 and 1 of the result from one 32-byte
/// load of the parent and three in-lane `vpermilps`, row 2 from three
/// `vbroadcastss` loads of the parent's row 2. Returns the result's rows
/// (`rows 0 | 1`, row 2) without storing them.
///
/// # Safety
///
/// AVX2 and FMA; `parent` valid for reads of 12 floats, 16-byte aligned;
/// `neg_zero` is `-0.0` in every lane.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn compose_loaded(a: [__m256; 3], parent: *const f32, neg_zero: __m256) -> (__m256, __m128) {
    let [a0, a1, a2] = a;
    // SAFETY: the caller's contract: the parent's 48 bytes are valid and
    // 16-byte aligned; the 32-byte load is the unaligned form.
    unsafe {
        // Rows 0 and 1 of the result: (row 0 | row 1).
        let p01 = _mm256_loadu_ps(parent);
        let t01 = _mm256_blend_ps::<0x88>(neg_zero, p01);
        let mut y = _mm256_mul_ps(_mm256_permute_ps::<0x00>(p01), a0);
        y = _mm256_fmadd_ps(_mm256_permute_ps::<0x55>(p01), a1, y);
        y = _mm256_fmadd_ps(_mm256_permute_ps::<0xAA>(p01), a2, y);
        y = _mm256_add_ps(y, t01);
        // Row 2.
        let row2 = parent.add(8);
        let t2 = _mm_blend_ps::<0x8>(_mm256_castps256_ps128(neg_zero), _mm_loadu_ps(row2));
        let mut x = _mm_mul_ps(_mm_broadcast_ss(&*row2), _mm256_castps256_ps128(a0));
        x = _mm_fmadd_ps(_mm_broadcast_ss(&*row2.add(1)), _mm256_castps256_ps128(a1), x);
        x = _mm_fmadd_ps(_mm_broadcast_ss(&*row2.add(2)), _mm256_castps256_ps128(a2), x);
        x = _mm_add_ps(x, t2);
        (y, x)
    }
}

/// [`compose`]'s arithmetic on the child's rows `a` ([`child_rows`]) with
/// the parent's rows in registers (`p01` = rows 0 and 1, `p2` = row 2, as a
/// 32-byte and a 16-byte load of the parent give them), its scalars spread
/// by in-lane `vpermilps`: the same operations on the same values, so the
/// same bits. Returns the result's rows (`rows 0 | 1`, row 2) without
/// storing them. The whole pose's fused forms take this path when a
/// joint's parent is the joint just composed, which they still hold: the
/// chain then skips the store-to-load round trip.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn compose_held(a: [__m256; 3], p01: __m256, p2: __m128, neg_zero: __m256) -> (__m256, __m128) {
    let [a0, a1, a2] = a;
    let t01 = _mm256_blend_ps::<0x88>(neg_zero, p01);
    let mut y = _mm256_mul_ps(_mm256_permute_ps::<0x00>(p01), a0);
    y = _mm256_fmadd_ps(_mm256_permute_ps::<0x55>(p01), a1, y);
    y = _mm256_fmadd_ps(_mm256_permute_ps::<0xAA>(p01), a2, y);
    let t2 = _mm_blend_ps::<0x8>(_mm256_castps256_ps128(neg_zero), p2);
    let mut x = _mm_mul_ps(_mm_permute_ps::<0x00>(p2), _mm256_castps256_ps128(a0));
    x = _mm_fmadd_ps(_mm_permute_ps::<0x55>(p2), _mm256_castps256_ps128(a1), x);
    x = _mm_fmadd_ps(_mm_permute_ps::<0xAA>(p2), _mm256_castps256_ps128(a2), x);
    (_mm256_add_ps(y, t01), _mm_add_ps(x, t2))
}
