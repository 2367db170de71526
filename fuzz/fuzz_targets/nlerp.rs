//! zeux's `nlerp`, `fnlerp` and `onlerp`, and `slerp_stream`, in every form
//! (`Impl::ALL` and `Impl::Auto`) on arbitrary lengths, parameters and
//! floats. Checks (`animasm_fuzz::run_every_impl`): no crash or panic; a
//! form not in `nlerp::forms()` is refused; every form that runs returns
//! the same `Ok` or `Err`, a non-finite `t[i]` giving `NonFiniteFactor` at
//! the first such `i`; on `Err` nothing written; `auto` writes what the
//! first form of `forms()` writes. On `Ok`, the endpoint rule with every
//! form: `t[i] <= 0` gives `l` and `t[i] >= 1` gives `r[i]`, bit for bit.
//! The widths against each other: `Sse2` and `Avx2NoFma` run the same lane
//! operations and agree bit for bit (NaN payloads aside) on any input;
//! `Avx2` (FMA) agrees with `Avx2NoFma` within rounding
//! (`animasm_fuzz::tol::NLERP_FMA`), and every width with the scalar
//! function within the tests' tolerance, on unit `l` and `r[i]` whose dot
//! product is not within 1e-5 of zero (where the double cover's sign test
//! may go either way), for `t[i]` in `(0, 1)`.
#![no_main]

use animasm::{Error, Impl, Quat};
use animasm_fuzz::{
    Buf, Forms, Gen, Runs, UNIT_SLACK, assert_same, dot64, forms, get, quats_vs_scalar, run_every_impl, tol,
    unit_deviation, unit_quat,
};

type StreamFn = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.length();
    let l = g.quat();
    let r_len = g.len_near(n);
    let r = g.quats(r_len);
    let t_len = g.len_near(n);
    let t: Buf<f32> = Buf::from_fn(t_len, |_| g.lerp());
    let init = g.quats(n);
    let widths = forms(animasm::nlerp::forms());
    let scalar_only = forms([Impl::Scalar].into_iter());
    let fns: [(&str, StreamFn, &Forms); 4] = [
        ("nlerp", animasm::nlerp, &widths),
        ("fnlerp", animasm::fnlerp, &widths),
        ("onlerp", animasm::onlerp, &widths),
        ("slerp_stream", animasm::slerp_stream, &scalar_only),
    ];
    let mut runs = Runs::new();
    for (name, f, forms) in fns {
        let runs = run_every_impl(&mut runs, forms, &init, |imp, out| f(imp, out, &l, &r, &t));
        let first_bad = t.iter().position(|x| !x.is_finite());
        match (runs[0].result, first_bad) {
            (Err(Error::NonFiniteFactor { what, position, .. }), Some(i)) => {
                assert!(what == "t" && position == Some(i), "{name}: {what} at {position:?}, first non-finite t at {i}")
            }
            (Ok(()), Some(i)) => panic!("{name}: Ok with t[{i}] = {}", t[i]),
            _ => {}
        }
        if runs[0].result.is_err() {
            continue;
        }
        for run in runs.iter().filter(|run| run.result.is_ok()) {
            for (i, &ti) in t.iter().enumerate() {
                if ti <= 0.0 {
                    assert_same(&[l], &run.out[i..=i], format_args!("{name} {}: element {i}, t = {ti:e}: l", run.imp));
                } else if ti >= 1.0 {
                    assert_same(
                        &r[i..=i],
                        &run.out[i..=i],
                        format_args!("{name} {}: element {i}, t = {ti:e}: r", run.imp),
                    );
                }
            }
        }
        let pair = |i: usize| (t[i] > 0.0 && t[i] < 1.0).then_some((l, r[i]));
        quats_vs_scalar(runs, tol::NLERP, pair, format_args!("{name}"));
        if let (Some(a), Some(b)) = (get(runs, Impl::Sse2), get(runs, Impl::Avx2NoFma)) {
            assert_same(&a.out, &b.out, format_args!("{name}: sse2 vs avx2-nofma"));
        }
        if let (Some(a), Some(b)) = (get(runs, Impl::Avx2NoFma), get(runs, Impl::Avx2)) {
            let domain =
                |i: usize| pair(i).is_some() && unit_quat(l) && unit_quat(r[i]) && dot64(l, r[i]).abs() >= 1e-5;
            for i in (0..n).filter(|&i| domain(i)) {
                let bound = tol::NLERP_FMA + 2.0 * UNIT_SLACK * (unit_deviation(l) + unit_deviation(r[i]));
                for (c, (x, y)) in a.out[i].to_array().into_iter().zip(b.out[i].to_array()).enumerate() {
                    let d = animasm_testkit::error::abs_err(f64::from(x), f64::from(y));
                    assert!(d <= bound, "{name}: element {i} component {c}: avx2-nofma {x:e} vs avx2 {y:e}");
                }
            }
        }
    }
});
