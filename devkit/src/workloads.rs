//! The joint blends on the inputs animation produces: every form of each
//! joint-blend routine of the roster (`slerp_joints`, `lerp_joints`) timed
//! through its safe function on random pairs, the Fox's consecutive keys, a
//! held pose and near-identical poses (`animasm_testkit::cases::Workload`),
//! at a character's sizes and at the papers' 1024.
//!
//! Method: for one routine and one size, every (form, workload) pair is a
//! row; the rows run round-robin (starting one further each round), each
//! call on its workload's own buffers, restored from a pristine copy
//! outside the timed region, so the forms of one workload share their
//! buffers; the median ticks per joint of the rounds. A workload's ratio is
//! its median over the same form's median on random pairs, both from the
//! same run.
//!
//! Where the timer's step is too coarse for one call (the TSC of the AMD
//! EPYC VMs moves in steps of 26 ticks, against about 200 ticks for a
//! 24-joint call: `timer::step`), a sample is several calls back to back,
//! each on its own copy of the workload's joints (as a crowd's characters
//! are), every copy restored before the sample: `timer::calls_per_sample`
//! of the fastest row's single call, the same count for every row.

use std::hint::black_box;

use animasm::roster::{self, Shape};
use animasm::{Impl, JointQuat, Origin};
use animasm_testkit::cases::{Workload, workload_joints};

use crate::timer::{self, Stats};

/// The sizes of the report and the benches: two characters' (a 24-joint
/// fox, a 100-joint human) and the papers' 1024.
pub const SIZES: [usize; 3] = [24, 100, 1024];

/// The blend factor of every timed call.
pub const LERP: f32 = 0.375;

/// A ratio (a workload over random pairs) above which a successor counts
/// as slow on that workload: the check CI runs.
pub const MAX_RATIO: f64 = 1.2;

/// One form of one routine at one size: its median ticks per joint on each
/// workload, in [`Workload::ALL`] order.
#[derive(Clone, Debug)]
pub struct FormTicks {
    /// The routine's name.
    pub routine: &'static str,
    /// The form.
    pub imp: Impl,
    /// Its origin (the ratio check is for `Origin::Successor`).
    pub origin: Origin,
    /// The joints per call.
    pub n: usize,
    /// Median ticks per joint, per workload of [`Workload::ALL`].
    pub ticks: [f64; 4],
}

impl FormTicks {
    /// A workload's ticks over random pairs' ticks.
    pub fn ratio(&self, w: Workload) -> f64 {
        let i = Workload::ALL.iter().position(|&x| x == w).expect("a workload");
        self.ticks[i] / self.ticks[0]
    }

    /// The largest ratio over the non-random workloads, and its workload.
    pub fn worst(&self) -> (Workload, f64) {
        Workload::ALL[1..]
            .iter()
            .map(|&w| (w, self.ratio(w)))
            .fold((Workload::Random, 1.0), |a, b| if b.1 > a.1 { b } else { a })
    }
}

/// Every joint-blend routine of the roster (name and safe function).
pub fn joint_blend_routines() -> Vec<(&'static roster::Routine, roster::JointBlendFn)> {
    roster::ROUTINES
        .iter()
        .filter_map(|r| match r.shape {
            Shape::JointBlend { safe, .. } => Some((r, safe)),
            _ => None,
        })
        .collect()
}

/// One workload's buffers: the joints (timed, restored; a copy per call of
/// a sample), their pristine copy, the blend joints and the index.
struct Bufs {
    joints: Vec<Vec<JointQuat>>,
    pristine: Vec<JointQuat>,
    blend: Vec<JointQuat>,
    index: Vec<i32>,
}

impl Bufs {
    /// Restores every copy, then times one call of form `imp` on each.
    fn sample(&mut self, safe: roster::JointBlendFn, imp: Impl) -> u64 {
        for j in &mut self.joints {
            j.copy_from_slice(&self.pristine);
        }
        let (joints, blend, index) = (&mut self.joints, &self.blend, &self.index);
        let t = timer::time(|| {
            for j in joints.iter_mut() {
                safe(imp, black_box(j), black_box(blend), LERP, black_box(index))
                    .expect("a form of the roster on valid joints");
            }
        });
        black_box(&mut self.joints);
        t
    }
}

