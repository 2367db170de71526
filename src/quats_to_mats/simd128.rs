//! The successor of Appendix A for wasm SIMD128 (`Impl::Simd128`, builds
//! with `-C target-feature=+simd128`): the NEON successor (`super::neon`)
//! lane for lane, four joints per iteration in structure-of-arrays form,
//! the per-lane arithmetic of [`super::portable`] (the one order of
//! operations, written out there), so its results are the portable form's,
//! the AVX2 form's and the NEON form's bit for bit.
//!
//! **What the form is.** Each block loads the quaternions and the
//! translations of four [`JointQuat`]s (eight 16-byte loads), transposes
//! them into four-lane vectors `x y z w` and `tx ty tz`
//! (`crate::wasm32::blocks4`), computes the nine rotation elements with
//! three products and eleven fused multiply-adds, and, row by row,
//! transposes each row back (`(m_r0, m_r1, m_r2, t_r)` per joint) and
//! stores it (twelve 16-byte stores in all). A tail of 1 to 3 joints goes
//! through the same block on a zero-padded stack copy
//! (`crate::blocks::by_blocks_of_4`): no one-at-a-time loop and no access
//! outside the two lists.
//!
//! **What changed from the NEON form, and why.** wasm has no fused
//! multiply-add (the relaxed-SIMD `relaxed_madd` may or may not fuse), so
//! each `fmla`/`fmls` is the exact f64 construction of `crate::wasm32::fma`,
//! with its test deferred: `fma_deferred(a, b, c)` = `a b + c`,
//! `fnma_deferred(a, b, c)` = `c - a b` (NEON's `fmls`) and
//! `fms_deferred(a, b, c)` = `a b - c` (NEON's `fmla` on `-c`), each the
//! same IEEE sum rounded once, the same bits as `vfmaq_f32`/`vfmsq_f32`
//! whenever the sum is not a rare case (halfway between two f32 in f64, or
//! below f32's normal range). Each row's cases are gathered and tested once
//! the row is stored; a rare case (about one f64 sum in 2^29 on random
//! data; more where exact midpoints are common) redoes the block's four
//! joints with [`super::portable::joint_quat_to_joint_mat`] over what was
//! stored: the one answer either way. Testing after the stores leaves nothing but
//! pointers live across the out-of-line call (a V8 call clobbers every
//! vector register), and row by row keeps the f64 sums live only until
//! their row is tested (the wasm backend moves each value used once down
//! to its use). The products are grouped so that each f64 product serves
//! its two sums (`x y2` for `m01` and `m10`, ...). The transpose is built
//! from interleaves (`unpcklps`-like shuffles, one x86 instruction each
//! under V8) instead of `trn1`/`trn2`: the same columns. The translation
//! only goes through loads, shuffles and stores, so it is copied bit for
//! bit. The emulation is most of the cost: the same block with unfused
//! `f32x4` products and sums (wrong bits, timed only) takes 0.3 times as
//! long (`asm_notes/quats_to_mats.md`, "Successor: Impl::Simd128").

use super::portable::joint_quat_to_joint_mat;
use crate::blocks::by_blocks_of_4;
use crate::types::{JointMat, JointQuat};
use crate::wasm32::blocks4::{load, store, transpose4};
use crate::wasm32::fma::{Rare, fma_deferred, fms_deferred, fnma_deferred};
use core::arch::wasm32::*;

/// `ConvertJointQuatsToJointMats` for wasm SIMD128: writes section 3's
/// matrix of `joint_quats[i]` into `joint_mats[i]` for `i` in
/// `0..num_joints`, four joints per iteration, the last 1 to 3 through a
/// zero-padded stack block. A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// If `num_joints > 0`: `joint_quats` is valid for reads of `num_joints`
/// [`JointQuat`] and `joint_mats` for writes of `num_joints` [`JointMat`],
/// both aligned for their types, and the two lists do not overlap.
pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    // SAFETY: `num_joints.max(0)` elements of both lists are valid, aligned
    // and do not overlap (caller's contract); `block` converts four.
    unsafe { by_blocks_of_4(joint_mats, joint_quats, num_joints.max(0) as usize, block) }
}

