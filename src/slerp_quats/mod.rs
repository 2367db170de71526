//! `ProcessOptimizedKernel`: spherical linear interpolation of whole
//! quaternion arrays with AVX, `result[i] = slerp( from[i], to[i], factor )`,
//! from P. Mehrotra and R. Hubbard, *Benefits of Intel® Advanced Vector
//! Extensions For Quaternion Spherical Linear Interpolation (Slerp)*, Intel
//! Corporation, article on the Intel Developer Zone (undated; written for
//! the Sandy Bridge microarchitecture), its "partial source code listing",
//! and the 128-bit kernel its Table 1 compares with.
//!
//! The article ports van Waveren's SSE slerp (*Slerping Clock Cycles*, the
//! crate's [`crate::slerp_joints`](mod@crate::slerp_joints)) to 256-bit AVX: eight quaternions per
//! register set, the products `from·to` swizzled after the multiplication
//! (four `vunpcklps`/`vunpckhps` and four `vunpcklpd`/`vunpckhpd` gather the
//! x, y, z and w products of eight quaternions into four registers), the loop
//! unrolled once (sixteen quaternions per iteration), and a scalar C loop for
//! the `count % 16` quaternions left over. The printed code has errors,
//! kept in the as-published kernel and fixed in the corrected one
//! (`asm_notes/slerp_quats.md`, "Errata"):
//!
//! | | erratum | as published | corrected |
//! |---|---|---|---|
//! | E1 | `HALF_PI` = 22/7/2 | omega 6.3e-4 too large above 45 degrees | pi/2 |
//! | E2 | `sqrtC1` initialised with `RSQRT_C0` (3.0) | no effect while E3 stands | `RSQRT_C1` (-0.5) |
//! | E3 | the Newton-Raphson refinement of `sinom` is overwritten | `sinom` is the 12-bit `vrsqrtps` estimate | the refinement is `sinom` |
//! | E4 | `DECLARE_INIT_M256I` cannot build the sign masks | compiler-dependent garbage | the port uses the intended masks in both |
//! | E5 | `_mm256_cmpeq_ps` is no AVX intrinsic | read as `vcmpeqps` | the same |
//! | E6 | the remainder loop's `reciprocalSqrt` (bit trick) | 3.4e-3 for the last `count % 16` | `1.0f / sqrtf` |
//! | E7 | the vector loop and the remainder loop compute differently | a result depends on its position | kept (the forms differ in the last bits) |
//!
//! The forms:
//! - [`scalar`]: the article's remainder loop (van Waveren's `SlerpOptimized`)
//!   run over the whole arrays, as published and corrected;
//! - [`intrinsics`]: `ProcessOptimizedKernel` with AVX intrinsics, statement
//!   for statement: [`intrinsics::slerp_quats_as_published`],
//!   [`intrinsics::slerp_quats_corrected`], and
//!   [`intrinsics::slerp_quats_with`] for any subset of the fixes;
//! - [`asm`]: the same intrinsic sequence as the VEX instructions it names,
//!   in source order, in `asm!` ([`asm::slerp_quats_as_published`], and the
//!   corrected twin [`asm::slerp_quats_corrected`]); bit-identical to the
//!   intrinsics;
//! - [`sse2`]: the 128-bit baseline of Table 1, van Waveren's SSE slerp over
//!   the same arrays ([`sse2::slerp_quats_sse`]), the [`Impl::Sse2`] form of
//!   [`slerp_quats_corrected`].
//!
//! The AVX kernels run only where `std::is_x86_feature_detected!("avx")`
//! (the `std` feature); the safe functions check it and return
//! [`Error::MissingCpuFeature`] otherwise. They load and store with `vmovaps`
//! as the article does, so arrays of 16 or more quaternions must start
//! 32-byte aligned: the safe functions return [`Error::Misaligned`] for an
//! explicit AVX form on other arrays (nothing written), and [`Impl::Auto`]
//! picks the fastest form the arrays allow. Store them in [`AlignedQuats`]
//! (with `std`) or as [`QuatPair`]s to get the AVX forms.
//!
//! `asm_notes/slerp_quats.md` walks through the swizzle and the errata;
//! `asm_notes/slerp_quats.listing.s` is the instruction sequence.

pub mod scalar;

mod aligned;
#[cfg(feature = "alloc")]
pub use aligned::AlignedQuats;
pub use aligned::QuatPair;

