//! `UntransformSkeleton`: joint matrices from global (object or world) space
//! back to local space (relative to their parents), in place, from J.M.P. van
//! Waveren, *The Skeleton Assembly Line* (id Software, 2005), section 4 and
//! Appendix B. It is the opposite of `TransformSkeleton` (section 3,
//! Appendix A, [`crate::transform_skeleton()`]).
//!
//! - [`scalar`]: the paper's `UntransformJoint` and `UntransformSkeleton`,
//!   line by line (the OCR'd C is partly garbled; the port writes every line
//!   from the formula the surviving lines and the listing agree on); the
//!   paper times the loop as "C".
//! - [`intrinsics`]: Appendix B with SSE2 intrinsics, bit-identical to the asm.
//! - [`asm`]: Appendix B in `asm!`, instruction for instruction.
//! - [`avx2`] (`Impl::Avx2`, AVX2 + FMA, chosen at run time): the successor,
//!   the same algorithm and contract rewritten for a 2026 core (rows 0 and 1
//!   in one 8-lane register, one `vpermilps` for two broadcasts, FMA); the
//!   fastest form where the CPU has it (1.5x the asm on an AMD EPYC Zen 3;
//!   `asm_notes/untransform_skeleton.md`, "Successor: Impl::Avx2").
//! - [`avx512`]: the successor for AVX-512 F/VL/DQ/BW, a whole matrix in
//!   one `zmm` register (half `Avx2`'s shuffles per joint), Portable's bits.
//!   **Not in the routine's table** (no `Impl::Avx512`): the routine is at
//!   its memory floor already, and the form was no faster than `Avx2` at
//!   1024 joints and slower at 65536 (measured on an Intel Xeon with
//!   AVX-512; `asm_notes/untransform_skeleton.md`, "Successor:
//!   Impl::Avx512"); its raw kernel is public and tested against
//!   `Impl::Portable`.
//! - [`portable`] (`Impl::Portable`, every target): the successor in plain
//!   Rust, one joint at a time, which writes out the successors' one order
//!   of operations ([`portable::untransform_joint`]); `crate::portable`'s
//!   `mul_add` wherever the SIMD successors fuse.
//! - `neon` (`Impl::Neon`, `aarch64`): the successor with NEON intrinsics
//!   (multiply-adds by element, no shuffles), the fastest form there.
//! - `simd128` (`Impl::Simd128`, `wasm32` with SIMD128): the NEON form's
//!   lane arithmetic with an exact emulated fused multiply-add, the fastest
//!   successor there.
//!
//! The scalar port, the intrinsics and the asm compute the same roundings in
//! the same order: on every input whose result is not a NaN they agree bit
//! for bit. The successors fuse each multiply-add (one rounding instead of
//! two), so they differ from them in the last bits; the four successors
//! give the same bits as each other on every CPU (NaN results aside), which
//! [`Impl::Deterministic`] asks for.
//! `asm_notes/untransform_skeleton.md` walks through the listing.

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

/// The forms of [`untransform_skeleton()`], fastest first: the order [`Impl::Auto`] tries
/// them in (the measurements of `docs/results.md`).
pub(crate) static FORMS: &[SkeletonForm] = &[
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::untransform_skeleton, Successor on Simd128),
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::untransform_skeleton, Successor on Neon),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::untransform_skeleton, Successor on Avx2Fma),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::untransform_skeleton, Listing on Sse2),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::untransform_skeleton, ListingTwin on Sse2),
    form!(Portable => portable::untransform_skeleton, Successor),
    form!(Scalar => scalar::untransform_skeleton, PaperC),
];

routine_api!(FORMS, "untransform_skeleton()", SkeletonKernel);

/// Turns the global joint matrices `mats[joints]` back into local ones
/// (relative to their parents), in place, last joint first (the paper's
/// `UntransformSkeleton( jointMats, parents, firstJoint, lastJoint )`):
/// `mats[i] = inverse(mats[parents[i]]) * mats[i]` for `i` from
/// `joints.end()` down to `joints.start()`, where each parent is still a
/// global matrix when its children read it.
///
/// Matrices are row-major 3x4 `[R | t]` for column vectors (`global[i] =
/// global[parent] * local[i]`), as `transform_skeleton` builds them. The
/// inverse is taken as the rigid one, `[R^T | -R^T t]`: the paper assumes
/// orthonormal rotations (its section 2), and the routine computes `mats[i]
/// = Rp^T (mats[i] - tp)` exactly as its C and its listing do. With a parent
/// that scales or shears, the result is not the local matrix (it is `Rp^T`
/// applied, not `Rp^-1`). Joints outside the range are neither read
/// (except as parents) nor written; a parent before the range must already
/// be global.
///
/// [`Impl::Scalar`], [`Impl::Intrinsics`] and [`Impl::Asm`] agree bit for bit
/// on every input whose results are not NaNs (NaN results are NaNs in all
/// three). The successors, [`Impl::Avx2`] (where the CPU has AVX2 and FMA,
/// and then what [`Impl::Auto`] runs), [`Impl::Neon`] (`aarch64`, what
/// [`Impl::Auto`] runs there) and [`Impl::Portable`] (every target), fuse
/// each multiply-add, so their results differ from theirs in the last bits;
/// they give the same bits as each other on every CPU (NaN payloads aside;
/// [`Impl::Deterministic`] picks the fastest of them). The range follows slice indexing: an
/// empty range (`start > end`, or an exhausted range) that starts at most at
/// `mats.len()` returns `Ok(())` and touches nothing, as the listing's `jl
/// done`; one that starts after it is an error. [`crate::Skeleton`] calls
/// this function once per root-free run of a multi-root skeleton.
///
/// # Errors
///
/// Checked before anything is written, in this order:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`]: the form needs CPU features this CPU lacks;
/// - [`Error::TooLong`]: `mats` has more than [`MAX_JOINTS`]
///   elements;
/// - [`Error::RangeOutOfBounds`]: the last joint of the range is not a joint
///   of `mats`, or the range is empty and starts after `mats.len()`;
/// - (an empty range returns `Ok(())` here;)
/// - [`Error::TooShort`] (`what: "parents"`): `parents` has fewer than
///   `end + 1` entries;
/// - [`Error::InvalidParent`]: a joint `i` of the range (the first such,
///   lowest `i`) has a parent that is negative or not before it
///   (`parents[i] < 0 || parents[i] >= i`). A root has no parent (`-1`), so
///   a range that starts at the root (joint 0) is refused: untransform from
///   joint 1 (the root's global matrix is its local one). Joints outside the
///   range may have any parent.
///
/// Input that only changes results is accepted and computed as the listing
/// computes it: non-orthonormal parent rotations (see above), NaN or infinite
/// values.
pub fn untransform_skeleton(
    imp: Impl,
    mats: &mut [JointMat],
    parents: &[i32],
    joints: RangeInclusive<usize>,
) -> Result<(), Error> {
    skeleton_args::run(FORMS, imp, mats, parents, joints)
}
