//! `cargo run --release --example workloads [-- --quick] [--check]`:
//! every form of `slerp_joints` and `lerp_joints` through its safe function
//! on random pairs, the Fox's consecutive keys, a held pose and
//! near-identical poses, at 24, 100 and 1024 joints (`devkit::workloads`),
//! printed as markdown tables of median TSC ticks per joint. `--check`
//! exits with 1 when a successor is more than `MAX_RATIO` times slower on a
//! workload than on random pairs (the same run).

use devkit::workloads::{self, MAX_RATIO, SIZES};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let check = args.iter().any(|a| a == "--check");
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    println!("# The joint blends on animation's inputs ({cpu})");
    let measured = workloads::measure_all(&SIZES, if quick { 100.0 } else { 1000.0 });
    println!("{}", workloads::markdown(&measured));
    let slow = workloads::slow_successors(&measured);
    for (r, imp, n, w, ratio) in &slow {
        println!(
            "slow: {r} {imp} at {n} joints: {ratio:.2}x its random-pair time on {} poses (limit {MAX_RATIO}x)",
            w.name()
        );
    }
    if check && !slow.is_empty() { std::process::ExitCode::FAILURE } else { std::process::ExitCode::SUCCESS }
}
