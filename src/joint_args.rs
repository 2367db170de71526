//! Validation and paper semantics shared by the joint-list interpolators
//! (`slerp_joints`, `lerp_joints`).

use crate::{Error, Impl, JointQuat};

/// The raw kernels' signature: `(joints, blendJoints, lerp, index, numJoints)`.
pub(crate) type JointKernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);

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

/// The body of the safe `slerp_joints` / `lerp_joints`: validates, then runs
/// `kernel` (the raw kernel of `imp`), with the listing's early-outs added
/// around the scalar port (the asm and intrinsics kernels have their own).
pub(crate) fn run(
    imp: Impl,
    kernel: JointKernel,
    joints: &mut [JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
) -> Result<(), Error> {
    validate(joints, blend, lerp, index)?;
    if imp == Impl::Scalar && scalar_early_out(joints, blend, lerp, index) {
        return Ok(());
    }
    // SAFETY: `validate` checked every index entry against `joints.len() <=
    // blend.len()` and the counts against `MAX_JOINTS` (which keeps the
    // listings' 32-bit offsets exact), and asserted the 16-byte alignment;
    // `joints` is borrowed mutably, so the lists do not overlap; `kernel` is
    // the raw kernel of `imp`, which `Impl::check` found runnable here.
    unsafe { kernel(joints.as_mut_ptr(), blend.as_ptr(), lerp, index.as_ptr(), index.len() as i32) };
    Ok(())
}
