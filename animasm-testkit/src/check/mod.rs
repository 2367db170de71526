//! A differential check of your quaternion interpolation against the f64
//! reference and animasm's kernels, over the hard cases of [`crate::cases`].
//!
//! Give it a function of the shape
//!
//! ```text
//! FnMut(out: &mut [Quat], from: &[Quat], to: &[Quat], t: f32)
//! ```
//!
//! that writes `interpolate(from[i], to[i], t)` to `out[i]` for every `i`
//! (the three slices have the same length; quaternions are `[x, y, z, w]`
//! in [`animasm::Quat`], which converts from and to arrays with
//! `Quat::from_array`/`to_array`). [`Check::run`] calls it once per case
//! family and factor of [`cases::FACTORS`] (and once with a NaN factor,
//! unless [`Check::nan_factor`] turns that off), runs animasm's own forms on the
//! same inputs, and returns a [`Report`]: the max errors per family, the
//! worst input, what happens at the endpoints, at dot products of `±0.0` and
//! on NaN and infinite input. A test asserts on the report and prints it.
//!
//! The one-line assertion, [`Report::assert_within`]`(bound)`, checks three
//! measures on every unit-quaternion family, because each misses a bug the
//! others catch: the rotation angle from the reference (within `bound`,
//! radians; blind to a result's length), every component against the nearer
//! of `±reference` (within `bound`), and the length (within
//! [`LENGTH_TOLERANCE`] of 1). A slerp whose tiny-angle lerp is not
//! renormalised turns the right way but comes out up to 1.2e-4 short on the
//! Fox's keys: 9e-7 rad passes an angle bound of 2e-6, the length does not.
//! Its panic message names each family and measure beyond its limit, with
//! the worst input, and does not repeat the report, so printing the report
//! and then asserting shows each figure once.
//!
//! ```
//! use animasm_testkit::animasm::Quat;
//! use animasm_testkit::check::Check;
//!
//! // A textbook slerp in f32, with the shortest-arc flip and a linear
//! // fallback for tiny angles.
//! fn my_slerp(a: Quat, b: Quat, t: f32) -> Quat {
//!     let (a, mut b) = (a.to_array(), b.to_array());
//!     let mut d: f32 = (0..4).map(|i| a[i] * b[i]).sum();
//!     if d < 0.0 {
//!         b = b.map(|v| -v);
//!         d = -d;
//!     }
//!     let (s0, s1) = if d > 0.9995 {
//!         (1.0 - t, t)
//!     } else {
//!         let w = d.acos();
//!         (((1.0 - t) * w).sin() / w.sin(), (t * w).sin() / w.sin())
//!     };
//!     let q: [f32; 4] = core::array::from_fn(|i| s0 * a[i] + s1 * b[i]);
//!     let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
//!     Quat::from_array(q.map(|v| v / n))
//! }
//!
//! // `run` takes a function over slices (a SIMD kernel);
//! // `run_each` one of a single pair.
//! let report = Check::slerp("my slerp").run_each(my_slerp);
//! println!("{report}");
//! // Within 2e-6 of the exact slerp on every unit-quaternion family, in
//! // rotation angle (radians) and in every component, and of unit length.
//! // (The linear fallback above a dot product of 0.9995 costs the most:
//! // 9.5e-7 rad on the Fox's keyframe pairs, where most blends take it; the
//! // other families stay near 2e-7.)
//! report.assert_within(2e-6);
//! // It renormalises at the end, so t = 0 does not always give `from` back.
//! assert!(report.endpoints.t0_exact < report.endpoints.t0_cases);
//! ```

use animasm::{Impl, JointQuat, Quat, Vec4};

use crate::cases::{self, Case, FACTORS, Family};
use crate::error::rotation_angle;
use crate::oracle::{lerp_f64, slerp_f64};

