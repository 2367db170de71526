//! The one generic routine harness: a [`Routine`] per safe function says
//! which roster entry it is (its name and shape: the inputs, calls and wrong
//! calls of [`super::shapes`]), what the f64 oracle gives and how close every
//! form must be; the generic checks below run the same way for every
//! routine, on every form of its roster entry, and [`harness_tests!`]
//! instantiates them (one `#[test]` each) in the routine's own test file,
//! which is where its `Routine` (its oracle and tolerances) is written.

use animasm::roster;
use animasm::{Error, Impl, JointMat, JointQuat, Quat};

use super::same_bits;
pub use super::shapes::BadCall;
use super::shapes::{InterpolatorShape, ShapeKind};

/// The one sentinel of every test: a quiet NaN bit pattern that no kernel
/// writes for the inputs used with it. Output buffers are filled with it to
/// see what was (not) written.
pub const SENTINEL: u32 = 0x7FA5_A5A5;

/// An output element as its floats.
pub trait Floats: Copy + core::fmt::Debug {
    /// Its floats, in memory order.
    fn floats(&self) -> Vec<f32>;
    /// The element with every float set to the bit pattern `bits`.
    fn filled(bits: u32) -> Self;
    /// The element with every float [`SENTINEL`].
    fn sentinel() -> Self {
        Self::filled(SENTINEL)
    }
}

impl Floats for JointQuat {
    fn floats(&self) -> Vec<f32> {
        super::lanes(self).to_vec()
    }
    fn filled(bits: u32) -> Self {
        let v = f32::from_bits(bits);
        JointQuat::new(Quat::new(v, v, v, v), animasm::Vec4::new(v, v, v, v))
    }
}

impl Floats for JointMat {
    fn floats(&self) -> Vec<f32> {
        self.mat.to_vec()
    }
    fn filled(bits: u32) -> Self {
        JointMat { mat: [f32::from_bits(bits); 12] }
    }
}

impl Floats for Quat {
    fn floats(&self) -> Vec<f32> {
        self.to_array().to_vec()
    }
    fn filled(bits: u32) -> Self {
        let v = f32::from_bits(bits);
        Quat::new(v, v, v, v)
    }
}

/// Every float of `out` as its bit pattern.
pub fn out_bits<T: Floats>(out: &[T]) -> Vec<u32> {
    out.iter().flat_map(|e| e.floats()).map(f32::to_bits).collect()
}

/// Whether every float of `out` is [`SENTINEL`].
pub fn untouched<T: Floats>(out: &[T]) -> bool {
    out_bits(out).iter().all(|&b| b == SENTINEL)
}

/// The output element of `R`.
pub type Out<R> = <<R as Routine>::Shape as ShapeKind>::Out;
/// The output buffer of `R`.
pub type Buf<R> = <<R as Routine>::Shape as ShapeKind>::Buf;
/// Everything else `R`'s safe function takes.
pub type In<R> = <<R as Routine>::Shape as ShapeKind>::In;
/// The safe function's type of `R`.
pub type Safe<R> = <<R as Routine>::Shape as ShapeKind>::Safe;

/// One safe function as the generic checks see it: its roster entry, its
/// shape, its oracle and its tolerances. The rest (forms, resolution,
/// inputs, calls, wrong calls) comes from the roster and the shape.
pub trait Routine: Sized {
    /// The safe function's name, as in `animasm::roster`.
    const NAME: &'static str;
    /// Its shape (the roster entry's [`roster::Shape`]).
    type Shape: ShapeKind;
    /// Max abs difference of a form from the scalar port.
    const TOL_SCALAR: f64;
    /// Max abs difference of every form from the f64 oracle.
    const TOL_ORACLE: f64;
    /// Max abs error of `out` (computed from `init` and `input`) against the
    /// f64 oracle (`animasm_testkit::oracle`).
    fn oracle_error(out: &[Out<Self>], init: &[Out<Self>], input: &In<Self>) -> f64;

