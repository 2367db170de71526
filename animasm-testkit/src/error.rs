//! Error measures between an f32 result and an f64 reference
//! ([`crate::oracle`]), or between two rotations.
//!
//! Every measure counts a NaN as an infinite error, so a NaN never passes a
//! bound (a plain `f64::max` fold would drop it).
//!
//! These are measures: they return the size of an error, to report a worst
//! case and compare it with a bound. To ask only whether two f32 values of
//! animasm's types are equal within a tolerance (`Quat`, `Vec4`,
//! `JointQuat`, `JointMat`, component by component), use approx
//! ([`crate::approx`]: `assert_relative_eq!`, `assert_ulps_eq!`).
//!
//! | measure | for |
//! |---|---|
//! | [`rotation_angle`] | the angle between two rotations, sign-insensitive (`q` and `-q` are one rotation) |
//! | [`omega_deg`] | the 4D angle of a pair of quaternions, what slerp interpolates over |
//! | [`max_abs_diff`], [`mat_max_abs_diff`], [`abs_err`] | max abs component error |
//! | [`rot_trans_diff`] | a 3x4 matrix's rotation and translation errors apart |
//! | [`abs_rel_diff`] | two f32 results: absolute up to magnitude 1, relative above |
//! | [`quat_diff_up_to_sign`] | max abs component error against the nearer of `±q` |
//! | [`ulps`], [`ulp_distance`] | errors in units in the last place of f32 |
//! | [`model_size`], [`skeleton_error`] | a skeleton's error relative to its size |
//! | [`either_arc`] | a slerp's error where both arcs are (nearly) equally short |
//! | [`pose_error`] | a pose's rotation errors and its translation errors relative to the model's size |
//! | [`translation_max_norm`] | the magnitude a matrix's translation errors scale with |

use crate::oracle::normalize_f64;
use animasm::{JointMat, Quat};

use crate::oracle::slerp_f64;

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

/// [`mat_max_abs_diff`] of a 3x4 matrix split in two: the largest error of
/// the rotation part (columns 0 to 2) and that of the translation (column
/// 3), NaN-aware. The rotation's error is absolute (its elements are at
/// most 1); the translation's grows with the model, so callers divide it by
/// a size ([`translation_max_norm`], [`model_size`]).
///
/// ```
/// use animasm_testkit::error::rot_trans_diff;
/// let want = [1.0, 0.0, 0.0, 50.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
/// let mut got = want.map(|v| v as f32);
/// got[1] = 1e-6;
/// got[3] = 50.5;
/// assert_eq!(rot_trans_diff(&got, &want), (f64::from(1e-6f32), 0.5));
/// got[11] = f32::NAN;
/// assert_eq!(rot_trans_diff(&got, &want).1, f64::INFINITY);
/// ```
pub fn rot_trans_diff(got: &[f32; 12], want: &[f64; 12]) -> (f64, f64) {
    let (mut rot, mut trans) = (0.0f64, 0.0f64);
    for e in 0..12 {
        let d = abs_err(f64::from(got[e]), want[e]);
        if e % 4 == 3 {
            trans = trans.max(d);
        } else {
            rot = rot.max(d);
        }
    }
    (rot, trans)
}

/// The difference of two f32 results `a` and `b` (`b` the one trusted, a
/// scalar port, say): `|a - b|` where `|b| <= 1`, `|a - b| / |b|` above
/// (rotations are at most 1, translations reach any size). Equal bits, or
/// two NaNs, are 0; a NaN against a number is infinite.
///
/// ```
/// use animasm_testkit::error::abs_rel_diff;
/// assert_eq!(abs_rel_diff(0.5, 0.25), 0.25);
/// assert_eq!(abs_rel_diff(101.0, 100.0), 0.01); // relative above 1
/// assert_eq!(abs_rel_diff(f32::NAN, f32::NAN), 0.0);
/// assert_eq!(abs_rel_diff(f32::NAN, 1.0), f64::INFINITY);
/// ```
pub fn abs_rel_diff(a: f32, b: f32) -> f64 {
    if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
        return 0.0;
    }
    let d = (f64::from(a) - f64::from(b)).abs() / f64::from(b.abs()).max(1.0);
    if d.is_nan() { f64::INFINITY } else { d }
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
    let (q, p) = (normalize_f64(q), normalize_f64(p));
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
/// use animasm_testkit::animasm::Quat;
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
/// use animasm_testkit::animasm::JointMat;
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

