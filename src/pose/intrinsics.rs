//! `Impl::Intrinsics`: the listings' intrinsics twins one after the other, a
//! chunk at a time.

use super::forms::pose_kernels;
use super::line::{Args, Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    chained "the listings' intrinsics twins",
    slerp: crate::slerp_joints::intrinsics::slerp_joints,
    lerp: crate::lerp_joints::intrinsics::lerp_joints,
    to_mats: crate::quats_to_mats::intrinsics::quats_to_mats,
    skeleton: crate::transform_skeleton::intrinsics::transform_skeleton,
    skin: crate::transform_joints::intrinsics::transform_joints
);
