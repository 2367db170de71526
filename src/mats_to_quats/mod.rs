//! `ConvertJointMatsToJointQuats`: joint matrices to joint quaternions, from
//! J.M.P. van Waveren, *From Quaternion to Matrix and Back* (id Software,
//! 2005), section 4 and Appendix B.
//!
//! - [`scalar`]: the two C routines of section 4, line by line: the four
//!   unrolled cases with `ReciprocalSqrt` ([`scalar::mats_to_quats`], the
//!   one the paper times as "C") and the `k0..k3` / `s0..s2` blueprint of the
//!   SSE version ([`scalar::mats_to_quats_blueprint`]);
//! - [`intrinsics`]: Appendix B with SSE intrinsics, bit-identical to the asm;
//! - [`asm`]: Appendix B in `asm!`, instruction for instruction (`loopMat4`,
//!   four matrices per iteration, 207 instructions; `loopMat1`, one, 84);
//! - [`avx2`]: the successor for AVX2 and FMA (`Impl::Avx2`):
//!   eight matrices per iteration in structure-of-arrays form, branch-free
//!   (the four cases chosen per lane as the listing chooses them, the
//!   blueprint's store order as two layers of blends), `s = 0.5 / sqrt(t)`
//!   with the correctly rounded `vsqrtps` and `vdivps`, the tail through a
//!   zero-padded stack block. The fastest form where the CPU has AVX2 and
//!   FMA (4.0x the listing, 1.84x the scalar port on an AMD EPYC, Zen 3),
//!   more accurate than the listing; it keeps the listing's case choice
//!   (errata E1, E2) and `t` in pairs (E4), and gives `+0.0` for zero
//!   components where the listing gives `-0.0` (E3 corrected);
//! - [`avx512`]: the successor for AVX-512 F/VL/DQ/BW (`Impl::Avx512`):
//!   sixteen matrices per iteration in structure-of-arrays form, the rows
//!   gathered from the loaded matrices by two-source permutes (`vpermt2ps`)
//!   and inserts, the case choice and the sign multipliers in mask
//!   registers, the same `vsqrtps`/`vdivps`; the tail with masked loads and
//!   stores. The fastest form where the CPU has AVX-512 (1.3x to 1.4x
//!   `Avx2` on an Intel Xeon with AVX-512, `asm_notes/mats_to_quats.md`,
//!   "Successor: Impl::Avx512");
//! - `neon` (aarch64 only): the successor for NEON (`Impl::Neon`), the same
//!   lane arithmetic four matrices at a time;
//! - `simd128` (wasm32 with SIMD128 only): the successor for wasm SIMD128
//!   (`Impl::Simd128`), the NEON form's lane arithmetic;
//! - [`portable`]: the successors' arithmetic in plain Rust
//!   (`Impl::Portable`), one matrix at a time, every target. It writes out
//!   the one order of operations that the four successors follow, so they
//!   give the same bits on every CPU (`Impl::Deterministic` picks the
//!   fastest of them).
//!
//! # The matrix convention
//!
//! The paper's matrices are the transpose of the usual rotation matrix for
//! column vectors. Section 3 defines the matrix of `(x, y, z, w)` with
//! `M[0][1] = 2xy + 2wz`, and section 4's C reads the same convention: its
//! `w` case computes `q[2] = (m[0*4+1] - m[1*4+0]) * s`, which is `+z` only
//! if `m[0*4+1] - m[1*4+0] = 4wz`. So the 3x3 part of a [`JointMat`] must
//! hold `mat[r * 4 + c] = R[c][r]`, where `R` is the rotation for column
//! vectors (`v' = R v`, `R[0][1] = 2xy - 2wz`): the rows of the 3x3 part
//! are the images of the basis vectors. This is what the paper's
//! `ConvertJointQuatsToJointMats` (section 3) writes, so the two routines
//! are inverse to each other up to the sign of the quaternion. Given `R`
//! itself (glTF's and glam's convention), they return the conjugate
//! quaternion, the inverse rotation. The translation is column 3
//! (`mat[r * 4 + 3]`) in both conventions.
//!
//! `asm_notes/mats_to_quats.md` walks through the listing and its errata.

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
use crate::types::{JOINTMAT_SIZE, JointMat, JointQuat};

/// The raw kernels' signature: `(jointQuats, jointMats, numJoints)`.
type Kernel = crate::form::kernel::MatsToQuats;

