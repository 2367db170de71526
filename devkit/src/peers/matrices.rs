//! The glam peers of the matrix routines (`Shape::QuatsToMats`,
//! `Shape::MatsToQuats`, `Shape::TransformJoints`), on `Affine3A` arrays
//! (see [`super::to_affine`] and [`super::to_affine_paper_rotation`]).

use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};

use super::Peer;

/// A glam loop from joints (rotations, translations) to `Affine3A`s.
pub type GlamQuatsToMats = fn(&mut [Affine3A], &[GQuat], &[GVec4]);
/// A glam loop from `Affine3A`s to joints (rotations, translations).
pub type GlamMatsToQuats = fn(&mut [GQuat], &mut [GVec4], &[Affine3A]);
/// A glam loop `r[i] = f(a[i], b[i])` over `Affine3A`s.
pub type GlamTransformJoints = fn(&mut [Affine3A], &[Affine3A], &[Affine3A]);

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
/// [`super::to_affine_paper_rotation`]'s matrices.
#[inline(never)]
pub fn glam_mats_to_quats(q: &mut [GQuat], t: &mut [GVec4], mats: &[Affine3A]) {
    for ((q, t), m) in q.iter_mut().zip(t.iter_mut()).zip(mats) {
        *q = GQuat::from_affine3(m);
        *t = m.translation.extend(0.0);
    }
}

/// `r[i] = a[i] * b[i]` with `Affine3A`: the peer of `transform_joints`.
#[inline(never)]
pub fn glam_transform_joints(r: &mut [Affine3A], a: &[Affine3A], b: &[Affine3A]) {
    for ((r, a), b) in r.iter_mut().zip(a).zip(b) {
        *r = *a * *b;
    }
}

/// glam's peer of the `Shape::QuatsToMats` routine `routine`, if glam has
/// one.
pub fn quats_to_mats(routine: &str) -> Option<Peer<GlamQuatsToMats>> {
    (routine == "quats_to_mats")
        .then_some(Peer { run: glam_quats_to_mats, what: "`Affine3A::from_rotation_translation` (64-byte output)." })
}

/// glam's peer of the `Shape::MatsToQuats` routine `routine`, if glam has
/// one.
pub fn mats_to_quats(routine: &str) -> Option<Peer<GlamMatsToQuats>> {
    (routine == "mats_to_quats")
        .then_some(Peer { run: glam_mats_to_quats, what: "`Quat::from_affine3` (four cases, branchy)." })
}

/// glam's peer of the `Shape::TransformJoints` routine `routine`, if glam
/// has one.
pub fn transform_joints(routine: &str) -> Option<Peer<GlamTransformJoints>> {
    (routine == "transform_joints").then_some(Peer { run: glam_transform_joints, what: "`Affine3A` products." })
}
