//! [`Shape::QuatPairs`]: element-wise slerp of two quaternion arrays by one
//! factor (AVX forms: 32-byte-aligned buffers).

use animasm::roster::{QuatPairsFn, Shape};
use animasm::{AlignedQuats, Error, Impl, Quat};
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::inputs::Rng;
use animasm_testkit::oracle::f64x4;

use super::{BadCall, InterpolatorShape, ShapeKind, bad};

/// [`Shape::QuatPairs`].
pub struct QuatPairs;

/// The input: `from`, `to` (32-byte aligned) and the factor.
pub struct QuatsIn {
    pub from: AlignedQuats,
    pub to: AlignedQuats,
    pub factor: f32,
}

impl ShapeKind for QuatPairs {
    type Safe = QuatPairsFn;
    type Out = Quat;
    type Buf = AlignedQuats;
    type In = QuatsIn;
    fn safe(shape: Shape) -> Option<QuatPairsFn> {
        match shape {
            Shape::QuatPairs { safe, .. } => Some(safe),
            _ => None,
        }
    }
    fn buf(init: &[Quat]) -> AlignedQuats {
        AlignedQuats::from_slice(init)
    }
    fn inputs(seed: u64, n: usize) -> (Vec<Quat>, QuatsIn) {
        let mut rng = Rng::new(seed);
        let from: AlignedQuats = (0..n).map(|_| rng.unit_quat()).collect();
        let to: AlignedQuats = (0..n).map(|_| rng.unit_quat()).collect();
        (vec![Quat::IDENTITY; n], QuatsIn { from, to, factor: 0.37 })
    }
    fn call(f: QuatPairsFn, imp: Impl, out: &mut [Quat], i: &QuatsIn) -> Result<(), Error> {
        f(imp, out, &i.from, &i.to, i.factor)
    }
    fn bad_calls(f: QuatPairsFn, n: usize) -> Vec<BadCall<Quat>> {
        let (_, i) = Self::inputs(7, n + 1);
        let (a, b) = (i.from, i.to);
        let (a2, b2) = (a.clone(), b.clone());
        vec![
            bad(
                "from too short",
                move |imp, out| f(imp, out, &a[..n - 1], &b[..n], 0.5),
                Error::LengthMismatch { what: "from", expected: n, found: n - 1 },
            ),
            bad(
                "to too long",
                move |imp, out| f(imp, out, &a2[..n], &b2, 0.5),
                Error::LengthMismatch { what: "to", expected: n, found: n + 1 },
            ),
            bad(
                "no such form",
                move |_, out| f(Impl::Avx2NoFma, out, &[], &[], 0.5),
                Error::Unsupported(Impl::Avx2NoFma),
            ),
        ]
    }
}

impl InterpolatorShape for QuatPairs {
    fn call_at(f: QuatPairsFn, imp: Impl, out: &mut [Quat], i: &QuatsIn, factor: f32) -> Result<(), Error> {
        f(imp, out, &i.from, &i.to, factor)
    }
    fn endpoint(_: &[Quat], i: &QuatsIn, one: bool) -> Vec<Quat> {
        if one { i.to.to_vec() } else { i.from.to_vec() }
    }
    fn earlier_error(f: QuatPairsFn, n: usize, factor: f32) -> BadCall<Quat> {
        let (_, i) = Self::inputs(8, n);
        bad(
            "from too short and a non-finite factor",
            move |imp, out| f(imp, out, &i.from[..n - 1], &i.to, factor),
            Error::LengthMismatch { what: "from", expected: n, found: n - 1 },
        )
    }
    fn non_finite(factor: f32) -> Error {
        Error::NonFiniteFactor { what: "factor", position: None, value: factor }
    }
}

/// Max abs error of `out` against `oracle` (the routine's f64 slerp) of
/// every pair.
pub fn oracle_error(out: &[Quat], i: &QuatsIn, oracle: fn([f64; 4], [f64; 4], f64) -> [f64; 4]) -> f64 {
    let t = f64::from(i.factor);
    (0..out.len())
        .map(|k| max_abs_diff(out[k].to_array(), oracle(f64x4(i.from[k].to_array()), f64x4(i.to[k].to_array()), t)))
        .fold(0.0, f64::max)
}
