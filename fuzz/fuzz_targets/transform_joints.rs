//! `transform_joints` with every `Impl` on arbitrary lengths and floats. On
//! `Ok`, besides the common checks (`animasm_fuzz::run_every_impl`): the
//! scalar port agrees with the listing bit for bit once its `-0.0` in the
//! rotation columns become `+0.0` (NaN payloads aside).
//! Every form of `forms()` (the `Impl::Avx2` successor included where it
//! runs) against the scalar port within the tests' tolerance, on the
//! elements whose inputs are in its domain (`animasm_fuzz::tol`).
#![no_main]

use animasm::Impl;
use animasm_fuzz::{Gen, Runs, as_listing, assert_same, forms, get, run_every_impl, transform_joints_vs_scalar};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.length();
    let result = g.mats(n);
    let (n1, n2) = (g.len_near(n), g.len_near(n));
    let (joints1, joints2) = (g.mats(n1), g.mats(n2));
    let mut runs = Runs::new();
    let runs = run_every_impl(&mut runs, &forms(animasm::transform_joints::forms()), &result, |imp, out| {
        animasm::transform_joints(imp, out, &joints1, &joints2)
    });
    if let (Some(s), Some(i)) = (get(runs, Impl::Scalar), get(runs, Impl::Intrinsics)) {
        assert_same(&as_listing(&s.out), &i.out, format_args!("scalar (as the listing) vs intrinsics"));
    }
    transform_joints_vs_scalar(runs, &joints1, &joints2);
});
