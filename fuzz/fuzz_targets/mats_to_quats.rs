//! `mats_to_quats` with every `Impl` on arbitrary lengths and floats. On
//! `Ok`, besides the common checks (`animasm_fuzz::run_every_impl`): asm and
//! intrinsics copy the translation column bit for bit and set `t.w = +0.0`.
//! Every form of `forms()` (the `Impl::Avx2` successor included where it
//! runs) against the scalar port within the tests' tolerance, on the
//! elements whose inputs are in its domain (`animasm_fuzz::tol`).
#![no_main]

use animasm::Impl;
use animasm_fuzz::{Gen, Runs, forms, get, mats_to_quats_vs_scalar, run_every_impl};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.length();
    let quats = g.joints(n);
    let mats_len = g.len_near(n);
    let mats = g.mats(mats_len);
    let mut runs = Runs::new();
    let runs = run_every_impl(&mut runs, &forms(animasm::mats_to_quats::forms()), &quats, |imp, out| {
        animasm::mats_to_quats(imp, out, &mats)
    });
    mats_to_quats_vs_scalar(runs, &mats);
    for imp in [Impl::Asm, Impl::Intrinsics] {
        if let Some(r) = get(runs, imp) {
            for (j, (q, m)) in r.out.iter().zip(mats.iter()).enumerate() {
                let want = [m.mat[3], m.mat[7], m.mat[11], 0.0].map(f32::to_bits);
                assert_eq!(q.t.to_array().map(f32::to_bits), want, "{imp}: joint {j} translation");
            }
        }
    }
});
