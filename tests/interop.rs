//! The glam and mint conversions (`src/interop/`) on every pose of the
//! bundled Fox (`data/Fox.glb`, loaded with `devkit::pipeline`): its rest
//! pose and every keyframe of its three animations.
//!
//! - glam: `JointQuat::from_glam` + `quats_to_mats` + `JointMat::to_glam`
//!   is `Affine3A::from_rotation_translation` within 1e-6 per element for
//!   every form; the model-space chain (`quats_to_mats` +
//!   `transform_skeleton`, every pair of forms) is glam's `parent * local`
//!   chain within 1e-5 of the model's size, and the f64 chain's too (the
//!   size: the largest distance of a model-space joint from the origin in
//!   that pose, from the f64 chain; rotation elements are compared
//!   absolutely); the
//!   conversions round-trip exactly and agree with the glTF helpers bit for
//!   bit.
//! - mint: the same agreement and round trips, and (with glam) the same bits
//!   as glam's conversions.
//!
//! A pose is every joint's rotation and translation (glTF's convention, as
//! glam's and mint's) at one key time of an animation: each key-time input
//! gives its key at or before that time (its first key before its first
//! time); joints no channel keys keep the rest pose. The skeleton is
//! `Animation::skeleton_parents()`: the transforms above the roots
//! (`Animation::bases`) first, then the joints.
#![cfg(any(feature = "glam", feature = "mint"))]

use std::collections::BTreeSet;
use std::sync::OnceLock;

use animasm::{Impl, JointMat, JointQuat, quats_to_mats};
use devkit::pipeline::{self, Animation};

/// `eprintln!` in one write, so that lines of tests running side by side
/// do not interleave.
macro_rules! say {
    ($($arg:tt)*) => {
        eprint!("{}", format!("{}\n", format_args!($($arg)*)))
    };
}

/// One pose: per joint, its rotation `[x, y, z, w]` (Hamilton's, as glTF
/// stores it) and translation.
struct Pose {
    /// The animation it comes from (its index in [`Fox::anims`]).
    #[cfg_attr(not(feature = "glam"), allow(dead_code))]
    anim: usize,
    /// `rest`, or the animation's name and the key time.
    label: String,
    rot: Vec<[f32; 4]>,
    trans: Vec<[f32; 3]>,
}

/// The Fox's animations and every pose of them.
struct Fox {
    #[cfg_attr(not(feature = "glam"), allow(dead_code))]
    anims: Vec<Animation>,
    poses: Vec<Pose>,
}

/// The rest pose of `anim`.
fn rest_pose(anim: &Animation, index: usize) -> Pose {
    Pose {
        anim: index,
        label: "rest".into(),
        rot: anim.rest.iter().map(|j| j.q.to_array()).collect(),
        trans: anim.rest.iter().map(|j| [j.t.x, j.t.y, j.t.z]).collect(),
    }
}

/// Every keyframe pose of `anim`; checks that every key of every channel
/// is used.
fn key_poses(anim: &Animation, index: usize) -> Vec<Pose> {
    let mut times: Vec<f32> = anim.samplers.iter().flat_map(|s| s.times.iter().copied()).collect();
    times.sort_by(f32::total_cmp);
    times.dedup();
    let mut used = BTreeSet::new();
    let poses: Vec<Pose> = times
        .iter()
        .map(|&t| {
            let mut pose = rest_pose(anim, index);
            pose.label = format!("{} t={t}", anim.name);
            for (si, s) in anim.samplers.iter().enumerate() {
                let (k, _, _) = s.locate(t);
                used.insert((si, k));
                for (j, keys) in &s.rotations {
                    pose.rot[*j] = keys[k];
                }
                for (j, keys) in &s.translations {
                    pose.trans[*j] = keys[k];
                }
            }
            pose
        })
        .collect();
    let keys: usize = anim.samplers.iter().map(|s| s.times.len()).sum();
    assert_eq!(used.len(), keys, "{}: every key of every channel is posed", anim.name);
    poses
}

