//! The pose pipeline (`devkit::pipeline`) on the bundled files and
//! on synthetic ones written here: every [`Impl`] and glam against the f64
//! reference, the loader against independent readings of the data, the
//! convention the pipeline resolves, and a clear error (never a panic) for
//! what it cannot pose. A few poses per file: fast.

use animasm_testkit::{fox, oracle};
use devkit::pipeline;

use std::path::{Path, PathBuf};

use animasm::{Impl, JointMat, JointQuat, Quat, Vec4};
use approx::{AbsDiffEq, RelativeEq};
use glam::{DQuat, DVec3};
use pipeline::{Animation, Convention, PoseError};
use serde_json::{Value, json};

/// The bound of the issue: about 1e-5 of the model's size.
const BOUND: f64 = 1e-5;

const SIMPLE_SKIN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/SimpleSkin.gltf");

/// The forms the pipeline offers here (each routine with its own forms: a
/// routine that lacks one runs its nearest, `pipeline::Forms`), and
/// `Deterministic`.
fn imps() -> Vec<Impl> {
    let mut imps = pipeline::Forms::available();
    imps.push(Impl::Deterministic);
    imps
}

/// Every third check time (and the last): a few poses, every kind of time.
fn some_times(anim: &Animation) -> Vec<f32> {
    let all = anim.check_times();
    let mut t: Vec<f32> = all.iter().step_by(3).copied().collect();
    t.push(*all.last().unwrap());
    t
}

/// Checks every implementation and glam against the reference over
/// `times`; returns the worst error.
fn check_all(anim: &Animation, times: &[f32]) -> f64 {
    let mut worst = 0f64;
    for imp in imps() {
        let e = pipeline::kernel_error(anim, imp, Convention::Conjugate, times).unwrap();
        assert!(e <= BOUND, "{}: {imp}: error {e:e} > {BOUND:e}", anim.name);
        worst = worst.max(e);
    }
    let e = pipeline::glam_error(anim, times);
    assert!(e <= BOUND, "{}: glam: error {e:e}", anim.name);
    worst.max(e)
}

#[test]
fn fox_every_animation_matches_the_reference() {
    for a in 0..3 {
        let anim = pipeline::load_animation(pipeline::DEFAULT_PATH, a).unwrap();
        assert_eq!(anim.len(), 24);
        assert!(!anim.reordered);
        assert_eq!(anim.rotated_joints(), 20);
        assert_eq!(anim.translated_joints(), 1);
        assert!(pipeline::rest_bind_error(&anim) < 1e-6, "Fox: rest pose is the bind pose");
        let e = check_all(&anim, &some_times(&anim));
        eprintln!("Fox '{}': worst error {e:.2e} of {:.1}", anim.name, anim.size);
    }
}

#[test]
fn fox_loader_agrees_with_the_minimal_reader_and_the_json() {
    let anim = pipeline::load_animation(pipeline::DEFAULT_PATH, 2).unwrap();
    assert_eq!(anim.name, "Run");
    assert_eq!(anim.parents, fox::parents());
    assert_eq!(anim.nodes, fox::joint_nodes());
    assert_eq!(anim.skin_joint, (0..24).collect::<Vec<_>>());
    let mut animated: Vec<usize> = anim.samplers[0].rotations.iter().map(|r| r.0).collect();
    animated.sort_unstable();
    let mut want = fox::animated_rotation_joints();
    want.sort_unstable();
    assert_eq!(animated, want);
    for (j, (got, want)) in anim.rest.iter().zip(fox::rest_rotations()).enumerate() {
        assert!(got.q.abs_diff_eq(&Quat::from_array(want), 1e-7), "rest rotation {j}: {:?} vs {want:?}", got.q);
    }
    for (j, (got, want)) in anim.inverse_bind.iter().zip(fox::inverse_bind()).enumerate() {
        // Absolute up to 1, relative above.
        let (got, want) = (JointMat { mat: *got }, JointMat { mat: want });
        assert!(got.relative_eq(&want, 1e-5, 1e-5), "IBM {j}: {got:?} vs {want:?}");
    }
    // The Run keys of the JSON are those of the GLB; at a key time the
    // reference's model matrices are the JSON's float64 model matrices.
    let run_keys: Vec<Vec<[f32; 4]>> =
        fox::animation_rotation_tracks().into_iter().filter(|t| t.animation == "Run").map(|t| t.keys).collect();
    let mine: Vec<&Vec<[f32; 4]>> = anim.samplers[0].rotations.iter().map(|r| &r.1).collect();
    assert_eq!(mine.len(), run_keys.len());
    assert!(mine.iter().zip(&run_keys).all(|(a, b)| *a == b));
    let json = fox::pose_json();
    for pair in fox::KEY_PAIRS {
        for p in json["keyframes"][pair]["poses"].as_array().unwrap() {
            let k = p["key"].as_u64().unwrap() as usize;
            let t = anim.samplers[0].times[k];
            assert_eq!(t, p["time"].as_f64().unwrap() as f32);
            let model = pipeline::model_f64(&anim, f64::from(t));
            for (j, m) in p["model_3x4_ref_f64"].as_array().unwrap().iter().enumerate() {
                for (i, v) in m.as_array().unwrap().iter().enumerate() {
                    let d = (model[j][i] - v.as_f64().unwrap()).abs();
                    assert!(d <= 1e-5 * anim.size, "{pair} key {k} joint {j} [{i}]: {d:e}");
                }
            }
        }
    }
}

