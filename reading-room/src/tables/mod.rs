//! The hand-made tables of the reading room, one file per routine page
//! (`tables/<module>.rs`, a `pub const SPEC: PageSpec`, `<module>` being the
//! roster's `Routine::module`): which files a page reads, which lines of
//! `scalar.rs` each block of the listing implements (found by pattern, so
//! they survive edits), and which rows each erratum concerns (by block,
//! instruction text and occurrence). The generator fails loudly when a
//! pattern no longer matches. The build script lists this directory's files
//! ([`SPECS`]): a new page's table is a new file here and nothing else.

/// One routine page.
pub struct PageSpec {
    /// The page's file stem (`slerp_joints` gives `slerp_joints.html`).
    pub page: &'static str,
    /// The routine: `asm_notes/<routine>.md`, `src/<routine>/`.
    pub routine: &'static str,
    /// The paper, for the page's heading.
    pub paper: &'static str,
    /// The listings shown on the page (the transform_skeleton page has two).
    pub listings: &'static [ListingSpec],
    /// Block -> the C it implements.
    pub scalar: &'static [ScalarBlock],
    /// Erratum -> where it is.
    pub errata: &'static [ErratumSpec],
    /// The register map's heading prefix in `asm_notes/README.md` ("Register
    /// maps"), or `None` when the README has none for the routine.
    pub register_map: Option<&'static str>,
}

/// One listing and the port's files that follow it.
pub struct ListingSpec {
    /// The kernel's name in the measurements (`slerp_joints`,
    /// `transform_skeleton (movss+shufps)`, ...): llvm-mca's kernel name.
    pub kernel: &'static str,
    /// `asm_notes/<file>`.
    pub listing: &'static str,
    /// A line of `src/<routine>/asm.rs` before the kernel's `asm!(`.
    pub asm_anchor: &'static str,
    /// A line of `src/<routine>/intrinsics.rs` that starts the twin's body.
    pub intrinsics_anchor: &'static str,
    /// Functions of other files the twin calls, whose comments name listing
    /// instructions: (call pattern, file, the line that starts the function).
    pub intrinsics_calls: &'static [(&'static str, &'static str, &'static str)],
    /// The label of the main loop.
    pub loop_label: &'static str,
}

/// Where a block of the listing is in the C: `ranges` of `scalar.rs`, each
/// from the first line containing `start` to the next line (at or after it)
/// that starts with `end` (a `}` at column 0 ends a function), or the reason
/// it has none.
pub struct ScalarBlock {
    /// The label, or `""` for the instructions before the first label.
    pub block: &'static str,
    pub ranges: &'static [(&'static str, &'static str)],
    /// Why there is no C for the block (when `ranges` is empty).
    pub none: &'static str,
}

/// Which rows of a block an erratum concerns.
#[derive(Clone, Copy)]
pub enum Occ {
    /// The n-th (0-based) instruction of the block containing the needle.
    Nth(usize),
    /// Every instruction of the block containing it.
    All,
}

/// An erratum: the rows it concerns, or why none.
pub struct ErratumSpec {
    pub id: &'static str,
    /// (block, needle, occurrence); needles are compared case-insensitively
    /// with the whitespace removed.
    pub rows: &'static [(&'static str, &'static str, Occ)],
    /// Why it has no row (when `rows` is empty).
    pub none: &'static str,
}

use Occ::{All, Nth};

const fn e(id: &'static str, rows: &'static [(&'static str, &'static str, Occ)]) -> ErratumSpec {
    ErratumSpec { id, rows, none: "" }
}
const fn text(id: &'static str, none: &'static str) -> ErratumSpec {
    ErratumSpec { id, rows: &[], none }
}
const fn c(block: &'static str, ranges: &'static [(&'static str, &'static str)]) -> ScalarBlock {
    ScalarBlock { block, ranges, none: "" }
}
const fn no_c(block: &'static str, none: &'static str) -> ScalarBlock {
    ScalarBlock { block, ranges: &[], none }
}

// `mod <stem>;` for every other file of this directory, and `SPECS`.
include!(concat!(env!("OUT_DIR"), "/tables.rs"));

/// The hand-kept table of the page of the roster's module `module`.
pub fn find(module: &str) -> Option<&'static PageSpec> {
    SPECS.iter().copied().find(|s| s.routine == module)
}
