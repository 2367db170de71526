//! The successor of Appendix A for a core with AVX-512 (F, VL, DQ, BW)
//! (raw kernel only, not in the routine's table): `TransformSkeleton` with a
//! whole 3x4 joint matrix in one 512-bit register, with `core::arch::x86_64`
//! intrinsics. The same algorithm and contract as the listing and
//! [`super::avx2`]: for `i` in `firstJoint..=lastJoint`, in order,
//! `jointMats[i] = jointMats[parents[i]] * jointMats[i]` (parent times
//! child, 3x4 row-major affine matrices), in place, one joint per
//! iteration, parents before children.
//!
//! **What the form is.** A joint's twelve floats are the low twelve lanes of
//! a `zmm` register (row `r` in 128-bit lane `r`, lane 3 unused): the
//! parent is a 32-byte load of rows 0 and 1 and a `vinsertf32x4` of row 2
//! from memory, and the result is stored the same way, a 32-byte store and
//! a `vextractf32x4` of row 2 to memory, so nothing outside the two joints'
//! 48 bytes is touched. The child's rows `a_k` are each loaded into every
//! 128-bit lane by `vbroadcastf32x4` from memory
//! (`_mm512_broadcast_f32x4`: the load ports, no shuffle). The parent's
//! scalars `b[r][k]`, which row `r` of the result needs in its lane, are one
//! in-lane `vpermilps` each (`_mm512_permutevar_ps` with the control
//! `k k k k` in every lane, `SPREAD`): row `r` of the parent is already in
//! lane `r`. Each joint is then one `vmulps`, two FMAs and one `vaddps` of
//! the parent blended into `(-0.0, -0.0, -0.0, t)` per row (a mask blend,
//! `_mm512_mask_blend_ps` with mask `0x0888`: no shuffle).
//!
//! **What changed from `Avx2`, and why.** [`super::avx2`] computes rows 0 and
//! 1 in a `ymm` register and row 2 in an `xmm` one: per joint 3 `vpermilps`,
//! 3 `vbroadcastss` and 3 `vbroadcastf128` loads, 2 `vmulps`, 4 FMAs, 2
//! `vaddps`, 2 blends and 2 stores. With sixteen lanes the three rows are
//! one register: 3 `vpermilps`, 1 insert, 3 `vbroadcastf32x4` loads, 1
//! `vmulps`, 2 FMAs, 1 `vaddps`, 1 blend and 2 stores, half the arithmetic.
//! Three things the brief suggested were measured and dropped (Intel Xeon,
//! `asm_notes/transform_skeleton.md`, "Successor: Impl::Avx512"): a masked
//! 12-lane store and load (`_mm512_mask_storeu_ps` /
//! `_mm512_maskz_loadu_ps`) made the form four to six times slower than
//! `Avx2` (29.7 to 31.5 against 4.7 to 8.1 ticks per joint at 1024 random
//! joints: a load does not take its data from an earlier masked store, it
//! waits for the store to complete); the
//! lane-crossing `vpermps` (or the `vpermt2ps` LLVM makes of constant
//! controls, hence the volatile read of `SPREAD`) puts three cycles
//! instead of one on that chain; row 2 merged by masked broadcasts was
//! slower still. The serial dependency stays: one joint per iteration, as
//! the listing's; no tail.
//!
//! **Not in the routine's table.** The chain bounds the routine (a child
//! whose parent was just written waits for the parent's store, then for
//! the product's four dependent operations), and halving the instructions
//! does not shorten it: measured on an Intel Xeon with AVX-512 (TSC ticks
//! per joint, interleaved, median) the form was 4.4 against `Avx2`'s 4.6 at
//! 1024 joints of a random skeleton, but 14.0 to 14.6 against 13.6 on the
//! Fox's skeleton and 20.4 to 20.8 against 19.4 on a 1024-joint chain (the
//! `vinsertf32x4` on the chain). So there is no `Impl::Avx512` for the
//! routine; the raw kernel is public, and `tests/transform_skeleton.rs`
//! runs it wherever the CPU has AVX-512 through every successor check.
//!
//! **The one answer.** The form has no estimate instruction. Every element is
//! [`super::portable::transform_joint`]'s `((b[r][0] a[0][c] ⊕fma b[r][1]
//! a[1][c]) ⊕fma b[r][2] a[2][c]) + (c == 3 ? b[r][3] : -0.0)`: the same
//! product, the same two fused multiply-adds with the same operands in the
//! same order and the same final addition, lane by lane; so every joint is
//! `Impl::Portable`'s bits on every CPU (NaN bits aside; `tests/golden.rs`).
//! The listing behaviours kept and corrected are `Avx2`'s (see
//! [`super::avx2`]): the order, erratum E1 corrected (`x + (-0.0) == x`, the
//! C's signed zeros survive), the empty range reads and writes nothing, no
//! validation (the safe function does it).

