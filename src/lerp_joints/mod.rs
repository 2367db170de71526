//! `LerpJoints`: linear interpolation with renormalisation between two joint lists, from
//! J.M.P. van Waveren, *Slerping Clock Cycles* (id Software, 2005), section 4
//! and Appendix B.
//!
//! - [`scalar`]: the paper's `Lerp` and the joint loop over `Lerp` and
//!   `Vec4Lerp` that the paper times as "C".
//! - [`intrinsics`]: Appendix B with SSE intrinsics, bit-identical to the asm.
//! - [`asm`]: Appendix B in `asm!`, instruction for instruction.
//!
//! `asm_notes/lerp_joints.md` walks through the listing and its errata.

pub mod scalar;

#[cfg(all(target_arch = "x86_64", not(miri)))]
pub mod asm;
#[cfg(target_arch = "x86_64")]
pub mod intrinsics;

pub use crate::joint_args::MAX_JOINTS;
use crate::joint_args::{JointKernel, run};
use crate::{Error, Impl, JointQuat};

/// Lerps and renormalises the rotations and lerps the translations of `joints[j]` towards
/// `blend[j]` by `lerp`, in place, for every `j` in `index` (the paper's
/// `LerpJoints`).
///
/// As the listing: `lerp <= 0` leaves the joints as they are and `lerp >= 1`
/// copies the indexed blend joints, with every [`Impl`]. Rotations take the
/// shorter arc (the blend quaternion's sign is flipped when the dot product
/// is negative) and are renormalised; they trace the slerp's arc at a
/// varying speed. The listing's `rsqrtps` and Newton-Raphson step make the
/// SIMD forms differ from the scalar port by a few ulp (see
/// `tests/accuracy.rs`); [`Impl::Asm`] and [`Impl::Intrinsics`] agree bit for
/// bit.
///
/// # Errors
///
/// Checked before anything is written:
/// - [`Error::Unsupported`]: `imp` cannot run here;
/// - [`Error::TooManyJoints`]: `joints` or `index` has more than [`MAX_JOINTS`] elements;
/// - [`Error::TooShort`]: `blend` is shorter than `joints`;
/// - [`Error::NonFiniteLerp`]: `lerp` is NaN or infinite;
/// - [`Error::IndexOutOfRange`]: an `index` entry is negative or `>= joints.len()`.
///
/// Input that only changes results is accepted and computed as the listing
/// computes it: duplicate entries in `index` (within one group of four of the
/// 4-wide loop the translation of a duplicated joint is interpolated twice but
/// its rotation once, from the original value; the scalar port interpolates
/// both twice), non-unit quaternions, and NaN or infinite values in the
/// joints.
///
/// # Panics
///
/// If `joints` or `blend` is not 16-byte aligned, which the crate's types
/// rule out.
pub fn lerp_joints(
    imp: Impl,
    joints: &mut [JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
) -> Result<(), Error> {
    let kernel: JointKernel = match imp.check()? {
        Impl::Scalar => scalar::lerp_joints,
        #[cfg(target_arch = "x86_64")]
        Impl::Intrinsics => intrinsics::lerp_joints,
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        Impl::Asm => asm::lerp_joints,
        #[allow(unreachable_patterns)]
        other => return Err(Error::Unsupported(other)),
    };
    run(imp, kernel, joints, blend, lerp, index)
}
