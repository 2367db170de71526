//! `cargo run --release --example report`: the crate's main job.
//!
//! For every routine, a markdown table of time per joint at 1024 joints with
//! hot caches (the papers' setup) for each implementation and the peer, next
//! to the paper's own Pentium 4 figures; then the accuracy measurements next
//! to the paper's error figures.
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
//! (see [`joint_table`]) and one line in `main`.

use animasm::{Impl, JointQuat};
use glam::{Quat as GQuat, Vec4 as GVec4};

#[path = "../tests/common/inputs.rs"]
mod inputs;
#[path = "../tests/common/measure.rs"]
mod measure;
#[path = "../tests/common/oracle.rs"]
mod oracle;
#[path = "../benches/common/peers.rs"]
mod peers;

/// Joints per call, as in the papers' tables.
const JOINTS: usize = 1024;
/// Timed runs per implementation.
const RUNS: usize = 301;
/// Untimed rounds before the timed ones (caches, branch predictors, clocks).
const WARMUP: usize = 10;
/// The interpolation factor.
const LERP: f32 = 0.5;
/// Seed of the joint lists (`inputs::joint_lists`), as in the benches.
const SEED: u64 = 0x5EED_2005;

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
    /// The paper's P4 130nm cycles per element for this row, if it has one.
    paper: Option<f64>,
    /// Puts this row's input back in place (not timed).
    restore: fn(&mut B),
    /// The timed call.
    call: Box<dyn Fn(&mut B)>,
}

/// A timing table: a routine's buffers and rows.
struct Table<B> {
    /// The markdown heading.
    title: String,
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

/// Measures and prints one table.
fn print_table<B>(mut table: Table<B>) {
    let stats = measure_rows(&mut table);
    let scalar = table.rows.iter().position(|r| r.name == Impl::Scalar.name());
    let scalar_median = scalar.map(|i| stats[i].median);
    let paper_c = scalar.and_then(|i| table.rows[i].paper);
    let unit = timer::UNIT;
    println!("## {}\n", table.title);
    println!(
        "| impl | {unit}/joint (median) | min | speedup over the scalar C port | \
         paper P4 130nm cycles/joint | paper speedup over C |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for (row, s) in table.rows.iter().zip(&stats) {
        let paper = row.paper.map_or("-".into(), |p| format!("{p:.0}"));
        println!(
            "| {} | {:.1} | {:.1} | {} | {paper} | {} |",
            row.name,
            s.median,
            s.min,
            ratio(scalar_median, Some(s.median)),
            ratio(paper_c, row.paper)
        );
    }
    println!();
    for note in &table.notes {
        println!("{note}");
    }
    println!();
}

/// The paper's figures for a routine: cycles per joint of the C routine and
/// of the SSE listing, on the Pentium 4 130nm and 90nm.
struct Paper {
    c_130: f64,
    sse_130: f64,
    c_90: f64,
    sse_90: f64,
}

impl Paper {
    /// The note under the table with the 90nm figures.
    fn note_90nm(&self) -> String {
        format!(
            "Paper, Pentium 4 90nm: C {:.0}, SSE {:.0} cycles/joint ({:.2}x). The paper's SSE figure \
             is shown on both the asm and the intrinsics rows.",
            self.c_90,
            self.sse_90,
            self.c_90 / self.sse_90
        )
    }
}

// ---------------------------------------------------------------------------
// Joint-list routines: slerp_joints, lerp_joints.

/// The raw kernels' signature (`slerp_joints` and `lerp_joints`, every form).
type JointKernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);
use peers::{GlamJointLoop as GlamLoop, glam_lerp_joints, glam_slerp_joints, to_glam};

