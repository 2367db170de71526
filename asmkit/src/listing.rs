//! The listing files `asm_notes/<routine>.listing.s`: the parser that
//! `tests/disasm.rs` checks the asm kernels with and the reading room
//! (the `animasm-reading-room` crate) lays its pages out from.
//!
//! Format (see the header of each file): one instruction per line indented
//! by whitespace, labels alone on an unindented line (`loopJoint4:`), `//`
//! comment lines (the `TRANSPOSE_4x4( ... )` line is a comment followed by
//! the twelve instructions of the macro), trailing `//` comments, and the
//! markers `//@ rebuilt: <why>`, `//@ D<n> asm: <instr> ; <instr>` (or `-`)
//! in a trailing comment and `//@ D<n> insert: <instr>` on its own line.

use crate::objdump::{Instr, parse_instr};

/// The (indented) comment line that names an expanded macro: its next
/// [`MACRO_LEN`] instructions are the macro's.
pub const MACRO_PREFIX: &str = "// TRANSPOSE_4x4(";
/// The instructions of one `TRANSPOSE_4x4`.
pub const MACRO_LEN: usize = 12;

/// An instruction of the listing as printed.
#[derive(Clone, Debug)]
pub struct Original {
    /// 1-based line of the listing file.
    pub line: usize,
    /// The instruction, trimmed (no comment).
    pub text: String,
    /// What the disassembly test compares.
    pub instr: Instr,
    /// The trailing comment as printed (from `//`, markers included), or "".
    pub comment: String,
    /// The macro call this instruction expands (the comment line's text),
    /// and its position in the expansion (0..[`MACRO_LEN`]).
    pub macro_call: Option<(String, usize)>,
}

/// An instruction the port must contain, and where it comes from.
#[derive(Clone, Debug)]
pub struct Expected {
    /// 1-based line of the listing file.
    pub line: usize,
    /// The instruction as printed, or the own-line marker.
    pub source: String,
    /// The index into [`Listing::original`] it comes from (`None`: an
    /// inserted instruction).
    pub original: Option<usize>,
    /// What the disassembly test compares.
    pub instr: Instr,
}

/// One line of the listing that is not blank, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A label line (`loopJoint4:`).
    Label(String),
    /// A comment line (`// lerp first translations`), as printed.
    Comment(String),
    /// An instruction: the index into [`Listing::original`].
    Instr(usize),
    /// An own-line `//@ D<n> insert: <instr>` marker: (`D<n>`, the instructions).
    Insert(String, String),
}

/// A parsed listing file.
#[derive(Debug, Default)]
pub struct Listing {
    /// The paper's instructions, in order.
    pub original: Vec<Original>,
    /// Labels and the index into `original` of the instruction that follows.
    pub labels: Vec<(String, usize)>,
    /// The port's instructions: `original` with the `//@ D<n>` changes.
    pub expected: Vec<Expected>,
    /// Every `//@ D<n>` marker: (`D<n>`, line).
    pub deviations: Vec<(String, usize)>,
    /// Lines marked `//@ rebuilt`.
    pub rebuilt: Vec<usize>,
    /// Every non-blank line, in order.
    pub items: Vec<Item>,
}

/// `D<n>` followed by `kind:`; returns (`D<n>`, kind, rest).
pub fn parse_deviation(marker: &str) -> Option<(&str, &str, &str)> {
    let (id, rest) = marker.split_once(char::is_whitespace)?;
    let digits = id.strip_prefix('D')?;
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (kind, rest) = rest.trim_start().split_once(':')?;
    Some((id, kind.trim(), rest.trim()))
}

/// Instructions of a marker: `a ; b`, or `-` for none.
pub fn marker_instrs(text: &str, what: &str) -> Vec<Instr> {
    if text == "-" {
        return Vec::new();
    }
    text.split(';')
        .map(|s| {
            let s = s.trim();
            assert!(!s.is_empty(), "{what}: empty instruction in `{text}`");
            parse_instr(s)
        })
        .collect()
}

/// Is the line indented (a comment in the body, not the file's header)?
fn indented_line(raw: &str) -> bool {
    raw.starts_with([' ', '\t'])
}

