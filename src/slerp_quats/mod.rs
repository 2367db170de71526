//! `ProcessOptimizedKernel`: spherical linear interpolation of whole
//! quaternion arrays with AVX, `result[i] = slerp( from[i], to[i], factor )`,
//! from P. Mehrotra and R. Hubbard, *Benefits of Intel® Advanced Vector
//! Extensions For Quaternion Spherical Linear Interpolation (Slerp)* (Intel),
//! its "partial source code listing", and the 128-bit kernel its Table 1
//! compares with.
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
//! | E6 | the remainder loop's `reciprocalSqrt` (bit trick) | 1.7e-3 for the last `count % 16` | `1.0f / sqrtf` |
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
//! - [`sse`]: the 128-bit baseline of Table 1, van Waveren's SSE slerp over
//!   the same arrays ([`sse::slerp_quats_sse`]).
//!
//! The AVX kernels run only where `std::is_x86_feature_detected!("avx")`
//! (the `std` feature); the safe functions check it and return
//! [`Error::MissingCpuFeature`] otherwise. They load and store with `vmovaps`, so
//! arrays of 16 or more quaternions must start 32-byte aligned: store them
//! in [`AlignedQuats`] (with `std`) or as [`QuatPair`]s.
//!
//! `asm_notes/slerp_quats.md` walks through the swizzle and the errata;
//! `asm_notes/slerp_quats.listing.s` is the instruction sequence.

pub mod scalar;

mod aligned;
#[cfg(feature = "std")]
pub use aligned::AlignedQuats;
pub use aligned::QuatPair;

#[cfg(target_arch = "x86_64")]
pub mod asm;
#[cfg(target_arch = "x86_64")]
pub mod intrinsics;
#[cfg(target_arch = "x86_64")]
pub mod sse;

use crate::{Error, Impl, Quat};

/// The most quaternions the kernels take: the article's count is an `int`.
/// (Its C computes the offset `i/8*32` in `int` too, which overflows from
/// 2^29 quaternions on; the ports compute offsets in 64 bits.)
pub const MAX_QUATS: usize = i32::MAX as usize;

/// Whether the AVX kernels ([`Impl::Intrinsics`], [`Impl::Asm`]) can run
/// here: an `x86_64` CPU and operating system with AVX, detected at run
/// time with the `std` feature. Without `std` there is no detection and
/// this is `false`.
pub fn avx_available() -> bool {
    cfg_if::cfg_if! {
        if #[cfg(all(target_arch = "x86_64", feature = "std"))] {
            std::is_x86_feature_detected!("avx")
        } else {
            false
        }
    }
}

/// The raw kernels' signature: `(result, from, to, factor, count)`.
type Kernel = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32);

/// Panics unless `ptr` is 32-byte aligned, with a message that names the
/// argument and says how to get aligned storage.
#[track_caller]
fn assert_32_byte_aligned(ptr: *const Quat, name: &str) {
    assert!(
        ptr as usize & 31 == 0,
        "animasm: `{name}` is not 32-byte aligned ({ptr:p}): the AVX slerp_quats kernels load and store 16 or more \
         quaternions with vmovaps, which needs 32-byte-aligned arrays; store them in \
         `animasm::slerp_quats::AlignedQuats` (or as `QuatPair`s viewed with `QuatPair::as_quats`), and do not \
         start a subslice at an odd index"
    );
}

/// Checks what memory safety and the kernels' `int` count depend on.
fn validate(result: &[Quat], from: &[Quat], to: &[Quat], factor: f32) -> Result<(), Error> {
    let len = result.len();
    if len > MAX_QUATS {
        return Err(Error::TooManyJoints { len, max: MAX_QUATS });
    }
    if from.len() != len {
        return Err(Error::LengthMismatch { what: "from", expected: len, found: from.len() });
    }
    if to.len() != len {
        return Err(Error::LengthMismatch { what: "to", expected: len, found: to.len() });
    }
    if !factor.is_finite() {
        return Err(Error::NonFiniteLerp(factor));
    }
    Ok(())
}

