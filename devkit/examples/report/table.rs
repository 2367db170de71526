//! The timing tables: a routine's buffers and rows ([`Table`], [`Row`]),
//! timed round-robin with [`devkit::timer`] ([`measure_rows`]) and printed
//! beside the paper's figures ([`print_table`]).

use animasm::roster::{Form, FormInfo};
use animasm::{Impl, Origin};
use devkit::timer::{self, Stats};

use crate::print::{Align::Left as L, Align::Right as R, para, print_grid, progress};

/// Timed runs per implementation (a full report; [`runs`] is what a run
/// uses).
pub(crate) const RUNS: usize = 301;

/// `--quick`: every section with few timed rounds ([`rounds`]).
static QUICK: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Turns on `--quick` for the rest of the run.
pub(crate) fn set_quick() {
    QUICK.store(true, std::sync::atomic::Ordering::Relaxed);
}

/// Whether this run is `--quick`.
pub(crate) fn quick() -> bool {
    QUICK.load(std::sync::atomic::Ordering::Relaxed)
}

/// The timed rounds to use where a full report uses `full`: `full`, or
/// with `--quick` a fiftieth of it (at least 5), enough for every section
/// to run its code to the end, not for figures to quote.
pub(crate) fn rounds(full: usize) -> usize {
    if quick() { (full / 50).max(5) } else { full }
}

/// Timed runs per implementation in this run: [`RUNS`], fewer with
/// `--quick`.
pub(crate) fn runs() -> usize {
    rounds(RUNS)
}
/// Untimed rounds before the timed ones (caches, branch predictors, clocks).
pub(crate) const WARMUP: usize = 10;

/// One row of a timing table: an implementation and how to run it on the
/// table's buffers `B`.
pub(crate) struct Row<B> {
    /// `scalar`, `intrinsics`, `asm`, or the peer's name.
    pub(crate) name: &'static str,
    /// The paper's figure for this row, if it has one: P4 130nm cycles per
    /// element (for `nlerp`, the article's IACA cycles per element).
    pub(crate) paper: Option<f64>,
    /// Puts this row's input back in place (not timed).
    pub(crate) restore: fn(&mut B),
    /// The timed call.
    pub(crate) call: Box<dyn Fn(&mut B)>,
}

/// A timing table: a routine's buffers and rows.
pub(crate) struct Table<B> {
    /// The routine's name (`slerp_joints`): the progress line's and the
    /// llvm-mca section's key.
    pub(crate) routine: &'static str,
    /// The heading.
    pub(crate) title: String,
    /// The paper's published C and SSE figures, if it has a table of them.
    pub(crate) paper: Option<Paper>,
    /// Elements (joints) per timed run.
    pub(crate) count: usize,
    /// The buffers every row runs on.
    pub(crate) bufs: B,
    /// One row per implementation; the `scalar` row is the baseline.
    pub(crate) rows: Vec<Row<B>>,
    /// Lines printed under the table.
    pub(crate) notes: Vec<String>,
}

/// Times every row [`runs`] times, round-robin.
pub(crate) fn measure_rows<B>(table: &mut Table<B>) -> Vec<Stats> {
    let n = table.rows.len();
    let runs = runs();
    let mut samples = vec![Vec::with_capacity(runs); n];
    for round in 0..WARMUP + runs {
        for k in 0..n {
            let i = (round + k) % n;
            let row = &table.rows[i];
            (row.restore)(&mut table.bufs);
            let bufs = &mut table.bufs;
            let t = timer::time(|| (row.call)(bufs));
            if round >= WARMUP {
                samples[i].push(t);
            }
        }
    }
    samples.into_iter().map(|mut s| Stats::of_ticks(&mut s, table.count as f64)).collect()
}

/// `a / b` as `"N.NNx"`, or `-`.
pub(crate) fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "-".into(),
    }
}

/// One timing table's results: median and minimum per element by row name.
pub(crate) struct Measured {
    pub(crate) rows: Vec<(&'static str, Stats)>,
    pub(crate) paper: Option<Paper>,
}

impl Measured {
    pub(crate) fn median(&self, name: &str) -> Option<f64> {
        self.rows.iter().find(|(n, _)| *n == name).map(|(_, s)| s.median)
    }