/// The largest translation component of a 3x4 matrix in magnitude (the max
/// norm of column 3): what an error in a translation, or in a product with
/// one, scales with.
///
/// ```
/// use animasm_testkit::error::translation_max_norm;
/// let mut m = [0.0f64; 12];
/// (m[3], m[7], m[11]) = (3.0, -4.0, 0.0);
/// assert_eq!(translation_max_norm(&m), 4.0);
/// ```
pub fn translation_max_norm(m: &[f64; 12]) -> f64 {
    m[3].abs().max(m[7].abs()).max(m[11].abs())
}

/// A pose's error against its f64 reference: the largest of every rotation
/// element's absolute error and every translation element's error divided
/// by `size` (the model's size: a skinned vertex at distance `size` from
/// the origin moves by at most about `3 size` times this), NaN-aware
/// ([`rot_trans_diff`]). Unlike [`skeleton_error`], the rotation part is
/// not divided by the size. Panics if the lengths differ.
///
/// ```
/// use animasm_testkit::error::pose_error;
/// let want = [1.0, 0.0, 0.0, 50.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
/// let mut got = want.map(|v| v as f32);
/// got[3] = 50.5; // 0.5 off in a model of size 100
/// assert_eq!(pose_error(&[got], &[want], 100.0), 0.005);
/// got[1] = 0.25; // a rotation element 0.25 off
/// assert_eq!(pose_error(&[got], &[want], 100.0), 0.25);
/// ```
pub fn pose_error(got: &[[f32; 12]], want: &[[f64; 12]], size: f64) -> f64 {
    assert_eq!(got.len(), want.len(), "pose_error: {} joints against {}", got.len(), want.len());
    got.iter()
        .zip(want)
        .map(|(g, w)| {
            let (r, t) = rot_trans_diff(g, w);
            r.max(t / size)
        })
        .fold(0.0, f64::max)
}

/// The error `err(reference)` of a slerp result against the f64 slerp of
/// `from`, `to`, `t` ([`slerp_f64`]); where `|from·to| < tie` both arcs are
/// (nearly) equally short and a kernel may take either (the listings' sign
/// bit test at `-0.0`, zeux's `> 0` at `+0.0`), so the smaller of the errors
/// against both arcs counts. animasm's measurements use `tie = 1e-6`.
///
/// ```
/// use animasm_testkit::error::{either_arc, quat_diff_up_to_sign};
/// use animasm_testkit::oracle::slerp_f64;
/// // Orthogonal quaternions: half way along the other arc is also right.
/// let (a, b) = ([0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]);
/// let other = slerp_f64(a, b.map(|v: f64| -v), 0.5);
/// let err = |want: [f64; 4]| quat_diff_up_to_sign(other, want);
/// assert!(err(slerp_f64(a, b, 0.5)) > 0.5);
/// assert_eq!(either_arc(a, b, 0.5, 1e-6, err), 0.0);
/// assert!(either_arc(a, b, 0.5, 0.0, err) > 0.5); // no tie: one arc only
/// ```
pub fn either_arc(from: [f64; 4], to: [f64; 4], t: f64, tie: f64, err: impl Fn([f64; 4]) -> f64) -> f64 {
    let e = err(slerp_f64(from, to, t));
    let dot: f64 = (0..4).map(|i| from[i] * to[i]).sum();
    if dot.abs() < tie { e.min(err(slerp_f64(from, to.map(|v| -v), t))) } else { e }
}
