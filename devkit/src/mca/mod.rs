//! Static throughput estimates of the asm kernels' main loops
//! ([`estimates`]), and of the successors' inner loops
//! ([`successor_estimates`]), by `llvm-mca`. The kernels are the roster's:
//! every routine's `Origin::Listing` form, and every `Origin::Successor`
//! form, found in the running binary at the address of the kernel in the
//! routine's table (`animasm::roster`), so that a new listing or successor
//! is estimated with no edit here.
//!
//! [`successor_estimates`] takes each successor's largest loop (rule in its
//! docs), splices in any block kernel the loop calls, reads the elements
//! per iteration off the loop's pointer steps and runs llvm-mca with this
//! machine's model (`znver3`) and Skylake's.
//!
//! [`estimates`] disassembles the running binary (`objdump -d -M intel`, as
//! `tests/disasm.rs` does), takes each asm kernel's main loop (the largest
//! labelled loop of its listing file, `asm_notes/<routine>.listing.s` or
//! `asm_notes/<module>.listing.s`: in the disassembly, the backward branch
//! whose body has the listing's instruction count), rewrites it into
//! assembler `llvm-mca` accepts and runs `llvm-mca` with the Sandy Bridge and
//! Skylake models. The figure is the block reciprocal throughput (cycles per
//! iteration, steady state, hot caches, no front-end or memory effects)
//! divided by the elements one iteration handles. Used by the report
//! (`devkit/examples/report/`), whose binary it disassembles; needs `objdump` (GNU
//! binutils) and `llvm-mca`.

use std::io::Write as _;
use std::sync::OnceLock;

use animasm::Origin;
use animasm::roster::{self, Routine};

use crate::listing::{Item, Listing, marker_instrs, parse_listing};
pub(crate) use crate::mca_shared::{function_at, kernel_address, parse_block_rthroughput, run};
use crate::objdump::Function;
use std::process::{Command, Stdio};

/// One asm kernel's main loop and its estimates.
#[derive(Clone, Debug)]
pub struct McaRow {
    /// The kernel: its routine's label (`slerp_joints`,
    /// `transform_skeleton (movss+shufps)`, ...: [`crate::setup::label`]).
    pub kernel: &'static str,
    /// The loop's label in the listing file.
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

/// One asm kernel (a routine's `Origin::Listing` form) and its main loop,
/// from the roster and the routine's listing file.
pub(crate) struct Kernel {
    /// The routine's label ([`crate::setup::label`]).
    pub(crate) name: &'static str,
    /// The routine.
    pub(crate) routine: &'static Routine,
    /// The main loop's label in the listing file (`loopJoint4`).
    pub(crate) loop_label: String,
    /// Instructions of the loop in the built kernel (label to the branch back,
    /// inclusive): the listing's count with its `//@ D<n>` changes applied.
    pub(crate) instructions: usize,
    /// Elements one iteration handles: the number that ends the loop's
    /// label, as the listings name their loops (`loopJoint4`: 4,
    /// `loopQuat16`: 16), else 1.
    pub(crate) elements_per_iteration: f64,
    /// The kernel's runtime address, from the routine's table.
    pub(crate) address: usize,
}

/// The listing file of `r`: `asm_notes/<name>.listing.s` if there is one
/// (a variant's), else `asm_notes/<module>.listing.s`.
fn listing_of(r: &Routine) -> Result<Listing, String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../asm_notes");
    let by_name = format!("{dir}/{}.listing.s", r.name);
    let path = if std::path::Path::new(&by_name).exists() { by_name } else { format!("{dir}/{}.listing.s", r.module) };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {path}: {e}", r.name))?;
    std::panic::catch_unwind(|| parse_listing(&path, &text)).map_err(|_| format!("{}: {path} does not parse", r.name))
}

