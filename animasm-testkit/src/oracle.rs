//! The f64 references (the "oracles"), one per operation, that the tests,
//! the report and the pose pipeline measure errors against. Plain f64
//! arithmetic, no kernel of the crate.
//!
//! | operation | oracle |
//! |---|---|
//! | slerp along the shorter arc | [`slerp_f64`] |
//! | lerp + renormalisation along the shorter arc | [`lerp_f64`] |
//! | zeux's nlerp, fnlerp and onlerp | [`nlerp_f64`], [`fnlerp_f64`], [`onlerp_f64`] |
//! | the nlerp family with any corrected factor | [`nlerp_with_f64`] |
//! | translation lerp | [`vec4_lerp_f64`], [`vec3_lerp_f64`] |
//! | quaternion to rotation, column vectors (glTF's convention) | [`quat_to_mat3_f64`], [`joint_mat_gltf_f64`] |
//! | quaternion to rotation, the papers' convention (row vectors) | [`quat_to_mat3_paper_f64`], [`joint_mat_paper_f64`] |
//! | glTF's `T * R * S` | [`trs_f64`] |
//! | rotation to quaternion: column vectors (glTF's), the papers' convention | [`mat3_to_quat_f64`], [`mat3_paper_to_quat_f64`] |
//! | 3x4 affine product, inverse | [`affine_mul_f64`], [`affine_inverse_f64`] |
//! | parent chain (local to model) and its inverse | [`local_to_model_f64`], [`model_to_local_f64`] |
//! | `transform_skeleton` and `untransform_skeleton` over a range | [`transform_skeleton_f64`], [`untransform_skeleton_f64`] |
//!
//! and the conversions around them: [`f64x4`], [`mat_f64`], [`mats_f64`]
//! (f32 inputs widened), [`normalize_f64`], [`transpose3`],
//! [`affine_from_f64`], [`affine_parts_f64`].
//!
//! The error measures to compare a result with them are in [`crate::error`].

use animasm::JointMat;
use core::ops::RangeInclusive;

/// Exact spherical linear interpolation in f64 along the shorter arc: the
/// one f64 slerp of the workspace (the tests, the report and
/// `devkit::pipeline` all use it).
///
/// - **Shorter arc**: `to` is negated when the f64 dot product is negative.
///   A dot product of `-0.0` (or `+0.0`) counts as non-negative, so `to` is
///   kept: the rule of the paper's C `Slerp` (`cosom >= 0.0f`), not of the
///   SSE listing, which tests the sign bit and flips at `-0.0` (the
///   `negative_zero_dot_product_flips_the_blend_quaternion` erratum). At a
///   dot product of exactly zero both arcs are equally long.
/// - **Near-identical quaternions**: where `1 - |dot| <= 1e-12` (the angle
///   is below about 1.4e-6 rad) it returns the linear blend `(1 - t) from +
///   t (±to)` without renormalising: in f64 this is within ~1e-12 of the
///   slerp, far below f32 rounding. `|dot|` is clamped to 1 first, so
///   non-unit or rounded inputs with `|dot| > 1` take this branch too.
/// - `t` outside `[0, 1]` extrapolates along the same great circle.
///
/// ```
/// use animasm_testkit::oracle::slerp_f64;
/// let id = [0.0, 0.0, 0.0, 1.0];
/// let z90 = [0.0, 0.0, 0.5f64.sqrt(), 0.5f64.sqrt()]; // 90 degrees about z
/// assert_eq!(slerp_f64(id, z90, 0.0), id);
/// // Half way: 45 degrees about z.
/// let (s, c) = (core::f64::consts::PI / 8.0).sin_cos();
/// let h = slerp_f64(id, z90, 0.5);
/// assert!((h[2] - s).abs() < 1e-15 && (h[3] - c).abs() < 1e-15);
/// // The shorter arc: `-z90` is the same rotation, and gives the same blend.
/// assert_eq!(slerp_f64(id, z90.map(|v| -v), 0.5).map(|v| (v * 1e12).round()), h.map(|v| (v * 1e12).round()));
/// ```
pub fn slerp_f64(from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
    let cosom: f64 = (0..4).map(|i| from[i] * to[i]).sum();
    let sign = if cosom >= 0.0 { 1.0 } else { -1.0 };
    let c = cosom.abs().min(1.0);
    let (s0, s1) = if 1.0 - c > 1e-12 {
        let omega = c.acos();
        let sinom = omega.sin();
        (((1.0 - t) * omega).sin() / sinom, (t * omega).sin() / sinom)
    } else {
        (1.0 - t, t)
    };
    core::array::from_fn(|i| s0 * from[i] + sign * s1 * to[i])
}

