//! Real animation data: the Khronos sample "Fox" (`data/Fox.glb`, model
//! CC0-1.0 PixelMannen; rigging and animation CC-BY-4.0 tomkranis; glTF
//! conversion CC-BY-4.0 @AsoboStudio, @scurest) and the test vectors derived
//! from it (`data/Fox.glb.pose.json`).
//!
//! [`pose_json`] and its typed accessors read the JSON; [`animation_rotation_tracks`]
//! reads every animation's rotation keyframes straight from the GLB with a
//! minimal reader (header, JSON chunk, BIN chunk, accessors), so the tests see
//! every keyed quaternion of the file, not only the pairs the JSON picked.
//! [`local_mats`] builds a pose's local joint matrices (with
//! [`crate::oracle`]).

use animasm::{JointMat, JointQuat, Quat, Vec4};
use serde_json::Value;

/// `data/Fox.glb`, the crate's own copy.
pub const GLB_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/Fox.glb");
/// `data/Fox.glb.pose.json`, the crate's own copy.
pub const POSE_JSON_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/Fox.glb.pose.json");

/// The names of the keyframe pairs in `Fox.glb.pose.json`.
pub const KEY_PAIRS: [&str; 3] = ["consecutive", "far_apart", "worst_consecutive"];

/// `Fox.glb.pose.json`, parsed.
pub fn pose_json() -> Value {
    let text = std::fs::read_to_string(POSE_JSON_PATH).unwrap_or_else(|e| panic!("reading {POSE_JSON_PATH}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("parsing {POSE_JSON_PATH}: {e}"))
}

fn field<'a>(v: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(v, |v, k| v.get(k).unwrap_or_else(|| panic!("{POSE_JSON_PATH}: no field `{path}` (at `{k}`)")))
}

fn array<'a>(v: &'a Value, what: &str) -> &'a [Value] {
    v.as_array().unwrap_or_else(|| panic!("{POSE_JSON_PATH}: `{what}` is not an array"))
}

fn f32s<const N: usize>(v: &Value, what: &str) -> [f32; N] {
    let a = array(v, what);
    assert_eq!(a.len(), N, "{POSE_JSON_PATH}: `{what}` element has {} values, not {N}", a.len());
    core::array::from_fn(|i| {
        a[i].as_f64().unwrap_or_else(|| panic!("{POSE_JSON_PATH}: `{what}` holds a non-number")) as f32
    })
}

fn list<const N: usize>(v: &Value, path: &str) -> Vec<[f32; N]> {
    array(field(v, path), path).iter().map(|e| f32s::<N>(e, path)).collect()
}

fn ints(v: &Value, path: &str) -> Vec<i64> {
    array(field(v, path), path)
        .iter()
        .map(|e| e.as_i64().unwrap_or_else(|| panic!("{POSE_JSON_PATH}: `{path}` holds a non-integer")))
        .collect()
}

/// `parents[]` in skin-joint order (parents first; `-1` for the root).
pub fn parents() -> Vec<i32> {
    ints(&pose_json(), "parents").into_iter().map(|p| p as i32).collect()
}

/// The glTF node of each skin joint (`joint_nodes[]`).
pub fn joint_nodes() -> Vec<usize> {
    ints(&pose_json(), "joint_nodes").into_iter().map(|n| n as usize).collect()
}

/// The skin joints with a rotation channel in the JSON's animation (`Run`).
pub fn animated_rotation_joints() -> Vec<usize> {
    ints(&pose_json(), "animated_rotation_joints").into_iter().map(|n| n as usize).collect()
}

/// The rest pose's local rotations `[x, y, z, w]`, per skin joint.
pub fn rest_rotations() -> Vec<[f32; 4]> {
    list::<4>(&pose_json(), "rest.rotations_xyzw")
}

/// The rest pose's local translations, per skin joint.
pub fn rest_translations() -> Vec<[f32; 3]> {
    list::<3>(&pose_json(), "rest.translations")
}

