//! zeux's nlerp family: `nlerp`, `fnlerp` and `onlerp` over a stream, from
//! Arseny Kapoulkine, *Optimizing slerp*, with `fnlerp`'s coefficients from
//! its predecessor *Approximating slerp*.
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
//! widths rather than [`crate::Impl`]s ([`Width`]):
//! - [`scalar`]: the scalar functions line by line (`nlerp`, `fnlerp`,
//!   `onlerp`, and a reference `slerp`), and `run` over each, kept scalar
//!   (`run_*`; `autovec_*` leave the loop to LLVM's vectorizer, a peer);
//! - [`sse2`]: `nlerp4`, `fnlerp4`, `onlerp4`, four pairs per block:
//!   transpose to SoA, sign-bit double cover, `rsqrtps` + Newton-Raphson;
//! - [`avx2`]: `nlerp8`, `fnlerp8`, `onlerp8` with the in-lane transpose and
//!   the permuted `t`, and their FMA forms `*8_fma`.
//!
//! Every SIMD kernel computes each element by the same lane operations
//! whatever its position, tail included (the article's option 2, padding,
//! applied to a local copy of the last block): `dest[i]` depends only on
//! `l`, `r[i]` and `t[i]`. `asm_notes/nlerp.md` has the derivation, the lane
//! diagram, the accuracy measured against the published figures and the
//! errata.
//!
//! ```
//! use animasm::Quat;
//! use animasm::nlerp::{Width, onlerp};
//!
//! let h = core::f32::consts::FRAC_1_SQRT_2;
//! let l = Quat::IDENTITY;
//! let r = vec![Quat::new(0.0, 0.0, h, h); 10]; // 90 degrees about z
//! let t: Vec<f32> = (0..10).map(|i| i as f32 / 9.0).collect();
//! let mut dest = vec![Quat::default(); 10];
//! onlerp(Width::default(), &mut dest, &l, &r, &t)?;
//! assert!((dest[0].w - 1.0).abs() < 1e-6 && (dest[9].z - h).abs() < 1e-6);
//!
//! // Halfway: 45 degrees about z, within onlerp's error.
//! let mut mid = [Quat::default()];
//! onlerp(Width::Scalar, &mut mid, &l, &r[..1], &[0.5])?;
//! assert!((mid[0].z - (core::f32::consts::PI / 8.0).sin()).abs() < 1e-4);
//! # Ok::<(), animasm::Error>(())
//! ```

pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod sse2;

use crate::{Error, Impl, Quat};

/// Which kernel of the article computes the stream.
///
/// [`Width::Scalar`] runs everywhere and [`Width::Sse2x4`] on every `x86_64`
/// CPU; the 8-wide kernels need AVX2 (and FMA for [`Width::Avx2Fma8`]),
/// detected at run time with the crate's default `std` feature. Without
/// `std` they are never available.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Width {
    /// The scalar function in the article's `run` loop ([`scalar`]).
    Scalar,
    /// SSE2, four elements per block (`nlerp4`, `fnlerp4`, `onlerp4`). `x86_64`.
    Sse2x4,
    /// AVX2, eight elements per block (`nlerp8`, `fnlerp8`, `onlerp8`).
    /// `x86_64` with AVX2.
    Avx2x8,
    /// AVX2 with fused multiply-adds (`nlerp8_fma`, ...; the article's
    /// "onlerp8 FMA"). `x86_64` with AVX2 and FMA.
    Avx2Fma8,
}

impl Width {
    /// Every width, in a fixed order (for tests, benches and reports).
    pub const ALL: [Width; 4] = [Width::Scalar, Width::Sse2x4, Width::Avx2x8, Width::Avx2Fma8];

    /// Whether this width can run on this target and CPU (the CPU is asked
    /// with `std::is_x86_feature_detected!`, cached by `std`).
    pub fn is_available(self) -> bool {
        match self {
            Width::Scalar => true,
            Width::Sse2x4 => cfg!(target_arch = "x86_64"),
            Width::Avx2x8 => cpu_has_avx2(),
            Width::Avx2Fma8 => cpu_has_avx2() && cpu_has_fma(),
        }
    }

    /// Elements per block: 1, 4, 8, 8.
    pub const fn lanes(self) -> usize {
        match self {
            Width::Scalar => 1,
            Width::Sse2x4 => 4,
            Width::Avx2x8 | Width::Avx2Fma8 => 8,
        }
    }

