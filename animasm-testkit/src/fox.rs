//! Real animation data: the Khronos sample "Fox" (`Fox.glb`, model CC0-1.0
//! PixelMannen; rigging and animation CC-BY-4.0 tomkranis; glTF conversion
//! CC-BY-4.0 @AsoboStudio, @scurest) and the test vectors derived from it
//! (`Fox.glb.pose.json`).
//!
//! [`pose_json`] and its typed accessors read the JSON; [`animation_rotation_tracks`]
//! reads every animation's rotation keyframes straight from the GLB with a
//! minimal reader (header, JSON chunk, BIN chunk, accessors), so the tests see
//! every keyed quaternion of the file, not only the pairs the JSON picked.
//! [`local_mats`] builds a pose's local joint matrices (with
//! [`crate::oracle`]).
//!
//! # Where the data comes from
//!
//! Both files ship inside the crate, in its `data/` directory, with their
//! licences and attribution (`data/LICENSE.md`), and are compiled into it
//! ([`GLB`], [`POSE_JSON`]): the module works the same from crates.io, a git
//! or path dependency, or this workspace, and nothing is read from disk or
//! fetched at run time. [`GLB_PATH`] and [`POSE_JSON_PATH`] name the files
//! on disk, for tools that take a path (a glTF loader).
//!
//! Every call parses its data again (no cache): in a test that needs
//! several pieces, call each function once and keep the result.
//!
//! # What is in it
//!
//! The Fox is a 24-joint quadruped with three LINEAR animations (Survey 83
//! keys, Walk 18, Run 25); 20 joints have a rotation channel in each. Its
//! consecutive keys are nearly parallel (median dot product about 0.999 in
//! Run), so a slerp's near-identity path is the common case on real data,
//! and about 10% of the keyed quaternions have `w < 0`. The JSON holds the
//! hierarchy, the rest pose, the inverse bind matrices and three pairs of
//! Run keyframes ([`KEY_PAIRS`]) with an f64 local-to-model reference.
//!
//! ```
//! use animasm_testkit::error::rotation_angle;
//! use animasm_testkit::fox;
//! use animasm_testkit::oracle::{f64x4, slerp_f64};
//!
//! // Real keyframe pairs for a slerp test: every consecutive pair of keys.
//! let pairs = fox::consecutive_key_pairs();
//! assert_eq!(pairs.len(), 2460);
//! // The f64 reference reproduces both keys at t = 0 and t = 1.
//! for (a, b) in &pairs {
//!     let (a, b) = (f64x4(*a), f64x4(*b));
//!     assert!(rotation_angle(slerp_f64(a, b, 0.0), a) < 1e-15);
//!     assert!(rotation_angle(slerp_f64(a, b, 1.0), b) < 1e-15);
//! }
//! ```

use animasm::{JointMat, JointQuat, Quat, Vec4};
use serde_json::Value;

/// `Fox.glb`, the whole file (162,852 bytes), compiled into the testkit.
///
/// ```
/// use animasm_testkit::fox::GLB;
/// assert_eq!(&GLB[..4], b"glTF");
/// assert_eq!(GLB.len(), 162_852);
/// ```
pub static GLB: &[u8] = include_bytes!("../data/Fox.glb");

/// `Fox.glb.pose.json`, the whole file, compiled into the testkit.
///
/// ```
/// use animasm_testkit::fox::POSE_JSON;
/// assert!(POSE_JSON.contains("\"parents\""));
/// ```
pub static POSE_JSON: &str = include_str!("../data/Fox.glb.pose.json");

/// The absolute path of `Fox.glb` in the testkit's `data/` directory, fixed
/// when the testkit is compiled: for tools that read a file ([`GLB`] holds
/// its bytes).
///
/// ```
/// use animasm_testkit::fox::{GLB, GLB_PATH};
/// assert!(GLB_PATH.ends_with("/data/Fox.glb"));
/// assert_eq!(std::fs::read(GLB_PATH).unwrap(), GLB);
/// ```
pub const GLB_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/Fox.glb");
/// The absolute path of `Fox.glb.pose.json` in the testkit's `data/`
/// directory, fixed when the testkit is compiled ([`POSE_JSON`] holds its
/// text).
///
/// ```
/// use animasm_testkit::fox::POSE_JSON_PATH;
/// assert!(POSE_JSON_PATH.ends_with("/data/Fox.glb.pose.json"));
/// assert!(std::path::Path::new(POSE_JSON_PATH).is_file());
/// ```
pub const POSE_JSON_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/Fox.glb.pose.json");

