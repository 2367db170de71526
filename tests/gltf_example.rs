//! The README's conventions example (`examples/gltf_skin.rs`: `sample_at`,
//! which samples an animation at a time, and `Resampled`, the clip resampled
//! once at load) against an f64 reference computed here, and against glam;
//! its STEP, clamping and error behaviour; and the README showing it
//! verbatim.
//!
//! Files: the bundled `data/Fox.glb` and `data/SimpleSkin.gltf`, a copy of
//! the latter with its nodes reversed and non-uniform scales, and a file
//! built here whose channels have different key counts and time grids (2 to
//! 45 keys), with LINEAR, STEP and CUBICSPLINE channels.
#![cfg(feature = "alloc")]

#[path = "../examples/gltf_skin.rs"]
mod example;

use animasm_testkit::error::{mat_max_abs_diff, model_size};
use animasm_testkit::oracle::{f64x4, local_to_model_f64, normalize_f64, slerp_f64, trs_f64, vec3_lerp_f64};
use devkit::pipeline::rows_from_affine;
use gltf::animation::Interpolation;
use gltf::animation::util::ReadOutputs;
use serde_json::{Value, json};

/// The bound of `sample_at` and `Resampled::pose_at` against their f64
/// references: 1e-6 of the model size. Measured worst (Intel Xeon, the
/// AVX2 + FMA forms that `Impl::Auto` picks there; the tests print them):
/// `sample_at` 4.4e-7 on the Fox (margin 2.3x), 1.5e-7 on SimpleSkin (6.9x),
/// 2.6e-7 on its scaled and reversed copy (3.9x), 2.3e-7 on the mixed
/// channels (4.3x); `Resampled` at 30 and 60 Hz 4.3e-7 on the Fox (2.3x),
/// 1.8e-7, 2.8e-7 and 3.0e-7 on the others (3.3x or more). Before the
/// example normalised its slerped rotations the Fox reached 1.2e-6 (the
/// kernels blend nearly equal rotations linearly, slightly short of unit
/// length).
const BOUND: f64 = 1e-6;

/// The bundled files, `data/SimpleSkin.gltf` edited by
/// [`scaled_and_reversed`], and [`mixed_channels`] (both written to the
/// target directory).
fn files() -> Vec<String> {
    vec!["data/Fox.glb".to_string(), "data/SimpleSkin.gltf".to_string(), scaled_and_reversed(), mixed_channels()]
}

fn write_tmp(name: &str, j: &Value) -> String {
    // Tests run in parallel and several write (and read) the same file:
    // each writes its own temporary file and renames it into place, which
    // is atomic, so a reader never sees a file half written (a test once
    // read an empty one).
    static SEQ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    let seq = SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    // The process id keeps concurrent runs' files apart; WASI has none
    // (`process::id` panics there), and its run says `wasi` instead.
    #[cfg(not(target_os = "wasi"))]
    let process = std::process::id().to_string();
    #[cfg(target_os = "wasi")]
    let process = "wasi";
    let tmp = dir.join(format!("{name}.{process}.{seq}.tmp"));
    std::fs::write(&tmp, serde_json::to_string(j).unwrap()).unwrap();
    std::fs::rename(&tmp, &path).unwrap();
    path.to_str().unwrap().to_string()
}

/// `data/SimpleSkin.gltf` with its nodes in reverse order (every child
/// before its parent) and non-uniform scales on the mesh node (an ancestor
/// that is not a joint) and on the root joint: the paths of the example that
/// the bundled files do not take.
fn scaled_and_reversed() -> String {
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
    write_tmp("SimpleSkin-scaled-reversed.gltf", &j)
}

/// Standard base64 with padding (for the `data:` URI of [`mixed_channels`]).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            out.push(if i <= c.len() { A[(n >> (18 - 6 * i) & 63) as usize] as char } else { '=' });
        }
    }
    out
}

