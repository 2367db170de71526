//! What the `std` feature changes, checked in both configurations
//! (`cargo test` and `cargo test --no-default-features`; `.ci/run` runs
//! both).
//!
//! Without `std` the crate detects no CPU feature beyond the target's
//! baseline (SSE2 on `x86_64`): every form that needs AVX, AVX2 or FMA is
//! missing from `forms()`, `Impl::Auto` never picks one, and asking for one
//! gives `Error::MissingCpuFeature` (before any other check, with nothing
//! written). The scalar ports call the `libm` crate's `acosf`/`sinf`/...
//! instead of the platform's. With `std` the forms follow the CPU's
//! detected features, and the scalar ports call the platform's math.
//!
//! The test binaries themselves always link `std` (the harness needs it):
//! what changes is the `animasm` library they test, whose features Cargo
//! unifies from the root's and the dev-dependencies' (`devkit` and
//! `animasm-testkit` ask for `alloc` only, so `--no-default-features` turns
//! `std` off for the whole test build).

use animasm::{Error, Impl, Quat};
use animasm_testkit::inputs::Rng;

/// One routine's dispatch, as its module exposes it.
struct Routine {
    name: &'static str,
    forms: fn() -> Vec<Impl>,
    resolve: fn(Impl) -> Result<Impl, Error>,
    /// The forms that need CPU features beyond the baseline, with the
    /// name `Error::MissingCpuFeature` gives for what they need.
    beyond: &'static [(Impl, &'static str)],
}

/// The id Software routines' successor: AVX2 with FMA.
const SUCCESSOR: &[(Impl, &str)] = &[(Impl::Avx2, "avx2 and fma")];

const ROUTINES: &[Routine] = &[
    Routine {
        name: "slerp_joints",
        forms: || animasm::slerp_joints::forms().collect(),
        resolve: animasm::slerp_joints::resolve,
        beyond: SUCCESSOR,
    },
    Routine {
        name: "lerp_joints",
        forms: || animasm::lerp_joints::forms().collect(),
        resolve: animasm::lerp_joints::resolve,
        beyond: SUCCESSOR,
    },
    Routine {
        name: "quats_to_mats",
        forms: || animasm::quats_to_mats::forms().collect(),
        resolve: animasm::quats_to_mats::resolve,
        beyond: SUCCESSOR,
    },
    Routine {
        name: "mats_to_quats",
        forms: || animasm::mats_to_quats::forms().collect(),
        resolve: animasm::mats_to_quats::resolve,
        beyond: SUCCESSOR,
    },
    Routine {
        name: "transform_joints",
        forms: || animasm::transform_joints::forms().collect(),
        resolve: animasm::transform_joints::resolve,
        beyond: SUCCESSOR,
    },
    Routine {
        name: "transform_skeleton",
        forms: || animasm::transform_skeleton::forms().collect(),
        resolve: animasm::transform_skeleton::resolve,
        beyond: SUCCESSOR,
    },
    Routine {
        name: "transform_skeleton_movss_shufps",
        forms: || animasm::transform_skeleton::movss_shufps::forms().collect(),
        resolve: animasm::transform_skeleton::movss_shufps::resolve,
        beyond: &[],
    },
    Routine {
        name: "untransform_skeleton",
        forms: || animasm::untransform_skeleton::forms().collect(),
        resolve: animasm::untransform_skeleton::resolve,
        beyond: SUCCESSOR,
    },
    Routine {
        name: "slerp_quats_corrected",
        forms: || animasm::slerp_quats::forms().collect(),
        resolve: animasm::slerp_quats::resolve,
        beyond: &[(Impl::Intrinsics, "avx"), (Impl::Asm, "avx")],
    },
    Routine {
        name: "nlerp",
        forms: || animasm::nlerp::forms().collect(),
        resolve: animasm::nlerp::resolve,
        beyond: &[(Impl::Avx2, "avx2 and fma"), (Impl::Avx2NoFma, "avx2")],
    },
];

