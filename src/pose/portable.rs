//! `Impl::Portable`: the whole pose fused joint by joint in plain Rust,
//! with the portable successors' per-joint functions (`lerp_joint` or
//! `slerp_joint`, `joint_quat_to_joint_mat_with`, `transform_joint_with`,
//! `multiply_joints`): the bits of the portable successors called one after
//! the other, and so of every successor form. Like them, it has a copy
//! compiled with FMA where the build lacks it and the CPU has it
//! (`crate::portable::fma_versions`).

use crate::lerp_joints::portable::lerp_joint;
use crate::portable::{MulAdd, fma_versions};
use crate::quats_to_mats::portable::joint_quat_to_joint_mat_with;
use crate::slerp_joints::portable::slerp_joint;
use crate::transform_joints::portable::multiply_joints;
use crate::transform_skeleton::portable::transform_joint_with;
use crate::types::{JointMat, JointQuat, Vec4};

use super::line::apply_scale;

fma_versions! {
    /// `slerp_pose`, the portable successor fused: for each joint in turn,
    /// blend, `[R | t]`, scale, `parent * local` and the skin.
    ///
    /// # Safety
    ///
    /// The contract of [`crate::form::kernel::Pose`] (see
    /// [`crate::pose::scalar`]).
    pub unsafe fn slerp_pose(
        model: *mut JointMat,
        skin: *mut JointMat,
        from: *const JointQuat,
        to: *const JointQuat,
        factor: f32,
        scale: *const Vec4,
        parents: *const i32,
        inverse_bind: *const JointMat,
        num_joints: i32,
    ) => slerp_pose_with;
}

fma_versions! {
    /// `lerp_pose`, the portable successor fused.
    ///
    /// # Safety
    ///
    /// As [`slerp_pose`].
    pub unsafe fn lerp_pose(
        model: *mut JointMat,
        skin: *mut JointMat,
        from: *const JointQuat,
        to: *const JointQuat,
        factor: f32,
        scale: *const Vec4,
        parents: *const i32,
        inverse_bind: *const JointMat,
        num_joints: i32,
    ) => lerp_pose_with;
}

/// [`slerp_pose`] with the fused multiply-add `F`.
///
/// # Safety
///
/// [`slerp_pose`]'s contract.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn slerp_pose_with<F: MulAdd>(
    model: *mut JointMat,
    skin: *mut JointMat,
    from: *const JointQuat,
    to: *const JointQuat,
    factor: f32,
    scale: *const Vec4,
    parents: *const i32,
    inverse_bind: *const JointMat,
    num_joints: i32,
) {
    let blend = |a: &JointQuat, b: &JointQuat| slerp_joint::<F>(a, b, factor);
    // SAFETY: the caller's contract, passed on.
    unsafe { pose::<F>(blend, model, skin, from, to, factor, scale, parents, inverse_bind, num_joints) }
}

/// [`lerp_pose`] with the fused multiply-add `F`.
///
/// # Safety
///
/// [`lerp_pose`]'s contract.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn lerp_pose_with<F: MulAdd>(
    model: *mut JointMat,
    skin: *mut JointMat,
    from: *const JointQuat,
    to: *const JointQuat,
    factor: f32,
    scale: *const Vec4,
    parents: *const i32,
    inverse_bind: *const JointMat,
    num_joints: i32,
) {
    // scaledLerp, as `lerp_joints`' successors compute it.
    let scaled = factor / (1.0 - factor);
    let blend = |a: &JointQuat, b: &JointQuat| lerp_joint::<F>(a, b, factor, scaled);
    // SAFETY: the caller's contract, passed on.
    unsafe { pose::<F>(blend, model, skin, from, to, factor, scale, parents, inverse_bind, num_joints) }
}

/// The joint loop, with the blend of one joint `blend` (called only for
/// `0 < factor < 1`, as the joint blends' early-outs do).
///
/// # Safety
///
/// [`slerp_pose`]'s contract.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn pose<F: MulAdd>(
    blend: impl Fn(&JointQuat, &JointQuat) -> JointQuat,
    model: *mut JointMat,
    skin: *mut JointMat,
    from: *const JointQuat,
    to: *const JointQuat,
    factor: f32,
    scale: *const Vec4,
    parents: *const i32,
    inverse_bind: *const JointMat,
    num_joints: i32,
) {
    // The joint blends' early-outs: `factor <= 0` keeps `from`,
    // `!(factor < 1)` (NaN included) takes `to`.
    let (src, other) = if to.is_null() || factor <= 0.0 {
        (from, core::ptr::null())
    } else if factor >= 1.0 || factor.is_nan() {
        (to, core::ptr::null())
    } else {
        (from, to)
    };
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`: joint `i` is in every array (those
        // that are not null), and `parents[i]` is `-1` or a joint before
        // `i`, whose model matrix is final (the caller's contract).
        unsafe {
            let a = &*src.add(i);
            let q = if other.is_null() { *a } else { blend(a, &*other.add(i)) };
            let mut m = joint_quat_to_joint_mat_with::<F>(&q);
            if !scale.is_null() {
                apply_scale(&mut m, &*scale.add(i));
            }
            let p = *parents.add(i);
            if p >= 0 {
                transform_joint_with::<F>(&mut m, &*model.add(p as usize));
            }
            model.add(i).write(m);
            if !skin.is_null() {
                skin.add(i).write(multiply_joints(&m, &*inverse_bind.add(i)));
            }
        }
    }
}
