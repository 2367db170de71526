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
//! ```
//! use animasm::Quat;
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
//! // Within 2e-6 rad of the exact slerp on every unit-quaternion family.
//! // (The linear fallback above a dot product of 0.9995 costs the most:
//! // 9.5e-7 rad on the Fox's keyframe pairs, where most blends take it; the
//! // other families stay near 2e-7.)
//! report.assert_within(2e-6);
//! // It renormalises at the end, so t = 0 does not always give `from` back.
//! assert!(report.endpoints.t0_exact < report.endpoints.t0_cases);
//! ```

use core::fmt;

use animasm::{Impl, JointQuat, Quat, Vec4};

use crate::cases::{self, Case, FACTORS, Family};
use crate::error::rotation_angle;
use crate::oracle::{lerp_f64, slerp_f64};

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
    /// use animasm::Impl;
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
    /// use animasm::{Impl, Quat};
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
/// use animasm::Impl;
/// use animasm_testkit::cases::Family;
/// use animasm_testkit::check::Check;
/// let report = Check::nlerp("copy of animasm's scalar lerp")
///     .seed(42)
///     .pairs_per_family(32)
///     .families(&[Family::Uniform, Family::Near180])
///     .forms(&[Impl::Scalar])
///     .nan_factor(false) // the safe function refuses a NaN factor
///     .run(|out, from, to, t| {
///         let mut joints: Vec<_> = from.iter().map(|q| animasm::JointQuat::new(*q, Default::default())).collect();
///         let blend: Vec<_> = to.iter().map(|q| animasm::JointQuat::new(*q, Default::default())).collect();
///         let index: Vec<i32> = (0..from.len() as i32).collect();
///         animasm::lerp_joints(Impl::Scalar, &mut joints, &blend, t, &index).unwrap();
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
    /// let id = |out: &mut [animasm::Quat], from: &[animasm::Quat], _: &[animasm::Quat], _: f32| out.copy_from_slice(from);
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
    /// use animasm::Impl;
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
    /// use animasm::Quat;
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
                let (angle, abs) = measure(got, &wants[i]);
                if angle > fr.max_angle || fr.worst.is_none() {
                    fr.worst = Some(Worst { case: *c, t, got, want: wants[i].best(got), angle });
                }
                fr.max_angle = fr.max_angle.max(angle);
                fr.max_abs = fr.max_abs.max(abs);
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
        if c.family == Family::NonUnit {
            (a, b) = (unit(a), unit(b));
        }
        let t = f64::from(t);
        let main = self.reference.eval(a, b, t);
        // At a dot product of exactly zero both arcs are equally long: either is right.
        let other = (c.dot() == 0.0).then(|| self.reference.eval(a, b.map(|v| -v), t));
        Want { main, other }
    }
}

struct Want {
    main: [f64; 4],
    other: Option<[f64; 4]>,
}

