//! The whole pose in one call: every form of `slerp_pose` and `lerp_pose`
//! (`Shape::Pose`) against the same form's routines called one after the
//! other, and against the pose's floor (`devkit::whole_pose`, whose docs
//! give the inputs and the method), at 24, 100 and 1024 joints under
//! random and depth-first hierarchies and on the Fox's skeleton, on random,
//! Fox, held and near-identical poses, without and with a skin.

use animasm::Impl;
use animasm_testkit::cases::Workload;
use devkit::timer;
use devkit::whole_pose::{self, FormRow, Hierarchy, Measured, WORKLOADS};

use crate::print::{Align::Left as L, Align::Right as R, heading, item, para, print_grid, progress};
use crate::results::{Results, SuccessorTicks};

/// Timed rounds at `n` joints in a full report (a fiftieth with `--quick`).
fn full_rounds(n: usize) -> usize {
    if n >= 1024 { 1201 } else { 4001 }
}

/// The issue's measurement of ozz-animation 0.16 (BlendingJob +
/// LocalToModelJob) over animasm's three chained Avx2 calls (`lerp_joints`,
/// `quats_to_mats`, `transform_skeleton`), on an Intel Xeon with AVX-512:
/// (joints, ozz ticks per joint, chained ticks per joint).
pub(crate) const ISSUE_OZZ: [(usize, f64, f64); 4] =
    [(24, 32.9, 23.2), (64, 31.8, 22.6), (256, 34.0, 22.6), (1024, 36.9, 22.5)];

/// The ratio a target asks of the fastest form over the floor.
const FLOOR_TARGET: f64 = 1.3;
/// The speedup over ozz-animation a target asks.
const OZZ_TARGET: f64 = 2.0;

/// `a / b` as `N.NNx`.
fn x(a: f64, b: f64) -> String {
    format!("{:.2}x", a / b)
}

/// The forms measured, in the order of the first routine's table, then any
/// other routine's.
fn forms(m: &Measured) -> Vec<Impl> {
    let mut out: Vec<Impl> = Vec::new();
    for r in &m.rows {
        if !out.contains(&r.imp) {
            out.push(r.imp);
        }
    }
    out
}

/// The fastest form of `routine` on `workload` (the smallest one-call
/// median).
fn fastest<'a>(m: &'a Measured, routine: &str, workload: Workload, skin: bool) -> Option<&'a FormRow> {
    m.rows
        .iter()
        .filter(|r| r.routine == routine && r.workload == workload && r.skin == skin)
        .min_by(|a, b| a.one.total_cmp(&b.one))
}

/// The section.
pub(crate) fn whole_pose_section(res: &mut Results) {
    heading("8b. The whole pose in one call: slerp_pose and lerp_pose");
    let routines: Vec<&'static str> = whole_pose::pose_routines().iter().map(|(r, _)| r.name).collect();
    para(&format!(
        "Every form of {} that this CPU runs: one call of its raw kernel (two poses blended at factor {}, \
         [R | t], model = parent * local, and with a skin skin = model * inverse bind) beside the chained calls: the same form's raw kernels of the joint blend (slerp_joints, \
         lerp_joints), quats_to_mats and transform_skeleton (and transform_joints with a skin), each over the \
         whole arrays, one after the other; x = chained / one call. Median {} per joint; every form, workload, \
         skin and floor of one hierarchy interleaved round-robin in one run, each workload's buffers shared by \
         all its rows (the chained blend works in place on a copy of the first pose, made inside the timed \
         region: an engine keeps its keyframes). Hierarchies: random parents-first ones (joint 0 the root, \
         each other joint's parent uniform among the earlier ones, a fixed seed), the same trees renumbered \
         depth-first (the order skeletons are usually stored in: a joint's first child follows it, long \
         parent-to-child chains) and the Fox's own 24-joint skeleton. Poses: random pairs, the Fox's consecutive keyframe pairs tiled to \
         the size, a held pose (both inputs equal), near-identical poses.",
        routines.iter().map(|r| format!("`{r}`")).collect::<Vec<_>>().join(" and "),
        whole_pose::FACTOR,
        timer::UNIT
    ));
    let mut measured = Vec::new();
    for h in Hierarchy::all() {
        let n = h.joints();
        progress(&format!("whole pose: {} hierarchy, {n} joints", h.name()));
        measured.push(whole_pose::measure(h, crate::table::rounds(full_rounds(n))));
    }
    record(res, &measured);
    floors_table(&measured);
    for skin in [false, true] {
        forms_table(&measured, &routines, skin);
    }
    para(&format!(
        "x below 1.00x: the one call is slower than its form's chained calls. / floor = the one call over \
         max(chain floor, memory floor) of its hierarchy (with or without the skin). The one call's figure \
         includes copying the first pose into its chunk buffer (32 bytes per joint); the chained calls' blend \
         works in place on the copy restored before the call, outside the timed region, as the other in-place \
         tables of the report. The timer's own cost (lfence; rdtsc; lfence; ...; lfence; rdtsc, see the \
         header) is in every figure, the floors' included: about {:.1} {} per joint at 24 joints.",
        timer::overhead() as f64 / 24.0,
        timer::UNIT
    ));
    let mut substitutes = Vec::new();
    for r in measured.iter().flat_map(|m| &m.rows) {
        if let Some((routine, imp)) = r.substitute
            && !substitutes.contains(&(r.routine, r.imp, routine, imp))
        {
            substitutes.push((r.routine, r.imp, routine, imp));
        }
    }
    for (pose, form, routine, imp) in substitutes {
        item(&format!(
            "`{pose}` chained, form `{form}`: `{routine}` has no `{form}` form in its table; its chained call runs \
             its `{imp}` form (the one its Auto runs)."
        ));
    }
    let mismatches: Vec<String> = measured
        .iter()
        .flat_map(|m| m.mismatches.iter().map(move |s| format!("{} {}: {s}", m.hierarchy.name(), m.joints)))
        .collect();
    if mismatches.is_empty() {
        item(
            "Every form's one call gives, bit for bit, the model and skinning matrices of its chained calls on \
             every hierarchy and workload above (devkit::whole_pose::identical, checked before the timing).",
        );
    } else {
        item(&format!("The one call failed: its bits differ from its chained calls' on {}.", mismatches.join("; ")));
    }
    outln!();
    issue_table(&measured);
    targets(&measured, &routines);
}

