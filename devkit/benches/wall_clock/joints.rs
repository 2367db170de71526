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

/// The workload groups (`<module>_workloads`): each routine's forms through
/// its safe function on random pairs, the Fox's consecutive keys, a held
/// pose and near-identical poses (`animasm_testkit::cases::Workload`), at a
/// character's sizes and at 1024 (`devkit::workloads::SIZES`); bench ids
/// `<form>/<workload>/<joints>`.
pub(crate) fn joint_blend_workloads(c: &mut C, name: &str, routines: &[&'static Routine]) {
    use animasm_testkit::cases::{Workload, workload_joints};
    let mut group = c.benchmark_group(format!("{name}_workloads"));
    for &n in &devkit::workloads::SIZES {
        group.throughput(Throughput::Elements(n as u64));
        let index: Vec<i32> = (0..n as i32).collect();
        for w in Workload::ALL {
            let (pristine, blend) = workload_joints(w, 0x3017 + n as u64, n);
            let mut joints = pristine.clone();
            for r in routines {
                let Shape::JointBlend { safe, .. } = r.shape else { continue };
                for imp in benched_forms(r) {
                    group.bench_function(id(name, r, &format!("{}/{}/{n}", imp.name(), w.name())), |b| {
                        b.iter_custom(|iters| {
                            timed(
                                iters,
                                &mut joints[..],
                                |j| j.copy_from_slice(&pristine),
                                |j| {
                                    safe(imp, black_box(j), black_box(&blend), black_box(LERP), black_box(&index))
                                        .unwrap()
                                },
                            )
                        })
                    });
                }
            }
        }
    }
    group.finish();
}
