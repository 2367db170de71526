//! The Intel AVX slerp (`slerp_quats_as_published`, `slerp_quats_corrected`,
//! whose `Impl::Sse2` form is the SSE baseline of Table 1) in every form on
//! arbitrary lengths, factors and floats, in 32-byte-aligned storage.
//! Checks (`animasm_fuzz::run_every_impl`): no crash or panic; a form not in
//! `forms()` is refused; every form that runs returns the same `Ok` or
//! `Err`; on `Err` nothing written; on `Ok` asm and intrinsics the same
//! bits (NaN payloads aside) and `auto` the bits of the first form; the
//! endpoint rule with every form (`factor <= 0` gives `from`, `factor >= 1`
//! gives `to`, bit for bit). Then the same arrays 16 bytes off a 32-byte
//! boundary: with 16 or more quaternions an explicit AVX form returns
//! `Misaligned` (nothing written), and `auto` still runs and writes what
//! the fastest form the arrays allow writes.
#![no_main]

use animasm::{AlignedQuats, Error, Impl, Quat};
use animasm_fuzz::{Gen, assert_same, assert_untouched, run_every_impl, same_result};

type SafeFn = fn(Impl, &mut [Quat], &[Quat], &[Quat], f32) -> Result<(), Error>;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.len(40, 300);
    let quats = |g: &mut Gen, n: usize| -> Vec<Quat> { (0..n).map(|_| g.quat()).collect() };
    // One quaternion more than needed: `[1..]` is 16 bytes off the boundary.
    let from_all = AlignedQuats::from_slice(&quats(&mut g, n + 1));
    let to_len = g.len_near(n);
    let to_all = AlignedQuats::from_slice(&quats(&mut g, to_len + 1));
    let factor = g.lerp();
    let init = quats(&mut g, n + 1);
    let fns: [(&str, SafeFn, Vec<Impl>); 2] = [
        ("as_published", animasm::slerp_quats_as_published, animasm::slerp_quats::forms_as_published().collect()),
        ("corrected", animasm::slerp_quats_corrected, animasm::slerp_quats::forms().collect()),
    ];
    let avx = |imp: Impl| imp == Impl::Asm || imp == Impl::Intrinsics;
    for (name, f, forms) in fns {
        // Aligned: every array starts at a 32-byte boundary. `run_every_impl`
        // hands out `Vec<Quat>` copies (16-byte aligned only): each call runs
        // on an `AlignedQuats` copy and copies the result back.
        let (from, to) = (&from_all[..n], &to_all[..to_len]);
        let runs = run_every_impl(forms.iter().copied(), &init[..n], |imp, out| {
            let mut aligned = AlignedQuats::from_slice(out);
            let r = f(imp, &mut aligned, from, to, factor);
            out.copy_from_slice(&aligned);
            r
        });
        for run in runs.iter().filter(|run| run.result.is_ok()) {
            let ctx = format!("{name} {}: factor {factor:e}", run.imp);
            if factor <= 0.0 {
                assert_same(from, &run.out, &format!("{ctx}: from"));
            } else if factor >= 1.0 {
                assert_same(to, &run.out, &format!("{ctx}: to"));
            }
        }
        // Misaligned: the same arrays one quaternion (16 bytes) further on.
        let (from, to) = (&from_all[1..], &to_all[1..]);
        let aligned_result = |imp: Impl| runs.iter().find(|run| run.imp == imp).map(|run| run.result);
        let mut outs: Vec<(Impl, Result<(), Error>, AlignedQuats)> = Vec::new();
        for imp in Impl::ALL.into_iter().chain([Impl::Auto]) {
            let mut out_all = AlignedQuats::from_slice(&init);
            let r = f(imp, &mut out_all[1..], from, to, factor);
            let ctx = format!("{name} {imp} misaligned, {n} quaternions");
            if r.is_err() {
                assert_untouched(&init, &out_all, &format!("{ctx}: after {r:?}"));
            }
            let before = aligned_result(imp).expect("every form ran");
            match r {
                Err(Error::Misaligned { needed, .. }) => {
                    assert!(n >= 16 && avx(imp) && before.is_ok() && needed == 32, "{ctx}: {r:?}, aligned {before:?}")
                }
                _ => assert!(same_result(&r, &before), "{ctx}: {r:?}, aligned {before:?}"),
            }
            outs.push((imp, r, out_all));
        }
        let picked = if n >= 16 { forms.iter().copied().find(|&i| !avx(i)) } else { forms.first().copied() };
        let ok = |imp: Impl| outs.iter().find(|(i, r, _)| *i == imp && r.is_ok()).map(|(_, _, o)| o);
        if let (Some(picked), Some(auto)) = (picked, ok(Impl::Auto))
            && let Some(want) = ok(picked)
        {
            assert_same(&want[..], &auto[..], &format!("{name} misaligned: auto vs {picked}"));
        }
    }
});
