//! `cargo run --release --example report`: the crate's main job.
//!
//! Plain text for a 100-column terminal (the tables are also markdown pipe
//! tables), progress on stderr. The machine (CPU, SIMD features detected at
//! run time, the TSC rate measured against `Instant`) and the method; then
//! one section per paper, in the paper's row order, its published figures
//! beside the measured ones: *Slerping Clock Cycles* (`slerp_joints`,
//! `lerp_joints`), *From Quaternion to Matrix and Back* (`quats_to_mats`,
//! `mats_to_quats`), *The Skeleton Assembly Line* (`transform_skeleton` and
//! its `movss` + `shufps` variant, `untransform_skeleton`,
//! `transform_joints`), Intel's Table 1 (`slerp_quats` at 64, 67 and 1024
//! quaternions) and zeux's cycles-per-element table (`nlerp`), each with the
//! accuracy measurements next to the paper's error figures; then llvm-mca's
//! estimates of the asm loop bodies (`common/mca.rs`) beside the measured
//! ticks, the errata index of `asm_notes/README.md` with each erratum's
//! measured effect (or the test that shows it), the pose pipeline on
//! `data/Fox.glb` (`common/pipeline.rs`), the SVG plots (`common/plots.rs`)
//! and a summary.
//!
//! Timing: the raw kernels are timed (as the papers timed the routine
//! itself, without the safe functions' validation), each run on joints
//! restored from a pristine copy outside the timed region, with `_rdtsc`
//! fenced by `_mm_lfence` on x86_64 (`std::time::Instant` in nanoseconds
//! elsewhere). [`RUNS`] runs per implementation, round-robin across the
//! implementations (starting one further each round) so that drift spreads
//! over all of them; the median and the minimum per joint are reported.
//!
//! Adding a routine = one `*_table` function that builds its buffers and rows
//! (see [`joint_table`], or [`kernel_rows`] for any raw-kernel signature)
//! and one line in `main`; a routine whose table has another shape measures
//! its rows with [`measure_rows`] and prints its own (see
//! [`print_slerp_quats_tables`], [`print_nlerp_table`]).

use std::hint::black_box;

use animasm::{Impl, JointMat, JointQuat};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};

#[path = "../tests/common/fox.rs"]
mod fox;
#[path = "../tests/common/inputs.rs"]
mod inputs;
#[path = "../tests/common/measure.rs"]
mod measure;
#[path = "../tests/common/oracle.rs"]
mod oracle;
#[path = "../benches/common/peers.rs"]
mod peers;
#[path = "../benches/common/setup.rs"]
mod setup;

use setup::{JOINTS, LERP, SKELETON_RANGE};

/// Timed runs per implementation.
const RUNS: usize = 301;
/// Untimed rounds before the timed ones (caches, branch predictors, clocks).
const WARMUP: usize = 10;

/// The timer: TSC ticks on x86_64, nanoseconds elsewhere.
#[cfg(target_arch = "x86_64")]
mod timer {
    use core::arch::x86_64::{_mm_lfence, _rdtsc};

    /// What [`time`] counts.
    pub const UNIT: &str = "ticks";
    /// How the report describes the timer.
    pub const NOTE: &str = "TSC ticks (`_rdtsc` fenced by `_mm_lfence`). TSC ticks at a constant rate, \
                            not core cycles; this VM exposes no cycle counters.";

    /// Ticks spent in `f`: `lfence; rdtsc; lfence; f(); lfence; rdtsc`.
    #[inline(always)]
    pub fn time(f: impl FnOnce()) -> u64 {
        // SAFETY: `lfence` and `rdtsc` only need SSE2 and the TSC, which every
        // x86_64 CPU has; they touch no memory.
        let start = unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        };
        f();
        // SAFETY: as above.
        let end = unsafe {
            _mm_lfence();
            _rdtsc()
        };
        end.wrapping_sub(start)
    }
}

/// The timer: TSC ticks on x86_64, nanoseconds elsewhere.
#[cfg(not(target_arch = "x86_64"))]
mod timer {
    /// What [`time`] counts.
    pub const UNIT: &str = "ns";
    /// How the report describes the timer.
    pub const NOTE: &str = "TSC timing is x86_64-only; this target is timed with `std::time::Instant`, \
                            in nanoseconds.";

    /// Nanoseconds spent in `f`.
    #[inline(always)]
    pub fn time(f: impl FnOnce()) -> u64 {
        let start = std::time::Instant::now();
        f();
        start.elapsed().as_nanos() as u64
    }
}

/// One row of a timing table: an implementation and how to run it on the
/// table's buffers `B`.
struct Row<B> {
    /// `scalar`, `intrinsics`, `asm`, or the peer's name.
    name: &'static str,
    /// The paper's figure for this row, if it has one: P4 130nm cycles per
    /// element (for `nlerp`, the article's IACA cycles per element).
    paper: Option<f64>,
    /// Puts this row's input back in place (not timed).
    restore: fn(&mut B),
    /// The timed call.
    call: Box<dyn Fn(&mut B)>,
}

/// A timing table: a routine's buffers and rows.
struct Table<B> {
    /// The routine's name (`slerp_joints`): the progress line's and the
    /// llvm-mca section's key.
    routine: &'static str,
    /// The heading.
    title: String,
    /// The paper's published C and SSE figures, if it has a table of them.
    paper: Option<Paper>,
    /// Elements (joints) per call.
    count: usize,
    /// The buffers every row runs on.
    bufs: B,
    /// One row per implementation; the `scalar` row is the baseline.
    rows: Vec<Row<B>>,
    /// Lines printed under the table.
    notes: Vec<String>,
}

/// Median and minimum of one row, in timer units per element.
struct Stats {
    median: f64,
    min: f64,
}

/// Times every row [`RUNS`] times, round-robin.
fn measure_rows<B>(table: &mut Table<B>) -> Vec<Stats> {
    let n = table.rows.len();
    let mut samples = vec![Vec::with_capacity(RUNS); n];
    for round in 0..WARMUP + RUNS {
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
    samples
        .into_iter()
        .map(|mut s| {
            s.sort_unstable();
            let per = |t: u64| t as f64 / table.count as f64;
            Stats { median: per(s[s.len() / 2]), min: per(s[0]) }
        })
        .collect()
}

/// `a / b` as `"N.NNx"`, or `-`.
fn ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 => format!("{:.2}x", a / b),
        _ => "-".into(),
    }
}

// ---------------------------------------------------------------------------
// Plain-text layout: 100 columns, tables that are also markdown tables.

/// The terminal width the report is laid out for.
const WIDTH: usize = 100;

/// A column's alignment.
#[derive(Clone, Copy, PartialEq)]
enum Align {
    Left,
    Right,
}
use Align::{Left as L, Right as R};

/// Prints an aligned table (a markdown pipe table whose columns line up).
fn print_grid(head: &[&str], align: &[Align], rows: &[Vec<String>]) {
    let mut w: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, c) in row.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |cells: &mut dyn Iterator<Item = String>| {
        let mut s = String::from("|");
        for (i, c) in cells.enumerate() {
            let pad = " ".repeat(w[i].saturating_sub(c.chars().count()));
            match align[i] {
                L => s.push_str(&format!(" {c}{pad} |")),
                R => s.push_str(&format!(" {pad}{c} |")),
            }
        }
        println!("{s}");
    };
    line(&mut head.iter().map(|h| h.to_string()));
    let sep: String = w
        .iter()
        .zip(align)
        .map(|(&w, &a)| if a == L { format!(":{}|", "-".repeat(w + 1)) } else { format!("{}:|", "-".repeat(w + 1)) })
        .collect();
    println!("|{sep}");
    for row in rows {
        line(&mut row.iter().cloned());
    }
    println!();
}

/// `text` wrapped to [`WIDTH`] columns, the first line after `first`, the
/// others indented by `indent` spaces.
fn wrap(first: &str, text: &str, indent: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && cur.chars().count() + 1 + word.chars().count() > WIDTH {
            lines.push(std::mem::replace(&mut cur, " ".repeat(indent)));
            empty = true;
        }
        if !empty {
            cur.push(' ');
        }
        cur.push_str(word);
        empty = false;
    }
    lines.push(cur);
    lines
}

/// Prints a paragraph wrapped to [`WIDTH`] columns, then a blank line.
fn para(text: &str) {
    for l in wrap("", text, 0) {
        println!("{l}");
    }
    println!();
}

/// Prints a list item wrapped to [`WIDTH`] columns, continuation lines
/// indented under the text.
fn item(text: &str) {
    for l in wrap("- ", text, 2) {
        println!("{l}");
    }
}

/// Prints a section heading (markdown `##`).
fn heading(text: &str) {
    println!("## {text}\n");
}

/// When the report started (for the progress lines).
static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// A progress line on stderr: `[  1.2 s] measuring slerp_joints ...`.
fn progress(what: &str) {
    let t = START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64();
    eprintln!("[{t:5.1} s] {what} ...");
}

/// One timing table's results: median and minimum per element by row name.
struct Measured {
    rows: Vec<(&'static str, Stats)>,
    paper: Option<Paper>,
}

impl Measured {
    fn median(&self, name: &str) -> Option<f64> {
        self.rows.iter().find(|(n, _)| *n == name).map(|(_, s)| s.median)
    }

