//! `Impl::Asm`: the listings in `asm!` one after the other, a chunk at a
//! time: the assembly line as the papers would have run it (each listing
//! instruction for instruction; the chaining is Rust).

use super::forms::pose_kernels;
use super::line::{Args, Line, run};
use crate::types::{JointMat, JointQuat, Vec4};

pose_kernels!(
    chained "the listings",
    slerp: crate::slerp_joints::asm::slerp_joints,
    lerp: crate::lerp_joints::asm::lerp_joints,
    to_mats: crate::quats_to_mats::asm::quats_to_mats,
    skeleton: crate::transform_skeleton::asm::transform_skeleton,
    skin: crate::transform_joints::asm::transform_joints
);
