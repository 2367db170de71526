//! llvm-mca's estimates of the successors' inner loops
//! ([`successor_estimates`]): every `Origin::Successor` form of the roster,
//! its kernel found at the address in the routine's table, its largest
//! loop, the block kernels it calls spliced in, the elements per iteration
//! read off its pointer steps.

use super::*;
use crate::mca_shared::{lanes, steps};
use animasm::roster::FormInfo;
use std::cmp::Reverse;

/// The `-mcpu` models the successors' loops are estimated with: this
/// machine's family (AMD EPYC, family 25 model 1: Zen 3, `znver3`, which
/// llvm-mca 14 models) and Skylake for comparison.
pub const SUCCESSOR_CPUS: [&str; 2] = ["znver3", "skylake"];

/// The `-mcpu` models the AVX-512 successors' loops are estimated with (the
/// models of [`SUCCESSOR_CPUS`] have no AVX-512): AMD Zen 4 (`znver4`,
/// which issues a 512-bit operation as two 256-bit halves) and Intel
/// Sapphire Rapids (`sapphirerapids`), the two AVX-512 machines this crate
/// has been measured on. They need llvm-mca 16 or later: the newest
/// `llvm-mca-<n>` on the `PATH` is used (`$LLVM_MCA_AVX512` overrides it).
pub const AVX512_CPUS: [&str; 2] = ["znver4", "sapphirerapids"];

