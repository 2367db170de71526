//! The benchmark setup shared by `devkit/benches/wall_clock/`,
//! `devkit/benches/instr_count/` and the report (`devkit/examples/report/`), built
//! with [`animasm_testkit::inputs`]: the sizes, the seeds and the input of
//! every [`Shape`] of routine, so that the three measure the same data by
//! construction; and the labels the report gives a routine ([`label`]).
//!
//! | shape | input | at `n` elements |
//! |---|---|---|
//! | `Shape::JointBlend` | [`joint_lists`] | [`joint_lists_n`] |
//! | `Shape::QuatsToMats` | [`quats_to_mats_input`] | [`quats_to_mats_input_n`] |
//! | `Shape::MatsToQuats` | [`mats_to_quats_input`] | [`mats_to_quats_input_n`] |
//! | `Shape::Skeleton` | [`skeleton_input`] (by the routine's [`Walk`]) | [`skeleton_input_n`], [`fox_skeleton_input`] |
//! | `Shape::TransformJoints` | [`transform_joints_input`] | [`transform_joints_input_n`] |
//! | `Shape::QuatPairs` | [`slerp_quats_input`] | (the same) |
//! | `Shape::Stream` | [`nlerp_input`] | |
//!
//! [`Shape`]: animasm::roster::Shape

use core::ops::RangeInclusive;

use std::sync::OnceLock;

use animasm::roster::{self, Routine};
use animasm::slerp_quats::AlignedQuats;
use animasm::{Impl, JointMat, JointQuat, Quat, Vec4};

use crate::floors::Walk;

use animasm_testkit::inputs;

/// Joints per call, as in the papers' tables.
pub const JOINTS: usize = 1024;
/// The interpolation factor of the joint-blend routines (`Shape::JointBlend`).
pub const LERP: f32 = 0.5;
/// Seed of the joint lists (`inputs::joint_lists`).
pub const SEED: u64 = 0x5EED_2005;
/// Seed of the joint matrices (`inputs::rigid_mats`).
pub const MAT_SEED: u64 = SEED + 1;
/// Seed of the second list of `Shape::TransformJoints`.
pub const MAT_SEED_2: u64 = SEED + 2;
/// Seed of the skeleton's hierarchy (`inputs::random_parents`).
pub const PARENT_SEED: u64 = SEED + 3;
/// The joints the skeleton routines (`Shape::Skeleton`) transform: all but
/// the root, joint 0.
pub const SKELETON_RANGE: RangeInclusive<usize> = 1..=JOINTS - 1;
/// Seed of `slerp_quats`' quaternion pairs.
pub const SLERP_QUATS_SEED: u64 = SEED + 4;
/// Seed of `nlerp`'s streams.
pub const NLERP_SEED: u64 = SEED + 5;
/// `slerp_quats`' quaternion counts: the article's Table 1 (64, four
/// iterations of the 16-wide loop; 67, the same and three quaternions through
/// the scalar remainder loop) and the papers' 1024.
pub const SLERP_QUATS_COUNTS: [usize; 3] = [64, 67, JOINTS];
/// `slerp_quats`' interpolation factor (the article does not give its own).
pub const SLERP_QUATS_FACTOR: f32 = 0.375;
/// `nlerp`'s stream length (elements per call).
pub const NLERP_ELEMENTS: usize = JOINTS;

/// `Shape::JointBlend`: the papers' benchmark data, two lists of [`JOINTS`]
/// random joints and the identity index `0..JOINTS`.
pub fn joint_lists() -> (Vec<JointQuat>, Vec<JointQuat>, Vec<i32>) {
    inputs::joint_lists(SEED, JOINTS)
}

/// `Shape::QuatsToMats`: the joint lists' first list (uniform unit
/// quaternions, translations in `[-10, 10)`).
pub fn quats_to_mats_input() -> Vec<JointQuat> {
    joint_lists().0
}

/// `Shape::MatsToQuats`: [`JOINTS`] uniform random rigid matrices
/// (`inputs::rigid_mats`).
pub fn mats_to_quats_input() -> Vec<JointMat> {
    inputs::rigid_mats(MAT_SEED, JOINTS)
}

