//! Error measurements shared by `tests/accuracy.rs` (which asserts them) and
//! `examples/report.rs` (which prints them next to the paper's figures).
//! `#[path]`-included; needs `inputs.rs` and `oracle.rs` as sibling modules
//! `super::inputs` and `super::oracle`.

#![allow(dead_code)]

use super::inputs::Rng;
use super::oracle::{f64x4, lerp_f64, max_abs_diff, slerp_f64};
use animasm::slerp_joints::scalar::{atan_positive, sin_zero_half_pi, slerp};
use animasm::{Impl, JointQuat};

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

/// Random pairs of unit quaternions in three mixes: uniform on S3, near
/// parallel (small random rotation apart, as consecutive animation keys are)
/// and near opposite.
pub fn quat_pairs(seed: u64, n: usize) -> (Vec<JointQuat>, Vec<JointQuat>) {
    let mut rng = Rng::new(seed);
    let mut a = Vec::with_capacity(n);
    let mut b = Vec::with_capacity(n);
    for i in 0..n {
        let p = rng.unit_quat_f64();
        let q = match i % 3 {
            0 => rng.unit_quat_f64(),
            k => {
                let eps = 10f64.powf(rng.range(-6.0, -1.0));
                let d = rng.unit_quat_f64();
                let s = if k == 2 { -1.0 } else { 1.0 };
                let r: [f64; 4] = core::array::from_fn(|c| s * (p[c] + eps * d[c]));
                let norm = r.iter().map(|v| v * v).sum::<f64>().sqrt();
                r.map(|v| v / norm)
            }
        };
        let mut ja = rng.joint();
        let mut jb = rng.joint();
        ja.q = animasm::Quat::from_array(p.map(|v| v as f32));
        jb.q = animasm::Quat::from_array(q.map(|v| v as f32));
        a.push(ja);
        b.push(jb);
    }
    (a, b)
}

/// The `lerp` values the measurements sweep: 63 evenly spaced in (0, 1).
pub fn lerps() -> impl Iterator<Item = f32> {
    (1..64).map(|i| i as f32 / 64.0)
}

/// Max abs error of a `slerp_joints` implementation's rotations against
/// the scalar port of the paper's original `Slerp` and against the f64
/// slerp, over [`quat_pairs`] and [`lerps`]: `(vs Slerp, vs f64)`.
pub fn slerp_errors(imp: Impl) -> (f64, f64) {
    let (a, b) = quat_pairs(0x51e7, 3 * 1024);
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
    let (a, b) = quat_pairs(0x51e7, 3 * 1024);
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
    let (a, b) = quat_pairs(0x1e7, 3 * 1024);
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
    for imp in Impl::ALL.into_iter().filter(|i| i.is_available()) {
        let (vs_c, vs_f64) = slerp_errors(imp);
        let paper = (imp != Impl::Scalar).then_some(PAPER_SSE_SLERP_VS_SLERP);
        rows.push((format!("slerp_joints {imp} vs the C Slerp"), vs_c, paper));
        rows.push((format!("slerp_joints {imp} vs f64 slerp"), vs_f64, None));
    }
    for imp in Impl::ALL.into_iter().filter(|i| i.is_available()) {
        let (vs_c, vs_f64) = lerp_errors(imp);
        rows.push((format!("lerp_joints {imp} vs the C Lerp"), vs_c, None));
        rows.push((format!("lerp_joints {imp} vs f64 lerp"), vs_f64, None));
    }
    rows
}

/// The paper's `JointMat` of a quaternion and translation in f64: the
/// *transposed* (row-vector) rotation of *From Quaternion to Matrix and
/// Back*, section 3, translation in column 3.
fn paper_mat_f64(q: [f64; 4], t: [f64; 3]) -> [f64; 12] {
    use super::oracle::{affine_from_f64, quat_to_mat3_f64, transpose3};
    affine_from_f64(transpose3(quat_to_mat3_f64(q)), t)
}

/// Max abs element error of `quats_to_mats` against the f64 formula (in the
/// paper's convention) over 3072 random unit quaternions.
pub fn quats_to_mats_error(imp: Impl) -> f64 {
    use super::oracle::mat_max_abs_diff;
    let (quats, _) = quat_pairs(0x9e75, 3 * 1024);
    let mut mats = vec![animasm::JointMat::default(); quats.len()];
    animasm::quats_to_mats(imp, &mut mats, &quats).unwrap();
    let t3 = |j: &JointQuat| core::array::from_fn(|i| f64::from(j.t.to_array()[i]));
    (0..quats.len())
        .map(|i| mat_max_abs_diff(&mats[i].mat, &paper_mat_f64(f64x4(quats[i].q.to_array()), t3(&quats[i]))))
        .fold(0.0, f64::max)
}

