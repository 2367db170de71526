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
    let tool = llvm_mca();
    let mut child = Command::new(&tool)
        .args(["-mtriple=x86_64", &format!("-mcpu={cpu}"), "-"])
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
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!("`{tool} -mcpu={cpu}` failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    parse_block_rthroughput(&text).ok_or_else(|| format!("no `Block RThroughput` in the output of `{tool}`"))
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
    let mut clean = String::new();
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '<' => depth += 1,
            '>' if depth > 0 => depth -= 1,
            _ if depth == 0 => clean.push(c),
            _ => {}
        }
    }
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

    #[test]
    fn elements_per_iteration_from_steps() {
        let body = |lines: &[&str]| -> Vec<Instr> { lines.iter().filter_map(|l| parse_objdump_line(l)).collect() };
        // A pointer into `JointMat`s stepped by 8 matrices and a counter.
        let b = body(&[
            "   10:\tvmovups ymm0,YMMWORD PTR [rsi]",
            "   14:\tadd    rsi,0x180",
            "   18:\tadd    rcx,0xfffffffffffffff8",
        ]);
        assert_eq!(elements_from_steps(&b, &[48, 32]), Some(8));
        // A counter used as a scaled index into `index`: it counts elements.
        let b = body(&["   10:\tmov    eax,DWORD PTR [rdx+rcx*4]", "   14:\tadd    rcx,0x8"]);
        assert_eq!(elements_from_steps(&b, &[4]), Some(8));
        // One matrix and one parent per iteration.
        let b = body(&["   10:\tadd    rax,0x30", "   14:\tadd    rdx,0x4"]);
        assert_eq!(elements_from_steps(&b, &[48, 4]), Some(1));
        // The same, walking backwards (`untransform_skeleton`).
        let b = body(&["   10:\tadd    rax,0xffffffffffffffd0", "   14:\tadd    rdx,0xfffffffffffffffc"]);
        assert_eq!(elements_from_steps(&b, &[48, 4]), Some(1));
        assert_eq!(elements_from_steps(&body(&["   10:\tadd    rsp,0x40"]), &[4]), None);
    }
}

// ---------------------------------------------------------------------------
// The `Impl::Avx2` successors.

/// The `-mcpu` models the successors' loops are estimated with: this
/// machine's family (AMD EPYC, family 25 model 1: Zen 3, `znver3`, which
/// llvm-mca 14 models) and Skylake for comparison.
pub const SUCCESSOR_CPUS: [&str; 2] = ["znver3", "skylake"];

/// One `Impl::Avx2` successor's inner loop and llvm-mca's estimates.
#[derive(Clone, Debug)]
pub struct SuccessorLoop {
    /// The function found at the kernel's address (demangled), normally
    /// `animasm::<routine>::avx2::<routine>`.
    pub symbol: String,
    /// Instructions of the whole kernel.
    pub kernel_instructions: usize,
    /// Backward branches (loops) of the kernel.
    pub loops: usize,
    /// Instructions of the chosen loop, from the branch target to the
    /// backward branch, inclusive, with its callees spliced in.
    pub instructions: usize,
    /// Backward branches inside the chosen loop (loops nested in it; their
    /// bodies count once in the estimate).
    pub nested: usize,
    /// The functions the loop calls directly, whose instructions are spliced
    /// into it (name and instruction count): a block kernel the compiler kept
    /// out of line.
    pub callees: Vec<String>,
    /// Elements (joints, matrices) one iteration handles.
    pub elements_per_iteration: f64,
    /// How [`Self::elements_per_iteration`] was found: `"pointer steps"`
    /// (from the loop's pointer and counter increments) or `"assumed"` (the
    /// routine's expected width, where the steps say nothing).
    pub elements_source: &'static str,
    /// llvm-mca's block reciprocal throughput (cycles per iteration) with
    /// each model of [`SUCCESSOR_CPUS`] (`None`: llvm-mca failed).
    pub cycles_per_iteration: [Option<f64>; 2],
    /// The loop as given to llvm-mca (Intel syntax).
    pub source: String,
    /// llvm-mca's complaint where a model gave no estimate.
    pub mca_error: Option<String>,
}

