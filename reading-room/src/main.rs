//! `cargo run --release -p animasm-reading-room`: renders the reading room
//! from the input the report left in its output directory
//! (`cargo run --release -p devkit --example report -- --html` writes
//! `<target>/animasm-report/site_input.json`, `asmkit::site_input`) and
//! writes the pages next to it. Messages go to stderr.

use animasm_reading_room::{SiteInput, workspace_root, write_site};
use asmkit::paths::report_dir;

fn main() {
    let dir = report_dir();
    let input = match SiteInput::read(&dir) {
        Ok(input) => input,
        Err(e) => {
            eprintln!(
                "reading room: no input ({e}): run `cargo run --release -p devkit --example report -- --html` first, \
                 built into the same target directory (asmkit::paths: the one this binary runs from)"
            );
            std::process::exit(1);
        }
    };
    match write_site(&workspace_root(), &dir, &input) {
        Ok(files) => eprintln!("reading room: {} files in {} (open index.html)", files.len(), dir.display()),
        Err(e) => {
            eprintln!("reading room: the site could not be written: {e}");
            std::process::exit(1);
        }
    }
}