/// The raw kernels of a joint-list routine that this target has, in
/// [`Impl::ALL`] order.
macro_rules! joint_kernels {
    ($routine:ident) => {{
        #[cfg(target_arch = "x86_64")]
        let kernels: Vec<(Impl, JointKernel)> = vec![
            (Impl::Scalar, animasm::$routine::scalar::$routine),
            (Impl::Intrinsics, animasm::$routine::intrinsics::$routine),
            (Impl::Asm, animasm::$routine::asm::$routine),
        ];
        #[cfg(not(target_arch = "x86_64"))]
        let kernels: Vec<(Impl, JointKernel)> = vec![(Impl::Scalar, animasm::$routine::scalar::$routine)];
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
        let (pristine, blend, index) = inputs::joint_lists(SEED, JOINTS);
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
fn joint_table(title: &str, kernels: Vec<(Impl, JointKernel)>, peer: GlamLoop, paper: Paper) -> Table<JointLists> {
    let mut rows: Vec<Row<JointLists>> = kernels
        .into_iter()
        .filter(|(imp, _)| imp.is_available())
        .map(|(imp, kernel)| Row {
            name: imp.name(),
            paper: Some(if imp == Impl::Scalar { paper.c_130 } else { paper.sse_130 }),
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
        title: format!("{title}, {JOINTS} joints, hot cache, lerp {LERP}"),
        count: JOINTS,
        bufs: JointLists::new(),
        rows,
        notes: vec![
            paper.note_90nm(),
            "glam: `Quat` and `Vec4` arrays holding the same data, one loop over `index`.".into(),
        ],
    }
}

/// `SlerpJoints` (Appendix A), against `Quat::slerp` in glam.
fn slerp_joints_table() -> Table<JointLists> {
    joint_table(
        "SlerpJoints (`slerp_joints`)",
        joint_kernels!(slerp_joints),
        glam_slerp_joints,
        Paper { c_130: 1011.0, sse_130: 107.0, c_90: 1018.0, sse_90: 128.0 },
    )
}

/// `LerpJoints` (Appendix B), against `Quat::lerp` in glam.
fn lerp_joints_table() -> Table<JointLists> {
    joint_table(
        "LerpJoints (`lerp_joints`)",
        joint_kernels!(lerp_joints),
        glam_lerp_joints,
        Paper { c_130: 213.0, sse_130: 50.0, c_90: 248.0, sse_90: 52.0 },
    )
}

// ---------------------------------------------------------------------------
// Header and accuracy.

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

fn print_header() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let extra = if args.is_empty() { String::new() } else { format!(" -- {}", args.join(" ")) };
    println!("# animasm report\n");
    println!("- command: `cargo run --release --example report{extra}`");
    println!("- CPU: {}", cpu_model());
    println!(
        "- target: {}-{} ({}), SIMD target features: {} (no `-C target-cpu=native`)",
        std::env::consts::ARCH,
        std::env::consts::OS,
        if cfg!(target_env = "gnu") { "gnu" } else { "non-gnu" },
        target_features()
    );
    if cfg!(debug_assertions) {
        println!("- WARNING: debug build; run with `--release` for meaningful timings");
    }
    println!("- timer: {}", timer::NOTE);
    let overhead = timer_overhead();
    println!(
        "- method: the raw kernels (as the paper timed the routine itself), {RUNS} runs per \
         implementation after {WARMUP} warm-up rounds, round-robin across implementations; joints \
         restored from a pristine copy outside the timed region before each run; median and \
         minimum per joint. Timer overhead {overhead} {} per run (not subtracted; {:.2} per joint).",
        timer::UNIT,
        overhead as f64 / JOINTS as f64
    );
    println!("- compare ratios within one run, not absolute figures across runs or machines\n");
}

/// The median cost of timing nothing.
fn timer_overhead() -> u64 {
    let mut s: Vec<u64> = (0..1001).map(|_| timer::time(|| ())).collect();
    s.sort_unstable();
    s[s.len() / 2]
}

// ===========================================================================
// ACCURACY SECTION (filled by the lead from `tests/common/measure.rs`).
// ===========================================================================
/// The accuracy measurements of `tests/common/measure.rs`, next to the
/// paper's figures.
fn accuracy_section() {
    println!("## Accuracy\n");
    println!("| what | measured max abs error | paper |");
    println!("|---|---:|---:|");
    for (what, measured, paper) in measure::report_rows() {
        let paper = paper.map_or("-".into(), |p| format!("{p:.3e}"));
        println!("| {what} | {measured:.3e} | {paper} |");
    }
    println!();
}

fn main() {
    print_header();
    print_table(slerp_joints_table());
    print_table(lerp_joints_table());
    accuracy_section();
}
