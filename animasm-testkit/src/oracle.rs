//! The f64 references (the "oracles"), one per operation, that the tests,
//! the report and the pose pipeline measure errors against. Plain f64
//! arithmetic, no kernel of the crate.
//!
//! | operation | oracle |
//! |---|---|
//! | slerp along the shorter arc | [`slerp_f64`] |
//! | lerp + renormalisation along the shorter arc | [`lerp_f64`] |
//! | zeux's nlerp, fnlerp and onlerp | [`nlerp_f64`], [`fnlerp_f64`], [`onlerp_f64`] |
//! | 4-vector lerp (translations) | [`vec4_lerp_f64`] |
//! | quaternion to rotation, column vectors (glTF's convention) | [`quat_to_mat3_f64`], [`joint_mat_gltf_f64`] |
//! | quaternion to rotation, the papers' convention (row vectors) | [`quat_to_mat3_paper_f64`], [`joint_mat_paper_f64`] |
//! | rotation to quaternion | [`mat3_to_quat_f64`] |
//! | 3x4 affine product, inverse | [`affine_mul_f64`], [`affine_inverse_f64`] |
//! | parent chain (local to model) and its inverse | [`local_to_model_f64`], [`model_to_local_f64`] |
//!
//!
//! The error measures to compare a result with them are in [`crate::error`].

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
pub fn lerp_f64(from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
    let cosom: f64 = (0..4).map(|i| from[i] * to[i]).sum();
    let s1 = if cosom >= 0.0 { t } else { -t };
    let r: [f64; 4] = core::array::from_fn(|i| (1.0 - t) * from[i] + s1 * to[i]);
    let n = r.iter().map(|v| v * v).sum::<f64>().sqrt();
    r.map(|v| v / n)
}

/// zeux's `nlerp` (*Approximating slerp*, 2015) in f64: the normalised
/// linear blend `l (1 - t) + r t'` with `t' = t` where the f64 dot product
/// is positive and `-t` otherwise (note `> 0`: at a dot product of exactly
/// zero `r` is negated, where [`lerp_f64`] keeps it).
pub fn nlerp_f64(l: [f64; 4], r: [f64; 4], t: f64) -> [f64; 4] {
    nlerp_family_f64(l, r, t, |_, t| t)
}

/// zeux's `fnlerp` in f64: [`nlerp_f64`] with `t` corrected by the
/// article's `k(d) = K0 + d (K1 + d K2)` (`animasm::consts::NLERP_FNLERP_K`,
/// the f32 coefficients as the kernels store them), `d = |l·r|`. This is the
/// approximation alone, without rounding; its distance from [`slerp_f64`]
/// is the approximation error the article quotes.
pub fn fnlerp_f64(l: [f64; 4], r: [f64; 4], t: f64) -> [f64; 4] {
    use animasm::consts::NLERP_FNLERP_K as K;
    nlerp_family_f64(l, r, t, |d, t| {
        let k = f64::from(K[0]) + d * (f64::from(K[1]) + d * f64::from(K[2]));
        t + t * (t - 0.5) * (t - 1.0) * k
    })
}

/// zeux's `onlerp` in f64: [`nlerp_f64`] with `t` corrected by *Optimizing
/// slerp*'s `k(d, t) = A(d) (t - 1/2)^2 + B(d)`
/// (`animasm::consts::NLERP_ONLERP_A`/`_B`, as stored in f32).
pub fn onlerp_f64(l: [f64; 4], r: [f64; 4], t: f64) -> [f64; 4] {
    use animasm::consts::{NLERP_ONLERP_A as A, NLERP_ONLERP_B as B};
    let c = f64::from;
    nlerp_family_f64(l, r, t, |d, t| {
        let a = c(A[0]) + d * (c(A[1]) + d * (c(A[2]) - d * c(A[3])));
        let b = c(B[0]) + d * (c(B[1]) + d * c(B[2]));
        let k = a * (t - 0.5) * (t - 0.5) + b;
        t + t * (t - 0.5) * (t - 1.0) * k
    })
}

