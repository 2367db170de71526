//! [`Shape::Stream`]: one quaternion against a stream of quaternions, one
//! factor each.

use animasm::roster::{Shape, StreamFn};
use animasm::{Error, Impl, Quat};
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::inputs::Rng;

use super::{BadCall, InterpolatorShape, ShapeKind, bad};

/// [`Shape::Stream`].
pub struct Stream;

/// The input: `l`, the stream `r` and the factors `t`.
pub struct StreamIn {
    pub l: Quat,
    pub r: Vec<Quat>,
    pub t: Vec<f32>,
}

impl ShapeKind for Stream {
    type Safe = StreamFn;
    type Out = Quat;
    type Buf = Vec<Quat>;
    type In = StreamIn;
    fn safe(shape: Shape) -> Option<StreamFn> {
        match shape {
            Shape::Stream { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[Quat]) -> Vec<Quat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<Quat>, StreamIn) {
        let mut rng = Rng::new(seed);
        let l = rng.unit_quat();
        let r = (0..n).map(|_| rng.unit_quat()).collect();
        let t = (0..n).map(|_| rng.range(0.01, 0.99) as f32).collect();
        (vec![Quat::IDENTITY; n], StreamIn { l, r, t })
    }
    fn call(f: StreamFn, imp: Impl, out: &mut [Quat], i: &StreamIn) -> Result<(), Error> {
        f(imp, out, &i.l, &i.r, &i.t)
    }
    fn bad_calls(f: StreamFn, n: usize) -> Vec<BadCall<Quat>> {
        let (_, i) = Self::inputs(9, n + 1);
        let (l, r, t) = (i.l, i.r, i.t);
        let (r2, t2, r3, mut t3) = (r.clone(), t.clone(), r.clone(), t.clone());
        t3[n - 1] = f32::NAN;
        vec![
            bad(
                "r too short",
                move |imp, out| f(imp, out, &l, &r[..n - 1], &t[..n]),
                Error::LengthMismatch { what: "r", expected: n, found: n - 1 },
            ),
            bad(
                "t too long",
                move |imp, out| f(imp, out, &l, &r2[..n], &t2),
                Error::LengthMismatch { what: "t", expected: n, found: n + 1 },
            ),
            bad(
                "the last t is NaN",
                move |imp, out| f(imp, out, &l, &r3[..n], &t3[..n]),
                Error::NonFiniteFactor { what: "t", position: Some(n - 1), value: f32::NAN },
            ),
            bad("no such form", move |_, out| f(Impl::Asm, out, &l, &[], &[]), Error::Unsupported(Impl::Asm)),
        ]
    }
}

impl InterpolatorShape for Stream {
    fn call_at(f: StreamFn, imp: Impl, out: &mut [Quat], i: &StreamIn, t: f32) -> Result<(), Error> {
        f(imp, out, &i.l, &i.r, &vec![t; i.r.len()])
    }
    fn endpoint(_: &[Quat], i: &StreamIn, one: bool) -> Vec<Quat> {
        if one { i.r.clone() } else { vec![i.l; i.r.len()] }
    }
    fn earlier_error(f: StreamFn, n: usize, t: f32) -> BadCall<Quat> {
        let (_, i) = Self::inputs(10, n);
        bad(
            "r too short and a non-finite t",
            move |imp, out| f(imp, out, &i.l, &i.r[..n - 1], &vec![t; n]),
            Error::LengthMismatch { what: "r", expected: n, found: n - 1 },
        )
    }
    fn non_finite(t: f32) -> Error {
        Error::NonFiniteFactor { what: "t", position: Some(0), value: t }
    }
}

/// Max abs error of `out` against `oracle` (the routine's f64 function of
/// `l`, `r[k]` and `t[k]`) of every element.
pub fn oracle_error(out: &[Quat], i: &StreamIn, oracle: impl Fn(&Quat, &Quat, f32) -> [f64; 4]) -> f64 {
    (0..out.len()).map(|k| max_abs_diff(out[k].to_array(), oracle(&i.l, &i.r[k], i.t[k]))).fold(0.0, f64::max)
}
