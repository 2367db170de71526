//! The pose pipeline: a skinned, animated glTF 2.0 file through the crate's
//! kernels, end to end, checked against an f64 reference and timed.
//!
//! `#[path]`-included by `examples/pose.rs`, `tests/pose.rs` (and the
//! report); it needs the dev-dependencies `gltf` (without its `import`
//! feature: buffers are resolved here) and `glam`, nothing else.
//!
//! # The API
//!
//! - [`load`] / [`load_animation`]: a file (`.glb`, or `.gltf` with external
//!   `.bin` files or base64 `data:` URIs) to an [`Animation`]: skin 0, its
//!   joints in parents-first order (reordered if the file's are not), the
//!   rest pose, the inverse bind matrices and the keyframes of one animation,
//!   or a [`PoseError`] that says what is wrong (never a panic).
//! - [`Poser`] / [`pipeline`]: one pose with the crate's kernels and a chosen
//!   [`Impl`]: find the keys, [`animasm::slerp_joints`],
//!   [`animasm::quats_to_mats`], [`animasm::transform_skeleton`],
//!   [`animasm::transform_joints`]; the skinning matrices.
//! - [`GlamPoser`] / [`pipeline_glam`]: the same pose with glam (`Quat::slerp`,
//!   `Vec3::lerp`, `Affine3A` products), the peer.
//! - [`pipeline_f64`]: the reference, in f64 with plain arithmetic (exact
//!   slerp with `acos`/`sin`, no kernel of the crate).
//! - [`max_error`]: the distance of a pose to the reference, relative to the
//!   model's size; [`time_per_pose`]: nanoseconds per pose; [`measure`]: all
//!   of it for every available [`Impl`] and glam, as table [`Row`]s.
//!
//! # The convention finding
//!
//! *From Quaternion to Matrix and Back* (paper 002, section 3) stores into a
//! `JointMat` the matrix `M` of Shoemake's 1985 paper, `M[0][1] = 2xy + 2wz`:
//! the matrix of `q` for row vectors (`v' = v M`), the transpose of the
//! column-vector rotation `R(q)` (`R[0][1] = 2xy - 2wz`). *The Skeleton
//! Assembly Line* (paper 004, section 3, `TransformJoint`) composes the same
//! `JointMat`s as column-vector affine transforms: rotation `R_parent *
//! R_child`, translation `R_parent * t_child + t_parent`, which is `[R | t]`
//! with `v' = R v + t` and cannot be read as row vectors. Neither paper says
//! which way its quaternions turn, and together they are consistent only if
//! the quaternion `q` stands for the rotation `R(q)^T = R(q*)`. glTF (and
//! glam) use the Hamilton convention, `v' = q v q*` = `R(q) v`, so a glTF
//! rotation fed to `quats_to_mats` as it is turns every joint the wrong way
//! ([`Convention::AsPublished`]: errors of the order of the model's size).
//! id's engine is consistent with itself: in the public Doom 3 source,
//! `idQuat::ToMat3` writes `mat[0][1] = xy - wz` into an `idMat3` that
//! `vec * mat` applies to row vectors, and `idJointMat::SetRotation`
//! transposes it into the `JointMat` ("idMat3 is transposed because it is
//! column-major"): exactly paper 002's `M`. There a joint quaternion `q`
//! stands for the column-vector rotation `R(q)^T`, the conjugate of what glTF
//! means by `q`. (This is outside the papers; they do not say it.)
//!
//! The pipeline feeds the kernels the conjugates `(-x, -y, -z, w)`
//! ([`Convention::Conjugate`], the default), negated once when the [`Poser`]
//! is built, so it costs nothing per pose, and it is exact: slerp commutes
//! with conjugation bit for bit (the dot product and the weights are the
//! same, the result's `x y z` come out negated), and `quats_to_mats` of `q*`
//! is the transpose of `quats_to_mats` of `q` bit for bit (every element is
//! the same products with exact sign changes; `tests/pose.rs` checks both).
//! Transposing the 3x3 block after `quats_to_mats` would give the same
//! numbers at a cost per joint and per pose.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use animasm::{Impl, JointMat, JointQuat, Quat, Vec4};
use glam::{Affine3A, Mat3A, Quat as GQuat, Vec3, Vec3A};
use gltf::accessor::{DataType, Dimensions};
use gltf::animation::{Interpolation, Property};

/// The bundled default: `data/Fox.glb`.
pub const DEFAULT_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/Fox.glb");

/// How far from 1 a scale (keyed or at rest) may be and still be ignored:
/// the kernels carry rotation and translation only.
pub const SCALE_TOLERANCE: f32 = 1e-4;

/// Why a file cannot go through the pipeline. Every message names the file.
#[derive(Debug)]
pub enum PoseError {
    /// The file, or an external buffer it refers to, cannot be read.
    Missing {
        /// The file given.
        path: PathBuf,
        /// Empty for the file itself, else what could not be read (a
        /// buffer's file, named).
        what: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not a valid glTF 2.0 file, or its data contradicts itself.
    Broken {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file has no skin.
    NoSkin {
        /// The file.
        path: PathBuf,
    },
    /// The file has no animation, not the one asked for, or one that moves
    /// no joint of the skin.
    NoAnimation {
        /// The file.
        path: PathBuf,
        /// What is missing.
        reason: String,
    },
    /// Valid glTF that the pipeline does not handle (cubic splines, scale
    /// that is not 1, sparse accessors, ...).
    Unsupported {
        /// The file.
        path: PathBuf,
        /// What and why.
        what: String,
    },
    /// A kernel refused its input (a bug of the pipeline if it happens).
    Kernel(animasm::Error),
}

impl fmt::Display for PoseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoseError::Missing { path, what, source } => write!(f, "{}: cannot read{what}: {source}", path.display()),
            PoseError::Broken { path, reason } => write!(f, "{}: not a valid glTF 2.0 file: {reason}", path.display()),
            PoseError::NoSkin { path } => {
                write!(f, "{}: the file has no skin (the pipeline needs a skinned model)", path.display())
            }
            PoseError::NoAnimation { path, reason } => write!(f, "{}: {reason}", path.display()),
            PoseError::Unsupported { path, what } => write!(f, "{}: not supported: {what}", path.display()),
            PoseError::Kernel(e) => write!(f, "a kernel refused its input: {e}"),
        }
    }
}

