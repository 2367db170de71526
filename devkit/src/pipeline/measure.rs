//! Checks and timing: the error of every pipeline against the f64
//! reference and its time per pose, with the report's timer
//! ([`crate::timer`]).

use super::*;
use crate::timer::{self, Stats};

/// Nanoseconds per pose of `pose` over `times`, one round: the time of
/// posing every time once, divided by their number, with the report's timer
/// ([`timer::time`]: fenced TSC reads on `x86_64`, converted to nanoseconds
/// at the measured TSC rate).
pub fn time_round(pose: &mut dyn FnMut(f32), times: &[f32]) -> f64 {
    let ticks = timer::time(|| {
        for &t in times {
            pose(std::hint::black_box(t));
        }
    });
    timer::ticks_to_ns(ticks as f64) / times.len().max(1) as f64
}

/// Nanoseconds per pose of `pose` over `times`: `(median, minimum)` over
/// `rounds` rounds of [`time_round`], after two untimed rounds.
pub fn time_per_pose(pose: &mut dyn FnMut(f32), times: &[f32], rounds: usize) -> (f64, f64) {
    for _ in 0..2 {
        time_round(pose, times);
    }
    let mut ns: Vec<f64> = (0..rounds.max(1)).map(|_| time_round(pose, times)).collect();
    let s = Stats::of(&mut ns, 1.0);
    (s.median, s.min)
}

/// One line of the pipeline's table.
#[derive(Clone, Debug)]
pub struct Row {
    /// `"animasm asm"`, ..., `"glam"`.
    pub name: String,
    /// [`max_error`] over the checked poses.
    pub max_error: f64,
    /// Median nanoseconds per pose.
    pub ns_per_pose: f64,
    /// Fastest round, nanoseconds per pose.
    pub min_ns_per_pose: f64,
    /// What the pipeline runs where that is not the named form in every
    /// routine ([`Forms::note`]: a routine's substitute, or what `auto`
    /// resolves to per routine); a substitute also marks the name with `*`.
    pub note: Option<String>,
}

impl Row {
    /// Poses per second at the median time.
    pub fn poses_per_second(&self) -> f64 {
        1e9 / self.ns_per_pose
    }
}

/// The largest [`max_error`] of the crate's pipeline for `imp`
/// ([`Forms::resolve`]) and `convention` over `times`.
pub fn kernel_error(anim: &Animation, imp: Impl, convention: Convention, times: &[f32]) -> Result<f64, PoseError> {
    forms_error(anim, &Forms::resolve(imp)?, convention, times)
}

/// The largest [`max_error`] of the crate's pipeline with `forms` and
/// `convention` over `times`.
pub fn forms_error(anim: &Animation, forms: &Forms, convention: Convention, times: &[f32]) -> Result<f64, PoseError> {
    let mut poser = Poser::with_convention(anim, convention);
    let mut worst = 0f64;
    for &t in times {
        let got: Vec<[f32; 12]> = poser.pose_with(forms, t)?.iter().map(|m| m.mat).collect();
        worst = worst.max(max_error(anim, &got, &pipeline_f64(anim, f64::from(t))));
    }
    Ok(worst)
}

/// The largest [`max_error`] of the glam pipeline over `times`.
pub fn glam_error(anim: &Animation, times: &[f32]) -> f64 {
    let mut poser = GlamPoser::new(anim);
    let mut worst = 0f64;
    for &t in times {
        let got: Vec<[f32; 12]> = poser.pose(t).iter().map(rows_from_affine).collect();
        worst = worst.max(max_error(anim, &got, &pipeline_f64(anim, f64::from(t))));
    }
    worst
}

/// Every form the pipeline offers here ([`Forms::available`], each
/// routine with its own form: [`Forms`]) and glam: the max error over
/// `check` against [`pipeline_f64`], and the time per pose over `timed`
/// (`rounds` rounds, round-robin across the pipelines so that drift
/// spreads over all). A row whose pipeline runs a substitute in some
/// routine is named `animasm X*` and says so in its [`Row::note`].
pub fn measure(anim: &Animation, check: &[f32], timed: &[f32], rounds: usize) -> Result<Vec<Row>, PoseError> {
    let forms: Vec<Forms> = Forms::available().into_iter().map(Forms::resolve).collect::<Result<_, _>>()?;
    let mut rows = Vec::new();
    for f in &forms {
        let e = forms_error(anim, f, Convention::Conjugate, check)?;
        let star = if f.substituted().is_empty() { "" } else { "*" };
        rows.push(Row {
            name: format!("animasm {}{star}", f.asked),
            max_error: e,
            ns_per_pose: 0.0,
            min_ns_per_pose: 0.0,
            note: f.note(),
        });
    }
    rows.push(Row {
        name: "glam".into(),
        max_error: glam_error(anim, check),
        ns_per_pose: 0.0,
        min_ns_per_pose: 0.0,
        note: None,
    });

    let mut posers: Vec<Poser> = forms.iter().map(|_| Poser::new(anim)).collect();
    let mut glam = GlamPoser::new(anim);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); rows.len()];
    for round in 0..rounds.max(1) + 2 {
        for k in 0..rows.len() {
            let p = (k + round) % rows.len();
            let ns = if p < forms.len() {
                let (poser, f) = (&mut posers[p], &forms[p]);
                time_round(
                    &mut |t| {
                        let _ = std::hint::black_box(poser.pose_with(f, t));
                    },
                    timed,
                )
            } else {
                time_round(
                    &mut |t| {
                        std::hint::black_box(glam.pose(t));
                    },
                    timed,
                )
            };
            if round >= 2 {
                samples[p].push(ns);
            }
        }
    }
    for (row, mut ns) in rows.iter_mut().zip(samples) {
        let s = Stats::of(&mut ns, 1.0);
        row.ns_per_pose = s.median;
        row.min_ns_per_pose = s.min;
    }
    Ok(rows)
}
