//! Where the report's files go: the workspace, its target directory, the
//! report's output directory and gungraun's. Every writer and reader of
//! these files asks here, so they agree: the report (its plots and the
//! reading room's input), the reading room (its input and its pages, and
//! the gungraun counts it shows) and `devkit/benches/instr_count` (gungraun's
//! results, which it tells gungraun to write to [`gungraun_dir`]).
//!
//! # The target directory rule
//!
//! [`target_dir`] is the target directory of the build that made the
//! running program, found from the program's own path
//! ([`std::env::current_exe`]): cargo puts a binary at
//! `<target>/[<triple>/]<profile>/[deps/|examples/]<name>`, and writes
//! `.rustc_info.json` (else at least `CACHEDIR.TAG`) at `<target>/`. So the
//! rule follows every way of setting the target directory (the
//! `CARGO_TARGET_DIR` variable, relative or not; `--target-dir`;
//! `build.target-dir` in a cargo config; `CARGO_BUILD_TARGET_DIR`) without
//! reading any of them. Only a program that does not run from a target
//! directory (copied elsewhere) falls back on `CARGO_TARGET_DIR`, made
//! absolute against the current directory as cargo reads it, and then on
//! `<workspace>/target`.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The workspace root (the directory above `asmkit/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// How many directories above a binary its target directory can be:
/// `deps/` or `examples/`, the profile, a target triple, then the target
/// directory; one more for Miri's `miri/<triple>/<profile>/deps/`.
const MAX_TARGET_DEPTH: usize = 5;

/// The target directory a binary at `exe` was built in, if it is in one:
/// the nearest of its first [`MAX_TARGET_DEPTH`] ancestors holding
/// `.rustc_info.json` (cargo writes it in the target directory only, not in
/// a `<triple>/` below it), else the nearest holding `CACHEDIR.TAG`.
pub fn target_dir_of_exe(exe: &Path) -> Option<PathBuf> {
    let near = || exe.ancestors().skip(1).take(MAX_TARGET_DEPTH);
    let with = |marker: &str| near().find(|d| d.join(marker).is_file()).map(Path::to_path_buf);
    with(".rustc_info.json").or_else(|| with("CACHEDIR.TAG"))
}

/// The target directory rule (see the module docs) on explicit inputs: the
/// running program's path `exe`, the value of `CARGO_TARGET_DIR`, the
/// current directory `cwd` and the workspace root. [`target_dir`] calls it
/// with the process's own; tests call it with their own.
pub fn resolve_target_dir(exe: Option<&Path>, env_target: Option<OsString>, cwd: &Path, workspace: &Path) -> PathBuf {
    if let Some(dir) = exe.and_then(target_dir_of_exe) {
        return dir;
    }
    match env_target {
        Some(dir) if !dir.is_empty() => cwd.join(dir),
        _ => workspace.join("target"),
    }
}

/// The target directory of the running program's build: see the module
/// docs for the rule. Always absolute when the current directory can be
/// read.
pub fn target_dir() -> PathBuf {
    let exe = current_exe();
    let cwd = std::env::current_dir().unwrap_or_default();
    resolve_target_dir(exe.as_deref(), std::env::var_os("CARGO_TARGET_DIR"), &cwd, &workspace_root())
}

/// The running program's path: [`std::env::current_exe`], or on WASI,
/// which has none, the program's first argument, which the wasm32 runner
/// (`scripts/wasi-run.mjs`) sets to the binary's path as cargo gives it.
pub fn current_exe() -> Option<PathBuf> {
    #[cfg(target_os = "wasi")]
    return std::env::args_os().next().map(PathBuf::from);
    #[cfg(not(target_os = "wasi"))]
    return std::env::current_exe().ok();
}

/// The report's output directory, `<target>/animasm-report/`: its SVG
/// plots, the reading room's input (`site_input.json`) and the reading
/// room's pages.
pub fn report_dir() -> PathBuf {
    target_dir().join("animasm-report")
}