/// A skeleton routine walking forward (from local to model space):
/// [`JOINTS`] random rigid local matrices (the matrices of
/// [`mats_to_quats_input`]) under a random parents-first hierarchy (`inputs::random_parents`: joint 0 the root, every other
/// joint's parent uniform among the earlier ones, so that every joint of
/// [`SKELETON_RANGE`] has a parent in `0..i`).
pub fn skeleton_locals() -> (Vec<JointMat>, Vec<i32>) {
    (inputs::rigid_mats(MAT_SEED, JOINTS), inputs::random_parents(PARENT_SEED, JOINTS))
}

/// A skeleton routine walking backward (from model to local space): the
/// global matrices of [`skeleton_locals`] (transformed to model space once,
/// by the scalar form of the first routine walking forward), and the same
/// hierarchy.
pub fn skeleton_globals() -> (Vec<JointMat>, Vec<i32>) {
    to_globals(skeleton_locals())
}

/// The input of a `Shape::Skeleton` routine that walks `walk`
/// ([`Walk::of`]): [`skeleton_locals`] forward, [`skeleton_globals`]
/// backward.
pub fn skeleton_input(walk: Walk) -> (Vec<JointMat>, Vec<i32>) {
    match walk {
        Walk::Forward => skeleton_locals(),
        Walk::Backward => skeleton_globals(),
    }
}

/// A rig's rest pose for a `Shape::Skeleton` routine that walks `walk`:
/// [`JOINTS`] joints on [`skeleton_locals`]' parents whose rotations are
/// turns by multiples of 90 degrees about an axis or by 120 degrees about
/// a cube diagonal (quaternion components 0, ±1/2, ±√½, ±1) and whose
/// translations are multiples of 0.1, 0.25 and 0.05 (as modelling tools
/// write bones), made local matrices by the scalar `quats_to_mats` (and
/// model matrices once for a routine walking backward). Their products and
/// sums often land exactly halfway between two f32, which an exact fused
/// multiply-add built from f64 arithmetic (the SIMD128 forms') cannot tell
/// from a double rounding without its slow path.
pub fn rig_skeleton_input(walk: Walk) -> (Vec<JointMat>, Vec<i32>) {
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let turns = [
        Quat::new(0.0, 0.0, 0.0, 1.0),
        Quat::new(h, 0.0, 0.0, h),
        Quat::new(0.0, h, 0.0, h),
        Quat::new(0.0, 0.0, h, h),
        Quat::new(1.0, 0.0, 0.0, 0.0),
        Quat::new(0.5, 0.5, 0.5, 0.5),
        Quat::new(-0.5, 0.5, -0.5, 0.5),
        Quat::new(0.0, -h, 0.0, h),
    ];
    let quats: Vec<JointQuat> = (0..JOINTS)
        .map(|i| {
            let t = Vec4::new(0.1 * (i % 7) as f32, 0.25 * (i % 3) as f32, 0.05 * (i % 11) as f32, 1.0);
            JointQuat::new(turns[i % turns.len()], t)
        })
        .collect();
    let mut mats = vec![JointMat::default(); JOINTS];
    animasm::quats_to_mats(Impl::Scalar, &mut mats, &quats).expect("as many matrices as joints");
    let locals = (mats, skeleton_locals().1);
    match walk {
        Walk::Forward => locals,
        Walk::Backward => to_globals(locals),
    }
}

/// `Shape::TransformJoints`: two lists of [`JOINTS`] random rigid matrices
/// (the first is [`mats_to_quats_input`]).
pub fn transform_joints_input() -> (Vec<JointMat>, Vec<JointMat>) {
    (inputs::rigid_mats(MAT_SEED, JOINTS), inputs::rigid_mats(MAT_SEED_2, JOINTS))
}

/// `Shape::QuatPairs` (`slerp_quats_*`): `n` pairs of uniform random unit quaternions (`from`, `to`)
/// in 32-byte-aligned storage, as the AVX kernels need. The pairs are drawn
/// in order from one generator, so the 64 and 67 of Table 1 are the first
/// pairs of the 1024.
pub fn slerp_quats_input(n: usize) -> (AlignedQuats, AlignedQuats) {
    let mut rng = inputs::Rng::new(SLERP_QUATS_SEED);
    let (mut from, mut to) = (AlignedQuats::new(), AlignedQuats::new());
    for _ in 0..n {
        from.push(rng.unit_quat());
        to.push(rng.unit_quat());
    }
    (from, to)
}

