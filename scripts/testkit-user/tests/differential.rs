//! What a user of animasm-testkit writes, with the testkit as the only
//! dependency: the one-line check on a correct slerp and on three broken
//! ones, approx on animasm's types, the Fox data and the proptest
//! strategies, all through the testkit's re-exports.

use animasm_testkit::animasm::{JointMat, JointQuat, Quat, Vec4};
use animasm_testkit::approx::{assert_relative_eq, assert_ulps_eq};
use animasm_testkit::check::Check;

fn dot(a: [f32; 4], b: [f32; 4]) -> f32 {
    (0..4).map(|i| a[i] * b[i]).sum()
}

/// The textbook weights, `w = acos(d)`.
fn weights(d: f32, t: f32) -> (f32, f32) {
    let w = d.acos();
    (((1.0 - t) * w).sin() / w.sin(), (t * w).sin() / w.sin())
}

fn blend(a: [f32; 4], b: [f32; 4], (wa, wb): (f32, f32)) -> [f32; 4] {
    core::array::from_fn(|i| wa * a[i] + wb * b[i])
}

fn check(name: &str, f: fn([f32; 4], [f32; 4], f32) -> [f32; 4]) {
    Check::slerp(name)
        .run_each(|a: Quat, b: Quat, t| Quat::from_array(f(a.to_array(), b.to_array(), t)))
        .assert_within(2e-6);
}

#[test]
fn a_correct_slerp_passes() {
    check("textbook slerp", testkit_user::slerp);
}

#[test]
#[should_panic(expected = "beyond the limits")]
fn a_slerp_without_the_shortest_arc_fails() {
    check("no flip", |a, b, t| {
        let d = dot(a, b);
        if d > 0.9995 {
            return testkit_user::slerp(a, b, t);
        }
        blend(a, b, weights(d, t))
    });
}

#[test]
#[should_panic(expected = "beyond the limits")]
fn a_slerp_with_a_coarse_threshold_fails() {
    check("threshold 0.95", |a, b, t| {
        let (mut b, mut d) = (b, dot(a, b));
        if d < 0.0 {
            (b, d) = (b.map(|v| -v), -d);
        }
        let r = if d > 0.95 { blend(a, b, (1.0 - t, t)) } else { blend(a, b, weights(d, t)) };
        let n = dot(r, r).sqrt();
        r.map(|v| v / n)
    });
}

#[test]
#[should_panic(expected = "length error")]
fn a_slerp_whose_fallback_is_not_renormalised_fails() {
    check("unnormalised fallback", |a, b, t| {
        let (mut b, mut d) = (b, dot(a, b));
        if d < 0.0 {
            (b, d) = (b.map(|v| -v), -d);
        }
        if d > 0.9995 { blend(a, b, (1.0 - t, t)) } else { blend(a, b, weights(d, t)) }
    });
}

#[test]
fn approx_works_on_the_four_types() {
    let q = Quat::new(0.0, 0.0, 0.6, 0.8);
    let r = Quat::new(0.0, 0.0, 0.6, f32::from_bits(0.8f32.to_bits() + 2));
    assert_ulps_eq!(q, r);
    assert_relative_eq!(q, r);
    let v = Vec4::new(1.0, 2.0, 3.0, 0.0);
    assert_relative_eq!(v, Vec4::new(1.0, 2.0, 3.000001, 0.0), max_relative = 1e-6);
    assert_ulps_eq!(JointQuat::new(q, v), JointQuat::new(r, v));
    let mut m = JointMat::IDENTITY;
    m.mat[3] = 100.0;
    let mut n = m;
    n.mat[3] = 100.00001;
    assert_relative_eq!(m, n, max_relative = 1e-6);
    assert_ulps_eq!(m, m);
}

#[test]
fn the_fox_data_is_in_the_crate() {
    let pairs = animasm_testkit::fox::consecutive_key_pairs();
    assert_eq!(pairs.len(), 2460);
    assert_eq!(animasm_testkit::fox::parents().len(), 24);
}

#[test]
fn the_strategies_through_the_reexport() {
    use animasm_testkit::proptest::prelude::*;
    use animasm_testkit::proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new(Config::with_cases(64));
    runner
        .run(&animasm_testkit::strategies::unit_quat(), |q| {
            let n: f32 = q.to_array().iter().map(|v| v * v).sum();
            prop_assert!((n - 1.0).abs() < 1e-6);
            Ok(())
        })
        .unwrap();
}
