//! The published table: glam's and ultraviolet's slerp and normalised lerp,
//! and animasm's `slerp_joints` and `lerp_joints` forms, each checked over
//! every case family by `animasm_testkit::check`, in one Markdown table.
//!
//! ```text
//! cargo run --release -p animasm-testkit --example peers
//! ```
//!
//! Cells are the max rotation angle between the result and the f64
//! reference (radians, 2 significant digits; `inf` where a result was NaN);
//! the NaN/inf column says in words what comes out of NaN and infinite input.

use animasm::Quat;
use animasm_testkit::cases::{FACTORS, Family};
use animasm_testkit::check::{Check, NonFinite, Report};
use ultraviolet::{Lerp, Rotor3, Slerp};

// Both libraries' quaternions are 4D vectors to a slerp; the lanes map as
// each library documents (glam: `[x, y, z, w]` as animasm; ultraviolet: its
// own `from_quaternion_array`/`into_quaternion_array`, sign flips only).
fn glam_q(q: Quat) -> glam::Quat {
    glam::Quat::from_xyzw(q.x, q.y, q.z, q.w)
}

fn from_glam(q: glam::Quat) -> Quat {
    Quat::new(q.x, q.y, q.z, q.w)
}

fn uv_rotor(q: Quat) -> Rotor3 {
    Rotor3::from_quaternion_array(q.to_array())
}

fn from_uv(r: Rotor3) -> Quat {
    Quat::from_array(r.into_quaternion_array())
}

/// A table row: a name, the max angle per family, the non-finite behaviour.
struct Row {
    name: String,
    angles: Vec<(Family, f64)>,
    non_finite: String,
}

fn peer_row(report: &Report) -> Row {
    Row {
        name: report.name.clone(),
        angles: report.families.iter().map(|f| (f.family, f.max_angle)).collect(),
        non_finite: words(&report.non_finite),
    }
}

/// One row per animasm form of `report` (its forms ran on the same inputs as
/// the checked function).
fn form_rows(report: &Report) -> Vec<Row> {
    let routine = report.reference.routine();
    report
        .forms
        .iter()
        .map(|form| Row {
            name: format!("animasm `{routine}` {}", form.form),
            angles: form.max_angle.iter().copied().chain([(Family::NonFinite, f64::NAN)]).collect(),
            non_finite: words(&form.non_finite),
        })
        .collect()
}

/// What came out of NaN and infinite input, in words.
fn words(n: &NonFinite) -> String {
    let out = match (n.nan_out, n.finite_out) {
        (k, 0) if k == n.cases => "NaN out".to_string(),
        (_, 0) => "NaN or inf out".to_string(),
        (_, f) => format!("NaN or inf out, finite in {f} of {}", n.cases),
    };
    let factor = match (&n.nan_factor_err, n.nan_factor_nan_out) {
        (Some(_), _) => "`Err`".to_string(),
        (None, k) if k == n.nan_factor_cases => "NaN out".to_string(),
        (None, 0) => "no NaN out".to_string(),
        (None, k) => format!("NaN out for {k} of {}", n.nan_factor_cases),
    };
    format!("{out}; NaN t: {factor}")
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).map(|l| l.to_string()))
        .and_then(|l| l.split_once(':').map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "unknown".into())
}

/// `x` to 2 significant digits (`inf` for a NaN result).
fn sig2(x: f64) -> String {
    if x.is_infinite() { "inf".into() } else { format!("{x:.1e}") }
}

fn main() {
    let glam_slerp = Check::slerp("glam `Quat::slerp`").run_each(|a, b, t| from_glam(glam_q(a).slerp(glam_q(b), t)));
    // ultraviolet 0.10's scalar `Rotor3::slerp` flips `end` itself when the
    // dot product is negative (its wide `Rotor3x8::slerp` does not): no flip
    // here. animasm's forms run once, in the glam reports.
    let uv_slerp = Check::slerp("ultraviolet `Rotor3::slerp`")
        .forms(&[])
        .run_each(|a, b, t| from_uv(uv_rotor(a).slerp(uv_rotor(b), t)));
    let glam_lerp = Check::nlerp("glam `Quat::lerp`").run_each(|a, b, t| from_glam(glam_q(a).lerp(glam_q(b), t)));
    // ultraviolet's `lerp` is a plain lerp; its docs' nlerp is
    // `lerp(..).normalized()`. The shorter arc is the caller's to take.
    let uv_nlerp = Check::nlerp("ultraviolet `Rotor3::lerp` + `normalized`").forms(&[]).run_each(|a, b, t| {
        let (a, mut b) = (uv_rotor(a), uv_rotor(b));
        if a.dot(b) < 0.0 {
            b *= -1.0;
        }
        from_uv(a.lerp(b, t).normalized())
    });

    let mut rows = vec![peer_row(&glam_slerp), peer_row(&uv_slerp)];
    rows.extend(form_rows(&glam_slerp));
    rows.extend([peer_row(&glam_lerp), peer_row(&uv_nlerp)]);
    rows.extend(form_rows(&glam_lerp));

    print!("| function |");
    for f in Family::ALL {
        print!(" {} |", f.name());
    }
    println!();
    println!("|---|{}", "---:|".repeat(Family::ALL.len()));
    for row in &rows {
        print!("| {} |", row.name);
        for f in Family::ALL {
            match row.angles.iter().find(|(g, _)| *g == f) {
                Some(_) if f == Family::NonFinite => print!(" {} |", row.non_finite),
                Some(&(_, e)) => print!(" {} |", sig2(e)),
                None => print!(" |"),
            }
        }
        println!();
    }
    println!();
    println!(
        "Max rotation angle from the f64 reference, radians (slerp rows: the slerp; nlerp rows: the normalised lerp), \
         {} pairs per family at {} factors, seed {:#x}. CPU: {}.",
        glam_slerp.pairs,
        FACTORS.len(),
        glam_slerp.seed,
        cpu_name()
    );
    println!("`cargo run --release -p animasm-testkit --example peers`");
    for r in [&glam_slerp, &uv_slerp, &glam_lerp, &uv_nlerp] {
        for (imp, why) in &r.skipped {
            println!("- animasm {imp} skipped ({}): {why}", r.name);
        }
    }
}
