//! [`Shape::MatsToQuats`]: joint matrices to joint quaternions.

use animasm::roster::{MatsToQuatsFn, Shape};
use animasm::{Error, Impl, JointMat, JointQuat, Quat, Vec4};
use animasm_testkit::inputs::paper_mats;

use super::{BadCall, ShapeKind, bad};

/// [`Shape::MatsToQuats`].
pub struct MatsToQuats;

impl ShapeKind for MatsToQuats {
    type Safe = MatsToQuatsFn;
    type Out = JointQuat;
    type Buf = Vec<JointQuat>;
    type In = Vec<JointMat>;
    fn safe(shape: Shape) -> Option<MatsToQuatsFn> {
        match shape {
            Shape::MatsToQuats { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[JointQuat]) -> Vec<JointQuat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<JointQuat>, Vec<JointMat>) {
        (vec![JointQuat::new(Quat::IDENTITY, Vec4::new(0.0, 0.0, 0.0, 0.0)); n], paper_mats(seed, n))
    }
    fn call(f: MatsToQuatsFn, imp: Impl, out: &mut [JointQuat], m: &Vec<JointMat>) -> Result<(), Error> {
        f(imp, out, m)
    }
    fn bad_calls(f: MatsToQuatsFn, n: usize) -> Vec<BadCall<JointQuat>> {
        let m = paper_mats(4, n + 1);
        let m2 = m.clone();
        vec![
            bad(
                "mats too short",
                move |imp, out| f(imp, out, &m[..n - 1]),
                Error::LengthMismatch { what: "mats", expected: n, found: n - 1 },
            ),
            bad(
                "mats too long",
                move |imp, out| f(imp, out, &m2),
                Error::LengthMismatch { what: "mats", expected: n, found: n + 1 },
            ),
        ]
    }
}