    /// The row's speedup over the scalar row.
    fn speedup(&self, name: &str) -> Option<f64> {
        Some(self.median(Impl::Scalar.name())? / self.median(name)?)
    }
}

/// Measures and prints one table: the paper's rows (its C and SSE figures
/// on the Pentium 4 130nm and 90nm, and its speedup) on the left, the
/// measured rows (scalar beside C, asm beside SSE) on the right.
fn print_table<B>(mut table: Table<B>) -> Measured {
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
    println!("{}\n", table.title);
    print_grid(
        &["published (P4)", "130nm", "90nm", "x C", "measured", timer::UNIT, "min", "x C"],
        &[L, R, R, R, L, R, R, R],
        &lines,
    );
    if let Some(p) = table.paper {
        para(&format!(
            "Published: the paper's cycles per joint on the Pentium 4 130nm and 90nm (its SSE figure shown once, \
             for both the asm and the intrinsics rows); x C on the 130nm, {} on the 90nm. Measured: {} per joint, \
             median and minimum of {RUNS} runs; x C = the scalar port's median / the row's.",
            ratio(Some(p.c_90), Some(p.sse_90)),
            timer::UNIT
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
struct Paper {
    /// The paper's name of the routine (`SlerpJoints`).
    name: &'static str,
    c_130: f64,
    sse_130: f64,
    c_90: f64,
    sse_90: f64,
}

impl Paper {
    /// The 130nm figure of an implementation's row: the C's for the scalar
    /// port, the SSE listing's for the asm and intrinsics.
    fn for_impl(&self, imp: Impl) -> f64 {
        if imp == Impl::Scalar { self.c_130 } else { self.sse_130 }
    }
}

// ---------------------------------------------------------------------------
// Joint-list routines: slerp_joints, lerp_joints.

/// The raw kernels' signature (`slerp_joints` and `lerp_joints`, every form).
type JointKernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);
use peers::{GlamJointLoop as GlamLoop, glam_lerp_joints, glam_slerp_joints, to_glam};

/// The raw kernels of a routine that this target has, in [`Impl::ALL`]
/// order, as the fn pointer type `$ty` (`animasm::$routine::{scalar,
/// intrinsics, asm}::$routine`).
macro_rules! kernels {
    ($ty:ty, $routine:ident) => {{
        #[cfg(target_arch = "x86_64")]
        let kernels: Vec<(Impl, $ty)> = vec![
            (Impl::Scalar, animasm::$routine::scalar::$routine),
            (Impl::Intrinsics, animasm::$routine::intrinsics::$routine),
            (Impl::Asm, animasm::$routine::asm::$routine),
        ];
        #[cfg(not(target_arch = "x86_64"))]
        let kernels: Vec<(Impl, $ty)> = vec![(Impl::Scalar, animasm::$routine::scalar::$routine)];
        kernels
    }};
}

/// The papers' benchmark data: two lists of [`JOINTS`] joints and the
/// identity index, plus the same data as glam arrays.
struct JointLists {
    pristine: Vec<JointQuat>,
    joints: Vec<JointQuat>,
    blend: Vec<JointQuat>,
    index: Vec<i32>,
    pristine_q: Vec<GQuat>,
    pristine_t: Vec<GVec4>,
    q: Vec<GQuat>,
    t: Vec<GVec4>,
    blend_q: Vec<GQuat>,
    blend_t: Vec<GVec4>,
}

impl JointLists {
    fn new() -> Self {
        let (pristine, blend, index) = setup::joint_lists();
        let (pristine_q, pristine_t) = to_glam(&pristine);
        let (blend_q, blend_t) = to_glam(&blend);
        JointLists {
            joints: pristine.clone(),
            q: pristine_q.clone(),
            t: pristine_t.clone(),
            pristine_q,
            pristine_t,
            blend_q,
            blend_t,
            pristine,
            blend,
            index,
        }
    }

    fn restore(&mut self) {
        self.joints.copy_from_slice(&self.pristine);
    }

    fn restore_glam(&mut self) {
        self.q.copy_from_slice(&self.pristine_q);
        self.t.copy_from_slice(&self.pristine_t);
    }
}

/// The table of a joint-list routine: its raw kernels and its glam peer.
fn joint_table(
    routine: &'static str,
    title: &str,
    kernels: Vec<(Impl, JointKernel)>,
    peer: GlamLoop,
    paper: Paper,
) -> Table<JointLists> {
    let mut rows: Vec<Row<JointLists>> = kernels
        .into_iter()
        .filter(|(imp, _)| imp.is_available())
        .map(|(imp, kernel)| Row {
            name: imp.name(),
            paper: Some(paper.for_impl(imp)),
            restore: JointLists::restore,
            call: Box::new(move |b: &mut JointLists| {
                // SAFETY: `joint_lists` gives `JOINTS` joints in each list
                // (16-byte aligned `Vec<JointQuat>`s, two allocations) and the
                // identity index `0..JOINTS`, so every entry addresses a joint
                // of both lists; `JOINTS <= MAX_JOINTS`.
                unsafe { kernel(b.joints.as_mut_ptr(), b.blend.as_ptr(), LERP, b.index.as_ptr(), JOINTS as i32) }
            }),
        })
        .collect();
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: JointLists::restore_glam,
        call: Box::new(move |b: &mut JointLists| peer(&mut b.q, &mut b.t, &b.blend_q, &b.blend_t, LERP, &b.index)),
    });
    Table {
        routine,
        paper: Some(paper),
        title: format!("{title}, {JOINTS} joints, hot cache, lerp {LERP}"),
        count: JOINTS,
        bufs: JointLists::new(),
        rows,
        notes: vec!["glam: `Quat` and `Vec4` arrays holding the same data, one loop over `index`.".into()],
    }
}

/// `SlerpJoints` (Appendix A), against `Quat::slerp` in glam.
fn slerp_joints_table() -> Table<JointLists> {
    joint_table(
        "slerp_joints",
        "SlerpJoints (`slerp_joints`)",
        kernels!(JointKernel, slerp_joints),
        glam_slerp_joints,
        Paper { name: "SlerpJoints", c_130: 1011.0, sse_130: 107.0, c_90: 1018.0, sse_90: 128.0 },
    )
}

/// `LerpJoints` (Appendix B), against `Quat::lerp` in glam.
fn lerp_joints_table() -> Table<JointLists> {
    joint_table(
        "lerp_joints",
        "LerpJoints (`lerp_joints`)",
        kernels!(JointKernel, lerp_joints),
        glam_lerp_joints,
        Paper { name: "LerpJoints", c_130: 213.0, sse_130: 50.0, c_90: 248.0, sse_90: 52.0 },
    )
}

// ---------------------------------------------------------------------------
// Joint-matrix routines: quats_to_mats, mats_to_quats, transform_skeleton,
// untransform_skeleton, transform_joints.

use peers::{
    glam_mats_to_quats, glam_quats_to_mats, glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton,
    to_affine, to_affine_paper_rotation,
};

/// A row that runs the raw kernel `kernel` on the table's buffers with `run`.
fn kernel_row<B: 'static, K: Copy + 'static>(
    name: &'static str,
    paper: Option<f64>,
    restore: fn(&mut B),
    kernel: K,
    run: fn(K, &mut B),
) -> Row<B> {
    Row { name, paper, restore, call: Box::new(move |b: &mut B| run(kernel, b)) }
}

/// One row per available kernel of `kernels`, with the paper's figure.
fn kernel_rows<B: 'static, K: Copy + 'static>(
    kernels: Vec<(Impl, K)>,
    paper: &Paper,
    restore: fn(&mut B),
    run: fn(K, &mut B),
) -> Vec<Row<B>> {
    kernels
        .into_iter()
        .filter(|(imp, _)| imp.is_available())
        .map(|(imp, kernel)| kernel_row(imp.name(), Some(paper.for_impl(imp)), restore, kernel, run))
        .collect()
}

/// The restore of a routine that does not work in place: nothing.
fn no_restore<B>(_: &mut B) {}

/// `quats_to_mats`'s raw kernels.
type QuatsToMatsKernel = unsafe fn(*mut JointMat, *const JointQuat, i32);
/// `mats_to_quats`'s raw kernels.
type MatsToQuatsKernel = unsafe fn(*mut JointQuat, *const JointMat, i32);
/// `transform_skeleton`'s and `untransform_skeleton`'s raw kernels.
type SkeletonKernel = unsafe fn(*mut JointMat, *const i32, i32, i32);
/// `transform_joints`'s raw kernels.
type TransformJointsKernel = unsafe fn(*mut JointMat, *const JointMat, *const JointMat, i32);

/// `quats_to_mats`'s data: the joint lists' first list ([`JOINTS`] unit
/// quaternions and translations) and the matrices written, and the same for
/// glam.
struct QuatsToMats {
    quats: Vec<JointQuat>,
    mats: Vec<JointMat>,
    q: Vec<GQuat>,
    t: Vec<GVec4>,
    affine: Vec<Affine3A>,
}

/// `ConvertJointQuatsToJointMats` (*From Quaternion to Matrix and Back*,
/// Appendix A), against `Affine3A::from_rotation_translation` in glam.
fn quats_to_mats_table() -> Table<QuatsToMats> {
    let paper = Paper { name: "ConvertJointQuatsToJointMats", c_130: 54.0, sse_130: 30.0, c_90: 62.0, sse_90: 34.0 };
    let quats = setup::quats_to_mats_input();
    let (q, t) = to_glam(&quats);
    let bufs =
        QuatsToMats { mats: vec![JointMat::default(); JOINTS], affine: vec![Affine3A::IDENTITY; JOINTS], quats, q, t };
    let mut rows =
        kernel_rows(kernels!(QuatsToMatsKernel, quats_to_mats), &paper, no_restore, |kernel, b: &mut QuatsToMats| {
            // SAFETY: both lists hold `JOINTS` elements (16-byte aligned
            // `Vec`s of 16-byte aligned types, two allocations) and
            // `JOINTS <= MAX_JOINTS`.
            unsafe { kernel(b.mats.as_mut_ptr(), b.quats.as_ptr(), JOINTS as i32) }
        });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut QuatsToMats| glam_quats_to_mats(&mut b.affine, &b.q, &b.t)),
    });
    Table {
        routine: "quats_to_mats",
        paper: Some(paper),
        title: format!("ConvertJointQuatsToJointMats (`quats_to_mats`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            "Input: the joint lists' first list (uniform unit quaternions, translations in [-10, 10)). glam: \
             `Affine3A::from_rotation_translation` per joint (`Mat3A::from_quat` and the translation: the \
             same work as the kernel's), from `Quat` and `Vec4` arrays holding the same joints, into \
             `Affine3A`s (64 bytes per joint against `JointMat`'s 48)."
                .into(),
        ],
    }
}

