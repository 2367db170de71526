//! llvm-mca's estimates of the aarch64 forms' inner loops: for each routine
//! of the roster, its scalar port (`Impl::Scalar`, the paper's C) and every
//! aarch64 form beside it (the `Impl::Neon` forms and the portable
//! successors, `Origin::Successor`), each found in an aarch64 binary,
//! its inner loop taken (of the loops that call a block kernel kept out of
//! line, the one stepping over the most elements, else the largest loop),
//! the functions it calls spliced in,
//! the elements
//! per iteration read off its pointer steps, and `llvm-mca
//! -mtriple=aarch64` run with the models of [`AARCH64_CPUS`].
//!
//! Static estimates only: there is no ARM hardware behind these figures.
//! Cycles per iteration are llvm-mca's block reciprocal throughput (steady
//! state, every load in L1, no front-end or memory effects), and a call
//! that is not spliced in (a C library function through the PLT, such as
//! the scalar `slerp_joints`' `acosf` and `sinf`) costs only its `bl`
//! instruction: such a loop's figure is a lower bound
//! ([`Aarch64Loop::calls_kept`] names them).
//!
//! Where it runs:
//! - on aarch64 (an aarch64 build, natively or under qemu), [`estimates`]
//!   disassembles the running binary, as [`crate::mca`] does on x86_64:
//!   each kernel's runtime address comes from its routine's table, its
//!   function from `objdump -t`;
//! - on any other host, [`cross_estimates`] builds and runs the example
//!   `devkit/examples/mca_aarch64.rs` for `aarch64-unknown-linux-gnu`
//!   (`cargo run --target aarch64-unknown-linux-gnu`, with the runner of
//!   `.cargo/config.toml`: qemu) and reads the JSON it prints.
//!
//! Tools: an objdump that reads aarch64 (`OBJDUMP`, else
//! `aarch64-linux-gnu-objdump`, else `objdump`) and llvm-mca
//! (`LLVM_MCA_AARCH64`, else the newest `llvm-mca` or `llvm-mca-<n>` on
//! the `PATH`: llvm-mca 14 models `neoverse-n1` with the Cortex-A57's
//! scheduling model, llvm-mca 17 and later with the Neoverse N1's). The
//! scheduling model llvm-mca used is read off its resource names and kept
//! in [`Aarch64Estimates::models`]: the Apple cores are modelled with
//! Cyclone's (Apple A7) model up to at least llvm-mca 19, which gives the
//! vector `fsqrt` and `fdiv` the cost of a simple vector instruction.

use std::process::{Command, Stdio};

use serde::{Deserialize, Serialize};

#[cfg(target_arch = "aarch64")]
use crate::objdump::Function;
use crate::objdump::strip_symbols;

/// The `-mcpu` models the aarch64 loops are estimated with: the Neoverse N1
/// (Arm's server core: AWS Graviton2, Ampere Altra) and the Apple M1.
pub const AARCH64_CPUS: [&str; 2] = ["neoverse-n1", "apple-m1"];

/// The target the aarch64 forms are built for.
pub const TARGET: &str = "aarch64-unknown-linux-gnu";

/// Every estimate of one aarch64 build.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aarch64Estimates {
    /// The llvm-mca binary and its version line (`llvm-mca-19: Debian LLVM
    /// version 19.1.7`).
    pub llvm_mca: String,
    /// The `-mcpu` names, as [`AARCH64_CPUS`].
    pub cpus: [String; 2],
    /// The scheduling model llvm-mca used for each CPU, from its resource
    /// names (`Neoverse N1`, `Cortex-A57`, `Cyclone (Apple A7)`, or the
    /// resource prefix); `None` where no loop was estimated.
    pub models: [Option<String>; 2],
    /// One row per routine and form, in the roster's order, each routine's
    /// scalar port first.
    pub rows: Vec<Aarch64Row>,
}

/// One form of a routine and its estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aarch64Row {
    /// The routine's name.
    pub routine: String,
    /// The form (`Impl::name`: `scalar`, `portable`, `neon`).
    pub form: String,
    /// Its origin (`Origin::name`).
    pub origin: String,
    /// Its instruction set (`Isa::name`).
    pub isa: String,
    /// The loop and its estimates, or why there are none.
    pub estimate: Result<Aarch64Loop, String>,
}

