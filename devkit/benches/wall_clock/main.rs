//! Wall-clock benchmarks (criterion 0.8) of every form of every routine of
//! `animasm::roster`, through the crate's safe functions (their input
//! validation included: this is what a user calls), with glam as the peer
//! and the memory floors of `devkit::floors`.
//!
//! One criterion group per routine module (`Routine::module`: a routine,
//! with its variants, `slerp_quats` for the two quaternion-pair routines,
//! `nlerp` for the stream routines), in the roster's order. In a group,
//! each routine benches every form the roster lists as running on this CPU
//! (`Routine::forms`, fastest first), then `auto` (`Impl::Auto`, the
//! default), by `Impl::name()`; a form compiled here that this CPU does not
//! run is left out with a line on stderr. Then come the routine's peers and
//! extras, and the group's floors. The benchmarks are written once per
//! `Shape` (routines of one shape take the same arguments; `joints.rs`,
//! `matrices.rs`, `arrays.rs`): a new form, or a new routine of an existing
//! shape, shows up here with no edit. The data (`devkit::setup`) and the
//! peers (`devkit::peers`) are those of the report (`devkit/examples/report/`; see
//! its notes) and `instr_count`. Every form of a group runs on the same
//! buffers.
//!
//! | shape | data, throughput | bench ids (`<group>/<bench>`) | peers, extras, floors |
//! |---|---|---|---|
//! | `JointBlend` | the papers' two joint lists, 1024 joints | `slerp_joints/avx2` | `glam`, `floor` |
//! | `JointBlend`, workloads | random pairs, the Fox's keys, a held pose, near-identical poses (`animasm_testkit::cases::Workload`) at 24, 100 and 1024 joints | `slerp_joints_workloads/avx2/held/24` | |
//! | `QuatsToMats`, `MatsToQuats`, `TransformJoints` | 1024 joints | `quats_to_mats/asm` | `glam`, `floor` |
//! | `Skeleton` | 1024 rigid matrices under a random parents-first hierarchy, joints `1..=1023`, `Elements(1023)` | `transform_skeleton/scalar`; a variant `transform_skeleton/asm (movss+shufps)` | `glam`, `floor`, `chain floor` |
//! | `QuatPairs` | 64, 67 and 1024 uniform random unit quaternion pairs in `AlignedQuats` (32-byte aligned) | `slerp_quats/sse2 corrected/67` | `glam Quat::slerp/<n>` |
//! | `Stream` | 1024 elements | `nlerp/fnlerp/avx2` | `<routine>/autovec (raw kernel)`, `glam Quat::lerp`, `glam Quat::slerp` |
//! | `Pose` | the Fox's keyframe pairs tiled to 24, 100 and 1024 joints under random parents-first hierarchies, and on the Fox's own skeleton, no skin (`devkit::whole_pose`) | `pose/lerp_pose/avx2/random/1024`, `pose/slerp_pose/scalar/Fox/24` | `whole_pose_vs_chained`: `lerp_pose avx2/random/24` (raw kernel) against `lerp_joints+quats_to_mats+transform_skeleton avx2/random/24` (the Avx2 raw kernels chained) |
//! | (not the roster's) `pose_crowd` | one crowd frame of 100 Foxes (`devkit::crowd`: one `slerp_pose` with a `Skin` per character), `Elements(2400)` joints | `pose_crowd/one_core/100`, `pose_crowd/rayon/100` (every core; not on wasm32) | |
//!
//! The joint blends and the skeletons work in place: timed over and over,
//! a joint blend would drive the joints onto the blend joints (after which
//! the scalar port takes its cheap near-parallel branch, and branch
//! prediction learns the data), and a skeleton call would transform the
//! previous call's output. So before every call each of their benches, the
//! peer and the floors included, restores its buffer from a pristine copy,
//! outside the timed region: `iter_custom` times each call alone and sums.
//! The buffers are the same from iteration to iteration, so the caches stay
//! hot; the timer's own cost (tens of ns against microseconds per call) is
//! the same for every bench. The other shapes write a separate output, the
//! same every time: plain `iter`.
//!
//! The skeleton groups run on the local matrices, but that of the routine
//! that takes global matrices back to local, which runs on their globals
//! and walks last to first; its floors walk as it does. The floors
//! (`devkit::floors`, bench `floor`: the routine's loads and stores with one
//! add, called on the same buffers; the skeletons' `chain floor` adds the
//! dependency chain) bound every form from below. The quaternion-pair group
//! reproduces the Intel article's Table 1: its ratio is `sse2 corrected`
//! over `asm as published` (or `intrinsics as published`) at the same
//! count. The stream group adds each routine's scalar loop as LLVM
//! vectorises it (the raw `scalar::autovec_*`, which have no safe
//! function). The report's section 5b has the id routines' rows at 64, 1024
//! and 65536 elements, with the ultraviolet peers.
//!
//! The measurement is [`devkit::criterion_tsc::Tsc`]: the report's timer
//! (`devkit::timer`, `lfence; rdtsc; lfence`), so criterion's figures are in
//! TSC ticks (nanoseconds off x86_64), comparable with the report's tables;
//! throughput is in elements per kilotick.
//!
//! # Running it
//!
//! The arguments after `--` go to criterion: a filter (a regex on the
//! bench id `<group>/<bench>`: `slerp_joints`, `^lerp_joints`,
//! `nlerp/onlerp`, `/avx2$`), `--quick`, `--warm-up-time`,
//! `--measurement-time`; `-- --list` lists the benches (107 on a CPU with
//! AVX2 and FMA: 7 per id routine's group, 12 and 8 for the skeleton
//! groups, 30 for `slerp_quats`, 22 for `nlerp`; and the two joint blends'
//! workload groups, 12 per form and `auto`: 168 more with AVX-512; the figures below
//! are of the 107, before the workload groups; `-- _workloads` runs those;
//! and the 2 of `pose_crowd`, `-- pose_crowd --quick`). Wall times on the 2-vCPU
//! AMD EPYC VM the crate is developed on, the build done (after `cargo build
//! --release --all-targets` the bench profile reuses the release artifacts:
//! `cargo bench --no-run` takes 0.1 s):
//!
//! | command (`cargo bench -p devkit --bench wall_clock ...`) | benches | wall time |
//! |---|---|---|
//! | `-- --quick` | 107 | 20 to 40 s |
//! | `-- --quick slerp_joints` | 7 | 3 s |
//! | `-- --warm-up-time 1 --measurement-time 2 slerp_joints` | 7 | 29 s |
//! | `-- --warm-up-time 1 --measurement-time 2` | 107 | 7 min |
//! | `-- slerp_joints` (criterion's defaults) | 7 | 72 s |
//! | (nothing: criterion's defaults) | 107 | about 18 min, estimated |
//!
//! The full run was not timed: with criterion's defaults (3 s warm-up, 5 s
//! measurement, 100 samples, 100 000 bootstrap resamples per bench) three
//! groups run alone (`slerp_joints`, `quats_to_mats`, `transform_joints`,
//! 21 benches, 207 s) took 9.6 to 10.4 s per bench (the in-place groups the
//! most: their restores are untimed but run), and 107 benches at that rate
//! take 18 minutes. `--quick` stops sampling a bench as soon as criterion's
//! significance level is reached: on those three groups its estimates were
//! within 3% of the defaults' in the median and within 11% bench by bench
//! (the floors, which vary by up to 30% in every mode, aside). Use it for a
//! first look, and the defaults (or `--warm-up-time 1 --measurement-time 2`
//! with a filter) for figures you quote. These VMs vary by up to 20% from
//! run to run: compare the ratios within one run.

