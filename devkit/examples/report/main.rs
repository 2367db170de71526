//! `cargo run --release -p devkit --example report`: the crate's main job.
//!
//! Plain text for a 100-column terminal (the tables are also markdown pipe
//! tables), progress on stderr. The machine (CPU, SIMD features detected at
//! run time, the TSC rate measured against `Instant`) and the method; then
//! one section per paper, in the paper's row order, its published figures
//! beside the measured ones: *Slerping Clock Cycles* ([`joints`]), *From
//! Quaternion to Matrix and Back* ([`matrix`]), *The Skeleton Assembly
//! Line* ([`skeleton`], the variants of its routines as extra rows), Intel's
//! Table 1 (`slerp_quats` at 64, 67 and 1024 quaternions) and zeux's
//! cycles-per-element table (`nlerp`), each with the accuracy measurements
//! next to the paper's error figures (`devkit::measure`, by shape); then
//! the successors ([`successors`], section 5b): every form of each id
//! routine of `animasm::roster`, its successor forms (`Origin::Successor`)
//! included, against its shape's memory floor (and the skeletons'
//! dependency-chain floor, `devkit::floors`), glam and ultraviolet's SoA
//! types where they have the routine (`devkit::peers`, `devkit::uv`, with
//! and without the AoS conversion) at 64, 1024 and 65536 elements, with
//! the successors' targets checked and one SVG per routine; then llvm-mca's
//! estimates of every listing's loop body and every successor's inner loop
//! (`devkit::mca`) beside the measured ticks, the errata index of
//! `asm_notes/README.md` with each erratum's measured effect (or the test
//! that shows it), the pose pipeline on `data/Fox.glb`
//! (`devkit::pipeline`), the whole pose in one call against the chained
//! routines and its floor ([`whole_pose`], `devkit::whole_pose`), the SVG
//! plots (`devkit::plots`) and a summary.
//! Every figure not labelled "published" is measured in this run, on this
//! machine.
//!
//! Timing: the raw kernels are timed (as the papers timed the routine
//! itself, without the safe functions' validation), each run on joints
//! restored from a pristine copy outside the timed region, with
//! `devkit::timer` (`_rdtsc` fenced by `_mm_lfence` on x86_64,
//! `std::time::Instant` in nanoseconds elsewhere; the same timer times the
//! pose pipeline here and in `examples/pose.rs`). [`table::RUNS`] runs per
//! implementation, round-robin across the implementations (starting one
//! further each round) so that drift spreads over all of them; the median
//! and the minimum per joint are reported. The `auto` rows time the safe
//! function with `Impl::Auto`, validation included: what the default costs
//! a user.
//!
//! One module per job: [`print`] (layout), [`table`] (timing tables),
//! [`machine`] (the header), [`results`] (what later sections need), one
//! module per paper ([`joints`], [`matrix`], [`skeleton`], [`slerp_quats`],
//! [`nlerp`]), [`successors`], [`workloads`] and [`pause`], then [`llvm_mca`], [`errata`], [`pose`], [`whole_pose`] and [`summary`].
//! A new form of a routine shows up with no edit here: the paper tables
//! take the paper's forms from the roster ([`table::paper_kernels`]), the
//! successors section, llvm-mca and the summary every form and successor.
//! Adding a routine = one `*_table` function that builds its buffers and rows
//! (see `joints::joint_table`, or [`table::kernel_rows`] for any raw-kernel
//! signature) and one line in its paper's section (its successors, floors
//! and peers come with its shape); a routine whose table
//! has another shape measures its rows with [`table::measure_rows`] and
//! prints its own (see `slerp_quats::print_slerp_quats_tables`,
//! `nlerp::print_nlerp_table`).
//!
//! `--only successors` (or `workloads`, `nlerp`, `pose`, `whole_pose`, `pause`) prints the machine's header and
//! that one section, nothing else (no site input).
//!
//! `--quick` runs every section (or the `--only` one) with a fiftieth of its
//! timed rounds (at least 5; [`table::rounds`]): every code path of the
//! report to the end in a few minutes, for CI (`.ci/run`), with figures too
//! rough to quote (the header says so).
//!
//! `--html` (`cargo run --release -p devkit --example report -- --html`) also writes
//! the reading room's input ([`html`], `devkit::site_input`): the report's
//! text and this run's measurements, as `site_input.json` in
//! `<target>/animasm-report/`, from which `cargo run --release -p
//! animasm-reading-room` writes the static site next to it (`index.html`,
//! one page per routine, `style.css`). The text on stdout is the same with
//! or without it.

