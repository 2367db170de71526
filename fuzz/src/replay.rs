//! The committed seeds, replayed on stable with `cargo test` (no libFuzzer
//! run, no sanitizer): every check of the targets on every seed, so that a
//! change to a routine or to the checks that a seed would catch fails here.
//! Each seed of `seeds/roster/` runs with every routine of the shape of the
//! routine its first byte picks, so a new routine of an existing shape is
//! replayed on its shape's seeds with no seed of its own.

use crate::shapes::{self, same_shape};
use crate::{fuzz_roster, routine_for, skeleton_api};
use animasm::roster::ROUTINES;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The seeds of `seeds/<target>/`, sorted by name.
fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("seeds").join(target);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a directory entry").path())
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no seed in {}", dir.display());
    paths.into_iter().map(|p| (p.clone(), std::fs::read(&p).expect("a seed"))).collect()
}

/// Every seed of the `roster` target with every routine of its shape, and
/// every shape of the roster has seeds.
#[test]
fn roster_seeds() {
    let seeds = seeds("roster");
    // Each (shape, rest of the input) once: a seed converted for every
    // routine of a family or of a shape differs only in its first byte.
    let mut runs = BTreeSet::new();
    for (path, data) in &seeds {
        let (&first, rest) = data.split_first().unwrap_or_else(|| panic!("{}: empty", path.display()));
        let picked = routine_for(first);
        // The target itself, as libFuzzer calls it.
        fuzz_roster(data);
        let shape = ROUTINES.iter().position(|r| same_shape(r, picked)).expect("in the roster");
        runs.insert((shape, rest.to_vec()));
    }
    for r in ROUTINES {
        let shape = ROUTINES.iter().position(|x| same_shape(x, r)).expect("in the roster");
        let mut n = 0;
        for (_, rest) in runs.iter().filter(|(s, _)| *s == shape) {
            shapes::fuzz(r, rest);
            n += 1;
        }
        assert!(n > 0, "{}: no seed of its shape in seeds/roster/", r.name);
    }
}

/// Every seed of the `skeleton` target.
#[test]
fn skeleton_seeds() {
    for (_, data) in seeds("skeleton") {
        skeleton_api::fuzz_skeleton(&data);
    }
}
