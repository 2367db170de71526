//! The accuracy of the matrix routines (`Shape::QuatsToMats`,
//! `Shape::MatsToQuats`, `Shape::TransformJoints`) against their f64
//! oracles.

use animasm::roster::Routine;
use animasm::{Impl, JointQuat};
use animasm_testkit::cases::mixed_pairs;
use animasm_testkit::oracle::f64x4;

use super::AccuracyRow;

/// Max abs element error of `quats_to_mats` against the f64 formula (in the
/// paper's convention) over 3072 random unit quaternions.
pub fn quats_to_mats_error(imp: Impl) -> f64 {
    use animasm_testkit::error::mat_max_abs_diff;
    let (quats, _) = mixed_pairs(0x9e75, 3 * 1024);
    let mut mats = vec![animasm::JointMat::default(); quats.len()];
    animasm::quats_to_mats(imp, &mut mats, &quats).unwrap();
    let t3 = |j: &JointQuat| core::array::from_fn(|i| f64::from(j.t.to_array()[i]));
    (0..quats.len())
        .map(|i| {
            mat_max_abs_diff(
                &mats[i].mat,
                &animasm_testkit::oracle::joint_mat_paper_f64(f64x4(quats[i].q.to_array()), t3(&quats[i])),
            )
        })
        .fold(0.0, f64::max)
}

/// Max abs error, up to sign, of `mats_to_quats` against the unit quaternion
/// each matrix was built from (in the paper's convention, rounded to f32),
/// over 3072 random rotations.
pub fn mats_to_quats_error(imp: Impl) -> f64 {
    use animasm_testkit::error::quat_diff_up_to_sign;
    let (quats, _) = mixed_pairs(0x3a75, 3 * 1024);
    let mats: Vec<animasm::JointMat> = quats
        .iter()
        .map(|j| animasm::JointMat {
            mat: animasm_testkit::oracle::joint_mat_paper_f64(f64x4(j.q.to_array()), [1.0, 2.0, 3.0]).map(|v| v as f32),
        })
        .collect();
    let mut out = vec![JointQuat::default(); mats.len()];
    animasm::mats_to_quats(imp, &mut out, &mats).unwrap();
    (0..mats.len())
        .map(|i| quat_diff_up_to_sign(f64x4(out[i].q.to_array()), f64x4(quats[i].q.to_array())))
        .fold(0.0, f64::max)
}

/// Max abs element error of `transform_joints` against the f64 product over
/// 3072 pairs of random rigid matrices (translations up to 10).
pub fn transform_joints_error(imp: Impl) -> f64 {
    use animasm_testkit::error::mat_max_abs_diff;
    use animasm_testkit::oracle::affine_mul_f64;
    let a = animasm_testkit::inputs::rigid_mats(0x7a, 3 * 1024);
    let b = animasm_testkit::inputs::rigid_mats(0x7b, 3 * 1024);
    let mut r = vec![animasm::JointMat::default(); a.len()];
    animasm::transform_joints(imp, &mut r, &a, &b).unwrap();
    (0..a.len())
        .map(|i| mat_max_abs_diff(&r[i].mat, &affine_mul_f64(a[i].mat.map(f64::from), b[i].mat.map(f64::from))))
        .fold(0.0, f64::max)
}

/// The accuracy rows of the `Shape::QuatsToMats` routine `r`: every form
/// against the f64 formula (none for a routine without an oracle here).
pub fn quats_to_mats_rows(r: &Routine) -> Vec<AccuracyRow> {
    if r.name != "quats_to_mats" {
        return Vec::new();
    }
    r.forms().map(|f| (format!("{} {} vs the f64 formula", r.name, f.imp), quats_to_mats_error(f.imp), None)).collect()
}

/// The accuracy rows of the `Shape::MatsToQuats` routine `r`: every form
/// against the source quaternion (none for a routine without an oracle
/// here).
pub fn mats_to_quats_rows(r: &Routine) -> Vec<AccuracyRow> {
    if r.name != "mats_to_quats" {
        return Vec::new();
    }
    r.forms()
        .map(|f| {
            (format!("{} {} vs the source quaternion (up to sign)", r.name, f.imp), mats_to_quats_error(f.imp), None)
        })
        .collect()
}

/// The accuracy rows of the `Shape::TransformJoints` routine `r`: every
/// form against the f64 product (none for a routine without an oracle
/// here).
pub fn transform_joints_rows(r: &Routine) -> Vec<AccuracyRow> {
    if r.name != "transform_joints" {
        return Vec::new();
    }
    r.forms()
        .map(|f| (format!("{} {} vs the f64 product", r.name, f.imp), transform_joints_error(f.imp), None))
        .collect()
}