/// A unit quaternion `[x, y, z, w]` (glTF's convention) of `angle` radians
/// about the axis `axis` (normalised here).
fn axis_angle(axis: [f64; 3], angle: f64) -> [f32; 4] {
    let n = axis.iter().map(|v| v * v).sum::<f64>().sqrt();
    let (s, c) = (angle / 2.0).sin_cos();
    [axis[0] / n * s, axis[1] / n * s, axis[2] / n * s, c].map(|v| v as f32)
}

/// One channel of [`mixed_channels`]: node, property, interpolation, key
/// times, and the output values (triples for CUBICSPLINE).
struct Chan {
    node: usize,
    path: &'static str,
    mode: &'static str,
    times: Vec<f32>,
    values: Vec<Vec<f32>>,
}

/// The channels of [`mixed_channels`] (fixed formulas, no randomness).
fn mixed_spec() -> Vec<Chan> {
    let grid = |n: usize, a: f64, b: f64, p: f64| -> Vec<f32> {
        (0..n).map(|i| (a + (b - a) * (i as f64 / (n - 1) as f64).powf(p)) as f32).collect()
    };
    let v3 = |v: [f64; 3]| v.iter().map(|&x| x as f32).collect::<Vec<f32>>();
    let q = |axis: [f64; 3], angle: f64| axis_angle(axis, angle).to_vec();
    // A cubic key's triple: in-tangent, value, out-tangent.
    let tangent =
        |i: usize, w: usize| (0..w).map(|e| (0.37 * ((i * 7 + e * 3) as f64).sin()) as f32).collect::<Vec<_>>();
    let cubic = |vals: Vec<Vec<f32>>| -> Vec<Vec<f32>> {
        let w = vals[0].len();
        vals.into_iter().enumerate().flat_map(|(i, v)| [tangent(2 * i, w), v, tangent(2 * i + 1, w)]).collect()
    };
    vec![
        // Two keys over the whole clip: one slerp of 170 degrees.
        Chan {
            node: 0,
            path: "rotation",
            mode: "LINEAR",
            times: vec![0.0, 4.0],
            values: vec![q([0.0, 0.0, 1.0], 0.0), q([1.0, 2.0, 3.0], 170f64.to_radians())],
        },
        // 41 keys on a grid that gets coarser towards the end.
        Chan {
            node: 0,
            path: "translation",
            mode: "LINEAR",
            times: grid(41, 0.0, 4.0, 1.5),
            values: (0..41).map(|i| v3([(i as f64 * 0.3).sin(), 0.1 * i as f64, (i as f64 * 0.2).cos()])).collect(),
        },
        // A cubic spline of rotations, 7 keys at uneven times.
        Chan {
            node: 1,
            path: "rotation",
            mode: "CUBICSPLINE",
            times: vec![0.0, 0.5, 1.1, 2.0, 2.4, 3.3, 4.0],
            values: cubic((0..7).map(|i| q([1.0, i as f64 - 3.0, 0.5], 0.4 * i as f64 - 1.0)).collect()),
        },
        // STEP scales, 5 keys.
        Chan {
            node: 1,
            path: "scale",
            mode: "STEP",
            times: vec![0.0, 1.0, 1.5, 3.0, 4.0],
            values: (0..5).map(|i| v3([1.0 + 0.25 * i as f64, 1.5 - 0.2 * i as f64, 0.8 + 0.1 * i as f64])).collect(),
        },
        // 45 keys from 0.25 to 3.75 s (the channel clamps outside), every
        // other key negated (the same rotation: the shortest arc must win),
        // some consecutive keys nearly parallel.
        Chan {
            node: 2,
            path: "rotation",
            mode: "LINEAR",
            times: grid(45, 0.25, 3.75, 1.0),
            values: (0..45)
                .map(|i| {
                    let angle = if i % 5 == 0 { 0.3 } else { 0.3 + 0.15 * i as f64 };
                    let r = axis_angle([0.2, 1.0, -(i as f64) / 20.0], angle);
                    if i % 2 == 1 { r.map(|v| -v).to_vec() } else { r.to_vec() }
                })
                .collect(),
        },
        // A cubic spline of translations, 9 keys.
        Chan {
            node: 2,
            path: "translation",
            mode: "CUBICSPLINE",
            times: grid(9, 0.0, 4.0, 1.0),
            values: cubic((0..9).map(|i| v3([0.1 * i as f64, 1.5, 0.2 - 0.05 * i as f64])).collect()),
        },
        // Linear scales, 3 keys.
        Chan {
            node: 2,
            path: "scale",
            mode: "LINEAR",
            times: vec![0.0, 2.2, 4.0],
            values: vec![v3([1.0, 1.0, 1.0]), v3([0.5, 2.0, 1.0]), v3([1.2, 1.2, 0.7])],
        },
        // A second root with STEP rotations, 4 keys.
        Chan {
            node: 3,
            path: "rotation",
            mode: "STEP",
            times: vec![0.0, 0.7, 2.9, 3.5],
            values: (0..4).map(|i| q([0.0, 1.0, 0.0], 0.9 * i as f64)).collect(),
        },
    ]
}

