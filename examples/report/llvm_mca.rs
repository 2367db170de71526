//! llvm-mca's static estimates of the asm loop bodies ([`devkit::mca`])
//! beside the measured ticks.

use crate::print::{Align::Left as L, Align::Right as R, heading, para, print_grid, progress};
use crate::results::Results;
use devkit::mca;
use devkit::timer;

/// Section 6: llvm-mca's estimates of the asm loops beside the measured ticks.
pub(crate) fn mca_section(res: &mut Results) {
    heading("6. llvm-mca: static estimates of the asm loop bodies");
    let Some(version) = mca::llvm_mca_version() else {
        para(
            "llvm-mca is not installed, so there are no static estimates: `apt-get install llvm` gives llvm-mca \
             (`apt-get install llvm-19` a newer one); then run the report again.",
        );
        return;
    };
    progress("running llvm-mca on the asm loop bodies");
    match mca::estimates() {
        Err(e) => para(&format!("{version}: no estimates ({e}).")),
        Ok(rows) => {
            let unit = timer::UNIT;
            let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.2}"));
            let lines: Vec<Vec<String>> = rows
                .iter()
                .map(|r| {
                    let measured = res.asm_ticks.iter().find(|(k, _)| k == r.kernel).map(|(_, t)| *t);
                    vec![
                        r.kernel.to_string(),
                        r.loop_label.to_string(),
                        format!("{}", r.elements_per_iteration),
                        f(r.sandybridge),
                        f(r.skylake),
                        f(measured),
                    ]
                })
                .collect();
            print_grid(&["asm kernel", "loop", "elem/iter", "SNB", "SKL", "measured"], &[L, L, R, R, R, R], &lines);
            para(&format!(
                "{version}. SNB, SKL: llvm-mca's block reciprocal throughput of the loop body (-mcpu=sandybridge, \
                 -mcpu=skylake), in core cycles per iteration, divided by the elements per iteration: a static \
                 estimate of cycles per element with every load in L1. Measured: the whole asm routine's median \
                 {unit} per element in \
                 this run (every loop, prologue and epilogue; slerp_quats at 1024 quaternions), in TSC ticks, \
                 not core cycles."
            ));
            res.mca_rows = rows.len();
        }
    }
}
