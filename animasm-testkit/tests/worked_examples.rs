//! The worked examples of `examples/` as tests: the same functions the
//! examples' `main` calls (the files are included, not copied), so the
//! examples and these tests cannot drift apart.

// Each example's `main` (and what only `main` uses) is dead code here.
#[allow(dead_code)]
#[path = "../examples/broken_slerp.rs"]
mod broken_slerp;
#[allow(dead_code)]
#[path = "../examples/glam.rs"]
mod glam_example;

use animasm_testkit::cases::Family;
use animasm_testkit::check::{Check, Measure};

#[test]
fn glam_slerp_within_its_bound() {
    let report = glam_example::glam_slerp_report();
    println!("{report}");
    report.assert_within(glam_example::GLAM_SLERP_BOUND);
    // Every unit family checked, none of them NaN.
    assert!(report.families.iter().filter(|f| f.family.is_unit()).all(|f| f.non_finite_out == 0));
    assert_eq!(report.families.len(), Family::ALL.len());
}

#[test]
fn glam_lerp_within_its_nlerp_bound() {
    let report = glam_example::glam_lerp_report();
    println!("{report}");
    report.assert_within(glam_example::GLAM_LERP_BOUND);
    // glam's SIMD lerp (SSE2, NEON, wasm32's simd128) tests the dot
    // product's sign bit: at a dot product of exactly -0.0 it takes the arc
    // towards -to (as the SSE listings do, erratum E3 of `lerp_joints`), at
    // +0.0 the one towards to. Its scalar lerp (wasm32 without simd128, as
    // wasm32-wasip1 builds by default) tests `dot >= 0.0`, which -0.0 passes:
    // the arc towards to at both zeros.
    let z = report.zero_dot;
    assert!(z.minus_cases > 0 && z.plus_cases > 0);
    if cfg!(any(target_feature = "sse2", target_arch = "aarch64", target_feature = "simd128")) {
        assert_eq!((z.minus_flipped, z.plus_flipped), (z.minus_cases, 0));
    } else {
        assert_eq!((z.minus_flipped, z.plus_flipped), (0, 0));
    }
}

#[test]
fn slerp_without_the_flip_is_caught() {
    let report = broken_slerp::no_flip_report();
    println!("{report}");
    assert_eq!(report.failures(broken_slerp::BOUND), broken_slerp::NO_FLIP_FAILS);
    // The long way round: about a half turn off in the middle of the arc.
    let uniform = report.family(Family::Uniform).unwrap();
    assert!(uniform.max_angle > 3.0);
    assert_eq!(uniform.worst.unwrap().t, 0.5);
}

#[test]
fn slerp_without_the_fallback_is_caught() {
    let report = broken_slerp::no_fallback_report();
    println!("{report}");
    assert_eq!(report.failures(broken_slerp::BOUND), broken_slerp::NO_FALLBACK_FAILS);
    // NaN, not a large finite error: sin(0) / sin(0).
    let identical = report.family(Family::Identical).unwrap();
    assert!(identical.non_finite_out > 0 && identical.max_angle.is_infinite());
}

#[test]
fn slerp_whose_fallback_is_not_renormalised_is_caught() {
    let report = broken_slerp::unnormalised_fallback_report();
    println!("{report}");
    assert_eq!(report.failures(broken_slerp::BOUND), broken_slerp::UNNORMALISED_FALLBACK_FAILS);
    // The angle alone would pass the Fox's keys at the check module's 2e-6:
    // the length is what catches it.
    let fox = report.family(Family::Fox).unwrap();
    assert!(fox.max_angle < 2e-6 && fox.max_length_error > 1e-4, "{fox:?}");
    let v = report.violations(2e-6);
    assert!(v.iter().any(|v| v.family == Family::Fox && v.measure == Measure::Length));
    assert!(v.iter().all(|v| v.measure != Measure::Angle), "{v:?}");
    // The panic's message, caught: not on wasm32 (panic=abort), where the
    // checks above run and this one is said skipped.
    #[cfg(not(target_family = "wasm"))]
    {
        let msg = std::panic::catch_unwind(|| report.assert_within(2e-6)).unwrap_err();
        let msg = msg.downcast_ref::<String>().unwrap();
        // The message names the measure and the worst input, and does not
        // repeat the report's tables.
        assert!(msg.contains("Fox keys: length error") && msg.contains("worst input"), "{msg}");
        assert!(!msg.contains("| family |"), "{msg}");
    }
    #[cfg(target_family = "wasm")]
    {
        use std::io::Write;
        // Straight to stderr, as tests/common/cpu.rs's `skipped`: the
        // harness would keep an `eprintln!` back.
        let _ = std::io::stderr().write_all(
            b"\nSKIPPED: assert_within's panic message: catch_unwind cannot catch a panic on wasm32 (panic=abort)\n",
        );
    }
}