/// The inverse bind matrices, 3x4 row-major, per skin joint.
pub fn inverse_bind() -> Vec<[f32; 12]> {
    list::<12>(&pose_json(), "inverse_bind_3x4_row_major")
}

/// Joints from rotations `[x, y, z, w]` and translations (`w = 1`).
pub fn joints_from(rotations: &[[f32; 4]], translations: &[[f32; 3]]) -> Vec<JointQuat> {
    assert_eq!(rotations.len(), translations.len());
    rotations
        .iter()
        .zip(translations)
        .map(|(r, t)| JointQuat::new(Quat::from_array(*r), Vec4::new(t[0], t[1], t[2], 1.0)))
        .collect()
}

/// The two poses of `keyframes.<name>` (one of [`KEY_PAIRS`]) as joint lists:
/// local rotations and translations per skin joint, translation `w = 1`.
pub fn key_pair(name: &str) -> (Vec<JointQuat>, Vec<JointQuat>) {
    let json = pose_json();
    let poses = array(field(&json, &format!("keyframes.{name}.poses")), name);
    assert_eq!(poses.len(), 2, "{POSE_JSON_PATH}: keyframes.{name} holds {} poses, not 2", poses.len());
    let pose = |p: &Value| joints_from(&list::<4>(p, "rotations_xyzw"), &list::<3>(p, "translations"));
    (pose(&poses[0]), pose(&poses[1]))
}

/// The rest pose as a joint list (translation `w = 1`).
pub fn rest_pose() -> Vec<JointQuat> {
    joints_from(&rest_rotations(), &rest_translations())
}

/// A pose's local joint matrices in f64: the standard column-vector rotation
/// of each local quaternion (widened from the f32 data, as the kernels see
/// it; the skeleton paper's `TransformJoint` composes them parent times
/// child) and its translation, 3x4 row-major.
pub fn local_mats_f64(rotations: &[[f32; 4]], translations: &[[f32; 3]]) -> Vec<[f64; 12]> {
    use crate::oracle::{affine_from_f64, quat_to_mat3_f64};
    assert_eq!(rotations.len(), translations.len());
    rotations
        .iter()
        .zip(translations)
        .map(|(q, t)| affine_from_f64(quat_to_mat3_f64(q.map(f64::from)), t.map(f64::from)))
        .collect()
}

/// [`local_mats_f64`] rounded to f32: the local joint matrices the kernels
/// run on.
pub fn local_mats(rotations: &[[f32; 4]], translations: &[[f32; 3]]) -> Vec<JointMat> {
    local_mats_f64(rotations, translations).into_iter().map(|m| JointMat { mat: m.map(|v| v as f32) }).collect()
}

/// One rotation channel of a glTF animation: the keyframe quaternions
/// `[x, y, z, w]` of `node`, in time order.
#[derive(Clone, Debug)]
pub struct RotationTrack {
    /// The animation's name (`Survey`, `Walk`, `Run`).
    pub animation: String,
    /// The glTF node the channel targets.
    pub node: usize,
    /// The keyed rotations.
    pub keys: Vec<[f32; 4]>,
}

/// The two chunks of a GLB file.
struct Glb {
    json: Value,
    bin: Vec<u8>,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let s = b.get(at..at + 4).unwrap_or_else(|| panic!("{GLB_PATH}: truncated at byte {at}"));
    u32::from_le_bytes([s[0], s[1], s[2], s[3]])
}

fn usize_field(v: &Value, key: &str, default: Option<usize>) -> usize {
    match v.get(key) {
        Some(x) => x.as_u64().unwrap_or_else(|| panic!("{GLB_PATH}: `{key}` is not an unsigned integer")) as usize,
        None => default.unwrap_or_else(|| panic!("{GLB_PATH}: missing `{key}` in {v}")),
    }
}

