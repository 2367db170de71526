//! The successors: every form of each id Software routine of the roster
//! (`animasm::roster::id_routines`: the listing, its twin, the scalar port
//! and every successor form, `Origin::Successor`), against its shape's
//! memory floor (`devkit::floors`), glam's per-element loop
//! (`devkit::peers`) and ultraviolet's 8-wide SoA types (`devkit::uv`, on
//! SoA data and with the AoS conversion), where they have the routine, at
//! 64, 1024 and 65536 elements (and the Fox's skeleton for the skeleton
//! routines); one table and one SVG per routine, and the speed targets
//! checked at 1024. The inputs, floors and notes are per [`Shape`]
//! ([`cases`]).
//!
//! Method: the raw kernels (the forms of the routine's table), the floors
//! and the peers run on the same buffers per size, round-robin (starting one
//! further each round), in-place inputs restored from a pristine copy
//! outside the timed region; the median ticks per element of the rounds.
//! Where one call of the fastest row spans fewer than
//! `timer::MIN_SAMPLE_STEPS` of the timer's step (the 64-element and Fox
//! columns on a TSC that moves 26 ticks at a time), a sample is several
//! calls, each on its own copy of the buffers.

use std::hint::black_box;

use animasm::roster::{self, Form, Routine, Shape};
use animasm::{Impl, Isa, JointMat, JointQuat, Origin};
use devkit::floors::{self, Walk};
use devkit::peers;
use devkit::setup::{self, SUCCESSOR_SIZES};
use devkit::timer::{self, Stats};
use devkit::uv::{self, JointScratch, JointsSoa, MatsSoa};
use devkit::{peers::to_affine, plots};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};

use crate::joints::JointKernel;
use crate::matrix::{MatsToQuatsKernel, QuatsToMatsKernel};
use crate::print::{Align::Left as L, Align::Right as R, heading, item, para, print_grid, progress};
use crate::results::{Results, SuccessorTicks};
use crate::skeleton::{SkeletonKernel, TransformJointsKernel};
use crate::table::{Row, impl_order};

mod cases;
use cases::*;

/// Row names of the floors and peers (as in `SuccessorTicks::form`).
const FLOOR: &str = "floor";
const CHAIN: &str = "chain floor";
const GLAM: &str = "glam";
const UV_SOA: &str = "ultraviolet (SoA)";
const UV_AOS: &str = "ultraviolet (with conversion)";

/// Timed rounds at `n` elements: fewer for the large sizes, to keep the
/// section within about two minutes.
fn runs(n: usize) -> usize {
    crate::table::rounds(match n {
        0..=256 => 2001,
        257..=4096 => 501,
        _ => 101,
    })
}

/// Untimed rounds before the timed ones.
const WARMUP: usize = 5;

/// One size of one routine: its buffers and rows.
struct Case<B> {
    /// The column label (`64`, `1024`, `65536`, `Fox (24)`).
    label: String,
    /// The size recorded in `SuccessorTicks::elements`.
    elements: usize,
    /// The elements each run processes (the ticks are divided by it).
    per: usize,
    bufs: B,
    rows: Vec<Row<B>>,
}