/// The Fox, loaded once per test binary.
fn fox() -> &'static Fox {
    static FOX: OnceLock<Fox> = OnceLock::new();
    FOX.get_or_init(|| {
        let count = pipeline::animation_count(pipeline::DEFAULT_PATH).unwrap();
        assert_eq!(count, 3, "the Fox has three animations");
        let anims: Vec<Animation> =
            (0..count).map(|a| pipeline::load_animation(pipeline::DEFAULT_PATH, a).unwrap()).collect();
        let mut poses = vec![rest_pose(&anims[0], 0)];
        for (a, anim) in anims.iter().enumerate() {
            assert_eq!(anim.parents, anims[0].parents, "one skin");
            poses.extend(key_poses(anim, a));
        }
        let joints: usize = poses.iter().map(|p| p.rot.len()).sum();
        say!("Fox: {} poses ({} joint transforms), {} joints", poses.len(), joints, anims[0].len());
        Fox { anims, poses }
    })
}

/// Every pose's every joint `(rotation, translation)`.
fn every_joint() -> impl Iterator<Item = ([f32; 4], [f32; 3])> {
    fox().poses.iter().flat_map(|p| p.rot.iter().copied().zip(p.trans.iter().copied()))
}

fn bits<const N: usize>(a: [f32; N]) -> [u32; N] {
    a.map(f32::to_bits)
}

fn joint_bits(j: &JointQuat) -> [u32; 8] {
    let (q, t) = (j.q.to_array(), j.t.to_array());
    bits([q[0], q[1], q[2], q[3], t[0], t[1], t[2], t[3]])
}

/// The forms of `quats_to_mats` running here.
fn q2m_forms() -> Vec<Impl> {
    let forms: Vec<Impl> = animasm::quats_to_mats::forms().collect();
    assert!(forms.contains(&Impl::Scalar));
    forms
}

/// `quats_to_mats(imp)` of `quats`.
fn to_mats(imp: Impl, quats: &[JointQuat]) -> Vec<JointMat> {
    let mut mats = vec![JointMat::IDENTITY; quats.len()];
    quats_to_mats(imp, &mut mats, quats).unwrap();
    mats
}

#[cfg(feature = "glam")]
mod with_glam {
    use super::*;
    use animasm::{Quat, Vec4, transform_skeleton};
    use animasm_testkit::error::{mat_max_abs_diff, model_size, pose_error};
    use animasm_testkit::oracle::{f64x4, joint_mat_gltf_f64, local_to_model_f64, normalize_f64};
    use devkit::pipeline::{affine_from_rows, rows_from_affine};
    use glam::{Affine3A, Vec3};

    const Q2M_BOUND: f64 = 1e-6;
    const CHAIN_BOUND: f64 = 1e-5;

    /// The model-space joints of `pose` in f64: the bases as the file gives
    /// them, the locals `[R(r) | t]` exact, `parent * local`.
    fn chain_f64(anim: &Animation, pose: &Pose) -> Vec<[f64; 12]> {
        let b = anim.bases.len();
        let mut locals = anim.bases.clone();
        locals.extend(
            pose.rot
                .iter()
                .zip(&pose.trans)
                .map(|(r, t)| joint_mat_gltf_f64(normalize_f64(f64x4(*r)), t.map(f64::from))),
        );
        local_to_model_f64(&locals, &anim.skeleton_parents()).split_off(b)
    }

    fn glam_joint((r, t): ([f32; 4], [f32; 3])) -> (glam::Quat, Vec3) {
        (glam::Quat::from_array(r), Vec3::from_array(t))
    }

    /// The largest element difference of two affine matrices.
    fn affine_diff(a: &Affine3A, b: &Affine3A) -> f64 {
        mat_max_abs_diff(&rows_from_affine(a), &rows_from_affine(b).map(f64::from))
    }

