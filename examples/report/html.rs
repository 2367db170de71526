//! `--html`: the reading room (`devkit::reading_room`), written after the
//! report from its captured text and this run's measurements into
//! `target/animasm-report/`, next to the SVG plots. Messages go to stderr:
//! stdout stays the report.

use std::path::PathBuf;

use crate::machine::cpu_model;
use crate::print::{captured, progress};
use crate::results::Results;
use devkit::mca::pressure::LoopPressure;
use devkit::plots;
use devkit::reading_room::{self, FormTicks, SiteInput};

/// llvm-mca's resource pressure per instruction of every asm kernel's main
/// loop (`devkit::mca::pressure`, this machine's model). Empty where it
/// fails (no objdump or llvm-mca): the pages then say "not available".
fn pressure() -> Vec<LoopPressure> {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    match devkit::mca::pressure::loop_pressure() {
        Ok(p) => return p,
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

/// Where `cargo bench --bench instr_count` writes: `<target>/gungraun`
/// (`CARGO_TARGET_DIR` if set, else the workspace's `target/`), if present.
fn gungraun_dir() -> Option<PathBuf> {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| reading_room::workspace_root().join("target"));
    let dir = target.join("gungraun");
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

/// Writes the site; exits with an error if it cannot (a table of the
/// reading room no longer matches the sources, or the directory is not
/// writable).
pub(crate) fn write_site(res: &Results) {
    progress("writing the HTML site");
    let dir = plots::out_dir();
    match reading_room::write_site(&reading_room::workspace_root(), &dir, &site_input(res)) {
        Ok(files) => eprintln!("reading room: {} files in {} (open index.html)", files.len(), dir.display()),
        Err(e) => {
            eprintln!("reading room: the site could not be written: {e}");
            std::process::exit(1);
        }
    }
}
