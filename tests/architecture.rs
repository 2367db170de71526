//! The invariants of `ARCHITECTURE.md` that a test can check, read from the
//! source:
//!
//! - every top-level module of `src/` is in one layer of [`LAYERS`], and
//!   imports (`crate::<module>` paths, `use crate::{..}` groups) go only to
//!   lower layers: no module imports one of the layers above it or beside
//!   it (so the routines never import each other, and there is no import
//!   circle); the composites (`pose`) are the one layer that imports
//!   routines;
//! - no target architecture is named for an instruction set outside
//!   `src/isa.rs` (`cfg!(target_arch = ..)` as a value: the `#[cfg]`s that
//!   compile a kernel for its target are attributes, not checked here).
//!
//! Comments and string literals are left out of the reading, so a doc link
//! to a higher layer is no import.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The layers of `src/`, bottom up: a module may import the modules of the
/// layers below its own only.
const LAYERS: &[(&str, &[&str])] = &[
    ("ground: data layouts, instruction sets, the listings' constants", &["types", "isa", "consts"]),
    ("what a form is; shared arithmetic", &["form", "math", "portable", "blocks"]),
    ("the one error", &["error"]),
    ("selection", &["dispatch"]),
    ("shared pieces", &["x86", "aarch64", "wasm32", "joint_args", "skeleton_args"]),
    (
        "routines",
        &[
            "slerp_joints",
            "lerp_joints",
            "quats_to_mats",
            "mats_to_quats",
            "transform_joints",
            "transform_skeleton",
            "untransform_skeleton",
            "slerp_quats",
            "nlerp",
        ],
    ),
    ("composites", &["pose"]),
    ("the list of routines, conveniences", &["roster", "skeleton", "interop"]),
];

/// The crate root's re-exports that code may name as `crate::<Name>`, with
/// the module each comes from.
const REEXPORTS: &[(&str, &str)] = &[
    ("Error", "error"),
    ("Impl", "form"),
    ("Origin", "form"),
    ("Isa", "isa"),
    ("Quat", "types"),
    ("Vec4", "types"),
    ("JointQuat", "types"),
    ("JointMat", "types"),
    ("slerp_pose", "pose"),
    ("lerp_pose", "pose"),
    ("slerp_joints", "slerp_joints"),
    ("lerp_joints", "lerp_joints"),
    ("Skeleton", "skeleton"),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, mods)| mods.contains(&module))
}

/// The source without comments, string and character literals (each
/// replaced by a space), so that only code is read.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
            }
            b'r' if b.get(i + 1) == Some(&b'"') || (b.get(i + 1) == Some(&b'#') && b.get(i + 2) == Some(&b'"')) => {
                // A raw string: r"..." or r#"..."# (asm! text).
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
                i += 2 + hashes;
                while i < b.len() && !b[i..].starts_with(&close) {
                    i += 1;
                }
                i += close.len();
                out.push(' ');
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                out.push(' ');
            }
            b'\'' if b.get(i + 2) == Some(&b'\'') || (b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'')) => {
                // A character literal ('"', '\n'), not a lifetime.
                i += if b[i + 1] == b'\\' { 4 } else { 3 };
                out.push(' ');
            }
            c => {
                out.push(c as char);
                i += 1;
            }
        }
    }
    out
}

/// The crate-level names a file's code reaches: `crate::x` paths and the
/// top-level names of `use crate::{x, y::z}` groups.
fn crate_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        // Not the tail of another path (`$crate::` is the macros' crate).
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut item = String::new();
            let mut first = true;
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        first = true;
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                if depth == 0 && first {
                    if c.is_alphanumeric() || c == '_' {
                        item.push(c);
                    } else if !item.is_empty() {
                        names.push(item.clone());
                        first = false;
                    }
                }
            }
            if first && !item.is_empty() {
                names.push(item);
            }
        } else {
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            names.push(name);
        }
    }
    names
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Each file of `src/` but the crate root, by its top-level module.
fn files_by_module() -> BTreeMap<String, Vec<(PathBuf, String)>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let mut by = BTreeMap::<String, Vec<(PathBuf, String)>>::new();
    for path in files {
        let rel = path.strip_prefix(src()).unwrap();
        let top = rel.iter().next().unwrap().to_string_lossy().trim_end_matches(".rs").to_string();
        if top == "lib" {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        by.entry(top).or_default().push((path, code_only(&text)));
    }
    by
}

#[test]
fn every_module_is_in_one_layer() {
    let all: Vec<&str> = LAYERS.iter().flat_map(|(_, m)| m.iter().copied()).collect();
    for (i, m) in all.iter().enumerate() {
        assert!(!all[..i].contains(m), "{m} is in two layers");
    }
    let lib = code_only(&fs::read_to_string(src().join("lib.rs")).unwrap());
    let declared: Vec<String> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ").or(l.trim().strip_prefix("mod ")))
        .map(|m| m.trim_end_matches(';').trim().to_string())
        .collect();
    assert!(declared.len() >= 20, "read the modules of lib.rs: {declared:?}");
    for m in &declared {
        assert!(layer_of(m).is_some(), "src/{m}: a module in no layer of tests/architecture.rs (and ARCHITECTURE.md)");
    }
}

#[test]
fn imports_go_down_only() {
    let mut bad = Vec::new();
    let mut edges = 0;
    for (module, files) in files_by_module() {
        let Some(own) = layer_of(&module) else { continue };
        for (path, code) in files {
            for name in crate_names(&code) {
                let target = REEXPORTS.iter().find(|r| r.0 == name).map_or(name.as_str(), |r| r.1);
                if target == module {
                    continue;
                }
                let Some(layer) = layer_of(target) else {
                    bad.push(format!("{}: crate::{name} is in no layer", path.display()));
                    continue;
                };
                edges += 1;
                if layer >= own {
                    bad.push(format!(
                        "{}: `{module}` ({}) imports `{target}` ({})",
                        path.display(),
                        LAYERS[own].0,
                        LAYERS[layer].0
                    ));
                }
            }
        }
    }
    assert!(edges > 100, "the reading found only {edges} imports");
    assert!(bad.is_empty(), "imports that do not go down:\n{}", bad.join("\n"));
}

#[test]
fn only_the_isa_module_names_a_target_for_an_instruction_set() {
    let mut bad = Vec::new();
    for (module, files) in files_by_module() {
        for (path, code) in files {
            if module == "isa" {
                continue;
            }
            // `cfg!(...target_arch...)` as a value decides at run time what
            // a build is for: that is the instruction set module's job.
            let mut rest = code.as_str();
            while let Some(at) = rest.find("cfg!(") {
                let args: String = rest[at..].chars().take_while(|&c| c != ')').collect();
                if args.contains("target_arch") {
                    bad.push(format!("{}: {args})", path.display()));
                }
                rest = &rest[at + 5..];
            }
        }
    }
    assert!(bad.is_empty(), "`cfg!(target_arch)` outside src/isa.rs:\n{}", bad.join("\n"));
}

#[test]
fn the_reader_reads() {
    let code = code_only(
        "use crate::{a::{b, c}, d}; // crate::e\nlet s = \"crate::f\"; crate::g::h(); $crate::i; r#\"crate::j\"#",
    );
    assert_eq!(crate_names(&code), ["a", "d", "g"]);
}
