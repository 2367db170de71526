//! GNU `objdump` as the disassembly tests see it: run it on a binary, find a
//! function's address range in the symbol table (`-t -C`), disassemble that
//! range (`-d -M intel`) and parse each instruction into what the tests
//! compare: the mnemonic (`jz`/`je` and `jnz`/`jne` unified) and the xmm
//! register numbers in operand order ([`Instr`]). `tests/disasm.rs` checks
//! the asm kernels against their listings with it.
//!
//! `objdump` (GNU binutils) is required; the environment variable `OBJDUMP`
//! names another binary. Without it, [`run_objdump`] panics with a message
//! that says how to install it.

use std::fmt;
use std::process::Command;

/// What the tests compare of an instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// Lower case, `jz` -> `je`, `jnz` -> `jne`.
    pub mnemonic: String,
    /// The xmm register numbers in operand order.
    pub xmm: Vec<u8>,
}

impl fmt::Display for Instr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.mnemonic)?;
        for (i, r) in self.xmm.iter().enumerate() {
            write!(f, "{}xmm{r}", if i == 0 { " " } else { "," })?;
        }
        Ok(())
    }
}

/// A mnemonic in lower case, with `jz` as `je` and `jnz` as `jne`.
pub fn normalize_mnemonic(m: &str) -> String {
    let m = m.to_ascii_lowercase();
    match m.as_str() {
        "jz" => "je".to_owned(),
        "jnz" => "jne".to_owned(),
        _ => m,
    }
}

/// The xmm register numbers named in `operands`, in order.
pub fn xmm_numbers(operands: &str) -> Vec<u8> {
    let lower = operands.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(k) = lower[i..].find("xmm") {
        let start = i + k;
        let mut end = start + 3;
        while end < b.len() && b[end].is_ascii_digit() {
            end += 1;
        }
        let preceded_by_ident = start > 0 && (b[start - 1].is_ascii_alphanumeric() || b[start - 1] == b'_');
        if end > start + 3 && !preceded_by_ident {
            out.push(lower[start + 3..end].parse().expect("xmm register number"));
        }
        i = end;
    }
    out
}

/// An instruction in a listing's syntax (`movaps xmm0, [esi+ecx]`).
pub fn parse_instr(code: &str) -> Instr {
    let code = code.trim();
    let (m, ops) = code.split_once(char::is_whitespace).unwrap_or((code, ""));
    Instr { mnemonic: normalize_mnemonic(m), xmm: xmm_numbers(ops) }
}

/// The objdump binary: `$OBJDUMP`, else `objdump`.
pub fn objdump() -> String {
    std::env::var("OBJDUMP").unwrap_or_else(|_| "objdump".to_owned())
}

