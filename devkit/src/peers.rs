//! The glam peers, shared by `benches/wall_clock.rs`, `benches/instr_count/`
//! and the report (`examples/report/`): the same work as the
//! crate's routines, written the way a glam user would, on arrays holding the
//! same data.

use core::ops::RangeInclusive;

use animasm::{JointMat, JointQuat, Quat};
use glam::{Affine3A, Quat as GQuat, Vec3A, Vec4 as GVec4};

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

// ---------------------------------------------------------------------------
// Joint matrices. glam's 3x4 affine transform is `Affine3A`: column-major, a
// `Mat3A` and a `Vec3A` translation, four 16-byte columns (64 bytes against
// `JointMat`'s 48), for column vectors, as `JointMat` in the skeleton
// routines.

/// `Affine3A` arrays holding the same transforms as `mats` read as the
/// skeleton routines read them: row-major `[R | t]` for column vectors, so
/// glam's columns are the columns of the 3x4 matrix.
pub fn to_affine(mats: &[JointMat]) -> Vec<Affine3A> {
    mats.iter()
        .map(|j| {
            let m = &j.mat;
            let col = |c: usize| Vec3A::new(m[c], m[4 + c], m[8 + c]);
            Affine3A::from_cols(col(0), col(1), col(2), col(3))
        })
        .collect()
}

/// `Affine3A` arrays holding the rotations that `mats_to_quats` reads from
/// `mats`: the paper's matrices are the transpose of the column-vector
/// rotation (`src/mats_to_quats/mod.rs`), so glam's rotation columns are the
/// rows of the 3x3 block; the translation is column 3 as in [`to_affine`].
/// Both then compute the quaternion of the same rotation.
pub fn to_affine_paper_rotation(mats: &[JointMat]) -> Vec<Affine3A> {
    mats.iter()
        .map(|j| {
            let m = &j.mat;
            let row = |r: usize| Vec3A::new(m[r * 4], m[r * 4 + 1], m[r * 4 + 2]);
            Affine3A::from_cols(row(0), row(1), row(2), Vec3A::new(m[3], m[7], m[11]))
        })
        .collect()
}

/// glam's `Affine3A::from_rotation_translation` (`Mat3A::from_quat` plus the
/// translation) over the joints: the peer of `quats_to_mats`, which also
/// writes the rotation matrix and copies the translation. glam's matrix is
/// the column-vector matrix of `q`; the paper's is its transpose (row
/// vectors), the same rotation and the same arithmetic.
#[inline(never)]
pub fn glam_quats_to_mats(mats: &mut [Affine3A], q: &[GQuat], t: &[GVec4]) {
    for ((m, &q), &t) in mats.iter_mut().zip(q).zip(t) {
        *m = Affine3A::from_rotation_translation(q, t.truncate());
    }
}

/// glam's `Quat::from_affine3` (DirectXMath's four-case conversion, `sqrt`
/// and a division) and the translation copied to a `Vec4` with `w = 0` (as
/// the kernels write it): the peer of `mats_to_quats`, on
/// [`to_affine_paper_rotation`]'s matrices.
#[inline(never)]
pub fn glam_mats_to_quats(q: &mut [GQuat], t: &mut [GVec4], mats: &[Affine3A]) {
    for ((q, t), m) in q.iter_mut().zip(t.iter_mut()).zip(mats) {
        *q = GQuat::from_affine3(m);
        *t = m.translation.extend(0.0);
    }
}

/// `m[i] = m[parents[i]] * m[i]` with `Affine3A` over `joints`, in order:
/// the peer of `transform_skeleton`.
#[inline(never)]
pub fn glam_transform_skeleton(m: &mut [Affine3A], parents: &[i32], joints: RangeInclusive<usize>) {
    for i in joints {
        m[i] = m[parents[i] as usize] * m[i];
    }
}

/// `m[i] = m[parents[i]].inverse() * m[i]` with `Affine3A` over `joints`,
/// last joint first: the peer of `untransform_skeleton`. glam's `inverse` is
/// the general one (the 3x3 inverse by cofactors and a division by the
/// determinant); the kernels take the rigid inverse `[R^T | -R^T t]`, which
/// glam users could write by hand (transpose and one matrix-vector product)
/// for less work; the peer is the call a glam user reaches for.
#[inline(never)]
pub fn glam_untransform_skeleton(m: &mut [Affine3A], parents: &[i32], joints: RangeInclusive<usize>) {
    for i in joints.rev() {
        m[i] = m[parents[i] as usize].inverse() * m[i];
    }
}

/// `r[i] = a[i] * b[i]` with `Affine3A`: the peer of `transform_joints`.
#[inline(never)]
pub fn glam_transform_joints(r: &mut [Affine3A], a: &[Affine3A], b: &[Affine3A]) {
    for ((r, a), b) in r.iter_mut().zip(a).zip(b) {
        *r = *a * *b;
    }
}

// ---------------------------------------------------------------------------
// Quaternion arrays and streams: `slerp_quats` and `nlerp`.

/// The quaternions as glam `Quat`s.
pub fn to_glam_quats(q: &[Quat]) -> Vec<GQuat> {
    q.iter().map(|q| GQuat::from_array(q.to_array())).collect()
}

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
