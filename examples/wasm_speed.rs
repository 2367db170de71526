//! `cargo run --release --example wasm_speed [-- --quick] [--target wasm32-wasip1]`:
//! the seven id Software routines' safe functions at 1024 elements with
//! [`Impl::Auto`], [`Impl::Scalar`] and [`Impl::Portable`], timed in one
//! process with the forms interleaved, as a markdown table of nanoseconds
//! per element (the median of many rounds) and what `Auto` resolves to;
//! then the two joint blends on the Fox's keys, held and near-identical
//! poses, and `quats_to_mats` on the Fox's keys (the inputs animation
//! produces: `animasm_testkit::cases::Workload`), the two skeleton routines
//! on a rig's rest pose (`devkit::setup::rig_skeleton_input`: axis-aligned
//! turns and decimal offsets, whose sums often fall exactly halfway between
//! two f32), and the nlerp family (`Auto` against `Scalar`; it has no
//! `Portable` form).
//!
//! Made for wasm32 (`--target wasm32-wasip1` runs it under Node through
//! `scripts/wasi-run.mjs`), where the report's timer (`devkit::timer`,
//! TSC reads) does not exist: it times with [`std::time::Instant`], which
//! WASI gives (`clock_time_get`, Node's monotonic clock). It runs on any
//! target (on x86_64 `Auto` is the fastest SIMD form this CPU runs; on
//! wasm32 built with `-C target-feature=+simd128` the SIMD128 forms, and
//! without it `Portable`). The inputs are the report's and the benches'
//! (`devkit::setup`).
//!
//! Each round times one call of every form on the same input, in turn (the
//! order rotates from round to round), so a slow stretch of the machine
//! falls on every form alike; the in-place routines (the joint blends and
//! the skeletons) get a fresh copy of their input before each call, outside
//! the timed call. `--quick` (or `ANIMASM_WASM_SPEED_QUICK=1`) runs 15
//! rounds instead of 401, to check that it runs to the end (CI).

use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

use animasm::roster::{Routine, Shape};
use animasm::{Impl, JointMat, JointQuat, Quat};
use animasm_testkit::cases::{Workload, workload_joints};
use devkit::floors::Walk;
use devkit::setup;

/// The forms compared, in the table's column order.
const IMPS: [Impl; 3] = [Impl::Auto, Impl::Scalar, Impl::Portable];
/// Rounds of a full run and of `--quick`.
const ROUNDS: usize = 401;
const QUICK_ROUNDS: usize = 15;

/// One routine ready to call: a call of its safe function with a form
/// (which restores its in-place input first, untimed, and returns the
/// nanoseconds of the call), and the number of elements a call handles.
struct Bench {
    call: Box<dyn FnMut(Impl) -> u128>,
    elements: usize,
}

/// The skeleton rows' shared buffers: the joints and the parents.
type SkeletonWork = Rc<RefCell<(Vec<JointMat>, Vec<i32>)>>;

/// The roster's routine `name`.
fn find(name: &str) -> &'static Routine {
    animasm::roster::find(name).unwrap_or_else(|| panic!("{name}: not in the roster"))
}

/// Times `f` once, in nanoseconds.
fn timed(f: impl FnOnce() -> Result<(), animasm::Error>, what: &str) -> u128 {
    let start = Instant::now();
    let r = f();
    let ns = start.elapsed().as_nanos();
    r.unwrap_or_else(|e| panic!("{what}: {e}"));
    ns
}

/// A row's input: a workload of `animasm_testkit` (the joint blends' pairs,
/// `quats_to_mats`' joints; the other routines take the report's random
/// input with `Random`), or a rig's rest pose (the skeleton routines).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Input {
    Load(Workload),
    Rig,
}

impl Input {
    fn name(self) -> &'static str {
        match self {
            Input::Load(w) => w.name(),
            Input::Rig => "rig",
        }
    }
}

