//! [`Shape::Skeleton`] routines (a range of a parent-first skeleton, in
//! place): their property on the shared strategies' skeletons, the checks
//! every such routine meets ([`check_shape`], run by `tests/properties.rs`
//! over the roster) and the ones that name what the routine computes
//! ([`transform_property`], [`untransform_property`], run by the routine's
//! test file).

use core::ops::RangeInclusive;

use animasm::JointMat;
use animasm::roster::{self, Routine, Shape, SkeletonFn};
use proptest::strategy::Strategy;

use super::{CASES, MIRI_CASES, Outs, U, assert_affine_product, each_form, output, property, routine, scalar, twins};
use crate::common::exact::exact_vec;
use crate::common::oracle::mat_f64;
use crate::common::strategies::{config, rigid_mat, skeleton};
use crate::common::{assert_mats_bit_identical, same_bits};

/// One case: local (or global) rigid matrices, parents first, and the
/// range of joints to transform.
pub type Case = (Vec<JointMat>, Vec<i32>, RangeInclusive<usize>);

/// The cases: parents-first hierarchies of rigid matrices with joint ranges
/// (`skeleton(rigid_mat)`).
pub fn cases() -> impl Strategy<Value = Case> {
    skeleton(rigid_mat)
}

/// Whether `s` is the shape of this module.
pub fn is(s: &Shape) -> bool {
    matches!(s, Shape::Skeleton { .. })
}

/// The safe function of `r`.
#[track_caller]
pub fn safe(r: &Routine) -> SkeletonFn {
    match r.shape {
        Shape::Skeleton { safe, .. } => safe,
        _ => panic!("{} is not a Skeleton routine", r.name),
    }
}

/// Every form of `r` on an exact copy of `mats`, with an exact copy of
/// `parents`.
pub fn run(r: &Routine, mats: &[JointMat], parents: &[i32], range: &RangeInclusive<usize>) -> Outs<JointMat> {
    let (f, parents) = (safe(r), exact_vec(parents));
    each_form(r, mats, |imp, out| f(imp, out, &parents, range.clone()))
}

/// Panics unless `a` and `b` agree by [`same_bits`] in every float or are
/// both zeros of either sign. `transform_skeleton`'s listing turns a `-0.0`
/// in the rotation part into `+0.0` (erratum E1); a child of such a joint
/// can then sum its zeros, translation included, to the other sign than the
/// scalar port does (for example a parent whose row 2 is all `-0.0`, times a
/// zero local matrix, then an identity child).
#[track_caller]
fn assert_same_up_to_sign_of_zero(a: &[JointMat], b: &[JointMat], ctx: &str) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths differ");
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for e in 0..12 {
            let (u, v) = (x.mat[e], y.mat[e]);
            assert!(same_bits(u, v) || (u == 0.0 && v == 0.0), "{ctx}: joint {j} mat[{e}]: {u:e} vs {v:e}");
        }
    }
}

/// What every `Skeleton` routine meets, every form of `r` on one case: the
/// listing and its twin bit for bit; each of them the same as the scalar
/// form up to the sign of zeros (the listings add `+0.0` where the C
/// keeps a `-0.0`); every joint outside the range kept; and a variant of
/// another routine's listing ([`Routine::variant_of`]) bit for bit that
/// routine in every form both have.
pub fn check_shape(r: &Routine, (mats, parents, range): &Case) {
    let outs = run(r, mats, parents, range);
    let ctx = format!("{}: {} joints, range {range:?}", r.name, mats.len());
    if let Some((listing, twin)) = twins(&outs) {
        assert_mats_bit_identical(listing, twin, &format!("{ctx}: listing vs its twin"));
    }
    let scalar = scalar(r, &outs);
    for (form, out) in &outs {
        let ctx = format!("{ctx}: {}", form.imp);
        if form.origin.is_faithful() {
            assert_same_up_to_sign_of_zero(scalar, out, &format!("{ctx} vs the scalar form"));
        }
        for (j, (got, was)) in out.iter().zip(mats).enumerate() {
            if !range.contains(&j) {
                assert_mats_bit_identical(&[*got], &[*was], &format!("{ctx}: joint {j} outside the range"));
            }
        }
    }
    if let Some(base) = r.variant_of {
        let base = routine(base);
        let base_outs = run(base, mats, parents, range);
        for (form, out) in &outs {
            if let Some(b) = output(&base_outs, form.imp) {
                assert_mats_bit_identical(b, out, &format!("{ctx}: {}: {} vs {}", form.imp, base.name, r.name));
            }
        }
    }
}

