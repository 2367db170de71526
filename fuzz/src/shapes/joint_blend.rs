//! `Shape::JointBlend`: an indexed subset of a joint list interpolated
//! towards a blend list in place.
//!
//! Inputs: any lengths of `joints`, `blend` and `index`, any `index`
//! entries (one input in four with entries repeated on purpose, within and
//! across blocks of four and eight), any `lerp`, any floats. On `Ok`,
//! besides the common checks: joints not indexed are kept, `lerp <= 0`
//! keeps every joint and `lerp >= 1` copies the indexed blend joints, with
//! every `Impl`; every form agrees with the scalar form within
//! [`tol_rot`] (rotations) and [`TOL_TRANSLATION`] (translations,
//! relative above magnitude 1) on every joint indexed once whose
//! quaternions are unit ([`vs_scalar`]). A non-finite `lerp` is
//! `NonFiniteFactor { what: "lerp" }`.

use crate::*;
use animasm::roster::{Routine, Shape};

/// The rotations' tolerance against the scalar form: the tests'
/// `TOL_SCALAR`, 5e-7, but for `slerp_joints`, whose listing's forms
/// exceed it (5.96e-7, 10 units in the last place, for `Intrinsics` and
/// `Asm` on random unit pairs at every angle from 1e-8 to 1 rad, 20,000
/// per decade); the difference does not grow as the angle shrinks, so
/// 1e-6 there, as its tests use.
pub fn tol_rot(r: &Routine) -> f64 {
    match r.name {
        "slerp_joints" => 1e-6,
        _ => 5e-7,
    }
}

/// The translations' tolerance (relative above magnitude 1).
pub const TOL_TRANSLATION: f64 = 5e-7;

/// Fuzzes the joint-list interpolator `r` on arguments from `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let n = g.length();
    let joints = g.joints(n);
    let blend_len = g.len_near(n);
    let mut blend = g.joints(blend_len);
    // The poses animation produces: a held pose (a blend joint equal to
    // its joint, bit for bit) or a near-identical one (each float moved by
    // a few ulps), joint by joint, in a quarter of the inputs each.
    match g.byte() % 4 {
        0 => {
            for j in 0..n.min(blend_len) {
                if !g.one_in(8) {
                    blend[j] = joints[j];
                }
            }
        }
        1 => {
            for j in 0..n.min(blend_len) {
                let mut ulps =
                    |v: f32| f32::from_bits(v.to_bits().wrapping_add(u32::from(g.byte() % 8)).wrapping_sub(4));
                let (q, t) = (joints[j].q.to_array(), joints[j].t.to_array());
                blend[j] =
                    JointQuat::new(Quat::from_array(q.map(&mut ulps)), animasm::Vec4::from_array(t.map(&mut ulps)));
            }
        }
        _ => {}
    }
    let index_len = g.length();
    let mut index: Buf<i32> = Buf::from_fn(index_len, |_| g.index_entry(n));
    if index_len > 1 && g.one_in(4) {
        // Repeats: an entry copied from one of the eight before it.
        for k in 1..index_len {
            if g.one_in(3) {
                index[k] = index[k - 1 - g.byte() as usize % k.min(8)];
            }
        }
    }
    let lerp = g.lerp();
    with_family(r, |m, runs| {
        let Shape::JointBlend { safe, .. } = m.shape else { unreachable!("a variant of another shape") };
        let runs = run_every_impl(runs, &Forms::of(m), &joints, |imp, out| safe(imp, out, &blend, lerp, &index));
        if let Err(Error::NonFiniteFactor { what, position, value }) = runs.result() {
            assert!(what == "lerp" && position.is_none() && same_bits(value, lerp), "{what} {position:?} {value}");
        }
        if runs.result().is_err() {
            return;
        }
        // `Ok`: every entry of `index` is a joint. How many times each is named.
        let mut count = [0u8; CAP];
        for &j in index.iter() {
            count[j as usize] = count[j as usize].saturating_add(1);
        }
        vs_scalar(runs, &joints, &blend, lerp, &count, tol_rot(m));
        for r in runs.iter().filter(|r| r.result.is_ok()) {
            for j in 0..n {
                if count[j] == 0 || lerp <= 0.0 {
                    assert_untouched(
                        &joints[j..=j],
                        &r.out[j..=j],
                        format_args!("{}: joint {j}, lerp {lerp:e}: kept", r.imp),
                    );
                } else if lerp >= 1.0 {
                    assert_same(&blend[j..=j], &r.out[j..=j], format_args!("{}: joint {j}: copied from blend", r.imp));
                }
            }
        }
    });
}

/// Every form against the scalar form, on every joint that `index` names
/// exactly once (`count[j]`: how many times it does; a repeated joint's
/// result depends on the form's blocks, as documented) whose quaternion and
/// blend quaternion are unit and whose translations are at most 1e6 in
/// magnitude (beyond, the listing's `t0 + (t1 - t0) lerp` can overflow
/// where the C's form does not), for `0 < lerp < 1`. Rotations within
/// `tol_rot` (plus [`UNIT_SLACK`] times the quaternions'
/// [`unit_deviation`]s); translations within [`TOL_TRANSLATION`] times the
/// larger of 1 and their magnitude. A slerp's shortest-arc choice is a sign
/// test of the dot product: joints whose dot product is within 1e-5 of zero
/// (where the forms may round it to different signs, and the listing takes
/// `-0.0` as negative) are left out.
pub fn vs_scalar(
    runs: &Runs<JointQuat>,
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    count: &[u8],
    tol_rot: f64,
) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    if !(lerp > 0.0 && lerp < 1.0) {
        return;
    }
    for j in (0..joints.len()).filter(|&j| count[j] == 1) {
        let (a, b) = (joints[j], blend[j]);
        let t = a.t.to_array().into_iter().chain(b.t.to_array());
        if !unit_quat(a.q) || !unit_quat(b.q) || dot64(a.q, b.q).abs() < 1e-5 || !t.clone().all(|v| v.abs() <= 1e6) {
            continue;
        }
        let scale = t.map(|v| f64::from(v.abs())).fold(1.0, f64::max);
        let rot = tol_rot + UNIT_SLACK * (unit_deviation(a.q) + unit_deviation(b.q));
        let bound = |l: usize| if l < 4 { rot } else { TOL_TRANSLATION * scale };
        for r in others.clone() {
            assert_close(
                &r.out[j],
                &s.out[j],
                bound,
                format_args!("{}: joint {j} (lerp {lerp:e}, joint {a:?}, blend {b:?})", r.imp),
            );
        }
    }
}