/// `mats_to_quats`'s data: [`JOINTS`] rigid matrices and the joints written,
/// and the same for glam.
struct MatsToQuats {
    mats: Vec<JointMat>,
    quats: Vec<JointQuat>,
    affine: Vec<Affine3A>,
    q: Vec<GQuat>,
    t: Vec<GVec4>,
}

/// `ConvertJointMatsToJointQuats` (*From Quaternion to Matrix and Back*,
/// Appendix B), against `Quat::from_affine3` in glam.
fn mats_to_quats_table() -> Table<MatsToQuats> {
    let paper = Paper { name: "ConvertJointMatsToJointQuats", c_130: 172.0, sse_130: 61.0, c_90: 173.0, sse_90: 72.0 };
    let mats = setup::mats_to_quats_input();
    let positive_trace = mats.iter().filter(|m| m.mat[0] + m.mat[5] + m.mat[10] > 0.0).count();
    let bufs = MatsToQuats {
        quats: vec![JointQuat::default(); JOINTS],
        affine: to_affine_paper_rotation(&mats),
        q: vec![GQuat::IDENTITY; JOINTS],
        t: vec![GVec4::ZERO; JOINTS],
        mats,
    };
    let mut rows =
        kernel_rows(kernels!(MatsToQuatsKernel, mats_to_quats), &paper, no_restore, |kernel, b: &mut MatsToQuats| {
            // SAFETY: both lists hold `JOINTS` elements (two allocations)
            // and `JOINTS <= MAX_JOINTS`.
            unsafe { kernel(b.quats.as_mut_ptr(), b.mats.as_ptr(), JOINTS as i32) }
        });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut MatsToQuats| glam_mats_to_quats(&mut b.q, &mut b.t, &b.affine)),
    });
    Table {
        routine: "mats_to_quats",
        paper: Some(paper),
        title: format!("ConvertJointMatsToJointQuats (`mats_to_quats`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![format!(
            "Input: uniform random rigid matrices (`inputs::rigid_mats`); the trace is positive for \
                 {positive_trace} of {JOINTS}, so the C port's four-way branch is taken at random (the listing \
                 has no branch on the data). glam: `Quat::from_affine3` (DirectXMath's four cases, `sqrt` \
                 and a division) and the translation copied, on `Affine3A`s whose rotation columns are the \
                 rows of the paper's matrices (the paper stores the transpose of the column-vector \
                 rotation), so both compute the quaternion of the same rotation."
        )],
    }
}

/// A skeleton for the in-place skeleton routines: [`JOINTS`] matrices, their
/// pristine copy, the random parents-first hierarchy, and the same for glam.
struct Skeleton {
    pristine: Vec<JointMat>,
    mats: Vec<JointMat>,
    parents: Vec<i32>,
    pristine_g: Vec<Affine3A>,
    g: Vec<Affine3A>,
}

impl Skeleton {
    /// Local matrices: random rigid transforms (`inputs::rigid_mats`) under a
    /// random hierarchy (`inputs::random_parents`): `setup::skeleton_locals`.
    fn locals() -> Self {
        Skeleton::new(setup::skeleton_locals())
    }

    /// Global matrices: [`Skeleton::locals`] transformed to model space (by
    /// the scalar `transform_skeleton`, once): `setup::skeleton_globals`.
    fn globals() -> Self {
        Skeleton::new(setup::skeleton_globals())
    }

    fn new((pristine, parents): (Vec<JointMat>, Vec<i32>)) -> Self {
        let pristine_g = to_affine(&pristine);
        Skeleton { mats: pristine.clone(), g: pristine_g.clone(), pristine, parents, pristine_g }
    }

    fn restore(&mut self) {
        self.mats.copy_from_slice(&self.pristine);
    }

    fn restore_glam(&mut self) {
        self.g.copy_from_slice(&self.pristine_g);
    }

    /// Runs a raw skeleton kernel over [`SKELETON_RANGE`].
    fn run(kernel: SkeletonKernel, b: &mut Skeleton) {
        // SAFETY: `mats` holds `JOINTS` 16-byte aligned matrices and
        // `parents` `JOINTS` entries; `random_parents` gives every joint
        // `i >= 1` of the range a parent in `0..i`, so every joint and parent
        // is in `mats` and never the joint itself; `JOINTS` is far below the
        // kernels' limits.
        unsafe {
            kernel(
                b.mats.as_mut_ptr(),
                b.parents.as_ptr(),
                *SKELETON_RANGE.start() as i32,
                *SKELETON_RANGE.end() as i32,
            )
        }
    }
}

/// The notes on the skeleton tables' data.
fn skeleton_note(what: &str) -> String {
    let n = SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1;
    format!(
        "Input: {what} under a random parents-first hierarchy (`inputs::random_parents`: joint 0 the root, every \
         other joint's parent uniform among the earlier ones); joints {}..={} ({n} joints; the per-joint \
         figures divide by {n}), restored from a pristine copy before every run.",
        SKELETON_RANGE.start(),
        SKELETON_RANGE.end()
    )
}

/// `TransformSkeleton` (*The Skeleton Assembly Line*, Appendix A), with the
/// `movss` + `shufps` variant, against `Affine3A` products in glam.
fn transform_skeleton_table() -> Table<Skeleton> {
    let paper = Paper { name: "TransformSkeleton", c_130: 130.0, sse_130: 53.0, c_90: 163.0, sse_90: 53.0 };
    let mut rows = kernel_rows(kernels!(SkeletonKernel, transform_skeleton), &paper, Skeleton::restore, Skeleton::run);
    #[cfg(target_arch = "x86_64")]
    {
        use animasm::transform_skeleton::{asm, intrinsics};
        let variants: [(&str, SkeletonKernel); 2] = [
            ("intrinsics (movss+shufps)", intrinsics::transform_skeleton_movss_shufps),
            ("asm (movss+shufps)", asm::transform_skeleton_movss_shufps),
        ];
        for (name, kernel) in variants {
            rows.push(kernel_row(name, None, Skeleton::restore, kernel, Skeleton::run));
        }
    }
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: Skeleton::restore_glam,
        call: Box::new(|b: &mut Skeleton| glam_transform_skeleton(&mut b.g, &b.parents, SKELETON_RANGE)),
    });
    Table {
        routine: "transform_skeleton",
        paper: Some(paper),
        title: format!("TransformSkeleton (`transform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::locals(),
        rows,
        notes: vec![
            skeleton_note("random rigid local matrices"),
            "The (movss+shufps) rows are the listing with section 3's other way to broadcast a scalar \
             (`movss` + `shufps` instead of `pshufd`), which the paper recommends timing but does not report. \
             glam: `m[i] = m[parents[i]] * m[i]` with `Affine3A`, in order."
                .into(),
        ],
    }
}

/// `UntransformSkeleton` (*The Skeleton Assembly Line*, Appendix B),
/// against `Affine3A::inverse` products in glam.
fn untransform_skeleton_table() -> Table<Skeleton> {
    let paper = Paper { name: "UntransformSkeleton", c_130: 131.0, sse_130: 55.0, c_90: 154.0, sse_90: 56.0 };
    let mut rows =
        kernel_rows(kernels!(SkeletonKernel, untransform_skeleton), &paper, Skeleton::restore, Skeleton::run);
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: Skeleton::restore_glam,
        call: Box::new(|b: &mut Skeleton| glam_untransform_skeleton(&mut b.g, &b.parents, SKELETON_RANGE)),
    });
    Table {
        routine: "untransform_skeleton",
        paper: Some(paper),
        title: format!("UntransformSkeleton (`untransform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::globals(),
        rows,
        notes: vec![
            skeleton_note("the global matrices of the TransformSkeleton table's skeleton"),
            "glam: `m[i] = m[parents[i]].inverse() * m[i]` with `Affine3A`, last joint first. glam's `inverse` \
             is the general one (cofactors and a division by the determinant); the kernels take the rigid \
             inverse `[R^T | -R^T t]`, which a glam user could write by hand for less work (not done here)."
                .into(),
        ],
    }
}

