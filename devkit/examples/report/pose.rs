//! The pose pipeline ([`devkit::pipeline`]) on `data/Fox.glb`.

use crate::print::{Align::Left as L, Align::Right as R, heading, item, para, print_grid, progress};
use crate::results::Results;
use devkit::pipeline;

/// Timing rounds of the pose pipeline.
pub(crate) const POSE_ROUNDS: usize = 201;
/// Poses per timing round.
pub(crate) const POSES: usize = 64;

/// Section 8: the pose pipeline on `data/Fox.glb`, every form and glam.
pub(crate) fn pose_section(res: &mut Results) {
    heading("8. The pose pipeline: data/Fox.glb end to end");
    progress("loading data/Fox.glb and timing the pose pipeline");
    let anim = match pipeline::load(pipeline::DEFAULT_PATH) {
        Ok(anim) => anim,
        Err(e) => {
            para(&format!("data/Fox.glb could not be loaded: {e}."));
            return;
        }
    };
    for line in anim.summary() {
        item(&line);
    }
    outln!();
    let (check, timed) = (anim.check_times(), anim.timing_times(POSES));
    let rounds = crate::table::rounds(POSE_ROUNDS);
    let rows = match pipeline::measure(&anim, &check, &timed, rounds) {
        Ok(rows) => rows,
        Err(e) => {
            para(&format!("The pose pipeline failed: {e}."));
            return;
        }
    };
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.name.clone(),
                format!("{:.2e}", r.max_error),
                format!("{:.0}", r.ns_per_pose),
                format!("{:.0}", r.min_ns_per_pose),
                format!("{:.0}", r.poses_per_second()),
            ]
        })
        .collect();
    print_grid(&["pipeline", "max error/size", "ns/pose", "min ns/pose", "poses/s"], &[L, R, R, R, R], &lines);
    // A routine without the row's form runs its nearest one (`*`), and
    // `auto` resolves per routine: devkit::pipeline::Forms.
    for r in &rows {
        if let Some(note) = &r.note {
            item(&format!("{}{note}", if r.name.ends_with('*') { "* " } else { "" }));
        }
    }
    para(&format!(
        "Per pose: slerp_joints the rotations, lerp the translations, quats_to_mats, transform_skeleton, \
         transform_joints with the inverse bind matrices (glam: the same with glam types). A row is every form \
         that one of these routines runs on this CPU; a routine without it runs its nearest form (its \
         Deterministic for a successor form: the same bits; else Auto), marked * and said above. Max error: over {} \
         poses against an independent f64 pipeline (exact slerp, no animasm kernel), max(rotation element \
         error, translation error / model size {:.4}: animasm_testkit::error::model_size, the largest over the \
         rest pose and every key pose). Timed: {} poses from {:.4} s to {:.4} s, {rounds} \
         rounds round-robin, timed with the report's timer (TSC ticks converted to ns at the measured rate; \
         median; poses/s at the median): the same timer and method as `examples/pose.rs`.",
        check.len(),
        anim.size,
        timed.len(),
        anim.start,
        anim.end
    ));
    res.pose = rows;
}
