//! Reading the port's source files: the `asm!` template lines of a kernel,
//! the instruction comments of its intrinsics twin, and line ranges of the
//! C port. Text only: nothing here knows about HTML.

/// One line of source text and its 1-based line number.
#[derive(Clone, Debug, PartialEq)]
pub struct SrcLine {
    pub line: usize,
    pub text: String,
}

/// The instructions `transpose_4x4_text!(regs[0], .., regs[4])` expands to,
/// read from the macro itself in `src/x86/shuffle.rs` (`shuffle_rs`, its
/// text): the string literals and `$rN` of its `concat!`, substituted and
/// split at the `\n`s.
pub fn transpose_lines(shuffle_rs: &str, regs: &[&str]) -> Result<Vec<String>, String> {
    let start = shuffle_rs
        .find("macro_rules! transpose_4x4_text")
        .ok_or("src/x86/shuffle.rs: no `macro_rules! transpose_4x4_text`")?;
    let body = &shuffle_rs[start..];
    let body = &body[body.find("concat!(").ok_or("transpose_4x4_text: no `concat!(`")? + "concat!(".len()..];
    let mut text = String::new();
    for line in body.lines().skip(1).take_while(|l| l.trim() != ")") {
        let item = line.split("//").next().unwrap_or("").trim().trim_end_matches(',');
        if let Some(n) = item.strip_prefix("$r") {
            let k: usize = n.parse().map_err(|_| format!("transpose_4x4_text: bad `{item}`"))?;
            text.push_str(regs.get(k).ok_or(format!("transpose_4x4_text: no register {k}"))?);
        } else if let Some(lit) = string_literal(item) {
            text.push_str(&lit.replace("\\n", "\n"));
        }
    }
    let lines: Vec<String> = text.lines().map(str::trim).filter(|l| !l.is_empty()).map(str::to_owned).collect();
    if lines.len() != 12 {
        return Err(format!("transpose_4x4_text expands to {} instructions, not 12", lines.len()));
    }
    Ok(lines)
}

/// The first string literal of a line (`"..."`), unescaped enough for
/// display (no `\"` appears in the templates).
fn string_literal(line: &str) -> Option<&str> {
    let start = line.find('"')? + 1;
    let len = line[start..].find('"')?;
    Some(&line[start..start + len])
}

/// The text of a one-line `concat!(` (after the parenthesis): its string
/// literals and macro variables (`$nr_dest`) in order, up to the closing
/// parenthesis.
fn concat_text(args: &str) -> String {
    let mut out = String::new();
    let mut rest = args;
    loop {
        rest = rest.trim_start_matches([' ', ',']);
        if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"').unwrap_or(r.len());
            out.push_str(&r[..end]);
            rest = r.get(end + 1..).unwrap_or("");
        } else if rest.starts_with('$') {
            let end = rest.find([',', ')', ' ']).unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            return out;
        }
    }
}

/// Is an `asm!` template line a label (`2: // loopCopy`)?
fn is_label(template: &str) -> bool {
    let t = template.trim();
    t.split_once(':').is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The instructions of the first `asm!(` after the line containing `anchor`
/// in `text` (`file` for messages): each template string (its in-string
/// `// comment` removed) and its line, `transpose_4x4_text!` expanded to its
/// twelve lines (each with the macro's line), labels left out. Fails if
/// the anchor or the block is missing.
pub fn asm_lines(file: &str, text: &str, anchor: &str, shuffle_rs: &str) -> Result<Vec<SrcLine>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains(anchor)).ok_or(format!("{file}: no line contains `{anchor}`"))?;
    let open = (at..lines.len())
        .find(|&i| lines[i].trim_start().starts_with("asm!("))
        .ok_or(format!("{file}: no `asm!(` after `{anchor}`"))?;
    let mut out = Vec::new();
    for (k, raw) in lines.iter().enumerate().skip(open + 1) {
        let t = raw.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        if let Some(args) = t.split_once("transpose_4x4_text!(").map(|(_, a)| a) {
            let regs: Vec<&str> = args.split('"').skip(1).step_by(2).collect();
            if regs.len() != 5 {
                return Err(format!("{file}:{}: transpose_4x4_text! needs 5 registers: `{t}`", k + 1));
            }
            for text in transpose_lines(shuffle_rs, &regs)? {
                out.push(SrcLine { line: k + 1, text });
            }
            continue;
        }
        let concat = t.strip_prefix("concat!(").map(concat_text);
        if !t.starts_with('"') && concat.is_none() {
            break; // the operands follow the template
        }
        let s = match &concat {
            Some(s) => s.as_str(),
            None => string_literal(t).ok_or(format!("{file}:{}: unterminated string", k + 1))?,
        };
        if is_label(s) {
            continue;
        }
        let code = s.split("//").next().unwrap_or("").trim();
        if !code.is_empty() {
            out.push(SrcLine { line: k + 1, text: code.to_owned() });
        }
    }
    if out.is_empty() {
        return Err(format!("{file}: the `asm!` block after `{anchor}` has no instruction"));
    }
    Ok(out)
}

/// A trailing comment of the intrinsics twin that may name a listing
/// instruction.
#[derive(Clone, Debug, PartialEq)]
pub struct Cand {
    /// The file, relative to the workspace.
    pub file: String,
    pub line: usize,
    /// One instruction of the comment (comments split at `;`).
    pub text: String,
    /// The line's code (before the comment).
    pub code: String,
}

