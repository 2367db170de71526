//! What the running CPU has, by the standard library's detection (for
//! `tests/dispatch.rs` and `tests/no_std.rs`, which includes this file alone),
//! and [`skipped`], the one way a test says what it did not run here.
#![allow(dead_code)] // not every test binary that includes `tests/common` calls it

/// Says on the test run's stderr that a test, or part of one, was skipped
/// here and why (`SKIPPED: <what>`): a form this CPU lacks, a check that
/// needs the release build, a target without the instruction set. Each
/// distinct line is printed once per test binary, however often a loop
/// meets the same skip.
///
/// The line goes straight to the process's stderr, not through `eprintln!`,
/// which the test harness captures and shows only for a failing test: a
/// skip is printed on every run, passing or not, so no form goes untested
/// silently (`cargo test` shows it among the `test ... ok` lines).
pub fn skipped(what: &str) {
    // The one copy, devkit's (its tests say their skips the same way).
    devkit::skipped(what);
}

/// Whether the running CPU has the features an instruction set needs, by
/// the standard library's detection.
#[cfg(feature = "std")]
pub fn cpu_has(features: &[&str]) -> bool {
    features.iter().all(|&feature| {
        #[cfg(target_arch = "x86_64")]
        {
            match feature {
                "avx" => std::is_x86_feature_detected!("avx"),
                "avx2" => std::is_x86_feature_detected!("avx2"),
                "fma" => std::is_x86_feature_detected!("fma"),
                "avx512f" => std::is_x86_feature_detected!("avx512f"),
                "avx512vl" => std::is_x86_feature_detected!("avx512vl"),
                "avx512dq" => std::is_x86_feature_detected!("avx512dq"),
                "avx512bw" => std::is_x86_feature_detected!("avx512bw"),
                other => panic!("unknown feature {other:?}"),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = feature;
            false
        }
    })
}
