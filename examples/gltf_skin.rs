//! `cargo run --release --example gltf_skin [-- PATH [ANIMATION TIME]]`:
//! the README's conventions example. It loads a glTF 2.0 file (default the
//! bundled `data/Fox.glb`) with the `gltf` crate, samples animation
//! `ANIMATION` (default 0) at `TIME` seconds (default 0.5) with
//! [`sample_at`], and prints skin 0's joints; then it resamples the clip at
//! 30 Hz once ([`Resampled`]) and prints how far that pose lies from the
//! exact one. Bad input (no such animation, a time that is not a finite
//! number, a channel whose value count does not match its key times) is an
//! error message. `tests/gltf_example.rs` checks both against an f64
//! reference, and that the README shows [`local_pose`] (the sampling)
//! verbatim.
//!
//! # Sampling at a time (`local_pose`, `sample_at`)
//!
//! Every node starts from its rest pose (its translation, rotation and
//! scale, or its decomposed matrix). Each channel of the animation then sets
//! one property of one node from its own sampler: its key times are searched
//! (binary search) for the key `k` at or before `t` and the key `k + 1`
//! after it, with the channel's own factor `s = (t - t_k) / (t_k+1 - t_k)`.
//! Channels with different key counts or time grids are therefore each
//! sampled at the same `t`.
//!
//! - `LINEAR`: rotations by shortest-arc slerp of the two keys (each key
//!   normalised as it is read; glTF requires unit quaternions and exporters
//!   round them), translations and scales linearly.
//! - `STEP`: the value of key `k`: bit for bit the pose at `t_k` (a
//!   translation or scale is the key itself; a rotation the normalised key).
//! - `CUBICSPLINE`: glTF's cubic Hermite spline over the (in-tangent, value,
//!   out-tangent) triples, `p = (2s^3-3s^2+1) v_k + td (s^3-2s^2+s) b_k +
//!   (-2s^3+3s^2) v_k+1 + td (s^3-s^2) a_k+1` with `td = t_k+1 - t_k`, in
//!   f32 per component; a rotation is normalised afterwards.
//! - Outside a channel's keys the channel clamps: before its first key it
//!   gives the first key's value, at or after its last key the last one
//!   (`t = -1` is the pose of the first keys, `t = end + 1` that of the
//!   last). Each channel clamps to its own keys.
//!
//! The interpolation itself is animasm's [`slerp_joints`](animasm::slerp_joints()),
//! one call per channel with a 1-element index list: the kernels take one
//! factor per call, and here every channel has its own (its own keys
//! around `t`). The channel's value goes in one `JointQuat` (a rotation in
//! `q`, a translation or a scale in `t`, which the kernel lerps); `STEP`,
//! cubic and clamped channels call with factor 0, which copies the first
//! operand exactly (the kernels' endpoint rule). The slerped rotation is
//! normalised once more: a slerped quaternion is unit only to f32 rounding
//! (on the Fox's consecutive keys, at 1001 factors: 2.7e-7 off with the
//! successors `Auto` picks on x86, 5.8e-7 with the listings' forms), and
//! `quats_to_mats` turns that into a scale that the parent chain
//! accumulates (it was the largest error on the Fox, 1.2e-6 of the model
//! size, before). Grouping the channels that share a factor into one call (on the
//! Fox every channel of an animation shares one time grid) would save calls
//! and give the same values; this function stays the plain reference, and
//! [`Resampled`] below shows the way to one call per pose. Then
//! [`to_model`]: one call of the whole-pose routine, a [`Skeleton`]'s
//! `slerp_pose` at factor 0 (no blend): `[R | t]`, the scale (`R * S`) and
//! `parent * local`, with the nodes in any order, several roots and
//! non-joint ancestors. (Its blend is not used here: the slerped rotations
//! are normalised once more first, which a blend inside the call would
//! skip.)
//!
//! # Resampling once at load (`Resampled`)
//!
//! What engines do with the kernels' single factor: [`Resampled::load`]
//! samples every node's local pose with [`local_pose`] at `k / rate` for
//! every frame `k` from 0 to the first frame at or after the clip's end, once.
//! [`Resampled::pose_at`] then blends the two frames around `t` with one
//! factor for the whole pose, one `Skeleton::slerp_joints` call (and a lerp
//! of the scales), before [`to_model`]. Times are clamped to the frames.
//! This costs accuracy: between two frames every joint moves along one
//! slerp between two exact samples, not along its channels' own keys, so
//! where a key falls between two frames its corner is cut (and a STEP jump
//! is spread over a frame). `tests/gltf_example.rs` measures the largest
//! distance of the resampled pose from the exact sample over 145 to 616
//! times per file, in model sizes: on the Fox 2.5e-2 (Walk; 1.7 units of
//! its 70), 2.0e-2 (Run) and 1.3e-3 (Survey) at 30 Hz, and 1.6e-2, 1.2e-2
//! and 3.4e-4 at 60 Hz (its keys are at 24 Hz: the error of cut corners
//! falls only linearly with the frame interval); 4.5e-7 on
//! `data/SimpleSkin.gltf` (its keys fall on frames, so nothing is cut);
//! 1.4e-1 on the test's file of mixed channels (STEP jumps, cubic
//! curves). Against its own reference, the f64 slerp between the
//! f64 exact samples at the two frame times, it is as accurate as
//! [`sample_at`] (worst 4.3e-7 of the model size, bound 1e-6).

