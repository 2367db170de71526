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
//! [`Impl`] names every form of every routine (the nlerp article's widths
//! and the AVX article's SSE2 baseline too); [`Impl::Auto`], the default,
//! picks the fastest form the running CPU has, per routine. Each routine has
//! a module holding its forms as raw `unsafe` kernels with the paper's
//! pointer-and-count signature, its kernel table (`forms()` lists what runs
//! here), and a safe function at the crate root that validates its input
//! and returns [`Error`] before anything is written:
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
//! | [`slerp_quats_as_published()`], [`slerp_quats_corrected()`] | Mehrotra, Hubbard, *Benefits of Intel AVX for Quaternion Spherical Linear Interpolation* | `ProcessOptimizedKernel` (AVX), as published and corrected, and the SSE baseline of its Table 1 ([`Impl::Sse2`]) |
//! | [`nlerp()`], [`fnlerp()`], [`onlerp()`], [`slerp_stream()`] | Kapoulkine, *Optimizing slerp* | scalar, SSE2 4-wide, AVX2 8-wide and FMA |
//! | [`slerp_pose()`], [`lerp_pose()`] | *The Skeleton Assembly Line* | the whole line in one pass: blend, `[R \| t]`, `parent * local`, skin |
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
//! slerp_joints(Impl::Auto, &mut joints, &blend, 0.5, &index)?;
//! let h = core::f32::consts::FRAC_1_SQRT_2;
//! assert!((joints[3].q.z - h).abs() < 1e-6 && (joints[3].q.w - h).abs() < 1e-6);
//! assert!((joints[3].t.x - 1.0).abs() < 1e-6);
//! # Ok::<(), animasm::Error>(())
//! ```
//!
//! `asm_notes/` in the repository walks through every listing block by block,
//! with its reconstruction from the OCR'd papers, the deviations of the port
//! and the errata of the original. `cargo run --release -p devkit --example report`
//! measures every routine against the papers' own tables.
//!
//! ## Conventions
//!
//! The kernels read a quaternion `q` as the rotation `R(q*)` for column
//! vectors, the conjugate of glTF's and glam's reading: a glTF or glam
//! rotation goes in through [`JointQuat::from_gltf`] (or `from_glam`,
//! `from_mint` with those features), which conjugates it. A [`JointMat`] is
//! a row-major 3x4 `[R | t]` for column vectors, and
//! [`transform_skeleton()`] computes `model = parent * local`. The README's
//! "Conventions" section has the whole list (the `w` lane of translations,
//! `mats_to_quats`' sign, the skeleton ranges) and a glTF example;
//! [`Skeleton`] runs the skeleton kernels over a hierarchy in any order
//! with any number of roots.
//!
//! ## Portability
//!
//! The asm and intrinsics kernels exist on `x86_64` (the listings are 32-bit
//! x86; `asm_notes/README.md` gives the rules that translate them to
//! 64-bit). On every other target only [`Impl::Scalar`] (and [`Impl::Auto`],
//! which picks it) is available and the others return
//! [`Error::Unsupported`].
//!
//! ## Features
//!
//! The crate is `#![no_std]`. Its features:
//!
//! - `std` (default): run-time CPU detection for the kernels beyond SSE2
//!   (without it, only the `x86_64` baseline's forms run and the others
//!   return [`Error::MissingCpuFeature`]) and the platform's math library in
//!   the scalar ports (`libm` otherwise). Implies `alloc`.
//! - `alloc`: what needs an allocator and nothing else of `std`:
//!   [`AlignedQuats`] and [`Skeleton`].
//! - `glam`, `mint` (off by default): conversions from and to glam 0.30 and
//!   mint 0.5 types ([`interop`]).
//! - `approx` (off by default): approx 0.5's `assert_relative_eq!`,
//!   `assert_ulps_eq!` and `assert_abs_diff_eq!` on [`Quat`], [`Vec4`],
//!   [`JointQuat`] and [`JointMat`], component by component
//!   (`interop::approx`).
//!
//! ## License
//!
//! LGPL-2.1-or-later, as the id Software listings it ports. The listings are
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

// The layers, bottom up (ARCHITECTURE.md): types and errors; the dispatch
// layer; the shared pieces (scalar math, x86 constants/shuffles/slerp core,
// argument validation); the routines, which import from the layers below
// and never from each other.
mod dispatch;
mod error;
mod form;
pub mod isa;
mod joint_args;
mod math;
mod portable;
mod skeleton_args;
mod types;
#[cfg(target_arch = "x86_64")]
mod x86;
// The NEON pieces the aarch64 successors share (as `x86` for x86_64).
#[cfg(target_arch = "aarch64")]
mod aarch64;
// The wasm SIMD128 pieces the wasm32 successors share, in builds with it.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod wasm32;
// The loops over blocks of four joints the 4-lane successors share.
#[cfg_attr(
    not(any(target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128"))),
    allow(dead_code)
)]
mod blocks;

/// The listings' constant tables (`SIMD_SP_*`, the AVX article's `__m256`
/// constants, the nlerp coefficients), shared by every target's forms. Not
/// API: public only so that the crate's own tests can check them against
/// the papers and the disassembly.
#[doc(hidden)]
pub mod consts;

pub mod interop;
pub mod lerp_joints;
pub mod mats_to_quats;
pub mod nlerp;
pub mod pose;
pub mod quats_to_mats;
pub mod roster;
#[cfg(feature = "alloc")]
mod skeleton;
pub mod slerp_joints;
pub mod slerp_quats;
pub mod transform_joints;
pub mod transform_skeleton;
pub mod untransform_skeleton;

pub use error::Error;
pub use form::{Impl, Origin};
pub use isa::Isa;
/// Not API: the dispatch layer's test hooks (`_test-hooks` feature).
#[cfg(all(feature = "std", feature = "_test-hooks"))]
#[doc(hidden)]
pub use isa::test_hooks;
pub use lerp_joints::lerp_joints;
pub use mats_to_quats::mats_to_quats;
pub use nlerp::{fnlerp, nlerp, onlerp, slerp as slerp_stream};
pub use pose::{lerp_pose, slerp_pose};
pub use quats_to_mats::quats_to_mats;
#[cfg(feature = "alloc")]
pub use skeleton::Skeleton;
pub use slerp_joints::slerp_joints;
#[cfg(feature = "alloc")]
pub use slerp_quats::AlignedQuats;
pub use slerp_quats::{QuatPair, slerp_quats_as_published, slerp_quats_corrected};
pub use transform_joints::transform_joints;
pub use transform_skeleton::{transform_skeleton, transform_skeleton_movss_shufps};
pub use types::*;
pub use untransform_skeleton::untransform_skeleton;

/// The README's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
