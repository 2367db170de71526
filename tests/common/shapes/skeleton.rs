//! [`Shape::Skeleton`]: a range of a parent-first skeleton, in place.

use core::ops::RangeInclusive;

use animasm::roster::{Shape, SkeletonFn};
use animasm::{Error, Impl, JointMat};
use animasm_testkit::error::mat_max_abs_diff;
use animasm_testkit::inputs::{random_parents, rigid_mats};
use animasm_testkit::oracle::mats_f64;

use super::{BadCall, ShapeKind, bad};

/// [`Shape::Skeleton`].
pub struct Skeleton;

/// The input besides the matrices: parents and the joint range.
pub struct SkeletonIn {
    pub parents: Vec<i32>,
    pub range: RangeInclusive<usize>,
}

impl ShapeKind for Skeleton {
    type Safe = SkeletonFn;
    type Out = JointMat;
    type Buf = Vec<JointMat>;
    type In = SkeletonIn;
    fn safe(shape: Shape) -> Option<SkeletonFn> {
        match shape {
            Shape::Skeleton { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[JointMat]) -> Vec<JointMat> {
        init.to_vec()
    }
    /// Every joint but the root, `1..=n - 1`; for no joints an empty range
    /// at 0 (exhausted: `1..=0` would start past the end of an empty slice).
    fn inputs(seed: u64, n: usize) -> (Vec<JointMat>, SkeletonIn) {
        let range = if n == 0 {
            let mut r = 0..=0;
            r.next();
            r
        } else {
            1..=n - 1
        };
        (rigid_mats(seed, n), SkeletonIn { parents: random_parents(seed ^ 0x5eed, n), range })
    }
    fn call(f: SkeletonFn, imp: Impl, out: &mut [JointMat], i: &SkeletonIn) -> Result<(), Error> {
        f(imp, out, &i.parents, i.range.clone())
    }
    fn bad_calls(f: SkeletonFn, n: usize) -> Vec<BadCall<JointMat>> {
        let parents = random_parents(5, n);
        let (p1, p2, mut p3) = (parents.clone(), parents.clone(), parents);
        p3[n - 1] = n as i32 - 1;
        vec![
            bad(
                "range past the end",
                move |imp, out| f(imp, out, &p1, 0..=n),
                Error::RangeOutOfBounds { start: 0, end: n, len: n },
            ),
            bad(
                "parents too short",
                move |imp, out| f(imp, out, &p2[..n - 1], 0..=n - 1),
                Error::TooShort { what: "parents", needed: n, found: n - 1 },
            ),
            bad(
                "a joint its own parent",
                move |imp, out| f(imp, out, &p3, n - 1..=n - 1),
                Error::InvalidParent { joint: n - 1, parent: n as i32 - 1 },
            ),
            // `Impl::Sse2`: a form of no routine of this shape.
            bad("no such form", move |_, out| f(Impl::Sse2, out, &[], 0..=0), Error::Unsupported(Impl::Sse2)),
        ]
    }
}

/// An f64 transform of a skeleton range: `(mats, parents, range)` to the
/// matrices after it (`animasm_testkit::oracle`).
pub type Oracle = fn(&[[f64; 12]], &[i32], RangeInclusive<usize>) -> Vec<[f64; 12]>;

/// Max abs error of `out` against `oracle` (the routine's f64 transform of
/// a skeleton range) on the initial matrices.
pub fn oracle_error(out: &[JointMat], init: &[JointMat], i: &SkeletonIn, oracle: Oracle) -> f64 {
    let want = oracle(&mats_f64(init), &i.parents, i.range.clone());
    out.iter().zip(&want).map(|(o, w)| mat_max_abs_diff(&o.mat, w)).fold(0.0, f64::max)
}
