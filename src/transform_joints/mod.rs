//! `TransformJoints`: multiplies two lists of 3x4 joint matrices element by
//! element, `result[i] = joints1[i] * joints2[i]`, from J.M.P. van Waveren,
//! *The Skeleton Assembly Line* (id Software, 2005), section 5 ("Transforming
//! Joints", the C routine `MultiplyJoints`) and Appendix C (the SSE listing;
//! the text of section 5 calls it "appendix B", an erratum).
//!
//! The use the paper has in mind is matrix palette skinning: the animated
//! model-space joints (`joints1`) times the precalculated inverse joint
//! matrices of the base pose (`joints2`).
//!
//! - [`scalar`]: `MultiplyJoints` of section 5, line by line (the OCR of the C
//!   is garbled; the port follows the math the text and the listing agree on),
//!   and the loop over it the paper times as "TransformJoints (C)".
//! - [`intrinsics`]: Appendix C with SSE2 intrinsics, bit-identical to the asm.
//! - [`asm`]: Appendix C in `asm!`, instruction for instruction; the OCR cuts
//!   the listing off inside its third row, which is rebuilt (see
//!   `asm_notes/transform_joints.md`).
//! - [`avx2`] (`Impl::Avx2`, AVX2 + FMA, chosen at run time): the successor,
//!   the same algorithm and contract rewritten for a 2026 core (rows 0 and 1
//!   in one 8-lane register, no `pshufd` broadcasts, the C's roundings); it
//!   corrects the listing's `+0.0` added to the rotation (E2). The fastest
//!   form where the CPU has it (1.37x the asm on an AMD EPYC Zen 3;
//!   `asm_notes/transform_joints.md`, "Successor: Impl::Avx2").
//! - [`avx512`] (`Impl::Avx512`, AVX-512 F/VL/DQ/BW, chosen at run time):
//!   four joints in three 512-bit vectors (every lane a result element),
//!   `joints2`'s rows by (masked) broadcasts from memory, the C's roundings,
//!   the translation as a masked add; the tail with masked loads and
//!   stores. The fastest form where the CPU has AVX-512 (1.2x `Avx2` on an
//!   Intel Xeon with AVX-512; `asm_notes/transform_joints.md`, "Successor:
//!   Impl::Avx512").
//! - `neon` (aarch64 only): the successor for NEON (`Impl::Neon`), one row
//!   per 4-lane register.
//! - `simd128` (wasm32 with SIMD128 only): the successor for wasm SIMD128
//!   (`Impl::Simd128`), the NEON form's lane arithmetic.
//! - [`portable`]: the successors' arithmetic in plain Rust
//!   (`Impl::Portable`), every target. It writes out the one order of
//!   operations that the four successors follow (the C's), so they give
//!   the same bits on every CPU (`Impl::Deterministic` picks the fastest).
//!
//! `asm_notes/transform_joints.md` walks through the listing.

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
pub mod portable;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

use crate::dispatch::{Form, Impl, alignment_of, form, routine_api, select};
use crate::error::Error;
use crate::types::{JOINTMAT_SIZE, JointMat};

/// The raw kernels' signature: `(result, joints1, joints2, numJoints)`.
type Kernel = crate::form::kernel::TransformJoints;

/// The forms of [`transform_joints()`], fastest first: the order
/// [`Impl::Auto`] tries them in (the measurements of `docs/results.md`).
pub(crate) static FORMS: &[Form<Kernel>] = &[
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::transform_joints, Successor on Simd128),
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::transform_joints, Successor on Neon),
    #[cfg(target_arch = "x86_64")]
    form!(Avx512 => avx512::transform_joints, Successor on Avx512),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::transform_joints, Successor on Avx2Fma),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::transform_joints, Listing on Sse2),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::transform_joints, ListingTwin on Sse2),
    form!(Portable => portable::transform_joints, Successor),
    form!(Scalar => scalar::transform_joints, PaperC),
];

routine_api!(FORMS, "transform_joints()", Kernel);

