//! Differential property tests at scale: one per safe routine, on inputs from
//! the shared strategies (`common::strategies`: unit quaternions, joint
//! lists, permuted and repeated `index` lists, parents-first hierarchies with
//! joint ranges, rigid and general matrices, edge interpolation factors).
//!
//! Each runs the safe function with every form of the routine's `forms()`
//! (so a new form, such as the `Impl::Avx2` successors, is checked as soon
//! as its row is in the routine's table), each on its own copy in an
//! allocation of exactly the input's length, and checks:
//! - [`Impl::Asm`] and [`Impl::Intrinsics`] bit for bit (NaN payloads aside,
//!   see `common::same_bits`);
//! - every implementation against an f64 oracle, within the bound the
//!   routine documents;
//! - the implementations against each other bit for bit where the routine
//!   documents that they agree;
//! - nothing outside what the routine writes has changed.
//!
//! [`every_kernel_reaches_the_end_of_exact_buffers`] runs every form of every
//! routine on every count `0..=67` (every tail of the 4-wide listings and of
//! the 8-wide successors, with zero to eight whole blocks before it) and a
//! few larger ones, on buffers that end where the kernel's last access is:
//! `scripts/memcheck.sh` runs this file under valgrind, which reports any
//! access past the end.
//!
//! 4000 cases per property keep the file within a few seconds in `cargo
//! test --release` (debug builds run an eighth); `PROPTEST_CASES` overrides
//! the count. Under Miri (`scripts/miri.sh`) the lists are short and each
//! test runs a few cases on the scalar and intrinsics paths (there is no asm
//! under Miri).

mod common;

use core::ops::RangeInclusive;

use animasm::{Error, Impl, JointMat, JointQuat};
use common::error::{mat_max_abs_diff, max_abs_diff, quat_diff_up_to_sign};
use common::inputs::{Rng, random_parents_from, rigid_mats_from};
use common::oracle::{
    affine_mul_f64, f64x4, lerp_f64, mat_f64, mat3_to_quat_f64, quat_to_mat3_f64, slerp_f64, vec4_lerp_f64,
};
use common::strategies::{
    config, general_mat, joint, joint_lists_and_index, len, lerp_factor, list, paper_rigid_mat, rigid_mat, skeleton,
};
use common::{assert_bit_identical, assert_mats_bit_identical, same_bits};
use proptest::prelude::*;

/// Unit roundoff of f32.
const U: f64 = f32::EPSILON as f64 / 2.0;

/// Cases per property natively (each is a list of up to 300 joints run by
/// every implementation) and under Miri.
const CASES: u32 = 4000;
const MIRI_CASES: u32 = 3;

// ---------------------------------------------------------------------------
// Helpers.

/// A copy of `v` in an allocation of exactly `v.len()` elements, so that its
/// last element ends the allocation (valgrind reports a read one past it).
fn exact<T: Clone>(v: &[T]) -> Vec<T> {
    let copy = v.to_vec();
    assert_eq!(copy.capacity(), copy.len(), "not an exact allocation");
    copy
}

/// Runs `f` with every form of `forms` (the routine's `forms()`) on an exact
/// copy of `init`; returns each form with its result. Panics on `Err`.
fn each_impl<T: Clone>(
    forms: impl IntoIterator<Item = Impl>,
    init: &[T],
    mut f: impl FnMut(Impl, &mut [T]) -> Result<(), Error>,
) -> Vec<(Impl, Vec<T>)> {
    forms
        .into_iter()
        .map(|imp| {
            let mut out = exact(init);
            f(imp, &mut out).unwrap_or_else(|e| panic!("{imp}: unexpected error: {e}"));
            (imp, out)
        })
        .collect()
}

/// The forms of `transform_skeleton_movss_shufps`, which has no `forms()` of
/// its own (its table lists the listing's variant and the scalar port): the
/// forms of `transform_skeleton` that it accepts (a call on an empty range
/// checks the form first and returns `Err(Unsupported)` for any other).
fn movss_shufps_forms() -> Vec<Impl> {
    let mut root = [JointMat::IDENTITY];
    animasm::transform_skeleton::forms()
        .filter(|&imp| {
            animasm::transform_skeleton_movss_shufps(imp, &mut root, &[-1], RangeInclusive::new(1, 0)).is_ok()
        })
        .collect()
}

