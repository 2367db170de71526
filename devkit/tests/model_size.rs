//! The pose pipeline's model size is the testkit's
//! (`animasm_testkit::error::model_size`), taken over the animation's
//! poses: checked on every animation of the bundled files.

use animasm_testkit::error::model_size;
use devkit::pipeline::{Animation, animation_count, load_animation, model_f64};

/// The largest testkit model size of the f64 reference pose at every key
/// time (`Animation::size` also takes the rest pose).
fn largest_over_keys(anim: &Animation) -> f64 {
    anim.samplers
        .iter()
        .flat_map(|s| s.times.iter())
        .map(|&t| model_size(&model_f64(anim, f64::from(t))))
        .fold(1.0, f64::max)
}

#[test]
fn the_model_size_is_the_testkit_s_over_the_key_poses() {
    let root = devkit::paths::workspace_root().join("data");
    for file in ["Fox.glb", "SimpleSkin.gltf"] {
        let path = root.join(file);
        let n = animation_count(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(n > 0, "{file}: no animation");
        for i in 0..n {
            let anim = load_animation(&path, i).unwrap_or_else(|e| panic!("{file} {i}: {e}"));
            let keys = largest_over_keys(&anim);
            // The rest pose may only raise it.
            assert!(anim.size >= keys, "{file} '{}': size {} < {keys} over the key poses", anim.name, anim.size);
            assert!(anim.size >= 1.0);
            // And no pose in between is much larger than the largest key pose
            // (slerp between keys stays between them), nor the rest pose.
            let mid = model_size(&model_f64(&anim, f64::from((anim.start + anim.end) / 2.0)));
            assert!(mid <= anim.size * (1.0 + 1e-12), "{file} '{}': {mid} > {}", anim.name, anim.size);
            println!("{file} '{}': model size {:.4} ({})", anim.name, anim.size, anim.size_source);
        }
    }
}

#[test]
fn the_fox_s_model_size_is_the_distance_of_its_farthest_joint() {
    // The Fox is in centimetres: 73 (Survey), 89 (Walk) and 102 (Run) units
    // from its origin to its farthest joint; its mesh's bounding-box
    // diagonal, the size of the former definition, is 175.55.
    let path = devkit::paths::workspace_root().join("data/Fox.glb");
    for i in 0..animation_count(&path).expect("the Fox loads") {
        let anim = load_animation(&path, i).expect("the Fox's animation");
        assert!((60.0..110.0).contains(&anim.size), "'{}': {}", anim.name, anim.size);
    }
}
