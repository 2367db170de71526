//! `cargo run --release --example gltf_skin [-- PATH [ANIMATION KEY FACTOR]]`:
//! the README's conventions example. It loads a glTF 2.0 file (default the
//! bundled `data/Fox.glb`) with the `gltf` crate, blends two keyframes of an
//! animation with `slerp_joints`, converts with `quats_to_mats` and computes
//! the model-space matrices of every node with a [`Skeleton`], then prints
//! skin 0's joints. `tests/gltf_example.rs` checks [`blend_keyframes`]
//! against glam and an f64 reference, and that the README shows it verbatim.
//!
//! What the function computes, for animation `anim`: every node's rest pose
//! (its translation, rotation and scale, or its decomposed matrix), with
//! every channel's keyframe `key` in one pose and keyframe `key + 1` (the
//! last one if there is none) in the other; the two poses blended with
//! factor `f` (rotations by slerp, translations and scales linearly); each
//! node's local matrix `T * R * S`; and the model-space matrix of every node
//! (`parent * local` up to the scene's roots). Rotations are normalised as
//! they are read (glTF requires unit quaternions; exporters round them).

// The README's "Conventions" example, verbatim from here to its end marker.
use animasm::{Impl, JointMat, JointQuat, Quat, Skeleton, Vec4, quats_to_mats};
use gltf::animation::{Interpolation::CubicSpline, util::ReadOutputs as Keys};

/// Model-space matrices of every node: animation `anim`'s keyframes `key`
/// and `key + 1` blended by `f` (rotations by slerp, the rest linearly).
pub fn blend_keyframes(
    doc: &gltf::Document,
    buffers: &[gltf::buffer::Data],
    anim: usize,
    key: usize,
    f: f32,
) -> Result<Vec<JointMat>, Box<dyn std::error::Error>> {
    // glTF's rotation is the conjugate of the papers' quaternion; normalised.
    let quat = |r: [f32; 4]| Quat::from_array(r.map(|v| v / r.iter().map(|v| v * v).sum::<f32>().sqrt())).conjugate();
    let trs: Vec<_> = doc.nodes().map(|n| n.transform().decomposed()).collect();
    let mut a: Vec<_> =
        trs.iter().map(|([x, y, z], r, _)| JointQuat::new(quat(*r), Vec4::new(*x, *y, *z, 0.0))).collect();
    let (mut b, mut scale): (Vec<_>, Vec<_>) = (a.clone(), trs.iter().map(|x| x.2).collect());
    for ch in doc.animations().nth(anim).ok_or("no such animation")?.channels() {
        let (n, cubic) = (ch.target().node().index(), ch.sampler().interpolation() == CubicSpline);
        let at = |len: usize, k: usize| if cubic { 3 * k.min(len / 3 - 1) + 1 } else { k.min(len - 1) };
        match ch.reader(|buf| Some(&buffers[buf.index()])).read_outputs().ok_or("no keyframes")? {
            Keys::Rotations(r) => {
                let r: Vec<_> = r.into_f32().collect();
                (a[n].q, b[n].q) = (quat(r[at(r.len(), key)]), quat(r[at(r.len(), key + 1)]));
            }
            Keys::Translations(t) => {
                let t: Vec<_> = t.map(|[x, y, z]| Vec4::new(x, y, z, 0.0)).collect();
                (a[n].t, b[n].t) = (t[at(t.len(), key)], t[at(t.len(), key + 1)]);
            }
            Keys::Scales(s) => {
                let s: Vec<_> = s.collect();
                let (s0, s1) = (s[at(s.len(), key)], s[at(s.len(), key + 1)]);
                scale[n] = core::array::from_fn(|i| s0[i] + (s1[i] - s0[i]) * f);
            }
            Keys::MorphTargetWeights(_) => {}
        }
    }
    let mut parents = vec![-1; trs.len()];
    doc.nodes().for_each(|p| p.children().for_each(|c| parents[c.index()] = p.index() as i32));
    let skeleton = Skeleton::new(&parents)?; // any order, any number of roots
    skeleton.slerp_joints(Impl::Auto, &mut a, &b, f)?;
    let mut local = vec![JointMat::IDENTITY; a.len()];
    quats_to_mats(Impl::Auto, &mut local, &a)?; // [R | t] for column vectors
    for (m, s) in local.iter_mut().zip(&scale) {
        (0..12).filter(|e| e % 4 != 3).for_each(|e| m.mat[e] *= s[e % 4]); // R * S
    }
    let mut model = skeleton.to_parents_first_vec(&local)?;
    skeleton.local_to_model(Impl::Auto, &mut model)?; // model = parent * local
    Ok(skeleton.from_parents_first_vec(&model)?)
}
// End of the README's example.

#[allow(dead_code)] // `tests/gltf_example.rs` includes this file without running `main`.
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or(concat!(env!("CARGO_MANIFEST_DIR"), "/data/Fox.glb"), String::as_str);
    let num = |i: usize, default: &str| args.get(i).map_or(default, String::as_str).to_string();
    let (anim, key, f): (usize, usize, f32) = (num(1, "0").parse()?, num(2, "0").parse()?, num(3, "0.5").parse()?);
    let (doc, buffers, _) = gltf::import(path)?;
    let model = blend_keyframes(&doc, &buffers, anim, key, f)?;
    let skin = doc.skins().next().ok_or("the file has no skin")?;
    println!("{path}: animation {anim}, keyframes {key} and {} blended by {f}", key + 1);
    for joint in skin.joints() {
        let [x, y, z] = model[joint.index()].translation();
        println!("{:>24} at ({x:9.4}, {y:9.4}, {z:9.4})", joint.name().unwrap_or("(unnamed)"));
    }
    Ok(())
}
