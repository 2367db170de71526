//! The f64 oracles of `animasm_testkit::oracle` checked against each other
//! and against first principles, so that the tests measuring the kernels
//! against them measure against something right.

mod common;

use common::error::*;
use common::inputs::Rng;
use common::oracle::*;

#[test]
fn slerp_oracle_keeps_unit_length_and_constant_speed() {
    let mut rng = Rng::new(1);
    for _ in 0..1000 {
        let (a, b) = (rng.unit_quat_f64(), rng.unit_quat_f64());
        let dot = |p: [f64; 4], q: [f64; 4]| (0..4).map(|i| p[i] * q[i]).sum::<f64>();
        let b_near = if dot(a, b) >= 0.0 { b } else { b.map(|v| -v) };
        let angle = dot(a, b_near).min(1.0).acos();
        for t in [0.0, 0.25, 0.5, 1.0] {
            let q = slerp_f64(a, b, t);
            assert!((dot(q, q) - 1.0).abs() < 1e-12);
            // Constant speed: the angle from `a` is t times the whole angle.
            assert!((dot(a, q).min(1.0).acos() - t * angle).abs() < 1e-6, "t {t}");
        }
        let l = lerp_f64(a, b, 0.3);
        assert!((dot(l, l) - 1.0).abs() < 1e-12);
    }
}

#[test]
fn quaternion_matrix_oracles_invert_each_other() {
    let mut rng = Rng::new(2);
    for _ in 0..1000 {
        let q = rng.unit_quat_f64();
        let m = quat_to_mat3_f64(q);
        // Orthonormal with determinant 1.
        for r in 0..3 {
            for c in 0..3 {
                let d: f64 = (0..3).map(|k| m[r][k] * m[c][k]).sum();
                assert!((d - f64::from(u8::from(r == c))).abs() < 1e-12);
            }
        }
        assert!(quat_diff_up_to_sign(mat3_to_quat_f64(m), q) < 1e-12);
        // Rotating (1, 0, 0) by q as q v q*: the first column of m.
        let [x, y, z, w] = q;
        let v = [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)];
        assert!((0..3).all(|r| (m[r][0] - v[r]).abs() < 1e-12));
        assert_eq!(transpose3(transpose3(m)), m);
    }
}

#[test]
fn affine_oracles() {
    let mut rng = Rng::new(3);
    let identity = affine_from_f64(quat_to_mat3_f64([0.0, 0.0, 0.0, 1.0]), [0.0; 3]);
    for _ in 0..1000 {
        let t = |rng: &mut Rng| [rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)];
        let mut r = quat_to_mat3_f64(rng.unit_quat_f64());
        r[0][1] += 0.3; // not orthonormal: a general affine matrix
        let a = affine_from_f64(r, t(&mut rng));
        let b = affine_from_f64(quat_to_mat3_f64(rng.unit_quat_f64()), t(&mut rng));
        let close = |x: [f64; 12], y: [f64; 12]| (0..12).all(|i| (x[i] - y[i]).abs() < 1e-9);
        assert!(close(affine_mul_f64(a, affine_inverse_f64(a)), identity));
        assert!(close(affine_mul_f64(affine_inverse_f64(a), a), identity));
        assert!(close(affine_mul_f64(a, identity), a));
        // (a b) applied to a point = a (b point).
        let p = [0.5, -1.0, 2.0];
        let apply = |m: [f64; 12], p: [f64; 3]| -> [f64; 3] {
            core::array::from_fn(|r| (0..3).map(|k| m[r * 4 + k] * p[k]).sum::<f64>() + m[r * 4 + 3])
        };
        let ab = apply(affine_mul_f64(a, b), p);
        let a_b = apply(a, apply(b, p));
        assert!((0..3).all(|i| (ab[i] - a_b[i]).abs() < 1e-9));
    }
}

/// `slerp_f64`'s documented rules: a dot product of `-0.0` keeps `to` (the
/// C's `cosom >= 0.0f`); near-identical quaternions take the linear blend;
/// the parent chain and its inverse invert each other; the papers'
/// convention is the transpose of glTF's.
#[test]
fn slerp_oracle_rules_and_chain_inverse() {
    let a = [0.0, 0.0, 0.0, 1.0];
    let b = [-1.0, -0.0, -0.0, -0.0]; // dot = -0.0
    let q = slerp_f64(a, b, 0.3);
    assert!(q[0] < -0.4, "-0.0 keeps `to`: {q:?}");
    let near = [0.0, 0.0, 1e-7, 1.0];
    let q = slerp_f64(a, near, 0.5);
    assert_eq!(q, [0.0, 0.0, 0.5e-7, 1.0], "the linear blend near identity");
    let mut rng = Rng::new(4);
    let n = 9;
    let locals: Vec<[f64; 12]> = (0..n).map(|_| common::inputs::rigid_mat_f64(&mut rng, 10.0)).collect();
    let parents = common::inputs::random_parents(4, n);
    let back = model_to_local_f64(&local_to_model_f64(&locals, &parents), &parents);
    for (x, y) in back.iter().zip(&locals) {
        assert!((0..12).all(|i| (x[i] - y[i]).abs() < 1e-12));
    }
    let q = rng.unit_quat_f64();
    let (p, g) = (joint_mat_paper_f64(q, [1.0, 2.0, 3.0]), joint_mat_gltf_f64(q, [1.0, 2.0, 3.0]));
    for r in 0..3 {
        for c in 0..3 {
            assert_eq!(p[r * 4 + c], g[c * 4 + r]);
        }
        assert_eq!(p[r * 4 + 3], g[r * 4 + 3]);
    }
}