/// Reads `data/Fox.glb`: the 12-byte header (`glTF`, version 2, length) and
/// the chunks (JSON first, then an optional BIN).
fn read_glb() -> Glb {
    const MAGIC: u32 = 0x4654_6C67; // "glTF"
    const JSON: u32 = 0x4E4F_534A; // "JSON"
    const BIN: u32 = 0x004E_4942; // "BIN\0"
    let b = std::fs::read(GLB_PATH).unwrap_or_else(|e| panic!("reading {GLB_PATH}: {e}"));
    assert_eq!(u32_at(&b, 0), MAGIC, "{GLB_PATH}: not a GLB file");
    assert_eq!(u32_at(&b, 4), 2, "{GLB_PATH}: not glTF 2");
    let total = u32_at(&b, 8) as usize;
    assert_eq!(total, b.len(), "{GLB_PATH}: header length {total} != file length {}", b.len());
    let (mut json, mut bin, mut at) = (None, None, 12);
    while at < total {
        let (len, kind) = (u32_at(&b, at) as usize, u32_at(&b, at + 4));
        let data = b.get(at + 8..at + 8 + len).unwrap_or_else(|| panic!("{GLB_PATH}: chunk at {at} overruns the file"));
        match kind {
            JSON if json.is_none() => {
                json = Some(
                    serde_json::from_slice::<Value>(data).unwrap_or_else(|e| panic!("{GLB_PATH}: JSON chunk: {e}")),
                )
            }
            BIN if bin.is_none() => bin = Some(data.to_vec()),
            _ => {} // unknown chunk types are skipped, as the spec says
        }
        at += 8 + len.next_multiple_of(4);
    }
    Glb { json: json.unwrap_or_else(|| panic!("{GLB_PATH}: no JSON chunk")), bin: bin.unwrap_or_default() }
}

impl Glb {
    /// The `VEC4` float elements of accessor `index` (glTF rotation outputs).
    fn vec4_f32(&self, index: usize) -> Vec<[f32; 4]> {
        let acc = &self.json["accessors"][index];
        assert!(acc.is_object(), "{GLB_PATH}: no accessor {index}");
        assert!(acc.get("sparse").is_none(), "{GLB_PATH}: accessor {index} is sparse: not supported");
        assert_eq!(acc["type"], "VEC4", "{GLB_PATH}: accessor {index} is not VEC4");
        let ct = usize_field(acc, "componentType", None);
        assert!(
            ct == 5126,
            "{GLB_PATH}: accessor {index} has componentType {ct}; only 5126 (FLOAT) rotations are supported \
             (glTF also allows normalized 5120/5121/5122/5123: extend fox.rs to read them)"
        );
        let count = usize_field(acc, "count", None);
        let view_index = usize_field(acc, "bufferView", None);
        let view = &self.json["bufferViews"][view_index];
        assert!(view.is_object(), "{GLB_PATH}: no bufferView {view_index}");
        assert_eq!(usize_field(view, "buffer", None), 0, "{GLB_PATH}: bufferView {view_index} is not in the BIN chunk");
        let elem = 16;
        let stride = usize_field(view, "byteStride", Some(elem));
        assert!(stride >= elem, "{GLB_PATH}: bufferView {view_index} stride {stride} < {elem}");
        let start = usize_field(view, "byteOffset", Some(0)) + usize_field(acc, "byteOffset", Some(0));
        let view_end = usize_field(view, "byteOffset", Some(0)) + usize_field(view, "byteLength", None);
        assert!(view_end <= self.bin.len(), "{GLB_PATH}: bufferView {view_index} overruns the BIN chunk");
        (0..count)
            .map(|k| {
                let at = start + k * stride;
                assert!(at + elem <= view_end, "{GLB_PATH}: accessor {index} overruns bufferView {view_index}");
                core::array::from_fn(|c| f32::from_bits(u32_at(&self.bin, at + 4 * c)))
            })
            .collect()
    }
}

