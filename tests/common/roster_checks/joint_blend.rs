//! [`Shape::JointBlend`] routines (an indexed subset of a joint list
//! interpolated towards a blend list, in place): their property on the
//! shared strategies' joint lists, the checks every such routine meets
//! ([`check_shape`], run by `tests/properties.rs` over the roster) and the
//! one that names the routine's f64 oracle and bound ([`against_oracle`],
//! run by the routine's test file).

use animasm::JointQuat;
use animasm::roster::{JointBlendFn, Routine, Shape};
use proptest::strategy::Strategy;

use super::{CASES, MIRI_CASES, Outs, each_form, property, routine, scalar, twins};
use crate::common::assert_bit_identical;
use crate::common::error::max_abs_diff;
use crate::common::exact::exact_vec;
use crate::common::oracle::{f64x4, vec4_lerp_f64};
use crate::common::strategies::{config, joint_lists_and_index, lerp_factor};

/// Max abs error of a translation component (in `[-10, 10)`) against the
/// f64 lerp: every routine of the shape lerps the translations.
pub const TRANS_BOUND: f64 = 4e-6;

/// Max abs difference of a rotation component between any form and the
/// routine's scalar form (distinct indices): twice the largest bound of the
/// routines' f64 oracles (5e-7), which those bounds imply.
pub const ROT_VS_SCALAR: f64 = 1e-6;

/// An f64 oracle of the rotation: `(from, to, t)`.
pub type Oracle = fn([f64; 4], [f64; 4], f64) -> [f64; 4];

/// One case: `(joints, blend, index, unique)` (`unique`: no index
/// repeats) and the interpolation factor.
pub type Case = ((Vec<JointQuat>, Vec<JointQuat>, Vec<i32>, bool), f32);

/// The cases: joint lists with permuted or repeated `index` lists
/// (`joint_lists_and_index`) and edge interpolation factors
/// (`lerp_factor`).
pub fn cases() -> impl Strategy<Value = Case> {
    (joint_lists_and_index(), lerp_factor())
}

/// Whether `s` is the shape of this module.
pub fn is(s: &Shape) -> bool {
    matches!(s, Shape::JointBlend { .. })
}

/// The safe function of `r`.
#[track_caller]
pub fn safe(r: &Routine) -> JointBlendFn {
    match r.shape {
        Shape::JointBlend { safe, .. } => safe,
        _ => panic!("{} is not a JointBlend routine", r.name),
    }
}

/// Every form of `r` on an exact copy of `joints`, with exact copies of
/// `blend` and `index`.
pub fn run(r: &Routine, joints: &[JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32]) -> Outs<JointQuat> {
    let (f, blend, index) = (safe(r), exact_vec(blend), exact_vec(index));
    each_form(r, joints, |imp, out| f(imp, out, &blend, lerp, &index))
}

/// Which joints `index` names.
fn indexed(n: usize, index: &[i32]) -> Vec<bool> {
    let mut indexed = vec![false; n];
    for &j in index {
        indexed[j as usize] = true;
    }
    indexed
}

/// What every `JointBlend` routine meets, every form of `r` on one case:
/// the listing and its twin bit for bit; joints not indexed kept; `lerp <=
/// 0` keeps and `lerp >= 1` copies the blend joint; with distinct indices
/// (repeats are documented to change results), translations within
/// [`TRANS_BOUND`] of the f64 lerp and rotations within [`ROT_VS_SCALAR`] of
/// the scalar form's.
pub fn check_shape(r: &Routine, ((joints, blend, index, unique), lerp): &Case) {
    let (lerp, unique) = (*lerp, *unique);
    let outs = run(r, joints, blend, lerp, index);
    let ctx = format!("{}: {} joints, {} indices, lerp {lerp:e}", r.name, joints.len(), index.len());
    if let Some((listing, twin)) = twins(&outs) {
        assert_bit_identical(listing, twin, &format!("{ctx}: listing vs its twin"));
    }
    let indexed = indexed(joints.len(), index);
    let scalar = scalar(r, &outs);
    for (form, out) in &outs {
        for (j, (&was, got)) in joints.iter().zip(out).enumerate() {
            let ctx = format!("{ctx}: {} joint {j}", form.imp);
            if !indexed[j] || lerp <= 0.0 {
                assert_bit_identical(&[*got], &[was], &format!("{ctx} (kept)"));
            } else if lerp >= 1.0 {
                assert_bit_identical(&[*got], &[blend[j]], &format!("{ctx} (copied)"));
            } else if unique {
                let t = f64::from(lerp);
                let want = vec4_lerp_f64(f64x4(was.t.to_array()), f64x4(blend[j].t.to_array()), t);
                let e = max_abs_diff(got.t.to_array(), want);
                assert!(e <= TRANS_BOUND, "{ctx}: translation error {e:e}");
                let d = max_abs_diff(got.q.to_array(), f64x4(scalar[j].q.to_array()));
                assert!(d <= ROT_VS_SCALAR, "{ctx}: rotation {d:e} from the scalar form's");
            }
        }
    }
}

/// The property of the routine `name`: every form's rotation, on every
/// indexed joint with distinct indices and `0 < lerp < 1`, within `bound`
/// (max abs error of a component) of `oracle`, on [`cases`] (what
/// [`check_shape`] leaves to the routine).
#[track_caller]
pub fn against_oracle(name: &str, oracle: Oracle, bound: f64) {
    let r = routine(name);
    property("against_oracle", config(CASES, MIRI_CASES), cases(), |((joints, blend, index, unique), lerp)| {
        if !unique || lerp <= 0.0 || lerp >= 1.0 {
            return;
        }
        let outs = run(r, &joints, &blend, lerp, &index);
        let indexed = indexed(joints.len(), &index);
        let t = f64::from(lerp);
        for (form, out) in &outs {
            for (j, (was, got)) in joints.iter().zip(out).enumerate().filter(|&(j, _)| indexed[j]) {
                let want = oracle(f64x4(was.q.to_array()), f64x4(blend[j].q.to_array()), t);
                let e = max_abs_diff(got.q.to_array(), want);
                let ctx = format!("{name}: {} joints, lerp {lerp:e}: {} joint {j}", joints.len(), form.imp);
                assert!(e <= bound, "{ctx}: rotation error {e:e} > {bound:e}");
            }
        }
    });
}