/// `transform_joints`'s data: two lists of [`JOINTS`] rigid matrices and the
/// products, and the same for glam.
struct JointPairs {
    a: Vec<JointMat>,
    b: Vec<JointMat>,
    r: Vec<JointMat>,
    ga: Vec<Affine3A>,
    gb: Vec<Affine3A>,
    gr: Vec<Affine3A>,
}

/// `TransformJoints` (*The Skeleton Assembly Line*, Appendix C), against
/// `Affine3A` products in glam.
fn transform_joints_table() -> Table<JointPairs> {
    let paper = Paper { name: "TransformJoints", c_130: 135.0, sse_130: 36.0, c_90: 148.0, sse_90: 48.0 };
    let (a, b) = setup::transform_joints_input();
    let bufs = JointPairs {
        ga: to_affine(&a),
        gb: to_affine(&b),
        gr: vec![Affine3A::IDENTITY; JOINTS],
        r: vec![JointMat::default(); JOINTS],
        a,
        b,
    };
    let mut rows = kernel_rows(
        kernels!(TransformJointsKernel, transform_joints),
        &paper,
        no_restore,
        |kernel, p: &mut JointPairs| {
            // SAFETY: the three lists hold `JOINTS` 16-byte aligned matrices
            // each, in three allocations; `JOINTS <= MAX_JOINTS`.
            unsafe { kernel(p.r.as_mut_ptr(), p.a.as_ptr(), p.b.as_ptr(), JOINTS as i32) }
        },
    );
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: no_restore,
        call: Box::new(|p: &mut JointPairs| glam_transform_joints(&mut p.gr, &p.ga, &p.gb)),
    });
    Table {
        routine: "transform_joints",
        paper: Some(paper),
        title: format!("TransformJoints (`transform_joints`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            "Input: two lists of random rigid matrices (`inputs::rigid_mats`), the products into a third; \
             nothing to restore. glam: `r[i] = a[i] * b[i]` with `Affine3A`."
                .into(),
        ],
    }
}

// ---------------------------------------------------------------------------
// slerp_quats: Intel's AVX slerp of quaternion arrays, the article's Table 1.

use animasm::Quat;
use animasm::slerp_quats::AlignedQuats;
use peers::{glam_lerp_stream, glam_slerp_quats, glam_slerp_stream, to_glam_quats};
use setup::{NLERP_ELEMENTS, SLERP_QUATS_COUNTS, SLERP_QUATS_FACTOR};

/// `slerp_quats`' raw kernels: `(result, from, to, factor, count)`.
type SlerpQuatsKernel = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32);

/// The article's Table 1 (Sandy Bridge, ICC, data in L1): the AVX kernel's
/// speedup over the 128-bit kernel for 64 and 67 quaternions.
const TABLE1: [(usize, f64); 2] = [(64, 2.16), (67, 1.86)];

/// `slerp_quats`' data for one count: the quaternion pairs in
/// 32-byte-aligned storage, the results, and the same for glam.
struct QuatArrays {
    /// Quaternions per call.
    n: usize,
    /// Back-to-back calls per timed run (see [`slerp_quats_tables`]).
    calls: usize,
    from: AlignedQuats,
    to: AlignedQuats,
    result: AlignedQuats,
    gfrom: Vec<GQuat>,
    gto: Vec<GQuat>,
    gresult: Vec<GQuat>,
}

impl QuatArrays {
    fn new(n: usize) -> Self {
        let (from, to) = setup::slerp_quats_input(n);
        let (gfrom, gto) = (to_glam_quats(&from), to_glam_quats(&to));
        QuatArrays {
            n,
            calls: (JOINTS / n).max(1),
            result: AlignedQuats::zeroed(n),
            gresult: vec![GQuat::IDENTITY; n],
            from,
            to,
            gfrom,
            gto,
        }
    }

    /// Runs a raw kernel [`QuatArrays::calls`] times.
    fn run(kernel: SlerpQuatsKernel, b: &mut QuatArrays) {
        for _ in 0..b.calls {
            let (result, from, to) = (black_box(b.result.as_mut_ptr()), b.from.as_ptr(), b.to.as_ptr());
            // SAFETY: the three arrays hold `n` (<= 1024) quaternions each in
            // `AlignedQuats` (32-byte aligned, three allocations, `result`
            // distinct from the inputs); the AVX kernels are only put in a
            // row where `slerp_quats::avx_available()`.
            unsafe { kernel(result, from, to, SLERP_QUATS_FACTOR, b.n as i32) };
        }
    }

    /// Runs the glam peer [`QuatArrays::calls`] times.
    fn run_glam(b: &mut QuatArrays) {
        for _ in 0..b.calls {
            glam_slerp_quats(black_box(&mut b.gresult), &b.gfrom, &b.gto, SLERP_QUATS_FACTOR);
        }
    }
}

/// The 128-bit kernel's row name: the baseline of Table 1.
const SSE_ROW: &str = "sse (128-bit baseline)";

/// `slerp_quats`' rows for one count: the 128-bit baseline, the AVX kernels
/// (where the CPU has AVX), the scalar forms and glam.
fn slerp_quats_table(n: usize) -> Table<QuatArrays> {
    let mut kernels: Vec<(&'static str, SlerpQuatsKernel)> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        use animasm::slerp_quats::{asm, intrinsics, sse};
        kernels.push((SSE_ROW, sse::slerp_quats_sse));
        if animasm::slerp_quats::avx_available() {
            kernels.push(("asm as published", asm::slerp_quats_as_published));
            kernels.push(("intrinsics as published", intrinsics::slerp_quats_as_published));
            kernels.push(("asm corrected", asm::slerp_quats_corrected));
            kernels.push(("intrinsics corrected", intrinsics::slerp_quats_corrected));
        }
    }
    use animasm::slerp_quats::scalar;
    kernels.push(("scalar as published", scalar::slerp_quats_as_published));
    kernels.push(("scalar corrected", scalar::slerp_quats_corrected));
    let mut rows: Vec<Row<QuatArrays>> =
        kernels.into_iter().map(|(name, kernel)| kernel_row(name, None, no_restore, kernel, QuatArrays::run)).collect();
    rows.push(Row { name: "glam Quat::slerp", paper: None, restore: no_restore, call: Box::new(QuatArrays::run_glam) });
    let bufs = QuatArrays::new(n);
    Table {
        routine: "slerp_quats",
        title: String::new(),
        paper: None,
        count: n * bufs.calls,
        bufs,
        rows,
        notes: Vec::new(),
    }
}