/// The loops of a listing: for each label followed by a jump back to it,
/// the label and the port's instructions from the label to that jump,
/// inclusive (the listing's, with its `//@ D<n>` changes applied).
fn listing_loops(l: &Listing) -> Vec<(String, usize)> {
    let expected_of = |i: usize| l.expected.iter().filter(|e| e.original == Some(i)).count();
    let mut loops = Vec::new();
    for (k, item) in l.items.iter().enumerate() {
        let Item::Label(label) = item else { continue };
        let mut count = 0;
        for item in &l.items[k + 1..] {
            match item {
                Item::Instr(i) => {
                    count += expected_of(*i);
                    let mut t = l.original[*i].text.split_whitespace();
                    if t.next().is_some_and(|m| m.starts_with(['j', 'J'])) && t.next() == Some(label.as_str()) {
                        loops.push((label.clone(), count));
                        break;
                    }
                }
                Item::Insert(_, rest) => count += marker_instrs(rest, label).len(),
                Item::Label(_) | Item::Comment(_) => {}
            }
        }
    }
    loops
}

/// The elements a listing's loop handles per iteration, by its label: the
/// number it ends with (`loopJoint4`: 4), else 1.
fn elements_of(label: &str) -> f64 {
    let digits = label.len() - label.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    label[label.len() - digits..].parse().unwrap_or(1.0)
}

/// Every routine's `Origin::Listing` form that this build has, in the
/// roster's order, with the main loop of its listing file (its largest
/// loop); read once. Not the composites' (`Routine::is_composite`: the
/// pose routines), whose `Asm` form chains the other routines' listings,
/// estimated with those routines.
pub(crate) fn kernels() -> Result<&'static [Kernel], String> {
    static KERNELS: OnceLock<Result<Vec<Kernel>, String>> = OnceLock::new();
    let found = KERNELS.get_or_init(|| {
        let mut out = Vec::new();
        // A composite (the whole pose) chains other routines' listings and
        // has no listing file of its own: its stages are measured as those
        // routines.
        for r in roster::ROUTINES.iter().filter(|r| !r.is_composite()) {
            let Some(form) = r.all_forms().find(|f| f.origin == Origin::Listing) else { continue };
            let listing = listing_of(r)?;
            let (loop_label, instructions) = listing_loops(&listing)
                .into_iter()
                .max_by_key(|l| l.1)
                .ok_or_else(|| format!("{}: its listing has no loop", r.name))?;
            let address = kernel_address(r, form.imp).ok_or_else(|| format!("{}: no {} kernel", r.name, form.imp))?;
            out.push(Kernel {
                name: crate::setup::label(r),
                routine: r,
                elements_per_iteration: elements_of(&loop_label),
                loop_label,
                instructions,
                address,
            });
        }
        Ok(out)
    });
    found.as_ref().map(Vec::as_slice).map_err(Clone::clone)
}

/// The main loop of kernel `k` in the binary `exe` (whose functions are
/// `table`): the backward branch whose body has the listing's instruction
/// count.
pub(crate) fn kernel_loop(exe: &str, table: &[Function], k: &Kernel) -> Result<Vec<Instr>, String> {
    let anchor = ("devkit::mca::estimates", std::hint::black_box(estimates as fn() -> _ as usize));
    let f = function_at(table, anchor, k.routine, k.address)?;
    let instrs = successors::disassemble_range(exe, f.addr, f.size)?;
    let body = main_loop(&instrs, k.instructions).ok_or_else(|| {
        let found: Vec<usize> = loops(&instrs).iter().map(|&(s, e)| e - s + 1).collect();
        format!(
            "{}: no loop of {} instructions (`{}`) in `{}`; loops found: {found:?}",
            k.name, k.instructions, k.loop_label, f.name
        )
    })?;
    Ok(body.to_vec())
}

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