/// The forms of [`mats_to_quats()`], fastest first: the order [`Impl::Auto`]
/// tries them in. The SIMD successors (`Neon`, `Avx2`, `Avx512`) are the fastest where
/// they run (`asm_notes/mats_to_quats.md`, "Successor: Impl::Avx2"); `Avx2`
/// before `Avx512`, which wins back to back at 1024 (1.25-1.31x) but loses
/// at 24 elements (0.78-0.79x) and mostly after a pause (the report's
/// "after a pause" section). The
/// scalar port is faster than the listing on some CPUs (see
/// `docs/results.md`), but its `ReciprocalSqrt` is accurate to about 2e-3
/// where the listing's is to 1e-6, so `Auto` never picks it over a SIMD
/// form, nor over the portable successor (2e-7), which comes just before
/// it: `Auto` trades no accuracy for speed.
pub(crate) static FORMS: &[Form<Kernel>] = &[
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::mats_to_quats, Successor on Simd128),
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::mats_to_quats, Successor on Neon),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::mats_to_quats, Successor on Avx2Fma),
    #[cfg(target_arch = "x86_64")]
    form!(Avx512 => avx512::mats_to_quats, Successor on Avx512),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::mats_to_quats, ListingTwin on Sse2),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::mats_to_quats, Listing on Sse2),
    form!(Portable => portable::mats_to_quats, Successor),
    form!(Scalar => scalar::mats_to_quats, PaperC),
];

routine_api!(FORMS, "mats_to_quats()", Kernel);

/// The most joints [`mats_to_quats()`] takes: the listing computes the byte
/// size of the matrix list with a 32-bit `imul eax, JOINTMAT_SIZE` and then
/// negates it, so `numJoints * JOINTMAT_SIZE` must stay below 2^31
/// (`i32::MAX / 48` = 44 739 242 joints).
pub const MAX_JOINTS: usize = i32::MAX as usize / JOINTMAT_SIZE;

/// Converts joint matrices to joint quaternions (the paper's
/// `ConvertJointMatsToJointQuats`): `quats[i].q` becomes the rotation of the
/// 3x3 part of `mats[i].mat`, `quats[i].t` its translation
/// `(mat[3], mat[7], mat[11], 0)`.
///
/// The matrices are in the paper's convention, the transpose of the usual
/// column-vector rotation matrix (see the [module documentation](self)).
/// The component chosen as divisor (`w` if the trace is positive, else the
/// one of the largest diagonal element) comes out positive, so the result is
/// one of `q` and `-q`, whichever has that component positive.
///
/// The results are meaningful for rotation (orthonormal) matrices only. Any
/// other input, NaN and infinities included, is memory-safe and computed as
/// each implementation computes it.
///
/// The implementations differ in the last bits and in ties:
/// - [`Impl::Scalar`] is the paper's C with `ReciprocalSqrt` (the
///   `0x5f3759df` trick and one Newton-Raphson step), accurate to about
///   2e-3; its quaternions are not quite unit length;
/// - [`Impl::Asm`] and [`Impl::Intrinsics`] agree bit for bit; their
///   `rsqrtps` and one Newton-Raphson step are accurate to about 1e-6. Their
///   comparisons are `cmpnltps` (`>=`) where the C has `>`: a trace of
///   exactly 0 takes the `w` case and equal diagonal elements take the
///   earlier of `x`, `y`, `z` (the C takes the next case, which gives `-q`
///   where the signs of the two components differ). Where the C computes
///   `+0.0` for a component (the identity matrix), the listing stores
///   `-0.0`;
/// - the successors [`Impl::Avx512`], [`Impl::Avx2`], [`Impl::Neon`] and
///   [`Impl::Portable`]
///   choose the case as the listing does (`>=`, a NaN trace takes `w`) and
///   sum `t` as it does, take `s = 0.5 / sqrt(t)` with the correctly rounded
///   square root and division (no estimate) and the C's order for the other
///   components, so zero components are `+0.0`; they give the same bits on
///   every CPU (NaN bits aside: [`Impl::Deterministic`] picks the fastest)
///   and are accurate to about 2e-7 (1.44e-7 measured on 100 000 random
///   rotations, the listing 2.17e-7 on an Intel Xeon).
///
/// # Errors
///
/// Checked in this order, before anything is written:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`]: the form needs CPU features this CPU lacks;
/// - [`Error::TooLong`]: `quats` has more than [`MAX_JOINTS`] elements;
/// - [`Error::LengthMismatch`] (`what: "mats"`): `mats.len() != quats.len()`;
/// - [`Error::Misaligned`]: never (Appendix B, unlike the other listings,
///   asserts no alignment: it reads and writes the lists with `movss` and
///   `mov` only).
pub fn mats_to_quats(imp: Impl, quats: &mut [JointQuat], mats: &[JointMat]) -> Result<(), Error> {
    let (q, m) = (quats.as_ptr() as usize, mats.as_ptr() as usize);
    let form = select(FORMS, imp, alignment_of(&[q, m]))?;
    if quats.len() > MAX_JOINTS {
        return Err(Error::TooLong { what: "quats", len: quats.len(), max: MAX_JOINTS });
    }
    if mats.len() != quats.len() {
        return Err(Error::LengthMismatch { what: "mats", expected: quats.len(), found: mats.len() });
    }
    form.check_align(&[("quats", q), ("mats", m)])?;
    // SAFETY: both slices hold `quats.len() <= MAX_JOINTS` elements (which
    // keeps the listing's 32-bit arithmetic exact) and do not overlap
    // (`quats` is borrowed mutably); `select` returned a kernel this CPU can
    // run.
    unsafe { (form.kernel)(quats.as_mut_ptr(), mats.as_ptr(), quats.len() as i32) };
    Ok(())
}
