//! The successor of Appendix B for wasm SIMD128 (`Impl::Simd128`, builds
//! with `-C target-feature=+simd128`): the NEON successor (`super::neon`)
//! lane for lane, four matrices per iteration in structure-of-arrays form,
//! branch-free, the per-lane arithmetic of [`super::portable`] (the one
//! order of operations, written out there), so its results are the
//! portable form's, the AVX2 form's and the NEON form's bit for bit.
//!
//! **What the form is.** Each block loads the rows of four [`JointMat`]s
//! (twelve 16-byte loads) and transposes them into the twelve four-lane
//! vectors `m00 .. m22`, `tx ty tz` (`crate::wasm32::blocks4`). The case
//! of each lane comes from the listing's conditions as x86's `cmpnltps`
//! computes them: `!(a < b)`, `v128_not` of `f32x4_lt`, true for NaN
//! operands, never `f32x4_ge` (false for them), so a zero or NaN trace
//! takes `w` and ties take the earlier case as on every form. The two case
//! bits `b0`, `!b1` give the sign multipliers as sign bits (`v128_xor`),
//! `t = (s0 m00 + s1 m11) + (s2 m22 + 1)`, `s = 0.5 / sqrt(t)`
//! (`f32x4_sqrt`, `f32x4_div`: correctly rounded, as wasm defines them),
//! the four values in store order and two layers of `v128_bitselect` for
//! the blueprint's permutation `c -> c xor e`. Two transposes turn `x y z
//! w` and `tx ty tz 0` back into joints (eight 16-byte stores). A tail of
//! 1 to 3 joints goes through the same block on a zero-padded stack copy
//! (`crate::blocks::by_blocks_of_4`).
//!
//! **What changed from the NEON form, and why.** Nothing in the
//! arithmetic (the routine has no fused operation): `v128_bitselect(a, b,
//! mask)` (`mask ? a : b`) is NEON's `bsl` with the mask last,
//! `v128_andnot(a, b)` (`a & !b`) its `bic`, and the transpose is built
//! from interleaves (one x86 instruction each under V8) instead of
//! `trn1`/`trn2`: the same columns. The same sequence of IEEE operations
//! per lane, so no result changes.

use crate::blocks::by_blocks_of_4;
use crate::types::{JointMat, JointQuat};
use crate::wasm32::blocks4::{load, store, transpose4};
use core::arch::wasm32::*;

/// `ConvertJointMatsToJointQuats` for wasm SIMD128: writes the quaternion
/// of the rotation part of `joint_mats[i]` (paper convention) and its
/// translation `(m03, m13, m23, 0)` into `joint_quats[i]` for `i` in
/// `0..num_joints`, four joints per iteration, the last 1 to 3 through a
/// zero-padded stack block. A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// If `num_joints > 0`: `joint_mats` is valid for reads of `num_joints`
/// [`JointMat`] and `joint_quats` for writes of `num_joints` [`JointQuat`],
/// both aligned for their types, and the two lists do not overlap.
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    // SAFETY: `num_joints.max(0)` elements of both lists are valid, aligned
    // and do not overlap (caller's contract); `block` converts four.
    unsafe { by_blocks_of_4(joint_quats, joint_mats, num_joints.max(0) as usize, block) }
}

/// `!(a < b)` lane by lane: x86's `cmpnltps` (`_CMP_NLT_UQ`), true where
/// `a >= b` or either is NaN.
#[inline(always)]
fn not_less(a: v128, b: v128) -> v128 {
    v128_not(f32x4_lt(a, b))
}

/// `v` with its sign bit flipped where `sign` has it set.
#[inline(always)]
fn flip(v: v128, sign: v128) -> v128 {
    v128_xor(v, sign)
}