// The README's "Conventions" example, verbatim from here to its end marker.
use animasm::{Impl, JointQuat, Quat, Vec4, slerp_joints};
use gltf::animation::{Interpolation, util::ReadOutputs as Keys};
type Res<T> = Result<T, Box<dyn std::error::Error>>;
pub type Pose = (Vec<JointQuat>, Vec<[f32; 3]>); // every node's rotation and translation; scale

/// Every node's local pose with animation `anim` sampled at `t` seconds:
/// each channel at its own keys around `t`, clamped to its first and last.
pub fn local_pose(doc: &gltf::Document, bufs: &[gltf::buffer::Data], anim: usize, t: f32) -> Res<Pose> {
    let anim = doc.animations().nth(anim).ok_or_else(|| format!("the file has no animation {anim}"))?;
    t.is_finite().then_some(()).ok_or_else(|| format!("the time {t} is not a finite number of seconds"))?;
    let unit =
        |q: Quat| Quat::from_array(q.to_array().map(|v| v / q.to_array().map(|v| v * v).iter().sum::<f32>().sqrt()));
    let quat = |r: [f32; 4]| unit(Quat::from_array(r)).conjugate(); // glTF's is the conjugate of the papers'
    let trs: Vec<_> = doc.nodes().map(|n| n.transform().decomposed()).collect();
    let mut pose: Vec<_> =
        trs.iter().map(|([x, y, z], r, _)| JointQuat::new(quat(*r), Vec4::new(*x, *y, *z, 0.0))).collect();
    let mut scale: Vec<_> = trs.iter().map(|x| x.2).collect();
    for (i, ch) in anim.channels().enumerate() {
        let read = ch.reader(|buf| Some(&bufs[buf.index()]));
        let times: Vec<f32> = read.read_inputs().ok_or("no key times")?.collect();
        let (what, v): (u8, Vec<[f32; 4]>) = match read.read_outputs().ok_or("no keyframes")? {
            Keys::Rotations(r) => (b'r', r.into_f32().collect()),
            Keys::Translations(v) => (b't', v.map(|[x, y, z]| [x, y, z, 0.0]).collect()),
            Keys::Scales(v) => (b's', v.map(|[x, y, z]| [x, y, z, 0.0]).collect()),
            Keys::MorphTargetWeights(_) => continue,
        };
        let (mode, n) = (ch.sampler().interpolation(), times.len());
        if n == 0 || v.len() != n * if mode == Interpolation::CubicSpline { 3 } else { 1 } {
            return Err(format!("channel {i}: {} values for {n} key times", v.len()).into());
        }
        // Key k at or before t (the first before it), k1 after it (k at the end), s between.
        let k = times.partition_point(|&x| x <= t).saturating_sub(1);
        let k1 = (k + 1).min(n - 1);
        let s = if k1 > k { ((t - times[k]) / (times[k1] - times[k])).clamp(0.0, 1.0) } else { 0.0 };
        let (a, b, s) = match mode {
            Interpolation::Linear => (v[k], v[k1], s),
            Interpolation::Step => (v[k], v[k], 0.0),
            Interpolation::CubicSpline => {
                // Per key: in-tangent a, value v, out-tangent b; td = t_k1 - t_k.
                let (td, s2, s3) = (times[k1] - times[k], s * s, s * s * s);
                let h = [2.0 * s3 - 3.0 * s2 + 1.0, td * (s3 - 2.0 * s2 + s), 3.0 * s2 - 2.0 * s3, td * (s3 - s2)];
                let [vk, bk, ak1, vk1] = [3 * k + 1, 3 * k + 2, 3 * k1, 3 * k1 + 1].map(|j| v[j]);
                let p = std::array::from_fn(|e| h[0] * vk[e] + h[1] * bk[e] + h[2] * vk1[e] + h[3] * ak1[e]);
                (p, p, 0.0)
            }
        };
        // One slerp_joints call with the channel's own factor: rotation in q, else in t.
        let joint = |v| JointQuat::new(if what == b'r' { quat(v) } else { Quat::IDENTITY }, Vec4::from_array(v));
        let (mut j, n) = ([joint(a)], ch.target().node().index());
        slerp_joints(Impl::Auto, &mut j, &[joint(b)], s, &[0])?; // s <= 0 gives j exactly
        match what {
            b'r' => pose[n].q = unit(j[0].q), // slerp of near-equal keys is their blend: 1e-6 short
            b't' => pose[n].t = j[0].t,
            _ => scale[n] = [j[0].t.x, j[0].t.y, j[0].t.z],
        }
    }
    Ok((pose, scale))
}
// End of the README's example.

