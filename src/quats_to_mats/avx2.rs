//! The successor of Appendix A (`ConvertJointQuatsToJointMats`) for a core
//! with AVX2 and FMA: eight joints per iteration in
//! structure-of-arrays form, with `core::arch::x86_64` intrinsics.
//!
//! **What the form is.** Each iteration loads eight [`JointQuat`]s as four
//! pairs (`[q_2k | q_2k+1]` and `[t_2k | t_2k+1]`, each a 256-bit load of
//! one joint blended with a 128-bit broadcast of the other's half: no
//! shuffle uop), transposes them in-lane into eight-lane
//! vectors `x y z w` and `tx ty tz` (lanes 0-3 hold the even joints, lanes
//! 4-7 the odd ones), computes the nine rotation elements of section 3's
//! matrix `M` with three products and nine fused multiply-adds, transposes
//! the twelve result vectors back in-lane (row `r` of joints `2k` and `2k+1`
//! in one register) and writes each pair of matrices (96 bytes) with three
//! unaligned 256-bit stores, the halves put together with `vblendps`: row 1
//! is computed with its two 128-bit halves swapped (one `vperm2f128` per
//! vector), so that `[r0_a | r1_a]`, `[r2_a | r0_b]` and `[r1_b | r2_b]` are
//! blends of the transposed rows rather than lane-crossing shuffles. A tail
//! of 1 to 7 joints goes through the same block on a stack copy (the
//! quaternions copied in, zero-padded, the matrices copied out): no
//! one-at-a-time loop and no access outside the two lists.
//!
//! **What changed from the 2005 listing, and why.** The listing converts
//! one joint per iteration with ten shuffles (four `pshufd`, four `shufps`,
//! `movhlps`, a register `movss`) for three multiplies and four additions:
//! on a modern core those shuffles all queue on the shuffle port(s) and set
//! its speed (the note's llvm-mca figures: port 5 full on Skylake), and two
//! 4-byte stores per joint overwrite lane 3 after the row store. Eight lanes
//! make the arithmetic nearly free (17 vector operations for eight joints);
//! what remains is the change of layout, 43 shuffles per eight joints (5.4 per
//! joint, half the listing's) plus 12 blends, which run on any vector ALU
//! pipe. FMA fuses each product into its sum: `xy2 + wz2` is `fma(x, y2,
//! wz2)` and the diagonal `(1 - zz2) - yy2` is two `vfnmadd`, two roundings
//! where the listing has three, so the successor is at least as accurate.
//!
//! **Listing behaviours kept and corrected** (`asm_notes/quats_to_mats.md`,
//! "Successor: Impl::Avx2"; each is tested in `tests/quats_to_mats.rs`,
//! `mod successor`):
//! - kept: section 3's matrix `M` (the transpose of the column-vector
//!   matrix), no normalisation of the quaternion, `t.w` never stored, the
//!   translation copied bit for bit (NaN payloads included: it only goes
//!   through shuffles and blends);
//! - kept: E4's summation order of `m[0][0] = (1 - zz2) - yy2` and
//!   `m[1][1] = (1 - zz2) - xx2` (now fused); `m[2][2]` is `(1 - yy2) - xx2`
//!   (fused), where the listing sums `(1 - xx2) - yy2`;
//! - corrected: E6 (the 32-bit count arithmetic): the count is a `usize`, a
//!   `num_joints <= 0` converts nothing as the C's `for`;
//! - changed: the products are fused (one rounding fewer per element), so
//!   the off-diagonal elements are no longer bit-identical to the C's; the
//!   listing's double store of `m[0][3]` ("not errata, but worth knowing")
//!   is gone.
//!
//! E1 to E3 and E5 are about the listing's text (undefined macros, a
//! comment) and do not apply.
//!
//! **The one answer.** The form has no estimate instruction, each product
//! is fused exactly where [`super::portable`] writes it out, and the tail
//! goes through the same block, so every joint's matrix is
//! `Impl::Portable`'s and `Impl::Neon`'s bit for bit, on every CPU (NaN
//! bits aside; `tests/golden.rs`). It needed no change for that.
//!
//! Constants: `1.0` is `SIMD_SP_one` (`crate::consts::SIMD_SP_ONE`),
//! broadcast to eight lanes.

