//! The errata index of `asm_notes/README.md`, with each erratum's effect
//! measured in this run where the report measures it.

use crate::print::{heading, para, wrap};
use crate::results::Results;

/// One erratum of `asm_notes/README.md`'s errata index.
pub(crate) struct Erratum {
    pub(crate) routine: String,
    pub(crate) number: String,
    pub(crate) title: String,
    pub(crate) test: String,
}

/// The rows of `asm_notes/README.md`'s errata index.
pub(crate) fn errata_index() -> Result<Vec<Erratum>, String> {
    let path = devkit::paths::workspace_root().join("asm_notes/README.md");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let section = text.split("\n## Errata index").nth(1).ok_or("no \"## Errata index\" section")?;
    let mut out = Vec::new();
    for line in section.lines().skip(1) {
        if line.starts_with("## ") {
            break;
        }
        let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
        if !line.starts_with("| ") || cells.len() != 3 || cells[0] == "routine" {
            continue;
        }
        let (link, rest) = match cells[1].strip_prefix('[').and_then(|c| c.split_once("](")) {
            Some((link, rest)) => (link, rest.split_once(')').map_or("", |(_, r)| r)),
            None => (cells[1], ""),
        };
        let (number, title) = match link.split_once(' ') {
            Some((n, t)) if n.starts_with('E') && n[1..].chars().all(|c| c.is_ascii_digit()) => (n, t.to_string()),
            _ => ("-", format!("{link}{rest}")),
        };
        let test = cells[2].replace('`', "");
        let test = if test.contains("tests/") || test.starts_with("none") {
            test
        } else {
            format!("tests/{}.rs {test}", cells[0])
        };
        out.push(Erratum { routine: cells[0].to_string(), number: number.to_string(), title, test });
    }
    if out.is_empty() { Err("the errata index has no rows".into()) } else { Ok(out) }
}

/// An erratum's effect measured in this run, where the report measures it.
pub(crate) fn measured_effect(res: &Results, routine: &str, number: &str) -> Option<String> {
    let e = |name: &str| res.acc(name).map(|v| format!("{v:.2e}"));
    let paper = |name: &str| res.accuracy.iter().find(|r| r.0 == name).and_then(|r| r.2);
    match (routine, number) {
        ("slerp_joints", "E9") => {
            let name = "slerp_joints asm vs the C Slerp";
            Some(format!(
                "SSE slerp vs the C Slerp {} with the chosen constants (published {})",
                e(name)?,
                paper(name).map_or("-".into(), |p| format!("{p:.2e}"))
            ))
        }
        ("slerp_joints", "E11") => Some(format!(
            "C SlerpOptimized vs the C Slerp {}, the SSE listing (asm) {}",
            e("C SlerpOptimized vs the C Slerp")?,
            e("slerp_joints asm vs the C Slerp")?
        )),
        ("lerp_joints", "E7") => Some(format!("SSE lerp (asm) vs the C Lerp {}", e("lerp_joints asm vs the C Lerp")?)),
        ("mats_to_quats", "E5") => Some(format!(
            "max error: C port {}, listing (asm) {}",
            e("mats_to_quats scalar vs the source quaternion (up to sign)")?,
            e("mats_to_quats asm vs the source quaternion (up to sign)")?
        )),
        ("slerp_quats", "E1") => Some(format!(
            "as published, omega >= 45 deg: {} (corrected, all angles: {})",
            e("slerp_quats as published, omega >= 45 degrees (E1 + E3)")?,
            e("slerp_quats corrected (asm = intrinsics) vs f64 slerp")?
        )),
        ("slerp_quats", "E3") => Some(format!(
            "as published, omega < 45 deg: {} (corrected: {})",
            e("slerp_quats as published, omega < 45 degrees (E3)")?,
            e("slerp_quats corrected (asm = intrinsics) vs f64 slerp")?
        )),
        ("nlerp", "E4") => {
            let rows: Vec<String> = res
                .nlerp_errors
                .iter()
                .filter(|r| r.func.name() == "fnlerp")
                .map(|r| format!("{}: published {:.2e}, f64 evaluation {:.2e}", r.label, r.published, r.exact))
                .collect();
            (!rows.is_empty()).then(|| format!("fnlerp angle error {}", rows.join("; ")))
        }
        _ => None,
    }
}

/// Section 7: one line per erratum, with its measured effect or its test.
pub(crate) fn errata_section(res: &mut Results) {
    heading("7. The errata index");
    let errata = match errata_index() {
        Ok(errata) => errata,
        Err(e) => {
            para(&format!("The errata index could not be read: {e}."));
            return;
        }
    };
    para(
        "One line per erratum of asm_notes/README.md's errata index (details in asm_notes/<routine>.md): routine, \
         number, title, then the effect measured in this run where the report measures it, else the test \
         that shows it.",
    );
    let width = errata.iter().map(|e| e.routine.len()).max().unwrap_or(0);
    let mut measured = 0;
    for x in &errata {
        let effect = match measured_effect(res, &x.routine, &x.number) {
            Some(m) => {
                measured += 1;
                format!("measured: {m}")
            }
            None => format!("test: {}", x.test),
        };
        let first = format!("{:<width$} {:<3} ", x.routine, x.number);
        for l in wrap(&first, &format!("{}. {effect}", x.title), width + 5) {
            outln!("{l}");
        }
    }
    outln!();
    para(
        "The `movss` + `shufps` variant of transform_skeleton computes the same bits as the listing and shares \
         its errata.",
    );
    res.errata = (errata.len(), measured);
}