/// Max abs error, up to sign, of `mats_to_quats` against the unit quaternion
/// each matrix was built from (in the paper's convention, rounded to f32),
/// over 3072 random rotations.
pub fn mats_to_quats_error(imp: Impl) -> f64 {
    use super::oracle::quat_diff_up_to_sign;
    let (quats, _) = quat_pairs(0x3a75, 3 * 1024);
    let mats: Vec<animasm::JointMat> = quats
        .iter()
        .map(|j| animasm::JointMat { mat: paper_mat_f64(f64x4(j.q.to_array()), [1.0, 2.0, 3.0]).map(|v| v as f32) })
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
    let parents = super::fox::parents();
    let mut worst = 0f64;
    for pose in super::fox::key_poses() {
        let mut mats = super::fox::local_mats(&pose.rotations, &pose.translations);
        let last = mats.len() - 1;
        animasm::transform_skeleton(imp, &mut mats, &parents, 1..=last).unwrap();
        let scale = pose.model.iter().flat_map(|m| [m[3], m[7], m[11]]).fold(1f64, |s, v| s.max(v.abs()));
        for (m, r) in mats.iter().zip(&pose.model) {
            worst = worst.max(super::oracle::mat_max_abs_diff(&m.mat, r) / scale);
        }
    }
    worst
}

/// The JSON's model-space Fox poses (rounded to f32) through
/// `untransform_skeleton` (joints 1..=23) against the local poses they came
/// from (in f64), relative to the model's size as above.
pub fn untransform_skeleton_fox_error(imp: Impl) -> f64 {
    use super::oracle::{affine_from_f64, quat_to_mat3_f64};
    let parents = super::fox::parents();
    let mut worst = 0f64;
    for pose in super::fox::key_poses() {
        let mut mats: Vec<animasm::JointMat> =
            pose.model.iter().map(|m| animasm::JointMat { mat: m.map(|v| v as f32) }).collect();
        let last = mats.len() - 1;
        animasm::untransform_skeleton(imp, &mut mats, &parents, 1..=last).unwrap();
        let scale = pose.model.iter().flat_map(|m| [m[3], m[7], m[11]]).fold(1f64, |s, v| s.max(v.abs()));
        for ((m, q), t) in mats.iter().zip(&pose.rotations).zip(&pose.translations).skip(1) {
            let want = affine_from_f64(quat_to_mat3_f64(f64x4(*q)), t.map(f64::from));
            worst = worst.max(super::oracle::mat_max_abs_diff(&m.mat, &want) / scale);
        }
    }
    worst
}

/// Max abs element error of `transform_joints` against the f64 product over
/// 3072 pairs of random rigid matrices (translations up to 10).
pub fn transform_joints_error(imp: Impl) -> f64 {
    use super::oracle::{affine_mul_f64, mat_max_abs_diff};
    let a = super::inputs::rigid_mats(0x7a, 3 * 1024);
    let b = super::inputs::rigid_mats(0x7b, 3 * 1024);
    let mut r = vec![animasm::JointMat::default(); a.len()];
    animasm::transform_joints(imp, &mut r, &a, &b).unwrap();
    (0..a.len())
        .map(|i| mat_max_abs_diff(&r[i].mat, &affine_mul_f64(a[i].mat.map(f64::from), b[i].mat.map(f64::from))))
        .fold(0.0, f64::max)
}

