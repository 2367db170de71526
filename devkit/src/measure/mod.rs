//! Error measurements shared by the tests (which assert them) and the
//! report (which prints them next to the papers' figures): the id Software
//! routines here, and one module each for [`slerp_quats`], the [`nlerp`]
//! family and the error-by-angle data of the report's plot ([`by_angle`]).

use animasm::slerp_joints::scalar::{atan_positive, sin_zero_half_pi, slerp};
use animasm::{Impl, JointQuat};
use animasm_testkit::cases::mixed_pairs;
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::oracle::{f64x4, lerp_f64, slerp_f64};

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

/// The rows of the report's accuracy section: (what, measured max abs
/// error, the paper's figure where it gives one).
pub fn report_rows() -> Vec<(String, f64, Option<f64>)> {
    let mut rows = Vec::new();
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
    for imp in animasm::slerp_joints::forms() {
        let (vs_c, vs_f64) = slerp_errors(imp);
        // The paper's figure is its SSE listing's: the asm port and its twin.
        let paper = matches!(imp, Impl::Asm | Impl::Intrinsics).then_some(PAPER_SSE_SLERP_VS_SLERP);
        rows.push((format!("slerp_joints {imp} vs the C Slerp"), vs_c, paper));
        rows.push((format!("slerp_joints {imp} vs f64 slerp"), vs_f64, None));
    }
    for imp in animasm::lerp_joints::forms() {
        let (vs_c, vs_f64) = lerp_errors(imp);
        rows.push((format!("lerp_joints {imp} vs the C Lerp"), vs_c, None));
        rows.push((format!("lerp_joints {imp} vs f64 lerp"), vs_f64, None));
    }
    rows
}

/// Max abs element error of `quats_to_mats` against the f64 formula (in the
/// paper's convention) over 3072 random unit quaternions.
pub fn quats_to_mats_error(imp: Impl) -> f64 {
    use animasm_testkit::error::mat_max_abs_diff;
    let (quats, _) = mixed_pairs(0x9e75, 3 * 1024);
    let mut mats = vec![animasm::JointMat::default(); quats.len()];
    animasm::quats_to_mats(imp, &mut mats, &quats).unwrap();
    let t3 = |j: &JointQuat| core::array::from_fn(|i| f64::from(j.t.to_array()[i]));
    (0..quats.len())
        .map(|i| {
            mat_max_abs_diff(
                &mats[i].mat,
                &animasm_testkit::oracle::joint_mat_paper_f64(f64x4(quats[i].q.to_array()), t3(&quats[i])),
            )
        })
        .fold(0.0, f64::max)
}

/// Max abs error, up to sign, of `mats_to_quats` against the unit quaternion
/// each matrix was built from (in the paper's convention, rounded to f32),
/// over 3072 random rotations.
pub fn mats_to_quats_error(imp: Impl) -> f64 {
    use animasm_testkit::error::quat_diff_up_to_sign;
    let (quats, _) = mixed_pairs(0x3a75, 3 * 1024);
    let mats: Vec<animasm::JointMat> = quats
        .iter()
        .map(|j| animasm::JointMat {
            mat: animasm_testkit::oracle::joint_mat_paper_f64(f64x4(j.q.to_array()), [1.0, 2.0, 3.0]).map(|v| v as f32),
        })
        .collect();
    let mut out = vec![JointQuat::default(); mats.len()];
    animasm::mats_to_quats(imp, &mut out, &mats).unwrap();
    (0..mats.len())
        .map(|i| quat_diff_up_to_sign(f64x4(out[i].q.to_array()), f64x4(quats[i].q.to_array())))
        .fold(0.0, f64::max)
}

