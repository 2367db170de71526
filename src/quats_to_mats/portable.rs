//! The successor of Appendix A in plain Rust (`Impl::Portable`): one joint
//! at a time, exactly the per-lane operations of the AVX2 successor
//! ([`super::avx2`]) and of the NEON one (`super::neon`), so all of them
//! give the same bits on every CPU (NaN bits aside).
//!
//! **The one order of operations** (every successor form follows it lane
//! for lane; `fma(a, b, c)` is `a * b + c` rounded once,
//! `crate::portable::mul_add` here, `vfmadd`/`vfnmadd`/`vfmsub` on AVX2,
//! `fmla`/`fmls` on NEON):
//!
//! ```text
//! x2 = x + x      y2 = y + y      z2 = z + z
//! wx2 = w * x2    wy2 = w * y2    wz2 = w * z2
//! one_zz2 = fma(-z, z2, 1)        one_yy2 = fma(-y, y2, 1)
//! m00 = fma(-y, y2, one_zz2)  m01 = fma(x, y2,  wz2)   m02 = fma(x, z2, -wy2)
//! m10 = fma(x, y2, -wz2)      m11 = fma(-x, x2, one_zz2)  m12 = fma(y, z2,  wx2)
//! m20 = fma(x, z2,  wy2)      m21 = fma(y, z2, -wx2)   m22 = fma(-x, x2, one_yy2)
//! m03 = t.x       m13 = t.y       m23 = t.z      (copied bit for bit)
//! ```
//!
//! Negating an operand is exact, so `fma(-a, b, c)` is the x86 `vfnmadd`
//! (`c - a b` rounded once) and `fma(a, b, -c)` its `vfmsub` (`a b - c`)
//! bit for bit. The diagonal keeps the listing's E4 order for `m00` and
//! `m11` (`(1 - zz2) - yy2`, `(1 - zz2) - xx2`) and sums `m22` as
//! `(1 - yy2) - xx2`, two roundings each where the listing has three.
//!
//! **What changed from the AVX2 successor, and why.** Nothing in the
//! arithmetic: the AVX2 form already has no estimate instruction and its
//! tail goes through the same 8-wide block (a zero-padded stack copy), so
//! each joint's bits depend on that joint only. What is left out is the
//! change of layout (pairs, in-lane transposes, blends), which only moves
//! floats: here each joint is read, converted and written on its own. The
//! translation is written through its bit pattern (`u32`), so even a
//! signalling NaN is copied as it is (a float copy may be quieted by the
//! compiler, see the scalar port's module documentation).
//!
//! The form runs on every target, without `std` too (`libm::fmaf` then),
//! and is what [`crate::Impl::Deterministic`] falls back to where no SIMD
//! successor runs.

use crate::portable::{MulAdd, Soft, fma_versions};
use crate::types::{JointMat, JointQuat};

/// The successors' matrix of one joint: section 3's `M` of `joint.q` in the
/// rotation part, fused as the module documentation writes it, and
/// `joint.t.x/y/z` copied bit for bit into column 3.
#[inline]
pub fn joint_quat_to_joint_mat(joint: &JointQuat) -> JointMat {
    joint_quat_to_joint_mat_with::<Soft>(joint)
}

/// [`joint_quat_to_joint_mat`] with the fused multiply-add `F`.
#[inline(always)]
pub(crate) fn joint_quat_to_joint_mat_with<F: MulAdd>(joint: &JointQuat) -> JointMat {
    let [x, y, z, w] = joint.q.to_array();
    let x2 = x + x;
    let y2 = y + y;
    let z2 = z + z;
    let wx2 = w * x2;
    let wy2 = w * y2;
    let wz2 = w * z2;
    let one_zz2 = F::neg_mul_add(z, z2, 1.0);
    let one_yy2 = F::neg_mul_add(y, y2, 1.0);
    let rot = [
        [F::neg_mul_add(y, y2, one_zz2), F::mul_add(x, y2, wz2), F::mul_add(x, z2, -wy2)],
        [F::mul_add(x, y2, -wz2), F::neg_mul_add(x, x2, one_zz2), F::mul_add(y, z2, wx2)],
        [F::mul_add(x, z2, wy2), F::mul_add(y, z2, -wx2), F::neg_mul_add(x, x2, one_yy2)],
    ];
    let t = [joint.t.x.to_bits(), joint.t.y.to_bits(), joint.t.z.to_bits()];
    let mut bits = [0u32; 12];
    for r in 0..3 {
        for c in 0..3 {
            bits[r * 4 + c] = rot[r][c].to_bits();
        }
        bits[r * 4 + 3] = t[r];
    }
    JointMat { mat: bits.map(f32::from_bits) }
}

fma_versions! {
    /// `ConvertJointQuatsToJointMats`, the successors' arithmetic in plain
    /// Rust: writes [`joint_quat_to_joint_mat`] of `joint_quats[i]` into
    /// `joint_mats[i]` for `i` in `0..num_joints`, one joint at a time. A
    /// `num_joints <= 0` converts nothing.
    ///
    /// # Safety
    ///
    /// If `num_joints > 0`: `joint_quats` is valid for reads of `num_joints`
    /// [`JointQuat`] and `joint_mats` for writes of `num_joints` [`JointMat`],
    /// both aligned for their types, and the two lists do not overlap.
    pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) => quats_to_mats_with;
}

/// [`quats_to_mats`] with the fused multiply-add `F`.
///
/// # Safety
///
/// [`quats_to_mats`]'s contract.
#[inline(always)]
unsafe fn quats_to_mats_with<F: MulAdd>(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`: both elements are valid, aligned and in
        // lists that do not overlap (caller's contract).
        unsafe { joint_mats.add(i).write(joint_quat_to_joint_mat_with::<F>(&*joint_quats.add(i))) }
    }
}