/// The matrix routines' rows of the report's accuracy section.
pub fn matrix_report_rows() -> Vec<(String, f64, Option<f64>)> {
    let mut rows = Vec::new();
    for imp in Impl::ALL.into_iter().filter(|i| i.is_available()) {
        rows.push((format!("quats_to_mats {imp} vs the f64 formula"), quats_to_mats_error(imp), None));
    }
    for imp in Impl::ALL.into_iter().filter(|i| i.is_available()) {
        rows.push((
            format!("mats_to_quats {imp} vs the source quaternion (up to sign)"),
            mats_to_quats_error(imp),
            None,
        ));
    }
    for imp in Impl::ALL.into_iter().filter(|i| i.is_available()) {
        rows.push((
            format!("transform_skeleton {imp}, Fox key poses vs the f64 reference (relative to model size)"),
            transform_skeleton_fox_error(imp),
            None,
        ));
    }
    for imp in Impl::ALL.into_iter().filter(|i| i.is_available()) {
        rows.push((
            format!("untransform_skeleton {imp}, Fox model poses back to local (relative to model size)"),
            untransform_skeleton_fox_error(imp),
            None,
        ));
    }
    for imp in Impl::ALL.into_iter().filter(|i| i.is_available()) {
        rows.push((format!("transform_joints {imp} vs the f64 product"), transform_joints_error(imp), None));
    }
    rows
}

/// `slerp_quats` (Mehrotra and Hubbard's AVX slerp of quaternion arrays):
/// the error measurements that `tests/slerp_quats.rs` asserts and
/// `examples/report.rs` prints. Max abs error against the f64 slerp, a NaN
/// counted as an infinite error, split at omega = 45 degrees (where the
/// article's `HALF_PI` enters).
pub mod slerp_quats {
    use super::super::inputs::Rng;
    use super::super::oracle::{f64x4, slerp_f64};
    use animasm::Quat;
    use animasm::slerp_quats::AlignedQuats;

