//! Every form of a routine against its scalar port, within the tests'
//! tolerance, on the elements whose inputs are in that tolerance's domain.

use crate::*;
use animasm_testkit::error::{abs_err, quat_diff_up_to_sign, translation_max_norm};
use animasm_testkit::oracle::{f64x4, mat_f64};
use core::fmt::Arguments;
use core::ops::RangeInclusive;

/// The tolerances of the comparisons with the scalar port: the harness's
/// `TOL_SCALAR` of each routine (`tests/common/routines.rs`), the max abs
/// difference of any form from the scalar port that the tests accept. They
/// hold for values of magnitude up to about 1 (unit quaternions, rotations);
/// the fuzz targets apply them relative to the magnitude of the terms where
/// that is larger (translations, products with translations), since their
/// floats reach 3e4 where the tests' stay within 10.
pub mod tol {
    /// `slerp_joints`' rotations: the tests' `TOL_SCALAR` is 5e-7, which
    /// the listing's forms exceed (5.96e-7, 10 units in the last place,
    /// for `Intrinsics` and `Asm` on random unit pairs at every angle from
    /// 1e-8 to 1 rad, 20,000 per decade: reported to the lead); the
    /// difference does not grow as the angle shrinks, so twice the tests'
    /// tolerance.
    pub const SLERP_JOINTS: f64 = 1e-6;
    /// `lerp_joints`' rotations.
    pub const LERP_JOINTS: f64 = 5e-7;
    /// The joint routines' translations (relative above magnitude 1).
    pub const JOINT_TRANSLATION: f64 = 5e-7;
    /// `quats_to_mats`.
    pub const QUATS_TO_MATS: f64 = 5e-7;
    /// `mats_to_quats` (up to sign: the C port's `ReciprocalSqrt` is good to
    /// 1.8e-3).
    pub const MATS_TO_QUATS: f64 = 1.81e-3;
    /// `transform_skeleton` and `untransform_skeleton`.
    pub const SKELETON: f64 = 1e-5;
    /// `transform_joints`.
    pub const TRANSFORM_JOINTS: f64 = 5e-6;
    /// `slerp_quats_corrected` (`tests/common/streams.rs`).
    pub const SLERP_QUATS_CORRECTED: f64 = 1e-6;
    /// `slerp_quats_as_published` (errata E1-E3 of the listing).
    pub const SLERP_QUATS_AS_PUBLISHED: f64 = 1e-2;
    /// `nlerp`, `fnlerp`, `onlerp`: every width against the scalar
    /// functions.
    pub const NLERP: f64 = 5e-7;
    /// `nlerp`, `fnlerp`, `onlerp`: the FMA width against the plain 8-wide
    /// one (each within [`NLERP`] of the scalar function).
    pub const NLERP_FMA: f64 = 2.0 * NLERP;
}

/// Whether `q` is a unit quaternion to within f32 normalisation (finite,
/// `| |q|^2 - 1 | <= 1e-5`): the domain of the interpolators' and
/// `quats_to_mats`' tolerances.
pub fn unit_quat(q: Quat) -> bool {
    unit_deviation(q) <= 1e-5
}

/// `| |q|^2 - 1 |`, in f64 (infinite where `q` is not finite). The
/// interpolators' forms compute differently from their scalar ports (the
/// listings' `sin` from `sqrt(1 - cos^2)`, a reciprocal square root, ...),
/// formulas that agree only on unit quaternions: off it by `d`, they differ
/// by about `d` (seen: 4.5e-6 for `d` = 5.2e-6 in `slerp_joints`), so the
/// comparisons with the scalar port add [`UNIT_SLACK`] times the two
/// inputs' deviations to the tests' tolerance (whose inputs are unit to
/// within f32 rounding).
pub fn unit_deviation(q: Quat) -> f64 {
    let n2: f64 = q.to_array().iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    if n2.is_finite() { (n2 - 1.0).abs() } else { f64::INFINITY }
}

/// See [`unit_deviation`].
pub const UNIT_SLACK: f64 = 2.0;

/// Whether `m` is rigid (the rotation orthonormal with determinant 1 to
/// within 1e-5, every element finite) with a translation of magnitude at
/// most 1e6: the domain of the matrix routines' tolerances.
pub fn rigid(m: &JointMat) -> bool {
    let e = |r: usize, c: usize| f64::from(m.mat[r * 4 + c]);
    if !m.mat.iter().all(|v| v.is_finite()) || (0..3).any(|r| e(r, 3).abs() > 1e6) {
        return false;
    }
    for a in 0..3 {
        for b in 0..3 {
            let dot: f64 = (0..3).map(|k| e(k, a) * e(k, b)).sum();
            if (dot - if a == b { 1.0 } else { 0.0 }).abs() > 1e-5 {
                return false;
            }
        }
    }
    let det = e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
        + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0));
    (det - 1.0).abs() <= 1e-5
}