/// `Shape::Stream` (the nlerp family): the article's loop shape `dest[i] = f(l, r[i], t[i])` with a
/// uniform random unit `l`, [`NLERP_ELEMENTS`] uniform random unit `r[i]`
/// (so `dot(l, r[i])` takes both signs at random) and `t[i]` uniform in
/// `[0, 1)`.
pub fn nlerp_input() -> (Quat, Vec<Quat>, Vec<f32>) {
    let mut rng = inputs::Rng::new(NLERP_SEED);
    let l = rng.unit_quat();
    let r = (0..NLERP_ELEMENTS).map(|_| rng.unit_quat()).collect();
    let t = (0..NLERP_ELEMENTS).map(|_| rng.f64() as f32).collect();
    (l, r, t)
}

// ---------------------------------------------------------------------------
// Sizes: the successors section measures every routine at
// three sizes. The inputs are those above drawn at `n` elements from the same
// seeds, so at `n = JOINTS` they are the inputs above, element for element.

/// The successors section's sizes: one character (64 joints, L1), the
/// papers' 1024 (L2) and 65536 (past L2).
pub const SUCCESSOR_SIZES: [usize; 3] = [64, JOINTS, 65536];

/// [`joint_lists`] at `n` joints: two lists of `n` random joints and the
/// identity index `0..n`.
pub fn joint_lists_n(n: usize) -> (Vec<JointQuat>, Vec<JointQuat>, Vec<i32>) {
    inputs::joint_lists(SEED, n)
}

/// [`quats_to_mats_input`] at `n` joints.
pub fn quats_to_mats_input_n(n: usize) -> Vec<JointQuat> {
    joint_lists_n(n).0
}

/// [`mats_to_quats_input`] at `n` joints.
pub fn mats_to_quats_input_n(n: usize) -> Vec<JointMat> {
    inputs::rigid_mats(MAT_SEED, n)
}

/// [`transform_joints_input`] at `n` joints.
pub fn transform_joints_input_n(n: usize) -> (Vec<JointMat>, Vec<JointMat>) {
    (inputs::rigid_mats(MAT_SEED, n), inputs::rigid_mats(MAT_SEED_2, n))
}

/// The joints the skeleton routines transform in a skeleton of `n` joints:
/// all but the root, `1..=n - 1` (`n >= 2`).
pub fn skeleton_range_n(n: usize) -> RangeInclusive<usize> {
    assert!(n >= 2, "a skeleton of {n} joints has no joint below the root");
    1..=n - 1
}

/// [`skeleton_locals`] at `n` joints: `n` random rigid local matrices under a
/// random parents-first hierarchy.
pub fn skeleton_locals_n(n: usize) -> (Vec<JointMat>, Vec<i32>) {
    (inputs::rigid_mats(MAT_SEED, n), inputs::random_parents(PARENT_SEED, n))
}

/// [`skeleton_globals`] at `n` joints: [`skeleton_locals_n`] transformed to
/// model space once.
pub fn skeleton_globals_n(n: usize) -> (Vec<JointMat>, Vec<i32>) {
    to_globals(skeleton_locals_n(n))
}

/// [`skeleton_input`] at `n` joints.
pub fn skeleton_input_n(walk: Walk, n: usize) -> (Vec<JointMat>, Vec<i32>) {
    match walk {
        Walk::Forward => skeleton_locals_n(n),
        Walk::Backward => skeleton_globals_n(n),
    }
}

/// The Fox's skeleton (`data/Fox.glb.pose.json`, `animasm_testkit::fox`):
/// its rest pose's local joint matrices and its parents (parents first,
/// `-1` for the root, joint 0). The skeleton routines run on
/// [`fox_range`].
pub fn fox_skeleton_locals() -> (Vec<JointMat>, Vec<i32>) {
    use animasm_testkit::fox;
    let parents = fox::parents();
    let mats = fox::local_mats(&fox::rest_rotations(), &fox::rest_translations());
    assert_eq!(mats.len(), parents.len(), "the Fox's joints and parents");
    assert_eq!(parents[0], -1, "the Fox's joint 0 is its root");
    (mats, parents)
}