    /// A short lower-case name (`"scalar"`, `"sse2x4"`, `"avx2x8"`, `"avx2fma8"`).
    pub const fn name(self) -> &'static str {
        match self {
            Width::Scalar => "scalar",
            Width::Sse2x4 => "sse2x4",
            Width::Avx2x8 => "avx2x8",
            Width::Avx2Fma8 => "avx2fma8",
        }
    }

    /// The crate-wide form this width belongs to: [`Impl::Scalar`] for
    /// [`Width::Scalar`], [`Impl::Intrinsics`] for the SIMD widths. It is
    /// what [`Error::Unsupported`] carries when a width cannot run.
    pub const fn imp(self) -> Impl {
        match self {
            Width::Scalar => Impl::Scalar,
            Width::Sse2x4 | Width::Avx2x8 | Width::Avx2Fma8 => Impl::Intrinsics,
        }
    }

    /// The fastest width available here: [`Width::Avx2Fma8`] if the CPU has
    /// AVX2 and FMA, else [`Width::Avx2x8`] with AVX2 alone, else
    /// [`Width::Sse2x4`] on `x86_64`, else [`Width::Scalar`].
    pub fn fastest() -> Width {
        [Width::Avx2Fma8, Width::Avx2x8, Width::Sse2x4].into_iter().find(|w| w.is_available()).unwrap_or(Width::Scalar)
    }
}

impl Default for Width {
    /// [`Width::fastest`].
    fn default() -> Self {
        Width::fastest()
    }
}

impl core::fmt::Display for Width {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

fn cpu_has_avx2() -> bool {
    cfg_if::cfg_if! {
        if #[cfg(all(feature = "std", target_arch = "x86_64"))] {
            std::is_x86_feature_detected!("avx2")
        } else {
            false
        }
    }
}

fn cpu_has_fma() -> bool {
    cfg_if::cfg_if! {
        if #[cfg(all(feature = "std", target_arch = "x86_64"))] {
            std::is_x86_feature_detected!("fma")
        } else {
            false
        }
    }
}

/// The raw kernels' signature: `(dest, l, r, t, size)`.
type Kernel = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);

/// One function's kernels, one per [`Width`].
struct Kernels {
    scalar: Kernel,
    #[cfg(target_arch = "x86_64")]
    sse2: Kernel,
    #[cfg(target_arch = "x86_64")]
    avx2: Kernel,
    #[cfg(target_arch = "x86_64")]
    avx2_fma: Kernel,
}

/// Picks the kernel (or `Unsupported`), validates, then runs.
fn run(width: Width, k: &Kernels, dest: &mut [Quat], l: &Quat, r: &[Quat], t: &[f32]) -> Result<(), Error> {
    if !width.is_available() {
        return Err(match width {
            Width::Avx2x8 => Error::MissingCpuFeature { needs: "avx2" },
            Width::Avx2Fma8 => Error::MissingCpuFeature { needs: "avx2 and fma" },
            _ => Error::Unsupported(width.imp()),
        });
    }
    let kernel = match width {
        Width::Scalar => k.scalar,
        #[cfg(target_arch = "x86_64")]
        Width::Sse2x4 => k.sse2,
        #[cfg(target_arch = "x86_64")]
        Width::Avx2x8 => k.avx2,
        #[cfg(target_arch = "x86_64")]
        Width::Avx2Fma8 => k.avx2_fma,
        #[allow(unreachable_patterns)]
        other => return Err(Error::Unsupported(other.imp())),
    };
    check_lengths(dest, r, t)?;
    crate::assert_16_byte_aligned(dest.as_ptr(), "dest");
    crate::assert_16_byte_aligned(r.as_ptr(), "r");
    // SAFETY: `r`, `t` and `dest` have `dest.len()` elements each (checked),
    // `dest` is a unique borrow so it overlaps neither input, `Quat`'s
    // alignment is what the aligned loads and stores need (asserted), and
    // the kernel runs only if `width.is_available()`, which checked the CPU
    // features its `#[target_feature]` enables.
    unsafe { kernel(dest.as_mut_ptr(), l, r.as_ptr(), t.as_ptr(), dest.len()) };
    Ok(())
}

fn check_lengths(dest: &[Quat], r: &[Quat], t: &[f32]) -> Result<(), Error> {
    let expected = dest.len();
    if r.len() != expected {
        return Err(Error::LengthMismatch { what: "r", expected, found: r.len() });
    }
    if t.len() != expected {
        return Err(Error::LengthMismatch { what: "t", expected, found: t.len() });
    }
    Ok(())
}

