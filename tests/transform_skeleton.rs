//! `transform_skeleton` (*The Skeleton Assembly Line*, section 3 and
//! Appendix A): the asm listing, its `movss` + `shufps` variant and their
//! intrinsics twins bit for bit; all of them against the scalar C port and
//! an f64 oracle; the real Fox hierarchy against the float64 local-to-model
//! reference of `data/Fox.glb.pose.json` and the inverse bind matrices; the
//! ranges (from 0, from 1, empty, single joint, split); every error with
//! nothing written; erratum E1; and the successors `Impl::Avx2`,
//! `Impl::Portable` and `Impl::Neon` (`mod successor`: each other's bits on
//! every count, hard inputs and arbitrary bits; every count, the Fox,
//! special values, hierarchies, buffer ends, the listing behaviours they
//! keep and the erratum they correct).

mod common;

use animasm::transform_skeleton::{MAX_JOINTS, scalar, transform_skeleton, transform_skeleton_movss_shufps};
use animasm::{Error, Impl, JointMat};
use approx::RelativeEq;
use common::error::{rot_trans_diff, translation_max_norm};
use common::fox;
use common::harness::Routine;
use common::inputs::{Rng, random_parents_from, random_skeleton, rigid_mats_from};
use common::oracle::{
    affine_from_f64, affine_mul_f64, local_to_model_f64, mat_f64, mats_f64, quat_to_mat3_f64, transform_skeleton_f64,
    transpose3,
};
use common::shapes::{self, SkeletonIn};
use common::{assert_mats_bit_identical, mat_bits};

/// `transform_skeleton` in the generic harness (`tests/common/harness.rs`):
/// every form within 1e-5 of the scalar port and 1e-4 of the f64
/// local-to-model transform.
struct TransformSkeleton;

impl Routine for TransformSkeleton {
    const NAME: &'static str = "transform_skeleton";
    type Shape = shapes::Skeleton;
    const TOL_SCALAR: f64 = 1e-5;
    const TOL_ORACLE: f64 = 1e-4;
    fn oracle_error(out: &[JointMat], init: &[JointMat], i: &SkeletonIn) -> f64 {
        shapes::skeleton::oracle_error(out, init, i, transform_skeleton_f64)
    }
}

/// `transform_skeleton_movss_shufps` in the generic harness: the same
/// bounds and oracle as `transform_skeleton`.
struct TransformSkeletonMovssShufps;

impl Routine for TransformSkeletonMovssShufps {
    const NAME: &'static str = "transform_skeleton_movss_shufps";
    type Shape = shapes::Skeleton;
    const TOL_SCALAR: f64 = TransformSkeleton::TOL_SCALAR;
    const TOL_ORACLE: f64 = TransformSkeleton::TOL_ORACLE;
    fn oracle_error(out: &[JointMat], init: &[JointMat], i: &SkeletonIn) -> f64 {
        TransformSkeleton::oracle_error(out, init, i)
    }
}

harness_tests!(TransformSkeleton);

/// The harness checks of `transform_skeleton_movss_shufps`.
mod movss_shufps {
    use super::*;
    harness_tests!(TransformSkeletonMovssShufps);
}
use core::ops::RangeInclusive;

/// A raw kernel: `(jointMats, parents, firstJoint, lastJoint)`.
type Kernel = unsafe fn(*mut JointMat, *const i32, i32, i32);
/// A safe function of the module.
type SafeFn = fn(Impl, &mut [JointMat], &[i32], RangeInclusive<usize>) -> Result<(), Error>;

const SAFE_FNS: [(&str, SafeFn); 2] =
    [("transform_skeleton", transform_skeleton), ("transform_skeleton_movss_shufps", transform_skeleton_movss_shufps)];

/// The forms this CPU runs of the safe function `name` (the variant has no
/// successor form).
fn forms_of(name: &str) -> Vec<Impl> {
    if name == "transform_skeleton" { TransformSkeleton::forms() } else { TransformSkeletonMovssShufps::forms() }
}

/// [`forms_of`] without the successor: the forms that compute the C's sums
/// in the C's order (bit-identical to the scalar port, erratum E1 aside).
fn listing_forms_of(name: &str) -> Vec<Impl> {
    let r = animasm::roster::find(name).expect("a roster routine");
    let successor = |imp: Impl| r.all_forms().any(|f| f.imp == imp && f.origin == animasm::Origin::Successor);
    forms_of(name).into_iter().filter(|&imp| !successor(imp)).collect()
}

// ---------------------------------------------------------------------------
// Helpers.

/// A 3x4 matrix rounded to f32.
fn to_mat(m: [f64; 12]) -> JointMat {
    JointMat { mat: m.map(|v| v as f32) }
}

/// Runs a raw kernel on a copy of `mats`, after checking what the kernels'
/// contract needs (range inside `mats` and `parents`, every parent of the
/// range a joint of `mats`; `p >= i` is allowed for the asm and intrinsics
/// kernels, so only the scalar callers must pass `p != i`).
fn run(k: Kernel, mats: &[JointMat], parents: &[i32], first: i32, last: i32) -> Vec<JointMat> {
    let mut out = mats.to_vec();
    if first <= last {
        assert!(first >= 0 && (last as usize) < mats.len() && (last as usize) < parents.len());
        assert!(mats.len() <= MAX_JOINTS);
        assert!((first..=last).all(|i| parents[i as usize] >= 0 && (parents[i as usize] as usize) < mats.len()));
    }
    // SAFETY: checked above; a Vec of align(16) JointMat is 16-byte aligned.
    unsafe { k(out.as_mut_ptr(), parents.as_ptr(), first, last) };
    out
}

/// The f64 oracle: `g[i] = g[parents[i]] * g[i]` for `i` in `first..=last`,
/// from the f32 input widened to f64.
fn oracle(mats: &[JointMat], parents: &[i32], range: RangeInclusive<usize>) -> Vec<[f64; 12]> {
    transform_skeleton_f64(&mats_f64(mats), parents, range)
}

/// Max abs error of the rotation elements and of the translation elements.
fn errors(got: &[JointMat], want: &[[f64; 12]]) -> (f64, f64) {
    got.iter()
        .zip(want)
        .map(|(g, w)| rot_trans_diff(&g.mat, w))
        .fold((0.0, 0.0), |(r, t), (gr, gt)| (r.max(gr), t.max(gt)))
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Kernel;
    use animasm::transform_skeleton::{asm, intrinsics};

    /// Every SIMD kernel, the listing's asm first (the reference of the
    /// bit-for-bit comparisons).
    pub const SIMD_KERNELS: [(&str, Kernel); 4] = [
        ("asm", asm::transform_skeleton),
        ("intrinsics", intrinsics::transform_skeleton),
        ("asm movss+shufps", asm::transform_skeleton_movss_shufps),
        ("intrinsics movss+shufps", intrinsics::transform_skeleton_movss_shufps),
    ];
}

/// Runs every SIMD kernel on the same input and asserts that they agree bit
/// for bit with the listing's asm; returns the asm's output.
#[cfg(target_arch = "x86_64")]
#[track_caller]
fn assert_simd_twins(mats: &[JointMat], parents: &[i32], first: i32, last: i32, ctx: &str) -> Vec<JointMat> {
    let reference = run(x86::SIMD_KERNELS[0].1, mats, parents, first, last);
    for &(name, k) in &x86::SIMD_KERNELS[1..] {
        let out = run(k, mats, parents, first, last);
        assert_mats_bit_identical(&reference, &out, &format!("{ctx}: asm vs {name} ({first}..={last})"));
    }
    reference
}