impl std::error::Error for PoseError {}

impl From<animasm::Error> for PoseError {
    fn from(e: animasm::Error) -> Self {
        PoseError::Kernel(e)
    }
}

/// One group of animation channels that share their keyframe times (one
/// input accessor) and interpolation: one `slerp_joints` call per pose.
#[derive(Clone, Debug)]
pub struct Sampler {
    /// The glTF accessor of the key times.
    pub input: usize,
    /// Key times in seconds, non-decreasing; need not start at 0 nor be
    /// evenly spaced.
    pub times: Vec<f32>,
    /// `STEP` (hold key k until key k + 1) rather than `LINEAR`.
    pub step: bool,
    /// `(joint, keys)`: rotation keys `[x, y, z, w]` (glTF's Hamilton
    /// convention), one per time, per pipeline joint.
    pub rotations: Vec<(usize, Vec<[f32; 4]>)>,
    /// `(joint, keys)`: translation keys, one per time, per pipeline joint.
    pub translations: Vec<(usize, Vec<[f32; 3]>)>,
}

impl Sampler {
    /// The keys around `t` and the factor between them: `(k0, k1, f)` with
    /// `times[k0] <= t < times[k1]` and `f` in `[0, 1)`; before the first key
    /// `(0, 0, 0)`, from the last key on `(last, last, 0)` (glTF clamps).
    pub fn locate(&self, t: f32) -> (usize, usize, f32) {
        locate(&self.times, t)
    }

    /// [`Sampler::locate`] in f64, for the reference.
    pub fn locate_f64(&self, t: f64) -> (usize, usize, f64) {
        let n = self.times.len();
        let i = self.times.partition_point(|&x| f64::from(x) <= t);
        if i == 0 {
            (0, 0, 0.0)
        } else if i >= n {
            (n - 1, n - 1, 0.0)
        } else {
            let (t0, t1) = (f64::from(self.times[i - 1]), f64::from(self.times[i]));
            (i - 1, i, (t - t0) / (t1 - t0))
        }
    }
}

/// A skin and one of its animations, ready to pose. Joints are in pipeline
/// order: parents first (the file's skin order when it already is).
#[derive(Clone, Debug)]
pub struct Animation {
    /// The file.
    pub path: PathBuf,
    /// The animation's name (`animation N` when it has none).
    pub name: String,
    /// The animation's index in the file.
    pub index: usize,
    /// How many animations the file has.
    pub animation_count: usize,
    /// How many skins the file has (the pipeline poses skin 0).
    pub skin_count: usize,
    /// Per pipeline joint: its glTF node.
    pub nodes: Vec<usize>,
    /// Per pipeline joint: its node's name (`node N` when it has none).
    pub names: Vec<String>,
    /// Per pipeline joint: its index in the skin's `joints` (the order of
    /// the file's inverse bind matrices and of the meshes' `JOINTS_0`).
    pub skin_joint: Vec<usize>,
    /// Per pipeline joint: its parent joint, before it; `-1` for a root.
    pub parents: Vec<i32>,
    /// Whether the file's joint order was not parents-first (then the
    /// pipeline order is a depth-first walk from the roots).
    pub reordered: bool,
    /// The transforms above the skeleton: per distinct parent node of the
    /// roots, its world transform (3x4 row-major, column vectors) from the
    /// nodes' rest transforms; identity for roots at the top of the scene.
    pub bases: Vec<[f64; 12]>,
    /// Per pipeline joint: for a root, the index of its entry in `bases`.
    pub root_base: Vec<Option<usize>>,
    /// The rest pose (the nodes' own transforms): rotation (glTF's
    /// convention) and translation (`w = 1`), per pipeline joint.
    pub rest: Vec<JointQuat>,
    /// The inverse bind matrices, 3x4 row-major, per pipeline joint.
    pub inverse_bind: Vec<[f32; 12]>,
    /// The keyframes, grouped by time input.
    pub samplers: Vec<Sampler>,
    /// The first key time.
    pub start: f32,
    /// The last key time.
    pub end: f32,
    /// The model's size: the diagonal of the bounding box of the skinned
    /// meshes' bind-pose positions (their `POSITION` min/max), or of the
    /// rest-pose joints when those are missing; the unit of [`max_error`].
    pub size: f64,
    /// What [`Animation::size`] was measured on.
    pub size_source: &'static str,
    /// Things the loader ignored or changed, to tell the reader.
    pub notes: Vec<String>,
}

impl Animation {
    /// The number of joints.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the skeleton has no joint (never, for a loaded animation).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The joints with at least one rotation key.
    pub fn rotated_joints(&self) -> usize {
        let mut set: Vec<usize> = self.samplers.iter().flat_map(|s| s.rotations.iter().map(|r| r.0)).collect();
        set.sort_unstable();
        set.dedup();
        set.len()
    }

    /// The joints with at least one translation key.
    pub fn translated_joints(&self) -> usize {
        let mut set: Vec<usize> = self.samplers.iter().flat_map(|s| s.translations.iter().map(|r| r.0)).collect();
        set.sort_unstable();
        set.dedup();
        set.len()
    }

    /// The skeleton the kernels transform: the [`Animation::bases`] first
    /// (parent `-1`), then the joints, roots hanging from their base.
    pub fn skeleton_parents(&self) -> Vec<i32> {
        let b = self.bases.len() as i32;
        let joints = self
            .parents
            .iter()
            .zip(&self.root_base)
            .map(|(&p, base)| if p >= 0 { p + b } else { base.map_or(0, |i| i as i32) });
        std::iter::repeat_n(-1, self.bases.len()).chain(joints).collect()
    }

