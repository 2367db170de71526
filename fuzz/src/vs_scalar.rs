//! Every form of a routine against its scalar port, within the tests'
//! tolerance, on the elements whose inputs are in that tolerance's domain.

use crate::*;

/// The tolerances of the comparisons with the scalar port: the harness's
/// `TOL_SCALAR` of each routine (`tests/common/routines.rs`), the max abs
/// difference of any form from the scalar port that the tests accept. They
/// hold for values of magnitude up to about 1 (unit quaternions, rotations);
/// the fuzz targets apply them relative to the magnitude of the terms where
/// that is larger (translations, products with translations), since their
/// floats reach 3e4 where the tests' stay within 10.
pub mod tol {
    /// `slerp_joints`' rotations.
    pub const SLERP_JOINTS: f64 = 5e-7;
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
}

/// Whether `q` is a unit quaternion to within f32 normalisation (finite,
/// `| |q|^2 - 1 | <= 1e-5`): the domain of the interpolators' and
/// `quats_to_mats`' tolerances.
pub fn unit_quat(q: Quat) -> bool {
    let n2: f64 = q.to_array().iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    n2.is_finite() && (n2 - 1.0).abs() <= 1e-5
}

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

/// The largest translation component of `m`, in magnitude.
pub fn translation_magnitude(m: &JointMat) -> f64 {
    [m.mat[3], m.mat[7], m.mat[11]].iter().map(|v| f64::from(v.abs())).fold(0.0, f64::max)
}

/// `|a - b|`, infinite where either is NaN.
fn diff(a: f32, b: f32) -> f64 {
    let d = (f64::from(a) - f64::from(b)).abs();
    if d.is_nan() { f64::INFINITY } else { d }
}

/// The runs to compare with the scalar port: every concrete form that
/// returned `Ok`, but the scalar port itself (`Auto` is compared bit for bit
/// with the form it picks by [`run_every_impl`]). Paired with the scalar run,
/// if that returned `Ok`.
fn vs_scalar_runs<T>(runs: &[Run<T>]) -> Option<(&Run<T>, Vec<&Run<T>>)> {
    let s = get(runs, Impl::Scalar)?;
    Some((s, runs.iter().filter(|r| r.result.is_ok() && r.imp != Impl::Scalar && r.imp != Impl::Auto).collect()))
}

/// The joint-list interpolators: every form against the scalar port, on
/// every joint that `index` names exactly once (a repeated joint's result
/// depends on the form's blocks, as documented) whose quaternion and blend
/// quaternion are unit and whose translations are at most 1e6 in magnitude
/// (beyond, the listing's `t0 + (t1 - t0) lerp` can overflow where the C's
/// form does not), for `0 < lerp < 1`. Rotations within `tol_rot`; translations within
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
    index: &[i32],
    tol_rot: f64,
) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    if !(lerp > 0.0 && lerp < 1.0) {
        return;
    }
    let mut count = vec![0u32; joints.len()];
    for &j in index {
        count[j as usize] += 1;
    }
    for j in (0..joints.len()).filter(|&j| count[j] == 1) {
        let (a, b) = (joints[j], blend[j]);
        let dot: f64 = a.q.to_array().iter().zip(b.q.to_array()).map(|(&x, y)| f64::from(x) * f64::from(y)).sum();
        let t = a.t.to_array().into_iter().chain(b.t.to_array());
        // Translations of magnitude at most 1e6: beyond, `t1 - t0` (the
        // listing's lerp) may overflow where the C's form does not.
        if !unit_quat(a.q) || !unit_quat(b.q) || dot.abs() < 1e-5 || !t.clone().all(|v| v.abs() <= 1e6) {
            continue;
        }
        let scale = t.map(|v| f64::from(v.abs())).fold(1.0, f64::max);
        let want = s.out[j].floats();
        for r in &others {
            let got = r.out[j].floats();
            for (l, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let bound = if l < 4 { tol_rot } else { tol::JOINT_TRANSLATION * scale };
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {j} float {l}: {g:e} vs the scalar port's {w:e} (difference {:e} > {bound:e}; \
                     lerp {lerp:e}, joint {:?}, blend {:?})",
                    r.imp,
                    diff(g, w),
                    a.floats(),
                    b.floats()
                );
            }
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
        for r in &others {
            for e in 0..12 {
                let (g, w) = (r.out[j].mat[e], s.out[j].mat[e]);
                let bound = tol::QUATS_TO_MATS * if e % 4 == 3 { f64::from(w.abs()).max(1.0) } else { 1.0 };
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {j} mat[{e}]: {g:e} vs the scalar port's {w:e} (bound {bound:e}; quat {:?})",
                    r.imp,
                    q.floats()
                );
            }
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
        let want = s.out[j].floats();
        for r in &others {
            let got = r.out[j].floats();
            let q = |sign: f64| (0..4).map(|k| diff(got[k], (sign * f64::from(want[k])) as f32)).fold(0.0, f64::max);
            let dq = q(1.0).min(q(-1.0));
            assert!(
                dq <= tol::MATS_TO_QUATS,
                "{}: joint {j}: quaternion {:?} vs the scalar port's {:?} up to sign: {dq:e} (matrix {:?})",
                r.imp,
                &got[..4],
                &want[..4],
                m.mat
            );
            for k in 4..8 {
                let bound = tol::MATS_TO_QUATS * f64::from(want[k].abs()).max(1.0);
                assert!(
                    diff(got[k], want[k]) <= bound,
                    "{}: joint {j}: translation {k}: {:e} vs {:e}",
                    r.imp,
                    got[k],
                    want[k]
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
        for r in &others {
            for e in 0..12 {
                let (g, w) = (r.out[j].mat[e], s.out[j].mat[e]);
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {j} mat[{e}]: {g:e} vs the scalar port's {w:e} (bound {bound:e})",
                    r.imp
                );
            }
        }
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
    mats: &[JointMat],
    parents: &[i32],
    range: &core::ops::RangeInclusive<usize>,
    op: SkeletonOp,
) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for i in range.clone() {
        let (mut ok, mut scale, mut depth) = (true, 1.0, 0usize);
        let mut j = i;
        loop {
            ok &= rigid(&mats[j]);
            scale += translation_magnitude(&mats[j]);
            depth += 1;
            let p = parents[j] as usize;
            if op == SkeletonOp::Untransform {
                ok &= rigid(&mats[p]);
                scale += translation_magnitude(&mats[p]);
                break;
            }
            if !range.contains(&p) {
                ok &= rigid(&mats[p]);
                scale += translation_magnitude(&mats[p]);
                break;
            }
            j = p;
        }
        if !ok {
            continue;
        }
        let bound = tol::SKELETON * scale * (depth as f64 / 8.0).max(1.0);
        for r in &others {
            for e in 0..12 {
                let (g, w) = (r.out[i].mat[e], s.out[i].mat[e]);
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {i} mat[{e}]: {g:e} vs the scalar port's {w:e} (bound {bound:e}, chain of {depth})",
                    r.imp
                );
            }
        }
    }
}
