//! A crowd of characters: every clip of a skinned glTF file (the Fox's
//! three) resampled once to a fixed rate, and characters that each play one
//! clip at their own time, posed with one [`animasm::slerp_pose`] call per
//! character per frame. Used by `examples/crowd.rs` and the wall_clock
//! bench's `pose_crowd` group, which time a frame of the crowd on one core
//! and with rayon (the parallel loop is theirs: this crate has no thread
//! pool).
//!
//! # What a character's frame is
//!
//! [`Crowd::load`] samples each clip ([`pipeline::load_animation`]: skin 0,
//! joints parents first, keys in glTF's convention) at `k / rate` seconds
//! from the clip's first key, for every frame `k` up to the first at or
//! after its last key, with the crate's `slerp_joints` (one call per key-time
//! input, the keys around the frame's time and their factor, as
//! [`pipeline::Poser`] does), every rotation normalised and handed over as
//! its conjugate ([`pipeline::Convention::Conjugate`]). That is done once.
//! Then [`Crowd::pose`] is what an engine does per character per frame: the
//! two frames around the character's time and the factor between them, and
//! one `slerp_pose` with a [`Skin`] into the character's own model and
//! skinning matrices. [`Crowd::pose_chained`] gives the same pose with the
//! crate's separate calls ([`Skeleton::slerp_joints`] on a copy of the first
//! frame, [`animasm::quats_to_mats`], [`Skeleton::local_to_model`],
//! [`animasm::transform_joints`]), for comparison.
//!
//! [`pinned_pool`] is the pool both time the crowd on every core with: a
//! rayon pool with one worker per CPU this process may run on, each pinned
//! to its own, as an engine's job system pins its workers. Unpinned (rayon's
//! global pool), a frame's workers were often both woken on one vCPU of a
//! 2-vCPU virtual machine (an AMD EPYC): half the runs scaled 1.9x, the
//! other half 0.9x, the whole run long.
//!
//! Characters are spread deterministically: character `i` plays clip
//! `i % clips`, from the fraction `i * (golden ratio - 1)` (mod 1) of its
//! length; a character's time at crowd time `t` is its start plus `t`,
//! wrapped to the clip (a clip loops from its last frame to its first).

use animasm::pose::{PoseInput, Skin};
use animasm::{Error, Impl, JointMat, JointQuat, Quat, Skeleton, Vec4};

use crate::pipeline::{self, PoseError};

/// The rate clips are resampled to, in frames per second.
pub const RATE: f32 = 30.0;

/// One clip resampled to [`RATE`]: the local pose (parents first, the
/// kernels' convention) at every frame.
#[derive(Clone, Debug)]
pub struct Clip {
    /// The animation's name.
    pub name: String,
    /// `frames[k]`: every joint's rotation and translation at `k / RATE`
    /// seconds from the clip's first key. At least two.
    pub frames: Vec<Vec<JointQuat>>,
}

impl Clip {
    /// The clip's length in seconds: its last frame's time (it loops from
    /// there to its first).
    pub fn duration(&self) -> f32 {
        (self.frames.len() - 1) as f32 / RATE
    }

    /// The two frames around `t` seconds (wrapped to the clip) and the
    /// factor between them, in `[0, 1)`.
    pub fn locate(&self, t: f32) -> (&[JointQuat], &[JointQuat], f32) {
        let last = self.frames.len() - 1;
        let x = t.rem_euclid(self.duration()) * RATE;
        let k = (x as usize).min(last - 1);
        let f = (x - k as f32).clamp(0.0, 1.0);
        (&self.frames[k], &self.frames[k + 1], f)
    }
}

/// A skeleton, its inverse bind matrices and its clips.
#[derive(Clone, Debug)]
pub struct Crowd {
    /// Every joint's parent, before it (`-1` for a root).
    pub parents: Vec<i32>,
    /// The same hierarchy, for the chained calls.
    pub skeleton: Skeleton,
    /// Every joint's inverse bind matrix.
    pub inverse_bind: Vec<JointMat>,
    /// Every animation of the file, resampled.
    pub clips: Vec<Clip>,
}