/// Four joints: `mats[0..4]` from `quats[0..4]`.
///
/// # Safety
///
/// `quats` valid for reads of four [`JointQuat`], `mats` for writes of four
/// [`JointMat`], not overlapping.
#[inline(always)]
unsafe fn block(mats: *mut JointMat, quats: *const JointQuat) {
    let qf = quats.cast::<f32>();
    // SAFETY: floats `8j..8j + 8` are joint `j < 4`, inside the four
    // (caller).
    let (q, t): ([v128; 4], [v128; 4]) =
        unsafe { (core::array::from_fn(|j| load(qf.add(8 * j))), core::array::from_fn(|j| load(qf.add(8 * j + 4)))) };
    let [x, y, z, w] = transpose4(q[0], q[1], q[2], q[3]);
    let [tx, ty, tz, _] = transpose4(t[0], t[1], t[2], t[3]);

    let one = f32x4_splat(1.0);
    let x2 = f32x4_add(x, x);
    let y2 = f32x4_add(y, y);
    let z2 = f32x4_add(z, z);
    let wx2 = f32x4_mul(w, x2);
    let wy2 = f32x4_mul(w, y2);
    let wz2 = f32x4_mul(w, z2);
    let out = mats.cast::<f32>();
    // Row by row: each row's three elements (`fnma` for `c - a b` and
    // `fms` for `a b - c`, the same IEEE sums as `fma` with a negated
    // operand), transposed back and stored, then the row's rare cases
    // tested, so that few values are live at any point (the wasm backend
    // moves each single-use value down to its use: one test at the end
    // would keep every f64 sum of the block live until then). A rare case
    // redoes the whole block.
    let mut rare = Rare::new();
    let one_zz2 = fnma_deferred(z, z2, one, &mut rare); //   1 - zz2
    let one_yy2 = fnma_deferred(y, y2, one, &mut rare); //   1 - yy2
    let m00 = fnma_deferred(y, y2, one_zz2, &mut rare); //   (1 - zz2) - yy2
    let m01 = fma_deferred(x, y2, wz2, &mut rare); //        xy2 + wz2
    let m02 = fms_deferred(x, z2, wy2, &mut rare); //        xz2 - wy2
    // SAFETY: the caller's four joints each side.
    if unsafe { row_and_test(out, 0, [m00, m01, m02, tx], rare) } {
        // SAFETY: as `row_and_test`.
        return unsafe { exactly(mats, quats) };
    }
    let mut rare = Rare::new();
    let m10 = fms_deferred(x, y2, wz2, &mut rare); //        xy2 - wz2
    let m11 = fnma_deferred(x, x2, one_zz2, &mut rare); //   (1 - zz2) - xx2
    let m12 = fma_deferred(y, z2, wx2, &mut rare); //        yz2 + wx2
    // SAFETY: as above.
    if unsafe { row_and_test(out, 1, [m10, m11, m12, ty], rare) } {
        // SAFETY: as above.
        return unsafe { exactly(mats, quats) };
    }
    let mut rare = Rare::new();
    let m20 = fma_deferred(x, z2, wy2, &mut rare); //        xz2 + wy2
    let m21 = fms_deferred(y, z2, wx2, &mut rare); //        yz2 - wx2
    let m22 = fnma_deferred(x, x2, one_yy2, &mut rare); //   (1 - yy2) - xx2
    // SAFETY: as above.
    if unsafe { row_and_test(out, 2, [m20, m21, m22, tz], rare) } {
        // SAFETY: as above.
        unsafe { exactly(mats, quats) };
    }
}

/// Row `r` of the four matrices at `out` from its four columns (`(m_r0,
/// m_r1, m_r2, t_r)`, one joint per lane), transposed and stored; then
/// whether `rare` holds a rare case.
///
/// # Safety
///
/// `out` is valid for writes of four [`JointMat`] (48 floats); `r < 3`.
#[inline(always)]
unsafe fn row_and_test(out: *mut f32, r: usize, columns: [v128; 4], rare: Rare) -> bool {
    let [c0, c1, c2, c3] = columns;
    let rows = transpose4(c0, c1, c2, c3);
    for (j, row) in rows.into_iter().enumerate() {
        // SAFETY: floats `12j + 4r..12j + 4r + 4` are row `r` of matrix `j
        // < 4`, inside the four (caller).
        unsafe { store(out.add(12 * j + 4 * r), row) };
    }
    rare.any()
}

/// The block whose fused multiply-adds met a rare case
/// (`crate::wasm32::fma::Rare`): its four joints again, over what the
/// common path stored, with
/// [`super::portable::joint_quat_to_joint_mat`], whose fused multiply-add
/// rounds once in every case (the same bits as the common path where that
/// one is exact), out of line.
///
/// # Safety
///
/// As [`block`].
#[cold]
#[inline(never)]
unsafe fn exactly(mats: *mut JointMat, quats: *const JointQuat) {
    for j in 0..4 {
        // SAFETY: joint `j < 4` of the caller's four each side.
        unsafe { mats.add(j).write(joint_quat_to_joint_mat(&*quats.add(j))) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::portable;
    use crate::types::{JointMat, JointQuat, Quat, Vec4};
    use crate::wasm32::fma::tests::double_rounding_triple;

    /// Up to 9 joints (the first `n` used) of pseudo-random components in
    /// `[-1, 1)`, with at `rare` the joint `(a, b / 2, c / 2, 1)` of
    /// [`double_rounding_triple`]: its `m01 = x y2 + w z2` is `a b + c`,
    /// which the common path alone rounds wrongly.
    fn joints(n: usize, rare: usize, seed: u32) -> [JointQuat; 9] {
        let (a, b, c) = double_rounding_triple();
        let mut s = seed;
        let mut f = || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1 << 23) as f32 - 1.0
        };
        core::array::from_fn(|i| {
            let q = if i == rare || i >= n { [a, b / 2.0, c / 2.0, 1.0] } else { [f(), f(), f(), f()] };
            JointQuat::new(Quat::from_array(q), Vec4::from_array([f(), f(), f(), 0.0]))
        })
    }

    /// Every list with the crafted joint (at every place, in full blocks
    /// and in the padded tail) converts to the portable form's bits: the
    /// rare path redoes its block right (made to skip it, this test fails).
    #[test]
    fn rare_blocks_give_the_portable_bits() {
        for n in 1..=9 {
            for at in 0..n {
                let quats = joints(n, at, (n * 16 + at) as u32);
                let (mut got, mut want) = ([JointMat::default(); 9], [JointMat::default(); 9]);
                // SAFETY: both lists hold 9 joints, `n` of them used.
                unsafe {
                    super::quats_to_mats(got.as_mut_ptr(), quats.as_ptr(), n as i32);
                    portable::quats_to_mats(want.as_mut_ptr(), quats.as_ptr(), n as i32);
                }
                let bits = |m: &[JointMat; 9]| m.map(|j| j.mat.map(f32::to_bits));
                assert_eq!(bits(&got), bits(&want), "{n} joints, the rare one at {at}");
            }
        }
    }
}
