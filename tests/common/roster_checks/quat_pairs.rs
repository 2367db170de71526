//! [`Shape::QuatPairs`] routines (element-wise slerp of two quaternion
//! arrays by one factor): their property on the shared strategies' unit
//! quaternions, the checks every such routine meets ([`check_shape`], run by
//! `tests/properties_streams.rs` over the roster) and the one that names the
//! routine's bound ([`against_f64`], run by the routine's test file).

use animasm::roster::{QuatPairsFn, Routine, Shape};
use animasm::{Error, Impl, Quat};
use proptest::strategy::Strategy;

use super::stream::{CASES, MIRI_CASES, quat_bits, stream_len};
use super::{Outs, property, routine, scalar, twins};
use crate::common::error::max_abs_diff;
use crate::common::exact::ExactAligned;
use crate::common::harness::max_diff;
use crate::common::oracle::{f64x4, slerp_f64};
use crate::common::same_bits;
use crate::common::strategies::{config, lerp_factor, list, unit_quat};

/// The alignment every buffer of a case starts at: what the AVX forms need.
pub const ALIGN: usize = 32;

/// One case: `from`, `to` and the factor.
pub type Case = ((Vec<Quat>, Vec<Quat>), f32);

/// The cases: two lists of unit quaternions of one length (under Miri 16
/// to 19, so that the 16-wide AVX loop runs and leaves a tail) and an edge
/// interpolation factor.
pub fn cases() -> impl Strategy<Value = Case> {
    (stream_len(16..=19).prop_flat_map(|n| (list(unit_quat(), n), list(unit_quat(), n))), lerp_factor())
}

/// Whether `s` is the shape of this module.
pub fn is(s: &Shape) -> bool {
    matches!(s, Shape::QuatPairs { .. })
}

/// The safe function of `r`.
#[track_caller]
pub fn safe(r: &Routine) -> QuatPairsFn {
    match r.shape {
        Shape::QuatPairs { safe, .. } => safe,
        _ => panic!("{} is not a QuatPairs routine", r.name),
    }
}

/// Runs `r` with `imp` on exact [`ALIGN`]-byte-aligned copies; the result.
pub fn run_one(r: &Routine, imp: Impl, from: &[Quat], to: &[Quat], factor: f32) -> Result<Vec<Quat>, Error> {
    let (from, to) = (ExactAligned::new(from, ALIGN), ExactAligned::new(to, ALIGN));
    let mut out = ExactAligned::new(&vec![Quat::default(); from.len()], ALIGN);
    safe(r)(imp, &mut out, &from, &to, factor).map(|()| out.to_vec())
}

/// Every form of `r` on exact aligned copies.
pub fn run(r: &Routine, from: &[Quat], to: &[Quat], factor: f32) -> Outs<Quat> {
    r.forms()
        .map(|form| {
            let out = run_one(r, form.imp, from, to, factor)
                .unwrap_or_else(|e| panic!("{}: {} quaternions: {}: {e}", r.name, from.len(), form.imp));
            (form, out)
        })
        .collect()
}

/// The listing and its twin bit for bit (NaN-aware), where both ran.
#[track_caller]
pub fn assert_twins(outs: &Outs<Quat>, ctx: &str) {
    if let Some((listing, twin)) = twins(outs) {
        let (a, i) = (quat_bits(listing), quat_bits(twin));
        let same =
            a.len() == i.len() && a.iter().zip(&i).all(|(&x, &y)| same_bits(f32::from_bits(x), f32::from_bits(y)));
        assert!(same, "{ctx}: the listing and its twin differ");
    }
}

/// The arrays one quaternion into their allocation (16 bytes off a 32-byte
/// boundary): `v` is `shifted(v)[1..]`.
fn shifted(v: &[Quat]) -> ExactAligned<Quat> {
    ExactAligned::new(&[&[Quat::IDENTITY], v].concat(), ALIGN)
}