impl SuccessorLoop {
    /// Cycles per element with model `cpu` (an index of [`SUCCESSOR_CPUS`]).
    pub fn cycles_per_element(&self, cpu: usize) -> Option<f64> {
        self.cycles_per_iteration[cpu].map(|c| c / self.elements_per_iteration)
    }
}

/// What became of one routine's successor.
#[derive(Clone, Debug)]
pub enum SuccessorEstimate {
    /// The routine has no `Impl::Avx2` form in this build.
    NotInBuild,
    /// Its loop and estimates.
    Estimated(SuccessorLoop),
    /// The kernel is there but was not estimated (why).
    Failed(String),
}

/// One id routine's successor: where to find it.
struct Successor {
    routine: &'static str,
    /// The kernel's runtime address: `Ok` from `kernel(Impl::Avx2)`,
    /// `Err(true)` when the build has no such form, `Err(false)` when the
    /// CPU cannot run it (then it is looked up by name).
    address: fn() -> Result<usize, bool>,
    /// Byte strides of the lists the loop walks (most specific first), to
    /// read the elements per iteration off its pointer steps.
    strides: &'static [u64],
    /// The elements per iteration assumed where the steps say nothing.
    assumed: f64,
}

/// `kernel(Impl::Avx2)` of an id routine as [`Successor::address`] wants it.
macro_rules! successor_address {
    ($routine:ident) => {
        || match animasm::$routine::kernel(animasm::Impl::Avx2) {
            Ok(k) => Ok(std::hint::black_box(k as *const () as usize)),
            Err(animasm::Error::Unsupported(_)) => Err(true),
            Err(_) => Err(false),
        }
    };
}

/// The seven id routines. Strides: 32 for a `JointQuat`, 48 for a
/// `JointMat`, 4 for an `index` or `parents` entry.
const SUCCESSORS: &[Successor] = &[
    Successor { routine: "slerp_joints", address: successor_address!(slerp_joints), strides: &[4], assumed: 8.0 },
    Successor { routine: "lerp_joints", address: successor_address!(lerp_joints), strides: &[4], assumed: 8.0 },
    Successor {
        routine: "quats_to_mats",
        address: successor_address!(quats_to_mats),
        strides: &[48, 32],
        assumed: 8.0,
    },
    Successor {
        routine: "mats_to_quats",
        address: successor_address!(mats_to_quats),
        strides: &[48, 32],
        assumed: 8.0,
    },
    Successor {
        routine: "transform_skeleton",
        address: successor_address!(transform_skeleton),
        strides: &[48, 4],
        assumed: 1.0,
    },
    Successor {
        routine: "untransform_skeleton",
        address: successor_address!(untransform_skeleton),
        strides: &[48, 4],
        assumed: 1.0,
    },
    Successor {
        routine: "transform_joints",
        address: successor_address!(transform_joints),
        strides: &[48],
        assumed: 2.0,
    },
];

