//! The successor of Appendix B for a core with AVX-512 (F, VL, DQ, BW)
//! (raw kernel only, not in the routine's table): `UntransformSkeleton` with
//! a whole 3x4 joint matrix in one 512-bit register, with `core::arch::x86_64` intrinsics. The same
//! algorithm and contract as the listing and [`super::avx2`]: for `i` from
//! `lastJoint` down to `firstJoint`, `jointMats[i] = Rp^T (jointMats[i] -
//! tp)` with `[Rp | tp] = jointMats[parents[i]]`, in place, one joint per
//! iteration, last joint first so that every parent is still global when its
//! children read it.
//!
//! **What the form is.** The result's twelve floats are the low twelve lanes
//! of a `zmm` register (row `r` in 128-bit lane `r`, lane 3 unused), written
//! by one masked 12-lane store (`_mm512_mask_storeu_ps`, mask `0x0FFF`), so
//! nothing outside the joint's 48 bytes is written. Row `k` of the child and
//! row `k` of the parent are each loaded into every 128-bit lane by
//! `vbroadcastf32x4` from memory (`_mm512_broadcast_f32x4`: the load ports,
//! no shuffle). The translation is subtracted from the child's row as `(0,
//! 0, 0, t_k)`, the parent's row blended with zero under a mask (mask
//! `0x8888`: no shuffle). One in-lane `vpermilps` with the per-lane control
//! `(0 x4 | 1 x4 | 2 x4 | -)` turns the parent's row `k` into `(b[k][0] x4 |
//! b[k][1] x4 | b[k][2] x4)`: the scalars the three rows of the result need,
//! each in its row's lane, in one shuffle. The sums are a `vmulps` and two
//! FMAs for the whole matrix.
//!
//! **What changed from `Avx2`, and why.** [`super::avx2`] computes rows 0 and
//! 1 in a `ymm` register and row 2 in an `xmm` one: per joint 3 `vpermilps`
//! and 3 `vshufps` (six shuffles), 2 `vmulps` and 4 FMAs, 3 blends, 3
//! subtractions and 2 stores. With sixteen lanes: 3 `vpermilps` (three
//! shuffles, half), 1 `vmulps` and 2 FMAs, 3 mask blends, 3 subtractions
//! and 1 masked store. The brief's `vpermps` (a lane-crossing permute of the
//! parent from a masked load) would cost the same number of shuffles with
//! three times the latency, and the subtraction would need the child's rows
//! broadcast anyway; the in-lane `vpermilps` of the broadcast row is the
//! cheaper way. The control is read once per call with a volatile load, as
//! in [`super::avx2`], so that LLVM keeps one `vpermilps` per row. The
//! iterations are independent (each parent is read before it is itself
//! untransformed): one joint per iteration as in the listing, no tail.
//!
//! **Not in the routine's table.** The routine walks last to first, so no
//! parent it reads has been written: there is no chain, and `Avx2` is at
//! the memory floor already. Measured on an Intel Xeon with AVX-512 (TSC
//! ticks per joint, interleaved, median, two runs; 2 vCPUs shared with
//! other jobs) the form was no faster: 9.8 and 10.1 against `Avx2`'s 9.7 and
//! 9.8 at 1024 joints (floor 8.5 and 8.6), 14.1 and 14.6 against 14.0 and
//! 14.6 on the Fox's skeleton, and slower at 65536 joints (19.0 and 18.6
//! against 16.9 and 16.6); with a 32 + 16-byte store instead of the masked
//! one, the same. So there is no `Impl::Avx512` for the routine; the raw
//! kernel is public, and `tests/untransform_skeleton.rs` runs it wherever
//! the CPU has AVX-512 through every successor check.
//!
//! **The one answer.** The form has no estimate instruction. Every element is
//! [`super::portable::untransform_joint`]'s `d[k][c] = a[k][c] - (c == 3 ?
//! b[k][3] : +0.0)`, `s = b[0][r] d[0][c]`, `s = fma(b[1][r], d[1][c], s)`,
//! `out[r][c] = fma(b[2][r], d[2][c], s)`: the same subtraction, product and
//! fused multiply-adds with the same operands in the same order, lane by
//! lane; so every joint is `Impl::Portable`'s bits on every CPU (NaN bits
//! aside; `tests/golden.rs`). The listing behaviours kept are `Avx2`'s (see
//! [`super::avx2`]): the order, the translation subtracted first, the rigid
//! inverse, `-0.0` kept (`x - (+0.0) == x`), the empty range reads and writes
//! nothing.

