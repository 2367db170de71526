//! The joint blends' successors are as fast on the inputs animation
//! produces as on random pairs: on the Fox's consecutive keys, a held pose
//! and near-identical poses, at 24, 100 and 1024 joints, no successor form
//! (`Origin::Successor`) of `slerp_joints` or `lerp_joints` takes more than
//! `devkit::workloads::MAX_RATIO` (1.2x) its time on random pairs,
//! measured in the same run, interleaved (`devkit::workloads`), so a busy
//! machine slows both sides alike.
//!
//! A subnormal intermediate costs a microcode assist per operation on x86
//! (the successors' slerp was 2-4x slower on a held pose until it floored
//! its polynomials' arguments); `tests/subnormals.rs` checks the cause
//! exactly, this test the effect. A timing can still be disturbed: a
//! (form, size) that exceeds the limit is measured again, twice, and fails
//! only if every measurement exceeds it. The test needs release code and
//! skips in a debug build and off x86_64 (aarch64 runs under an emulator
//! here), with a printed line.

mod common;

use animasm::Origin;
use common::cpu::skipped;
use devkit::workloads::{self, MAX_RATIO, SIZES};

#[test]
fn successors_are_as_fast_on_animation_inputs_as_on_random_pairs() {
    if cfg!(debug_assertions) {
        skipped("workloads: the speed ratios need a release build (cargo test --release)");
        return;
    }
    if !cfg!(target_arch = "x86_64") {
        // aarch64 runs under qemu in CI (an emulator's times say nothing
        // about a core's), wasm32 under Node on a shared runner.
        skipped(
            "workloads: the speed ratios are checked on x86_64 only (aarch64 is emulated here, wasm32 shares the host)",
        );
        return;
    }
    let mut failures = Vec::new();
    for (r, safe) in workloads::joint_blend_routines() {
        let forms: Vec<_> = r.forms().filter(|f| f.origin == Origin::Successor).map(|f| (f.imp, f.origin)).collect();
        for &n in &SIZES {
            let rounds = workloads::rounds_for(n, forms.len(), 150.0);
            let first = workloads::measure(r.name, safe, &forms, n, rounds);
            for m in first {
                let (w, ratio) = m.worst();
                if ratio <= MAX_RATIO {
                    continue;
                }
                // Again, twice, for this form alone: a disturbed run is not
                // a slow form.
                let again: Vec<f64> = (0..2)
                    .map(|_| workloads::measure(r.name, safe, &[(m.imp, m.origin)], n, rounds)[0].worst().1)
                    .collect();
                if again.iter().all(|&x| x > MAX_RATIO) {
                    failures.push(format!(
                        "{} {} at {n} joints: {ratio:.2}x on {} poses, then {:.2}x and {:.2}x (ticks per joint: {:?})",
                        r.name,
                        m.imp,
                        w.name(),
                        again[0],
                        again[1],
                        m.ticks
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "successors slower on animation's inputs than on random pairs:\n{}",
        failures.join("\n")
    );
}