/// gungraun's home, where `cargo bench -p devkit --bench instr_count` writes its
/// results and the reading room reads them: `GUNGRAUN_HOME` if set (made
/// absolute against the current directory), else `<target>/gungraun`.
/// `devkit/benches/instr_count` passes it to gungraun as `--home`, so gungraun
/// does not apply its own rule (which reads `CARGO_TARGET_DIR` relative to
/// the package, else `cargo metadata`, and misses `--target-dir`).
pub fn gungraun_dir() -> PathBuf {
    match std::env::var_os("GUNGRAUN_HOME") {
        Some(home) if !home.is_empty() => std::env::current_dir().unwrap_or_default().join(home),
        _ => target_dir().join("gungraun"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary directory, outside
    /// any target directory. On WASI, where `temp_dir` and `process::id`
    /// panic, `TMPDIR` else `/tmp` (the rule of `temp_dir` on Unix; the
    /// wasm32 runner passes the host's environment and paths), named for
    /// the target instead of the process.
    fn scratch(name: &str) -> PathBuf {
        #[cfg(not(target_os = "wasi"))]
        let dir = std::env::temp_dir().join(format!("animasm-paths-{}-{name}", std::process::id()));
        #[cfg(target_os = "wasi")]
        let dir = std::env::var_os("TMPDIR")
            .map_or_else(|| PathBuf::from("/tmp"), PathBuf::from)
            .join(format!("animasm-paths-wasi-{name}"));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir
    }

    /// A cargo-like target directory at `root`, with a binary at `rel`.
    fn layout(root: &Path, rel: &str, markers: &[&str]) -> PathBuf {
        let exe = root.join(rel);
        std::fs::create_dir_all(exe.parent().expect("a parent")).expect("the binary's directory");
        std::fs::write(&exe, b"").expect("the binary");
        for m in markers {
            std::fs::write(root.join(m), b"").expect("a marker");
        }
        exe
    }

    #[test]
    fn the_target_dir_comes_from_the_binary_s_path() {
        let base = scratch("exe");
        let t = base.join("elsewhere");
        let markers = [".rustc_info.json", "CACHEDIR.TAG"];
        let (cwd, ws) = (base.join("cwd"), base.join("ws"));
        for rel in [
            "release/examples/report",
            "release/deps/instr_count-0123abcd",
            "release/animasm-reading-room",
            "x86_64-unknown-linux-gnu/release/examples/report",
            "miri/x86_64-unknown-linux-gnu/debug/deps/paths-0123",
        ] {
            let exe = layout(&t, rel, &markers);
            // A variable pointing elsewhere does not win over the build's own directory.
            assert_eq!(resolve_target_dir(Some(&exe), Some("other".into()), &cwd, &ws), t, "{rel}");
        }
        // A cross build's `<triple>/` has a CACHEDIR.TAG of its own: the
        // target directory is the one with `.rustc_info.json`.
        std::fs::write(t.join("x86_64-unknown-linux-gnu/CACHEDIR.TAG"), b"").expect("a marker");
        let exe = t.join("x86_64-unknown-linux-gnu/release/examples/report");
        assert_eq!(target_dir_of_exe(&exe), Some(t.clone()));
        // Only CACHEDIR.TAG: still found.
        let only_tag = base.join("tag");
        let exe = layout(&only_tag, "release/examples/report", &["CACHEDIR.TAG"]);
        assert_eq!(target_dir_of_exe(&exe), Some(only_tag));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn outside_a_target_dir_the_variable_then_the_workspace() {
        let base = scratch("fallback");
        let exe = layout(&base.join("bin"), "report", &[]);
        let (cwd, ws) = (base.join("cwd"), base.join("ws"));
        // Relative to the current directory, as cargo reads it; absolute as it is.
        assert_eq!(resolve_target_dir(Some(&exe), Some("tgt".into()), &cwd, &ws), cwd.join("tgt"));
        assert_eq!(resolve_target_dir(Some(&exe), Some("/abs/tgt".into()), &cwd, &ws), PathBuf::from("/abs/tgt"));
        assert_eq!(resolve_target_dir(Some(&exe), Some("".into()), &cwd, &ws), ws.join("target"));
        assert_eq!(resolve_target_dir(None, None, &cwd, &ws), ws.join("target"));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn this_test_finds_its_own_target_dir() {
        // This test binary is `<target>/<profile>/deps/asmkit-<hash>`.
        let exe = current_exe().expect("the test's path");
        let dir = target_dir();
        assert!(exe.starts_with(&dir), "{} is not under {}", exe.display(), dir.display());
        assert!(dir.join(".rustc_info.json").is_file() || dir.join("CACHEDIR.TAG").is_file(), "{}", dir.display());
        if let Some(env) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| Path::new(d).is_absolute()) {
            let canon = |p: &Path| std::fs::canonicalize(p).expect("an existing directory");
            assert_eq!(canon(&dir), canon(Path::new(&env)));
        }
        assert_eq!(report_dir(), dir.join("animasm-report"));
    }
}
