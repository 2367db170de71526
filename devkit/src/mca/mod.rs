//! Static throughput estimates of the asm kernels' main loops, and of the
//! `Impl::Avx2` successors' inner loops ([`successor_estimates`]), by
//! `llvm-mca`.
//!
//! [`successor_estimates`] does the same for the `Impl::Avx2` successor of
//! each id routine: it finds the kernel at the address `kernel(Impl::Avx2)`
//! returns (or says the build has none), takes its largest loop (rule in its
//! docs), splices in any block kernel the loop calls, reads the elements per
//! iteration off the loop's pointer steps and runs llvm-mca with this
//! machine's model (`znver3`) and Skylake's.
//!
//! [`estimates`] disassembles the running binary (`objdump -d -M intel`, as
//! `tests/disasm.rs` does), takes each asm kernel's main loop (the labelled
//! loop of `asm_notes/<routine>.listing.s`: in the disassembly, the backward
//! branch whose body has the listing's instruction count), rewrites it into
//! assembler `llvm-mca` accepts and runs `llvm-mca` with the Sandy Bridge and
//! Skylake models. The figure is the block reciprocal throughput (cycles per
//! iteration, steady state, hot caches, no front-end or memory effects)
//! divided by the elements one iteration handles. Used by the report
//! (`examples/report/`), whose binary it disassembles; needs `objdump` (GNU
//! binutils) and `llvm-mca`.

use std::io::Write as _;

use crate::objdump::normalize_symbol;
use std::process::{Command, Stdio};

/// One asm kernel's main loop and its estimates.
#[derive(Clone, Debug)]
pub struct McaRow {
    /// The kernel (`slerp_joints`, `transform_skeleton (movss+shufps)`, ...).
    pub kernel: &'static str,
    /// The loop's label in `asm_notes/<routine>.listing.s`.
    pub loop_label: &'static str,
    /// Elements (joints, quaternions, matrices) one iteration handles.
    pub elements_per_iteration: f64,
    /// Cycles per element, Sandy Bridge model (`None`: llvm-mca failed).
    pub sandybridge: Option<f64>,
    /// Cycles per element, Skylake model (`None`: llvm-mca failed).
    pub skylake: Option<f64>,
    /// Instructions in the loop body as disassembled (branch included).
    pub instructions: usize,
}

/// One kernel whose main loop is estimated.
struct Kernel {
    name: &'static str,
    /// The demangled path of the kernel function.
    symbol: &'static str,
    loop_label: &'static str,
    /// Instructions of the loop in the built kernel (label to the branch back,
    /// inclusive): the listing's count with its `//@ D<n>` changes applied.
    instructions: usize,
    elements_per_iteration: f64,
    /// The kernel's address, through `black_box`, so that it is linked in.
    address: fn() -> usize,
}