/// How far from 1 a result's length may be for [`Report::assert_within`]
/// (`|‖q‖ - 1|`, on every unit-quaternion family), whatever the bound.
///
/// A correct f32 slerp or nlerp that normalises its result, or whose weights
/// keep it unit (the `sin` ratios), stays within a few 1e-7: glam's slerp
/// and lerp 2.3e-7 at most, animasm's successors and scalar ports 2.7e-7,
/// and the listings' slerp, which normalises with an `rsqrtps` estimate
/// refined by one Newton-Raphson step, 5.4e-7 (Intel Xeon; the tolerance is
/// that with a margin of 1.9x). A normalised lerp that
/// is not renormalised is short by `1 - cos(θ/2)` at `t = 0.5` for two
/// quaternions `θ` apart (4D angle): 1.25e-4 at the textbook fallback
/// threshold of a dot product of 0.9995, beyond the tolerance by two orders
/// of magnitude.
///
/// ```
/// use animasm_testkit::check::LENGTH_TOLERANCE;
/// let theta = 0.9995f64.acos(); // where a textbook slerp switches to a lerp
/// assert!(1.0 - (theta / 2.0).cos() > 100.0 * LENGTH_TOLERANCE);
/// ```
pub const LENGTH_TOLERANCE: f64 = 1e-6;

/// What a checked function is compared with: the f64 reference and the
/// animasm routine whose forms run next to it.
///
/// ```
/// use animasm_testkit::check::Reference;
/// let q = Reference::Slerp.eval([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 0.0], 0.5);
/// assert!((q[2] - q[3]).abs() < 1e-15); // half way: 45 degrees of the 90
/// assert_eq!(Reference::Nlerp.routine(), "lerp_joints");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    /// Spherical interpolation along the shorter arc
    /// ([`crate::oracle::slerp_f64`]); animasm's `slerp_joints`.
    Slerp,
    /// Linear interpolation along the shorter arc, renormalised
    /// ([`crate::oracle::lerp_f64`]); animasm's `lerp_joints`.
    Nlerp,
}

impl Reference {
    /// The reference in f64.
    ///
    /// ```
    /// use animasm_testkit::check::Reference;
    /// let (a, b) = ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.6, 0.8]);
    /// assert_eq!(Reference::Nlerp.eval(a, b, 0.0), a);
    /// ```
    pub fn eval(self, from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
        match self {
            Reference::Slerp => slerp_f64(from, to, t),
            Reference::Nlerp => lerp_f64(from, to, t),
        }
    }

    /// The reference's name in reports.
    ///
    /// ```
    /// use animasm_testkit::check::Reference;
    /// assert_eq!(Reference::Nlerp.name(), "normalised lerp");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Reference::Slerp => "slerp",
            Reference::Nlerp => "normalised lerp",
        }
    }

    /// The animasm safe function whose forms the check runs.
    ///
    /// ```
    /// use animasm_testkit::check::Reference;
    /// assert_eq!(Reference::Slerp.routine(), "slerp_joints");
    /// ```
    pub fn routine(self) -> &'static str {
        match self {
            Reference::Slerp => "slerp_joints",
            Reference::Nlerp => "lerp_joints",
        }
    }

    /// The forms of [`Reference::routine`] that run on this CPU.
    ///
    /// ```
    /// use animasm_testkit::animasm::Impl;
    /// use animasm_testkit::check::Reference;
    /// assert!(Reference::Slerp.forms().contains(&Impl::Scalar));
    /// ```
    pub fn forms(self) -> Vec<Impl> {
        match self {
            Reference::Slerp => animasm::slerp_joints::forms().collect(),
            Reference::Nlerp => animasm::lerp_joints::forms().collect(),
        }
    }

    /// Runs form `imp` of [`Reference::routine`] on `from`/`to` at `t` and
    /// writes the rotations to `out` (all three of one length): what
    /// [`Check::run`] does for [`Report::forms`]. The translations are zero.
    ///
    /// ```
    /// use animasm_testkit::animasm::{Impl, Quat};
    /// use animasm_testkit::check::Reference;
    /// let (a, b) = (Quat::new(0.0, 0.0, 0.0, 1.0), Quat::new(0.0, 0.0, 1.0, 0.0));
    /// let mut out = [Quat::new(0.0, 0.0, 0.0, 0.0)];
    /// Reference::Slerp.run_form(Impl::Scalar, &mut out, &[a], &[b], 0.5).unwrap();
    /// assert!((out[0].z - out[0].w).abs() < 1e-6);
    /// assert!(Reference::Slerp.run_form(Impl::Scalar, &mut out, &[a], &[b], f32::NAN).is_err());
    /// ```
    pub fn run_form(
        self,
        imp: Impl,
        out: &mut [Quat],
        from: &[Quat],
        to: &[Quat],
        t: f32,
    ) -> Result<(), animasm::Error> {
        let joint = |q: &Quat| JointQuat::new(*q, Vec4::default());
        let mut joints: Vec<JointQuat> = from.iter().map(joint).collect();
        let blend: Vec<JointQuat> = to.iter().map(joint).collect();
        let index: Vec<i32> = (0..from.len() as i32).collect();
        match self {
            Reference::Slerp => animasm::slerp_joints(imp, &mut joints, &blend, t, &index)?,
            Reference::Nlerp => animasm::lerp_joints(imp, &mut joints, &blend, t, &index)?,
        }
        for (o, j) in out.iter_mut().zip(&joints) {
            *o = j.q;
        }
        Ok(())
    }
}