    /// A few lines (under 100 columns) on what was loaded.
    pub fn summary(&self) -> Vec<String> {
        let roots: Vec<String> =
            (0..self.len()).filter(|&j| self.parents[j] < 0).map(|j| self.names[j].clone()).collect();
        let keys: usize = self.samplers.iter().map(|s| s.times.len()).max().unwrap_or(0);
        let gaps: Vec<f32> = self.samplers.iter().flat_map(|s| s.times.windows(2).map(|w| w[1] - w[0])).collect();
        let (gmin, gmax) = gaps.iter().fold((f32::INFINITY, 0f32), |(a, b), &g| (a.min(g), b.max(g)));
        let spacing = if gaps.is_empty() {
            "one key per channel".to_string()
        } else if gmax - gmin <= 1e-3 * gmax {
            format!("keys every {gmin:.4} s")
        } else {
            format!("keys {gmin:.4} to {gmax:.4} s apart (non-uniform)")
        };
        let interp = if self.samplers.iter().all(|s| s.step) {
            "STEP"
        } else if self.samplers.iter().any(|s| s.step) {
            "LINEAR and STEP"
        } else {
            "LINEAR"
        };
        let shown: Vec<&str> = roots.iter().take(4).map(String::as_str).collect();
        let more = if roots.len() > 4 { format!(" and {} more", roots.len() - 4) } else { String::new() };
        let mut lines = vec![
            format!(
                "skin 0 of {}: {} joints, {}; {} root{}: {}{more}",
                self.skin_count,
                self.len(),
                if self.reordered { "reordered parents first" } else { "parents first as stored" },
                roots.len(),
                if roots.len() == 1 { "" } else { "s" },
                shown.join(", ")
            ),
            format!(
                "animation {} of {} '{}': up to {keys} keys ({} key-time input{}), {:.4} s to {:.4} s, {interp}",
                self.index,
                self.animation_count,
                self.name,
                self.samplers.len(),
                if self.samplers.len() == 1 { "" } else { "s" },
                self.start,
                self.end
            ),
            spacing,
            format!(
                "{} joint{} with rotation keys ({} at rest), {} with translation keys",
                self.rotated_joints(),
                if self.rotated_joints() == 1 { "" } else { "s" },
                self.len() - self.rotated_joints(),
                self.translated_joints(),
            ),
            format!("model size {:.4} (bounding-box diagonal of the {})", self.size, self.size_source),
        ];
        lines.extend(self.notes.iter().cloned());
        lines
    }

    /// The times the checks pose: before the start, every key, every
    /// midpoint between keys, and after the end, sorted and deduplicated.
    pub fn check_times(&self) -> Vec<f32> {
        let span = (self.end - self.start).max(1e-3);
        let mut times = vec![self.start - 0.1 * span, self.end + 0.1 * span];
        for s in &self.samplers {
            times.extend(&s.times);
            times.extend(s.times.windows(2).map(|w| 0.5 * (w[0] + w[1])));
        }
        times.sort_by(f32::total_cmp);
        times.dedup();
        times
    }

    /// `n` times evenly spread from the first to the last key.
    pub fn timing_times(&self, n: usize) -> Vec<f32> {
        let n = n.max(1);
        let d = if n == 1 { 0.0 } else { (self.end - self.start) / (n - 1) as f32 };
        (0..n).map(|i| self.start + d * i as f32).collect()
    }
}

// ---------------------------------------------------------------------------
// Loading.

/// Skin 0 and animation 0 of the file at `path`.
pub fn load(path: impl AsRef<Path>) -> Result<Animation, PoseError> {
    load_animation(path, 0)
}

/// The number of animations in the file at `path` (0 for a file that has a
/// skin but no animation), or why the file cannot be posed at all.
pub fn animation_count(path: impl AsRef<Path>) -> Result<usize, PoseError> {
    let path = path.as_ref();
    let file = File::open(path)?;
    if file.gltf.skins().len() == 0 {
        return Err(PoseError::NoSkin { path: path.to_path_buf() });
    }
    Ok(file.gltf.animations().len())
}

/// Skin 0 and animation `index` of the file at `path`.
pub fn load_animation(path: impl AsRef<Path>, index: usize) -> Result<Animation, PoseError> {
    let path = path.as_ref();
    let file = File::open(path)?;
    // A last guard: the loader checks what it reads and the `gltf` crate
    // validates the JSON, so a panic here would be a bug; it still becomes
    // an error message rather than a crash.
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| file.animation(index))) {
        Ok(result) => result,
        Err(panic) => {
            let msg = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(PoseError::Broken { path: path.to_path_buf(), reason: format!("the loader panicked: {msg}") })
        }
    }
}

/// A parsed file with its buffers.
struct File {
    path: PathBuf,
    gltf: gltf::Gltf,
    buffers: Vec<Vec<u8>>,
    /// The nodes' and the animations' `name`s (the `gltf` crate reads them
    /// only with its `names` feature, which this crate does not enable).
    node_names: Vec<Option<String>>,
    animation_names: Vec<Option<String>>,
}

/// The `name` of every element of the top-level array `key` of a glTF JSON.
fn names(json: &gltf::json::Value, key: &str) -> Vec<Option<String>> {
    json.get(key)
        .and_then(|v| v.as_array())
        .map(|a| a.iter().map(|e| e.get("name").and_then(|n| n.as_str()).map(str::to_owned)).collect())
        .unwrap_or_default()
}

/// Decodes standard base64 (padding optional, whitespace skipped).
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' => break,
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// `%XX` escapes of a relative URI, decoded.
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `q` normalized in f64 and rounded to f32 when its length is off 1 by
/// more than 1e-6 (counted in `off`: how many, and the largest offset);
/// `None` for a zero quaternion. glTF requires unit rotations; the kernels,
/// like the papers, assume them.
fn unit(q: [f32; 4], off: &mut (usize, f64)) -> Option<[f32; 4]> {
    let n = q.iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
    if n == 0.0 || !n.is_finite() {
        return None;
    }
    if (n - 1.0).abs() <= 1e-6 {
        return Some(q);
    }
    off.0 += 1;
    off.1 = off.1.max((n - 1.0).abs());
    Some(q.map(|v| (f64::from(v) / n) as f32))
}