/// The Fox's rest pose in model space ([`fox_skeleton_locals`] transformed
/// once), for a skeleton routine walking backward.
pub fn fox_skeleton_globals() -> (Vec<JointMat>, Vec<i32>) {
    to_globals(fox_skeleton_locals())
}

/// The Fox's skeleton as the input of a routine that walks `walk`:
/// [`fox_skeleton_locals`] forward, [`fox_skeleton_globals`] backward.
pub fn fox_skeleton_input(walk: Walk) -> (Vec<JointMat>, Vec<i32>) {
    match walk {
        Walk::Forward => fox_skeleton_locals(),
        Walk::Backward => fox_skeleton_globals(),
    }
}

/// The joints of the Fox that the skeleton routines transform: all but the
/// root.
pub fn fox_range(joints: usize) -> RangeInclusive<usize> {
    skeleton_range_n(joints)
}

/// Local matrices to model space, once: the scalar form of the first
/// skeleton routine of the roster that walks forward.
fn to_globals((mut mats, parents): (Vec<JointMat>, Vec<i32>)) -> (Vec<JointMat>, Vec<i32>) {
    let range = skeleton_range_n(mats.len());
    let forward = roster::ROUTINES
        .iter()
        .find_map(|r| match r.shape {
            roster::Shape::Skeleton { safe, .. } if Walk::of(r) == Some(Walk::Forward) => Some(safe),
            _ => None,
        })
        .expect("the roster has a skeleton routine from local to model space");
    forward(Impl::Scalar, &mut mats, &parents, range).expect("a valid skeleton");
    (mats, parents)
}

// ---------------------------------------------------------------------------
// Labels.

/// A routine's label in the report's tables and llvm-mca rows: its name; a
/// variant's is the name of the routine it varies and what it changes, in
/// parentheses, `_` read as `+` (`transform_skeleton_movss_shufps`:
/// `transform_skeleton (movss+shufps)`); a routine that shares its module
/// with others is the module and the rest of its name in words
/// (`slerp_quats_as_published`: `slerp_quats as published`).
///
/// ```
/// let r = animasm::roster::find("slerp_quats_corrected").unwrap();
/// assert_eq!(devkit::setup::label(r), "slerp_quats corrected");
/// ```
pub fn label(r: &Routine) -> &'static str {
    static LABELS: OnceLock<Vec<String>> = OnceLock::new();
    let labels = LABELS.get_or_init(|| roster::ROUTINES.iter().map(make_label).collect());
    match roster::ROUTINES.iter().position(|x| x.name == r.name) {
        Some(i) => labels[i].as_str(),
        None => panic!("{} is not in the roster", r.name),
    }
}

/// What a variant changes (`transform_skeleton_movss_shufps`:
/// `movss+shufps`), `None` for a routine that is no variant.
pub fn variant_suffix(r: &Routine) -> Option<String> {
    let base = r.variant_of?;
    let rest = r.name.strip_prefix(base).unwrap_or(r.name).trim_start_matches('_');
    Some(rest.replace('_', "+"))
}

fn make_label(r: &Routine) -> String {
    if let (Some(base), Some(suffix)) = (r.variant_of, variant_suffix(r)) {
        return format!("{base} ({suffix})");
    }
    match r.name.strip_prefix(r.module).and_then(|rest| rest.strip_prefix('_')) {
        Some(rest) if !rest.is_empty() => format!("{} {}", r.module, rest.replace('_', " ")),
        _ => r.name.to_owned(),
    }
}

/// A stream routine's scalar loop as LLVM vectorises it (the raw
/// `animasm::nlerp::scalar::autovec_*` kernels, which no safe function
/// runs), if it has one: what both benches time beside the routine's forms.
pub fn autovec(r: &animasm::roster::Routine) -> Option<animasm::roster::kernel::Stream> {
    use animasm::nlerp::scalar;
    match r.name {
        "nlerp" => Some(scalar::autovec_nlerp),
        "fnlerp" => Some(scalar::autovec_fnlerp),
        "onlerp" => Some(scalar::autovec_onlerp),
        _ => None,
    }
}