    /// The routine's roster entry.
    fn roster() -> &'static roster::Routine {
        roster::find(Self::NAME).unwrap_or_else(|| panic!("{} is not in animasm::roster", Self::NAME))
    }
    /// The safe function, from the roster.
    fn safe() -> Safe<Self> {
        Self::Shape::safe(Self::roster().shape)
            .unwrap_or_else(|| panic!("{}: the roster gives another shape", Self::NAME))
    }
    /// The forms this CPU runs, fastest first (the roster's `forms()`).
    fn forms() -> Vec<Impl> {
        Self::roster().forms().map(|f| f.imp).collect()
    }
    /// The form the safe function runs for `imp`, or its error (the
    /// roster's `resolve()`).
    fn resolve(imp: Impl) -> Result<Impl, Error> {
        Self::roster().resolve(imp).map(|f| f.imp)
    }
    /// A buffer holding `init`.
    fn buf(init: &[Out<Self>]) -> Buf<Self> {
        Self::Shape::buf(init)
    }
    /// The shape's seeded inputs for count `n`.
    fn inputs(seed: u64, n: usize) -> (Vec<Out<Self>>, In<Self>) {
        Self::Shape::inputs(seed, n)
    }
    /// The safe function with form `imp`.
    fn call(imp: Impl, out: &mut [Out<Self>], input: &In<Self>) -> Result<(), Error> {
        Self::Shape::call(Self::safe(), imp, out, input)
    }
    /// The shape's wrong calls for a count `n >= 1` whose output buffer has
    /// `n` elements.
    fn bad_calls(n: usize) -> Vec<BadCall<Out<Self>>> {
        Self::Shape::bad_calls(Self::safe(), n)
    }
}

/// Runs `imp` on `init` and `input` in a buffer of the routine's kind.
pub fn run<R: Routine>(imp: Impl, init: &[Out<R>], input: &In<R>) -> Result<Vec<Out<R>>, Error> {
    let mut b = R::buf(init);
    R::call(imp, &mut b, input).map(|()| b.to_vec())
}

/// Max difference of two outputs by `animasm_testkit::error::abs_rel_diff`:
/// absolute for values up to 1 and relative above (translations reach 10
/// and more), NaN-aware (two NaNs are equal, a NaN against a number is an
/// infinite difference).
pub fn max_diff<T: Floats>(a: &[T], b: &[T]) -> f64 {
    let a: Vec<f32> = a.iter().flat_map(|e| e.floats()).collect();
    let b: Vec<f32> = b.iter().flat_map(|e| e.floats()).collect();
    assert_eq!(a.len(), b.len());
    a.iter().zip(&b).map(|(&x, &y)| animasm_testkit::error::abs_rel_diff(x, y)).fold(0.0, f64::max)
}

/// Panics unless `got` is `Err(want)`, a NaN factor in both counting as the
/// same (the errors carry the factor; `Error`'s `PartialEq` has NaN != NaN).
#[track_caller]
pub fn assert_same_err(got: Result<(), Error>, want: Error, ctx: &str) {
    let same = match (got, want) {
        (
            Err(Error::NonFiniteFactor { what: a, position: p, value: x }),
            Error::NonFiniteFactor { what: b, position: q, value: y },
        ) => a == b && p == q && same_bits(x, y),
        (got, want) => got == Err(want),
    };
    assert!(same, "{ctx}: got {got:?}, expected Err({want:?})");
}

/// The counts every generic check covers.
pub const COUNTS: core::ops::RangeInclusive<usize> = 0..=33;

/// (a) asm and intrinsics agree bit for bit (NaN-aware) where both run.
pub fn twins_bit_identical<R: Routine>() {
    let forms = R::forms();
    if !(forms.contains(&Impl::Asm) && forms.contains(&Impl::Intrinsics)) {
        // A routine without the pair (the nlerp family publishes no listing)
        // has nothing to skip; one whose table lists it says so.
        let listed = |imp| R::roster().all_forms().any(|f| f.imp == imp);
        if listed(Impl::Asm) && listed(Impl::Intrinsics) {
            super::cpu::skipped(&format!("{}: the asm and intrinsics twins do not run here: not compared", R::NAME));
        }
        return;
    }
    for n in COUNTS.chain([64, 257]) {
        let (init, input) = R::inputs(0xa5a0 + n as u64, n);
        let a = run::<R>(Impl::Asm, &init, &input).unwrap();
        let i = run::<R>(Impl::Intrinsics, &init, &input).unwrap();
        let (fa, fi): (Vec<f32>, Vec<f32>) =
            (a.iter().flat_map(|e| e.floats()).collect(), i.iter().flat_map(|e| e.floats()).collect());
        if let Some(k) = (0..fa.len()).find(|&k| !same_bits(fa[k], fi[k])) {
            panic!(
                "{} n={n}: asm and intrinsics differ at float {k}: {:#010x} vs {:#010x}",
                R::NAME,
                fa[k].to_bits(),
                fi[k].to_bits()
            );
        }
    }
}

