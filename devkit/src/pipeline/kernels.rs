//! The crate's pipeline: [`Poser`] runs one pose through `slerp_joints`,
//! `quats_to_mats`, `transform_skeleton` and `transform_joints`, each with
//! the form [`Forms`] chooses for it; where the skeleton hangs from
//! identity transforms (the Fox, `SimpleSkin`), the last three are one call
//! of the whole-pose routine `slerp_pose` (at factor 0: the blend is the
//! pipeline's, one factor per sampler).

use super::*;
use animasm::Origin;
use animasm::pose::{PoseInput, Skin};
use animasm::roster::{self, Routine};

/// The routines a pose calls, in the order it calls them: [`Forms`] names
/// one form for each.
pub const ROUTINES: [&str; 4] = ["slerp_joints", "quats_to_mats", "transform_skeleton", "transform_joints"];

/// The roster's entries of [`ROUTINES`].
fn routines() -> [&'static Routine; 4] {
    ROUTINES.map(|name| roster::find(name).expect("the pipeline's routines are in the roster"))
}

/// What "the pipeline with [`Impl`] X" runs: one form per routine of
/// [`ROUTINES`], resolved on this CPU (under the dispatch test hooks, on
/// the CPU they simulate).
///
/// The four routines do not have the same forms (the roster lists each
/// one's: the skeleton routines have no `Avx512` form, for one). So:
///
/// - `Auto` and `Deterministic` are passed to every routine as they are,
///   and each resolves them itself (its fastest form here, its fastest
///   successor here): [`Forms::runs`] says what each runs.
/// - A concrete form X that **at least one** of the routines runs here is
///   the pipeline for X: every routine that runs X runs X; a routine that
///   lacks it (or cannot run it on this CPU) runs its *nearest* form
///   instead: `Deterministic` (its fastest successor here) if X is a
///   successor form ([`Origin::Successor`]: `Portable`, `Avx2`, `Avx512`,
///   `Neon`), which gives the same bits as X would (the successors' one
///   answer), else `Auto`. The substitution is never silent:
///   [`Forms::note`] says it, and [`measure`](super::measure()) marks the
///   row's name with `*` and carries the note.
/// - A form that none of the routines runs here is an error, the first
///   routine's (`slerp_joints`'s): [`Error::Unsupported`](animasm::Error)
///   for a form absent on this target, `MissingCpuFeature` for one this
///   CPU cannot run.
///
/// On an AVX-512 CPU, the pipeline for `Avx512` runs `slerp_joints`,
/// `quats_to_mats` and `transform_joints` in their `Avx512` forms and
/// `transform_skeleton` in `Avx2` (its `Deterministic`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forms {
    /// The form asked for.
    pub asked: Impl,
    /// What each routine of [`ROUTINES`] is called with: `asked`, or its
    /// substitute (`Deterministic` or `Auto`).
    pub called: [Impl; 4],
    /// The concrete form each routine runs here (what `called` resolves
    /// to).
    pub runs: [Impl; 4],
    /// What the whole-pose routine ([`POSE_ROUTINE`]) is called with when a
    /// pose takes the one call for its last three stages (see [`Poser`]):
    /// `asked`, or its substitute by the same rule.
    pub pose_called: Impl,
    /// The concrete form it runs here.
    pub pose_runs: Impl,
}

/// The whole-pose routine that runs `quats_to_mats`, `transform_skeleton`
/// and `transform_joints` in one call (at factor 0, after the pipeline's
/// own blend) when the skeleton hangs from identity transforms.
pub const POSE_ROUTINE: &str = "slerp_pose";

impl Forms {
    /// The pipeline for `imp` on this CPU, by the rule of [`Forms`], or
    /// the error when no routine of the pipeline runs `imp` here.
    pub fn resolve(imp: Impl) -> Result<Forms, animasm::Error> {
        let routines = routines();
        let has = routines.map(|r| r.resolve(imp).is_ok());
        if !has.contains(&true) {
            return Err(routines[0].resolve(imp).expect_err("no routine runs it"));
        }
        let successor =
            routines.iter().flat_map(|r| r.all_forms()).any(|f| f.imp == imp && f.origin == Origin::Successor);
        let substitute = if successor { Impl::Deterministic } else { Impl::Auto };
        let called = [0, 1, 2, 3].map(|i| if has[i] { imp } else { substitute });
        let mut runs = called;
        for (run, (r, &c)) in runs.iter_mut().zip(routines.iter().zip(&called)) {
            // `Auto` always resolves; `Deterministic` on every id routine.
            *run = r.resolve(c)?.imp;
        }
        let pose = roster::find(POSE_ROUTINE).expect("the whole-pose routine is in the roster");
        let pose_called = if pose.resolve(imp).is_ok() { imp } else { substitute };
        let pose_runs = pose.resolve(pose_called)?.imp;
        Ok(Forms { asked: imp, called, runs, pose_called, pose_runs })
    }