    /// A raw kernel: `(result, from, to, factor, count)`.
    pub type Kernel = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32);

    /// Pairs of unit quaternions (the shared mix: uniform, near parallel, near
    /// opposite) in 32-byte-aligned storage.
    pub fn pairs(seed: u64, n: usize) -> (AlignedQuats, AlignedQuats) {
        let (a, b) = super::quat_pairs(seed, n);
        (a.iter().map(|j| j.q).collect(), b.iter().map(|j| j.q).collect())
    }

    /// Unit-quaternion pairs at angles `omega` (the angle of `acos |from·to|`,
    /// in radians) from `lo` to `hi`, uniformly, with random axes and signs.
    pub fn pairs_at_angles(seed: u64, n: usize, lo: f64, hi: f64) -> (AlignedQuats, AlignedQuats) {
        let mut rng = Rng::new(seed);
        let (mut a, mut b) = (AlignedQuats::new(), AlignedQuats::new());
        for _ in 0..n {
            let p = rng.unit_quat_f64();
            // A unit vector orthogonal to p: Gram-Schmidt of a random one.
            let r = rng.unit_quat_f64();
            let d: f64 = (0..4).map(|i| p[i] * r[i]).sum();
            let o: [f64; 4] = core::array::from_fn(|i| r[i] - d * p[i]);
            let on = o.iter().map(|v| v * v).sum::<f64>().sqrt();
            let omega = rng.range(lo, hi);
            let s = if rng.f64() < 0.5 { -1.0 } else { 1.0 };
            let q: [f64; 4] = core::array::from_fn(|i| s * (omega.cos() * p[i] + omega.sin() * o[i] / on));
            a.push(Quat::from_array(p.map(|v| v as f32)));
            b.push(Quat::from_array(q.map(|v| v as f32)));
        }
        (a, b)
    }

    /// The largest absolute component difference, with a NaN anywhere counted
    /// as an infinite error (`oracle::max_abs_diff` folds with `f64::max`,
    /// which drops NaNs).
    pub fn max_abs_diff(a: [f32; 4], b: [f64; 4]) -> f64 {
        (0..4)
            .map(|i| {
                let d = (f64::from(a[i]) - b[i]).abs();
                if d.is_nan() { f64::INFINITY } else { d }
            })
            .fold(0.0, f64::max)
    }

    /// The omega of a pair in degrees, in f64.
    pub fn omega_deg(a: &Quat, b: &Quat) -> f64 {
        let c: f64 = (0..4).map(|i| f64::from(a.to_array()[i]) * f64::from(b.to_array()[i])).sum();
        c.abs().min(1.0).acos().to_degrees()
    }

    /// Max abs error against the f64 slerp: overall, for omega below 45
    /// degrees and for omega at or above 45 degrees.
    #[derive(Clone, Copy, Debug, Default, PartialEq)]
    pub struct Errors {
        pub all: f64,
        pub below45: f64,
        pub above45: f64,
    }

    /// The factors the measurements sweep: 63 in (0, 1).
    pub fn factors() -> impl Iterator<Item = f32> {
        super::lerps()
    }

    /// The measurement set: the shared mix of pairs plus a uniform sweep of
    /// omega over (0, 90) degrees, 3072 + 2048 pairs (a multiple of 16: every
    /// pair goes through the vector loop of the AVX kernels).
    pub fn measurement_set() -> (AlignedQuats, AlignedQuats) {
        let (mut a, mut b) = pairs(0x51e7_a7c5, 3072);
        let (c, d) = pairs_at_angles(0xa7c5, 2048, 1e-4, std::f64::consts::FRAC_PI_2 - 1e-4);
        for i in 0..c.len() {
            a.push(c[i]);
            b.push(d[i]);
        }
        (a, b)
    }

    /// Errors of `kernel` over [`measurement_set`] and [`factors`]. The
    /// caller passes a kernel this CPU runs (an AVX one only where
    /// `slerp_quats::avx_available()`).
    pub fn errors(kernel: Kernel) -> Errors {
        let (a, b) = measurement_set();
        errors_on(kernel, &a, &b)
    }

    /// Errors of `kernel` over the pairs `a[i]`, `b[i]` and [`factors`]. `a`
    /// and `b` start 32-byte aligned (`AlignedQuats`, or a slice of one from
    /// index 0); the caller passes a kernel this CPU runs.
    pub fn errors_on(kernel: Kernel, a: &[Quat], b: &[Quat]) -> Errors {
        assert_eq!(a.len(), b.len());
        let aligned = |p: *const Quat| (p as usize).is_multiple_of(32);
        assert!(a.len() < 16 || (aligned(a.as_ptr()) && aligned(b.as_ptr())), "misaligned");
        let omega: Vec<f64> = (0..a.len()).map(|i| omega_deg(&a[i], &b[i])).collect();
        let mut out = AlignedQuats::zeroed(a.len());
        let mut e = Errors::default();
        for t in factors() {
            // SAFETY: the three arrays hold `a.len()` (< 2^31) quaternions and
            // start 32-byte aligned (asserted; `out` is `AlignedQuats`), `out`
            // is a distinct allocation; the caller passes a kernel this CPU
            // runs.
            unsafe { kernel(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), t, a.len() as i32) };
            for i in 0..a.len() {
                let want = slerp_f64(f64x4(a[i].to_array()), f64x4(b[i].to_array()), f64::from(t));
                let d = max_abs_diff(out[i].to_array(), want);
                e.all = e.all.max(d);
                if omega[i] < 45.0 {
                    e.below45 = e.below45.max(d);
                } else {
                    e.above45 = e.above45.max(d);
                }
            }
        }
        e
    }

    /// The rows of the report's accuracy section: the published AVX kernel
    /// (overall and split at 45 degrees), the corrected one and the 128-bit
    /// SSE baseline, against the f64 slerp over [`measurement_set`] at 63
    /// factors. The AVX rows only where the CPU has AVX. The article gives no
    /// error figure.
    pub fn report_rows() -> Vec<(String, f64, Option<f64>)> {
        let mut rows = Vec::new();
        #[cfg(target_arch = "x86_64")]
        {
            use animasm::slerp_quats::{asm, sse};
            if animasm::slerp_quats::avx_available() {
                let p = errors(asm::slerp_quats_as_published);
                rows.push(("slerp_quats as published (asm = intrinsics) vs f64 slerp, all".into(), p.all, None));
                rows.push(("slerp_quats as published, omega < 45 degrees (E3)".into(), p.below45, None));
                rows.push(("slerp_quats as published, omega >= 45 degrees (E1 + E3)".into(), p.above45, None));
                let c = errors(asm::slerp_quats_corrected);
                rows.push(("slerp_quats corrected (asm = intrinsics) vs f64 slerp".into(), c.all, None));
            }
            let s = errors(sse::slerp_quats_sse);
            rows.push(("slerp_quats_sse (the 128-bit baseline) vs f64 slerp".into(), s.all, None));
        }
        rows
    }
}

/// `nlerp` (zeux's nlerp family): the functions and widths, and the
/// article's accuracy measure (the absolute error of the full rotation
/// angle against the f64 slerp, on a grid over `t` and `|dot|`), which
/// `tests/nlerp.rs` asserts and `examples/report.rs` prints.
pub mod nlerp {
    use super::super::oracle::slerp_f64;
    use animasm::nlerp::{Width, scalar};
    use animasm::{Error, Quat};