/// The largest translation component of `m`, in magnitude
/// (`animasm_testkit::error::translation_max_norm`).
pub fn translation_magnitude(m: &JointMat) -> f64 {
    translation_max_norm(&mat_f64(m))
}

/// The runs to compare with the scalar port: every concrete form that
/// returned `Ok`, but the scalar port itself (`Auto` is compared bit for bit
/// with the form it picks by [`run_every_impl`]). Paired with the scalar run,
/// if that returned `Ok`.
fn vs_scalar_runs<T: Copy + Default>(runs: &[Run<T>]) -> Option<(&Run<T>, impl Iterator<Item = &Run<T>> + Clone)> {
    let s = get(runs, Impl::Scalar)?;
    Some((s, runs.iter().filter(|r| r.result.is_ok() && r.imp != Impl::Scalar && r.imp != Impl::Auto)))
}

/// The dot product of two quaternions, in f64.
pub fn dot64(a: Quat, b: Quat) -> f64 {
    a.to_array().iter().zip(b.to_array()).map(|(&x, y)| f64::from(x) * f64::from(y)).sum()
}

/// Panics unless every float of `got` is within `bound(l)` of `want`'s.
#[track_caller]
fn assert_close<T: Floats>(got: &T, want: &T, bound: impl Fn(usize) -> f64, ctx: Arguments) {
    for l in 0..T::N {
        let (g, w) = (got.float(l), want.float(l));
        assert!(
            abs_err(f64::from(g), f64::from(w)) <= bound(l),
            "{ctx}: float {l}: {g:e} vs the scalar port's {w:e} (difference {:e} > {:e})",
            abs_err(f64::from(g), f64::from(w)),
            bound(l)
        );
    }
}