/// The routine's input (`devkit::setup`'s, 1024 elements; for the joint
/// blends, the pairs of `input`'s workload) and its call. The skeleton
/// routines work in `skeleton_work`, one pair of buffers (joints, parents)
/// for all their rows, so that a row's input and not its buffers' places
/// decides its time (4K aliasing: on x86_64 the rig's rows, each in
/// buffers of their own, took 1.45x the random rows' time, and the same
/// time in the same buffers).
fn bench(r: &'static Routine, input: Input, skeleton_work: SkeletonWork) -> Bench {
    let name = r.name;
    match r.shape {
        Shape::JointBlend { safe, .. } => {
            let (joints, blend, index) = match workload_of(input, name) {
                Workload::Random => setup::joint_lists(),
                w => {
                    let (a, b) = workload_joints(w, setup::SEED, setup::JOINTS);
                    (a, b, (0..setup::JOINTS as i32).collect())
                }
            };
            let mut work = joints.clone();
            let elements = index.len();
            Bench {
                call: Box::new(move |imp| {
                    work.copy_from_slice(&joints);
                    timed(|| safe(imp, &mut work, &blend, setup::LERP, &index), name)
                }),
                elements,
            }
        }
        Shape::QuatsToMats { safe, .. } => {
            let quats = match workload_of(input, name) {
                Workload::Random => setup::quats_to_mats_input(),
                // Real rotations and translations: the Fox's keys.
                w => workload_joints(w, setup::SEED, setup::JOINTS).0,
            };
            let mut out = vec![JointMat::default(); quats.len()];
            let elements = quats.len();
            Bench { call: Box::new(move |imp| timed(|| safe(imp, &mut out, &quats), name)), elements }
        }
        Shape::MatsToQuats { safe, .. } => {
            let mats = setup::mats_to_quats_input();
            let mut out = vec![JointQuat::default(); mats.len()];
            let elements = mats.len();
            Bench { call: Box::new(move |imp| timed(|| safe(imp, &mut out, &mats), name)), elements }
        }
        Shape::Skeleton { safe, .. } => {
            let walk = Walk::of(r).expect("a skeleton routine has a walk");
            let (mats, parents) = match input {
                Input::Rig => setup::rig_skeleton_input(walk),
                Input::Load(_) => setup::skeleton_input(walk),
            };
            let range = setup::SKELETON_RANGE;
            let elements = range.clone().count();
            Bench {
                call: Box::new(move |imp| {
                    let (work, work_parents) = &mut *skeleton_work.borrow_mut();
                    work.clear();
                    work.extend_from_slice(&mats);
                    work_parents.clear();
                    work_parents.extend_from_slice(&parents);
                    timed(|| safe(imp, work, work_parents, range.clone()), name)
                }),
                elements,
            }
        }
        Shape::TransformJoints { safe, .. } => {
            let (a, b) = setup::transform_joints_input();
            let mut out = vec![JointMat::default(); a.len()];
            let elements = a.len();
            Bench { call: Box::new(move |imp| timed(|| safe(imp, &mut out, &a, &b), name)), elements }
        }
        Shape::Stream { safe, .. } => {
            let (l, r, t) = setup::nlerp_input();
            let mut out = vec![Quat::default(); r.len()];
            let elements = r.len();
            Bench { call: Box::new(move |imp| timed(|| safe(imp, &mut out, &l, &r, &t), name)), elements }
        }
        // The quaternion-pair and pose shapes, and any shape to come: not
        // timed here.
        _ => unreachable!("{name}: not a shape this example times"),
    }
}

/// `input`'s workload; a rig is only a skeleton's input.
fn workload_of(input: Input, name: &str) -> Workload {
    match input {
        Input::Load(w) => w,
        Input::Rig => panic!("{name}: the rig input is for the skeleton routines"),
    }
}

