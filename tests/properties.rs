//! Differential property tests at scale: one per [`Shape`] of joint lists
//! and matrices, over every routine of that shape in `animasm::roster`, on
//! inputs from the shared strategies (`common::strategies`: unit
//! quaternions, joint lists, permuted and repeated `index` lists,
//! parents-first hierarchies with joint ranges, rigid and general matrices,
//! edge interpolation factors).
//!
//! Each runs the safe function of every routine of its shape with every
//! form of the routine's table that this CPU runs (so a new form, or a new
//! routine of the shape, is checked as soon as its row or entry is in the
//! roster), each on its own copy in an allocation of exactly the input's
//! length, and checks:
//! - the listing ([`Origin::Listing`], the asm port) and its intrinsics
//!   twin ([`Origin::ListingTwin`]) bit for bit (NaN payloads aside, see
//!   `common::same_bits`);
//! - every form against the routine's scalar form: bit for bit where the
//!   routines document that they agree, within the shape's bound
//!   otherwise;
//! - every form against an f64 oracle, within the bound the routine
//!   documents, where the shape says what the routine computes (quaternions
//!   to matrices, matrices to quaternions, joint matrices times joint
//!   matrices); where routines of one shape compute different things (a
//!   slerp or a lerp of joints, a transform to global or to local
//!   matrices), the routine's test file runs that check on the same inputs
//!   (`common::roster_checks`);
//! - nothing outside what the routine writes has changed.
//!
//! [`every_kernel_reaches_the_end_of_exact_buffers`] runs every form of every
//! routine of these shapes on every count `0..=67` (every tail of the
//! 4-wide listings and of the 8-wide successors, with zero to eight whole
//! blocks before it) and a few larger ones, on buffers that end where the
//! kernel's last access is: `scripts/memcheck.sh` runs this file under
//! valgrind, which reports any access past the end.
//!
//! 4000 cases per property keep the file within a few seconds in `cargo
//! test --release` (debug builds run an eighth); `PROPTEST_CASES` overrides
//! the count. Under Miri (`scripts/miri.sh`) the lists are short and each
//! test runs a few cases on the scalar and intrinsics paths (there is no asm
//! under Miri).

mod common;

use animasm::roster::{self, FormInfo, Routine, Shape};
use animasm::{Impl, JointMat, JointQuat, Origin};
use common::error::{mat_max_abs_diff, quat_diff_up_to_sign};
use common::exact::exact_vec;
use common::inputs::{Rng, random_parents_from, rigid_mats_from};
use common::oracle::{f64x4, mat3_to_quat_f64, quat_to_mat3_f64};
use common::roster_checks::{
    CASES, MIRI_CASES, assert_affine_product, each_form, joint_blend, scalar, skeleton, twins,
};
use common::strategies::{config, general_mat, joint, len, list, paper_rigid_mat};
use common::{assert_bit_identical, assert_mats_bit_identical, same_bits};
use proptest::prelude::*;

/// Every routine of the roster of shape `$shape`, with its safe function.
macro_rules! routines_of {
    ($shape:ident) => {
        roster::ROUTINES.iter().filter_map(|r| match r.shape {
            Shape::$shape { safe, .. } => Some((r, safe)),
            _ => None,
        })
    };
}

/// The listing and its twin bit for bit, where both ran.
#[track_caller]
fn assert_mat_twins(outs: &[(FormInfo, Vec<JointMat>)], ctx: &str) {
    if let Some((listing, twin)) = twins(outs) {
        assert_mats_bit_identical(listing, twin, &format!("{ctx}: listing vs its twin"));
    }
}

/// What the SSE listings make of a scalar result: they add `(0, 0, 0, t)`
/// to every row, which turns a `-0.0` in the rotation columns into `+0.0`
/// and changes nothing else.
fn as_listing(m: &[JointMat]) -> Vec<JointMat> {
    m.iter()
        .map(|j| JointMat {
            mat: core::array::from_fn(|e| if e % 4 != 3 && j.mat[e].to_bits() == 0x8000_0000 { 0.0 } else { j.mat[e] }),
        })
        .collect()
}

/// Max abs error of a component of a joint matrix against the paper's
/// matrix computed in f64 (`QuatsToMats`).
const QUATS_TO_MATS_BOUND: f64 = 2.4e-7;

