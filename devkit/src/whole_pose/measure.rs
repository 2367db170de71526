//! [`measure`]: the one calls, their chained calls and the floors of one
//! hierarchy timed round-robin in one run, and what it gives
//! ([`Measured`], a [`FormRow`] per form, workload and skin).

use std::hint::black_box;

use animasm::Impl;
use animasm::JointMat;
use animasm::roster::kernel;
use animasm_testkit::cases::Workload;

use super::{Chain, Hierarchy, PoseCase, PoseOut, WORKLOADS, identical, pose_routines, run_pose};
use crate::floors::{self, Walk};
use crate::timer::{self, Stats};

/// One measured form: ticks per joint of the one call and of the chained
/// calls.
#[derive(Clone, Debug)]
pub struct FormRow {
    /// `slerp_pose` or `lerp_pose`.
    pub routine: &'static str,
    pub imp: Impl,
    pub workload: Workload,
    pub skin: bool,
    /// Median ticks per joint of the one call.
    pub one: f64,
    /// Median ticks per joint of the chained calls.
    pub chained: f64,
    /// A routine of the chain that runs another form (see [`Chain`]).
    pub substitute: Option<(&'static str, Impl)>,
}

/// One hierarchy's measurements.
#[derive(Clone, Debug)]
pub struct Measured {
    pub hierarchy: Hierarchy,
    pub joints: usize,
    /// `transform_skeleton`'s chain floor on the hierarchy, ticks per joint.
    pub chain_floor: f64,
    /// The pose's memory floor without and with a skin, ticks per joint.
    pub memory_floor: [f64; 2],
    pub rows: Vec<FormRow>,
    /// The one calls whose model (or skinning) matrices differ in a bit
    /// from their chained calls' ([`identical`]), by name: none expected.
    pub mismatches: Vec<String>,
}

impl Measured {
    /// The floor: max(chain floor, memory floor), with or without a skin.
    pub fn floor(&self, skin: bool) -> f64 {
        self.chain_floor.max(self.memory_floor[usize::from(skin)])
    }