/// A glTF file built here (JSON with one base64 `data:` URI buffer) whose
/// channels have different key counts (2, 3, 4, 5, 7, 9, 41, 45) and time
/// grids over the same clip (0 to 4 s; one channel only from 0.25 to 3.75),
/// with LINEAR, STEP and CUBICSPLINE channels: a chain of three nodes (the
/// skin's joints, with rest translations and a rest rotation) and a second
/// root.
fn mixed_channels() -> String {
    let spec = mixed_spec();
    let (mut bytes, mut views, mut accessors, mut samplers, mut channels) = (vec![], vec![], vec![], vec![], vec![]);
    let mut accessor = |data: &[f32], kind: &str, count: usize, minmax: bool| {
        views.push(json!({"buffer": 0, "byteOffset": bytes.len(), "byteLength": 4 * data.len()}));
        bytes.extend(data.iter().flat_map(|v| v.to_le_bytes()));
        let mut a = json!({"bufferView": views.len() - 1, "componentType": 5126, "count": count, "type": kind});
        if minmax {
            (a["min"], a["max"]) = (json!([data[0]]), json!([data[data.len() - 1]]));
        }
        accessors.push(a);
        accessors.len() - 1
    };
    for (i, c) in spec.iter().enumerate() {
        let input = accessor(&c.times, "SCALAR", c.times.len(), true);
        let kind = if c.path == "rotation" { "VEC4" } else { "VEC3" };
        let output = accessor(&c.values.concat(), kind, c.values.len(), false);
        samplers.push(json!({"input": input, "output": output, "interpolation": c.mode}));
        channels.push(json!({"sampler": i, "target": {"node": c.node, "path": c.path}}));
    }
    let j = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0, 3]}],
        "nodes": [
            {"name": "root", "children": [1], "translation": [0.5, 1.0, 0.0]},
            {"name": "mid", "children": [2], "translation": [0.0, 2.0, 0.0], "rotation": axis_angle([1.0, 0.0, 0.0], 0.5)},
            {"name": "tip", "translation": [0.0, 1.5, 0.2], "scale": [1.0, 2.0, 1.0]},
            {"name": "other root", "translation": [3.0, 0.0, -1.0]},
        ],
        "skins": [{"joints": [0, 1, 2]}],
        "animations": [{"name": "mixed", "samplers": samplers, "channels": channels}],
        "buffers": [{
            "byteLength": bytes.len(),
            "uri": format!("data:application/octet-stream;base64,{}", base64(&bytes)),
        }],
        "bufferViews": views,
        "accessors": accessors,
    });
    write_tmp("mixed-channels.gltf", &j)
}

/// A node's local transform, glTF's convention, in f64: rotation `[x, y, z,
/// w]`, translation, scale.
#[derive(Clone, Copy, Debug)]
struct Trs {
    r: [f64; 4],
    t: [f64; 3],
    s: [f64; 3],
}