impl Want {
    /// The arc nearer to `got` (only a zero dot product has two).
    fn best(&self, got: Quat) -> [f64; 4] {
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

/// (angle, max abs) of `got` against the nearer sign of the nearer arc.
fn measure(got: Quat, want: &Want) -> (f64, f64) {
    let w = want.best(got);
    let g = got.to_array();
    let dot: f64 = (0..4).map(|i| f64::from(g[i]) * w[i]).sum();
    let s = if dot >= 0.0 { 1.0 } else { -1.0 };
    let abs = (0..4).map(|i| crate::error::abs_err(f64::from(g[i]), s * w[i])).fold(0.0, f64::max);
    (rotation_angle(f64q(got), w), abs)
}

/// The result of [`Check::run`]. Print it (`{}`) for a Markdown table;
/// assert on its fields or with [`Report::assert_within`].
///
/// ```
/// use animasm_testkit::cases::Family;
/// use animasm_testkit::check::Check;
/// let r = Check::slerp("identity").pairs_per_family(8).run(|o, f, _, _| o.copy_from_slice(f));
/// assert_eq!(r.families.len(), Family::ALL.len());
/// assert!(r.to_string().contains("| uniform |"));
/// ```
#[derive(Clone, Debug)]
pub struct Report {
    /// The checked function's name.
    pub name: String,
    /// What it was compared with.
    pub reference: Reference,
    /// The seed of the pairs.
    pub seed: u64,
    /// Pairs per family (each checked at every factor of
    /// [`cases::FACTORS`]).
    pub pairs: usize,
    /// One entry per family checked, in the order checked.
    pub families: Vec<FamilyReport>,
    /// Exactness at `t = 0` and `t = 1`.
    pub endpoints: Endpoints,
    /// Which arc it takes at dot products of `+0.0` and `-0.0`.
    pub zero_dot: ZeroDot,
    /// What it does with NaN and infinite input.
    pub non_finite: NonFinite,
    /// animasm's forms on the same inputs.
    pub forms: Vec<FormReport>,
    /// Requested forms this CPU cannot run, with the reason.
    pub skipped: Vec<(Impl, String)>,
}

/// One family's figures. Errors are against the reference of
/// [`Report::reference`], sign-insensitive (`q` and `-q` count as equal);
/// a NaN output is an infinite error.
///
/// ```
/// use animasm_testkit::cases::Family;
/// use animasm_testkit::check::Check;
/// let r = Check::slerp("x").families(&[Family::Identical]).pairs_per_family(4)
///     .run(|o, f, _, _| o.copy_from_slice(f));
/// // Returning `from` is exact when `from == to`.
/// // The angle is f64 rounding. `max_abs` is not 0: an f32 quaternion is unit
/// // only to about 1e-7, and the f64 slerp of `q` with itself scales it by
/// // about that much.
/// assert!(r.families[0].max_angle < 1e-12 && r.families[0].max_abs < 1e-7);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct FamilyReport {
    /// The family.
    pub family: Family,
    /// Pairs times factors.
    pub cases: usize,
    /// Max rotation angle between the result and the reference, radians
    /// ([`crate::error::rotation_angle`]); NaN for [`Family::NonFinite`],
    /// which has no reference (see [`Report::non_finite`]).
    pub max_angle: f64,
    /// Max abs component error (against the nearer of `±reference`); NaN
    /// for [`Family::NonFinite`].
    pub max_abs: f64,
    /// Results with a NaN or infinite component.
    pub non_finite_out: usize,
    /// The input with the largest angle error (none for
    /// [`Family::NonFinite`], which is counted in [`Report::non_finite`]).
    pub worst: Option<Worst>,
}

/// The worst input of a family.
///
/// ```
/// use animasm_testkit::cases::Family;
/// use animasm_testkit::check::Check;
/// let r = Check::slerp("stuck").families(&[Family::Uniform]).pairs_per_family(8)
///     .run(|o, f, _, _| o.copy_from_slice(f));
/// let w = r.families[0].worst.unwrap();
/// assert_eq!(w.got, w.case.from); // it returned `from`
/// assert!(w.t > 0.0);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Worst {
    /// The pair.
    pub case: Case,
    /// The factor.
    pub t: f32,
    /// What the checked function returned.
    pub got: Quat,
    /// The reference.
    pub want: [f64; 4],
    /// The rotation angle between them, radians.
    pub angle: f64,
}

/// Whether the results at `t = 0` and `t = 1` are exactly `from` and `to`
/// (bit for bit, either sign: `-to` is right where the shortest arc flips
/// `to`), over the unit-quaternion families.
///
/// ```
/// use animasm_testkit::check::Check;
/// let r = Check::slerp("stuck").pairs_per_family(8).run(|o, f, _, _| o.copy_from_slice(f));
/// assert!(r.endpoints.t0_cases > 0);
/// assert_eq!(r.endpoints.t0_exact, r.endpoints.t0_cases);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Endpoints {
    /// Cases at `t = 0`.
    pub t0_cases: usize,
    /// Of those, results exactly `±from`.
    pub t0_exact: usize,
    /// Cases at `t = 1`.
    pub t1_cases: usize,
    /// Of those, results exactly `±to`.
    pub t1_exact: usize,
}

impl Endpoints {
    fn record(&mut self, c: &Case, t: f32, got: Quat) {
        let same = |a: Quat, b: Quat| {
            let (a, b) = (a.to_array().map(f32::to_bits), b.to_array().map(f32::to_bits));
            a == b || a == b.map(|v| v ^ 0x8000_0000)
        };
        if t == 0.0 {
            self.t0_cases += 1;
            self.t0_exact += usize::from(same(got, c.from));
        } else if t == 1.0 {
            self.t1_cases += 1;
            self.t1_exact += usize::from(same(got, c.to));
        }
    }
}

