//! llvm-mca's per-instruction resource pressure of each asm kernel's main
//! loop ([`loop_pressure`]), and the successors' inner loops as disassembled
//! lines ([`successor_loops`]), for the reading room.
//!
//! The loops are the ones [`super::estimates`] and
//! [`super::successor_estimates`] find (the same helpers: the kernel's
//! function in the running binary's symbol table, its disassembly, the loop
//! of the listing's instruction count, rewritten for llvm-mca). llvm-mca runs
//! with this machine's model ([`super::SUCCESSOR_CPUS`]'s first, `znver3`)
//! and Intel output syntax; its "Resource pressure by instruction" table is
//! parsed into one [`PressureRow`] per loop instruction.

use super::{
    SUCCESSOR_CPUS, SuccessorEstimate, SuccessorRow, kernel_loop, kernels, llvm_mca, llvm_mca_version, mca_source,
    objdump, parse_block_rthroughput, run, successor_estimates,
};

/// One asm kernel's main loop with llvm-mca's resource pressure per
/// instruction.
#[derive(Clone, Debug)]
pub struct LoopPressure {
    /// The kernel, as [`super::McaRow::kernel`] (`slerp_joints`,
    /// `transform_skeleton (movss+shufps)`, ...).
    pub kernel: &'static str,
    /// The loop's label in `asm_notes/<routine>.listing.s` (`loopJoint4`).
    pub loop_label: &'static str,
    /// The llvm-mca `-mcpu` model: this machine's ([`SUCCESSOR_CPUS`]`[0]`).
    pub model: &'static str,
    /// The resources (ports, units) in column order, as llvm-mca's
    /// "Resources:" legend names them; a resource of several units (legend
    /// `[12.0]`, `[12.1]`) gets its unit as a suffix (`Zn3FPP45.0`,
    /// `Zn3FPP45.1`), so that every name is distinct.
    pub resources: Vec<String>,
    /// The loop's instructions in order, label to the branch back.
    pub rows: Vec<PressureRow>,
    /// llvm-mca's Block RThroughput: cycles per iteration.
    pub block_rthroughput: f64,
    /// Elements (joints, quaternions, matrices) one iteration handles.
    pub elements_per_iteration: f64,
}

impl LoopPressure {
    /// Each resource's pressure summed over the loop (cycles per iteration
    /// the resource is busy), in column order.
    pub fn totals(&self) -> Vec<f64> {
        (0..self.resources.len()).map(|c| self.rows.iter().map(|r| r.pressure[c]).sum()).collect()
    }
}

/// One instruction of a loop and its pressure on each resource.
#[derive(Clone, Debug, PartialEq)]
pub struct PressureRow {
    /// The instruction as llvm-mca prints it (Intel syntax, whitespace runs
    /// collapsed to one space: `vmulps ymm0, ymm1, ymm2`).
    pub instruction: String,
    /// Pressure per resource, in [`LoopPressure::resources`]' order; `0.0`
    /// where llvm-mca prints `-`.
    pub pressure: Vec<f64>,
}

