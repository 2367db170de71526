//! `Shape::TransformJoints`: joint matrices times joint matrices.
//!
//! Inputs: any lengths and floats. On `Ok`, besides the common checks
//! ([`run_every_impl`]): the scalar form agrees with each form that
//! reproduces the listing ([`Origin::is_faithful`](animasm::Origin::is_faithful))
//! bit for bit once its `-0.0` in the rotation columns become `+0.0`
//! ([`as_listing`]; NaN payloads aside). Every other form against the
//! scalar form within [`TOL`] ([`vs_scalar`]).

use crate::*;
use animasm::roster::{Routine, Shape};

/// The tolerance against the scalar form (the tests' `TOL_SCALAR`), times
/// the larger of 1 and the sum of the two translations' magnitudes.
pub const TOL: f64 = 5e-6;

/// Fuzzes the product `r` on arguments from `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let n = g.length();
    let result = g.mats(n);
    let (n1, n2) = (g.len_near(n), g.len_near(n));
    let (joints1, joints2) = (g.mats(n1), g.mats(n2));
    with_family(r, |m, runs| {
        let Shape::TransformJoints { safe, .. } = m.shape else { unreachable!("a variant of another shape") };
        let runs = run_every_impl(runs, &Forms::of(m), &result, |imp, out| safe(imp, out, &joints1, &joints2));
        if let Some(s) = scalar_run(runs) {
            for l in faithful_runs(runs) {
                assert_same(&as_listing(&s.out), &l.out, format_args!("{} (as the listing) vs {}", s.imp, l.imp));
            }
        }
        vs_scalar(runs, &joints1, &joints2);
    });
}

/// Every form against the scalar form on every joint whose two matrices
/// are rigid, within [`TOL`] times the larger of 1 and the sum of the two
/// translations' magnitudes.
pub fn vs_scalar(runs: &Runs<JointMat>, a: &[JointMat], b: &[JointMat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for j in 0..s.out.len().min(a.len()).min(b.len()) {
        if !rigid(&a[j]) || !rigid(&b[j]) {
            continue;
        }
        let bound = TOL * (1.0 + translation_magnitude(&a[j]) + translation_magnitude(&b[j]));
        for r in others.clone() {
            assert_close(&r.out[j], &s.out[j], |_| bound, format_args!("{}: joint {j}", r.imp));
        }
    }
}