/// One measured case: its label, its size and each row's median ticks per
/// element.
type Column = (String, usize, Vec<(&'static str, f64)>);

/// Times every row of `case` round-robin; the median ticks per element by
/// row name. A sample is one call, or where the timer's step is too coarse
/// for the fastest row's call, `timer::calls_per_sample` calls back to
/// back, each on its own copy of the buffers (all restored before it).
fn measure<B: Clone>(case: Case<B>) -> Column {
    let n = case.rows.len();
    let runs = runs(case.per);
    let mut copies = vec![case.bufs];
    let calls = timer::calls_for_rows(n, |i| {
        let row = &case.rows[i];
        (row.restore)(&mut copies[0]);
        let bufs = black_box(&mut copies[0]);
        timer::time(|| (row.call)(bufs))
    });
    let more = vec![copies[0].clone(); calls - 1];
    copies.extend(more);
    let mut samples = vec![Vec::with_capacity(runs); n];
    for round in 0..WARMUP + runs {
        for k in 0..n {
            let i = (round + k) % n;
            let row = &case.rows[i];
            for c in &mut copies {
                (row.restore)(c);
            }
            let bufs = black_box(&mut copies);
            let t = timer::time(|| bufs.iter_mut().for_each(|c| (row.call)(c)));
            black_box(&mut copies);
            if round >= WARMUP {
                samples[i].push(t);
            }
        }
    }
    let rows = case
        .rows
        .iter()
        .zip(samples)
        .map(|(r, mut s)| (r.name, Stats::of_ticks(&mut s, (case.per * calls) as f64).median))
        .collect();
    (case.label, case.elements, rows)
}

/// What the section says of a routine's forms.
pub(super) struct FormSet {
    /// The forms this CPU runs (the timed rows), in [`Impl::ALL`] order.
    run: Vec<Impl>,
    /// The listing (`Origin::Listing`), which the successors are compared
    /// with.
    listing: Option<Impl>,
    /// The successor forms (`Origin::Successor`) of this build, in
    /// [`Impl::ALL`] order.
    successors: Vec<Impl>,
    /// The successor forms this CPU does not run, and why.
    missing: Vec<(Impl, String)>,
}

/// One routine's measurements: per row, the median ticks per element of
/// each case (column).
struct Measured {
    name: &'static str,
    /// The speed targets ([`target`]).
    target: (f64, Option<f64>),
    forms: FormSet,
    columns: Vec<(String, usize)>,
    rows: Vec<(&'static str, Vec<f64>)>,
    notes: Vec<String>,
}

impl Measured {
    fn collect(r: &Routine, forms: FormSet, measured: Vec<Column>, notes: Vec<String>) -> Measured {
        let columns: Vec<(String, usize)> = measured.iter().map(|(l, e, _)| (l.clone(), *e)).collect();
        let names: Vec<&'static str> = measured[0].2.iter().map(|r| r.0).collect();
        let rows = names
            .into_iter()
            .map(|n| {
                (
                    n,
                    measured
                        .iter()
                        .map(|(_, _, rows)| rows.iter().find(|r| r.0 == n).map_or(f64::NAN, |r| r.1))
                        .collect(),
                )
            })
            .collect();
        Measured { name: r.name, target: target(r), forms, columns, rows, notes }
    }

    fn ticks(&self, row: &str, col: usize) -> Option<f64> {
        self.rows.iter().find(|r| r.0 == row).map(|r| r.1[col]).filter(|v| v.is_finite())
    }

    /// The floor a row is compared with: the memory floor, or for the
    /// skeletons the larger of the memory and chain floors.
    fn floor(&self, col: usize) -> Option<f64> {
        match (self.ticks(FLOOR, col), self.ticks(CHAIN, col)) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    fn column(&self, elements: usize) -> Option<usize> {
        self.columns.iter().position(|c| c.1 == elements && c.0 == elements.to_string())
    }
}

/// The short label of a row in the printed tables.
fn short(row: &str) -> &str {
    match row {
        UV_SOA => "ultraviolet SoA",
        UV_AOS => "ultraviolet +conversion",
        r => r,
    }
}

fn print_routine(r: &Measured) {
    outln!("### {}\n", r.name);
    let mut head: Vec<String> = r.columns.iter().map(|c| c.0.clone()).collect();
    head.extend(r.columns.iter().map(|c| format!("{} /floor", c.0.split(' ').next().unwrap_or(""))));
    let mut all = vec!["row".to_string()];
    all.extend(head);
    let head: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let mut align = vec![L];
    align.extend(std::iter::repeat_n(R, head.len() - 1));
    let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
    let mut lines: Vec<Vec<String>> = r
        .rows
        .iter()
        .map(|(name, ticks)| {
            let mut l = vec![short(name).to_string()];
            l.extend(ticks.iter().map(|&t| f(Some(t).filter(|t| t.is_finite()))));
            l.extend((0..r.columns.len()).map(|c| {
                r.floor(c)
                    .zip(Some(ticks[c]).filter(|t| t.is_finite()))
                    .map_or("-".into(), |(fl, t)| format!("{:.2}x", t / fl))
            }));
            l
        })
        .collect();
    for (imp, _) in &r.forms.missing {
        let mut l = vec![imp.name().to_string()];
        l.extend(std::iter::repeat_n("n/a".to_string(), head.len() - 1));
        lines.push(l);
    }
    print_grid(&head, &align, &lines);
    if let Some(listing) = r.forms.listing {
        for s in &r.forms.successors {
            let ratios: Vec<String> = (0..r.columns.len())
                .map(|c| match (r.ticks(listing.name(), c), r.ticks(s.name(), c)) {
                    (Some(l), Some(t)) => format!("{}: {:.2}x", r.columns[c].0, l / t),
                    _ => format!("{}: n/a", r.columns[c].0),
                })
                .collect();
            para(&format!("{s} over {listing} ({listing} ticks / {s} ticks): {}.", ratios.join(", ")));
        }
    }
    for (imp, why) in &r.forms.missing {
        para(&format!("{imp}: n/a, this machine does not run it ({why})."));
    }
    for n in &r.notes {
        para(n);
    }
}

/// The speed targets at 1024 elements, by shape: a successor over the listing,
/// and (`Shape::MatsToQuats`) over the scalar port.
fn target(r: &Routine) -> (f64, Option<f64>) {
    match r.shape {
        // The arithmetic-heavy slerp has the larger headroom.
        Shape::JointBlend { .. } if r.name == "slerp_joints" => (3.0, None),
        Shape::JointBlend { .. } | Shape::QuatsToMats { .. } => (1.5, None),
        Shape::MatsToQuats { .. } => (4.0, Some(1.8)),
        Shape::Skeleton { .. } => (1.3, None),
        _ => (1.15, None),
    }
}

/// The largest ticks over the floor a SIMD successor may take at 1024
/// elements: 2x, and 1.5x for the AVX-512 forms (issue 25's target).
fn floor_target(s: Impl) -> f64 {
    if s == Impl::Avx512 { 1.5 } else { 2.0 }
}

/// The smallest speedup of the AVX-512 successor over the AVX2 one: 1.3x
/// for the two routines whose AVX2 forms spend their time rearranging
/// (`slerp_joints`, `mats_to_quats`), and faster for the others.
fn avx512_target(routine: &str) -> f64 {
    if matches!(routine, "slerp_joints" | "mats_to_quats") { 1.3 } else { 1.0 }
}

fn print_targets(routines: &[Measured]) {
    let n = setup::JOINTS;
    let verdict = |v: Option<f64>, ok: bool| {
        v.map_or("n/a".to_string(), |v| format!("{v:.2}x {}", if ok { "met" } else { "NOT met" }))
    };
    // One column group per SIMD successor form of any routine (the targets
    // are theirs: the portable successor's speed depends on whether the
    // build has a fused multiply-add instruction, see its rows above).
    let mut successors: Vec<Impl> =
        routines.iter().flat_map(|r| r.forms.successors.iter().copied()).filter(|&s| s != Impl::Portable).collect();
    successors.sort_by_key(|&s| impl_order(s));
    successors.dedup();
    let listing = routines.iter().find_map(|r| r.forms.listing).map_or("listing", Impl::name);
    let wide_over_narrow = successors.contains(&Impl::Avx512) && successors.contains(&Impl::Avx2);
    let mut scalar_notes = Vec::new();
    let lines: Vec<Vec<String>> = routines
        .iter()
        .map(|r| {
            let c = r.column(n);
            let t = |row: &str| c.and_then(|c| r.ticks(row, c));
            let (want, want_scalar) = r.target;
            let mut line = vec![r.name.to_string()];
            for s in &successors {
                let succ = t(s.name());
                let over_listing = r.forms.listing.and_then(|l| t(l.name())).zip(succ).map(|(a, b)| a / b);
                let over_floor = c.and_then(|c| r.floor(c)).zip(succ).map(|(fl, a)| a / fl);
                if let Some(w) = want_scalar {
                    let over_scalar = t(Impl::Scalar.name()).zip(succ).map(|(a, b)| a / b);
                    let v = verdict(over_scalar, over_scalar.is_some_and(|x| x >= w));
                    let v = if successors.len() > 1 { format!("{s} {v}") } else { v };
                    scalar_notes.push(format!("{} also over the scalar port (target >= {w}x): {v}.", r.name));
                }
                line.extend([
                    verdict(over_listing, over_listing.is_some_and(|x| x >= want)),
                    format!("{want}x"),
                    verdict(over_floor, over_floor.is_some_and(|x| x <= floor_target(*s))),
                ]);
            }
            if wide_over_narrow {
                // The AVX-512 form over the AVX2 one, on the same buffers.
                let over = t(Impl::Avx2.name()).zip(t(Impl::Avx512.name())).map(|(a, b)| a / b);
                let want = avx512_target(r.name);
                line.push(verdict(over, over.is_some_and(|x| x >= want)));
            }
            let best = r
                .rows
                .iter()
                .filter(|(name, _)| r.forms.run.iter().any(|i| i.name() == *name))
                .filter_map(|(name, _)| t(name).map(|v| (*name, v)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let vs = |peer: &str| match (best, t(peer)) {
                (Some((_, b)), Some(p)) => format!("{:.2}x", p / b),
                _ => "-".into(),
            };
            line.extend([best.map_or("-".into(), |b| b.0.to_string()), vs(GLAM), vs(UV_SOA)]);
            line
        })
        .collect();
    outln!("### The successors' targets at {n} elements\n");
    let mut head = vec!["routine".to_string()];
    let mut align = vec![L];
    for s in &successors {
        head.extend([format!("{s} / {listing}"), "target".into(), format!("{s} / floor")]);
        align.extend([L, R, L]);
    }
    if wide_over_narrow {
        head.push("avx2 / avx512".into());
        align.push(L);
    }
    head.extend(["best", "glam/best", "uv/best"].map(String::from));
    align.extend([L, R, R]);
    print_grid(&head.iter().map(String::as_str).collect::<Vec<_>>(), &align, &lines);
    let s = successors.iter().map(|s| s.name()).collect::<Vec<_>>().join("/");
    para(&format!(
        "This run: {s} / {listing} = {listing}'s ticks over {s}'s (the speedup; target: the successors' speedup over the listing); {s} / floor = \
         {s}'s ticks over the floor's (for the skeletons the larger of the memory and chain floors; target <= 2x, \
         <= 1.5x for avx512); avx2 / avx512 = avx2's ticks over avx512's (target: >= 1.3x for slerp_joints and \
         mats_to_quats, faster than avx2 for the others); \
         best = the fastest form of the routine here; glam/best and uv/best = glam's and ultraviolet's (SoA, \
         no conversion) ticks over the best form's (above 1.00x: the best form is faster). n/a: no {s} form \
         runs on this machine. {}",
        scalar_notes.join(" ")
    ));
}

/// The successor forms of the id routines (`Origin::Successor`, compiled in
/// this build), each once, in [`Impl::ALL`] order, with their instruction
/// sets.
pub(crate) fn successor_forms() -> Vec<(Impl, Isa)> {
    let mut forms: Vec<(Impl, Isa)> = roster::id_routines()
        .flat_map(|r| r.all_forms().filter(|f| f.origin == Origin::Successor).map(|f| (f.imp, f.isa)))
        .collect();
    forms.sort_by_key(|&(imp, _)| impl_order(imp));
    forms.dedup();
    forms
}

/// An instruction set in words, with its `f32` lanes (`AVX2 + FMA, 8
/// lanes`).
pub(crate) fn isa_words(isa: Isa) -> String {
    isa.words().into()
}

/// The successor forms in a sentence, each as `Impl::<form>: <instruction
/// set>, <lanes> lanes` with `quote` around the form (several joined by
/// `; `; `none in this build`).
pub(crate) fn successors_in_words(quote: &str) -> String {
    let forms = successor_forms();
    if forms.is_empty() {
        return "none in this build".into();
    }
    forms
        .iter()
        .map(|(imp, isa)| format!("{quote}Impl::{imp:?}{quote}: {}", isa_words(*isa)))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One routine's measurements at every size (and on the Fox for the
/// skeletons), with its notes; `None` for a shape the section does not
/// measure.
fn measure_routine(r: &'static Routine) -> Option<Measured> {
    let over_sizes = |case: &dyn Fn(usize) -> Column| -> Vec<Column> {
        SUCCESSOR_SIZES
            .iter()
            .map(|&n| {
                progress(&format!("successors: {} at {n}", r.name));
                case(n)
            })
            .collect()
    };
    let (forms, measured, notes) = match r.shape {
        Shape::JointBlend { forms, .. } => {
            let (kernels, set) = forms_of(r, forms);
            let m = over_sizes(&|n| measure(joint_blend_case(r, &kernels, n)));
            (set, m, joint_blend_notes(r))
        }
        Shape::QuatsToMats { forms, .. } => {
            let (kernels, set) = forms_of(r, forms);
            let m = over_sizes(&|n| measure(quats_to_mats_case(r, &kernels, n)));
            (set, m, quats_to_mats_notes(r))
        }
        Shape::MatsToQuats { forms, .. } => {
            let (kernels, set) = forms_of(r, forms);
            let m = over_sizes(&|n| measure(mats_to_quats_case(r, &kernels, n)));
            (set, m, mats_to_quats_notes(r))
        }
        Shape::Skeleton { forms, .. } => {
            let (kernels, set) = forms_of(r, forms);
            let walk = Walk::of(r).expect("a skeleton routine walks");
            let mut m = over_sizes(&|n| {
                measure(skeleton_case(r, n.to_string(), setup::skeleton_input_n(walk, n), &kernels, walk))
            });
            let fox = setup::fox_skeleton_input(walk);
            let fox_n = fox.0.len();
            progress(&format!("successors: {} on the Fox ({fox_n} joints)", r.name));
            m.push(measure(skeleton_case(r, format!("Fox {fox_n}"), fox, &kernels, walk)));
            (set, m, skeleton_notes(r, walk, fox_n))
        }
        Shape::TransformJoints { forms, .. } => {
            let (kernels, set) = forms_of(r, forms);
            let m = over_sizes(&|n| measure(transform_joints_case(r, &kernels, n)));
            (set, m, transform_joints_notes(r))
        }
        _ => return None,
    };
    Some(Measured::collect(r, forms, measured, notes))
}

/// The report's section: every id routine at every size, the targets, the
/// plots; fills `res.successor_ticks`.
pub(crate) fn successors_section(res: &mut Results) {
    heading("5b. Successors: every form against the memory floor and the peers, 64 to 65536 elements");
    para(&format!(
        "The successors ({}) beside the listing (asm), its twin \
         (intrinsics) and the scalar port, the memory floor (`devkit::floors`: the routine's loads and stores \
         with one add, AVX 256-bit accesses; for the skeletons also the dependency-chain floor, the parent-to-child \
         chain with one FMA per row), glam's per-element loop, and ultraviolet 0.10's 8-wide SoA types \
         (`devkit::uv`) twice: on data already in SoA (`ultraviolet SoA`) and including the AoS-to-SoA \
         conversion and back that a user with `JointQuat`/`JointMat` arrays pays (`ultraviolet +conversion`). \
         {} per element, the median of {} / {} / {} rounds at 64 / 1024 / 65536 elements, round-robin across \
         the rows on the same buffers, in-place inputs restored outside the timed region (where one call of \
         the fastest row spans fewer than {} steps of the timer, a sample is several calls back to back, each \
         on its own copy of the buffers: this run's step is {} {}); /floor = the row's \
         ticks over the floor's. The raw kernels are timed (`<routine>::kernel(imp)`), as in the papers' tables. \
         The floors run {}. ultraviolet's `f32x8` is `wide`'s, two SSE halves in a build without a global \
         `target-feature` (as here, and as a user gets by default); the rotor/quaternion mapping is \
         ultraviolet's own `from_quaternion_array` (sign flips; `devkit/src/uv.rs` says what each peer does). \
         At 65536 elements the data no longer fit in L2; the branchy rows (the scalar `mats_to_quats` and \
         glam's `from_affine3`) also lose there the branch predictor's memory of the 1024 elements it sees \
         again every round.",
        successors_in_words("`"),
        timer::UNIT,
        runs(64),
        runs(1024),
        runs(65536),
        timer::MIN_SAMPLE_STEPS,
        timer::step(),
        timer::UNIT,
        if floors::simd() {
            "their AVX kernels"
        } else {
            "their portable loops (no AVX here: not a floor of the AVX2 forms)"
        }
    ));
    let routines: Vec<Measured> = roster::id_routines().filter_map(measure_routine).collect();
    for r in &routines {
        print_routine(r);
        for (row, ticks) in &r.rows {
            for (c, &t) in ticks.iter().enumerate() {
                res.successor_ticks.push(SuccessorTicks {
                    routine: r.name,
                    form: row.to_string(),
                    elements: r.columns[c].1,
                    ticks: t,
                });
            }
        }
    }
    print_targets(&routines);
    write_plots(res, &routines);
}

/// One SVG per routine: ticks per element against size for the listing,
/// the successors, the floors and the peers.
fn write_plots(res: &mut Results, routines: &[Measured]) {
    progress("successors: writing the plots");
    let dir = plots::out_dir();
    if let Err(e) = std::fs::create_dir_all(&dir) {
        para(&format!("The successors' plots could not be written: creating {}: {e}.", dir.display()));
        return;
    }
    let mut written = Vec::new();
    for r in routines {
        let forms: Vec<&str> = r.forms.listing.iter().chain(&r.forms.successors).map(|f| f.name()).collect();
        let series: Vec<(String, Vec<(f64, f64)>)> = r
            .rows
            .iter()
            .filter(|(name, _)| forms.contains(name) || [FLOOR, CHAIN, GLAM, UV_SOA, UV_AOS].contains(name))
            .map(|(name, ticks)| {
                let pts = r
                    .columns
                    .iter()
                    .zip(ticks)
                    .filter(|((label, n), t)| *label == n.to_string() && t.is_finite())
                    .map(|((_, n), &t)| (*n as f64, t))
                    .collect();
                (name.to_string(), pts)
            })
            .collect();
        let path = dir.join(format!("successors_{}.svg", r.name));
        match plots::ticks_vs_size(&path, &format!("{}: {} per element against size", r.name, timer::UNIT), &series) {
            Ok(()) => written.push(path),
            Err(e) => para(&format!("The plot of {} could not be written: {e}.", r.name)),
        }
    }
    if !written.is_empty() {
        para("SVG plots (ticks per element against size, log axes):");
        for p in &written {
            item(&p.display().to_string());
        }
        outln!();
    }
    res.plots.extend(written);
}
