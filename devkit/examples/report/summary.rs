//! The SVG plots ([`devkit::plots`]) and the summary.

use crate::print::{Align::Left as L, Align::Right as R, heading, item, para, print_grid, progress};
use crate::results::Results;
use animasm::Origin;
use animasm::roster;
use devkit::plots;

/// Section 9: writes the SVG plots and lists them.
pub(crate) fn plots_section(res: &mut Results) {
    heading("9. Plots");
    progress("writing the plots");
    match plots::write_all(&res.speedups) {
        Ok(paths) if paths.is_empty() => para("No plot was written (plots::write_all wrote none)."),
        Ok(paths) => {
            para(
                "SVG plots: error against the angle between the quaternions for every slerp-like routine, and \
                 the measured speedups beside the papers':",
            );
            for p in &paths {
                item(&p.display().to_string());
            }
            outln!();
            res.plots.extend(paths);
        }
        Err(e) => para(&format!("The plots could not be written: {e}.")),
    }
}

/// The summary: the speedups beside the published ones, and the run in brief.
pub(crate) fn summary(res: &Results) {
    heading("Summary");
    let lines: Vec<Vec<String>> = res
        .speedups
        .iter()
        .map(|s| {
            vec![s.routine.clone(), format!("{:.2}x", s.measured), s.paper.map_or("-".into(), |p| format!("{p:.2}x"))]
        })
        .collect();
    print_grid(&["speedup", "measured", "published"], &[L, R, R], &lines);
    para(
        "Speedup: the asm kernel over the scalar C port (published: the paper's SSE over C on the P4 130nm); \
         slerp_quats: the AVX kernel as published over the 128-bit kernel (published: Table 1); nlerp: each \
         SIMD row over its scalar row (published: the article's IACA ratio).",
    );
    if let Some(hz) = res.tsc_hz {
        item(&format!("TSC rate {:.3} GHz", hz / 1e9));
    }
    if let (Some(best), Some(asm)) = (
        res.pose.iter().max_by(|a, b| a.poses_per_second().total_cmp(&b.poses_per_second())),
        res.pose.iter().find(|r| r.name.ends_with("asm")),
    ) {
        item(&format!(
            "pose pipeline on data/Fox.glb: fastest {} at {:.0} poses/s; asm max error/size {:.2e}",
            best.name,
            best.poses_per_second(),
            asm.max_error
        ));
    }
    let at = |routine: &str, form: &str| {
        res.successor_ticks
            .iter()
            .find(|s| s.routine == routine && s.form == form && s.elements == devkit::setup::JOINTS)
            .map(|s| s.ticks)
    };
    let mut routines: Vec<&str> = res.successor_ticks.iter().map(|s| s.routine).collect();
    routines.dedup();
    let listing = |r: &str| {
        roster::find(r).and_then(|r| r.all_forms().find(|f| f.origin == Origin::Listing)).map(|f| f.imp.name())
    };
    let mut line = format!("successors (section 5b): {} figures", res.successor_ticks.len());
    for (s, _) in crate::successors::successor_forms() {
        let with: Vec<String> = routines
            .iter()
            .filter_map(|r| {
                let ticks = at(r, s.name())?;
                let over = listing(r).and_then(|l| at(r, l)).map_or("-".into(), |l| format!("{:.2}x", l / ticks));
                Some(format!("{r} {over}"))
            })
            .collect();
        let listings: Vec<&str> = routines.iter().filter_map(|r| listing(r)).collect();
        let over = listings.first().copied().unwrap_or("the listing");
        line += &format!(
            "; {s} forms in this build: {} of {}{}",
            with.len(),
            routines.len(),
            if with.is_empty() { String::new() } else { format!(" (over {over} at 1024: {})", with.join(", ")) }
        );
    }
    item(&line);
    item(&format!("errata: {} in the index, {} with an effect measured in this run", res.errata.0, res.errata.1));
    item(&if res.mca_rows > 0 {
        format!("llvm-mca: {} asm loop bodies estimated", res.mca_rows)
    } else {
        "llvm-mca: no estimates (see section 6)".to_string()
    });
    item(&format!("plots: {} written under {}", res.plots.len(), devkit::paths::report_dir().display()));
    let secs = crate::print::START.get().map_or(0.0, |t| t.elapsed().as_secs_f64());
    item(&format!("report run time: {secs:.1} s"));
    outln!();
}
