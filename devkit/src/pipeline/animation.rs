//! What is posed: a skin and one animation ([`Animation`]), its keyframe
//! groups ([`Sampler`]), the times the checks and the timing use.

use super::kernels::locate;
use super::*;

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
    /// The model's size, the unit of [`max_error`]: the testkit's one
    /// definition ([`animasm_testkit::error::model_size`]: the largest
    /// distance of a joint from the origin in a reference model-space pose,
    /// at least 1), the largest over the animation's poses: the rest pose
    /// and the f64 reference pose at every key time.
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
            format!(
                "model size {:.4} (animasm_testkit::error::model_size, the largest over {})",
                self.size, self.size_source
            ),
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