/// A 3x4 row-major matrix from glTF's column-major 4x4, in f64; `None` if
/// the last row is not `0 0 0 1` (within `1e-4`).
fn affine_from_gltf(m: &[[f32; 4]; 4]) -> Option<[f64; 12]> {
    let last = [m[0][3], m[1][3], m[2][3], m[3][3]];
    let ok = last.iter().zip([0.0, 0.0, 0.0, 1.0]).all(|(&a, b)| (a - b).abs() <= 1e-4);
    ok.then(|| std::array::from_fn(|i| f64::from(m[i % 4][i / 4])))
}

impl File {
    fn open(path: &Path) -> Result<File, PoseError> {
        let bytes = std::fs::read(path).map_err(|source| PoseError::Missing {
            path: path.to_path_buf(),
            what: String::new(),
            source,
        })?;
        let broken = |reason: String| PoseError::Broken { path: path.to_path_buf(), reason };
        let gltf = gltf::Gltf::from_slice(&bytes).map_err(|e| broken(e.to_string()))?;
        let dir = path.parent().unwrap_or(Path::new("."));
        let mut buffers = Vec::new();
        for buffer in gltf.buffers() {
            let i = buffer.index();
            let data = match buffer.source() {
                gltf::buffer::Source::Bin => gltf
                    .blob
                    .clone()
                    .ok_or_else(|| broken(format!("buffer {i} is the GLB binary chunk, which the file lacks")))?,
                gltf::buffer::Source::Uri(uri) if uri.starts_with("data:") => {
                    let (head, data) = uri.split_once(',').unwrap_or((uri, ""));
                    if !head.ends_with(";base64") {
                        return Err(PoseError::Unsupported {
                            path: path.to_path_buf(),
                            what: format!("buffer {i} is a data: URI that is not base64"),
                        });
                    }
                    base64_decode(data).ok_or_else(|| broken(format!("buffer {i}: invalid base64 in its data: URI")))?
                }
                gltf::buffer::Source::Uri(uri) if uri.contains("://") => {
                    return Err(PoseError::Unsupported {
                        path: path.to_path_buf(),
                        what: format!("buffer {i} is at {uri}: only files next to the glTF are read"),
                    });
                }
                gltf::buffer::Source::Uri(uri) => {
                    let file = dir.join(percent_decode(uri));
                    std::fs::read(&file).map_err(|source| PoseError::Missing {
                        path: path.to_path_buf(),
                        what: format!(" buffer {i} ({})", file.display()),
                        source,
                    })?
                }
            };
            if data.len() < buffer.length() {
                return Err(broken(format!(
                    "buffer {i} holds {} bytes, its byteLength says {}",
                    data.len(),
                    buffer.length()
                )));
            }
            buffers.push(data);
        }
        let json_bytes = if bytes.starts_with(b"glTF") {
            gltf::Glb::from_slice(&bytes).map(|g| g.json.into_owned()).unwrap_or_default()
        } else {
            bytes
        };
        let json: gltf::json::Value = gltf::json::deserialize::from_slice(&json_bytes).unwrap_or_default();
        let (node_names, animation_names) = (names(&json, "nodes"), names(&json, "animations"));
        Ok(File { path: path.to_path_buf(), gltf, buffers, node_names, animation_names })
    }

    fn broken(&self, reason: impl Into<String>) -> PoseError {
        PoseError::Broken { path: self.path.clone(), reason: reason.into() }
    }

    fn unsupported(&self, what: impl Into<String>) -> PoseError {
        PoseError::Unsupported { path: self.path.clone(), what: what.into() }
    }

