//! Every form of a routine against its scalar form, within a tolerance,
//! on the elements whose inputs are in that tolerance's domain: the
//! domains ([`unit_quat`], [`rigid`]) and the comparisons the shapes share.
//! Each shape's tolerances are in its module ([`crate::shapes`]): the
//! harness's `TOL_SCALAR` of its routines (`tests/common/routines.rs`,
//! `tests/common/streams.rs`), the max abs difference of any form from the
//! scalar port that the tests accept. They hold for values of magnitude up
//! to about 1 (unit quaternions, rotations); the comparisons apply them
//! relative to the magnitude of the terms where that is larger
//! (translations, products with translations), since the fuzz floats reach
//! 3e4 where the tests' stay within 10.

use crate::*;
use animasm_testkit::error::{abs_err, translation_max_norm};
use animasm_testkit::oracle::mat_f64;
use core::fmt::Arguments;

/// Whether `q` is a unit quaternion to within f32 normalisation (finite,
/// `| |q|^2 - 1 | <= 1e-5`): the domain of the interpolators' and
/// `quats_to_mats`' tolerances.
pub fn unit_quat(q: Quat) -> bool {
    unit_deviation(q) <= 1e-5
}

/// `| |q|^2 - 1 |`, in f64 (infinite where `q` is not finite). The
/// interpolators' forms compute differently from their scalar ports (the
/// listings' `sin` from `sqrt(1 - cos^2)`, a reciprocal square root, ...),
/// formulas that agree only on unit quaternions: off it by `d`, they differ
/// by about `d` (seen: 4.5e-6 for `d` = 5.2e-6 in `slerp_joints`), so the
/// comparisons with the scalar port add [`UNIT_SLACK`] times the two
/// inputs' deviations to the tests' tolerance (whose inputs are unit to
/// within f32 rounding).
pub fn unit_deviation(q: Quat) -> f64 {
    let n2: f64 = q.to_array().iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    if n2.is_finite() { (n2 - 1.0).abs() } else { f64::INFINITY }
}

/// See [`unit_deviation`].
pub const UNIT_SLACK: f64 = 2.0;

/// Whether `m` is rigid (the rotation orthonormal with determinant 1 to
/// within 1e-5, every element finite) with a translation of magnitude at
/// most 1e6: the domain of the matrix routines' tolerances.
pub fn rigid(m: &JointMat) -> bool {
    let e = |r: usize, c: usize| f64::from(m.mat[r * 4 + c]);
    if !m.mat.iter().all(|v| v.is_finite()) || (0..3).any(|r| e(r, 3).abs() > 1e6) {
        return false;
    }
    for a in 0..3 {
        for b in 0..3 {
            let dot: f64 = (0..3).map(|k| e(k, a) * e(k, b)).sum();
            if (dot - if a == b { 1.0 } else { 0.0 }).abs() > 1e-5 {
                return false;
            }
        }
    }
    let det = e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
        + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0));
    (det - 1.0).abs() <= 1e-5
}

/// The largest translation component of `m`, in magnitude
/// (`animasm_testkit::error::translation_max_norm`).
pub fn translation_magnitude(m: &JointMat) -> f64 {
    translation_max_norm(&mat_f64(m))
}

/// The runs to compare with the scalar form: every concrete form that
/// returned `Ok`, but the scalar form itself (`Auto` is compared bit for
/// bit with the form it picks by [`run_every_impl`]). Paired with the
/// scalar form's run, if that returned `Ok`.
pub fn vs_scalar_runs<T: Copy + Default>(runs: &Runs<T>) -> Option<(&Run<T>, impl Iterator<Item = &Run<T>> + Clone)> {
    let s = scalar_run(runs)?;
    Some((s, runs.iter().filter(move |r| r.result.is_ok() && r.imp != s.imp && r.imp != Impl::Auto)))
}

/// The dot product of two quaternions, in f64.
pub fn dot64(a: Quat, b: Quat) -> f64 {
    a.to_array().iter().zip(b.to_array()).map(|(&x, y)| f64::from(x) * f64::from(y)).sum()
}

/// Panics unless every float of `got` is within `bound(l)` of `want`'s.
#[track_caller]
pub fn assert_close<T: Floats>(got: &T, want: &T, bound: impl Fn(usize) -> f64, ctx: Arguments) {
    for l in 0..T::N {
        let (g, w) = (got.float(l), want.float(l));
        assert!(
            abs_err(f64::from(g), f64::from(w)) <= bound(l),
            "{ctx}: float {l}: {g:e} vs the scalar form's {w:e} (difference {:e} > {:e})",
            abs_err(f64::from(g), f64::from(w)),
            bound(l)
        );
    }
}

/// Quaternion outputs (the `QuatPairs` and `Stream` shapes): every form
/// against the scalar form, component-wise, on every element `k` for
/// which `pair(k)` gives its two input quaternions: within `tol` plus
/// [`UNIT_SLACK`] times their [`unit_deviation`]s, where both are
/// [`unit_quat`]s whose dot product is not within 1e-5 of zero (the callers
/// give no pair where the factor is outside `(0, 1)`).
pub fn quats_vs_scalar(runs: &Runs<Quat>, tol: f64, pair: impl Fn(usize) -> Option<(Quat, Quat)>, ctx: Arguments) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for k in 0..s.out.len() {
        let Some((a, b)) = pair(k) else { continue };
        if !unit_quat(a) || !unit_quat(b) || dot64(a, b).abs() < 1e-5 {
            continue;
        }
        let bound = tol + UNIT_SLACK * (unit_deviation(a) + unit_deviation(b));
        for r in others.clone() {
            assert_close(&r.out[k], &s.out[k], |_| bound, format_args!("{ctx} {}: element {k} ({a:?}, {b:?})", r.imp));
        }
    }
}

/// What the skeleton comparisons need of each matrix, computed once per
/// input: whether it is [`rigid`], and its [`translation_magnitude`].
pub struct MatFacts {
    rigid: Buf<bool>,
    magnitude: Buf<f64>,
}

impl MatFacts {
    /// The facts of `mats`.
    pub fn new(mats: &[JointMat]) -> Self {
        MatFacts {
            rigid: Buf::from_fn(mats.len(), |k| rigid(&mats[k])),
            magnitude: Buf::from_fn(mats.len(), |k| translation_magnitude(&mats[k])),
        }
    }

    /// Whether matrix `k` is [`rigid`].
    pub fn rigid(&self, k: usize) -> bool {
        self.rigid[k]
    }

    /// The [`translation_magnitude`] of matrix `k`.
    pub fn magnitude(&self, k: usize) -> f64 {
        self.magnitude[k]
    }
}
