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
//! (see [`joint_table`], or [`kernel_rows`] for any raw-kernel signature)
//! and one line in `main`.

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
    /// The 130nm figure of an implementation's row: the C's for the scalar
    /// port, the SSE listing's for the asm and intrinsics.
    fn for_impl(&self, imp: Impl) -> f64 {
        if imp == Impl::Scalar { self.c_130 } else { self.sse_130 }
    }

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
fn joint_table(title: &str, kernels: Vec<(Impl, JointKernel)>, peer: GlamLoop, paper: Paper) -> Table<JointLists> {
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
        kernels!(JointKernel, slerp_joints),
        glam_slerp_joints,
        Paper { c_130: 1011.0, sse_130: 107.0, c_90: 1018.0, sse_90: 128.0 },
    )
}

/// `LerpJoints` (Appendix B), against `Quat::lerp` in glam.
fn lerp_joints_table() -> Table<JointLists> {
    joint_table(
        "LerpJoints (`lerp_joints`)",
        kernels!(JointKernel, lerp_joints),
        glam_lerp_joints,
        Paper { c_130: 213.0, sse_130: 50.0, c_90: 248.0, sse_90: 52.0 },
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
    let paper = Paper { c_130: 54.0, sse_130: 30.0, c_90: 62.0, sse_90: 34.0 };
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
        title: format!("ConvertJointQuatsToJointMats (`quats_to_mats`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            paper.note_90nm(),
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
    let paper = Paper { c_130: 172.0, sse_130: 61.0, c_90: 173.0, sse_90: 72.0 };
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
        title: format!("ConvertJointMatsToJointQuats (`mats_to_quats`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            paper.note_90nm(),
            format!(
                "Input: uniform random rigid matrices (`inputs::rigid_mats`); the trace is positive for \
                 {positive_trace} of {JOINTS}, so the C port's four-way branch is taken at random (the listing \
                 has no branch on the data). glam: `Quat::from_affine3` (DirectXMath's four cases, `sqrt` \
                 and a division) and the translation copied, on `Affine3A`s whose rotation columns are the \
                 rows of the paper's matrices (the paper stores the transpose of the column-vector \
                 rotation), so both compute the quaternion of the same rotation."
            ),
        ],
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
    let paper = Paper { c_130: 130.0, sse_130: 53.0, c_90: 163.0, sse_90: 53.0 };
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
        title: format!("TransformSkeleton (`transform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::locals(),
        rows,
        notes: vec![
            paper.note_90nm(),
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
    let paper = Paper { c_130: 131.0, sse_130: 55.0, c_90: 154.0, sse_90: 56.0 };
    let mut rows =
        kernel_rows(kernels!(SkeletonKernel, untransform_skeleton), &paper, Skeleton::restore, Skeleton::run);
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: Skeleton::restore_glam,
        call: Box::new(|b: &mut Skeleton| glam_untransform_skeleton(&mut b.g, &b.parents, SKELETON_RANGE)),
    });
    Table {
        title: format!("UntransformSkeleton (`untransform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::globals(),
        rows,
        notes: vec![
            paper.note_90nm(),
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
    let paper = Paper { c_130: 135.0, sse_130: 36.0, c_90: 148.0, sse_90: 48.0 };
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
        title: format!("TransformJoints (`transform_joints`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            paper.note_90nm(),
            "Input: two lists of random rigid matrices (`inputs::rigid_mats`), the products into a third; \
             nothing to restore. glam: `r[i] = a[i] * b[i]` with `Affine3A`."
                .into(),
        ],
    }
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
         implementation after {WARMUP} warm-up rounds, round-robin across implementations; the \
         in-place routines' joints restored from a pristine copy outside the timed region before \
         each run; median and minimum per joint. Timer overhead {overhead} {} per run (not subtracted; {:.2} per joint).",
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
    for (what, measured, paper) in measure::report_rows().into_iter().chain(measure::matrix_report_rows()) {
        let paper = paper.map_or("-".into(), |p| format!("{p:.3e}"));
        println!("| {what} | {measured:.3e} | {paper} |");
    }
    println!();
}

fn main() {
    print_header();
    print_table(slerp_joints_table());
    print_table(lerp_joints_table());
    print_table(quats_to_mats_table());
    print_table(mats_to_quats_table());
    print_table(transform_skeleton_table());
    print_table(untransform_skeleton_table());
    print_table(transform_joints_table());
    accuracy_section();
}