    /// The `N`-component elements of accessor `acc` as f32: FLOAT, or (with
    /// `normalized_ok`) normalized integers as glTF allows for rotations.
    fn read<const N: usize>(
        &self,
        acc: &gltf::Accessor,
        what: &str,
        normalized_ok: bool,
    ) -> Result<Vec<[f32; N]>, PoseError> {
        let i = acc.index();
        let dims = match acc.dimensions() {
            Dimensions::Scalar => 1,
            Dimensions::Vec2 => 2,
            Dimensions::Vec3 => 3,
            Dimensions::Vec4 => 4,
            Dimensions::Mat2 => 4,
            Dimensions::Mat3 => 9,
            Dimensions::Mat4 => 16,
        };
        if dims != N {
            return Err(self.broken(format!("{what}: accessor {i} has {dims} components per element, not {N}")));
        }
        if acc.sparse().is_some() {
            return Err(self.unsupported(format!("{what}: accessor {i} is sparse")));
        }
        let (size, conv): (usize, fn(&[u8]) -> f32) = match acc.data_type() {
            DataType::F32 => (4, |b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            t if !normalized_ok || !acc.normalized() => {
                return Err(self.broken(format!("{what}: accessor {i} holds {t:?}, not FLOAT")));
            }
            DataType::I8 => (1, |b| (f32::from(b[0] as i8) / 127.0).max(-1.0)),
            DataType::U8 => (1, |b| f32::from(b[0]) / 255.0),
            DataType::I16 => (2, |b| (f32::from(i16::from_le_bytes([b[0], b[1]])) / 32767.0).max(-1.0)),
            DataType::U16 => (2, |b| f32::from(u16::from_le_bytes([b[0], b[1]])) / 65535.0),
            t => return Err(self.broken(format!("{what}: accessor {i} holds normalized {t:?}"))),
        };
        let count = acc.count();
        if count == 0 {
            return Err(self.broken(format!("{what}: accessor {i} has no element")));
        }
        let Some(view) = acc.view() else {
            // No buffer view and not sparse: all zeros, as the spec says
            // (bounded: nothing backs the count).
            if count > 1 << 20 {
                return Err(self.broken(format!("{what}: accessor {i} claims {count} elements and no data")));
            }
            return Ok(vec![[0.0; N]; count]);
        };
        let elem = size * N;
        let stride = view.stride().unwrap_or(elem);
        let data = &self.buffers[view.buffer().index()];
        let view_end = view.offset().checked_add(view.length());
        let start = view.offset().checked_add(acc.offset());
        let end = start
            .and_then(|s| stride.checked_mul(count - 1).and_then(|x| x.checked_add(s)))
            .and_then(|x| x.checked_add(elem));
        match (start, end, view_end) {
            (Some(start), Some(end), Some(view_end)) if stride >= elem && end <= view_end && view_end <= data.len() => {
                Ok((0..count)
                    .map(|k| {
                        let at = start + k * stride;
                        std::array::from_fn(|c| conv(&data[at + c * size..at + (c + 1) * size]))
                    })
                    .collect())
            }
            _ => Err(self.broken(format!(
                "{what}: accessor {i} ({count} elements of {elem} bytes, stride {stride}) overruns buffer view {} \
                 or its buffer",
                view.index()
            ))),
        }
    }

    fn node_name(&self, node: usize) -> String {
        self.node_names.get(node).cloned().flatten().unwrap_or_else(|| format!("node {node}"))
    }

    fn animation(&self, index: usize) -> Result<Animation, PoseError> {
        let path = self.path.clone();
        let doc = &self.gltf;
        let node_count = doc.nodes().len();
        let skin_count = doc.skins().len();
        let skin = doc.skins().next().ok_or_else(|| PoseError::NoSkin { path: path.clone() })?;
        let animation_count = doc.animations().len();
        if animation_count == 0 {
            return Err(PoseError::NoAnimation { path, reason: "the file has no animation".into() });
        }
        let anim = doc.animations().nth(index).ok_or_else(|| PoseError::NoAnimation {
            path: path.clone(),
            reason: format!("no animation {index}: the file has {animation_count} (0 to {})", animation_count - 1),
        })?;
        let name = self.animation_names.get(index).cloned().flatten().unwrap_or_else(|| format!("animation {index}"));
        let mut notes = Vec::new();
        if skin_count > 1 {
            notes.push(format!("the file has {skin_count} skins: skin 0 is posed"));
        }

        // The node hierarchy, upwards.
        let mut parent_of: Vec<Option<usize>> = vec![None; node_count];
        for node in doc.nodes() {
            for child in node.children() {
                if parent_of[child.index()].replace(node.index()).is_some() {
                    return Err(self.broken(format!("node {} is the child of two nodes", child.index())));
                }
            }
        }
        let ancestors = |mut n: usize| -> Result<Vec<usize>, PoseError> {
            let mut up = Vec::new();
            while let Some(p) = parent_of[n] {
                up.push(p);
                if up.len() > node_count {
                    return Err(self.broken(format!("the node hierarchy has a cycle through node {p}")));
                }
                n = p;
            }
            Ok(up)
        };

        // The skin's joints and their parents, in skin order.
        let skin_nodes: Vec<usize> = skin.joints().map(|n| n.index()).collect();
        if skin_nodes.is_empty() {
            return Err(self.broken("skin 0 has no joint"));
        }
        let mut joint_of: Vec<Option<usize>> = vec![None; node_count];
        for (j, &n) in skin_nodes.iter().enumerate() {
            if joint_of[n].replace(j).is_some() {
                return Err(self.broken(format!("skin 0 lists node {n} twice")));
            }
        }
        let mut skin_parent: Vec<Option<usize>> = Vec::with_capacity(skin_nodes.len());
        let mut root_parent_node: Vec<Option<usize>> = Vec::with_capacity(skin_nodes.len());
        for &n in &skin_nodes {
            let up = ancestors(n)?;
            match up.first() {
                Some(&p) if joint_of[p].is_some() => {
                    skin_parent.push(joint_of[p]);
                    root_parent_node.push(None);
                }
                first => {
                    if let Some(&a) = up.iter().find(|&&a| joint_of[a].is_some()) {
                        return Err(self.unsupported(format!(
                            "joint '{}' hangs from node '{}', which is not a joint of the skin, below joint '{}'",
                            self.node_name(n),
                            self.node_name(up[0]),
                            self.node_name(a)
                        )));
                    }
                    skin_parent.push(None);
                    root_parent_node.push(first.copied());
                }
            }
        }

        // Parents first: keep the file's order if it is, else walk depth
        // first from the roots (in skin order, children in skin order).
        let parents_first = skin_parent.iter().enumerate().all(|(j, p)| p.is_none_or(|p| p < j));
        let order: Vec<usize> = if parents_first {
            (0..skin_nodes.len()).collect()
        } else {
            let mut children: Vec<Vec<usize>> = vec![Vec::new(); skin_nodes.len()];
            for (j, p) in skin_parent.iter().enumerate() {
                if let Some(p) = *p {
                    children[p].push(j);
                }
            }
            let mut order = Vec::with_capacity(skin_nodes.len());
            let mut stack: Vec<usize> = (0..skin_nodes.len()).filter(|&j| skin_parent[j].is_none()).rev().collect();
            while let Some(j) = stack.pop() {
                order.push(j);
                stack.extend(children[j].iter().rev());
            }
            if order.len() != skin_nodes.len() {
                return Err(self.broken("the skin's joints do not form a tree"));
            }
            let shown = if order.len() <= 16 { format!(": skin joints {order:?}") } else { String::new() };
            notes.push(format!("the file's joint order is not parents first: reordered depth first{shown}"));
            order
        };
        let mut position = vec![0usize; skin_nodes.len()];
        for (i, &j) in order.iter().enumerate() {
            position[j] = i;
        }
        let nodes: Vec<usize> = order.iter().map(|&j| skin_nodes[j]).collect();
        let names: Vec<String> = nodes.iter().map(|&n| self.node_name(n)).collect();
        let parents: Vec<i32> = order.iter().map(|&j| skin_parent[j].map_or(-1, |p| position[p] as i32)).collect();
        debug_assert!(parents.iter().enumerate().all(|(i, &p)| p < i as i32));

        // Which nodes the animation moves, and how.
        let mut animated = vec![false; node_count];
        for ch in anim.channels() {
            animated[ch.target().node().index()] = true;
        }

        // The transforms above the skeleton (static: refused if animated).
        let node_matrix = |n: usize| -> Result<[f64; 12], PoseError> {
            let node = doc.nodes().nth(n).expect("a validated node index");
            affine_from_gltf(&node.transform().matrix()).ok_or_else(|| {
                self.unsupported(format!("node '{}' has a projective matrix (last row not 0 0 0 1)", self.node_name(n)))
            })
        };
        let mut bases: Vec<[f64; 12]> = Vec::new();
        let mut base_of_node: BTreeMap<Option<usize>, usize> = BTreeMap::new();
        let mut root_base = vec![None; nodes.len()];
        for (i, &j) in order.iter().enumerate() {
            if skin_parent[j].is_some() {
                continue;
            }
            let key = root_parent_node[j];
            let b = match base_of_node.get(&key) {
                Some(&b) => b,
                None => {
                    let mut world = IDENTITY_F64;
                    if let Some(p) = key {
                        let mut chain = vec![p];
                        chain.extend(ancestors(p)?);
                        if let Some(&a) = chain.iter().find(|&&a| animated[a]) {
                            return Err(self.unsupported(format!(
                                "node '{}' above the skeleton is animated (only the skin's joints may be)",
                                self.node_name(a)
                            )));
                        }
                        for &a in chain.iter().rev() {
                            world = mul_f64(&world, &node_matrix(a)?);
                        }
                    }
                    bases.push(world);
                    base_of_node.insert(key, bases.len() - 1);
                    bases.len() - 1
                }
            };
            root_base[i] = Some(b);
        }
        if bases.iter().any(|b| *b != IDENTITY_F64) {
            notes.push(format!(
                "{} transform{} above the skeleton (rest transforms of the nodes above the roots) applied",
                bases.len(),
                if bases.len() == 1 { "" } else { "s" }
            ));
        }

        // The rest pose.
        let mut off_unit = (0usize, 0f64);
        let mut rest = Vec::with_capacity(nodes.len());
        for &n in &nodes {
            let node = doc.nodes().nth(n).expect("a validated node index");
            let (t, r, s) = node.transform().decomposed();
            if s.iter().any(|&s| s.is_nan() || (s - 1.0).abs() > SCALE_TOLERANCE) {
                return Err(self.unsupported(format!(
                    "joint '{}' has scale {s:?} at rest: the kernels carry rotation and translation only",
                    self.node_name(n)
                )));
            }
            if r.iter().chain(&t).any(|v| !v.is_finite()) {
                return Err(self.broken(format!("joint '{}' has a non-finite rest transform", self.node_name(n))));
            }
            let r = unit(r, &mut off_unit)
                .ok_or_else(|| self.broken(format!("joint '{}' has a zero rest rotation", self.node_name(n))))?;
            rest.push(JointQuat::new(Quat::from_array(r), Vec4::new(t[0], t[1], t[2], 1.0)));
        }

        // The inverse bind matrices (identity when absent).
        let inverse_bind: Vec<[f32; 12]> = match skin.inverse_bind_matrices() {
            None => {
                notes.push("the skin has no inverse bind matrices: identity, as glTF says".into());
                vec![IDENTITY_F64.map(|v| v as f32); nodes.len()]
            }
            Some(acc) => {
                let m = self.read::<16>(&acc, "inverse bind matrices", false)?;
                if m.len() < skin_nodes.len() {
                    return Err(self.broken(format!(
                        "{} inverse bind matrices for {} joints",
                        m.len(),
                        skin_nodes.len()
                    )));
                }
                let mut out = Vec::with_capacity(nodes.len());
                for &j in &order {
                    let cols: [[f32; 4]; 4] = std::array::from_fn(|c| std::array::from_fn(|r| m[j][c * 4 + r]));
                    let a = affine_from_gltf(&cols).ok_or_else(|| {
                        self.unsupported(format!("the inverse bind matrix of skin joint {j} is projective"))
                    })?;
                    out.push(a.map(|v| v as f32));
                }
                out
            }
        };

        // The keyframes, grouped by time input and interpolation.
        let mut samplers: Vec<Sampler> = Vec::new();
        let mut seen: BTreeSet<(usize, &str)> = BTreeSet::new();
        let (mut ignored, mut scales) = (0usize, 0usize);
        for ch in anim.channels() {
            let node = ch.target().node().index();
            let property = ch.target().property();
            let Some(j) = joint_of[node].map(|j| position[j]) else {
                ignored += 1;
                continue;
            };
            let path_name = match property {
                Property::Rotation => "rotation",
                Property::Translation => "translation",
                Property::Scale => "scale",
                Property::MorphTargetWeights => {
                    ignored += 1;
                    continue;
                }
            };
            if !seen.insert((j, path_name)) {
                return Err(self.broken(format!("two {path_name} channels for joint '{}'", names[j])));
            }
            let sampler = ch.sampler();
            let step = match sampler.interpolation() {
                Interpolation::Linear => false,
                Interpolation::Step => true,
                Interpolation::CubicSpline => {
                    return Err(self.unsupported(format!(
                        "the {path_name} of joint '{}' uses CUBICSPLINE interpolation: the pipeline slerps between \
                         two keys (LINEAR and STEP only)",
                        names[j]
                    )));
                }
            };
            let what = format!("{path_name} keys of joint '{}'", names[j]);
            let input = sampler.input();
            let times: Vec<f32> =
                self.read::<1>(&input, &format!("{what} (times)"), false)?.into_iter().map(|[t]| t).collect();
            if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|w| w[1] < w[0]) {
                return Err(self.broken(format!("{what}: key times are not finite and increasing")));
            }
            let output = sampler.output();
            let check_count = |n: usize| {
                if n == times.len() {
                    Ok(())
                } else {
                    Err(self.broken(format!("{what}: {n} values for {} key times", times.len())))
                }
            };
            let group = match samplers.iter().position(|s| s.input == input.index() && s.step == step) {
                Some(g) => g,
                None => {
                    samplers.push(Sampler {
                        input: input.index(),
                        times: times.clone(),
                        step,
                        rotations: Vec::new(),
                        translations: Vec::new(),
                    });
                    samplers.len() - 1
                }
            };
            match property {
                Property::Rotation => {
                    let keys = self.read::<4>(&output, &what, true)?;
                    check_count(keys.len())?;
                    if keys.iter().flatten().any(|v| !v.is_finite()) {
                        return Err(self.broken(format!("{what}: non-finite values")));
                    }
                    let keys = keys
                        .into_iter()
                        .map(|q| unit(q, &mut off_unit))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| self.broken(format!("{what}: a zero quaternion")))?;
                    samplers[group].rotations.push((j, keys));
                }
                Property::Translation => {
                    let keys = self.read::<3>(&output, &what, false)?;
                    check_count(keys.len())?;
                    if keys.iter().flatten().any(|v| !v.is_finite()) {
                        return Err(self.broken(format!("{what}: non-finite values")));
                    }
                    samplers[group].translations.push((j, keys));
                }
                _ => {
                    let keys = self.read::<3>(&output, &what, false)?;
                    check_count(keys.len())?;
                    if let Some(s) =
                        keys.iter().find(|s| s.iter().any(|&v| v.is_nan() || (v - 1.0).abs() > SCALE_TOLERANCE))
                    {
                        return Err(self.unsupported(format!(
                            "{what}: a key scales by {s:?}; the kernels carry rotation and translation only (scale \
                             keys are ignored when they are all 1 within {SCALE_TOLERANCE:e})"
                        )));
                    }
                    scales += 1;
                }
            }
        }
        samplers.retain(|s| !s.rotations.is_empty() || !s.translations.is_empty());
        if samplers.is_empty() {
            return Err(PoseError::NoAnimation {
                path,
                reason: format!("animation {index} ('{name}') moves no joint of skin 0"),
            });
        }
        if off_unit.0 > 0 {
            notes.push(format!(
                "{} rotation{} not of unit length (|q| off by up to {:.1e}): normalized at load",
                off_unit.0,
                if off_unit.0 == 1 { " was" } else { "s were" },
                off_unit.1
            ));
        }
        if scales > 0 {
            notes.push(format!("{scales} scale channel{} ignored: every key is 1", if scales == 1 { "" } else { "s" }));
        }
        if ignored > 0 {
            notes.push(format!(
                "{ignored} channel{} ignored: morph weights or nodes that are not joints of skin 0",
                if ignored == 1 { "" } else { "s" }
            ));
        }
        let start = samplers.iter().map(|s| s.times[0]).fold(f32::INFINITY, f32::min);
        let end = samplers.iter().map(|s| s.times[s.times.len() - 1]).fold(f32::NEG_INFINITY, f32::max);

