//! zeux's nlerp family: `nlerp`, `fnlerp` and `onlerp` over a stream, from
//! Arseny Kapoulkine, *Optimizing slerp*, blog post, 2016
//! (<https://zeux.io/2016/05/05/optimizing-slerp/>), with `fnlerp`'s
//! coefficients from its predecessor, A. Kapoulkine, *Approximating slerp*,
//! blog post, 2015 (<https://zeux.io/2015/07/23/approximating-slerp/>).
//!
//! The loop shape is the article's `run`: `dest[i] = f(l, r[i], t[i])` for one
//! fixed quaternion `l`, a stream of quaternions `r` and a stream of
//! interpolation parameters `t`. `nlerp` is normalised linear interpolation;
//! `fnlerp` and `onlerp` first correct `t` to `ot = t + t (t - 0.5) (t - 1)
//! k(d, t)`, where `d = |dot(l, r)|`, so that the normalised lerp moves at
//! nearly constant angular speed, as slerp does (maximum angle errors
//! against slerp, as measured by `tests/nlerp.rs`: nlerp 0.142 rad, fnlerp
//! 8.4e-3, onlerp 7.8e-4).
//!
//! This article publishes C and intrinsics, not a listing, so its forms are
//! widths, each an [`Impl`] of the crate's one enum:
//! - [`scalar`]: the scalar functions line by line (`nlerp`, `fnlerp`,
//!   `onlerp`, and a reference `slerp`), and `run` over each, kept scalar
//!   (`run_*`; `autovec_*` leave the loop to LLVM's vectorizer, a peer);
//!   ([`Impl::Scalar`]);
//! - [`sse2`]: `nlerp4`, `fnlerp4`, `onlerp4`, four pairs per block:
//!   transpose to SoA, sign-bit double cover, `rsqrtps` + Newton-Raphson
//!   ([`Impl::Sse2`]);
//! - [`avx2`]: `nlerp8`, `fnlerp8`, `onlerp8` with the in-lane transpose and
//!   the permuted `t` ([`Impl::Avx2NoFma`]), and their FMA forms `*8_fma`
//!   ([`Impl::Avx2`]);
//! - [`avx512`]: `nlerp16_fma`, `fnlerp16_fma`, `onlerp16_fma`: the FMA
//!   forms widened by this crate to sixteen lanes (not published:
//!   [`crate::Origin::Widened`]), `vrsqrt14ps` + Newton-Raphson, the tail
//!   by masked loads and stores ([`Impl::Avx512`]; 1.3x to 1.5x the AVX2
//!   FMA forms at 1024 elements on an Intel Xeon, `asm_notes/nlerp.md`,
//!   "Widened: Impl::Avx512");
//! - `neon` (`aarch64`): `nlerp4`, `fnlerp4`, `onlerp4`, four pairs per
//!   block with the article's recipe (`vld4q_f32` de-interleaves to SoA),
//!   but the scalar functions' roundings: the correctly rounded `1 /
//!   sqrt` instead of `rsqrtps` + Newton-Raphson, the scalar's dot product
//!   and its `ca > 0` comparison, no FMA ([`Impl::Neon`]). So the NEON
//!   forms give the scalar port's bits on every input (NaN results aside),
//!   and not the bits of zeux's SSE2/AVX2 forms (`asm_notes/nlerp.md`,
//!   "NEON").
//! - `simd128` (`wasm32` with SIMD128): the NEON forms' recipe and roundings
//!   on wasm's four lanes (a 4x4 transpose for `vld4q_f32`), so the same
//!   bits, the scalar port's ([`Impl::Simd128`]).
//!
//! Every SIMD kernel computes each element by the same lane operations
//! whatever its position, tail included (the article's option 2, padding,
//! applied to a local copy of the last block): `dest[i]` depends only on
//! `l`, `r[i]` and `t[i]`. `asm_notes/nlerp.md` has the derivation, the lane
//! diagram, the accuracy measured against the published figures and the
//! errata.
//!
//! ```
//! use animasm::{Impl, Quat, onlerp};
//!
//! let h = core::f32::consts::FRAC_1_SQRT_2;
//! let l = Quat::IDENTITY;
//! let r = vec![Quat::new(0.0, 0.0, h, h); 10]; // 90 degrees about z
//! let t: Vec<f32> = (0..10).map(|i| i as f32 / 9.0).collect();
//! let mut dest = vec![Quat::default(); 10];
//! onlerp(Impl::Auto, &mut dest, &l, &r, &t)?;
//! assert!((dest[0].w - 1.0).abs() < 1e-6 && (dest[9].z - h).abs() < 1e-6);
//!
//! // Halfway: 45 degrees about z, within onlerp's error.
//! let mut mid = [Quat::default()];
//! onlerp(Impl::Scalar, &mut mid, &l, &r[..1], &[0.5])?;
//! assert!((mid[0].z - (core::f32::consts::PI / 8.0).sin()).abs() < 1e-4);
//! # Ok::<(), animasm::Error>(())
//! ```

pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "aarch64")]
pub mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;
#[cfg(target_arch = "x86_64")]
pub mod sse2;

/// `fnlerp`'s correction coefficients, as stored in f32: `k = K[0] + d *
/// (K[1] + d * K[2])` with `d = |dot(l, r)|` (Kapoulkine, *Approximating
/// slerp*). Every form of [`fnlerp()`] uses them.
///
/// ```
/// assert_eq!(animasm::nlerp::FNLERP_K, [0.931872, -1.25654, 0.331442]);
/// ```
pub const FNLERP_K: [f32; 3] = crate::consts::NLERP_FNLERP_K;

/// `onlerp`'s `A = A[0] + d * (A[1] + d * (A[2] - d * A[3]))` (*Optimizing
/// slerp*; the minus before the last term as printed), as stored in f32.
///
/// ```
/// assert_eq!(animasm::nlerp::ONLERP_A, [1.0904, -3.2452, 3.55645, 1.43519]);
/// ```
pub const ONLERP_A: [f32; 4] = crate::consts::NLERP_ONLERP_A;

/// `onlerp`'s `B = B[0] + d * (B[1] + d * B[2])` (*Optimizing slerp*), as
/// stored in f32.
///
/// ```
/// assert_eq!(animasm::nlerp::ONLERP_B, [0.848013, -1.06021, 0.215638]);
/// ```
pub const ONLERP_B: [f32; 3] = crate::consts::NLERP_ONLERP_B;

use crate::dispatch::{Form, Impl, Selected, alignment_of, form, select};
use crate::error::Error;
use crate::types::Quat;