// ---------------------------------------------------------------------------
// The SIMD kernels against each other, bit for bit.

/// Counts 0..=12 and 1024 transformed joints (`1..=n` of `n + 1`), and
/// sub-ranges, random parents-first hierarchies.
#[cfg(target_arch = "x86_64")]
#[test]
fn simd_twins_bit_identical_on_every_count() {
    for n in (0..=12).chain([100, 1023, 1024]) {
        let (mats, parents) = random_skeleton(n as u64, n + 1);
        assert_simd_twins(&mats, &parents, 1, n as i32, &format!("n = {n}"));
        if n >= 4 {
            assert_simd_twins(&mats, &parents, 3, n as i32 - 1, &format!("n = {n}, inner range"));
        }
    }
}

/// Special values in every position of child and parent: NaN, infinities,
/// signed zeros, subnormals, the largest finite values (products overflow).
#[cfg(target_arch = "x86_64")]
#[test]
fn simd_twins_bit_identical_on_special_values() {
    // NaN, -NaN, inf, -inf, 0, -0, the subnormals MIN_POSITIVE / 4 and
    // -MIN_POSITIVE / 8, MAX, MIN, 1, -1.
    let specials = animasm_testkit::edges::pick([25, 26, 23, 24, 0, 1, 11, 12, 21, 22, 2, 3]);
    let mut rng = Rng::new(7);
    let n = 64;
    let parents = random_parents_from(&mut rng, n);
    for round in 0..16 {
        let mut mats = rigid_mats_from(&mut rng, n);
        for m in mats.iter_mut() {
            for e in 0..12 {
                if rng.below(3) == 0 {
                    m.mat[e] = specials[(rng.below(specials.len()) + round) % specials.len()];
                }
            }
        }
        assert_simd_twins(&mats, &parents, 1, n as i32 - 1, &format!("special values, round {round}"));
    }
}

/// The raw kernels also take parents that are not before their joint (the
/// safe function refuses them; memory-safe in the asm): the joint itself,
/// whose rows the listing reads back after storing some of them, and later
/// joints, read untransformed. The twins agree there too.
#[cfg(target_arch = "x86_64")]
#[test]
fn simd_twins_bit_identical_with_self_and_later_parents() {
    let mut rng = Rng::new(11);
    let n = 40;
    let mats = rigid_mats_from(&mut rng, n);
    let parents: Vec<i32> = (0..n).map(|i| if i % 3 == 0 { i as i32 } else { rng.below(n) as i32 }).collect();
    let out = assert_simd_twins(&mats, &parents, 0, n as i32 - 1, "self and later parents");
    // Joint 0 is its own parent: row 0 is b * a with b = a (read before the
    // store), rows 1 and 2 read the parent's rows 1 and 2 after row 0 was
    // stored (unchanged rows), so each row r is `a[r][..] * a`.
    let a = mat_f64(&mats[0]);
    let aa = affine_mul_f64(a, a);
    for (e, &want) in aa.iter().enumerate() {
        let tol = 1e-4 * want.abs().max(1.0);
        assert!((f64::from(out[0].mat[e]) - want).abs() <= tol, "self parent, mat[{e}]");
    }
}

