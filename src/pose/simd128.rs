//! `Impl::Simd128`: the wasm SIMD128 successors fused into one pass, a
//! chunk at a time; the bits of every other successor form.

use super::forms::pose_kernels;
use super::line::{Args, Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    chained "the wasm SIMD128 successors",
    slerp: crate::slerp_joints::simd128::slerp_joints,
    lerp: crate::lerp_joints::simd128::lerp_joints,
    to_mats: crate::quats_to_mats::simd128::quats_to_mats,
    skeleton: crate::transform_skeleton::simd128::transform_skeleton,
    skin: crate::transform_joints::simd128::transform_joints
);