/// The joint-list interpolators: every form against the scalar port, on
/// every joint that `index` names exactly once (`count[j]`: how many times
/// it does; a repeated joint's result depends on the form's blocks, as
/// documented) whose quaternion and blend quaternion are unit and whose
/// translations are at most 1e6 in magnitude (beyond, the listing's `t0 +
/// (t1 - t0) lerp` can overflow where the C's form does not), for `0 < lerp
/// < 1`. Rotations within `tol_rot`; translations within
/// [`tol::JOINT_TRANSLATION`] times the larger of 1 and their magnitude.
/// `slerp_joints`' shortest-arc choice is a sign test of the dot product:
/// joints whose dot product is within 1e-5 of zero (where the forms may
/// round it to different signs, and the listing takes `-0.0` as negative)
/// are left out.
pub fn joint_vs_scalar(
    runs: &[Run<JointQuat>],
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
        let bound = |l: usize| if l < 4 { rot } else { tol::JOINT_TRANSLATION * scale };
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

/// `quats_to_mats`: every form against the scalar port on every joint with
/// a unit quaternion and a finite translation: rotation elements within
/// [`tol::QUATS_TO_MATS`], translations within it relative to their
/// magnitude (every form copies them).
pub fn quats_to_mats_vs_scalar(runs: &[Run<JointMat>], quats: &[JointQuat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for (j, q) in quats.iter().enumerate() {
        if !unit_quat(q.q) || !q.t.to_array().iter().all(|v| v.is_finite()) {
            continue;
        }
        let w = &s.out[j];
        let bound = |e: usize| tol::QUATS_TO_MATS * if e % 4 == 3 { f64::from(w.mat[e].abs()).max(1.0) } else { 1.0 };
        for r in others.clone() {
            assert_close(&r.out[j], w, bound, format_args!("{}: joint {j} (quat {q:?})", r.imp));
        }
    }
}

/// `mats_to_quats`: every form against the scalar port on every rigid
/// matrix: the quaternion within [`tol::MATS_TO_QUATS`] up to sign, the
/// translation within it relative to its magnitude, `t.w` the same.
pub fn mats_to_quats_vs_scalar(runs: &[Run<JointQuat>], mats: &[JointMat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for (j, m) in mats.iter().enumerate() {
        if !rigid(m) {
            continue;
        }
        let want = &s.out[j];
        for r in others.clone() {
            let got = &r.out[j];
            let dq = quat_diff_up_to_sign(f64x4(got.q.to_array()), f64x4(want.q.to_array()));
            assert!(
                dq <= tol::MATS_TO_QUATS,
                "{}: joint {j}: quaternion {:?} vs the scalar port's {:?} up to sign: {dq:e} (matrix {:?})",
                r.imp,
                got.q,
                want.q,
                m.mat
            );
            for k in 4..8 {
                let bound = tol::MATS_TO_QUATS * f64::from(want.float(k).abs()).max(1.0);
                assert!(
                    abs_err(f64::from(got.float(k)), f64::from(want.float(k))) <= bound,
                    "{}: joint {j}: translation {k}: {:e} vs {:e}",
                    r.imp,
                    got.float(k),
                    want.float(k)
                );
            }
        }
    }
}

/// `transform_joints`: every form against the scalar port on every joint
/// whose two matrices are rigid, within [`tol::TRANSFORM_JOINTS`] times the
/// larger of 1 and the sum of the two translations' magnitudes.
pub fn transform_joints_vs_scalar(runs: &[Run<JointMat>], a: &[JointMat], b: &[JointMat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for j in 0..s.out.len().min(a.len()).min(b.len()) {
        if !rigid(&a[j]) || !rigid(&b[j]) {
            continue;
        }
        let bound = tol::TRANSFORM_JOINTS * (1.0 + translation_magnitude(&a[j]) + translation_magnitude(&b[j]));
        for r in others.clone() {
            assert_close(&r.out[j], &s.out[j], |_| bound, format_args!("{}: joint {j}", r.imp));
        }
    }
}

/// Quaternion streams (`slerp_quats_*`, `nlerp`, `fnlerp`, `onlerp`): every
/// form against the scalar port, component-wise, on every element `k` for
/// which `pair(k)` gives its two input quaternions: within `tol` plus
/// [`UNIT_SLACK`] times their [`unit_deviation`]s, where both are
/// [`unit_quat`]s whose dot product is not within 1e-5 of zero (the callers
/// give no pair where the factor is outside `(0, 1)`).
pub fn quats_vs_scalar(runs: &[Run<Quat>], tol: f64, pair: impl Fn(usize) -> Option<(Quat, Quat)>, ctx: Arguments) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for k in 0..s.out.len() {
        let Some((a, b)) = pair(k) else { continue };
        if !unit_quat(a) || !unit_quat(b) || dot64(a, b).abs() < 1e-5 {
            continue;
        }
        let bound = tol + UNIT_SLACK * (unit_deviation(a) + unit_deviation(b));
        for r in others.clone() {
            assert_close(&r.out[k], &s.out[k], |_| bound, format_args!("{ctx} {}: element {k} ({a:?}, {b:?})", r.imp));
        }
    }
}

/// What the skeleton comparisons need of each matrix, computed once per
/// input: whether it is [`rigid`], and its [`translation_magnitude`].
pub struct MatFacts {
    rigid: Buf<bool>,
    magnitude: Buf<f64>,
}

impl MatFacts {
    /// The facts of `mats`.
    pub fn new(mats: &[JointMat]) -> Self {
        MatFacts {
            rigid: Buf::from_fn(mats.len(), |k| rigid(&mats[k])),
            magnitude: Buf::from_fn(mats.len(), |k| translation_magnitude(&mats[k])),
        }
    }

    /// Whether matrix `k` is [`rigid`].
    pub fn rigid(&self, k: usize) -> bool {
        self.rigid[k]
    }

    /// The [`translation_magnitude`] of matrix `k`.
    pub fn magnitude(&self, k: usize) -> f64 {
        self.magnitude[k]
    }
}

/// The skeleton routines: every form against the scalar port on every joint
/// of the range whose matrices are rigid: for `transform_skeleton` every
/// matrix on its chain of parents back to the first joint outside the range
/// (`depth` of them), within [`tol::SKELETON`] times the larger of 1 and the
/// sum of the chain's translations' magnitudes, times the larger of 1 and
/// `depth / 8` (the error grows with the chain); for
/// `untransform_skeleton` its own and its parent's, within
/// [`tol::SKELETON`] times the larger of 1 and the sum of their
/// translations' magnitudes.
pub fn skeleton_vs_scalar(
    runs: &[Run<JointMat>],
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
            ok &= facts.rigid[j];
            scale += facts.magnitude[j];
            depth += 1;
            let p = parents[j] as usize;
            if op == SkeletonOp::Untransform || !range.contains(&p) {
                ok &= facts.rigid[p];
                scale += facts.magnitude[p];
                break;
            }
            j = p;
        }
        if !ok {
            continue;
        }
        let bound = tol::SKELETON * scale * (depth as f64 / 8.0).max(1.0);
        for r in others.clone() {
            assert_close(&r.out[i], &s.out[i], |_| bound, format_args!("{}: joint {i} (chain of {depth})", r.imp));
        }
    }
}
