//! Validation and paper semantics shared by the joint-list interpolators
//! (`slerp_joints`, `lerp_joints`).

use crate::{Error, JointQuat};

/// The most joints (and `index` entries) the interpolators take: the listings
/// scale an index with `shl ecx, JOINTQUAT_SIZE_SHIFT` in a 32-bit register,
/// so `index * 32` must stay below 2^32.
pub const MAX_JOINTS: usize = 1 << 27;

/// Checks everything the kernels' memory accesses depend on, before any write.
pub(crate) fn validate(joints: &[JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32]) -> Result<(), Error> {
    for len in [joints.len(), index.len()] {
        if len > MAX_JOINTS {
            return Err(Error::TooManyJoints { len, max: MAX_JOINTS });
        }
    }
    if blend.len() < joints.len() {
        return Err(Error::TooShort { what: "blend", needed: joints.len(), found: blend.len() });
    }
    if !lerp.is_finite() {
        return Err(Error::NonFiniteLerp(lerp));
    }
    // One pass without early exit (it vectorises): a negative entry is a
    // huge `u32`, so the unsigned maximum is below `len` only if every entry
    // is in `0..len`. The slow search for the culprit runs only on error.
    let max = index.iter().fold(0u32, |m, &j| m.max(j as u32));
    if !index.is_empty() && max as usize >= joints.len() {
        let (position, &value) = index
            .iter()
            .enumerate()
            .find(|&(_, &j)| j < 0 || j as usize >= joints.len())
            .expect("an entry is out of range");
        return Err(Error::IndexOutOfRange { position, value, len: joints.len() });
    }
    crate::assert_16_byte_aligned(joints.as_ptr(), "joints");
    crate::assert_16_byte_aligned(blend.as_ptr(), "blend");
    Ok(())
}

/// What the listings do before their loops, for the scalar ports (whose C has
/// no such tests): `lerp <= 0` keeps the joints (returns `true`), `lerp >= 1`
/// copies the indexed blend joints (returns `true`); otherwise `false`.
pub(crate) fn scalar_early_out(joints: &mut [JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32]) -> bool {
    if lerp <= 0.0 {
        return true;
    }
    if lerp >= 1.0 {
        for &j in index {
            joints[j as usize] = blend[j as usize];
        }
        return true;
    }
    false
}