#[test]
fn simple_skin_with_data_uris() {
    let anim = pipeline::load(SIMPLE_SKIN).unwrap();
    assert_eq!(anim.len(), 2);
    assert_eq!(anim.parents, [-1, 0]);
    assert_eq!(anim.bases.len(), 1, "the root hangs from the (identity) mesh node");
    assert_eq!(anim.samplers.len(), 1);
    assert_eq!(anim.samplers[0].times.len(), 12);
    // Its 0.707 keys are 1.5e-4 off unit length: normalized at load.
    assert!(anim.notes.iter().any(|n| n.contains("normalized")), "{:?}", anim.notes);
    let key = anim.samplers[0].rotations[0].1[2];
    assert!((key.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>() - 1.0).abs() < 1e-6);
    check_all(&anim, &anim.check_times());
    // By hand: at t = 1 (key 2) joint 1 is world T(0, 1, 0) * R(key 2).
    let key = anim.samplers[0].rotations[0].1[2].map(f64::from);
    let world = oracle::joint_mat_gltf_f64(key, [0.0, 1.0, 0.0]);
    let want = oracle::affine_mul_f64(world, anim.inverse_bind[1].map(f64::from));
    for imp in imps() {
        let got = pipeline::pipeline(imp, &anim, 1.0).unwrap();
        assert!(
            want.iter().zip(&got[1]).all(|(a, b)| (a - f64::from(*b)).abs() < 1e-6),
            "{imp}: {want:?} {:?}",
            got[1]
        );
    }
}

#[test]
fn the_conjugate_is_the_transpose_bit_for_bit() {
    // quats_to_mats(q*) == quats_to_mats(q)^T, and slerp(a*, b*) ==
    // slerp(a, b)*, bit for bit, on every keyed rotation of the Fox.
    let keys = fox::all_keyed_rotations();
    let conj = |q: [f32; 4]| Quat::new(-q[0], -q[1], -q[2], q[3]);
    let quats: Vec<JointQuat> =
        keys.iter().map(|&q| JointQuat::new(Quat::from_array(q), Vec4::new(1.0, 2.0, 3.0, 1.0))).collect();
    let conjs: Vec<JointQuat> = quats.iter().map(|j| JointQuat::new(conj(j.q.to_array()), j.t)).collect();
    for imp in animasm::quats_to_mats::forms() {
        let (mut a, mut b) = (vec![JointMat::IDENTITY; quats.len()], vec![JointMat::IDENTITY; quats.len()]);
        animasm::quats_to_mats(imp, &mut a, &quats).unwrap();
        animasm::quats_to_mats(imp, &mut b, &conjs).unwrap();
        for (x, y) in a.iter().zip(&b) {
            for r in 0..3 {
                assert_eq!(x.mat[r * 4 + 3].to_bits(), y.mat[r * 4 + 3].to_bits());
                for c in 0..3 {
                    assert_eq!(x.mat[r * 4 + c].to_bits(), y.mat[c * 4 + r].to_bits(), "{imp}");
                }
            }
        }
    }
    for imp in animasm::slerp_joints::forms() {
        let n = quats.len() - 1;
        let index: Vec<i32> = (0..n as i32).collect();
        for lerp in [0.1f32, 0.5, 0.77] {
            let (mut p, mut q) = (quats[..n].to_vec(), conjs[..n].to_vec());
            animasm::slerp_joints(imp, &mut p, &quats[1..], lerp, &index).unwrap();
            animasm::slerp_joints(imp, &mut q, &conjs[1..], lerp, &index).unwrap();
            for (x, y) in p.iter().zip(&q) {
                let c = conj(x.q.to_array());
                assert_eq!(c.to_array().map(f32::to_bits), y.q.to_array().map(f32::to_bits), "{imp} {lerp}");
            }
        }
    }
}

