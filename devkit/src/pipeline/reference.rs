//! The f64 reference: the testkit's oracles (`animasm_testkit::oracle`:
//! `slerp_f64`, `vec3_lerp_f64`, `joint_mat_gltf_f64`, `affine_mul_f64`,
//! `local_to_model_f64`), no kernel of the crate.

use super::*;
use animasm_testkit::oracle::{affine_mul_f64, joint_mat_gltf_f64, local_to_model_f64, slerp_f64, vec3_lerp_f64};

pub(super) const IDENTITY_F64: [f64; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// The local pose at rest, in f64: `(rotation, translation)` per joint.
pub(super) fn rest_locals(anim: &Animation) -> Vec<([f64; 4], [f64; 3])> {
    anim.rest.iter().map(|j| (j.q.to_array().map(f64::from), [j.t.x, j.t.y, j.t.z].map(f64::from))).collect()
}

/// Local joints to world matrices along the parents, in f64: the bases
/// (roots of [`Animation::skeleton_parents`]) then the joints, `[R(q) | t]`
/// each, through the parent chain.
pub(super) fn reference_world(anim: &Animation, locals: &[([f64; 4], [f64; 3])]) -> Vec<[f64; 12]> {
    assert!(anim.root_base.iter().zip(&anim.parents).all(|(b, &p)| p >= 0 || b.is_some()), "a root has a base");
    let mut mats = anim.bases.clone();
    mats.extend(locals.iter().map(|&(q, t)| joint_mat_gltf_f64(q, t)));
    local_to_model_f64(&mats, &anim.skeleton_parents()).split_off(anim.bases.len())
}

/// The reference pose at time `t`: the skinning matrices (world times
/// inverse bind, 3x4 row-major) in f64, per pipeline joint. Exact slerp of
/// the widened f32 keys, no kernel of the crate.
pub fn pipeline_f64(anim: &Animation, t: f64) -> Vec<[f64; 12]> {
    let world = model_f64(anim, t);
    world.iter().zip(&anim.inverse_bind).map(|(w, ibm)| affine_mul_f64(*w, ibm.map(f64::from))).collect()
}

/// The reference's world (model-space) joint matrices at time `t`, before
/// the inverse bind matrices, per pipeline joint.
pub fn model_f64(anim: &Animation, t: f64) -> Vec<[f64; 12]> {
    let mut locals = rest_locals(anim);
    for s in &anim.samplers {
        let (k0, k1, f) = s.locate_f64(t);
        for (j, keys) in &s.rotations {
            let (a, b) = (keys[k0].map(f64::from), keys[k1].map(f64::from));
            locals[*j].0 = if s.step { a } else { slerp_f64(a, b, f) };
        }
        for (j, keys) in &s.translations {
            let (a, b) = (keys[k0].map(f64::from), keys[k1].map(f64::from));
            locals[*j].1 = if s.step { a } else { vec3_lerp_f64(a, b, f) };
        }
    }
    reference_world(anim, &locals)
}

/// The rest pose's skinning matrices in f64 (identity where the rest pose
/// is the bind pose).
pub fn rest_skinning_f64(anim: &Animation) -> Vec<[f64; 12]> {
    let world = reference_world(anim, &rest_locals(anim));
    world.iter().zip(&anim.inverse_bind).map(|(w, ibm)| affine_mul_f64(*w, ibm.map(f64::from))).collect()
}

/// How far the rest pose is from the bind pose, in [`max_error`]'s
/// measure: the rest pose's skinning matrices against the identity (about
/// 1e-7 where the file's rest pose is its bind pose).
pub fn rest_bind_error(anim: &Animation) -> f64 {
    let identity = vec![IDENTITY_F64.map(|v| v as f32); anim.len()];
    max_error(anim, &identity, &rest_skinning_f64(anim))
}

/// The distance of a pose to the reference, relative to the model's size:
/// the largest of every rotation element's error and every translation
/// element's error divided by [`Animation::size`] (a skinned vertex at
/// distance `size` moves by at most about `3 size` times this). NaN counts
/// as infinite.
pub fn max_error(anim: &Animation, got: &[[f32; 12]], want: &[[f64; 12]]) -> f64 {
    animasm_testkit::error::pose_error(got, want, anim.size)
}