/// Keeps each form's one call and chained calls on Fox poses without a
/// skin, for the reading room.
fn record(res: &mut Results, measured: &[Measured]) {
    for m in measured {
        for r in m.rows.iter().filter(|r| r.workload == Workload::Fox && !r.skin) {
            for (what, ticks) in [("one call", r.one), ("chained", r.chained)] {
                res.whole_pose.push(SuccessorTicks {
                    routine: r.routine,
                    form: format!("{} {what}, {} hierarchy, Fox poses", r.imp, m.hierarchy.name()),
                    elements: m.joints,
                    ticks,
                });
            }
        }
    }
}

/// The floors of each hierarchy.
fn floors_table(measured: &[Measured]) {
    let lines: Vec<Vec<String>> = measured
        .iter()
        .map(|m| {
            vec![
                m.hierarchy.name().to_string(),
                m.joints.to_string(),
                format!("{:.1}", m.chain_floor),
                format!("{:.1}", m.memory_floor[0]),
                format!("{:.1}", m.memory_floor[1]),
                format!("{:.1}", m.floor(false)),
                format!("{:.1}", m.floor(true)),
            ]
        })
        .collect();
    print_grid(
        &["hierarchy", "joints", "chain floor", "memory floor", "with skin", "floor", "floor, skin"],
        &[L, R, R, R, R, R, R],
        &lines,
    );
    para(&format!(
        "Floors, {} per joint: the chain floor is transform_skeleton's dependency chain on the same hierarchy \
         (devkit::floors::skeleton_chain: each joint's three rows an FMA of its parent's rows just stored); the \
         memory floor is the pose's bytes (devkit::floors::pose: per joint two 32-byte joints and a 4-byte parent \
         read, a 48-byte model matrix written; with a skin also a 48-byte inverse bind matrix read and a 48-byte \
         skinning matrix written), one add each. floor = max(chain floor, memory floor).",
        timer::UNIT
    ));
}

