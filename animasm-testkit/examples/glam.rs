//! Worked example: glam's `Quat::slerp` and `Quat::lerp` checked against the
//! f64 reference and animasm's own forms, over every case family.
//!
//! ```text
//! cargo run --release -p animasm-testkit --example glam
//! ```
//!
//! `tests/worked_examples.rs` runs the same functions as a test.

use animasm::Quat;
use animasm_testkit::check::{Check, Report};

/// glam's slerp stays within this many radians of the exact slerp on every
/// unit-quaternion family: f32 rounding only. Measured: 2.2e-7 rad at most
/// (the uniform family; animasm's forms measure 1.8e-7 to 2.4e-7 on the same
/// inputs); the bound is that with a margin of about 2.3x.
pub const GLAM_SLERP_BOUND: f64 = 5e-7;

/// glam's lerp (a normalised lerp along the shorter arc) stays within this
/// many radians of the exact normalised lerp. Measured: 2.3e-7 rad at most
/// (near 90 degrees apart); the bound is that with a margin of about 2.2x.
pub const GLAM_LERP_BOUND: f64 = 5e-7;

/// animasm's `[x, y, z, w]` quaternion as glam's. The lanes map one to one:
/// glam's `Quat` is `[x, y, z, w]` too (and a slerp does not depend on the
/// convention anyway: it treats a quaternion as a 4D vector, so any fixed
/// permutation of the lanes on the way in and back out gives the same result).
fn to_glam(q: Quat) -> glam::Quat {
    glam::Quat::from_xyzw(q.x, q.y, q.z, q.w)
}

fn from_glam(q: glam::Quat) -> Quat {
    Quat::new(q.x, q.y, q.z, q.w)
}

/// glam's `Quat::slerp` against the f64 slerp and `slerp_joints`'s forms.
pub fn glam_slerp_report() -> Report {
    // `run` hands over whole slices (the shape of a SIMD kernel); `run_each`
    // (below) one pair at a time.
    Check::slerp("glam Quat::slerp").run(|out, from, to, t| {
        for i in 0..out.len() {
            out[i] = from_glam(to_glam(from[i]).slerp(to_glam(to[i]), t));
        }
    })
}

/// glam's `Quat::lerp` (it normalises: an nlerp) against the f64 normalised
/// lerp and `lerp_joints`'s forms.
pub fn glam_lerp_report() -> Report {
    Check::nlerp("glam Quat::lerp").run_each(|from, to, t| from_glam(to_glam(from).lerp(to_glam(to), t)))
}

fn main() {
    let slerp = glam_slerp_report();
    println!("{slerp}");
    slerp.assert_within(GLAM_SLERP_BOUND);

    let lerp = glam_lerp_report();
    println!("{lerp}");
    lerp.assert_within(GLAM_LERP_BOUND);
}
