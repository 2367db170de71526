//! One decoder and one set of checks per [`Shape`]: routines of one shape
//! take the same arguments, so a new routine of an existing shape is fuzzed
//! with no edit here, and a new form of any routine is run and compared
//! with the routine's scalar form as soon as it is in its table.
//!
//! Each module holds its shape's tolerances against the scalar form (the
//! tests' `TOL_SCALAR` of its routines) and the facts of its routines the
//! checks need beyond the roster's (an erratum that makes a listing differ
//! from the C, a tolerance a routine's forms are measured to need): a fact
//! keyed by a routine's name is an exception to the shape's rule, and a
//! routine it does not name gets the shape's rule.

use crate::Gen;
use animasm::roster::{Routine, Shape};

pub mod joint_blend;
pub mod mats_to_quats;
pub mod pose;
pub mod quat_pairs;
pub mod quats_to_mats;
pub mod skeleton;
pub mod stream;
pub mod transform_joints;

/// Fuzzes the routine `r` (and its variants: [`crate::with_family`]) on
/// arguments decoded from `data` as its shape takes them.
///
/// # Panics
///
/// On a failed check, and for a shape this crate does not know yet (a new
/// `Shape` needs its module here).
pub fn fuzz(r: &'static Routine, data: &[u8]) {
    let mut g = Gen::new(data);
    match r.shape {
        Shape::JointBlend { .. } => joint_blend::fuzz(r, &mut g),
        Shape::QuatsToMats { .. } => quats_to_mats::fuzz(r, &mut g),
        Shape::MatsToQuats { .. } => mats_to_quats::fuzz(r, &mut g),
        Shape::Skeleton { .. } => skeleton::fuzz(r, &mut g),
        Shape::TransformJoints { .. } => transform_joints::fuzz(r, &mut g),
        Shape::QuatPairs { .. } => quat_pairs::fuzz(r, &mut g),
        Shape::Stream { .. } => stream::fuzz(r, &mut g),
        Shape::Pose { .. } => pose::fuzz(r, &mut g),
        _ => panic!("{}: a shape fuzz/src/shapes/ does not know", r.name),
    }
}

/// Whether two routines have the same shape (take the same arguments).
pub fn same_shape(a: &Routine, b: &Routine) -> bool {
    core::mem::discriminant(&a.shape) == core::mem::discriminant(&b.shape)
}
