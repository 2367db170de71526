//! The Intel AVX slerp (`slerp_quats_as_published`, `slerp_quats_corrected`)
//! with every `Impl`, and the SSE baseline, on arbitrary lengths, factors
//! and floats, in 32-byte-aligned storage. Checks: no crash or panic; every
//! `Impl` returns the same `Ok` or `Err`; on `Err` nothing written; on `Ok`
//! asm and intrinsics the same bits (NaN payloads aside).
#![no_main]

use animasm::{AlignedQuats, Impl, Quat};
use animasm_fuzz::{Gen, assert_same, assert_untouched, same_result};

type SafeFn = fn(Impl, &mut [Quat], &[Quat], &[Quat], f32) -> Result<(), animasm::Error>;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.len(40, 300);
    let quats = |g: &mut Gen, n: usize| -> Vec<Quat> { (0..n).map(|_| g.quat()).collect() };
    let from = AlignedQuats::from_slice(&quats(&mut g, n));
    let to_len = g.len_near(n);
    let to = AlignedQuats::from_slice(&quats(&mut g, to_len));
    let factor = g.lerp();
    let init = quats(&mut g, n);
    let fns: [(&str, SafeFn); 2] =
        [("as_published", animasm::slerp_quats_as_published), ("corrected", animasm::slerp_quats_corrected)];
    for (name, f) in fns {
        let runs: Vec<(Impl, Result<(), animasm::Error>, AlignedQuats)> = Impl::ALL
            .into_iter()
            .map(|imp| {
                let mut out = AlignedQuats::from_slice(&init);
                let r = f(imp, &mut out, &from, &to, factor);
                if r.is_err() {
                    assert_untouched(&init, &out, &format!("{name} {imp} after {r:?}"));
                }
                (imp, r, out)
            })
            .collect();
        let ran: Vec<_> = runs.iter().filter(|(_, r, _)| !matches!(r, Err(animasm::Error::Unsupported(_)))).collect();
        for (imp, r, _) in &ran {
            if !matches!(r, Err(animasm::Error::MissingCpuFeature { .. })) {
                let first = ran.iter().find(|(_, r, _)| !matches!(r, Err(animasm::Error::MissingCpuFeature { .. })));
                if let Some((i0, r0, _)) = first {
                    assert!(same_result(r, r0), "{name}: {imp} returned {r:?}, {i0} returned {r0:?}");
                }
            }
        }
        let ok = |imp: Impl| runs.iter().find(|(i, r, _)| *i == imp && r.is_ok()).map(|(_, _, o)| o);
        if let (Some(a), Some(i)) = (ok(Impl::Asm), ok(Impl::Intrinsics)) {
            assert_same(a, i, &format!("{name}: asm vs intrinsics"));
        }
    }
    let mut out = AlignedQuats::from_slice(&init);
    if animasm::slerp_quats_sse(&mut out, &from, &to, factor).is_err() {
        assert_untouched(&init, &out, "slerp_quats_sse after Err");
    }
});
