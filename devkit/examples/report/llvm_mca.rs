//! llvm-mca's static estimates of the asm loop bodies (every listing form of
//! the roster) and of the successors' inner loops (every successor form)
//! ([`devkit::mca`]) beside the measured ticks, and of the aarch64 forms'
//! inner loops (each routine's scalar port beside its NEON and portable
//! successors, [`devkit::mca_aarch64`], built for aarch64 and run under
//! qemu on an x86_64 host).

use crate::print::{heading, para};
use crate::results::Results;
#[cfg(all(target_arch = "x86_64", not(miri)))]
use {
    crate::print::{Align::Left as L, Align::Right as R, print_grid, progress},
    crate::table::impl_order,
    animasm::Impl,
    devkit::{mca, timer},
};
#[cfg(not(miri))]
use {
    crate::print::{Align::Left as AL, Align::Right as AR, progress as step},
    devkit::mca_aarch64,
};

/// Section 6 where there is no x86-64 code to estimate (`devkit::mca` is
/// x86_64 only).
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
pub(crate) fn mca_section(_res: &mut Results) {
    heading("6. llvm-mca: static estimates of the asm loop bodies and of the successors");
    para("llvm-mca estimates the x86-64 asm kernels and successors, which this target does not build.");
    #[cfg(not(miri))]
    aarch64_section();
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
    aarch64_section();
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
    let [zen512, intel512] = mca::AVX512_CPUS;
    let avx512_version = rows.iter().find_map(|r| match &r.estimate {
        mca::SuccessorEstimate::Estimated(l) if l.cpus == mca::AVX512_CPUS => Some(l.mca_version.to_string()),
        _ => None,
    });
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
        &[&head, "inner loop", "elem/iter", "Zen /iter", "Zen /elem", "Intel /iter", "Intel /elem", "measured"],
        &[L, L, R, R, R, R, R, R],
        &lines,
    );
    let unit = timer::UNIT;
    let (which, kernel) = match forms.as_slice() {
        [one] => (format!("Impl::{one:?}"), format!("Impl::{one:?}")),
        many => (many.iter().map(|f| format!("Impl::{f:?}")).collect::<Vec<_>>().join(" and "), "imp".into()),
    };
    let isa: Vec<String> = crate::successors::successor_forms()
        .into_iter()
        .filter(|&(_, isa)| isa.arch() == Some("x86_64"))
        .map(|(_, isa)| crate::successors::isa_words(isa))
        .collect();
    let isa = isa.join("; ");
    let avx512 = match &avx512_version {
        Some(v) => format!(
            "; the AVX-512 forms' loops with -mcpu={zen512} (AMD Zen 4, which issues a 512-bit operation as two \
             256-bit halves) and -mcpu={intel512} (Intel Sapphire Rapids), models llvm-mca 14 lacks: {v}"
        ),
        None => String::new(),
    };
    para(&format!(
        "{version}. The {which} successor of each id routine ({isa}), found in this binary at the \
         address `kernel({kernel})` returns (\"not in this build\": the routine has no such form here). Inner \
         loop: of the loops that call a block kernel kept out of line, the one stepping over the most elements (the \
         joint interpolators' fast path, not their paths for repeated index entries), else the kernel's largest \
         loop (the backward branch whose body, branch target to branch, has the most instructions); its size, with the body of any function it calls directly spliced in (a block kernel \
         the compiler kept out of line: llvm-mca does not follow calls). elem/iter: elements one iteration handles, read off the \
         loop's pointer steps (\"assumed\": the routine's expected width, where they say nothing). Zen, Intel: \
         llvm-mca's block reciprocal throughput of that loop with -mcpu={zen} (AMD Zen 3) and -mcpu={skl}{avx512}, \
         in core cycles per iteration and per element, every load in L1. Measured: the \
         successor's median {unit} per element at 1024 elements from the successors section of this run \
         (the whole kernel: tail and prologue included), in TSC ticks, not core cycles; \"-\" where that \
         section did not measure it."
    ));
}