/// Which arc the function took at `t = 0.5` for dot products of exactly
/// `+0.0` and `-0.0`, where both arcs are equally long: "kept" goes towards
/// `to` (the reference's `dot >= 0` rule), "flipped" towards `-to` (a
/// sign-bit test, as in the SSE listings: erratum E3 of `slerp_joints`).
///
/// ```
/// use animasm_testkit::cases::Family;
/// use animasm_testkit::check::Check;
/// let r = Check::slerp("x").families(&[Family::ZeroDot]).pairs_per_family(8)
///     .run(|o, f, _, _| o.copy_from_slice(f));
/// assert_eq!(r.zero_dot.plus_cases + r.zero_dot.minus_cases, 8);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct ZeroDot {
    /// Pairs with a dot product of `+0.0`.
    pub plus_cases: usize,
    /// Of those, results on the arc towards `-to`.
    pub plus_flipped: usize,
    /// Pairs with a dot product of `-0.0`.
    pub minus_cases: usize,
    /// Of those, results on the arc towards `-to`.
    pub minus_flipped: usize,
}

impl ZeroDot {
    fn record(&mut self, c: &Case, got: Quat, want: &Want) {
        let flipped = want.best(got) != want.main;
        if c.dot().is_sign_negative() {
            self.minus_cases += 1;
            self.minus_flipped += usize::from(flipped);
        } else {
            self.plus_cases += 1;
            self.plus_flipped += usize::from(flipped);
        }
    }
}

/// What the function does with non-finite input: the [`Family::NonFinite`]
/// pairs (a NaN or infinity in one component) and NaN factors.
///
/// ```
/// use animasm_testkit::check::Check;
/// let r = Check::slerp("x").pairs_per_family(12).run(|o, f, _, _| o.copy_from_slice(f));
/// // Copying `from` propagates the NaN or infinity of `from` only.
/// assert!(r.non_finite.cases > 0 && r.non_finite.finite_out > 0);
/// assert_eq!(r.non_finite.nan_factor_nan_out, 0);
/// ```
#[derive(Clone, Debug, Default)]
pub struct NonFinite {
    /// NaN/infinite input cases (pairs times factors).
    pub cases: usize,
    /// Of those, results with a NaN component.
    pub nan_out: usize,
    /// Of those, results that are entirely finite.
    pub finite_out: usize,
    /// Calls with a NaN factor (per pair).
    pub nan_factor_cases: usize,
    /// Of those, results with a NaN component.
    pub nan_factor_nan_out: usize,
    /// For animasm's forms: the error a NaN factor returns (the safe
    /// functions refuse it before writing anything), if it did.
    pub nan_factor_err: Option<String>,
}

/// An animasm form on the same inputs.
///
/// ```
/// use animasm::Impl;
/// use animasm_testkit::check::Check;
/// let r = Check::slerp("x").forms(&[Impl::Scalar]).pairs_per_family(8).run(|o, f, _, _| o.copy_from_slice(f));
/// let scalar = &r.forms[0];
/// assert_eq!(scalar.form, Impl::Scalar);
/// let (family, uniform) = scalar.max_angle[0];
/// assert!(family == animasm_testkit::cases::Family::Uniform && uniform < 1e-5);
/// ```
#[derive(Clone, Debug)]
pub struct FormReport {
    /// The form.
    pub form: Impl,
    /// Its max angle error against the reference, per family (radians;
    /// [`Family::NonFinite`] has no entry: see [`FormReport::non_finite`]).
    pub max_angle: Vec<(Family, f64)>,
    /// What it does with the [`Family::NonFinite`] pairs and NaN factors.
    pub non_finite: NonFinite,
    /// Calls that returned an error (none expected but for a NaN factor,
    /// which is in [`FormReport::non_finite`]).
    pub errors: Vec<String>,
    /// The max rotation angle between its results and the checked
    /// function's, over the unit-quaternion families (radians), leaving out
    /// pairs with a dot product of exactly zero (where either arc is right;
    /// [`Report::zero_dot`] says which one the checked function takes).
    pub max_angle_from_checked: f64,
}

impl Report {
    /// The max angle error over the unit-quaternion families checked
    /// ([`Family::is_unit`]): the figure a correct interpolation keeps small.
    ///
    /// ```
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").pairs_per_family(8).run(|o, f, _, _| o.copy_from_slice(f));
    /// assert!(r.max_angle() > 1.0);
    /// ```
    pub fn max_angle(&self) -> f64 {
        self.families.iter().filter(|f| f.family.is_unit()).map(|f| f.max_angle).fold(0.0, f64::max)
    }

    /// The figures of `family`, if it was checked.
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").families(&[Family::Tiny]).pairs_per_family(4).run(|o, f, _, _| o.copy_from_slice(f));
    /// assert!(r.family(Family::Tiny).is_some() && r.family(Family::Uniform).is_none());
    /// ```
    pub fn family(&self, family: Family) -> Option<&FamilyReport> {
        self.families.iter().find(|f| f.family == family)
    }

