//! The successor of Appendix B (`ConvertJointMatsToJointQuats`) for a core
//! with AVX2 and FMA: eight matrices per iteration, all of them in
//! structure-of-arrays form, branch-free, with `core::arch::x86_64`
//! intrinsics.
//!
//! **What the form is.** Each iteration loads the rows of eight
//! [`JointMat`]s as pairs `[row r of joint 2k | row r of joint 2k + 1]` (the pair's
//! 96 bytes are three 256-bit loads `[r0_a | r1_a]`, `[r2_a | r0_b]`,
//! `[r1_b | r2_b]`: rows 0 and 2 are one `vblendps` of two of them, row 1
//! a blend of two 128-bit broadcasts) and transposes them
//! in-lane into the twelve eight-lane vectors `m00 .. m22`, `tx ty tz`
//! (lanes 0-3: the even joints, lanes 4-7: the odd ones). It then runs the
//! blueprint of section 4 on all eight lanes at once: the case of each lane
//! (`w` if the trace is `>= 0`, else `x`, `y` or `z`, chosen as the listing
//! chooses) gives two mask bits, the sign multipliers `s0 s1 s2` are sign
//! bits derived from them, `t = (s0 m00 + s1 m11) + (s2 m22 + 1)`,
//! `s = 0.5 / sqrt(t)` (`vsqrtps`, `vdivps`: correctly rounded), `q[k0] = s t`,
//! `q[k1] = (m01 - s2 m10) s`, `q[k2] = (m20 - s1 m02) s`,
//! `q[k3] = (m12 - s0 m21) s`, and the store order `k0 .. k3` becomes two
//! layers of `vblendvps` (the case's permutation is `c -> c xor e` for the
//! case number `e`). Four in-lane transposes and lane-crossing
//! `vperm2f128` turn `x y z w` and `tx ty tz 0` back into eight
//! [`JointQuat`]s, stored with 256-bit unaligned stores. The full blocks
//! run as a two-stage software pipeline: the loads, transposes, case and
//! `t` of block `k + 1` (`front`) are issued before the square root,
//! division, blends and stores of block `k` (`back`), so that each block's
//! chain of about 60 cycles overlaps independent work (1.06-1.09x on an
//! AMD EPYC Zen 3). A tail of 1 to 7 joints goes through the same two
//! halves on a zero-padded stack copy (no one-at-a-time loop, no access
//! outside the lists).
//!
//! **What changed from the 2005 listing, and why.** The listing gathers the
//! diagonals one float at a time (30 instructions, 18 of them shuffles),
//! computes the case masks four wide, and then writes each joint with scalar
//! code through a byte table of store indices (`movzx` per component) and
//! rotates its registers a lane at a time (15 `shufps`): 33 shuffle uops per
//! four joints on one port, one dependency chain of about 64 cycles per
//! iteration, and 248 micro-ops per iteration, more than the reorder buffer
//! holds, so iterations barely overlap. The successor has no scalar part and
//! no store-index table: the blueprint's permutation is data (two blend
//! layers) instead of addresses, the off-diagonal sums are eight wide too,
//! and the eight joints' chains are independent. What remains is the change
//! of layout (in-lane `unpck` shuffles and four `vperm2f128` per eight
//! joints), and the arithmetic, about 45 vector operations for eight joints.
//!
//! **Listing behaviours kept and corrected** (`asm_notes/mats_to_quats.md`,
//! "Successor: Impl::Avx2"; each is tested in `tests/mats_to_quats.rs`,
//! `mod successor`):
//! - kept, E1: the comparisons are `>=` (`_CMP_NLT_UQ`, the listing's
//!   `cmpnltps`): a trace of exactly 0 takes `w`, ties take the earlier case;
//! - kept, E2: a NaN trace takes the `w` case (unordered compares are true);
//! - corrected, E3: the off-diagonal components are `(m01 - s2 m10) * s`,
//!   the C's order, so a zero difference gives `+0.0` (the identity matrix
//!   gives `(+0, +0, +0, 1)`) where the listing gives `-0.0`;
//! - kept, E4: `t` is summed in pairs, `(s0 m00 + s1 m11) + (s2 m22 + 1)`;
//! - changed (E5, E6): no reciprocal square root estimate and no
//!   Newton-Raphson step (not the C's `ReciprocalSqrt`, not the listing's
//!   `rsqrtps`, not section 4's snippet): `s = 0.5 / sqrt(t)`, the
//!   correctly rounded square root and division, the same bits on every
//!   CPU and more accurate than the listing (1.44e-7 against 2.17e-7 on
//!   100 000 rotations, Intel Xeon);
//! - kept: the translation copied bit for bit and `t.w = +0.0`;
//! - corrected: the 32-bit count arithmetic; `num_joints <= 0` converts
//!   nothing.
//!
//! **The one answer.** The form has no estimate instruction and no fused
//! operation, and its tail goes through the same block: each lane computes
//! the order of operations written out in [`super::portable`], so its
//! results are `Impl::Portable`'s and `Impl::Neon`'s bit for bit on every
//! CPU (NaN bits aside; `tests/golden.rs`). Before the deterministic
//! revision it took `s` from `vrsqrtps` and a fused Newton-Raphson step,
//! whose bits differ between Intel and AMD. `vsqrtps` and `vdivps` cost
//! nothing measurable here: the loop is bound by the operations on the FP
//! pipes and the divider works beside them (5.29 against 5.27 ticks per
//! joint at 1024 joints on an Intel Xeon; `asm_notes/mats_to_quats.md`).
//!
//! Constants: `0.5`, `SIMD_SP_one` and `SIMD_SP_signBit`, broadcast to
//! eight lanes.