/// Max abs error of a component against the f64 quaternion up to sign
/// (`MatsToQuats`): 1e-6 with `rsqrtps` and a Newton-Raphson step, 1.8e-3
/// for the paper's C ([`Origin::PaperC`]), whose `ReciprocalSqrt` is an
/// approximation of its own.
fn mats_to_quats_bound(form: &FormInfo) -> f64 {
    if form.origin == Origin::PaperC { 1.8e-3 } else { 1e-6 }
}

// ---------------------------------------------------------------------------
// The properties.

proptest! {
    #![proptest_config(config(CASES, MIRI_CASES))]

    /// `JointBlend` (`slerp_joints`, `lerp_joints`): the listing and its
    /// twin bit for bit; joints not indexed kept; `lerp <= 0` keeps and
    /// `lerp >= 1` copies; on distinct indices every form within 4e-6 of the
    /// f64 lerp (translations) and 1e-6 of the scalar form (rotations).
    /// Indices with repeats (documented to change results) are checked for
    /// everything but the bounds. Each routine's test file checks its
    /// rotations against its f64 oracle (`joint_blend::against_oracle`).
    #[test]
    fn joint_blend_differential(case in joint_blend::cases()) {
        for r in common::roster_checks::of_shape(joint_blend::is) {
            joint_blend::check_shape(r, &case);
        }
    }

    /// `QuatsToMats`: the listing and its twin bit for bit; the scalar form
    /// the same as the listing's forms off the diagonal and within two
    /// roundings on it; every form within 2.4e-7 of the paper's matrix
    /// computed in f64; translations copied bit for bit.
    #[test]
    fn quats_to_mats_differential(quats in len().prop_flat_map(|n| list(joint(), n))) {
        for (r, safe) in routines_of!(QuatsToMats) {
            let quats_x = exact_vec(&quats);
            let outs = each_form(r, &vec![JointMat::IDENTITY; quats.len()], |imp, out| safe(imp, out, &quats_x));
            assert_mat_twins(&outs, r.name);
            for (form, out) in &outs {
                for (j, (m, q)) in out.iter().zip(&quats).enumerate() {
                    let ctx = format!("{} {} joint {j}", r.name, form.imp);
                    // Section 3's M is the transpose of the column-vector matrix.
                    let rot = quat_to_mat3_f64(f64x4(q.q.to_array()));
                    let want: [f64; 12] = core::array::from_fn(|e| if e % 4 == 3 { f64::from(q.t.to_array()[e / 4]) } else { rot[e % 4][e / 4] });
                    let err = mat_max_abs_diff(&m.mat, &want);
                    prop_assert!(err <= QUATS_TO_MATS_BOUND, "{ctx}: error {err:e}");
                    for row in 0..3 {
                        prop_assert!(same_bits(m.mat[row * 4 + 3], q.t.to_array()[row]), "{ctx}: translation {row} not copied");
                    }
                }
            }
            let s = scalar(r, &outs);
            for (form, out) in outs.iter().filter(|(f, _)| f.origin.is_faithful()) {
                for (j, (s, i)) in s.iter().zip(out).enumerate() {
                    for e in 0..12 {
                        let ctx = format!("{} joint {j} mat[{e}]: scalar {:e} vs {} {:e}", r.name, s.mat[e], form.imp, i.mat[e]);
                        if e % 5 == 0 {
                            prop_assert!((s.mat[e] - i.mat[e]).abs() <= 2.0 * f32::EPSILON, "{ctx}");
                        } else {
                            prop_assert!(same_bits(s.mat[e], i.mat[e]), "{ctx}");
                        }
                    }
                }
            }
        }
    }

    /// `MatsToQuats` on rotations rounded to f32 (the paper's transposed
    /// convention): the listing and its twin bit for bit; every form within
    /// its bound of the f64 quaternion up to sign (1e-6 with `rsqrtps` and a
    /// Newton-Raphson step, 1.8e-3 with the C's `ReciprocalSqrt`);
    /// translations copied with `t.w = 0`.
    #[test]
    fn mats_to_quats_differential(mats in len().prop_flat_map(|n| list(paper_rigid_mat(), n))) {
        for (r, safe) in routines_of!(MatsToQuats) {
            let mats_x = exact_vec(&mats);
            let init = vec![JointQuat::default(); mats.len()];
            let outs = each_form(r, &init, |imp, out| safe(imp, out, &mats_x));
            if let Some((listing, twin)) = twins(&outs) {
                assert_bit_identical(listing, twin, &format!("{}: listing vs its twin", r.name));
            }
            for (form, out) in &outs {
                let bound = mats_to_quats_bound(form);
                for (j, (q, m)) in out.iter().zip(&mats).enumerate() {
                    let ctx = format!("{} {} joint {j}", r.name, form.imp);
                    // Back to the column-vector rotation for the oracle.
                    let rot: [[f64; 3]; 3] = core::array::from_fn(|row| core::array::from_fn(|col| f64::from(m.mat[col * 4 + row])));
                    let err = quat_diff_up_to_sign(f64x4(q.q.to_array()), mat3_to_quat_f64(rot));
                    prop_assert!(err <= bound, "{ctx}: error {err:e} > {bound:e}");
                    let t = [m.mat[3], m.mat[7], m.mat[11], 0.0].map(f32::to_bits);
                    prop_assert_eq!(q.t.to_array().map(f32::to_bits), t, "{}: translation", ctx);
                }
            }
        }
    }

    /// `Skeleton` (`transform_skeleton`, its `movss` + `shufps` variant,
    /// `untransform_skeleton`): the listing and its twin bit for bit, each
    /// the same as the scalar form up to the sign of zeros, a variant the
    /// same as the routine it varies in every form both have; every joint
    /// outside the range kept. Each routine's test file checks the joints
    /// of the range against the f64 transform it computes
    /// (`skeleton::transform_property`, `skeleton::untransform_property`).
    #[test]
    fn skeleton_differential(case in skeleton::cases()) {
        for r in common::roster_checks::of_shape(skeleton::is) {
            skeleton::check_shape(r, &case);
        }
    }

    /// `TransformJoints` on general matrices: the listing and its twin bit
    /// for bit, the scalar form the same as the listing's forms up to the
    /// listing's `-0.0` to `+0.0`; every form within four roundings of the
    /// f64 product.
    #[test]
    fn transform_joints_differential((a, b) in len().prop_flat_map(|n| (list(general_mat(), n), list(general_mat(), n)))) {
        for (r, safe) in routines_of!(TransformJoints) {
            let (a_x, b_x) = (exact_vec(&a), exact_vec(&b));
            let outs = each_form(r, &vec![JointMat::IDENTITY; a.len()], |imp, out| safe(imp, out, &a_x, &b_x));
            let ctx = format!("{}: {} joints", r.name, a.len());
            assert_mat_twins(&outs, &ctx);
            let s = as_listing(scalar(r, &outs));
            for (form, out) in outs.iter().filter(|(f, _)| f.origin.is_faithful()) {
                assert_mats_bit_identical(&s, out, &format!("{ctx}: scalar (as the listing) vs {}", form.imp));
            }
            for (form, out) in &outs {
                for j in 0..a.len() {
                    assert_affine_product(&out[j], &a[j], &b[j], 4.0, &format!("{ctx}: {} joint {j}", form.imp));
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Every kernel on exact buffers, for memcheck.

/// The counts [`every_kernel_reaches_the_end_of_exact_buffers`] runs: every
/// count `0..=67`, so every tail of the 4-wide listings' loops and of the
/// 8-wide successors (`n % 8` in `0..8`) after zero to eight whole blocks,
/// and a few larger lists around 128 and 1024.
fn exact_buffer_counts() -> Vec<usize> {
    if cfg!(miri) { (0..=9).collect() } else { (0..=67).chain([127, 128, 129, 1023]).collect() }
}

/// One routine on `n` joints with form `imp`, on buffers of exactly the
/// length the call reads or writes, with the last element of each reached
/// (the last joint indexed, the range ending at the last joint and
/// `parents` ending at its entry): the output's bit patterns.
type ExactRun = Box<dyn Fn(Impl, usize) -> Vec<u32>>;

fn joint_blend_exact(f: roster::JointBlendFn, imp: Impl, n: usize) -> Vec<u32> {
    let mut rng = Rng::new(n as u64);
    let (joints, blend) = (exact_vec(&rng.joints(n)), exact_vec(&rng.joints(n)));
    // Every joint once, the last one last (`index` ends with the joint that
    // ends `joints` and `blend`), in an order that is not the identity.
    let index: Vec<i32> = exact_vec(&(0..n as i32).map(|j| (j + 1) % n as i32).collect::<Vec<_>>());
    // Every joint but the last twice in a row, then the last one, which ends
    // `joints` and `blend` (`n` entries, duplicates within a block of four
    // or eight and across blocks).
    let repeated: Vec<i32> =
        exact_vec(&(0..n as i32).map(|j| if j == n as i32 - 1 { j } else { j / 2 }).collect::<Vec<_>>());
    let mut bits = Vec::new();
    for (lerp, index) in [(0.3, &index), (1.0, &index), (0.3, &repeated)] {
        let mut out = exact_vec(&joints);
        f(imp, &mut out, &blend, lerp, index).unwrap();
        bits.extend(common::bits(&out));
    }
    bits
}

fn skeleton_exact(f: roster::SkeletonFn, imp: Impl, n: usize) -> Vec<u32> {
    let mut rng = Rng::new(n as u64);
    let mats = exact_vec(&rigid_mats_from(&mut rng, n));
    let parents = exact_vec(&random_parents_from(&mut rng, n));
    let mut bits = Vec::new();
    // An empty range at the end of the slice (`n..=n - 1`), written as an
    // exhausted range so that it is empty for `n = 0` too.
    let mut empty = n..=n;
    empty.next();
    for range in [1..=n.saturating_sub(1), (n / 2).max(1)..=n.saturating_sub(1), empty] {
        if range.is_empty() && *range.start() > n {
            continue; // `1..=0` on no joints: out of bounds (tested elsewhere).
        }
        let mut out = exact_vec(&mats);
        f(imp, &mut out, &parents, range).unwrap();
        bits.extend(common::mat_bits(&out));
    }
    bits
}

/// A pose routine on `n` joints (a forest with a root every ninth joint),
/// every array of exactly `n` elements: blended at 0.3 with a scale and a
/// skin, then at 1 (no blend) without either: the model and skinning
/// matrices' bit patterns.
fn pose_exact(f: roster::PoseFn, imp: Impl, n: usize) -> Vec<u32> {
    use animasm::pose::{PoseInput, Skin};
    let mut rng = Rng::new(n as u64);
    let (from, to) = (exact_vec(&rng.joints(n)), exact_vec(&rng.joints(n)));
    let parents = exact_vec(&common::inputs::forest_parents(&mut rng, n, |i| i % 9 == 0));
    let scale: Vec<animasm::Vec4> = exact_vec(
        &(0..n)
            .map(|_| animasm::Vec4::new(rng.range(0.5, 2.0) as f32, 1.0, rng.range(0.5, 2.0) as f32, 1.0))
            .collect::<Vec<_>>(),
    );
    let inverse_bind = exact_vec(&rigid_mats_from(&mut rng, n));
    let mut model = exact_vec(&vec![JointMat::IDENTITY; n]);
    let mut skin = exact_vec(&vec![JointMat::IDENTITY; n]);
    let input = PoseInput::new(&from, &to, 0.3).with_scale(&scale);
    f(imp, &input, &parents, &mut model, Some(Skin { inverse_bind: &inverse_bind, mats: &mut skin })).unwrap();
    let mut bits = common::mat_bits(&model);
    bits.extend(common::mat_bits(&skin));
    f(imp, &PoseInput::new(&from, &to, 1.0), &parents, &mut model, None).unwrap();
    bits.extend(common::mat_bits(&model));
    bits
}

/// The run on exact buffers of a routine of a shape of this file; `None`
/// for the stream shapes, which `tests/properties_streams.rs` runs.
fn exact_run(r: &Routine) -> Option<ExactRun> {
    Some(match r.shape {
        Shape::JointBlend { safe, .. } => Box::new(move |imp, n| joint_blend_exact(safe, imp, n)),
        Shape::QuatsToMats { safe, .. } => Box::new(move |imp, n| {
            let quats = exact_vec(&Rng::new(n as u64).joints(n));
            let mut mats = exact_vec(&vec![JointMat::IDENTITY; n]);
            safe(imp, &mut mats, &quats).unwrap();
            common::mat_bits(&mats)
        }),
        Shape::MatsToQuats { safe, .. } => Box::new(move |imp, n| {
            let mats = exact_vec(&rigid_mats_from(&mut Rng::new(n as u64), n));
            let mut quats = exact_vec(&vec![JointQuat::default(); n]);
            safe(imp, &mut quats, &mats).unwrap();
            common::bits(&quats)
        }),
        Shape::Skeleton { safe, .. } => Box::new(move |imp, n| skeleton_exact(safe, imp, n)),
        Shape::TransformJoints { safe, .. } => Box::new(move |imp, n| {
            let mut rng = Rng::new(n as u64);
            let (a, b) = (exact_vec(&rigid_mats_from(&mut rng, n)), exact_vec(&rigid_mats_from(&mut rng, n)));
            let mut out = exact_vec(&vec![JointMat::IDENTITY; n]);
            safe(imp, &mut out, &a, &b).unwrap();
            common::mat_bits(&out)
        }),
        Shape::Pose { safe, .. } => Box::new(move |imp, n| pose_exact(safe, imp, n)),
        Shape::QuatPairs { .. } | Shape::Stream { .. } => return None,
        _ => panic!("{}: a shape that neither this file nor tests/properties_streams.rs runs", r.name),
    })
}

/// Why the successor forms of `r` (forms of [`Origin::Successor`]) did not
/// run here, if its table has some and none ran: what asking for each
/// gives (`Err(MissingCpuFeature)` where this CPU lacks its features, or
/// the `std` feature is off). `None` for a routine without successors
/// (`transform_skeleton_movss_shufps`): it has none to skip.
fn successors_not_run(r: &Routine) -> Option<String> {
    if r.forms().any(|f| f.origin == Origin::Successor) {
        return None;
    }
    let why: Vec<String> = r
        .all_forms()
        .filter(|f| f.origin == Origin::Successor)
        .map(|f| format!("{}: {:?}", f.imp, r.resolve(f.imp)))
        .collect();
    (!why.is_empty()).then(|| why.join(", "))
}

/// Every form of every routine of this file's shapes (the successors
/// included wherever this CPU runs them) on every count of
/// [`exact_buffer_counts`], on exact allocations whose last element the
/// kernel reaches (see [`ExactRun`]); the listing and its twin bit for bit.
/// Natively this only checks the results; under valgrind
/// (`scripts/memcheck.sh`) any read or write past an allocation is an
/// error. Prints the forms it ran, so a log shows whether the successors
/// were covered.
#[test]
fn every_kernel_reaches_the_end_of_exact_buffers() {
    for r in roster::ROUTINES {
        let Some(run) = exact_run(r) else { continue };
        let forms: Vec<FormInfo> = r.forms().collect();
        let names: Vec<&str> = forms.iter().map(|f| f.imp.name()).collect();
        eprintln!("{}: exact buffers with {}", r.name, names.join(", "));
        if let Some(why) = successors_not_run(r) {
            common::cpu::skipped(&format!(
                "{}: exact buffers: no successor form ran ({why}); ran {}",
                r.name,
                names.join(", ")
            ));
        }
        for n in exact_buffer_counts() {
            let outs: Vec<(FormInfo, Vec<u32>)> = forms.iter().map(|&f| (f, run(f.imp, n))).collect();
            if let Some((a, i)) = twins(&outs) {
                let same = a.iter().zip(i).all(|(&x, &y)| same_bits(f32::from_bits(x), f32::from_bits(y)));
                assert!(same && a.len() == i.len(), "{}, {n} joints: the listing and its twin differ", r.name);
            }
        }
    }
}

/// What the properties take of the roster: every routine of this file's
/// shapes runs its scalar form here, and has at most one listing and one
/// twin (the pair compared bit for bit).
#[test]
fn every_routine_runs_its_scalar_form() {
    for r in roster::ROUTINES.iter().filter(|r| exact_run(r).is_some()) {
        assert!(r.forms().any(|f| f == r.scalar_form()), "{}", r.name);
        for origin in [Origin::Listing, Origin::ListingTwin] {
            assert!(r.all_forms().filter(|f| f.origin == origin).count() <= 1, "{}: {origin:?}", r.name);
        }
    }
}
