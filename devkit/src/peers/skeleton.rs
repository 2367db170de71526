//! The glam peers of the skeleton routines (`Shape::Skeleton`), on
//! `Affine3A` arrays (see [`super::to_affine`]).

use core::ops::RangeInclusive;

use glam::Affine3A;

use super::Peer;

/// A glam loop over a range of a parents-first skeleton, in place.
pub type GlamSkeletonLoop = fn(&mut [Affine3A], &[i32], RangeInclusive<usize>);

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

/// glam's peer of the `Shape::Skeleton` routine `routine`, if glam has one.
pub fn skeleton(routine: &str) -> Option<Peer<GlamSkeletonLoop>> {
    match routine {
        "transform_skeleton" => Some(Peer {
            run: glam_transform_skeleton,
            what: "`m[i] = m[parents[i]] * m[i]` with `Affine3A`, in order.",
        }),
        "untransform_skeleton" => Some(Peer {
            run: glam_untransform_skeleton,
            what: "`m[i] = m[parents[i]].inverse() * m[i]` with `Affine3A`, last joint first.",
        }),
        _ => None,
    }
}