/// One channel at one time, read again here in f64 (independently of the
/// example): its keys around `t` found by a linear scan, the factor `s`
/// between them in f64, and the keys' values (`[x, y, z, 0]` for
/// translations and scales; for CUBICSPLINE `v_k`, `b_k`, `a_k+1`,
/// `v_k+1`).
struct ChannelAt {
    node: usize,
    what: u8,
    mode: Interpolation,
    s: f64,
    td: f64,
    keys: Vec<[f64; 4]>,
}

fn channels_at(doc: &gltf::Document, buffers: &[gltf::buffer::Data], anim: usize, t: f64) -> Vec<ChannelAt> {
    let mut out = vec![];
    for ch in doc.animations().nth(anim).unwrap().channels() {
        let r = ch.reader(|b| Some(&buffers[b.index()]));
        let times: Vec<f64> = r.read_inputs().unwrap().map(f64::from).collect();
        let (what, values): (u8, Vec<[f64; 4]>) = match r.read_outputs().unwrap() {
            ReadOutputs::Rotations(r) => (b'r', r.into_f32().map(f64x4).collect()),
            ReadOutputs::Translations(v) => (b't', v.map(|[x, y, z]| f64x4([x, y, z, 0.0])).collect()),
            ReadOutputs::Scales(v) => (b's', v.map(|[x, y, z]| f64x4([x, y, z, 0.0])).collect()),
            ReadOutputs::MorphTargetWeights(_) => continue,
        };
        let n = times.len();
        let (k, k1, s) = if t <= times[0] {
            (0, 0, 0.0)
        } else if t >= times[n - 1] {
            (n - 1, n - 1, 0.0)
        } else {
            let k = (0..n - 1).rev().find(|&i| times[i] <= t).unwrap();
            (k, k + 1, (t - times[k]) / (times[k + 1] - times[k]))
        };
        let mode = ch.sampler().interpolation();
        let keys = match mode {
            Interpolation::CubicSpline => {
                vec![values[3 * k + 1], values[3 * k + 2], values[3 * k1], values[3 * k1 + 1]]
            }
            Interpolation::Step => vec![values[k], values[k]],
            Interpolation::Linear => vec![values[k], values[k1]],
        };
        out.push(ChannelAt { node: ch.target().node().index(), what, mode, s, td: times[k1] - times[k], keys });
    }
    out
}

/// The rest pose in f64, rotations normalised.
fn rest_f64(doc: &gltf::Document) -> Vec<Trs> {
    doc.nodes()
        .map(|n| {
            let (t, r, s) = n.transform().decomposed();
            Trs { r: normalize_f64(f64x4(r)), t: t.map(f64::from), s: s.map(f64::from) }
        })
        .collect()
}

/// glTF's cubic Hermite spline in f64, per component.
fn hermite_f64(k: &[[f64; 4]], s: f64, td: f64) -> [f64; 4] {
    let (s2, s3) = (s * s, s * s * s);
    let h = [2.0 * s3 - 3.0 * s2 + 1.0, td * (s3 - 2.0 * s2 + s), -2.0 * s3 + 3.0 * s2, td * (s3 - s2)];
    std::array::from_fn(|e| h[0] * k[0][e] + h[1] * k[1][e] + h[2] * k[3][e] + h[3] * k[2][e])
}