use animasm::pose::PoseInput;
use animasm::{JointMat, Skeleton};

/// Model-space matrices of every node: animation `anim` sampled at `t`
/// seconds ([`local_pose`], then [`to_model`]).
pub fn sample_at(doc: &gltf::Document, bufs: &[gltf::buffer::Data], anim: usize, t: f32) -> Res<Vec<JointMat>> {
    let (pose, scale) = local_pose(doc, bufs, anim, t)?;
    to_model(&skeleton(doc)?, &pose, &scale)
}

/// Model-space matrices from a local pose, in one call of the whole-pose
/// routine ([`Skeleton::slerp_pose`] at factor 0: no blend): each node's
/// `T * R * S` (`[R | t]` for column vectors, the scale multiplying the
/// columns of `R`), then `parent * local` up to the roots. The
/// [`Skeleton`] takes the nodes in any order, with several roots; the
/// arrays go through its parents-first order.
pub fn to_model(skeleton: &Skeleton, pose: &[JointQuat], scale: &[[f32; 3]]) -> Res<Vec<JointMat>> {
    let pose = skeleton.to_parents_first_vec(pose)?;
    let scale: Vec<Vec4> = scale.iter().map(|&[x, y, z]| Vec4::new(x, y, z, 0.0)).collect();
    let scale = skeleton.to_parents_first_vec(&scale)?;
    let mut model = vec![JointMat::IDENTITY; pose.len()];
    let input = PoseInput::new(&pose, &pose, 0.0).with_scale(&scale);
    skeleton.slerp_pose(Impl::Auto, &input, &mut model, None)?; // model = parent * [R * S | t]
    Ok(skeleton.from_parents_first_vec(&model)?)
}

/// The nodes' hierarchy as a [`Skeleton`]: any order, any number of roots,
/// non-joint ancestors.
pub fn skeleton(doc: &gltf::Document) -> Res<Skeleton> {
    let mut parents = vec![-1; doc.nodes().len()];
    doc.nodes().for_each(|p| p.children().for_each(|c| parents[c.index()] = p.index() as i32));
    Ok(Skeleton::new(&parents)?)
}

/// `q / |q|`.
fn unit(q: Quat) -> Quat {
    let n = q.to_array().map(|v| v * v).iter().sum::<f32>().sqrt();
    Quat::from_array(q.to_array().map(|v| v / n))
}

/// The most frames [`Resampled::load`] stores (a guard against a rate or a
/// clip length that would exhaust memory).
pub const MAX_FRAMES: usize = 1 << 20;

/// An animation resampled once to a fixed rate: every node's local pose at
/// `k / rate` seconds for every frame `k`, so that a pose at any time is one
/// blend with one factor for every joint (see the module docs for what this
/// costs in accuracy).
pub struct Resampled {
    skeleton: Skeleton,
    rate: f32,
    frames: Vec<Pose>,
}