    #[test]
    fn quats_to_mats_of_from_glam_is_glams_affine() {
        let want: Vec<Affine3A> =
            every_joint().map(glam_joint).map(|(r, t)| Affine3A::from_rotation_translation(r, t)).collect();
        let quats: Vec<JointQuat> = every_joint().map(glam_joint).map(|(r, t)| JointQuat::from_glam(r, t)).collect();
        for imp in q2m_forms() {
            let mats = to_mats(imp, &quats);
            let err = mats.iter().zip(&want).map(|(m, w)| affine_diff(&m.to_glam(), w)).fold(0.0, f64::max);
            say!("quats_to_mats {imp}: max element error vs Affine3A::from_rotation_translation {err:.2e}");
            assert!(err <= Q2M_BOUND, "{imp}: {err:e} > {Q2M_BOUND:e}");
            for (m, w) in mats.iter().zip(&want) {
                assert_eq!(m.translation(), w.translation.to_array(), "{imp}: translations are copied");
            }
        }
        // The control: the rotation handed over lane for lane (`From`) is
        // the other rotation, and this check sees it.
        let same_lanes: Vec<JointQuat> = every_joint()
            .map(glam_joint)
            .map(|(r, t)| JointQuat::new(Quat::from(r), Vec4::new(t.x, t.y, t.z, 0.0)))
            .collect();
        let mats = to_mats(Impl::Scalar, &same_lanes);
        let err = mats.iter().zip(&want).map(|(m, w)| affine_diff(&m.to_glam(), w)).fold(0.0, f64::max);
        say!("control, From<glam::Quat> without the conjugate: max element error {err:.2e}");
        assert!(err > 0.5, "the lane-for-lane quaternion turns the Fox's joints the other way");
    }

    /// Locals through `from_glam` and `quats_to_mats(q2m)`, the bases
    /// first, then `transform_skeleton(ts)` over the joints.
    fn chain_kernels(anim: &Animation, pose: &Pose, q2m: Impl, ts: Impl) -> Vec<[f32; 12]> {
        let b = anim.bases.len();
        let quats: Vec<JointQuat> = pose
            .rot
            .iter()
            .zip(&pose.trans)
            .map(|(r, t)| glam_joint((*r, *t)))
            .map(|(r, t)| JointQuat::from_glam(r, t))
            .collect();
        let mut mats: Vec<JointMat> = anim.bases.iter().map(|m| JointMat { mat: m.map(|v| v as f32) }).collect();
        mats.extend(to_mats(q2m, &quats));
        let last = mats.len() - 1;
        transform_skeleton(ts, &mut mats, &anim.skeleton_parents(), b..=last).unwrap();
        mats[b..].iter().map(|m| m.mat).collect()
    }

    /// glam's chain in f32: the bases (rounded to f32), `parent * local`.
    fn chain_glam(anim: &Animation, pose: &Pose) -> Vec<Affine3A> {
        let (b, parents) = (anim.bases.len(), anim.skeleton_parents());
        let mut world: Vec<Affine3A> = anim.bases.iter().map(|m| affine_from_rows(&m.map(|v| v as f32))).collect();
        for (j, (r, t)) in pose.rot.iter().zip(&pose.trans).enumerate() {
            let (r, t) = glam_joint((*r, *t));
            let local = Affine3A::from_rotation_translation(r, t);
            world.push(world[parents[b + j] as usize] * local);
        }
        world.split_off(b)
    }

