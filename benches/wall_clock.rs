//! Wall-clock benchmarks (criterion 0.8): one group per routine, 1024 joints
//! with hot caches (the papers' setup), `Throughput::Elements(1024)`, one
//! bench per available [`Impl`] through the crate's safe functions (their
//! input validation included: this is what a user calls), and glam as the
//! peer.
//!
//! `slerp_joints` and `lerp_joints` work in place: timed over and over, they
//! would drive the joints onto the blend joints (after which the scalar port
//! takes its cheap near-parallel branch, and branch prediction learns the
//! data). So before every call each bench, the peer included, restores its
//! joints from a pristine copy, outside the timed region: `iter_custom`
//! times each call alone with `Instant` and sums. The buffers are the same
//! from iteration to iteration, so the caches stay hot; the timer's own cost
//! (tens of ns against microseconds per call) is the same for every bench.
//!
//! `cargo bench --bench wall_clock` (add `-- --warm-up-time 1
//! --measurement-time 3` for a quick run). These VMs vary by up to 20% from
//! run to run: compare the ratios within one run.

use std::hint::black_box;
use std::time::{Duration, Instant};

use animasm::{Error, Impl, JointQuat};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

#[path = "../tests/common/inputs.rs"]
mod inputs;
#[path = "common/peers.rs"]
mod peers;

use peers::{GlamJointLoop, glam_lerp_joints, glam_slerp_joints, to_glam};

/// Joints per call, as in the papers' tables.
const JOINTS: usize = 1024;
/// The interpolation factor.
const LERP: f32 = 0.5;
/// Seed of the joint lists (`inputs::joint_lists`).
const SEED: u64 = 0x5EED_2005;

/// The crate's safe `slerp_joints` / `lerp_joints`.
type SafeFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

/// `iters` calls of `call` on `state`, each after an untimed `restore`; the
/// summed time of the calls alone.
fn timed<S: ?Sized>(iters: u64, state: &mut S, restore: impl Fn(&mut S), call: impl Fn(&mut S)) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        restore(state);
        let start = Instant::now();
        call(state);
        total += start.elapsed();
    }
    total
}

/// One group: every available [`Impl`] through `safe`, then glam.
fn joint_group(c: &mut Criterion, name: &str, safe: SafeFn, peer: GlamJointLoop) {
    let (pristine, blend, index) = inputs::joint_lists(SEED, JOINTS);
    let mut joints = pristine.clone();
    let (pristine_q, pristine_t) = to_glam(&pristine);
    let (blend_q, blend_t) = to_glam(&blend);
    let (mut q, mut t) = (pristine_q.clone(), pristine_t.clone());

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(JOINTS as u64));
    for imp in Impl::ALL.into_iter().filter(|imp| imp.is_available()) {
        group.bench_function(imp.name(), |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut joints[..],
                    |j| j.copy_from_slice(&pristine),
                    |j| safe(imp, black_box(j), black_box(&blend), black_box(LERP), black_box(&index)).unwrap(),
                )
            })
        });
    }
    group.bench_function("glam", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut (&mut q, &mut t),
                |(q, t)| {
                    q.copy_from_slice(&pristine_q);
                    t.copy_from_slice(&pristine_t);
                },
                |(q, t)| {
                    peer(
                        black_box(q),
                        black_box(t),
                        black_box(&blend_q),
                        black_box(&blend_t),
                        black_box(LERP),
                        black_box(&index),
                    )
                },
            )
        })
    });
    group.finish();
}

fn slerp_joints(c: &mut Criterion) {
    joint_group(c, "slerp_joints", animasm::slerp_joints, glam_slerp_joints);
}

fn lerp_joints(c: &mut Criterion) {
    joint_group(c, "lerp_joints", animasm::lerp_joints, glam_lerp_joints);
}

criterion_group!(benches, slerp_joints, lerp_joints);
criterion_main!(benches);
