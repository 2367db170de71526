//! `Impl::Avx2` (AVX2 + FMA): the AVX2 successors fused into one pass, a
//! chunk at a time; the bits of every other successor form.

use super::forms::pose_kernels;
use super::line::{Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    "the AVX2 + FMA successors",
    #[target_feature(enable = "avx2,fma")]
    slerp: crate::slerp_joints::avx2::slerp_joints,
    lerp: crate::lerp_joints::avx2::lerp_joints,
    to_mats: crate::quats_to_mats::avx2::quats_to_mats,
    skeleton: crate::transform_skeleton::avx2::transform_skeleton,
    skin: crate::transform_joints::avx2::transform_joints
);