/// Linear interpolation with renormalisation in f64 along the shorter arc,
/// as the paper's `Lerp` defines it.
///
/// ```
/// use animasm_testkit::oracle::lerp_f64;
/// let (id, x180) = ([0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]);
/// // Half way between orthogonal quaternions: the normalised sum.
/// let h = lerp_f64(id, x180, 0.5);
/// assert!((h[0] - 0.5f64.sqrt()).abs() < 1e-15 && (h[3] - 0.5f64.sqrt()).abs() < 1e-15);
/// ```
pub fn lerp_f64(from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
    let cosom: f64 = (0..4).map(|i| from[i] * to[i]).sum();
    let s1 = if cosom >= 0.0 { t } else { -t };
    normalize_f64(core::array::from_fn(|i| (1.0 - t) * from[i] + s1 * to[i]))
}

/// zeux's `nlerp` (*Approximating slerp*, 2015) in f64: the normalised
/// linear blend `l (1 - t) + r t'` with `t' = t` where the f64 dot product
/// is positive and `-t` otherwise (note `> 0`: at a dot product of exactly
/// zero `r` is negated, where [`lerp_f64`] keeps it).
///
/// ```
/// use animasm_testkit::oracle::{lerp_f64, nlerp_f64};
/// let (l, r) = ([0.0, 0.0, 0.0, 1.0], [0.0, 0.6, 0.0, 0.8]);
/// assert_eq!(nlerp_f64(l, r, 0.25), lerp_f64(l, r, 0.25));
/// // At a dot product of exactly 0 the two differ in the sign of `r`.
/// assert_eq!(nlerp_f64(l, [1.0, 0.0, 0.0, 0.0], 1.0), [-1.0, 0.0, 0.0, 0.0]);
/// ```
pub fn nlerp_f64(l: [f64; 4], r: [f64; 4], t: f64) -> [f64; 4] {
    nlerp_with_f64(l, r, t, |_, t| t)
}

/// zeux's `fnlerp` in f64: [`nlerp_f64`] with `t` corrected by the
/// article's `k(d) = K0 + d (K1 + d K2)` (`animasm::nlerp::FNLERP_K`,
/// the f32 coefficients as the kernels store them), `d = |l·r|`. This is the
/// approximation alone, without rounding; its distance from [`slerp_f64`]
/// is the approximation error the article quotes.
///
/// ```
/// use animasm_testkit::error::rotation_angle;
/// use animasm_testkit::oracle::{fnlerp_f64, nlerp_f64, slerp_f64};
/// let (l, r) = ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.6, 0.8]); // 73.7 degrees apart
/// let (slerp, nlerp, fnlerp) = (slerp_f64(l, r, 0.3), nlerp_f64(l, r, 0.3), fnlerp_f64(l, r, 0.3));
/// // The corrected factor brings nlerp much closer to slerp.
/// assert!(rotation_angle(fnlerp, slerp) < rotation_angle(nlerp, slerp) / 10.0);
/// ```
pub fn fnlerp_f64(l: [f64; 4], r: [f64; 4], t: f64) -> [f64; 4] {
    use animasm::nlerp::FNLERP_K as K;
    nlerp_with_f64(l, r, t, |d, t| {
        let k = f64::from(K[0]) + d * (f64::from(K[1]) + d * f64::from(K[2]));
        t + t * (t - 0.5) * (t - 1.0) * k
    })
}

/// zeux's `onlerp` in f64: [`nlerp_f64`] with `t` corrected by *Optimizing
/// slerp*'s `k(d, t) = A(d) (t - 1/2)^2 + B(d)`
/// (`animasm::nlerp::ONLERP_A`/`_B`, as stored in f32).
///
/// ```
/// use animasm_testkit::error::rotation_angle;
/// use animasm_testkit::oracle::{fnlerp_f64, onlerp_f64, slerp_f64};
/// let (l, r) = ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.6, 0.8]);
/// let slerp = slerp_f64(l, r, 0.3);
/// // The article's second fit is closer still.
/// assert!(rotation_angle(onlerp_f64(l, r, 0.3), slerp) < rotation_angle(fnlerp_f64(l, r, 0.3), slerp));
/// ```
pub fn onlerp_f64(l: [f64; 4], r: [f64; 4], t: f64) -> [f64; 4] {
    use animasm::nlerp::{ONLERP_A as A, ONLERP_B as B};
    let c = f64::from;
    nlerp_with_f64(l, r, t, |d, t| {
        let a = c(A[0]) + d * (c(A[1]) + d * (c(A[2]) - d * c(A[3])));
        let b = c(B[0]) + d * (c(B[1]) + d * c(B[2]));
        let k = a * (t - 0.5) * (t - 0.5) + b;
        t + t * (t - 0.5) * (t - 1.0) * k
    })
}