/// The routine `name` and its variants ([`Routine::variant_of`]).
fn with_variants(name: &str) -> Vec<&'static Routine> {
    let r = routine(name);
    core::iter::once(r).chain(roster::ROUTINES.iter().filter(|v| v.variant_of == Some(r.name))).collect()
}

/// The property of a transform to global matrices (`name` and its
/// variants), on [`cases`]: every joint of the range within four roundings
/// of its global parent (as the form computed it) times its local matrix in
/// f64; and the listing's forms (the asm port and its twin) write no `-0.0`
/// in the rotation part (erratum E1 of `transform_skeleton`'s listing: it
/// adds `+0.0` to the rotation columns; a successor documents and tests its
/// own choice in its routine's test file).
#[track_caller]
pub fn transform_property(name: &str) {
    let routines = with_variants(name);
    property("transform_property", config(CASES, MIRI_CASES), cases(), |(mats, parents, range)| {
        for &r in &routines {
            for (form, out) in run(r, &mats, &parents, &range) {
                let ctx = format!("{}: {} joints, range {range:?}: {}", r.name, mats.len(), form.imp);
                for i in range.clone() {
                    if form.origin.is_faithful() {
                        let m = out[i].mat;
                        let negative_zero = (0..12).any(|e| e % 4 != 3 && m[e].to_bits() == 0x8000_0000);
                        assert!(!negative_zero, "{ctx}: joint {i}: -0.0 in {m:?}");
                    }
                    let p = parents[i] as usize;
                    assert_affine_product(&out[i], &out[p], &mats[i], 4.0, &format!("{ctx}: joint {i} (parent {p})"));
                }
            }
        }
    });
}

/// The property of a transform back to local matrices (`name` and its
/// variants), on [`cases`]: the listing's forms bit for bit the scalar form
/// (finite input); every joint of the range within five roundings of `Rp^T
/// (M - tp)` in f64, with the parent as it was (the routine runs last joint
/// first, so a parent is still global when its children read it).
#[track_caller]
pub fn untransform_property(name: &str) {
    let routines = with_variants(name);
    property("untransform_property", config(CASES, MIRI_CASES), cases(), |(mats, parents, range)| {
        for &r in &routines {
            let outs = run(r, &mats, &parents, &range);
            let scalar = scalar(r, &outs);
            for (form, out) in &outs {
                let ctx = format!("{}: {} joints, range {range:?}: {}", r.name, mats.len(), form.imp);
                if form.origin.is_faithful() {
                    assert_mats_bit_identical(scalar, out, &format!("{ctx}: scalar vs {}", form.imp));
                }
                for i in range.clone() {
                    let (pm, m) = (mat_f64(&mats[parents[i] as usize]), mat_f64(&mats[i]));
                    for e in 0..12 {
                        let (r, c) = (e / 4, e % 4);
                        let d = |k: usize| m[k * 4 + c] - if c == 3 { pm[k * 4 + 3] } else { 0.0 };
                        let want: f64 = (0..3).map(|k| pm[k * 4 + r] * d(k)).sum();
                        let scale: f64 = (0..3)
                            .map(|k| {
                                pm[k * 4 + r].abs()
                                    * (m[k * 4 + c].abs() + if c == 3 { pm[k * 4 + 3].abs() } else { 0.0 })
                            })
                            .sum();
                        let err = (f64::from(out[i].mat[e]) - want).abs();
                        assert!(
                            err <= 5.0 * U * scale * (1.0 + 1e-6),
                            "{ctx}: joint {i} mat[{e}]: error {err:e}, scale {scale:e}"
                        );
                    }
                }
            }
        }
    });
}
