//! The reading room: animasm's report as a static HTML site in
//! the report's output directory (`<target>/animasm-report/`,
//! `devkit::paths::report_dir`), rendered by this crate's binary
//! (`cargo run --release -p animasm-reading-room`) from what `cargo run
//! --release --example report -- --html` left there
//! (`devkit::site_input`: the report's text and this run's measurements,
//! `site_input.json`). The report does not depend on this crate, so the
//! library's tests build no site generator.
//!
//! - `index.html`: the report's text (its pipe tables as HTML tables), this
//!   CPU, the SVG plots, the errata index of every routine, links to the
//!   pages;
//! - one page per routine (`slerp_joints.html`, ...; the transform_skeleton
//!   page also has the `movss` + `shufps` variant's listing, and `nlerp.html`
//!   has the notes' errata and the measurements: nlerp has no listing): the
//!   listing one instruction per row (`data-listing="<n>"`), aligned with the
//!   `asm!` line, the intrinsics line and, per block, the C; the register
//!   map; the errata anchored at their rows (`id="E<n>"`); the deviations;
//!   the measurements, llvm-mca's pressure and the successor's inner loop;
//! - `style.css`. No JavaScript and nothing loaded from outside the
//!   directory.
//!
//! The generator takes every measurement as input ([`SiteInput`]), so a test
//! can build the site from fixed figures ([`generate`]). The alignment
//! ([`align`]) is separate from the HTML ([`page`], [`index`], [`html`]); the
//! hand-made tables (C line ranges by pattern, errata rows) are in
//! [`tables`], and the generator fails when one no longer matches.

pub mod align;
pub mod html;
pub mod index;
pub mod notes;
pub mod page;
pub mod sources;
pub mod tables;

use std::path::{Path, PathBuf};

pub use devkit::paths::workspace_root;
pub use devkit::site_input::{FormTicks, LoopPressure, PressureRow, SiteInput};

/// One file of the site: its name and its content.
pub type SiteFile = (String, String);

/// Reads a file of the repository at `root`.
pub(crate) fn read(root: &Path, rel: &str) -> Result<String, String> {
    let p = root.join(rel);
    std::fs::read_to_string(&p).map_err(|e| format!("reading {}: {e}", p.display()))
}

/// Every file of the site, generated from the repository at `root` (the
/// workspace: `asm_notes/`, `src/`) and `input`.
pub fn generate(root: &Path, input: &SiteInput) -> Result<Vec<SiteFile>, String> {
    let readme = read(root, "asm_notes/README.md")?;
    let mut files = vec![("style.css".to_owned(), html::CSS.to_owned())];
    let mut summaries = Vec::new();
    for spec in tables::PAGES {
        let (html, summary) = page::routine_page(root, &readme, spec, input)?;
        files.push((format!("{}.html", spec.page), html));
        summaries.push(summary);
    }
    files.push((format!("{}.html", tables::NLERP), page::nlerp_page(root, &readme, input)?));
    files.push(("index.html".to_owned(), index::index_page(root, &readme, input, &summaries)?));
    Ok(files)
}

/// Writes the site into `dir` (created if needed); returns the paths written.
pub fn write_site(root: &Path, dir: &Path, input: &SiteInput) -> Result<Vec<PathBuf>, String> {
    let files = generate(root, input)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    let mut out = Vec::new();
    for (name, content) in files {
        let p = dir.join(&name);
        std::fs::write(&p, content).map_err(|e| format!("writing {}: {e}", p.display()))?;
        out.push(p);
    }
    Ok(out)
}

/// gungraun's instruction counts of a routine's benchmarks: every
/// `<group>/<bench>/callgrind.*.out` under
/// `<dir>/animasm/instr_count/<routine>_group/` whose bench name starts
/// with `prefix`: (bench, `Ir` of the whole run).
pub fn gungraun_counts(dir: &Path, routine: &str, prefix: &str) -> Vec<(String, u64)> {
    let group = dir.join("animasm").join("instr_count").join(format!("{routine}_group"));
    let Ok(entries) = std::fs::read_dir(&group) else { return Vec::new() };
    let mut out: Vec<(String, u64)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with(prefix) {
                return None;
            }
            let out_file = std::fs::read_dir(e.path())
                .ok()?
                .flatten()
                .find(|f| f.file_name().to_string_lossy().ends_with(".out"))?;
            let text = std::fs::read_to_string(out_file.path()).ok()?;
            let ir = text.lines().find_map(|l| l.strip_prefix("summary: "))?.split_whitespace().next()?.parse().ok()?;
            Some((name, ir))
        })
        .collect();
    out.sort();
    out
}
