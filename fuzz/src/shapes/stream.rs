//! `Shape::Stream`: one quaternion against a stream of quaternions, one
//! factor each (zeux's `nlerp`, `fnlerp` and `onlerp`, and
//! `slerp_stream`), in every form on arbitrary lengths, parameters and
//! floats.
//!
//! Checks ([`run_every_impl`]): no crash or panic; a form not in `forms()`
//! is refused; every form that runs returns the same `Ok` or `Err`, a
//! non-finite `t[i]` giving `NonFiniteFactor` at the first such `i`; on
//! `Err` nothing written; `auto` writes what the first form of `forms()`
//! writes. On `Ok`, the endpoint rule with every form: `t[i] <= 0` gives
//! `l` and `t[i] >= 1` gives `r[i]`, bit for bit. Every form against the
//! scalar form within [`TOL`], on unit `l` and `r[i]` whose dot product is
//! not within 1e-5 of zero (where the double cover's sign test may go
//! either way), for `t[i]` in `(0, 1)`. The published widths against each
//! other ([`widths`]).

use crate::*;
use animasm::Origin;
use animasm::roster::{FormInfo, Routine, Shape};
use animasm_testkit::error::abs_err;

/// Every form against the scalar form (the tests' `TOL_SCALAR`).
pub const TOL: f64 = 5e-7;

/// A form with fused multiply-adds against one without (each within
/// [`TOL`] of the scalar form).
pub const TOL_FMA: f64 = 2.0 * TOL;

/// Whether the form uses fused multiply-adds (its instruction set needs
/// FMA).
fn fused(f: &FormInfo) -> bool {
    f.isa.features().contains(&"fma")
}

/// Fuzzes the stream interpolator `r` on arguments from `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let n = g.length();
    let l = g.quat();
    let r_len = g.len_near(n);
    let rs = g.quats(r_len);
    let t_len = g.len_near(n);
    let t: Buf<f32> = Buf::from_fn(t_len, |_| g.lerp());
    let init = g.quats(n);
    with_family(r, |m, runs| {
        let Shape::Stream { safe, .. } = m.shape else { unreachable!("a variant of another shape") };
        let name = m.name;
        let runs = run_every_impl(runs, &Forms::of(m), &init, |imp, out| safe(imp, out, &l, &rs, &t));
        let first_bad = t.iter().position(|x| !x.is_finite());
        match (runs.result(), first_bad) {
            (Err(Error::NonFiniteFactor { what, position, .. }), Some(i)) => {
                assert!(what == "t" && position == Some(i), "{name}: {what} at {position:?}, first non-finite t at {i}")
            }
            (Ok(()), Some(i)) => panic!("{name}: Ok with t[{i}] = {}", t[i]),
            _ => {}
        }
        if runs.result().is_err() {
            return;
        }
        for run in runs.iter().filter(|run| run.result.is_ok()) {
            for (i, &ti) in t.iter().enumerate() {
                if ti <= 0.0 {
                    assert_same(&[l], &run.out[i..=i], format_args!("{name} {}: element {i}, t = {ti:e}: l", run.imp));
                } else if ti >= 1.0 {
                    assert_same(
                        &rs[i..=i],
                        &run.out[i..=i],
                        format_args!("{name} {}: element {i}, t = {ti:e}: r", run.imp),
                    );
                }
            }
        }
        let pair = |i: usize| (t[i] > 0.0 && t[i] < 1.0).then_some((l, rs[i]));
        quats_vs_scalar(runs, TOL, pair, format_args!("{name}"));
        widths(runs, name, l, &rs, pair);
    });
}

/// The published widths ([`Origin::Published`] forms) against each other:
/// those without fused multiply-adds run the same lane operations and agree
/// bit for bit (NaN payloads aside) on any input; one with them agrees with
/// each without within [`TOL_FMA`] (plus twice [`UNIT_SLACK`] times the
/// quaternions' [`unit_deviation`]s) where the scalar comparison applies.
pub fn widths(runs: &Runs<Quat>, name: &str, l: Quat, rs: &[Quat], pair: impl Fn(usize) -> Option<(Quat, Quat)>) {
    let published = |k: usize| {
        let f = runs.forms()[k];
        (f.origin == Origin::Published).then(|| get(runs, f.imp).map(|run| (f, run))).flatten()
    };
    let len = runs.forms().len();
    let domain = |i: usize| pair(i).is_some() && unit_quat(l) && unit_quat(rs[i]) && dot64(l, rs[i]).abs() >= 1e-5;
    for i in 0..len {
        for j in i + 1..len {
            let (Some((fa, a)), Some((fb, b))) = (published(i), published(j)) else { continue };
            match (fused(&fa), fused(&fb)) {
                (false, false) => assert_same(&a.out, &b.out, format_args!("{name}: {} vs {}", a.imp, b.imp)),
                (true, true) => {}
                _ => {
                    for k in (0..a.out.len()).filter(|&k| domain(k)) {
                        let bound = TOL_FMA + 2.0 * UNIT_SLACK * (unit_deviation(l) + unit_deviation(rs[k]));
                        for (c, (x, y)) in a.out[k].to_array().into_iter().zip(b.out[k].to_array()).enumerate() {
                            let d = abs_err(f64::from(x), f64::from(y));
                            assert!(
                                d <= bound,
                                "{name}: element {k} component {c}: {} {x:e} vs {} {y:e}",
                                a.imp,
                                b.imp
                            );
                        }
                    }
                }
            }
        }
    }
}