    #[test]
    fn transform_skeleton_matches_glams_chain() {
        let fox = fox();
        let ts_forms: Vec<Impl> = animasm::transform_skeleton::forms().collect();
        assert!(ts_forms.contains(&Impl::Scalar));
        let (mut glam_vs_f64, mut worst_size) = (0f64, f64::INFINITY);
        let mut worst = vec![(0f64, 0f64); q2m_forms().len() * ts_forms.len()];
        for pose in &fox.poses {
            let anim = &fox.anims[pose.anim];
            let exact = chain_f64(anim, pose);
            let size = model_size(&exact);
            worst_size = worst_size.min(size);
            let by_glam: Vec<[f32; 12]> = chain_glam(anim, pose).iter().map(rows_from_affine).collect();
            glam_vs_f64 = glam_vs_f64.max(pose_error(&by_glam, &exact, size));
            let by_glam_f64: Vec<[f64; 12]> = by_glam.iter().map(|m| m.map(f64::from)).collect();
            let pairs = q2m_forms().into_iter().flat_map(|q| ts_forms.iter().map(move |&t| (q, t)));
            for ((q2m, ts), w) in pairs.zip(&mut worst) {
                let got = chain_kernels(anim, pose, q2m, ts);
                let (e_glam, e_f64) = (pose_error(&got, &by_glam_f64, size), pose_error(&got, &exact, size));
                assert!(e_glam <= CHAIN_BOUND, "{}: {q2m} + {ts}: {e_glam:e} of the size vs glam", pose.label);
                assert!(e_f64 <= CHAIN_BOUND, "{}: {q2m} + {ts}: {e_f64:e} of the size vs f64", pose.label);
                *w = (w.0.max(e_glam), w.1.max(e_f64));
            }
        }
        say!(
            "model size: animasm_testkit::error::model_size, the largest distance of a model-space joint from the \
             origin (at least {worst_size:.3} here; the pipeline's, over every key pose of the first animation: {:.3})",
            fox.anims[0].size
        );
        say!("glam chain vs f64: {glam_vs_f64:.2e} of the size");
        let pairs = q2m_forms().into_iter().flat_map(|q| ts_forms.iter().map(move |&t| (q, t)));
        for ((q2m, ts), (e_glam, e_f64)) in pairs.zip(&worst) {
            say!("quats_to_mats {q2m} + transform_skeleton {ts}: vs glam {e_glam:.2e}, vs f64 {e_f64:.2e}");
        }
        assert!(glam_vs_f64 <= CHAIN_BOUND);
    }

    #[test]
    fn glam_conversions_round_trip_exactly() {
        let fox = fox();
        for (r, t) in every_joint() {
            let (gr, gt) = glam_joint((r, t));
            let joint = JointQuat::from_glam(gr, gt);
            assert_eq!(joint_bits(&joint), joint_bits(&JointQuat::from_gltf(r, t)), "from_glam is from_gltf");
            assert_eq!(joint.t.w.to_bits(), 0);
            let (br, bt) = joint.to_glam();
            assert_eq!((bits(br.to_array()), bits(bt.to_array())), (bits(r), bits(t)));
            // Lane for lane, both ways.
            assert_eq!(bits(Quat::from(gr).to_array()), bits(r));
            assert_eq!(bits(glam::Quat::from(Quat::from(gr)).to_array()), bits(r));
            let v = glam::Vec4::new(t[0], t[1], t[2], -0.0);
            assert_eq!(bits(glam::Vec4::from(Vec4::from(v)).to_array()), bits(v.to_array()));
            // Matrices: the copy is exact and laid out as devkit's
            // independent `rows_from_affine`.
            let a = Affine3A::from_rotation_translation(gr, gt);
            let m = JointMat::from_glam(a);
            assert_eq!(bits(m.mat), bits(rows_from_affine(&a)));
            assert_eq!(bits(m.to_glam().to_cols_array()), bits(a.to_cols_array()));
            assert_eq!(m.to_glam(), a);
        }
        // Model-space matrices (products, not rotations built from a
        // quaternion) round-trip too.
        for pose in &fox.poses {
            for a in chain_glam(&fox.anims[pose.anim], pose) {
                assert_eq!(bits(JointMat::from_glam(a).to_glam().to_cols_array()), bits(a.to_cols_array()));
            }
        }
    }
}

#[cfg(feature = "mint")]
mod with_mint {
    use super::*;
    use animasm::{Quat, Vec4};
    use animasm_testkit::error::mat_max_abs_diff;
    use animasm_testkit::oracle::{f64x4, joint_mat_gltf_f64, normalize_f64};
    use mint::{Quaternion, RowMatrix3x4, Vector3, Vector4};