/// A form's inner loop and llvm-mca's estimates of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Aarch64Loop {
    /// The function at the kernel's address (demangled).
    pub symbol: String,
    /// Instructions of the whole kernel.
    pub kernel_instructions: usize,
    /// Backward branches (loops) of the kernel.
    pub loops: usize,
    /// Instructions of the chosen loop (branch target to the backward
    /// branch, inclusive), with its callees spliced in.
    pub instructions: usize,
    /// Loops nested in the chosen loop (their bodies count once).
    pub nested: usize,
    /// The functions of the binary the loop calls directly, spliced in (name
    /// and instruction count).
    pub callees: Vec<String>,
    /// The calls left in the loop (PLT stubs of C library functions, calls
    /// through a register, calls made by a spliced callee): the estimate
    /// counts their `bl` only.
    pub calls_kept: Vec<String>,
    /// Elements (joints, matrices) one iteration handles.
    pub elements_per_iteration: f64,
    /// `"pointer steps"` (read off the loop's pointer and counter steps) or
    /// `"assumed"` (the shape's expected width for the form's lanes).
    pub elements_source: String,
    /// llvm-mca's block reciprocal throughput, cycles per iteration, for
    /// each of [`Aarch64Estimates::cpus`] (`None`: llvm-mca failed).
    pub cycles_per_iteration: [Option<f64>; 2],
    /// The loop as given to llvm-mca.
    pub source: String,
    /// llvm-mca's complaint where a model gave no estimate.
    pub mca_error: Option<String>,
}

impl Aarch64Loop {
    /// Cycles per element with CPU `cpu` (an index of
    /// [`Aarch64Estimates::cpus`]).
    pub fn cycles_per_element(&self, cpu: usize) -> Option<f64> {
        self.cycles_per_iteration[cpu].map(|c| c / self.elements_per_iteration)
    }
}

impl Aarch64Estimates {
    /// The row of `routine`'s form `form` (`Impl::name`), if estimated.
    pub fn find(&self, routine: &str, form: &str) -> Option<&Aarch64Row> {
        self.rows.iter().find(|r| r.routine == routine && r.form == form)
    }

    /// The estimates as one line of JSON (what the example prints).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("the estimates serialise")
    }

    /// The estimates from [`Self::to_json`]'s text (the last line of
    /// `text` that parses; the example may print nothing else, but a
    /// runner may).
    pub fn from_json(text: &str) -> Result<Self, String> {
        text.lines()
            .rev()
            .find_map(|l| serde_json::from_str(l.trim()).ok())
            .ok_or_else(|| format!("no estimates in the output: {}", text.chars().take(400).collect::<String>()))
    }
}

/// The estimates for this build's aarch64 code: [`estimates`] on aarch64,
/// [`cross_estimates`] elsewhere.
pub fn aarch64_estimates() -> Result<Aarch64Estimates, String> {
    #[cfg(target_arch = "aarch64")]
    {
        estimates()
    }
    #[cfg(not(target_arch = "aarch64"))]
    {
        cross_estimates()
    }
}

/// Builds the example `mca_aarch64` for [`TARGET`] in release (`cargo run
/// --release --target aarch64-unknown-linux-gnu -p devkit --features
/// animasm/std --example mca_aarch64`, in the workspace root, so that
/// `.cargo/config.toml`'s linker and qemu runner apply; into the same
/// target directory), runs it and reads its estimates. `animasm/std`: the
/// kernels as a user's default build has them (the platform's `acosf` and
/// `sinf` in the scalar ports, `f32::mul_add` in the portable successors;
/// devkit alone builds animasm without `std`, with the `libm` crate's). `Err` with cargo's message when the build or the run fails
/// (no `rustup target add aarch64-unknown-linux-gnu`, no cross linker, no
/// qemu, no llvm-mca).
pub fn cross_estimates() -> Result<Aarch64Estimates, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let args = [
        "run",
        "--quiet",
        "--release",
        "--target",
        TARGET,
        "-p",
        "devkit",
        "--features",
        "animasm/std",
        "--example",
        "mca_aarch64",
    ];
    let out = Command::new(&cargo)
        .args(args)
        .current_dir(crate::paths::workspace_root())
        .env("CARGO_TARGET_DIR", crate::paths::target_dir())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("running `{cargo}`: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(12).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return Err(format!("`cargo {}` failed ({}):\n{}", args.join(" "), out.status, tail.join("\n")));
    }
    Aarch64Estimates::from_json(&stdout)
}

