//! The glam peer: the same pipeline with glam types ([`GlamPoser`]).

use super::kernels::locate;
use super::*;

/// The same pipeline with glam: `Quat::slerp` (shorter arc), `Vec3::lerp`,
/// `Affine3A` products; glTF's convention throughout.
#[derive(Clone, Debug)]
pub struct GlamPoser {
    bases: usize,
    parents: Vec<i32>,
    rest_q: Vec<GQuat>,
    rest_t: Vec<Vec3>,
    samplers: Vec<GlamSampler>,
    q: Vec<GQuat>,
    t: Vec<Vec3>,
    /// The bases, then one matrix per joint.
    world: Vec<Affine3A>,
    inverse_bind: Vec<Affine3A>,
    skin: Vec<Affine3A>,
}

#[derive(Clone, Debug)]
struct GlamSampler {
    times: Vec<f32>,
    step: bool,
    rot: Vec<(usize, Vec<GQuat>)>,
    trans: Vec<(usize, Vec<Vec3>)>,
}

/// A 3x4 row-major matrix as an `Affine3A`.
pub fn affine_from_rows(m: &[f32; 12]) -> Affine3A {
    Affine3A {
        matrix3: Mat3A::from_cols(
            Vec3A::new(m[0], m[4], m[8]),
            Vec3A::new(m[1], m[5], m[9]),
            Vec3A::new(m[2], m[6], m[10]),
        ),
        translation: Vec3A::new(m[3], m[7], m[11]),
    }
}

/// An `Affine3A` as a 3x4 row-major matrix.
pub fn rows_from_affine(a: &Affine3A) -> [f32; 12] {
    let (x, y, z, t) = (a.matrix3.x_axis, a.matrix3.y_axis, a.matrix3.z_axis, a.translation);
    [x.x, y.x, z.x, t.x, x.y, y.y, z.y, t.y, x.z, y.z, z.z, t.z]
}

impl GlamPoser {
    /// The glam pipeline for `anim`.
    pub fn new(anim: &Animation) -> GlamPoser {
        let n = anim.len();
        let world = anim
            .bases
            .iter()
            .map(|b| affine_from_rows(&b.map(|v| v as f32)))
            .chain(std::iter::repeat_n(Affine3A::IDENTITY, n));
        GlamPoser {
            bases: anim.bases.len(),
            parents: anim.skeleton_parents(),
            rest_q: anim.rest.iter().map(|j| GQuat::from_array(j.q.to_array())).collect(),
            rest_t: anim.rest.iter().map(|j| Vec3::new(j.t.x, j.t.y, j.t.z)).collect(),
            samplers: anim
                .samplers
                .iter()
                .map(|s| GlamSampler {
                    times: s.times.clone(),
                    step: s.step,
                    rot: s
                        .rotations
                        .iter()
                        .map(|(j, k)| (*j, k.iter().map(|&q| GQuat::from_array(q)).collect()))
                        .collect(),
                    trans: s
                        .translations
                        .iter()
                        .map(|(j, k)| (*j, k.iter().map(|&t| Vec3::from_array(t)).collect()))
                        .collect(),
                })
                .collect(),
            q: vec![GQuat::IDENTITY; n],
            t: vec![Vec3::ZERO; n],
            world: world.collect(),
            inverse_bind: anim.inverse_bind.iter().map(affine_from_rows).collect(),
            skin: vec![Affine3A::IDENTITY; n],
        }
    }

    /// The skinning matrices at time `t`.
    pub fn pose(&mut self, t: f32) -> &[Affine3A] {
        self.q.copy_from_slice(&self.rest_q);
        self.t.copy_from_slice(&self.rest_t);
        for s in &self.samplers {
            let (k0, k1, f) = locate(&s.times, t);
            for (j, keys) in &s.rot {
                self.q[*j] = if s.step { keys[k0] } else { keys[k0].slerp(keys[k1], f) };
            }
            for (j, keys) in &s.trans {
                self.t[*j] = if s.step { keys[k0] } else { keys[k0].lerp(keys[k1], f) };
            }
        }
        let b = self.bases;
        for i in 0..self.q.len() {
            let local = Affine3A::from_rotation_translation(self.q[i], self.t[i]);
            self.world[b + i] = self.world[self.parents[b + i] as usize] * local;
            self.skin[i] = self.world[b + i] * self.inverse_bind[i];
        }
        &self.skin
    }
}

/// One pose with glam: the skinning matrices (3x4 row-major) per joint.
pub fn pipeline_glam(anim: &Animation, t: f32) -> Vec<[f32; 12]> {
    GlamPoser::new(anim).pose(t).iter().map(rows_from_affine).collect()
}