/// The estimates of every id routine's `Impl::Avx2` successor, in the order
/// slerp_joints, lerp_joints, quats_to_mats, mats_to_quats,
/// transform_skeleton, untransform_skeleton, transform_joints. `Err` when
/// `llvm-mca` or `objdump` cannot be run.
///
/// The kernel is the one `kernel(Impl::Avx2)` returns, found in the running
/// binary by its address (the load bias from this module's [`estimates`]),
/// so it is found whatever its name; on a CPU that cannot run it, by its
/// name `animasm::<routine>::avx2::<routine>`. Its inner loop is the
/// largest loop of the kernel: of every backward branch (a jump, conditional
/// or not, to an address at or before it, within the kernel, whose region
/// holds no `ret`: a jump back to an exit block is no loop), the one whose
/// body, from the target to the branch, has the most instructions (the 8-wide main
/// loop: tails are masked or copied to a stack block, so they add no loop
/// of their own; a loop nested in it is counted once and reported in
/// [`SuccessorLoop::nested`]). The elements per iteration come from the
/// loop's pointer steps (`add`/`sub`/`lea` of an immediate that is 1 to 16
/// times a list's stride, or a counter used as a scaled index: the largest
/// such count), else from the routine's expected width. A direct call in
/// the loop (a block kernel kept out of line) is replaced by the callee's
/// instructions, one level deep, since llvm-mca does not follow calls.
pub fn successor_estimates() -> Result<Vec<(&'static str, SuccessorEstimate)>, String> {
    llvm_mca_version().ok_or_else(|| format!("`{}` is not installed (or `--version` failed)", llvm_mca()))?;
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let exe = exe.to_str().ok_or("the executable's path is not UTF-8")?.to_owned();
    let table = crate::objdump::functions(&run(&objdump(), &["-t", "-C", &exe])?);
    let anchor = ("devkit::mca::estimates", std::hint::black_box(estimates as fn() -> _ as usize));
    let mut out = Vec::new();
    for s in SUCCESSORS {
        let by_name = format!("animasm::{0}::avx2::{0}", s.routine);
        let found: Result<Vec<crate::objdump::Function>, String> = match (s.address)() {
            Err(true) => {
                out.push((s.routine, SuccessorEstimate::NotInBuild));
                continue;
            }
            Ok(addr) => crate::objdump::functions_at(&table, anchor, addr),
            Err(false) => Ok(table.iter().filter(|f| f.name == by_name).cloned().collect()),
        };
        let estimate = match found {
            Err(e) => SuccessorEstimate::Failed(e),
            Ok(fs) if fs.is_empty() => {
                SuccessorEstimate::Failed(format!("no function at the kernel's address ({by_name})"))
            }
            Ok(fs) => {
                // Aliases at one address: the successor's own name if it is one.
                let f = fs.iter().find(|f| f.name == by_name).unwrap_or(&fs[0]);
                match successor_loop(&exe, &table, f, s) {
                    Ok(l) => SuccessorEstimate::Estimated(l),
                    Err(e) => SuccessorEstimate::Failed(e),
                }
            }
        };
        out.push((s.routine, estimate));
    }
    Ok(out)
}

/// The instructions of the function at `[start, start + size)` of `exe`.
fn disassemble_range(exe: &str, start: u64, size: u64) -> Result<Vec<Instr>, String> {
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
            exe,
        ],
    )?;
    Ok(listing.lines().filter_map(parse_objdump_line).collect())
}

