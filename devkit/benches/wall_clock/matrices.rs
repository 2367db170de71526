//! The joint-matrix groups (*From Quaternion to Matrix and Back*, *The
//! Skeleton Assembly Line*): `QuatsToMats`, `MatsToQuats` and
//! `TransformJoints` write a separate output (plain `iter`); `Skeleton`
//! works in place, restored before every call.

use std::hint::black_box;
use std::ops::RangeInclusive;

use animasm::roster::{Routine, Shape};
use animasm::{Impl, JointMat, JointQuat};
use criterion::Throughput;
use devkit::floors::{self, Walk};
use devkit::peers::{
    glam_mats_to_quats, glam_quats_to_mats, glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton,
    to_affine, to_affine_paper_rotation, to_glam,
};
use devkit::setup::{self, JOINTS, SKELETON_RANGE};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};

use crate::{C, benched_forms, id, timed};

// -----------------------------------------------------------------------
// `QuatsToMats`.

/// A glam loop from joints to affines.
type GlamQuatsToMatsLoop = fn(&mut [Affine3A], &[GQuat], &[GVec4]);

/// A routine's glam peer, if it has one.
fn quats_to_mats_peer(r: &Routine) -> Option<GlamQuatsToMatsLoop> {
    match r.name {
        "quats_to_mats" => Some(glam_quats_to_mats),
        _ => None,
    }
}

/// One group: each routine's forms and `auto`, and its glam peer; then the
/// floor.
pub(crate) fn quats_to_mats(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let quats = setup::quats_to_mats_input();
    let mut mats = vec![JointMat::default(); JOINTS];
    let (q, t) = to_glam(&quats);
    let mut affine = vec![Affine3A::IDENTITY; JOINTS];

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(JOINTS as u64));
    for r in routines {
        let Shape::QuatsToMats { safe, .. } = r.shape else { continue };
        for imp in benched_forms(r) {
            group.bench_function(id(name, r, imp.name()), |b| {
                b.iter(|| safe(imp, black_box(&mut mats), black_box(&quats)).unwrap())
            });
        }
        if let Some(peer) = quats_to_mats_peer(r) {
            group.bench_function(id(name, r, "glam"), |b| {
                b.iter(|| peer(black_box(&mut affine), black_box(&q), black_box(&t)))
            });
        }
    }
    group.bench_function("floor", |b| b.iter(|| floors::quats_to_mats(black_box(&mut mats), black_box(&quats))));
    group.finish();
}

// -----------------------------------------------------------------------
// `MatsToQuats`.

/// A glam loop from affines to joints.
type GlamMatsToQuatsLoop = fn(&mut [GQuat], &mut [GVec4], &[Affine3A]);

/// A routine's glam peer, if it has one.
fn mats_to_quats_peer(r: &Routine) -> Option<GlamMatsToQuatsLoop> {
    match r.name {
        "mats_to_quats" => Some(glam_mats_to_quats),
        _ => None,
    }
}

/// One group: each routine's forms and `auto`, and its glam peer (on the
/// rotation the kernels read, `to_affine_paper_rotation`); then the floor.
pub(crate) fn mats_to_quats(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let mats = setup::mats_to_quats_input();
    let mut quats = vec![JointQuat::default(); JOINTS];
    let affine = to_affine_paper_rotation(&mats);
    let (mut q, mut t) = (vec![GQuat::IDENTITY; JOINTS], vec![GVec4::ZERO; JOINTS]);

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(JOINTS as u64));
    for r in routines {
        let Shape::MatsToQuats { safe, .. } = r.shape else { continue };
        for imp in benched_forms(r) {
            group.bench_function(id(name, r, imp.name()), |b| {
                b.iter(|| safe(imp, black_box(&mut quats), black_box(&mats)).unwrap())
            });
        }
        if let Some(peer) = mats_to_quats_peer(r) {
            group.bench_function(id(name, r, "glam"), |b| {
                b.iter(|| peer(black_box(&mut q), black_box(&mut t), black_box(&affine)))
            });
        }
    }
    group.bench_function("floor", |b| b.iter(|| floors::mats_to_quats(black_box(&mut quats), black_box(&mats))));
    group.finish();
}

// -----------------------------------------------------------------------
// `Skeleton`.

/// A glam skeleton loop.
type GlamSkeletonLoop = fn(&mut [Affine3A], &[i32], RangeInclusive<usize>);
/// A skeleton floor (`devkit::floors::skeleton`, `skeleton_chain`).
type SkeletonFloor = fn(&mut [JointMat], &[i32], RangeInclusive<usize>, Walk);