/// The estimates of every routine's scalar port and aarch64 forms in the
/// running binary (an aarch64 build). `Err` when objdump or llvm-mca cannot
/// be run; a form whose loop is not found or not estimated gets an `Err`
/// row.
#[cfg(target_arch = "aarch64")]
pub fn estimates() -> Result<Aarch64Estimates, String> {
    use animasm::roster;

    let (mca, version) = llvm_mca()?;
    let objdump = objdump();
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let exe = exe.to_str().ok_or("the executable's path is not UTF-8")?.to_owned();
    let table = crate::objdump::functions(&crate::mca_shared::run(&objdump, &["-t", "-C", &exe])?);
    let anchor = ("devkit::mca_aarch64::estimates", std::hint::black_box(estimates as fn() -> _ as usize));
    let mut rows = Vec::new();
    let mut models = [None, None];
    // A composite (the whole pose) runs other routines' kernels, which are
    // estimated as those routines.
    for r in roster::ROUTINES.iter().filter(|r| !r.is_composite()) {
        let forms = estimated_forms(r);
        if forms.is_empty() {
            continue;
        }
        for form in forms {
            let estimate = crate::mca_shared::kernel_address(r, form.imp)
                .ok_or_else(|| format!("no {} kernel in the table", form.imp))
                .and_then(|addr| crate::mca_shared::function_at(&table, anchor, r, addr))
                .and_then(|f| {
                    let instrs = disassemble(&objdump, &exe, &f)?;
                    let (strides, assumed) = crate::mca_shared::steps(&r.shape, crate::mca_shared::lanes(form.isa));
                    let callee = |addr: u64| -> Option<(String, Vec<Instr>)> {
                        let g = table.iter().find(|g| g.addr == addr)?;
                        Some((g.name.clone(), disassemble(&objdump, &exe, g).ok()?))
                    };
                    let (l, m) = inner_loop(&mca, &f.name, &instrs, callee, strides, assumed)?;
                    for (slot, model) in models.iter_mut().zip(m) {
                        if slot.is_none() {
                            *slot = model;
                        }
                    }
                    Ok(l)
                });
            rows.push(Aarch64Row {
                routine: r.name.to_owned(),
                form: form.imp.name().to_owned(),
                origin: form.origin.name().to_owned(),
                isa: form.isa.name().to_owned(),
                estimate,
            });
        }
    }
    Ok(Aarch64Estimates { llvm_mca: format!("{mca}: {version}"), cpus: AARCH64_CPUS.map(str::to_owned), models, rows })
}

/// The forms of `r` estimated: none unless `r` is an id routine or has an
/// aarch64 form; then its scalar port, and every successor and NEON form
/// compiled here (the `Portable` and `Neon` successors, the nlerp family's
/// NEON forms), in the table's order.
#[cfg(target_arch = "aarch64")]
fn estimated_forms(r: &animasm::roster::Routine) -> Vec<animasm::roster::FormInfo> {
    use animasm::{Isa, Origin};
    // The composites (the pose routines) run the other routines' kernels,
    // estimated with those routines: nothing of their own.
    if r.is_composite() {
        return Vec::new();
    }
    let beside: Vec<_> = r.all_forms().filter(|f| f.origin == Origin::Successor || f.isa == Isa::Neon).collect();
    if beside.is_empty() && !r.is_id_routine() {
        return Vec::new();
    }
    std::iter::once(r.scalar_form()).chain(beside).collect()
}

/// The code of the kernel of form `imp` of `r` in the running binary (an
/// aarch64 build), as [`code_at`] gives it. `Err` when the table has no such
/// form, or as [`code_at`].
#[cfg(target_arch = "aarch64")]
pub fn kernel_code(r: &animasm::roster::Routine, imp: animasm::Impl) -> Result<Vec<(String, Vec<String>)>, String> {
    let address = crate::mca_shared::kernel_address(r, imp).ok_or_else(|| format!("{}: no {imp} kernel", r.name))?;
    code_at(address)
}