/// Runs objdump with `args` and returns its output; panics (with how to
/// install it) when it is missing, and when it fails.
pub fn run_objdump(args: &[String]) -> String {
    let tool = objdump();
    let out = match Command::new(&tool).args(args).output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => panic!(
            "`{tool}` not found: tests/disasm.rs needs GNU objdump to check the asm kernels against \
             their listings. Install binutils (Debian/Ubuntu: `apt-get install binutils`) or set \
             OBJDUMP to an objdump binary. This test does not pass without it."
        ),
        Err(e) => panic!("running `{tool}`: {e}"),
    };
    assert!(
        out.status.success(),
        "`{tool} {}` failed: {}\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A demangled name without the legacy hash (`::h0123456789abcdef`) and the
/// v0 crate disambiguators (`animasm[1a2b3c]`).
pub fn normalize_symbol(name: &str) -> String {
    let name = name.trim();
    let name = match name.rfind("::h") {
        Some(p) if name.len() - p == 19 && name[p + 3..].bytes().all(|c| c.is_ascii_hexdigit()) => &name[..p],
        _ => name,
    };
    let mut out = String::with_capacity(name.len());
    let mut depth = 0;
    for c in name.chars() {
        match c {
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// (start, size) of the function `symbol` (demangled, as
/// [`normalize_symbol`] gives it) in `exe`, from `objdump -t -C`. Panics
/// unless it is defined exactly once.
pub fn find_function(exe: &str, symbol: &str) -> (u64, u64) {
    let table = run_objdump(&["-t".into(), "-C".into(), exe.into()]);
    let mut found: Vec<(u64, u64)> = Vec::new();
    for line in table.lines() {
        // `0000000000012340 g     F .text\t0000000000000567              name`
        let Some((left, right)) = line.split_once('\t') else { continue };
        let mut lt = left.split_whitespace();
        let Some(addr) = lt.next().and_then(|a| u64::from_str_radix(a, 16).ok()) else { continue };
        if !left.split_whitespace().any(|f| f == "F") {
            continue;
        }
        let right = right.trim_start();
        let Some((size, name)) = right.split_once(char::is_whitespace) else { continue };
        let Ok(size) = u64::from_str_radix(size, 16) else { continue };
        let name = name.trim();
        let name = name.strip_prefix(".hidden ").unwrap_or(name);
        if normalize_symbol(name) == symbol && size > 0 && !found.contains(&(addr, size)) {
            found.push((addr, size));
        }
    }
    match found.as_slice() {
        [one] => *one,
        [] => panic!("`{symbol}` is not in the symbol table of {exe} (is the binary stripped?)"),
        many => panic!("`{symbol}` is defined {} times in {exe}: {many:x?}", many.len()),
    }
}

/// An instruction of the disassembly.
#[derive(Clone, Debug)]
pub struct Disasm {
    /// Its address.
    pub addr: u64,
    /// objdump's text of it, without the `# ...` comment.
    pub text: String,
    /// What is compared of it.
    pub instr: Instr,
}

/// Instruction prefixes objdump prints before the mnemonic.
const PREFIXES: &[&str] = &[
    "lock", "rep", "repe", "repz", "repne", "repnz", "data16", "data32", "addr32", "cs", "ds", "es", "ss", "fs", "gs",
    "bnd", "notrack", "rex", "rex.w", "rex.b", "rex.x", "rex.r", "rex.wb", "rex.wr", "rex.wx", "rex.rb", "rex.wrb",
    "rex.wxb", "rex.wrx", "rex.wrxb", "rex.rx", "rex.rxb", "rex.xb",
];

/// `text` without objdump's `<symbol+off>` annotations of branch and call
/// targets.
pub fn strip_symbols(text: &str) -> String {
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
    clean
}

/// Parses one line of `objdump -d -M intel --no-show-raw-insn`
/// (`  4a2b3:\tmovaps xmm0,XMMWORD PTR [rip+0x1234]        # 4b000 <sym>`);
/// `None` for lines that are no instruction.
pub fn parse_objdump_line(line: &str) -> Option<Disasm> {
    let (addr, rest) = line.split_once(":\t")?;
    let addr = u64::from_str_radix(addr.trim(), 16).ok()?;
    let text = rest.split('#').next().unwrap_or("").trim();
    if text.is_empty() {
        return None;
    }
    let clean = strip_symbols(text);
    let mut tokens = clean.split_whitespace().peekable();
    while tokens.peek().is_some_and(|t| PREFIXES.contains(&t.to_ascii_lowercase().as_str())) {
        tokens.next();
    }
    let mnemonic = tokens.next()?;
    let operands: Vec<&str> = tokens.collect();
    Some(Disasm {
        addr,
        text: text.to_owned(),
        instr: Instr { mnemonic: normalize_mnemonic(mnemonic), xmm: xmm_numbers(&operands.join(" ")) },
    })
}

/// The instructions of the function `symbol` in the binary `exe`.
pub fn disassemble_in(exe: &str, symbol: &str) -> Vec<Disasm> {
    let (start, size) = find_function(exe, symbol);
    let out = run_objdump(&[
        "-d".into(),
        "-M".into(),
        "intel".into(),
        "--no-show-raw-insn".into(),
        "-C".into(),
        format!("--start-address={start:#x}"),
        format!("--stop-address={:#x}", start + size),
        exe.to_owned(),
    ]);
    let instrs: Vec<Disasm> = out.lines().filter_map(parse_objdump_line).collect();
    assert!(!instrs.is_empty(), "objdump printed no instructions for `{symbol}` at {start:#x}:\n{out}");
    instrs
}

/// The instructions of the function `symbol` in the running binary.
pub fn disassemble(symbol: &str) -> Vec<Disasm> {
    let exe = std::env::current_exe().expect("current_exe");
    disassemble_in(exe.to_str().expect("UTF-8 path"), symbol)
}

/// A function of a binary's symbol table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its address in the file (before any load bias).
    pub addr: u64,
    /// Its size in bytes.
    pub size: u64,
    /// Its demangled name, as [`normalize_symbol`] gives it.
    pub name: String,
}

/// Runs objdump with `args`: its output, or why it could not be run (for
/// callers that report instead of panicking, such as the report).
pub fn try_run_objdump(args: &[&str]) -> Result<String, String> {
    let tool = objdump();
    let out = Command::new(&tool).args(args).output().map_err(|e| format!("running `{tool}`: {e}"))?;
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

/// Every function (`F` symbol of non-zero size) of an `objdump -t -C` table,
/// with its name normalised ([`normalize_symbol`]).
pub fn functions(table: &str) -> Vec<Function> {
    let mut out: Vec<Function> = Vec::new();
    for line in table.lines() {
        // `0000000000012340 g     F .text\t0000000000000567              name`
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
        let f = Function { addr, size, name: normalize_symbol(name.strip_prefix(".hidden ").unwrap_or(name)) };
        if size > 0 && !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// The functions of `table` (from [`functions`]) that start at the file
/// address of the running function `runtime`, given a function `anchor` of
/// the same binary (its demangled name and its runtime address): the load
/// bias of a position-independent executable is `anchor`'s runtime address
/// minus its address in the file. Several names may share an address
/// (aliases). `Err` when `anchor` is not in the table exactly once.
pub fn functions_at(table: &[Function], anchor: (&str, usize), runtime: usize) -> Result<Vec<Function>, String> {
    let found: Vec<&Function> = table.iter().filter(|f| f.name == anchor.0).collect();
    let [a] = found.as_slice() else {
        return Err(format!("`{}` is in the symbol table {} times, not once", anchor.0, found.len()));
    };
    let bias = (anchor.1 as u64).wrapping_sub(a.addr);
    let addr = (runtime as u64).wrapping_sub(bias);
    Ok(table.iter().filter(|f| f.addr == addr).cloned().collect())
}