/// One character: its clip, where in it it started, its own output.
#[derive(Clone, Debug)]
pub struct Character {
    /// The index of its clip in [`Crowd::clips`].
    pub clip: usize,
    /// Its time at crowd time 0, in seconds into its clip.
    pub start: f32,
    /// Its model matrices, written every frame.
    pub model: Vec<JointMat>,
    /// Its skinning matrices, written every frame.
    pub skin: Vec<JointMat>,
}

impl Crowd {
    /// The bundled Fox ([`pipeline::DEFAULT_PATH`]).
    pub fn fox() -> Result<Crowd, PoseError> {
        Crowd::load(pipeline::DEFAULT_PATH)
    }

    /// Skin 0 of the file at `path` and every one of its animations,
    /// resampled to [`RATE`]. A skeleton whose roots hang below a transform
    /// that is not the identity is refused (a character's model space is
    /// its skeleton's here; the Fox's root node has none).
    pub fn load(path: &str) -> Result<Crowd, PoseError> {
        let count = pipeline::animation_count(path)?;
        let broken = |reason: String| PoseError::Broken { path: path.into(), reason };
        if count == 0 {
            return Err(PoseError::NoAnimation { path: path.into(), reason: "the file has no animation".into() });
        }
        let mut anims = Vec::with_capacity(count);
        for index in 0..count {
            anims.push(pipeline::load_animation(path, index)?);
        }
        let first = &anims[0];
        const IDENTITY: [f64; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        if first.bases.iter().any(|b| b.iter().zip(&IDENTITY).any(|(x, y)| (x - y).abs() > 1e-6)) {
            return Err(PoseError::Unsupported {
                path: path.into(),
                what: "the skeleton's roots hang below a transform that is not the identity".into(),
            });
        }
        let parents = first.parents.clone();
        let skeleton = Skeleton::new(&parents)?;
        let inverse_bind = first.inverse_bind.iter().map(|&mat| JointMat { mat }).collect();
        let mut clips = Vec::with_capacity(count);
        for anim in &anims {
            if anim.parents != parents {
                return Err(broken(format!("animation {} orders the skin's joints differently", anim.index)));
            }
            clips.push(Clip { name: anim.name.clone(), frames: resample(anim)? });
        }
        Ok(Crowd { parents, skeleton, inverse_bind, clips })
    }

    /// The number of joints of a character.
    pub fn joints(&self) -> usize {
        self.parents.len()
    }

    /// `n` characters, spread over the clips and over time (see the module
    /// documentation), their matrices the identity.
    pub fn characters(&self, n: usize) -> Vec<Character> {
        const SPREAD: f64 = 0.618_033_988_749_894_9; // the golden ratio - 1
        (0..n)
            .map(|i| {
                let clip = i % self.clips.len();
                let start = ((i as f64 * SPREAD).fract() * f64::from(self.clips[clip].duration())) as f32;
                let m = vec![JointMat::IDENTITY; self.joints()];
                Character { clip, start, model: m.clone(), skin: m }
            })
            .collect()
    }

    /// `c`'s pose at crowd time `t`: its two frames and their factor, then
    /// one [`animasm::slerp_pose`] (form `imp`) with the skinning stage into
    /// its own buffers.
    #[inline]
    pub fn pose(&self, imp: Impl, c: &mut Character, t: f32) -> Result<(), Error> {
        let (from, to, f) = self.clips[c.clip].locate(c.start + t);
        let skin = Skin { inverse_bind: &self.inverse_bind, mats: &mut c.skin };
        animasm::slerp_pose(imp, &PoseInput::new(from, to, f), &self.parents, &mut c.model, Some(skin))
    }

    /// [`Crowd::pose`] with the crate's separate calls: the first frame
    /// copied into `scratch` (as long as a character's joints), blended in
    /// place with [`Skeleton::slerp_joints`], then
    /// [`animasm::quats_to_mats`], [`Skeleton::local_to_model`] and
    /// [`animasm::transform_joints`], each with form `imp`.
    #[inline]
    pub fn pose_chained(&self, imp: Impl, c: &mut Character, t: f32, scratch: &mut [JointQuat]) -> Result<(), Error> {
        let (from, to, f) = self.clips[c.clip].locate(c.start + t);
        scratch.copy_from_slice(from);
        self.skeleton.slerp_joints(imp, scratch, to, f)?;
        animasm::quats_to_mats(imp, &mut c.model, scratch)?;
        self.skeleton.local_to_model(imp, &mut c.model)?;
        animasm::transform_joints(imp, &mut c.skin, &c.model, &self.inverse_bind)
    }
}

/// `anim`'s local pose at every frame of [`RATE`] from its first key to the
/// first frame at or after its last (see the module documentation).
fn resample(anim: &pipeline::Animation) -> Result<Vec<Vec<JointQuat>>, PoseError> {
    let conj = |r: [f32; 4]| Quat::new(-r[0], -r[1], -r[2], r[3]);
    let rest: Vec<JointQuat> = anim.rest.iter().map(|j| JointQuat::new(conj(j.q.to_array()), j.t)).collect();
    let last = ((anim.end - anim.start) * RATE).ceil().max(1.0) as usize;
    let mut frames = Vec::with_capacity(last + 1);
    for k in 0..=last {
        let t = anim.start + k as f32 / RATE;
        let (mut joints, mut blend) = (rest.clone(), rest.clone());
        for s in &anim.samplers {
            let (k0, k1, f) = s.locate(t);
            let mut index: Vec<i32> =
                s.rotations.iter().map(|r| r.0 as i32).chain(s.translations.iter().map(|r| r.0 as i32)).collect();
            index.sort_unstable();
            index.dedup();
            for &j in &index {
                blend[j as usize] = joints[j as usize];
            }
            for (j, keys) in &s.rotations {
                (joints[*j].q, blend[*j].q) = (conj(keys[k0]), conj(keys[k1]));
            }
            for (j, keys) in &s.translations {
                let v = |[x, y, z]: [f32; 3]| Vec4::new(x, y, z, 1.0);
                (joints[*j].t, blend[*j].t) = (v(keys[k0]), v(keys[k1]));
            }
            if !s.step {
                animasm::slerp_joints(Impl::Auto, &mut joints, &blend, f, &index)?;
            }
        }
        // A slerped quaternion is unit to f32 rounding only; the parent
        // chain would accumulate the difference as a scale.
        for j in &mut joints {
            let a = j.q.to_array();
            let n = a.iter().map(|v| v * v).sum::<f32>().sqrt();
            j.q = Quat::from_array(a.map(|v| v / n));
        }
        frames.push(joints);
    }
    Ok(frames)
}

/// A rayon pool for a crowd frame: one worker per CPU this process may run
/// on, worker `i` pinned to the `i`-th of them (Linux's
/// `sched_setaffinity`; elsewhere, and where the CPUs cannot be read, the
/// workers are not pinned and the pool has one per
/// `std::thread::available_parallelism`). Returns the pool and the CPUs
/// its workers are pinned to (empty when they are not).
#[cfg(not(target_family = "wasm"))]
pub fn pinned_pool() -> Result<(rayon::ThreadPool, Vec<usize>), rayon::ThreadPoolBuildError> {
    let cpus = allowed_cpus();
    let threads =
        if cpus.is_empty() { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { cpus.len() };
    let pinned = cpus.clone();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("crowd-{i}"))
        .start_handler(move |i| {
            if let Some(&cpu) = pinned.get(i)
                && !pin_this_thread(cpu)
            {
                eprintln!("crowd: worker {i} could not be pinned to CPU {cpu}: it runs unpinned");
            }
        })
        .build()?;
    Ok((pool, cpus))
}

/// The CPUs this process may run on (its affinity mask), in order; empty
/// off Linux or when the mask cannot be read.
#[cfg(not(target_family = "wasm"))]
fn allowed_cpus() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `cpu_set_t` is a plain bit array, valid all zeros;
        // `sched_getaffinity` writes at most `size_of::<cpu_set_t>()` bytes
        // into it, and `CPU_ISSET` reads a bit below `CPU_SETSIZE` of it.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
                return Vec::new();
            }
            (0..libc::CPU_SETSIZE as usize).filter(|&c| libc::CPU_ISSET(c, &set)).collect()
        }
    }
    #[cfg(not(target_os = "linux"))]
    Vec::new()
}

/// Pins the calling thread to `cpu`; whether that worked.
#[cfg(not(target_family = "wasm"))]
fn pin_this_thread(cpu: usize) -> bool {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: as in `allowed_cpus`; `cpu` is below `CPU_SETSIZE` (it
        // came from a mask of that size), and `sched_setaffinity(0, ..)`
        // changes only the calling thread's mask.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) == 0
        }
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = cpu;
        false
    }
}