/// The instructions of the function at the runtime address `address` of
/// the running binary (an aarch64 build), and of every function of the
/// binary it calls, directly or through others, whose name is in animasm or
/// the `libm` crate: each as (demangled name, instruction texts as
/// `mnemonic operands`, objdump's comments and symbol annotations left
/// out), the function at `address` first. `Err` when objdump cannot be run
/// or no function starts at `address`.
#[cfg(target_arch = "aarch64")]
pub fn code_at(address: usize) -> Result<Vec<(String, Vec<String>)>, String> {
    let objdump = objdump();
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let exe = exe.to_str().ok_or("the executable's path is not UTF-8")?.to_owned();
    let table = crate::objdump::functions(&crate::mca_shared::run(&objdump, &["-t", "-C", &exe])?);
    let anchor = ("devkit::mca_aarch64::code_at", std::hint::black_box(code_at as fn(_) -> _ as usize));
    let first = crate::objdump::functions_at(&table, anchor, address)?
        .into_iter()
        .next()
        .ok_or_else(|| format!("no function at {address:#x}"))?;
    let mut todo = vec![first];
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    while let Some(f) = todo.pop() {
        if out.iter().any(|(n, _)| *n == f.name) {
            continue;
        }
        let instrs = disassemble(&objdump, &exe, &f)?;
        for i in &instrs {
            let Some((target, _)) = &i.call else { continue };
            let ours = |g: &&Function| g.name.contains("animasm") || g.name.starts_with("libm::");
            if let Some(g) = table.iter().filter(ours).find(|g| g.addr == *target) {
                todo.push(g.clone());
            }
        }
        out.push((f.name.clone(), instrs.into_iter().map(|i| i.text).collect()));
    }
    Ok(out)
}

/// The objdump that reads aarch64 code: `$OBJDUMP`, else
/// `aarch64-linux-gnu-objdump` where it runs, else `objdump`.
pub fn objdump() -> String {
    if let Ok(o) = std::env::var("OBJDUMP") {
        return o;
    }
    let cross = "aarch64-linux-gnu-objdump";
    if Command::new(cross).arg("--version").output().is_ok_and(|o| o.status.success()) {
        cross.to_owned()
    } else {
        "objdump".to_owned()
    }
}

/// The llvm-mca binary and its version line: `$LLVM_MCA_AARCH64`, else the
/// newest of `llvm-mca` and every `llvm-mca-<n>` on the `PATH` (by the
/// version it prints). `Err` when none runs.
pub fn llvm_mca() -> Result<(String, String), String> {
    newest_llvm_mca("LLVM_MCA_AARCH64").map_err(|_| {
        "llvm-mca is not installed (`apt-get install llvm`; `llvm-19` or later models the Neoverse N1)".to_owned()
    })
}

/// The llvm-mca binary and its version line: `$<env>` if set, else the
/// newest of `llvm-mca` and every `llvm-mca-<n>` on the `PATH` (by the
/// version it prints). `Err` when none runs. (The x86 AVX-512 loops use it
/// too: their models, `znver4` and `sapphirerapids`, need LLVM 16 or later.)
pub fn newest_llvm_mca(env: &str) -> Result<(String, String), String> {
    let mut names: Vec<String> = match std::env::var(env) {
        Ok(n) => vec![n],
        Err(_) => {
            let mut names = vec!["llvm-mca".to_owned()];
            for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
                let Ok(entries) = std::fs::read_dir(dir) else { continue };
                for e in entries.flatten() {
                    let name = e.file_name().to_string_lossy().into_owned();
                    if name.strip_prefix("llvm-mca-").is_some_and(|v| v.parse::<u32>().is_ok())
                        && !names.contains(&name)
                    {
                        names.push(name);
                    }
                }
            }
            names
        }
    };
    names.sort();
    let mut best: Option<(u32, String, String)> = None;
    for name in names {
        let Ok(out) = Command::new(&name).arg("--version").output() else { continue };
        if !out.status.success() {
            continue;
        }
        let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
        let Some(line) = text.lines().map(str::trim).find(|l| l.to_ascii_lowercase().contains("version")) else {
            continue;
        };
        let major = major_version(line).unwrap_or(0);
        if best.as_ref().is_none_or(|b| major > b.0) {
            best = Some((major, name, line.to_owned()));
        }
    }
    best.map(|(_, n, v)| (n, v)).ok_or_else(|| "llvm-mca is not installed (`apt-get install llvm`)".to_owned())
}

/// `Debian LLVM version 19.1.7` -> 19.
fn major_version(line: &str) -> Option<u32> {
    let rest = &line[line.to_ascii_lowercase().find("version")? + "version".len()..];
    rest.trim().split(['.', ' ']).next()?.parse().ok()
}

/// The aarch64 disassembly, its loops and llvm-mca's view of them (used by
/// [`estimates`] on aarch64; tested on every host).
#[cfg_attr(not(target_arch = "aarch64"), allow(dead_code))]
mod code;
#[cfg(any(test, target_arch = "aarch64"))]
use code::*;

#[cfg(test)]
mod tests;
