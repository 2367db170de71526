//! The `Pose` groups (the assembly line in one call: `slerp_pose`,
//! `lerp_pose`): every form through the safe function on the Fox's
//! consecutive keyframe pairs tiled to the size, under random parents-first
//! hierarchies of 24, 100 and 1024 joints and the Fox's own skeleton, no
//! skin (`devkit::whole_pose`: the inputs of the report's section 8b); and
//! `whole_pose_vs_chained`: the Avx2 form's raw kernel in one call against
//! the Avx2 raw kernels of the joint blend, `quats_to_mats` and
//! `transform_skeleton` called one after the other (the chain).

use std::hint::black_box;

use animasm::Impl;
use animasm::pose::PoseInput;
use animasm::roster::{Routine, Shape};
use animasm_testkit::cases::Workload;
use criterion::Throughput;
use devkit::whole_pose::{Chain, FACTOR, Hierarchy, PoseCase, PoseOut, run_pose};

use crate::{C, benched_forms, id, timed};

/// The bench's size label: `<hierarchy>/<joints>` (`random/24`, `Fox/24`).
fn size(case: &PoseCase) -> String {
    format!("{}/{}", case.hierarchy.name(), case.joints())
}

/// One group: each routine's forms and `auto` through its safe function,
/// on every hierarchy; bench ids `<form>/<hierarchy>/<joints>` (prefixed
/// with the routine's name).
pub(crate) fn whole_pose(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let mut group = c.benchmark_group(name);
    for h in Hierarchy::all() {
        let case = PoseCase::new(h, Workload::Fox);
        let mut out = PoseOut::new(case.joints());
        group.throughput(Throughput::Elements(case.joints() as u64));
        for r in routines {
            let Shape::Pose { safe, .. } = r.shape else { continue };
            for imp in benched_forms(r) {
                group.bench_function(id(name, r, &format!("{}/{}", imp.name(), size(&case))), |b| {
                    b.iter(|| {
                        let input = PoseInput::new(black_box(&case.from), black_box(&case.to), black_box(FACTOR));
                        safe(imp, &input, black_box(&case.parents), black_box(&mut out.model), None).unwrap()
                    })
                });
            }
        }
    }
    group.finish();
    whole_pose_vs_chained(c, routines);
}

/// `whole_pose_vs_chained`: for each routine with an Avx2 form this CPU
/// runs, its raw kernel in one call (`<routine> avx2/...`) and the Avx2 raw
/// kernels of its chain called one after the other over the whole arrays
/// (`<blend>+quats_to_mats+transform_skeleton avx2/...`, the blended pose
/// restored from the first pose before each call, untimed); both timed call
/// by call (`timed`), so the timer's cost is the same on both sides.
fn whole_pose_vs_chained(c: &mut C, routines: &[&'static Routine]) {
    let mut group = c.benchmark_group("whole_pose_vs_chained");
    for h in Hierarchy::all() {
        let case = PoseCase::new(h, Workload::Fox);
        let n = case.joints();
        let index: Vec<i32> = (0..n as i32).collect();
        let mut out = PoseOut::new(n);
        group.throughput(Throughput::Elements(n as u64));
        for r in routines {
            let Shape::Pose { forms, .. } = r.shape else { continue };
            let Some(form) = forms.iter().find(|f| f.imp() == Impl::Avx2 && f.runnable()) else {
                eprintln!("wall_clock: whole_pose_vs_chained: {} has no Avx2 form this CPU runs", r.name);
                continue;
            };
            let kernel = form.kernel();
            group.bench_function(format!("{} avx2/{}", r.name, size(&case)), |b| {
                b.iter_custom(|iters| {
                    timed(iters, &mut out, |_| (), |o| run_pose(kernel, black_box(&case), black_box(o), false))
                })
            });
            let chain = Chain::new(r, Impl::Avx2);
            let label = r.chain()[..3].join("+");
            group.bench_function(format!("{label} avx2/{}", size(&case)), |b| {
                b.iter_custom(|iters| {
                    timed(
                        iters,
                        &mut out,
                        |o| o.blended.copy_from_slice(&case.from),
                        |o| chain.run(black_box(&case), black_box(o), &index, false),
                    )
                })
            });
        }
    }
    group.finish();
}