/// Disassembles `f`, takes its largest loop, splices into it the functions
/// it calls directly (one level) and runs llvm-mca on it.
fn successor_loop(
    exe: &str,
    table: &[crate::objdump::Function],
    f: &crate::objdump::Function,
    s: &Successor,
) -> Result<SuccessorLoop, String> {
    let instrs = disassemble_range(exe, f.addr, f.size)?;
    // A backward jump whose region holds a `ret` is a jump back to an exit
    // block laid out before the loop, not a loop.
    let all: Vec<(usize, usize)> =
        loops(&instrs).into_iter().filter(|&(s, e)| !instrs[s..=e].iter().any(|i| i.text == "ret")).collect();
    let &(start, end) = all.iter().max_by_key(|&&(s, e)| e - s).ok_or_else(|| format!("`{}` has no loop", f.name))?;
    let own = &instrs[start..=end];
    let nested = all.iter().filter(|&&(s2, e2)| (s2, e2) != (start, end) && s2 >= start && e2 <= end).count();
    // A direct call in the loop (a block kernel the compiler kept out of
    // line) is replaced by the callee's instructions, its `ret` left out:
    // llvm-mca does not follow calls. The callee's own jumps go to `.Lout`
    // (llvm-mca reads the block as straight-line code).
    let mut body: Vec<Instr> = Vec::new();
    let mut callees = Vec::new();
    for i in own {
        match i.call.and_then(|t| table.iter().find(|g| g.addr == t)) {
            Some(g) => {
                let inner = disassemble_range(exe, g.addr, g.size)?;
                callees.push(format!("{} ({} instr)", g.name, inner.len()));
                body.extend(inner.into_iter().filter(|j| j.text != "ret").map(|mut j| {
                    j.target = j.target.map(|_| u64::MAX);
                    j
                }));
            }
            None => body.push(i.clone()),
        }
    }
    let body = body.as_slice();
    let source = mca_source(body);
    let mut cycles = [None, None];
    let mut mca_error = None;
    for (slot, cpu) in cycles.iter_mut().zip(SUCCESSOR_CPUS) {
        match block_rthroughput(&source, cpu) {
            Ok(c) => *slot = Some(c),
            Err(e) => mca_error = mca_error.or(Some(e)),
        }
    }
    let (elements_per_iteration, elements_source) = match elements_from_steps(own, s.strides) {
        Some(k) => (k as f64, "pointer steps"),
        None => (s.assumed, "assumed"),
    };
    Ok(SuccessorLoop {
        symbol: f.name.clone(),
        kernel_instructions: instrs.len(),
        loops: all.len(),
        instructions: body.len(),
        nested,
        callees,
        elements_per_iteration,
        elements_source,
        cycles_per_iteration: cycles,
        source,
        mca_error,
    })
}

/// The elements one iteration of `body` handles, read off its steps: an
/// `add`/`sub` of an immediate to a register, or `lea r, [r+imm]`, where
/// the register is a counter used as a scaled index (`[...+r*4]`: the
/// immediate counts elements) or a pointer or byte offset (the immediate is
/// `k` times one of `strides`, the first that divides it; a negative step
/// counts by its magnitude); `k` in `1..=16`.
/// The largest `k` found (a loop steps its widest list by the whole block),
/// `None` when no step fits.
fn elements_from_steps(body: &[Instr], strides: &[u64]) -> Option<u64> {
    let text: Vec<String> = body.iter().map(|i| i.text.to_ascii_lowercase()).collect();
    let scaled = |r: &str| text.iter().any(|t| ["*2]", "*4]", "*8]"].iter().any(|s| t.contains(&format!("{r}{s}"))));
    let mut best: Option<u64> = None;
    for t in &text {
        let (m, ops) = t.split_once(' ').unwrap_or((t, ""));
        let (reg, imm) = match m {
            "add" | "sub" => {
                let Some((r, v)) = ops.split_once(',') else { continue };
                (r.trim().to_owned(), v.trim().to_owned())
            }
            "lea" => {
                // `lea rax,[rax+0x100]`
                let Some((r, v)) = ops.split_once(',') else { continue };
                let r = r.trim();
                let Some(inner) = v.trim().strip_prefix('[').and_then(|v| v.strip_suffix(']')) else { continue };
                let Some((base, off)) = inner.split_once('+') else { continue };
                if base != r {
                    continue;
                }
                (r.to_owned(), off.to_owned())
            }
            _ => continue,
        };
        let imm = imm.trim_start_matches('-');
        let Some(v) =
            imm.strip_prefix("0x").map_or_else(|| imm.parse::<u64>().ok(), |h| u64::from_str_radix(h, 16).ok())
        else {
            continue;
        };
        // objdump prints a negative step in two's complement
        // (`add rax,0xffffffffffffffd0`): a loop that walks backwards.
        let v = if v >= 1 << 63 { v.wrapping_neg() } else { v };
        if reg.starts_with('[') || reg == "rsp" || reg == "esp" {
            continue;
        }
        let k = if scaled(&reg) { Some(v) } else { strides.iter().find(|&&s| v % s == 0).map(|&s| v / s) };
        if let Some(k) = k.filter(|k| (1..=16).contains(k)) {
            best = Some(best.map_or(k, |b| b.max(k)));
        }
    }
    best
}
