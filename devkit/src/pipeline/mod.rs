//! The pose pipeline: a skinned, animated glTF 2.0 file through the crate's
//! kernels, end to end, checked against an f64 reference and timed.
//!
//! Used by `examples/pose.rs`, the report and `tests/pose.rs`; it needs
//! `gltf` (without its `import` feature: buffers are resolved here) and
//! `glam`, nothing else. One job per module: [`animation`] (what is
//! posed), `load` and `skin` (a file to an [`Animation`]), [`reference`]
//! (the f64 pipeline), [`kernels`] (the crate's), [`peer`] (glam's),
//! [`measure`] (errors and timing, with [`crate::timer`]).
//!
//! # The API
//!
//! - [`load`] / [`load_animation`]: a file (`.glb`, or `.gltf` with external
//!   `.bin` files or base64 `data:` URIs) to an [`Animation`]: skin 0, its
//!   joints in parents-first order (reordered if the file's are not), the
//!   rest pose, the inverse bind matrices and the keyframes of one animation,
//!   or a [`PoseError`] that says what is wrong (never a panic).
//! - [`Poser`] / [`pipeline`]: one pose with the crate's kernels and a chosen
//!   [`Impl`]: find the keys, [`animasm::slerp_joints`],
//!   [`animasm::quats_to_mats`], [`animasm::transform_skeleton`],
//!   [`animasm::transform_joints`]; the skinning matrices.
//! - [`Forms`]: what "the pipeline for `Impl` X" runs, since the four
//!   routines do not have the same forms (the skeleton routines have no
//!   `Avx512` form): each routine that runs X here runs X, one that does
//!   not runs its nearest form (`Deterministic`, its fastest successor, for
//!   a successor form X: the same bits; else `Auto`), said in
//!   [`Forms::note`] and marked `*` in [`measure()`]'s rows; `Auto` and
//!   `Deterministic` resolve per routine. [`Forms::available`]: the forms
//!   the pipeline offers on this CPU.
//! - [`GlamPoser`] / [`pipeline_glam`]: the same pose with glam (`Quat::slerp`,
//!   `Vec3::lerp`, `Affine3A` products), the peer.
//! - [`pipeline_f64`]: the reference, in f64 with plain arithmetic (exact
//!   slerp with `acos`/`sin`, no kernel of the crate).
//! - [`max_error`]: the distance of a pose to the reference, relative to the
//!   model's size ([`Animation::size`], the testkit's
//!   `animasm_testkit::error::model_size`); [`time_per_pose`]: nanoseconds
//!   per pose; [`measure`]: all of it for every [`Forms::available`] form
//!   and glam, as table [`Row`]s.
//!
//! # The convention finding
//!
//! *From Quaternion to Matrix and Back* (paper 002, section 3) stores into a
//! `JointMat` the matrix `M` of Shoemake's 1985 paper, `M[0][1] = 2xy + 2wz`:
//! the matrix of `q` for row vectors (`v' = v M`), the transpose of the
//! column-vector rotation `R(q)` (`R[0][1] = 2xy - 2wz`). *The Skeleton
//! Assembly Line* (paper 004, section 3, `TransformJoint`) composes the same
//! `JointMat`s as column-vector affine transforms: rotation `R_parent *
//! R_child`, translation `R_parent * t_child + t_parent`, which is `[R | t]`
//! with `v' = R v + t` and cannot be read as row vectors. Neither paper says
//! which way its quaternions turn, and together they are consistent only if
//! the quaternion `q` stands for the rotation `R(q)^T = R(q*)`. glTF (and
//! glam) use the Hamilton convention, `v' = q v q*` = `R(q) v`, so a glTF
//! rotation fed to `quats_to_mats` as it is turns every joint the wrong way
//! ([`Convention::AsPublished`]: errors of the order of the model's size).
//! id's engine is consistent with itself: in the public Doom 3 source,
//! `idQuat::ToMat3` writes `mat[0][1] = xy - wz` into an `idMat3` that
//! `vec * mat` applies to row vectors, and `idJointMat::SetRotation`
//! transposes it into the `JointMat` ("idMat3 is transposed because it is
//! column-major"): exactly paper 002's `M`. There a joint quaternion `q`
//! stands for the column-vector rotation `R(q)^T`, the conjugate of what glTF
//! means by `q`. (This is outside the papers; they do not say it.)
//!
//! The pipeline feeds the kernels the conjugates `(-x, -y, -z, w)`
//! ([`Convention::Conjugate`], the default), negated once when the [`Poser`]
//! is built, so it costs nothing per pose, and it is exact: slerp commutes
//! with conjugation bit for bit (the dot product and the weights are the
//! same, the result's `x y z` come out negated), and `quats_to_mats` of `q*`
//! is the transpose of `quats_to_mats` of `q` bit for bit (every element is
//! the same products with exact sign changes; `tests/pose.rs` checks both).
//! Transposing the 3x3 block after `quats_to_mats` would give the same
//! numbers at a cost per joint and per pose.