/// One table: every hierarchy, workload and form, both routines side by side.
fn forms_table(measured: &[Measured], routines: &[&'static str], skin: bool) {
    let mut head = vec!["joints", "hierarchy", "poses", "form"];
    for r in routines {
        head.extend([*r, "chained", "x", "/ floor"]);
    }
    let mut align = vec![R, L, L, L];
    align.extend(routines.iter().flat_map(|_| [R, R, R, R]));
    let mut lines = Vec::new();
    for m in measured {
        for w in WORKLOADS {
            for imp in forms(m) {
                let mut l = vec![
                    m.joints.to_string(),
                    m.hierarchy.name().to_string(),
                    w.name().to_string(),
                    imp.name().to_string(),
                ];
                for r in routines {
                    match m.row(r, imp, w, skin) {
                        Some(row) => l.extend([
                            format!("{:.1}", row.one),
                            format!("{:.1}", row.chained),
                            x(row.chained, row.one),
                            x(row.one, m.floor(skin)),
                        ]),
                        None => l.extend(["-".into(), "-".into(), "-".into(), "-".into()]),
                    }
                }
                lines.push(l);
            }
        }
    }
    outln!("{} per joint, {} a skin:\n", timer::UNIT, if skin { "with" } else { "without" });
    print_grid(&head, &align, &lines);
}

/// The issue's comparison: the Avx2 chain of `lerp_joints`, `quats_to_mats`
/// and `transform_skeleton` against `lerp_pose`'s Avx2 form in one call,
/// and what that makes of the issue's ozz-animation figures.
fn issue_table(measured: &[Measured]) {
    let mut lines = Vec::new();
    for m in measured {
        let Some(row) = m.row("lerp_pose", Impl::Avx2, Workload::Fox, false) else { continue };
        let issue = ISSUE_OZZ.iter().find(|(n, ..)| *n == m.joints);
        let derived = issue.map(|(_, ozz, chained)| (ozz / chained) * (row.chained / row.one));
        lines.push(vec![
            m.joints.to_string(),
            m.hierarchy.name().to_string(),
            format!("{:.1}", row.chained),
            format!("{:.1}", row.one),
            x(row.chained, row.one),
            issue.map_or("-".into(), |(_, ozz, chained)| x(*ozz, *chained)),
            derived.map_or("-".into(), |d| format!("{d:.2}x")),
        ]);
    }
    if lines.is_empty() {
        para("The issue's comparison needs the Avx2 form, which this CPU does not run.");
        return;
    }
    outln!("The issue's comparison (Fox poses, no skin, {} per joint):\n", timer::UNIT);
    print_grid(
        &[
            "joints",
            "hierarchy",
            "lerp_joints+quats_to_mats+transform_skeleton avx2",
            "lerp_pose avx2",
            "x",
            "ozz / chained (issue)",
            "ozz / one call (derived)",
        ],
        &[R, L, R, R, R, R, R],
        &lines,
    );
    para(
        "The chained row is the issue's: the Avx2 raw kernels of lerp_joints, quats_to_mats and \
         transform_skeleton called one after the other over the whole arrays. ozz / chained is the issue's \
         measurement (ozz-animation 0.16's BlendingJob + LocalToModelJob over these three chained calls, on an \
         Intel Xeon with AVX-512: 1.42x at 24 joints, 1.41x at 64, 1.50x at 256, 1.64x at 1024); ozz-animation \
         is not part of this repository (docs/results.md has one side-by-side run with an older ozz built \
         outside it). ozz / one call = (ozz / chained, the issue's) x (chained / one call, measured \
         here): derived, not measured side by side.",
    );
}

/// Whether the targets hold: the fastest form within 1.3x of the floor at
/// 24 and 1024 joints, and 2x ozz-animation (derived).
fn targets(measured: &[Measured], routines: &[&'static str]) {
    outln!("Targets:\n");
    for m in measured.iter().filter(|m| m.joints == 24 || m.joints == 1024) {
        for skin in [false, true] {
            for r in routines {
                let ratios: Vec<String> = WORKLOADS
                    .iter()
                    .filter_map(|&w| fastest(m, r, w, skin).map(|f| (w, f)))
                    .map(|(w, f)| {
                        let ratio = f.one / m.floor(skin);
                        format!(
                            "{} {} {:.1} = {ratio:.2}x ({})",
                            w.name(),
                            f.imp,
                            f.one,
                            if ratio <= FLOOR_TARGET { "holds" } else { "does not hold" }
                        )
                    })
                    .collect();
                item(&format!(
                    "`{r}`, {} joints ({} hierarchy), {} skin, fastest form over the floor {:.1} (target <= \
                     {FLOOR_TARGET}x): {}.",
                    m.joints,
                    m.hierarchy.name(),
                    if skin { "with" } else { "no" },
                    m.floor(skin),
                    ratios.join("; ")
                ));
            }
        }
    }
    for m in measured {
        let Some((_, ozz, chained)) = ISSUE_OZZ.iter().find(|(n, ..)| *n == m.joints) else { continue };
        let Some(avx2) = m.row("lerp_pose", Impl::Avx2, Workload::Fox, false) else { continue };
        let best = fastest(m, "lerp_pose", Workload::Fox, false).expect("a form");
        let derived = |one: f64| (ozz / chained) * (avx2.chained / one);
        item(&format!(
            "`lerp_pose` vs ozz-animation, {} joints ({} hierarchy, Fox poses, no skin; derived, target >= \
             {OZZ_TARGET}x): avx2 {:.2}x ({}); fastest form {} {:.2}x ({}).",
            m.joints,
            m.hierarchy.name(),
            derived(avx2.one),
            if derived(avx2.one) >= OZZ_TARGET { "holds" } else { "does not hold" },
            best.imp,
            derived(best.one),
            if derived(best.one) >= OZZ_TARGET { "holds" } else { "does not hold" }
        ));
    }
    outln!();
}