/// Whether `imp` is one of the listing's forms (the asm port and its
/// intrinsics twin), which keep the listing's errata.
fn is_listing(imp: Impl) -> bool {
    matches!(imp, Impl::Asm | Impl::Intrinsics)
}

fn result_of<T>(outs: &[(Impl, Vec<T>)], imp: Impl) -> Option<&[T]> {
    outs.iter().find(|(i, _)| *i == imp).map(|(_, v)| v.as_slice())
}

/// asm against intrinsics, bit for bit, where both ran.
#[track_caller]
fn assert_joint_twins(outs: &[(Impl, Vec<JointQuat>)], ctx: &str) {
    if let (Some(a), Some(i)) = (result_of(outs, Impl::Asm), result_of(outs, Impl::Intrinsics)) {
        assert_bit_identical(a, i, &format!("{ctx}: asm vs intrinsics"));
    }
}

/// asm against intrinsics, bit for bit, where both ran.
#[track_caller]
fn assert_mat_twins(outs: &[(Impl, Vec<JointMat>)], ctx: &str) {
    if let (Some(a), Some(i)) = (result_of(outs, Impl::Asm), result_of(outs, Impl::Intrinsics)) {
        assert_mats_bit_identical(a, i, &format!("{ctx}: asm vs intrinsics"));
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

/// Panics unless `a` and `b` agree by [`same_bits`] in every float or are
/// both zeros of either sign. `transform_skeleton`'s listing turns a `-0.0`
/// in the rotation part into `+0.0` (erratum E1); a child of such a joint
/// can then sum its zeros, translation included, to the other sign than the
/// scalar port does (for example a parent whose row 2 is all `-0.0`, times a
/// zero local matrix, then an identity child).
#[track_caller]
fn assert_same_up_to_sign_of_zero(a: &[JointMat], b: &[JointMat], ctx: &str) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths differ");
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for e in 0..12 {
            let (u, v) = (x.mat[e], y.mat[e]);
            assert!(same_bits(u, v) || (u == 0.0 && v == 0.0), "{ctx}: joint {j} mat[{e}]: {u:e} vs {v:e}");
        }
    }
}

/// Asserts `got` is within `k` roundings of `want` = `a * b` (3x4 affine,
/// computed in f64): element by element, `|got - want| <= k u scale`, where
/// `scale` is the sum of the magnitudes of the terms.
#[track_caller]
fn assert_affine_product(got: &JointMat, a: &JointMat, b: &JointMat, k: f64, ctx: &str) {
    let want = affine_mul_f64(mat_f64(a), mat_f64(b));
    for (e, &exact) in want.iter().enumerate() {
        let (r, c) = (e / 4, e % 4);
        let mut scale: f64 = (0..3).map(|i| (f64::from(a.mat[r * 4 + i]) * f64::from(b.mat[i * 4 + c])).abs()).sum();
        if c == 3 {
            scale += f64::from(a.mat[r * 4 + 3]).abs();
        }
        let err = (f64::from(got.mat[e]) - exact).abs();
        let bound = k * U * scale * (1.0 + 1e-6);
        assert!(err <= bound, "{ctx}: mat[{r}*4+{c}] = {:e}, exact {exact:e}: error {err:e} > {bound:e}", got.mat[e]);
    }
}

// ---------------------------------------------------------------------------
// slerp_joints and lerp_joints.

type JointFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

struct JointRoutine {
    name: &'static str,
    f: JointFn,
    /// The routine's `forms()`.
    forms: fn() -> Vec<Impl>,
    oracle: fn([f64; 4], [f64; 4], f64) -> [f64; 4],
    /// Max abs error of a rotation component against the oracle (unit
    /// quaternions, distinct indices), as `tests/slerp_joints.rs` and `tests/lerp_joints.rs`.
    rot_bound: f64,
}

const SLERP: JointRoutine = JointRoutine {
    name: "slerp_joints",
    f: animasm::slerp_joints,
    forms: || animasm::slerp_joints::forms().collect(),
    oracle: slerp_f64,
    rot_bound: 5e-7,
};
const LERP: JointRoutine = JointRoutine {
    name: "lerp_joints",
    f: animasm::lerp_joints,
    forms: || animasm::lerp_joints::forms().collect(),
    oracle: lerp_f64,
    rot_bound: 3e-7,
};

