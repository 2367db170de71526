//! The glam peers of the quaternion-array routines (`Shape::QuatPairs`,
//! `Shape::Stream`), on glam `Quat` arrays (see [`super::to_glam_quats`]).

use glam::Quat as GQuat;

/// `result[i] = from[i].slerp(to[i], factor)` with glam's `Quat::slerp`
/// (shorter arc, `acos_approx` and one four-lane SSE `sin` for both weights,
/// a normalised lerp when `dot > 1 - f32::EPSILON`): the peer of
/// `slerp_quats`.
#[inline(never)]
pub fn glam_slerp_quats(result: &mut [GQuat], from: &[GQuat], to: &[GQuat], factor: f32) {
    for ((r, f), t) in result.iter_mut().zip(from).zip(to) {
        *r = f.slerp(*t, factor);
    }
}

/// `dest[i] = l.lerp(r[i], t[i])` with glam's `Quat::lerp` (shorter arc,
/// normalised: an nlerp): the `nlerp` loop shape with glam.
#[inline(never)]
pub fn glam_lerp_stream(dest: &mut [GQuat], l: GQuat, r: &[GQuat], t: &[f32]) {
    for ((d, r), &t) in dest.iter_mut().zip(r).zip(t) {
        *d = l.lerp(*r, t);
    }
}

/// `dest[i] = l.slerp(r[i], t[i])` with glam's `Quat::slerp`: the `nlerp`
/// loop shape with glam's slerp.
#[inline(never)]
pub fn glam_slerp_stream(dest: &mut [GQuat], l: GQuat, r: &[GQuat], t: &[f32]) {
    for ((d, r), &t) in dest.iter_mut().zip(r).zip(t) {
        *d = l.slerp(*r, t);
    }
}
