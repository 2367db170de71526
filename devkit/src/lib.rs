//! The development kit of animasm (not published): what measures and
//! shows the kernels. The report (`devkit/examples/report/`), the pose example,
//! the benches and the tests use it; what decides correctness (oracles,
//! inputs, error measures) is in `animasm-testkit`.
//!
//! - [`peers`]: the glam peers, the same work per element;
//! - [`uv`]: the ultraviolet 0.10 peers (8-wide SoA types), with and
//!   without the AoS conversion;
//! - [`floors`]: the routines' memory floors (and the skeletons'
//!   dependency-chain floors);
//! - [`setup`]: the benches' and the report's inputs (also at any size, and
//!   the Fox's skeleton);
//! - [`pipeline`]: the pose pipeline (glTF skin and animation through the
//!   kernels, against the f64 reference and glam);
//! - [`crowd`]: a crowd of Foxes, each clip resampled once, one
//!   `slerp_pose` per character per frame (the crowd example and bench);
//! - [`mca`]: llvm-mca's estimates of the listings and the successors
//!   (x86_64);
//! - [`mca_aarch64`]: llvm-mca's estimates of the aarch64 forms' inner
//!   loops (the scalar ports, the portable and NEON successors), on an
//!   aarch64 build or, from any host, through qemu;
//! - [`workloads`]: the joint blends on random pairs, the Fox's keys, held
//!   and near-identical poses, and the ratio check CI runs;
//! - [`whole_pose`]: the whole pose in one call (`slerp_pose`,
//!   `lerp_pose`) against the same form's routines chained, and its floor;
//! - [`timer`]: the one timer (fenced TSC reads) and the medians;
//! - [`criterion_tsc`]: the same timer as a criterion measurement;
//! - [`plots`]: the report's SVG plots;
//! - [`listing`], [`objdump`], [`paths`], [`site_input`]: the listing
//!   parser, objdump's tables, the workspace's paths and the reading room's
//!   input, re-exported from `asmkit` (which the reading room depends on
//!   instead of this crate);
//! - [`skipped`]: the `SKIPPED` line of a test that cannot run here.

pub mod criterion_tsc;
pub mod crowd;
pub mod floors;
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub mod mca;
#[cfg(not(miri))]
pub mod mca_aarch64;
// What `mca` (x86_64) and `mca_aarch64`'s aarch64 half share: unused on any
// other target (wasm32 for its test run), which has no listing to estimate.
#[cfg(not(miri))]
#[cfg_attr(not(any(target_arch = "x86_64", target_arch = "aarch64")), allow(dead_code))]
mod mca_shared;
pub mod measure;
pub mod peers;
pub mod pipeline;
pub mod plots;
pub mod setup;
pub mod timer;
pub mod uv;
pub mod whole_pose;
pub mod workloads;

pub use asmkit::{listing, objdump, paths, site_input};

/// Exits with a message (code 2) when `animasm` was not built as a user's
/// build is, so that `what` (the report, a bench) would time another
/// `select` than a user's or leave forms out:
///
/// - with its test hooks (`animasm::isa::TEST_HOOKS`). That happens when
///   the command selects the root crate too (its dev-dependency on itself
///   turns the hooks on for its tests): run it as `-p devkit`;
/// - on x86_64, without run-time CPU detection (animasm's `std` feature,
///   which devkit's default `std` feature turns on): every form beyond
///   SSE2 would print as `n/a`. That happens when devkit is built with
///   `--no-default-features`.
pub fn refuse_test_hooks(what: &str) {
    if animasm::isa::TEST_HOOKS {
        eprintln!(
            "{what}: animasm was built with its test hooks (the root crate's tests turn them on), so the timings would not be a user's: run it with `-p devkit` (cargo run --release -p devkit --example report, cargo bench -p devkit)"
        );
        std::process::exit(2);
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") && !animasm::Isa::Avx.detected() {
        eprintln!(
            "{what}: animasm was built without its `std` feature, so it detects no CPU feature at run time and every form beyond SSE2 would be left out: build devkit with its default features"
        );
        std::process::exit(2);
    }
}

/// Says on the test run's stderr that a test, or part of one, was skipped
/// here and why (`SKIPPED: <what>`), once per distinct line per test
/// binary: the one implementation, which the root crate's tests call
/// through `tests/common/cpu.rs` (so that no check goes untested
/// silently). The line goes straight to the process's stderr, which the
/// test harness does not capture; one write, so that lines of tests
/// running side by side do not interleave.
pub fn skipped(what: &str) {
    use std::io::Write;
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if said.iter().any(|s| s == what) {
        return;
    }
    said.push(what.to_owned());
    let _ = std::io::stderr().write_all(format!("\nSKIPPED: {what}\n").as_bytes());
}
