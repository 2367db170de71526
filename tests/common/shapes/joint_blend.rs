//! [`Shape::JointBlend`]: an indexed subset of a joint list interpolated
//! towards a blend list in place.

use animasm::roster::{JointBlendFn, Shape};
use animasm::{Error, Impl, JointQuat};
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::inputs::joint_lists;
use animasm_testkit::oracle::{f64x4, vec4_lerp_f64};

use super::{BadCall, InterpolatorShape, ShapeKind, bad};

/// [`Shape::JointBlend`].
pub struct JointBlend;

/// The input besides the joints: blend list, index, lerp.
pub struct JointIn {
    pub blend: Vec<JointQuat>,
    pub index: Vec<i32>,
    pub lerp: f32,
}

impl ShapeKind for JointBlend {
    type Safe = JointBlendFn;
    type Out = JointQuat;
    type Buf = Vec<JointQuat>;
    type In = JointIn;
    fn safe(shape: Shape) -> Option<JointBlendFn> {
        match shape {
            Shape::JointBlend { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[JointQuat]) -> Vec<JointQuat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<JointQuat>, JointIn) {
        let (joints, blend, mut index) = joint_lists(seed, n);
        // A shuffled index that leaves every third joint out.
        index.retain(|j| j % 3 != 2);
        index.reverse();
        (joints, JointIn { blend, index, lerp: 0.37 })
    }
    fn call(f: JointBlendFn, imp: Impl, out: &mut [JointQuat], i: &JointIn) -> Result<(), Error> {
        f(imp, out, &i.blend, i.lerp, &i.index)
    }
    fn bad_calls(f: JointBlendFn, n: usize) -> Vec<BadCall<JointQuat>> {
        let (_, input) = Self::inputs(1, n);
        let (b1, b2, b3) = (input.blend.clone(), input.blend.clone(), input.blend.clone());
        vec![
            bad(
                "blend too short",
                move |imp, out| f(imp, out, &b1[..n - 1], 0.5, &[0]),
                Error::TooShort { what: "blend", needed: n, found: n - 1 },
            ),
            bad(
                "index past the end",
                move |imp, out| f(imp, out, &b2, 0.5, &[0, n as i32]),
                Error::IndexOutOfRange { position: 1, value: n as i32, len: n },
            ),
            bad(
                "negative index",
                move |imp, out| f(imp, out, &b3, 0.5, &[-1]),
                Error::IndexOutOfRange { position: 0, value: -1, len: n },
            ),
            bad("no such form", move |_, out| f(Impl::Sse2, out, &[], 0.5, &[]), Error::Unsupported(Impl::Sse2)),
        ]
    }
}

impl InterpolatorShape for JointBlend {
    fn call_at(f: JointBlendFn, imp: Impl, out: &mut [JointQuat], i: &JointIn, lerp: f32) -> Result<(), Error> {
        f(imp, out, &i.blend, lerp, &i.index)
    }
    fn endpoint(init: &[JointQuat], i: &JointIn, one: bool) -> Vec<JointQuat> {
        let mut v = init.to_vec();
        if one {
            for &j in &i.index {
                v[j as usize] = i.blend[j as usize];
            }
        }
        v
    }
    fn earlier_error(f: JointBlendFn, n: usize, lerp: f32) -> BadCall<JointQuat> {
        let blend = Self::inputs(2, n).1.blend;
        bad(
            "blend too short and a non-finite lerp",
            move |imp, out| f(imp, out, &blend[..n - 1], lerp, &[0]),
            Error::TooShort { what: "blend", needed: n, found: n - 1 },
        )
    }
    fn non_finite(lerp: f32) -> Error {
        Error::NonFiniteFactor { what: "lerp", position: None, value: lerp }
    }
}

/// Max abs error of `out` against the f64 result: the indexed joints'
/// rotations by `oracle` (the routine's), their translations lerped; an
/// infinite error if a joint not indexed changed.
pub fn oracle_error(
    out: &[JointQuat],
    init: &[JointQuat],
    input: &JointIn,
    oracle: fn([f64; 4], [f64; 4], f64) -> [f64; 4],
) -> f64 {
    let t = f64::from(input.lerp);
    let mut e = 0f64;
    for (j, o) in out.iter().enumerate() {
        if input.index.contains(&(j as i32)) {
            let wq = oracle(f64x4(init[j].q.to_array()), f64x4(input.blend[j].q.to_array()), t);
            let wt = vec4_lerp_f64(f64x4(init[j].t.to_array()), f64x4(input.blend[j].t.to_array()), t);
            e = e.max(max_abs_diff(o.q.to_array(), wq)).max(max_abs_diff(o.t.to_array(), wt));
        } else if super::super::bits(&[*o]) != super::super::bits(&[init[j]]) {
            return f64::INFINITY;
        }
    }
    e
}
