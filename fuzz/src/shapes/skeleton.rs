//! `Shape::Skeleton`: a range of a parent-first skeleton, in place.
//!
//! Inputs: any number of matrices, any `parents` (length and entries), any
//! range (empty, exhausted, out of bounds), any floats. On `Ok`, besides
//! the common checks ([`run_every_impl`]): joints outside the range are
//! kept; the scalar form agrees with each form that reproduces the listing
//! ([`Origin::is_faithful`](animasm::Origin::is_faithful)) bit for bit
//! (NaN payloads aside), or, for a listing with erratum E1
//! ([`listing_adds_zero`]), up to the sign of zeros; every other form
//! agrees with the scalar form within [`TOL`] where the chain of matrices
//! is rigid ([`vs_scalar`]). A routine and its variants (the `movss` +
//! `shufps` broadcast of `transform_skeleton`) give the same results with
//! every form both have ([`with_family`]).

use crate::*;
use animasm::roster::{ROUTINES, Routine, Shape, SkeletonFn};
use animasm_testkit::oracle::{mats_f64, transform_skeleton_f64, untransform_skeleton_f64};
use core::ops::RangeInclusive;
use std::sync::OnceLock;

/// The tolerance against the scalar form (the tests' `TOL_SCALAR`), scaled
/// by the chain's translations and depth ([`vs_scalar`]).
pub const TOL: f64 = 1e-5;

/// What a skeleton routine computes ([`op`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SkeletonOp {
    /// `M[i] = M[parents[i]] * M[i]`, parents first
    /// (`animasm_testkit::oracle::transform_skeleton_f64`).
    Transform,
    /// `M[i] = M[parents[i]]^-1 * M[i]`, the parents as they were, last
    /// joint first (`animasm_testkit::oracle::untransform_skeleton_f64`).
    Untransform,
}

