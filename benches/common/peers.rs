//! The glam peers, shared by `benches/wall_clock.rs`, `benches/instr_count.rs`
//! and `examples/report.rs` (`#[path]`-included): the same work as the
//! crate's routines, written the way a glam user would, on arrays holding the
//! same data.

#![allow(dead_code)]

use animasm::JointQuat;
use glam::{Quat as GQuat, Vec4 as GVec4};

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

/// The joints' rotations and translations as glam arrays.
pub fn to_glam(joints: &[JointQuat]) -> (Vec<GQuat>, Vec<GVec4>) {
    let q = joints.iter().map(|j| GQuat::from_array(j.q.to_array())).collect();
    let t = joints.iter().map(|j| GVec4::from_array(j.t.to_array())).collect();
    (q, t)
}
