//! The accuracy of the skeleton routines (`Shape::Skeleton`) on the Fox's
//! key poses, against the f64 reference.

use animasm::Impl;
use animasm::roster::Routine;
use animasm_testkit::oracle::f64x4;

use super::AccuracyRow;

/// The Fox key poses through `transform_skeleton` (joints 1..=23) against the
/// JSON's f64 local-to-model reference: the max abs element error divided by
/// the model's size (the largest translation magnitude in the reference).
pub fn transform_skeleton_fox_error(imp: Impl) -> f64 {
    let parents = animasm_testkit::fox::parents();
    let mut worst = 0f64;
    for pose in animasm_testkit::fox::key_poses() {
        let mut mats = animasm_testkit::fox::local_mats(&pose.rotations, &pose.translations);
        let last = mats.len() - 1;
        animasm::transform_skeleton(imp, &mut mats, &parents, 1..=last).unwrap();
        let scale = pose.model.iter().map(animasm_testkit::error::translation_max_norm).fold(1.0, f64::max);
        for (m, r) in mats.iter().zip(&pose.model) {
            worst = worst.max(animasm_testkit::error::mat_max_abs_diff(&m.mat, r) / scale);
        }
    }
    worst
}

/// The JSON's model-space Fox poses (rounded to f32) through
/// `untransform_skeleton` (joints 1..=23) against the local poses they came
/// from (in f64), relative to the model's size as above.
pub fn untransform_skeleton_fox_error(imp: Impl) -> f64 {
    use animasm_testkit::oracle::joint_mat_gltf_f64;
    let parents = animasm_testkit::fox::parents();
    let mut worst = 0f64;
    for pose in animasm_testkit::fox::key_poses() {
        let mut mats: Vec<animasm::JointMat> =
            pose.model.iter().map(|m| animasm::JointMat { mat: m.map(|v| v as f32) }).collect();
        let last = mats.len() - 1;
        animasm::untransform_skeleton(imp, &mut mats, &parents, 1..=last).unwrap();
        let scale = pose.model.iter().map(animasm_testkit::error::translation_max_norm).fold(1.0, f64::max);
        for ((m, q), t) in mats.iter().zip(&pose.rotations).zip(&pose.translations).skip(1) {
            let want = joint_mat_gltf_f64(f64x4(*q), t.map(f64::from));
            worst = worst.max(animasm_testkit::error::mat_max_abs_diff(&m.mat, &want) / scale);
        }
    }
    worst
}

/// The accuracy rows of the `Shape::Skeleton` routine `r`: every form on
/// the Fox's poses (none for a routine without an oracle here, such as a
/// variant, which computes its routine's bits).
pub fn skeleton_rows(r: &Routine) -> Vec<AccuracyRow> {
    let (what, error): (&str, fn(Impl) -> f64) = match r.name {
        "transform_skeleton" => {
            ("Fox key poses vs the f64 reference (relative to model size)", transform_skeleton_fox_error)
        }
        "untransform_skeleton" => {
            ("Fox model poses back to local (relative to model size)", untransform_skeleton_fox_error)
        }
        _ => return Vec::new(),
    };
    r.forms().map(|f| (format!("{} {}, {what}", r.name, f.imp), error(f.imp), None)).collect()
}