/// The article's Table 1 on this CPU: every `slerp_quats` kernel at 64, 67
/// and 1024 quaternions, in ticks per quaternion, and its speedup over the
/// 128-bit kernel (the AVX rows' speedup is Table 1's figure), next to the
/// article's; then the corrected kernel's cost relative to the published one.
///
/// One table of rows per count, timed as the other tables (round-robin,
/// [`RUNS`] runs, median). The 64 and 67 quaternions of one call take a few
/// hundred ticks, not far above the timer's overhead, so each run times
/// `1024 / n` back-to-back calls (16 and 15; 1 for 1024) on the same arrays;
/// the results go to a separate array, so nothing needs restoring and the
/// caches stay hot.
fn print_slerp_quats_tables(res: &mut Results) {
    let avx = animasm::slerp_quats::avx_available();
    let mut names: Vec<&'static str> = Vec::new();
    let mut medians: Vec<Vec<f64>> = Vec::new(); // [count][row]
    let mut calls = Vec::new();
    for n in SLERP_QUATS_COUNTS {
        progress(&format!("measuring slerp_quats, {n} quaternions"));
        let mut table = slerp_quats_table(n);
        calls.push(table.bufs.calls);
        let stats = measure_rows(&mut table);
        names = table.rows.iter().map(|r| r.name).collect();
        medians.push(stats.iter().map(|s| s.median).collect());
    }
    let row = |name: &str| names.iter().position(|r| *r == name);
    let unit = timer::UNIT;
    let counts = SLERP_QUATS_COUNTS;
    println!(
        "ProcessOptimizedKernel (`slerp_quats`): {}, {} and {} quaternions, hot cache, factor {SLERP_QUATS_FACTOR}\n",
        counts[0], counts[1], counts[2]
    );
    let sse = row(SSE_ROW);
    let mut lines = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let mut l = vec![name.to_string()];
        l.extend(medians.iter().map(|m| format!("{:.1}", m[i])));
        l.extend(medians.iter().map(|m| ratio(sse.map(|s| m[s]), Some(m[i]))));
        l.push(if name.contains("as published") && !name.starts_with("scalar") {
            format!("{:.2}x / {:.2}x", TABLE1[0].1, TABLE1[1].1)
        } else {
            "-".into()
        });
        lines.push(l);
    }
    let head: Vec<String> = counts
        .iter()
        .map(|n| format!("{n}"))
        .chain(counts.iter().map(|n| format!("x{n}")))
        .chain(["published".to_string()])
        .collect();
    let mut h: Vec<&str> = vec!["kernel"];
    h.extend(head.iter().map(String::as_str));
    print_grid(&h, &[L, R, R, R, R, R, R, R], &lines);
    if !avx {
        para(
            "No AVX on this CPU (`slerp_quats::avx_available()` is false): the AVX rows, and with them Table 1's \
             ratios, are left out.",
        );
    }
    para(&format!(
        "N: {unit} per quaternion at N quaternions (median of {RUNS} runs). xN = the 128-bit kernel's \
         time / the row's time at N: on the AVX rows, the article's Table 1. Published: the article's Table 1 \
         (at {} / {} quaternions), \
         the published intrinsics built with ICC 11 on Sandy Bridge (two sets of 64 and of 67 quaternions in L1); \
         it gives none for 1024. Its IACA section predicts 1.96x (printed as 2.07x, erratum E9).",
        TABLE1[0].0, TABLE1[1].0
    ));
    if avx {
        let cost = |corrected: &str, published: &str| {
            let (c, p) = (row(corrected).unwrap(), row(published).unwrap());
            let r: Vec<String> = counts.iter().zip(&medians).map(|(n, m)| format!("{n}: {:.2}", m[c] / m[p])).collect();
            r.join(", ")
        };
        para(&format!(
            "Corrected kernel's time / published kernel's time: asm {}; intrinsics {}. (The published asm \
             executes the dead Newton-Raphson refinement of E3, the correction puts it on the critical path; \
             LLVM deletes it from the published intrinsics, and the correction puts it back.)",
            cost("asm corrected", "asm as published"),
            cost("intrinsics corrected", "intrinsics as published")
        ));
    }
    if let (Some(i64), Some(i67)) = (counts.iter().position(|&n| n == 64), counts.iter().position(|&n| n == 67)) {
        let tail = |name: &str| {
            row(name).map(|r| format!("{name} {:.1}", (medians[i67][r] * 67.0 - medians[i64][r] * 64.0) / 3.0))
        };
        let tails: Vec<String> = ["asm as published", "asm corrected"].into_iter().filter_map(tail).collect();
        if !tails.is_empty() {
            para(&format!(
                "The three quaternions past 64 go through the scalar remainder loop: (time of 67 - time of 64) / 3 \
                 = {} {unit} per quaternion.",
                tails.join(", ")
            ));
        }
        if let Some(s) = sse {
            for (name, n, i, published) in
                [("asm as published", 64, i64, TABLE1[0].1), ("asm as published", 67, i67, TABLE1[1].1)]
            {
                if let Some(r) = row(name) {
                    res.speedups.push(plots::Speedup {
                        routine: format!("slerp_quats AVX / SSE, {n} quats"),
                        measured: medians[i][s] / medians[i][r],
                        paper: Some(published),
                    });
                }
            }
        }
    }
    if let Some(i1024) = counts.iter().position(|&n| n == 1024) {
        for (key, name) in
            [("slerp_quats as published", "asm as published"), ("slerp_quats corrected", "asm corrected")]
        {
            if let Some(r) = row(name) {
                res.asm_ticks.push((key.to_string(), medians[i1024][r]));
            }
        }
    }
    para(&format!(
        "Input: `setup::slerp_quats_input`, uniform random unit quaternion pairs in `AlignedQuats` (32-byte \
         aligned), the 64 and 67 the first pairs of the 1024; results into a separate `AlignedQuats`. Each \
         timed run makes {} back-to-back calls (for {}, {} and {} quaternions): one call of 64 is a few hundred \
         {unit}, against the timer's overhead; the per-quaternion figures divide by calls x count. glam: \
         `result[i] = from[i].slerp(to[i], factor)` on `Quat` arrays.",
        calls.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", "),
        counts[0],
        counts[1],
        counts[2]
    ));
}

// ---------------------------------------------------------------------------
// nlerp: zeux's nlerp family, the article's cycles-per-element table.

/// `nlerp`'s raw kernels: `(dest, l, r, t, size)`.
type NlerpKernel = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);

/// The article's streams ([`NLERP_ELEMENTS`] elements) and the results,
/// and the same for glam.
struct Streams {
    l: Quat,
    r: Vec<Quat>,
    t: Vec<f32>,
    dest: Vec<Quat>,
    gl: GQuat,
    gr: Vec<GQuat>,
    gdest: Vec<GQuat>,
}

impl Streams {
    fn new() -> Self {
        let (l, r, t) = setup::nlerp_input();
        Streams {
            gl: GQuat::from_array(l.to_array()),
            gr: to_glam_quats(&r),
            gdest: vec![GQuat::IDENTITY; r.len()],
            dest: vec![Quat::default(); r.len()],
            l,
            r,
            t,
        }
    }

    /// Runs a raw kernel over the streams.
    fn run(kernel: NlerpKernel, b: &mut Streams) {
        let dest = black_box(b.dest.as_mut_ptr());
        // SAFETY: `r`, `t` and `dest` hold `NLERP_ELEMENTS` elements each
        // (16-byte aligned `Vec<Quat>`s, distinct allocations); the SIMD
        // kernels are only put in a row where their `Width::is_available()`.
        unsafe { kernel(dest, &b.l, b.r.as_ptr(), b.t.as_ptr(), NLERP_ELEMENTS) }
    }
}

/// The article's final table: IACA cycles per element (4-wide figures
/// divided by 4, 8-wide by 8), by row name.
const NLERP_IACA: [(&str, f64); 8] = [
    ("nlerp", 14.15),
    ("fnlerp", 18.35),
    ("onlerp", 22.95),
    ("nlerp4", 4.76),
    ("fnlerp4", 6.14),
    ("onlerp4", 7.19),
    ("onlerp8", 3.65),
    ("onlerp8 FMA", 2.63),
];

/// `nlerp`'s rows: every function at every width this CPU runs (the
/// article's row names), the autovectorised scalar loops, the reference
/// slerp and glam; the article's IACA figure where it has one.
fn nlerp_table() -> Table<Streams> {
    use animasm::nlerp::{Width, scalar};
    let mut kernels: Vec<(&'static str, Width, NlerpKernel)> = vec![
        ("nlerp", Width::Scalar, scalar::run_nlerp),
        ("fnlerp", Width::Scalar, scalar::run_fnlerp),
        ("onlerp", Width::Scalar, scalar::run_onlerp),
        ("autovec nlerp", Width::Scalar, scalar::autovec_nlerp),
        ("autovec fnlerp", Width::Scalar, scalar::autovec_fnlerp),
        ("autovec onlerp", Width::Scalar, scalar::autovec_onlerp),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        use animasm::nlerp::{avx2, sse2};
        kernels.extend([
            ("nlerp4", Width::Sse2x4, sse2::nlerp4 as NlerpKernel),
            ("fnlerp4", Width::Sse2x4, sse2::fnlerp4),
            ("onlerp4", Width::Sse2x4, sse2::onlerp4),
            ("nlerp8", Width::Avx2x8, avx2::nlerp8),
            ("fnlerp8", Width::Avx2x8, avx2::fnlerp8),
            ("onlerp8", Width::Avx2x8, avx2::onlerp8),
            ("nlerp8 FMA", Width::Avx2Fma8, avx2::nlerp8_fma),
            ("fnlerp8 FMA", Width::Avx2Fma8, avx2::fnlerp8_fma),
            ("onlerp8 FMA", Width::Avx2Fma8, avx2::onlerp8_fma),
        ]);
    }
    kernels.push(("slerp (reference)", Width::Scalar, scalar::run_slerp));
    let iaca = |name: &str| NLERP_IACA.iter().find(|(n, _)| *n == name).map(|&(_, c)| c);
    let missing: Vec<&str> = [animasm::nlerp::Width::Avx2x8, animasm::nlerp::Width::Avx2Fma8]
        .into_iter()
        .filter(|w| !w.is_available())
        .map(|w| w.name())
        .collect();
    let mut rows: Vec<Row<Streams>> = kernels
        .into_iter()
        .filter(|(_, w, _)| w.is_available())
        .map(|(name, _, kernel)| kernel_row(name, iaca(name), no_restore, kernel, Streams::run))
        .collect();
    rows.push(Row {
        name: "glam Quat::lerp",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut Streams| glam_lerp_stream(black_box(&mut b.gdest), b.gl, &b.gr, &b.t)),
    });
    rows.push(Row {
        name: "glam Quat::slerp",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut Streams| glam_slerp_stream(black_box(&mut b.gdest), b.gl, &b.gr, &b.t)),
    });
    let mut notes = Vec::new();
    if !missing.is_empty() {
        notes.push(format!("Not available on this CPU, left out: {}.", missing.join(", ")));
    }
    Table {
        routine: "nlerp",
        paper: None,
        title: format!(
            "zeux's nlerp family (`nlerp`), {NLERP_ELEMENTS} elements, hot cache: the article's cycles-per-element \
             table"
        ),
        count: NLERP_ELEMENTS,
        bufs: Streams::new(),
        rows,
        notes,
    }
}

/// The scalar row of a row's function (`"onlerp8 FMA"` and `"autovec
/// onlerp"` -> `"onlerp"`); `None` for the reference slerp and glam.
fn nlerp_scalar_row(name: &str) -> Option<&str> {
    let name = name.strip_prefix("autovec ").unwrap_or(name);
    let base = name.split(|c: char| c.is_ascii_digit() || c == ' ').next()?;
    ["nlerp", "fnlerp", "onlerp"].into_iter().find(|f| *f == base)
}