    /// The three functions of the family.
    #[derive(Clone, Copy, Debug, PartialEq)]
    pub enum Func {
        Nlerp,
        Fnlerp,
        Onlerp,
    }

    pub const FUNCS: [Func; 3] = [Func::Nlerp, Func::Fnlerp, Func::Onlerp];

    pub type Safe = fn(Width, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;
    pub type Raw = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);

    impl Func {
        pub fn name(self) -> &'static str {
            match self {
                Func::Nlerp => "nlerp",
                Func::Fnlerp => "fnlerp",
                Func::Onlerp => "onlerp",
            }
        }

        pub fn safe(self) -> Safe {
            match self {
                Func::Nlerp => animasm::nlerp::nlerp,
                Func::Fnlerp => animasm::nlerp::fnlerp,
                Func::Onlerp => animasm::nlerp::onlerp,
            }
        }

        /// The scalar function of one element.
        pub fn scalar(self) -> fn(Quat, Quat, f32) -> Quat {
            match self {
                Func::Nlerp => scalar::nlerp,
                Func::Fnlerp => scalar::fnlerp,
                Func::Onlerp => scalar::onlerp,
            }
        }

        /// The raw stream kernel of a width.
        pub fn raw(self, w: Width) -> Raw {
            #[cfg(target_arch = "x86_64")]
            use animasm::nlerp::{avx2, sse2};
            match (self, w) {
                (Func::Nlerp, Width::Scalar) => scalar::run_nlerp,
                (Func::Fnlerp, Width::Scalar) => scalar::run_fnlerp,
                (Func::Onlerp, Width::Scalar) => scalar::run_onlerp,
                #[cfg(target_arch = "x86_64")]
                (Func::Nlerp, Width::Sse2x4) => sse2::nlerp4,
                #[cfg(target_arch = "x86_64")]
                (Func::Fnlerp, Width::Sse2x4) => sse2::fnlerp4,
                #[cfg(target_arch = "x86_64")]
                (Func::Onlerp, Width::Sse2x4) => sse2::onlerp4,
                #[cfg(target_arch = "x86_64")]
                (Func::Nlerp, Width::Avx2x8) => avx2::nlerp8,
                #[cfg(target_arch = "x86_64")]
                (Func::Fnlerp, Width::Avx2x8) => avx2::fnlerp8,
                #[cfg(target_arch = "x86_64")]
                (Func::Onlerp, Width::Avx2x8) => avx2::onlerp8,
                #[cfg(target_arch = "x86_64")]
                (Func::Nlerp, Width::Avx2Fma8) => avx2::nlerp8_fma,
                #[cfg(target_arch = "x86_64")]
                (Func::Fnlerp, Width::Avx2Fma8) => avx2::fnlerp8_fma,
                #[cfg(target_arch = "x86_64")]
                (Func::Onlerp, Width::Avx2Fma8) => avx2::onlerp8_fma,
                _ => unreachable!("{w} does not exist on this target"),
            }
        }
    }

    /// The widths this CPU runs.
    pub fn widths() -> impl Iterator<Item = Width> {
        Width::ALL.into_iter().filter(|w| w.is_available())
    }

    /// Runs the safe function.
    pub fn run(f: Func, w: Width, l: &Quat, r: &[Quat], t: &[f32]) -> Vec<Quat> {
        let mut dest = vec![Quat::default(); r.len()];
        f.safe()(w, &mut dest, l, r, t).unwrap_or_else(|e| panic!("{} {w}: {e}", f.name()));
        dest
    }

    pub fn f64q(q: &Quat) -> [f64; 4] {
        q.to_array().map(f64::from)
    }

    pub fn dot64(a: [f64; 4], b: [f64; 4]) -> f64 {
        (0..4).map(|i| a[i] * b[i]).sum()
    }

    pub fn norm64(a: [f64; 4]) -> [f64; 4] {
        let n = dot64(a, a).sqrt();
        a.map(|v| v / n)
    }

    /// The full rotation angle (radians) between the rotation of `q` (any
    /// length) and that of the unit `p`: twice the 4D angle between `q/|q|` and
    /// the nearer of `±p`, as `4 atan2(|q - p|, |q + p|)`.
    pub fn rotation_angle(q: [f64; 4], p: [f64; 4]) -> f64 {
        let q = norm64(q);
        let s = if dot64(q, p) >= 0.0 { 1.0 } else { -1.0 };
        let diff = (0..4).map(|i| (q[i] - s * p[i]).powi(2)).sum::<f64>().sqrt();
        let sum = (0..4).map(|i| (q[i] + s * p[i]).powi(2)).sum::<f64>().sqrt();
        4.0 * diff.atan2(sum)
    }

    /// The article's error measure: the absolute error of the full rotation
    /// angle of `q` against the f64 slerp of `l`, `r`, `t`. Where `|dot(l, r)| <
    /// 1e-6` both arcs are (nearly) equally short and the kernels may take
    /// either (erratum E2), so the nearer arc counts.
    pub fn angle_error(q: &Quat, l: &Quat, r: &Quat, t: f32) -> f64 {
        let (l, r, t) = (f64q(l), f64q(r), f64::from(t));
        let e = rotation_angle(f64q(q), slerp_f64(l, r, t));
        if dot64(l, r).abs() < 1e-6 { e.min(rotation_angle(f64q(q), slerp_f64(l, r.map(|v| -v), t))) } else { e }
    }

    /// `ot` of each function, evaluated in f64 with the f32 coefficients: the
    /// approximation alone, without rounding.
    pub fn ot_f64(f: Func, d: f64, t: f64) -> f64 {
        use animasm::consts::{NLERP_FNLERP_K as K, NLERP_ONLERP_A as A, NLERP_ONLERP_B as B};
        let c = |v: f32| f64::from(v);
        match f {
            Func::Nlerp => t,
            Func::Fnlerp => {
                let k = c(K[0]) + d * (c(K[1]) + d * c(K[2]));
                t + t * (t - 0.5) * (t - 1.0) * k
            }
            Func::Onlerp => {
                let a = c(A[0]) + d * (c(A[1]) + d * (c(A[2]) - d * c(A[3])));
                let b = c(B[0]) + d * (c(B[1]) + d * c(B[2]));
                let k = a * (t - 0.5) * (t - 0.5) + b;
                t + t * (t - 0.5) * (t - 1.0) * k
            }
        }
    }

    /// The function evaluated in f64 (exact normalisation, the sign of the f64
    /// dot product): what the kernels approximate up to rounding.
    pub fn func_f64(f: Func, l: &Quat, r: &Quat, t: f32) -> [f64; 4] {
        let (l, r) = (f64q(l), f64q(r));
        let ca = dot64(l, r);
        let ot = ot_f64(f, ca.abs(), f64::from(t));
        let rt = if ca > 0.0 { ot } else { -ot };
        norm64(core::array::from_fn(|i| l[i] * (1.0 - ot) + r[i] * rt))
    }

    /// The published maximum angle errors (radians), over `|dot|` in `[0, 1]` and
    /// over rotations up to 90 degrees apart (`|dot| >= cos 45°`).
    pub const PUBLISHED: [(Func, f64, f64); 3] =
        [(Func::Nlerp, 0.142, 1.60e-2), (Func::Fnlerp, 6.97e-3, 1.13e-4), (Func::Onlerp, 7.76e-4, 7.23e-5)];

    /// The two ranges of the published figures: the lower end `d0` of
    /// `|dot|` and a label.
    pub const RANGES: [(f64, &str); 2] = [(0.0, "all"), (core::f64::consts::FRAC_1_SQRT_2, "<= 90 deg")];

    /// Grid points per axis (`t` and `|dot|`).
    pub const GRID: usize = 1000;

    /// The grid: `l` the identity, `r` at `|dot| = d` (both signs) about a fixed
    /// axis, `t` in `[0, 1]`, `d` from `d0` to 1; as streams.
    pub fn grid(d0: f64) -> (Quat, Vec<Quat>, Vec<f32>) {
        let axis = norm64([1.0, 2.0, 3.0, 0.0]);
        let (mut r, mut t) = (Vec::new(), Vec::new());
        for i in 0..=GRID {
            let d = d0 + (1.0 - d0) * i as f64 / GRID as f64;
            let s = (1.0 - d * d).max(0.0).sqrt();
            for sign in [1.0, -1.0] {
                let q = Quat::new((s * axis[0]) as f32, (s * axis[1]) as f32, (s * axis[2]) as f32, d as f32);
                let q = if sign > 0.0 { q } else { Quat::from_array(q.to_array().map(|v| -v)) };
                for j in 0..=GRID {
                    r.push(q);
                    t.push(j as f32 / GRID as f32);
                }
            }
        }
        (Quat::IDENTITY, r, t)
    }

    /// The maximum angle error of a result stream on a grid.
    pub fn max_angle_error(out: &[Quat], l: &Quat, r: &[Quat], t: &[f32]) -> f64 {
        (0..r.len()).map(|i| angle_error(&out[i], l, &r[i], t[i])).fold(0.0, f64::max)
    }

    /// The maximum angle error of the f64 function on a grid (the approximation
    /// alone).
    pub fn max_angle_error_f64(f: Func, l: &Quat, r: &[Quat], t: &[f32]) -> f64 {
        (0..r.len())
            .map(|i| {
                let q = func_f64(f, l, &r[i], t[i]);
                let q = Quat::from_array(q.map(|v| v as f32));
                angle_error(&q, l, &r[i], t[i])
            })
            .fold(0.0, f64::max)
    }

    /// The maximum angle errors of one function over one range of
    /// [`RANGES`] on the [`grid`].
    #[derive(Clone, Debug)]
    pub struct AngleErrors {
        pub func: Func,
        /// The range's label (`"all"`, `"<= 90 deg"`).
        pub label: &'static str,
        /// The article's figure.
        pub published: f64,
        /// The function evaluated in f64 (the approximation alone).
        pub exact: f64,
        /// Every width this CPU runs, through the safe functions.
        pub widths: Vec<(Width, f64)>,
    }

    /// The article's accuracy table, measured: for each range of [`RANGES`]
    /// and each function, the published figure, the f64 evaluation and every
    /// available width, on a 1001 x 1001 grid over `t` and `|dot|` (both
    /// signs of the dot product).
    pub fn angle_error_table() -> Vec<AngleErrors> {
        let mut rows = Vec::new();
        for (d0, label) in RANGES {
            let (l, r, t) = grid(d0);
            for (func, all, upto90) in PUBLISHED {
                let published = if d0 == 0.0 { all } else { upto90 };
                let exact = max_angle_error_f64(func, &l, &r, &t);
                let widths = widths().map(|w| (w, max_angle_error(&run(func, w, &l, &r, &t), &l, &r, &t))).collect();
                rows.push(AngleErrors { func, label, published, exact, widths });
            }
        }
        rows
    }
}