    /// The forms the pipeline offers on this CPU, for tables and tests:
    /// every concrete form that at least one of its routines runs here (in
    /// [`Impl::ALL`]'s order), then `Auto`.
    pub fn available() -> Vec<Impl> {
        let routines = routines();
        let mut imps: Vec<Impl> =
            Impl::ALL.into_iter().filter(|&i| routines.iter().any(|r| r.forms().any(|f| f.imp == i))).collect();
        imps.push(Impl::Auto);
        imps
    }

    /// The routines that run another form than the one asked for, with the
    /// form each runs (empty for `Auto` and `Deterministic`, which each
    /// routine resolves by itself).
    pub fn substituted(&self) -> Vec<(&'static str, Impl)> {
        (0..4).filter(|&i| self.called[i] != self.asked).map(|i| (ROUTINES[i], self.runs[i])).collect()
    }

    /// What the pipeline runs, said for the output: for `Auto` and
    /// `Deterministic` the form each routine resolves to, for a concrete
    /// form the routines that run a substitute (and which); `None` when
    /// every routine runs the form asked for.
    pub fn note(&self) -> Option<String> {
        if matches!(self.asked, Impl::Auto | Impl::Deterministic) {
            let each: Vec<String> = (0..4).map(|i| format!("{} {}", ROUTINES[i], self.runs[i])).collect();
            return Some(format!(
                "{}: each routine resolves it: {} ({POSE_ROUTINE} {} for the last three in one call)",
                self.asked,
                each.join(", "),
                self.pose_runs
            ));
        }
        let subs = self.substituted();
        let mut each: Vec<String> = subs
            .iter()
            .map(|(name, run)| {
                let i = ROUTINES.iter().position(|r| r == name).expect("a pipeline routine");
                format!("{name} has no {} form here and runs {} ({run})", self.asked, self.called[i])
            })
            .collect();
        if self.pose_called != self.asked {
            each.push(format!(
                "{POSE_ROUTINE} (the last three in one call) has no {} form here and runs {} ({})",
                self.asked, self.pose_called, self.pose_runs
            ));
        }
        if each.is_empty() {
            return None;
        }
        Some(format!("{}: {}", self.asked, each.join("; ")))
    }
}

/// How the pipeline hands glTF rotations to `quats_to_mats` (see the module
/// documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// The conjugates `(-x, -y, -z, w)`, negated once when the [`Poser`] is
    /// built: the kernels then produce the column-vector `[R(q) | t]` that
    /// `transform_skeleton` composes. The pipeline's choice.
    Conjugate,
    /// The glTF quaternions as they are: `quats_to_mats` writes `R(q)^T`
    /// and every joint turns the wrong way (to show the mismatch).
    AsPublished,
}

/// One time input's keys, laid out for the kernels.
#[derive(Clone, Debug)]
struct KernelSampler {
    times: Vec<f32>,
    step: bool,
    /// Every joint with a key in this sampler, for `slerp_joints`.
    index: Vec<i32>,
    rot_joints: Vec<usize>,
    /// `rot[k * rot_joints.len() + c]`: key `k` of rotation channel `c`.
    rot: Vec<Quat>,
    trans_joints: Vec<usize>,
    /// `trans[k * trans_joints.len() + c]`.
    trans: Vec<Vec4>,
}

/// The crate's pipeline with its buffers, built once per [`Animation`];
/// [`Poser::pose`] allocates nothing.
#[derive(Clone, Debug)]
pub struct Poser {
    /// Whether every base is the identity: then the last three stages are
    /// one call of the whole-pose routine over the joints alone.
    one_call: bool,
    /// The joints' parents without the bases (roots `-1`).
    joint_parents: Vec<i32>,
    bases: usize,
    /// [`Animation::skeleton_parents`].
    parents: Vec<i32>,
    rest: Vec<JointQuat>,
    samplers: Vec<KernelSampler>,
    joints: Vec<JointQuat>,
    blend: Vec<JointQuat>,
    /// The bases, then one matrix per joint.
    mats: Vec<JointMat>,
    inverse_bind: Vec<JointMat>,
    skin: Vec<JointMat>,
}

impl Poser {
    /// The pipeline for `anim`, with [`Convention::Conjugate`].
    pub fn new(anim: &Animation) -> Poser {
        Poser::with_convention(anim, Convention::Conjugate)
    }

