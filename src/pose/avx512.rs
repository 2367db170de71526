//! `Impl::Avx512` (AVX-512 F/VL/DQ/BW): the AVX-512 successors fused into
//! one pass, a chunk at a time (with `transform_skeleton::avx512`, which
//! that routine's table leaves out); the bits of every other successor form.

use super::forms::pose_kernels;
use super::line::{Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    "the AVX-512 successors",
    #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
    slerp: crate::slerp_joints::avx512::slerp_joints,
    lerp: crate::lerp_joints::avx512::lerp_joints,
    to_mats: crate::quats_to_mats::avx512::quats_to_mats,
    skeleton: crate::transform_skeleton::avx512::transform_skeleton,
    skin: crate::transform_joints::avx512::transform_joints
);
