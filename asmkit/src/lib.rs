//! What animasm's report (`devkit/examples/report/`, through `devkit`) and its
//! reading room (`reading-room/`) share, and nothing heavier, so that the
//! reading room builds without the measuring kit (criterion, plotters, the
//! peers): it depends on this crate and on `animasm` only.
//!
//! - [`listing`]: the parser of the listing files `asm_notes/*.listing.s`;
//! - [`objdump`]: objdump's symbol tables and disassembly, parsed;
//! - [`paths`]: the target directory and the report's output directory;
//! - [`site_input`]: what the report hands the reading room (the static
//!   HTML site of the `animasm-reading-room` crate), as JSON.
//!
//! `devkit` re-exports the four modules under the same names.

pub mod listing;
pub mod objdump;
pub mod paths;
pub mod site_input;
