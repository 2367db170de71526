//! [`Shape::QuatsToMats`]: joint quaternions to joint matrices.

use animasm::roster::{QuatsToMatsFn, Shape};
use animasm::{Error, Impl, JointMat, JointQuat};
use animasm_testkit::inputs::Rng;

use super::{BadCall, ShapeKind, bad};

/// [`Shape::QuatsToMats`].
pub struct QuatsToMats;

impl ShapeKind for QuatsToMats {
    type Safe = QuatsToMatsFn;
    type Out = JointMat;
    type Buf = Vec<JointMat>;
    type In = Vec<JointQuat>;
    fn safe(shape: Shape) -> Option<QuatsToMatsFn> {
        match shape {
            Shape::QuatsToMats { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[JointMat]) -> Vec<JointMat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<JointMat>, Vec<JointQuat>) {
        (vec![JointMat::IDENTITY; n], Rng::new(seed).joints(n))
    }
    fn call(f: QuatsToMatsFn, imp: Impl, out: &mut [JointMat], q: &Vec<JointQuat>) -> Result<(), Error> {
        f(imp, out, q)
    }
    fn bad_calls(f: QuatsToMatsFn, n: usize) -> Vec<BadCall<JointMat>> {
        let q = Rng::new(3).joints(n + 1);
        let q2 = q.clone();
        vec![
            bad(
                "quats too short",
                move |imp, out| f(imp, out, &q[..n - 1]),
                Error::LengthMismatch { what: "quats", expected: n, found: n - 1 },
            ),
            bad(
                "quats too long",
                move |imp, out| f(imp, out, &q2),
                Error::LengthMismatch { what: "quats", expected: n, found: n + 1 },
            ),
            bad("no such form", move |_, out| f(Impl::Sse2, out, &[]), Error::Unsupported(Impl::Sse2)),
        ]
    }
}