/// animasm's own forms pass the one-line assertion the docs recommend,
/// each checked as a user's function: the limits fit correct f32 code,
/// the listings' `rsqrtps`/`rcpps` estimates included.
#[test]
fn every_animasm_form_passes_the_one_line_assertion() {
    use animasm_testkit::check::{LENGTH_TOLERANCE, Reference};
    let mut worst_length = 0f64;
    for reference in [Reference::Slerp, Reference::Nlerp] {
        for imp in reference.forms() {
            let report = Check::new(&format!("animasm {} {imp}", reference.routine()), reference)
                .forms(&[])
                .nan_factor(false)
                .run(|out, from, to, t| reference.run_form(imp, out, from, to, t).unwrap());
            let unit = || report.families.iter().filter(|f| f.family.is_unit());
            let length = unit().map(|f| f.max_length_error).fold(0.0, f64::max);
            let abs = unit().map(|f| f.max_abs).fold(0.0, f64::max);
            println!(
                "{}: max angle {:.2e} rad, max abs {abs:.2e}, max length error {length:.2e}",
                report.name,
                report.max_angle()
            );
            report.assert_within(1e-6);
            worst_length = worst_length.max(length);
        }
    }
    println!("worst length error of every form: {worst_length:.2e} (tolerance {LENGTH_TOLERANCE:e})");
    // Measured: 5.36e-7 (the listings' slerp, `rsqrtps` and one Newton-Raphson
    // step, Intel Xeon); the successors and scalar ports 2.7e-7 at most.
    assert!(worst_length < LENGTH_TOLERANCE);
}

/// The testkit README's example (`animasm-testkit/README.md`), verbatim:
/// it must compile and pass.
mod readme_example {
    use animasm_testkit::animasm::Quat;
    use animasm_testkit::check::Check;

    /// Your slerp, on your own quaternion type (here `[x, y, z, w]` arrays).
    fn my_slerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
        let d: f32 = (0..4).map(|i| a[i] * b[i]).sum();
        let (b, d) = if d < 0.0 { (b.map(|v| -v), -d) } else { (b, d) }; // the shorter arc
        let (s0, s1) = if d > 1.0 - f32::EPSILON {
            (1.0 - t, t) // (nearly) identical: lerp
        } else {
            let w = d.acos();
            (((1.0 - t) * w).sin() / w.sin(), (t * w).sin() / w.sin())
        };
        core::array::from_fn(|i| s0 * a[i] + s1 * b[i])
    }

    #[test]
    fn my_slerp_matches_the_reference() {
        let report = Check::slerp("my_slerp")
            .run_each(|from, to, t| Quat::from_array(my_slerp(from.to_array(), to.to_array(), t)));
        println!("{report}"); // Markdown: max error per case family, worst input, NaN behaviour
        report.assert_within(5e-7); // angle (radians) and components within 5e-7, length within 1e-6 of 1
    }
}

/// The testkit README's block is `readme_example` above, verbatim
/// (dedented), so the README cannot show code that does not compile or pass.
#[test]
fn readme_shows_the_readme_example_verbatim() {
    let readme = include_str!("../README.md");
    let src = include_str!("worked_examples.rs");
    let start = src.find("mod readme_example {\n").expect("the module") + "mod readme_example {\n".len();
    let end = start + src[start..].find("\n}\n").expect("its end");
    let block: Vec<&str> = src[start..end].lines().map(|l| l.strip_prefix("    ").unwrap_or(l)).collect();
    let block = format!("```rust\n{}\n```", block.join("\n"));
    assert!(readme.contains(&block), "README.md lacks the example block:\n{block}");
}
