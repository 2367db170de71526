//! `ConvertJointQuatsToJointMats`: joint quaternions to joint matrices, from
//! J.M.P. van Waveren, *From Quaternion to Matrix and Back* (id Software,
//! 2005), section 3 ("Quaternion to Matrix") and Appendix A ("SSE Optimized
//! Quaternion to Matrix Conversion", SSE with the SSE2 `pshufd`).
//!
//! - [`scalar`]: both C routines of section 3, line by line:
//!   [`scalar::quats_to_mats`] (grouped products; the paper times it as "C",
//!   54 cycles per joint on a P4 130nm) and [`scalar::quats_to_mats_prototype`]
//!   (the restructured prototype the SSE code is built from).
//! - [`intrinsics`]: Appendix A with SSE/SSE2 intrinsics, bit-identical to
//!   the asm.
//! - [`asm`]: Appendix A in `asm!`, instruction for instruction (35 in
//!   `loopQuat`, 42 in all; the paper: 30 cycles per joint).
//! - [`avx2`]: the successor for AVX2 and FMA (`Impl::Avx2`):
//!   eight joints per iteration in structure-of-arrays form, fused products,
//!   the rows put back together with in-lane transposes and blends, the tail
//!   through a zero-padded stack block. The fastest form where the CPU has
//!   AVX2 and FMA (1.66x the listing on an AMD EPYC, Zen 3), and more
//!   accurate than the listing (one rounding fewer per element);
//! - [`avx512`]: the successor for AVX-512 F/VL/DQ/BW (`Impl::Avx512`):
//!   sixteen joints per iteration, each output vector's operands picked
//!   straight from the loaded joints by two-source permutes (`vpermt2ps`)
//!   and combined with two fused multiply-adds per element, no transpose;
//!   the tail with masked loads and stores. The fastest form where the CPU
//!   has AVX-512 (1.3x `Avx2` on an Intel Xeon with AVX-512,
//!   `asm_notes/quats_to_mats.md`, "Successor: Impl::Avx512");
//! - `neon` (aarch64 only): the successor for NEON (`Impl::Neon`), the same
//!   lane arithmetic four joints at a time;
//! - `simd128` (wasm32 with SIMD128 only): the successor for wasm SIMD128
//!   (`Impl::Simd128`), the NEON form's lane arithmetic with an exact
//!   emulated fused multiply-add;
//! - [`portable`]: the successors' arithmetic in plain Rust
//!   (`Impl::Portable`), one joint at a time, every target. It writes out
//!   the one order of operations (which products are fused into which sums)
//!   that the five successors follow, so they give the same bits on every
//!   CPU (`Impl::Deterministic` picks the fastest of them).
//!
//! The SSE code does not convert four joints at a time: it computes one
//! joint per iteration as a "compressed calculation", nine products in three
//! multiplies and one `subps` per row (see `asm_notes/quats_to_mats.md`).
//!
//! # The matrix convention
//!
//! Section 3 defines, for the quaternion `(x, y, z, w)`,
//!
//! ```text
//!     | 1 - 2y² - 2z²   2xy + 2wz       2xz - 2wy     |
//! M = | 2xy - 2wz       1 - 2x² - 2z²   2yz + 2wx     |
//!     | 2xz + 2wy       2yz - 2wx       1 - 2x² - 2y² |
//! ```
//!
//! and the C and the SSE both store this `M` row by row into the rotation
//! part of [`JointMat::mat`] (`m[0*4+1] = xy2 + wz2`, `m[1*4+0] = xy2 -
//! wz2`), with the translation in column 3 (`m[r*4+3] = t[r]`; `t.w` is not
//! stored). `M` is the **transpose** of the usual rotation matrix of `q` for
//! column vectors (`v' = R v`, `R[0][1] = 2xy - 2wz`): it is the matrix of `q`
//! for row vectors (`v' = v M`), or equivalently the column-vector matrix of
//! the conjugate `(-x, -y, -z, w)`. Read as a column-vector affine transform
//! (`v' = M v + t`, as the translation column suggests) it rotates by `q⁻¹`.
//! The crate keeps the paper's convention; the paper's
//! `ConvertJointMatsToJointQuats` (section 4, [`crate::mats_to_quats()`])
//! inverts it (`q.z = (m[0*4+1] - m[1*4+0]) * s`). For the usual matrix,
//! transpose the 3x3 block or convert the conjugate quaternion.
//!
//! For a quaternion that is not of unit length the routines compute the same
//! formula (`1 - 2y² - 2z²` etc.) without normalising; NaN and infinities go
//! through the arithmetic as IEEE says. The translation is copied bit for
//! bit by the asm and the intrinsics; the compiled scalar routines copy it
//! bit for bit too, except that LLVM may turn a signalling NaN into the
//! same quiet NaN (rustc 1.95 does so in [`scalar::quats_to_mats_prototype`],
//! whose copy of `t.z` its SLP vectorizer folds into a vector `fadd` with
//! `-0.0`).
//!
//! `asm_notes/quats_to_mats.md` walks through the listing and its errata.

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
use crate::types::{JointMat, JointQuat};

/// The raw kernels' signature: `(jointMats, jointQuats, numJoints)`.
type Kernel = crate::form::kernel::QuatsToMats;

