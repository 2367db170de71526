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

use animasm::{Impl, JointQuat, Quat, Vec4};
use animasm_testkit::cases::{self, FACTORS, Family};
use animasm_testkit::check::{Check, Reference, Report};
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

/// Runs `check` on `f(from, to, t)` pair by pair.
fn check_each(check: Check, f: impl Fn(Quat, Quat, f32) -> Quat) -> Report {
    check.run(|out, from, to, t| {
        for i in 0..out.len() {
            out[i] = f(from[i], to[i], t);
        }
    })
}

/// A table row: a name, the max angle per family, the non-finite behaviour.
struct Row {
    name: String,
    angles: Vec<(Family, f64)>,
    non_finite: String,
}

fn peer_row(report: &Report) -> Row {
    let n = report.non_finite;
    let input = Counts { cases: n.cases, nan: n.nan_out, finite: n.finite_out, finite_inside: None };
    let factor = nan_factor_words(n.nan_factor_nan_out == n.nan_factor_cases, n.nan_factor_nan_out == 0);
    Row {
        name: report.name.clone(),
        angles: report.families.iter().map(|f| (f.family, f.max_angle)).collect(),
        non_finite: format!("{}; {factor}", input.words()),
    }
}

/// One row per animasm form of `report` (its forms ran on the same inputs as
/// the checked function). The check measures no form on NaN/inf input, so
/// that cell is measured here, on the same pairs and factors.
fn form_rows(report: &Report) -> Vec<Row> {
    let routine = report.reference.routine();
    let pairs = cases::family(Family::NonFinite, report.seed, report.families[0].cases / FACTORS.len());
    report
        .forms
        .iter()
        .map(|form| {
            let mut c = Counts { finite_inside: Some(0), ..Counts::default() };
            for &t in &FACTORS {
                for q in run_form(report.reference, form.form, &pairs, t).expect("the form ran in the check") {
                    let v = q.to_array();
                    let finite = v.iter().all(|x| x.is_finite());
                    c.cases += 1;
                    c.nan += usize::from(v.iter().any(|x| x.is_nan()));
                    c.finite += usize::from(finite);
                    if finite && t != 0.0 && t != 1.0 {
                        c.finite_inside = c.finite_inside.map(|n| n + 1);
                    }
                }
            }
            let factor = match run_form(report.reference, form.form, &pairs[..1], f32::NAN) {
                // The variant's name only: `NonFiniteFactor`.
                Err(e) => format!("NaN t: `Err({})`", format!("{e:?}").split([' ', '(', '{']).next().unwrap_or("")),
                Ok(q) => {
                    let nan = q[0].to_array().iter().any(|x| x.is_nan());
                    nan_factor_words(nan, !nan)
                }
            };
            Row {
                name: format!("animasm `{routine}` {}", form.form),
                angles: form.max_angle.clone(),
                non_finite: format!("{}; {factor}", c.words()),
            }
        })
        .collect()
}

/// animasm's safe function for `reference`, form `imp`, on `pairs` at `t`.
fn run_form(reference: Reference, imp: Impl, pairs: &[cases::Case], t: f32) -> Result<Vec<Quat>, animasm::Error> {
    let mut joints: Vec<JointQuat> = pairs.iter().map(|c| JointQuat::new(c.from, Vec4::default())).collect();
    let blend: Vec<JointQuat> = pairs.iter().map(|c| JointQuat::new(c.to, Vec4::default())).collect();
    let index: Vec<i32> = (0..pairs.len() as i32).collect();
    match reference {
        Reference::Slerp => animasm::slerp_joints(imp, &mut joints, &blend, t, &index)?,
        Reference::Nlerp => animasm::lerp_joints(imp, &mut joints, &blend, t, &index)?,
    }
    Ok(joints.iter().map(|j| j.q).collect())
}

/// Results on NaN/inf input: how many have a NaN, how many are finite, and
/// (where known) how many are finite at factors other than 0 and 1.
#[derive(Default)]
struct Counts {
    cases: usize,
    nan: usize,
    finite: usize,
    finite_inside: Option<usize>,
}

impl Counts {
    fn words(&self) -> String {
        let out = if self.nan == self.cases - self.finite { "NaN out" } else { "NaN or inf out" };
        match (self.finite, self.finite_inside) {
            (0, _) => out.into(),
            // animasm's endpoint rule: t = 0 keeps `from`, t = 1 copies `to`,
            // finite or not.
            (_, Some(0)) => format!("{out}, except t = 0 and 1 (the endpoint as is)"),
            (f, _) => format!("{out}; finite in {f} of {}", self.cases),
        }
    }
}

fn nan_factor_words(all_nan: bool, none_nan: bool) -> String {
    match (all_nan, none_nan) {
        (true, _) => "NaN t: NaN out".into(),
        (_, true) => "NaN t: no NaN out".into(),
        _ => "NaN t: NaN out for some pairs".into(),
    }
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
    let glam_slerp = check_each(Check::slerp("glam `Quat::slerp`"), |a, b, t| from_glam(glam_q(a).slerp(glam_q(b), t)));
    // ultraviolet 0.10's scalar `Rotor3::slerp` flips `end` itself when the
    // dot product is negative (its wide `Rotor3x8::slerp` does not): no flip
    // here. animasm's forms run once, in the glam reports.
    let uv_slerp = check_each(Check::slerp("ultraviolet `Rotor3::slerp`").forms(&[]), |a, b, t| {
        from_uv(uv_rotor(a).slerp(uv_rotor(b), t))
    });
    let glam_lerp = check_each(Check::nlerp("glam `Quat::lerp`"), |a, b, t| from_glam(glam_q(a).lerp(glam_q(b), t)));
    // ultraviolet's `lerp` is a plain lerp; its docs' nlerp is
    // `lerp(..).normalized()`. The shorter arc is the caller's to take.
    let uv_nlerp = check_each(Check::nlerp("ultraviolet `Rotor3::lerp` + `normalized`").forms(&[]), |a, b, t| {
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
        glam_slerp.families[0].cases / FACTORS.len(),
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