/// The instruction comments of the intrinsics twin: from the line
/// containing `anchor` to the end of that function (the next `}` at column
/// 0), every `// ...` comment split at `;` into candidates. A line whose
/// code calls one of `calls` (`(pattern, that function's candidates)`, e.g.
/// the shared `slerp4(`) has the callee's candidates spliced in. A
/// candidate is only a candidate: the alignment keeps those that name a
/// listing instruction.
pub fn intrinsics_candidates(
    file: &str,
    text: &str,
    anchor: &str,
    calls: &[(&str, Vec<Cand>)],
) -> Result<Vec<Cand>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| l.contains(anchor)).ok_or(format!("{file}: no line contains `{anchor}`"))?;
    let mut out = Vec::new();
    for (k, raw) in lines.iter().enumerate().skip(at) {
        if k > at && raw.starts_with('}') {
            break;
        }
        let p = raw.find("//").unwrap_or(raw.len());
        let code = raw[..p].trim();
        if k > at {
            for (pattern, cands) in calls {
                if code.contains(pattern) {
                    out.extend(cands.iter().cloned());
                }
            }
        }
        if p == raw.len() {
            continue;
        }
        for part in raw[p..].trim_start_matches('/').split(';') {
            let part = part.trim().trim_start_matches('/').trim();
            if !part.is_empty() {
                out.push(Cand { file: file.to_owned(), line: k + 1, text: part.to_owned(), code: code.to_owned() });
            }
        }
    }
    Ok(out)
}

/// An instruction's text for comparison: lower case, the mnemonic, one
/// space, the operands with every space removed.
pub fn normalize(instr: &str) -> String {
    let t = instr.trim().to_ascii_lowercase();
    match t.split_once(char::is_whitespace) {
        Some((m, ops)) => format!("{m} {}", ops.split_whitespace().collect::<String>()),
        None => t,
    }
}

/// Does the candidate (normalized) start with the instruction (normalized),
/// ending at a word boundary?
/// Also true when the candidate names the instruction in parentheses after
/// the port's (`movsxd rdx, [edi+eax]  (mov edx, [edi+eax])`).
pub fn same_instruction(candidate: &str, instr: &str) -> bool {
    let boundary = |rest: &str| !rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    candidate.strip_prefix(instr).is_some_and(boundary) || squeeze(candidate).contains(&format!("({})", squeeze(instr)))
}

/// The line range (1-based, inclusive) of `text` from the first line
/// containing `start` to the next line after it that starts with `end`.
pub fn range(file: &str, text: &str, start: &str, end: &str) -> Result<(usize, usize), String> {
    let lines: Vec<&str> = text.lines().collect();
    let a = lines
        .iter()
        .position(|l| l.contains(start))
        .ok_or(format!("{file}: no line contains `{start}` (the reading room's scalar table needs updating)"))?;
    let b = (a..lines.len())
        .find(|&i| i > a && lines[i].starts_with(end))
        .ok_or(format!("{file}: no line starting with `{end}` after line {} (`{start}`)", a + 1))?;
    Ok((a + 1, b + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn asm_template_lines() {
        let src = "fn k() {\n    asm!(\n        \"2: // loopA\",\n        \"movaps xmm0, xmm1 // x\",\n        // c\n        crate::x86::shuffle::transpose_4x4_text!(\"xmm0\", \"xmm1\", \"xmm2\", \"xmm3\", \"xmm7\"),\n        \"jl 2b\",\n        s = in(reg) 0,\n    );\n}\n";
        let shuffle = include_str!("../../src/x86/shuffle.rs");
        let l = asm_lines("t", src, "fn k(", shuffle).unwrap();
        assert_eq!(l.len(), 14);
        assert_eq!(l[0], SrcLine { line: 4, text: "movaps xmm0, xmm1".into() });
        assert_eq!(l[1], SrcLine { line: 6, text: "movaps xmm7, xmm2".into() });
        assert_eq!(l[12].text, "shufps xmm3, xmm7, {t2323}");
        assert_eq!(l[13], SrcLine { line: 7, text: "jl 2b".into() });
        // The macro's expansion as the listings print TRANSPOSE_4x4.
        let t = transpose_lines(shuffle, &["xmm0", "xmm1", "xmm2", "xmm3", "xmm7"]).unwrap();
        assert_eq!(t[0], "movaps xmm7, xmm2");
        assert_eq!(t[7], "shufps xmm0, xmm2, {t0101}");
        assert!(transpose_lines("fn nothing() {}", &[]).is_err());
        assert_eq!(concat_text("\"vmulps \", $nr_dest, \", ymm0, ymm1\"), // c"), "vmulps $nr_dest, ymm0, ymm1");
    }

    #[test]
    fn normalizing_and_matching() {
        assert_eq!(normalize("mov    ecx, [edx + eax]"), "mov ecx,[edx+eax]");
        assert!(same_instruction(&normalize("jl   done (signed)"), &normalize("jl done")));
        assert!(!same_instruction(&normalize("jz done1"), &normalize("jz done")));
        let callee = intrinsics_candidates("h", "fn h() {\n    x(); // addps xmm0, xmm1\n}\n", "fn h", &[]).unwrap();
        let src = "unsafe fn kernel() {\n    a(); // mov eax, n ; shl eax, 2\n    h();\n}\n";
        let c = intrinsics_candidates("t", src, "fn kernel", &[("h(", callee)]).unwrap();
        let t: Vec<&str> = c.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(t, ["mov eax, n", "shl eax, 2", "addps xmm0, xmm1"]);
        assert_eq!((c[2].file.as_str(), c[2].line), ("h", 2));
        assert_eq!(range("t", "a\nfn x() {\n  y\n}\n", "fn x", "}"), Ok((2, 4)));
        assert!(range("t", "a\n", "fn x", "}").is_err());
    }
}
