//! Worked example: two deliberately broken slerps, and the reports that
//! catch them.
//!
//! - `no_flip_slerp`: the textbook formula without the shortest-arc flip. A
//!   pair with a negative dot product is interpolated the long way round:
//!   the right endpoints, the wrong rotations in between.
//! - `no_fallback_slerp`: with the flip, but without the linear fallback for
//!   tiny angles: `sin(w) / sin(w)` is `0 / 0` when the f32 dot product
//!   rounds to 1 (identical pairs, and pairs 1e-7 rad apart), and `acos` of a
//!   dot product just above 1 is NaN.
//! - `unnormalised_fallback_slerp`: with the flip and the textbook fallback
//!   (a lerp above a dot product of 0.9995), but the lerp is not
//!   renormalised: the right rotations, results up to 1.25e-4 short of unit
//!   length. The rotation angle alone does not see it (9e-7 rad on the
//!   Fox's keys); the components and the length do.
//!
//! ```text
//! cargo run --release -p animasm-testkit --example broken_slerp
//! ```
//!
//! `tests/worked_examples.rs` runs the same functions as a test.

use animasm::Quat;
use animasm_testkit::cases::Family;
use animasm_testkit::check::{Check, Report};

/// The bound the broken slerps are held to: a correct f32 slerp stays within
/// 5e-7 rad on every unit-quaternion family (glam's and animasm's measure
/// 2.4e-7 at most, see `examples/glam.rs`).
pub const BOUND: f64 = 5e-7;

/// The families the missing flip breaks: every family with negative dot
/// products. Zero dot is not among them (at a dot product of exactly 0 both
/// arcs are equally long and the check accepts either), nor are the
/// families whose dot products are all positive (identical, tiny angle, the
/// Fox's consecutive keys).
pub const NO_FLIP_FAILS: [Family; 5] =
    [Family::Uniform, Family::Near90, Family::Near180, Family::Negated, Family::Denormal];

/// The families the missing fallback breaks: every family with pairs whose
/// f32 dot product (after the flip) rounds to 1 or above, so `acos` gives 0
/// or NaN: identical pairs, the tinier of the tiny angles, the nearest of
/// near 180 and `q, -q` (the flip makes them identical or nearly), the
/// denormal pairs one subnormal step apart, and the Fox's consecutive keys
/// where a bone holds (nearly) still. No NaN reaches the uniform,
/// near 90 and zero dot families.
pub const NO_FALLBACK_FAILS: [Family; 6] =
    [Family::Identical, Family::Tiny, Family::Near180, Family::Negated, Family::Denormal, Family::Fox];

fn dot(a: [f32; 4], b: [f32; 4]) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]
}

/// `s0 a + s1 b` with the textbook weights `sin((1 - t) w) / sin w` and
/// `sin(t w) / sin w`, `w = acos(d)`.
fn textbook(a: [f32; 4], b: [f32; 4], d: f32, t: f32) -> Quat {
    let w = d.acos();
    let (s0, s1) = (((1.0 - t) * w).sin() / w.sin(), (t * w).sin() / w.sin());
    Quat::from_array(core::array::from_fn(|i| s0 * a[i] + s1 * b[i]))
}

/// Broken: no shortest-arc flip (but a linear fallback for tiny angles).
///
/// The fallback starts where the f32 dot product is within one ulp of 1, as
/// glam's does. The textbook's `d > 0.9995` (4D angles up to 0.032 rad) is
/// not accurate to 5e-7: it fails on the Fox's consecutive keys (9.5e-7 rad),
/// which would blur what this example shows.
pub fn no_flip_slerp(a: Quat, b: Quat, t: f32) -> Quat {
    let (a, b) = (a.to_array(), b.to_array());
    let d = dot(a, b);
    if d > 1.0 - f32::EPSILON {
        let q: [f32; 4] = core::array::from_fn(|i| (1.0 - t) * a[i] + t * b[i]);
        let n = dot(q, q).sqrt();
        return Quat::from_array(q.map(|v| v / n));
    }
    textbook(a, b, d, t)
}