/// The nlerp family in f64 with any corrected factor: the normalised blend
/// `l (1 - ot) + r ot'`, `ot = ot(d, t)` with `d = |l·r|`, `ot' = ot` where
/// the dot product is positive and `-ot` otherwise. [`nlerp_f64`] is
/// `ot(d, t) = t`; [`fnlerp_f64`] and [`onlerp_f64`] are zeux's fits. For
/// exploring other corrections (a constant `k`, say).
///
/// ```
/// use animasm_testkit::oracle::{fnlerp_f64, nlerp_f64, nlerp_with_f64};
/// let (l, r) = ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.6, 0.8]);
/// assert_eq!(nlerp_with_f64(l, r, 0.3, |_, t| t), nlerp_f64(l, r, 0.3));
/// // A factor of 0 or 1 gives the end points.
/// assert_eq!(nlerp_with_f64(l, r, 0.3, |_, _| 1.0), r);
/// assert_ne!(nlerp_with_f64(l, r, 0.3, |_, t| t * 1.01), fnlerp_f64(l, r, 0.3));
/// ```
pub fn nlerp_with_f64(l: [f64; 4], r: [f64; 4], t: f64, ot: impl Fn(f64, f64) -> f64) -> [f64; 4] {
    let ca: f64 = (0..4).map(|i| l[i] * r[i]).sum();
    let ot = ot(ca.abs(), t);
    let rt = if ca > 0.0 { ot } else { -ot };
    normalize_f64(core::array::from_fn(|i| l[i] * (1.0 - ot) + r[i] * rt))
}

/// `from * (1 - t) + to * t` in f64 (a joint's translation, `w` included).
///
/// ```
/// use animasm_testkit::oracle::vec4_lerp_f64;
/// assert_eq!(vec4_lerp_f64([0.0, 2.0, -4.0, 1.0], [4.0, 2.0, 4.0, 1.0], 0.25), [1.0, 2.0, -2.0, 1.0]);
/// ```
pub fn vec4_lerp_f64(from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
    core::array::from_fn(|i| from[i] * (1.0 - t) + to[i] * t)
}

/// `from * (1 - t) + to * t` in f64 for 3-vectors (glTF's translations and
/// scales), as [`vec4_lerp_f64`].
///
/// ```
/// use animasm_testkit::oracle::vec3_lerp_f64;
/// assert_eq!(vec3_lerp_f64([0.0, 2.0, -4.0], [4.0, 2.0, 4.0], 0.75), [3.0, 2.0, 2.0]);
/// ```
pub fn vec3_lerp_f64(from: [f64; 3], to: [f64; 3], t: f64) -> [f64; 3] {
    core::array::from_fn(|i| from[i] * (1.0 - t) + to[i] * t)
}

/// Widens four f32 to f64.
///
/// ```
/// use animasm_testkit::oracle::f64x4;
/// assert_eq!(f64x4([0.1, 0.0, -0.0, 1.0]), [f64::from(0.1f32), 0.0, -0.0, 1.0]);
/// ```
pub fn f64x4(v: [f32; 4]) -> [f64; 4] {
    v.map(f64::from)
}