    /// The pipeline for `anim`, handing rotations to the kernels as
    /// `convention` says.
    pub fn with_convention(anim: &Animation, convention: Convention) -> Poser {
        let q = |r: [f32; 4]| match convention {
            Convention::Conjugate => Quat::new(-r[0], -r[1], -r[2], r[3]),
            Convention::AsPublished => Quat::from_array(r),
        };
        let rest: Vec<JointQuat> = anim.rest.iter().map(|j| JointQuat::new(q(j.q.to_array()), j.t)).collect();
        let samplers = anim
            .samplers
            .iter()
            .map(|s| {
                let mut index: Vec<i32> =
                    s.rotations.iter().map(|r| r.0 as i32).chain(s.translations.iter().map(|t| t.0 as i32)).collect();
                index.sort_unstable();
                index.dedup();
                let keys = s.times.len();
                KernelSampler {
                    times: s.times.clone(),
                    step: s.step,
                    index,
                    rot_joints: s.rotations.iter().map(|r| r.0).collect(),
                    rot: (0..keys).flat_map(|k| s.rotations.iter().map(move |r| q(r.1[k]))).collect(),
                    trans_joints: s.translations.iter().map(|t| t.0).collect(),
                    trans: (0..keys)
                        .flat_map(|k| {
                            s.translations.iter().map(move |t| Vec4::new(t.1[k][0], t.1[k][1], t.1[k][2], 1.0))
                        })
                        .collect(),
                }
            })
            .collect();
        let n = anim.len();
        let mats = anim
            .bases
            .iter()
            .map(|b| JointMat { mat: b.map(|v| v as f32) })
            .chain(std::iter::repeat_n(JointMat::IDENTITY, n))
            .collect();
        let identity = JointMat::IDENTITY.mat.map(f64::from);
        Poser {
            one_call: anim.bases.iter().all(|b| *b == identity),
            joint_parents: anim.parents.clone(),
            bases: anim.bases.len(),
            parents: anim.skeleton_parents(),
            rest: rest.clone(),
            samplers,
            joints: rest.clone(),
            blend: rest,
            mats,
            inverse_bind: anim.inverse_bind.iter().map(|m| JointMat { mat: *m }).collect(),
            skin: vec![JointMat::IDENTITY; n],
        }
    }

    /// The skinning matrices at time `t` with the pipeline for `imp`
    /// ([`Forms::resolve`]: each routine its own form, a routine that lacks
    /// `imp` its nearest one); [`Poser::pose_with`] with the forms.
    pub fn pose(&mut self, imp: Impl, t: f32) -> Result<&[JointMat], animasm::Error> {
        let forms = Forms::resolve(imp)?;
        self.pose_with(&forms, t)
    }

    /// The skinning matrices at time `t` with `forms`: for each time input,
    /// the two keys around `t` into `joints` and `blend` and one
    /// `slerp_joints` over its animated joints (the others keep the rest
    /// pose); `quats_to_mats`; `transform_skeleton` over the whole skeleton
    /// (the bases first, so every root has a parent); `transform_joints`
    /// with the inverse bind matrices.
    pub fn pose_with(&mut self, forms: &Forms, t: f32) -> Result<&[JointMat], animasm::Error> {
        let [slerp, to_mats, skeleton, joints] = forms.called;
        self.joints.copy_from_slice(&self.rest);
        for s in &self.samplers {
            let (k0, k1, f) = locate(&s.times, t);
            for &j in &s.index {
                self.blend[j as usize] = self.joints[j as usize];
            }
            let m = s.rot_joints.len();
            for (c, &j) in s.rot_joints.iter().enumerate() {
                self.joints[j].q = s.rot[k0 * m + c];
                self.blend[j].q = s.rot[k1 * m + c];
            }
            let m = s.trans_joints.len();
            for (c, &j) in s.trans_joints.iter().enumerate() {
                self.joints[j].t = s.trans[k0 * m + c];
                self.blend[j].t = s.trans[k1 * m + c];
            }
            if !s.step {
                animasm::slerp_joints(slerp, &mut self.joints, &self.blend, f, &s.index)?;
            }
        }
        let b = self.bases;
        if self.one_call {
            // Every base is the identity: the roots' model matrices are
            // their local ones, which the whole-pose routine writes.
            let input = PoseInput::new(&self.joints, &self.joints, 0.0);
            let skin = Skin { inverse_bind: &self.inverse_bind, mats: &mut self.skin };
            animasm::slerp_pose(forms.pose_called, &input, &self.joint_parents, &mut self.mats[b..], Some(skin))?;
            return Ok(&self.skin);
        }
        animasm::quats_to_mats(to_mats, &mut self.mats[b..], &self.joints)?;
        let last = self.mats.len() - 1;
        animasm::transform_skeleton(skeleton, &mut self.mats, &self.parents, b..=last)?;
        animasm::transform_joints(joints, &mut self.skin, &self.mats[b..], &self.inverse_bind)?;
        Ok(&self.skin)
    }
}

/// [`Sampler::locate`] on a bare slice of times.
pub(super) fn locate(times: &[f32], t: f32) -> (usize, usize, f32) {
    let n = times.len();
    let i = times.partition_point(|&x| x <= t);
    if i == 0 {
        (0, 0, 0.0)
    } else if i >= n {
        (n - 1, n - 1, 0.0)
    } else {
        let (t0, t1) = (times[i - 1], times[i]);
        (i - 1, i, (t - t0) / (t1 - t0))
    }
}

/// One pose with the crate's kernels: the skinning matrices (3x4 row-major)
/// per pipeline joint, with the pipeline for `imp` ([`Forms::resolve`]).
/// Builds a [`Poser`]; keep one to pose repeatedly.
pub fn pipeline(imp: Impl, anim: &Animation, t: f32) -> Result<Vec<[f32; 12]>, PoseError> {
    Ok(Poser::new(anim).pose(imp, t)?.iter().map(|m| m.mat).collect())
}
