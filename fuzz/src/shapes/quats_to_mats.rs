//! `Shape::QuatsToMats`: joint quaternions to joint matrices.
//!
//! Inputs: any lengths and floats. On `Ok`, besides the common checks
//! ([`run_every_impl`]): the forms that reproduce the listing
//! ([`Origin::is_faithful`](animasm::Origin::is_faithful)) copy the
//! translations bit for bit, and where no product can overflow, the scalar
//! form agrees with them bit for bit off the diagonal. Every other form
//! against the scalar form within [`TOL`] ([`vs_scalar`]).

use crate::*;
use animasm::roster::{Routine, Shape};

/// The tolerance against the scalar form (the tests' `TOL_SCALAR`).
pub const TOL: f64 = 5e-7;

/// Fuzzes the conversion `r` on arguments from `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let n = g.length();
    let mats = g.mats(n);
    let quats_len = g.len_near(n);
    let quats = g.joints(quats_len);
    with_family(r, |m, runs| {
        let Shape::QuatsToMats { safe, .. } = m.shape else { unreachable!("a variant of another shape") };
        let runs = run_every_impl(runs, &Forms::of(m), &mats, |imp, out| safe(imp, out, &quats));
        vs_scalar(runs, &quats);
        for r in faithful_runs(runs) {
            for (j, (m, q)) in r.out.iter().zip(quats.iter()).enumerate() {
                let column = [m.mat[3], m.mat[7], m.mat[11]].map(f32::to_bits);
                let t = q.t.to_array().map(f32::to_bits);
                assert_eq!(column, [t[0], t[1], t[2]], "{}: joint {j} translation", r.imp);
            }
        }
        if let Some(s) = scalar_run(runs) {
            let off_diagonal = |m: &JointMat| [1, 2, 4, 6, 8, 9].map(|e| m.mat[e]);
            for l in faithful_runs(runs) {
                for (j, q) in quats.iter().enumerate() {
                    if q.q.to_array().iter().all(|v| v.abs() <= 1e18) {
                        let (a, b) = (off_diagonal(&s.out[j]), off_diagonal(&l.out[j]));
                        assert!(
                            a.iter().zip(&b).all(|(x, y)| same_bits(*x, *y)),
                            "joint {j}: {} {a:?} vs {} {b:?}",
                            s.imp,
                            l.imp
                        );
                    }
                }
            }
        }
    });
}

/// Every form against the scalar form on every joint with a unit
/// quaternion and a finite translation: rotation elements within [`TOL`],
/// translations within it relative to their magnitude (every form copies
/// them).
pub fn vs_scalar(runs: &Runs<JointMat>, quats: &[JointQuat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for (j, q) in quats.iter().enumerate() {
        if !unit_quat(q.q) || !q.t.to_array().iter().all(|v| v.is_finite()) {
            continue;
        }
        let w = &s.out[j];
        let bound = |e: usize| TOL * if e % 4 == 3 { f64::from(w.mat[e].abs()).max(1.0) } else { 1.0 };
        for r in others.clone() {
            assert_close(&r.out[j], w, bound, format_args!("{}: joint {j} (quat {q:?})", r.imp));
        }
    }
}