fn is_label_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next().is_some_and(|f| f.is_ascii_alphabetic() || f == '_') && c.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Parses a listing file's text (`name` for messages). Panics on a line the
/// format does not allow.
pub fn parse_listing(name: &str, text: &str) -> Listing {
    let mut l = Listing::default();
    // The macro call being expanded, and how many of its instructions came.
    let mut pending_macro: Option<(String, usize)> = None;
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let at = format!("{name}:{line}");
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        if let Some(marker) = trimmed.strip_prefix("//@") {
            // Own-line marker: only `D<n> insert:`.
            match parse_deviation(marker.trim()) {
                Some((id, "insert", rest)) => {
                    for instr in marker_instrs(rest, &at) {
                        l.expected.push(Expected { line, source: trimmed.to_owned(), original: None, instr });
                    }
                    l.deviations.push((id.to_owned(), line));
                    l.items.push(Item::Insert(id.to_owned(), rest.to_owned()));
                }
                _ => panic!("{at}: a marker on its own line must be `//@ D<n> insert: <instr>`: `{trimmed}`"),
            }
            continue;
        }
        if trimmed.starts_with("//") {
            if trimmed.starts_with(MACRO_PREFIX) && indented_line(raw) {
                pending_macro = Some((trimmed.trim_start_matches("//").trim().to_owned(), 0));
            }
            l.items.push(Item::Comment(trimmed.to_owned()));
            continue;
        }
        let (code, comment) = match raw.find("//") {
            Some(p) => (&raw[..p], &raw[p..]),
            None => (raw, ""),
        };
        let code_trimmed = code.trim();
        let indented = raw.starts_with([' ', '\t']);
        if !indented {
            let label = code_trimmed.strip_suffix(':').filter(|n| is_label_name(n));
            let label = label.unwrap_or_else(|| panic!("{at}: an unindented line must be a label `name:`: `{raw}`"));
            assert!(!comment.contains("//@"), "{at}: markers go on instruction lines, not labels");
            l.labels.push((label.to_owned(), l.original.len()));
            l.items.push(Item::Label(label.to_owned()));
            continue;
        }
        assert!(!code_trimmed.ends_with(':'), "{at}: labels must not be indented: `{raw}`");
        let instr = parse_instr(code_trimmed);
        let macro_call = pending_macro.as_mut().map(|(call, n)| {
            *n += 1;
            (call.clone(), *n - 1)
        });
        if pending_macro.as_ref().is_some_and(|(_, n)| *n == MACRO_LEN) {
            pending_macro = None;
        }
        let index = l.original.len();
        l.items.push(Item::Instr(index));
        l.original.push(Original {
            line,
            text: code_trimmed.to_owned(),
            instr: instr.clone(),
            comment: comment.trim().to_owned(),
            macro_call,
        });
        let mut replacement: Option<Vec<Instr>> = None;
        for marker in comment.split("//@").skip(1) {
            let marker = marker.trim();
            if marker.starts_with("rebuilt:") {
                l.rebuilt.push(line);
            } else if let Some((id, "asm", rest)) = parse_deviation(marker) {
                assert!(replacement.is_none(), "{at}: two `asm:` markers on one line");
                replacement = Some(marker_instrs(rest, &at));
                l.deviations.push((id.to_owned(), line));
            } else {
                panic!("{at}: unknown trailing marker `//@ {marker}` (expected `rebuilt: ...` or `D<n> asm: ...`)");
            }
        }
        for instr in replacement.unwrap_or_else(|| vec![instr]) {
            l.expected.push(Expected { line, source: code_trimmed.to_owned(), original: Some(index), instr });
        }
    }
    l
}

impl Listing {
    /// `"total"`, or the instructions from `label:` up to and including the
    /// first jump to `label`.
    pub fn count(&self, block: &str) -> usize {
        if block == "total" {
            return self.original.len();
        }
        self.loop_range(block).len()
    }

    /// The indices into `original` from `label:` up to and including the
    /// first jump back to it. Panics if either is missing.
    pub fn loop_range(&self, block: &str) -> std::ops::Range<usize> {
        let start = self
            .labels
            .iter()
            .find(|(n, _)| n == block)
            .unwrap_or_else(|| panic!("no label `{block}:` in the listing"))
            .1;
        let end = self.original[start..]
            .iter()
            .position(|o| {
                let mut t = o.text.split_whitespace();
                t.next().is_some_and(|m| m.starts_with(['j', 'J'])) && t.next() == Some(block)
            })
            .unwrap_or_else(|| {
                let line = self.original.get(start).map_or(0, |o| o.line);
                panic!("no jump back to `{block}` after the label (first instruction at line {line})")
            });
        start..start + end + 1
    }
}

/// A line of the alignment of two sequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// `exp[i] == dis[j]`.
    Same(usize, usize),
    /// `exp[i]` missing from the disassembly.
    Missing(usize),
    /// `dis[j]` not in the listing.
    Extra(usize),
}

/// A longest-common-subsequence alignment of `exp` (a listing's
/// instructions) against `dis` (a disassembly, or the `asm!` lines): what
/// `tests/disasm.rs` prints on a mismatch and the reading room aligns rows by.
pub fn align(exp: &[Instr], dis: &[Instr]) -> Vec<Edit> {
    let (n, m) = (exp.len(), dis.len());
    let mut t = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            t[at(i, j)] = if exp[i] == dis[j] { t[at(i + 1, j + 1)] + 1 } else { t[at(i + 1, j)].max(t[at(i, j + 1)]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n || j < m {
        if i < n && j < m && exp[i] == dis[j] {
            out.push(Edit::Same(i, j));
            (i, j) = (i + 1, j + 1);
        } else if j < m && (i == n || t[at(i, j + 1)] >= t[at(i + 1, j)]) {
            out.push(Edit::Extra(j));
            j += 1;
        } else {
            out.push(Edit::Missing(i));
            i += 1;
        }
    }
    out
}
