//! The accuracy of the joint-blend routines (`Shape::JointBlend`): the
//! paper's approximations (`SinZeroHalfPI`, `ATanPositive`), its C routines,
//! and every form against the C routine and the f64 oracle.

use animasm::Impl;
use animasm::roster::Routine;
use animasm::slerp_joints::scalar::{atan_positive, sin_zero_half_pi, slerp};
use animasm_testkit::cases::mixed_pairs;
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::oracle::{f64x4, lerp_f64, slerp_f64};

use super::AccuracyRow;

/// The paper's figures (section 5 and 7 of *Slerping Clock Cycles*).
pub const PAPER_SIN_ZERO_HALF_PI: f64 = 2.308e-9;
/// See [`PAPER_SIN_ZERO_HALF_PI`].
pub const PAPER_ATAN_POSITIVE: f64 = 1.359e-8;
/// Max abs error of the SSE slerp against the original `Slerp`.
pub const PAPER_SSE_SLERP_VS_SLERP: f64 = 4.768e-7;

/// Number of evenly spaced samples over a function's domain.
pub const DOMAIN_SAMPLES: usize = 1 << 20;

/// `SinZeroHalfPI`'s coefficients as printed (decimal), highest degree first.
#[allow(clippy::excessive_precision)]
pub const SIN_COEFFS: [f64; 6] = [-2.39e-08, 2.7526e-06, -1.98409e-04, 8.3333315e-03, -1.666666664e-01, 1.0];
/// `ATanPositive`'s coefficients as printed (decimal), highest degree first.
#[allow(clippy::excessive_precision)]
pub const ATAN_COEFFS: [f64; 9] = [
    0.0028662257,
    -0.0161657367,
    0.0429096138,
    -0.0752896400,
    0.1065626393,
    -0.1420889944,
    0.1999355085,
    -0.3333314528,
    1.0,
];

/// Max abs errors of an odd polynomial approximation, three ways.
#[derive(Clone, Copy, Debug)]
pub struct PolyErrors {
    /// The printed decimal coefficients evaluated in f64: the approximation
    /// error of the polynomial itself (what the paper quotes).
    pub decimal_f64: f64,
    /// The coefficients rounded to f32 (as the routine stores them), in f64.
    pub f32_coeffs_f64: f64,
    /// The f32 routine as ported.
    pub routine: f64,
}

/// `a * P(a * a)` by Horner's scheme in f64, with the coefficients either as
/// printed or rounded to f32 first.
fn odd_poly(coeffs: &[f64], round_to_f32: bool, a: f64) -> f64 {
    let c = |k: f64| if round_to_f32 { f64::from(k as f32) } else { k };
    let s = a * a;
    let mut t = c(coeffs[0]);
    for &k in &coeffs[1..] {
        t = t * s + c(k);
    }
    t * a
}

/// `SinZeroHalfPI` over [`DOMAIN_SAMPLES`] evenly spaced angles in
/// `[0, PI/2]` against f64 `sin`.
pub fn sin_zero_half_pi_errors() -> PolyErrors {
    let mut e = PolyErrors { decimal_f64: 0.0, f32_coeffs_f64: 0.0, routine: 0.0 };
    let end = core::f64::consts::FRAC_PI_2;
    for i in 0..=DOMAIN_SAMPLES {
        let a = end * i as f64 / DOMAIN_SAMPLES as f64;
        e.decimal_f64 = e.decimal_f64.max((odd_poly(&SIN_COEFFS, false, a) - a.sin()).abs());
        e.f32_coeffs_f64 = e.f32_coeffs_f64.max((odd_poly(&SIN_COEFFS, true, a) - a.sin()).abs());
        let af = a as f32;
        e.routine = e.routine.max((f64::from(sin_zero_half_pi(af)) - f64::from(af).sin()).abs());
    }
    e
}

/// `ATanPositive(y, x)` over [`DOMAIN_SAMPLES`] evenly spaced angles in
/// `[0, PI/2]` (`y = sin`, `x = cos`) against f64 `atan2`.
pub fn atan_positive_errors() -> PolyErrors {
    let mut e = PolyErrors { decimal_f64: 0.0, f32_coeffs_f64: 0.0, routine: 0.0 };
    let end = core::f64::consts::FRAC_PI_2;
    for i in 0..=DOMAIN_SAMPLES {
        let th = end * i as f64 / DOMAIN_SAMPLES as f64;
        let (y, x) = (th.sin(), th.cos());
        let exact = y.atan2(x);
        let poly = |round| {
            if y > x { end + odd_poly(&ATAN_COEFFS, round, -x / y) } else { odd_poly(&ATAN_COEFFS, round, y / x) }
        };
        e.decimal_f64 = e.decimal_f64.max((poly(false) - exact).abs());
        e.f32_coeffs_f64 = e.f32_coeffs_f64.max((poly(true) - exact).abs());
        let (yf, xf) = (y as f32, x as f32);
        let r = f64::from(atan_positive(yf, xf));
        e.routine = e.routine.max((r - f64::from(yf).atan2(f64::from(xf))).abs());
    }
    e
}

/// The `lerp` values the measurements sweep: 63 evenly spaced in (0, 1).
pub fn lerps() -> impl Iterator<Item = f32> {
    (1..64).map(|i| i as f32 / 64.0)
}

