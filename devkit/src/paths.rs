//! Where the report's files go: the workspace, its target directory and the
//! report's output directory. The report (the writer of the plots and of
//! the reading room's input) and the reading room (their reader) both ask
//! here, so they agree.

use std::path::{Path, PathBuf};

/// The workspace root (the directory above `devkit/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Cargo's target directory as `cargo run` and `cargo bench` use it:
/// `CARGO_TARGET_DIR` if set (relative to the current directory, as cargo
/// reads it), else the workspace's `target/`.
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root().join("target"),
    }
}

/// The report's output directory, `<target>/animasm-report/`: its SVG
/// plots, the reading room's input (`site_input.json`) and the reading
/// room's pages.
pub fn report_dir() -> PathBuf {
    target_dir().join("animasm-report")
}