/// Four joints: `quats[0..4]` from `mats[0..4]`.
///
/// # Safety
///
/// `mats` valid for reads of four [`JointMat`], `quats` for writes of four
/// [`JointQuat`], not overlapping.
#[inline(always)]
unsafe fn block(quats: *mut JointQuat, mats: *const JointMat) {
    let mf = mats.cast::<f32>();
    // rows[r][j]: row r of joint j.
    // SAFETY: floats `12j..12j + 12` are matrix `j < 4`, inside the four
    // (caller).
    let rows: [[v128; 4]; 3] =
        unsafe { core::array::from_fn(|r| core::array::from_fn(|j| load(mf.add(12 * j + 4 * r)))) };
    let [m00, m01, m02, tx] = transpose4(rows[0][0], rows[0][1], rows[0][2], rows[0][3]);
    let [m10, m11, m12, ty] = transpose4(rows[1][0], rows[1][1], rows[1][2], rows[1][3]);
    let [m20, m21, m22, tz] = transpose4(rows[2][0], rows[2][1], rows[2][2], rows[2][3]);

    let zero = f32x4_splat(0.0);
    let one = f32x4_splat(1.0);
    let sign = u32x4_splat(0x8000_0000);

    // The listing's conditions (`>=`, true when unordered); the trace summed
    // as the C and the listing sum it.
    let trace = f32x4_add(f32x4_add(m00, m11), m22);
    let c0 = not_less(trace, zero); // w
    let c1 = v128_and(not_less(m00, m11), not_less(m00, m22)); // x
    let c2 = not_less(m11, m22); // y
    // b0 = w | y (bit 0 of e), nb1 = x | y (bit 1 of e clear);
    // `v128_andnot(a, b)` is `a & !b`.
    let b0 = v128_or(c0, v128_andnot(c2, c1));
    let nb1 = v128_andnot(v128_or(c1, c2), c0);
    // Sign multipliers as sign bits: s0 for y and z (b0 == nb1), s1 for x
    // and z (!b0), s2 for x and y (nb1).
    let s0 = v128_andnot(sign, v128_xor(b0, nb1));
    let s1 = v128_andnot(sign, b0);
    let s2 = v128_and(nb1, sign);

    // t = (s0 m00 + s1 m11) + (s2 m22 + 1), in the listing's pairs.
    let t = f32x4_add(f32x4_add(flip(m00, s0), flip(m11, s1)), f32x4_add(flip(m22, s2), one));
    // s = 0.5 / sqrt(t), both correctly rounded (no estimate).
    let s = f32x4_div(f32x4_splat(0.5), f32x4_sqrt(t));

    // In the order k0..k3.
    let v0 = f32x4_mul(s, t);
    let v1 = f32x4_mul(f32x4_sub(m01, flip(m10, s2)), s);
    let v2 = f32x4_mul(f32x4_sub(m20, flip(m02, s1)), s);
    let v3 = f32x4_mul(f32x4_sub(m12, flip(m21, s0)), s);
    // Component c is v[c ^ e]: swap neighbours where bit 0 of e is set, then
    // pairs where bit 1 is. `v128_bitselect(a, b, mask)` is `mask ? a : b`.
    let a0 = v128_bitselect(v1, v0, b0);
    let a1 = v128_bitselect(v0, v1, b0);
    let a2 = v128_bitselect(v3, v2, b0);
    let a3 = v128_bitselect(v2, v3, b0);
    let qx = v128_bitselect(a0, a2, nb1);
    let qy = v128_bitselect(a1, a3, nb1);
    let qz = v128_bitselect(a2, a0, nb1);
    let qw = v128_bitselect(a3, a1, nb1);

    let q = transpose4(qx, qy, qz, qw);
    let tt = transpose4(tx, ty, tz, zero);
    let out = quats.cast::<f32>();
    for j in 0..4 {
        // SAFETY: floats `8j..8j + 8` are joint `j < 4`, inside the four
        // (caller).
        unsafe {
            store(out.add(8 * j), q[j]);
            store(out.add(8 * j + 4), tt[j]);
        }
    }
}
