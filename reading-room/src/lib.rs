//! The reading room: animasm's report as a static HTML site in
//! the report's output directory (`<target>/animasm-report/`,
//! `asmkit::paths::report_dir`), rendered by this crate's binary
//! (`cargo run --release -p animasm-reading-room`) from what `cargo run
//! --release --example report -- --html` left there
//! (`asmkit::site_input`: the report's text and this run's measurements,
//! `site_input.json`). The report does not depend on this crate, so the
//! library's tests build no site generator.
//!
//! - `index.html`: the report's text (its pipe tables as HTML tables), this
//!   CPU, the SVG plots, the errata index of every routine, links to the
//!   pages;
//! - one page per module of `animasm::roster` ([`pages`], in the roster's
//!   order: `slerp_joints.html`, ...; the transform_skeleton page also has
//!   the `movss` + `shufps` variant's listing, and a module without a
//!   listing form, `nlerp.html`, has the notes' errata and the
//!   measurements; the composites' module, `pose.html`, the chain of
//!   routines each form runs, linked to their pages and listings): the
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

pub use asmkit::paths::workspace_root;
pub use asmkit::site_input::{FormTicks, LoopPressure, PressureRow, SiteInput};

use animasm::roster::{Origin, ROUTINES, Routine};

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
    let (pages, skipped) = pages();
    for module in skipped {
        eprintln!(
            "reading room: `{module}` has a listing form and no table (reading-room/src/tables/{module}.rs): no page"
        );
    }
    for p in pages {
        let (html, summary) = match p {
            Page::Listing(spec) => page::routine_page(root, &readme, spec, input)?,
            Page::Notes(module) => page::notes_page(root, &readme, module, input)?,
            Page::Composite(module) => page::composite_page(root, module, input)?,
        };
        files.push((format!("{}.html", p.name()), html));
        summaries.push(summary);
    }
    files.push(("index.html".to_owned(), index::index_page(&readme, input, &summaries)));
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

/// The roster's routines whose forms are in the module `module` (the
/// `transform_skeleton` page's are `transform_skeleton` and its variant).
pub fn routines_of(module: &str) -> impl Iterator<Item = &'static Routine> + '_ {
    ROUTINES.iter().filter(move |r| r.module == module)
}

/// One page of the site: a module of the roster (`Routine::module`).
#[derive(Clone, Copy)]
pub enum Page {
    /// A module with its hand-kept table ([`tables`]): its listings, aligned.
    Listing(&'static tables::PageSpec),
    /// A module none of whose routines has a listing form: the notes'
    /// errata and the measurements.
    Notes(&'static str),
    /// A module of composites (`Routine::is_composite`: `pose`), whose
    /// forms chain other routines' forms and have no listing of their own
    /// (the `Asm` form chains the other routines' listings): the chain,
    /// linked to those routines' pages and listings, the forms, the
    /// measurements and the notes.
    Composite(&'static str),
}

impl Page {
    /// The module, and the page's file stem.
    pub fn name(&self) -> &'static str {
        match self {
            Page::Listing(spec) => spec.routine,
            Page::Notes(module) | Page::Composite(module) => module,
        }
    }
}

/// The site's pages, one per module of `animasm::roster`, in the roster's
/// order, and the modules left without a page: a routine with a listing
/// form ([`Origin::Listing`]) and no hand-kept table. A module of
/// composites gets a [`Page::Composite`], whose listings are the chained
/// routines'.
pub fn pages() -> (Vec<Page>, Vec<&'static str>) {
    let (mut pages, mut skipped) = (Vec::new(), Vec::new());
    for (k, r) in ROUTINES.iter().enumerate() {
        if ROUTINES[..k].iter().any(|q| q.module == r.module) {
            continue;
        }
        if routines_of(r.module).all(Routine::is_composite) {
            pages.push(Page::Composite(r.module));
            continue;
        }
        let listing = routines_of(r.module).any(|q| q.all_forms().any(|f| f.origin == Origin::Listing));
        match (tables::find(r.module), listing) {
            (Some(spec), _) => pages.push(Page::Listing(spec)),
            (None, false) => pages.push(Page::Notes(r.module)),
            (None, true) => skipped.push(r.module),
        }
    }
    (pages, skipped)
}

/// The name of gungraun's table of benchmarks, in `<gungraun home>/devkit/instr_count/`
/// (written by `devkit/benches/instr_count/main.rs`).
pub const CASES_TSV: &str = "cases.tsv";

/// gungraun's instruction counts of a routine's benchmarks, in the order of
/// `cases.tsv`: every line `<dir>\t<routine>::<bench>[::n<count>]` of
/// `<home>/devkit/instr_count/cases.tsv` (the benchmark's id) whose id
/// starts with `<routine>::`, with the `Ir` of the `summary:` line of the
/// `callgrind.*.out` file in `<home>/devkit/instr_count/<dir>/`: (name,
/// `Ir` of the whole run). A benchmark without a result is left out; no
/// `cases.tsv`, no counts.
pub fn gungraun_counts(home: &Path, routine: &str) -> Vec<(String, u64)> {
    let bench = home.join("devkit").join("instr_count");
    let Ok(table) = std::fs::read_to_string(bench.join(CASES_TSV)) else { return Vec::new() };
    let prefix = format!("{routine}::");
    table
        .lines()
        .filter_map(|line| {
            let (rel, name) = line.split_once('\t')?;
            if !name.starts_with(&prefix) {
                return None;
            }
            let out_file = std::fs::read_dir(bench.join(rel)).ok()?.flatten().find(|f| {
                let n = f.file_name().to_string_lossy().into_owned();
                n.starts_with("callgrind.") && n.ends_with(".out")
            })?;
            let text = std::fs::read_to_string(out_file.path()).ok()?;
            let ir = text.lines().find_map(|l| l.strip_prefix("summary: "))?.split_whitespace().next()?.parse().ok()?;
            Some((name.to_owned(), ir))
        })
        .collect()
}
