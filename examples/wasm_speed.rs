//! `cargo run --release --example wasm_speed [-- --quick] [--target wasm32-wasip1]`:
//! the seven id Software routines' safe functions at 1024 elements with
//! [`Impl::Auto`], [`Impl::Scalar`] and [`Impl::Portable`], timed in one
//! process with the forms interleaved, as a markdown table of nanoseconds
//! per element (the median of many rounds) and what `Auto` resolves to.
//!
//! Made for wasm32 (`--target wasm32-wasip1` runs it under Node through
//! `scripts/wasi-run.mjs`), where the report's timer (`devkit::timer`,
//! TSC reads) does not exist: it times with [`std::time::Instant`], which
//! WASI gives (`clock_time_get`, Node's monotonic clock). It runs on any
//! target (on x86_64 `Auto` is the fastest SIMD form this CPU runs, on
//! wasm32 it is `Portable`, the only form besides `Scalar`). The inputs are
//! the report's and the benches' (`devkit::setup`).
//!
//! Each round times one call of every form on the same input, in turn (the
//! order rotates from round to round), so a slow stretch of the machine
//! falls on every form alike; the in-place routines (the joint blends and
//! the skeletons) get a fresh copy of their input before each call, outside
//! the timed call. `--quick` (or `ANIMASM_WASM_SPEED_QUICK=1`) runs 15
//! rounds instead of 401, to check that it runs to the end (CI).

use std::process::ExitCode;
use std::time::Instant;

use animasm::roster::{Routine, Shape};
use animasm::{Impl, JointMat, JointQuat};
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

/// Times `f` once, in nanoseconds.
fn timed(f: impl FnOnce() -> Result<(), animasm::Error>, what: &str) -> u128 {
    let start = Instant::now();
    let r = f();
    let ns = start.elapsed().as_nanos();
    r.unwrap_or_else(|e| panic!("{what}: {e}"));
    ns
}

/// The routine's input (`devkit::setup`'s, 1024 elements) and its call.
fn bench(r: &'static Routine) -> Bench {
    let name = r.name;
    match r.shape {
        Shape::JointBlend { safe, .. } => {
            let (joints, blend, index) = setup::joint_lists();
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
            let quats = setup::quats_to_mats_input();
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
            let (mats, parents) = setup::skeleton_input(walk);
            let mut work = mats.clone();
            let range = setup::SKELETON_RANGE;
            let elements = range.clone().count();
            Bench {
                call: Box::new(move |imp| {
                    work.copy_from_slice(&mats);
                    timed(|| safe(imp, &mut work, &parents, range.clone()), name)
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
        // The quaternion-pair and stream shapes, and any shape to come: no
        // id Software routine has them.
        _ => unreachable!("{name}: not an id Software routine's shape"),
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
    println!("| routine | `Auto` is | Auto | Scalar | Portable | Scalar / Auto |");
    println!("|---|---|---:|---:|---:|---:|");
    for r in animasm::roster::id_routines() {
        let auto = match r.resolve(Impl::Auto) {
            Ok(f) => f.imp,
            Err(e) => {
                eprintln!("wasm_speed: {}: Auto does not resolve: {e}", r.name);
                return ExitCode::FAILURE;
            }
        };
        let mut b = bench(r);
        // One untimed call of each form first: the first call of a wasm
        // function may run code that V8 has not yet optimised.
        for imp in IMPS {
            (b.call)(imp);
        }
        let mut times: [Vec<u128>; IMPS.len()] = std::array::from_fn(|_| Vec::with_capacity(rounds));
        for round in 0..rounds {
            for k in 0..IMPS.len() {
                let i = (round + k) % IMPS.len();
                times[i].push((b.call)(IMPS[i]));
            }
        }
        let per = times.map(|mut t| median(&mut t) / b.elements as f64);
        println!("| {} | {auto} | {:.2} | {:.2} | {:.2} | {:.2}x |", r.name, per[0], per[1], per[2], per[1] / per[0]);
    }
    ExitCode::SUCCESS
}