/// Section 6's aarch64 part: llvm-mca's estimates of each routine's scalar
/// port and, next to it, its aarch64 forms (`Impl::Neon`, `Impl::Portable`)
/// with two ARM models ([`mca_aarch64::AARCH64_CPUS`]). On an x86_64 host
/// the estimator is built for aarch64 and run under qemu
/// ([`mca_aarch64::cross_estimates`]); where that cannot be done the
/// section says why and the report goes on.
#[cfg(not(miri))]
fn aarch64_section() {
    outln!("### aarch64: llvm-mca estimates of the scalar ports and the NEON forms (no ARM hardware)\n");
    step("llvm-mca on the aarch64 forms (built for aarch64-unknown-linux-gnu and run under qemu)");
    let e = match mca_aarch64::aarch64_estimates() {
        Ok(e) => e,
        Err(err) => {
            step(&format!("aarch64 estimates: {err}"));
            let first = err.lines().next().unwrap_or("");
            para(&format!(
                "No aarch64 estimates ({first}; the whole message is on stderr). They need the aarch64 target \
                 (`rustup target add aarch64-unknown-linux-gnu`), its linker and qemu (`apt-get install \
                 gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user`, as `.ci/run` installs them), \
                 `aarch64-linux-gnu-objdump` (binutils-aarch64-linux-gnu) and llvm-mca."
            ));
            return;
        }
    };
    let f = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.2}"));
    let short = |cpu: &str| match cpu {
        "neoverse-n1" => "N1".to_owned(),
        "apple-m1" => "M1".to_owned(),
        other => other.to_owned(),
    };
    let [c0, c1] = [short(&e.cpus[0]), short(&e.cpus[1])];
    let label = |form: &str| match form {
        "scalar" => "scalar port".to_owned(),
        "neon" => "NEON".to_owned(),
        other => other.to_owned(),
    };
    let mut lines = Vec::new();
    let mut routines: Vec<&str> = Vec::new();
    for row in &e.rows {
        if !routines.contains(&row.routine.as_str()) {
            routines.push(&row.routine);
        }
    }
    for routine in &routines {
        let rows: Vec<_> = e.rows.iter().filter(|r| r.routine == *routine).collect();
        for row in &rows {
            lines.push(match &row.estimate {
                Ok(l) => {
                    let kept = if l.calls_kept.is_empty() {
                        String::new()
                    } else {
                        format!(", {} calls not counted", l.calls_kept.len())
                    };
                    vec![
                        routine.to_string(),
                        label(&row.form),
                        format!("{} instr{kept}", l.instructions),
                        format!(
                            "{}{}",
                            l.elements_per_iteration,
                            if l.elements_source == "assumed" { " (assumed)" } else { "" }
                        ),
                        f(l.cycles_per_iteration[0]),
                        f(l.cycles_per_element(0)),
                        f(l.cycles_per_iteration[1]),
                        f(l.cycles_per_element(1)),
                    ]
                }
                Err(err) => {
                    step(&format!("llvm-mca, aarch64 {routine} {}: {err}", row.form));
                    let mut v = vec![routine.to_string(), label(&row.form), "not estimated (see stderr)".into()];
                    v.extend(std::iter::repeat_n("-".to_string(), 5));
                    v
                }
            });
        }
        if !rows.iter().any(|r| r.form == "neon") {
            let mut v = vec![routine.to_string(), "NEON".into(), "not in this build".into()];
            v.extend(std::iter::repeat_n("-".to_string(), 5));
            lines.push(v);
        }
    }
    crate::print::print_grid(
        &[
            "routine",
            "form",
            "inner loop",
            "elem/iter",
            &format!("{c0} /iter"),
            &format!("{c0} /elem"),
            &format!("{c1} /iter"),
            &format!("{c1} /elem"),
        ],
        &[AL, AL, AL, AR, AR, AR, AR, AR],
        &lines,
    );
    // The NEON forms next to the scalar port, in the words of the table.
    for routine in &routines {
        let per_elem = |form: &str, cpu: usize| {
            e.find(routine, form).and_then(|r| r.estimate.as_ref().ok()).and_then(|l| l.cycles_per_element(cpu))
        };
        if e.find(routine, "neon").is_none() {
            continue;
        }
        let cells: Vec<String> = (0..2)
            .map(|k| {
                format!(
                    "NEON (llvm-mca estimate, {}) {} cycles per element, scalar port {}",
                    e.cpus[k],
                    f(per_elem("neon", k)),
                    f(per_elem("scalar", k))
                )
            })
            .collect();
        crate::print::item(&format!("{routine}: {}", cells.join("; ")));
    }
    if routines.iter().any(|r| e.find(r, "neon").is_some()) {
        outln!();
    }
    let models: Vec<String> = e
        .cpus
        .iter()
        .zip(&e.models)
        .map(|(c, m)| format!("-mcpu={c} ({} model)", m.as_deref().unwrap_or("unknown")))
        .collect();
    para(&format!(
        "{}. Estimates, not measurements: this machine has no ARM core. Each routine's scalar port \
         (Impl::Scalar) and its aarch64 forms (Impl::Neon, and the portable successor Impl::Portable), \
         found in an aarch64 build (animasm with std) at the address its table holds; inner loop: of its \
         loops that call a block kernel kept out of line, the one stepping over the most elements (the \
         NEON joint routines' fast path), else its largest loop, the callees spliced in; elem/iter read off \
         the pointer steps as for the successors above (post-indexed loads and stores, `add` to a pointer \
         or a counter). {c0}, {c1}: llvm-mca's block reciprocal throughput with {}, in core \
         cycles per iteration and per element, every load in L1. \"calls not counted\": calls left in the \
         loop (C library functions through the PLT, such as the scalar slerp_joints' acosf and sinf, and \
         calls one level down in a spliced function) cost only their `bl` here, so that row is a lower \
         bound. The Apple cores are modelled with Cyclone's scheduling model, in which \
         the vector fsqrt and fdiv cost no more than a vector add: the M1 column understates the forms that \
         divide or take square roots.",
        e.llvm_mca,
        models.join(" and ")
    ));
}
