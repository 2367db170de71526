//! PLACEHOLDER: being written.
use crate::JointQuat;
/// Placeholder.
///
/// # Safety
///
/// Placeholder.
#[inline(never)]
pub unsafe fn slerp_joints(_joints: *mut JointQuat, _blend_joints: *const JointQuat, _lerp: f32, _index: *const i32, _num_joints: i32) {
    unimplemented!()
}
