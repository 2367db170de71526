//! The f64 reference: plain arithmetic, no kernel of the crate; the slerp is
//! [`animasm_testkit::oracle::slerp_f64`], the one f64 slerp of the
//! repository.

use super::*;
use animasm_testkit::oracle::slerp_f64;

pub(super) const IDENTITY_F64: [f64; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// `a * b` of two 3x4 affine matrices (row-major, column vectors).
pub(super) fn mul_f64(a: &[f64; 12], b: &[f64; 12]) -> [f64; 12] {
    std::array::from_fn(|i| {
        let (r, c) = (i / 4, i % 4);
        let s = a[r * 4] * b[c] + a[r * 4 + 1] * b[4 + c] + a[r * 4 + 2] * b[8 + c];
        if c == 3 { s + a[r * 4 + 3] } else { s }
    })
}

/// `[R(q) | t]` for the Hamilton quaternion `q = [x, y, z, w]` (glTF's
/// convention: `v' = R v`, `R[0][1] = 2(xy - wz)`), row-major 3x4.
fn local_f64(q: [f64; 4], t: [f64; 3]) -> [f64; 12] {
    let [x, y, z, w] = q;
    [
        1.0 - 2.0 * (y * y + z * z),
        2.0 * (x * y - w * z),
        2.0 * (x * z + w * y),
        t[0],
        2.0 * (x * y + w * z),
        1.0 - 2.0 * (x * x + z * z),
        2.0 * (y * z - w * x),
        t[1],
        2.0 * (x * z - w * y),
        2.0 * (y * z + w * x),
        1.0 - 2.0 * (x * x + y * y),
        t[2],
    ]
}

/// The local pose at rest, in f64: `(rotation, translation)` per joint.
pub(super) fn rest_locals(anim: &Animation) -> Vec<([f64; 4], [f64; 3])> {
    anim.rest.iter().map(|j| (j.q.to_array().map(f64::from), [j.t.x, j.t.y, j.t.z].map(f64::from))).collect()
}

/// Local joints to world matrices along the parents, in f64.
pub(super) fn reference_world(anim: &Animation, locals: &[([f64; 4], [f64; 3])]) -> Vec<[f64; 12]> {
    let mut world: Vec<[f64; 12]> = Vec::with_capacity(locals.len());
    for (i, &(q, t)) in locals.iter().enumerate() {
        let parent = match anim.parents[i] {
            p if p >= 0 => world[p as usize],
            _ => anim.bases[anim.root_base[i].expect("a root has a base")],
        };
        world.push(mul_f64(&parent, &local_f64(q, t)));
    }
    world
}

/// The reference pose at time `t`: the skinning matrices (world times
/// inverse bind, 3x4 row-major) in f64, per pipeline joint. Exact slerp of
/// the widened f32 keys, no kernel of the crate.
pub fn pipeline_f64(anim: &Animation, t: f64) -> Vec<[f64; 12]> {
    let world = model_f64(anim, t);
    world.iter().zip(&anim.inverse_bind).map(|(w, ibm)| mul_f64(w, &ibm.map(f64::from))).collect()
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
            locals[*j].1 = if s.step { a } else { std::array::from_fn(|c| a[c] + (b[c] - a[c]) * f) };
        }
    }
    reference_world(anim, &locals)
}

/// The rest pose's skinning matrices in f64 (identity where the rest pose
/// is the bind pose).
pub fn rest_skinning_f64(anim: &Animation) -> Vec<[f64; 12]> {
    let world = reference_world(anim, &rest_locals(anim));
    world.iter().zip(&anim.inverse_bind).map(|(w, ibm)| mul_f64(w, &ibm.map(f64::from))).collect()
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
    assert_eq!(got.len(), want.len(), "max_error: pose sizes differ");
    let mut worst = 0f64;
    for (g, w) in got.iter().zip(want) {
        for i in 0..12 {
            let d = (f64::from(g[i]) - w[i]).abs();
            let d = if i % 4 == 3 { d / anim.size } else { d };
            worst = if d.is_nan() { f64::INFINITY } else { worst.max(d) };
        }
    }
    worst
}