use crate::types::{JointMat, JointQuat};
use crate::x86::blocks8::{BLOCK, by_blocks_of_8, transpose_lane4};
use core::arch::x86_64::*;

/// `ConvertJointMatsToJointQuats` for AVX2 and FMA: writes the quaternion of
/// the rotation part of `joint_mats[i]` (paper convention) and its
/// translation `(m03, m13, m23, 0)` into `joint_quats[i]` for `i` in
/// `0..num_joints`, eight joints per iteration, the last 1 to 7 through a
/// zero-padded stack block. A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// The CPU must support AVX2 and FMA. If `num_joints > 0`: `joint_mats` is
/// valid for reads of `num_joints` [`JointMat`] and `joint_quats` for writes
/// of `num_joints` [`JointQuat`], both aligned for their types, and the two
/// lists do not overlap.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    let n = num_joints.max(0) as usize;
    let full = n / BLOCK * BLOCK;
    // The full blocks as a two-stage software pipeline: block k + 1's
    // `front` (its loads, transposes, case and `t`) is issued before block
    // k's `back` (square root, division, blends, stores), so that the
    // latency of each block's chain overlaps the next block's independent
    // work (1.06-1.09x on an AMD EPYC Zen 3; `asm_notes/mats_to_quats.md`).
    // Block k + 1 is read before block k is written: the lists do not
    // overlap (caller's contract).
    if full > 0 {
        // SAFETY: blocks `0..full / 8` of both lists are valid, aligned and
        // do not overlap (caller's contract, `full <= num_joints`).
        unsafe {
            let mut pending = front(joint_mats);
            let mut i = BLOCK;
            while i < full {
                let next = front(joint_mats.add(i));
                back(joint_quats.add(i - BLOCK), pending);
                pending = next;
                i += BLOCK;
            }
            back(joint_quats.add(full - BLOCK), pending);
        }
    }
    // SAFETY: the last `n - full < 8` elements of both lists are valid,
    // aligned and do not overlap (caller's contract); `block` converts
    // eight, here a zero-padded stack copy of them.
    unsafe { by_blocks_of_8(joint_quats.add(full), joint_mats.add(full), n - full, block) }
}

/// Eight joints: `quats[0..8]` from `mats[0..8]`, [`front`] then [`back`].
///
/// # Safety
///
/// AVX2 and FMA; `mats` valid for reads of eight [`JointMat`], `quats` for
/// writes of eight [`JointQuat`], not overlapping.
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn block(quats: *mut JointQuat, mats: *const JointMat) {
    // SAFETY: the caller's contract is both halves'.
    unsafe { back(quats, front(mats)) }
}