/// Every rotation channel of every animation of `Fox.glb`, in file order.
pub fn animation_rotation_tracks() -> Vec<RotationTrack> {
    let glb = read_glb();
    let mut tracks = Vec::new();
    for (a, anim) in glb.json["animations"].as_array().map(Vec::as_slice).unwrap_or_default().iter().enumerate() {
        let name = anim["name"].as_str().map_or_else(|| format!("animation{a}"), str::to_owned);
        for ch in anim["channels"].as_array().map(Vec::as_slice).unwrap_or_default() {
            if ch["target"]["path"] != "rotation" {
                continue;
            }
            let sampler = &anim["samplers"][usize_field(ch, "sampler", None)];
            tracks.push(RotationTrack {
                animation: name.clone(),
                node: usize_field(&ch["target"], "node", None),
                keys: glb.vec4_f32(usize_field(sampler, "output", None)),
            });
        }
    }
    tracks
}

/// Every pair of consecutive keyed rotations of every rotation track of every
/// animation (Survey, Walk and Run: 1640 + 340 + 480 pairs).
pub fn consecutive_key_pairs() -> Vec<([f32; 4], [f32; 4])> {
    animation_rotation_tracks()
        .iter()
        .flat_map(|t| t.keys.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>())
        .collect()
}

/// Every keyed rotation of every animation, in file order.
pub fn all_keyed_rotations() -> Vec<[f32; 4]> {
    animation_rotation_tracks().into_iter().flat_map(|t| t.keys).collect()
}

/// Joint lists from rotation pairs: `(from, to)` with the pairs' rotations
/// and translations `(k, -k, 0.5 k, 1)` and `(-k, k, 2 k, 1)` for pair `k`
/// (a deterministic, non-trivial translation for the lerp half of the kernels).
pub fn joint_lists_from_pairs(pairs: &[([f32; 4], [f32; 4])]) -> (Vec<JointQuat>, Vec<JointQuat>) {
    pairs
        .iter()
        .enumerate()
        .map(|(k, (a, b))| {
            let k = k as f32 * 0.125;
            (
                JointQuat::new(Quat::from_array(*a), Vec4::new(k, -k, 0.5 * k, 1.0)),
                JointQuat::new(Quat::from_array(*b), Vec4::new(-k, k, 2.0 * k, 1.0)),
            )
        })
        .unzip()
}

/// One keyframe pose of `keyframes.<pair>.poses`: its local joints and the
/// JSON's float64 local-to-model reference.
#[derive(Clone, Debug)]
pub struct KeyPose {
    /// `"<pair> key <k>"`.
    pub name: String,
    /// Local rotations `[x, y, z, w]` per skin joint.
    pub rotations: Vec<[f32; 4]>,
    /// Local translations per skin joint.
    pub translations: Vec<[f32; 3]>,
    /// `model_3x4_ref_f64`: model-space 3x4 row-major matrices per joint.
    pub model: Vec<[f64; 12]>,
}

/// The six keyframe poses of the JSON (two per entry of [`KEY_PAIRS`]).
pub fn key_poses() -> Vec<KeyPose> {
    let json = pose_json();
    let mut out = Vec::new();
    for name in KEY_PAIRS {
        let path = format!("keyframes.{name}.poses");
        let poses = array(field(&json, &path), &path);
        assert_eq!(poses.len(), 2, "{POSE_JSON_PATH}: keyframes.{name} holds {} poses, not 2", poses.len());
        for p in poses {
            let model = array(field(p, "model_3x4_ref_f64"), "model_3x4_ref_f64")
                .iter()
                .map(|m| {
                    let m = array(m, "model_3x4_ref_f64");
                    assert_eq!(m.len(), 12, "{POSE_JSON_PATH}: a model matrix has {} values", m.len());
                    core::array::from_fn(|i| m[i].as_f64().expect("a number"))
                })
                .collect();
            out.push(KeyPose {
                name: format!("{name} key {}", field(p, "key")),
                rotations: list::<4>(p, "rotations_xyzw"),
                translations: list::<3>(p, "translations"),
                model,
            });
        }
    }
    out
}
