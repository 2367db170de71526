//! `TransformSkeleton`: joint matrices from local (relative to the parent) to
//! global (model) space, in place, from J.M.P. van Waveren, *The Skeleton
//! Assembly Line* (id Software, 2005), section 3 and Appendix A.
//!
//! - [`scalar`]: the C of section 3 (`TransformJoint`, `TransformSkeleton`),
//!   line by line, rebuilt where the OCR mangled it; the paper times
//!   [`scalar::transform_skeleton`] as "C" (130 cycles per joint on a
//!   Pentium 4, 130 nm).
//! - [`intrinsics`]: Appendix A with SSE2 intrinsics, bit-identical to the asm.
//! - [`asm`]: Appendix A in `asm!`, instruction for instruction (53 cycles
//!   per joint in the paper), and [`asm::transform_skeleton_movss_shufps`],
//!   the listing with section 3's other way to broadcast a scalar (`movss` +
//!   `shufps` instead of `pshufd`), which the paper recommends timing too.
//! - [`avx2`] (`Impl::Avx2`, AVX2 + FMA, chosen at run time): the successor,
//!   the same algorithm and contract rewritten for a 2026 core (rows 0 and 1
//!   in one 8-lane register, FMA chains, no `pshufd` broadcasts); it corrects
//!   erratum E1 and rounds differently from the C (one rounding per FMA).
//!   The fastest form where the CPU has it (1.6x the asm on an AMD EPYC
//!   Zen 3; `asm_notes/transform_skeleton.md`, "Successor: Impl::Avx2").
//! - [`avx512`]: the successor for AVX-512 F/VL/DQ/BW, a whole matrix in
//!   one `zmm` register (half `Avx2`'s arithmetic per joint), Portable's
//!   bits. **Not in the routine's table** (no `Impl::Avx512`): the parent to
//!   child chain bounds the routine, and the form was slower than `Avx2` on
//!   the Fox's skeleton and a pure chain (measured on an Intel Xeon with
//!   AVX-512; `asm_notes/transform_skeleton.md`, "Successor: Impl::Avx512");
//!   its raw kernel is public and tested against `Impl::Portable`.
//! - [`portable`] (`Impl::Portable`, every target): the successor in plain
//!   Rust, one joint at a time, which writes out the successors' one order
//!   of operations ([`portable::transform_joint`]); `crate::portable`'s
//!   `mul_add` wherever the SIMD successors fuse.
//! - `neon` (`Impl::Neon`, `aarch64`): the successor with NEON intrinsics
//!   (multiply-adds by element, no broadcasts), the fastest form there.
//! - `simd128` (`Impl::Simd128`, `wasm32` with SIMD128): the NEON form's
//!   lane arithmetic with an exact emulated fused multiply-add, the fastest
//!   successor there.
//!
//! The four successors give the same bits for the same input on every CPU
//! (NaN results aside), which [`Impl::Deterministic`] asks for.
//!
//! Each joint becomes `parent * local` for row-major 3x4 affine matrices
//! (column vectors, `v' = M v`; rotation in columns 0..3, translation in
//! column 3): rotation `R_parent * R_local`, translation `R_parent *
//! t_local + t_parent`. Parents must come before their children, so that a
//! parent is already global when its child is transformed.
//!
//! `asm_notes/transform_skeleton.md` walks through the listing, its
//! reconstruction and its one erratum.

pub mod portable;
pub mod scalar;

#[cfg(all(target_arch = "x86_64", not(miri)))]
pub mod asm;
#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "x86_64")]
pub mod intrinsics;
#[cfg(target_arch = "aarch64")]
pub mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

use core::ops::RangeInclusive;

use crate::dispatch::{Impl, form, routine_api};
use crate::error::Error;
pub use crate::skeleton_args::MAX_JOINTS;
use crate::skeleton_args::{self, SkeletonForm, SkeletonKernel};
use crate::types::JointMat;

/// The forms of [`transform_skeleton()`], fastest first: the order [`Impl::Auto`] tries
/// them in (the measurements of `docs/results.md`).
pub(crate) static FORMS: &[SkeletonForm] = &[
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::transform_skeleton, Successor on Simd128),
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::transform_skeleton, Successor on Neon),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::transform_skeleton, Successor on Avx2Fma),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::transform_skeleton, Listing on Sse2),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::transform_skeleton, ListingTwin on Sse2),
    form!(Portable => portable::transform_skeleton, Successor),
    form!(Scalar => scalar::transform_skeleton, PaperC),
];

/// The forms of [`transform_skeleton_movss_shufps()`], fastest first: the order [`Impl::Auto`] tries
/// them in (the measurements of `docs/results.md`).
pub(crate) static FORMS_MOVSS_SHUFPS: &[SkeletonForm] = &[
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::transform_skeleton_movss_shufps, Listing on Sse2),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::transform_skeleton_movss_shufps, ListingTwin on Sse2),
    form!(Scalar => scalar::transform_skeleton, PaperC),
];

routine_api!(FORMS, "transform_skeleton()", SkeletonKernel);