    /// The row's speedup over the scalar row.
    pub(crate) fn speedup(&self, name: &str) -> Option<f64> {
        Some(self.median(Impl::Scalar.name())? / self.median(name)?)
    }
}

/// Measures and prints one table: the paper's rows (its C and SSE figures
/// on the Pentium 4 130nm and 90nm, and its speedup) on the left, the
/// measured rows (scalar beside C, asm beside SSE) on the right.
pub(crate) fn print_table<B>(mut table: Table<B>) -> Measured {
    progress(&format!("measuring {}", table.routine));
    let stats = measure_rows(&mut table);
    let rank = |name: &str| match name {
        "scalar" => 0,
        "asm" => 1,
        "intrinsics" => 2,
        _ => 3,
    };
    let mut order: Vec<usize> = (0..table.rows.len()).collect();
    order.sort_by_key(|&i| rank(table.rows[i].name));
    let scalar = table.rows.iter().position(|r| r.name == Impl::Scalar.name()).map(|i| stats[i].median);
    let paper: Vec<[String; 4]> = table
        .paper
        .map(|p| {
            vec![
                [format!("{} C", p.name), format!("{:.0}", p.c_130), format!("{:.0}", p.c_90), "1.00x".into()],
                [
                    format!("{} SSE", p.name),
                    format!("{:.0}", p.sse_130),
                    format!("{:.0}", p.sse_90),
                    ratio(Some(p.c_130), Some(p.sse_130)),
                ],
            ]
        })
        .unwrap_or_default();
    let lines: Vec<Vec<String>> = (0..paper.len().max(order.len()))
        .map(|k| {
            let mut l: Vec<String> = paper.get(k).cloned().unwrap_or_default().to_vec();
            match order.get(k) {
                Some(&i) => l.extend([
                    table.rows[i].name.to_string(),
                    format!("{:.1}", stats[i].median),
                    format!("{:.1}", stats[i].min),
                    ratio(scalar, Some(stats[i].median)),
                ]),
                None => l.extend(["".into(), "".into(), "".into(), "".into()]),
            }
            l
        })
        .collect();
    outln!("{}\n", table.title);
    print_grid(
        &["published (P4)", "130nm", "90nm", "x C", "measured", timer::UNIT, "min", "x C"],
        &[L, R, R, R, L, R, R, R],
        &lines,
    );
    if let Some(p) = table.paper {
        para(&format!(
            "Published: the paper's cycles per joint on the Pentium 4 130nm and 90nm (its SSE figure shown once, \
             for both the asm and the intrinsics rows); x C on the 130nm, {} on the 90nm. Measured: {} per joint, \
             median and minimum of {} runs; x C = the scalar port's median / the row's.",
            ratio(Some(p.c_90), Some(p.sse_90)),
            timer::UNIT,
            runs()
        ));
    }
    for note in &table.notes {
        para(note);
    }
    Measured { rows: table.rows.iter().map(|r| r.name).zip(stats).collect(), paper: table.paper }
}

/// The paper's figures for a routine: cycles per joint of the C routine and
/// of the SSE listing, on the Pentium 4 130nm and 90nm.
#[derive(Clone, Copy)]
pub(crate) struct Paper {
    /// The paper's name of the routine (`SlerpJoints`).
    pub(crate) name: &'static str,
    pub(crate) c_130: f64,
    pub(crate) sse_130: f64,
    pub(crate) c_90: f64,
    pub(crate) sse_90: f64,
}

impl Paper {
    /// The 130nm figure of a form's row: the C's for the paper's C, the SSE
    /// listing's for the listing and its twin.
    pub(crate) fn for_form(&self, f: FormInfo) -> f64 {
        if f.origin == Origin::PaperC { self.c_130 } else { self.sse_130 }
    }
}

/// The forms of a routine's kernel table that reproduce its paper (the
/// paper's C, the listing and the listing's twin: `Origin::PaperC`,
/// `Origin::Listing`, `Origin::ListingTwin`) and that this CPU runs, in
/// [`Impl::ALL`] order, with their raw kernels.
pub(crate) fn paper_kernels<K: Copy>(forms: &'static [Form<K>]) -> Vec<(FormInfo, K)> {
    let mut kernels: Vec<(FormInfo, K)> = forms
        .iter()
        .filter(|f| f.runnable() && matches!(f.info().origin, Origin::PaperC | Origin::Listing | Origin::ListingTwin))
        .map(|f| (f.info(), f.kernel()))
        .collect();
    kernels.sort_by_key(|(f, _)| impl_order(f.imp));
    kernels
}

/// A form's position in [`Impl::ALL`], the order of the tables' rows.
pub(crate) fn impl_order(imp: Impl) -> usize {
    Impl::ALL.iter().position(|&i| i == imp).unwrap_or(Impl::ALL.len())
}

/// A row that runs the raw kernel `kernel` on the table's buffers with `run`.
pub(crate) fn kernel_row<B: 'static, K: Copy + 'static>(
    name: &'static str,
    paper: Option<f64>,
    restore: fn(&mut B),
    kernel: K,
    run: fn(K, &mut B),
) -> Row<B> {
    Row { name, paper, restore, call: Box::new(move |b: &mut B| run(kernel, b)) }
}

/// One row per kernel of `kernels` (from [`paper_kernels`]), with the
/// paper's figure.
pub(crate) fn kernel_rows<B: 'static, K: Copy + 'static>(
    kernels: Vec<(FormInfo, K)>,
    paper: &Paper,
    restore: fn(&mut B),
    run: fn(K, &mut B),
) -> Vec<Row<B>> {
    kernels
        .into_iter()
        .map(|(f, kernel)| kernel_row(f.imp.name(), Some(paper.for_form(f)), restore, kernel, run))
        .collect()
}

/// The note under a table with an `auto` row: what `Impl::Auto` runs here.
pub(crate) fn auto_note(routine: &str, resolved: Result<Impl, animasm::Error>) -> String {
    let form = resolved.map_or_else(|e| format!("nothing ({e})"), |imp| format!("the `{imp}` form"));
    format!(
        "auto: the safe `{routine}` with `Impl::Auto` (the default; its input validation included), which runs \
         {form} on this CPU: what the default costs a user."
    )
}

/// The restore of a routine that does not work in place: nothing.
pub(crate) fn no_restore<B>(_: &mut B) {}