/// llvm-mca's resource pressure of every asm kernel's main loop (the
/// kernels of [`super::estimates`], in its order). `Err` when `objdump` or
/// `llvm-mca` cannot be run, a loop is not found, llvm-mca's output does not
/// parse, or its table has not one row per loop instruction (the message
/// names the kernel).
pub fn loop_pressure() -> Result<Vec<LoopPressure>, String> {
    llvm_mca_version().ok_or_else(|| format!("`{}` is not installed (or `--version` failed)", llvm_mca()))?;
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let exe = exe.to_str().ok_or("the executable's path is not UTF-8")?.to_owned();
    let table = crate::objdump::functions(&run(&objdump(), &["-t", "-C", &exe])?);
    let model = SUCCESSOR_CPUS[0];
    let mut out = Vec::new();
    for k in kernels()? {
        let body = kernel_loop(&exe, &table, k)?;
        let text = mca_output(&mca_source(&body), model).map_err(|e| format!("{}: {e}", k.name))?;
        let (resources, rows) = parse_resource_pressure(&text).map_err(|e| format!("{}: {e}", k.name))?;
        if rows.len() != body.len() {
            return Err(format!(
                "{}: llvm-mca's pressure table has {} rows, the loop `{}` {} instructions",
                k.name,
                rows.len(),
                k.loop_label,
                body.len()
            ));
        }
        let block_rthroughput = parse_block_rthroughput(&text)
            .ok_or_else(|| format!("{}: no `Block RThroughput` in llvm-mca's output", k.name))?;
        out.push(LoopPressure {
            kernel: k.name,
            loop_label: &k.loop_label,
            model,
            resources,
            rows,
            block_rthroughput,
            elements_per_iteration: k.elements_per_iteration,
        });
    }
    Ok(out)
}

/// Each successor form's inner loop (`Origin::Successor`, by routine), the
/// one [`successor_estimates`] estimates (its callees spliced in), as the lines
/// given to llvm-mca, in order: the disassembled instructions (Intel syntax,
/// objdump's spacing collapsed), with branch targets as `.Lloop` (the branch
/// back) or `.Lout` and alignment `nop`s left out. Routines without the form
/// in this build are absent; `Err` when the tools cannot be run or a
/// successor's loop is not found.
pub fn successor_loops() -> Result<Vec<(&'static str, Vec<String>)>, String> {
    let mut out = Vec::new();
    for SuccessorRow { routine, estimate, .. } in successor_estimates()? {
        match estimate {
            SuccessorEstimate::NotInBuild => {}
            SuccessorEstimate::Failed(e) => return Err(format!("{routine}: {e}")),
            SuccessorEstimate::Estimated(l) => {
                let lines = l
                    .source
                    .lines()
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && !s.starts_with('.'))
                    .map(str::to_owned)
                    .collect();
                out.push((routine, lines));
            }
        }
    }
    Ok(out)
}

/// `llvm-mca -mtriple=x86_64 -mcpu=<cpu> -output-asm-variant=1
/// -resource-pressure` on `source`: its whole output (Intel syntax rows).
fn mca_output(source: &str, cpu: &str) -> Result<String, String> {
    super::mca_output(source, cpu, &["-output-asm-variant=1", "-resource-pressure"])
}

/// The first `n` whitespace-separated fields of `line` and the rest of it
/// (trimmed); `None` when it has fewer than `n` fields.
fn split_fields(line: &str, n: usize) -> Option<(Vec<&str>, &str)> {
    let mut fields = Vec::with_capacity(n);
    let mut rest = line;
    for _ in 0..n {
        let s = rest.trim_start();
        let end = s.find(char::is_whitespace).unwrap_or(s.len());
        if end == 0 {
            return None;
        }
        fields.push(&s[..end]);
        rest = &s[end..];
    }
    Some((fields, rest.trim()))
}

