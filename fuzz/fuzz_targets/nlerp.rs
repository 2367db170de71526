//! zeux's `nlerp`, `fnlerp` and `onlerp`, and `slerp_stream`, in every form
//! (`Impl::ALL` and `Impl::Auto`) on arbitrary lengths, parameters and
//! floats. Checks (`animasm_fuzz::run_every_impl`): no crash or panic; a
//! form not in `nlerp::forms()` is refused; every form that runs returns
//! the same `Ok` or `Err`, a non-finite `t[i]` giving `NonFiniteFactor` at
//! the first such `i`; on `Err` nothing written; `auto` writes what the
//! first form of `forms()` writes. On `Ok`, the endpoint rule with every
//! form: `t[i] <= 0` gives `l` and `t[i] >= 1` gives `r[i]`, bit for bit.
#![no_main]

use animasm::{Error, Impl, Quat};
use animasm_fuzz::{Gen, assert_same, run_every_impl};

type StreamFn = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.len(40, 300);
    let l = g.quat();
    let r_len = g.len_near(n);
    let r: Vec<Quat> = (0..r_len).map(|_| g.quat()).collect();
    let t_len = g.len_near(n);
    let t: Vec<f32> = (0..t_len).map(|_| g.lerp()).collect();
    let init: Vec<Quat> = (0..n).map(|_| g.quat()).collect();
    let fns: [(&str, StreamFn, Vec<Impl>); 4] = [
        ("nlerp", animasm::nlerp, animasm::nlerp::forms().collect()),
        ("fnlerp", animasm::fnlerp, animasm::nlerp::forms().collect()),
        ("onlerp", animasm::onlerp, animasm::nlerp::forms().collect()),
        ("slerp_stream", animasm::slerp_stream, vec![Impl::Scalar]),
    ];
    for (name, f, forms) in fns {
        let runs = run_every_impl(forms.into_iter(), &init, |imp, out| f(imp, out, &l, &r, &t));
        let first_bad = t.iter().position(|x| !x.is_finite());
        match (runs[0].result, first_bad) {
            (Err(Error::NonFiniteFactor { what, position, .. }), Some(i)) => {
                assert!(what == "t" && position == Some(i), "{name}: {what} at {position:?}, first non-finite t at {i}")
            }
            (Ok(()), Some(i)) => panic!("{name}: Ok with t[{i}] = {}", t[i]),
            _ => {}
        }
        for run in runs.iter().filter(|run| run.result.is_ok()) {
            for (i, &ti) in t.iter().enumerate() {
                let ctx = format!("{name} {}: element {i}, t = {ti:e}", run.imp);
                if ti <= 0.0 {
                    assert_same(&[l], &run.out[i..=i], &format!("{ctx}: l"));
                } else if ti >= 1.0 {
                    assert_same(&r[i..=i], &run.out[i..=i], &format!("{ctx}: r[i]"));
                }
            }
        }
    }
});