pub mod animation;
pub mod kernels;
mod load;
pub mod measure;
pub mod peer;
pub mod reference;
mod skin;

pub use animation::{Animation, Sampler};
pub use kernels::{Convention, Forms, Poser, ROUTINES, pipeline};
pub use load::{animation_count, load, load_animation};
pub use measure::{Row, forms_error, glam_error, kernel_error, measure, time_per_pose, time_round};
pub use peer::{GlamPoser, affine_from_rows, pipeline_glam, rows_from_affine};
pub use reference::{max_error, model_f64, pipeline_f64, rest_bind_error, rest_skinning_f64};

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::PathBuf;

use animasm::{Impl, JointMat, JointQuat, Quat, Vec4};
use glam::{Affine3A, Mat3A, Quat as GQuat, Vec3, Vec3A};
use gltf::animation::{Interpolation, Property};

/// The bundled default: `data/Fox.glb`.
pub const DEFAULT_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/Fox.glb");

/// How far from 1 a scale (keyed or at rest) may be and still be ignored:
/// the kernels carry rotation and translation only.
pub const SCALE_TOLERANCE: f32 = 1e-4;

/// Why a file cannot go through the pipeline. Every message names the file.
#[derive(Debug)]
pub enum PoseError {
    /// The file, or an external buffer it refers to, cannot be read.
    Missing {
        /// The file given.
        path: PathBuf,
        /// Empty for the file itself, else what could not be read (a
        /// buffer's file, named).
        what: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not a valid glTF 2.0 file, or its data contradicts itself.
    Broken {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// The file has no skin.
    NoSkin {
        /// The file.
        path: PathBuf,
    },
    /// The file has no animation, not the one asked for, or one that moves
    /// no joint of the skin.
    NoAnimation {
        /// The file.
        path: PathBuf,
        /// What is missing.
        reason: String,
    },
    /// Valid glTF that the pipeline does not handle (cubic splines, scale
    /// that is not 1, sparse accessors, ...).
    Unsupported {
        /// The file.
        path: PathBuf,
        /// What and why.
        what: String,
    },
    /// A kernel refused its input (a bug of the pipeline if it happens).
    Kernel(animasm::Error),
}

impl fmt::Display for PoseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoseError::Missing { path, what, source } => write!(f, "{}: cannot read{what}: {source}", path.display()),
            PoseError::Broken { path, reason } => write!(f, "{}: not a valid glTF 2.0 file: {reason}", path.display()),
            PoseError::NoSkin { path } => {
                write!(f, "{}: the file has no skin (the pipeline needs a skinned model)", path.display())
            }
            PoseError::NoAnimation { path, reason } => write!(f, "{}: {reason}", path.display()),
            PoseError::Unsupported { path, what } => write!(f, "{}: not supported: {what}", path.display()),
            PoseError::Kernel(e) => write!(f, "a kernel refused its input: {e}"),
        }
    }
}

impl std::error::Error for PoseError {}

impl From<animasm::Error> for PoseError {
    fn from(e: animasm::Error) -> Self {
        PoseError::Kernel(e)
    }
}