/// The kernels (`tests/disasm.rs`'s `KERNELS`), with their main loops.
const KERNELS: &[Kernel] = &[
    Kernel {
        name: "slerp_joints",
        symbol: "animasm::slerp_joints::asm::slerp_joints",
        loop_label: "loopJoint4",
        instructions: 212,
        elements_per_iteration: 4.0,
        address: || std::hint::black_box(animasm::slerp_joints::asm::slerp_joints as *const () as usize),
    },
    Kernel {
        name: "lerp_joints",
        symbol: "animasm::lerp_joints::asm::lerp_joints",
        loop_label: "loopJoint4",
        instructions: 132,
        elements_per_iteration: 4.0,
        address: || std::hint::black_box(animasm::lerp_joints::asm::lerp_joints as *const () as usize),
    },
    Kernel {
        name: "quats_to_mats",
        symbol: "animasm::quats_to_mats::asm::quats_to_mats",
        loop_label: "loopQuat",
        instructions: 35,
        elements_per_iteration: 1.0,
        address: || std::hint::black_box(animasm::quats_to_mats::asm::quats_to_mats as *const () as usize),
    },
    Kernel {
        name: "mats_to_quats",
        symbol: "animasm::mats_to_quats::asm::mats_to_quats",
        loop_label: "loopMat4",
        instructions: 207,
        elements_per_iteration: 4.0,
        address: || std::hint::black_box(animasm::mats_to_quats::asm::mats_to_quats as *const () as usize),
    },
    Kernel {
        name: "transform_skeleton",
        symbol: "animasm::transform_skeleton::asm::transform_skeleton",
        loop_label: "loopJoint",
        instructions: 45,
        elements_per_iteration: 1.0,
        address: || std::hint::black_box(animasm::transform_skeleton::asm::transform_skeleton as *const () as usize),
    },
    Kernel {
        name: "transform_skeleton (movss+shufps)",
        symbol: "animasm::transform_skeleton::asm::transform_skeleton_movss_shufps",
        loop_label: "loopJoint",
        instructions: 54,
        elements_per_iteration: 1.0,
        address: || {
            std::hint::black_box(
                animasm::transform_skeleton::asm::transform_skeleton_movss_shufps as *const () as usize,
            )
        },
    },
    Kernel {
        name: "untransform_skeleton",
        symbol: "animasm::untransform_skeleton::asm::untransform_skeleton",
        loop_label: "loopJoint",
        instructions: 48,
        elements_per_iteration: 1.0,
        address: || {
            std::hint::black_box(animasm::untransform_skeleton::asm::untransform_skeleton as *const () as usize)
        },
    },
    Kernel {
        name: "transform_joints",
        symbol: "animasm::transform_joints::asm::transform_joints",
        loop_label: "loopJoint",
        instructions: 41,
        elements_per_iteration: 1.0,
        address: || std::hint::black_box(animasm::transform_joints::asm::transform_joints as *const () as usize),
    },
    Kernel {
        name: "slerp_quats as published",
        symbol: "animasm::slerp_quats::asm::slerp_quats_as_published",
        loop_label: "loopQuat16",
        // The listing's 259 and its two `//@ D2 insert: vmovaps` in the loop.
        instructions: 261,
        elements_per_iteration: 16.0,
        address: || std::hint::black_box(animasm::slerp_quats::asm::slerp_quats_as_published as *const () as usize),
    },
    Kernel {
        name: "slerp_quats corrected",
        symbol: "animasm::slerp_quats::asm::slerp_quats_corrected",
        loop_label: "loopQuat16",
        // The listing's 259 and its two `//@ D2 insert: vmovaps` in the loop.
        instructions: 261,
        elements_per_iteration: 16.0,
        address: || std::hint::black_box(animasm::slerp_quats::asm::slerp_quats_corrected as *const () as usize),
    },
];

/// The CPU models run, as `-mcpu` names.
const CPUS: [&str; 2] = ["sandybridge", "skylake"];

fn llvm_mca() -> String {
    std::env::var("LLVM_MCA").unwrap_or_else(|_| "llvm-mca".to_owned())
}

fn objdump() -> String {
    std::env::var("OBJDUMP").unwrap_or_else(|_| "objdump".to_owned())
}

/// The first line of `llvm-mca --version` that names a version (`Debian LLVM
/// version 14.0.6`); `None` when `llvm-mca` is not installed or fails.
pub fn llvm_mca_version() -> Option<String> {
    let out = Command::new(llvm_mca()).arg("--version").output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let line = text.lines().map(str::trim).find(|l| l.to_ascii_lowercase().contains("version"))?;
    Some(line.to_owned())
}

