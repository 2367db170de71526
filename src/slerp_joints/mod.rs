//! `SlerpJoints`: spherical linear interpolation between two joint lists, from
//! J.M.P. van Waveren, *Slerping Clock Cycles* (id Software, 2005), sections 3
//! to 6 and Appendix A.
//!
//! - [`scalar`]: every C routine of the paper, line by line; the paper times
//!   [`scalar::slerp_joints`] (the loop over `Slerp`) as "C".
//! - [`intrinsics`]: Appendix A with SSE intrinsics, bit-identical to the asm.
//! - [`asm`]: Appendix A in `asm!`, instruction for instruction.
//! - [`avx2`]: the successor (`Impl::Avx2`, AVX2 + FMA): the listing's algorithm
//!   on eight joints per block, three blocks of eight per iteration, with a padded last block
//!   instead of the 1-wide loop; the fastest form where the CPU has AVX2 and
//!   FMA (`asm_notes/slerp_joints.md`, "Successor: Impl::Avx2").
//! - [`portable`]: the successor in plain Rust (`Impl::Portable`), one joint
//!   at a time; its module documentation writes out the one order of
//!   operations that every successor follows.
//! - `neon` (`aarch64` only): the successor on NEON (`Impl::Neon`), four
//!   joints per block, two blocks per group.
//! - `simd128` (`wasm32` built with SIMD128 only): the successor on wasm
//!   SIMD128 (`Impl::Simd128`), the NEON form's twin, three blocks per
//!   group, with an exact fused multiply-add from f64 pairs.
//!
//! The successors (`Portable`, `Avx2`, `Avx512`, `Neon`, `Simd128`) give the
//! same bits on every CPU: no estimate instructions (correctly rounded square roots and
//! divisions), one order of operations with the fused multiply-adds in the
//! same places, and one rule for duplicate `index` entries (applied in
//! list order, as the paper's C).
//!
//! `asm_notes/slerp_joints.md` walks through the listing and its errata.

#[cfg(target_arch = "aarch64")]
pub mod neon;
pub mod portable;
pub mod scalar;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

#[cfg(all(target_arch = "x86_64", not(miri)))]
pub mod asm;
#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "x86_64")]
pub mod intrinsics;

use crate::dispatch::{Impl, form, routine_api};
use crate::error::Error;
pub use crate::joint_args::MAX_JOINTS;
use crate::joint_args::{self, JointForm, JointKernel};
use crate::types::JointQuat;

/// The forms of [`slerp_joints()`], fastest first: the order [`Impl::Auto`] tries
/// them in (the measurements of `docs/results.md`: the intrinsics twin is as fast as
/// the asm listing or faster on the CPUs measured; the AVX2 + FMA successor
/// is faster than both; the AVX-512 successor comes after it (on an Intel
/// Xeon with AVX-512 it is 1.02-1.15x `Avx2` back to back at 1024 joints,
/// but 0.67-0.89x after a pause without 512-bit work and 0.57-0.75x at a
/// character's 24 joints: the report's "after a pause" section); on `aarch64` the NEON successor comes first, on
/// `wasm32` with SIMD128 the SIMD128 one (faster than `Portable`; how it
/// compares with the scalar port: `asm_notes/slerp_joints.md`); the
/// portable successor comes before the scalar port of the paper's C, see
/// `asm_notes/slerp_joints.md`).
pub(crate) static FORMS: &[JointForm] = &[
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::slerp_joints, Successor on Simd128),
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::slerp_joints, Successor on Neon),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::slerp_joints, Successor on Avx2Fma),
    #[cfg(target_arch = "x86_64")]
    form!(Avx512 => avx512::slerp_joints, Successor on Avx512),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::slerp_joints, ListingTwin on Sse2),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::slerp_joints, Listing on Sse2),
    form!(Portable => portable::slerp_joints, Successor),
    form!(Scalar => scalar::slerp_joints, PaperC),
];

routine_api!(FORMS, "slerp_joints()", JointKernel);

/// Slerps the rotations and lerps the translations of `joints[j]` towards
/// `blend[j]` by `lerp`, in place, for every `j` in `index` (the paper's
/// `SlerpJoints`).
///
/// The endpoint rule of every interpolating safe function (`docs/contract.md`;
/// here it is the listing's own): `lerp <= 0` leaves the joints as
/// they are and `lerp >= 1` copies the indexed blend joints, with every
/// [`Impl`]. Rotations take the
/// shorter arc (the blend quaternion's sign is flipped when the dot product
/// is negative). The three implementations agree to about 5e-7 (see
/// `tests/accuracy.rs`); [`Impl::Asm`] and [`Impl::Intrinsics`] agree bit for
/// bit.
///
/// # Errors
///
/// Checked in this order, before anything is written:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`]: the form needs CPU features this CPU lacks;
/// - [`Error::TooLong`]: `joints` or `index` has more than [`MAX_JOINTS`] elements;
/// - [`Error::TooShort`]: `blend` is shorter than `joints`;
/// - [`Error::NonFiniteFactor`]: `lerp` is NaN or infinite;
/// - [`Error::IndexOutOfRange`]: an `index` entry is negative or `>= joints.len()`;
/// - [`Error::Misaligned`]: a list lacks the alignment the form needs (none
///   of this routine's forms needs more than the 16 bytes [`JointQuat`]
///   guarantees, so this cannot happen with safe code).
///
/// Input that only changes results is accepted: non-unit quaternions, NaN
/// or infinite values in the joints, and duplicate entries in `index`. A
/// joint named twice is interpolated twice, in list order, the second time
/// from the first's result (as calling the function once per entry), by
/// [`Impl::Scalar`] (the paper's C) and by every successor
/// ([`Impl::Portable`], [`Impl::Avx2`], [`Impl::Avx512`], [`Impl::Neon`],
/// [`Impl::Simd128`] and so [`Impl::Deterministic`], which agree bit for bit
/// on it too);
/// [`Impl::Asm`] and [`Impl::Intrinsics`] compute it as the listing does:
/// within one group of four of the 4-wide loop the translation of a
/// duplicated joint is interpolated twice but its rotation once, from the
/// original value.
pub fn slerp_joints(
    imp: Impl,
    joints: &mut [JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
) -> Result<(), Error> {
    joint_args::run(FORMS, imp, joints, blend, lerp, index)
}