use crate::consts::IEEE_SP_SIGN;
use crate::types::JointMat;
use core::arch::x86_64::*;

/// Floats per joint matrix (`JOINTMAT_SIZE / 4`).
const FLOATS: isize = 12;

/// The in-lane `vpermilps` controls that spread element `k` (`k` = 0, 1, 2)
/// of each 128-bit lane over the lane: `(b[0][k] x4 | b[1][k] x4 | b[2][k]
/// x4 | -)` from the parent (row `r` in lane `r`).
static SPREAD: [[i32; 16]; 3] = [[0; 16], [1; 16], [2; 16]];

/// The translation lanes of the three rows (lane 3 of each row).
const TRANSLATION: __mmask16 = 0x0888;

/// `TransformSkeleton` for AVX-512: for `i` from `first_joint` to
/// `last_joint`, in order, `jointMats[i] = jointMats[parents[i]] *
/// jointMats[i]` (see the module documentation). `first_joint > last_joint`
/// (signed) reads and writes nothing.
///
/// # Safety
///
/// If `first_joint <= last_joint`:
/// - the CPU supports AVX-512 F, VL, DQ and BW;
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
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    if first_joint > last_joint {
        return;
    }
    let base = joint_mats.cast::<f32>();
    // (-0.0, ..., -0.0): what the rotation lanes add instead of the
    // translation (`x + (-0.0) == x`, signed zeros included).
    let neg_zero = _mm512_castsi512_ps(_mm512_set1_epi32(IEEE_SP_SIGN as i32));
    // SAFETY: `SPREAD` is a static of 3 x 16 `i32`s, read whole (volatile,
    // so that LLVM keeps one in-lane `vpermilps` per column instead of
    // folding the parent's two loads into lane-crossing `vpermt2ps`).
    let spread = unsafe { core::ptr::read_volatile(&SPREAD) };
    // SAFETY: each row of `spread` is 64 bytes; the loads are the unaligned
    // form.
    let spread: [__m512i; 3] = core::array::from_fn(|k| unsafe { _mm512_loadu_si512(spread[k].as_ptr().cast()) });
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
        // its 48 bytes and joint `i`'s are valid (caller's contract). Every
        // load (the broadcasts of the child's rows, the parent's 32 + 16
        // bytes) and store (the child's 32 + 16 bytes) stays inside those
        // 2 x 48 bytes, and the loads come before the stores. The 16-byte
        // reads and writes are of rows of 16-byte-aligned joints, so
        // aligned; the 32-byte accesses are the unaligned forms.
        unsafe {
            let p = parent_index.read() as isize;
            let parent = base.offset(p * FLOATS).cast_const();
            // The child's rows, each in all four 128-bit lanes.
            let a0 = _mm512_broadcast_f32x4(child.cast::<__m128>().read());
            let a1 = _mm512_broadcast_f32x4(child.add(4).cast::<__m128>().read());
            let a2 = _mm512_broadcast_f32x4(child.add(8).cast::<__m128>().read());
            // The parent: row r in lane r.
            let b = _mm512_insertf32x4::<2>(
                _mm512_castps256_ps512(_mm256_loadu_ps(parent)),
                parent.add(8).cast::<__m128>().read(),
            );
            let t = _mm512_mask_blend_ps(TRANSLATION, neg_zero, b);
            let mut y = _mm512_mul_ps(_mm512_permutevar_ps(b, spread[0]), a0);
            y = _mm512_fmadd_ps(_mm512_permutevar_ps(b, spread[1]), a1, y);
            y = _mm512_fmadd_ps(_mm512_permutevar_ps(b, spread[2]), a2, y);
            y = _mm512_add_ps(y, t);
            _mm256_storeu_ps(child, _mm512_castps512_ps256(y));
            child.add(8).cast::<__m128>().write(_mm512_extractf32x4_ps::<2>(y));
            if child == last {
                break;
            }
            child = child.offset(FLOATS);
            parent_index = parent_index.add(1);
        }
    }
}