/// What the skeleton routine `r` computes, found once by running its
/// scalar form on a chain of three rigid joints over the range `1..=2` and
/// comparing with the two f64 oracles: the fact decides which matrices
/// a joint's result depends on ([`vs_scalar`]).
///
/// # Panics
///
/// If `r` is not a skeleton routine, or computes neither.
pub fn op(r: &Routine) -> SkeletonOp {
    static OPS: OnceLock<Vec<(&'static str, SkeletonOp)>> = OnceLock::new();
    let ops = OPS.get_or_init(|| {
        ROUTINES
            .iter()
            .filter_map(|x| match x.shape {
                Shape::Skeleton { safe, .. } => Some((x.name, probe(x, safe))),
                _ => None,
            })
            .collect()
    });
    ops.iter().find(|(name, _)| *name == r.name).map(|&(_, op)| op).expect("a skeleton routine")
}

/// [`op`]'s probe.
fn probe(r: &Routine, safe: SkeletonFn) -> SkeletonOp {
    // Rotations of 60, 90 and 120 degrees about three axes, translations
    // of a few units.
    let (h, c, s) = (0.5f32.sqrt(), 0.75f32.sqrt(), 0.5f32);
    let mats = [
        rotation_translation(Quat::from_array([0.0, 0.0, s, c]), [1.0, 2.0, 3.0]),
        rotation_translation(Quat::from_array([h, 0.0, 0.0, h]), [-2.0, 0.5, 1.0]),
        rotation_translation(Quat::from_array([0.0, c, 0.0, s]), [0.25, -1.0, 2.0]),
    ];
    assert!(mats.iter().all(rigid), "the probe's matrices are rigid");
    let parents = [-1, 0, 1];
    let mut got = mats;
    let imp = r.scalar_form().imp;
    assert_eq!(safe(imp, &mut got, &parents, 1..=2), Ok(()), "{}: the probe", r.name);
    let m64 = mats_f64(&mats);
    let near = |want: Vec<[f64; 12]>| {
        got.iter().zip(&want).all(|(g, w)| g.mat.iter().zip(w).all(|(&a, &b)| (f64::from(a) - b).abs() <= 1e-3))
    };
    match (near(transform_skeleton_f64(&m64, &parents, 1..=2)), near(untransform_skeleton_f64(&m64, &parents, 1..=2))) {
        (true, false) => SkeletonOp::Transform,
        (false, true) => SkeletonOp::Untransform,
        _ => panic!("{}: neither transforms nor untransforms the probe: {got:?} (fuzz/src/shapes/skeleton.rs)", r.name),
    }
}

/// Whether the listing of `r` has erratum E1 of `transform_skeleton`: it
/// adds `(0, 0, 0, t)` to every row, turning a `-0.0` in the rotation
/// columns into `+0.0`, and a child of a joint where that happened can then
/// sum its zeros, translation included, to the other sign; its written
/// rotation elements are never `-0.0` (`asm_notes/transform_skeleton.md`).
/// `transform_skeleton` and its variants; every other skeleton routine's
/// listing agrees with its C bit for bit.
pub fn listing_adds_zero(r: &Routine) -> bool {
    r.name == "transform_skeleton" || r.variant_of == Some("transform_skeleton")
}

/// Fuzzes the skeleton routine `r` (and its variants) on arguments from
/// `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let n = g.length();
    let mats = g.mats(n);
    let parents_len = g.len_near(n);
    let parents: Buf<i32> = Buf::from_fn(parents_len, |i| g.parent(i));
    let range = g.range(n);
    let facts = MatFacts::new(&mats);
    with_family(r, |m, runs| {
        let Shape::Skeleton { safe, .. } = m.shape else { unreachable!("a variant of another shape") };
        let runs = run_every_impl(runs, &Forms::of(m), &mats, |imp, out| safe(imp, out, &parents, range.clone()));
        if runs.result().is_err() {
            // The same `Err` for every form (`run_every_impl`), and for
            // every variant (`with_family`): the validation is shared.
            return;
        }
        vs_scalar(runs, &facts, &parents, &range, op(m));
        for r in runs.iter().filter(|r| r.result.is_ok()) {
            for j in (0..n).filter(|j| range.is_empty() || !range.contains(j)) {
                assert_untouched(&mats[j..=j], &r.out[j..=j], format_args!("{}: joint {j} outside {range:?}", r.imp));
            }
        }
        let Some(s) = scalar_run(runs) else { return };
        for l in faithful_runs(runs) {
            let ctx = format_args!("{}: {} vs {}", m.name, s.imp, l.imp);
            if !listing_adds_zero(m) {
                assert_same(&s.out, &l.out, ctx);
                continue;
            }
            assert_same_up_to_sign_of_zero(&s.out, &l.out, ctx);
            for j in range.clone() {
                let e = l.out[j].mat;
                assert!(
                    (0..12).all(|k| k % 4 == 3 || e[k].to_bits() != 0x8000_0000),
                    "{}: joint {j} has a -0.0 rotation element: {e:?}",
                    l.imp
                );
            }
        }
    });
}

/// Every form against the scalar form on every joint of the range whose
/// matrices are rigid: for a [`SkeletonOp::Transform`] every matrix on its
/// chain of parents back to the first joint outside the range (`depth` of
/// them), within [`TOL`] times the larger of 1 and the sum of the chain's
/// translations' magnitudes, times the larger of 1 and `depth / 8` (the
/// error grows with the chain); for a [`SkeletonOp::Untransform`] its own
/// and its parent's, within [`TOL`] times the larger of 1 and the sum of
/// their translations' magnitudes.
pub fn vs_scalar(
    runs: &Runs<JointMat>,
    facts: &MatFacts,
    parents: &[i32],
    range: &RangeInclusive<usize>,
    op: SkeletonOp,
) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for i in range.clone() {
        let (mut ok, mut scale, mut depth) = (true, 1.0, 0usize);
        let mut j = i;
        loop {
            ok &= facts.rigid(j);
            scale += facts.magnitude(j);
            depth += 1;
            let p = parents[j] as usize;
            if op == SkeletonOp::Untransform || !range.contains(&p) {
                ok &= facts.rigid(p);
                scale += facts.magnitude(p);
                break;
            }
            j = p;
        }
        if !ok {
            continue;
        }
        let bound = TOL * scale * (depth as f64 / 8.0).max(1.0);
        for r in others.clone() {
            assert_close(&r.out[i], &s.out[i], |_| bound, format_args!("{}: joint {i} (chain of {depth})", r.imp));
        }
    }
}
