//! Where a routine's listing is: its file under `asm_notes/`, the symbol of
//! its `asm!` port and the note that holds its deviations table, derived
//! from its roster entry; and the instruction counts of a listing file,
//! which the routine's test file pins ([`assert_counts`]).
//!
//! The rules (every routine with an [`Origin::Listing`] form follows them):
//! - the `asm!` port is `animasm::<module>::asm::<name>` (the form module
//!   `asm` of the routine's module, the function named as the safe
//!   function);
//! - the listing file is `asm_notes/<name>.listing.s` where the routine has
//!   one of its own (a variant whose instructions differ from its module's
//!   listing: `transform_skeleton_movss_shufps`), and otherwise its module's
//!   `asm_notes/<module>.listing.s` (the two `slerp_quats_*` ports share
//!   one: they differ in a destination register and constants, which the
//!   comparison does not look at);
//! - the deviations table of the `//@ D<n>` markers is in the module's note,
//!   `asm_notes/<module>.md`.

use std::path::PathBuf;

use animasm::Origin;
use animasm::roster::{self, Routine, Shape};
use devkit::listing::parse_listing;

use super::routine;

/// A path relative to the crate root.
pub fn crate_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// The file at `rel` (relative to the crate root).
#[track_caller]
pub fn read(rel: &str) -> String {
    let p = crate_path(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("reading {}: {e}", p.display()))
}

/// The demangled path of `r`'s `asm!` port.
pub fn asm_symbol(r: &Routine) -> String {
    format!("animasm::{}::asm::{}", r.module, r.name)
}

/// `r`'s listing file, relative to the crate root.
pub fn listing_file(r: &Routine) -> String {
    let own = format!("asm_notes/{}.listing.s", r.name);
    if crate_path(&own).exists() { own } else { format!("asm_notes/{}.listing.s", r.module) }
}

/// The note of `r`'s module, relative to the crate root: its deviations
/// table lists the listing's `//@ D<n>` markers.
pub fn note_file(r: &Routine) -> String {
    format!("asm_notes/{}.md", r.module)
}

/// The address of `r`'s [`Origin::Listing`] kernel, if `r` has one compiled
/// here (taking it links the kernel into the binary).
pub fn listing_kernel_address(r: &Routine) -> Option<usize> {
    macro_rules! listing_form {
        ($forms:expr) => {
            $forms.iter().find(|f| f.info().origin == Origin::Listing).map(|f| f.kernel() as usize)
        };
    }
    let address = match r.shape {
        Shape::JointBlend { forms, .. } => listing_form!(forms),
        Shape::QuatsToMats { forms, .. } => listing_form!(forms),
        Shape::MatsToQuats { forms, .. } => listing_form!(forms),
        Shape::Skeleton { forms, .. } => listing_form!(forms),
        Shape::TransformJoints { forms, .. } => listing_form!(forms),
        Shape::QuatPairs { forms, .. } => listing_form!(forms),
        Shape::Stream { forms, .. } => listing_form!(forms),
        Shape::Pose { forms, .. } => listing_form!(forms),
        _ => panic!("{}: a shape tests/common/roster_checks/listing.rs does not know", r.name),
    };
    address.map(std::hint::black_box)
}

/// Every routine of the roster with an [`Origin::Listing`] form compiled
/// here, in the roster's order, the composites aside
/// ([`Routine::is_composite`]: `slerp_pose` and `lerp_pose`, whose `Asm`
/// form chains the listings of `slerp_joints` / `lerp_joints`,
/// `quats_to_mats`, `transform_skeleton` and `transform_joints`, each
/// checked against its own `asm_notes/<routine>.listing.s` in its own
/// routine; they have no listing file of their own).
pub fn routines_with_listing() -> impl Iterator<Item = &'static Routine> {
    roster::ROUTINES.iter().filter(|r| !r.is_composite() && r.all_forms().any(|f| f.origin == Origin::Listing))
}

/// Asserts the instruction counts of the routine `name`'s listing file as
/// printed (`//@ D<n>` changes not applied, `TRANSPOSE_4x4` as 12): for
/// each `(block, count)`, `block` is `"total"` or a loop label, counted
/// from the label line up to and including the first jump back to it. The
/// routine's test file pins the counts the paper states (and those the
/// transcription settled), so that an edit of the listing file shows up.
#[track_caller]
pub fn assert_counts(name: &str, counts: &[(&str, usize)]) {
    let file = listing_file(routine(name));
    let listing = parse_listing(&file, &read(&file));
    for &(block, want) in counts {
        let got = listing.count(block);
        assert_eq!(got, want, "{file}: `{block}` has {got} instructions, expected {want}");
        println!("{name}: {block} = {got}");
    }
}
