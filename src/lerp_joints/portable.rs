//! The portable successor of Appendix B (`Impl::Portable`): `LerpJoints` in
//! plain Rust, one joint at a time, with exactly the per-lane operations of
//! the AVX2 + FMA successor (`crate::lerp_joints::avx2`), so that the two
//! (and the NEON successor) give the same bits on every CPU.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm). Port licensed under the GNU LGPL 2.1 or later.
//!
//! **The one order of operations** (`lerp_joint`; `fma(a, b, c)` is
//! `a · b + c` rounded once, `crate::portable::mul_add`; every other
//! step is one IEEE operation, rounded):
//!
//! 1. once per call, `scaledLerp = lerp / (1 - lerp)` (the listing's
//!    trick);
//! 2. `cosom = (qx·bx + qy·by) + (qz·bz + qw·bw)`, the products rounded;
//! 3. `s = scaledLerp`, negated where `cosom < 0` (not for `-0.0` or NaN);
//! 4. `Q = fma(b, s, q)` per component;
//! 5. `|Q|² = (Qx·Qx + Qy·Qy) + (Qz·Qz + Qw·Qw)`, the products rounded;
//! 6. `inv = 1 / sqrt(|Q|²)` (both correctly rounded), each rotation
//!    component `Q · inv`;
//! 7. each translation component `fma(lerp, tb - tj, tj)`.
//!
//! As every successor: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
//! included) copies the indexed blend joints; the entries of `index` are
//! applied in list order (a joint named twice is interpolated twice, the
//! second time from the first's result).

use crate::portable::{MulAdd, fma_versions, sqrt};
use crate::types::{JointQuat, Quat, Vec4};

fma_versions! {
    /// The portable successor of `LerpJoints`: for every `j` in
    /// `index[0..num_joints]`, in order, lerps `joints[j].q` towards the nearer
    /// of `±blend_joints[j].q` (`cosom < 0` flips) and renormalises it, and
    /// lerps `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place.
    ///
    /// As the listing: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
    /// included) copies the indexed blend joints; a `num_joints <= 0` does
    /// nothing. The arithmetic is `lerp_joint`'s.
    ///
    /// # Safety
    ///
    /// - `joints` and `blend_joints` do not overlap (no alignment is needed
    ///   beyond the type's);
    /// - `index` points to `num_joints` readable `i32` when `num_joints > 0`;
    /// - every entry `j` of `index` satisfies `0 <= j`, with `joints.add(j)`
    ///   valid for reads and writes and `blend_joints.add(j)` valid for reads.
    pub unsafe fn lerp_joints(joints: *mut JointQuat, blend_joints: *const JointQuat, lerp: f32, index: *const i32, num_joints: i32) => lerp_joints_with;
}

/// [`lerp_joints`] with the fused multiply-add `F`.
///
/// # Safety
///
/// [`lerp_joints`]'s contract.
#[inline(always)]
unsafe fn lerp_joints_with<F: MulAdd>(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    if lerp <= 0.0 || num_joints <= 0 {
        return;
    }
    let copy = lerp >= 1.0 || lerp.is_nan();
    // scaledLerp: finite and positive for 0 < lerp < 1.
    let scaled = lerp / (1.0 - lerp);
    for i in 0..num_joints as usize {
        // SAFETY: entry `i < num_joints` of `index` is readable and names a
        // joint of both lists, which do not overlap (caller's contract).
        unsafe {
            let j = *index.add(i) as usize;
            let b = *blend_joints.add(j);
            *joints.add(j) = if copy { b } else { lerp_joint::<F>(&*joints.add(j), &b, lerp, scaled) };
        }
    }
}

/// One joint: its rotation lerped towards the nearer of `±b.q` and
/// renormalised, its translation lerped, by `lerp` in `(0, 1)` with
/// `scaled = lerp / (1 - lerp)`, in the order of operations of the module
/// documentation (every successor form's, lane for lane).
#[inline(always)]
pub(crate) fn lerp_joint<F: MulAdd>(a: &JointQuat, b: &JointQuat, lerp: f32, scaled: f32) -> JointQuat {
    let (q, p) = (a.q.to_array(), b.q.to_array());
    let cosom = (q[0] * p[0] + q[1] * p[1]) + (q[2] * p[2] + q[3] * p[3]);
    let s = if cosom < 0.0 { -scaled } else { scaled };
    let r: [f32; 4] = core::array::from_fn(|c| F::mul_add(p[c], s, q[c]));
    let norm2 = (r[0] * r[0] + r[1] * r[1]) + (r[2] * r[2] + r[3] * r[3]);
    let inv = 1.0 / sqrt(norm2);
    let (t, u) = (a.t.to_array(), b.t.to_array());
    let t: [f32; 4] = core::array::from_fn(|c| F::mul_add(lerp, u[c] - t[c], t[c]));
    JointQuat::new(Quat::from_array(r.map(|v| v * inv)), Vec4::from_array(t))
}
