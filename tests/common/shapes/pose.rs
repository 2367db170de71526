//! [`Shape::Pose`]: a whole pose (two poses blended, to model matrices and
//! skinning matrices) of a parents-first skeleton.
//!
//! The output buffer holds the model matrices, then, where the input has
//! inverse bind matrices, the skinning matrices: `2 n` elements for `n`
//! joints (so that the generic checks see both outputs, and that nothing
//! is written to either on `Err`). [`Pose::inputs`] has both, a scale, and
//! a forest of several roots.

use animasm::pose::{PoseInput, Skin};
use animasm::roster::{PoseFn, Shape};
use animasm::{Error, Impl, JointMat, JointQuat, Vec4};
use animasm_testkit::inputs::{Rng, forest_parents, joint_lists, rigid_mats};

use super::{BadCall, ShapeKind, bad};

/// [`Shape::Pose`].
pub struct Pose;

/// Everything but the output: the two poses, the factor, the scales, the
/// parents (their length is the joint count) and the inverse bind
/// matrices (`None`: no skin, the buffer is the model alone).
pub struct PoseIn {
    pub from: Vec<JointQuat>,
    pub to: Vec<JointQuat>,
    pub factor: f32,
    pub scale: Option<Vec<Vec4>>,
    pub parents: Vec<i32>,
    pub inverse_bind: Option<Vec<JointMat>>,
}

/// `n` scales in `[0.5, 2)` on each axis.
pub fn scales(seed: u64, n: usize) -> Vec<Vec4> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| Vec4::new(rng.range(0.5, 2.0) as f32, rng.range(0.5, 2.0) as f32, rng.range(0.5, 2.0) as f32, 1.0))
        .collect()
}

impl ShapeKind for Pose {
    type Safe = PoseFn;
    type Out = JointMat;
    type Buf = Vec<JointMat>;
    type In = PoseIn;
    fn safe(shape: Shape) -> Option<PoseFn> {
        match shape {
            Shape::Pose { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[JointMat]) -> Vec<JointMat> {
        init.to_vec()
    }
    /// Random poses blended at 0.37, scaled, on a forest with a root every
    /// eleventh joint, with a skin: the buffer is `2 n` identities.
    fn inputs(seed: u64, n: usize) -> (Vec<JointMat>, PoseIn) {
        let (from, to, _) = joint_lists(seed, n);
        let parents = forest_parents(&mut Rng::new(seed ^ 0x9a4e), n, |i| i % 11 == 0);
        let input = PoseIn {
            from,
            to,
            factor: 0.37,
            scale: Some(scales(seed ^ 0x5ca1e, n)),
            parents,
            inverse_bind: Some(rigid_mats(seed ^ 0x1b, n)),
        };
        (vec![JointMat::IDENTITY; 2 * n], input)
    }
    /// The model matrices are the first half of `out` where the input has
    /// a skin (the skinning matrices the second), all of it otherwise.
    fn call(f: PoseFn, imp: Impl, out: &mut [JointMat], i: &PoseIn) -> Result<(), Error> {
        let input = PoseInput { from: &i.from, to: &i.to, factor: i.factor, scale: i.scale.as_deref() };
        match &i.inverse_bind {
            Some(inverse_bind) => {
                let (model, mats) = out.split_at_mut(out.len() / 2);
                f(imp, &input, &i.parents, model, Some(Skin { inverse_bind, mats }))
            }
            None => f(imp, &input, &i.parents, out, None),
        }
    }
    /// Without a skin (the buffer is the `n` model matrices).
    fn bad_calls(f: PoseFn, n: usize) -> Vec<BadCall<JointMat>> {
        let (from, to, _) = joint_lists(7, n);
        let parents: Vec<i32> = (0..n as i32).map(|i| i - 1).collect();
        let (f1, t1, p1) = (from.clone(), to.clone(), parents.clone());
        let (f2, t2, mut p2) = (from.clone(), to.clone(), parents.clone());
        p2[n - 1] = n as i32 - 1;
        let (f3, t3, p3) = (from, to, parents);
        vec![
            bad(
                "from too short, a NaN factor",
                move |imp, out| f(imp, &PoseInput::new(&f1[..n - 1], &t1, f32::NAN), &p1, out, None),
                Error::LengthMismatch { what: "from", expected: n, found: n - 1 },
            ),
            bad(
                "a joint its own parent",
                move |imp, out| f(imp, &PoseInput::new(&f2, &t2, 0.5), &p2, out, None),
                Error::InvalidParent { joint: n - 1, parent: n as i32 - 1 },
            ),
            bad(
                "an infinite factor",
                move |imp, out| f(imp, &PoseInput::new(&f3, &t3, f32::INFINITY), &p3, out, None),
                Error::NonFiniteFactor { what: "factor", position: None, value: f32::INFINITY },
            ),
            // `Impl::Sse2`: a form of no routine of this shape.
            bad(
                "no such form",
                move |_, out| f(Impl::Sse2, &PoseInput::new(&[], &[], 0.5), &[], out, None),
                Error::Unsupported(Impl::Sse2),
            ),
        ]
    }
}
