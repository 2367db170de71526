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
    for r in roster::ROUTINES {
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
mod code {
    use super::*;

    /// An instruction of an aarch64 disassembly.
    #[derive(Clone, Debug, PartialEq)]
    pub(super) struct Instr {
        pub(super) addr: u64,
        /// `mnemonic operands`, without objdump's `// ...` comment and `<sym>`
        /// annotations, whitespace runs as one space (`ldr q0, [x1], #16`).
        pub(super) text: String,
        /// For a branch (`b`, `b.<cond>`, `cbz`, `cbnz`, `tbz`, `tbnz`), its
        /// target.
        pub(super) target: Option<u64>,
        /// For a direct call (`bl`), its target and the symbol objdump names.
        pub(super) call: Option<(u64, String)>,
    }

    impl Instr {
        pub(super) fn mnemonic(&self) -> &str {
            self.text.split(' ').next().unwrap_or("")
        }
    }

    /// Parses `   68308:\tldrsw\tx8, [x19], #4` or `   68350:\tb.le\t682cc
    /// <sym+0x5c>  // b.any`; `None` for other lines.
    pub(super) fn parse_line(line: &str) -> Option<Instr> {
        let (addr, rest) = line.split_once(":\t")?;
        let addr = u64::from_str_radix(addr.trim(), 16).ok()?;
        let code = rest.split("//").next().unwrap_or("").trim();
        if code.is_empty() || code.starts_with('.') {
            return None;
        }
        let symbol = code.find('<').and_then(|s| code[s + 1..].find('>').map(|e| code[s + 1..s + 1 + e].to_owned()));
        let clean = strip_symbols(code);
        let mut words = clean.split_whitespace();
        let mnemonic = words.next()?.to_ascii_lowercase();
        let operands = words.collect::<Vec<_>>().join(" ");
        let text = if operands.is_empty() { mnemonic.clone() } else { format!("{mnemonic} {operands}") };
        let last = operands.rsplit(", ").next().unwrap_or("").trim();
        let address = u64::from_str_radix(last.trim_start_matches("0x"), 16).ok();
        let branch =
            mnemonic == "b" || mnemonic.starts_with("b.") || ["cbz", "cbnz", "tbz", "tbnz"].contains(&&*mnemonic);
        let target = if branch { address } else { None };
        let call = if mnemonic == "bl" { address.map(|a| (a, symbol.unwrap_or_default())) } else { None };
        Some(Instr { addr, text, target, call })
    }

    /// The instructions of `f` in `exe`.
    #[cfg(target_arch = "aarch64")]
    pub(super) fn disassemble(objdump: &str, exe: &str, f: &Function) -> Result<Vec<Instr>, String> {
        let listing = crate::mca_shared::run(
            objdump,
            &[
                "-d",
                "--no-show-raw-insn",
                "-C",
                &format!("--start-address={:#x}", f.addr),
                &format!("--stop-address={:#x}", f.addr + f.size),
                exe,
            ],
        )?;
        let instrs: Vec<Instr> = listing.lines().filter_map(parse_line).collect();
        if instrs.is_empty() {
            return Err(format!("`{objdump}` printed no instructions for `{}`", f.name));
        }
        Ok(instrs)
    }

    /// Every backward branch as (first, last) instruction indices of its
    /// region, leaving out regions that hold a `ret` (a jump back to an exit
    /// block laid out before the loop).
    pub(super) fn loops(instrs: &[Instr]) -> Vec<(usize, usize)> {
        instrs
            .iter()
            .enumerate()
            .filter_map(|(end, i)| {
                let t = i.target.filter(|&t| t <= i.addr)?;
                let start = instrs.iter().position(|j| j.addr == t)?;
                Some((start, end))
            })
            .filter(|&(s, e)| !instrs[s..=e].iter().any(|i| i.mnemonic() == "ret"))
            .collect()
    }

    /// The loop body as input for llvm-mca: each branch to the loop's start
    /// goes to `.Lloop`, every other branch and every call kept to `.Lout`;
    /// alignment `nop`s left out.
    pub(super) fn mca_source(body: &[Instr], start: u64) -> String {
        let mut s = String::from(".Lloop:\n");
        for i in body {
            let m = i.mnemonic();
            if m == "nop" {
                continue;
            }
            let redirect = |label: &str| match i.text.rsplit_once(", ") {
                Some((head, _)) => format!("{head}, {label}"),
                None => format!("{m} {label}"),
            };
            let line = match (i.target, &i.call) {
                (Some(t), _) if t == start => redirect(".Lloop"),
                (Some(_), _) | (_, Some(_)) => redirect(".Lout"),
                _ => i.text.clone(),
            };
            s.push_str("    ");
            s.push_str(&line);
            s.push('\n');
        }
        s.push_str(".Lout:\n");
        s
    }

    /// The register number of `x<n>` or `w<n>` (`None` for `sp`, `xzr`, vector
    /// registers).
    pub(super) fn gpr(name: &str) -> Option<u32> {
        let n = name.trim().strip_prefix(['x', 'w'])?;
        n.parse().ok()
    }

    /// The elements one iteration of `body` handles, read off its steps: an
    /// `add`/`sub`(`s`) of an immediate to a register into itself, or a load
    /// or store that writes its base back (`ldr q0, [x1], #16`, `ldp q0, q1,
    /// [x0, #32]!`), where the register is a counter used as a scaled index
    /// (`[x2, x8, lsl #2]`, `[x1, w20, sxtw #2]`: the immediate counts
    /// elements) or a pointer or byte offset (the immediate is `k` times one of
    /// `strides`, the first that divides it); `k` in `1..=16`. The largest `k`
    /// found, `None` when no step fits.
    pub(super) fn elements_from_steps(body: &[Instr], strides: &[u64]) -> Option<u64> {
        let imm = |t: &str| -> Option<u64> {
            let t = t.trim().trim_start_matches('#').trim_start_matches('-');
            t.strip_prefix("0x").map_or_else(|| t.parse().ok(), |h| u64::from_str_radix(h, 16).ok())
        };
        let scaled: Vec<u32> = body
            .iter()
            .flat_map(|i| {
                // `[base, reg, lsl #k]` / `[base, reg, sxtw #k]`
                let inside = i.text.split_once('[').and_then(|(_, r)| r.split_once(']')).map(|(a, _)| a).unwrap_or("");
                let parts: Vec<&str> = inside.split(", ").collect();
                match parts.as_slice() {
                    [_, reg, ext] if ext.contains('#') => gpr(reg),
                    _ => None,
                }
            })
            .collect();
        let mut best: Option<u64> = None;
        for i in body {
            let (m, ops) = i.text.split_once(' ').unwrap_or((&i.text, ""));
            let ops: Vec<&str> = ops.split(", ").collect();
            let step = match m {
                "add" | "adds" | "sub" | "subs" => match ops.as_slice() {
                    [d, n, v] if gpr(d).is_some() && gpr(d) == gpr(n) && v.starts_with('#') => gpr(d).zip(imm(v)),
                    _ => None,
                },
                _ if m.starts_with("ld") || m.starts_with("st") => {
                    let text = &i.text;
                    let base = text.split_once('[').and_then(|(_, r)| gpr(r.split([',', ']']).next().unwrap_or("")));
                    if let Some((_, post)) = text.split_once("], ") {
                        // Post-index: `[x1], #16`.
                        base.zip(imm(post))
                    } else if text.ends_with("]!") {
                        // Pre-index: `[x0, #32]!`.
                        let inside = text.rsplit_once('[').map(|(_, r)| r.trim_end_matches("]!")).unwrap_or("");
                        base.zip(inside.split(", ").nth(1).and_then(imm))
                    } else {
                        None
                    }
                }
                _ => None,
            };
            let Some((reg, v)) = step else { continue };
            let k = if scaled.contains(&reg) { Some(v) } else { strides.iter().find(|&&s| v % s == 0).map(|&s| v / s) };
            if let Some(k) = k.filter(|k| (1..=16).contains(k)) {
                best = Some(best.map_or(k, |b| b.max(k)));
            }
        }
        best
    }

    /// llvm-mca's scheduling model, named from the first resource of its
    /// `Resources:` legend (`[0]   - N1UnitB` -> `Neoverse N1`).
    pub(super) fn model_of(output: &str) -> Option<String> {
        let mut lines = output.lines().skip_while(|l| !l.starts_with("Resources:")).skip(1);
        let first = lines.next()?.split(" - ").nth(1)?.trim();
        let prefix = first.split("Unit").next().unwrap_or(first);
        Some(
            match prefix {
                "N1" => "Neoverse N1",
                "N2" => "Neoverse N2",
                "V1" => "Neoverse V1",
                "V2" => "Neoverse V2",
                "A57" => "Cortex-A57",
                "Cy" => "Cyclone (Apple A7)",
                other => other,
            }
            .to_owned(),
        )
    }

    /// `llvm-mca -mtriple=aarch64 -mcpu=<cpu>` on `source`: the block
    /// reciprocal throughput and the scheduling model.
    pub(super) fn run_mca(mca: &str, source: &str, cpu: &str) -> Result<(f64, Option<String>), String> {
        use std::io::Write as _;
        let mut child = Command::new(mca)
            .args(["-mtriple=aarch64", &format!("-mcpu={cpu}"), "-"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("running `{mca}`: {e}"))?;
        child.stdin.take().ok_or("no stdin")?.write_all(source.as_bytes()).map_err(|e| format!("`{mca}`: {e}"))?;
        let out = child.wait_with_output().map_err(|e| format!("`{mca}`: {e}"))?;
        if !out.status.success() {
            return Err(format!("`{mca} -mcpu={cpu}` failed: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let c = crate::mca_shared::parse_block_rthroughput(&text)
            .ok_or_else(|| format!("no `Block RThroughput` in the output of `{mca}`"))?;
        Ok((c, model_of(&text)))
    }

    /// The inner loop of the kernel `name` (`instrs`): of the loops that
    /// call a function `callee` finds, the one stepping over the most
    /// elements (the smallest of those), else the largest loop; its
    /// direct calls to such functions spliced in (one level), its elements per
    /// iteration (from its steps over `strides`, else `assumed`) and llvm-mca's
    /// estimates with [`AARCH64_CPUS`]; with the scheduling model of each CPU.
    pub(super) fn inner_loop(
        mca: &str,
        name: &str,
        instrs: &[Instr],
        callee: impl Fn(u64) -> Option<(String, Vec<Instr>)>,
        strides: &[u64],
        assumed: f64,
    ) -> Result<(Aarch64Loop, [Option<String>; 2]), String> {
        let all = loops(instrs);
        // Of the loops that call a function of the binary (a block kernel
        // kept out of line), the one that steps over the most elements, the
        // smallest of those: the fast path, which the NEON joint routines'
        // paths for repeated indices and their tail loop surround. Else the
        // largest loop.
        let calls_block = |&&(s, e): &&(usize, usize)| {
            instrs[s..=e].iter().any(|i| i.call.as_ref().is_some_and(|(t, _)| callee(*t).is_some()))
        };
        let fast = |&&(s, e): &&(usize, usize)| {
            (elements_from_steps(&instrs[s..=e], strides).unwrap_or(0), std::cmp::Reverse(e - s))
        };
        let &(start, end) = match all.iter().filter(calls_block).max_by_key(fast) {
            Some(l) => l,
            None => all.iter().max_by_key(|&&(s, e)| e - s).ok_or_else(|| format!("`{name}` has no loop"))?,
        };
        let own = &instrs[start..=end];
        let nested = all.iter().filter(|&&(s, e)| (s, e) != (start, end) && s >= start && e <= end).count();
        let mut body: Vec<Instr> = Vec::new();
        let (mut callees, mut calls_kept) = (Vec::new(), Vec::new());
        for i in own {
            match i.call.as_ref().map(|(t, sym)| (callee(*t), sym)) {
                Some((Some((g, inner)), _)) => {
                    callees.push(format!("{g} ({} instr)", inner.len()));
                    calls_kept.extend(inner.iter().filter_map(|j| j.call.as_ref().map(|c| c.1.clone())));
                    // The callee's own branches leave the block (llvm-mca reads
                    // it as straight-line code).
                    body.extend(inner.into_iter().filter(|j| j.mnemonic() != "ret").map(|mut j| {
                        j.target = j.target.map(|_| u64::MAX);
                        j
                    }));
                }
                Some((None, sym)) => {
                    calls_kept.push(sym.clone());
                    body.push(i.clone());
                }
                None => {
                    if matches!(i.mnemonic(), "blr" | "br") {
                        calls_kept.push(i.text.clone());
                    }
                    body.push(i.clone());
                }
            }
        }
        let source = mca_source(&body, own[0].addr);
        let mut cycles = [None, None];
        let mut models = [None, None];
        let mut mca_error = None;
        for (k, cpu) in AARCH64_CPUS.iter().enumerate() {
            match run_mca(mca, &source, cpu) {
                Ok((c, m)) => (cycles[k], models[k]) = (Some(c), m),
                Err(e) => mca_error = mca_error.or(Some(e)),
            }
        }
        let (elements_per_iteration, elements_source) = match elements_from_steps(own, strides) {
            Some(k) => (k as f64, "pointer steps"),
            None => (assumed, "assumed"),
        };
        let l = Aarch64Loop {
            symbol: name.to_owned(),
            kernel_instructions: instrs.len(),
            loops: all.len(),
            instructions: body.len(),
            nested,
            callees,
            calls_kept,
            elements_per_iteration,
            elements_source: elements_source.to_owned(),
            cycles_per_iteration: cycles,
            source,
            mca_error,
        };
        Ok((l, models))
    }
}
#[cfg(any(test, target_arch = "aarch64"))]
use code::*;

#[cfg(test)]
mod tests {
    use super::*;

    fn body(lines: &[&str]) -> Vec<Instr> {
        lines.iter().map(|l| parse_line(l).unwrap_or_else(|| panic!("{l}"))).collect()
    }

    #[test]
    fn parses_objdump_lines() {
        let i = parse_line("   68350:\tb.le\t682cc <animasm::slerp_joints::scalar::slerp_joints+0x5c>").unwrap();
        assert_eq!((i.text.as_str(), i.target, i.call.clone()), ("b.le 682cc", Some(0x682cc), None));
        let i = parse_line("   68304:\tb.eq\t683a8 <animasm::x+0x138>  // b.none").unwrap();
        assert_eq!((i.text.as_str(), i.target), ("b.eq 683a8", Some(0x683a8)));
        let i = parse_line("   6835c:\tbl\tf4d0 <acosf@plt>").unwrap();
        assert_eq!((i.target, i.call.clone()), (None, Some((0xf4d0, "acosf@plt".to_owned()))));
        let i = parse_line("   1000:\tcbnz\tx9, ff0 <k+0x10>").unwrap();
        assert_eq!((i.text.as_str(), i.target), ("cbnz x9, ff0", Some(0xff0)));
        let i = parse_line("   1004:\ttbz\tw8, #3, 1040 <k+0x50>").unwrap();
        assert_eq!(i.target, Some(0x1040));
        let i = parse_line("   6829c:\tmov\tw8, #0x37bd                \t// #14269").unwrap();
        assert_eq!((i.text.as_str(), i.target), ("mov w8, #0x37bd", None));
        let i = parse_line("   682d4:\tfcsel\ts0, s0, s1, lt\t// lt = tstop").unwrap();
        assert_eq!(i.text, "fcsel s0, s0, s1, lt");
        assert!(parse_line("0000000000068270 <animasm::slerp_joints::scalar::slerp_joints>:").is_none());
        assert!(parse_line("   683c8:\t.inst\t0x00000000 ; undefined").is_none());
    }

    #[test]
    fn loops_and_llvm_mca_source() {
        let b = body(&[
            "   10:\tcmp\tw3, #0x1",
            "   14:\tldr\tq0, [x1], #16",
            "   18:\tbl\t400 <sinf@plt>",
            "   1c:\tb.ne\t40 <k+0x40>",
            "   20:\tsubs\tx3, x3, #0x1",
            "   24:\tb.ne\t14 <k+0x14>",
            "   28:\tret",
            "   2c:\tb\t10 <k>",
        ]);
        // The jump back over the `ret` is no loop.
        assert_eq!(loops(&b), vec![(1, 5)]);
        let s = mca_source(&b[1..=5], 0x14);
        assert_eq!(
            s,
            ".Lloop:\n    ldr q0, [x1], #16\n    bl .Lout\n    b.ne .Lout\n    subs x3, x3, #0x1\n    b.ne .Lloop\n.Lout:\n"
        );
    }

    #[test]
    fn elements_per_iteration_from_steps() {
        // The scalar slerp_joints: the index list read with a post-index of
        // one entry.
        let b = body(&["   10:\tldrsw\tx8, [x19], #4", "   14:\tsubs\tx22, x22, #0x1"]);
        assert_eq!(elements_from_steps(&b, &[4]), Some(1));
        // Four joints' quaternions a pass: a pointer stepped by 4 x 32 bytes.
        let b = body(&["   10:\tldp\tq0, q1, [x0]", "   14:\tadd\tx0, x0, #0x80"]);
        assert_eq!(elements_from_steps(&b, &[48, 32]), Some(4));
        // A counter used as a scaled index counts elements.
        let b = body(&["   10:\tldr\tw9, [x2, x8, lsl #2]", "   14:\tadd\tx8, x8, #0x4"]);
        assert_eq!(elements_from_steps(&b, &[48]), Some(4));
        let b = body(&["   10:\tldrsw\tx8, [x21, w20, sxtw #2]", "   14:\tadd\tw20, w20, #0x1"]);
        assert_eq!(elements_from_steps(&b, &[48]), Some(1));
        // Pre-index writeback: one matrix.
        let b = body(&["   10:\tldp\tq0, q1, [x0, #48]!"]);
        assert_eq!(elements_from_steps(&b, &[48, 4]), Some(1));
        // The stack pointer and unrelated registers say nothing.
        assert_eq!(elements_from_steps(&body(&["   10:\tsub\tsp, sp, #0x40"]), &[4]), None);
        assert_eq!(elements_from_steps(&body(&["   10:\tadd\tx1, x2, #0x20"]), &[32]), None);
    }

    #[test]
    fn models_and_versions() {
        let out = "Block RThroughput: 14.0\n\nResources:\n[0]   - N1UnitB\n[1.0] - N1UnitD\n";
        assert_eq!(model_of(out).as_deref(), Some("Neoverse N1"));
        assert_eq!(model_of("Resources:\n[0.0] - CyUnitB\n").as_deref(), Some("Cyclone (Apple A7)"));
        assert_eq!(model_of("Resources:\n[0] - CortexA510UnitALU0\n").as_deref(), Some("CortexA510"));
        assert_eq!(major_version("Debian LLVM version 19.1.7"), Some(19));
        assert_eq!(major_version("LLVM version 14.0.6"), Some(14));
    }

    #[test]
    fn the_estimates_read_back_from_json() {
        let e = Aarch64Estimates {
            llvm_mca: "llvm-mca: LLVM version 19.1.7".into(),
            cpus: AARCH64_CPUS.map(str::to_owned),
            models: [Some("Neoverse N1".into()), None],
            rows: vec![
                Aarch64Row {
                    routine: "slerp_joints".into(),
                    form: "scalar".into(),
                    origin: "paper-c".into(),
                    isa: "portable".into(),
                    estimate: Ok(Aarch64Loop {
                        symbol: "animasm::slerp_joints::scalar::slerp_joints".into(),
                        kernel_instructions: 86,
                        loops: 2,
                        instructions: 54,
                        nested: 1,
                        callees: vec![],
                        calls_kept: vec!["acosf@plt".into()],
                        elements_per_iteration: 1.0,
                        elements_source: "pointer steps".into(),
                        cycles_per_iteration: [Some(20.5), None],
                        source: ".Lloop:\n".into(),
                        mca_error: Some("no model".into()),
                    }),
                },
                Aarch64Row {
                    routine: "slerp_joints".into(),
                    form: "neon".into(),
                    origin: "successor".into(),
                    isa: "neon".into(),
                    estimate: Err("no loop".into()),
                },
            ],
        };
        let text = format!("some runner line\n{}\n", e.to_json());
        assert_eq!(Aarch64Estimates::from_json(&text).unwrap(), e);
        assert!(Aarch64Estimates::from_json("nothing").is_err());
        let Ok(l) = &e.rows[0].estimate else { unreachable!() };
        assert_eq!((l.cycles_per_element(0), l.cycles_per_element(1)), (Some(20.5), None));
    }

    /// The whole path on this binary: every id routine's scalar port (and
    /// any aarch64 successor) found, its loop estimated with both models.
    #[cfg(target_arch = "aarch64")]
    #[test]
    fn every_form_of_this_build_is_estimated() {
        if llvm_mca().is_err() {
            println!("skipped: llvm-mca is not installed (`apt-get install llvm`)");
            return;
        }
        let objdump = objdump();
        if Command::new(&objdump).arg("--version").output().is_err() {
            println!("skipped: `{objdump}` is not installed (`apt-get install binutils-aarch64-linux-gnu`)");
            return;
        }
        let e = estimates().expect("the estimates");
        println!("{}: models {:?}", e.llvm_mca, e.models);
        for r in animasm::roster::id_routines() {
            assert!(e.find(r.name, "scalar").is_some(), "{}: no scalar row", r.name);
        }
        for row in &e.rows {
            let l = row.estimate.as_ref().unwrap_or_else(|err| panic!("{} {}: {err}", row.routine, row.form));
            println!(
                "{} {}: {} instr, {} elem/iter ({}), cycles/iter {:?}, calls kept {:?}",
                row.routine,
                row.form,
                l.instructions,
                l.elements_per_iteration,
                l.elements_source,
                l.cycles_per_iteration,
                l.calls_kept
            );
            assert!(l.instructions > 1 && l.elements_per_iteration >= 1.0, "{} {}", row.routine, row.form);
            assert!(
                l.cycles_per_iteration.iter().all(Option::is_some),
                "{} {}: {:?}",
                row.routine,
                row.form,
                l.mca_error
            );
        }
        assert!(e.models.iter().all(Option::is_some));
    }
}