mod arrays;
mod crowd;
mod joints;
mod matrices;
mod pose;

use animasm::Impl;
use animasm::roster::{ROUTINES, Routine, Shape};
use criterion::{Criterion, criterion_group, criterion_main};
use devkit::criterion_tsc::Tsc;

/// Criterion with the report's timer.
type C = Criterion<Tsc>;

/// `iters` calls of `call` on `state`, each after an untimed `restore`; the
/// summed ticks of the calls alone.
fn timed<S: ?Sized>(iters: u64, state: &mut S, restore: impl Fn(&mut S), call: impl Fn(&mut S)) -> u64 {
    let mut total = 0;
    for _ in 0..iters {
        restore(state);
        total += Tsc::time(|| call(state));
    }
    total
}

/// The forms of `routine` this target and CPU run, fastest first, then
/// [`Impl::Auto`]; a line on stderr for each form compiled here that this
/// CPU does not run.
fn benched_forms(routine: &Routine) -> Vec<Impl> {
    for f in routine.all_forms().filter(|f| !routine.forms().any(|g| g.imp == f.imp)) {
        eprintln!("wall_clock: {}: {} needs {}, which this CPU lacks: not benched", routine.name, f.imp, f.isa.needs());
    }
    routine.forms().map(|f| f.imp).chain([Impl::Auto]).collect()
}

/// A bench id in `group`: the bench's name, prefixed with the routine's
/// where the group is not the routine's own.
fn id(group: &str, routine: &Routine, bench: &str) -> String {
    if routine.name == group { bench.to_owned() } else { format!("{}/{bench}", routine.name) }
}

/// Every group: the roster's routines by module, each module's group benched
/// by the piece of its routines' shape.
fn roster(c: &mut C) {
    devkit::refuse_test_hooks("wall_clock");
    let mut modules: Vec<&str> = Vec::new();
    for r in ROUTINES {
        if !modules.contains(&r.module) {
            modules.push(r.module);
        }
    }
    for module in modules {
        let routines: Vec<&'static Routine> = ROUTINES.iter().filter(|r| r.module == module).collect();
        match routines[0].shape {
            Shape::JointBlend { .. } => {
                joints::joint_blend(c, module, &routines);
                joints::joint_blend_workloads(c, module, &routines);
            }
            Shape::QuatsToMats { .. } => matrices::quats_to_mats(c, module, &routines),
            Shape::MatsToQuats { .. } => matrices::mats_to_quats(c, module, &routines),
            Shape::Skeleton { .. } => matrices::skeleton(c, module, &routines),
            Shape::TransformJoints { .. } => matrices::transform_joints(c, module, &routines),
            Shape::QuatPairs { .. } => arrays::quat_pairs(c, module, &routines),
            Shape::Stream { .. } => arrays::stream(c, module, &routines),
            Shape::Pose { .. } => pose::whole_pose(c, module, &routines),
            _ => eprintln!("wall_clock: {module}: no benchmark is written for its routines' shape yet"),
        }
    }
}

criterion_group!(
    name = benches;
    config = Criterion::default().with_measurement(Tsc);
    targets = roster, crowd::pose_crowd
);
criterion_main!(benches);
