//! What the later sections (llvm-mca, errata, plots, summary) need from the
//! earlier ones, and the accuracy tables.

use crate::print::{Align::Left as L, Align::Right as R, print_grid};
use crate::table::Measured;
use animasm::roster::{self, Routine, Source};
use animasm::{Impl, Origin};
use devkit::measure;
use devkit::{pipeline, plots};

/// What the later sections (llvm-mca, errata, plots, summary) need from the
/// earlier ones.
#[derive(Default)]
pub(crate) struct Results {
    /// Measured asm speedups over the scalar port, with the paper's.
    pub(crate) speedups: Vec<plots::Speedup>,
    /// Measured ticks per element of each asm kernel, by llvm-mca's kernel
    /// name (`slerp_joints`, `transform_skeleton (movss+shufps)`, ...).
    pub(crate) asm_ticks: Vec<(String, f64)>,
    /// Every accuracy row: (what, measured max abs error, published figure).
    pub(crate) accuracy: Vec<(String, f64, Option<f64>)>,
    /// The nlerp article's angle errors, measured.
    pub(crate) nlerp_errors: Vec<measure::nlerp::AngleErrors>,
    pub(crate) tsc_hz: Option<f64>,
    pub(crate) pose: Vec<pipeline::Row>,
    pub(crate) plots: Vec<std::path::PathBuf>,
    pub(crate) mca_rows: usize,
    pub(crate) errata: (usize, usize),
    /// The successors section's measurements (every form, floor and peer
    /// at every size), for the llvm-mca section and the summary.
    pub(crate) successor_ticks: Vec<SuccessorTicks>,
    /// The whole pose's figures (section 8b: each form of `slerp_pose` and
    /// `lerp_pose` on Fox poses without a skin, one call and chained), for
    /// the reading room's `pose` page.
    pub(crate) whole_pose: Vec<SuccessorTicks>,
}

/// One measured figure of the successors section.
#[derive(Clone, Debug)]
pub(crate) struct SuccessorTicks {
    /// The routine (`slerp_joints`, ...).
    pub(crate) routine: &'static str,
    /// The form's name (`Impl::name()`: `asm`, `avx2`, ...), or `floor`,
    /// `chain floor`, `glam`, `ultraviolet (SoA)`, `ultraviolet (with conversion)`.
    pub(crate) form: String,
    /// Elements per call (64, 1024, 65536).
    pub(crate) elements: usize,
    /// Median TSC ticks per element.
    pub(crate) ticks: f64,
}

impl Results {
    /// A paper table's asm row: its speedup over the scalar port next to the
    /// paper's (C / SSE on the 130nm P4) and its ticks per element.
    pub(crate) fn record(&mut self, routine: &str, m: &Measured, row: &str) {
        if let Some(x) = m.speedup(row) {
            let paper = if row == Impl::Asm.name() { m.paper.map(|p| p.c_130 / p.sse_130) } else { None };
            self.speedups.push(plots::Speedup { routine: routine.into(), measured: x, paper });
        }
        if let Some(t) = m.median(row) {
            self.asm_ticks.push((routine.into(), t));
        }
    }

    /// [`Results::record`] of the listing's row (`Origin::Listing`) of the
    /// paper table of `r`.
    pub(crate) fn record_listing(&mut self, r: &Routine, m: &Measured) {
        if let Some(listing) = r.forms().find(|f| f.origin == Origin::Listing) {
            self.record(r.name, m, listing.imp.name());
        }
    }

    /// The measured error of the accuracy row named `name`.
    pub(crate) fn acc(&self, name: &str) -> Option<f64> {
        self.accuracy.iter().find(|r| r.0 == name).map(|r| r.1)
    }
}

/// An accuracy row's name shortened for a 100-column table.
pub(crate) fn short(name: &str) -> String {
    name.replace(", Fox key poses vs the f64 reference (relative to model size)", ", Fox poses vs f64 (/size)")
        .replace(", Fox model poses back to local (relative to model size)", ", Fox model to local (/size)")
        .replace(" vs the source quaternion (up to sign)", " vs source quat (up to sign)")
        .replace(" (asm = intrinsics)", "")
}

/// The accuracy rows of the routines from the paper `source` (a row is its
/// routine's when its text starts with the routine's name).
pub(crate) fn rows_of_paper(rows: &[(String, f64, Option<f64>)], source: Source) -> Vec<(String, f64, Option<f64>)> {
    rows.iter()
        .filter(|r| r.0.split(' ').next().and_then(roster::find).is_some_and(|x| x.source == source))
        .cloned()
        .collect()
}

/// Prints accuracy rows: the measured max abs error, the published figure.
pub(crate) fn print_accuracy(rows: &[(String, f64, Option<f64>)]) {
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|(what, e, p)| vec![short(what), format!("{e:.3e}"), p.map_or("-".into(), |p| format!("{p:.3e}"))])
        .collect();
    print_grid(&["accuracy", "measured max abs error", "published"], &[L, R, R], &lines);
}