/// Measures and prints the nlerp table: ticks per element next to the
/// article's IACA cycles per element, each row's speedup over its
/// function's scalar row next to the article's, then the ratios the issue
/// asks for.
fn print_nlerp_table(mut table: Table<Streams>, res: &mut Results) {
    progress("measuring nlerp");
    let stats = measure_rows(&mut table);
    let idx = |name: &str| table.rows.iter().position(|r| r.name == name);
    let median = |name: &str| idx(name).map(|i| stats[i].median);
    let unit = timer::UNIT;
    println!("{}\n", table.title);
    let mut lines = Vec::new();
    for (row, s) in table.rows.iter().zip(&stats) {
        let paper = row.paper.map_or("-".into(), |p| format!("{p:.2}"));
        let base = nlerp_scalar_row(row.name);
        let speedup = ratio(base.and_then(median), Some(s.median));
        let base_paper = base.and_then(idx).and_then(|i| table.rows[i].paper);
        let paper_speedup = if row.paper.is_some() { ratio(base_paper, row.paper) } else { "-".into() };
        lines.push(vec![
            row.name.to_string(),
            paper,
            paper_speedup,
            format!("{:.2}", s.median),
            format!("{:.2}", s.min),
            speedup,
        ]);
        if let (Some(b), Some(bm)) = (base, base.and_then(median))
            && row.paper.is_some()
            && b != row.name
        {
            res.speedups.push(plots::Speedup {
                routine: format!("{} / {b}", row.name),
                measured: bm / s.median,
                paper: base_paper.zip(row.paper).map(|(a, b)| a / b),
            });
        }
    }
    print_grid(&["row", "published IACA", "published x", unit, "min", "x scalar"], &[L, R, R, R, R, R], &lines);
    para(&format!(
        "Published: the article's IACA cycles per element (4-wide figures divided by 4, 8-wide by 8) and the \
         speedup they give over the function's scalar row. Measured: {unit} per element, median and minimum of \
         {RUNS} runs; x scalar = the scalar row's median / the row's."
    ));
    for note in &table.notes {
        para(note);
    }
    let paper = |name: &str| idx(name).and_then(|i| table.rows[i].paper);
    // (what, slower row, faster row, the requirement on the ratio)
    type Required = Option<fn(f64) -> bool>;
    let pairs: [(&str, &str, &str, Required); 11] = [
        ("onlerp4 vs scalar onlerp (the issue requires at least 2x)", "onlerp", "onlerp4", Some(|r| r >= 2.0)),
        ("onlerp4 vs autovec onlerp", "autovec onlerp", "onlerp4", None),
        ("onlerp8 vs onlerp4 (the issue requires onlerp8 faster)", "onlerp4", "onlerp8", Some(|r| r > 1.0)),
        ("onlerp8 FMA vs onlerp8 (\"allegedly a full cycle faster\")", "onlerp8", "onlerp8 FMA", None),
        ("onlerp8 FMA vs scalar onlerp (\"6x faster than scalar\")", "onlerp", "onlerp8 FMA", None),
        ("nlerp4 vs scalar nlerp (\"2.5-3x\")", "nlerp", "nlerp4", None),
        ("fnlerp4 vs scalar fnlerp (\"2.5-3x\")", "fnlerp", "fnlerp4", None),
        ("onlerp8 vs scalar onlerp", "onlerp", "onlerp8", None),
        ("reference slerp vs scalar onlerp (\"about 3x slower\")", "slerp (reference)", "onlerp", None),
        ("glam Quat::lerp vs nlerp4", "glam Quat::lerp", "nlerp4", None),
        ("glam Quat::slerp vs onlerp4", "glam Quat::slerp", "onlerp4", None),
    ];
    para("Ratios (time of the first / time of the second; the article's IACA ratio where it has both rows):");
    for (what, slow, fast, required) in pairs {
        if let (Some(a), Some(b)) = (median(slow), median(fast)) {
            let verdict = match required.map(|ok| ok(a / b)) {
                Some(true) => " (met)",
                Some(false) => " (NOT met)",
                None => "",
            };
            let article = match (paper(slow), paper(fast)) {
                (Some(p), Some(q)) => format!("; article {:.2}x", p / q),
                _ => String::new(),
            };
            item(&format!("{what}: {:.2}x{verdict}{article}", a / b));
        }
    }
    println!();
    para(&format!(
        "The \"scalar\" rows (`nlerp`, `fnlerp`, `onlerp`: `nlerp::scalar::run_*`) keep the article's loop \
         scalar: an empty `asm!` barrier in each iteration stops LLVM from vectorising it (D7 of \
         `asm_notes/nlerp.md`), so they time the scalar code the article's IACA rows estimate. The `autovec` rows \
         (`scalar::autovec_*`, an extra row, not the article's) are the same plain loop without the barrier, which \
         LLVM vectorises four wide (`sqrtps`, `divps`); their results are the scalar ones bit for bit. The \
         article's figures are IACA throughput estimates in core cycles (the modelled CPU is not named); these \
         are TSC ticks measured on this CPU, not core cycles: compare the ratios. Input: `setup::nlerp_input`, one random unit `l`, \
         {NLERP_ELEMENTS} random unit `r[i]` (the dot product's sign at random) and `t[i]` uniform in [0, 1); \
         results into a separate array, nothing to restore. glam: `dest[i] = l.lerp(r[i], t[i])` and \
         `l.slerp(r[i], t[i])` on `Quat` arrays."
    ));
}

// ---------------------------------------------------------------------------
// Header: the machine and the method.

/// The CPU model from `/proc/cpuinfo`, where there is one.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown (no /proc/cpuinfo)".into())
}

