//! A file to a parsed [`File`]: `.glb` or `.gltf` (external `.bin` files,
//! base64 `data:` URIs), its buffers and accessors.

use super::*;
use std::path::Path;

use gltf::accessor::{DataType, Dimensions};

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
pub(super) struct File {
    pub(super) path: PathBuf,
    pub(super) gltf: gltf::Gltf,
    pub(super) buffers: Vec<Vec<u8>>,
    /// The nodes' and the animations' `name`s (the `gltf` crate reads them
    /// only with its `names` feature, which this crate does not enable).
    pub(super) node_names: Vec<Option<String>>,
    pub(super) animation_names: Vec<Option<String>>,
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
pub(super) fn unit(q: [f32; 4], off: &mut (usize, f64)) -> Option<[f32; 4]> {
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
pub(super) fn affine_from_gltf(m: &[[f32; 4]; 4]) -> Option<[f64; 12]> {
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

    pub(super) fn broken(&self, reason: impl Into<String>) -> PoseError {
        PoseError::Broken { path: self.path.clone(), reason: reason.into() }
    }

    pub(super) fn unsupported(&self, what: impl Into<String>) -> PoseError {
        PoseError::Unsupported { path: self.path.clone(), what: what.into() }
    }

    /// The `N`-component elements of accessor `acc` as f32: FLOAT, or (with
    /// `normalized_ok`) normalized integers as glTF allows for rotations.
    pub(super) fn read<const N: usize>(
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

    pub(super) fn node_name(&self, node: usize) -> String {
        self.node_names.get(node).cloned().flatten().unwrap_or_else(|| format!("node {node}"))
    }
}