        let mut animation = Animation {
            path,
            name,
            index,
            animation_count,
            skin_count,
            nodes,
            names,
            skin_joint: order,
            parents,
            reordered: !parents_first,
            bases,
            root_base,
            rest,
            inverse_bind,
            samplers,
            start,
            end,
            size: 1.0,
            size_source: "",
            notes,
        };
        (animation.size, animation.size_source) = self.model_size(&animation, skin.index());
        Ok(animation)
    }

    /// The bounding-box diagonal of the meshes skinned by `skin` (their
    /// `POSITION` min/max), or of the rest-pose joints.
    fn model_size(&self, anim: &Animation, skin: usize) -> (f64, &'static str) {
        let mut points: Vec<[f64; 3]> = Vec::new();
        for node in self.gltf.nodes().filter(|n| n.skin().is_some_and(|s| s.index() == skin)) {
            for prim in node.mesh().iter().flat_map(|m| m.primitives()) {
                if let Some(acc) = prim.get(&gltf::Semantic::Positions) {
                    let v = |x: Option<gltf::json::Value>| -> Option<[f64; 3]> {
                        let a = x?;
                        let a = a.as_array()?;
                        Some([a.first()?.as_f64()?, a.get(1)?.as_f64()?, a.get(2)?.as_f64()?])
                    };
                    if let (Some(a), Some(b)) = (v(acc.min()), v(acc.max())) {
                        points.extend([a, b]);
                    }
                }
            }
        }
        let mut source = "skinned meshes' POSITION min/max";
        if points.is_empty() {
            source = "rest-pose joints";
            points.extend(reference_world(anim, &rest_locals(anim)).iter().map(|m| [m[3], m[7], m[11]]));
        }
        let lo: [f64; 3] = std::array::from_fn(|c| points.iter().map(|p| p[c]).fold(f64::INFINITY, f64::min));
        let hi: [f64; 3] = std::array::from_fn(|c| points.iter().map(|p| p[c]).fold(f64::NEG_INFINITY, f64::max));
        let d = (0..3).map(|c| (hi[c] - lo[c]).powi(2)).sum::<f64>().sqrt();
        if d.is_finite() && d > 1e-9 { (d, source) } else { (1.0, "none: a point-like model, size 1") }
    }
}