macro_rules! safe_fn {
    ($(#[$doc:meta])* $name:ident, $scalar:ident, $sse2:ident, $avx2:ident, $fma:ident) => {
        $(#[$doc])*
        ///
        /// `r` and `t` must have as many elements as `dest`. Input that only
        /// changes results is accepted and computed as the kernels compute
        /// it: non-unit quaternions (the result is normalised anyway; a zero
        /// sum `l (1 - ot) + r rt` gives NaN), `t` outside `[0, 1]`
        /// (extrapolation), NaN or infinite values.
        ///
        /// # Errors
        ///
        /// Checked before anything is written:
        /// - [`Error::MissingCpuFeature`]: `width` needs AVX2 (and FMA) that
        ///   this CPU lacks or that cannot be detected (without `std`);
        /// - [`Error::Unsupported`] (carrying [`Width::imp`]): `width` cannot
        ///   run on this target or CPU ([`Width::is_available`]);
        /// - [`Error::LengthMismatch`] with `what` = `"r"` or `"t"`: that
        ///   slice's length differs from `dest.len()`.
        ///
        /// # Panics
        ///
        /// If `dest` or `r` is not 16-byte aligned, which the `Quat` type
        /// rules out.
        pub fn $name(width: Width, dest: &mut [Quat], l: &Quat, r: &[Quat], t: &[f32]) -> Result<(), Error> {
            let kernels = Kernels {
                scalar: scalar::$scalar,
                #[cfg(target_arch = "x86_64")]
                sse2: sse2::$sse2,
                #[cfg(target_arch = "x86_64")]
                avx2: avx2::$avx2,
                #[cfg(target_arch = "x86_64")]
                avx2_fma: avx2::$fma,
            };
            run(width, &kernels, dest, l, r, t)
        }
    };
}

safe_fn! {
    /// `dest[i] = nlerp(l, r[i], t[i])`: normalised linear interpolation from
    /// `l` towards `r[i]` along the shorter arc, with the kernel `width`
    /// picks ([`scalar::run_nlerp`], [`sse2::nlerp4`], [`avx2::nlerp8`],
    /// [`avx2::nlerp8_fma`]).
    ///
    /// On unit quaternions the SIMD widths agree with [`scalar::nlerp`] to
    /// 5e-7 per component (measured 3.0e-7 on an Intel CPU; `tests/nlerp.rs`
    /// asserts the bound), except where `dot(l, r[i])` is `+0.0`: the scalar
    /// code then goes towards `-r[i]`, the SIMD sign-bit test towards `+r[i]`
    /// (both arcs are equally short; erratum E2 of `asm_notes/nlerp.md`).
    nlerp, run_nlerp, nlerp4, nlerp8, nlerp8_fma
}

safe_fn! {
    /// `dest[i] = fnlerp(l, r[i], t[i])`: [`nlerp`] with `t` corrected by the
    /// quadratic `k(d)` of *Approximating slerp* ([`scalar::fnlerp`]), with
    /// the kernel `width` picks ([`scalar::run_fnlerp`], [`sse2::fnlerp4`],
    /// [`avx2::fnlerp8`], [`avx2::fnlerp8_fma`]). Same agreement between the
    /// widths as [`nlerp`].
    fnlerp, run_fnlerp, fnlerp4, fnlerp8, fnlerp8_fma
}

safe_fn! {
    /// `dest[i] = onlerp(l, r[i], t[i])`: [`nlerp`] with `t` corrected by
    /// `k = A(d) (t - 0.5)^2 + B(d)` ([`scalar::onlerp`], the article's
    /// function), with the kernel `width` picks ([`scalar::run_onlerp`],
    /// [`sse2::onlerp4`], [`avx2::onlerp8`], [`avx2::onlerp8_fma`]). Same
    /// agreement between the widths as [`nlerp`].
    onlerp, run_onlerp, onlerp4, onlerp8, onlerp8_fma
}

/// `dest[i] = slerp(l, r[i], t[i])` with the scalar reference
/// [`scalar::slerp`] (there is no SIMD slerp in the article; the crate's
/// SIMD slerps are [`crate::slerp_joints()`] and the `slerp_quats` module).
///
/// # Errors
///
/// [`Error::LengthMismatch`] with `what` = `"r"` or `"t"` when that slice's
/// length differs from `dest.len()`; nothing is written.
///
/// # Panics
///
/// If `dest` or `r` is not 16-byte aligned, which the `Quat` type rules out.
pub fn slerp(dest: &mut [Quat], l: &Quat, r: &[Quat], t: &[f32]) -> Result<(), Error> {
    check_lengths(dest, r, t)?;
    // SAFETY: the three slices have `dest.len()` elements (checked) and
    // `dest` is a unique borrow, disjoint from `r` and `t`.
    unsafe { scalar::run_slerp(dest.as_mut_ptr(), l, r.as_ptr(), t.as_ptr(), dest.len()) };
    Ok(())
}
