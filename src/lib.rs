//! # animasm
//!
//! The classic SIMD skeletal-animation kernels, brought back to life. Between
//! 2005 and 2012 J.M.P. van Waveren (id Software), Intel and Arseny
//! Kapoulkine published hand-scheduled SSE/AVX routines for interpolating
//! joint lists, converting between quaternions and matrices and transforming
//! skeletons. This crate carries each published routine in three forms side
//! by side:
//!
//! - **[`Impl::Asm`]**: the paper's listing, instruction for instruction and
//!   register for register, in `core::arch::asm!`;
//! - **[`Impl::Intrinsics`]**: the same operations in the same order with
//!   `core::arch::x86_64` intrinsics, bit-identical to the asm;
//! - **[`Impl::Scalar`]**: the paper's C routine ported line by line; it runs
//!   on every target.
//!
//! Each routine has a module holding the three forms as raw `unsafe` kernels
//! with the paper's pointer-and-count signature, and a safe function at the
//! crate root that validates its input and returns [`Error`] before anything
//! is written:
//!
//! | safe function | paper | listing |
//! |---|---|---|
//! | [`slerp_joints()`] | *Slerping Clock Cycles* | Appendix A, `SlerpJoints` |
//! | [`lerp_joints()`] | *Slerping Clock Cycles* | Appendix B, `LerpJoints` |
//! | [`quats_to_mats()`] | *From Quaternion to Matrix and Back* | Appendix A, `ConvertJointQuatsToJointMats` |
//! | [`mats_to_quats()`] | *From Quaternion to Matrix and Back* | Appendix B, `ConvertJointMatsToJointQuats` |
//! | [`transform_skeleton()`] | *The Skeleton Assembly Line* | Appendix A, `TransformSkeleton` |
//! | [`transform_skeleton_movss_shufps()`] | *The Skeleton Assembly Line* | Appendix A with section 3's `movss` + `shufps` broadcast |
//! | [`untransform_skeleton()`] | *The Skeleton Assembly Line* | Appendix B, `UntransformSkeleton` |
//! | [`transform_joints()`] | *The Skeleton Assembly Line* | Appendix C, `TransformJoints` |
//! | [`slerp_quats_as_published()`], [`slerp_quats_corrected()`], [`slerp_quats_sse()`] | Mehrotra, Hubbard, *Benefits of Intel AVX for Quaternion Spherical Linear Interpolation* | `ProcessOptimizedKernel` (AVX), as published and corrected, and the SSE baseline of its Table 1 |
//! | [`nlerp()`], [`fnlerp()`], [`onlerp()`] | Kapoulkine, *Optimizing slerp* | scalar, SSE2 4-wide, AVX2 8-wide and FMA ([`NlerpWidth`]) |
//!
//!
//! ```
//! use animasm::{slerp_joints, Impl, JointQuat, Quat, Vec4};
//!
//! let a = JointQuat::new(Quat::IDENTITY, Vec4::new(0.0, 0.0, 0.0, 1.0));
//! let b = JointQuat::new(Quat::new(0.0, 0.0, 1.0, 0.0), Vec4::new(2.0, 0.0, 0.0, 1.0));
//! let mut joints = vec![a; 8];
//! let blend = vec![b; 8];
//! let index: Vec<i32> = (0..8).collect();
//! slerp_joints(Impl::default(), &mut joints, &blend, 0.5, &index)?;
//! let h = core::f32::consts::FRAC_1_SQRT_2;
//! assert!((joints[3].q.z - h).abs() < 1e-6 && (joints[3].q.w - h).abs() < 1e-6);
//! assert!((joints[3].t.x - 1.0).abs() < 1e-6);
//! # Ok::<(), animasm::Error>(())
//! ```
//!
//! `asm_notes/` in the repository walks through every listing block by block,
//! with its reconstruction from the OCR'd papers, the deviations of the port
//! and the errata of the original. `cargo run --release --example report`
//! measures every routine against the papers' own tables.
//!
//! ## Portability
//!
//! The asm and intrinsics kernels exist on `x86_64` (the listings are 32-bit
//! x86; DESIGN.md's rules translate them to 64-bit). On every other target
//! only [`Impl::Scalar`] is available and the others return
//! [`Error::Unsupported`]. The crate is `#![no_std]`; the default `std`
//! feature uses the platform's math library in the scalar ports (otherwise
//! `libm`) and enables run-time CPU detection for kernels beyond SSE2.
//!
//! ## License
//!
//! LGPL-2.1-or-later, as the id Software listings it ports. The listings are
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "std")]
extern crate std;