/// The skeleton a routine runs on (its matrices and hierarchy) and the way
/// it walks its joints: the local matrices, first to last, but for the
/// routine that takes global matrices back to local, which runs on their
/// globals, last to first. A variant runs and walks as its routine.
fn skeleton_input(r: &Routine) -> ((Vec<JointMat>, Vec<i32>), Walk) {
    match r.variant_of.unwrap_or(r.name) {
        "untransform_skeleton" => (setup::skeleton_globals(), Walk::Backward),
        _ => (setup::skeleton_locals(), Walk::Forward),
    }
}

/// A routine's glam peer, if it has one (a variant has none: it computes
/// what its routine computes).
fn skeleton_peer(r: &Routine) -> Option<GlamSkeletonLoop> {
    match r.name {
        "transform_skeleton" => Some(glam_transform_skeleton),
        // `Affine3A::inverse`, the general one.
        "untransform_skeleton" => Some(glam_untransform_skeleton),
        _ => None,
    }
}

/// A skeleton bench id: the form's name, followed by the variant's part of
/// its name (`_` shown as `+`) in parentheses for a variant
/// (`asm (movss+shufps)`).
fn skeleton_id(name: &str, r: &Routine, imp: Impl) -> String {
    match r.variant_of {
        Some(base) if base == name => {
            let variant = r.name.strip_prefix(base).unwrap_or(r.name).trim_start_matches('_');
            format!("{imp} ({})", variant.replace('_', "+"))
        }
        _ => id(name, r, imp.name()),
    }
}

/// One group (a routine and its variants): each routine's forms and `auto`,
/// and its glam peer; then the memory and chain floors walking as the
/// group's first routine walks; every call on the pristine skeleton.
pub(crate) fn skeleton(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let ((pristine, parents), walk) = skeleton_input(routines[0]);
    let mut mats = pristine.clone();
    let pristine_g = to_affine(&pristine);
    let mut g = pristine_g.clone();

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(SKELETON_RANGE.count() as u64));
    for r in routines {
        let Shape::Skeleton { safe, .. } = r.shape else { continue };
        for imp in benched_forms(r) {
            group.bench_function(skeleton_id(name, r, imp), |b| {
                b.iter_custom(|iters| {
                    timed(
                        iters,
                        &mut mats[..],
                        |m| m.copy_from_slice(&pristine),
                        |m| safe(imp, black_box(m), black_box(&parents), black_box(SKELETON_RANGE)).unwrap(),
                    )
                })
            });
        }
        let Some(peer) = skeleton_peer(r) else { continue };
        group.bench_function(id(name, r, "glam"), |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut g[..],
                    |g| g.copy_from_slice(&pristine_g),
                    |g| peer(black_box(g), black_box(&parents), black_box(SKELETON_RANGE)),
                )
            })
        });
    }
    let floor_fns: [(&str, SkeletonFloor); 2] = [("floor", floors::skeleton), ("chain floor", floors::skeleton_chain)];
    for (bench, floor) in floor_fns {
        group.bench_function(bench, |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut mats[..],
                    |m| m.copy_from_slice(&pristine),
                    |m| floor(black_box(m), black_box(&parents), black_box(SKELETON_RANGE), walk),
                )
            })
        });
    }
    group.finish();
}

// -----------------------------------------------------------------------
// `TransformJoints`.

/// A glam loop of affine products.
type GlamTransformJointsLoop = fn(&mut [Affine3A], &[Affine3A], &[Affine3A]);

/// A routine's glam peer, if it has one.
fn transform_joints_peer(r: &Routine) -> Option<GlamTransformJointsLoop> {
    match r.name {
        "transform_joints" => Some(glam_transform_joints),
        _ => None,
    }
}

/// One group: each routine's forms and `auto`, and its glam peer; then the
/// floor.
pub(crate) fn transform_joints(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let (a, b) = setup::transform_joints_input();
    let mut r = vec![JointMat::default(); JOINTS];
    let (ga, gb) = (to_affine(&a), to_affine(&b));
    let mut gr = vec![Affine3A::IDENTITY; JOINTS];

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(JOINTS as u64));
    for routine in routines {
        let Shape::TransformJoints { safe, .. } = routine.shape else { continue };
        for imp in benched_forms(routine) {
            group.bench_function(id(name, routine, imp.name()), |bench| {
                bench.iter(|| safe(imp, black_box(&mut r), black_box(&a), black_box(&b)).unwrap())
            });
        }
        if let Some(peer) = transform_joints_peer(routine) {
            group.bench_function(id(name, routine, "glam"), |bench| {
                bench.iter(|| peer(black_box(&mut gr), black_box(&ga), black_box(&gb)))
            });
        }
    }
    group.bench_function("floor", |bench| {
        bench.iter(|| floors::transform_joints(black_box(&mut r), black_box(&a), black_box(&b)))
    });
    group.finish();
}
