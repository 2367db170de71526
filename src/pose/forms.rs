//! Each form's pair of kernels (`slerp_pose`, `lerp_pose`), written once:
//! the raw signature unpacked into an [`Args`](super::line::Args) and handed
//! to the form's driver.

/// Writes a form module's `slerp_pose` and `lerp_pose`.
///
/// - `chained`: `line::run` with the form's kernels of `slerp_joints` /
///   `lerp_joints`, `quats_to_mats`, `transform_skeleton` and
///   `transform_joints`;
/// - `fused`: the given drivers (functions of an `Args`).
///
/// Under the attributes given (a `target_feature` for the SIMD successors,
/// so that the driver is compiled for them).
macro_rules! pose_kernels {
    (chained $what:literal, $(#[$attr:meta])* slerp: $slerp:path, lerp: $lerp:path, to_mats: $to_mats:path, skeleton: $skeleton:path, skin: $skin:path) => {
        /// `line::run` with `slerp_joints` and this form's three other kernels.
        ///
        /// # Safety
        ///
        /// As the kernels'.
        #[inline(always)]
        unsafe fn run_slerp(args: Args) {
            let line = Line { blend: $slerp, to_mats: $to_mats, skeleton: $skeleton, skin: $skin };
            // SAFETY: the caller keeps the kernel's contract, which is the driver's.
            unsafe { run(line, args) }
        }

        /// `line::run` with `lerp_joints` and this form's three other kernels.
        ///
        /// # Safety
        ///
        /// As the kernels'.
        #[inline(always)]
        unsafe fn run_lerp(args: Args) {
            let line = Line { blend: $lerp, to_mats: $to_mats, skeleton: $skeleton, skin: $skin };
            // SAFETY: the caller keeps the kernel's contract, which is the driver's.
            unsafe { run(line, args) }
        }

        $crate::pose::forms::pose_kernels!(
            fused concat!($what, ": each chunk of joints through the four routines' kernels"),
            $(#[$attr])* slerp: run_slerp, lerp: run_lerp
        );
    };
    (fused $what:expr, $(#[$attr:meta])* slerp: $slerp:expr, lerp: $lerp:expr) => {
        $crate::pose::forms::pose_kernels!(@one $what, "slerp_pose", "slerp_joints", [$(#[$attr])*], slerp_pose, $slerp);
        $crate::pose::forms::pose_kernels!(@one $what, "lerp_pose", "lerp_joints", [$(#[$attr])*], lerp_pose, $lerp);
    };
    (@one $what:expr, $routine:literal, $blend:literal, [$(#[$attr:meta])*], $name:ident, $driver:expr) => {
        #[doc = concat!("`", $routine, "` with ", $what, " (the blend of `", $blend, "`; see [`crate::pose`]).")]
        ///
        /// # Safety
        ///
        /// The contract of [`crate::form::kernel::Pose`]: see
        /// [`crate::pose::scalar`].
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn $name(
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
            let args = Args { model, skin, from, to, factor, scale, parents, inverse_bind, num_joints };
            // SAFETY: the caller keeps the kernel's contract, which is the
            // driver's, on a CPU with this form's features.
            unsafe { $driver(args) }
        }
    };
}
pub(crate) use pose_kernels;
