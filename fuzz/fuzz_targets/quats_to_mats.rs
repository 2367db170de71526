//! `quats_to_mats` with every `Impl` on arbitrary lengths and floats. On
//! `Ok`, besides the common checks (`animasm_fuzz::run_every_impl`): asm and
//! intrinsics copy the translations bit for bit, and where no product can
//! overflow, the scalar port agrees with them bit for bit off the diagonal.
//! Every form of `forms()` (the `Impl::Avx2` successor included where it
//! runs) against the scalar port within the tests' tolerance, on the
//! elements whose inputs are in its domain (`animasm_fuzz::tol`).
#![no_main]

use animasm::{Impl, JointMat};
use animasm_fuzz::{Gen, Runs, forms, get, quats_to_mats_vs_scalar, run_every_impl, same_bits};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut g = Gen::new(data);
    let n = g.length();
    let mats = g.mats(n);
    let quats_len = g.len_near(n);
    let quats = g.joints(quats_len);
    let mut runs = Runs::new();
    let runs = run_every_impl(&mut runs, &forms(animasm::quats_to_mats::forms()), &mats, |imp, out| {
        animasm::quats_to_mats(imp, out, &quats)
    });
    quats_to_mats_vs_scalar(runs, &quats);
    for imp in [Impl::Asm, Impl::Intrinsics] {
        if let Some(r) = get(runs, imp) {
            for (j, (m, q)) in r.out.iter().zip(quats.iter()).enumerate() {
                let column = [m.mat[3], m.mat[7], m.mat[11]].map(f32::to_bits);
                let t = q.t.to_array().map(f32::to_bits);
                assert_eq!(column, [t[0], t[1], t[2]], "{imp}: joint {j} translation");
            }
        }
    }
    if let (Some(s), Some(i)) = (get(runs, Impl::Scalar), get(runs, Impl::Intrinsics)) {
        let off_diagonal = |m: &JointMat| [1, 2, 4, 6, 8, 9].map(|e| m.mat[e]);
        for (j, q) in quats.iter().enumerate() {
            if q.q.to_array().iter().all(|v| v.abs() <= 1e18) {
                let (a, b) = (off_diagonal(&s.out[j]), off_diagonal(&i.out[j]));
                assert!(
                    a.iter().zip(&b).all(|(x, y)| same_bits(*x, *y)),
                    "joint {j}: scalar {a:?} vs intrinsics {b:?}"
                );
            }
        }
    }
});