use crate::types::{JointMat, JointQuat};
use crate::x86::blocks8::{by_blocks_of_8, transpose_lane4};
use core::arch::x86_64::*;

/// `ConvertJointQuatsToJointMats` for AVX2 and FMA: writes section 3's matrix
/// of `joint_quats[i]` into `joint_mats[i]` for `i` in `0..num_joints`, eight
/// joints per iteration, the last 1 to 7 through a zero-padded stack block.
/// A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// The CPU must support AVX2 and FMA. If `num_joints > 0`: `joint_quats` is
/// valid for reads of `num_joints` [`JointQuat`] and `joint_mats` for writes
/// of `num_joints` [`JointMat`], both aligned for their types (16 bytes; no
/// more is needed), and the two lists do not overlap.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    // SAFETY: `num_joints.max(0)` elements of both lists are valid, aligned
    // and do not overlap (caller's contract); `block` converts eight.
    unsafe { by_blocks_of_8(joint_mats, joint_quats, num_joints.max(0) as usize, block) }
}

/// Swaps the two 128-bit halves.
#[inline]
#[target_feature(enable = "avx2,fma")]
fn swap_halves(v: __m256) -> __m256 {
    _mm256_permute2f128_ps::<0x01>(v, v)
}

/// Eight joints: `mats[0..8]` from `quats[0..8]`.
///
/// # Safety
///
/// AVX2 and FMA; `quats` valid for reads of eight [`JointQuat`], `mats` for
/// writes of eight [`JointMat`], not overlapping.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn block(mats: *mut JointMat, quats: *const JointQuat) {
    // SAFETY: the caller's contract is `load`'s and `store`'s.
    unsafe {
        let ([x, y, z, w], [tx, ty, tz, _]) = load(quats);
        store(mats, &rotation(x, y, z, w), [tx, ty, tz]);
    }
}

/// Eight joints' `q` and `t` as SoA registers (`[x, y, z, w]`,
/// `[tx, ty, tz, tw]`), lanes 0-3 holding joints 0, 2, 4, 6 and lanes 4-7
/// joints 1, 3, 5, 7: the layout [`rotation`] and [`store`] take.
///
/// # Safety
///
/// AVX2 and FMA; `quats` valid for reads of eight [`JointQuat`] (16-byte
/// aligned, as the type is).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn load(quats: *const JointQuat) -> ([__m256; 4], [__m256; 4]) {
    let qf = quats.cast::<f32>();
    // Joints a = 2k and b = 2k + 1 are two 32-byte runs `[q_a | t_a]` and
    // `[q_b | t_b]`: `[q_a | q_b]` and `[t_a | t_b]` are each a 32-byte load
    // blended (`vblendps`, any FP pipe) with a 16-byte broadcast of the
    // other joint's half. No shuffle uop on the load side.
    // SAFETY: floats `16k..16k + 16` are joints 2k and 2k + 1, inside the
    // eight (caller); `loadu` takes any alignment, and the broadcast sources
    // (`q_b` at float `16k + 8`, `t_a` at `16k + 4`) are 16-byte aligned
    // because `JointQuat` is (caller's contract).
    let (qp, tp): ([__m256; 4], [__m256; 4]) = unsafe {
        (
            core::array::from_fn(|k| {
                _mm256_blend_ps::<0xF0>(
                    _mm256_loadu_ps(qf.add(16 * k)),
                    _mm256_broadcast_ps(&*qf.add(16 * k + 8).cast::<__m128>()),
                )
            }),
            core::array::from_fn(|k| {
                _mm256_blend_ps::<0x0F>(
                    _mm256_loadu_ps(qf.add(16 * k + 8)),
                    _mm256_broadcast_ps(&*qf.add(16 * k + 4).cast::<__m128>()),
                )
            }),
        )
    };
    // Lanes 0-3: joints 0, 2, 4, 6; lanes 4-7: joints 1, 3, 5, 7.
    (transpose_lane4(qp[0], qp[1], qp[2], qp[3]), transpose_lane4(tp[0], tp[1], tp[2], tp[3]))
}

