//! The glam peers, shared by `devkit/benches/wall_clock/`, `devkit/benches/instr_count/`
//! and the report (`devkit/examples/report/`): the same work as the
//! crate's routines, written the way a glam user would, on arrays holding the
//! same data.
//!
//! The peers are by [`Shape`](animasm::roster::Shape), one module each, and
//! each module looks its peers up by routine name (a routine glam has no
//! peer of gets `None`):
//!
//! | shape | module | lookup |
//! |---|---|---|
//! | `JointBlend` | [`joints`] | [`joint_blend`] |
//! | `QuatsToMats`, `MatsToQuats`, `TransformJoints` | [`matrices`] | [`quats_to_mats()`], [`mats_to_quats()`], [`transform_joints()`] |
//! | `Skeleton` | [`skeleton`](mod@skeleton) | [`skeleton()`] |
//! | `QuatPairs`, `Stream` | [`quats`] | (called by name) |

use animasm::{JointMat, JointQuat, Quat};
use glam::{Affine3A, Quat as GQuat, Vec3A, Vec4 as GVec4};

pub mod joints;
pub mod matrices;
pub mod quats;
pub mod skeleton;

pub use joints::*;
pub use matrices::*;
pub use quats::*;
pub use skeleton::*;

/// A peer of a routine: the loop, and what it does in a sentence (for the
/// report's notes).
#[derive(Clone, Copy, Debug)]
pub struct Peer<F> {
    /// The peer's loop (or loops).
    pub run: F,
    /// What the loop does, in a sentence (Markdown).
    pub what: &'static str,
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

/// `Affine3A` arrays holding the rotations that the conversion to joints
/// (`Shape::MatsToQuats`) reads from `mats`: the paper's matrices are the transpose of the column-vector
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

// ---------------------------------------------------------------------------
// Quaternion arrays and streams: `Shape::QuatPairs` and `Shape::Stream`.

/// The quaternions as glam `Quat`s.
pub fn to_glam_quats(q: &[Quat]) -> Vec<GQuat> {
    q.iter().map(|q| GQuat::from_array(q.to_array())).collect()
}