/// A configured check. [`Check::slerp`] and [`Check::nlerp`] start one with
/// the defaults (seed `0x5EED`, 256 pairs per family, every family, every
/// form of the animasm routine that runs here); the other methods change
/// them; [`Check::run`] runs it.
///
/// ```
/// use animasm_testkit::animasm::Impl;
/// use animasm_testkit::cases::Family;
/// use animasm_testkit::check::Check;
/// let report = Check::nlerp("copy of animasm's scalar lerp")
///     .seed(42)
///     .pairs_per_family(32)
///     .families(&[Family::Uniform, Family::Near180])
///     .forms(&[Impl::Scalar])
///     .nan_factor(false) // the safe function refuses a NaN factor
///     .run(|out, from, to, t| {
///         let mut joints: Vec<_> = from.iter().map(|q| animasm_testkit::animasm::JointQuat::new(*q, Default::default())).collect();
///         let blend: Vec<_> = to.iter().map(|q| animasm_testkit::animasm::JointQuat::new(*q, Default::default())).collect();
///         let index: Vec<i32> = (0..from.len() as i32).collect();
///         animasm_testkit::animasm::lerp_joints(Impl::Scalar, &mut joints, &blend, t, &index).unwrap();
///         for (o, j) in out.iter_mut().zip(&joints) { *o = j.q; }
///     });
/// assert_eq!(report.families.len(), 2);
/// // The same code as the scalar form: no difference at all.
/// assert_eq!(report.forms[0].max_angle_from_checked, 0.0);
/// ```
#[derive(Clone, Debug)]
pub struct Check {
    name: String,
    reference: Reference,
    seed: u64,
    pairs: usize,
    families: Vec<Family>,
    forms: Option<Vec<Impl>>,
    nan_factor: bool,
}

impl Check {
    /// A check of a slerp named `name` against [`Reference::Slerp`].
    ///
    /// ```
    /// use animasm_testkit::check::{Check, Reference};
    /// assert_eq!(Check::slerp("mine").reference(), Reference::Slerp);
    /// ```
    pub fn slerp(name: &str) -> Check {
        Check::new(name, Reference::Slerp)
    }

    /// A check of a normalised lerp named `name` against
    /// [`Reference::Nlerp`].
    ///
    /// ```
    /// use animasm_testkit::check::{Check, Reference};
    /// assert_eq!(Check::nlerp("mine").reference(), Reference::Nlerp);
    /// ```
    pub fn nlerp(name: &str) -> Check {
        Check::new(name, Reference::Nlerp)
    }

    /// A check of `name` against `reference`.
    ///
    /// ```
    /// use animasm_testkit::check::{Check, Reference};
    /// assert_eq!(Check::new("mine", Reference::Nlerp).reference(), Reference::Nlerp);
    /// ```
    pub fn new(name: &str, reference: Reference) -> Check {
        Check {
            name: name.into(),
            reference,
            seed: 0x5EED,
            pairs: 256,
            families: Family::ALL.to_vec(),
            forms: None,
            nan_factor: true,
        }
    }

    /// The reference it compares with.
    ///
    /// ```
    /// use animasm_testkit::check::{Check, Reference};
    /// assert_eq!(Check::slerp("x").reference(), Reference::Slerp);
    /// ```
    pub fn reference(&self) -> Reference {
        self.reference
    }