#[cfg(target_arch = "x86_64")]
pub mod asm;
#[cfg(target_arch = "x86_64")]
pub mod intrinsics;
#[cfg(target_arch = "x86_64")]
pub mod sse2;

use crate::dispatch::{Form, Impl, alignment_of, form, select};
use crate::error::Error;
use crate::types::Quat;

/// The most quaternions the kernels take: the article's count is an `int`.
/// (Its C computes the offset `i/8*32` in `int` too, which overflows from
/// 2^29 quaternions on; the ports compute offsets in 64 bits.)
pub const MAX_QUATS: usize = i32::MAX as usize;

/// The raw kernels' signature: `(result, from, to, factor, count)`.
type Kernel = crate::form::kernel::QuatPairs;

/// The forms of [`slerp_quats_corrected()`], fastest first: the order
/// [`Impl::Auto`] tries them in (the measurements of `docs/results.md`). The AVX forms
/// need 32-byte-aligned arrays once their vector loop runs.
pub(crate) static FORMS_CORRECTED: &[Form<Kernel>] = &[
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::slerp_quats_corrected, ListingTwin on Avx, align 32),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::slerp_quats_corrected, Listing on Avx, align 32),
    #[cfg(target_arch = "x86_64")]
    form!(Sse2 => sse2::slerp_quats_sse, Published on Sse2),
    form!(Scalar => scalar::slerp_quats_corrected, PaperC),
];

/// The forms of [`slerp_quats_as_published()`], fastest first.
pub(crate) static FORMS_AS_PUBLISHED: &[Form<Kernel>] = &[
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::slerp_quats_as_published, ListingTwin on Avx, align 32),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::slerp_quats_as_published, Listing on Avx, align 32),
    form!(Scalar => scalar::slerp_quats_as_published, PaperC),
];

/// The forms of [`slerp_quats_corrected()`] that this target and CPU can
/// run, fastest first (the order in which [`Impl::Auto`] tries them).
pub fn forms() -> impl Iterator<Item = Impl> {
    crate::dispatch::runnable(FORMS_CORRECTED)
}

/// The forms of [`slerp_quats_as_published()`] that this target and CPU can
/// run, fastest first.
pub fn forms_as_published() -> impl Iterator<Item = Impl> {
    crate::dispatch::runnable(FORMS_AS_PUBLISHED)
}

/// The form [`slerp_quats_corrected()`] runs for `imp` on this CPU with
/// 32-byte-aligned arrays, or the error it returns for `imp`
/// ([`Error::Unsupported`], [`Error::MissingCpuFeature`]).
pub fn resolve(imp: Impl) -> Result<Impl, Error> {
    select(FORMS_CORRECTED, imp, 32).map(|s| s.imp)
}

/// The body of both safe functions: select, validate (the order of the
/// contract in `docs/contract.md`), the endpoint rule, one kernel call.
fn run(
    table: &[Form<Kernel>],
    imp: Impl,
    result: &mut [Quat],
    from: &[Quat],
    to: &[Quat],
    factor: f32,
) -> Result<(), Error> {
    let len = result.len();
    let buffers =
        [("result", result.as_ptr() as usize), ("from", from.as_ptr() as usize), ("to", to.as_ptr() as usize)];
    // The AVX kernels touch memory with `vmovaps` only in their 16-wide
    // loop: shorter arrays need no more than `Quat`'s alignment.
    let vector_loop = len >= 16;
    let aligned_to = if vector_loop { alignment_of(&buffers.map(|(_, a)| a)) } else { 1 << 12 };
    let form = select(table, imp, aligned_to)?;
    if len > MAX_QUATS {
        return Err(Error::TooLong { what: "result", len, max: MAX_QUATS });
    }
    if from.len() != len {
        return Err(Error::LengthMismatch { what: "from", expected: len, found: from.len() });
    }
    if to.len() != len {
        return Err(Error::LengthMismatch { what: "to", expected: len, found: to.len() });
    }
    if !factor.is_finite() {
        return Err(Error::NonFiniteFactor { what: "factor", position: None, value: factor });
    }
    if vector_loop {
        form.check_align(&buffers)?;
    }
    // The endpoint rule of every interpolating safe function.
    if factor <= 0.0 {
        result.copy_from_slice(from);
        return Ok(());
    }
    if factor >= 1.0 {
        result.copy_from_slice(to);
        return Ok(());
    }
    // SAFETY: the three slices have the same length `<= MAX_QUATS` (so the
    // `int` count is exact); `result` is borrowed mutably, so it overlaps
    // neither input; `select` returned a kernel this CPU can run (AVX was
    // detected for the AVX forms), and the arrays have the alignment it
    // needs once its vector loop runs (checked); the others need `Quat`'s
    // alignment only.
    unsafe { (form.kernel)(result.as_mut_ptr(), from.as_ptr(), to.as_ptr(), factor, len as i32) };
    Ok(())
}