/// Max abs error of a translation component (in `[-10, 10)`) against the f64
/// lerp.
const TRANS_BOUND: f64 = 4e-6;

fn check_joint_routine(
    r: &JointRoutine,
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
    unique: bool,
) {
    let (blend_x, index_x) = (exact(blend), exact(index));
    let outs = each_impl((r.forms)(), joints, |imp, out| (r.f)(imp, out, &blend_x, lerp, &index_x));
    let ctx = format!("{}: {} joints, {} indices, lerp {lerp:e}", r.name, joints.len(), index.len());
    assert_joint_twins(&outs, &ctx);
    let mut indexed = vec![false; joints.len()];
    for &j in index {
        indexed[j as usize] = true;
    }
    for (imp, out) in &outs {
        for (j, (&was, got)) in joints.iter().zip(out).enumerate() {
            let ctx = format!("{ctx}: {imp} joint {j}");
            if !indexed[j] || lerp <= 0.0 {
                assert_bit_identical(&[*got], &[was], &format!("{ctx} (kept)"));
            } else if lerp >= 1.0 {
                assert_bit_identical(&[*got], &[blend[j]], &format!("{ctx} (copied)"));
            } else if unique {
                let t = f64::from(lerp);
                let want = (r.oracle)(f64x4(was.q.to_array()), f64x4(blend[j].q.to_array()), t);
                let e = max_abs_diff(got.q.to_array(), want);
                assert!(e <= r.rot_bound, "{ctx}: rotation error {e:e} > {:e}", r.rot_bound);
                let want = vec4_lerp_f64(f64x4(was.t.to_array()), f64x4(blend[j].t.to_array()), t);
                let e = max_abs_diff(got.t.to_array(), want);
                assert!(e <= TRANS_BOUND, "{ctx}: translation error {e:e}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The skeleton transforms.

type SkeletonFn = fn(Impl, &mut [JointMat], &[i32], RangeInclusive<usize>) -> Result<(), Error>;

/// Joints outside `range` (or every joint, for an empty range) as they were.
#[track_caller]
fn assert_outside_kept(out: &[JointMat], mats: &[JointMat], range: &RangeInclusive<usize>, ctx: &str) {
    for (j, (got, was)) in out.iter().zip(mats).enumerate() {
        if !range.contains(&j) {
            assert_mats_bit_identical(&[*got], &[*was], &format!("{ctx}: joint {j} outside the range"));
        }
    }
}

// ---------------------------------------------------------------------------
// The properties.

proptest! {
    #![proptest_config(config(CASES, MIRI_CASES))]

    /// `slerp_joints`: asm and intrinsics bit for bit; every implementation
    /// within 5e-7 of the f64 slerp (rotations) and 4e-6 of the f64 lerp
    /// (translations) on every indexed joint; joints not indexed kept;
    /// `lerp <= 0` keeps and `lerp >= 1` copies. Indices with repeats
    /// (documented to change results) are checked for everything but the
    /// oracle.
    #[test]
    fn slerp_joints_differential((joints, blend, index, unique) in joint_lists_and_index(), lerp in lerp_factor()) {
        check_joint_routine(&SLERP, &joints, &blend, lerp, &index, unique);
    }

    /// `lerp_joints`: as `slerp_joints`, against the f64 normalised lerp
    /// within 3e-7.
    #[test]
    fn lerp_joints_differential((joints, blend, index, unique) in joint_lists_and_index(), lerp in lerp_factor()) {
        check_joint_routine(&LERP, &joints, &blend, lerp, &index, unique);
    }

    /// `quats_to_mats`: asm and intrinsics bit for bit; the scalar port the
    /// same off the diagonal and within two roundings on it; every
    /// implementation within 2.4e-7 of the paper's matrix computed in f64;
    /// translations copied bit for bit.
    #[test]
    fn quats_to_mats_differential(quats in len().prop_flat_map(|n| list(joint(), n))) {
        let quats_x = exact(&quats);
        let outs = each_impl(animasm::quats_to_mats::forms(), &vec![JointMat::IDENTITY; quats.len()], |imp, out| animasm::quats_to_mats(imp, out, &quats_x));
        assert_mat_twins(&outs, "quats_to_mats");
        for (imp, out) in &outs {
            for (j, (m, q)) in out.iter().zip(&quats).enumerate() {
                let ctx = format!("quats_to_mats {imp} joint {j}");
                // Section 3's M is the transpose of the column-vector matrix.
                let r = quat_to_mat3_f64(f64x4(q.q.to_array()));
                let want: [f64; 12] = core::array::from_fn(|e| if e % 4 == 3 { f64::from(q.t.to_array()[e / 4]) } else { r[e % 4][e / 4] });
                let err = mat_max_abs_diff(&m.mat, &want);
                prop_assert!(err <= 2.4e-7, "{ctx}: error {err:e}");
                for row in 0..3 {
                    prop_assert!(same_bits(m.mat[row * 4 + 3], q.t.to_array()[row]), "{ctx}: translation {row} not copied");
                }
            }
        }
        if let (Some(s), Some(i)) = (result_of(&outs, Impl::Scalar), result_of(&outs, Impl::Intrinsics)) {
            for (j, (s, i)) in s.iter().zip(i).enumerate() {
                for e in 0..12 {
                    let ctx = format!("quats_to_mats joint {j} mat[{e}]: scalar {:e} vs intrinsics {:e}", s.mat[e], i.mat[e]);
                    if e % 5 == 0 {
                        prop_assert!((s.mat[e] - i.mat[e]).abs() <= 2.0 * f32::EPSILON, "{ctx}");
                    } else {
                        prop_assert!(same_bits(s.mat[e], i.mat[e]), "{ctx}");
                    }
                }
            }
        }
    }

    /// `mats_to_quats` on rotations rounded to f32 (the paper's transposed
    /// convention): asm and intrinsics bit for bit; every implementation
    /// within its bound of the f64 quaternion up to sign (1e-6 with
    /// `rsqrtps` and a Newton-Raphson step, 1.8e-3 with the C's
    /// `ReciprocalSqrt`); translations copied with `t.w = 0`.
    #[test]
    fn mats_to_quats_differential(mats in len().prop_flat_map(|n| list(paper_rigid_mat(), n))) {
        let mats_x = exact(&mats);
        let init = vec![JointQuat::default(); mats.len()];
        let outs = each_impl(animasm::mats_to_quats::forms(), &init, |imp, out| animasm::mats_to_quats(imp, out, &mats_x));
        assert_joint_twins(&outs, "mats_to_quats");
        for (imp, out) in &outs {
            let bound = if *imp == Impl::Scalar { 1.8e-3 } else { 1e-6 };
            for (j, (q, m)) in out.iter().zip(&mats).enumerate() {
                let ctx = format!("mats_to_quats {imp} joint {j}");
                // Back to the column-vector rotation for the oracle.
                let r: [[f64; 3]; 3] = core::array::from_fn(|row| core::array::from_fn(|col| f64::from(m.mat[col * 4 + row])));
                let err = quat_diff_up_to_sign(f64x4(q.q.to_array()), mat3_to_quat_f64(r));
                prop_assert!(err <= bound, "{ctx}: error {err:e} > {bound:e}");
                let t = [m.mat[3], m.mat[7], m.mat[11], 0.0].map(f32::to_bits);
                prop_assert_eq!(q.t.to_array().map(f32::to_bits), t, "{}: translation", ctx);
            }
        }
    }

    /// `transform_skeleton` and `transform_skeleton_movss_shufps`: asm and
    /// intrinsics bit for bit, each variant the same as the other, the
    /// scalar port the same up to the sign of zeros (erratum E1: the listing
    /// writes no `-0.0` in the rotation part); every
    /// joint of the range within four roundings of its global parent (as
    /// computed) times its local matrix in f64; every other joint kept.
    #[test]
    fn transform_skeleton_differential((mats, parents, range) in skeleton(rigid_mat)) {
        let fns: [(&str, SkeletonFn, Vec<Impl>); 2] = [
            ("transform_skeleton", animasm::transform_skeleton, animasm::transform_skeleton::forms().collect()),
            ("transform_skeleton_movss_shufps", animasm::transform_skeleton_movss_shufps, movss_shufps_forms()),
        ];
        let parents_x = exact(&parents);
        let mut first: Option<Vec<(Impl, Vec<JointMat>)>> = None;
        for (name, f, forms) in fns {
            let outs = each_impl(forms, &mats, |imp, out| f(imp, out, &parents_x, range.clone()));
            let ctx = format!("{name}: {} joints, range {range:?}", mats.len());
            assert_mat_twins(&outs, &ctx);
            if let (Some(s), Some(i)) = (result_of(&outs, Impl::Scalar), result_of(&outs, Impl::Intrinsics)) {
                assert_same_up_to_sign_of_zero(s, i, &format!("{ctx}: scalar vs intrinsics"));
            }
            for (imp, out) in &outs {
                let ctx = format!("{ctx}: {imp}");
                assert_outside_kept(out, &mats, &range, &ctx);
                if is_listing(*imp) {
                    // Erratum E1: the listing adds `+0.0` to the rotation
                    // columns (a successor documents and tests its own
                    // choice in `tests/transform_skeleton.rs`).
                    for i in range.clone() {
                        let m = out[i].mat;
                        assert!((0..12).all(|e| e % 4 == 3 || m[e].to_bits() != 0x8000_0000), "{ctx}: joint {i}: -0.0 in {m:?}");
                    }
                }
                for i in range.clone() {
                    let p = parents[i] as usize;
                    assert_affine_product(&out[i], &out[p], &mats[i], 4.0, &format!("{ctx}: joint {i} (parent {p})"));
                }
            }
            match &first {
                None => first = Some(outs),
                Some(prev) => {
                    // The forms both variants have (the variant has no
                    // successor of its own).
                    for (imp, b) in &outs {
                        if let Some(a) = result_of(prev, *imp) {
                            assert_mats_bit_identical(a, b, &format!("{ctx}: {imp}: pshufd vs movss + shufps"));
                        }
                    }
                }
            }
        }
    }

    /// `untransform_skeleton`: all three implementations bit for bit (finite
    /// input); every joint of the range within five roundings of `Rp^T (M -
    /// tp)` in f64, with the parent as it was (the routine runs last joint
    /// first, so a parent is still global when its children read it); every
    /// other joint kept.
    #[test]
    fn untransform_skeleton_differential((mats, parents, range) in skeleton(rigid_mat)) {
        let parents_x = exact(&parents);
        let outs = each_impl(animasm::untransform_skeleton::forms(), &mats, |imp, out| animasm::untransform_skeleton(imp, out, &parents_x, range.clone()));
        let ctx = format!("untransform_skeleton: {} joints, range {range:?}", mats.len());
        assert_mat_twins(&outs, &ctx);
        if let (Some(s), Some(i)) = (result_of(&outs, Impl::Scalar), result_of(&outs, Impl::Intrinsics)) {
            assert_mats_bit_identical(s, i, &format!("{ctx}: scalar vs intrinsics"));
        }
        for (imp, out) in &outs {
            let ctx = format!("{ctx}: {imp}");
            assert_outside_kept(out, &mats, &range, &ctx);
            for i in range.clone() {
                let (pm, m) = (mat_f64(&mats[parents[i] as usize]), mat_f64(&mats[i]));
                for e in 0..12 {
                    let (r, c) = (e / 4, e % 4);
                    let d = |k: usize| m[k * 4 + c] - if c == 3 { pm[k * 4 + 3] } else { 0.0 };
                    let want: f64 = (0..3).map(|k| pm[k * 4 + r] * d(k)).sum();
                    let scale: f64 = (0..3)
                        .map(|k| pm[k * 4 + r].abs() * (m[k * 4 + c].abs() + if c == 3 { pm[k * 4 + 3].abs() } else { 0.0 }))
                        .sum();
                    let err = (f64::from(out[i].mat[e]) - want).abs();
                    prop_assert!(err <= 5.0 * U * scale * (1.0 + 1e-6), "{ctx}: joint {i} mat[{e}]: error {err:e}, scale {scale:e}");
                }
            }
        }
    }

    /// `transform_joints` on general matrices: asm and intrinsics bit for
    /// bit, the scalar port the same up to the listing's `-0.0` to `+0.0`;
    /// every implementation within four roundings of the f64 product.
    #[test]
    fn transform_joints_differential((a, b) in len().prop_flat_map(|n| (list(general_mat(), n), list(general_mat(), n)))) {
        let (a_x, b_x) = (exact(&a), exact(&b));
        let outs = each_impl(animasm::transform_joints::forms(), &vec![JointMat::IDENTITY; a.len()], |imp, out| animasm::transform_joints(imp, out, &a_x, &b_x));
        let ctx = format!("transform_joints: {} joints", a.len());
        assert_mat_twins(&outs, &ctx);
        if let (Some(s), Some(i)) = (result_of(&outs, Impl::Scalar), result_of(&outs, Impl::Intrinsics)) {
            assert_mats_bit_identical(&as_listing(s), i, &format!("{ctx}: scalar (as the listing) vs intrinsics"));
        }
        for (imp, out) in &outs {
            for j in 0..a.len() {
                assert_affine_product(&out[j], &a[j], &b[j], 4.0, &format!("{ctx}: {imp} joint {j}"));
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Every kernel on exact buffers, for memcheck.

/// The counts [`every_kernel_reaches_the_end_of_exact_buffers`] runs: every
/// count `0..=67`, so every tail of the 4-wide listings' loops and of the
/// 8-wide successors' (`n % 8` in `0..8`) after zero to eight whole blocks,
/// and a few larger lists around 128 and 1024.
fn exact_buffer_counts() -> Vec<usize> {
    if cfg!(miri) { (0..=9).collect() } else { (0..=67).chain([127, 128, 129, 1023]).collect() }
}

/// One routine on `n` joints with implementation `imp`, on buffers of exactly
/// the length the call reads or writes, with the last element of each
/// reached (the last joint indexed, the range ending at the last joint and
/// `parents` ending at its entry): the output's bit patterns.
type ExactRun = fn(Impl, usize) -> Vec<u32>;

fn joint_routine_exact(f: JointFn, imp: Impl, n: usize) -> Vec<u32> {
    let mut rng = Rng::new(n as u64);
    let (joints, blend) = (exact(&rng.joints(n)), exact(&rng.joints(n)));
    // Every joint once, the last one last (`index` ends with the joint that
    // ends `joints` and `blend`), in an order that is not the identity.
    let index: Vec<i32> = exact(&(0..n as i32).map(|j| (j + 1) % n as i32).collect::<Vec<_>>());
    // Every joint but the last twice in a row, then the last one, which ends
    // `joints` and `blend` (`n` entries, duplicates within a block of four
    // or eight and across blocks).
    let repeated: Vec<i32> =
        exact(&(0..n as i32).map(|j| if j == n as i32 - 1 { j } else { j / 2 }).collect::<Vec<_>>());
    let mut bits = Vec::new();
    for (lerp, index) in [(0.3, &index), (1.0, &index), (0.3, &repeated)] {
        let mut out = exact(&joints);
        f(imp, &mut out, &blend, lerp, index).unwrap();
        bits.extend(common::bits(&out));
    }
    bits
}

fn skeleton_exact(f: SkeletonFn, imp: Impl, n: usize) -> Vec<u32> {
    let mut rng = Rng::new(n as u64);
    let mats = exact(&rigid_mats_from(&mut rng, n));
    let parents = exact(&random_parents_from(&mut rng, n));
    let mut bits = Vec::new();
    // An empty range at the end of the slice (`n..=n - 1`), written as an
    // exhausted range so that it is empty for `n = 0` too.
    let mut empty = n..=n;
    empty.next();
    for range in [1..=n.saturating_sub(1), (n / 2).max(1)..=n.saturating_sub(1), empty] {
        if range.is_empty() && *range.start() > n {
            continue; // `1..=0` on no joints: out of bounds (tested elsewhere).
        }
        let mut out = exact(&mats);
        f(imp, &mut out, &parents, range).unwrap();
        bits.extend(common::mat_bits(&out));
    }
    bits
}

/// A routine's forms (its `forms()`).
type Forms = fn() -> Vec<Impl>;

/// Every routine: its name, its forms and its run on exact buffers.
const EXACT_RUNS: [(&str, Forms, ExactRun); 8] = [
    (
        "slerp_joints",
        || animasm::slerp_joints::forms().collect(),
        |imp, n| joint_routine_exact(animasm::slerp_joints, imp, n),
    ),
    (
        "lerp_joints",
        || animasm::lerp_joints::forms().collect(),
        |imp, n| joint_routine_exact(animasm::lerp_joints, imp, n),
    ),
    (
        "quats_to_mats",
        || animasm::quats_to_mats::forms().collect(),
        |imp, n| {
            let quats = exact(&Rng::new(n as u64).joints(n));
            let mut mats = exact(&vec![JointMat::IDENTITY; n]);
            animasm::quats_to_mats(imp, &mut mats, &quats).unwrap();
            common::mat_bits(&mats)
        },
    ),
    (
        "mats_to_quats",
        || animasm::mats_to_quats::forms().collect(),
        |imp, n| {
            let mats = exact(&rigid_mats_from(&mut Rng::new(n as u64), n));
            let mut quats = exact(&vec![JointQuat::default(); n]);
            animasm::mats_to_quats(imp, &mut quats, &mats).unwrap();
            common::bits(&quats)
        },
    ),
    (
        "transform_skeleton",
        || animasm::transform_skeleton::forms().collect(),
        |imp, n| skeleton_exact(animasm::transform_skeleton, imp, n),
    ),
    ("transform_skeleton_movss_shufps", movss_shufps_forms, |imp, n| {
        skeleton_exact(animasm::transform_skeleton_movss_shufps, imp, n)
    }),
    (
        "untransform_skeleton",
        || animasm::untransform_skeleton::forms().collect(),
        |imp, n| skeleton_exact(animasm::untransform_skeleton, imp, n),
    ),
    (
        "transform_joints",
        || animasm::transform_joints::forms().collect(),
        |imp, n| {
            let mut rng = Rng::new(n as u64);
            let (a, b) = (exact(&rigid_mats_from(&mut rng, n)), exact(&rigid_mats_from(&mut rng, n)));
            let mut out = exact(&vec![JointMat::IDENTITY; n]);
            animasm::transform_joints(imp, &mut out, &a, &b).unwrap();
            common::mat_bits(&out)
        },
    ),
];

/// What the routine `name` (a row of [`EXACT_RUNS`]) says of `Impl::Avx2`:
/// `Err(Unsupported)` where the build has no such form,
/// `Err(MissingCpuFeature)` where this CPU lacks AVX2 or FMA.
fn avx2_status(name: &str) -> Result<Impl, Error> {
    match name {
        "slerp_joints" => animasm::slerp_joints::resolve(Impl::Avx2),
        "lerp_joints" => animasm::lerp_joints::resolve(Impl::Avx2),
        "quats_to_mats" => animasm::quats_to_mats::resolve(Impl::Avx2),
        "mats_to_quats" => animasm::mats_to_quats::resolve(Impl::Avx2),
        "untransform_skeleton" => animasm::untransform_skeleton::resolve(Impl::Avx2),
        "transform_joints" => animasm::transform_joints::resolve(Impl::Avx2),
        "transform_skeleton_movss_shufps" => {
            animasm::transform_skeleton_movss_shufps(Impl::Avx2, &mut [], &[], RangeInclusive::new(1, 0))
                .map(|()| Impl::Avx2)
        }
        _ => animasm::transform_skeleton::resolve(Impl::Avx2),
    }
}

/// Every form of every routine's `forms()` (the `Impl::Avx2` successors
/// included wherever this CPU runs them) on every count of
/// [`exact_buffer_counts`], on exact allocations whose last element the
/// kernel reaches (see [`ExactRun`]); asm and intrinsics bit for bit.
/// Natively this only checks the results; under valgrind
/// (`scripts/memcheck.sh`) any read or write past an allocation is an
/// error. Prints the forms it ran, so a log shows whether the successors
/// were covered.
#[test]
fn every_kernel_reaches_the_end_of_exact_buffers() {
    for (name, forms, run) in EXACT_RUNS {
        let forms = forms();
        let names: Vec<&str> = forms.iter().map(|imp| imp.name()).collect();
        eprintln!("{name}: exact buffers with {}", names.join(", "));
        if !forms.contains(&Impl::Avx2) {
            eprintln!("{name}: no Impl::Avx2 form here ({:?}): only the forms above ran", avx2_status(name));
        }
        for n in exact_buffer_counts() {
            let outs: Vec<(Impl, Vec<u32>)> = forms.iter().map(|&imp| (imp, run(imp, n))).collect();
            if let (Some(a), Some(i)) = (result_of(&outs, Impl::Asm), result_of(&outs, Impl::Intrinsics)) {
                let same = a.iter().zip(i).all(|(&x, &y)| same_bits(f32::from_bits(x), f32::from_bits(y)));
                assert!(same && a.len() == i.len(), "{name}, {n} joints: asm and intrinsics differ");
            }
        }
    }
}
