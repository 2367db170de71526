//! Every public item of the testkit has a doc comment with a runnable
//! example: a scan of `src/*.rs` (every file, whoever writes it) for public
//! items whose doc comment lacks a fenced block that rustdoc runs.
//!
//! What counts as a public item: a line `pub fn`, `pub const fn`, `pub
//! unsafe fn`, `pub struct`, `pub enum`, `pub trait`, `pub type`, `pub const`,
//! `pub static` or `pub union`, at any indentation (methods included), outside
//! a `#[cfg(test)] mod` block. `pub(crate)` items, `pub mod`, `pub use` and
//! struct fields are not checked (a struct's example covers its fields).
//!
//! What counts as a runnable example: a ```` ``` ```` fence in the item's
//! `///` lines (attributes between them and the item are skipped) whose info
//! string is empty or only `rust`, `should_panic` or an edition: not `text`,
//! `ignore`, `no_run` or `compile_fail`.

use std::path::Path;

/// The kind and name of the public item a line declares, if it declares one.
fn public_item(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix("pub ")?;
    let mut words = rest.split(|c: char| c.is_whitespace() || c == '(' || c == '<' || c == ':' || c == ';' || c == '{');
    let mut words = words.by_ref().filter(|w| !w.is_empty());
    let mut kind = words.next()?;
    let mut name = words.next()?;
    // Qualifiers of a function: `const fn`, `unsafe fn`, `const unsafe fn`, `extern "C" fn`.
    while matches!(kind, "const" | "unsafe" | "async" | "extern")
        && (name == "fn" || name.starts_with('"') || matches!(name, "unsafe" | "extern"))
    {
        kind = name;
        name = words.next()?;
        if kind.starts_with('"') {
            kind = name;
            name = words.next()?;
        }
    }
    matches!(kind, "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" | "union")
        .then(|| format!("{kind} {name}"))
}

/// Whether a fence's info string (after the backticks) makes rustdoc run the block.
fn runnable(info: &str) -> bool {
    info.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .all(|t| matches!(t, "rust" | "should_panic" | "edition2015" | "edition2018" | "edition2021" | "edition2024"))
}

/// Whether the `///` lines just above line `at` (skipping attributes) hold a
/// runnable example.
fn has_example(lines: &[&str], at: usize) -> bool {
    let mut doc = Vec::new();
    let mut i = at;
    while i > 0 {
        i -= 1;
        let l = lines[i].trim();
        if let Some(text) = l.strip_prefix("///") {
            doc.push(text.trim());
        } else if l.starts_with("#[") {
            continue;
        } else if l.ends_with(")]") || l.ends_with(']') {
            // The last line of a multi-line attribute: back to its `#[`.
            while i > 0 && !lines[i].trim().starts_with("#[") {
                i -= 1;
            }
        } else {
            break;
        }
    }
    doc.reverse();
    let mut open = false;
    doc.iter().filter_map(|l| l.strip_prefix("```")).any(|info| {
        open = !open;
        open && runnable(info)
    })
}

/// The public items of one file's source that lack a runnable example, as
/// `"<file>:<line>: <kind> <name>"`.
fn missing_examples(file: &str, src: &str) -> Vec<String> {
    let lines: Vec<&str> = src.lines().collect();
    let mut out = Vec::new();
    let mut in_test_mod = false;
    for (n, line) in lines.iter().enumerate() {
        if in_test_mod {
            in_test_mod = *line != "}";
            continue;
        }
        if line.starts_with("mod ") && n > 0 && lines[n - 1].trim() == "#[cfg(test)]" {
            in_test_mod = !line.ends_with(';');
            continue;
        }
        if let Some(item) = public_item(line)
            && !has_example(&lines, n)
        {
            out.push(format!("{file}:{}: {item}", n + 1));
        }
    }
    out
}

/// Every `.rs` file under `dir`, recursively (modules in folders, such as
/// `check/`, included).
fn rust_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display())) {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out
}

/// [`missing_examples`] of every `.rs` file under `src/`.
fn missing_in(files: impl Fn(&str) -> bool) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = rust_files(&src);
    paths.sort();
    assert!(paths.len() >= 5, "only {} files in {}", paths.len(), src.display());
    assert!(paths.iter().any(|p| p.ends_with("check/report.rs")), "the scan misses src/check/report.rs");
    paths
        .iter()
        .filter(|p| files(p.file_name().and_then(|n| n.to_str()).unwrap_or_default()))
        .flat_map(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
            let rel = p.strip_prefix(&src).unwrap_or(p).display().to_string();
            missing_examples(&format!("src/{rel}"), &text)
        })
        .collect()
}