/// What [`front`] hands to [`back`] for eight joints: the trace's sum `t`
/// of each lane's case, the case masks `b0` and `nb1`, the sign bits `s0
/// s1 s2`, the six off-diagonal elements and the translation.
#[derive(Clone, Copy)]
struct Front {
    t: __m256,
    b0: __m256,
    nb1: __m256,
    s: [__m256; 3],
    m01: __m256,
    m10: __m256,
    m20: __m256,
    m02: __m256,
    m12: __m256,
    m21: __m256,
    txyz: [__m256; 3],
}

/// The first half of eight joints: loads `mats[0..8]`, transposes them
/// into SoA vectors and computes each lane's case and `t`.
///
/// # Safety
///
/// AVX2 and FMA; `mats` valid for reads of eight [`JointMat`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn front(mats: *const JointMat) -> Front {
    let mf = mats.cast::<f32>();
    // The 24 floats of joints a = 2k and b = 2k + 1 are three 32-byte runs
    // `[r0_a | r1_a]`, `[r2_a | r0_b]`, `[r1_b | r2_b]`: rows 0 and 2 of the
    // pair are one `vblendps` each (any FP pipe), row 1 two 16-byte
    // broadcasts and a blend. No shuffle uop on the load side.
    // pairs[k][r] = [row r of joint 2k | row r of joint 2k + 1].
    let pairs: [[__m256; 3]; 4] = core::array::from_fn(|k| {
        // SAFETY: floats `24k..24k + 24` are joints 2k and 2k + 1, inside
        // the eight (caller); `loadu` takes any alignment, and the broadcast
        // sources (rows 1 of the two joints, floats `24k + 4` and `24k + 16`)
        // are 16-byte aligned because `JointMat` is (caller's contract).
        unsafe {
            let p = mf.add(24 * k);
            let l0 = _mm256_loadu_ps(p); // r0_a | r1_a
            let l1 = _mm256_loadu_ps(p.add(8)); // r2_a | r0_b
            let l2 = _mm256_loadu_ps(p.add(16)); // r1_b | r2_b
            [
                _mm256_blend_ps::<0xF0>(l0, l1),
                _mm256_blend_ps::<0xF0>(
                    _mm256_broadcast_ps(&*p.add(4).cast::<__m128>()),
                    _mm256_broadcast_ps(&*p.add(16).cast::<__m128>()),
                ),
                _mm256_blend_ps::<0xF0>(l1, l2),
            ]
        }
    });
    let rows: [[__m256; 4]; 3] = core::array::from_fn(|r| core::array::from_fn(|k| pairs[k][r]));
    // Lanes 0-3: joints 0, 2, 4, 6; lanes 4-7: joints 1, 3, 5, 7.
    let [m00, m01, m02, tx] = transpose_lane4(rows[0][0], rows[0][1], rows[0][2], rows[0][3]);
    let [m10, m11, m12, ty] = transpose_lane4(rows[1][0], rows[1][1], rows[1][2], rows[1][3]);
    let [m20, m21, m22, tz] = transpose_lane4(rows[2][0], rows[2][1], rows[2][2], rows[2][3]);

    let zero = _mm256_setzero_ps();
    let one = _mm256_set1_ps(1.0);
    let sign = _mm256_set1_ps(-0.0);

    // The listing's conditions, `cmpnltps` (`>=`, true when unordered); the
    // trace summed as the C and the listing sum it.
    let trace = _mm256_add_ps(_mm256_add_ps(m00, m11), m22);
    let c0 = _mm256_cmp_ps::<_CMP_NLT_UQ>(trace, zero); // w
    let c1 = _mm256_and_ps(_mm256_cmp_ps::<_CMP_NLT_UQ>(m00, m11), _mm256_cmp_ps::<_CMP_NLT_UQ>(m00, m22)); // x
    let c2 = _mm256_cmp_ps::<_CMP_NLT_UQ>(m11, m22); // y
    // The case number e (w 3, x 0, y 1, z 2) as two masks: b0 = w | y
    // (bit 0 of e) and nb1 = x | y (bit 1 of e clear). The if/else chain:
    // y is !c0 & !c1 & c2, x is !c0 & c1, so x | y is !c0 & (c1 | c2).
    let b0 = _mm256_or_ps(c0, _mm256_andnot_ps(c1, c2));
    let nb1 = _mm256_andnot_ps(c0, _mm256_or_ps(c1, c2));
    // The blueprint's sign multipliers as sign bits: s0 = -1 for y and z
    // (bit 0 ^ bit 1 of e: b0 == nb1), s1 = -1 for x and z (!b0), s2 = -1
    // for x and y (nb1).
    let s0 = _mm256_andnot_ps(_mm256_xor_ps(b0, nb1), sign);
    let s1 = _mm256_andnot_ps(b0, sign);
    let s2 = _mm256_and_ps(nb1, sign);

    // t = (s0 m00 + s1 m11) + (s2 m22 + 1), in the listing's pairs.
    let t = _mm256_add_ps(
        _mm256_add_ps(_mm256_xor_ps(m00, s0), _mm256_xor_ps(m11, s1)),
        _mm256_add_ps(_mm256_xor_ps(m22, s2), one),
    );
    Front { t, b0, nb1, s: [s0, s1, s2], m01, m10, m20, m02, m12, m21, txyz: [tx, ty, tz] }
}

