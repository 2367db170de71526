//! `devkit::mca::pressure` on this test binary: llvm-mca's resource pressure
//! of every asm kernel's main loop (every listing form of the roster) and
//! the successors' inner loops (every successor form). Needs `objdump`,
//! `llvm-mca` and a release build (the loop finders read this binary's
//! optimised code); says `SKIPPED` and why without them.
#![cfg(all(target_arch = "x86_64", not(miri)))]

use animasm::roster;
use animasm::{Isa, Origin};
use devkit::mca;
use devkit::mca::pressure::{loop_pressure, successor_loops};

/// Whether this is a release build; says why not. Unoptimised, the
/// successors' intrinsics are calls out of line and their inner loops are
/// not the ones llvm-mca should see (the loop finder finds none): `cargo
/// test --release` checks them.
fn optimised(test: &str) -> bool {
    if cfg!(debug_assertions) {
        devkit::skipped(&format!(
            "pressure::{test}: a debug build has not the successors' optimised loops; run with --release"
        ));
        return false;
    }
    true
}

/// Whether `objdump` and `llvm-mca` can be run; says why not.
fn tools() -> bool {
    let objdump = std::env::var("OBJDUMP").unwrap_or_else(|_| "objdump".to_owned());
    if std::process::Command::new(&objdump).arg("--version").output().is_err() {
        devkit::skipped(&format!("pressure: `{objdump}` is not installed"));
        return false;
    }
    if mca::llvm_mca_version().is_none() {
        devkit::skipped("pressure: llvm-mca is not installed");
        return false;
    }
    true
}

/// An instruction that computes (llvm-mca gives it some pressure): not a
/// move, a zero idiom, a branch or padding.
fn arithmetic(instruction: &str) -> bool {
    let m = instruction.split(' ').next().unwrap_or("");
    let m = m.strip_prefix('v').unwrap_or(m);
    ["add", "sub", "mul", "div", "sqrt", "rsqrt", "rcp", "fmadd", "fnmadd", "fmsub", "min", "max", "cmp", "and"]
        .iter()
        .any(|p| m.starts_with(p))
}

#[test]
fn every_kernel_loop_has_its_pressure() {
    if !tools() {
        return;
    }
    let counts: Vec<(&str, usize)> =
        mca::estimates().expect("estimates").iter().map(|r| (r.kernel, r.instructions)).collect();
    let loops = loop_pressure().expect("loop_pressure");
    assert_eq!(loops.iter().map(|l| l.kernel).collect::<Vec<_>>(), counts.iter().map(|c| c.0).collect::<Vec<_>>());
    // One per listing form of the roster, in its order.
    let listings: Vec<&str> = roster::ROUTINES
        .iter()
        .filter(|r| !r.is_composite() && r.all_forms().any(|f| f.origin == Origin::Listing))
        .map(devkit::setup::label)
        .collect();
    assert_eq!(counts.iter().map(|c| c.0).collect::<Vec<_>>(), listings);
    for (l, &(_, count)) in loops.iter().zip(&counts) {
        assert_eq!(l.model, "znver3");
        assert_eq!(l.rows.len(), count, "{}: rows", l.kernel);
        assert!(l.block_rthroughput > 0.0, "{}: block rthroughput {}", l.kernel, l.block_rthroughput);
        assert!(l.elements_per_iteration >= 1.0);
        assert!(!l.resources.is_empty());
        let mut names = l.resources.clone();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), l.resources.len(), "{}: resource names repeat", l.kernel);
        let mut computing = 0;
        for r in &l.rows {
            assert_eq!(r.pressure.len(), l.resources.len(), "{}: {}", l.kernel, r.instruction);
            assert!(r.pressure.iter().all(|p| p.is_finite() && *p >= 0.0), "{}: {r:?}", l.kernel);
            if arithmetic(&r.instruction) {
                computing += 1;
                assert!(r.pressure.iter().sum::<f64>() > 0.0, "{}: `{}` has no pressure", l.kernel, r.instruction);
            }
        }
        assert!(computing > 0, "{}: no arithmetic instruction recognised", l.kernel);
        // The loop ends with its branch back.
        let last = &l.rows.last().unwrap().instruction;
        assert!(last.starts_with('j') && last.ends_with(".Lloop"), "{}: ends with `{last}`", l.kernel);
    }
    let slerp = &loops[0];
    let totals = slerp.totals();
    let mut top: Vec<(&str, f64)> = slerp.resources.iter().map(String::as_str).zip(totals).collect();
    top.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!(
        "{} {}: {} rows, block rthroughput {} ({}), top resources {:?}",
        slerp.kernel,
        slerp.loop_label,
        slerp.rows.len(),
        slerp.block_rthroughput,
        slerp.model,
        &top[..3]
    );
}

