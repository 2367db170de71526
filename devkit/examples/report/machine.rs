//! The header: the machine (CPU, SIMD features, the TSC rate) and the
//! method.

use crate::print::{heading, item, para};
use crate::results::Results;
use crate::table::WARMUP;
use crate::table::runs;
use devkit::setup::JOINTS;
use devkit::timer;

/// The CPU model from `/proc/cpuinfo`, where there is one.
pub(crate) fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown (no /proc/cpuinfo)".into())
}

/// The target's SIMD features enabled at compile time.
pub(crate) fn target_features() -> String {
    let features = [
        ("sse", cfg!(target_feature = "sse")),
        ("sse2", cfg!(target_feature = "sse2")),
        ("sse3", cfg!(target_feature = "sse3")),
        ("sse4.1", cfg!(target_feature = "sse4.1")),
        ("avx", cfg!(target_feature = "avx")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("fma", cfg!(target_feature = "fma")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("neon", cfg!(target_feature = "neon")),
    ];
    let on: Vec<&str> = features.iter().filter(|(_, on)| *on).map(|(name, _)| *name).collect();
    if on.is_empty() { "none".into() } else { on.join(" ") }
}

/// The SIMD features this CPU has, detected at run time.
#[cfg(target_arch = "x86_64")]
pub(crate) fn runtime_features() -> String {
    let features = [
        ("sse2", is_x86_feature_detected!("sse2")),
        ("sse3", is_x86_feature_detected!("sse3")),
        ("ssse3", is_x86_feature_detected!("ssse3")),
        ("sse4.1", is_x86_feature_detected!("sse4.1")),
        ("sse4.2", is_x86_feature_detected!("sse4.2")),
        ("avx", is_x86_feature_detected!("avx")),
        ("avx2", is_x86_feature_detected!("avx2")),
        ("fma", is_x86_feature_detected!("fma")),
        ("avx512f", is_x86_feature_detected!("avx512f")),
    ];
    let pick = |want: bool| features.iter().filter(|(_, on)| *on == want).map(|(n, _)| *n).collect::<Vec<_>>();
    let (on, off) = (pick(true), pick(false));
    let off = if off.is_empty() { String::new() } else { format!(" (absent: {})", off.join(" ")) };
    format!("{}{off}", on.join(" "))
}

/// The SIMD features this CPU has, detected at run time.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) fn runtime_features() -> String {
    "not detected (the report detects x86_64 features only)".into()
}

/// Prints the header: the machine and the method.
pub(crate) fn print_header(res: &mut Results) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let extra = if args.is_empty() { String::new() } else { format!(" -- {}", args.join(" ")) };
    outln!("# animasm report\n");
    para(
        "Every routine of the five texts timed on this CPU beside the paper's published figures (labelled \
         \"published\"), the accuracy beside the figures the papers state, llvm-mca's static estimates, the \
         errata index, the pose pipeline on data/Fox.glb and the plots. Every other number is measured in this run, \
         on this machine (the CPU named below): the figures are this machine's, and another CPU gives others.",
    );
    heading("The machine and the method");
    item(&format!("command: `cargo run --release -p devkit --example report{extra}`"));
    item(&format!("CPU: {}", cpu_model()));
    item(&format!("SIMD features detected at run time: {}", runtime_features()));
    item(&format!(
        "target: {}-{}, compile-time SIMD target features: {} (no `-C target-cpu=native`; the AVX kernels are \
         chosen at run time)",
        std::env::consts::ARCH,
        std::env::consts::OS,
        target_features()
    ));
    if cfg!(debug_assertions) {
        item("WARNING: debug build; run with `--release` for meaningful timings");
    }
    res.tsc_hz = timer::tsc_rate_hz();
    match res.tsc_hz {
        Some(hz) => item(&format!(
            "TSC rate: {:.3} GHz, measured (TSC ticks over a ~100 ms `std::time::Instant` interval); 1 tick = \
             {:.3} ns",
            hz / 1e9,
            1e9 / hz
        )),
        None => item("TSC rate: no TSC on this target"),
    }
    item(&format!("timer: {}", timer::NOTE));
    item(&format!(
        "timer step: {} {} (every timing is a multiple of it). Where the fastest call of a comparison spans \
         fewer than {} steps, the successors, workloads, after-a-pause and whole-pose sections time several \
         calls back to back per sample; the other tables time calls of about 1024 elements, or batches of their own",
        timer::step(),
        timer::UNIT,
        timer::MIN_SAMPLE_STEPS
    ));
    let overhead = timer::overhead();
    item(&format!(
        "method: {} per element, {JOINTS} elements per call (joints, quaternions), hot cache; the raw kernels \
         (as the papers timed the routine itself, without the safe functions' validation); {} runs per \
         implementation after {WARMUP} warm-up rounds, round-robin across implementations; in-place routines \
         restored from a pristine copy outside the timed region; median (and minimum) per element. Timer \
         overhead {overhead} {} per run, not subtracted ({:.2} per element).",
        runs(),
        timer::UNIT,
        timer::UNIT,
        overhead as f64 / JOINTS as f64
    ));
    item("compare ratios within one run, not absolute figures across runs or machines");
    outln!();
}
