//! The successor of Appendix B in plain Rust (`Impl::Portable`): one joint
//! at a time, exactly the per-lane operations of the AVX2 successor
//! ([`super::avx2`]) and of the NEON one (`super::neon`), so all of them
//! give the same bits on every CPU (NaN bits aside).
//!
//! **The one order of operations** (every successor form follows it lane
//! for lane; nothing is fused):
//!
//! ```text
//! trace = (m00 + m11) + m22
//! c0 = !(trace < 0)                      w: the listing's cmpnltps, >= or unordered
//! c1 = !(m00 < m11) & !(m00 < m22)       x
//! c2 = !(m11 < m22)                      y
//! b0  = c0 | (!c1 & c2)                  bit 0 of the case number e (w 3, x 0, y 1, z 2)
//! nb1 = !c0 & (c1 | c2)                  bit 1 of e, inverted (x or y)
//! s0 = -1 where b0 == nb1 (y, z); s1 = -1 where !b0 (x, z); s2 = -1 where nb1 (x, y)
//! t  = (s0 m00 + s1 m11) + (s2 m22 + 1)  (the signs applied by flipping the sign bit)
//! s  = 0.5 / sqrt(t)                     (correctly rounded square root, then division)
//! v0 = s * t
//! v1 = (m01 - s2 m10) * s
//! v2 = (m20 - s1 m02) * s
//! v3 = (m12 - s0 m21) * s
//! q[c] = v[c ^ e]                        for c = x, y, z, w
//! q.t = (m03, m13, m23, +0.0)            (copied bit for bit)
//! ```
//!
//! The comparisons are `!(a < b)` (`not_less`), what x86's `cmpnltps` /
//! `_CMP_NLT_UQ` computes: true for `a >= b` and for NaN operands. So a
//! trace of exactly 0 (or `-0.0`) and a NaN trace take the `w` case and
//! equal diagonal elements take the earlier of `x`, `y`, `z`, on every form
//! (the listing's errata E1 and E2, kept). The NEON form computes the same
//! as the complement (`mvn`) of `vcltq_f32`, never as `vcgeq_f32` (`fcmge`,
//! false for NaN).
//!
//! **What changed from the AVX2 successor, and why.** The AVX2 successor
//! used to take `s` from `vrsqrtps` and one Newton-Raphson step, the
//! listing's method; `rsqrtps` is an estimate whose bits differ between
//! Intel and AMD (and NEON's `frsqrte` is another estimate again), so its
//! quaternions differed in the last bits from CPU to CPU. Every successor
//! now takes `s = 0.5 / sqrt(t)` with the correctly rounded IEEE square
//! root and division: `vsqrtps` and `vdivps` on AVX2, `fsqrt` and `fdiv` on
//! NEON, `f32::sqrt` (`libm::sqrtf` without `std`) and `/` here. That is
//! the same bits everywhere and more accurate (1.44e-7 against the
//! listing's 2.17e-7 on 100 000 random rotations). The case choice, the
//! sums and the products are the AVX2 form's, lane for lane; where it
//! selects with two layers of `vblendvps`, this form indexes (`q[c] =
//! v[c ^ e]`), which picks the same floats. The sign multipliers flip the
//! sign bit (`flip`), as the SIMD forms' `xor` does, rather than multiply
//! by `±1.0` (the same bits for every number; no rounding involved).
//!
//! The form runs on every target, without `std` too (`libm::sqrtf` then,
//! also correctly rounded), and is what [`crate::Impl::Deterministic`]
//! falls back to where no SIMD successor runs.

use crate::math::sqrt;
use crate::types::{JointMat, JointQuat, Quat, Vec4};

/// `!(a < b)`: x86's `cmpnltps` (`_CMP_NLT_UQ`), true where `a >= b` or
/// either is NaN (unordered).
#[inline(always)]
fn not_less(a: f32, b: f32) -> bool {
    a.partial_cmp(&b) != Some(core::cmp::Ordering::Less)
}

/// `v` with its sign bit flipped where `neg`: the multiplication by the
/// blueprint's sign multiplier `±1`, as the SIMD forms' `xor` with a sign
/// bit computes it.
#[inline(always)]
fn flip(v: f32, neg: bool) -> f32 {
    f32::from_bits(v.to_bits() ^ (u32::from(neg) << 31))
}

/// The successors' quaternion of one joint matrix (paper convention): the
/// case chosen, `t`, `s` and the four components as the module
/// documentation writes them, and the translation `(m03, m13, m23, +0.0)`
/// copied bit for bit.
#[inline]
pub fn joint_mat_to_joint_quat(joint: &JointMat) -> JointQuat {
    let m = &joint.mat;
    let (m00, m01, m02) = (m[0], m[1], m[2]);
    let (m10, m11, m12) = (m[4], m[5], m[6]);
    let (m20, m21, m22) = (m[8], m[9], m[10]);

    let trace = (m00 + m11) + m22;
    let c0 = not_less(trace, 0.0);
    let c1 = not_less(m00, m11) & not_less(m00, m22);
    let c2 = not_less(m11, m22);
    let b0 = c0 | (!c1 & c2);
    let nb1 = !c0 & (c1 | c2);
    let (neg0, neg1, neg2) = (b0 == nb1, !b0, nb1);

    let t = (flip(m00, neg0) + flip(m11, neg1)) + (flip(m22, neg2) + 1.0);
    let s = 0.5 / sqrt(t);
    let v = [s * t, (m01 - flip(m10, neg2)) * s, (m20 - flip(m02, neg1)) * s, (m12 - flip(m21, neg0)) * s];
    let e = usize::from(b0) | usize::from(!nb1) << 1;

    // The translation through its bits: a signalling NaN is copied as it is.
    let t = [m[3].to_bits(), m[7].to_bits(), m[11].to_bits(), 0].map(f32::from_bits);
    JointQuat::new(Quat::from_array([v[e], v[1 ^ e], v[2 ^ e], v[3 ^ e]]), Vec4::from_array(t))
}

/// `ConvertJointMatsToJointQuats`, the successors' arithmetic in plain
/// Rust: writes [`joint_mat_to_joint_quat`] of `joint_mats[i]` into
/// `joint_quats[i]` for `i` in `0..num_joints`, one joint at a time. A
/// `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// If `num_joints > 0`: `joint_mats` is valid for reads of `num_joints`
/// [`JointMat`] and `joint_quats` for writes of `num_joints` [`JointQuat`],
/// both aligned for their types, and the two lists do not overlap.
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`: both elements are valid, aligned and in
        // lists that do not overlap (caller's contract).
        unsafe { joint_quats.add(i).write(joint_mat_to_joint_quat(&*joint_mats.add(i))) }
    }
}