#[test]
fn the_published_convention_turns_the_joints_the_wrong_way() {
    let anim = pipeline::load_animation(pipeline::DEFAULT_PATH, 2).unwrap();
    let times = [0.1f32, 0.5];
    for imp in imps() {
        let e = pipeline::kernel_error(&anim, imp, Convention::AsPublished, &times).unwrap();
        assert!(e > 0.5, "{imp}: the as-published convention gave {e:e}");
    }
}

// ---------------------------------------------------------------------------
// A synthetic file: joints listed children first, two roots (one under a
// transformed non-joint node, one at the top), keys that start at 0.25 s
// with uneven gaps, a key pair whose dot product is negative, two other
// time inputs (one STEP), joints without channels, an all-1 scale channel.

fn tmp_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("pose-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A unit quaternion `[x, y, z, w]` for `angle` about `axis`, rounded to f32.
fn axis_angle(axis: [f64; 3], angle: f64) -> [f32; 4] {
    let q = DQuat::from_axis_angle(DVec3::from_array(axis).normalize(), angle);
    q.to_array().map(|v| v as f32)
}

/// The synthetic skeleton's definition, in f32 as written to the file.
struct Synth {
    /// Per node: `(translation, rotation)` at rest.
    rest: Vec<([f32; 3], [f32; 4])>,
    /// Per node: parent node.
    parent: Vec<Option<usize>>,
    skin: Vec<usize>,
    times_a: Vec<f32>,
    hip_rot: Vec<[f32; 4]>,
    hip_trans: Vec<[f32; 3]>,
    times_b: Vec<f32>,
    head_rot: Vec<[f32; 4]>,
    times_c: Vec<f32>,
    tip_rot: Vec<[f32; 4]>,
    /// The head's translation, on the STEP input of the tip: one joint in
    /// two `slerp_joints` groups.
    head_trans: Vec<[f32; 3]>,
}

// Nodes: 0 armature (not a joint), 1 mesh, 2 prop root, 3 hip, 4 spine,
// 5 head, 6 prop tip.
const ARMATURE: usize = 0;
const HIP: usize = 3;
const HEAD: usize = 5;
const TIP: usize = 6;

fn synth() -> Synth {
    let qb = axis_angle([0.0, 1.0, 0.0], 1.0);
    Synth {
        rest: vec![
            ([1.0, 2.0, 3.0], axis_angle([0.0, 0.0, 1.0], std::f64::consts::FRAC_PI_2)),
            ([0.0; 3], [0.0, 0.0, 0.0, 1.0]),
            ([0.0, 0.0, -1.0], [0.0, 0.0, 0.0, 1.0]),
            ([0.0, 1.0, 0.0], axis_angle([1.0, 0.0, 0.0], 0.3)),
            ([0.0, 0.5, 0.0], axis_angle([0.0, 0.0, 1.0], -0.2)),
            ([0.0, 0.4, 0.1], axis_angle([0.0, 1.0, 0.0], 0.5)),
            ([0.3, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        ],
        parent: vec![None, None, None, Some(ARMATURE), Some(HIP), Some(4), Some(2)],
        skin: vec![HEAD, 4, TIP, HIP, 2],
        times_a: vec![0.25, 0.5, 1.5, 1.6],
        // Key 2 is stored negated: the arc from key 1 must go the short way.
        hip_rot: vec![
            axis_angle([1.0, 0.0, 0.0], 0.3),
            qb,
            axis_angle([0.0, 1.0, 0.0], 2.0).map(|v| -v),
            axis_angle([1.0, 1.0, 0.0], 0.7),
        ],
        hip_trans: vec![[0.0, 1.0, 0.0], [0.1, 1.1, 0.0], [0.4, 0.9, -0.2], [0.0, 1.0, 0.3]],
        times_b: vec![0.0, 0.7, 2.0],
        head_rot: vec![
            axis_angle([0.0, 1.0, 0.0], 0.5),
            axis_angle([0.0, 0.0, 1.0], 1.2),
            axis_angle([1.0, 0.0, 1.0], -0.9),
        ],
        times_c: vec![0.1, 1.0],
        tip_rot: vec![axis_angle([0.0, 0.0, 1.0], 0.4), axis_angle([0.0, 0.0, 1.0], 1.4)],
        head_trans: vec![[0.0, 0.3, 0.2], [0.1, 0.45, 0.0]],
    }
}

fn keys_at(times: &[f32], t: f64) -> (usize, usize, f64) {
    let i = times.iter().filter(|&&x| f64::from(x) <= t).count();
    match i {
        0 => (0, 0, 0.0),
        i if i == times.len() => (i - 1, i - 1, 0.0),
        i => (i - 1, i, (t - f64::from(times[i - 1])) / f64::from(times[i] - times[i - 1])),
    }
}

impl Synth {
    /// Model space in f64 (the testkit's `[R(q) | t]` and parent chain).
    fn world(&self, locals: &[([f64; 3], [f64; 4])]) -> Vec<[f64; 12]> {
        let locals: Vec<[f64; 12]> = locals.iter().map(|&(t, q)| oracle::joint_mat_gltf_f64(q, t)).collect();
        let parents: Vec<i32> = self.parent.iter().map(|p| p.map_or(-1, |p| p as i32)).collect();
        oracle::local_to_model_f64(&locals, &parents)
    }

    fn rest64(&self) -> Vec<([f64; 3], [f64; 4])> {
        self.rest.iter().map(|(t, q)| (t.map(f64::from), q.map(f64::from))).collect()
    }

    /// The inverse bind matrices: the rest pose is the bind pose.
    fn inverse_bind(&self) -> Vec<[f64; 12]> {
        let world = self.world(&self.rest64());
        self.skin.iter().map(|&n| oracle::affine_inverse_f64(world[n])).collect()
    }

    /// The skinning matrices at `t`, in skin order, computed from the
    /// definition (not from the file).
    fn expected(&self, t: f64) -> Vec<[f64; 12]> {
        let mut locals = self.rest64();
        let w = |k: &[f32; 4]| k.map(f64::from);
        let (a0, a1, fa) = keys_at(&self.times_a, t);
        locals[HIP].1 = oracle::slerp_f64(w(&self.hip_rot[a0]), w(&self.hip_rot[a1]), fa);
        let (p, q) = (self.hip_trans[a0].map(f64::from), self.hip_trans[a1].map(f64::from));
        locals[HIP].0 = oracle::vec3_lerp_f64(p, q, fa);
        let (b0, b1, fb) = keys_at(&self.times_b, t);
        locals[HEAD].1 = oracle::slerp_f64(w(&self.head_rot[b0]), w(&self.head_rot[b1]), fb);
        let (c0, _, _) = keys_at(&self.times_c, t);
        locals[TIP].1 = w(&self.tip_rot[c0]);
        locals[HEAD].0 = self.head_trans[c0].map(f64::from);
        let world = self.world(&locals);
        let ibm = self.inverse_bind();
        self.skin.iter().zip(&ibm).map(|(&n, i)| oracle::affine_mul_f64(world[n], *i)).collect()
    }

    /// The glTF JSON and its binary buffer.
    fn file(&self) -> (Value, Vec<u8>) {
        let mut b = Builder::default();
        let flat4 = |v: &[[f32; 4]]| v.iter().flatten().copied().collect::<Vec<f32>>();
        let flat3 = |v: &[[f32; 3]]| v.iter().flatten().copied().collect::<Vec<f32>>();
        let ta = b.accessor(&self.times_a, "SCALAR", 1);
        let hr = b.accessor(&flat4(&self.hip_rot), "VEC4", 4);
        let ht = b.accessor(&flat3(&self.hip_trans), "VEC3", 3);
        let tb = b.accessor(&self.times_b, "SCALAR", 1);
        let hd = b.accessor(&flat4(&self.head_rot), "VEC4", 4);
        let ones = b.accessor(&[1.0; 9], "VEC3", 3);
        let tc = b.accessor(&self.times_c, "SCALAR", 1);
        let tr = b.accessor(&flat4(&self.tip_rot), "VEC4", 4);
        let hdt = b.accessor(&flat3(&self.head_trans), "VEC3", 3);
        // Column-major, as glam's `to_cols_array` (x, y, z axes, translation).
        let ibm: Vec<f32> = self
            .inverse_bind()
            .iter()
            .flat_map(|m| (0..4).flat_map(move |c| [m[c], m[4 + c], m[8 + c]]))
            .map(|v| v as f32)
            .collect();
        let ibm_matrices: Vec<f32> = ibm
            .chunks(12)
            .flat_map(|c| {
                [c[0], c[1], c[2], 0.0, c[3], c[4], c[5], 0.0, c[6], c[7], c[8], 0.0, c[9], c[10], c[11], 1.0]
            })
            .collect();
        let ibm_acc = b.accessor(&ibm_matrices, "MAT4", 16);
        let pos = b.accessor(&[-1.0, 0.0, -1.0, 1.0, 2.0, 1.0, 0.0, 1.0, 0.0], "VEC3", 3);
        b.accessors[pos]["min"] = json!([-1.0, 0.0, -1.0]);
        b.accessors[pos]["max"] = json!([1.0, 2.0, 1.0]);
        let node = |n: usize, extra: Value| {
            let (t, r) = self.rest[n];
            let name = ["armature", "mesh", "prop", "hip", "spine", "head", "tip"][n];
            let mut v = json!({ "name": name, "translation": t, "rotation": r });
            for (k, x) in extra.as_object().unwrap() {
                v[k] = x.clone();
            }
            v
        };
        let ch = |s: usize, n: usize, path: &str| json!({ "sampler": s, "target": { "node": n, "path": path } });
        let sm = |i: usize, o: usize, interp: &str| json!({ "input": i, "output": o, "interpolation": interp });
        let gltf = json!({
            "asset": { "version": "2.0" },
            "scene": 0,
            "scenes": [{ "nodes": [0, 1, 2] }],
            "nodes": [
                node(0, json!({ "children": [3] })),
                node(1, json!({ "mesh": 0, "skin": 0 })),
                node(2, json!({ "children": [6] })),
                node(3, json!({ "children": [4] })),
                node(4, json!({ "children": [5] })),
                node(5, json!({})),
                node(6, json!({})),
            ],
            "meshes": [{ "primitives": [{ "attributes": { "POSITION": pos } }] }],
            "skins": [{ "joints": self.skin, "inverseBindMatrices": ibm_acc }],
            "animations": [{
                "name": "synthetic",
                "channels": [ch(0, HIP, "rotation"), ch(1, HIP, "translation"), ch(2, HEAD, "rotation"),
                             ch(3, HEAD, "scale"), ch(4, TIP, "rotation"), ch(5, HEAD, "translation")],
                "samplers": [sm(ta, hr, "LINEAR"), sm(ta, ht, "LINEAR"), sm(tb, hd, "LINEAR"),
                             sm(tb, ones, "LINEAR"), sm(tc, tr, "STEP"), sm(tc, hdt, "STEP")],
            }],
            "buffers": [{ "byteLength": b.bin.len() }],
            "bufferViews": b.views,
            "accessors": b.accessors,
        });
        (gltf, b.bin)
    }
}

#[derive(Default)]
struct Builder {
    bin: Vec<u8>,
    views: Vec<Value>,
    accessors: Vec<Value>,
}

impl Builder {
    fn accessor(&mut self, data: &[f32], ty: &str, n: usize) -> usize {
        let offset = self.bin.len();
        self.bin.extend(data.iter().flat_map(|v| v.to_le_bytes()));
        self.views.push(json!({ "buffer": 0, "byteOffset": offset, "byteLength": data.len() * 4 }));
        self.accessors.push(json!({ "bufferView": self.views.len() - 1, "componentType": 5126,
                                    "count": data.len() / n, "type": ty }));
        self.accessors.len() - 1
    }
}

/// Writes `name.gltf` and `name.bin`; returns the `.gltf` path.
fn write_gltf(name: &str, mut json: Value, bin: &[u8]) -> PathBuf {
    let dir = tmp_dir();
    if json["buffers"][0].get("uri").is_none() {
        json["buffers"][0]["uri"] = json!(format!("{name} data.bin"));
    }
    std::fs::write(dir.join(format!("{name} data.bin")), bin).unwrap();
    let path = dir.join(format!("{name}.gltf"));
    std::fs::write(&path, serde_json::to_vec_pretty(&json).unwrap()).unwrap();
    path
}

/// Writes `name.glb` (JSON chunk, BIN chunk); returns its path.
fn write_glb(name: &str, json: &Value, bin: &[u8]) -> PathBuf {
    let mut j = serde_json::to_vec(json).unwrap();
    j.resize(j.len().next_multiple_of(4), b' ');
    let mut b = bin.to_vec();
    b.resize(b.len().next_multiple_of(4), 0);
    let total = 12 + 8 + j.len() + 8 + b.len();
    let mut out = Vec::with_capacity(total);
    out.extend(b"glTF");
    out.extend(2u32.to_le_bytes());
    out.extend((total as u32).to_le_bytes());
    out.extend((j.len() as u32).to_le_bytes());
    out.extend(b"JSON");
    out.extend(&j);
    out.extend((b.len() as u32).to_le_bytes());
    out.extend(b"BIN\0");
    out.extend(&b);
    let path = tmp_dir().join(format!("{name}.glb"));
    std::fs::write(&path, out).unwrap();
    path
}

fn check_synthetic(anim: &Animation, s: &Synth) {
    assert!(anim.reordered, "the skin lists children first");
    assert!(anim.parents.iter().enumerate().all(|(i, &p)| p < i as i32));
    assert_eq!(anim.skin_joint, [3, 1, 0, 4, 2], "depth first from the roots (hip, prop)");
    assert_eq!(anim.bases.len(), 2, "one base for the armature, one for the top of the scene");
    assert_eq!(anim.samplers.len(), 3);
    assert_eq!(anim.start, 0.0);
    assert_eq!(anim.end, 2.0);
    assert!(anim.notes.iter().any(|n| n.contains("scale channel ignored")), "{:?}", anim.notes);
    assert!(pipeline::rest_bind_error(anim) < 1e-6);
    let times = [-1.0f32, 0.0, 0.1, 0.25, 0.3, 0.5, 0.9, 1.0, 1.55, 1.6, 1.7, 2.5];
    check_all(anim, &times);
    // Every pipeline against the definition itself, in skin order.
    let mut poser = pipeline::Poser::new(anim);
    let mut glam = pipeline::GlamPoser::new(anim);
    for &t in &times {
        let want = s.expected(f64::from(t));
        let mut got: Vec<(String, Vec<[f32; 12]>)> = imps()
            .into_iter()
            .map(|i| (i.to_string(), poser.pose(i, t).unwrap().iter().map(|m| m.mat).collect()))
            .collect();
        got.push(("glam".into(), glam.pose(t).iter().map(pipeline::rows_from_affine).collect()));
        got.push((
            "f64".into(),
            pipeline::pipeline_f64(anim, f64::from(t)).iter().map(|m| m.map(|v| v as f32)).collect(),
        ));
        for (name, pose) in got {
            for (i, m) in pose.iter().enumerate() {
                let w = &want[anim.skin_joint[i]];
                let d = (0..12).map(|k| (f64::from(m[k]) - w[k]).abs()).fold(0.0, f64::max);
                assert!(d < 2e-5, "{name} t={t} joint {i} ({}): {d:e}", anim.names[i]);
            }
        }
    }
}

#[test]
fn synthetic_gltf_and_glb() {
    let s = synth();
    let (json, bin) = s.file();
    let anim = pipeline::load(write_gltf("synthetic", json.clone(), &bin)).unwrap();
    check_synthetic(&anim, &s);
    let anim = pipeline::load(write_glb("synthetic", &json, &bin)).unwrap();
    check_synthetic(&anim, &s);
    // The same buffer as a base64 data: URI.
    let mut j = json.clone();
    j["buffers"][0]["uri"] = json!(format!("data:application/octet-stream;base64,{}", base64(&bin)));
    let anim = pipeline::load(write_gltf("synthetic-embedded", j, &[])).unwrap();
    check_synthetic(&anim, &s);
}

fn base64(b: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in b.chunks(3) {
        let n =
            (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            out.push(if k <= c.len() { A[(n >> (18 - 6 * k)) as usize & 63] as char } else { '=' });
        }
    }
    out
}

/// Loads the synthetic file changed by `edit` and returns the error.
fn refusal(name: &str, edit: impl FnOnce(&mut Value)) -> PoseError {
    let (mut json, bin) = synth().file();
    edit(&mut json);
    match pipeline::load(write_gltf(name, json, &bin)) {
        Ok(_) => panic!("{name}: loaded"),
        Err(e) => {
            eprintln!("{name}: {e}");
            e
        }
    }
}

#[test]
fn what_the_pipeline_cannot_pose_is_refused_clearly() {
    use PoseError::*;
    let e = refusal("cubic", |j| j["animations"][0]["samplers"][0]["interpolation"] = json!("CUBICSPLINE"));
    assert!(matches!(&e, Unsupported { what, .. } if what.contains("CUBICSPLINE")), "{e}");
    // The scale keys read the head's rotation keys, which are not all 1.
    let e = refusal("scale-keys", |j| j["accessors"][5]["bufferView"] = json!(4));
    assert!(matches!(&e, Unsupported { what, .. } if what.contains("scale")), "{e}");
    let e = refusal("scale-rest", |j| j["nodes"][4]["scale"] = json!([2.0, 2.0, 2.0]));
    assert!(matches!(&e, Unsupported { what, .. } if what.contains("scale")), "{e}");
    let e = refusal("no-skin", |j| {
        j.as_object_mut().unwrap().remove("skins");
        j["nodes"][1].as_object_mut().unwrap().remove("skin");
    });
    assert!(matches!(e, NoSkin { .. }), "{e}");
    let e = refusal("no-animation", |j| {
        j.as_object_mut().unwrap().remove("animations");
    });
    assert!(matches!(&e, NoAnimation { reason, .. } if reason.contains("no animation")), "{e}");
    let e = refusal("missing-bin", |j| j["buffers"][0]["uri"] = json!("nowhere.bin"));
    assert!(matches!(&e, Missing { what, .. } if what.contains("nowhere.bin")), "{e}");
    let e = refusal("not-base64", |j| j["buffers"][0]["uri"] = json!("data:application/octet-stream,abc"));
    assert!(matches!(e, Unsupported { .. }), "{e}");
    let e = refusal("overrun", |j| j["accessors"][0]["count"] = json!(1000));
    assert!(matches!(&e, Broken { reason, .. } if reason.contains("overruns")), "{e}");
    let e = refusal("joint-twice", |j| j["skins"][0]["joints"] = json!([5, 4, 6, 3, 3]));
    assert!(matches!(e, Broken { .. }), "{e}");
    // The spine is no longer a joint: the head hangs from a non-joint below the hip.
    let e = refusal("gap", |j| j["skins"][0]["joints"] = json!([5, 6, 3, 2]));
    assert!(matches!(&e, Unsupported { what, .. } if what.contains("not a joint")), "{e}");
    let e = refusal("animated-above", |j| {
        j["animations"][0]["channels"].as_array_mut().unwrap().push(json!({ "sampler": 0,
            "target": { "node": ARMATURE, "path": "rotation" } }))
    });
    assert!(matches!(&e, Unsupported { what, .. } if what.contains("above the skeleton")), "{e}");
    let e = refusal("nothing-animated", |j| {
        for c in j["animations"][0]["channels"].as_array_mut().unwrap() {
            c["target"]["node"] = json!(1);
        }
    });
    assert!(matches!(&e, NoAnimation { reason, .. } if reason.contains("moves no joint")), "{e}");
    let e = refusal("cycle", |j| j["nodes"][6]["children"] = json!([2]));
    assert!(matches!(e, Broken { .. }), "{e}");
    let e = refusal("times-backwards", |j| j["accessors"][0]["bufferView"] = json!(2));
    assert!(matches!(e, Broken { .. }), "{e}");

    let path = write_gltf("ok", synth().file().0, &synth().file().1);
    let e = pipeline::load_animation(&path, 1).unwrap_err();
    assert!(matches!(&e, NoAnimation { reason, .. } if reason.contains("no animation 1")), "{e}");

    let e = pipeline::load(tmp_dir().join("does-not-exist.glb")).unwrap_err();
    assert!(matches!(&e, Missing { what, .. } if what.is_empty()), "{e}");
    let garbage = tmp_dir().join("garbage.glb");
    std::fs::write(&garbage, b"this is not glTF").unwrap();
    assert!(matches!(pipeline::load(&garbage), Err(Broken { .. })));
    let truncated = tmp_dir().join("truncated.glb");
    std::fs::write(&truncated, &std::fs::read(pipeline::DEFAULT_PATH).unwrap()[..5000]).unwrap();
    let e = pipeline::load(&truncated).unwrap_err();
    assert!(matches!(e, Broken { .. }), "{e}");
    assert!(e.to_string().contains("truncated.glb"), "{e}");
}
