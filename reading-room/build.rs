//! Lists `src/tables/` (every file but `mod.rs` is one page's table) into
//! `$OUT_DIR/tables.rs`: a module per file and `SPECS`, every table.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it")).join("src/tables");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut stems: Vec<String> = std::fs::read_dir(&dir)
        .expect("src/tables/")
        .map(|e| e.expect("a directory entry").file_name().to_string_lossy().into_owned())
        .filter_map(|n| n.strip_suffix(".rs").map(str::to_owned))
        .filter(|s| s != "mod")
        .collect();
    stems.sort();
    let mut out = String::new();
    for s in &stems {
        let path = dir.join(format!("{s}.rs"));
        let _ = writeln!(out, "#[path = {:?}]\nmod {s};", path.display().to_string());
    }
    let _ = writeln!(out, "/// Every page's table (by file name).\npub static SPECS: &[&PageSpec] = &[");
    for s in &stems {
        let _ = writeln!(out, "    &{s}::SPEC,");
    }
    out.push_str("];\n");
    let dest = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets it")).join("tables.rs");
    std::fs::write(&dest, out).expect("writing $OUT_DIR/tables.rs");
}
