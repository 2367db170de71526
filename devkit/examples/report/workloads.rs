//! The joint blends on animation's inputs: every form of `slerp_joints` and
//! `lerp_joints` through its safe function on random pairs, the Fox's
//! consecutive keys, a held pose and near-identical poses, at 24, 100 and
//! 1024 joints (`devkit::workloads`, whose docs give the method), and the
//! successors that take more than `MAX_RATIO` times their random-pair time
//! on one of them (`tests/workloads.rs` fails on those).

use devkit::workloads::{self, MAX_RATIO, SIZES};

use crate::print::{heading, para, progress};

/// The section.
pub(crate) fn workloads_section() {
    heading("The joint blends on animation's inputs");
    para(&format!(
        "Every form of the joint blends through its safe function at {SIZES:?} joints, median TSC ticks per \
         joint, the forms and workloads interleaved in one run: random unit pairs (the papers' input), the \
         Fox's consecutive keyframe pairs, a held pose (the blend joints equal the joints) and near-identical \
         poses (1e-3 rad apart). The last column is the form's slowest workload over its random pairs; a \
         successor above {MAX_RATIO}x fails `tests/workloads.rs`."
    ));
    progress("workloads: slerp_joints and lerp_joints");
    let measured = workloads::measure_all(&SIZES, if crate::table::quick() { 20.0 } else { 400.0 });
    println!("{}", workloads::markdown(&measured));
    let slow = workloads::slow_successors(&measured);
    if slow.is_empty() {
        para(&format!("Every successor is within {MAX_RATIO}x of its random-pair time on every workload."));
    }
    for (r, imp, n, w, ratio) in slow {
        para(&format!(
            "Slow: `{r}` `{imp}` at {n} joints takes {ratio:.2}x its random-pair time on {} poses.",
            w.name()
        ));
    }
}
