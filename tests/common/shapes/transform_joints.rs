//! [`Shape::TransformJoints`]: joint matrices times joint matrices.

use animasm::roster::{Shape, TransformJointsFn};
use animasm::{Error, Impl, JointMat};
use animasm_testkit::inputs::rigid_mats;

use super::{BadCall, ShapeKind, bad};

/// [`Shape::TransformJoints`].
pub struct TransformJoints;

impl ShapeKind for TransformJoints {
    type Safe = TransformJointsFn;
    type Out = JointMat;
    type Buf = Vec<JointMat>;
    type In = (Vec<JointMat>, Vec<JointMat>);
    fn safe(shape: Shape) -> Option<TransformJointsFn> {
        match shape {
            Shape::TransformJoints { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[JointMat]) -> Vec<JointMat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<JointMat>, Self::In) {
        (vec![JointMat::IDENTITY; n], (rigid_mats(seed, n), rigid_mats(seed ^ 0xabc, n)))
    }
    fn call(f: TransformJointsFn, imp: Impl, out: &mut [JointMat], (a, b): &Self::In) -> Result<(), Error> {
        f(imp, out, a, b)
    }
    fn bad_calls(f: TransformJointsFn, n: usize) -> Vec<BadCall<JointMat>> {
        let m = rigid_mats(6, n + 1);
        let m2 = m.clone();
        vec![
            bad(
                "joints1 too short",
                move |imp, out| f(imp, out, &m[..n - 1], &m[..n]),
                Error::LengthMismatch { what: "joints1", expected: n, found: n - 1 },
            ),
            bad(
                "joints2 too long",
                move |imp, out| f(imp, out, &m2[..n], &m2),
                Error::LengthMismatch { what: "joints2", expected: n, found: n + 1 },
            ),
            // `Impl::Sse2`: a form of no routine of this shape.
            bad("no such form", move |_, out| f(Impl::Sse2, out, &[], &[]), Error::Unsupported(Impl::Sse2)),
        ]
    }
}