/// The most joints [`transform_joints`] takes: the listing computes
/// `numJoints * JOINTMAT_SIZE` with `imul eax, JOINTMAT_SIZE` in a 32-bit
/// register and counts a negative byte offset up to zero with `jl`, so the
/// byte size of a list must stay below 2^31 (44 739 242 joints).
pub const MAX_JOINTS: usize = i32::MAX as usize / JOINTMAT_SIZE;

/// Multiplies the 3x4 affine joint matrices element by element:
/// `result[i] = joints1[i] * joints2[i]` for every `i` (the paper's
/// `TransformJoints`, `MultiplyJoints` per joint).
///
/// The matrices are row-major 3x4 with an implicit last row `0 0 0 1`
/// (rotation in columns 0..3, translation in column 3, column vectors), so
/// `result[i]` applies `joints2[i]` first, then `joints1[i]`:
///
/// ```text
/// result.mat[r*4 + c] = joints1.mat[r*4 + 0] * joints2.mat[0*4 + c]
///                     + joints1.mat[r*4 + 1] * joints2.mat[1*4 + c]
///                     + joints1.mat[r*4 + 2] * joints2.mat[2*4 + c]
///                     ( + joints1.mat[r*4 + 3]  for c == 3 )
/// ```
///
/// summed left to right in `f32` by every [`Impl`]. [`Impl::Asm`] and
/// [`Impl::Intrinsics`] agree bit for bit; they agree bit for bit with
/// [`Impl::Scalar`] too, except that the listing adds `+0.0` to the rotation
/// columns (it adds the translation with `andps` / `addps` on all four
/// lanes), so a rotation element that sums to `-0.0` comes out `+0.0` (see
/// `asm_notes/transform_joints.md`). The successors [`Impl::Avx512`] and
/// [`Impl::Avx2`] (where
/// the CPU has AVX-512, or AVX2 and FMA, and then what [`Impl::Auto`] runs),
/// [`Impl::Neon`] and [`Impl::Portable`] give the scalar port's results bit
/// for bit, the C's `-0.0` included, on every CPU. The number of joints is
/// `result.len()`.
///
/// NaN and infinite values are memory-safe and computed as the listing
/// computes them.
///
/// # Errors
///
/// Checked in this order, before anything is written:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`]: the form needs CPU features this CPU lacks;
/// - [`Error::TooLong`]: `result` has more than [`MAX_JOINTS`] elements;
/// - [`Error::LengthMismatch`]: `joints1` (checked first) or `joints2` does not
///   have `result.len()` elements (`what` names the argument);
/// - [`Error::Misaligned`]: never with safe code (no form needs more than the
///   16 bytes the types guarantee).
pub fn transform_joints(
    imp: Impl,
    result: &mut [JointMat],
    joints1: &[JointMat],
    joints2: &[JointMat],
) -> Result<(), Error> {
    let (r, a, b) = (result.as_ptr() as usize, joints1.as_ptr() as usize, joints2.as_ptr() as usize);
    let form = select(FORMS, imp, alignment_of(&[r, a, b]))?;
    let len = result.len();
    if len > MAX_JOINTS {
        return Err(Error::TooLong { what: "result", len, max: MAX_JOINTS });
    }
    if joints1.len() != len {
        return Err(Error::LengthMismatch { what: "joints1", expected: len, found: joints1.len() });
    }
    if joints2.len() != len {
        return Err(Error::LengthMismatch { what: "joints2", expected: len, found: joints2.len() });
    }
    form.check_align(&[("result", r), ("joints1", a), ("joints2", b)])?;
    // SAFETY: the three slices have `len <= MAX_JOINTS` elements (which
    // keeps the kernel's 32-bit `numJoints * JOINTMAT_SIZE` exact), aligned
    // as the form needs (checked); `result` is borrowed mutably, so it
    // overlaps neither input; `select` returned a kernel this CPU can run.
    unsafe { (form.kernel)(result.as_mut_ptr(), joints1.as_ptr(), joints2.as_ptr(), len as i32) };
    Ok(())
}