#[test]
fn successors_inner_loops() {
    if !optimised("successors_inner_loops") || !tools() {
        return;
    }
    // Every x86_64 successor form of the roster that the build has, even
    // where this CPU cannot run it, in the roster's order.
    let successors: Vec<(&str, Isa)> = roster::ROUTINES
        .iter()
        .filter(|r| !r.is_composite())
        .flat_map(|r| {
            r.all_forms()
                .filter(|f| f.origin == Origin::Successor && f.isa.arch() == Some("x86_64"))
                .map(move |f| (r.name, f.isa))
        })
        .collect();
    let loops = successor_loops().expect("successor_loops");
    if successors.is_empty() {
        devkit::skipped("pressure: this build has no successor forms");
        assert!(loops.is_empty());
        return;
    }
    let routines: Vec<&str> = loops.iter().map(|l| l.0).collect();
    assert_eq!(routines, successors.iter().map(|s| s.0).collect::<Vec<_>>());
    // Every id routine has one.
    for r in roster::id_routines() {
        assert!(routines.contains(&r.name), "{}: no successor loop", r.name);
    }
    for ((routine, lines), (_, isa)) in loops.iter().zip(&successors) {
        assert!(!lines.is_empty(), "{routine}: empty loop");
        assert!(lines.iter().all(|l| !l.is_empty() && !l.starts_with('.')), "{routine}: {lines:?}");
        let wide = if *isa == Isa::Avx512 { "zmm" } else { "ymm" };
        assert!(lines.iter().any(|l| l.contains(wide)), "{routine}: no {wide} instruction in {lines:?}");
        println!("{routine}: {} instructions", lines.len());
    }
}

/// The AVX-512 successors' loops are estimated with Zen 4 and Sapphire
/// Rapids (models the default llvm-mca 14 lacks), both giving a figure; the
/// others with Zen 3 and Skylake.
#[test]
fn avx512_loops_have_their_own_models() {
    if !tools() {
        return;
    }
    let version = devkit::mca_aarch64::newest_llvm_mca("LLVM_MCA_AVX512").map(|v| v.1).unwrap_or_default();
    let major: u32 =
        version.split_once("version").and_then(|(_, v)| v.trim().split('.').next()?.parse().ok()).unwrap_or(0);
    let rows = mca::successor_estimates().expect("successor_estimates");
    let mut avx512 = 0;
    for row in &rows {
        let (Some(form), mca::SuccessorEstimate::Estimated(l)) = (row.form, &row.estimate) else { continue };
        if form.isa == Isa::Avx512 {
            assert_eq!(l.cpus, mca::AVX512_CPUS, "{}", row.routine);
            if major >= 16 {
                assert!(l.cycles_per_iteration.iter().all(Option::is_some), "{}: {:?}", row.routine, l.mca_error);
                println!(
                    "{} avx512: {:?} cycles per {} elements ({:?}, {version})",
                    row.routine, l.cycles_per_iteration, l.elements_per_iteration, l.cpus
                );
            }
            avx512 += 1;
        } else {
            assert_eq!(l.cpus, mca::SUCCESSOR_CPUS, "{}", row.routine);
        }
    }
    if avx512 == 0 {
        devkit::skipped("pressure: this build has no AVX-512 successor");
    } else if major < 16 {
        devkit::skipped(&format!(
            "pressure: the AVX-512 loops' estimates: the newest llvm-mca here is `{version}` (znver4 needs 16 or later)"
        ));
    }
}