    /// The unit-quaternion families whose max angle error exceeds `bound`
    /// (radians).
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").families(&[Family::Identical, Family::Uniform]).pairs_per_family(8)
    ///     .run(|o, f, _, _| o.copy_from_slice(f));
    /// assert_eq!(r.failures(1e-6), vec![Family::Uniform]);
    /// ```
    pub fn failures(&self, bound: f64) -> Vec<Family> {
        self.families.iter().filter(|f| f.family.is_unit() && f.max_angle > bound).map(|f| f.family).collect()
    }

    /// Panics, printing the report, unless every unit-quaternion family is
    /// within `bound` radians of the reference.
    ///
    /// ```should_panic
    /// use animasm_testkit::check::Check;
    /// Check::slerp("stuck").pairs_per_family(8).run(|o, f, _, _| o.copy_from_slice(f)).assert_within(1e-6);
    /// ```
    #[track_caller]
    pub fn assert_within(&self, bound: f64) {
        let bad = self.failures(bound);
        assert!(bad.is_empty(), "{}: {} beyond {bound:e} rad:\n{self}", self.name, names(&bad));
    }
}

fn names(f: &[Family]) -> String {
    f.iter().map(|f| f.name()).collect::<Vec<_>>().join(", ")
}

fn q4(q: [f64; 4]) -> String {
    format!("[{:.9}, {:.9}, {:.9}, {:.9}]", q[0], q[1], q[2], q[3])
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self;
        writeln!(
            f,
            "{} against the f64 {} (seed {:#x}); angles in radians; columns per animasm `{}` form",
            r.name,
            match r.reference {
                Reference::Slerp => "slerp",
                Reference::Nlerp => "normalised lerp",
            },
            r.seed,
            r.reference.routine()
        )?;
        writeln!(f)?;
        write!(f, "| family | cases | max angle | max abs | non-finite out |")?;
        for form in &r.forms {
            write!(f, " {} |", form.form)?;
        }
        writeln!(f)?;
        writeln!(f, "|---|---:|---:|---:|---:|{}", "---:|".repeat(r.forms.len()))?;
        for fr in &r.families {
            if fr.family == Family::NonFinite {
                write!(f, "| {} | {} | | | {} |", fr.family.name(), fr.cases, fr.non_finite_out)?;
            } else {
                write!(
                    f,
                    "| {} | {} | {:.2e} | {:.2e} | {} |",
                    fr.family.name(),
                    fr.cases,
                    fr.max_angle,
                    fr.max_abs,
                    fr.non_finite_out
                )?;
            }
            for form in &r.forms {
                match form.max_angle.iter().find(|(fam, _)| *fam == fr.family) {
                    Some((_, e)) if fr.family != Family::NonFinite => write!(f, " {e:.2e} |")?,
                    _ => write!(f, " |")?,
                }
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        writeln!(f, "- max angle over the unit-quaternion families: {:.2e} rad", r.max_angle())?;
        if let Some(w) = r
            .families
            .iter()
            .filter(|fr| fr.family.is_unit())
            .filter_map(|fr| fr.worst)
            .max_by(|a, b| a.angle.total_cmp(&b.angle))
        {
            writeln!(
                f,
                "- worst input ({}): from {} to {} t {}: got {} want {}",
                w.case.family.name(),
                q4(w.case.from.to_array().map(f64::from)),
                q4(w.case.to.to_array().map(f64::from)),
                w.t,
                q4(w.got.to_array().map(f64::from)),
                q4(w.want)
            )?;
        }
        let e = &r.endpoints;
        writeln!(
            f,
            "- endpoints: t = 0 exact in {} of {}, t = 1 exact in {} of {}",
            e.t0_exact, e.t0_cases, e.t1_exact, e.t1_cases
        )?;
        let z = &r.zero_dot;
        if z.plus_cases + z.minus_cases > 0 {
            writeln!(
                f,
                "- dot product +0.0: flipped to -to in {} of {}; -0.0: flipped in {} of {}",
                z.plus_flipped, z.plus_cases, z.minus_flipped, z.minus_cases
            )?;
        }
        let n = &r.non_finite;
        writeln!(
            f,
            "- NaN/inf input: {} cases, {} NaN out, {} finite out; NaN factor: {} of {} NaN out",
            n.cases, n.nan_out, n.finite_out, n.nan_factor_nan_out, n.nan_factor_cases
        )?;
        for form in &r.forms {
            writeln!(
                f,
                "- animasm {} vs {}: {:.2e} rad apart at most (unit families)",
                form.form, r.name, form.max_angle_from_checked
            )?;
        }
        for (imp, why) in &r.skipped {
            writeln!(f, "- animasm {imp} skipped: {why}")?;
        }
        Ok(())
    }
}