/// The three raw kernels of a 4-lane form that gives the scalar port's
/// bits (`neon`, `simd128`): `nlerp4`, `fnlerp4` and `onlerp4`, each the
/// loop of `crate::blocks::stream_by_4` over its module's block function
/// (`nlerp4_block`, ...) with `l` broadcast by its module's `splat`, and
/// the attributes given (a `target_feature`).
#[cfg(any(target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
macro_rules! kernels4 {
    ($isa:literal $(, #[$attr:meta])*) => {
        $crate::nlerp::kernels4!(@one $isa, [$(#[$attr])*], nlerp4, nlerp4_block, "nlerp");
        $crate::nlerp::kernels4!(@one $isa, [$(#[$attr])*], fnlerp4, fnlerp4_block, "fnlerp");
        $crate::nlerp::kernels4!(@one $isa, [$(#[$attr])*], onlerp4, onlerp4_block, "onlerp");
    };
    (@one $isa:literal, [$(#[$attr:meta])*], $name:ident, $block:ident, $f:literal) => {
        #[doc = concat!("`", stringify!($name), "` for ", $isa, ": `dest[i] = ", $f, "(l, r[i], t[i])` for `i < size`,")]
        #[doc = concat!("four at a time, bit for bit [`super::scalar::", $f, "`].")]
        ///
        /// # Safety
        ///
        /// `r` must be valid for reading and `dest` for writing `size`
        /// quaternions, `t` valid for reading `size` floats; `dest` may be
        /// `r` itself but must not otherwise overlap `r` or `t`. (No
        /// alignment beyond the floats' own is needed.)
        #[inline(never)]
        $(#[$attr])*
        pub unsafe fn $name(dest: *mut Quat, l: &Quat, r: *const Quat, t: *const f32, size: usize) {
            // SAFETY: the caller's contract, which `$block` needs for four
            // elements of each stream.
            unsafe { $crate::blocks::stream_by_4(dest, &splat(l), r, t, size, $block) }
        }
    };
}
#[cfg(any(target_arch = "aarch64", all(target_arch = "wasm32", target_feature = "simd128")))]
pub(crate) use kernels4;

/// The raw kernels' signature: `(dest, l, r, t, size)`.
type Kernel = crate::form::kernel::Stream;

/// The forms of each function, fastest first: the order [`Impl::Auto`] tries
/// them in (the measurements of `docs/results.md`: the wider, the faster,
/// but for AVX-512: the 16-wide forms, `asm_notes/nlerp.md`, "Widened:
/// Impl::Avx512", win back to back at 1024 (1.23-1.37x) and lose at 24
/// elements (0.87-0.98x) and mostly after a pause, so the AVX2 FMA forms
/// come first: the report's "after a pause" section).
macro_rules! forms {
    ($name:ident, $scalar:ident, $sse2:ident, $avx2:ident, $fma:ident, $avx512:ident) => {
        pub(crate) static $name: &[Form<Kernel>] = &[
            #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::$sse2, Published on Neon),
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::$sse2, Published on Simd128),
            #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::$fma, Published on Avx2Fma),
            #[cfg(target_arch = "x86_64")]
    form!(Avx512 => avx512::$avx512, Widened on Avx512),
            #[cfg(target_arch = "x86_64")]
    form!(Avx2NoFma => avx2::$avx2, Published on Avx2),
            #[cfg(target_arch = "x86_64")]
    form!(Sse2 => sse2::$sse2, Published on Sse2),
    form!(Scalar => scalar::$scalar, PaperC),
        ];
    };
}
forms!(NLERP, run_nlerp, nlerp4, nlerp8, nlerp8_fma, nlerp16_fma);
forms!(FNLERP, run_fnlerp, fnlerp4, fnlerp8, fnlerp8_fma, fnlerp16_fma);
forms!(ONLERP, run_onlerp, onlerp4, onlerp8, onlerp8_fma, onlerp16_fma);

/// The one form of [`slerp()`]: the article's scalar reference.
pub(crate) static SLERP: &[Form<Kernel>] = &[form!(Scalar => scalar::run_slerp, PaperC)];

/// The forms of [`nlerp()`], [`fnlerp()`] and [`onlerp()`] (they have the
/// same) that this target and CPU can run, fastest first (the order in
/// which [`Impl::Auto`] tries them).
pub fn forms() -> impl Iterator<Item = Impl> {
    crate::dispatch::runnable(NLERP)
}

/// The form [`nlerp()`], [`fnlerp()`] and [`onlerp()`] run for `imp` on this
/// CPU, or the error they return for `imp` ([`Error::Unsupported`],
/// [`Error::MissingCpuFeature`]).
pub fn resolve(imp: Impl) -> Result<Impl, Error> {
    select(NLERP, imp, usize::MAX >> 1).map(|s| s.imp)
}

/// Select, validate (the order of `docs/contract.md`), one kernel call, the endpoint rule.
fn run(table: &[Form<Kernel>], imp: Impl, dest: &mut [Quat], l: &Quat, r: &[Quat], t: &[f32]) -> Result<(), Error> {
    let buffers = [("dest", dest.as_ptr() as usize), ("r", r.as_ptr() as usize)];
    let form: Selected<Kernel> = select(table, imp, alignment_of(&buffers.map(|(_, a)| a)))?;
    let expected = dest.len();
    if r.len() != expected {
        return Err(Error::LengthMismatch { what: "r", expected, found: r.len() });
    }
    if t.len() != expected {
        return Err(Error::LengthMismatch { what: "t", expected, found: t.len() });
    }
    // One pass without early exit (it vectorises) for both rules; the search
    // for the culprit runs only on error.
    let (non_finite, endpoint) =
        t.iter().fold((false, false), |(n, e), &x| (n | !x.is_finite(), e | (x <= 0.0) | (x >= 1.0)));
    if non_finite {
        let (i, &value) = t.iter().enumerate().find(|(_, x)| !x.is_finite()).expect("a factor is not finite");
        return Err(Error::NonFiniteFactor { what: "t", position: Some(i), value });
    }
    form.check_align(&buffers)?;
    // SAFETY: `r`, `t` and `dest` have `dest.len()` elements each (checked),
    // `dest` is a unique borrow so it overlaps neither input, the buffers
    // have the alignment the form needs (checked; `Quat`'s 16 bytes is all
    // any form needs), and `select` returned a kernel whose CPU features
    // (its `#[target_feature]`s) this CPU has.
    unsafe { (form.kernel)(dest.as_mut_ptr(), l, r.as_ptr(), t.as_ptr(), expected) };
    // The endpoint rule of every interpolating safe function, element by
    // element: `t <= 0` gives `l`, `t >= 1` gives `r[i]`, exactly.
    if endpoint {
        for ((d, &ti), ri) in dest.iter_mut().zip(t).zip(r) {
            if ti <= 0.0 {
                *d = *l;
            } else if ti >= 1.0 {
                *d = *ri;
            }
        }
    }
    Ok(())
}

macro_rules! safe_fn {
    ($(#[$doc:meta])* $name:ident, $table:ident) => {
        $(#[$doc])*
        ///
        /// `r` and `t` must have as many elements as `dest`. The endpoint
        /// rule of every interpolating safe function (`docs/contract.md`)
        /// holds element by element: `t[i] <= 0` gives `l` and `t[i] >= 1`
        /// gives `r[i]`, exactly, with every form (the article's kernels,
        /// which the raw kernels keep, normalise there and extrapolate
        /// outside `[0, 1]`). Input that only changes results is accepted
        /// and computed as the kernels compute it: non-unit quaternions (the
        /// result is normalised anyway; a zero sum `l (1 - ot) + r rt` gives
        /// NaN), NaN or infinite components.
        ///
        /// # Errors
        ///
        /// Checked in this order, before anything is written:
        /// - [`Error::Unsupported`]: there is no form `imp` of this function
        ///   on this target (it has [`Impl::Scalar`] everywhere,
        ///   [`Impl::Sse2`], [`Impl::Avx2NoFma`], [`Impl::Avx2`] and
        ///   [`Impl::Avx512`] on `x86_64`, [`Impl::Neon`] on `aarch64`);
        /// - [`Error::MissingCpuFeature`]: `imp` needs AVX2 (and FMA) or
        ///   AVX-512 (F, VL, DQ, BW) that this CPU lacks or that cannot be
        ///   detected (without `std`);
        /// - [`Error::LengthMismatch`] with `what` = `"r"` or `"t"`: that
        ///   slice's length differs from `dest.len()`;
        /// - [`Error::NonFiniteFactor`] (`what: "t"`, with the position of
        ///   the first): an entry of `t` is NaN or infinite;
        /// - [`Error::Misaligned`]: never with safe code (no form needs more
        ///   than the 16 bytes `Quat` guarantees).
        pub fn $name(imp: Impl, dest: &mut [Quat], l: &Quat, r: &[Quat], t: &[f32]) -> Result<(), Error> {
            run($table, imp, dest, l, r, t)
        }
    };
}

safe_fn! {
    /// `dest[i] = nlerp(l, r[i], t[i])`: normalised linear interpolation from
    /// `l` towards `r[i]` along the shorter arc, with the kernel `imp`
    /// picks ([`scalar::run_nlerp`], [`sse2::nlerp4`], [`avx2::nlerp8`],
    /// [`avx2::nlerp8_fma`], [`avx512::nlerp16_fma`], `neon::nlerp4`).
    ///
    /// On unit quaternions the x86 SIMD forms agree with [`scalar::nlerp`]
    /// to 5e-7 per component (measured 3.0e-7 on an Intel CPU;
    /// `tests/nlerp.rs` asserts the bound), except where `dot(l, r[i])` is
    /// `+0.0`: the scalar code then goes towards `-r[i]`, the SIMD sign-bit
    /// test towards `+r[i]` (both arcs are equally short; erratum E2 of
    /// `asm_notes/nlerp.md`). The NEON form ([`Impl::Neon`], what
    /// [`Impl::Auto`] runs on `aarch64`) gives the scalar form's bits on
    /// every input (NaN results aside), so the same results on every CPU.
    nlerp, NLERP
}

safe_fn! {
    /// `dest[i] = fnlerp(l, r[i], t[i])`: [`nlerp`] with `t` corrected by the
    /// quadratic `k(d)` of *Approximating slerp* ([`scalar::fnlerp`]), with
    /// the kernel `imp` picks ([`scalar::run_fnlerp`], [`sse2::fnlerp4`],
    /// [`avx2::fnlerp8`], [`avx2::fnlerp8_fma`], [`avx512::fnlerp16_fma`],
    /// `neon::fnlerp4`). Same
    /// agreement between the forms as [`nlerp`].
    fnlerp, FNLERP
}

safe_fn! {
    /// `dest[i] = onlerp(l, r[i], t[i])`: [`nlerp`] with `t` corrected by
    /// `k = A(d) (t - 0.5)^2 + B(d)` ([`scalar::onlerp`], the article's
    /// function), with the kernel `imp` picks ([`scalar::run_onlerp`],
    /// [`sse2::onlerp4`], [`avx2::onlerp8`], [`avx2::onlerp8_fma`],
    /// [`avx512::onlerp16_fma`], `neon::onlerp4`). Same agreement between the forms as [`nlerp`].
    onlerp, ONLERP
}

/// `dest[i] = slerp(l, r[i], t[i])` with the article's scalar reference
/// [`scalar::slerp`] (there is no SIMD slerp in the article; the crate's
/// SIMD slerps are [`crate::slerp_joints()`] and
/// [`crate::slerp_quats_corrected()`]). Public at the crate root as
/// `animasm::slerp_stream`.
///
/// The same contract as [`nlerp`]: the endpoint rule element by element,
/// and the same errors in the same order; its one form is [`Impl::Scalar`]
/// (which [`Impl::Auto`] picks).
///
/// # Errors
///
/// As [`nlerp`]: [`Error::Unsupported`] for any form but
/// [`Impl::Scalar`] and [`Impl::Auto`], [`Error::LengthMismatch`],
/// [`Error::NonFiniteFactor`]; nothing is written.
pub fn slerp(imp: Impl, dest: &mut [Quat], l: &Quat, r: &[Quat], t: &[f32]) -> Result<(), Error> {
    run(SLERP, imp, dest, l, r, t)
}