/// Max abs error of a `slerp_joints` implementation's rotations against
/// the scalar port of the paper's original `Slerp` and against the f64
/// slerp, over [`mixed_pairs`] and [`lerps`]: `(vs Slerp, vs f64)`.
pub fn slerp_errors(imp: Impl) -> (f64, f64) {
    let (a, b) = mixed_pairs(0x51e7, 3 * 1024);
    let index: Vec<i32> = (0..a.len() as i32).collect();
    let (mut vs_c, mut vs_f64) = (0f64, 0f64);
    for t in lerps() {
        let mut out = a.clone();
        animasm::slerp_joints(imp, &mut out, &b, t, &index).unwrap();
        for i in 0..a.len() {
            let got = out[i].q.to_array();
            let c = slerp(&a[i].q, &b[i].q, t).to_array();
            vs_c = vs_c.max(max_abs_diff(got, f64x4(c)));
            let exact = slerp_f64(f64x4(a[i].q.to_array()), f64x4(b[i].q.to_array()), f64::from(t));
            vs_f64 = vs_f64.max(max_abs_diff(got, exact));
        }
    }
    (vs_c, vs_f64)
}

/// Max abs error of one of the paper's per-quaternion C routines
/// (`slerp_transformed`, `slerp_optimized`) against its `Slerp`, over the
/// same pairs and `lerp` values as [`slerp_errors`].
pub fn c_routine_vs_slerp(f: fn(&animasm::Quat, &animasm::Quat, f32) -> animasm::Quat) -> f64 {
    let (a, b) = mixed_pairs(0x51e7, 3 * 1024);
    let mut e = 0f64;
    for t in lerps() {
        for i in 0..a.len() {
            let want = slerp(&a[i].q, &b[i].q, t).to_array();
            e = e.max(max_abs_diff(f(&a[i].q, &b[i].q, t).to_array(), f64x4(want)));
        }
    }
    e
}

/// Max abs error of a `lerp_joints` implementation's rotations against the
/// scalar `Lerp` port and the f64 lerp: `(vs Lerp, vs f64)`.
pub fn lerp_errors(imp: Impl) -> (f64, f64) {
    let (a, b) = mixed_pairs(0x1e7, 3 * 1024);
    let index: Vec<i32> = (0..a.len() as i32).collect();
    let (mut vs_c, mut vs_f64) = (0f64, 0f64);
    for t in lerps() {
        let mut out = a.clone();
        animasm::lerp_joints(imp, &mut out, &b, t, &index).unwrap();
        for i in 0..a.len() {
            let got = out[i].q.to_array();
            let c = animasm::lerp_joints::scalar::lerp(&a[i].q, &b[i].q, t).to_array();
            vs_c = vs_c.max(max_abs_diff(got, f64x4(c)));
            let exact = lerp_f64(f64x4(a[i].q.to_array()), f64x4(b[i].q.to_array()), f64::from(t));
            vs_f64 = vs_f64.max(max_abs_diff(got, exact));
        }
    }
    (vs_c, vs_f64)
}

/// The accuracy rows of the `Shape::JointBlend` routine `r` (none for a
/// routine without an oracle here): for `slerp_joints` the paper's
/// approximations and C routines, then every form against the C `Slerp`
/// (with the paper's figure for the listing and its twin) and the f64
/// slerp; for `lerp_joints` every form against the C `Lerp` and the f64
/// lerp.
pub fn joint_blend_rows(r: &Routine) -> Vec<AccuracyRow> {
    let mut rows = Vec::new();
    match r.name {
        "slerp_joints" => {
            for (name, e, paper) in [
                ("SinZeroHalfPI on [0, PI/2]", sin_zero_half_pi_errors(), PAPER_SIN_ZERO_HALF_PI),
                ("ATanPositive on [0, PI/2]", atan_positive_errors(), PAPER_ATAN_POSITIVE),
            ] {
                rows.push((format!("{name}: printed coefficients in f64"), e.decimal_f64, Some(paper)));
                rows.push((format!("{name}: f32 coefficients in f64"), e.f32_coeffs_f64, Some(paper)));
                rows.push((format!("{name}: the f32 routine"), e.routine, Some(paper)));
            }
            use animasm::slerp_joints::scalar::{slerp_optimized, slerp_transformed};
            rows.push(("C SlerpTransformed vs the C Slerp".into(), c_routine_vs_slerp(slerp_transformed), None));
            rows.push(("C SlerpOptimized vs the C Slerp".into(), c_routine_vs_slerp(slerp_optimized), None));
            for f in r.forms() {
                let (vs_c, vs_f64) = slerp_errors(f.imp);
                // The paper's figure is its SSE listing's: the asm port and its twin.
                let paper = f.origin.is_faithful().then_some(PAPER_SSE_SLERP_VS_SLERP);
                rows.push((format!("{} {} vs the C Slerp", r.name, f.imp), vs_c, paper));
                rows.push((format!("{} {} vs f64 slerp", r.name, f.imp), vs_f64, None));
            }
        }
        "lerp_joints" => {
            for f in r.forms() {
                let (vs_c, vs_f64) = lerp_errors(f.imp);
                rows.push((format!("{} {} vs the C Lerp", r.name, f.imp), vs_c, None));
                rows.push((format!("{} {} vs f64 lerp", r.name, f.imp), vs_f64, None));
            }
        }
        _ => {}
    }
    rows
}
