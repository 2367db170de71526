//! llvm-mca's static estimates of the asm loop bodies (every listing form of
//! the roster) and of the successors' inner loops (every successor form)
//! ([`devkit::mca`]) beside the measured ticks.

use crate::print::{heading, para};
use crate::results::Results;
#[cfg(all(target_arch = "x86_64", not(miri)))]
use {
    crate::print::{Align::Left as L, Align::Right as R, print_grid, progress},
    crate::table::impl_order,
    animasm::Impl,
    devkit::{mca, timer},
};

/// Section 6 where there is no x86-64 code to estimate (`devkit::mca` is
/// x86_64 only).
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
pub(crate) fn mca_section(_res: &mut Results) {
    heading("6. llvm-mca: static estimates of the asm loop bodies and of the successors");
    para("llvm-mca estimates the x86-64 asm kernels and successors, which this target does not build.");
}

/// Section 6: llvm-mca's estimates of the asm loops and of the successors'
/// inner loops beside the measured ticks.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(crate) fn mca_section(res: &mut Results) {
    heading("6. llvm-mca: static estimates of the asm loop bodies and of the successors");
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
    successors(res);
}

/// The successors' inner loops (every successor form of the roster,
/// `Origin::Successor`): llvm-mca's cycles per iteration and per element
/// (Zen 3 and Skylake models) beside the measured ticks per element at 1024
/// elements (`res.successor_ticks`, the form's row).
#[cfg(all(target_arch = "x86_64", not(miri)))]
fn successors(res: &Results) {
    progress("running llvm-mca on the successors' inner loops");
    let version = mca::llvm_mca_version().unwrap_or_default();
    let rows = match mca::successor_estimates() {
        Err(e) => {
            para(&format!("{version}: no estimates of the successors ({e})."));
            return;
        }
        Ok(rows) => rows,
    };
    let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.2}"));
    let [zen, skl] = mca::SUCCESSOR_CPUS;
    // The successor forms estimated, each once: a row names its form too
    // when there are several.
    let mut forms: Vec<Impl> = rows.iter().filter_map(|s| s.form.map(|f| f.imp)).collect();
    forms.sort_by_key(|&imp| impl_order(imp));
    forms.dedup();
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|mca::SuccessorRow { routine, form, estimate }| {
            let label = match form {
                Some(f) if forms.len() > 1 => format!("{routine} ({})", f.imp),
                _ => routine.to_string(),
            };
            let measured = form.and_then(|form| {
                res.successor_ticks
                    .iter()
                    .find(|t| t.routine == *routine && t.form == form.imp.name() && t.elements == 1024)
                    .map(|t| t.ticks)
            });
            match estimate {
                mca::SuccessorEstimate::NotInBuild => {
                    let mut row = vec![label, "not in this build".into()];
                    row.extend(std::iter::repeat_n("-".to_string(), 5));
                    row.push(f(measured));
                    row
                }
                mca::SuccessorEstimate::Failed(e) => {
                    progress(&format!("llvm-mca, {label} successor: {e}"));
                    let mut row = vec![label, "not estimated (see stderr)".into()];
                    row.extend(std::iter::repeat_n("-".to_string(), 5));
                    row.push(f(measured));
                    row
                }
                mca::SuccessorEstimate::Estimated(l) => {
                    if let Some(e) = &l.mca_error {
                        progress(&format!("llvm-mca, {label} successor: {e}"));
                    }
                    let nested = if l.nested > 0 { format!(", {} nested", l.nested) } else { String::new() };
                    let calls = match l.callees.len() {
                        0 => String::new(),
                        n => format!(", {n} call{} spliced", if n == 1 { "" } else { "s" }),
                    };
                    vec![
                        label,
                        format!("{} instr{calls}{nested}", l.instructions),
                        format!(
                            "{}{}",
                            l.elements_per_iteration,
                            if l.elements_source == "assumed" { " (assumed)" } else { "" }
                        ),
                        f(l.cycles_per_iteration[0]),
                        f(l.cycles_per_element(0)),
                        f(l.cycles_per_iteration[1]),
                        f(l.cycles_per_element(1)),
                        f(measured),
                    ]
                }
            }
        })
        .collect();
    let names: Vec<&str> = forms.iter().map(|f| f.name()).collect();
    let head = format!("{} successor", names.join("/"));
    print_grid(
        &[&head, "inner loop", "elem/iter", "ZN3 /iter", "ZN3 /elem", "SKL /iter", "SKL /elem", "measured"],
        &[L, L, R, R, R, R, R, R],
        &lines,
    );
    let unit = timer::UNIT;
    let (which, kernel) = match forms.as_slice() {
        [one] => (format!("Impl::{one:?}"), format!("Impl::{one:?}")),
        many => (many.iter().map(|f| format!("Impl::{f:?}")).collect::<Vec<_>>().join(" and "), "imp".into()),
    };
    let isa: Vec<String> =
        crate::successors::successor_forms().into_iter().map(|(_, isa)| crate::successors::isa_words(isa)).collect();
    let isa = isa.join("; ");
    para(&format!(
        "{version}. The {which} successor of each id routine ({isa}), found in this binary at the \
         address `kernel({kernel})` returns (\"not in this build\": the routine has no such form here). Inner \
         loop: the kernel's largest loop, the backward branch whose body (branch target to branch) has the most \
         instructions; its size, with the body of any function it calls directly spliced in (a block kernel \
         the compiler kept out of line: llvm-mca does not follow calls). elem/iter: elements one iteration handles, read off the \
         loop's pointer steps (\"assumed\": the routine's expected width, where they say nothing). ZN3, SKL: \
         llvm-mca's block reciprocal throughput of that loop with -mcpu={zen} (this machine's family, AMD \
         Zen 3) and -mcpu={skl}, in core cycles per iteration and per element, every load in L1. Measured: the \
         successor's median {unit} per element at 1024 elements from the successors section of this run \
         (the whole kernel: tail and prologue included), in TSC ticks, not core cycles; \"-\" where that \
         section did not measure it."
    ));
}
