//! The aarch64 disassembly, its loops and llvm-mca's view of them (used by
//! [`super::estimates`] on aarch64; tested on every host): split out of
//! `mca_aarch64`, whose items it sees through `use super::*`.

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
    let branch = mnemonic == "b" || mnemonic.starts_with("b.") || ["cbz", "cbnz", "tbz", "tbnz"].contains(&&*mnemonic);
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