/// The names of the keyframe pairs of the Run animation in
/// `Fox.glb.pose.json`: two consecutive keys, two keys far apart, and the
/// consecutive pair with the largest step. Pass one to [`key_pair`].
///
/// ```
/// use animasm_testkit::fox::{key_pair, KEY_PAIRS};
/// for name in KEY_PAIRS {
///     let (from, to) = key_pair(name);
///     assert_eq!((from.len(), to.len()), (24, 24));
///     assert_ne!(from, to);
/// }
/// ```
pub const KEY_PAIRS: [&str; 3] = ["consecutive", "far_apart", "worst_consecutive"];

/// `Fox.glb.pose.json`, parsed, for the fields the typed accessors below do
/// not cover (`joint_names`, `keyframes.<pair>.per_joint_dot`, the Run
/// animation's dot-product statistics, the source and licence).
///
/// Panics if the compiled-in text is not JSON (it is: the doctest below).
///
/// ```
/// let json = animasm_testkit::fox::pose_json();
/// assert_eq!(json["animation"]["name"], "Run");
/// assert_eq!(json["joint_names"].as_array().map(Vec::len), Some(24));
/// ```
pub fn pose_json() -> Value {
    serde_json::from_str(POSE_JSON).unwrap_or_else(|e| panic!("parsing {POSE_JSON_PATH}: {e}"))
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

/// The hierarchy: `parents[]` in skin-joint order, parents first (`-1` for
/// the root, joint 0; every other parent before its joint). 24 joints.
///
/// ```
/// let parents = animasm_testkit::fox::parents();
/// assert_eq!(parents.len(), 24);
/// assert_eq!(parents[0], -1);
/// assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| 0 <= p && (p as usize) < i));
/// ```
pub fn parents() -> Vec<i32> {
    ints(&pose_json(), "parents").into_iter().map(|p| p as i32).collect()
}

/// The glTF node of each skin joint (`joint_nodes[]`): skin joint `j` is
/// node `joint_nodes()[j]` of the GLB. [`RotationTrack::node`] is a node
/// index; this maps it back to a joint.
///
/// ```
/// use animasm_testkit::fox::{animation_rotation_tracks, joint_nodes};
/// let nodes = joint_nodes();
/// assert_eq!(nodes.len(), 24);
/// // Every animated node is a skin joint.
/// assert!(animation_rotation_tracks().iter().all(|t| nodes.contains(&t.node)));
/// ```
pub fn joint_nodes() -> Vec<usize> {
    ints(&pose_json(), "joint_nodes").into_iter().map(|n| n as usize).collect()
}

/// The skin joints with a rotation channel in the JSON's animation (`Run`),
/// in increasing order: 20 of the 24 (the others keep their rest rotation).
///
/// ```
/// use animasm_testkit::fox::{animated_rotation_joints, animation_rotation_tracks, joint_nodes};
/// let joints = animated_rotation_joints();
/// assert_eq!(joints.len(), 20);
/// assert!(joints.windows(2).all(|w| w[0] < w[1]) && joints[19] < 24);
/// // They are the joints of Run's rotation channels.
/// let nodes = joint_nodes();
/// let mut run: Vec<usize> = animation_rotation_tracks()
///     .into_iter()
///     .filter(|t| t.animation == "Run")
///     .map(|t| nodes.iter().position(|&n| n == t.node).unwrap())
///     .collect();
/// run.sort();
/// assert_eq!(run, joints);
/// ```
pub fn animated_rotation_joints() -> Vec<usize> {
    ints(&pose_json(), "animated_rotation_joints").into_iter().map(|n| n as usize).collect()
}

/// The rest pose's local rotations `[x, y, z, w]`, per skin joint (unit
/// quaternions to within f32 rounding).
///
/// ```
/// let rotations = animasm_testkit::fox::rest_rotations();
/// assert_eq!(rotations.len(), 24);
/// for q in &rotations {
///     let norm = q.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
///     assert!((norm - 1.0).abs() < 1e-6);
/// }
/// ```
pub fn rest_rotations() -> Vec<[f32; 4]> {
    list::<4>(&pose_json(), "rest.rotations_xyzw")
}

/// The rest pose's local translations, per skin joint, in the file's units
/// (the root sits at the origin).
///
/// ```
/// let translations = animasm_testkit::fox::rest_translations();
/// assert_eq!(translations.len(), 24);
/// assert_eq!(translations[0], [0.0; 3]);
/// ```
pub fn rest_translations() -> Vec<[f32; 3]> {
    list::<3>(&pose_json(), "rest.translations")
}

/// The skin's inverse bind matrices, 3x4 row-major (`[row * 4 + col]`,
/// translation in column 3), per skin joint.
///
/// ```
/// let inverse_bind = animasm_testkit::fox::inverse_bind();
/// assert_eq!(inverse_bind.len(), 24);
/// // The root's bind pose is the identity.
/// let identity = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
/// assert_eq!(inverse_bind[0], identity); // (-0.0 == 0.0)
/// ```
pub fn inverse_bind() -> Vec<[f32; 12]> {
    list::<12>(&pose_json(), "inverse_bind_3x4_row_major")
}

/// Joints from rotations `[x, y, z, w]` and translations (`w = 1`), one per
/// pair. Panics if the lengths differ.
///
/// ```
/// use animasm_testkit::fox::joints_from;
/// let joints = joints_from(&[[0.0, 0.0, 0.0, 1.0]], &[[1.0, 2.0, 3.0]]);
/// assert_eq!(joints[0].q.to_array(), [0.0, 0.0, 0.0, 1.0]);
/// assert_eq!(joints[0].t.to_array(), [1.0, 2.0, 3.0, 1.0]);
/// ```
pub fn joints_from(rotations: &[[f32; 4]], translations: &[[f32; 3]]) -> Vec<JointQuat> {
    assert_eq!(rotations.len(), translations.len());
    rotations
        .iter()
        .zip(translations)
        .map(|(r, t)| JointQuat::new(Quat::from_array(*r), Vec4::new(t[0], t[1], t[2], 1.0)))
        .collect()
}

/// The two poses of `keyframes.<name>` (one of [`KEY_PAIRS`]) as joint lists:
/// local rotations and translations per skin joint, translation `w = 1`:
/// the `(joints, blend)` input of a `slerp_joints`-style blend. Panics on a
/// name the JSON does not have.
///
/// ```
/// use animasm_testkit::fox::{key_pair, key_poses};
/// let (from, to) = key_pair("far_apart");
/// let poses = key_poses(); // far_apart's are the third and fourth
/// assert_eq!(from[5].q.to_array(), poses[2].rotations[5]);
/// assert_eq!(to[5].q.to_array(), poses[3].rotations[5]);
/// assert!(from.iter().all(|j| j.t.w == 1.0));
/// ```
pub fn key_pair(name: &str) -> (Vec<JointQuat>, Vec<JointQuat>) {
    let json = pose_json();
    let poses = array(field(&json, &format!("keyframes.{name}.poses")), name);
    assert_eq!(poses.len(), 2, "{POSE_JSON_PATH}: keyframes.{name} holds {} poses, not 2", poses.len());
    let pose = |p: &Value| joints_from(&list::<4>(p, "rotations_xyzw"), &list::<3>(p, "translations"));
    (pose(&poses[0]), pose(&poses[1]))
}

/// The rest pose as a joint list (translation `w = 1`): [`joints_from`] of
/// [`rest_rotations`] and [`rest_translations`].
///
/// ```
/// use animasm_testkit::fox::{joints_from, rest_pose, rest_rotations, rest_translations};
/// let rest = rest_pose();
/// assert_eq!(rest.len(), 24);
/// assert_eq!(rest, joints_from(&rest_rotations(), &rest_translations()));
/// ```
pub fn rest_pose() -> Vec<JointQuat> {
    joints_from(&rest_rotations(), &rest_translations())
}

/// A pose's local joint matrices in f64: the standard column-vector rotation
/// of each local quaternion (widened from the f32 data, as the kernels see
/// it; the skeleton paper's `TransformJoint` composes them parent times
/// child) and its translation, 3x4 row-major. Panics if the lengths differ.
///
/// With [`crate::oracle::local_to_model_f64`] and [`parents`] this gives the
/// model-space pose, which matches the JSON's own f64 reference
/// ([`KeyPose::model`]) to within 1e-7 of the model's size on all six poses.
///
/// ```
/// use animasm_testkit::error::model_size;
/// use animasm_testkit::fox::{key_poses, local_mats_f64, parents};
/// use animasm_testkit::oracle::local_to_model_f64;
/// let parents = parents();
/// for pose in key_poses() {
///     let model = local_to_model_f64(&local_mats_f64(&pose.rotations, &pose.translations), &parents);
///     let worst = model
///         .iter()
///         .zip(&pose.model)
///         .flat_map(|(m, r)| m.iter().zip(r).map(|(a, b)| (a - b).abs()))
///         .fold(0.0, f64::max);
///     assert!(worst / model_size(&pose.model) < 1e-7, "{}: {worst:e}", pose.name);
/// }
/// ```
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
/// run on (`transform_skeleton`'s input).
///
/// ```
/// use animasm_testkit::fox::{local_mats, local_mats_f64, rest_rotations, rest_translations};
/// let (r, t) = (rest_rotations(), rest_translations());
/// let mats = local_mats(&r, &t);
/// assert_eq!(mats.len(), 24);
/// assert_eq!(mats[3].mat, local_mats_f64(&r, &t)[3].map(|v| v as f32));
/// assert_eq!(mats[3].translation(), t[3]);
/// ```
pub fn local_mats(rotations: &[[f32; 4]], translations: &[[f32; 3]]) -> Vec<JointMat> {
    local_mats_f64(rotations, translations).into_iter().map(|m| JointMat { mat: m.map(|v| v as f32) }).collect()
}

/// One rotation channel of a glTF animation: the keyframe quaternions
/// `[x, y, z, w]` of `node`, in time order.
///
/// ```
/// use animasm_testkit::fox::{animation_rotation_tracks, joint_nodes};
/// let tracks = animation_rotation_tracks();
/// let track = &tracks[0];
/// assert_eq!(track.animation, "Survey");
/// assert!(joint_nodes().contains(&track.node));
/// assert_eq!(track.keys.len(), 83);
/// ```
#[derive(Clone, Debug)]
pub struct RotationTrack {
    /// The animation's name (`Survey`, `Walk`, `Run`).
    pub animation: String,
    /// The glTF node the channel targets (a node index, see [`joint_nodes`]).
    pub node: usize,
    /// The keyed rotations, as stored (f32, unit to within rounding).
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

/// Parses [`GLB`]: the 12-byte header (`glTF`, version 2, length) and
/// the chunks (JSON first, then an optional BIN).
fn read_glb() -> Glb {
    const MAGIC: u32 = 0x4654_6C67; // "glTF"
    const JSON: u32 = 0x4E4F_534A; // "JSON"
    const BIN: u32 = 0x004E_4942; // "BIN\0"
    let b = GLB;
    assert_eq!(u32_at(b, 0), MAGIC, "{GLB_PATH}: not a GLB file");
    assert_eq!(u32_at(b, 4), 2, "{GLB_PATH}: not glTF 2");
    let total = u32_at(b, 8) as usize;
    assert_eq!(total, b.len(), "{GLB_PATH}: header length {total} != file length {}", b.len());
    let (mut json, mut bin, mut at) = (None, None, 12);
    while at < total {
        let (len, kind) = (u32_at(b, at) as usize, u32_at(b, at + 4));
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

/// Every rotation channel of every animation of `Fox.glb`, in file order:
/// 60 tracks, 20 per animation, of 83 (Survey), 18 (Walk) and 25 (Run)
/// keys. Read straight from the GLB's binary chunk (FLOAT rotations only;
/// the Fox has no other kind). Panics if the file is missing (see [the
/// module docs](self)) or malformed.
///
/// ```
/// let tracks = animasm_testkit::fox::animation_rotation_tracks();
/// assert_eq!(tracks.len(), 60);
/// for (name, keys) in [("Survey", 83), ("Walk", 18), ("Run", 25)] {
///     let of = tracks.iter().filter(|t| t.animation == name);
///     assert_eq!(of.clone().count(), 20);
///     assert!(of.into_iter().all(|t| t.keys.len() == keys));
/// }
/// ```
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
/// animation (Survey, Walk and Run: 1640 + 340 + 480 pairs), `(key k, key
/// k + 1)`, as stored: the real pairs a slerp or nlerp of an animation
/// system blends. 148 are nearly parallel (an f32 dot product whose
/// magnitude rounds to 1.0 or more); the widest is 42.7 degrees apart in 4D
/// ([`crate::error::omega_deg`]), a rotation of 85.5 degrees.
///
/// ```
/// use animasm_testkit::animasm::Quat;
/// use animasm_testkit::error::omega_deg;
/// use animasm_testkit::fox::consecutive_key_pairs;
/// let pairs = consecutive_key_pairs();
/// assert_eq!(pairs.len(), 1640 + 340 + 480);
/// let widest = pairs
///     .iter()
///     .map(|(a, b)| omega_deg(&Quat::from_array(*a), &Quat::from_array(*b)))
///     .fold(0.0, f64::max);
/// assert!(widest < 45.0, "{widest}");
/// ```
pub fn consecutive_key_pairs() -> Vec<([f32; 4], [f32; 4])> {
    animation_rotation_tracks()
        .iter()
        .flat_map(|t| t.keys.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>())
        .collect()
}

/// Every keyed rotation of every animation, in file order (2520 = 60
/// tracks' keys): real quaternions, unit to within f32 rounding, about 10%
/// with `w < 0`.
///
/// ```
/// let keys = animasm_testkit::fox::all_keyed_rotations();
/// assert_eq!(keys.len(), 2520);
/// for q in &keys {
///     let norm = q.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
///     assert!((norm - 1.0).abs() < 1e-6);
/// }
/// assert!(keys.iter().any(|q| q[3] < 0.0));
/// ```
pub fn all_keyed_rotations() -> Vec<[f32; 4]> {
    animation_rotation_tracks().into_iter().flat_map(|t| t.keys).collect()
}

/// Joint lists from rotation pairs: `(from, to)` with the pairs' rotations
/// and translations `(k, -k, 0.5 k, 1)` and `(-k, k, 2 k, 1)` for pair `k`
/// (a deterministic, non-trivial translation for the lerp half of the kernels).
///
/// ```
/// use animasm_testkit::fox::{consecutive_key_pairs, joint_lists_from_pairs};
/// let pairs = consecutive_key_pairs();
/// let (from, to) = joint_lists_from_pairs(&pairs);
/// assert_eq!((from.len(), to.len()), (pairs.len(), pairs.len()));
/// assert_eq!((from[8].q.to_array(), to[8].q.to_array()), pairs[8]);
/// assert_eq!(from[8].t.to_array(), [1.0, -1.0, 0.5, 1.0]); // k = 8 * 0.125
/// assert_eq!(to[8].t.to_array(), [-1.0, 1.0, 2.0, 1.0]);
/// ```
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
///
/// ```
/// use animasm_testkit::fox::key_poses;
/// let pose = &key_poses()[0];
/// assert_eq!(pose.name, "consecutive key 8");
/// assert_eq!((pose.rotations.len(), pose.translations.len(), pose.model.len()), (24, 24, 24));
/// // The root's model matrix is its local transform.
/// assert_eq!([pose.model[0][3], pose.model[0][7], pose.model[0][11]], pose.translations[0].map(f64::from));
/// ```
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

/// The six keyframe poses of the JSON (two per entry of [`KEY_PAIRS`], in
/// that order), each with its f64 model-space reference: the ground truth
/// of a skeleton test on real data (see [`local_mats_f64`]).
///
/// ```
/// let names: Vec<String> = animasm_testkit::fox::key_poses().into_iter().map(|p| p.name).collect();
/// assert_eq!(
///     names,
///     [
///         "consecutive key 8",
///         "consecutive key 9",
///         "far_apart key 0",
///         "far_apart key 12",
///         "worst_consecutive key 16",
///         "worst_consecutive key 17",
///     ]
/// );
/// ```
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