use crate::types::JointMat;
use core::arch::x86_64::*;

/// Floats per joint matrix (`JOINTMAT_SIZE / 4`).
const FLOATS: isize = 12;

/// The twelve lanes of a joint matrix (rows 0, 1, 2 in 128-bit lanes 0, 1, 2).
const JOINT: __mmask16 = 0x0FFF;

/// The translation lane of every 128-bit lane.
const TRANSLATION: __mmask16 = 0x8888;

/// The `vpermilps` control that spreads element `r` of each 128-bit lane's
/// row over lane `r` (`r` = 0, 1, 2; lane 3 unused): `(b[k][0] x4 | b[k][1]
/// x4 | b[k][2] x4 | b[k][0] x4)` from the parent's row `k` in every lane.
static SPREAD: [i32; 16] = [0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 0, 0, 0, 0];

/// `UntransformSkeleton` for AVX-512: for `i` from `last_joint` down to
/// `first_joint`, `jointMats[i] = Rp^T (jointMats[i] - tp)` with `[Rp | tp]
/// = jointMats[parents[i]]` (see the module documentation).
/// `first_joint > last_joint` (signed) reads and writes nothing.
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
/// The paper's semantics need `p < i` (parents first); `p == i` reads the
/// whole joint before it is written.
#[inline(never)]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    if first_joint > last_joint {
        return;
    }
    let base = joint_mats.cast::<f32>();
    let zero = _mm512_setzero_ps();
    // SAFETY: `SPREAD` is a static of 16 `i32`s, read whole (volatile, so
    // that LLVM keeps one `vpermilps` per row).
    let spread = unsafe { core::ptr::read_volatile(&SPREAD) };
    // SAFETY: `spread` is 64 bytes; the load is the unaligned form.
    let spread = unsafe { _mm512_loadu_si512(spread.as_ptr().cast()) };
    let first = first_joint as isize;
    let mut i = last_joint as isize;
    loop {
        // SAFETY: `first <= i <= last_joint`, so `parents[i]` is readable and
        // joint `i` and its parent `parents[i]` are joints of the array, each
        // 48 bytes valid (caller's contract); the broadcasts read one 16-byte
        // row of either, the masked store writes only the twelve lanes of
        // `JOINT` (a masked access does not fault on the others), and the
        // loads come before the store. The rows are of 16-byte-aligned
        // joints, so the `__m128` reads are aligned.
        unsafe {
            let p = parents.offset(i).read() as isize;
            let parent = base.offset(p * FLOATS).cast_const();
            let child = base.offset(i * FLOATS);
            let mut d = [zero; 3];
            let mut b = [zero; 3];
            for k in 0..3 {
                // Row k of the parent and of the child, in every lane.
                let pk = _mm512_broadcast_f32x4(parent.add(4 * k).cast::<__m128>().read());
                let ak = _mm512_broadcast_f32x4(child.add(4 * k).cast::<__m128>().read());
                // a_k - (0, 0, 0, t_k): the listing's `subps`, first.
                d[k] = _mm512_sub_ps(ak, _mm512_mask_blend_ps(TRANSLATION, zero, pk));
                // (b[k][0] x4 | b[k][1] x4 | b[k][2] x4 | -).
                b[k] = _mm512_permutevar_ps(pk, spread);
            }
            let mut y = _mm512_mul_ps(b[0], d[0]);
            y = _mm512_fmadd_ps(b[1], d[1], y);
            y = _mm512_fmadd_ps(b[2], d[2], y);
            _mm512_mask_storeu_ps(child, JOINT, y);
        }
        if i == first {
            break;
        }
        i -= 1;
    }
}