/// Error against the angle between the two quaternions, for every slerp-like
/// routine: the data of the report's error plot (`examples/common/plots.rs`).
pub mod by_angle {
    use super::super::oracle::{f64x4, slerp_f64};
    use animasm::slerp_quats::AlignedQuats;
    use animasm::{Impl, JointQuat, Quat};

    /// Width of an angle bin in degrees; the bins cover 0 to 180.
    pub const BIN_DEG: f64 = 5.0;
    /// Number of bins.
    pub const BINS: usize = (180.0 / BIN_DEG) as usize;
    /// The factors swept.
    pub const FACTORS: [f32; 5] = [0.1, 0.3, 0.5, 0.7, 0.9];

    /// One routine's curve: the max abs component error against the f64
    /// slerp in each angle bin (`None` for an empty bin; a NaN result counts
    /// as an infinite error).
    #[derive(Clone, Debug)]
    pub struct Curve {
        pub name: String,
        pub max_error: Vec<Option<f64>>,
    }

    impl Curve {
        /// (bin centre in degrees, error) of the non-empty bins.
        pub fn points(&self) -> Vec<(f64, f64)> {
            self.max_error.iter().enumerate().filter_map(|(i, e)| e.map(|e| ((i as f64 + 0.5) * BIN_DEG, e))).collect()
        }
    }

