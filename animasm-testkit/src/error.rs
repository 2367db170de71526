//! Error measures between an f32 result and an f64 reference
//! ([`crate::oracle`]), or between two rotations.
//!
//! Every measure counts a NaN as an infinite error, so a NaN never passes a
//! bound (a plain `f64::max` fold would drop it).
//!
//! | measure | for |
//! |---|---|
//! | [`rotation_angle`] | the angle between two rotations, sign-insensitive (`q` and `-q` are one rotation) |
//! | [`omega_deg`] | the 4D angle of a pair of quaternions, what slerp interpolates over |
//! | [`max_abs_diff`], [`mat_max_abs_diff`], [`abs_err`] | max abs component error |
//! | [`quat_diff_up_to_sign`] | max abs component error against the nearer of `±q` |
//! | [`ulps`], [`ulp_distance`] | errors in units in the last place of f32 |
//! | [`model_size`], [`skeleton_error`] | a skeleton's error relative to its size |

use animasm::{JointMat, Quat};

/// `|a - b|`, with a NaN on either side counted as an infinite error.
///
/// ```
/// use animasm_testkit::error::abs_err;
/// assert_eq!(abs_err(1.0, 0.75), 0.25);
/// assert_eq!(abs_err(f64::NAN, 0.0), f64::INFINITY);
/// ```
pub fn abs_err(a: f64, b: f64) -> f64 {
    let d = (a - b).abs();
    if d.is_nan() { f64::INFINITY } else { d }
}

/// The largest absolute component difference between `a` (f32) and `b`
/// (f64), NaN-aware ([`abs_err`]).
///
/// ```
/// use animasm_testkit::error::max_abs_diff;
/// assert_eq!(max_abs_diff([1.0, 0.0, 0.0, 0.5], [1.0, 0.0, 0.0, 0.25]), 0.25);
/// assert_eq!(max_abs_diff([f32::NAN, 0.0, 0.0, 0.0], [0.0; 4]), f64::INFINITY);
/// ```
pub fn max_abs_diff(a: [f32; 4], b: [f64; 4]) -> f64 {
    (0..4).map(|i| abs_err(f64::from(a[i]), b[i])).fold(0.0, f64::max)
}

/// The largest absolute element difference between a 3x4 f32 matrix and an
/// f64 one, NaN-aware.
///
/// ```
/// use animasm_testkit::error::mat_max_abs_diff;
/// let mut want = [0.0f64; 12];
/// want[3] = 2.0;
/// let mut got = [0.0f32; 12];
/// got[3] = 2.5;
/// assert_eq!(mat_max_abs_diff(&got, &want), 0.5);
/// ```
pub fn mat_max_abs_diff(a: &[f32; 12], b: &[f64; 12]) -> f64 {
    (0..12).map(|i| abs_err(f64::from(a[i]), b[i])).fold(0.0, f64::max)
}

/// The max abs component difference between `a` and the nearer of `b` and
/// `-b` (`q` and `-q` are the same rotation), NaN-aware.
///
/// ```
/// use animasm_testkit::error::quat_diff_up_to_sign;
/// let q = [0.5, 0.5, 0.5, 0.5];
/// assert_eq!(quat_diff_up_to_sign(q, q.map(|v| -v)), 0.0);
/// assert_eq!(quat_diff_up_to_sign([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, -0.75]), 0.25);
/// ```
pub fn quat_diff_up_to_sign(a: [f64; 4], b: [f64; 4]) -> f64 {
    let d = |s: f64| (0..4).map(|i| abs_err(a[i], s * b[i])).fold(0.0, f64::max);
    d(1.0).min(d(-1.0))
}

/// The angle in radians, 0 to π, of the rotation that takes the rotation of
/// `p` to that of `q`: twice the 4D angle between `q / |q|` and the nearer
/// of `±p / |p|`, computed as `4 atan2(|q - p|, |q + p|)`, accurate down to
/// the smallest angles (an `acos` of the dot product loses every angle below
/// about 1e-8 in f64). Neither needs unit length; a NaN anywhere, or a zero
/// quaternion, gives infinity.
///
/// This is the sign-insensitive measure of a slerp's or nlerp's error: it
/// does not care which of `±q` a routine returns.
///
/// ```
/// use animasm_testkit::error::rotation_angle;
/// let (s, c) = (0.05f64.sin(), 0.05f64.cos());
/// // A rotation of 0.1 rad about z against the identity, either sign.
/// assert!((rotation_angle([0.0, 0.0, s, c], [0.0, 0.0, 0.0, 1.0]) - 0.1).abs() < 1e-15);
/// assert!((rotation_angle([0.0, 0.0, -s, -c], [0.0, 0.0, 0.0, 2.0]) - 0.1).abs() < 1e-15);
/// assert_eq!(rotation_angle([f64::NAN, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]), f64::INFINITY);
/// ```
pub fn rotation_angle(q: [f64; 4], p: [f64; 4]) -> f64 {
    let unit = |a: [f64; 4]| {
        let n = a.iter().map(|v| v * v).sum::<f64>().sqrt();
        a.map(|v| v / n)
    };
    let (q, p) = (unit(q), unit(p));
    let s = if (0..4).map(|i| q[i] * p[i]).sum::<f64>() >= 0.0 { 1.0 } else { -1.0 };
    let diff = (0..4).map(|i| (q[i] - s * p[i]).powi(2)).sum::<f64>().sqrt();
    let sum = (0..4).map(|i| (q[i] + s * p[i]).powi(2)).sum::<f64>().sqrt();
    let a = 4.0 * diff.atan2(sum);
    if a.is_nan() { f64::INFINITY } else { a }
}