#[cfg(target_arch = "x86_64")]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(animasm_testkit::strategies::config(256, 2))]

        /// Arbitrary bit patterns in every float; arbitrary in-bounds parents
        /// (before, at or after their joint); arbitrary ranges, empty ones
        /// included.
        #[test]
        fn simd_twins_on_arbitrary_bits(
            m in proptest::collection::vec(any::<[u32; 12]>(), 1..14),
            parent_seeds in proptest::collection::vec(any::<u32>(), 14),
            a in 0usize..14,
            b in 0usize..14,
        ) {
            let n = m.len();
            let mats: Vec<JointMat> = m.iter().map(|b| JointMat { mat: b.map(f32::from_bits) }).collect();
            let parents: Vec<i32> = (0..n).map(|i| (parent_seeds[i] as usize % n) as i32).collect();
            let (first, last) = (a.min(n - 1) as i32, b.min(n - 1) as i32);
            let before = mat_bits(&mats);
            let out = assert_simd_twins(&mats, &parents, first, last, "arbitrary bits");
            if first > last {
                prop_assert_eq!(mat_bits(&out), before);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The scalar port, the listing and the f64 oracle.

/// The listing computes the C's sums in the C's order: on valid skeletons
/// (no `-0.0` in the result, see erratum E1) every listing form gives the
/// same bits as the scalar port, through the safe functions (the successor
/// fuses multiply-adds: `successor::every_count_against_the_scalar_port_and_the_oracle`).
#[test]
fn every_impl_equals_the_scalar_port_on_random_skeletons() {
    for (seed, n) in [(1u64, 2usize), (2, 5), (3, 17), (4, 1024)] {
        let (mats, parents) = random_skeleton(seed, n);
        let mut want = mats.clone();
        transform_skeleton(Impl::Scalar, &mut want, &parents, 1..=n - 1).unwrap();
        for (name, f) in SAFE_FNS {
            for imp in listing_forms_of(name) {
                let mut out = mats.clone();
                f(imp, &mut out, &parents, 1..=n - 1).unwrap();
                assert_eq!(mat_bits(&out), mat_bits(&want), "{name} {imp}, n = {n}");
            }
        }
    }
}

/// Every implementation against the f64 oracle on random parents-first
/// hierarchies of up to 1024 joints (unit rotations, translations in
/// `[-10, 10)`): rotation elements within 2e-6 and translations within 2e-5
/// of a model whose joints lie up to about 10 * depth from the origin.
#[test]
fn every_impl_near_the_f64_oracle() {
    let (mut worst_rot, mut worst_trans) = (0.0f64, 0.0f64);
    for (seed, n) in [(10u64, 2usize), (11, 13), (12, 64), (13, 1000), (14, 1024)] {
        let (mats, parents) = random_skeleton(seed, n);
        let want = oracle(&mats, &parents, 1..=n - 1);
        for (name, f) in SAFE_FNS {
            for imp in forms_of(name) {
                let mut out = mats.clone();
                f(imp, &mut out, &parents, 1..=n - 1).unwrap();
                let (rot, trans) = errors(&out, &want);
                assert!(rot <= 2e-6, "{name} {imp}, n = {n}: rotation error {rot:e}");
                assert!(trans <= 2e-5, "{name} {imp}, n = {n}: translation error {trans:e}");
                worst_rot = worst_rot.max(rot);
                worst_trans = worst_trans.max(trans);
            }
        }
    }
    println!("max abs error vs f64 oracle: rotation {worst_rot:e}, translation {worst_trans:e}");
}

/// `TransformJoint` is parent times child for column vectors: a child
/// translated by (1, 0, 0) under a parent rotated 90 degrees about z and
/// translated by (1, 2, 3) sits at R (1, 0, 0) + (1, 2, 3) = (1, 3, 3), and
/// its rotation is the parent's times its own.
#[test]
fn transform_joint_is_parent_times_child() {
    let parent = JointMat { mat: [0.0, -1.0, 0.0, 1.0, 1.0, 0.0, 0.0, 2.0, 0.0, 0.0, 1.0, 3.0] };
    // Child: 90 degrees about x, at (1, 0, 0).
    let child = JointMat { mat: [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 0.0, 1.0, 0.0, 0.0] };
    let mut a = child;
    scalar::transform_joint(&mut a, &parent);
    let want = affine_mul_f64(mat_f64(&parent), mat_f64(&child));
    assert_eq!(a.mat.map(f64::from), want);
    assert_eq!([a.mat[3], a.mat[7], a.mat[11]], [1.0, 3.0, 3.0]);
    // Not child times parent.
    assert_ne!(a.mat.map(f64::from), affine_mul_f64(mat_f64(&child), mat_f64(&parent)));
}

// ---------------------------------------------------------------------------
// Erratum E1.

/// Erratum E1: the listing adds `(0, 0, 0, b[r][3])` to every row of the
/// result (`andps` with `SIMD_SP_clearFirstThree`, `addps`), so a rotation
/// element the C computes as `-0.0` comes out `+0.0` (`-0.0 + +0.0 = +0.0`).
/// Here the child is a half turn about x written with negative zeros (as
/// negating a matrix produces them) under an identity parent: column 1 of
/// the product is `(-0.0 * 1 + -1 * 0 + -0.0 * 0, ...)`, `-0.0` in the C.
#[test]
fn erratum_e1_listing_turns_negative_zero_rotation_into_positive_zero() {
    let parent = JointMat::IDENTITY;
    let child = JointMat { mat: [1.0, -0.0, 0.0, 5.0, 0.0, -1.0, -0.0, 6.0, 0.0, -0.0, -1.0, 7.0] };
    let mats = vec![parent, child];
    let parents = [-1, 0];
    let mut c = mats.clone();
    transform_skeleton(Impl::Scalar, &mut c, &parents, 1..=1).unwrap();
    assert_eq!(c[1].mat[1].to_bits(), (-0.0f32).to_bits(), "the C keeps -0.0");
    for (name, f) in SAFE_FNS {
        for imp in [Impl::Intrinsics, Impl::Asm] {
            if animasm::transform_skeleton::resolve(imp) != Ok(imp) {
                continue;
            }
            let mut out = mats.clone();
            f(imp, &mut out, &parents, 1..=1).unwrap();
            assert_eq!(out[1].mat[1].to_bits(), 0.0f32.to_bits(), "{name} {imp}: the listing gives +0.0");
            // Otherwise the same values: only the signs of zeros differ.
            for e in 0..12 {
                assert!(out[1].mat[e] == c[1].mat[e], "{name} {imp}: mat[{e}]");
            }
            let zeros = |m: &JointMat| (0..12).filter(|&e| m.mat[e].to_bits() == (-0.0f32).to_bits()).count();
            assert!(zeros(&c[1]) > 0 && zeros(&out[1]) == 0, "{name} {imp}: no -0.0 left in the listing's result");
        }
    }
}

// ---------------------------------------------------------------------------
// The Fox.

/// A Fox pose: its name, local rotations and translations, and the JSON's
/// float64 local-to-model reference `model_3x4_ref_f64` where it has one.
type FoxPose = (String, Vec<[f32; 4]>, Vec<[f32; 3]>, Option<Vec<[f64; 12]>>);

/// Every pose of the JSON: the rest pose (no reference) and the six keyframe
/// poses ([`fox::key_poses`]).
fn fox_poses() -> Vec<FoxPose> {
    let rest = ("rest".to_owned(), fox::rest_rotations(), fox::rest_translations(), None);
    let keys = fox::key_poses().into_iter().map(|p| (p.name, p.rotations, p.translations, Some(p.model)));
    core::iter::once(rest).chain(keys).collect()
}

/// The real Fox hierarchy: every pose's local joints (rest pose and the six
/// keyframe poses of the JSON) transformed with `1..=23` (the root, joint 0,
/// has no parent: its local matrix is its model matrix) against the JSON's
/// float64 local-to-model reference (for the rest pose, which has none, the
/// f64 product along the parents). Within 1e-5 relative to the model's
/// scale (the largest translation of the reference, about 74 units) for
/// translations and 1e-5 for rotation elements; the JSON's reference is
/// printed with about 8 significant digits.
#[test]
fn fox_poses_against_the_json_local_to_model_reference() {
    let parents = fox::parents();
    let n = parents.len();
    assert_eq!(n, 24);
    assert_eq!(parents[0], -1);
    let (mut worst_rot, mut worst_rel) = (0.0f64, 0.0f64);
    for (pose, rot, tr, reference) in fox_poses() {
        let locals = fox::local_mats(&rot, &tr);
        let reference = reference.unwrap_or_else(|| local_to_model_f64(&fox::local_mats_f64(&rot, &tr), &parents));
        let scale = reference.iter().map(translation_max_norm).fold(0.0, f64::max);
        assert!(scale > 50.0, "{pose}: model scale {scale}");
        for (name, f) in SAFE_FNS {
            for imp in forms_of(name) {
                let mut out = locals.clone();
                f(imp, &mut out, &parents, 1..=n - 1).unwrap();
                let (r, t) = errors(&out, &reference);
                assert!(r <= 1e-5, "{pose}: {name} {imp}: rotation error {r:e}");
                assert!(t <= 1e-5 * scale, "{pose}: {name} {imp}: translation error {t:e} (scale {scale})");
                worst_rot = worst_rot.max(r);
                worst_rel = worst_rel.max(t / scale);
            }
        }
    }
    println!("Fox: max rotation error {worst_rot:e}, max translation error / scale {worst_rel:e}");
}

/// The convention check of the other side: local matrices built with the
/// transposed rotation (row vectors) do not reproduce the JSON's reference,
/// so the test above pins the convention (column vectors, parent times child).
#[test]
fn fox_transposed_rotation_convention_does_not_match_the_reference() {
    let parents = fox::parents();
    for pose in fox::key_poses() {
        let mut out: Vec<JointMat> = pose
            .rotations
            .iter()
            .zip(&pose.translations)
            .map(|(q, t)| to_mat(affine_from_f64(transpose3(quat_to_mat3_f64(q.map(f64::from))), t.map(f64::from))))
            .collect();
        transform_skeleton(Impl::default(), &mut out, &parents, 1..=parents.len() - 1).unwrap();
        let (r, _) = errors(&out, &pose.model);
        assert!(r > 0.5, "{}: the transposed convention matches ({r:e})", pose.name);
    }
}

/// Model-space rest matrices times the inverse bind matrices are the
/// identity within 8.2e-6 (the data README's figure), every element, with
/// every listing form (the successor: within half an ulp of the model's
/// translations of the exact product's 8.4e-6). (For scale: the same product from the f64 oracle's
/// model matrices deviates by 8.4e-6 in a translation; the kernels' f32
/// results land closer, at 6.7e-6: `mulps` / `addps` round as IEEE says on
/// every CPU. The rotation part is within 2e-7.)
#[test]
fn fox_rest_pose_times_inverse_bind_is_identity() {
    let parents = fox::parents();
    let inverse_bind = fox::inverse_bind();
    let locals = fox::local_mats(&fox::rest_rotations(), &fox::rest_translations());
    let deviation = |model: &[[f64; 12]]| {
        let (mut rot, mut trans) = (0.0f64, 0.0f64);
        for (m, ib) in model.iter().zip(&inverse_bind) {
            let p = affine_mul_f64(*m, ib.map(f64::from));
            let (r, t) = rot_trans_diff(&JointMat::IDENTITY.mat, &p);
            (rot, trans) = (rot.max(r), trans.max(t));
        }
        (rot, trans)
    };
    let f64_model = oracle(&locals, &parents, 1..=parents.len() - 1);
    let (r64, t64) = deviation(&f64_model);
    println!("f64 model x inverse bind - I: rotation {r64:e}, translation {t64:e}");
    for (name, f) in SAFE_FNS {
        for imp in forms_of(name) {
            let mut out = locals.clone();
            f(imp, &mut out, &parents, 1..=parents.len() - 1).unwrap();
            let model = mats_f64(&out);
            let (r, t) = deviation(&model);
            println!("{name} {imp}: model x inverse bind - I: rotation {r:e}, translation {t:e}");
            assert!(r <= 1e-6, "{name} {imp}: rotation part {r:e}");
            // The successor rounds differently (FMA): its f32 model lands on
            // the other side of the exact product's 8.4e-6, within half an
            // ulp of the 64..128-unit translations (3.8e-6) of it.
            let bound = if successor::forms().contains(&imp) { t64 + 3.8e-6 } else { 8.2e-6 };
            assert!(t <= bound, "{name} {imp}: translation part {t:e} (bound {bound:e})");
        }
    }
}

// ---------------------------------------------------------------------------
// Ranges.

/// A range that starts at the root asks for joint 0's parent, which is -1:
/// `InvalidParent`, nothing written, with every implementation.
#[test]
fn range_starting_at_the_root_is_an_error() {
    let parents = fox::parents();
    let mats = fox::local_mats(&fox::rest_rotations(), &fox::rest_translations());
    for (name, f) in SAFE_FNS {
        for imp in forms_of(name) {
            for range in [0..=23, 0..=0, 0..=5] {
                let mut out = mats.clone();
                let r = f(imp, &mut out, &parents, range.clone());
                assert_eq!(r, Err(Error::InvalidParent { joint: 0, parent: -1 }), "{name} {imp} {range:?}");
                assert_eq!(mat_bits(&out), mat_bits(&mats), "{name} {imp} {range:?}: written on Err");
            }
        }
    }
}

/// A range starting at 1 transforms everything but the root; the root is
/// unchanged (its local matrix is its model matrix).
#[test]
fn range_starting_at_one_leaves_the_root() {
    let (mats, parents) = random_skeleton(21, 50);
    let want = oracle(&mats, &parents, 1..=49);
    for (name, f) in SAFE_FNS {
        for imp in forms_of(name) {
            let mut out = mats.clone();
            f(imp, &mut out, &parents, 1..=49).unwrap();
            assert_eq!(mat_bits(&out[..1]), mat_bits(&mats[..1]), "{name} {imp}: root written");
            let (r, t) = errors(&out, &want);
            assert!(r <= 2e-6 && t <= 2e-5, "{name} {imp}: {r:e} {t:e}");
        }
    }
}

/// Empty ranges that start inside the slice or at its end are `Ok` and
/// write nothing (the listing returns at `jl done` before reading anything):
/// `1..=0`, `5..=3`, `10..=9` (at the end), an exhausted `RangeInclusive`;
/// one that starts past the end is `RangeOutOfBounds`, as slice indexing
/// (`&s[11..11]` on ten elements) would refuse it.
#[test]
fn empty_ranges_write_nothing() {
    let (mats, parents) = random_skeleton(22, 10);
    let mut exhausted = 2..=2;
    assert_eq!(exhausted.next(), Some(2));
    assert!(exhausted.is_empty());
    #[allow(clippy::reversed_empty_ranges)]
    let ranges = [1..=0, 5..=3, 10..=9, exhausted];
    #[allow(clippy::reversed_empty_ranges)]
    let outside = [11..=10, 100..=50, usize::MAX..=0];
    for (name, f) in SAFE_FNS {
        for imp in forms_of(name) {
            for range in ranges.clone() {
                let mut out = mats.clone();
                assert_eq!(f(imp, &mut out, &parents, range.clone()), Ok(()), "{name} {imp} {range:?}");
                assert_eq!(mat_bits(&out), mat_bits(&mats), "{name} {imp} {range:?}: written");
            }
            for range in outside.clone() {
                let (start, end) = (*range.start(), *range.end());
                let mut out = mats.clone();
                let want = Err(Error::RangeOutOfBounds { start, end, len: 10 });
                assert_eq!(f(imp, &mut out, &parents, range.clone()), want, "{name} {imp} {range:?}");
                assert_eq!(mat_bits(&out), mat_bits(&mats), "{name} {imp} {range:?}: written");
            }
            // Empty slices: `0..=0` is one joint, out of bounds; an empty
            // range starting at 0 is fine, one starting at 1 is not.
            let mut exhausted_at_0 = 0..=0;
            exhausted_at_0.next();
            assert_eq!(f(imp, &mut [], &[], exhausted_at_0), Ok(()));
            assert_eq!(f(imp, &mut [], &[], 0..=0), Err(Error::RangeOutOfBounds { start: 0, end: 0, len: 0 }));
            #[allow(clippy::reversed_empty_ranges)]
            let one_past = 1..=0;
            assert_eq!(f(imp, &mut [], &[], one_past), Err(Error::RangeOutOfBounds { start: 1, end: 0, len: 0 }));
        }
    }
}

/// The raw kernels with `firstJoint > lastJoint`: nothing read or written
/// (dangling pointers would do; the buffers are real to compare them).
#[test]
fn raw_kernels_with_first_after_last_write_nothing() {
    let (mats, parents) = random_skeleton(23, 10);
    let mut kernels: Vec<(&str, Kernel)> = vec![("scalar", scalar::transform_skeleton)];
    #[cfg(target_arch = "x86_64")]
    kernels.extend(x86::SIMD_KERNELS);
    for (imp, k) in successor::kernels() {
        kernels.push((imp.name(), k));
    }
    for (name, k) in kernels {
        for (first, last) in [(1, 0), (5, 4), (9, 2), (0, -1), (i32::MAX, 0), (3, i32::MIN)] {
            let out = run(k, &mats, &parents, first, last);
            assert_eq!(mat_bits(&out), mat_bits(&mats), "{name} ({first}, {last})");
        }
    }
}

/// A single joint: only that joint changes, to its parent times itself
/// (bit for bit for the listing forms; the successor within rounding in
/// `successor::single_joint_range`).
#[test]
fn single_joint_range() {
    let (mats, parents) = random_skeleton(24, 30);
    let j = 17;
    let p = parents[j] as usize;
    let mut want = mats[j];
    scalar::transform_joint(&mut want, &mats[p]);
    for (name, f) in SAFE_FNS {
        for imp in listing_forms_of(name) {
            let mut out = mats.clone();
            f(imp, &mut out, &parents, j..=j).unwrap();
            for (i, (o, m)) in out.iter().zip(&mats).enumerate() {
                let expect = if i == j { &want } else { m };
                assert_eq!(o.mat.map(f32::to_bits), expect.mat.map(f32::to_bits), "{name} {imp}: joint {i}");
            }
        }
    }
}

/// Section 3: the skeleton can be split into sequences transformed
/// separately. `1..=k` then `k+1..=n-1` gives the same bits as `1..=n-1`.
#[test]
fn split_ranges_equal_the_whole() {
    let (mats, parents) = random_skeleton(25, 200);
    for (name, f) in SAFE_FNS {
        for imp in forms_of(name) {
            let mut whole = mats.clone();
            f(imp, &mut whole, &parents, 1..=199).unwrap();
            for k in [1, 2, 77, 198] {
                let mut split = mats.clone();
                f(imp, &mut split, &parents, 1..=k).unwrap();
                f(imp, &mut split, &parents, k + 1..=199).unwrap();
                assert_eq!(mat_bits(&split), mat_bits(&whole), "{name} {imp}: split at {k}");
            }
        }
    }
}

/// Roots outside the range may have any parent entry (-1, or even an
/// invalid one): only the range's joints are checked.
#[test]
fn parents_outside_the_range_are_not_checked() {
    let (mats, mut parents) = random_skeleton(26, 20);
    parents[0] = -1;
    parents[3] = -1; // a second root, before the range
    parents[19] = 1000; // after the range
    for (name, f) in SAFE_FNS {
        for imp in forms_of(name) {
            let mut out = mats.clone();
            assert_eq!(f(imp, &mut out, &parents, 4..=18), Ok(()), "{name} {imp}");
        }
    }
}

// ---------------------------------------------------------------------------
// Errors: every case, nothing written.

#[track_caller]
fn assert_err_nothing_written(mats: &[JointMat], parents: &[i32], range: RangeInclusive<usize>, want: Error) {
    for (name, f) in SAFE_FNS {
        for imp in forms_of(name) {
            let mut out = mats.to_vec();
            let r = f(imp, &mut out, parents, range.clone());
            assert_eq!(r, Err(want), "{name} {imp} {range:?}");
            assert_eq!(mat_bits(&out), mat_bits(mats), "{name} {imp} {range:?}: written on Err");
        }
    }
}

#[test]
fn error_parent_after_its_child() {
    let (mats, mut parents) = random_skeleton(31, 24);
    parents[9] = 12;
    assert_err_nothing_written(&mats, &parents, 1..=23, Error::InvalidParent { joint: 9, parent: 12 });
    // The last joint of the range, pointing at a joint after the range.
    let (mats, mut parents) = random_skeleton(31, 24);
    parents[10] = 20;
    assert_err_nothing_written(&mats, &parents, 1..=10, Error::InvalidParent { joint: 10, parent: 20 });
}

#[test]
fn error_joint_is_its_own_parent() {
    let (mats, mut parents) = random_skeleton(32, 24);
    parents[5] = 5;
    assert_err_nothing_written(&mats, &parents, 1..=23, Error::InvalidParent { joint: 5, parent: 5 });
}

#[test]
fn error_negative_parent() {
    for p in [-1, -7, i32::MIN] {
        let (mats, mut parents) = random_skeleton(33, 24);
        parents[13] = p;
        assert_err_nothing_written(&mats, &parents, 1..=23, Error::InvalidParent { joint: 13, parent: p });
    }
}

#[test]
fn error_parent_out_of_range() {
    for p in [24, 1000, i32::MAX] {
        let (mats, mut parents) = random_skeleton(34, 24);
        parents[20] = p;
        assert_err_nothing_written(&mats, &parents, 1..=23, Error::InvalidParent { joint: 20, parent: p });
    }
}

/// The first invalid joint of the range is reported; earlier joints are not
/// written either.
#[test]
fn error_reports_the_first_invalid_joint() {
    let (mats, mut parents) = random_skeleton(35, 24);
    parents[15] = -1;
    parents[8] = 30;
    assert_err_nothing_written(&mats, &parents, 1..=23, Error::InvalidParent { joint: 8, parent: 30 });
}

#[test]
fn error_range_outside_the_slice() {
    let (mats, parents) = random_skeleton(36, 24);
    assert_err_nothing_written(&mats, &parents, 1..=24, Error::RangeOutOfBounds { start: 1, end: 24, len: 24 });
    assert_err_nothing_written(&mats, &parents, 30..=40, Error::RangeOutOfBounds { start: 30, end: 40, len: 24 });
    assert_err_nothing_written(
        &mats,
        &parents,
        1..=usize::MAX,
        Error::RangeOutOfBounds { start: 1, end: usize::MAX, len: 24 },
    );
    assert_err_nothing_written(&[], &[], 0..=0, Error::RangeOutOfBounds { start: 0, end: 0, len: 0 });
}

#[test]
fn error_parents_too_short() {
    let (mats, parents) = random_skeleton(37, 24);
    assert_err_nothing_written(
        &mats,
        &parents[..10],
        1..=23,
        Error::TooShort { what: "parents", needed: 24, found: 10 },
    );
    assert_err_nothing_written(&mats, &[], 1..=1, Error::TooShort { what: "parents", needed: 2, found: 0 });
    // Long enough for the range is enough.
    let mut out = mats.clone();
    assert_eq!(transform_skeleton(Impl::Scalar, &mut out, &parents[..10], 1..=9), Ok(()));
}

/// `MAX_JOINTS` keeps every byte offset the 32-bit listing forms in
/// a signed 32-bit register (a slice that long cannot be allocated in a test:
/// 1.5 GiB).
#[test]
fn max_joints_keeps_the_listing_arithmetic_exact() {
    assert!(MAX_JOINTS.checked_mul(animasm::JOINTMAT_SIZE).unwrap() <= i32::MAX as usize);
    assert!(MAX_JOINTS * 4 <= i32::MAX as usize);
}

// ---------------------------------------------------------------------------
// The successors: `Impl::Avx2`, `Impl::Avx512` (its kernel, which has no
// table row), `Impl::Portable`, `Impl::Neon`.

mod successor {
    use super::*;
    use common::same_bits;

    /// Every successor form compiled for this target (origin `Successor`)
    /// that this CPU runs, with its raw kernel: `Impl::Portable` always,
    /// `Impl::Avx2` where the CPU has AVX2 and FMA (a message where it has
    /// not), `Impl::Neon` on `aarch64`.
    pub(super) fn kernels() -> Vec<(Impl, Kernel)> {
        let r = animasm::roster::find("transform_skeleton").expect("a roster routine");
        let mut out = Vec::new();
        for f in r.all_forms().filter(|f| f.origin == animasm::Origin::Successor) {
            match animasm::transform_skeleton::kernel(f.imp) {
                Ok(k) => out.push((f.imp, k as Kernel)),
                Err(e) => common::cpu::skipped(&format!("transform_skeleton: {}: {e}", f.imp)),
            }
        }
        assert!(out.iter().any(|&(imp, _)| imp == Impl::Portable), "the portable successor always runs");
        out.extend(avx512_kernel().map(|k| (Impl::Avx512, k)));
        out
    }

    /// The AVX-512 successor's raw kernel (`transform_skeleton::avx512`, not in the
    /// routine's table: no `Impl::Avx512` through the safe function) where
    /// the CPU has AVX-512 F, VL, DQ and BW; `None` with a printed line
    /// where it has not (or off `x86_64`).
    fn avx512_kernel() -> Option<Kernel> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx512f")
                && std::is_x86_feature_detected!("avx512vl")
                && std::is_x86_feature_detected!("avx512dq")
                && std::is_x86_feature_detected!("avx512bw")
            {
                return Some(animasm::transform_skeleton::avx512::transform_skeleton as Kernel);
            }
            common::cpu::skipped("transform_skeleton: avx512: the CPU lacks avx512f, avx512vl, avx512dq or avx512bw");
        }
        None
    }

    /// The successor forms this CPU runs.
    pub(super) fn forms() -> Vec<Impl> {
        kernels().into_iter().map(|(imp, _)| imp).collect()
    }

    /// A successor through the safe function on a `Vec` of exactly
    /// `mats.len()` joints (so an access past the last joint is outside the
    /// allocation, for memcheck).
    fn run_safe(imp: Impl, mats: &[JointMat], parents: &[i32], range: RangeInclusive<usize>) -> Vec<JointMat> {
        let mut out = Vec::with_capacity(mats.len());
        out.extend_from_slice(mats);
        assert_eq!(out.capacity(), mats.len());
        let parents_exact: Vec<i32> = parents.to_vec();
        if imp == Impl::Avx512 {
            // Not in the table: the safe function validates with `Portable`
            // (on a copy), then the raw kernel runs on the exact `Vec`.
            transform_skeleton(Impl::Portable, &mut mats.to_vec(), &parents_exact, range.clone()).unwrap();
            let k = avx512_kernel().expect("Impl::Avx512 is listed only where the CPU runs it");
            if !range.is_empty() {
                // SAFETY: the safe function accepted the range: every joint
                // of it and its parent are in `out` (as long as `mats`), and
                // `parents` has an entry for each; an aligned `Vec`; the CPU
                // has AVX-512 (`avx512_kernel`).
                unsafe { k(out.as_mut_ptr(), parents_exact.as_ptr(), *range.start() as i32, *range.end() as i32) };
            }
        } else {
            transform_skeleton(imp, &mut out, &parents_exact, range).unwrap();
        }
        out
    }

    fn scalar_of(mats: &[JointMat], parents: &[i32], range: RangeInclusive<usize>) -> Vec<JointMat> {
        let mut out = mats.to_vec();
        transform_skeleton(Impl::Scalar, &mut out, parents, range).unwrap();
        out
    }

    /// Runs every successor's raw kernel on the same input and asserts that
    /// each gives `Impl::Portable`'s bits (any two NaNs equal); returns the
    /// portable form's output.
    #[track_caller]
    fn assert_successors_agree(mats: &[JointMat], parents: &[i32], first: i32, last: i32, ctx: &str) -> Vec<JointMat> {
        let reference = run(animasm::transform_skeleton::portable::transform_skeleton, mats, parents, first, last);
        for (imp, k) in kernels() {
            let out = run(k, mats, parents, first, last);
            assert_mats_bit_identical(&out, &reference, &format!("{ctx}: {imp} vs portable ({first}..={last})"));
        }
        reference
    }

    /// The one answer: every successor form gives the portable form's bits,
    /// through the safe function, on every count 0..=67 of transformed
    /// joints and every sub-range that ends at the last joint (random
    /// parents-first skeletons, many seeds), and through the raw kernels on
    /// inner ranges.
    #[test]
    fn every_successor_equals_the_portable_form_on_every_count() {
        let forms = forms();
        for seed in 0..4u64 {
            for n in 0..=67usize {
                let (mats, parents) = random_skeleton(0xde7 + 1000 * seed + n as u64, n + 1);
                let starts: Vec<usize> = if n == 0 { vec![1] } else { (1..=n).collect() };
                for first in starts {
                    let want = run_safe(Impl::Portable, &mats, &parents, first..=n);
                    for &imp in &forms {
                        let out = run_safe(imp, &mats, &parents, first..=n);
                        assert_mats_bit_identical(&out, &want, &format!("seed {seed} n = {n} {first}..={n}: {imp}"));
                    }
                }
                if n >= 4 {
                    assert_successors_agree(&mats, &parents, 2, n as i32 - 1, &format!("n = {n}, inner range"));
                }
            }
        }
        // Impl::Deterministic runs one of them.
        let (mats, parents) = random_skeleton(0xde7e, 40);
        let mut out = mats.clone();
        transform_skeleton(Impl::Deterministic, &mut out, &parents, 1..=39).unwrap();
        assert_mats_bit_identical(&out, &run_safe(Impl::Portable, &mats, &parents, 1..=39), "deterministic");
    }

    /// The one answer on hard inputs: special values (NaN, infinities,
    /// signed zeros, subnormals, the largest finite values, whose products
    /// overflow) anywhere in the joints and parents, large and tiny scales
    /// (products and sums that round differently when fused), and parents at
    /// or after their joint (raw kernels only).
    #[test]
    fn every_successor_equals_the_portable_form_on_hard_inputs() {
        let specials = animasm_testkit::edges::pick([25, 26, 27, 23, 24, 0, 1, 11, 12, 21, 22, 2, 3, 13, 14, 19]);
        let mut rng = Rng::new(0x0de7);
        for n in [2usize, 3, 5, 17, 64] {
            let parents = random_parents_from(&mut rng, n);
            for round in 0..32 {
                let mut mats = rigid_mats_from(&mut rng, n);
                let scale = [1.0f32, 1e-20, 1e20, 3.0e-39, 1e30][round % 5];
                for m in mats.iter_mut() {
                    for e in 0..12 {
                        m.mat[e] *= if e % 4 == 3 { scale } else { 1.0 };
                        if rng.below(4) == 0 {
                            m.mat[e] = specials[(rng.below(specials.len()) + round) % specials.len()];
                        }
                    }
                }
                let ctx = format!("n = {n} round {round}");
                assert_successors_agree(&mats, &parents, 1, n as i32 - 1, &ctx);
            }
        }
        let n = 40;
        let mats = rigid_mats_from(&mut rng, n);
        let parents: Vec<i32> = (0..n).map(|i| if i % 3 == 0 { i as i32 } else { rng.below(n) as i32 }).collect();
        assert_successors_agree(&mats, &parents, 0, n as i32 - 1, "self and later parents");
    }

    mod props {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(animasm_testkit::strategies::config(256, 2))]

            /// Arbitrary bit patterns in every float, arbitrary in-bounds
            /// parents (before, at or after their joint), arbitrary ranges
            /// (empty ones included): every successor's raw kernel gives
            /// the portable form's bits.
            #[test]
            fn every_successor_equals_the_portable_form_on_arbitrary_bits(
                m in proptest::collection::vec(any::<[u32; 12]>(), 1..14),
                parent_seeds in proptest::collection::vec(any::<u32>(), 14),
                a in 0usize..14,
                b in 0usize..14,
            ) {
                let n = m.len();
                let mats: Vec<JointMat> = m.iter().map(|b| JointMat { mat: b.map(f32::from_bits) }).collect();
                let parents: Vec<i32> = (0..n).map(|i| (parent_seeds[i] as usize % n) as i32).collect();
                let (first, last) = (a.min(n - 1) as i32, b.min(n - 1) as i32);
                assert_successors_agree(&mats, &parents, first, last, "arbitrary bits");
            }
        }
    }

    /// Every count 0..=67 of transformed joints (every tail length the
    /// 8 lanes could leave), on buffers that end at the last joint, and every
    /// sub-range that ends there: against the scalar port (relative 1e-5, the
    /// harness's `TOL_SCALAR`) and the f64 oracle (the bounds of
    /// `every_impl_near_the_f64_oracle`). Also prints the worst oracle error of
    /// the successor and of the listing on the same input.
    #[test]
    fn every_count_against_the_scalar_port_and_the_oracle() {
        for imp in forms() {
            every_count_against_the_scalar_port_and_the_oracle_of(imp);
        }
    }

    fn every_count_against_the_scalar_port_and_the_oracle_of(imp: Impl) {
        let (mut worst_avx2, mut worst_listing) = ((0.0f64, 0.0f64), (0.0f64, 0.0f64));
        for n in 0..=67usize {
            let (mats, parents) = random_skeleton(0x5cc + n as u64, n + 1);
            let starts: Vec<usize> = if n == 0 { vec![1] } else { (1..=n).collect() };
            for first in starts {
                let range = first..=n;
                let out = run_safe(imp, &mats, &parents, range.clone());
                let scalar = scalar_of(&mats, &parents, range.clone());
                for (j, (o, c)) in out.iter().zip(&scalar).enumerate() {
                    // Every element within 1e-5, absolute up to 1 and relative above.
                    assert!(o.relative_eq(c, 1e-5, 1e-5), "n = {n} {range:?}: joint {j}: {o:?} vs scalar {c:?}");
                }
                let want = oracle(&mats, &parents, range.clone());
                let (r, t) = errors(&out, &want);
                assert!(r <= 2e-6 && t <= 2e-5, "n = {n} {range:?}: oracle error {r:e} {t:e}");
                worst_avx2 = (worst_avx2.0.max(r), worst_avx2.1.max(t));
                if first == 1 && animasm::transform_skeleton::resolve(Impl::Asm) == Ok(Impl::Asm) {
                    let mut listing = mats.clone();
                    transform_skeleton(Impl::Asm, &mut listing, &parents, range.clone()).unwrap();
                    let (r, t) = errors(&listing, &want);
                    worst_listing = (worst_listing.0.max(r), worst_listing.1.max(t));
                }
                // Joints outside the range are untouched.
                for j in (0..first).chain(n + 1..mats.len()) {
                    assert_eq!(out[j].mat.map(f32::to_bits), mats[j].mat.map(f32::to_bits), "n = {n}: joint {j}");
                }
            }
        }
        println!(
            "every count 0..=67 vs f64 oracle: {imp} rotation {:e} translation {:e}; asm rotation {:e} translation {:e}",
            worst_avx2.0, worst_avx2.1, worst_listing.0, worst_listing.1
        );
    }

    /// Large skeletons (1024 joints, as benchmarked) and deep chains: within
    /// the listing's bounds against the f64 oracle, and no worse than the
    /// listing by more than a rounding.
    #[test]
    fn large_and_deep_skeletons_near_the_oracle() {
        for imp in forms() {
            large_and_deep_skeletons_near_the_oracle_of(imp);
        }
    }

    fn large_and_deep_skeletons_near_the_oracle_of(imp: Impl) {
        let mut rng = Rng::new(0xdee9);
        let n = 1024;
        let chain: Vec<i32> = (0..n as i32).map(|i| i - 1).collect();
        let fan: Vec<i32> = (0..n as i32).map(|i| if i == 0 { -1 } else { 0 }).collect();
        for (what, parents) in [("random", random_parents_from(&mut rng, n)), ("chain", chain), ("fan", fan)] {
            // Short translations along the chain keep the model near the origin.
            let mut mats = rigid_mats_from(&mut rng, n);
            if what == "chain" {
                for m in &mut mats {
                    for r in 0..3 {
                        m.mat[r * 4 + 3] *= 0.01;
                    }
                }
            }
            let want = oracle(&mats, &parents, 1..=n - 1);
            let out = run_safe(imp, &mats, &parents, 1..=n - 1);
            let (r, t) = errors(&out, &want);
            let mut listing = mats.clone();
            transform_skeleton(Impl::Scalar, &mut listing, &parents, 1..=n - 1).unwrap();
            let (lr, lt) = errors(&listing, &want);
            println!("{what}: {imp} rotation {r:e} translation {t:e}; scalar (= listing) {lr:e} {lt:e}");
            assert!(r <= (2.0 * lr).max(2e-6), "{what}: rotation {r:e} (listing {lr:e})");
            assert!(t <= (2.0 * lt).max(2e-5), "{what}: translation {t:e} (listing {lt:e})");
        }
    }

    /// The real Fox: rest pose and the six keyframe poses against the JSON's
    /// float64 local-to-model reference, as `fox_poses_against_the_json_local_to_model_reference`.
    #[test]
    fn fox_poses_against_the_reference() {
        for imp in forms() {
            fox_poses_against_the_reference_of(imp);
        }
    }

    fn fox_poses_against_the_reference_of(imp: Impl) {
        let parents = fox::parents();
        let n = parents.len();
        let (mut worst_rot, mut worst_rel) = (0.0f64, 0.0f64);
        for (pose, rot, tr, reference) in fox_poses() {
            let locals = fox::local_mats(&rot, &tr);
            let reference = reference.unwrap_or_else(|| local_to_model_f64(&fox::local_mats_f64(&rot, &tr), &parents));
            let scale = reference.iter().map(translation_max_norm).fold(0.0, f64::max);
            let out = run_safe(imp, &locals, &parents, 1..=n - 1);
            let (r, t) = errors(&out, &reference);
            assert!(r <= 1e-5, "{pose}: rotation error {r:e}");
            assert!(t <= 1e-5 * scale, "{pose}: translation error {t:e} (scale {scale})");
            worst_rot = worst_rot.max(r);
            worst_rel = worst_rel.max(t / scale);
        }
        println!("Fox, {imp}: max rotation error {worst_rot:e}, max translation error / scale {worst_rel:e}");
    }

    /// Hierarchies: a chain (every parent the joint just stored, so the
    /// successor's loads forward from its own stores), a fan (every joint
    /// under the root: one parent read by every iteration, "duplicate
    /// indices"), and parents in shuffled order (every earlier joint equally
    /// likely); every one against the f64 oracle, next to the scalar port.
    #[test]
    fn chains_fans_and_shuffled_parents() {
        for imp in forms() {
            chains_fans_and_shuffled_parents_of(imp);
        }
    }

    fn chains_fans_and_shuffled_parents_of(imp: Impl) {
        let mut rng = Rng::new(0xc4a1);
        for n in [2usize, 3, 9, 33, 64, 65] {
            let chain: Vec<i32> = (0..n as i32).map(|i| i - 1).collect();
            let fan: Vec<i32> = (0..n as i32).map(|i| if i == 0 { -1 } else { 0 }).collect();
            let mut late: Vec<i32> = (0..n).map(|i| if i == 0 { -1 } else { rng.below(i) as i32 }).collect();
            // The last joints all hang from the one before them or from joint 1.
            for (k, p) in late.iter_mut().enumerate().skip(2) {
                *p = if k % 2 == 0 { k as i32 - 1 } else { 1 };
            }
            for (what, parents) in [("chain", chain), ("fan", fan), ("mixed", late)] {
                let mats = rigid_mats_from(&mut rng, n);
                let out = run_safe(imp, &mats, &parents, 1..=n - 1);
                let c = scalar_of(&mats, &parents, 1..=n - 1);
                // Against the f64 oracle, no worse than the C (= the listing)
                // by more than a rounding: a chain of 64 joints reaches 300
                // units from the origin, and its errors grow with the depth.
                let want = oracle(&mats, &parents, 1..=n - 1);
                let ((r, t), (cr, ct)) = (errors(&out, &want), errors(&c, &want));
                assert!(r <= (2.0 * cr).max(2e-6), "{imp} {what} n = {n}: rotation {r:e} (the C: {cr:e})");
                assert!(t <= (2.0 * ct).max(2e-5), "{imp} {what} n = {n}: translation {t:e} (the C: {ct:e})");
            }
        }
    }

    /// A single joint: only that joint changes, to its parent times itself.
    #[test]
    fn single_joint_range() {
        for imp in forms() {
            single_joint_range_of(imp);
        }
    }

    fn single_joint_range_of(imp: Impl) {
        let (mats, parents) = random_skeleton(24, 30);
        let j = 17;
        let mut want = mats[j];
        scalar::transform_joint(&mut want, &mats[parents[j] as usize]);
        let mut exact = mats[j];
        animasm::transform_skeleton::portable::transform_joint(&mut exact, &mats[parents[j] as usize]);
        let out = run_safe(imp, &mats, &parents, j..=j);
        assert_eq!(out[j].mat.map(f32::to_bits), exact.mat.map(f32::to_bits), "{imp}: portable::transform_joint");
        for (i, (o, m)) in out.iter().zip(&mats).enumerate() {
            if i == j {
                let d = common::harness::max_diff(&[*o], &[want]);
                assert!(d <= 1e-6, "{imp} joint {j}: {d:e}");
            } else {
                assert_eq!(o.mat.map(f32::to_bits), m.mat.map(f32::to_bits), "joint {i}");
            }
        }
    }

    /// Identical and opposite transforms: under an identity parent every
    /// child keeps its bits (the products are exact, so the FMAs round
    /// nothing), and the same as the scalar port; a child that is its
    /// parent's rigid inverse becomes the identity (within 1e-6).
    #[test]
    fn identity_and_inverse() {
        for imp in forms() {
            identity_and_inverse_of(imp);
        }
    }

    fn identity_and_inverse_of(imp: Impl) {
        let mut rng = Rng::new(0x1d);
        let n = 20;
        let mut mats = rigid_mats_from(&mut rng, n);
        mats[0] = JointMat::IDENTITY;
        let parents: Vec<i32> = (0..n as i32).map(|i| if i == 0 { -1 } else { 0 }).collect();
        let out = run_safe(imp, &mats, &parents, 1..=n - 1);
        assert_mats_bit_identical(&out, &mats, "identity parent");
        assert_mats_bit_identical(&out, &scalar_of(&mats, &parents, 1..=n - 1), "identity parent vs scalar");
        // A child that inverts its parent: the identity.
        for _ in 0..16 {
            let parent = rigid_mats_from(&mut rng, 1)[0];
            let inverse = to_mat(common::oracle::affine_inverse_f64(mat_f64(&parent)));
            let out = run_safe(imp, &[parent, inverse], &[-1, 0], 1..=1);
            let d = common::error::mat_max_abs_diff(&out[1].mat, &mat_f64(&JointMat::IDENTITY));
            assert!(d <= 1e-5, "{imp}: parent times its inverse: {d:e} from the identity");
        }
    }

    /// Signed zeros: the listing's erratum E1 corrected. A half turn about x
    /// written with `-0.0` under an identity parent: the C keeps `-0.0` in
    /// `mat[1]`, the listing gives `+0.0`, the successor the C's bits (all
    /// twelve), and so does that joint's child, whose products carry the
    /// sign on down the hierarchy.
    #[test]
    fn corrects_e1_negative_zero_survives() {
        for imp in forms() {
            corrects_e1_negative_zero_survives_of(imp);
        }
    }

    fn corrects_e1_negative_zero_survives_of(imp: Impl) {
        let parent = JointMat::IDENTITY;
        let child = JointMat { mat: [1.0, -0.0, 0.0, 5.0, 0.0, -1.0, -0.0, 6.0, 0.0, -0.0, -1.0, 7.0] };
        let grandchild = JointMat { mat: [-0.0, 1.0, 0.0, 0.0, 1.0, -0.0, 0.0, 0.0, 0.0, 0.0, 1.0, -0.0] };
        let mats = vec![parent, child, grandchild];
        let parents = [-1, 0, 1];
        let c = scalar_of(&mats, &parents, 1..=2);
        assert_eq!(c[1].mat[1].to_bits(), (-0.0f32).to_bits(), "the C keeps -0.0");
        let out = run_safe(imp, &mats, &parents, 1..=2);
        assert_mats_bit_identical(&out, &c, &format!("{imp} vs the C, signed zeros"));
        let zeros = |m: &JointMat| (0..12).filter(|&e| m.mat[e].to_bits() == (-0.0f32).to_bits()).count();
        assert!(zeros(&out[1]) > 0 && zeros(&out[2]) > 0, "the -0.0 survive in the child and the grandchild");
        // The listing, for contrast (E1 kept there).
        if animasm::transform_skeleton::resolve(Impl::Asm) == Ok(Impl::Asm) {
            let mut l = mats.clone();
            transform_skeleton(Impl::Asm, &mut l, &parents, 1..=2).unwrap();
            assert_eq!(l[1].mat[1].to_bits(), 0.0f32.to_bits(), "the listing gives +0.0");
        }
    }

    /// NaN and infinite components (moderate finite values elsewhere, so no
    /// product overflows): the successor gives NaN exactly where the C does,
    /// the same infinities where the C has them, and finite values within
    /// rounding of the C's.
    #[test]
    fn nan_and_infinite_components_where_the_c_has_them() {
        for imp in forms() {
            nan_and_infinite_components_where_the_c_has_them_of(imp);
        }
    }

    fn nan_and_infinite_components_where_the_c_has_them_of(imp: Impl) {
        let specials = [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.0, -0.0];
        let mut rng = Rng::new(0x4a4);
        for n in [2usize, 5, 17, 40] {
            let parents = random_parents_from(&mut rng, n);
            for round in 0..24 {
                let mut mats = rigid_mats_from(&mut rng, n);
                for m in mats.iter_mut() {
                    for e in 0..12 {
                        if rng.below(6) == 0 {
                            m.mat[e] = specials[(rng.below(specials.len()) + round) % specials.len()];
                        }
                    }
                }
                let out = run_safe(imp, &mats, &parents, 1..=n - 1);
                let c = scalar_of(&mats, &parents, 1..=n - 1);
                for (j, (o, w)) in out.iter().zip(&c).enumerate() {
                    for e in 0..12 {
                        let (x, y) = (o.mat[e], w.mat[e]);
                        let ctx = format!("{imp} n = {n} round {round}: joint {j} mat[{e}]: {x} vs the C's {y}");
                        assert_eq!(x.is_nan(), y.is_nan(), "{ctx}");
                        if y.is_infinite() {
                            assert!(same_bits(x, y), "{ctx}");
                        } else if y.is_finite() {
                            assert!(x.is_finite(), "{ctx}");
                        }
                    }
                }
            }
        }
    }

    /// The raw kernel keeps the listing's order: a parent at or after its
    /// joint is read as it is at that point (the listing's behaviour the
    /// safe function rules out); `p == i` reads the whole joint before it
    /// is written, so the joint becomes its own square (the listing instead
    /// reads rows 1 and 2 after storing row 0).
    #[test]
    fn raw_kernel_self_and_later_parents() {
        for (imp, k) in kernels() {
            raw_kernel_self_and_later_parents_of(imp, k);
        }
    }

    fn raw_kernel_self_and_later_parents_of(imp: Impl, k: Kernel) {
        let mut rng = Rng::new(11);
        let n = 40;
        let mats = rigid_mats_from(&mut rng, n);
        let parents: Vec<i32> = (0..n).map(|i| if i % 3 == 0 { i as i32 } else { rng.below(n) as i32 }).collect();
        let out = run(k, &mats, &parents, 0, n as i32 - 1);
        let a = mat_f64(&mats[0]);
        let aa = affine_mul_f64(a, a);
        for (e, &want) in aa.iter().enumerate() {
            let tol = 1e-5 * want.abs().max(1.0);
            assert!((f64::from(out[0].mat[e]) - want).abs() <= tol, "{imp}: self parent, mat[{e}]");
        }
        // A later parent is read untransformed.
        let parents = [-1, 2, 0];
        let mats = rigid_mats_from(&mut rng, 3);
        let out = run(k, &mats, &parents, 1, 2);
        let want1 = affine_mul_f64(mat_f64(&mats[2]), mat_f64(&mats[1]));
        assert!(common::error::mat_max_abs_diff(&out[1].mat, &want1) <= 1e-5, "{imp}: later parent");
    }
}

/// Every form against the f64 product on the properties' inputs.
#[test]
fn differential_against_the_f64_product() {
    common::roster_checks::skeleton::transform_property("transform_skeleton");
}

/// The printed listing's counts; the variant's file is Appendix A with the
/// D2 markers, so the same.
#[test]
fn listing_instruction_counts() {
    for name in ["transform_skeleton", "transform_skeleton_movss_shufps"] {
        common::roster_checks::listing::assert_counts(name, &[("total", 58), ("loopJoint", 45)]);
    }
}