pub mod consts;
mod error;
mod joint_args;
pub mod math;
mod skeleton_args;
#[cfg(target_arch = "x86_64")]
mod slerp_core;
pub mod sse;
mod types;

pub mod lerp_joints;
pub mod mats_to_quats;
pub mod nlerp;
pub mod quats_to_mats;
pub mod slerp_joints;
pub mod slerp_quats;
pub mod transform_joints;
pub mod transform_skeleton;
pub mod untransform_skeleton;

pub use error::Error;
pub use lerp_joints::lerp_joints;
pub use mats_to_quats::mats_to_quats;
pub use nlerp::{Width as NlerpWidth, fnlerp, nlerp, onlerp};
pub use quats_to_mats::quats_to_mats;
pub use slerp_joints::slerp_joints;
#[cfg(feature = "std")]
pub use slerp_quats::AlignedQuats;
pub use slerp_quats::{QuatPair, slerp_quats_as_published, slerp_quats_corrected, slerp_quats_sse};
pub use transform_joints::transform_joints;
pub use transform_skeleton::{transform_skeleton, transform_skeleton_movss_shufps};
pub use untransform_skeleton::untransform_skeleton;

pub use types::*;

/// Which form of a routine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Impl {
    /// The paper's C routine ported line by line. Available on every target.
    Scalar,
    /// The listing's operations with `core::arch::x86_64` intrinsics,
    /// bit-identical to [`Impl::Asm`]. `x86_64` only.
    Intrinsics,
    /// The published listing in `asm!`, instruction for instruction.
    /// `x86_64` only.
    Asm,
}

impl Impl {
    /// Every implementation, in a fixed order (for tests, benches and reports).
    pub const ALL: [Impl; 3] = [Impl::Scalar, Impl::Intrinsics, Impl::Asm];

    /// Whether this implementation can run on this target.
    ///
    /// The id Software kernels need at most SSE2, which every `x86_64` CPU
    /// has. The AVX and AVX2 kernels ([`slerp_quats`], [`mod@nlerp`]) also
    /// detect the CPU's features at run time and return
    /// [`Error::MissingCpuFeature`] where they are missing.
    /// Under Miri, which cannot run `asm!`, [`Impl::Asm`] is not available
    /// (the asm kernels are compiled out with `cfg(not(miri))`).
    pub fn is_available(self) -> bool {
        match self {
            Impl::Scalar => true,
            Impl::Intrinsics => cfg!(target_arch = "x86_64"),
            Impl::Asm => cfg!(all(target_arch = "x86_64", not(miri))),
        }
    }

    /// A short lower-case name (`"scalar"`, `"intrinsics"`, `"asm"`).
    pub const fn name(self) -> &'static str {
        match self {
            Impl::Scalar => "scalar",
            Impl::Intrinsics => "intrinsics",
            Impl::Asm => "asm",
        }
    }

    /// `Ok(self)` if it can run here, else [`Error::Unsupported`].
    pub(crate) fn check(self) -> Result<Impl, Error> {
        if self.is_available() { Ok(self) } else { Err(Error::Unsupported(self)) }
    }
}

impl Default for Impl {
    /// The fastest measured on this target: the asm listing on `x86_64` (see
    /// the README's results), the scalar port elsewhere (and under Miri).
    fn default() -> Self {
        if cfg!(all(target_arch = "x86_64", not(miri))) { Impl::Asm } else { Impl::Scalar }
    }
}

impl core::fmt::Display for Impl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// `assert_16_byte_aligned( pointer )` of the listings, with a message that
/// names the argument. The crate's types are all `align(16)`, so this can
/// only fail if memory was reinterpreted unsafely.
#[track_caller]
pub(crate) fn assert_16_byte_aligned<T>(ptr: *const T, name: &str) {
    assert!(ptr as usize & 15 == 0, "animasm: `{name}` is not 16-byte aligned ({ptr:p})");
}

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
