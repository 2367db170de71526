//! The report of a [`Check`](super::Check) and its parts.

use core::fmt;

use animasm::{Impl, Quat};

use super::{LENGTH_TOLERANCE, Reference, Want};
use crate::cases::{Case, Family};

/// The result of [`Check::run`](super::Check::run). Print it (`{}`) for a Markdown table;
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
    /// [`crate::cases::FACTORS`]).
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
/// a NaN output is an infinite error. Three measures, because each misses
/// what another catches: the rotation angle ignores a result's length (a
/// quaternion scaled by 0.9999 is the same rotation), the length ignores its
/// direction, and the components see both.
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
    /// for [`Family::NonFinite`]. On [`Family::NonUnit`] and
    /// [`Family::Errata`] it includes the input's own length error: their
    /// reference is the unit result (see [`Report`]'s second table).
    pub max_abs: f64,
    /// Max distance of a result's length from 1 (`|‖q‖ - 1|`, in f64); NaN
    /// for [`Family::NonFinite`]. A correct f32 slerp or nlerp stays within
    /// a few 1e-7; [`Report::assert_within`] allows [`LENGTH_TOLERANCE`].
    pub max_length_error: f64,
    /// Results with a NaN or infinite component.
    pub non_finite_out: usize,
    /// The input with the largest angle error (none for
    /// [`Family::NonFinite`], which is counted in [`Report::non_finite`]).
    pub worst: Option<Worst>,
    /// The input with the largest component error ([`FamilyReport::max_abs`]).
    pub worst_abs: Option<Worst>,
    /// The input with the largest length error
    /// ([`FamilyReport::max_length_error`]).
    pub worst_length: Option<Worst>,
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
    /// The largest component difference between them (`got` against the
    /// nearer of `±want`).
    pub abs: f64,
    /// `|‖got‖ - 1|`.
    pub length_error: f64,
}

/// What [`Report::assert_within`] measures, each on every unit-quaternion
/// family.
///
/// ```
/// use animasm_testkit::check::Measure;
/// assert_eq!(Measure::Length.name(), "length error");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// The rotation angle from the reference ([`FamilyReport::max_angle`]),
    /// against the bound, radians.
    Angle,
    /// The largest component difference from the nearer of `±reference`
    /// ([`FamilyReport::max_abs`]), against the bound.
    Component,
    /// The distance of the result's length from 1
    /// ([`FamilyReport::max_length_error`]), against [`LENGTH_TOLERANCE`].
    Length,
}

impl Measure {
    /// The measure's name in reports.
    ///
    /// ```
    /// use animasm_testkit::check::Measure;
    /// assert_eq!(Measure::Angle.name(), "rotation angle");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Measure::Angle => "rotation angle",
            Measure::Component => "component error",
            Measure::Length => "length error",
        }
    }
}