/// The target's SIMD features enabled at compile time.
fn target_features() -> String {
    let features = [
        ("sse", cfg!(target_feature = "sse")),
        ("sse2", cfg!(target_feature = "sse2")),
        ("sse3", cfg!(target_feature = "sse3")),
        ("sse4.1", cfg!(target_feature = "sse4.1")),
        ("avx", cfg!(target_feature = "avx")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("fma", cfg!(target_feature = "fma")),
        ("avx512f", cfg!(target_feature = "avx512f")),
        ("neon", cfg!(target_feature = "neon")),
    ];
    let on: Vec<&str> = features.iter().filter(|(_, on)| *on).map(|(name, _)| *name).collect();
    if on.is_empty() { "none".into() } else { on.join(" ") }
}

/// The SIMD features this CPU has, detected at run time.
#[cfg(target_arch = "x86_64")]
fn runtime_features() -> String {
    let features = [
        ("sse2", is_x86_feature_detected!("sse2")),
        ("sse3", is_x86_feature_detected!("sse3")),
        ("ssse3", is_x86_feature_detected!("ssse3")),
        ("sse4.1", is_x86_feature_detected!("sse4.1")),
        ("sse4.2", is_x86_feature_detected!("sse4.2")),
        ("avx", is_x86_feature_detected!("avx")),
        ("avx2", is_x86_feature_detected!("avx2")),
        ("fma", is_x86_feature_detected!("fma")),
        ("avx512f", is_x86_feature_detected!("avx512f")),
    ];
    let pick = |want: bool| features.iter().filter(|(_, on)| *on == want).map(|(n, _)| *n).collect::<Vec<_>>();
    let (on, off) = (pick(true), pick(false));
    let off = if off.is_empty() { String::new() } else { format!(" (absent: {})", off.join(" ")) };
    format!("{}{off}", on.join(" "))
}

/// The SIMD features this CPU has, detected at run time.
#[cfg(not(target_arch = "x86_64"))]
fn runtime_features() -> String {
    "not detected (the report detects x86_64 features only)".into()
}

/// The TSC rate: TSC ticks over a ~100 ms `Instant` interval, in Hz.
#[cfg(target_arch = "x86_64")]
fn tsc_rate_hz() -> Option<f64> {
    use core::arch::x86_64::_rdtsc;
    let start = std::time::Instant::now();
    // SAFETY: `rdtsc` needs only the TSC, which every x86_64 CPU has.
    let t0 = unsafe { _rdtsc() };
    while start.elapsed() < std::time::Duration::from_millis(100) {
        std::hint::spin_loop();
    }
    // SAFETY: as above.
    let t1 = unsafe { _rdtsc() };
    let secs = start.elapsed().as_secs_f64();
    Some(t1.wrapping_sub(t0) as f64 / secs)
}

/// The TSC rate: none off x86_64.
#[cfg(not(target_arch = "x86_64"))]
fn tsc_rate_hz() -> Option<f64> {
    None
}

/// The median cost of timing nothing.
fn timer_overhead() -> u64 {
    let mut s: Vec<u64> = (0..1001).map(|_| timer::time(|| ())).collect();
    s.sort_unstable();
    s[s.len() / 2]
}

fn print_header(res: &mut Results) {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let extra = if args.is_empty() { String::new() } else { format!(" -- {}", args.join(" ")) };
    println!("# animasm report\n");
    para(
        "Every routine of the five texts timed on this CPU beside the paper's published figures (labelled \
         \"published\"), the accuracy beside the figures the papers state, llvm-mca's static estimates, the \
         errata index, the pose pipeline on data/Fox.glb and the plots. Every other number is measured in this run.",
    );
    heading("The machine and the method");
    item(&format!("command: `cargo run --release --example report{extra}`"));
    item(&format!("CPU: {}", cpu_model()));
    item(&format!("SIMD features detected at run time: {}", runtime_features()));
    item(&format!(
        "target: {}-{}, compile-time SIMD target features: {} (no `-C target-cpu=native`; the AVX kernels are \
         chosen at run time)",
        std::env::consts::ARCH,
        std::env::consts::OS,
        target_features()
    ));
    if cfg!(debug_assertions) {
        item("WARNING: debug build; run with `--release` for meaningful timings");
    }
    res.tsc_hz = tsc_rate_hz();
    match res.tsc_hz {
        Some(hz) => item(&format!(
            "TSC rate: {:.3} GHz, measured (TSC ticks over a ~100 ms `std::time::Instant` interval); 1 tick = \
             {:.3} ns",
            hz / 1e9,
            1e9 / hz
        )),
        None => item("TSC rate: no TSC on this target"),
    }
    item(&format!("timer: {}", timer::NOTE));
    let overhead = timer_overhead();
    item(&format!(
        "method: {} per element, {JOINTS} elements per call (joints, quaternions), hot cache; the raw kernels \
         (as the papers timed the routine itself, without the safe functions' validation); {RUNS} runs per \
         implementation after {WARMUP} warm-up rounds, round-robin across implementations; in-place routines \
         restored from a pristine copy outside the timed region; median (and minimum) per element. Timer \
         overhead {overhead} {} per run, not subtracted ({:.2} per element).",
        timer::UNIT,
        timer::UNIT,
        overhead as f64 / JOINTS as f64
    ));
    item("compare ratios within one run, not absolute figures across runs or machines");
    println!();
}

// ---------------------------------------------------------------------------
// Results gathered for the later sections.

#[path = "common/mca.rs"]
mod mca;
#[path = "common/pipeline.rs"]
mod pipeline;
#[path = "common/plots.rs"]
mod plots;

/// What the later sections (llvm-mca, errata, plots, summary) need from the
/// earlier ones.
#[derive(Default)]
struct Results {
    /// Measured asm speedups over the scalar port, with the paper's.
    speedups: Vec<plots::Speedup>,
    /// Measured ticks per element of each asm kernel, by llvm-mca's kernel
    /// name (`slerp_joints`, `transform_skeleton (movss+shufps)`, ...).
    asm_ticks: Vec<(String, f64)>,
    /// Every accuracy row: (what, measured max abs error, published figure).
    accuracy: Vec<(String, f64, Option<f64>)>,
    /// The nlerp article's angle errors, measured.
    nlerp_errors: Vec<measure::nlerp::AngleErrors>,
    tsc_hz: Option<f64>,
    pose: Vec<pipeline::Row>,
    plots: Vec<std::path::PathBuf>,
    mca_rows: usize,
    errata: (usize, usize),
}

impl Results {
    /// A paper table's asm row: its speedup over the scalar port next to the
    /// paper's (C / SSE on the 130nm P4) and its ticks per element.
    fn record(&mut self, routine: &str, m: &Measured, row: &str) {
        if let Some(x) = m.speedup(row) {
            let paper = if row == Impl::Asm.name() { m.paper.map(|p| p.c_130 / p.sse_130) } else { None };
            self.speedups.push(plots::Speedup { routine: routine.into(), measured: x, paper });
        }
        if let Some(t) = m.median(row) {
            self.asm_ticks.push((routine.into(), t));
        }
    }

    /// The measured error of the accuracy row named `name`.
    fn acc(&self, name: &str) -> Option<f64> {
        self.accuracy.iter().find(|r| r.0 == name).map(|r| r.1)
    }
}

/// An accuracy row's name shortened for a 100-column table.
fn short(name: &str) -> String {
    name.replace(", Fox key poses vs the f64 reference (relative to model size)", ", Fox poses vs f64 (/size)")
        .replace(", Fox model poses back to local (relative to model size)", ", Fox model to local (/size)")
        .replace(" vs the source quaternion (up to sign)", " vs source quat (up to sign)")
        .replace(" (asm = intrinsics)", "")
}

/// Prints accuracy rows: the measured max abs error, the published figure.
fn print_accuracy(rows: &[(String, f64, Option<f64>)]) {
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|(what, e, p)| vec![short(what), format!("{e:.3e}"), p.map_or("-".into(), |p| format!("{p:.3e}"))])
        .collect();
    print_grid(&["accuracy", "measured max abs error", "published"], &[L, R, R], &lines);
}

// ---------------------------------------------------------------------------
// The papers.

fn slerping_clock_cycles(res: &mut Results) {
    heading("1. Slerping Clock Cycles (J.M.P. van Waveren, Id Software)");
    let m = print_table(slerp_joints_table());
    res.record("slerp_joints", &m, "asm");
    let m = print_table(lerp_joints_table());
    res.record("lerp_joints", &m, "asm");
    progress("measuring slerp_joints and lerp_joints accuracy");
    let rows = measure::report_rows();
    print_accuracy(&rows);
    para(
        "Published: the paper's maximum errors of its SinZeroHalfPI and ATanPositive approximations and of the \
         SSE slerp against the C Slerp. Measured over 3072 random quaternion pairs at 63 lerp factors.",
    );
    res.accuracy.extend(rows);
}

fn quaternion_to_matrix(res: &mut Results, matrix_rows: &[(String, f64, Option<f64>)]) {
    heading("2. From Quaternion to Matrix and Back (J.M.P. van Waveren, Id Software)");
    let m = print_table(quats_to_mats_table());
    res.record("quats_to_mats", &m, "asm");
    let m = print_table(mats_to_quats_table());
    res.record("mats_to_quats", &m, "asm");
    let rows: Vec<_> = matrix_rows
        .iter()
        .filter(|r| r.0.starts_with("quats_to_mats") || r.0.starts_with("mats_to_quats"))
        .cloned()
        .collect();
    print_accuracy(&rows);
    para(
        "The paper states no error figure. quats_to_mats against the f64 formula over 3072 random unit \
         quaternions; mats_to_quats against the quaternion each of 3072 random rotations was built from.",
    );
}

fn skeleton_assembly_line(res: &mut Results, matrix_rows: &[(String, f64, Option<f64>)]) {
    heading("3. The Skeleton Assembly Line (J.M.P. van Waveren, Id Software)");
    let m = print_table(transform_skeleton_table());
    res.record("transform_skeleton", &m, "asm");
    res.record("transform_skeleton (movss+shufps)", &m, "asm (movss+shufps)");
    let m = print_table(untransform_skeleton_table());
    res.record("untransform_skeleton", &m, "asm");
    let m = print_table(transform_joints_table());
    res.record("transform_joints", &m, "asm");
    let rows: Vec<_> = matrix_rows
        .iter()
        .filter(|r| !(r.0.starts_with("quats_to_mats") || r.0.starts_with("mats_to_quats")))
        .cloned()
        .collect();
    print_accuracy(&rows);
    para(
        "The paper states no error figure. The skeleton routines on the Fox's key poses (data/Fox.glb.pose.json) \
         against their f64 reference, divided by the model's size; transform_joints against the f64 product \
         over 3072 pairs of random rigid matrices.",
    );
}

fn intel_table1(res: &mut Results) {
    heading("4. Intel's AVX slerp (Mehrotra and Hubbard), Table 1");
    print_slerp_quats_tables(res);
    progress("measuring slerp_quats accuracy");
    let rows = measure::slerp_quats::report_rows();
    print_accuracy(&rows);
    if !animasm::slerp_quats::avx_available() {
        para("No AVX on this CPU: the slerp_quats AVX rows are left out.");
    }
    para(
        "Against the f64 slerp over 5120 pairs (random, near-parallel, near-opposite, and a uniform sweep of the \
         angle; every pair through the 16-wide loop) at 63 factors in (0, 1), a NaN counted as infinite; omega = \
         acos |from.to|, 45 degrees being where the article's `HALF_PI` enters. The article gives no error \
         figure; the corrected kernel should match van Waveren's SSE slerp (published 4.8e-7).",
    );
    res.accuracy.extend(rows);
}

fn zeux_nlerp(res: &mut Results) {
    heading("5. zeux's nlerp family (Arseny Kapoulkine): the cycles-per-element table");
    print_nlerp_table(nlerp_table(), res);
    progress("measuring nlerp angle errors");
    let rows = measure::nlerp::angle_error_table();
    let widths: Vec<String> =
        rows.first().map(|r| r.widths.iter().map(|(w, _)| w.to_string()).collect()).unwrap_or_default();
    println!("Rotation-angle error (radians)\n");
    let mut head = vec!["function", "range", "published", "f64 evaluation"];
    head.extend(widths.iter().map(String::as_str));
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut l = vec![
                r.func.name().to_string(),
                r.label.to_string(),
                format!("{:.3e}", r.published),
                format!("{:.3e}", r.exact),
            ];
            l.extend(r.widths.iter().map(|(_, e)| format!("{e:.3e}")));
            l
        })
        .collect();
    let mut align = vec![L, L];
    align.resize(head.len(), R);
    print_grid(&head, &align, &lines);
    para(
        "Maximum absolute error of the full rotation angle against the f64 slerp, over t in [0, 1] and |dot| in \
         [0, 1] (\"all\") or [cos 45 deg, 1] (\"<= 90 deg\": rotations up to 90 degrees apart), both signs of the \
         dot product, on a 1001 x 1001 grid; published: the article's figure; \"f64 evaluation\" is the function \
         itself in f64 (the approximation alone). nlerp and onlerp reproduce the published figures; fnlerp's do \
         not (erratum E4 of `asm_notes/nlerp.md`).",
    );
    res.nlerp_errors = rows;
}