/// Times `forms` of one joint-blend routine (through `safe`) at `n` joints
/// on every workload, `rounds` timed rounds after a few warm-up ones.
pub fn measure(
    routine: &'static str,
    safe: roster::JointBlendFn,
    forms: &[(Impl, Origin)],
    n: usize,
    rounds: usize,
) -> Vec<FormTicks> {
    let mut bufs: Vec<Bufs> = Workload::ALL
        .iter()
        .map(|&w| {
            let (joints, blend) = workload_joints(w, 0x3017 + n as u64, n);
            Bufs { pristine: joints.clone(), joints: vec![joints], blend, index: (0..n as i32).collect() }
        })
        .collect();
    let rows: Vec<(usize, usize)> =
        (0..forms.len()).flat_map(|f| (0..Workload::ALL.len()).map(move |w| (f, w))).collect();
    // Calls per sample, from the fastest row's single call (warm-up
    // included in the probes).
    let calls = timer::calls_for_rows(rows.len(), |i| bufs[rows[i].1].sample(safe, forms[rows[i].0].0));
    for b in &mut bufs {
        b.joints = vec![b.pristine.clone(); calls];
    }
    let mut samples = vec![Vec::with_capacity(rounds); rows.len()];
    const WARMUP: usize = 5;
    for round in 0..WARMUP + rounds {
        for k in 0..rows.len() {
            let i = (round + k) % rows.len();
            let (f, w) = rows[i];
            let t = bufs[w].sample(safe, forms[f].0);
            if round >= WARMUP {
                samples[i].push(t);
            }
        }
    }
    forms
        .iter()
        .enumerate()
        .map(|(f, &(imp, origin))| {
            let mut ticks = [0.0; 4];
            for (w, t) in ticks.iter_mut().enumerate() {
                let i = f * Workload::ALL.len() + w;
                *t = Stats::of_ticks(&mut samples[i], (n * calls) as f64).median;
            }
            FormTicks { routine, imp, origin, n, ticks }
        })
        .collect()
}

/// Timed rounds at `n` joints for a run of about `budget_ms` per routine
/// and size (at least 51).
pub fn rounds_for(n: usize, forms: usize, budget_ms: f64) -> usize {
    // About 10 ns per joint and call, over every form and workload.
    let per_round_ms = (n as f64 * 10e-6) * (forms * Workload::ALL.len()) as f64 + 0.002 * forms as f64;
    ((budget_ms / per_round_ms) as usize).clamp(51, 4001)
}

/// Every runnable form of every joint-blend routine at each size, in roster
/// order.
pub fn measure_all(sizes: &[usize], budget_ms: f64) -> Vec<FormTicks> {
    let mut out = Vec::new();
    for (r, safe) in joint_blend_routines() {
        let forms: Vec<(Impl, Origin)> = r.forms().map(|f| (f.imp, f.origin)).collect();
        for &n in sizes {
            out.extend(measure(r.name, safe, &forms, n, rounds_for(n, forms.len(), budget_ms)));
        }
    }
    out
}

/// The successors slower than [`MAX_RATIO`] times their random-pair time on
/// some workload: `(routine, form, n, workload, ratio)`.
pub fn slow_successors(measured: &[FormTicks]) -> Vec<(&'static str, Impl, usize, Workload, f64)> {
    measured
        .iter()
        .filter(|m| m.origin == Origin::Successor)
        .flat_map(|m| {
            Workload::ALL[1..].iter().map(move |&w| (m.routine, m.imp, m.n, w, m.ratio(w))).filter(|x| x.4 > MAX_RATIO)
        })
        .collect()
}

/// The measurements as one markdown table per routine and size: a row per
/// form, its ticks per joint on each workload and its worst ratio.
pub fn markdown(measured: &[FormTicks]) -> String {
    let mut s = String::new();
    let mut last = None;
    for m in measured {
        if last != Some((m.routine, m.n)) {
            last = Some((m.routine, m.n));
            s.push_str(&format!("\n`{}`, {} joints, ticks per joint (median):\n\n", m.routine, m.n));
            s.push_str("| form | random | fox | held | near | worst / random |\n|---|---:|---:|---:|---:|---:|\n");
        }
        let (w, r) = m.worst();
        s.push_str(&format!(
            "| {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.2}x ({}) |\n",
            m.imp,
            m.ticks[0],
            m.ticks[1],
            m.ticks[2],
            m.ticks[3],
            r,
            w.name()
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worst_and_slow_successors_read_the_ratios() {
        let m = FormTicks {
            routine: "slerp_joints",
            imp: Impl::Avx2,
            origin: Origin::Successor,
            n: 24,
            ticks: [10.0, 11.0, 13.0, 9.0],
        };
        assert_eq!(m.worst().0, Workload::Held);
        assert!((m.worst().1 - 1.3).abs() < 1e-12);
        let slow = slow_successors(&[m.clone(), FormTicks { origin: Origin::Listing, ..m }]);
        assert_eq!(slow.len(), 1);
        assert_eq!(slow[0].3, Workload::Held);
        assert!(markdown(&[]).is_empty());
        assert!(markdown(&[m]).contains("| avx2 | 10.0 | 11.0 | 13.0 | 9.0 | 1.30x (held) |"));
    }
}
