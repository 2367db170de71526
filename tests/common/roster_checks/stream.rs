//! [`Shape::Stream`] routines (one quaternion against a stream of
//! quaternions, one factor each): their property on the shared strategies'
//! streams, the checks every such routine meets ([`check_shape`], run by
//! `tests/properties_streams.rs` over the roster) and the one that names the
//! routine's f64 oracle and bound ([`against_f64`], run by the routine's
//! test file).

use core::ops::RangeInclusive;

use animasm::roster::{Routine, Shape, StreamFn};
use animasm::{Error, Impl, Quat};
use proptest::prelude::*;

use super::{property, routine};
use crate::common::error::max_abs_diff;
use crate::common::exact::exact_vec;
use crate::common::harness::{Floats, max_diff, out_bits};
use crate::common::strategies::{config, len, lerp_factor, list, unit_quat};

/// Cases per property of the stream shapes (`Stream` and `QuatPairs`)
/// natively and under Miri.
pub const CASES: u32 = 2000;
pub const MIRI_CASES: u32 = 2;

/// Max abs difference of a component between any form of a stream routine
/// and its scalar form; under Miri, whose `rsqrtps` and `rcpps` add a
/// random error on every call, also between two runs of one form.
pub const VS_SCALAR: f64 = 5e-7;

/// An f64 oracle of one element: `(l, r, t)`.
pub type Oracle<'a> = &'a dyn Fn(&Quat, &Quat, f32) -> [f64; 4];

/// Every float as its bit pattern.
pub fn quat_bits(q: &[Quat]) -> Vec<u32> {
    q.iter().flat_map(|q| q.to_array().map(f32::to_bits)).collect()
}

/// A list length: [`len`] natively; under Miri `miri` (a range that enters
/// the vector loop of the widest form and leaves a tail).
pub fn stream_len(miri: RangeInclusive<usize>) -> BoxedStrategy<usize> {
    if cfg!(miri) { miri.boxed() } else { len() }
}

/// One case: `l`, then `n` quaternions `r` and factors `t`.
pub type Case = (Quat, Vec<Quat>, Vec<f32>);

/// The cases: `l`, then `n` quaternions `r` and factors `t` (mostly inside
/// `(0, 1)`, sometimes an edge value, the endpoints and beyond included);
/// under Miri 7 to 11 elements, so that the 8-wide loops run and leave a
/// tail.
pub fn cases() -> impl Strategy<Value = Case> {
    (unit_quat(), stream_len(7..=11)).prop_flat_map(|(l, n)| (Just(l), list(unit_quat(), n), list(lerp_factor(), n)))
}

/// Whether `s` is the shape of this module.
pub fn is(s: &Shape) -> bool {
    matches!(s, Shape::Stream { .. })
}

/// The safe function of `r`.
#[track_caller]
pub fn safe(r: &Routine) -> StreamFn {
    match r.shape {
        Shape::Stream { safe, .. } => safe,
        _ => panic!("{} is not a Stream routine", r.name),
    }
}

/// Runs `r` with `imp` on exact copies (`dest`, `r` and `t` each end their
/// allocation); the result.
pub fn run_one(r: &Routine, imp: Impl, l: &Quat, q: &[Quat], t: &[f32]) -> Result<Vec<Quat>, Error> {
    let (q, t) = (exact_vec(q), exact_vec(t));
    let mut dest = exact_vec(&vec![Quat::default(); q.len()]);
    safe(r)(imp, &mut dest, l, &q, &t).map(|()| dest)
}

/// Two runs of the same form on the same input: bit for bit natively;
/// within [`VS_SCALAR`] under Miri, whose `rsqrtps` and `rcpps` add a
/// random error (within Intel's bound) on every call, so that two runs
/// differ in the last bits.
#[track_caller]
pub fn assert_rerun<T: Floats>(a: &[T], b: &[T], bound: f64, ctx: &str) {
    if cfg!(miri) {
        let d = max_diff(a, b);
        assert!(d <= bound, "{ctx}: {d:e} apart (bound {bound:e} under Miri)");
    } else {
        assert_eq!(out_bits(a), out_bits(b), "{ctx}");
    }
}

/// What every `Stream` routine meets, every form of `r` on one case: the
/// endpoint rule exactly, element by element (`t <= 0` gives `l`, `t >= 1`
/// gives `r`); every other element within [`VS_SCALAR`] of the scalar
/// form's; and every element the same bits on a suffix of the stream that
/// starts a new block or tail (an element depends on its own inputs only,
/// not on its place in a block).
pub fn check_shape(r: &Routine, (l, q, t): &Case) {
    let n = q.len();
    let ctx = format!("{}: {n} quaternions", r.name);
    let run = |imp: Impl, q: &[Quat], t: &[f32]| {
        run_one(r, imp, l, q, t).unwrap_or_else(|e| panic!("{ctx}: {imp}: unexpected error {e}"))
    };
    let scalar = run(r.scalar_form().imp, q, t);
    for form in r.forms() {
        let out = run(form.imp, q, t);
        let ctx = format!("{ctx}: {}", form.imp);
        for k in 0..n {
            let ctx = format!("{ctx}: element {k}, t = {:e}", t[k]);
            if t[k] <= 0.0 || t[k] >= 1.0 {
                let want = if t[k] <= 0.0 { *l } else { q[k] };
                assert_eq!(quat_bits(&[out[k]]), quat_bits(&[want]), "{ctx}: the endpoint rule");
                continue;
            }
            let d = max_diff(&out[k..=k], &scalar[k..=k]);
            assert!(d <= VS_SCALAR, "{ctx}: {d:e} from the scalar form");
        }
        for start in [1, 3, 5, 8].into_iter().filter(|&s| s < n) {
            let tail = run(form.imp, &q[start..], &t[start..]);
            assert_rerun(&tail, &out[start..], VS_SCALAR, &format!("{ctx}: the suffix from {start}"));
        }
    }
}

/// The property of the routine `name` on [`cases`]: every element with `0
/// < t < 1` of every form within `bound` (max abs error of a component) of
/// `oracle` (what [`check_shape`] leaves to the routine).
#[track_caller]
pub fn against_f64(name: &str, oracle: Oracle, bound: f64) {
    let r = routine(name);
    property("against_f64", config(CASES, MIRI_CASES), cases(), |(l, q, t)| {
        for form in r.forms() {
            let out = run_one(r, form.imp, &l, &q, &t).unwrap();
            for k in (0..q.len()).filter(|&k| t[k] > 0.0 && t[k] < 1.0) {
                let e = max_abs_diff(out[k].to_array(), oracle(&l, &q[k], t[k]));
                let ctx = format!("{name}: {} quaternions: {}: element {k}, t = {:e}", q.len(), form.imp, t[k]);
                assert!(e <= bound, "{ctx}: {e:e} from the f64 oracle (bound {bound:e})");
            }
        }
    });
}
