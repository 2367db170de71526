//! Wall-clock benchmarks (criterion 0.8): one group per routine, 1024 joints
//! with hot caches (the papers' setup), `Throughput::Elements(1024)`, one
//! bench per available [`Impl`] through the crate's safe functions, and glam
//! as the peer.
//!
//! `slerp_joints` and `lerp_joints` work in place: timed over and over, they
//! would drive the joints onto the blend joints, after which the scalar port
//! takes its cheap near-parallel branch. So every bench, the peer included,
//! restores its joints from a pristine copy with `copy_from_slice` at the
//! start of the timed closure. The buffers stay the same from iteration to
//! iteration, so the caches stay hot (`iter_batched_ref` would hand every
//! iteration a fresh copy, spread over megabytes). The `restore` bench times
//! that copy alone (the same 32 KiB for the joints and for glam's two arrays),
//! so it can be subtracted from the others.
//!
//! `cargo bench --bench wall_clock` (add `-- --warm-up-time 1
//! --measurement-time 3` for a quick run). These VMs vary by up to 20% from
//! run to run: compare the ratios within one run.

use std::hint::black_box;

use animasm::{Error, Impl, JointQuat};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use glam::{Quat as GQuat, Vec4 as GVec4};

#[path = "../tests/common/inputs.rs"]
mod inputs;

/// Joints per call, as in the papers' tables.
const JOINTS: usize = 1024;
/// The interpolation factor.
const LERP: f32 = 0.5;
/// Seed of the joint lists (`inputs::joint_lists`).
const SEED: u64 = 0x5EED_2005;

/// The crate's safe `slerp_joints` / `lerp_joints`.
type SafeFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;
/// A glam loop over `index`: rotations, translations, blend rotations, blend
/// translations, factor, index.
type GlamLoop = fn(&mut [GQuat], &mut [GVec4], &[GQuat], &[GVec4], f32, &[i32]);

/// glam's `Quat::slerp` and `Vec4::lerp` over the indexed joints.
#[inline(never)]
fn glam_slerp_joints(q: &mut [GQuat], t: &mut [GVec4], bq: &[GQuat], bt: &[GVec4], lerp: f32, index: &[i32]) {
    for &j in index {
        let j = j as usize;
        q[j] = q[j].slerp(bq[j], lerp);
        t[j] = t[j].lerp(bt[j], lerp);
    }
}

/// glam's `Quat::lerp` (shorter arc, normalised) and `Vec4::lerp` over the
/// indexed joints.
#[inline(never)]
fn glam_lerp_joints(q: &mut [GQuat], t: &mut [GVec4], bq: &[GQuat], bt: &[GVec4], lerp: f32, index: &[i32]) {
    for &j in index {
        let j = j as usize;
        q[j] = q[j].lerp(bq[j], lerp);
        t[j] = t[j].lerp(bt[j], lerp);
    }
}

/// The same joints as glam rotation and translation arrays.
fn to_glam(joints: &[JointQuat]) -> (Vec<GQuat>, Vec<GVec4>) {
    let q = joints.iter().map(|j| GQuat::from_array(j.q.to_array())).collect();
    let t = joints.iter().map(|j| GVec4::from_array(j.t.to_array())).collect();
    (q, t)
}

/// One group: `restore`, every available [`Impl`] through `safe`, then glam.
fn joint_group(c: &mut Criterion, name: &str, safe: SafeFn, peer: GlamLoop) {
    let (pristine, blend, index) = inputs::joint_lists(SEED, JOINTS);
    let mut joints = pristine.clone();
    let (pristine_q, pristine_t) = to_glam(&pristine);
    let (blend_q, blend_t) = to_glam(&blend);
    let (mut q, mut t) = (pristine_q.clone(), pristine_t.clone());

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(JOINTS as u64));
    group.bench_function("restore", |b| {
        b.iter(|| {
            joints.copy_from_slice(&pristine);
            black_box(&mut joints);
        })
    });
    for imp in Impl::ALL.into_iter().filter(|imp| imp.is_available()) {
        group.bench_function(imp.name(), |b| {
            b.iter(|| {
                joints.copy_from_slice(&pristine);
                safe(imp, black_box(&mut joints), black_box(&blend), black_box(LERP), black_box(&index)).unwrap();
            })
        });
    }
    group.bench_function("glam", |b| {
        b.iter(|| {
            q.copy_from_slice(&pristine_q);
            t.copy_from_slice(&pristine_t);
            peer(
                black_box(&mut q),
                black_box(&mut t),
                black_box(&blend_q),
                black_box(&blend_t),
                black_box(LERP),
                black_box(&index),
            );
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