impl Resampled {
    /// Samples animation `anim` with [`local_pose`] at `k / rate` seconds for
    /// `k` from 0 to the first frame at or after the clip's end (the last key
    /// time of any channel).
    ///
    /// # Errors
    ///
    /// When `rate` is not a positive finite number, when the clip would take
    /// more than [`MAX_FRAMES`] frames, and the errors of [`local_pose`] and
    /// [`skeleton`].
    pub fn load(doc: &gltf::Document, bufs: &[gltf::buffer::Data], anim: usize, rate: f32) -> Res<Resampled> {
        if !(rate.is_finite() && rate > 0.0) {
            return Err(format!("the rate {rate} is not a positive number of frames per second").into());
        }
        let animation = doc.animations().nth(anim).ok_or_else(|| format!("the file has no animation {anim}"))?;
        let mut end = 0.0f32;
        for ch in animation.channels() {
            let times = ch.reader(|buf| Some(&bufs[buf.index()])).read_inputs().ok_or("no key times")?;
            end = times.fold(end, f32::max);
        }
        let last = f64::from(end) * f64::from(rate);
        if last.ceil() >= MAX_FRAMES as f64 {
            return Err(format!("{end} s at {rate} Hz is more than {MAX_FRAMES} frames").into());
        }
        let frames = (0..=last.ceil() as usize).map(|k| local_pose(doc, bufs, anim, k as f32 / rate));
        Ok(Resampled { skeleton: skeleton(doc)?, rate, frames: frames.collect::<Res<_>>()? })
    }

    /// The time of the last frame, in seconds: the clip's end rounded up to
    /// a frame.
    pub fn duration(&self) -> f32 {
        (self.frames.len() - 1) as f32 / self.rate
    }

    /// Model-space matrices of every node at `t` seconds (clamped to the
    /// frames): frames `k` and `k + 1` around `t` blended with one factor,
    /// rotations by `Skeleton::slerp_joints`, translations and scales
    /// linearly.
    ///
    /// # Errors
    ///
    /// When `t` is not finite.
    pub fn pose_at(&self, t: f32) -> Res<Vec<JointMat>> {
        if !t.is_finite() {
            return Err(format!("the time {t} is not a finite number of seconds").into());
        }
        let last = self.frames.len() - 1;
        // The frame position in f64: in f32 it would round to 1.5e-5 at frame 180.
        let x = (f64::from(t) * f64::from(self.rate)).clamp(0.0, last as f64);
        let k = (x as usize).min(last.saturating_sub(1));
        let f = ((x - k as f64) as f32).min(1.0);
        let ((mut pose, mut scale), (next, next_scale)) = (self.frames[k].clone(), &self.frames[(k + 1).min(last)]);
        self.skeleton.slerp_joints(Impl::Auto, &mut pose, next, f)?;
        pose.iter_mut().for_each(|j| j.q = unit(j.q));
        for (s, n) in scale.iter_mut().zip(next_scale) {
            *s = std::array::from_fn(|i| s[i] + (n[i] - s[i]) * f);
        }
        to_model(&self.skeleton, &pose, &scale)
    }
}

#[allow(dead_code)] // `tests/gltf_example.rs` includes this file without running `main`.
fn main() -> Res<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or(concat!(env!("CARGO_MANIFEST_DIR"), "/data/Fox.glb"), String::as_str);
    let arg = |i: usize, default: &str| args.get(i).map_or(default, String::as_str).to_string();
    let anim: usize = arg(1, "0").parse().map_err(|e| format!("ANIMATION {:?}: {e}", arg(1, "0")))?;
    let t: f32 = arg(2, "0.5").parse().map_err(|e| format!("TIME {:?}: {e}", arg(2, "0.5")))?;
    let (doc, buffers, _) = gltf::import(path)?;
    let model = sample_at(&doc, &buffers, anim, t)?;
    let resampled = Resampled::load(&doc, &buffers, anim, 30.0)?;
    let name = doc.animations().nth(anim).and_then(|a| a.name().map(str::to_string)).unwrap_or_default();
    println!("{path}: animation {anim} {name:?} (0 to {} s) at {t} s", resampled.duration());
    let skin = doc.skins().next().ok_or("the file has no skin")?;
    for joint in skin.joints() {
        let [x, y, z] = model[joint.index()].translation();
        println!("{:>24} at ({x:9.4}, {y:9.4}, {z:9.4})", joint.name().unwrap_or("(unnamed)"));
    }
    let coarse = resampled.pose_at(t)?;
    let far = model.iter().zip(&coarse).map(|(a, b)| {
        let (a, b) = (a.translation(), b.translation());
        (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f32>().sqrt()
    });
    println!("resampled at 30 Hz: nodes at most {} from the exact sample", far.fold(0.0, f32::max));
    Ok(())
}