    /// The seed of the generated pairs ([`cases::family`]).
    ///
    /// ```
    /// use animasm_testkit::check::Check;
    /// let id = |out: &mut [animasm_testkit::animasm::Quat], from: &[animasm_testkit::animasm::Quat], _: &[animasm_testkit::animasm::Quat], _: f32| out.copy_from_slice(from);
    /// let a = Check::slerp("x").seed(1).pairs_per_family(8).run(id);
    /// let b = Check::slerp("x").seed(1).pairs_per_family(8).run(id);
    /// assert_eq!(a.max_angle(), b.max_angle());
    /// ```
    pub fn seed(mut self, seed: u64) -> Check {
        self.seed = seed;
        self
    }

    /// How many pairs each family has (each checked at every factor of
    /// [`cases::FACTORS`]); 256 by default.
    ///
    /// ```
    /// use animasm_testkit::cases::{FACTORS, Family};
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").pairs_per_family(10).families(&[Family::Uniform])
    ///     .run(|o, f, _, _| o.copy_from_slice(f));
    /// assert_eq!(r.families[0].cases, 10 * FACTORS.len());
    /// ```
    pub fn pairs_per_family(mut self, n: usize) -> Check {
        self.pairs = n;
        self
    }

    /// The families to check (all of [`Family::ALL`] by default).
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").families(&[Family::Tiny]).pairs_per_family(4)
    ///     .run(|o, f, _, _| o.copy_from_slice(f));
    /// assert_eq!(r.families[0].family, Family::Tiny);
    /// ```
    pub fn families(mut self, families: &[Family]) -> Check {
        self.families = families.to_vec();
        self
    }

    /// The animasm forms to run next to the checked function (by default
    /// [`Reference::forms`], every form that runs here). A form this CPU
    /// cannot run is listed in [`Report::skipped`] with the reason.
    ///
    /// ```
    /// use animasm_testkit::animasm::Impl;
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").forms(&[Impl::Scalar]).pairs_per_family(4)
    ///     .run(|o, f, _, _| o.copy_from_slice(f));
    /// assert_eq!(r.forms.len() + r.skipped.len(), 1);
    /// ```
    pub fn forms(mut self, forms: &[Impl]) -> Check {
        self.forms = Some(forms.to_vec());
        self
    }

    /// Whether to call the checked function with a NaN factor (on 8
    /// uniform pairs) to see what it returns ([`NonFinite::nan_factor_cases`]);
    /// on by default. Turn it off for a function that panics or returns an
    /// error on a NaN factor (animasm's safe functions return
    /// `Err(NonFiniteFactor)`).
    ///
    /// ```
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").nan_factor(false).pairs_per_family(4).run(|o, f, _, t| {
    ///     assert!(!t.is_nan());
    ///     o.copy_from_slice(f)
    /// });
    /// assert_eq!(r.non_finite.nan_factor_cases, 0);
    /// ```
    pub fn nan_factor(mut self, on: bool) -> Check {
        self.nan_factor = on;
        self
    }

    /// [`Check::run`] for a function of one pair: `f(from, to, t)` is
    /// called for every pair.
    ///
    /// ```
    /// use animasm_testkit::animasm::Quat;
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("stuck").pairs_per_family(8).run_each(|from: Quat, _to: Quat, _t: f32| from);
    /// assert!(r.max_angle() > 3.0);
    /// ```
    pub fn run_each<F: FnMut(Quat, Quat, f32) -> Quat>(&self, mut f: F) -> Report {
        self.run(|out, from, to, t| {
            for i in 0..out.len() {
                out[i] = f(from[i], to[i], t);
            }
        })
    }