/// The exact sample in f64: every channel at `t` (LINEAR: exact slerp of
/// the normalised keys, linear translation and scale; STEP: key `k`;
/// CUBICSPLINE: the Hermite spline, rotations normalised after), over the
/// rest pose.
fn exact_pose(doc: &gltf::Document, buffers: &[gltf::buffer::Data], anim: usize, t: f64) -> Vec<Trs> {
    let mut pose = rest_f64(doc);
    for c in channels_at(doc, buffers, anim, t) {
        let v = match c.mode {
            Interpolation::CubicSpline => hermite_f64(&c.keys, c.s, c.td),
            _ if c.what == b'r' => slerp_f64(normalize_f64(c.keys[0]), normalize_f64(c.keys[1]), c.s),
            _ => std::array::from_fn(|e| c.keys[0][e] + (c.keys[1][e] - c.keys[0][e]) * c.s),
        };
        let p = &mut pose[c.node];
        match c.what {
            b'r' => p.r = normalize_f64(v),
            b't' => p.t = [v[0], v[1], v[2]],
            _ => p.s = [v[0], v[1], v[2]],
        }
    }
    pose
}

/// The parents (`-1` for a scene root).
fn parents(doc: &gltf::Document) -> Vec<i32> {
    let mut parents = vec![-1; doc.nodes().len()];
    for n in doc.nodes() {
        for c in n.children() {
            parents[c.index()] = n.index() as i32;
        }
    }
    parents
}

/// Model space in f64 (the testkit's `T * R * S` and parent chain).
fn model_f64(pose: &[Trs], parents: &[i32]) -> Vec<[f64; 12]> {
    let locals: Vec<[f64; 12]> = pose.iter().map(|p| trs_f64(p.t, p.r, p.s)).collect();
    local_to_model_f64(&locals, parents)
}

/// The same pose with glam in f32 at the same keys: `Quat::slerp`,
/// `Vec4::lerp`, the Hermite spline on `Vec4`,
/// `Affine3A::from_scale_rotation_translation`, `parent * local`.
fn glam_pose(doc: &gltf::Document, buffers: &[gltf::buffer::Data], anim: usize, t: f64) -> Vec<glam::Affine3A> {
    use glam::{Affine3A, Quat, Vec3, Vec4};
    let v4 = |v: [f64; 4]| Vec4::from_array(v.map(|x| x as f32));
    let v3 = |v: [f64; 3]| Vec3::from_array(v.map(|x| x as f32));
    let mut pose: Vec<(Vec3, Quat, Vec3)> =
        rest_f64(doc).iter().map(|p| (v3(p.s), Quat::from_array(p.r.map(|x| x as f32)), v3(p.t))).collect();
    for c in channels_at(doc, buffers, anim, t) {
        let (s, td) = (c.s as f32, c.td as f32);
        let k: Vec<Vec4> = c.keys.iter().map(|&k| v4(k)).collect();
        let p = &mut pose[c.node];
        let v = match c.mode {
            Interpolation::CubicSpline => {
                let (s2, s3) = (s * s, s * s * s);
                k[0] * (2.0 * s3 - 3.0 * s2 + 1.0)
                    + k[1] * (td * (s3 - 2.0 * s2 + s))
                    + k[3] * (3.0 * s2 - 2.0 * s3)
                    + k[2] * (td * (s3 - s2))
            }
            _ if c.what == b'r' => {
                let (a, b) = (Quat::from_vec4(k[0]).normalize(), Quat::from_vec4(k[1]).normalize());
                Vec4::from(a.slerp(b, s))
            }
            _ => k[0].lerp(k[1], s),
        };
        match c.what {
            b'r' => p.1 = Quat::from_vec4(v).normalize(),
            b't' => p.2 = v.truncate(),
            _ => p.0 = v.truncate(),
        }
    }
    let locals: Vec<Affine3A> =
        pose.iter().map(|&(s, r, t)| Affine3A::from_scale_rotation_translation(s, r, t)).collect();
    let parents = parents(doc);
    let mut model: Vec<Option<Affine3A>> = vec![None; locals.len()];
    fn up(n: usize, l: &[Affine3A], p: &[i32], m: &mut [Option<Affine3A>]) -> Affine3A {
        if let Some(x) = m[n] {
            return x;
        }
        let x = if p[n] < 0 { l[n] } else { up(p[n] as usize, l, p, m) * l[n] };
        m[n] = Some(x);
        x
    }
    (0..locals.len()).map(|n| up(n, &locals, &parents, &mut model)).collect()
}