/// Broken: no linear fallback for tiny angles (but the shortest-arc flip).
pub fn no_fallback_slerp(a: Quat, b: Quat, t: f32) -> Quat {
    let (a, mut b) = (a.to_array(), b.to_array());
    let mut d = dot(a, b);
    if d < 0.0 {
        b = b.map(|v| -v);
        d = -d;
    }
    textbook(a, b, d, t)
}

/// The families the unnormalised fallback breaks: every family with pairs
/// whose dot product (after the flip) is above 0.9995 at a 4D angle large
/// enough for the lerp's shortening, `1 - cos(θ/2)` at `t = 0.5`, to pass
/// [`animasm_testkit::check::LENGTH_TOLERANCE`]: near 180 (after the flip,
/// pairs up to 1 degree apart: 3.8e-5 short), the denormal pairs (8.6e-5)
/// and the Fox's consecutive keys (1.2e-4). The rotation angle passes the
/// bound on near 180 (2.2e-7 rad); the length and the components do not.
/// Tiny angles (1e-3 rad at most: 1.25e-7 short) and identical pairs stay
/// within every limit.
pub const UNNORMALISED_FALLBACK_FAILS: [Family; 3] = [Family::Near180, Family::Denormal, Family::Fox];

/// Broken: the textbook fallback's lerp is not renormalised (but the flip
/// and the `sin` weights are right).
pub fn unnormalised_fallback_slerp(a: Quat, b: Quat, t: f32) -> Quat {
    let (a, mut b) = (a.to_array(), b.to_array());
    let mut d = dot(a, b);
    if d < 0.0 {
        b = b.map(|v| -v);
        d = -d;
    }
    if d > 0.9995 {
        return Quat::from_array(core::array::from_fn(|i| (1.0 - t) * a[i] + t * b[i]));
    }
    textbook(a, b, d, t)
}

/// The report on `no_flip_slerp`.
pub fn no_flip_report() -> Report {
    Check::slerp("slerp without the shortest-arc flip").run_each(no_flip_slerp)
}

/// The report on `no_fallback_slerp`.
pub fn no_fallback_report() -> Report {
    Check::slerp("slerp without the tiny-angle fallback").run_each(no_fallback_slerp)
}

/// The report on `unnormalised_fallback_slerp`.
pub fn unnormalised_fallback_report() -> Report {
    Check::slerp("slerp whose fallback lerp is not renormalised").run_each(unnormalised_fallback_slerp)
}

/// One line per family and measure beyond the limits: the figure and the
/// worst input.
fn print_failures(report: &Report) {
    println!("{}: beyond assert_within({BOUND:e}):", report.name);
    for v in report.violations(BOUND) {
        let f = report.family(v.family).expect("a failing family was checked");
        let w = v.worst.expect("a unit family has a worst input");
        println!(
            "  {:<10} {} {:.2e} > {:.0e}, {} of {} results non-finite; worst: from {:?} to {:?} t {} gave {:?}, want {:?}",
            v.family.name(),
            v.measure.name(),
            v.value,
            v.limit,
            f.non_finite_out,
            f.cases,
            w.case.from.to_array(),
            w.case.to.to_array(),
            w.t,
            w.got.to_array(),
            w.want.map(|v| v as f32),
        );
    }
    println!();
}

fn main() {
    let no_flip = no_flip_report();
    println!("{no_flip}");
    print_failures(&no_flip);
    assert_eq!(no_flip.failures(BOUND), NO_FLIP_FAILS);

    let no_fallback = no_fallback_report();
    println!("{no_fallback}");
    print_failures(&no_fallback);
    assert_eq!(no_fallback.failures(BOUND), NO_FALLBACK_FAILS);

    let unnormalised = unnormalised_fallback_report();
    println!("{unnormalised}");
    print_failures(&unnormalised);
    assert_eq!(unnormalised.failures(BOUND), UNNORMALISED_FALLBACK_FAILS);
}