/// (b) every form against the scalar port and the f64 oracle.
pub fn forms_vs_scalar_and_oracle<R: Routine>() {
    for n in [1, 4, 7, 16, 33, 100] {
        let (init, input) = R::inputs(0xb0b0 + n as u64, n);
        let scalar = run::<R>(Impl::Scalar, &init, &input).unwrap();
        for imp in R::forms() {
            let out = run::<R>(imp, &init, &input).unwrap();
            let d = max_diff(&out, &scalar);
            assert!(
                d <= R::TOL_SCALAR,
                "{} {imp} n={n}: {d:e} from the scalar port (bound {:e})",
                R::NAME,
                R::TOL_SCALAR
            );
            let e = R::oracle_error(&out, &init, &input);
            assert!(
                e <= R::TOL_ORACLE,
                "{} {imp} n={n}: {e:e} from the f64 oracle (bound {:e})",
                R::NAME,
                R::TOL_ORACLE
            );
        }
    }
}

/// (c) every `Err` writes nothing: the output buffer keeps [`SENTINEL`].
pub fn errors_write_nothing<R: Routine>() {
    for n in [1, 5, 17] {
        for (what, call, want) in R::bad_calls(n) {
            for imp in R::forms().into_iter().chain([Impl::Auto]) {
                let mut out = R::buf(&vec![<Out<R>>::sentinel(); n]);
                assert_same_err(call(imp, &mut out), want, &format!("{} {imp} n={n}: {what}", R::NAME));
                assert!(untouched(&out), "{} {imp} n={n}: {what}: written on Err", R::NAME);
            }
        }
    }
}

/// (d) every count 0..=33: every form runs, agrees with the scalar port, and
/// writes nothing past the end.
pub fn every_count<R: Routine>() {
    for n in COUNTS {
        let (init, input) = R::inputs(0xc0c0 + n as u64, n);
        let scalar = run::<R>(Impl::Scalar, &init, &input).unwrap();
        for imp in R::forms() {
            let out = run::<R>(imp, &init, &input).unwrap();
            assert_eq!(out.len(), n);
            let d = max_diff(&out, &scalar);
            assert!(d <= R::TOL_SCALAR, "{} {imp} n={n}: {d:e} from the scalar port", R::NAME);
        }
    }
}

/// (e) form resolution: for every `Impl` (and `Auto`) the safe function
/// agrees with `resolve(imp)`: an `Err` (`Unsupported` or
/// `MissingCpuFeature`) with nothing written, or `Ok`; `Auto` always
/// resolves; off `x86_64` exactly the forms the roster lists for the
/// build do.
pub fn form_resolution<R: Routine>() {
    let n = 5;
    let (init, input) = R::inputs(0xe0e0, n);
    let mut skipped = Vec::new();
    for imp in Impl::ALL.into_iter().chain([Impl::Auto]) {
        let resolved = R::resolve(imp);
        let mut out = R::buf(&vec![<Out<R>>::sentinel(); n]);
        // In-place routines read the output: start from the inputs' values.
        out.copy_from_slice(&init);
        let before = out_bits(&out);
        let got = R::call(imp, &mut out, &input);
        match resolved {
            Ok(form) => {
                assert_eq!(got, Ok(()), "{} {imp}", R::NAME);
                assert!(R::forms().contains(&form), "{} {imp} resolves to {form}, not a form here", R::NAME);
                if imp != Impl::Auto {
                    assert_eq!(form, imp);
                }
            }
            Err(e) => {
                assert!(
                    matches!(e, Error::Unsupported(_) | Error::MissingCpuFeature { .. }),
                    "{} {imp}: {e:?}",
                    R::NAME
                );
                assert_eq!(got, Err(e), "{} {imp}", R::NAME);
                assert_eq!(out_bits(&out), before, "{} {imp}: written on Err", R::NAME);
                if let Error::MissingCpuFeature { needs } = e {
                    skipped.push(format!("{imp} (needs {needs})"));
                }
            }
        }
    }
    assert!(R::resolve(Impl::Auto).is_ok(), "{}: Auto must resolve", R::NAME);
    #[cfg(not(target_arch = "x86_64"))]
    for imp in Impl::ALL {
        // Off x86_64 nothing is detected at run time: every form of the
        // routine's table that this build has runs (the scalar port always),
        // and no other.
        let listed = R::roster().forms().any(|f| f.imp == imp);
        assert!(listed || imp != Impl::Scalar, "{}: the scalar port is in every build", R::NAME);
        assert_eq!(R::resolve(imp).is_ok(), listed, "{} {imp}", R::NAME);
    }
    #[cfg(target_arch = "x86_64")]
    if !skipped.is_empty() {
        super::cpu::skipped(&format!(
            "{}: forms not detected (this CPU lacks them, or the `std` feature is off), not run by any test: {}",
            R::NAME,
            skipped.join(", ")
        ));
    }
}

