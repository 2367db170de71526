//! The `JointBlend` groups (*Slerping Clock Cycles*): in place, on the
//! papers' two joint lists, restored before every call.

use std::hint::black_box;

use animasm::roster::{Routine, Shape};
use criterion::Throughput;
use devkit::floors;
use devkit::peers::{GlamJointLoop, glam_lerp_joints, glam_slerp_joints, to_glam};
use devkit::setup::{self, JOINTS, LERP};

use crate::{C, benched_forms, id, timed};

/// A routine's glam peer, if it has one.
fn peer(r: &Routine) -> Option<GlamJointLoop> {
    match r.name {
        "slerp_joints" => Some(glam_slerp_joints),
        "lerp_joints" => Some(glam_lerp_joints),
        _ => None,
    }
}

/// One group: each routine's forms and `auto` through its safe function,
/// and its glam peer; then the floor.
pub(crate) fn joint_blend(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let (pristine, blend, index) = setup::joint_lists();
    let mut joints = pristine.clone();
    let (pristine_q, pristine_t) = to_glam(&pristine);
    let (blend_q, blend_t) = to_glam(&blend);
    let (mut q, mut t) = (pristine_q.clone(), pristine_t.clone());

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(JOINTS as u64));
    for r in routines {
        let Shape::JointBlend { safe, .. } = r.shape else { continue };
        for imp in benched_forms(r) {
            group.bench_function(id(name, r, imp.name()), |b| {
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
        let Some(peer) = peer(r) else { continue };
        group.bench_function(id(name, r, "glam"), |b| {
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
    }
    group.bench_function("floor", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut joints[..],
                |j| j.copy_from_slice(&pristine),
                |j| floors::joint_lists(black_box(j), black_box(&blend), black_box(&index)),
            )
        })
    });
    group.finish();
}
