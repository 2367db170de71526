//! The glam peers of the joint-blend routines (`Shape::JointBlend`), on
//! `Quat` and `Vec4` arrays holding the joint lists.

use glam::{Quat as GQuat, Vec4 as GVec4};

use super::Peer;

/// A glam loop over `index`: rotations, translations, blend rotations, blend
/// translations, factor, index.
pub type GlamJointLoop = fn(&mut [GQuat], &mut [GVec4], &[GQuat], &[GVec4], f32, &[i32]);

/// glam's `Quat::slerp` and `Vec4::lerp` over the indexed joints: the peer of
/// `slerp_joints`.
#[inline(never)]
pub fn glam_slerp_joints(q: &mut [GQuat], t: &mut [GVec4], bq: &[GQuat], bt: &[GVec4], lerp: f32, index: &[i32]) {
    for &j in index {
        let j = j as usize;
        q[j] = q[j].slerp(bq[j], lerp);
        t[j] = t[j].lerp(bt[j], lerp);
    }
}

/// glam's `Quat::lerp` (shorter arc, normalised) and `Vec4::lerp` over the
/// indexed joints: the peer of `lerp_joints`.
#[inline(never)]
pub fn glam_lerp_joints(q: &mut [GQuat], t: &mut [GVec4], bq: &[GQuat], bt: &[GVec4], lerp: f32, index: &[i32]) {
    for &j in index {
        let j = j as usize;
        q[j] = q[j].lerp(bq[j], lerp);
        t[j] = t[j].lerp(bt[j], lerp);
    }
}

/// glam's peer of the `Shape::JointBlend` routine `routine`, if glam has one.
pub fn joint_blend(routine: &str) -> Option<Peer<GlamJointLoop>> {
    match routine {
        "slerp_joints" => {
            Some(Peer { run: glam_slerp_joints, what: "`Quat::slerp` and `Vec4::lerp` over the indexed joints." })
        }
        "lerp_joints" => Some(Peer {
            run: glam_lerp_joints,
            what: "`Quat::lerp` (shorter arc, normalised) and `Vec4::lerp` over the indexed joints.",
        }),
        _ => None,
    }
}
