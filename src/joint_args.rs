//! Validation and the endpoint rule shared by the joint-list interpolators
//! (`slerp_joints`, `lerp_joints`).

use crate::dispatch::{Form, Selected, alignment_of};
use crate::error::Error;
use crate::types::JointQuat;

/// The raw kernels' signature: `(joints, blendJoints, lerp, index, numJoints)`.
pub(crate) type JointKernel = crate::form::kernel::JointBlend;

/// A row of a joint-list routine's kernel table.
pub(crate) type JointForm = Form<JointKernel>;

/// The most joints (and `index` entries) the interpolators take: the listings
/// scale an index with `shl ecx, JOINTQUAT_SIZE_SHIFT` in a 32-bit register,
/// so `index * 32` must stay below 2^32.
pub const MAX_JOINTS: usize = 1 << 27;

/// The one body of the joint-list interpolators' safe functions
/// (`slerp_joints`, `lerp_joints`), over the routine's kernel `table`: select
/// the form, validate everything before any write, apply the endpoint
/// rule, run the kernel.
pub(crate) fn run(
    table: &[JointForm],
    imp: crate::form::Impl,
    joints: &mut [JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
) -> Result<(), Error> {
    let form = crate::dispatch::select(table, imp, alignment(joints, blend))?;
    validate(&form, joints, blend, lerp, index)?;
    if endpoints(joints, blend, lerp, index) {
        return Ok(());
    }
    // SAFETY: `validate` checked every index entry against `joints.len() <=
    // blend.len()` and the lengths against `MAX_JOINTS` (which keeps the
    // listings' 32-bit offsets exact), and the alignment the form needs;
    // `joints` is borrowed mutably, so the lists do not overlap; `select`
    // returned a kernel this CPU can run.
    unsafe { (form.kernel)(joints.as_mut_ptr(), blend.as_ptr(), lerp, index.as_ptr(), index.len() as i32) };
    Ok(())
}

/// The alignment the two lists share, for [`crate::dispatch::select`].
pub(crate) fn alignment(joints: &[JointQuat], blend: &[JointQuat]) -> usize {
    alignment_of(&[joints.as_ptr() as usize, blend.as_ptr() as usize])
}

/// Checks everything the kernels' memory accesses depend on, in the order of
/// `docs/contract.md`, before any write: lengths, the factor, the index
/// entries, the alignment the form needs.
pub(crate) fn validate(
    form: &Selected<JointKernel>,
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
) -> Result<(), Error> {
    for (what, len) in [("joints", joints.len()), ("index", index.len())] {
        if len > MAX_JOINTS {
            return Err(Error::TooLong { what, len, max: MAX_JOINTS });
        }
    }
    if blend.len() < joints.len() {
        return Err(Error::TooShort { what: "blend", needed: joints.len(), found: blend.len() });
    }
    if !lerp.is_finite() {
        return Err(Error::NonFiniteFactor { what: "lerp", position: None, value: lerp });
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
    form.check_align(&[("joints", joints.as_ptr() as usize), ("blend", blend.as_ptr() as usize)])
}

/// The endpoint rule of every interpolating safe function (the listings' own
/// early-outs, applied by the safe function for every form): `lerp <= 0`
/// keeps the joints (returns `true`), `lerp >= 1` copies the indexed blend
/// joints (returns `true`); otherwise `false` and the kernel runs.
pub(crate) fn endpoints(joints: &mut [JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32]) -> bool {
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
