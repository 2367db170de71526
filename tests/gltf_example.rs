//! The README's conventions example (`examples/gltf_skin.rs`,
//! `blend_keyframes`) on the bundled glTF files, against an f64 reference
//! and against glam, and the README showing it verbatim.
#![cfg(feature = "alloc")]

#[path = "../examples/gltf_skin.rs"]
mod example;

use animasm_testkit::error::{mat_max_abs_diff, model_size};
use animasm_testkit::oracle::{f64x4, local_to_model_f64, normalize_f64, slerp_f64, trs_f64, vec3_lerp_f64};
use devkit::pipeline::rows_from_affine;
use gltf::animation::Interpolation;
use gltf::animation::util::ReadOutputs;

/// The bundled files, and `data/SimpleSkin.gltf` edited by
/// [`scaled_and_reversed`] (written to the target directory).
fn files() -> Vec<String> {
    let mut files = vec!["data/Fox.glb".to_string(), "data/SimpleSkin.gltf".to_string()];
    files.push(scaled_and_reversed());
    files
}

/// `data/SimpleSkin.gltf` with its nodes in reverse order (every child
/// before its parent) and non-uniform scales on the mesh node (an ancestor
/// that is not a joint) and on the root joint: the paths of the example that
/// the bundled files do not take.
fn scaled_and_reversed() -> String {
    use serde_json::{Value, json};
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/SimpleSkin.gltf")).unwrap();
    let mut j: Value = serde_json::from_str(&text).unwrap();
    let n = j["nodes"].as_array().unwrap().len();
    let remap = |v: &mut Value| *v = json!(n - 1 - v.as_u64().unwrap() as usize);
    let nodes = j["nodes"].as_array_mut().unwrap();
    for node in nodes.iter_mut() {
        node.get_mut("children").into_iter().flat_map(|c| c.as_array_mut().unwrap()).for_each(remap);
    }
    nodes.reverse();
    nodes[n - 1]["scale"] = json!([2.0, 0.5, 1.5]);
    nodes[n - 2]["scale"] = json!([0.75, 1.25, 1.0]);
    j["skins"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .for_each(|s| s["joints"].as_array_mut().unwrap().iter_mut().for_each(remap));
    for a in j["animations"].as_array_mut().unwrap() {
        a["channels"].as_array_mut().unwrap().iter_mut().for_each(|c| remap(&mut c["target"]["node"]));
    }
    j["scenes"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .for_each(|s| s["nodes"].as_array_mut().unwrap().iter_mut().for_each(remap));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("SimpleSkin-scaled-reversed.gltf");
    std::fs::write(&path, serde_json::to_string(&j).unwrap()).unwrap();
    path.to_str().unwrap().to_string()
}

/// A node's local transform, glTF's convention, in f64: rotation `[x, y, z,
/// w]`, translation, scale.
#[derive(Clone, Copy)]
struct Trs {
    r: [f64; 4],
    t: [f64; 3],
    s: [f64; 3],
}

/// Every node's keyframes `key` and `key + 1` (clamped to the last; a cubic
/// spline's values) of animation `anim` over the rest pose, read again here
/// in f64, rotations normalised.
fn key_poses(doc: &gltf::Document, buffers: &[gltf::buffer::Data], anim: usize, key: usize) -> [Vec<Trs>; 2] {
    let unit = |r: [f32; 4]| normalize_f64(f64x4(r));
    let rest: Vec<Trs> = doc
        .nodes()
        .map(|n| {
            let (t, r, s) = n.transform().decomposed();
            Trs { r: unit(r), t: t.map(f64::from), s: s.map(f64::from) }
        })
        .collect();
    let mut poses = [rest.clone(), rest];
    for ch in doc.animations().nth(anim).unwrap().channels() {
        let node = ch.target().node().index();
        let cubic = ch.sampler().interpolation() == Interpolation::CubicSpline;
        let values = |all: usize| if cubic { all / 3 } else { all };
        let slot = |k: usize, all: usize| {
            let k = k.min(values(all) - 1);
            if cubic { 3 * k + 1 } else { k }
        };
        match ch.reader(|b| Some(&buffers[b.index()])).read_outputs().unwrap() {
            ReadOutputs::Rotations(r) => {
                let r: Vec<[f32; 4]> = r.into_f32().collect();
                for (p, k) in poses.iter_mut().zip([key, key + 1]) {
                    p[node].r = unit(r[slot(k, r.len())]);
                }
            }
            ReadOutputs::Translations(t) => {
                let t: Vec<[f32; 3]> = t.collect();
                for (p, k) in poses.iter_mut().zip([key, key + 1]) {
                    p[node].t = t[slot(k, t.len())].map(f64::from);
                }
            }
            ReadOutputs::Scales(s) => {
                let s: Vec<[f32; 3]> = s.collect();
                for (p, k) in poses.iter_mut().zip([key, key + 1]) {
                    p[node].s = s[slot(k, s.len())].map(f64::from);
                }
            }
            ReadOutputs::MorphTargetWeights(_) => {}
        }
    }
    poses
}

/// The parent of every node (`None` for a scene root).
fn parents(doc: &gltf::Document) -> Vec<Option<usize>> {
    let mut parents = vec![None; doc.nodes().len()];
    for n in doc.nodes() {
        for c in n.children() {
            parents[c.index()] = Some(n.index());
        }
    }
    parents
}

/// Model space by recursion up the parents (no ordering needed): `model(n)
/// = model(parent(n)) * local(n)`, for glam's pose (the f64 reference's is
/// `oracle::local_to_model_f64`).
fn chain<M: Copy>(locals: &[M], parents: &[Option<usize>], mul: impl Fn(M, M) -> M) -> Vec<M> {
    fn model<M: Copy>(n: usize, l: &[M], p: &[Option<usize>], mul: &dyn Fn(M, M) -> M, memo: &mut [Option<M>]) -> M {
        if let Some(m) = memo[n] {
            return m;
        }
        let m = match p[n] {
            None => l[n],
            Some(q) => mul(model(q, l, p, mul, memo), l[n]),
        };
        memo[n] = Some(m);
        m
    }
    let mut memo = vec![None; locals.len()];
    (0..locals.len()).map(|n| model(n, locals, parents, &mul, &mut memo)).collect()
}

/// The f64 reference (the testkit's): exact shortest-arc slerp, linear
/// translation and scale, `T * R * S`, the parent chain.
fn reference(poses: &[Vec<Trs>; 2], parents: &[Option<usize>], f: f64) -> Vec<[f64; 12]> {
    let locals: Vec<[f64; 12]> = poses[0]
        .iter()
        .zip(&poses[1])
        .map(|(a, b)| {
            let r = normalize_f64(slerp_f64(a.r, b.r, f));
            trs_f64(vec3_lerp_f64(a.t, b.t, f), r, vec3_lerp_f64(a.s, b.s, f))
        })
        .collect();
    let parents: Vec<i32> = parents.iter().map(|p| p.map_or(-1, |p| p as i32)).collect();
    local_to_model_f64(&locals, &parents)
}

/// The same pose with glam in f32: `Quat::slerp`, `Vec3::lerp`,
/// `Affine3A::from_scale_rotation_translation`, `parent * local`.
fn glam_pose(poses: &[Vec<Trs>; 2], parents: &[Option<usize>], f: f32) -> Vec<glam::Affine3A> {
    let v3 = |v: [f64; 3]| glam::Vec3::from_array(v.map(|x| x as f32));
    let q = |r: [f64; 4]| glam::Quat::from_array(r.map(|x| x as f32));
    let locals: Vec<glam::Affine3A> = poses[0]
        .iter()
        .zip(&poses[1])
        .map(|(a, b)| {
            glam::Affine3A::from_scale_rotation_translation(
                v3(a.s).lerp(v3(b.s), f),
                q(a.r).slerp(q(b.r), f),
                v3(a.t).lerp(v3(b.t), f),
            )
        })
        .collect();
    chain(&locals, parents, |p, l| p * l)
}

/// Every animation of both files, every keyframe pair, factors 0, 0.3, 0.5
/// and 1: every node within 1e-5 of the model size of the f64 reference;
/// glam's pose within the same bound; the two within 2e-5 of each other.
#[test]
fn blend_keyframes_against_f64_and_glam() {
    for file in files() {
        let (doc, buffers, _) = gltf::import(&file).unwrap();
        let parents = parents(&doc);
        let mut worst = (0.0f64, 0.0f64);
        let mut poses_checked = 0;
        for anim in 0..doc.animations().len() {
            let keys = doc.animations().nth(anim).unwrap().samplers().map(|s| s.input().count()).max().unwrap();
            for key in 0..keys {
                let poses = key_poses(&doc, &buffers, anim, key);
                for f in [0.0, 0.3, 0.5, 1.0] {
                    let got = example::blend_keyframes(&doc, &buffers, anim, key, f).unwrap();
                    let want = reference(&poses, &parents, f64::from(f));
                    let glam = glam_pose(&poses, &parents, f);
                    let s = model_size(&want);
                    for n in 0..got.len() {
                        let e = mat_max_abs_diff(&got[n].mat, &want[n]) / s;
                        let g = mat_max_abs_diff(&rows_from_affine(&glam[n]), &want[n]) / s;
                        let ctx = format!("{file} animation {anim} keys {key}+1 f={f} node {n}");
                        assert!(e <= 1e-5, "{ctx}: {e:e} of the model size ({s}) from the f64 reference");
                        assert!(g <= 1e-5, "{ctx}: glam {g:e} from the f64 reference");
                        worst = (worst.0.max(e), worst.1.max(g));
                    }
                    poses_checked += 1;
                }
            }
        }
        println!(
            "{file}: {poses_checked} poses, worst {:.2e} (animasm) {:.2e} (glam) of the model size",
            worst.0, worst.1
        );
    }
}

/// The README's "Conventions" example is `examples/gltf_skin.rs` from its
/// start marker to its end marker, character for character.
#[test]
fn the_readme_shows_the_example_verbatim() {
    let example = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/gltf_skin.rs")).unwrap();
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = example.find("// The README's").expect("start marker");
    let start = start + example[start..].find('\n').unwrap() + 1;
    let end = example.find("// End of the README's example.").expect("end marker");
    let body = &example[start..end];
    assert!(body.lines().count() > 20, "the marked example is too short to be the whole function");
    assert!(readme.contains(body), "README.md does not show examples/gltf_skin.rs's example verbatim:\n{body}");
}