/// The clip's end: the last key time of any channel.
fn clip_end(doc: &gltf::Document, buffers: &[gltf::buffer::Data], anim: usize) -> f64 {
    let a = doc.animations().nth(anim).unwrap();
    a.channels()
        .map(|ch| ch.reader(|b| Some(&buffers[b.index()])).read_inputs().unwrap().map(f64::from).fold(0.0, f64::max))
        .fold(0.0, f64::max)
}

/// The times each animation is checked at: 121 evenly spaced from 0.5 s
/// before the clip to 0.5 s after it, -1 and end + 1, every key time of
/// every channel, and the middle between consecutive keys (in f32, as the
/// example takes them).
fn times(doc: &gltf::Document, buffers: &[gltf::buffer::Data], anim: usize) -> Vec<f32> {
    let end = clip_end(doc, buffers, anim);
    let mut t: Vec<f32> = (0..=120).map(|i| (-0.5 + (end + 1.0) * i as f64 / 120.0) as f32).collect();
    t.extend([-1.0, end as f32 + 1.0]);
    for ch in doc.animations().nth(anim).unwrap().channels() {
        let keys: Vec<f32> = ch.reader(|b| Some(&buffers[b.index()])).read_inputs().unwrap().collect();
        t.extend(&keys);
        t.extend(keys.windows(2).map(|w| (w[0] + w[1]) / 2.0));
    }
    t.sort_by(f32::total_cmp);
    t.dedup();
    t
}

/// The largest element error of every node of `got` against `want`, in
/// model sizes of `want`.
fn pose_err(got: &[[f32; 12]], want: &[[f64; 12]]) -> f64 {
    let s = model_size(want);
    got.iter().zip(want).map(|(g, w)| mat_max_abs_diff(g, w) / s).fold(0.0, f64::max)
}

/// `sample_at` at many times of every animation of every file, against the
/// exact f64 sample (within [`BOUND`] of the model size), and glam at the
/// same keys (within 1e-5: glam's `slerp` of nearly equal rotations is its
/// own).
#[test]
fn sample_at_against_f64_and_glam() {
    for file in files() {
        let (doc, buffers, _) = gltf::import(&file).unwrap();
        let parents = parents(&doc);
        let (mut worst, mut worst_glam, mut poses) = (0.0f64, 0.0f64, 0);
        for anim in 0..doc.animations().len() {
            for t in times(&doc, &buffers, anim) {
                let got: Vec<[f32; 12]> =
                    example::sample_at(&doc, &buffers, anim, t).unwrap().iter().map(|m| m.mat).collect();
                let want = model_f64(&exact_pose(&doc, &buffers, anim, f64::from(t)), &parents);
                let glam: Vec<[f32; 12]> =
                    glam_pose(&doc, &buffers, anim, f64::from(t)).iter().map(rows_from_affine).collect();
                let (e, g) = (pose_err(&got, &want), pose_err(&glam, &want));
                assert!(e <= BOUND, "{file} animation {anim} t={t}: {e:e} of the model size from the f64 reference");
                assert!(g <= 1e-5, "{file} animation {anim} t={t}: glam {g:e} from the f64 reference");
                (worst, worst_glam, poses) = (worst.max(e), worst_glam.max(g), poses + 1);
            }
        }
        println!(
            "sample_at {file}: {poses} times, worst {worst:.2e} of the model size (bound {BOUND:e}, margin {:.1}x); glam {worst_glam:.2e}",
            BOUND / worst
        );
    }
}