/// The forms of [`transform_skeleton_movss_shufps()`] (the listing's
/// `movss` + `shufps` variant has no successor form, so its table differs
/// from [`transform_skeleton()`]'s): `forms()`, `resolve()` and `kernel()` as
/// the module's own.
pub mod movss_shufps {
    use super::FORMS_MOVSS_SHUFPS;
    use crate::dispatch::routine_api;
    use crate::skeleton_args::SkeletonKernel;

    routine_api!(FORMS_MOVSS_SHUFPS, "super::transform_skeleton_movss_shufps()", SkeletonKernel);
}

/// Transforms `mats[joints]` from local to global space, in place: for each
/// `i` in `joints`, in order, `mats[i] = mats[parents[i]] * mats[i]` (the
/// paper's `TransformSkeleton( jointMats, parents, firstJoint, lastJoint )`
/// with `joints = firstJoint..=lastJoint`).
///
/// The matrices are row-major 3x4 affine transforms for column vectors; the
/// parent multiplies from the left, so a joint's rotation becomes `R_parent *
/// R_local` and its translation `R_parent * t_local + t_parent`. Joints
/// outside the range are read (as parents) but not written; the range can
/// split a skeleton into sequences transformed separately, as section 3
/// describes. [`Impl::Asm`] runs Appendix A (`pshufd` broadcasts); the
/// `movss` + `shufps` variant is [`transform_skeleton_movss_shufps`].
///
/// The range follows slice indexing: its joints must be joints of `mats`,
/// and an empty range (`1..=0`, or an exhausted `RangeInclusive`) must start
/// at most at `mats.len()` (`1..=0` on a single root is `Ok`, `1000..=999`
/// on ten joints is an error); it then does nothing and returns `Ok`, as
/// the listing's `jl done`. A skeleton with several roots, or one whose
/// joints are not parents-first, goes through [`crate::Skeleton`], which
/// calls this function once per root-free run.
///
/// [`Impl::Scalar`], [`Impl::Intrinsics`] and [`Impl::Asm`] give the same results bit for bit, except that
/// [`Impl::Asm`] and [`Impl::Intrinsics`] turn a `-0.0` in the rotation part
/// into `+0.0` (the listing adds `(0, 0, 0, t)` to every row; erratum E1 of
/// `asm_notes/transform_skeleton.md`), which can carry on to the children of
/// that joint as zeros of the other sign (in any column), and that NaN
/// outputs may differ in payload. Non-finite values and matrices that are not rotations are
/// computed as the listing computes them. The successors, [`Impl::Avx2`]
/// (where the CPU has AVX2 and FMA, and then what [`Impl::Auto`] runs),
/// [`Impl::Neon`] (`aarch64`, what [`Impl::Auto`] runs there) and
/// [`Impl::Portable`] (every target), fuse each multiply-add, so their
/// results differ from the others' in the last bits; they keep the C's
/// `-0.0` (they correct E1), and they give the same bits as each other on
/// every CPU (NaN payloads aside; [`Impl::Deterministic`] picks the fastest
/// of them).
///
/// # Errors
///
/// Checked in this order, before anything is written:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`]: the form needs CPU features this CPU lacks;
/// - [`Error::TooLong`]: `mats` has more than [`MAX_JOINTS`]
///   elements;
/// - [`Error::RangeOutOfBounds`]: the last joint of the range is not below
///   `mats.len()`, or the range is empty and starts after `mats.len()`;
/// - (an empty range returns `Ok(())` here;)
/// - [`Error::TooShort`] (`what: "parents"`): `parents` has no entry for the
///   last joint of the range;
/// - [`Error::InvalidParent`]: a joint `i` of the range has a parent that is
///   negative or not before it (`parents[i] < 0` or `parents[i] >= i`). A
///   root has no parent (`-1`), so a range that starts at the root (joint
///   0) is an error: transform from joint 1 and set the root's global matrix
///   yourself. Joints outside the range may have any parent.
pub fn transform_skeleton(
    imp: Impl,
    mats: &mut [JointMat],
    parents: &[i32],
    joints: RangeInclusive<usize>,
) -> Result<(), Error> {
    skeleton_args::run(FORMS, imp, mats, parents, joints)
}

/// [`transform_skeleton()`] with the `movss` + `shufps` broadcast of section
/// 3 instead of Appendix A's `pshufd` (**not the paper's listing**: the
/// alternative the paper says to time against it). [`Impl::Asm`] runs
/// [`asm::transform_skeleton_movss_shufps`], [`Impl::Intrinsics`] its twin
/// [`intrinsics::transform_skeleton_movss_shufps`]; [`Impl::Scalar`] runs the
/// C port, as [`transform_skeleton()`] does. Results are those of
/// [`transform_skeleton()`]'s listing forms bit for bit (NaN payloads
/// aside). The variant has no successor form ([`Impl::Avx2`],
/// [`Impl::Portable`], [`Impl::Neon`] and [`Impl::Deterministic`] give
/// `Error::Unsupported`); [`Impl::Auto`] runs the asm (the scalar port off
/// `x86_64`).
///
/// # Errors
///
/// As [`transform_skeleton()`].
///
pub fn transform_skeleton_movss_shufps(
    imp: Impl,
    mats: &mut [JointMat],
    parents: &[i32],
    joints: RangeInclusive<usize>,
) -> Result<(), Error> {
    skeleton_args::run(FORMS_MOVSS_SHUFPS, imp, mats, parents, joints)
}