    /// Runs `f` over every family and factor, and animasm's forms on the
    /// same inputs, and measures both against the reference.
    ///
    /// ```
    /// use animasm_testkit::check::Check;
    /// // "Interpolating" by returning `from`: wrong everywhere except at t = 0.
    /// let r = Check::slerp("stuck").pairs_per_family(16).run(|o, f, _, _| o.copy_from_slice(f));
    /// assert!(r.max_angle() > 3.0);
    /// assert_eq!(r.endpoints.t0_exact, r.endpoints.t0_cases);
    /// assert!(r.endpoints.t1_exact < r.endpoints.t1_cases);
    /// ```
    pub fn run<F: FnMut(&mut [Quat], &[Quat], &[Quat], f32)>(&self, mut f: F) -> Report {
        let mut forms = Vec::new();
        let mut skipped = Vec::new();
        for imp in self.forms.clone().unwrap_or_else(|| self.reference.forms()) {
            match self.reference.run_form(imp, &mut [], &[], &[], 0.5) {
                Ok(()) => forms.push(FormReport {
                    form: imp,
                    max_angle: Vec::new(),
                    max_angle_from_checked: 0.0,
                    non_finite: NonFinite::default(),
                    errors: Vec::new(),
                }),
                Err(e) => skipped.push((imp, e.to_string())),
            }
        }
        let mut report = Report {
            name: self.name.clone(),
            reference: self.reference,
            seed: self.seed,
            pairs: self.pairs,
            families: Vec::new(),
            endpoints: Endpoints::default(),
            zero_dot: ZeroDot::default(),
            non_finite: NonFinite::default(),
            forms,
            skipped,
        };
        for &family in &self.families {
            let pairs = cases::family(family, self.seed, self.pairs);
            let fr = self.run_family(&mut f, &pairs, &mut report);
            report.families.push(fr);
        }
        if !self.nan_factor {
            return report;
        }
        // NaN factors, on uniform pairs.
        let pairs = cases::family(Family::Uniform, self.seed, 8);
        let (from, to): (Vec<Quat>, Vec<Quat>) = pairs.iter().map(|c| (c.from, c.to)).unzip();
        let mut out = vec![Quat::new(0.0, 0.0, 0.0, 0.0); pairs.len()];
        f(&mut out, &from, &to, f32::NAN);
        report.non_finite.nan_factor_cases += out.len();
        report.non_finite.nan_factor_nan_out += out.iter().filter(|q| q.to_array().iter().any(|v| v.is_nan())).count();
        for form in &mut report.forms {
            let mut out = vec![Quat::new(0.0, 0.0, 0.0, 0.0); pairs.len()];
            form.non_finite.nan_factor_cases += pairs.len();
            match self.reference.run_form(form.form, &mut out, &from, &to, f32::NAN) {
                Ok(()) => {
                    form.non_finite.nan_factor_nan_out +=
                        out.iter().filter(|q| q.to_array().iter().any(|v| v.is_nan())).count()
                }
                Err(e) => form.non_finite.nan_factor_err = Some(e.to_string()),
            }
        }
        report
    }

    fn run_family<F: FnMut(&mut [Quat], &[Quat], &[Quat], f32)>(
        &self,
        f: &mut F,
        pairs: &[Case],
        report: &mut Report,
    ) -> FamilyReport {
        let family = pairs.first().map_or(Family::Uniform, |c| c.family);
        let mut fr = FamilyReport { family, ..FamilyReport::default() };
        let (from, to): (Vec<Quat>, Vec<Quat>) = pairs.iter().map(|c| (c.from, c.to)).unzip();
        let mut out = vec![Quat::new(0.0, 0.0, 0.0, 0.0); pairs.len()];
        let mut form_out = out.clone();
        let mut form_max = vec![0f64; report.forms.len()];
        for &t in &FACTORS {
            out.fill(Quat::new(f32::NAN, f32::NAN, f32::NAN, f32::NAN));
            f(&mut out, &from, &to, t);
            let wants: Vec<Want> = pairs.iter().map(|c| self.want(c, t)).collect();
            for (i, c) in pairs.iter().enumerate() {
                let got = out[i];
                let non_finite = got.to_array().iter().any(|v| !v.is_finite());
                fr.cases += 1;
                fr.non_finite_out += usize::from(non_finite);
                if family == Family::NonFinite {
                    report.non_finite.cases += 1;
                    report.non_finite.nan_out += usize::from(got.to_array().iter().any(|v| v.is_nan()));
                    report.non_finite.finite_out += usize::from(!non_finite);
                    continue;
                }
                let (angle, abs, length_error) = measure(got, &wants[i]);
                let worst = Worst { case: *c, t, got, want: wants[i].best(got), angle, abs, length_error };
                if angle > fr.max_angle || fr.worst.is_none() {
                    fr.worst = Some(worst);
                }
                if abs > fr.max_abs || fr.worst_abs.is_none() {
                    fr.worst_abs = Some(worst);
                }
                if length_error > fr.max_length_error || fr.worst_length.is_none() {
                    fr.worst_length = Some(worst);
                }
                fr.max_angle = fr.max_angle.max(angle);
                fr.max_abs = fr.max_abs.max(abs);
                fr.max_length_error = fr.max_length_error.max(length_error);
                if family.is_unit() {
                    report.endpoints.record(c, t, got);
                }
                if family == Family::ZeroDot && t == 0.5 {
                    report.zero_dot.record(c, got, &wants[i]);
                }
            }
            for (k, form) in report.forms.iter_mut().enumerate() {
                form_out.fill(Quat::new(f32::NAN, f32::NAN, f32::NAN, f32::NAN));
                if let Err(e) = self.reference.run_form(form.form, &mut form_out, &from, &to, t) {
                    form.errors.push(format!("{} at t = {t}: {e}", family.name()));
                    continue;
                }
                if family == Family::NonFinite {
                    for q in &form_out {
                        let a = q.to_array();
                        form.non_finite.cases += 1;
                        form.non_finite.nan_out += usize::from(a.iter().any(|v| v.is_nan()));
                        form.non_finite.finite_out += usize::from(a.iter().all(|v| v.is_finite()));
                    }
                    continue;
                }
                for i in 0..pairs.len() {
                    form_max[k] = form_max[k].max(measure(form_out[i], &wants[i]).0);
                    let d = rotation_angle(f64q(out[i]), f64q(form_out[i]));
                    if family.is_unit() && pairs[i].dot() != 0.0 {
                        form.max_angle_from_checked = form.max_angle_from_checked.max(d);
                    }
                }
            }
        }
        if family == Family::NonFinite {
            fr.max_angle = f64::NAN;
            fr.max_abs = f64::NAN;
            fr.max_length_error = f64::NAN;
        } else {
            for (k, form) in report.forms.iter_mut().enumerate() {
                form.max_angle.push((family, form_max[k]));
            }
        }
        fr
    }

