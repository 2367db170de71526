//! Error measurements shared by the tests (which assert them) and the
//! report (which prints them next to the papers' figures): the id Software
//! routines by [`Shape`] ([`joints`], [`matrices`], [`skeleton`];
//! [`accuracy_rows`] picks a routine's), and one module each for
//! [`slerp_quats`], the [`nlerp`] family and the error-by-angle data of the
//! report's plot ([`by_angle`]).

use animasm::roster::{self, Routine, Shape};

pub mod joints;
pub mod matrices;
pub mod skeleton;

pub use joints::*;
pub use matrices::*;
pub use skeleton::*;

/// A row of the report's accuracy tables: what, the measured max abs error,
/// the paper's figure where it gives one.
pub type AccuracyRow = (String, f64, Option<f64>);

/// The accuracy rows of routine `r`, by its shape (empty for a routine
/// measured elsewhere: [`slerp_quats`], [`nlerp`]).
pub fn accuracy_rows(r: &Routine) -> Vec<AccuracyRow> {
    match r.shape {
        Shape::JointBlend { .. } => joint_blend_rows(r),
        Shape::QuatsToMats { .. } => quats_to_mats_rows(r),
        Shape::MatsToQuats { .. } => mats_to_quats_rows(r),
        Shape::Skeleton { .. } => skeleton_rows(r),
        Shape::TransformJoints { .. } => transform_joints_rows(r),
        _ => Vec::new(),
    }
}

/// The rows of the report's accuracy section of the joint-blend routines
/// (`Shape::JointBlend`), in the roster's order.
pub fn report_rows() -> Vec<AccuracyRow> {
    roster::ROUTINES.iter().filter(|r| matches!(r.shape, Shape::JointBlend { .. })).flat_map(accuracy_rows).collect()
}

/// The matrix routines' rows of the report's accuracy section (the shapes
/// on `JointMat`s: `QuatsToMats`, `MatsToQuats`, `Skeleton`,
/// `TransformJoints`), in the roster's order.
pub fn matrix_report_rows() -> Vec<AccuracyRow> {
    roster::ROUTINES
        .iter()
        .filter(|r| {
            matches!(
                r.shape,
                Shape::QuatsToMats { .. }
                    | Shape::MatsToQuats { .. }
                    | Shape::Skeleton { .. }
                    | Shape::TransformJoints { .. }
            )
        })
        .flat_map(accuracy_rows)
        .collect()
}

pub mod slerp_quats;

pub mod nlerp;

pub mod by_angle;
