//! The shapes of `animasm::roster` as the tests see them. For each
//! [`Shape`], a [`ShapeKind`] says how to build seeded inputs (from
//! `animasm_testkit::inputs`) and an output buffer, how to call a routine of
//! that shape through its safe function, and which calls are wrong; the
//! interpolating shapes add an [`InterpolatorShape`]. They are written once
//! per shape and hold for every routine of it: a routine's oracle and
//! tolerances are chosen in its own test file (its
//! [`Routine`](super::harness::Routine)).
//!
//! [`for_each_shape`] runs a generic [`ShapeFn`] on roster routines grouped
//! by shape, each with its typed safe function: how the cross-cutting tests
//! iterate `animasm::roster::ROUTINES` without naming a routine.

use std::ops::DerefMut;

use animasm::roster::{Routine, Shape};
use animasm::{Error, Impl};

use super::harness::Floats;

pub mod joint_blend;
pub mod mats_to_quats;
pub mod pose;
pub mod quat_pairs;
pub mod quats_to_mats;
pub mod skeleton;
pub mod stream;
pub mod transform_joints;

#[allow(unused_imports)]
pub use joint_blend::{JointBlend, JointIn};
pub use mats_to_quats::MatsToQuats;
#[allow(unused_imports)]
pub use pose::{Pose, PoseIn};
#[allow(unused_imports)]
pub use quat_pairs::{QuatPairs, QuatsIn};
pub use quats_to_mats::QuatsToMats;
#[allow(unused_imports)]
pub use skeleton::{Skeleton, SkeletonIn};
#[allow(unused_imports)]
pub use stream::{Stream, StreamIn};
pub use transform_joints::TransformJoints;

/// A wrong call: a description, the call (given the form and an output
/// buffer), and the error it must return.
pub type BadCall<T> = (String, Box<dyn Fn(Impl, &mut [T]) -> Result<(), Error>>, Error);

/// A [`BadCall`].
pub fn bad<T>(what: &str, f: impl Fn(Impl, &mut [T]) -> Result<(), Error> + 'static, e: Error) -> BadCall<T> {
    (what.to_string(), Box::new(f), e)
}

/// One [`Shape`] of the roster: the arguments its routines take.
pub trait ShapeKind: 'static {
    /// The safe function's type (`animasm::roster::*Fn`).
    type Safe: Copy + Send + Sync + 'static;
    /// The output element.
    type Out: Floats + Send + Sync + 'static;
    /// The output buffer (a `Vec`, or `AlignedQuats` where the AVX forms need
    /// 32-byte alignment).
    type Buf: DerefMut<Target = [Self::Out]>;
    /// Everything else the safe function takes.
    type In: Sync + 'static;
    /// The safe function of a routine of this shape, `None` for another
    /// shape.
    fn safe(shape: Shape) -> Option<Self::Safe>;
    /// A buffer holding `init`.
    fn buf(init: &[Self::Out]) -> Self::Buf;
    /// Seeded inputs for count `n`: the output's initial contents (what an
    /// in-place routine reads) and the rest.
    fn inputs(seed: u64, n: usize) -> (Vec<Self::Out>, Self::In);
    /// The safe function `safe` with form `imp`.
    fn call(safe: Self::Safe, imp: Impl, out: &mut [Self::Out], input: &Self::In) -> Result<(), Error>;
    /// Wrong calls of `safe` for a count `n >= 1` whose output buffer has
    /// `n` elements.
    fn bad_calls(safe: Self::Safe, n: usize) -> Vec<BadCall<Self::Out>>;
}

/// The interpolating shapes' sibling contract: one factor (or one per
/// element) that must be finite, and exact endpoints.
pub trait InterpolatorShape: ShapeKind {
    /// The safe function with every interpolation factor set to `factor`.
    fn call_at(safe: Self::Safe, imp: Impl, out: &mut [Self::Out], input: &Self::In, factor: f32) -> Result<(), Error>;
    /// The exact result at factor 0 (`one == false`) or 1.
    fn endpoint(init: &[Self::Out], input: &Self::In, one: bool) -> Vec<Self::Out>;
    /// The error of a call whose factor is `factor` (non-finite) and that
    /// is also wrong in an earlier-checked way (a length): that earlier
    /// error, and the call.
    fn earlier_error(safe: Self::Safe, n: usize, factor: f32) -> BadCall<Self::Out>;
    /// The `NonFiniteFactor` error the safe function returns for `factor`.
    fn non_finite(factor: f32) -> Error;
}

/// Runs `safe` with `imp` on `init` and `input` in a buffer of the shape's
/// kind.
pub fn run<S: ShapeKind>(safe: S::Safe, imp: Impl, init: &[S::Out], input: &S::In) -> Result<Vec<S::Out>, Error> {
    let mut b = S::buf(init);
    S::call(safe, imp, &mut b, input).map(|()| b.to_vec())
}

/// A check written once for every shape.
pub trait ShapeFn {
    /// Runs on `routines`, every one of shape `S`, each with its safe
    /// function (in the roster's order; never empty).
    fn call<S: ShapeKind>(&mut self, routines: &[(&'static Routine, S::Safe)]);
}

/// Runs `f` once per shape on the routines of `routines` of that shape, and
/// panics if one of them has a shape this module does not know.
pub fn for_each_shape(routines: impl IntoIterator<Item = &'static Routine>, f: &mut impl ShapeFn) {
    fn group<S: ShapeKind>(routines: &[&'static Routine], f: &mut impl ShapeFn, seen: &mut usize) {
        let of_shape: Vec<_> = routines.iter().filter_map(|&r| S::safe(r.shape).map(|s| (r, s))).collect();
        if !of_shape.is_empty() {
            f.call::<S>(&of_shape);
        }
        *seen += of_shape.len();
    }
    let routines: Vec<&'static Routine> = routines.into_iter().collect();
    let mut seen = 0;
    group::<JointBlend>(&routines, f, &mut seen);
    group::<QuatsToMats>(&routines, f, &mut seen);
    group::<MatsToQuats>(&routines, f, &mut seen);
    group::<Skeleton>(&routines, f, &mut seen);
    group::<TransformJoints>(&routines, f, &mut seen);
    group::<QuatPairs>(&routines, f, &mut seen);
    group::<Stream>(&routines, f, &mut seen);
    group::<Pose>(&routines, f, &mut seen);
    assert_eq!(seen, routines.len(), "a routine of a shape tests/common/shapes does not know");
}