/// The median of `v` (sorted here; the mean of the middle two for an even
/// count).
fn median(v: &mut [u128]) -> f64 {
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 { v[n / 2] as f64 } else { (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0 }
}

fn main() -> ExitCode {
    let mut quick = std::env::var_os("ANIMASM_WASM_SPEED_QUICK").is_some_and(|v| v == "1");
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--quick" => quick = true,
            // `cargo run`'s and the test harness's conventions, harmless here.
            "--bench" | "--nocapture" => {}
            other => {
                eprintln!("wasm_speed: unknown argument {other:?}\nusage: wasm_speed [--quick]");
                return ExitCode::from(2);
            }
        }
    }
    let rounds = if quick { QUICK_ROUNDS } else { ROUNDS };

    println!(
        "animasm safe functions on {}, {} elements, median of {rounds} rounds, ns per element{}\n",
        std::env::consts::ARCH,
        setup::JOINTS,
        if quick { " (--quick: a check that it runs, not a figure)" } else { "" }
    );
    println!("| routine | input | `Auto` is | Auto | Scalar | Portable | Scalar / Auto | Portable / Auto |");
    println!("|---|---|---|---:|---:|---:|---:|---:|");
    // The id routines on the report's inputs (random pairs for the joint
    // blends), the joint blends again on held and near-identical poses, and
    // the nlerp family (which has no `Portable` form: `-`).
    let blends = ["slerp_joints", "lerp_joints"];
    let rows = animasm::roster::id_routines()
        .map(|r| (r, Input::Load(Workload::Random)))
        .chain(
            blends
                .into_iter()
                .flat_map(|n| [Workload::Fox, Workload::Held, Workload::Near].map(|w| (find(n), Input::Load(w)))),
        )
        .chain([(find("quats_to_mats"), Input::Load(Workload::Fox))])
        .chain(["transform_skeleton", "untransform_skeleton"].map(|n| (find(n), Input::Rig)))
        .chain(["nlerp", "fnlerp", "onlerp"].map(|n| (find(n), Input::Load(Workload::Random))));
    let skeleton_work: SkeletonWork =
        Rc::new(RefCell::new((Vec::with_capacity(setup::JOINTS), Vec::with_capacity(setup::JOINTS))));
    for (r, input) in rows {
        let auto = match r.resolve(Impl::Auto) {
            Ok(f) => f.imp,
            Err(e) => {
                eprintln!("wasm_speed: {}: Auto does not resolve: {e}", r.name);
                return ExitCode::FAILURE;
            }
        };
        let mut b = bench(r, input, Rc::clone(&skeleton_work));
        let imps: Vec<Impl> = IMPS.into_iter().filter(|&imp| r.resolve(imp).is_ok()).collect();
        // One untimed call of each form first: the first call of a wasm
        // function may run code that V8 has not yet optimised.
        for &imp in &imps {
            (b.call)(imp);
        }
        let mut times: Vec<Vec<u128>> = imps.iter().map(|_| Vec::with_capacity(rounds)).collect();
        for round in 0..rounds {
            for k in 0..imps.len() {
                let i = (round + k) % imps.len();
                times[i].push((b.call)(imps[i]));
            }
        }
        let per: Vec<f64> = times.iter_mut().map(|t| median(t) / b.elements as f64).collect();
        let of = |imp: Impl| imps.iter().position(|&i| i == imp).map(|i| per[i]);
        let cell = |v: Option<f64>, unit: &str| v.map_or("-".to_string(), |v| format!("{v:.2}{unit}"));
        let (a, sc, po) = (of(Impl::Auto).expect("Auto resolves"), of(Impl::Scalar), of(Impl::Portable));
        println!(
            "| {} | {} | {auto} | {a:.2} | {} | {} | {} | {} |",
            r.name,
            input.name(),
            cell(sc, ""),
            cell(po, ""),
            cell(sc.map(|v| v / a), "x"),
            cell(po.map(|v| v / a), "x"),
        );
    }
    ExitCode::SUCCESS
}