/// The nlerp family with `ot(d, t)` the corrected factor.
fn nlerp_family_f64(l: [f64; 4], r: [f64; 4], t: f64, ot: impl Fn(f64, f64) -> f64) -> [f64; 4] {
    let ca: f64 = (0..4).map(|i| l[i] * r[i]).sum();
    let ot = ot(ca.abs(), t);
    let rt = if ca > 0.0 { ot } else { -ot };
    let q: [f64; 4] = core::array::from_fn(|i| l[i] * (1.0 - ot) + r[i] * rt);
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// `from * (1 - t) + to * t` in f64.
pub fn vec4_lerp_f64(from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
    core::array::from_fn(|i| from[i] * (1.0 - t) + to[i] * t)
}

/// Widens four f32 to f64.
pub fn f64x4(v: [f32; 4]) -> [f64; 4] {
    v.map(f64::from)
}

/// The standard rotation matrix of a unit quaternion `[x, y, z, w]` for
/// column vectors (`v' = R v`), row-major, in f64: `R[0][1] = 2(xy - wz)`.
///
/// Note: *From Quaternion to Matrix and Back* (section 3) writes its `M` as
/// the transpose of this (`M[0][1] = 2xy + 2wz`), the convention of row
/// vectors; compare with [`transpose3`] where a routine follows it.
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
pub fn quat_to_mat3_paper_f64(q: [f64; 4]) -> [[f64; 3]; 3] {
    transpose3(quat_to_mat3_f64(q))
}

/// The 3x4 joint matrix (row-major `[row * 4 + col]`, translation in column
/// 3) of rotation `q` and translation `t` as the papers' `JointQuat` to
/// `JointMat` conversion defines it ([`quat_to_mat3_paper_f64`]).
pub fn joint_mat_paper_f64(q: [f64; 4], t: [f64; 3]) -> [f64; 12] {
    affine_from_f64(quat_to_mat3_paper_f64(q), t)
}

/// The 3x4 joint matrix of rotation `q` and translation `t` in glTF's
/// convention (column vectors, [`quat_to_mat3_f64`]).
pub fn joint_mat_gltf_f64(q: [f64; 4], t: [f64; 3]) -> [f64; 12] {
    affine_from_f64(quat_to_mat3_f64(q), t)
}

/// The transpose of a 3x3 matrix.
pub fn transpose3(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    core::array::from_fn(|r| core::array::from_fn(|c| m[c][r]))
}

/// A unit quaternion `[x, y, z, w]` from a rotation matrix for column
/// vectors (the inverse of [`quat_to_mat3_f64`], up to sign), in f64, by the
/// usual four-case method on the largest of trace and diagonal.
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
    let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    q.map(|v| v / n)
}

/// A 3x4 affine matrix (row-major `[row * 4 + col]`, rotation in columns
/// 0..3, translation in column 3, column vectors) from rotation and
/// translation.
pub fn affine_from_f64(r: [[f64; 3]; 3], t: [f64; 3]) -> [f64; 12] {
    core::array::from_fn(|i| if i % 4 == 3 { t[i / 4] } else { r[i / 4][i % 4] })
}

/// `a * b` of two 3x4 affine matrices (the implicit last row is 0 0 0 1).
pub fn affine_mul_f64(a: [f64; 12], b: [f64; 12]) -> [f64; 12] {
    core::array::from_fn(|i| {
        let (r, c) = (i / 4, i % 4);
        let s: f64 = (0..3).map(|k| a[r * 4 + k] * b[k * 4 + c]).sum();
        if c == 3 { s + a[r * 4 + 3] } else { s }
    })
}

/// Local to model space along a parents-first hierarchy, in f64:
/// `model[i] = model[parents[i]] * locals[i]`, a root (`parents[i] < 0`)
/// keeping its local matrix. Panics on a parent that is not before its joint.
pub fn local_to_model_f64(locals: &[[f64; 12]], parents: &[i32]) -> Vec<[f64; 12]> {
    let mut model: Vec<[f64; 12]> = Vec::with_capacity(locals.len());
    for (i, local) in locals.iter().enumerate() {
        let p = parents[i];
        model.push(if p < 0 {
            *local
        } else {
            assert!((p as usize) < i, "parents first: joint {i} has parent {p}");
            affine_mul_f64(model[p as usize], *local)
        });
    }
    model
}

/// Model to local space along a parents-first hierarchy, in f64, the inverse
/// of [`local_to_model_f64`]: `local[i] = model[parents[i]]^-1 * model[i]`
/// ([`affine_inverse_f64`]), a root (`parents[i] < 0`) keeping its matrix.
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