    fn mint_joint((r, t): ([f32; 4], [f32; 3])) -> (Quaternion<f32>, Vector3<f32>) {
        (Quaternion::from(r), Vector3::from(t))
    }

    #[test]
    fn quats_to_mats_of_from_mint_is_the_rotation_mint_means() {
        let quats: Vec<JointQuat> = every_joint().map(mint_joint).map(|(r, t)| JointQuat::from_mint(r, t)).collect();
        for imp in q2m_forms() {
            let mats = to_mats(imp, &quats);
            let mut err = 0f64;
            for (m, (r, t)) in mats.iter().zip(every_joint()) {
                let got: [f32; 12] = RowMatrix3x4::from(*m).into();
                let want = joint_mat_gltf_f64(normalize_f64(f64x4(r)), t.map(f64::from));
                err = err.max(mat_max_abs_diff(&got, &want));
            }
            say!("quats_to_mats {imp} of from_mint: max element error vs the f64 rotation {err:.2e}");
            assert!(err <= 1e-6, "{imp}: {err:e}");
        }
    }

    #[test]
    fn mint_conversions_round_trip_exactly() {
        let quats: Vec<JointQuat> = every_joint().map(|(r, t)| JointQuat::from_gltf(r, t)).collect();
        for ((r, t), joint) in every_joint().zip(&quats) {
            let (mr, mt) = mint_joint((r, t));
            let from_mint = JointQuat::from_mint(mr, mt);
            assert_eq!(joint_bits(&from_mint), joint_bits(joint), "from_mint is from_gltf");
            let (br, bt) = from_mint.to_mint();
            assert_eq!((bits(br.into()), bits(bt.into())), (bits(r), bits(t)));
            assert_eq!(bits(Quat::from(mr).to_array()), bits(r));
            assert_eq!(bits(Quaternion::from(Quat::from(mr)).into()), bits(r));
            let v = Vector4 { x: t[0], y: t[1], z: t[2], w: -0.0 };
            assert_eq!(bits(Vector4::from(Vec4::from(v)).into()), bits(v.into()));
        }
        for m in to_mats(Impl::Scalar, &quats) {
            let rows = RowMatrix3x4::from(m);
            let flat: [f32; 12] = rows.into();
            assert_eq!(bits(flat), bits(m.mat), "lane for lane");
            assert_eq!(bits(JointMat::from(rows).mat), bits(m.mat));
        }
    }

    #[cfg(feature = "glam")]
    #[test]
    fn mint_agrees_with_glam() {
        use glam::{Affine3A, Vec3};
        for (r, t) in every_joint() {
            let (mr, mt) = mint_joint((r, t));
            let (gr, gt) = (glam::Quat::from_array(r), Vec3::from_array(t));
            assert_eq!(joint_bits(&JointQuat::from_mint(mr, mt)), joint_bits(&JointQuat::from_glam(gr, gt)));
            let (a, b) = (JointQuat::from_glam(gr, gt).to_mint(), JointQuat::from_glam(gr, gt).to_glam());
            assert_eq!((bits(a.0.into()), bits(a.1.into())), (bits(b.0.to_array()), bits(b.1.to_array())));
            assert_eq!(Quat::from(mr), Quat::from(gr));
            // The same matrix through either crate: mint's rows read off
            // glam's affine give `JointMat::from_glam`'s bits.
            let aff = Affine3A::from_rotation_translation(gr, gt);
            let row = |i: usize| {
                let r = aff.matrix3.row(i);
                Vector4 { x: r.x, y: r.y, z: r.z, w: aff.translation[i] }
            };
            let rows = RowMatrix3x4 { x: row(0), y: row(1), z: row(2) };
            assert_eq!(bits(JointMat::from(rows).mat), bits(JointMat::from_glam(aff).mat));
            let back: [f32; 12] = RowMatrix3x4::from(JointMat::from_glam(aff)).into();
            assert_eq!(bits(back), bits(rows.into()));
        }
    }
}