/// `Auto` on arrays 16 bytes off an [`ALIGN`]-byte boundary.
fn auto_unaligned(r: &Routine, from: &[Quat], to: &[Quat], factor: f32) -> Vec<Quat> {
    let (from_u, to_u) = (shifted(from), shifted(to));
    let mut out_u = shifted(&vec![Quat::default(); from.len()]);
    safe(r)(Impl::Auto, &mut out_u[1..], &from_u[1..], &to_u[1..], factor).unwrap();
    out_u[1..].to_vec()
}

/// What every `QuatPairs` routine meets, every form of `r` on one case:
/// the listing and its twin bit for bit; the endpoint rule exactly
/// (`factor <= 0` gives `from`, `>= 1` gives `to`); `Auto` on arrays 16
/// bytes off a 32-byte boundary takes a form the arrays allow, whose
/// result is that form's (natively; under Miri each run draws new
/// `rsqrtps` errors, and [`against_f64`] bounds it); and a form that needs
/// more alignment than that refuses such arrays from 16 quaternions on (its
/// 16-wide loop), writing nothing.
pub fn check_shape(r: &Routine, ((from, to), factor): &Case) {
    let (n, factor) = (from.len(), *factor);
    let ctx = format!("{}: {n} quaternions, factor {factor:e}", r.name);
    let outs = run(r, from, to, factor);
    assert_twins(&outs, &ctx);
    if factor <= 0.0 || factor >= 1.0 {
        let want = if factor <= 0.0 { from } else { to };
        for (form, out) in &outs {
            assert_eq!(quat_bits(out), quat_bits(want), "{ctx}: {}: the endpoint rule", form.imp);
        }
    }
    let auto = auto_unaligned(r, from, to, factor);
    if !cfg!(miri) {
        assert!(
            outs.iter().any(|(_, o)| quat_bits(o) == quat_bits(&auto)),
            "{ctx}: Auto on unaligned arrays gave no form's result"
        );
    }
    let (from_u, to_u) = (shifted(from), shifted(to));
    for (form, _) in outs.iter().filter(|(f, _)| f.align > 16) {
        if n >= 16 {
            let zeros = vec![Quat::default(); n];
            let mut out_u = shifted(&zeros);
            let got = safe(r)(form.imp, &mut out_u[1..], &from_u[1..], &to_u[1..], factor);
            assert!(
                matches!(got, Err(Error::Misaligned { needed, .. }) if needed == form.align),
                "{ctx}: {} unaligned: {got:?}",
                form.imp
            );
            assert_eq!(quat_bits(&out_u[1..]), quat_bits(&zeros), "{ctx}: {}: written on Err", form.imp);
        }
    }
}

/// The property of the routine `name` on [`cases`]: for `0 < factor < 1`,
/// every form within `bound` (max abs error of a component) of the f64
/// slerp and within `2 bound` of the scalar form; under Miri, `Auto` on
/// unaligned arrays within `2 bound` of the scalar form (what
/// [`check_shape`] leaves to the routine).
#[track_caller]
pub fn against_f64(name: &str, bound: f64) {
    let r = routine(name);
    property("against_f64", config(CASES, MIRI_CASES), cases(), |((from, to), factor)| {
        if factor <= 0.0 || factor >= 1.0 {
            return;
        }
        let ctx = format!("{name}: {} quaternions, factor {factor:e}", from.len());
        let outs = run(r, &from, &to, factor);
        let scalar = scalar(r, &outs);
        for (form, out) in &outs {
            for (k, q) in out.iter().enumerate() {
                let want = slerp_f64(f64x4(from[k].to_array()), f64x4(to[k].to_array()), f64::from(factor));
                let e = max_abs_diff(q.to_array(), want);
                assert!(e <= bound, "{ctx}: {}: quaternion {k}: {e:e} from the f64 slerp (bound {bound:e})", form.imp);
            }
            let d = max_diff(out, scalar);
            assert!(d <= 2.0 * bound, "{ctx}: {}: {d:e} from the scalar form", form.imp);
        }
        if cfg!(miri) {
            let d = max_diff(&auto_unaligned(r, &from, &to, factor), scalar);
            assert!(d <= 2.0 * bound, "{ctx}: Auto on unaligned arrays: {d:e} from the scalar form");
        }
    });
}