/// (f) the interpolators' sibling contract: a NaN or infinite factor is
/// `NonFiniteFactor` with nothing written; a factor `<= 0` or `>= 1` gives
/// the exact endpoint with every form; a call wrong in two ways returns the
/// earlier-checked error.
pub fn sibling_contract<R: Routine>()
where
    R::Shape: InterpolatorShape,
{
    for n in [1, 4, 9, 20] {
        let (init, input) = R::inputs(0xf0f0 + n as u64, n);
        for imp in R::forms().into_iter().chain([Impl::Auto]) {
            for f in [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let mut out = R::buf(&init);
                let got = R::Shape::call_at(R::safe(), imp, &mut out, &input, f);
                assert_same_err(got, R::Shape::non_finite(f), &format!("{} {imp} n={n}", R::NAME));
                assert_eq!(out_bits(&out), out_bits(&init), "{} {imp} n={n} factor {f}: written on Err", R::NAME);
                let (what, call, want) = R::Shape::earlier_error(R::safe(), n, f);
                let mut out = R::buf(&vec![<Out<R>>::sentinel(); n]);
                assert_same_err(call(imp, &mut out), want, &format!("{} {imp} n={n}: {what}", R::NAME));
                assert!(untouched(&out), "{} {imp}: written on Err", R::NAME);
            }
            for (f, one) in
                [(0.0, false), (-0.0, false), (-0.5, false), (-1e30, false), (1.0, true), (1.5, true), (1e30, true)]
            {
                let mut out = R::buf(&init);
                R::Shape::call_at(R::safe(), imp, &mut out, &input, f).unwrap();
                let want = R::Shape::endpoint(&init, &input, one);
                assert_eq!(
                    out_bits(&out),
                    out_bits(&want),
                    "{} {imp} n={n}: factor {f} is not the exact endpoint",
                    R::NAME
                );
            }
        }
        // An unsupported form is reported before a non-finite factor.
        for imp in Impl::ALL {
            if let Err(e) = R::resolve(imp) {
                let mut out = R::buf(&init);
                assert_eq!(R::Shape::call_at(R::safe(), imp, &mut out, &input, f32::NAN), Err(e), "{} {imp}", R::NAME);
            }
        }
    }
}

/// Instantiates the generic checks (one `#[test]` each) for a [`Routine`]:
/// `harness_tests!(MyRoutine);`, or `harness_tests!(MyRoutine, interpolator)`
/// to add the sibling contract.
#[macro_export]
macro_rules! harness_tests {
    ($r:ty) => {
        mod harness {
            use super::*;
            #[test]
            fn twins_bit_identical() {
                $crate::common::harness::twins_bit_identical::<$r>();
            }
            #[test]
            fn forms_vs_scalar_and_oracle() {
                $crate::common::harness::forms_vs_scalar_and_oracle::<$r>();
            }
            #[test]
            fn errors_write_nothing() {
                $crate::common::harness::errors_write_nothing::<$r>();
            }
            #[test]
            fn every_count() {
                $crate::common::harness::every_count::<$r>();
            }
            #[test]
            fn form_resolution() {
                $crate::common::harness::form_resolution::<$r>();
            }
        }
    };
    ($r:ty, interpolator) => {
        harness_tests!($r);
        #[test]
        fn harness_sibling_contract() {
            $crate::common::harness::sibling_contract::<$r>();
        }
    };
}

/// The forms every id Software routine (`animasm::roster::id_routines()`)
/// runs here: the intersection of their forms, for checks that run them all
/// with one `Impl`.
pub fn forms_of_all() -> Vec<Impl> {
    let all: Vec<Vec<Impl>> = roster::id_routines().map(|r| r.forms().map(|f| f.imp).collect()).collect();
    all[0].iter().copied().filter(|imp| all.iter().all(|f| f.contains(imp))).collect()
}
