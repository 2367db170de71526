//! `--html`: the reading room's input (`devkit::site_input`), written after
//! the report from its captured text and this run's measurements into
//! `<target>/animasm-report/site_input.json`, next to the SVG plots; `cargo
//! run --release -p animasm-reading-room` renders the site from it (the
//! report does not depend on the site's crate). Messages go to stderr:
//! stdout stays the report.

use std::path::PathBuf;

use crate::machine::cpu_model;
use crate::print::{captured, progress};
use crate::results::Results;
use devkit::paths;
use devkit::site_input::{FormTicks, LoopPressure, SiteInput};

/// llvm-mca's resource pressure per instruction of every asm kernel's main
/// loop (`devkit::mca::pressure`, this machine's model). Empty where it
/// fails (no objdump or llvm-mca): the pages then say "not available".
fn pressure() -> Vec<LoopPressure> {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    match devkit::mca::pressure::loop_pressure() {
        Ok(p) => return p.iter().map(LoopPressure::from).collect(),
        Err(e) => crate::print::progress(&format!("llvm-mca pressure not available: {e}")),
    }
    Vec::new()
}

/// The successors' disassembled inner loops (`Impl::Avx2`), by routine
/// (`devkit::mca::pressure::successor_loops`: the loops the llvm-mca section
/// estimates). Empty where it fails: the pages then say "not available".
fn successor_loops() -> Vec<(String, Vec<String>)> {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    match devkit::mca::pressure::successor_loops() {
        Ok(rows) => return rows.into_iter().map(|(routine, lines)| (routine.to_owned(), lines)).collect(),
        Err(e) => crate::print::progress(&format!("reading room: no successor loops ({e})")),
    }
    Vec::new()
}

/// Where `cargo bench -p devkit --bench instr_count` writes ([`paths::gungraun_dir`]:
/// `GUNGRAUN_HOME`, else `<target>/gungraun`), if present.
fn gungraun_dir() -> Option<PathBuf> {
    let dir = paths::gungraun_dir();
    dir.is_dir().then_some(dir)
}

/// The site's input from the report's run.
fn site_input(res: &Results) -> SiteInput {
    SiteInput {
        cpu: cpu_model(),
        report_text: captured(),
        kernel_ticks: res.asm_ticks.clone(),
        form_ticks: res
            .successor_ticks
            .iter()
            .chain(&res.whole_pose)
            .map(|t| FormTicks {
                routine: t.routine.to_owned(),
                form: t.form.clone(),
                elements: t.elements,
                ticks: t.ticks,
            })
            .collect(),
        pressure: pressure(),
        successor_loops: successor_loops(),
        gungraun_dir: gungraun_dir(),
        plots: res.plots.iter().filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())).collect(),
    }
}

/// Writes the site's input; exits with an error if it cannot (the
/// directory is not writable).
pub(crate) fn write_site_input(res: &Results) {
    progress("writing the reading room's input");
    let dir = paths::report_dir();
    match site_input(res).write(&dir) {
        Ok(path) => eprintln!(
            "reading room: its input in {}; `cargo run --release -p animasm-reading-room` writes the site next to it",
            path.display()
        ),
        Err(e) => {
            eprintln!("reading room: its input could not be written: {e}");
            std::process::exit(1);
        }
    }
}