/// `Resampled::pose_at` (30 and 60 Hz) at the same times against its own f64
/// reference, the exact slerp (and lerp) between the f64 exact samples at
/// the two frame times around `t` (within [`BOUND`]), and its distance to
/// the exact sample at `t` (printed; the README and the example's docs
/// quote it).
#[test]
fn resampled_against_f64() {
    for (file, rate) in files().into_iter().flat_map(|f| [(f.clone(), 30.0), (f, 60.0)]) {
        let rate: f64 = rate;
        let (doc, buffers, _) = gltf::import(&file).unwrap();
        let parents = parents(&doc);
        let (mut worst, mut off, mut poses) = (0.0f64, vec![], 0);
        for anim in 0..doc.animations().len() {
            off.push(0.0f64);
            let resampled = example::Resampled::load(&doc, &buffers, anim, rate as f32).unwrap();
            let last = (clip_end(&doc, &buffers, anim) * rate).ceil();
            assert_eq!(f64::from(resampled.duration()), (last / rate) as f32 as f64);
            for t in times(&doc, &buffers, anim) {
                let got: Vec<[f32; 12]> = resampled.pose_at(t).unwrap().iter().map(|m| m.mat).collect();
                let x = (f64::from(t) * rate).clamp(0.0, last);
                let k = x.floor().min((last - 1.0).max(0.0));
                let f = (x - k).min(1.0);
                // The frame times as the example takes them, `k / rate` in f32
                // (in f64, 87 / 30 lies below 2.9f32, a key of a STEP channel).
                let frame = |k: f64| f64::from(k as f32 / rate as f32);
                let a = exact_pose(&doc, &buffers, anim, frame(k));
                let b = exact_pose(&doc, &buffers, anim, frame((k + 1.0).min(last)));
                let blend: Vec<Trs> = a
                    .iter()
                    .zip(&b)
                    .map(|(a, b)| Trs {
                        r: normalize_f64(slerp_f64(a.r, b.r, f)),
                        t: vec3_lerp_f64(a.t, b.t, f),
                        s: vec3_lerp_f64(a.s, b.s, f),
                    })
                    .collect();
                let want = model_f64(&blend, &parents);
                let exact = model_f64(&exact_pose(&doc, &buffers, anim, f64::from(t)), &parents);
                let e = pose_err(&got, &want);
                assert!(e <= BOUND, "{file} animation {anim} t={t}: {e:e} of the model size from the resampled f64");
                (worst, off[anim], poses) = (worst.max(e), off[anim].max(pose_err(&got, &exact)), poses + 1);
            }
        }
        println!(
            "resampled at {rate} Hz {file}: {poses} times, worst {worst:.2e} of the model size (bound {BOUND:e}, margin {:.1}x); from the exact sample, per animation: {}",
            BOUND / worst,
            off.iter().map(|o| format!("{o:.2e}")).collect::<Vec<_>>().join(", ")
        );
    }
}

