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
//! unifies from the root's and the dev-dependencies' (`devkit`, `animasm`
//! itself with the test hooks and `animasm-testkit` are taken without
//! their default features and ask for `alloc` only, so
//! `--no-default-features` turns `std` off for the whole test build;
//! `.ci/run` checks that this file's tests without `std` are the ones
//! listed there).

use animasm::isa::Detection;
use animasm::roster::{self, FormInfo, Routine};
use animasm::{Error, Impl, Quat};
use animasm_testkit::inputs::Rng;

/// The forms of `r` whose CPU features are detected at run time (beyond
/// the target's baseline, and not fixed at compile time as SIMD128's),
/// among those compiled here.
fn beyond(r: &Routine) -> Vec<FormInfo> {
    r.all_forms().filter(|f| f.isa.detection() == Detection::RunTime).collect()
}

/// What asking `r` for a form it cannot run here gives: the features the
/// form needs where it is compiled (a form beyond the baseline), and
/// `Unsupported` where it is not (on `x86_64`, a form the routine does not
/// have; elsewhere, every form but the scalar one).
fn refused(r: &Routine, imp: Impl) -> Error {
    match r.all_forms().find(|f| f.imp == imp) {
        Some(f) => Error::MissingCpuFeature { needs: f.isa.needs() },
        None => Error::Unsupported(imp),
    }
}

/// The resolution of `imp` by `r`, as the form's name.
fn resolve(r: &Routine, imp: Impl) -> Result<Impl, Error> {
    r.resolve(imp).map(|f| f.imp)
}

/// Checks that hold in both configurations: every listed form resolves to
/// itself, the scalar port is always there, `Auto` is the first form, and
/// every form not compiled here is `Unsupported`.
fn check_common(r: &Routine) -> Vec<Impl> {
    let forms: Vec<Impl> = r.forms().map(|f| f.imp).collect();
    eprintln!("{}: forms {forms:?}", r.name);
    assert!(forms.contains(&Impl::Scalar), "{}: {forms:?}", r.name);
    for &imp in &forms {
        assert_eq!(resolve(r, imp), Ok(imp), "{}", r.name);
    }
    assert_eq!(resolve(r, Impl::Auto), Ok(forms[0]), "{}", r.name);
    for imp in Impl::ALL.into_iter().filter(|&imp| !r.all_forms().any(|f| f.imp == imp)) {
        assert_eq!(resolve(r, imp), Err(refused(r, imp)), "{}", r.name);
    }
    forms
}

/// Without `std`: no form beyond the baseline is listed, `Auto` resolves
/// to a baseline form, and asking for one beyond it is refused with the
/// features it needs.
#[cfg(not(feature = "std"))]
#[test]
fn without_std_nothing_beyond_the_baseline_is_selected() {
    for r in roster::ROUTINES {
        let forms = check_common(r);
        for f in beyond(r) {
            assert!(!forms.contains(&f.imp), "{}: {} listed without std", r.name, f.imp);
            assert_eq!(resolve(r, f.imp), Err(refused(r, f.imp)), "{}", r.name);
        }
        let auto = resolve(r, Impl::Auto).unwrap();
        assert!(beyond(r).iter().all(|f| f.imp != auto), "{}: Auto picked {auto}", r.name);
    }
}

#[cfg(feature = "std")]
#[path = "common/cpu.rs"]
mod cpu;
#[cfg(feature = "std")]
use cpu::cpu_has;

/// With `std`: the forms beyond the baseline follow the CPU's detected
/// features (on this machine, AVX2 and FMA: every one is listed).
#[cfg(feature = "std")]
#[test]
fn with_std_the_forms_follow_the_cpu() {
    for r in roster::ROUTINES {
        let forms = check_common(r);
        for f in beyond(r) {
            let has = cpu_has(f.isa.features());
            assert_eq!(forms.contains(&f.imp), has, "{}: {} ({})", r.name, f.imp, f.isa.needs());
            let want = if has { Ok(f.imp) } else { Err(refused(r, f.imp)) };
            assert_eq!(resolve(r, f.imp), want, "{}", r.name);
        }
    }
}

/// The safe functions without `std`, for every routine of the shapes
/// `JointBlend` and `QuatPairs`: every form the routine does not run here
/// (a form beyond the baseline, or one it does not have) is refused before
/// the other checks (for `JointBlend` here a length mismatch) and writes
/// nothing, and `Auto` computes what the first baseline form computes, bit
/// for bit.
#[cfg(not(feature = "std"))]
#[test]
fn without_std_the_safe_functions_refuse_avx_forms() {
    use animasm::JointQuat;
    use animasm::roster::Shape;
    let mut rng = Rng::new(13);
    let (joints, blend) = (rng.joints(9), rng.joints(9));
    let index: Vec<i32> = (0..9).collect();
    let bits = |j: &[JointQuat]| {
        j.iter().flat_map(|j| j.q.to_array().into_iter().chain(j.t.to_array())).map(f32::to_bits).collect::<Vec<_>>()
    };
    let (from, to): (Vec<Quat>, Vec<Quat>) = (0..16).map(|_| (rng.unit_quat(), rng.unit_quat())).unzip();
    let mut refusals = 0;
    for r in roster::ROUTINES {
        let not_run = || Impl::ALL.into_iter().filter(|&imp| !r.forms().any(|f| f.imp == imp));
        match r.shape {
            Shape::JointBlend { safe, .. } => {
                for imp in not_run() {
                    let mut out = joints.clone();
                    let res = safe(imp, &mut out, &blend[..8], 0.25, &index);
                    assert_eq!(res, Err(refused(r, imp)), "{} {imp}", r.name);
                    assert_eq!(bits(&out), bits(&joints), "{} {imp}: a refused call wrote", r.name);
                    refusals += 1;
                }
                let first = r.forms().next().unwrap().imp;
                let (mut auto, mut explicit) = (joints.clone(), joints.clone());
                safe(Impl::Auto, &mut auto, &blend, 0.25, &index).unwrap();
                safe(first, &mut explicit, &blend, 0.25, &index).unwrap();
                assert_eq!(bits(&auto), bits(&explicit), "{}: Auto is not {first}", r.name);
            }
            // The AVX listings of `slerp_quats` (published, with its errata,
            // and corrected) are not selectable either.
            Shape::QuatPairs { safe, .. } => {
                let mut result = vec![Quat::IDENTITY; 16];
                for imp in not_run() {
                    let res = safe(imp, &mut result, &from, &to, 0.5);
                    assert_eq!(res, Err(refused(r, imp)), "{} {imp}", r.name);
                    refusals += 1;
                }
                assert!(result.iter().all(|q| *q == Quat::IDENTITY), "{}: a refused call wrote", r.name);
                assert!(!r.forms().any(|f| beyond(r).contains(&f)), "{}", r.name);
            }
            _ => {}
        }
    }
    assert!(refusals > 0);
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
