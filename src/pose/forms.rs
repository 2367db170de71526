//! Each form's pair of kernels (`slerp_pose`, `lerp_pose`): the driver of
//! `line` with that form's four kernels.

/// Writes a form module's `slerp_pose` and `lerp_pose`: `line::run` with
/// the form's kernels of `slerp_joints` / `lerp_joints`, `quats_to_mats`,
/// `transform_skeleton` and `transform_joints` (`$m` names their form
/// module), under the attributes given (a `target_feature` for the SIMD
/// successors, so that the driver is compiled for them).
macro_rules! pose_kernels {
    ($what:literal, $(#[$attr:meta])* slerp: $slerp:path, lerp: $lerp:path, to_mats: $to_mats:path, skeleton: $skeleton:path, skin: $skin:path) => {
        #[doc = concat!("`slerp_pose` with ", $what, ": each chunk of joints through `slerp_joints`, `quats_to_mats`, the scale, `transform_skeleton` and `transform_joints` (see [`crate::pose`]).")]
        ///
        /// # Safety
        ///
        /// The contract of [`crate::form::kernel::Pose`]: see
        /// [`crate::pose::scalar::slerp_pose`].
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
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
        ) {
            let line = Line { blend: $slerp, to_mats: $to_mats, skeleton: $skeleton, skin: $skin };
            // SAFETY: the caller keeps the kernel's contract, which is the
            // driver's; this form's kernels run on this CPU (the caller's
            // contract names the features of the form).
            unsafe { run(line, model, skin, from, to, factor, scale, parents, inverse_bind, num_joints) }
        }

        #[doc = concat!("`lerp_pose` with ", $what, ": as [`slerp_pose`] with `lerp_joints`.")]
        ///
        /// # Safety
        ///
        /// As [`slerp_pose`].
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
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
        ) {
            let line = Line { blend: $lerp, to_mats: $to_mats, skeleton: $skeleton, skin: $skin };
            // SAFETY: as in `slerp_pose`.
            unsafe { run(line, model, skin, from, to, factor, scale, parents, inverse_bind, num_joints) }
        }
    };
}
pub(crate) use pose_kernels;