// ---------------------------------------------------------------------------
// The f64 reference: plain arithmetic, no kernel of the crate.

const IDENTITY_F64: [f64; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];

/// `a * b` of two 3x4 affine matrices (row-major, column vectors).
fn mul_f64(a: &[f64; 12], b: &[f64; 12]) -> [f64; 12] {
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

/// Slerp along the shorter arc, exact in f64 (`acos`, `sin`; a plain lerp
/// only where `1 - |cos| < 1e-12`, where it is exact to about 1e-12).
fn slerp_f64(a: [f64; 4], b: [f64; 4], f: f64) -> [f64; 4] {
    let d: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    let sign = if d < 0.0 { -1.0 } else { 1.0 };
    let c = d.abs().min(1.0);
    let (s0, s1) = if 1.0 - c > 1e-12 {
        let omega = c.acos();
        (((1.0 - f) * omega).sin() / omega.sin(), (f * omega).sin() / omega.sin())
    } else {
        (1.0 - f, f)
    };
    std::array::from_fn(|i| s0 * a[i] + sign * s1 * b[i])
}

/// The local pose at rest, in f64: `(rotation, translation)` per joint.
fn rest_locals(anim: &Animation) -> Vec<([f64; 4], [f64; 3])> {
    anim.rest.iter().map(|j| (j.q.to_array().map(f64::from), [j.t.x, j.t.y, j.t.z].map(f64::from))).collect()
}

/// Local joints to world matrices along the parents, in f64.
fn reference_world(anim: &Animation, locals: &[([f64; 4], [f64; 3])]) -> Vec<[f64; 12]> {
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

// ---------------------------------------------------------------------------
// The crate's kernels.

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
fn locate(times: &[f32], t: f32) -> (usize, usize, f32) {
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

// ---------------------------------------------------------------------------
// The glam peer.

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

// ---------------------------------------------------------------------------
// Checks and timing.

/// Nanoseconds per pose of `pose` over `times`, one round: the wall-clock
/// time of posing every time once, divided by their number.
pub fn time_round(pose: &mut dyn FnMut(f32), times: &[f32]) -> f64 {
    let start = Instant::now();
    for &t in times {
        pose(std::hint::black_box(t));
    }
    start.elapsed().as_nanos() as f64 / times.len().max(1) as f64
}

/// Nanoseconds per pose of `pose` over `times`: `(median, minimum)` over
/// `rounds` rounds of [`time_round`], after two untimed rounds.
pub fn time_per_pose(pose: &mut dyn FnMut(f32), times: &[f32], rounds: usize) -> (f64, f64) {
    for _ in 0..2 {
        time_round(pose, times);
    }
    let mut ns: Vec<f64> = (0..rounds.max(1)).map(|_| time_round(pose, times)).collect();
    ns.sort_by(f64::total_cmp);
    (ns[ns.len() / 2], ns[0])
}

/// One line of the pipeline's table.
#[derive(Clone, Debug)]
pub struct Row {
    /// `"animasm asm"`, ..., `"glam"`.
    pub name: String,
    /// [`max_error`] over the checked poses.
    pub max_error: f64,
    /// Median nanoseconds per pose.
    pub ns_per_pose: f64,
    /// Fastest round, nanoseconds per pose.
    pub min_ns_per_pose: f64,
}

impl Row {
    /// Poses per second at the median time.
    pub fn poses_per_second(&self) -> f64 {
        1e9 / self.ns_per_pose
    }
}

/// The largest [`max_error`] of the crate's pipeline with `imp` and
/// `convention` over `times`.
pub fn kernel_error(anim: &Animation, imp: Impl, convention: Convention, times: &[f32]) -> Result<f64, PoseError> {
    let mut poser = Poser::with_convention(anim, convention);
    let mut worst = 0f64;
    for &t in times {
        let got: Vec<[f32; 12]> = poser.pose(imp, t)?.iter().map(|m| m.mat).collect();
        worst = worst.max(max_error(anim, &got, &pipeline_f64(anim, f64::from(t))));
    }
    Ok(worst)
}

/// The largest [`max_error`] of the glam pipeline over `times`.
pub fn glam_error(anim: &Animation, times: &[f32]) -> f64 {
    let mut poser = GlamPoser::new(anim);
    let mut worst = 0f64;
    for &t in times {
        let got: Vec<[f32; 12]> = poser.pose(t).iter().map(rows_from_affine).collect();
        worst = worst.max(max_error(anim, &got, &pipeline_f64(anim, f64::from(t))));
    }
    worst
}

/// Every available [`Impl`] and glam: the max error over `check` against
/// [`pipeline_f64`], and the time per pose over `timed` (`rounds` rounds,
/// round-robin across the pipelines so that drift spreads over all).
pub fn measure(anim: &Animation, check: &[f32], timed: &[f32], rounds: usize) -> Result<Vec<Row>, PoseError> {
    let imps: Vec<Impl> = Impl::ALL.into_iter().filter(|i| i.is_available()).collect();
    let mut rows = Vec::new();
    for &imp in &imps {
        let e = kernel_error(anim, imp, Convention::Conjugate, check)?;
        rows.push(Row { name: format!("animasm {imp}"), max_error: e, ns_per_pose: 0.0, min_ns_per_pose: 0.0 });
    }
    rows.push(Row { name: "glam".into(), max_error: glam_error(anim, check), ns_per_pose: 0.0, min_ns_per_pose: 0.0 });

    let mut posers: Vec<Poser> = imps.iter().map(|_| Poser::new(anim)).collect();
    let mut glam = GlamPoser::new(anim);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(rounds); rows.len()];
    for round in 0..rounds.max(1) + 2 {
        for k in 0..rows.len() {
            let p = (k + round) % rows.len();
            let ns = if p < imps.len() {
                let (poser, imp) = (&mut posers[p], imps[p]);
                time_round(
                    &mut |t| {
                        let _ = std::hint::black_box(poser.pose(imp, t));
                    },
                    timed,
                )
            } else {
                time_round(
                    &mut |t| {
                        std::hint::black_box(glam.pose(t));
                    },
                    timed,
                )
            };
            if round >= 2 {
                samples[p].push(ns);
            }
        }
    }
    for (row, mut ns) in rows.iter_mut().zip(samples) {
        ns.sort_by(f64::total_cmp);
        row.ns_per_pose = ns[ns.len() / 2];
        row.min_ns_per_pose = ns[0];
    }
    Ok(rows)
}