/// One successor's inner loop and llvm-mca's estimates.
#[derive(Clone, Debug)]
pub struct SuccessorLoop {
    /// The function found at the kernel's address (demangled), normally
    /// `animasm::<module>::<form module>::<routine>`.
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
    /// shape's expected width, where the steps say nothing).
    pub elements_source: &'static str,
    /// The two `-mcpu` models: [`SUCCESSOR_CPUS`], or [`AVX512_CPUS`] for
    /// an AVX-512 form.
    pub cpus: [&'static str; 2],
    /// The llvm-mca that estimated the loop (its version line).
    pub mca_version: std::sync::Arc<str>,
    /// llvm-mca's block reciprocal throughput (cycles per iteration) with
    /// each model of [`Self::cpus`] (`None`: llvm-mca failed).
    pub cycles_per_iteration: [Option<f64>; 2],
    /// The loop as given to llvm-mca (Intel syntax).
    pub source: String,
    /// llvm-mca's complaint where a model gave no estimate.
    pub mca_error: Option<String>,
}

impl SuccessorLoop {
    /// Cycles per element with model `cpu` (an index of [`Self::cpus`]).
    pub fn cycles_per_element(&self, cpu: usize) -> Option<f64> {
        self.cycles_per_iteration[cpu].map(|c| c / self.elements_per_iteration)
    }
}

/// What became of one routine's successor.
#[derive(Clone, Debug)]
pub enum SuccessorEstimate {
    /// The routine (an id routine) has no successor form in this build.
    NotInBuild,
    /// Its loop and estimates.
    Estimated(Box<SuccessorLoop>),
    /// The kernel is there but was not estimated (why).
    Failed(String),
}

/// One successor form of a routine and what became of its estimate.
#[derive(Clone, Debug)]
pub struct SuccessorRow {
    /// The routine's name.
    pub routine: &'static str,
    /// The successor form (`None` with [`SuccessorEstimate::NotInBuild`]).
    pub form: Option<FormInfo>,
    /// The estimate.
    pub estimate: SuccessorEstimate,
}

/// The estimates of every x86_64 successor form of the roster
/// (`Origin::Successor` on an x86 instruction set, compiled in this build,
/// whether this CPU runs it or not; the portable successor is not
/// estimated), in the
/// roster's order, and [`SuccessorEstimate::NotInBuild`] for an id routine
/// without one. `Err` when `llvm-mca` or `objdump` cannot be run.
///
/// The kernel is the one in the routine's table, found in the running
/// binary by its address (the load bias from this module's [`estimates`]),
/// so it is found whatever its name. Its inner loop is, of the loops that
/// call a block kernel kept out of line, the one stepping over the most
/// elements (the joint interpolators' fast path), else the largest loop of
/// the kernel: of every backward branch (a jump, conditional or not, to an
/// address at or before it, within the kernel, whose region holds no `ret`:
/// a jump back to an exit block is no loop), the one whose body, from the
/// target to the branch, has the most instructions (the wide main loop:
/// tails are masked or copied to a stack block, so they add no loop of
/// their own; a loop nested in it is counted once and reported in
/// [`SuccessorLoop::nested`]). The elements per iteration come from the
/// loop's pointer steps (`add`/`sub`/`lea` of an immediate that is 1 to 16
/// times a list's stride, or a counter used as a scaled index: the largest
/// such count), else from the shape's expected width. A direct
/// call in the loop (a block kernel kept out of line) is replaced by the
/// callee's instructions, one level deep, since llvm-mca does not follow
/// calls.
pub fn successor_estimates() -> Result<Vec<SuccessorRow>, String> {
    llvm_mca_version().ok_or_else(|| format!("`{}` is not installed (or `--version` failed)", llvm_mca()))?;
    let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
    let exe = exe.to_str().ok_or("the executable's path is not UTF-8")?.to_owned();
    let table = crate::objdump::functions(&run(&objdump(), &["-t", "-C", &exe])?);
    let anchor = ("devkit::mca::estimates", std::hint::black_box(estimates as fn() -> _ as usize));
    let mut out = Vec::new();
    // A composite (the whole pose) runs other routines' kernels (its Avx2
    // form their pieces, fused): they are estimated as those routines.
    for r in roster::ROUTINES.iter().filter(|r| !r.is_composite()) {
        // The x86_64 SIMD successors (the portable one is plain Rust: on
        // x86_64 without FMA in the build, its `mul_add` is a call).
        let successors: Vec<FormInfo> =
            r.all_forms().filter(|f| f.origin == Origin::Successor && f.isa.arch() == Some("x86_64")).collect();
        if successors.is_empty() && r.is_id_routine() {
            out.push(SuccessorRow { routine: r.name, form: None, estimate: SuccessorEstimate::NotInBuild });
        }
        for form in successors {
            let estimate = match kernel_address(r, form.imp)
                .ok_or_else(|| format!("no {} kernel in the table", form.imp))
                .and_then(|addr| function_at(&table, anchor, r, addr))
            {
                Err(e) => SuccessorEstimate::Failed(e),
                Ok(f) => match successor_loop(&exe, &table, &f, r, form) {
                    Ok(l) => SuccessorEstimate::Estimated(Box::new(l)),
                    Err(e) => SuccessorEstimate::Failed(e),
                },
            };
            out.push(SuccessorRow { routine: r.name, form: Some(form), estimate });
        }
    }
    Ok(out)
}

/// The instructions of the function at `[start, start + size)` of `exe`.
pub(crate) fn disassemble_range(exe: &str, start: u64, size: u64) -> Result<Vec<Instr>, String> {
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
    r: &Routine,
    form: FormInfo,
) -> Result<SuccessorLoop, String> {
    let instrs = disassemble_range(exe, f.addr, f.size)?;
    // A backward jump whose region holds a `ret` is a jump back to an exit
    // block laid out before the loop, not a loop.
    let all: Vec<(usize, usize)> =
        loops(&instrs).into_iter().filter(|&(s, e)| !instrs[s..=e].iter().any(|i| i.text == "ret")).collect();
    // Of the loops that call a function of the binary (a block kernel kept
    // out of line), the one that steps over the most elements, the smallest
    // of those: the fast path, which the joint interpolators' paths for
    // repeated index entries (a group, then a block, then an entry at a
    // time) surround. Else the largest loop.
    let (strides, assumed) = steps(&r.shape, lanes(form.isa));
    let calls_block = |&&(s, e): &&(usize, usize)| {
        instrs[s..=e].iter().any(|i| i.call.is_some_and(|t| table.iter().any(|g| g.addr == t)))
    };
    let fast = |&&(s, e): &&(usize, usize)| (elements_from_steps(&instrs[s..=e], strides).unwrap_or(0), Reverse(e - s));
    let &(start, end) = match all.iter().filter(calls_block).max_by_key(fast) {
        Some(l) => l,
        None => all.iter().max_by_key(|&&(s, e)| e - s).ok_or_else(|| format!("`{}` has no loop", f.name))?,
    };
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
    let (cpus, (tool, version)) = if form.isa == animasm::Isa::Avx512 {
        (AVX512_CPUS, crate::mca_aarch64::newest_llvm_mca("LLVM_MCA_AVX512")?)
    } else {
        (SUCCESSOR_CPUS, (llvm_mca(), llvm_mca_version().unwrap_or_default()))
    };
    let mut cycles = [None, None];
    let mut mca_error = None;
    for (slot, cpu) in cycles.iter_mut().zip(cpus) {
        let estimate = mca_output_with(&tool, &source, cpu, &[]).and_then(|text| {
            parse_block_rthroughput(&text).ok_or_else(|| format!("no `Block RThroughput` in the output of `{tool}`"))
        });
        match estimate {
            Ok(c) => *slot = Some(c),
            Err(e) => mca_error = mca_error.or(Some(e)),
        }
    }
    let (elements_per_iteration, elements_source) = match elements_from_steps(own, strides) {
        Some(k) => (k as f64, "pointer steps"),
        None => (assumed, "assumed"),
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
        cpus,
        mca_version: version.into(),
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

#[cfg(test)]
mod tests {
    use super::*;

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
