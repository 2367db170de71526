//! What the report hands the reading room (the static HTML site of the
//! `animasm-reading-room` crate): the report's text and this run's
//! measurements, as one JSON file in the report's output directory
//! ([`FILE`] under [`crate::paths::report_dir`]). `cargo run --release
//! --example report -- --html` writes it; `cargo run --release -p
//! animasm-reading-room` reads it and writes the pages next to it. The
//! report never depends on the site's crate, so `cargo test` of animasm
//! builds no site generator.
//!
//! The figures are written as strings (Rust's shortest form that reads
//! back to the same `f64`), so the site shows exactly the report's figures
//! (a JSON number is not read back exactly by `serde_json` without its
//! `float_roundtrip` feature), NaN and infinities included.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file's name in the report's output directory.
pub const FILE: &str = "site_input.json";

/// A measured figure: ticks per element of a form at a size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FormTicks {
    /// The routine (`slerp_joints`, ...).
    pub routine: String,
    /// The form (`asm`, `intrinsics`, `scalar`, `avx2`, `floor`, `glam`, ...).
    pub form: String,
    pub elements: usize,
    /// Median TSC ticks per element.
    #[serde(with = "exact::float")]
    pub ticks: f64,
}

/// llvm-mca's resource pressure per instruction of one asm kernel's main
/// loop: an owned copy of `devkit::mca::pressure::LoopPressure` (which
/// exists on x86_64 only, outside Miri).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoopPressure {
    /// The kernel (`slerp_joints`, `transform_skeleton (movss+shufps)`, ...).
    pub kernel: String,
    /// The loop's label in `asm_notes/<routine>.listing.s` (`loopJoint4`).
    pub loop_label: String,
    /// The llvm-mca `-mcpu` model.
    pub model: String,
    /// The resources (ports, units) in column order, every name distinct.
    pub resources: Vec<String>,
    /// The loop's instructions in order, label to the branch back.
    pub rows: Vec<PressureRow>,
    /// llvm-mca's Block RThroughput: cycles per iteration.
    #[serde(with = "exact::float")]
    pub block_rthroughput: f64,
    /// Elements (joints, quaternions, matrices) one iteration handles.
    #[serde(with = "exact::float")]
    pub elements_per_iteration: f64,
}

/// One instruction of a [`LoopPressure`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PressureRow {
    /// The instruction as llvm-mca prints it.
    pub instruction: String,
    /// Pressure per resource, in [`LoopPressure::resources`]' order.
    #[serde(with = "exact::floats")]
    pub pressure: Vec<f64>,
}

/// Everything the site shows that is not read from the repository.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteInput {
    /// This CPU, as the report names it.
    pub cpu: String,
    /// The report's text (stdout), Markdown-like.
    pub report_text: String,
    /// The asm kernels' ticks per element from the papers' tables, by
    /// llvm-mca's kernel name.
    #[serde(with = "exact::pairs")]
    pub kernel_ticks: Vec<(String, f64)>,
    /// Every form's ticks per element from the successors section.
    pub form_ticks: Vec<FormTicks>,
    /// llvm-mca's loops (empty: "not available").
    pub pressure: Vec<LoopPressure>,
    /// The successors' disassembled inner loops: (routine, lines).
    pub successor_loops: Vec<(String, Vec<String>)>,
    /// gungraun's output directory (`<target>/gungraun`), if it exists.
    pub gungraun_dir: Option<PathBuf>,
    /// The SVG plots' file names, in the site's directory.
    pub plots: Vec<String>,
}

impl SiteInput {
    /// The JSON text of the input.
    pub fn to_json(&self) -> Result<String, String> {
        serde_json::to_string_pretty(self).map_err(|e| format!("the reading room's input as JSON: {e}"))
    }

    /// The input from its JSON text.
    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("the reading room's input: {e}"))
    }

    /// Writes [`FILE`] into `dir` (created if needed); returns its path.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        let path = dir.join(FILE);
        std::fs::write(&path, self.to_json()?).map_err(|e| format!("writing {}: {e}", path.display()))?;
        Ok(path)
    }

    /// Reads [`FILE`] from `dir`.
    pub fn read(dir: &Path) -> Result<Self, String> {
        let path = dir.join(FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
        Self::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// `f64`s as strings in Rust's shortest round-trip form.
mod exact {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    fn parse<E: serde::de::Error>(s: &str) -> Result<f64, E> {
        s.parse().map_err(|_| E::custom(format!("not a number: {s:?}")))
    }

    pub mod float {
        use super::*;

        pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
            s.collect_str(v)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
            parse(&String::deserialize(d)?)
        }
    }

    pub mod floats {
        use super::*;

        pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
            v.iter().map(f64::to_string).collect::<Vec<_>>().serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
            Vec::<String>::deserialize(d)?.iter().map(|s| parse(s)).collect()
        }
    }

    pub mod pairs {
        use super::*;

        pub fn serialize<S: Serializer>(v: &[(String, f64)], s: S) -> Result<S::Ok, S::Error> {
            v.iter().map(|(n, x)| (n, x.to_string())).collect::<Vec<_>>().serialize(s)
        }

        pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(String, f64)>, D::Error> {
            Vec::<(String, String)>::deserialize(d)?.into_iter().map(|(n, s)| parse(&s).map(|x| (n, x))).collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_is_exact() {
        let awkward = [0.1 + 0.2, 1.0 / 3.0, 12.345_678_901_234_567, 5e-324, f64::MAX, -0.0, 4.0];
        let input = SiteInput {
            cpu: "CPU \"quoted\"".to_owned(),
            report_text: "# report\n\n| a | b |\n".to_owned(),
            kernel_ticks: awkward.iter().map(|&t| ("k".to_owned(), t)).collect(),
            form_ticks: vec![FormTicks { routine: "r".into(), form: "asm".into(), elements: 64, ticks: awkward[2] }],
            pressure: vec![LoopPressure {
                kernel: "slerp_joints".into(),
                loop_label: "loopJoint4".into(),
                model: "znver3".into(),
                resources: vec!["P0".into()],
                rows: vec![PressureRow { instruction: "addps xmm0, xmm1".into(), pressure: awkward.to_vec() }],
                block_rthroughput: awkward[1],
                elements_per_iteration: 4.0,
            }],
            successor_loops: vec![("r".into(), vec!["vmovaps ymm0, ymm1".into()])],
            gungraun_dir: Some(PathBuf::from("/tmp/gungraun")),
            plots: vec!["speedups.svg".into()],
        };
        let back = SiteInput::from_json(&input.to_json().unwrap()).unwrap();
        assert_eq!(back, input);
        for (a, b) in back.kernel_ticks.iter().zip(&input.kernel_ticks) {
            assert_eq!(a.1.to_bits(), b.1.to_bits());
        }
        // NaN and the infinities, which a JSON number cannot hold.
        let odd = SiteInput { kernel_ticks: vec![("n".into(), f64::NAN), ("i".into(), f64::NEG_INFINITY)], ..input };
        let back = SiteInput::from_json(&odd.to_json().unwrap()).unwrap();
        assert!(back.kernel_ticks[0].1.is_nan() && back.kernel_ticks[1].1 == f64::NEG_INFINITY);
        assert!(SiteInput::from_json("{\"cpu\": 1}").is_err());
    }
}
