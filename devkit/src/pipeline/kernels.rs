//! The crate's pipeline: [`Poser`] runs one pose through `slerp_joints`,
//! `quats_to_mats`, `transform_skeleton` and `transform_joints`.

use super::*;

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
        Poser {
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

    /// The skinning matrices at time `t` with `imp`: for each time input,
    /// the two keys around `t` into `joints` and `blend` and one
    /// `slerp_joints` over its animated joints (the others keep the rest
    /// pose); `quats_to_mats`; `transform_skeleton` over the whole skeleton
    /// (the bases first, so every root has a parent); `transform_joints`
    /// with the inverse bind matrices.
    pub fn pose(&mut self, imp: Impl, t: f32) -> Result<&[JointMat], animasm::Error> {
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
                animasm::slerp_joints(imp, &mut self.joints, &self.blend, f, &s.index)?;
            }
        }
        let b = self.bases;
        animasm::quats_to_mats(imp, &mut self.mats[b..], &self.joints)?;
        let last = self.mats.len() - 1;
        animasm::transform_skeleton(imp, &mut self.mats, &self.parents, b..=last)?;
        animasm::transform_joints(imp, &mut self.skin, &self.mats[b..], &self.inverse_bind)?;
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
/// per pipeline joint. Builds a [`Poser`]; keep one to pose repeatedly.
pub fn pipeline(imp: Impl, anim: &Animation, t: f32) -> Result<Vec<[f32; 12]>, PoseError> {
    Ok(Poser::new(anim).pose(imp, t)?.iter().map(|m| m.mat).collect())
}