    /// The reference for a case at `t`: the exact result, and for a zero dot
    /// product also the other arc's.
    fn want(&self, c: &Case, t: f32) -> Want {
        let (mut a, mut b) = (f64q(c.from), f64q(c.to));
        // Input off unit length (the non-unit family, two errata pairs): the
        // reference is the result for the normalised pair.
        let off = |v: [f64; 4]| (v.iter().map(|x| x * x).sum::<f64>().sqrt() - 1.0).abs() > 1e-6;
        if c.family == Family::NonUnit || (c.family == Family::Errata && (off(a) || off(b))) {
            (a, b) = (unit(a), unit(b));
        }
        let t = f64::from(t);
        let main = self.reference.eval(a, b, t);
        // At a dot product of exactly zero both arcs are equally long: either is right.
        let other = (c.dot() == 0.0).then(|| self.reference.eval(a, b.map(|v| -v), t));
        Want { main, other }
    }
}

pub(crate) struct Want {
    pub(crate) main: [f64; 4],
    pub(crate) other: Option<[f64; 4]>,
}

impl Want {
    /// The arc nearer to `got` (only a zero dot product has two).
    pub(crate) fn best(&self, got: Quat) -> [f64; 4] {
        match self.other {
            Some(o) if rotation_angle(f64q(got), o) < rotation_angle(f64q(got), self.main) => o,
            _ => self.main,
        }
    }
}

fn f64q(q: Quat) -> [f64; 4] {
    q.to_array().map(f64::from)
}

fn unit(v: [f64; 4]) -> [f64; 4] {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.map(|x| x / n)
}

/// (angle, max abs, length error) of `got` against the nearer sign of the
/// nearer arc; a NaN anywhere is an infinite error.
fn measure(got: Quat, want: &Want) -> (f64, f64, f64) {
    let w = want.best(got);
    let g = got.to_array();
    let dot: f64 = (0..4).map(|i| f64::from(g[i]) * w[i]).sum();
    let s = if dot >= 0.0 { 1.0 } else { -1.0 };
    let abs = (0..4).map(|i| crate::error::abs_err(f64::from(g[i]), s * w[i])).fold(0.0, f64::max);
    let length = g.iter().map(|&v| f64::from(v) * f64::from(v)).sum::<f64>().sqrt();
    let length_error = crate::error::abs_err(length, 1.0);
    (rotation_angle(f64q(got), w), abs, length_error)
}

mod report;
pub use report::{Endpoints, FamilyReport, FormReport, Measure, NonFinite, Report, Violation, Worst, ZeroDot};