/// What asking for a form beyond the baseline gives when the crate cannot
/// run it: the missing features on `x86_64`, where the form exists, and
/// `Unsupported` elsewhere, where it is not compiled.
fn refused(imp: Impl, needs: &'static str) -> Error {
    if cfg!(target_arch = "x86_64") { Error::MissingCpuFeature { needs } } else { Error::Unsupported(imp) }
}

/// Checks that hold in both configurations: every listed form resolves to
/// itself, the scalar port is always there and `Auto` is the first form.
fn check_common(r: &Routine) -> Vec<Impl> {
    let forms = (r.forms)();
    eprintln!("{}: forms {forms:?}", r.name);
    assert!(forms.contains(&Impl::Scalar), "{}: {forms:?}", r.name);
    for &imp in &forms {
        assert_eq!((r.resolve)(imp), Ok(imp), "{}", r.name);
    }
    assert_eq!((r.resolve)(Impl::Auto), Ok(forms[0]), "{}", r.name);
    forms
}

/// Without `std`: no form beyond the baseline is listed, `Auto` resolves
/// to a baseline form, and asking for one beyond it is refused with the
/// features it needs.
#[cfg(not(feature = "std"))]
#[test]
fn without_std_nothing_beyond_the_baseline_is_selected() {
    for r in ROUTINES {
        let forms = check_common(r);
        for &(imp, needs) in r.beyond {
            assert!(!forms.contains(&imp), "{}: {imp} listed without std", r.name);
            assert_eq!((r.resolve)(imp), Err(refused(imp, needs)), "{}", r.name);
        }
        let auto = (r.resolve)(Impl::Auto).unwrap();
        assert!(r.beyond.iter().all(|&(imp, _)| imp != auto), "{}: Auto picked {auto}", r.name);
    }
}

/// Whether the running CPU has what a `MissingCpuFeature` name says.
#[cfg(feature = "std")]
fn cpu_has(needs: &str) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let avx = std::is_x86_feature_detected!("avx");
        let avx2 = std::is_x86_feature_detected!("avx2");
        let fma = std::is_x86_feature_detected!("fma");
        match needs {
            "avx" => avx,
            "avx2" => avx2,
            "avx2 and fma" => avx2 && fma,
            other => panic!("unknown feature set {other:?}"),
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = needs;
        false
    }
}

/// With `std`: the forms beyond the baseline follow the CPU's detected
/// features (on this machine, AVX2 and FMA: every one is listed).
#[cfg(feature = "std")]
#[test]
fn with_std_the_forms_follow_the_cpu() {
    for r in ROUTINES {
        let forms = check_common(r);
        for &(imp, needs) in r.beyond {
            let has = cpu_has(needs);
            assert_eq!(forms.contains(&imp), has, "{}: {imp} ({needs})", r.name);
            let want = if has { Ok(imp) } else { Err(refused(imp, needs)) };
            assert_eq!((r.resolve)(imp), want, "{}", r.name);
        }
    }
}

