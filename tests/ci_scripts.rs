//! The scripts that CI runs agree with the repository they test.
//!
//! `scripts/avx512_bochs.sh` runs the AVX-512 forms' tests in a Bochs guest
//! on a CPU without AVX-512. It names the test files it runs
//! (`default_tests=(...)`) and the ones it leaves out
//! (`not_in_guest=(...)`, each with its reason as a comment on its line). A test file added to `tests/` must be put in
//! one list or the other, so that a new test of the AVX-512 forms cannot be
//! left out of the guest by accident.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

/// The repository: this crate's manifest directory.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The entries of the bash array `name=( ... )` in `script` (the first
/// assignment whose line starts with `name=(`, after indentation), each with
/// the comment on its line (empty when it has none). The array may span
/// several lines and ends at the first `)` outside a comment.
fn bash_array(script: &str, name: &str) -> Vec<(String, String)> {
    let opening = format!("{name}=(");
    let mut lines = script.lines().skip_while(|l| !l.trim_start().starts_with(&opening));
    let first = lines.next().unwrap_or_else(|| panic!("no `{opening}` in the script"));
    let first = &first.trim_start()[opening.len()..];
    let mut out = Vec::new();
    for line in std::iter::once(first).chain(lines) {
        let (code, comment) = line.split_once('#').unwrap_or((line, ""));
        let (code, closed) = match code.split_once(')') {
            Some((before, _)) => (before, true),
            None => (code, false),
        };
        for word in code.split_whitespace() {
            out.push((word.to_string(), comment.trim().to_string()));
        }
        if closed {
            return out;
        }
    }
    panic!("`{opening}` is not closed in the script");
}

/// The test files of `tests/`, by name without `.rs`.
fn test_files() -> BTreeSet<String> {
    let dir = root().join("tests");
    fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "rs"))
        .map(|p| p.file_stem().expect("a file name").to_string_lossy().into_owned())
        .collect()
}

#[test]
fn every_test_file_runs_in_the_avx512_guest_or_says_why_not() {
    let path = root().join("scripts/avx512_bochs.sh");
    let script = fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let run = bash_array(&script, "default_tests");
    let left_out = bash_array(&script, "not_in_guest");
    let files = test_files();
    assert!(files.len() > 20, "only {} test files found: is this the repository?", files.len());

    let mut problems = Vec::new();
    let mut seen = BTreeSet::new();
    for (name, _) in run.iter().chain(&left_out) {
        if !files.contains(name) {
            problems.push(format!("`{name}` is named by the script but there is no tests/{name}.rs"));
        }
        if !seen.insert(name.clone()) {
            problems.push(format!("`{name}` is named twice by the script"));
        }
    }
    for (name, why) in &left_out {
        if why.is_empty() {
            problems.push(format!("`{name}` is left out of the guest without a reason (a comment on its line)"));
        }
    }
    for name in files.difference(&seen) {
        problems.push(format!(
            "tests/{name}.rs is neither run in the Bochs guest (`default_tests=(...)`) nor left out with a reason \
             (`not_in_guest=(...)`) in scripts/avx512_bochs.sh"
        ));
    }
    assert!(problems.is_empty(), "scripts/avx512_bochs.sh and tests/ disagree:\n{}", problems.join("\n"));
}

#[test]
fn bash_arrays_are_read_with_their_comments() {
    let script = "x=1\n  tests=(a b\n    c) # after\nnot_in_guest=(\n    d # why d\n    e\n)\n";
    let names = |v: Vec<(String, String)>| v.into_iter().map(|(n, _)| n).collect::<Vec<_>>();
    assert_eq!(names(bash_array(script, "tests")), ["a", "b", "c"]);
    assert_eq!(
        bash_array(script, "not_in_guest"),
        [("d".to_string(), "why d".to_string()), ("e".to_string(), String::new())]
    );
}
