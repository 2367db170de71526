//! `Impl::Portable`: the portable successors' kernels chained, a chunk at
//! a time; the bits of every other successor form. (A fused form, each
//! joint from the blend to its skin in one step with the same per-joint
//! functions, took 1.3-1.55x this chain's time on an Intel Xeon with
//! AVX-512: the kernels' loops, one stage each, vectorise where the fused
//! loop does not.)

use super::forms::pose_kernels;
use super::line::{Args, Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    chained "the portable successors",
    slerp: crate::slerp_joints::portable::slerp_joints,
    lerp: crate::lerp_joints::portable::lerp_joints,
    to_mats: crate::quats_to_mats::portable::quats_to_mats,
    skeleton: crate::transform_skeleton::portable::transform_skeleton,
    skin: crate::transform_joints::portable::transform_joints
);