/// The safe functions without `std`: a form beyond the baseline is refused
/// before the other checks (here a length mismatch) and writes nothing,
/// and `Auto` computes what the first baseline form computes, bit for bit.
#[cfg(not(feature = "std"))]
#[test]
fn without_std_the_safe_functions_refuse_avx_forms() {
    use animasm::JointQuat;
    let mut rng = Rng::new(13);
    let (joints, blend) = (rng.joints(9), rng.joints(9));
    let index: Vec<i32> = (0..9).collect();
    let bits = |j: &[JointQuat]| {
        j.iter().flat_map(|j| j.q.to_array().into_iter().chain(j.t.to_array())).map(f32::to_bits).collect::<Vec<_>>()
    };

    let mut out = joints.clone();
    let res = animasm::slerp_joints(Impl::Avx2, &mut out, &blend[..8], 0.25, &index);
    assert_eq!(res, Err(refused(Impl::Avx2, "avx2 and fma")));
    assert_eq!(bits(&out), bits(&joints), "a refused call wrote");

    let first = animasm::slerp_joints::forms().next().unwrap();
    let (mut auto, mut explicit) = (joints.clone(), joints.clone());
    animasm::slerp_joints(Impl::Auto, &mut auto, &blend, 0.25, &index).unwrap();
    animasm::slerp_joints(first, &mut explicit, &blend, 0.25, &index).unwrap();
    assert_eq!(bits(&auto), bits(&explicit), "Auto is not {first}");

    // The AVX listing of `slerp_quats` (published, with its errata) is not
    // selectable either.
    let (from, to): (Vec<Quat>, Vec<Quat>) = (0..16).map(|_| (rng.unit_quat(), rng.unit_quat())).unzip();
    let mut result = vec![Quat::IDENTITY; 16];
    for imp in [Impl::Intrinsics, Impl::Asm] {
        let res = animasm::slerp_quats_as_published(imp, &mut result, &from, &to, 0.5);
        assert_eq!(res, Err(refused(imp, "avx")), "{imp}");
    }
    assert!(result.iter().all(|q| *q == Quat::IDENTITY), "a refused call wrote");
    assert!(!animasm::slerp_quats::forms_as_published().any(|imp| imp == Impl::Intrinsics || imp == Impl::Asm));
}

/// A C math function of one `float`.
type Unary = fn(f32) -> f32;

/// The paper's `Slerp` (section 3) with the given `acos` and `sin`: the
/// scalar port's arithmetic, so that the math library it calls can be told
/// from its results.
fn slerp_with(acos: Unary, sin: Unary, from: &Quat, to: &Quat, t: f32) -> Quat {
    let cosom = from.x * to.x + from.y * to.y + from.z * to.z + from.w * to.w;
    let abs_cosom = cosom.abs();
    let (scale0, mut scale1);
    if (1.0f32 - abs_cosom) > 1e-6f32 {
        let omega = acos(abs_cosom);
        let sinom = 1.0f32 / sin(omega);
        scale0 = sin((1.0f32 - t) * omega) * sinom;
        scale1 = sin(t * omega) * sinom;
    } else {
        scale0 = 1.0f32 - t;
        scale1 = t;
    }
    scale1 = if cosom >= 0.0f32 { scale1 } else { -scale1 };
    Quat {
        x: scale0 * from.x + scale1 * to.x,
        y: scale0 * from.y + scale1 * to.y,
        z: scale0 * from.z + scale1 * to.z,
        w: scale0 * from.w + scale1 * to.w,
    }
}

/// The scalar port's `Slerp` calls the `libm` crate without `std` and the
/// platform's math with it: its results match the corresponding
/// reimplementation bit for bit on 20 000 random pairs. (Where the two
/// libraries differ on some of those inputs, as glibc and `libm` do, the
/// test tells the configurations apart; the count is printed.)
#[test]
fn scalar_ports_use_the_configured_math_library() {
    let (acos, sin, which): (Unary, Unary, &str) = if cfg!(feature = "std") {
        (f32::acos, f32::sin, "the platform's")
    } else {
        (libm::acosf, libm::sinf, "libm's")
    };
    let to_bits = |q: Quat| q.to_array().map(f32::to_bits);
    let mut rng = Rng::new(2005);
    let mut libraries_differ = 0;
    for i in 0..20_000 {
        let (a, b) = (rng.unit_quat(), rng.unit_quat());
        let t = rng.range(0.0, 1.0) as f32;
        let port = animasm::slerp_joints::scalar::slerp(&a, &b, t);
        let want = slerp_with(acos, sin, &a, &b, t);
        assert_eq!(to_bits(port), to_bits(want), "input {i}: {a:?} {b:?} {t}: not {which} math");
        let platform = slerp_with(f32::acos, f32::sin, &a, &b, t);
        let libm = slerp_with(libm::acosf, libm::sinf, &a, &b, t);
        libraries_differ += usize::from(to_bits(platform) != to_bits(libm));
    }
    eprintln!("the platform's and libm's math differ on {libraries_differ} of 20000 inputs");
}