/// The estimates for every kernel of [`KERNELS`]; `Err` when `objdump` or
/// `llvm-mca` cannot be run or a kernel's loop is not found. A model that
/// fails on one loop gives `None` in its column.
pub fn estimates() -> Result<Vec<McaRow>, String> {
    llvm_mca_version().ok_or_else(|| format!("`{}` is not installed (or `--version` failed)", llvm_mca()))?;
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let exe = exe.to_str().ok_or("the executable's path is not UTF-8")?.to_owned();
    let table = run(&objdump(), &["-t", "-C", &exe])?;
    let mut rows = Vec::new();
    for k in KERNELS {
        if (k.address)() == 0 {
            return Err(format!("{}: null address", k.symbol));
        }
        let (start, size) = find_function(&table, k.symbol)?;
        let listing = run(
            &objdump(),
            &[
                "-d",
                "-M",
                "intel",
                "--no-show-raw-insn",
                "-C",
                &format!("--start-address={start:#x}"),
                &format!("--stop-address={:#x}", start + size),
                &exe,
            ],
        )?;
        let instrs: Vec<Instr> = listing.lines().filter_map(parse_objdump_line).collect();
        let body = main_loop(&instrs, k.instructions).ok_or_else(|| {
            let found: Vec<usize> = loops(&instrs).iter().map(|&(s, e)| e - s + 1).collect();
            format!(
                "{}: no loop of {} instructions (`{}`) in `{}`; loops found: {found:?}",
                k.name, k.instructions, k.loop_label, k.symbol
            )
        })?;
        let source = mca_source(body);
        let mut per_cpu = [None, None];
        for (slot, cpu) in per_cpu.iter_mut().zip(CPUS) {
            *slot = block_rthroughput(&source, cpu).ok().map(|c| c / k.elements_per_iteration);
        }
        rows.push(McaRow {
            kernel: k.name,
            loop_label: k.loop_label,
            elements_per_iteration: k.elements_per_iteration,
            sandybridge: per_cpu[0],
            skylake: per_cpu[1],
            instructions: body.len(),
        });
    }
    Ok(rows)
}

