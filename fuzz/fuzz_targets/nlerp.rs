//! zeux's `nlerp`, `fnlerp` and `onlerp` at every available width on
//! arbitrary lengths, parameters and floats. Checks: no crash or panic;
//! every available width returns the same `Ok` or `Err`; on `Err` nothing
//! written.
#![no_main]

use animasm::nlerp::Width;
use animasm::{Error, Quat};
use animasm_fuzz::{Gen, assert_untouched, same_result};

type StreamFn = fn(Width, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.len(40, 300);
    let l = g.quat();
    let r_len = g.len_near(n);
    let r: Vec<Quat> = (0..r_len).map(|_| g.quat()).collect();
    let t_len = g.len_near(n);
    let t: Vec<f32> = (0..t_len).map(|_| g.f32()).collect();
    let init: Vec<Quat> = (0..n).map(|_| g.quat()).collect();
    let fns: [(&str, StreamFn); 3] =
        [("nlerp", animasm::nlerp), ("fnlerp", animasm::fnlerp), ("onlerp", animasm::onlerp)];
    for (name, f) in fns {
        let mut first: Option<(Width, Result<(), Error>)> = None;
        for w in Width::ALL.into_iter().filter(|w| w.is_available()) {
            let mut out = init.clone();
            let res = f(w, &mut out, &l, &r, &t);
            if res.is_err() {
                assert_untouched(&init, &out, &format!("{name} {w} after {res:?}"));
            }
            match &first {
                None => first = Some((w, res)),
                Some((w0, r0)) => assert!(same_result(&res, r0), "{name}: {w} returned {res:?}, {w0} returned {r0:?}"),
            }
        }
    }
});
