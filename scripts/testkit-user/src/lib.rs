//! A user's own quaternion code, tested against animasm-testkit.
//!
//! The doc-style test, as a user writes it from the testkit's docs:
//!
//! ```
//! use animasm_testkit::animasm::Quat;
//! use animasm_testkit::check::Check;
//!
//! let report = Check::slerp("testkit-user slerp")
//!     .run_each(|a: Quat, b: Quat, t| Quat::from_array(testkit_user::slerp(a.to_array(), b.to_array(), t)));
//! report.assert_within(2e-6);
//! ```

/// A textbook f32 slerp: the shorter arc, a renormalised lerp above a dot
/// product of 0.9995, the `sin` weights below.
pub fn slerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    let mut d: f32 = (0..4).map(|i| a[i] * b[i]).sum();
    let mut b = b;
    if d < 0.0 {
        (d, b) = (-d, b.map(|v| -v));
    }
    let (wa, wb) = if d > 0.9995 {
        (1.0 - t, t)
    } else {
        let w = d.acos();
        (((1.0 - t) * w).sin() / w.sin(), (t * w).sin() / w.sin())
    };
    let r: [f32; 4] = core::array::from_fn(|i| wa * a[i] + wb * b[i]);
    let n = r.iter().map(|v| v * v).sum::<f32>().sqrt();
    r.map(|v| v / n)
}