/// The body of the safe functions: availability, validation, alignment,
/// then the raw kernel.
#[track_caller]
fn run(imp: Impl, kernel: Kernel, result: &mut [Quat], from: &[Quat], to: &[Quat], factor: f32) -> Result<(), Error> {
    let imp = imp.check()?;
    if imp != Impl::Scalar && !avx_available() {
        return Err(Error::MissingCpuFeature { needs: "avx" });
    }
    validate(result, from, to, factor)?;
    if imp != Impl::Scalar && result.len() >= 16 {
        assert_32_byte_aligned(result.as_ptr(), "result");
        assert_32_byte_aligned(from.as_ptr(), "from");
        assert_32_byte_aligned(to.as_ptr(), "to");
    }
    // SAFETY: the three slices have the same length `<= MAX_QUATS` (so the
    // `int` count is exact); `result` is borrowed mutably, so it overlaps
    // neither input; the AVX kernels run only where AVX was detected, and
    // only with 32-byte-aligned arrays once the vector loop runs (16 or more
    // quaternions); the scalar kernel needs `Quat`'s alignment only.
    unsafe { kernel(result.as_mut_ptr(), from.as_ptr(), to.as_ptr(), factor, result.len() as i32) };
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
/// Semantics (the article's): no early-outs, `factor` 0 and 1 are
/// interpolated like any other value (giving `from` and `to` to within the
/// kernel's error); `factor` outside `[0, 1]` extrapolates, with an error
/// that grows with the distance (the polynomials are fitted on `[0, pi/2]`);
/// the shorter arc is taken (`to` is negated where `from·to < 0`; the vector
/// loop also for `-0.0`, the scalar loop not). A quaternion's result depends
/// on its position: the vector loop and the scalar loop compute differently
/// (erratum E7). Non-unit quaternions and NaN or infinite components are
/// accepted and computed as the kernels compute them. The three slices are
/// distinct (`result` cannot be an input; the raw kernels allow that).
///
/// # Errors
///
/// Checked before anything is written:
/// - [`Error::Unsupported`]: `imp` cannot run on this target (not
///   `x86_64`);
/// - [`Error::MissingCpuFeature`] (`needs: "avx"`): the CPU has no AVX, or
///   it cannot be detected (without the `std` feature);
/// - [`Error::TooManyJoints`]: more than [`MAX_QUATS`] quaternions;
/// - [`Error::LengthMismatch`]: `from` or `to` is not as long as `result`;
/// - [`Error::NonFiniteLerp`]: `factor` is NaN or infinite.
///
/// # Panics
///
/// With [`Impl::Asm`] or [`Impl::Intrinsics`], if the slices hold 16 or more
/// quaternions (the vector loop runs) and `result`, `from` or `to` does not
/// start at a 32-byte boundary: the message names the slice and points to
/// [`AlignedQuats`] / [`QuatPair`]. A `Vec<Quat>` is only 16-byte aligned,
/// so it may or may not be; [`Impl::Scalar`] and fewer than 16 quaternions
/// need no more than `Quat`'s alignment.
#[track_caller]
pub fn slerp_quats_as_published(
    imp: Impl,
    result: &mut [Quat],
    from: &[Quat],
    to: &[Quat],
    factor: f32,
) -> Result<(), Error> {
    let kernel: Kernel = match imp {
        Impl::Scalar => scalar::slerp_quats_as_published,
        #[cfg(target_arch = "x86_64")]
        Impl::Intrinsics => intrinsics::slerp_quats_as_published,
        #[cfg(target_arch = "x86_64")]
        Impl::Asm => asm::slerp_quats_as_published,
        #[allow(unreachable_patterns)]
        other => return Err(Error::Unsupported(other)),
    };
    run(imp, kernel, result, from, to, factor)
}

/// The AVX slerp of whole quaternion arrays with the article's errata
/// fixed: `result[i] = slerp( from[i], to[i], factor )` for every `i`, within
/// about 5e-7 of an f64 slerp (the accuracy of van Waveren's SSE slerp).
///
/// The same statements as [`slerp_quats_as_published`], with `halfPi` =
/// pi/2 (E1), `sqrtC1` = -0.5 (E2), the Newton-Raphson refinement reaching
/// `sinom` (E3) and `1.0f / sqrtf` in the remainder loop (E6); the same
/// forms ([`Impl::Asm`] and [`Impl::Intrinsics`] bit-identical, [`Impl::Scalar`]
/// the corrected scalar loop over everything) and the same semantics: no
/// early-outs, `factor` outside `[0, 1]` extrapolates with a growing error,
/// the shorter arc, and a result that may differ in the last bits between
/// the vector loop and the scalar loop (E7).
///
/// # Errors
///
/// As [`slerp_quats_as_published`]: [`Error::Unsupported`],
/// [`Error::TooManyJoints`], [`Error::LengthMismatch`],
/// [`Error::NonFiniteLerp`], checked before anything is written.
///
/// # Panics
///
/// As [`slerp_quats_as_published`]: with an AVX form, 16 or more
/// quaternions, and a slice not 32-byte aligned.
#[track_caller]
pub fn slerp_quats_corrected(
    imp: Impl,
    result: &mut [Quat],
    from: &[Quat],
    to: &[Quat],
    factor: f32,
) -> Result<(), Error> {
    let kernel: Kernel = match imp {
        Impl::Scalar => scalar::slerp_quats_corrected,
        #[cfg(target_arch = "x86_64")]
        Impl::Intrinsics => intrinsics::slerp_quats_corrected,
        #[cfg(target_arch = "x86_64")]
        Impl::Asm => asm::slerp_quats_corrected,
        #[allow(unreachable_patterns)]
        other => return Err(Error::Unsupported(other)),
    };
    run(imp, kernel, result, from, to, factor)
}

/// The 128-bit baseline of the article's Table 1: van Waveren's SSE slerp
/// ([`sse::slerp_quats_sse`]) over the same arrays, four quaternions at a
/// time and the rest one by one, within 4.8e-7 of an f64 slerp. One form
/// (SSE intrinsics, every `x86_64` CPU); `Quat`'s 16-byte alignment is all
/// it needs.
///
/// # Errors
///
/// Checked before anything is written:
/// - [`Error::Unsupported`] (with [`Impl::Intrinsics`]): not `x86_64`;
/// - [`Error::TooManyJoints`], [`Error::LengthMismatch`],
///   [`Error::NonFiniteLerp`]: as [`slerp_quats_as_published`].
pub fn slerp_quats_sse(result: &mut [Quat], from: &[Quat], to: &[Quat], factor: f32) -> Result<(), Error> {
    cfg_if::cfg_if! {
        if #[cfg(target_arch = "x86_64")] {
            validate(result, from, to, factor)?;
            // SAFETY: equal lengths `<= MAX_QUATS`, distinct slices, every
            // `Quat` 16-byte aligned; SSE2 is baseline on x86_64.
            unsafe { sse::slerp_quats_sse(result.as_mut_ptr(), from.as_ptr(), to.as_ptr(), factor, result.len() as i32) };
            Ok(())
        } else {
            let _ = (result, from, to, factor);
            Err(Error::Unsupported(Impl::Intrinsics))
        }
    }
}