/// `q / |q|` in f64 (NaN for a zero quaternion).
///
/// ```
/// use animasm_testkit::oracle::normalize_f64;
/// assert_eq!(normalize_f64([0.0, 3.0, 0.0, 4.0]), [0.0, 0.6, 0.0, 0.8]);
/// ```
pub fn normalize_f64(q: [f64; 4]) -> [f64; 4] {
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// A joint matrix's twelve f32 widened to f64 (row-major `[row * 4 + col]`).
///
/// ```
/// use animasm_testkit::animasm::JointMat;
/// use animasm_testkit::oracle::mat_f64;
/// let m = mat_f64(&JointMat::IDENTITY);
/// assert_eq!((m[0], m[5], m[10], m[3]), (1.0, 1.0, 1.0, 0.0));
/// ```
pub fn mat_f64(m: &JointMat) -> [f64; 12] {
    m.mat.map(f64::from)
}

/// [`mat_f64`] of every joint matrix.
///
/// ```
/// use animasm_testkit::animasm::JointMat;
/// use animasm_testkit::oracle::{mat_f64, mats_f64};
/// let mut m = JointMat::IDENTITY;
/// m.mat[7] = 0.1;
/// assert_eq!(mats_f64(&[JointMat::IDENTITY, m]), [mat_f64(&JointMat::IDENTITY), mat_f64(&m)]);
/// ```
pub fn mats_f64(mats: &[JointMat]) -> Vec<[f64; 12]> {
    mats.iter().map(mat_f64).collect()
}

/// The standard rotation matrix of a unit quaternion `[x, y, z, w]` for
/// column vectors (`v' = R v`), row-major, in f64: `R[0][1] = 2(xy - wz)`.
///
/// Note: *From Quaternion to Matrix and Back* (section 3) writes its `M` as
/// the transpose of this (`M[0][1] = 2xy + 2wz`), the convention of row
/// vectors; compare with [`transpose3`] where a routine follows it.
///
/// ```
/// use animasm_testkit::oracle::quat_to_mat3_f64;
/// // 90 degrees about z takes x to y: column 0 is (0, 1, 0).
/// let h = 0.5f64.sqrt();
/// let m = quat_to_mat3_f64([0.0, 0.0, h, h]);
/// assert!((m[1][0] - 1.0).abs() < 1e-15 && m[0][0].abs() < 1e-15 && m[2][0] == 0.0);
/// ```
pub fn quat_to_mat3_f64(q: [f64; 4]) -> [[f64; 3]; 3] {
    let [x, y, z, w] = q;
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

/// The rotation matrix of a unit quaternion in the papers' convention (*From
/// Quaternion to Matrix and Back*, section 3: row vectors, `M[0][1] = 2xy +
/// 2wz`): the transpose of [`quat_to_mat3_f64`].
///
/// ```
/// use animasm_testkit::oracle::{quat_to_mat3_f64, quat_to_mat3_paper_f64, transpose3};
/// let [x, y, z, w] = [0.1f64, -0.5, 0.7, 0.5];
/// let m = quat_to_mat3_paper_f64([x, y, z, w]);
/// // Section 3's M as printed: M[0][1] = 2xy + 2wz, M[2][0] = 2xz + 2wy.
/// assert!((m[0][1] - (2.0 * x * y + 2.0 * w * z)).abs() < 1e-15);
/// assert!((m[2][0] - (2.0 * x * z + 2.0 * w * y)).abs() < 1e-15);
/// assert_eq!(m, transpose3(quat_to_mat3_f64([x, y, z, w])));
/// ```
pub fn quat_to_mat3_paper_f64(q: [f64; 4]) -> [[f64; 3]; 3] {
    transpose3(quat_to_mat3_f64(q))
}

/// The 3x4 joint matrix (row-major `[row * 4 + col]`, translation in column
/// 3) of rotation `q` and translation `t` as the papers' `JointQuat` to
/// `JointMat` conversion defines it ([`quat_to_mat3_paper_f64`]).
///
/// ```
/// use animasm_testkit::oracle::{joint_mat_gltf_f64, joint_mat_paper_f64};
/// let (q, t) = ([0.1f64, -0.5, 0.7, 0.5], [1.0, 2.0, 3.0]);
/// let (p, g) = (joint_mat_paper_f64(q, t), joint_mat_gltf_f64(q, t));
/// // The rotations are transposes; the translations agree.
/// for r in 0..3 {
///     assert!((0..3).all(|c| p[r * 4 + c] == g[c * 4 + r]));
///     assert_eq!(p[r * 4 + 3], t[r]);
/// }
/// ```
pub fn joint_mat_paper_f64(q: [f64; 4], t: [f64; 3]) -> [f64; 12] {
    affine_from_f64(quat_to_mat3_paper_f64(q), t)
}

/// The 3x4 joint matrix of rotation `q` and translation `t` in glTF's
/// convention (column vectors, [`quat_to_mat3_f64`]).
///
/// ```
/// use animasm_testkit::oracle::joint_mat_gltf_f64;
/// let h = 0.5f64.sqrt();
/// let m = joint_mat_gltf_f64([0.0, 0.0, h, h], [1.0, 2.0, 3.0]);
/// // Row 0: (0, -1, 0 | 1), the rotation of 90 degrees about z, then the translation.
/// assert!(m[0].abs() < 1e-15 && (m[1] + 1.0).abs() < 1e-15 && m[2] == 0.0 && m[3] == 1.0);
/// ```
pub fn joint_mat_gltf_f64(q: [f64; 4], t: [f64; 3]) -> [f64; 12] {
    affine_from_f64(quat_to_mat3_f64(q), t)
}

/// glTF's node transform `T * R * S` in f64 as a 3x4 matrix (row-major,
/// column vectors): translation `t`, rotation `q` (`[x, y, z, w]`, unit:
/// normalise first with [`normalize_f64`] where it may not be), scale `s`.
/// Column `c` of the rotation is scaled by `s[c]`.
///
/// ```
/// use animasm_testkit::oracle::{joint_mat_gltf_f64, trs_f64};
/// let (t, q) = ([1.0, 2.0, 3.0], [0.1f64, -0.5, 0.7, 0.5]);
/// // Unit scale: the glTF joint matrix.
/// assert_eq!(trs_f64(t, q, [1.0; 3]), joint_mat_gltf_f64(q, t));
/// // Scale (2, 1, 1), then 90 degrees about z: x is doubled, then turned
/// // to y (column 0 is (0, 2, 0)); y turns to -x unscaled.
/// let h = 0.5f64.sqrt();
/// let m = trs_f64(t, [0.0, 0.0, h, h], [2.0, 1.0, 1.0]);
/// assert!((m[4] - 2.0).abs() < 1e-15 && (m[1] + 1.0).abs() < 1e-15 && m[0].abs() < 1e-15);
/// ```
pub fn trs_f64(t: [f64; 3], q: [f64; 4], s: [f64; 3]) -> [f64; 12] {
    let mut m = joint_mat_gltf_f64(q, t);
    (0..12).filter(|e| e % 4 != 3).for_each(|e| m[e] *= s[e % 4]);
    m
}

/// The transpose of a 3x3 matrix.
///
/// ```
/// use animasm_testkit::oracle::transpose3;
/// let m = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]];
/// assert_eq!(transpose3(m), [[1.0, 4.0, 7.0], [2.0, 5.0, 8.0], [3.0, 6.0, 9.0]]);
/// assert_eq!(transpose3(transpose3(m)), m);
/// ```
pub fn transpose3(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    core::array::from_fn(|r| core::array::from_fn(|c| m[c][r]))
}

/// A unit quaternion `[x, y, z, w]` from a rotation matrix for column
/// vectors (the inverse of [`quat_to_mat3_f64`], up to sign), in f64, by the
/// usual four-case method on the largest of trace and diagonal.
///
/// ```
/// use animasm_testkit::error::quat_diff_up_to_sign;
/// use animasm_testkit::oracle::{mat3_to_quat_f64, normalize_f64, quat_to_mat3_f64};
/// // One quaternion per case: trace > 0, then x, y and z largest.
/// for q in [[0.1, 0.2, 0.3, 0.9], [0.9, 0.2, 0.3, 0.1], [0.2, 0.9, 0.3, 0.1], [0.2, 0.3, 0.9, -0.1]] {
///     let q = normalize_f64(q);
///     assert!(quat_diff_up_to_sign(mat3_to_quat_f64(quat_to_mat3_f64(q)), q) < 1e-15);
/// }
/// ```
pub fn mat3_to_quat_f64(m: [[f64; 3]; 3]) -> [f64; 4] {
    let tr = m[0][0] + m[1][1] + m[2][2];
    let q = if tr > 0.0 {
        let s = (tr + 1.0).sqrt() * 2.0;
        [(m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s]
    } else if m[0][0] > m[1][1] && m[0][0] > m[2][2] {
        let s = (1.0 + m[0][0] - m[1][1] - m[2][2]).sqrt() * 2.0;
        [0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s]
    } else if m[1][1] > m[2][2] {
        let s = (1.0 + m[1][1] - m[0][0] - m[2][2]).sqrt() * 2.0;
        [(m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s]
    } else {
        let s = (1.0 + m[2][2] - m[0][0] - m[1][1]).sqrt() * 2.0;
        [(m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s]
    };
    normalize_f64(q)
}

/// A unit quaternion `[x, y, z, w]` from a rotation matrix in the papers'
/// convention (row vectors, the rotation part of a `JointMat` as
/// `quats_to_mats` writes it and `mats_to_quats` reads it): the inverse of
/// [`quat_to_mat3_paper_f64`] up to sign, [`mat3_to_quat_f64`] of the
/// transpose.
///
/// ```
/// use animasm_testkit::error::quat_diff_up_to_sign;
/// use animasm_testkit::oracle::{mat3_paper_to_quat_f64, normalize_f64, quat_to_mat3_paper_f64};
/// let q = normalize_f64([0.1, -0.4, 0.2, 0.8]);
/// assert!(quat_diff_up_to_sign(mat3_paper_to_quat_f64(quat_to_mat3_paper_f64(q)), q) < 1e-15);
/// ```
pub fn mat3_paper_to_quat_f64(m: [[f64; 3]; 3]) -> [f64; 4] {
    mat3_to_quat_f64(transpose3(m))
}

/// A 3x4 affine matrix (row-major `[row * 4 + col]`, rotation in columns
/// 0..3, translation in column 3, column vectors) from rotation and
/// translation.
///
/// ```
/// use animasm_testkit::oracle::affine_from_f64;
/// let r = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]];
/// assert_eq!(affine_from_f64(r, [10.0, 11.0, 12.0]), [1.0, 2.0, 3.0, 10.0, 4.0, 5.0, 6.0, 11.0, 7.0, 8.0, 9.0, 12.0]);
/// ```
pub fn affine_from_f64(r: [[f64; 3]; 3], t: [f64; 3]) -> [f64; 12] {
    core::array::from_fn(|i| if i % 4 == 3 { t[i / 4] } else { r[i / 4][i % 4] })
}

/// The rotation (3x3) and translation of a 3x4 affine matrix: the inverse of
/// [`affine_from_f64`].
///
/// ```
/// use animasm_testkit::oracle::{affine_from_f64, affine_parts_f64};
/// let (r, t) = ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [10.0, 11.0, 12.0]);
/// assert_eq!(affine_parts_f64(&affine_from_f64(r, t)), (r, t));
/// ```
pub fn affine_parts_f64(m: &[f64; 12]) -> ([[f64; 3]; 3], [f64; 3]) {
    (core::array::from_fn(|r| core::array::from_fn(|c| m[r * 4 + c])), [m[3], m[7], m[11]])
}

/// `a * b` of two 3x4 affine matrices (the implicit last row is 0 0 0 1).
///
/// ```
/// use animasm_testkit::oracle::{affine_inverse_f64, affine_mul_f64, joint_mat_gltf_f64};
/// let a = joint_mat_gltf_f64([0.1, -0.5, 0.7, 0.5], [1.0, 2.0, 3.0]); // a unit quaternion
/// let id = affine_mul_f64(a, affine_inverse_f64(a));
/// let want = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
/// assert!((0..12).all(|i| (id[i] - want[i]).abs() < 1e-14));
/// // Column vectors: a * b applies b first (translate by x, then rotate).
/// let (h, x) = (0.5f64.sqrt(), joint_mat_gltf_f64([0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0]));
/// let ab = affine_mul_f64(joint_mat_gltf_f64([0.0, 0.0, h, h], [0.0; 3]), x);
/// assert!(ab[3].abs() < 1e-15 && (ab[7] - 1.0).abs() < 1e-15);
/// ```
pub fn affine_mul_f64(a: [f64; 12], b: [f64; 12]) -> [f64; 12] {
    core::array::from_fn(|i| {
        let (r, c) = (i / 4, i % 4);
        let s: f64 = (0..3).map(|k| a[r * 4 + k] * b[k * 4 + c]).sum();
        if c == 3 { s + a[r * 4 + 3] } else { s }
    })
}

/// Local to model space along a hierarchy, in f64: `model[i] =
/// model[parents[i]] * locals[i]`, a root (`parents[i] < 0`) keeping its
/// local matrix. The joints may come in any order (a parent after its child
/// is computed first); panics on a cycle or a parent out of range.
///
/// ```
/// use animasm_testkit::oracle::{affine_mul_f64, joint_mat_gltf_f64, local_to_model_f64};
/// let h = 0.5f64.sqrt();
/// let root = joint_mat_gltf_f64([0.0, 0.0, h, h], [1.0, 2.0, 3.0]);
/// let child = joint_mat_gltf_f64([0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0]);
/// let model = local_to_model_f64(&[root, child], &[-1, 0]);
/// assert_eq!(model, [root, affine_mul_f64(root, child)]);
/// // The child at (1, 0, 0) under the root sits at R (1, 0, 0) + (1, 2, 3) = (1, 3, 3).
/// assert!((model[1][3] - 1.0).abs() < 1e-15 && (model[1][7] - 3.0).abs() < 1e-15);
/// // The same hierarchy listed child first.
/// assert_eq!(local_to_model_f64(&[child, root], &[1, -1]), [model[1], model[0]]);
/// ```
pub fn local_to_model_f64(locals: &[[f64; 12]], parents: &[i32]) -> Vec<[f64; 12]> {
    let n = locals.len();
    let mut model: Vec<Option<[f64; 12]>> = vec![None; n];
    let mut up: Vec<usize> = Vec::new();
    for j in 0..n {
        // The joints from `j` up to the first one computed or a root.
        let mut k = j;
        while model[k].is_none() {
            up.push(k);
            assert!(up.len() <= n, "local_to_model_f64: joint {j} is on a cycle");
            match usize::try_from(parents[k]) {
                Err(_) => break,
                Ok(p) => {
                    assert!(p < n, "local_to_model_f64: joint {k} has parent {p} of {n} joints");
                    k = p;
                }
            }
        }
        while let Some(k) = up.pop() {
            model[k] = Some(match usize::try_from(parents[k]) {
                Err(_) => locals[k],
                Ok(p) => affine_mul_f64(model[p].expect("the parent is computed first"), locals[k]),
            });
        }
    }
    model.into_iter().map(|m| m.expect("every joint is computed")).collect()
}

/// Model to local space along a parents-first hierarchy, in f64, the inverse
/// of [`local_to_model_f64`]: `local[i] = model[parents[i]]^-1 * model[i]`
/// ([`affine_inverse_f64`]), a root (`parents[i] < 0`) keeping its matrix.
///
/// ```
/// use animasm_testkit::oracle::{joint_mat_gltf_f64, local_to_model_f64, model_to_local_f64};
/// let h = 0.5f64.sqrt();
/// let locals = [joint_mat_gltf_f64([0.0, 0.0, h, h], [1.0, 2.0, 3.0]), joint_mat_gltf_f64([h, 0.0, 0.0, h], [1.0, 0.0, 0.0])];
/// let back = model_to_local_f64(&local_to_model_f64(&locals, &[-1, 0]), &[-1, 0]);
/// assert_eq!(back[0], locals[0]);
/// assert!((0..12).all(|i| (back[1][i] - locals[1][i]).abs() < 1e-15));
/// ```
pub fn model_to_local_f64(models: &[[f64; 12]], parents: &[i32]) -> Vec<[f64; 12]> {
    models
        .iter()
        .enumerate()
        .map(|(i, m)| match parents[i] {
            p if p < 0 => *m,
            p => affine_mul_f64(affine_inverse_f64(models[p as usize]), *m),
        })
        .collect()
}

/// The inverse of a 3x4 affine matrix (general 3x3 part, by cofactors).
///
/// ```
/// use animasm_testkit::oracle::{affine_inverse_f64, affine_mul_f64};
/// // A general (sheared, scaled) affine matrix.
/// let a = [2.0, 0.5, 0.0, 1.0, 0.0, 1.0, 0.25, -2.0, 0.0, 0.0, 4.0, 3.0];
/// let id = affine_mul_f64(affine_inverse_f64(a), a);
/// let want = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
/// assert!((0..12).all(|i| (id[i] - want[i]).abs() < 1e-15));
/// ```
pub fn affine_inverse_f64(a: [f64; 12]) -> [f64; 12] {
    let m = |r: usize, c: usize| a[r * 4 + c];
    let cof = |r: usize, c: usize| {
        let (r0, r1) = ((r + 1) % 3, (r + 2) % 3);
        let (c0, c1) = ((c + 1) % 3, (c + 2) % 3);
        m(r0, c0) * m(r1, c1) - m(r0, c1) * m(r1, c0)
    };
    let det: f64 = (0..3).map(|c| m(0, c) * cof(0, c)).sum();
    // inv[r][c] = cof(c, r) / det
    let inv3: [[f64; 3]; 3] = core::array::from_fn(|r| core::array::from_fn(|c| cof(c, r) / det));
    let t: [f64; 3] = core::array::from_fn(|r| -(0..3).map(|k| inv3[r][k] * m(k, 3)).sum::<f64>());
    affine_from_f64(inv3, t)
}

/// What `transform_skeleton(mats, parents, range)` computes, in f64: for
/// each joint `i` of `range` in order, `m[i] = m[parents[i]] * m[i]` (a
/// parent inside the range already in model space, one before it as
/// given); every joint outside the range as given. On a parents-first list
/// with its roots outside the range, the joints of the range come out as
/// [`local_to_model_f64`] computes them.
///
/// ```
/// use animasm_testkit::oracle::{joint_mat_gltf_f64, local_to_model_f64, transform_skeleton_f64};
/// let h = 0.5f64.sqrt();
/// let m = [
///     joint_mat_gltf_f64([0.0, 0.0, h, h], [1.0, 2.0, 3.0]),
///     joint_mat_gltf_f64([h, 0.0, 0.0, h], [1.0, 0.0, 0.0]),
///     joint_mat_gltf_f64([0.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
/// ];
/// let parents = [-1, 0, 1];
/// assert_eq!(transform_skeleton_f64(&m, &parents, 1..=2), local_to_model_f64(&m, &parents));
/// // Joint 2 alone: multiplied by joint 1 as given.
/// assert_eq!(transform_skeleton_f64(&m, &parents, 2..=2)[..2], m[..2]);
/// ```
pub fn transform_skeleton_f64(mats: &[[f64; 12]], parents: &[i32], range: RangeInclusive<usize>) -> Vec<[f64; 12]> {
    let mut m = mats.to_vec();
    for i in range {
        m[i] = affine_mul_f64(m[parents[i] as usize], m[i]);
    }
    m
}

/// What `untransform_skeleton(mats, parents, range)` computes, in f64: for
/// each joint `i` of `range`, `inverse(m[parents[i]]) * m[i]` of the input
/// matrices (the routine goes last joint first, so every parent is read in
/// model space); every joint outside the range as given. Over every
/// non-root joint this is [`model_to_local_f64`].
///
/// ```
/// use animasm_testkit::oracle::{joint_mat_gltf_f64, local_to_model_f64, model_to_local_f64, untransform_skeleton_f64};
/// let h = 0.5f64.sqrt();
/// let locals = [
///     joint_mat_gltf_f64([0.0, 0.0, h, h], [1.0, 2.0, 3.0]),
///     joint_mat_gltf_f64([h, 0.0, 0.0, h], [1.0, 0.0, 0.0]),
///     joint_mat_gltf_f64([0.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
/// ];
/// let parents = [-1, 0, 1];
/// let model = local_to_model_f64(&locals, &parents);
/// assert_eq!(untransform_skeleton_f64(&model, &parents, 1..=2), model_to_local_f64(&model, &parents));
/// assert_eq!(untransform_skeleton_f64(&model, &parents, 2..=2)[..2], model[..2]);
/// ```
pub fn untransform_skeleton_f64(mats: &[[f64; 12]], parents: &[i32], range: RangeInclusive<usize>) -> Vec<[f64; 12]> {
    let mut m = mats.to_vec();
    for i in range {
        m[i] = affine_mul_f64(affine_inverse_f64(mats[parents[i] as usize]), mats[i]);
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// *From Quaternion to Matrix and Back*, section 3's `M` as printed
    /// (`M[0][1] = 2xy + 2wz`), every element: [`quat_to_mat3_paper_f64`]
    /// is it, and it is the transpose of the column-vector matrix.
    #[test]
    fn section_3_as_printed() {
        let mut rng = crate::inputs::Rng::new(4);
        for _ in 0..100 {
            let q = rng.unit_quat_f64();
            let [x, y, z, w] = q;
            let printed = [
                [1.0 - 2.0 * y * y - 2.0 * z * z, 2.0 * x * y + 2.0 * w * z, 2.0 * x * z - 2.0 * w * y],
                [2.0 * x * y - 2.0 * w * z, 1.0 - 2.0 * x * x - 2.0 * z * z, 2.0 * y * z + 2.0 * w * x],
                [2.0 * x * z + 2.0 * w * y, 2.0 * y * z - 2.0 * w * x, 1.0 - 2.0 * x * x - 2.0 * y * y],
            ];
            let (paper, transposed) = (quat_to_mat3_paper_f64(q), transpose3(quat_to_mat3_f64(q)));
            for r in 0..3 {
                for c in 0..3 {
                    assert!((printed[r][c] - paper[r][c]).abs() < 1e-15, "{q:?} [{r}][{c}]");
                    assert!((printed[r][c] - transposed[r][c]).abs() < 1e-15, "{q:?} [{r}][{c}]");
                }
            }
        }
    }
}