/// The Fox key poses through `transform_skeleton` (joints 1..=23) against the
/// JSON's f64 local-to-model reference: the max abs element error divided by
/// the model's size (the largest translation magnitude in the reference).
pub fn transform_skeleton_fox_error(imp: Impl) -> f64 {
    let parents = animasm_testkit::fox::parents();
    let mut worst = 0f64;
    for pose in animasm_testkit::fox::key_poses() {
        let mut mats = animasm_testkit::fox::local_mats(&pose.rotations, &pose.translations);
        let last = mats.len() - 1;
        animasm::transform_skeleton(imp, &mut mats, &parents, 1..=last).unwrap();
        let scale = pose.model.iter().map(animasm_testkit::error::translation_max_norm).fold(1.0, f64::max);
        for (m, r) in mats.iter().zip(&pose.model) {
            worst = worst.max(animasm_testkit::error::mat_max_abs_diff(&m.mat, r) / scale);
        }
    }
    worst
}

/// The JSON's model-space Fox poses (rounded to f32) through
/// `untransform_skeleton` (joints 1..=23) against the local poses they came
/// from (in f64), relative to the model's size as above.
pub fn untransform_skeleton_fox_error(imp: Impl) -> f64 {
    use animasm_testkit::oracle::joint_mat_gltf_f64;
    let parents = animasm_testkit::fox::parents();
    let mut worst = 0f64;
    for pose in animasm_testkit::fox::key_poses() {
        let mut mats: Vec<animasm::JointMat> =
            pose.model.iter().map(|m| animasm::JointMat { mat: m.map(|v| v as f32) }).collect();
        let last = mats.len() - 1;
        animasm::untransform_skeleton(imp, &mut mats, &parents, 1..=last).unwrap();
        let scale = pose.model.iter().map(animasm_testkit::error::translation_max_norm).fold(1.0, f64::max);
        for ((m, q), t) in mats.iter().zip(&pose.rotations).zip(&pose.translations).skip(1) {
            let want = joint_mat_gltf_f64(f64x4(*q), t.map(f64::from));
            worst = worst.max(animasm_testkit::error::mat_max_abs_diff(&m.mat, &want) / scale);
        }
    }
    worst
}

/// Max abs element error of `transform_joints` against the f64 product over
/// 3072 pairs of random rigid matrices (translations up to 10).
pub fn transform_joints_error(imp: Impl) -> f64 {
    use animasm_testkit::error::mat_max_abs_diff;
    use animasm_testkit::oracle::affine_mul_f64;
    let a = animasm_testkit::inputs::rigid_mats(0x7a, 3 * 1024);
    let b = animasm_testkit::inputs::rigid_mats(0x7b, 3 * 1024);
    let mut r = vec![animasm::JointMat::default(); a.len()];
    animasm::transform_joints(imp, &mut r, &a, &b).unwrap();
    (0..a.len())
        .map(|i| mat_max_abs_diff(&r[i].mat, &affine_mul_f64(a[i].mat.map(f64::from), b[i].mat.map(f64::from))))
        .fold(0.0, f64::max)
}

/// The matrix routines' rows of the report's accuracy section.
pub fn matrix_report_rows() -> Vec<(String, f64, Option<f64>)> {
    let mut rows = Vec::new();
    for imp in animasm::quats_to_mats::forms() {
        rows.push((format!("quats_to_mats {imp} vs the f64 formula"), quats_to_mats_error(imp), None));
    }
    for imp in animasm::mats_to_quats::forms() {
        rows.push((
            format!("mats_to_quats {imp} vs the source quaternion (up to sign)"),
            mats_to_quats_error(imp),
            None,
        ));
    }
    for imp in animasm::transform_skeleton::forms() {
        rows.push((
            format!("transform_skeleton {imp}, Fox key poses vs the f64 reference (relative to model size)"),
            transform_skeleton_fox_error(imp),
            None,
        ));
    }
    for imp in animasm::untransform_skeleton::forms() {
        rows.push((
            format!("untransform_skeleton {imp}, Fox model poses back to local (relative to model size)"),
            untransform_skeleton_fox_error(imp),
            None,
        ));
    }
    for imp in animasm::transform_joints::forms() {
        rows.push((format!("transform_joints {imp} vs the f64 product"), transform_joints_error(imp), None));
    }
    rows
}

pub mod slerp_quats;

pub mod nlerp;

pub mod by_angle;