/// Section 3's `M` of the SoA quaternions `(x, y, z, w)`, fused as the
/// module documentation writes it: `[m00, m01, m02, m10, m11, m12, m20,
/// m21, m22]`.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn rotation(x: __m256, y: __m256, z: __m256, w: __m256) -> [__m256; 9] {
    let one = _mm256_set1_ps(1.0);
    let x2 = _mm256_add_ps(x, x);
    let y2 = _mm256_add_ps(y, y);
    let z2 = _mm256_add_ps(z, z);
    let wx2 = _mm256_mul_ps(w, x2);
    let wy2 = _mm256_mul_ps(w, y2);
    let wz2 = _mm256_mul_ps(w, z2);
    let one_zz2 = _mm256_fnmadd_ps(z, z2, one); // 1 - zz2
    let one_yy2 = _mm256_fnmadd_ps(y, y2, one); // 1 - yy2
    [
        _mm256_fnmadd_ps(y, y2, one_zz2), // m00 = (1 - zz2) - yy2
        _mm256_fmadd_ps(x, y2, wz2),      // m01 =      xy2 + wz2
        _mm256_fmsub_ps(x, z2, wy2),      // m02 =      xz2 - wy2
        _mm256_fmsub_ps(x, y2, wz2),      // m10 =      xy2 - wz2
        _mm256_fnmadd_ps(x, x2, one_zz2), // m11 = (1 - zz2) - xx2
        _mm256_fmadd_ps(y, z2, wx2),      // m12 =      yz2 + wx2
        _mm256_fmadd_ps(x, z2, wy2),      // m20 =      xz2 + wy2
        _mm256_fmsub_ps(y, z2, wx2),      // m21 =      yz2 - wx2
        _mm256_fnmadd_ps(x, x2, one_yy2), // m22 = (1 - yy2) - xx2
    ]
}

/// Stores eight matrices from the SoA rotation `m` (as [`rotation`] gives
/// it) and translation `t`, in [`load`]'s lane layout.
///
/// # Safety
///
/// AVX2 and FMA; `mats` valid for writes of eight [`JointMat`].
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn store(mats: *mut JointMat, m: &[__m256; 9], t: [__m256; 3]) {
    // Row r of joints 2k (low half) and 2k + 1 (high half) in o_r[k]; row 1
    // with its halves swapped.
    let o0 = transpose_lane4(m[0], m[1], m[2], t[0]);
    let o1 = transpose_lane4(swap_halves(m[3]), swap_halves(m[4]), swap_halves(m[5]), swap_halves(t[1]));
    let o2 = transpose_lane4(m[6], m[7], m[8], t[2]);

    let out = mats.cast::<f32>();
    for k in 0..4 {
        // o0 = [r0_a | r0_b], o1 = [r1_b | r1_a], o2 = [r2_a | r2_b] for the
        // joints a = 2k, b = 2k + 1, whose 24 floats are contiguous.
        let s0 = _mm256_blend_ps::<0xF0>(o0[k], o1[k]); // r0_a | r1_a
        let s1 = _mm256_blend_ps::<0xF0>(o2[k], o0[k]); // r2_a | r0_b
        let s2 = _mm256_blend_ps::<0xF0>(o1[k], o2[k]); // r1_b | r2_b
        // SAFETY: floats `24k..24k + 24` are matrices 2k and 2k + 1, inside
        // the eight (caller); `storeu` takes any alignment.
        unsafe {
            _mm256_storeu_ps(out.add(24 * k), s0);
            _mm256_storeu_ps(out.add(24 * k + 8), s1);
            _mm256_storeu_ps(out.add(24 * k + 16), s2);
        }
    }
}