/// Parses llvm-mca's "Resources:" legend (`[12.0] - Zn3FPP45`) and its
/// "Resource pressure by instruction" table: the resource names in column
/// order and one row per instruction. The columns are read as
/// whitespace-separated fields, whatever their widths: the first one per
/// resource are the pressures (`-` is 0), the rest of the line is the
/// instruction.
pub fn parse_resource_pressure(text: &str) -> Result<(Vec<String>, Vec<PressureRow>), String> {
    let mut lines = text.lines();
    // The legend.
    lines.by_ref().find(|l| l.trim() == "Resources:").ok_or("no `Resources:` legend")?;
    let mut labels: Vec<String> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for l in lines.by_ref().map(str::trim).take_while(|l| !l.is_empty()) {
        let (label, name) = l.split_once('-').ok_or_else(|| format!("legend line `{l}`"))?;
        let label = label.trim();
        let index = label
            .strip_prefix('[')
            .and_then(|s| s.strip_suffix(']'))
            .ok_or_else(|| format!("legend line `{l}`: no `[n]`"))?;
        let name = name.trim();
        names.push(match index.split_once('.') {
            Some((_, unit)) => format!("{name}.{unit}"),
            None => name.to_owned(),
        });
        labels.push(label.to_owned());
    }
    if labels.is_empty() {
        return Err("empty `Resources:` legend".into());
    }
    // The table's header names the same columns, in the same order.
    lines
        .by_ref()
        .find(|l| l.trim() == "Resource pressure by instruction:")
        .ok_or("no pressure-by-instruction table")?;
    let header = lines.next().ok_or("no header under `Resource pressure by instruction:`")?;
    let columns: Vec<&str> = header.split_whitespace().collect();
    if columns.last() != Some(&"Instructions:") || columns[..columns.len() - 1] != labels {
        return Err(format!("the table's header `{}` is not the legend's {labels:?}", header.trim()));
    }
    let n = labels.len();
    let mut rows = Vec::new();
    for l in lines.take_while(|l| !l.trim().is_empty()) {
        let (fields, instruction) =
            split_fields(l, n).ok_or_else(|| format!("row `{}` has fewer than {n} columns", l.trim()))?;
        if instruction.is_empty() {
            return Err(format!("row `{}` has no instruction", l.trim()));
        }
        // No mnemonic starts with `-` or a digit: a pressure there means more
        // columns than the legend has.
        if instruction.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
            return Err(format!("row `{}` has more than {n} columns", l.trim()));
        }
        let pressure = fields
            .iter()
            .map(|f| match *f {
                "-" => Ok(0.0),
                v => v.parse::<f64>().map_err(|_| format!("row `{}`: `{v}` is no pressure", l.trim())),
            })
            .collect::<Result<Vec<f64>, String>>()?;
        let instruction = instruction.split_whitespace().collect::<Vec<_>>().join(" ");
        rows.push(PressureRow { instruction, pressure });
    }
    if rows.is_empty() {
        return Err("the pressure-by-instruction table has no rows".into());
    }
    Ok((names, rows))
}