/// Mehrotra and Hubbard's AVX slerp **as published**: `result[i] = slerp(
/// from[i], to[i], factor )` for every `i`, with every erratum of the
/// printed code kept. For study and for timing the article's code; its
/// results are off by up to about 1e-3 (`asm_notes/slerp_quats.md`): use
/// [`slerp_quats_corrected`] for results.
///
/// - [`Impl::Asm`] and [`Impl::Intrinsics`]: `ProcessOptimizedKernel`,
///   sixteen quaternions per iteration with AVX, the last `len % 16` through
///   the article's scalar loop; the two agree bit for bit.
/// - [`Impl::Scalar`]: the article's scalar loop over the whole arrays.
///
/// Semantics: the endpoint rule of every interpolating safe function (the
/// contract in `docs/contract.md`): `factor <= 0` copies `from` and `factor >= 1` copies
/// `to`, exactly, with every form (the article's kernels, which the raw
/// kernels keep, have no such test and extrapolate). Between them, the
/// shorter arc is taken (`to` is negated where `from·to < 0`; the vector
/// loop also for `-0.0`, the scalar loop not). A quaternion's result depends
/// on its position: the vector loop and the scalar loop compute differently
/// (erratum E7). Non-unit quaternions and NaN or infinite components are
/// accepted and computed as the kernels compute them. The three slices are
/// distinct (`result` cannot be an input; the raw kernels allow that).
///
/// # Errors
///
/// Checked in this order, before anything is written:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`] (`needs: "avx"`): the CPU has no AVX, or
///   it cannot be detected (without the `std` feature);
/// - [`Error::TooLong`]: more than [`MAX_QUATS`] quaternions;
/// - [`Error::LengthMismatch`]: `from` or `to` is not as long as `result`;
/// - [`Error::NonFiniteFactor`]: `factor` is NaN or infinite;
/// - [`Error::Misaligned`] (`needed: 32`): with [`Impl::Asm`] or
///   [`Impl::Intrinsics`], 16 or more quaternions and a slice that does not
///   start at a 32-byte boundary. A `Vec<Quat>` is only 16-byte aligned, so
///   it may or may not be; [`AlignedQuats`] and [`QuatPair`] always are.
///   [`Impl::Auto`] never returns it: it takes a form the arrays allow.
pub fn slerp_quats_as_published(
    imp: Impl,
    result: &mut [Quat],
    from: &[Quat],
    to: &[Quat],
    factor: f32,
) -> Result<(), Error> {
    run(FORMS_AS_PUBLISHED, imp, result, from, to, factor)
}

/// The AVX slerp of whole quaternion arrays with the article's errata
/// fixed: `result[i] = slerp( from[i], to[i], factor )` for every `i`, within
/// about 5e-7 of an f64 slerp (the accuracy of van Waveren's SSE slerp).
///
/// The same statements as [`slerp_quats_as_published`], with `halfPi` =
/// pi/2 (E1), `sqrtC1` = -0.5 (E2), the Newton-Raphson refinement reaching
/// `sinom` (E3) and `1.0f / sqrtf` in the remainder loop (E6); the same
/// forms ([`Impl::Asm`] and [`Impl::Intrinsics`] bit-identical, [`Impl::Scalar`]
/// the corrected scalar loop over everything), plus [`Impl::Sse2`], the
/// 128-bit baseline of the article's Table 1 (van Waveren's SSE slerp,
/// [`sse2::slerp_quats_sse`], four quaternions at a time and the rest one by
/// one, within 4.8e-7 of an f64 slerp, on any `x86_64` CPU and any
/// alignment). The same semantics: the endpoint rule, the shorter arc, and a
/// result that may differ in the last bits between the vector loop and the
/// scalar loop (E7).
///
/// # Errors
///
/// As [`slerp_quats_as_published`], in the same order.
pub fn slerp_quats_corrected(
    imp: Impl,
    result: &mut [Quat],
    from: &[Quat],
    to: &[Quat],
    factor: f32,
) -> Result<(), Error> {
    run(FORMS_CORRECTED, imp, result, from, to, factor)
}