/// Prints a line of the report (as `println!`), through [`print::out`],
/// which keeps it for the HTML site.
macro_rules! outln {
    () => {
        $crate::print::out("")
    };
    ($($arg:tt)*) => {
        $crate::print::out(&format!($($arg)*))
    };
}

mod errata;
mod html;
mod joints;
mod llvm_mca;
mod machine;
mod matrix;
mod nlerp;
mod pause;
mod pose;
mod print;
mod results;
mod skeleton;
mod slerp_quats;
mod successors;
mod summary;
mod table;
mod whole_pose;
mod workloads;

use devkit::measure;

use print::progress;
use results::Results;

fn main() {
    devkit::refuse_test_hooks("report");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write_html = args.iter().any(|a| a == "--html");
    let quick = args.iter().any(|a| a == "--quick");
    if let Some(a) = args.iter().enumerate().find_map(|(i, a)| {
        let value = i > 0 && args[i - 1] == "--only";
        (!value && !matches!(a.as_str(), "--html" | "--quick" | "--only")).then_some(a)
    }) {
        eprintln!("report: unknown argument {a:?} (takes --html, --quick, --only SECTION)");
        std::process::exit(2);
    }
    if quick {
        table::set_quick();
    }
    let only = match args.iter().position(|a| a == "--only").map(|i| args.get(i + 1).map(String::as_str)) {
        None => None,
        Some(Some(s @ ("successors" | "workloads" | "nlerp" | "pose" | "whole_pose" | "pause"))) => Some(s),
        Some(other) => {
            eprintln!(
                "report: --only takes one of successors, workloads, nlerp, pose, whole_pose, pause (got {other:?})"
            );
            std::process::exit(2);
        }
    };
    if let Some(section) = only {
        // One section with the machine's header, for a quick look at one
        // table; no site input, plots only where the section writes them.
        progress(&format!("starting the report's {section} section only"));
        let mut res = Results::default();
        machine::print_header(&mut res);
        quick_note();
        match section {
            "successors" => successors::successors_section(&mut res),
            "nlerp" => nlerp::zeux_nlerp(&mut res),
            "pause" => pause::pause_section(),
            "workloads" => workloads::workloads_section(),
            "whole_pose" => whole_pose::whole_pose_section(&mut res),
            _ => pose::pose_section(&mut res),
        }
        progress("done (stdout has the section)");
        return;
    }
    if write_html {
        print::start_capture();
    }
    progress("starting the report");
    let mut res = Results::default();
    machine::print_header(&mut res);
    quick_note();
    joints::slerping_clock_cycles(&mut res);
    progress("measuring the matrix routines' accuracy");
    let matrix_rows = measure::matrix_report_rows();
    matrix::quaternion_to_matrix(&mut res, &matrix_rows);
    skeleton::skeleton_assembly_line(&mut res, &matrix_rows);
    res.accuracy.extend(matrix_rows);
    slerp_quats::intel_table1(&mut res);
    nlerp::zeux_nlerp(&mut res);
    successors::successors_section(&mut res);
    workloads::workloads_section();
    pause::pause_section();
    llvm_mca::mca_section(&mut res);
    errata::errata_section(&mut res);
    pose::pose_section(&mut res);
    whole_pose::whole_pose_section(&mut res);
    summary::plots_section(&mut res);
    summary::summary(&res);
    if write_html {
        html::write_site_input(&res);
    }
    progress("done (stdout has the report)");
}

/// With `--quick`, says under the header that the figures come from few
/// rounds.
fn quick_note() {
    if table::quick() {
        print::para(&format!(
            "--quick: every timing with a fiftieth of its rounds ({} runs per implementation instead of {}): \
             the report's code runs to the end, its figures are too rough to quote.",
            table::runs(),
            table::RUNS
        ));
    }
}