    /// The rotation angle between `a` and `b` in degrees, 0 to 180: twice the
    /// 4D angle between `a` and the nearer of `±b`.
    pub fn angle_deg(a: &Quat, b: &Quat) -> f64 {
        2.0 * super::slerp_quats::omega_deg(a, b)
    }

    /// The pairs: the shared mix ([`super::quat_pairs`], 3072) and 6144 pairs
    /// at rotation angles uniform over (0, 180) degrees, 32-byte aligned (a
    /// multiple of 16 pairs: all go through the AVX kernels' vector loop).
    pub fn pairs() -> (AlignedQuats, AlignedQuats) {
        let (mut a, mut b) = super::slerp_quats::pairs(0xa9_1e, 3072);
        let (c, d) = super::slerp_quats::pairs_at_angles(0xa9_1f, 6144, 1e-4, core::f64::consts::FRAC_PI_2 - 1e-4);
        for i in 0..c.len() {
            a.push(c[i]);
            b.push(d[i]);
        }
        (a, b)
    }

    /// Error of `got` against the f64 slerp of `a`, `b`, `t`; where `|a·b| <
    /// 1e-6` both arcs are (nearly) equally short and either counts.
    fn error(got: &Quat, a: &Quat, b: &Quat, t: f32) -> f64 {
        let (fa, fb) = (f64x4(a.to_array()), f64x4(b.to_array()));
        let got = got.to_array();
        let e = super::slerp_quats::max_abs_diff(got, slerp_f64(fa, fb, f64::from(t)));
        let dot: f64 = (0..4).map(|i| fa[i] * fb[i]).sum();
        if dot.abs() < 1e-6 {
            e.min(super::slerp_quats::max_abs_diff(got, slerp_f64(fa, fb.map(|v| -v), f64::from(t))))
        } else {
            e
        }
    }

