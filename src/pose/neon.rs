//! `Impl::Neon`: the NEON successors fused into one pass, a chunk at a time;
//! the bits of every other successor form.

use super::forms::pose_kernels;
use super::line::{Args, Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    chained "the NEON successors",
    #[target_feature(enable = "neon")]
    slerp: crate::slerp_joints::neon::slerp_joints,
    lerp: crate::lerp_joints::neon::lerp_joints,
    to_mats: crate::quats_to_mats::neon::quats_to_mats,
    skeleton: crate::transform_skeleton::neon::transform_skeleton,
    skin: crate::transform_joints::neon::transform_joints
);
