//! f64 reference implementations (the "oracles") that the tests and the
//! report measure errors against. Dependency-free, `#[path]`-included by
//! `examples/report.rs`.

#![allow(dead_code)]

/// Exact spherical linear interpolation in f64 along the shorter arc, as the
/// paper's `Slerp` defines it (the blend quaternion is negated when the dot
/// product is negative), without the near-parallel fallback: for
/// `1 - |cos| < 1e-12` it lerps, which in f64 is exact to ~1e-12.
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

/// `from * (1 - t) + to * t` in f64.
pub fn vec4_lerp_f64(from: [f64; 4], to: [f64; 4], t: f64) -> [f64; 4] {
    core::array::from_fn(|i| from[i] * (1.0 - t) + to[i] * t)
}

/// Widens four f32 to f64.
pub fn f64x4(v: [f32; 4]) -> [f64; 4] {
    v.map(f64::from)
}

/// The largest absolute component difference between `a` (f32) and `b` (f64).
pub fn max_abs_diff(a: [f32; 4], b: [f64; 4]) -> f64 {
    (0..4).map(|i| (f64::from(a[i]) - b[i]).abs()).fold(0.0, f64::max)
}