    /// The curve of a routine that maps (pairs, factor) to results.
    fn curve(name: &str, a: &[Quat], b: &[Quat], run: impl Fn(f32) -> Vec<Quat>) -> Curve {
        let bins: Vec<usize> =
            (0..a.len()).map(|i| ((angle_deg(&a[i], &b[i]) / BIN_DEG) as usize).min(BINS - 1)).collect();
        let mut max_error = vec![None; BINS];
        for t in FACTORS {
            let out = run(t);
            for i in 0..a.len() {
                let e = error(&out[i], &a[i], &b[i], t);
                let slot: &mut Option<f64> = &mut max_error[bins[i]];
                *slot = Some(slot.map_or(e, |m: f64| m.max(e)));
            }
        }
        Curve { name: name.to_owned(), max_error }
    }

    /// The curves of every slerp-like routine this CPU runs: `slerp_joints`
    /// scalar and asm (SSE), `slerp_quats` as published and corrected (AVX
    /// only), and the scalar `nlerp`, `fnlerp`, `onlerp` (against the slerp,
    /// as their article measures), over [`pairs`] and [`FACTORS`].
    pub fn curves() -> Vec<Curve> {
        let (a, b) = pairs();
        let n = a.len();
        let mut out = Vec::new();
        let ja: Vec<JointQuat> = a.iter().map(|&q| JointQuat { q, t: Default::default() }).collect();
        let jb: Vec<JointQuat> = b.iter().map(|&q| JointQuat { q, t: Default::default() }).collect();
        let index: Vec<i32> = (0..n as i32).collect();
        for (imp, name) in [(Impl::Scalar, "slerp_joints scalar"), (Impl::Asm, "slerp_joints asm (SSE)")] {
            if !imp.is_available() {
                continue;
            }
            out.push(curve(name, &a, &b, |t| {
                let mut r = ja.clone();
                animasm::slerp_joints(imp, &mut r, &jb, t, &index).unwrap();
                r.iter().map(|j| j.q).collect()
            }));
        }
        #[cfg(target_arch = "x86_64")]
        if animasm::slerp_quats::avx_available() {
            use animasm::slerp_quats::asm;
            let kernels: [(&str, super::slerp_quats::Kernel); 2] = [
                ("slerp_quats AVX as published", asm::slerp_quats_as_published),
                ("slerp_quats AVX corrected", asm::slerp_quats_corrected),
            ];
            for (name, kernel) in kernels {
                out.push(curve(name, &a, &b, |t| {
                    let mut r = AlignedQuats::zeroed(n);
                    // SAFETY: three arrays of `n` (< 2^31) quaternions, 32-byte
                    // aligned (`AlignedQuats`), `r` a distinct allocation; the
                    // CPU has AVX (checked above).
                    unsafe { kernel(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), t, n as i32) };
                    r.to_vec()
                }));
            }
        }
        for f in super::nlerp::FUNCS {
            let g = f.scalar();
            out.push(curve(f.name(), &a, &b, |t| (0..n).map(|i| g(a[i], b[i], t)).collect()));
        }
        out
    }
}
