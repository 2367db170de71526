//! `Shape::MatsToQuats`: joint matrices to joint quaternions.
//!
//! Inputs: any lengths and floats. On `Ok`, besides the common checks
//! ([`run_every_impl`]): the forms that reproduce the listing
//! ([`Origin::is_faithful`](animasm::Origin::is_faithful)) copy the
//! translation column bit for bit and set `t.w = +0.0`. Every other form
//! against the scalar form within [`TOL`] ([`vs_scalar`]).

use crate::*;
use animasm::roster::{Routine, Shape};
use animasm_testkit::error::{abs_err, quat_diff_up_to_sign};
use animasm_testkit::oracle::f64x4;

/// The tolerance against the scalar form, up to sign (the tests'
/// `TOL_SCALAR`: the C port's `ReciprocalSqrt` is good to 1.8e-3).
pub const TOL: f64 = 1.81e-3;

/// Fuzzes the conversion `r` on arguments from `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let n = g.length();
    let quats = g.joints(n);
    let mats_len = g.len_near(n);
    let mats = g.mats(mats_len);
    with_family(r, |m, runs| {
        let Shape::MatsToQuats { safe, .. } = m.shape else { unreachable!("a variant of another shape") };
        let runs = run_every_impl(runs, &Forms::of(m), &quats, |imp, out| safe(imp, out, &mats));
        vs_scalar(runs, &mats);
        for r in faithful_runs(runs) {
            for (j, (q, m)) in r.out.iter().zip(mats.iter()).enumerate() {
                let want = [m.mat[3], m.mat[7], m.mat[11], 0.0].map(f32::to_bits);
                assert_eq!(q.t.to_array().map(f32::to_bits), want, "{}: joint {j} translation", r.imp);
            }
        }
    });
}

/// Every form against the scalar form on every rigid matrix: the
/// quaternion within [`TOL`] up to sign, the translation within it
/// relative to its magnitude, `t.w` the same.
pub fn vs_scalar(runs: &Runs<JointQuat>, mats: &[JointMat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for (j, m) in mats.iter().enumerate() {
        if !rigid(m) {
            continue;
        }
        let want = &s.out[j];
        for r in others.clone() {
            let got = &r.out[j];
            let dq = quat_diff_up_to_sign(f64x4(got.q.to_array()), f64x4(want.q.to_array()));
            assert!(
                dq <= TOL,
                "{}: joint {j}: quaternion {:?} vs the scalar form's {:?} up to sign: {dq:e} (matrix {:?})",
                r.imp,
                got.q,
                want.q,
                m.mat
            );
            for k in 4..8 {
                let bound = TOL * f64::from(want.float(k).abs()).max(1.0);
                assert!(
                    abs_err(f64::from(got.float(k)), f64::from(want.float(k))) <= bound,
                    "{}: joint {j}: translation {k}: {:e} vs {:e}",
                    r.imp,
                    got.float(k),
                    want.float(k)
                );
            }
        }
    }
}