/// The estimates for every asm kernel (the roster's listing forms); `Err`
/// when `objdump` or `llvm-mca` cannot be run, a listing cannot be read or a
/// kernel's loop is not found. A model that fails on one loop
/// gives `None` in its column.
pub fn estimates() -> Result<Vec<McaRow>, String> {
    llvm_mca_version().ok_or_else(|| format!("`{}` is not installed (or `--version` failed)", llvm_mca()))?;
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let exe = exe.to_str().ok_or("the executable's path is not UTF-8")?.to_owned();
    let table = crate::objdump::functions(&run(&objdump(), &["-t", "-C", &exe])?);
    let mut rows = Vec::new();
    for k in kernels()? {
        let body = kernel_loop(&exe, &table, k)?;
        let source = mca_source(&body);
        let mut per_cpu = [None, None];
        for (slot, cpu) in per_cpu.iter_mut().zip(CPUS) {
            *slot = block_rthroughput(&source, cpu).ok().map(|c| c / k.elements_per_iteration);
        }
        rows.push(McaRow {
            kernel: k.name,
            loop_label: &k.loop_label,
            elements_per_iteration: k.elements_per_iteration,
            sandybridge: per_cpu[0],
            skylake: per_cpu[1],
            instructions: body.len(),
        });
    }
    Ok(rows)
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
    mca_output_with(&llvm_mca(), source, cpu, extra)
}

/// [`mca_output`] with the llvm-mca binary `tool`.
pub(crate) fn mca_output_with(tool: &str, source: &str, cpu: &str, extra: &[&str]) -> Result<String, String> {
    let tool = tool.to_owned();
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

/// An instruction of the disassembly.
#[derive(Clone, Debug)]
pub(crate) struct Instr {
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

/// objdump's AVX-512 embedded broadcast (`DWORD BCST [mem]`) in the
/// syntax llvm-mc parses (`DWORD PTR [mem]{1to16}`): the count is the
/// widest vector register of the instruction over the element size. Any
/// other text is returned as it is.
fn embedded_broadcast(text: &str) -> String {
    let Some(at) = text.find(" BCST [") else { return text.to_string() };
    let elem = ["QWORD", "DWORD", "WORD", "BYTE"]
        .iter()
        .zip([8usize, 4, 2, 1])
        .find(|(w, _)| text[..at].ends_with(*w))
        .map_or(4, |(_, b)| b);
    let width = if text.contains("zmm") {
        64
    } else if text.contains("ymm") {
        32
    } else {
        16
    };
    let Some(close) = text[at..].find(']').map(|c| at + c + 1) else { return text.to_string() };
    format!("{} PTR {}{{1to{}}}{}", &text[..at], &text[at + " BCST ".len()..close], width / elem, &text[close..])
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
                s.push_str(&embedded_broadcast(&i.text));
                s.push('\n');
            }
        }
    }
    s.push_str(".Lout:\n");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn embedded_broadcast_in_llvm_mc_syntax() {
        assert_eq!(
            super::embedded_broadcast("vfmadd213ps zmm4,zmm0,DWORD BCST [rip+0x10]"),
            "vfmadd213ps zmm4,zmm0,DWORD PTR [rip+0x10]{1to16}"
        );
        assert_eq!(
            super::embedded_broadcast("vaddpd ymm1,ymm2,QWORD BCST [rax]"),
            "vaddpd ymm1,ymm2,QWORD PTR [rax]{1to4}"
        );
        assert_eq!(super::embedded_broadcast("vaddps ymm1,ymm2,[rax]"), "vaddps ymm1,ymm2,[rax]");
    }

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
    fn every_listing_form_has_a_main_loop() {
        assert_eq!((elements_of("loopJoint4"), elements_of("loopQuat16"), elements_of("loopJoint")), (4.0, 16.0, 1.0));
        let kernels = kernels().expect("the listings");
        assert!(!kernels.is_empty());
        for k in kernels {
            assert!(k.instructions > 1, "{}: {} instructions", k.name, k.instructions);
            assert!(k.elements_per_iteration >= 1.0, "{}", k.name);
            assert_ne!(k.address, 0, "{}", k.name);
            // The main loop is the listing's largest: no other loop is as long.
            let loops = listing_loops(&listing_of(k.routine).unwrap());
            assert_eq!(loops.iter().filter(|l| l.1 >= k.instructions).count(), 1, "{}: {loops:?}", k.name);
        }
    }
}

mod successors;
pub use successors::{
    AVX512_CPUS, SUCCESSOR_CPUS, SuccessorEstimate, SuccessorLoop, SuccessorRow, successor_estimates,
};
pub mod pressure;