fn report(missing: &[String]) {
    assert!(
        missing.is_empty(),
        "{} public item(s) without a runnable example in their doc comment:\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[test]
fn every_public_item_of_the_testkit_has_a_runnable_example() {
    report(&missing_in(|_| true));
}

#[test]
fn the_scan_finds_what_it_should() {
    let src = r#"
/// Documented, with an example.
///
/// ```
/// assert!(true);
/// ```
pub fn good() {}

/// Documented, with a should_panic example behind an attribute.
///
/// ```should_panic
/// panic!();
/// ```
#[inline]
#[cfg_attr(
    docsrs,
    doc(cfg(feature = "x"))
)]
pub const fn also_good() {}

/// Documented, no example.
pub fn no_example() {}

pub struct Undocumented {
    /// A field: not checked.
    pub field: u32,
}

/// Only a text block and a no_run one.
///
/// ```text
/// 1 + 1
/// ```
///
/// ```no_run
/// loop {}
/// ```
pub const LIMIT: usize = 3;

/// An example whose closing fence is not mistaken for an opening one.
/// ```ignore
/// x
/// ```
pub unsafe fn ignored_only() {}

pub(crate) fn internal() {}

impl Undocumented {
    /// ```
    /// ```
    pub fn method(&self) {}

    pub fn bare_method(&self) {}
}

#[cfg(test)]
mod tests {
    pub fn helper() {}
}
"#;
    let found: Vec<String> =
        missing_examples("x.rs", src).into_iter().map(|m| m.split(": ").nth(1).unwrap().to_owned()).collect();
    assert_eq!(found, ["fn no_example", "struct Undocumented", "const LIMIT", "fn ignored_only", "fn bare_method"]);
}

/// The crates a user of the testkit has only through it: their paths in an
/// example must go through the testkit's re-exports.
const REEXPORTED: [&str; 4] = ["animasm", "proptest", "serde_json", "approx"];

/// The code lines of the fenced Rust blocks of `doc` (doc-comment or
/// Markdown text, one line each, comment markers stripped) that name one of
/// [`REEXPORTED`] directly (`animasm::...` rather than
/// `animasm_testkit::animasm::...`), as `"<line>: <code>"`. Text, TOML and
/// shell blocks are not code.
fn direct_paths(doc: &[(usize, &str)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<bool> = None; // Some(is Rust) inside a block
    for &(n, text) in doc {
        let t = text.trim();
        if let Some(info) = t.strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(info.split(',').map(str::trim).all(|w| {
                    w.is_empty()
                        || matches!(w, "rust" | "should_panic" | "no_run" | "ignore" | "compile_fail")
                        || w.starts_with("edition")
                })),
            };
            continue;
        }
        if fence != Some(true) {
            continue;
        }
        let code = t.strip_prefix("# ").unwrap_or(t);
        for krate in REEXPORTED {
            let pat = format!("{krate}::");
            let direct = code.match_indices(&pat).any(|(at, _)| {
                let before = &code[..at];
                !before.ends_with("animasm_testkit::")
                    && !before.ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':')
            });
            if direct
                || code.starts_with(&format!("use {krate};"))
                || code.starts_with(&format!("extern crate {krate}"))
            {
                out.push(format!("{n}: {code}"));
                break;
            }
        }
    }
    out
}

/// The doc-comment lines (`///`, `//!`) of a source file, markers stripped.
fn doc_lines(src: &str) -> Vec<(usize, &str)> {
    src.lines()
        .enumerate()
        .filter_map(|(n, l)| {
            let l = l.trim_start();
            l.strip_prefix("///").or_else(|| l.strip_prefix("//!")).map(|t| (n + 1, t.strip_prefix(' ').unwrap_or(t)))
        })
        .collect()
}

/// Every example in the testkit's docs and README compiles in a crate whose
/// only dependency is the testkit: none names animasm, proptest or
/// serde_json but through `animasm_testkit::` (rustdoc compiles the
/// doctests with every dependency of the testkit in scope, so it would not
/// see a `use animasm::Quat;`; `scripts/testkit-user.sh` builds such a crate).
#[test]
fn every_example_names_only_the_testkit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = rust_files(&root.join("src"));
    paths.sort();
    let mut bad = Vec::new();
    for p in &paths {
        let text = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()));
        let rel = p.strip_prefix(root).unwrap_or(p).display().to_string();
        bad.extend(direct_paths(&doc_lines(&text)).into_iter().map(|m| format!("{rel}:{m}")));
    }
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let lines: Vec<(usize, &str)> = readme.lines().enumerate().map(|(n, l)| (n + 1, l)).collect();
    bad.extend(direct_paths(&lines).into_iter().map(|m| format!("README.md:{m}")));
    assert!(
        bad.is_empty(),
        "{} example line(s) name a dependency of the testkit directly (write `animasm_testkit::animasm::...` or \
         `use animasm_testkit::animasm;`):\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn the_path_scan_finds_what_it_should() {
    let src = r#"
//! ```
//! use animasm::Quat;
//! use animasm_testkit::animasm::Impl;
//! let q = animasm_testkit::animasm::Quat::IDENTITY;
//! # use proptest::prelude::*;
//! let x = my_animasm::thing();
//! use animasm;
//! ```
//!
//! ```text
//! animasm::Quat in prose
//! ```
//! Prose that says animasm::Quat.
/// ```toml
/// animasm = "1"
/// ```
/// ```should_panic
/// let j = serde_json::json!(1);
/// ```
"#;
    let found: Vec<String> =
        direct_paths(&doc_lines(src)).into_iter().map(|m| m.split(": ").nth(1).unwrap().to_owned()).collect();
    assert_eq!(
        found,
        ["use animasm::Quat;", "use proptest::prelude::*;", "use animasm;", "let j = serde_json::json!(1);"]
    );
}
