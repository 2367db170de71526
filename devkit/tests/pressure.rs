//! `devkit::mca::pressure` on this test binary: llvm-mca's resource pressure
//! of every asm kernel's main loop and the `Impl::Avx2` successors' inner
//! loops. Needs `objdump` and `llvm-mca`; skips with a message without them.
#![cfg(all(target_arch = "x86_64", not(miri)))]

use devkit::mca;
use devkit::mca::pressure::{loop_pressure, successor_loops};

/// Whether `objdump` and `llvm-mca` can be run; prints why not.
fn tools() -> bool {
    let objdump = std::env::var("OBJDUMP").unwrap_or_else(|_| "objdump".to_owned());
    if std::process::Command::new(&objdump).arg("--version").output().is_err() {
        println!("skipped: `{objdump}` is not installed");
        return false;
    }
    if mca::llvm_mca_version().is_none() {
        println!("skipped: llvm-mca is not installed");
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
    if !tools() {
        return;
    }
    // The build has the form even where this CPU cannot run it.
    let have_avx2 = !matches!(animasm::slerp_joints::kernel(animasm::Impl::Avx2), Err(animasm::Error::Unsupported(_)));
    let loops = successor_loops().expect("successor_loops");
    if !have_avx2 {
        println!("skipped: this build has no Impl::Avx2 successors");
        assert!(loops.is_empty());
        return;
    }
    let routines: Vec<&str> = loops.iter().map(|l| l.0).collect();
    assert_eq!(
        routines,
        [
            "slerp_joints",
            "lerp_joints",
            "quats_to_mats",
            "mats_to_quats",
            "transform_skeleton",
            "untransform_skeleton",
            "transform_joints"
        ]
    );
    for (routine, lines) in &loops {
        assert!(!lines.is_empty(), "{routine}: empty loop");
        assert!(lines.iter().all(|l| !l.is_empty() && !l.starts_with('.')), "{routine}: {lines:?}");
        assert!(lines.iter().any(|l| l.contains("ymm")), "{routine}: no ymm instruction in {lines:?}");
        println!("{routine}: {} instructions", lines.len());
    }
}
