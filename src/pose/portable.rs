//! `Impl::Portable`: the successors in plain Rust, a chunk at a time; the
//! bits of every other successor form.

use super::forms::pose_kernels;
use super::line::{Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    "the portable successors",
    slerp: crate::slerp_joints::portable::slerp_joints,
    lerp: crate::lerp_joints::portable::lerp_joints,
    to_mats: crate::quats_to_mats::portable::quats_to_mats,
    skeleton: crate::transform_skeleton::portable::transform_skeleton,
    skin: crate::transform_joints::portable::transform_joints
);