/// The second half of eight joints: `s`, the four components in the order
/// `k0 .. k3`, their permutation by the case and the stores to `quats[0..8]`.
///
/// # Safety
///
/// AVX2 and FMA; `quats` valid for writes of eight [`JointQuat`].
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn back(quats: *mut JointQuat, f: Front) {
    let Front { t, b0, nb1, s: [s0, s1, s2], m01, m10, m20, m02, m12, m21, txyz: [tx, ty, tz] } = f;
    let zero = _mm256_setzero_ps();
    // s = 0.5 / sqrt(t), both correctly rounded (no estimate).
    let s = _mm256_div_ps(_mm256_set1_ps(0.5), _mm256_sqrt_ps(t));

    // In the order k0..k3.
    let v0 = _mm256_mul_ps(s, t);
    let v1 = _mm256_mul_ps(_mm256_sub_ps(m01, _mm256_xor_ps(m10, s2)), s);
    let v2 = _mm256_mul_ps(_mm256_sub_ps(m20, _mm256_xor_ps(m02, s1)), s);
    let v3 = _mm256_mul_ps(_mm256_sub_ps(m12, _mm256_xor_ps(m21, s0)), s);
    // Component c is v[c ^ e]: swap neighbours where bit 0 of e is set, then
    // pairs where bit 1 is.
    let a0 = _mm256_blendv_ps(v0, v1, b0);
    let a1 = _mm256_blendv_ps(v1, v0, b0);
    let a2 = _mm256_blendv_ps(v2, v3, b0);
    let a3 = _mm256_blendv_ps(v3, v2, b0);
    let qx = _mm256_blendv_ps(a2, a0, nb1);
    let qy = _mm256_blendv_ps(a3, a1, nb1);
    let qz = _mm256_blendv_ps(a0, a2, nb1);
    let qw = _mm256_blendv_ps(a1, a3, nb1);

    // [q_2k | q_2k+1] and [t_2k | t_2k+1], then [q_j | t_j].
    let q = transpose_lane4(qx, qy, qz, qw);
    let tt = transpose_lane4(tx, ty, tz, zero);
    let out = quats.cast::<f32>();
    for k in 0..4 {
        // SAFETY: floats `16k..16k + 16` are joints 2k and 2k + 1, inside
        // the eight (caller); `storeu` takes any alignment.
        unsafe {
            _mm256_storeu_ps(out.add(16 * k), _mm256_permute2f128_ps::<0x20>(q[k], tt[k]));
            _mm256_storeu_ps(out.add(16 * k + 8), _mm256_permute2f128_ps::<0x31>(q[k], tt[k]));
        }
    }
}