/// The forms of [`quats_to_mats()`], fastest first: the order [`Impl::Auto`]
/// tries them in (the measurements of `docs/results.md`; the successors' in
/// `asm_notes/quats_to_mats.md`, "Successor: Impl::Avx2" and "Successor:
/// Impl::Avx512"). `Avx2` before `Avx512`: the AVX-512 form wins back to
/// back (1.26-1.31x) and at 24 elements (1.08-1.09x) but lost after a pause
/// in one run of three (0.66x), and `Auto` keeps an AVX-512 form first only
/// where it loses in none (the report's "after a pause" section).
pub(crate) static FORMS: &[Form<Kernel>] = &[
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::quats_to_mats, Successor on Simd128),
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::quats_to_mats, Successor on Neon),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::quats_to_mats, Successor on Avx2Fma),
    #[cfg(target_arch = "x86_64")]
    form!(Avx512 => avx512::quats_to_mats, Successor on Avx512),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::quats_to_mats, Listing on Sse2),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::quats_to_mats, ListingTwin on Sse2),
    form!(Portable => portable::quats_to_mats, Successor),
    form!(Scalar => scalar::quats_to_mats, PaperC),
];

routine_api!(FORMS, "quats_to_mats()", Kernel);

/// The most joints [`quats_to_mats()`] takes: 2^26. The listing computes
/// `numJoints << JOINTQUAT_SIZE_SHIFT` in a 32-bit register and counts it up
/// to zero with a signed `jl`; that is exact while `32 * numJoints <= 2^31`.
/// (The 64-bit port would reach `2^27 - 1`; the limit keeps the original's
/// arithmetic exact too. A 2^26-joint list is 2 GiB of quaternions and 3 GiB
/// of matrices.)
pub const MAX_JOINTS: usize = 1 << 26;

/// Converts `quats[i]` (rotation and translation) into the 3x4 joint matrix
/// `mats[i]`, for every `i` (the paper's `ConvertJointQuatsToJointMats`).
///
/// The rotation part of `mats[i]` is the paper's matrix `M` of `quats[i].q`,
/// the transpose of the usual column-vector rotation matrix (see the
/// [module documentation](self)); column 3 is `quats[i].t.x`, `.y`, `.z`
/// copied bit for bit (with [`Impl::Scalar`] a signalling NaN may come out
/// quiet, see the module documentation). With [`Impl::Scalar`] it runs the
/// paper's first C routine ([`scalar::quats_to_mats`]). The three
/// listing-era implementations agree in the off-diagonal elements bit for
/// bit and in the diagonal within two roundings (one ulp measured; the
/// listing sums `1 - yy2 - zz2` as `(1 - zz2) - yy2`: erratum E4 of
/// `asm_notes/quats_to_mats.md`); [`Impl::Asm`] and [`Impl::Intrinsics`]
/// agree bit for bit. [`Impl::Avx2`] fuses each product into its sum (one
/// rounding fewer per element), so it differs from them in the last bit now
/// and then and is closer to the exact matrix; [`Impl::Neon`] and
/// [`Impl::Portable`] (and [`Impl::Avx512`]) give [`Impl::Avx2`]'s bits on every CPU (NaN bits
/// aside: the successors' one answer). For unit quaternions every
/// element is within 2.4e-7 of the exact matrix (1.5e-7 measured for the
/// listing, 5.9e-8 for `Avx2`, `tests/quats_to_mats.rs`).
///
/// Non-unit quaternions, NaN and infinities are accepted and computed as the
/// routines compute them (no normalisation); the results are memory-safe.
///
/// # Errors
///
/// Checked in this order, before anything is written:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`]: the form needs CPU features this CPU lacks;
/// - [`Error::TooLong`]: `mats` has more than [`MAX_JOINTS`] elements;
/// - [`Error::LengthMismatch`] `{ what: "quats", expected: mats.len(), found:
///   quats.len() }`: the two slices differ in length;
/// - [`Error::Misaligned`]: never with safe code (no form needs more than the
///   16 bytes the types guarantee).
pub fn quats_to_mats(imp: Impl, mats: &mut [JointMat], quats: &[JointQuat]) -> Result<(), Error> {
    let (m, q) = (mats.as_ptr() as usize, quats.as_ptr() as usize);
    let form = select(FORMS, imp, alignment_of(&[m, q]))?;
    if mats.len() > MAX_JOINTS {
        return Err(Error::TooLong { what: "mats", len: mats.len(), max: MAX_JOINTS });
    }
    if quats.len() != mats.len() {
        return Err(Error::LengthMismatch { what: "quats", expected: mats.len(), found: quats.len() });
    }
    form.check_align(&[("mats", m), ("quats", q)])?;
    // SAFETY: both slices hold `mats.len() <= MAX_JOINTS` elements (which
    // keeps the listing's 32-bit offsets exact), are aligned as the form
    // needs (checked) and do not overlap (`mats` is borrowed mutably);
    // `select` returned a kernel this CPU can run.
    unsafe { (form.kernel)(mats.as_mut_ptr(), quats.as_ptr(), mats.len() as i32) };
    Ok(())
}
