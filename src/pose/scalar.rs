//! `Impl::Scalar`: the paper's C routines one after the other, a chunk at a
//! time (`SlerpJoints` or `LerpJoints`, `ConvertJointQuatsToJointMats`,
//! `TransformSkeleton`, `TransformJoints`).
//!
//! # Safety of every form's kernels
//!
//! Every form's `slerp_pose` and `lerp_pose` (a [`crate::form::kernel::Pose`])
//! need, for `n = num_joints > 0`:
//! - the CPU runs the form's instruction set;
//! - `model`, `from` and `parents` valid for `n` elements (`model` for reads
//!   and writes), each 16-byte aligned where its type is;
//! - `to` null, or valid for `n` reads; `scale` null, or valid for `n`
//!   reads; `skin` null, or valid for `n` writes with `inverse_bind` valid
//!   for `n` reads;
//! - `parents[i]` is `-1` (a root) or in `0..i` for every `i < n`;
//! - `n <= MAX_JOINTS` ([`crate::pose::MAX_JOINTS`]);
//! - `model` and `skin` overlap no other array, nor each other.
//!
//! `num_joints <= 0` reads and writes nothing.

use super::forms::pose_kernels;
use super::line::{Args, Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    chained "the paper's C",
    slerp: crate::slerp_joints::scalar::slerp_joints,
    lerp: crate::lerp_joints::scalar::lerp_joints,
    to_mats: crate::quats_to_mats::scalar::quats_to_mats,
    skeleton: crate::transform_skeleton::scalar::transform_skeleton,
    skin: crate::transform_joints::scalar::transform_joints
);