// ---------------------------------------------------------------------------
// llvm-mca.

fn mca_section(res: &mut Results) {
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

// ---------------------------------------------------------------------------
// The errata index.

/// One erratum of `asm_notes/README.md`'s errata index.
struct Erratum {
    routine: String,
    number: String,
    title: String,
    test: String,
}

/// The rows of `asm_notes/README.md`'s errata index.
fn errata_index() -> Result<Vec<Erratum>, String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/asm_notes/README.md");
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let section = text.split("\n## Errata index").nth(1).ok_or("no \"## Errata index\" section")?;
    let mut out = Vec::new();
    for line in section.lines().skip(1) {
        if line.starts_with("## ") {
            break;
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if !line.starts_with("| ") || cells.len() != 3 || cells[0] == "routine" {
            continue;
        }
        let (link, rest) = match cells[1].strip_prefix('[').and_then(|c| c.split_once("](")) {
            Some((link, rest)) => (link, rest.split_once(')').map_or("", |(_, r)| r)),
            None => (cells[1], ""),
        };
        let (number, title) = match link.split_once(' ') {
            Some((n, t)) if n.starts_with('E') && n[1..].chars().all(|c| c.is_ascii_digit()) => (n, t.to_string()),
            _ => ("-", format!("{link}{rest}")),
        };
        let test = cells[2].replace('`', "");
        let test =
            if test.contains("tests/") || test.starts_with("none") { test } else { format!("tests/errata.rs {test}") };
        out.push(Erratum { routine: cells[0].to_string(), number: number.to_string(), title, test });
    }
    if out.is_empty() { Err("the errata index has no rows".into()) } else { Ok(out) }
}

/// An erratum's effect measured in this run, where the report measures it.
fn measured_effect(res: &Results, routine: &str, number: &str) -> Option<String> {
    let e = |name: &str| res.acc(name).map(|v| format!("{v:.2e}"));
    let paper = |name: &str| res.accuracy.iter().find(|r| r.0 == name).and_then(|r| r.2);
    match (routine, number) {
        ("slerp_joints", "E9") => {
            let name = "slerp_joints asm vs the C Slerp";
            Some(format!(
                "SSE slerp vs the C Slerp {} with the chosen constants (published {})",
                e(name)?,
                paper(name).map_or("-".into(), |p| format!("{p:.2e}"))
            ))
        }
        ("slerp_joints", "E11") => Some(format!(
            "C SlerpOptimized vs the C Slerp {}, the SSE listing (asm) {}",
            e("C SlerpOptimized vs the C Slerp")?,
            e("slerp_joints asm vs the C Slerp")?
        )),
        ("lerp_joints", "E7") => Some(format!("SSE lerp (asm) vs the C Lerp {}", e("lerp_joints asm vs the C Lerp")?)),
        ("mats_to_quats", "E5") => Some(format!(
            "max error: C port {}, listing (asm) {}",
            e("mats_to_quats scalar vs the source quaternion (up to sign)")?,
            e("mats_to_quats asm vs the source quaternion (up to sign)")?
        )),
        ("slerp_quats", "E1") => Some(format!(
            "as published, omega >= 45 deg: {} (corrected, all angles: {})",
            e("slerp_quats as published, omega >= 45 degrees (E1 + E3)")?,
            e("slerp_quats corrected (asm = intrinsics) vs f64 slerp")?
        )),
        ("slerp_quats", "E3") => Some(format!(
            "as published, omega < 45 deg: {} (corrected: {})",
            e("slerp_quats as published, omega < 45 degrees (E3)")?,
            e("slerp_quats corrected (asm = intrinsics) vs f64 slerp")?
        )),
        ("nlerp", "E4") => {
            let rows: Vec<String> = res
                .nlerp_errors
                .iter()
                .filter(|r| r.func.name() == "fnlerp")
                .map(|r| format!("{}: published {:.2e}, f64 evaluation {:.2e}", r.label, r.published, r.exact))
                .collect();
            (!rows.is_empty()).then(|| format!("fnlerp angle error {}", rows.join("; ")))
        }
        _ => None,
    }
}

fn errata_section(res: &mut Results) {
    heading("7. The errata index");
    let errata = match errata_index() {
        Ok(errata) => errata,
        Err(e) => {
            para(&format!("The errata index could not be read: {e}."));
            return;
        }
    };
    para(
        "One line per erratum of asm_notes/README.md's errata index (details in asm_notes/<routine>.md): routine, \
         number, title, then the effect measured in this run where the report measures it, else the test \
         that shows it.",
    );
    let width = errata.iter().map(|e| e.routine.len()).max().unwrap_or(0);
    let mut measured = 0;
    for x in &errata {
        let effect = match measured_effect(res, &x.routine, &x.number) {
            Some(m) => {
                measured += 1;
                format!("measured: {m}")
            }
            None => format!("test: {}", x.test),
        };
        let first = format!("{:<width$} {:<3} ", x.routine, x.number);
        for l in wrap(&first, &format!("{}. {effect}", x.title), width + 5) {
            println!("{l}");
        }
    }
    println!();
    para(
        "The `movss` + `shufps` variant of transform_skeleton computes the same bits as the listing and shares \
         its errata.",
    );
    res.errata = (errata.len(), measured);
}

// ---------------------------------------------------------------------------
// The pose pipeline.

/// Timing rounds of the pose pipeline.
const POSE_ROUNDS: usize = 201;
/// Poses per timing round.
const POSES: usize = 64;

fn pose_section(res: &mut Results) {
    heading("8. The pose pipeline: data/Fox.glb end to end");
    progress("loading data/Fox.glb and timing the pose pipeline");
    let anim = match pipeline::load(pipeline::DEFAULT_PATH) {
        Ok(anim) => anim,
        Err(e) => {
            para(&format!("data/Fox.glb could not be loaded: {e}."));
            return;
        }
    };
    for line in anim.summary() {
        item(&line);
    }
    println!();
    let (check, timed) = (anim.check_times(), anim.timing_times(POSES));
    let rows = match pipeline::measure(&anim, &check, &timed, POSE_ROUNDS) {
        Ok(rows) => rows,
        Err(e) => {
            para(&format!("The pose pipeline failed: {e}."));
            return;
        }
    };
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.name.clone(),
                format!("{:.2e}", r.max_error),
                format!("{:.0}", r.ns_per_pose),
                format!("{:.0}", r.min_ns_per_pose),
                format!("{:.0}", r.poses_per_second()),
            ]
        })
        .collect();
    print_grid(&["pipeline", "max error/size", "ns/pose", "min ns/pose", "poses/s"], &[L, R, R, R, R], &lines);
    para(&format!(
        "Per pose: slerp_joints the rotations, lerp the translations, quats_to_mats, transform_skeleton, \
         transform_joints with the inverse bind matrices (glam: the same with glam types). Max error: over {} \
         poses against an independent f64 pipeline (exact slerp, no animasm kernel), max(rotation element \
         error, translation error / model size {:.4}). Timed: {} poses from {:.4} s to {:.4} s, {POSE_ROUNDS} \
         rounds round-robin, wall clock (median; poses/s at the median).",
        check.len(),
        anim.size,
        timed.len(),
        anim.start,
        anim.end
    ));
    res.pose = rows;
}

// ---------------------------------------------------------------------------
// Plots and summary.

fn plots_section(res: &mut Results) {
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
            println!();
            res.plots = paths;
        }
        Err(e) => para(&format!("The plots could not be written: {e}.")),
    }
}

fn summary(res: &Results) {
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
    item(&format!("errata: {} in the index, {} with an effect measured in this run", res.errata.0, res.errata.1));
    item(&if res.mca_rows > 0 {
        format!("llvm-mca: {} asm loop bodies estimated", res.mca_rows)
    } else {
        "llvm-mca: no estimates (see section 6)".to_string()
    });
    item(&format!("plots: {} written under target/animasm-report/", res.plots.len()));
    let secs = START.get().map_or(0.0, |t| t.elapsed().as_secs_f64());
    item(&format!("report run time: {secs:.1} s"));
    println!();
}

fn main() {
    progress("starting the report");
    let mut res = Results::default();
    print_header(&mut res);
    slerping_clock_cycles(&mut res);
    progress("measuring the matrix routines' accuracy");
    let matrix_rows = measure::matrix_report_rows();
    quaternion_to_matrix(&mut res, &matrix_rows);
    skeleton_assembly_line(&mut res, &matrix_rows);
    res.accuracy.extend(matrix_rows);
    intel_table1(&mut res);
    zeux_nlerp(&mut res);
    mca_section(&mut res);
    errata_section(&mut res);
    pose_section(&mut res);
    plots_section(&mut res);
    summary(&res);
    progress("done (stdout has the report)");
}