/// One family beyond one limit of [`Report::assert_within`]: what
/// [`Report::violations`] lists.
///
/// ```
/// use animasm_testkit::cases::Family;
/// use animasm_testkit::check::{Check, Measure};
/// // Scaling every result by 0.999: the right rotations, the wrong length.
/// let r = Check::slerp("short").families(&[Family::Uniform]).pairs_per_family(8)
///     .run_each(|from, to, t| {
///         let q = animasm_testkit::oracle::slerp_f64(from.to_array().map(f64::from), to.to_array().map(f64::from), f64::from(t));
///         animasm_testkit::animasm::Quat::from_array(q.map(|v| (v * 0.999) as f32))
///     });
/// let v = r.violations(1e-6);
/// assert!(v.iter().any(|v| v.measure == Measure::Length && (v.value - 1e-3).abs() < 1e-6));
/// assert!(v.iter().all(|v| v.measure != Measure::Angle));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Violation {
    /// The family.
    pub family: Family,
    /// What was measured.
    pub measure: Measure,
    /// The family's worst figure of that measure.
    pub value: f64,
    /// The limit it exceeds: the bound, or [`LENGTH_TOLERANCE`].
    pub limit: f64,
    /// The input that gave `value`.
    pub worst: Option<Worst>,
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
    pub(super) fn record(&mut self, c: &Case, t: f32, got: Quat) {
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
    pub(super) fn record(&mut self, c: &Case, got: Quat, want: &Want) {
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
/// use animasm_testkit::animasm::Impl;
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

    /// Every unit-quaternion family beyond a limit of
    /// [`Report::assert_within`]`(bound)`, per measure: a rotation angle or
    /// a component error above `bound`, or a length error above
    /// [`LENGTH_TOLERANCE`]. A NaN result is beyond every limit.
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// use animasm_testkit::check::{Check, Measure};
    /// let r = Check::slerp("stuck").families(&[Family::Uniform]).pairs_per_family(8)
    ///     .run(|o, f, _, _| o.copy_from_slice(f));
    /// let v = r.violations(1e-6);
    /// assert_eq!(v[0].measure, Measure::Angle);
    /// assert!(v[0].value > 1.0 && v[0].worst.unwrap().angle == v[0].value);
    /// ```
    pub fn violations(&self, bound: f64) -> Vec<Violation> {
        let mut v = Vec::new();
        for f in self.families.iter().filter(|f| f.family.is_unit()) {
            let checks = [
                (Measure::Angle, f.max_angle, bound, f.worst),
                (Measure::Component, f.max_abs, bound, f.worst_abs),
                (Measure::Length, f.max_length_error, LENGTH_TOLERANCE, f.worst_length),
            ];
            for (measure, value, limit, worst) in checks {
                // A NaN figure fails too.
                if value.is_nan() || value > limit {
                    v.push(Violation { family: f.family, measure, value, limit, worst });
                }
            }
        }
        v
    }

    /// The unit-quaternion families with a [`Report::violations`] entry:
    /// beyond `bound` in rotation angle or in a component, or beyond
    /// [`LENGTH_TOLERANCE`] in length.
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// use animasm_testkit::check::Check;
    /// let r = Check::slerp("x").families(&[Family::Identical, Family::Uniform]).pairs_per_family(8)
    ///     .run(|o, f, _, _| o.copy_from_slice(f));
    /// assert_eq!(r.failures(1e-6), vec![Family::Uniform]);
    /// ```
    pub fn failures(&self, bound: f64) -> Vec<Family> {
        let mut families: Vec<Family> = self.violations(bound).iter().map(|v| v.family).collect();
        families.dedup();
        families
    }

    /// The one-line assertion: panics unless every unit-quaternion family
    /// is within `bound` of the reference in rotation angle (radians) and
    /// in every component, and of unit length within [`LENGTH_TOLERANCE`].
    ///
    /// The panic message lists each family beyond a limit with its worst
    /// input; it does not repeat the report's tables, so a test that prints
    /// the report (`println!("{report}")`) and then asserts shows each
    /// figure once.
    ///
    /// ```should_panic
    /// use animasm_testkit::check::Check;
    /// Check::slerp("stuck").pairs_per_family(8).run(|o, f, _, _| o.copy_from_slice(f)).assert_within(1e-6);
    /// ```
    ///
    /// A result of the right rotation but the wrong length fails too:
    ///
    /// ```should_panic
    /// use animasm_testkit::animasm::Quat;
    /// use animasm_testkit::check::Check;
    /// // Exact rotations, every component scaled by 0.9999.
    /// Check::slerp("short").pairs_per_family(8).run_each(|from, to, t| {
    ///     let (a, b) = (from.to_array().map(f64::from), to.to_array().map(f64::from));
    ///     let q = animasm_testkit::oracle::slerp_f64(a, b, f64::from(t));
    ///     Quat::from_array(q.map(|v| (v * 0.9999) as f32))
    /// }).assert_within(2e-6);
    /// ```
    #[track_caller]
    pub fn assert_within(&self, bound: f64) {
        let bad = self.violations(bound);
        if bad.is_empty() {
            return;
        }
        let mut msg = format!(
            "{} against the f64 {}: {} beyond the limits of assert_within({bound:e}) (rotation angle and \
             components within {bound:e}, length within {LENGTH_TOLERANCE:e} of 1), seed {:#x}:",
            self.name,
            self.reference.name(),
            if bad.len() == 1 { "1 figure".to_string() } else { format!("{} figures", bad.len()) },
            self.seed
        );
        for v in &bad {
            msg.push_str(&format!("\n- {}: {} {:.3e} > {:.1e}", v.family.name(), v.measure.name(), v.value, v.limit));
            if let Some(w) = v.worst {
                msg.push_str(&format!(
                    "; worst input from {} to {} t {}: got {} want {}",
                    q4(w.case.from.to_array().map(f64::from)),
                    q4(w.case.to.to_array().map(f64::from)),
                    w.t,
                    q4(w.got.to_array().map(f64::from)),
                    q4(w.want)
                ));
            }
        }
        panic!("{msg}");
    }
}

fn q4(q: [f64; 4]) -> String {
    format!("[{:.9}, {:.9}, {:.9}, {:.9}]", q[0], q[1], q[2], q[3])
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self;
        writeln!(
            f,
            "{} against the f64 {} (seed {:#x}); angles in radians; columns per animasm `{}` form (max angle)",
            r.name,
            r.reference.name(),
            r.seed,
            r.reference.routine()
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "Unit-quaternion input, what `assert_within(bound)` checks: the rotation angle and every component \
             (against the nearer of ±reference) within the bound, the length within {LENGTH_TOLERANCE:e} of 1."
        )?;
        writeln!(f)?;
        write!(f, "| family | cases | max angle | max abs | max length error | non-finite out |")?;
        for form in &r.forms {
            write!(f, " {} |", form.form)?;
        }
        writeln!(f)?;
        writeln!(f, "|---|---:|---:|---:|---:|---:|{}", "---:|".repeat(r.forms.len()))?;
        for fr in r.families.iter().filter(|fr| fr.family.is_unit()) {
            write!(
                f,
                "| {} | {} | {:.2e} | {:.2e} | {:.2e} | {} |",
                fr.family.name(),
                fr.cases,
                fr.max_angle,
                fr.max_abs,
                fr.max_length_error,
                fr.non_finite_out
            )?;
            for form in &r.forms {
                match form.max_angle.iter().find(|(fam, _)| *fam == fr.family) {
                    Some((_, e)) => write!(f, " {e:.2e} |")?,
                    None => write!(f, " |")?,
                }
            }
            writeln!(f)?;
        }
        let shown: Vec<&FamilyReport> = r.families.iter().filter(|fr| !fr.family.is_unit()).collect();
        if !shown.is_empty() {
            writeln!(f)?;
            writeln!(
                f,
                "Shown, not asserted: input that is not all unit quaternions. The reference of a pair off unit \
                 length is the result for the normalised pair, so a function that does not normalise its input \
                 (none of glam, ultraviolet or animasm does) is off by about the input's length error: the \
                 non-unit pairs are off by up to 1e-2. Two of the errata pairs are an identical pair scaled by \
                 1.5 (`slerp_joints` E7): a function that does not normalise its result returns them 1.5 long \
                 (max abs up to 0.5, length error 0.5). The other errata pairs are unit; NaN/inf input is \
                 counted below."
            )?;
            writeln!(f)?;
            write!(f, "| family | cases | max angle | max abs | max length error | non-finite out |")?;
            for form in &r.forms {
                write!(f, " {} |", form.form)?;
            }
            writeln!(f)?;
            writeln!(f, "|---|---:|---:|---:|---:|---:|{}", "---:|".repeat(r.forms.len()))?;
            for fr in shown {
                if fr.family == Family::NonFinite {
                    write!(f, "| {} | {} | | | | {} |", fr.family.name(), fr.cases, fr.non_finite_out)?;
                } else {
                    write!(
                        f,
                        "| {} | {} | {:.2e} | {:.2e} | {:.2e} | {} |",
                        fr.family.name(),
                        fr.cases,
                        fr.max_angle,
                        fr.max_abs,
                        fr.max_length_error,
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