/// Runs a tool and returns its stdout.
fn run(tool: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(tool).args(args).output().map_err(|e| format!("running `{tool}`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`{tool} {}` failed: {}\n{}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `llvm-mca -mtriple=x86_64 -mcpu=<cpu>` on `source`: its "Block
/// RThroughput".
fn block_rthroughput(source: &str, cpu: &str) -> Result<f64, String> {
    let text = mca_output(source, cpu, &[])?;
    parse_block_rthroughput(&text).ok_or_else(|| format!("no `Block RThroughput` in the output of `{}`", llvm_mca()))
}

/// `llvm-mca -mtriple=x86_64 -mcpu=<cpu> <extra>` on `source` (on stdin):
/// its whole output.
pub(crate) fn mca_output(source: &str, cpu: &str, extra: &[&str]) -> Result<String, String> {
    let tool = llvm_mca();
    let cpu_arg = format!("-mcpu={cpu}");
    let mut child = Command::new(&tool)
        .args(["-mtriple=x86_64", cpu_arg.as_str()])
        .args(extra)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("running `{tool}`: {e}"))?;
    child
        .stdin
        .take()
        .ok_or("no stdin")?
        .write_all(source.as_bytes())
        .map_err(|e| format!("writing to `{tool}`: {e}"))?;
    let out = child.wait_with_output().map_err(|e| format!("`{tool}`: {e}"))?;
    if !out.status.success() {
        return Err(format!("`{tool} -mcpu={cpu}` failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `Block RThroughput: 53.0` -> 53.0.
fn parse_block_rthroughput(text: &str) -> Option<f64> {
    text.lines().find_map(|l| l.trim().strip_prefix("Block RThroughput:")).and_then(|v| v.trim().parse().ok())
}

/// (start, size) of the function `symbol` in an `objdump -t -C` table.
fn find_function(table: &str, symbol: &str) -> Result<(u64, u64), String> {
    let mut found: Vec<(u64, u64)> = Vec::new();
    for line in table.lines() {
        let Some((left, right)) = line.split_once('\t') else { continue };
        let Some(addr) = left.split_whitespace().next().and_then(|a| u64::from_str_radix(a, 16).ok()) else {
            continue;
        };
        if !left.split_whitespace().any(|f| f == "F") {
            continue;
        }
        let Some((size, name)) = right.trim_start().split_once(char::is_whitespace) else { continue };
        let Ok(size) = u64::from_str_radix(size, 16) else { continue };
        let name = name.trim();
        let name = name.strip_prefix(".hidden ").unwrap_or(name);
        if normalize_symbol(name) == symbol && size > 0 && !found.contains(&(addr, size)) {
            found.push((addr, size));
        }
    }
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(format!("`{symbol}` is not in the symbol table (is the binary stripped?)")),
        many => Err(format!("`{symbol}` is defined {} times: {many:x?}", many.len())),
    }
}

/// An instruction of the disassembly.
#[derive(Clone, Debug)]
struct Instr {
    addr: u64,
    /// The instruction without objdump's `# ...` comment and `<sym+off>`
    /// annotations.
    text: String,
    /// For a jump, its target address.
    target: Option<u64>,
    /// For a direct call, its target address.
    call: Option<u64>,
}

/// Parses `  4a2b3:\tmovaps xmm0,XMMWORD PTR [rip+0x1234]        # 4b000 <sym>`.
fn parse_objdump_line(line: &str) -> Option<Instr> {
    let (addr, rest) = line.split_once(":\t")?;
    let addr = u64::from_str_radix(addr.trim(), 16).ok()?;
    let text = rest.split('#').next().unwrap_or("").trim();
    if text.is_empty() {
        return None;
    }
    let clean = crate::objdump::strip_symbols(text);
    let clean = clean.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut tokens = clean.split(' ');
    let mnemonic = tokens.next()?.to_ascii_lowercase();
    let operand = tokens.next().and_then(|t| u64::from_str_radix(t.trim_start_matches("0x"), 16).ok());
    let target = if mnemonic.starts_with('j') { operand } else { None };
    let call = if mnemonic == "call" { operand } else { None };
    Some(Instr { addr, text: clean, target, call })
}

/// Every backward branch as (first, last) instruction indices of its loop.
fn loops(instrs: &[Instr]) -> Vec<(usize, usize)> {
    instrs
        .iter()
        .enumerate()
        .filter_map(|(end, i)| {
            let t = i.target.filter(|&t| t <= i.addr)?;
            let start = instrs.iter().position(|j| j.addr == t)?;
            Some((start, end))
        })
        .collect()
}

/// The loop of exactly `count` instructions (the largest if several).
fn main_loop(instrs: &[Instr], count: usize) -> Option<&[Instr]> {
    let (s, e) = loops(instrs).into_iter().filter(|&(s, e)| e - s + 1 == count).max_by_key(|&(s, e)| e - s)?;
    Some(&instrs[s..=e])
}

/// The loop body as input for `llvm-mca`: Intel syntax, branch targets inside
/// the loop replaced by a local label.
fn mca_source(body: &[Instr]) -> String {
    let start = body[0].addr;
    let mut s = String::from(".intel_syntax noprefix\n.Lloop:\n");
    for i in body {
        match i.target {
            Some(t) if t == start => {
                let m = i.text.split(' ').next().unwrap_or("jmp");
                s.push_str(&format!("    {m} .Lloop\n"));
            }
            Some(_) => {
                let m = i.text.split(' ').next().unwrap_or("jmp");
                s.push_str(&format!("    {m} .Lout\n"));
            }
            // Alignment padding (`nop`, `cs nop WORD PTR ...`, `data16 ...`),
            // which some llvm-mc versions do not parse, is left out.
            None if i.text.split(' ').any(|t| t.starts_with("nop")) => {}
            None => {
                s.push_str("    ");
                s.push_str(&i.text);
                s.push('\n');
            }
        }
    }
    s.push_str(".Lout:\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsers() {
        let i = parse_objdump_line("   4a2c0:\tjl     4a200 <animasm::slerp_joints::asm::slerp_joints+0x150>").unwrap();
        assert_eq!((i.text.as_str(), i.target), ("jl 4a200", Some(0x4a200)));
        let i = parse_objdump_line("   4a2b3:\tmovaps xmm0,XMMWORD PTR [rip+0x1234]        # 4b000 <x>").unwrap();
        assert_eq!(i.text, "movaps xmm0,XMMWORD PTR [rip+0x1234]");
        assert_eq!(parse_block_rthroughput("Total uOps:  100\nBlock RThroughput: 53.5\n"), Some(53.5));
        let i = parse_objdump_line("   47000:\tcall   47250 <animasm::slerp_joints::avx2::block>").unwrap();
        assert_eq!((i.call, i.target), (Some(0x47250), None));
    }
}

mod successors;
pub use successors::{SUCCESSOR_CPUS, SuccessorEstimate, SuccessorLoop, successor_estimates};
pub mod pressure;