    /// The row of `routine`'s form `imp` on `workload`.
    pub fn row(&self, routine: &str, imp: Impl, workload: Workload, skin: bool) -> Option<&FormRow> {
        self.rows.iter().find(|r| r.routine == routine && r.imp == imp && r.workload == workload && r.skin == skin)
    }
}

/// What a timed row runs.
#[derive(Clone, Copy)]
enum Call {
    /// Routine `r`'s raw kernel.
    One(usize, kernel::Pose),
    /// Routine `r`'s chain.
    Chained(usize, Chain),
    ChainFloor,
    MemoryFloor,
}

/// Times every runnable form of every `Shape::Pose` routine on `hierarchy`:
/// one call and chained, without and with a skin, on each of [`WORKLOADS`],
/// and the floors; `rounds` timed rounds (after 5 untimed ones), every row
/// once per round, round-robin starting one further each round. Each
/// workload's buffers serve all its rows. A sample is one call, or where
/// the timer's step is too coarse for the fastest row's call (24 joints on
/// a TSC that moves 26 ticks at a time), `timer::calls_per_sample` calls
/// back to back.
pub fn measure(hierarchy: Hierarchy, rounds: usize) -> Measured {
    let routines = pose_routines();
    let cases: Vec<PoseCase> = WORKLOADS.iter().map(|&w| PoseCase::new(hierarchy, w)).collect();
    let n = cases[0].joints();
    let index: Vec<i32> = (0..n as i32).collect();
    let mut outs: Vec<PoseOut> = cases.iter().map(|_| PoseOut::new(n)).collect();
    // (case, skin, call): the rows.
    let mut rows: Vec<(usize, bool, Call)> = Vec::new();
    for c in 0..cases.len() {
        for skin in [false, true] {
            for (r, (routine, forms)) in routines.iter().enumerate() {
                for f in forms.iter().filter(|f| f.runnable()) {
                    rows.push((c, skin, Call::One(r, f.kernel())));
                    rows.push((c, skin, Call::Chained(r, Chain::new(routine, f.imp()))));
                }
            }
        }
    }
    let mut mismatches = Vec::new();
    for &(c, skin, call) in &rows {
        if let Call::Chained(r, chain) = call {
            let Some(f) = routines[r].1.iter().find(|f| f.imp() == chain.imp) else { continue };
            if !identical(f.kernel(), &chain, &cases[c], skin) {
                mismatches.push(format!(
                    "{} {} on {} poses{}",
                    routines[r].0.name,
                    chain.imp,
                    cases[c].workload.name(),
                    if skin { " with a skin" } else { "" }
                ));
            }
        }
    }
    rows.push((0, false, Call::ChainFloor));
    rows.push((0, false, Call::MemoryFloor));
    rows.push((0, true, Call::MemoryFloor));
    // The chain floor's matrices: the first case's model, restored.
    let mut pristine = PoseOut::new(n);
    Chain::new(routines[0].0, Impl::Scalar).run(&cases[0], &mut pristine, &index, false);
    let pristine_model = pristine.model.clone();
    // One call of row `i`; the chain floor on copy `f` of its matrices
    // (restored before the sample).
    let call = |i: usize, f: usize, outs: &mut [PoseOut], floor_mats: &mut [Vec<JointMat>]| {
        let (c, skin, call) = rows[i];
        let (case, out) = (&cases[c], &mut outs[c]);
        match call {
            Call::One(_, k) => run_pose(k, black_box(case), black_box(&mut *out), skin),
            // The chained calls blend in place, so they start from a copy
            // of the first pose (an engine keeps its keyframes): the copy
            // is part of their time, as the one call's reading of `from`
            // is part of its own.
            Call::Chained(_, chain) => {
                out.blended.copy_from_slice(black_box(&case.from));
                chain.run(black_box(case), black_box(&mut *out), &index, skin)
            }
            Call::ChainFloor => {
                floors::skeleton_chain(black_box(&mut floor_mats[f]), &case.parents, 1..=n - 1, Walk::Forward)
            }
            Call::MemoryFloor => {
                let skin = skin.then_some((&mut out.skin[..], &case.inverse_bind[..]));
                floors::pose(black_box(&mut out.model), &case.from, &case.to, &case.parents, skin)
            }
        }
        black_box(&mut *out);
    };
    // A sample: `calls` calls back to back (the one call, the chained calls
    // and the memory floor rewrite their outputs from unchanged inputs; the
    // chain floor works in place, a copy of its matrices per call).
    let sample = |i: usize, calls: usize, outs: &mut [PoseOut], floor_mats: &mut Vec<Vec<JointMat>>| {
        if matches!(rows[i].2, Call::ChainFloor) {
            floor_mats.resize(calls, pristine_model.clone());
            for m in floor_mats.iter_mut() {
                m.copy_from_slice(&pristine_model);
            }
        }
        timer::time(|| (0..calls).for_each(|f| call(i, f, &mut *outs, &mut floor_mats[..])))
    };
    let mut floor_mats = Vec::new();
    // Calls per sample: enough for the fastest row's sample to span
    // `timer::MIN_SAMPLE_STEPS` of the timer's step (one call on a fine
    // timer or at 100 joints and more).
    let calls = timer::calls_for_rows(rows.len(), |i| sample(i, 1, &mut outs, &mut floor_mats));
    let mut samples = vec![Vec::with_capacity(rounds); rows.len()];
    const WARMUP: usize = 5;
    for round in 0..WARMUP + rounds {
        for k in 0..rows.len() {
            let i = (round + k) % rows.len();
            let t = sample(i, calls, &mut outs, &mut floor_mats);
            if round >= WARMUP {
                samples[i].push(t);
            }
        }
    }
    let mut median = |i: usize| Stats::of_ticks(&mut samples[i], (n * calls) as f64).median;
    let mut out =
        Measured { hierarchy, joints: n, chain_floor: 0.0, memory_floor: [0.0; 2], rows: Vec::new(), mismatches };
    let mut k = 0;
    while k < rows.len() {
        let (c, skin, call) = rows[k];
        match call {
            Call::One(r, _) => {
                let Call::Chained(_, chain) = rows[k + 1].2 else {
                    unreachable!("a one call's chained row follows it")
                };
                out.rows.push(FormRow {
                    routine: routines[r].0.name,
                    imp: chain.imp,
                    workload: cases[c].workload,
                    skin,
                    one: median(k),
                    chained: median(k + 1),
                    substitute: chain.substitute,
                });
                k += 2;
            }
            Call::Chained(..) => unreachable!("follows its one call"),
            Call::ChainFloor => {
                out.chain_floor = median(k);
                k += 1;
            }
            Call::MemoryFloor => {
                out.memory_floor[usize::from(skin)] = median(k);
                k += 1;
            }
        }
    }
    out
}