/// What the report hands the reading room of a loop's pressure.
impl From<&LoopPressure> for asmkit::site_input::LoopPressure {
    fn from(p: &LoopPressure) -> Self {
        asmkit::site_input::LoopPressure {
            kernel: p.kernel.to_owned(),
            loop_label: p.loop_label.to_owned(),
            model: p.model.to_owned(),
            resources: p.resources.clone(),
            rows: p
                .rows
                .iter()
                .map(|r| asmkit::site_input::PressureRow {
                    instruction: r.instruction.clone(),
                    pressure: r.pressure.clone(),
                })
                .collect(),
            block_rthroughput: p.block_rthroughput,
            elements_per_iteration: p.elements_per_iteration,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An excerpt of `llvm-mca -mcpu=znver3 -output-asm-variant=1` (14.0.6)
    /// on a six-instruction loop: resources of several units (`[12.0]`),
    /// two-digit indices that narrow the gaps, instructions with spaces and
    /// tabs, a pressure of 10.00 (wider than the others).
    const FIXTURE: &str = "\
Iterations:        100
Instructions:      600
Total Cycles:      112
Total uOps:        600

Dispatch Width:    6
uOps Per Cycle:    5.36
IPC:               5.36
Block RThroughput: 1.0


Resources:
[0]   - Zn3AGU0
[1]   - Zn3ALU0
[2]   - Zn3BRU1
[3]   - Zn3FPP0
[4]   - Zn3FPP1
[5]   - Zn3FPP2
[6]   - Zn3FPP3
[7]   - Zn3FPP4
[8]   - Zn3FPP5
[9]   - Zn3FPSt
[10]  - Zn3ALU1
[11.0] - Zn3FPP45
[11.1] - Zn3FPP45


Resource pressure per iteration:
[0]    [1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]    [9]    [10]   [11.0] [11.1] 
 -     0.60   0.60   0.74   0.75   0.75   0.76    -      -      -     0.60   0.50   0.50   

Resource pressure by instruction:
[0]    [1]    [2]    [3]    [4]    [5]    [6]    [7]    [8]    [9]    [10]   [11.0] [11.1] Instructions:
 -      -      -     0.74   0.26    -      -      -      -      -      -      -      -     vmulps\tymm0, ymm1, ymm2
 -      -      -      -      -     0.24   0.76    -      -      -      -     0.50   0.50   vaddps\tymm3, ymm0, ymmword ptr [rax + 32]
 -      -      -      -     0.49   0.51    -      -      -      -      -      -      -     shufps\txmm1, xmm2, 27
 -     0.40    -      -      -      -      -      -      -      -     0.60    -      -     add\trax, 64
 -     0.20    -      -      -      -      -      -     10.00   -     0.80    -      -     sub\trcx, 1
 -     0.40   0.60    -      -      -      -      -      -      -      -      -      -     jne\t.Lloop
";

    #[test]
    fn parses_the_pressure_table() {
        let (resources, rows) = parse_resource_pressure(FIXTURE).unwrap();
        assert_eq!(resources.len(), 13);
        assert_eq!(resources[0], "Zn3AGU0");
        assert_eq!(resources[10], "Zn3ALU1");
        assert_eq!(resources[11..], ["Zn3FPP45.0", "Zn3FPP45.1"]);
        let instructions: Vec<&str> = rows.iter().map(|r| r.instruction.as_str()).collect();
        assert_eq!(
            instructions,
            [
                "vmulps ymm0, ymm1, ymm2",
                "vaddps ymm3, ymm0, ymmword ptr [rax + 32]",
                "shufps xmm1, xmm2, 27",
                "add rax, 64",
                "sub rcx, 1",
                "jne .Lloop"
            ]
        );
        assert!(rows.iter().all(|r| r.pressure.len() == 13));
        assert_eq!(rows[0].pressure[3..5], [0.74, 0.26]);
        assert_eq!(rows[1].pressure, [0.0, 0.0, 0.0, 0.0, 0.0, 0.24, 0.76, 0.0, 0.0, 0.0, 0.0, 0.5, 0.5]);
        assert_eq!(rows[4].pressure, [0.0, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.8, 0.0, 0.0]);
        assert_eq!(rows[5].pressure[..3], [0.0, 0.4, 0.6]);
        assert_eq!(parse_block_rthroughput(FIXTURE), Some(1.0));
    }

    #[test]
    fn rejects_malformed_tables() {
        // A header that does not match the legend.
        let bad = FIXTURE.replacen("[11.1] Instructions:", "Instructions:", 1);
        assert!(parse_resource_pressure(&bad).unwrap_err().contains("header"));
        // A row short of columns (its instruction taken as pressures).
        let bad = FIXTURE.replacen(
            " -     0.40   0.60    -      -      -      -      -      -      -      -      -      -     jne",
            " -     0.40  jne",
            1,
        );
        assert!(parse_resource_pressure(&bad).is_err());
        // A row with a column more than the legend.
        let bad = FIXTURE.replacen("add\trax, 64", "0.10   add\trax, 64", 1);
        assert!(parse_resource_pressure(&bad).unwrap_err().contains("more than 13 columns"));
        assert!(parse_resource_pressure("Block RThroughput: 1.0\n").is_err());
    }

    #[test]
    fn split_fields_reads_any_width() {
        assert_eq!(split_fields(" -   0.5 10.00  add\trax, 64", 3), Some((vec!["-", "0.5", "10.00"], "add\trax, 64")));
        assert_eq!(split_fields(" - 1", 3), None);
    }
}