/// The 4D angle in degrees, 0 to 90, between `a` and the nearer of `±b`
/// (`acos |a·b|` in f64, `|a·b|` clamped to 1): the `omega` a shortest-arc
/// slerp interpolates over, half the rotation angle between them. Assumes
/// unit quaternions.
///
/// ```
/// use animasm::Quat;
/// use animasm_testkit::error::omega_deg;
/// let h = core::f32::consts::FRAC_1_SQRT_2;
/// let (a, b) = (Quat::new(0.0, 0.0, 0.0, 1.0), Quat::new(0.0, 0.0, h, h));
/// assert!((omega_deg(&a, &b) - 45.0).abs() < 1e-5);
/// ```
pub fn omega_deg(a: &Quat, b: &Quat) -> f64 {
    let (a, b) = (a.to_array(), b.to_array());
    let c: f64 = (0..4).map(|i| f64::from(a[i]) * f64::from(b[i])).sum();
    c.abs().min(1.0).acos().to_degrees()
}

/// The error of `got` against the exact value `exact` in units of the last
/// place of f32 at `exact` (the spacing of f32 values around it; at least
/// that of the smallest normal f32, so results near zero are not blown up).
/// A NaN, or an infinity on one side only, gives infinity.
///
/// ```
/// use animasm_testkit::error::ulps;
/// assert_eq!(ulps(1.0, 1.0), 0.0);
/// // One f32 step above 1.0 is one ulp away.
/// assert_eq!(ulps(1.0 + f32::EPSILON, 1.0), 1.0);
/// // Half an ulp of rounding shows as 0.5.
/// assert_eq!(ulps(1.0, 1.0 + f64::from(f32::EPSILON) / 2.0), 0.5);
/// ```
pub fn ulps(got: f32, exact: f64) -> f64 {
    if f64::from(got) == exact {
        return 0.0;
    }
    let a = exact.abs().max(f64::from(f32::MIN_POSITIVE));
    // The f32 spacing at |exact|: 2^(e - 23) for 2^e <= |exact| < 2^(e+1).
    let ulp = 2f64.powi(a.log2().floor() as i32 - 23);
    let e = (f64::from(got) - exact).abs() / ulp;
    if e.is_nan() { f64::INFINITY } else { e }
}

/// The number of f32 values strictly after the smaller of `a` and `b` up to
/// the larger (0 for equal values, 1 for neighbours), with `+0.0` and `-0.0`
/// equal; `u32::MAX` if either is NaN.
///
/// ```
/// use animasm_testkit::error::ulp_distance;
/// assert_eq!(ulp_distance(1.0, 1.0), 0);
/// assert_eq!(ulp_distance(1.0, 1.0 + f32::EPSILON), 1);
/// assert_eq!(ulp_distance(-0.0, 0.0), 0);
/// assert_eq!(ulp_distance(-f32::from_bits(1), f32::from_bits(1)), 2);
/// assert_eq!(ulp_distance(f32::NAN, 1.0), u32::MAX);
/// ```
pub fn ulp_distance(a: f32, b: f32) -> u32 {
    if a.is_nan() || b.is_nan() {
        return u32::MAX;
    }
    // Map the floats onto the integers in order: negatives below zero.
    let key = |x: f32| {
        let bits = x.to_bits() as i64;
        if bits & (1 << 31) != 0 { -(bits & 0x7FFF_FFFF) } else { bits }
    };
    (key(a) - key(b)).unsigned_abs().min(u64::from(u32::MAX)) as u32
}

/// A model's size: the largest distance of a joint's translation (column 3
/// of each 3x4 matrix, row-major `[row * 4 + col]`) from the origin, at
/// least 1. [`skeleton_error`] divides by it, so that a skeleton's error is
/// comparable between a model in centimetres and one in metres.
///
/// ```
/// use animasm_testkit::error::model_size;
/// let mut m = [0.0f64; 12];
/// (m[3], m[7], m[11]) = (3.0, 4.0, 0.0);
/// assert_eq!(model_size(&[m]), 5.0);
/// assert_eq!(model_size(&[]), 1.0);
/// ```
pub fn model_size(model: &[[f64; 12]]) -> f64 {
    model.iter().map(|m| (m[3] * m[3] + m[7] * m[7] + m[11] * m[11]).sqrt()).fold(1.0, f64::max)
}

/// The error of a skeleton (model-space or local joint matrices) against
/// its f64 reference: the largest absolute element error of any joint
/// ([`mat_max_abs_diff`]) divided by [`model_size`] of the reference.
/// Panics if the lengths differ.
///
/// ```
/// use animasm::JointMat;
/// use animasm_testkit::error::skeleton_error;
/// let mut want = [0.0f64; 12];
/// want[3] = 100.0; // a joint 100 units from the origin
/// let mut got = JointMat { mat: want.map(|v| v as f32) };
/// got.mat[3] += 0.5; // off by 0.5: half a percent of the model's size
/// assert_eq!(skeleton_error(&[got], &[want]), 0.005);
/// ```
pub fn skeleton_error(got: &[JointMat], want: &[[f64; 12]]) -> f64 {
    assert_eq!(got.len(), want.len(), "skeleton_error: {} joints against {}", got.len(), want.len());
    let size = model_size(want);
    got.iter().zip(want).map(|(g, w)| mat_max_abs_diff(&g.mat, w)).fold(0.0, f64::max) / size
}