/// STEP channels give exactly the earlier key's value between keys, each
/// channel clamps to its own first and last key (t = -1, t = end + 1), and
/// the cubic and linear channels hit their keys' values at the keys.
#[test]
fn step_and_clamp_are_exact() {
    let file = mixed_channels();
    let (doc, buffers, _) = gltf::import(&file).unwrap();
    let spec = mixed_spec();
    let pose = |t: f32| example::local_pose(&doc, &buffers, 0, t).unwrap();
    // glTF's rotation to the papers' convention, as the example reads it.
    let quat = |r: &[f32]| {
        let n = r.iter().map(|v| v * v).sum::<f32>().sqrt();
        animasm::Quat::new(r[0] / n, r[1] / n, r[2] / n, r[3] / n).conjugate()
    };
    fn value(c: &Chan, k: usize) -> &[f32] {
        if c.mode == "CUBICSPLINE" { &c.values[3 * k + 1] } else { &c.values[k] }
    }
    for c in &spec {
        let n = c.times.len();
        let check = |t: f32, k: usize, ctx: &str| {
            let (p, s) = pose(t);
            let v = value(c, k);
            let ctx = format!("{} node {} {} at t={t} ({ctx}, key {k})", c.mode, c.node, c.path);
            match c.path {
                // Normalised once more after the blend: within an f32 rounding.
                "rotation" => {
                    let (got, want) = (p[c.node].q.to_array(), quat(v).to_array());
                    assert!((0..4).all(|e| (got[e] - want[e]).abs() <= 2.5e-7), "{ctx}: {got:?} {want:?}")
                }
                "translation" => assert_eq!(p[c.node].t.to_array()[..3], v[..], "{ctx}"),
                _ => assert_eq!(s[c.node][..], v[..], "{ctx}"),
            }
        };
        check(-1.0, 0, "before the clip");
        check(c.times[0] - 0.125, 0, "before the channel's first key");
        check(c.times[n - 1], n - 1, "the last key");
        check(c.times[n - 1] + 1.0, n - 1, "after the clip");
        for k in 0..n {
            check(c.times[k], k, "on a key");
        }
        if c.mode == "STEP" {
            for k in 0..n - 1 {
                for f in [0.001, 0.25, 0.5, 0.999] {
                    let t = c.times[k] + f * (c.times[k + 1] - c.times[k]);
                    check(t, k, "STEP between keys");
                    // Bit for bit the value at the earlier key.
                    let ((p, s), (pk, sk)) = (pose(t), pose(c.times[k]));
                    let (got, want) = match c.path {
                        "rotation" => (p[c.node].q.to_array(), pk[c.node].q.to_array()),
                        _ => (
                            [s[c.node][0], s[c.node][1], s[c.node][2], 0.0],
                            [sk[c.node][0], sk[c.node][1], sk[c.node][2], 0.0],
                        ),
                    };
                    assert_eq!(got, want, "STEP {} at t={t}, key {k}", c.path);
                }
            }
        }
    }
    // The whole pose clamps: before the clip is the pose at 0, after it the pose at the end.
    let model = |t: f32| example::sample_at(&doc, &buffers, 0, t).unwrap();
    assert_eq!(model(-1.0), model(0.0));
    assert_eq!(model(5.0), model(4.0));
    assert_ne!(model(2.0), model(0.0));
}

/// Bad input is an error, not a panic: no such animation, a time that is not
/// finite, a rate that is not positive, a channel whose value count does not
/// match its key times.
#[test]
fn bad_input_is_an_error() {
    let (doc, buffers, _) = gltf::import("data/SimpleSkin.gltf").unwrap();
    let msg = |r: Result<Vec<animasm::JointMat>, Box<dyn std::error::Error>>| r.unwrap_err().to_string();
    assert_eq!(msg(example::sample_at(&doc, &buffers, 1, 0.0)), "the file has no animation 1");
    for t in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert!(msg(example::sample_at(&doc, &buffers, 0, t)).contains("not a finite number"), "{t}");
    }
    for rate in [0.0, -30.0, f32::NAN, f32::INFINITY] {
        assert!(example::Resampled::load(&doc, &buffers, 0, rate).is_err(), "{rate}");
    }
    assert!(example::Resampled::load(&doc, &buffers, 0, 1e30).is_err());
    assert!(example::Resampled::load(&doc, &buffers, 1, 30.0).is_err());
    let r = example::Resampled::load(&doc, &buffers, 0, 30.0).unwrap();
    assert!(msg(r.pose_at(f32::NAN)).contains("not a finite number"));
    // A sampler whose output has one value fewer than its input has times.
    let mut j: Value = serde_json::from_str(&std::fs::read_to_string(mixed_channels()).unwrap()).unwrap();
    let out = j["animations"][0]["samplers"][1]["output"].as_u64().unwrap() as usize;
    j["accessors"][out]["count"] = json!(40);
    let (doc, buffers, _) = gltf::import(write_tmp("mixed-short-output.gltf", &j)).unwrap();
    assert_eq!(msg(example::sample_at(&doc, &buffers, 0, 1.0)), "channel 1: 40 values for 41 key times");
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
    assert!(body.contains("pub fn local_pose"), "the marked example does not hold the sampling function");
    assert!(readme.contains(body), "README.md does not show examples/gltf_skin.rs's example verbatim:\n{body}");
}
