//! `untransform_skeleton` (*The Skeleton Assembly Line*, section 4 and
//! Appendix B): the three implementations against each other (the asm and
//! the intrinsics bit for bit, and the scalar port too: the C and the listing
//! round the same products in the same order), against an f64 oracle
//! (`affine_inverse_f64(parent) * child`), on the Fox skeleton, as the
//! inverse of the local-to-global transform, and the safe function's
//! contract (every `Error` with nothing written, empty and single-joint
//! ranges); and the successors `Impl::Avx2`, `Impl::Portable` and
//! `Impl::Neon` (`mod successor`: each other's bits on every count, hard
//! inputs and arbitrary bits; every count, the Fox, special values,
//! hierarchies, buffer ends, the listing behaviours they keep).
//!
//! Error bounds (measured values in `asm_notes/untransform_skeleton.md`):
//! on rigid matrices the result is within [`ROT_BOUND`] of the f64 oracle in
//! the rotation part and within [`TRANS_BOUND_EPS`] `* f32::EPSILON * scale`
//! in the translation, where `scale` is `1 + |t_child| + |t_parent|` (max
//! norms).

// Empty ranges such as `1..=0` are test inputs here.
#![allow(clippy::reversed_empty_ranges)]

mod common;

use animasm::untransform_skeleton::{MAX_JOINTS, untransform_skeleton};
use animasm::{Error, Impl, JointMat};
use common::error::{abs_err, rot_trans_diff, translation_max_norm};
use common::fox;
use common::harness::Routine;
use common::inputs::{Rng, model_skeleton, rigid_mat_f64};
use common::oracle::{
    affine_from_f64, affine_mul_f64, local_to_model_f64, mat_f64, mats_f64, quat_to_mat3_f64, untransform_skeleton_f64,
};
use common::shapes::{self, SkeletonIn};
use common::{assert_mats_bit_identical, mat_bits};

/// `untransform_skeleton` in the generic harness (`tests/common/harness.rs`):
/// every form within 1e-5 of the scalar port and 1e-4 of the f64
/// model-to-local transform.
struct UntransformSkeleton;

impl Routine for UntransformSkeleton {
    const NAME: &'static str = "untransform_skeleton";
    type Shape = shapes::Skeleton;
    const TOL_SCALAR: f64 = 1e-5;
    const TOL_ORACLE: f64 = 1e-4;
    fn oracle_error(out: &[JointMat], init: &[JointMat], i: &SkeletonIn) -> f64 {
        shapes::skeleton::oracle_error(out, init, i, untransform_skeleton_f64)
    }
}

harness_tests!(UntransformSkeleton);
use proptest::prelude::*;

/// A raw kernel: `(jointMats, parents, firstJoint, lastJoint)`.
type Kernel = unsafe fn(*mut JointMat, *const i32, i32, i32);

/// The most an element of the rotation part differs from the f64 oracle on
/// rigid input (about 3 ulp of 1; the oracle inverts the f32-rounded parent
/// exactly, the kernels transpose it).
const ROT_BOUND: f64 = 3.0e-7;
/// The most a translation element differs from the f64 oracle on rigid
/// input, in units of `f32::EPSILON * scale`.
const TRANS_BOUND_EPS: f64 = 2.0;

// ---------------------------------------------------------------------------
// Helpers.

fn to_f32(m: &[f64; 12]) -> JointMat {
    JointMat { mat: m.map(|v| v as f32) }
}

/// Checks a raw kernel's contract for `first..=last` on `mats` / `parents`.
fn contract_holds(mats: &[JointMat], parents: &[i32], first: i32, last: i32) -> bool {
    first > last
        || (first >= 0
            && (last as usize) < mats.len()
            && (last as usize) < parents.len()
            && (first..=last).all(|i| parents[i as usize] >= 0 && parents[i as usize] < i))
}

/// Runs a raw kernel on a copy of `mats`.
fn run(k: Kernel, mats: &[JointMat], parents: &[i32], first: i32, last: i32) -> Vec<JointMat> {
    assert!(contract_holds(mats, parents, first, last), "test bug: contract violated");
    let mut out = mats.to_vec();
    // SAFETY: checked just above: every joint of the range is in `out` and
    // `parents`, every parent in `0..i`; `Vec<JointMat>` is 16-byte aligned;
    // the lengths are far below MAX_JOINTS.
    unsafe { k(out.as_mut_ptr(), parents.as_ptr(), first, last) };
    out
}

#[cfg(target_arch = "x86_64")]
const ASM: Kernel = animasm::untransform_skeleton::asm::untransform_skeleton;
#[cfg(target_arch = "x86_64")]
const INTRINSICS: Kernel = animasm::untransform_skeleton::intrinsics::untransform_skeleton;
const SCALAR: Kernel = animasm::untransform_skeleton::scalar::untransform_skeleton;

/// Runs the three kernels and asserts they agree bit for bit (any two NaNs
/// equal); returns the asm's result (the scalar's off x86_64).
#[track_caller]
fn assert_kernels_agree(mats: &[JointMat], parents: &[i32], first: i32, last: i32, ctx: &str) -> Vec<JointMat> {
    let scalar = run(SCALAR, mats, parents, first, last);
    #[cfg(target_arch = "x86_64")]
    {
        let asm = run(ASM, mats, parents, first, last);
        let intr = run(INTRINSICS, mats, parents, first, last);
        assert_mats_bit_identical(&asm, &intr, &format!("{ctx}: asm vs intrinsics"));
        assert_mats_bit_identical(&asm, &scalar, &format!("{ctx}: asm vs scalar"));
        asm
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = ctx; // names the x86 comparisons only
        scalar
    }
}

/// `1 + max|t_a| + max|t_b|`: the magnitude the translation error scales with.
fn scale(a: &JointMat, b: &JointMat) -> f64 {
    1.0 + translation_max_norm(&mat_f64(a)) + translation_max_norm(&mat_f64(b))
}

/// Largest errors of `got` against `want` over the joints `range`: (rotation
/// abs, translation in units of `f32::EPSILON * scale(want... input)`).
fn errors(
    got: &[JointMat],
    want: &[[f64; 12]],
    inputs: &[JointMat],
    parents: &[i32],
    range: core::ops::RangeInclusive<usize>,
) -> (f64, f64) {
    let (mut rot, mut trans) = (0.0f64, 0.0f64);
    for i in range {
        let s = scale(&inputs[i], &inputs[parents[i] as usize]);
        let (r, t) = rot_trans_diff(&got[i].mat, &want[i]);
        (rot, trans) = (rot.max(r), trans.max(t / (f64::from(f32::EPSILON) * s)));
    }
    (rot, trans)
}

/// The f64 oracle: `inverse(inputs[parents[i]]) * inputs[i]` for `i` in
/// `range` (the exact inverse of the f32 input matrices), the inputs
/// elsewhere.
fn oracle(inputs: &[JointMat], parents: &[i32], range: core::ops::RangeInclusive<usize>) -> Vec<[f64; 12]> {
    untransform_skeleton_f64(&mats_f64(inputs), parents, range)
}

/// Asserts that only the joints of `range` changed between `before` and
/// `after`.
#[track_caller]
fn assert_only_range_written(before: &[JointMat], after: &[JointMat], range: core::ops::RangeInclusive<usize>) {
    for (j, (b, a)) in before.iter().zip(after).enumerate() {
        if !range.contains(&j) {
            assert_eq!(b.mat.map(f32::to_bits), a.mat.map(f32::to_bits), "joint {j} outside {range:?} was written");
        }
    }
}

// ---------------------------------------------------------------------------
// The three kernels agree.

/// Ranges `1..=n` for every count 0..=12 and 1024, on random rigid
/// skeletons, plus ranges that start later; the three kernels bit for bit.
#[test]
fn kernels_agree_on_every_count() {
    for n in (0..=12).chain([31, 1024]) {
        let sk = model_skeleton(100 + n as u64, n + 1);
        let out = assert_kernels_agree(&sk.globals, &sk.parents, 1, n as i32, &format!("1..={n}"));
        assert_only_range_written(&sk.globals, &out, 1..=n);
        for first in [2, n / 2, n].into_iter().filter(|&f| f >= 1 && f <= n) {
            let ctx = format!("{first}..={n}");
            let out = assert_kernels_agree(&sk.globals, &sk.parents, first as i32, n as i32, &ctx);
            assert_only_range_written(&sk.globals, &out, first..=n);
        }
    }
}

/// The raw kernels on empty ranges (`first > last` as signed 32-bit
/// integers, `sub eax, edx` / `jl done`, overflow included) write nothing.
#[test]
fn kernels_on_empty_ranges_write_nothing() {
    let sk = model_skeleton(5, 6);
    let cases = [(1, 0), (5, 3), (6, 5), (0, -1), (-3, -5), (i32::MAX, 0), (i32::MAX, i32::MIN), (0, i32::MIN)];
    for (first, last) in cases {
        let ctx = format!("raw {first}..={last}");
        let out = assert_kernels_agree(&sk.globals, &sk.parents, first, last, &ctx);
        assert_eq!(mat_bits(&out), mat_bits(&sk.globals), "{ctx}: something was written");
    }
}

/// Special values (zeros of both signs, infinities, NaNs, subnormals, the
/// extremes) in every element of a parent and of a child, one at a time.
#[test]
fn kernels_agree_on_special_values() {
    // 0, -0, inf, -inf, NaN, -NaN, a signalling NaN, the smallest subnormal,
    // -MIN_POSITIVE, MAX, MIN, 1e30.
    let specials = animasm_testkit::edges::pick([0, 1, 23, 24, 25, 26, 27, 14, 13, 21, 22, 19]);
    let sk = model_skeleton(11, 4); // joints 1..=3; parents of 2 and 3 are in the range or 0
    for (who, joint) in [("parent", 0usize), ("child", 3), ("middle", 1)] {
        for e in 0..12 {
            for &v in &specials {
                let mut mats = sk.globals.clone();
                mats[joint].mat[e] = v;
                let ctx = format!("{who} joint {joint} mat[{e}] = {v:e} ({:#010x})", v.to_bits());
                assert_kernels_agree(&mats, &sk.parents, 1, 3, &ctx);
            }
        }
    }
    // Every joint full of one special value.
    for &v in &specials {
        let mats = vec![JointMat { mat: [v; 12] }; 5];
        assert_kernels_agree(&mats, &[-1, 0, 1, 1, 0], 1, 4, &format!("all {v:e}"));
    }
}

/// The listing subtracts `(0, 0, 0, t)` from each row of the child, so the
/// rotation lanes get `x - (+0.0)`, which is `x` for every `x`, `-0.0`
/// included: unlike Appendix A's `addps` of `(0, 0, 0, t)` (which turns a
/// `-0.0` into `+0.0`, erratum E1 of `transform_skeleton`), it changes no
/// bit, and a column of `-0.0` under an identity parent stays `-0.0` in every
/// implementation, as in the C.
#[test]
fn negative_zero_survives_the_translation_subtraction() {
    let parent = JointMat { mat: [1.0, 0.0, 0.0, 5.0, 0.0, 1.0, 0.0, 6.0, 0.0, 0.0, 1.0, 7.0] };
    let child = JointMat { mat: [1.0, -0.0, 0.0, 8.0, 0.0, -0.0, -1.0, 9.0, 0.0, -0.0, 1.0, 10.0] };
    for imp in UntransformSkeleton::forms().into_iter() {
        let mut mats = [parent, child];
        untransform_skeleton(imp, &mut mats, &[-1, 0], 1..=1).unwrap();
        for e in [1, 5, 9] {
            assert_eq!(mats[1].mat[e].to_bits(), 0x8000_0000, "{imp}: mat[{e}] = {:e}", mats[1].mat[e]);
        }
        assert_eq!([mats[1].mat[3], mats[1].mat[7], mats[1].mat[11]], [3.0, 3.0, 3.0], "{imp}");
    }
}

proptest! {
    #![proptest_config(animasm_testkit::strategies::config(512, 2))]

    /// Arbitrary bit patterns in every matrix, arbitrary parents-first
    /// hierarchies and ranges (empty ones included): the three kernels
    /// agree bit for bit (NaNs as NaNs).
    #[test]
    fn kernels_agree_on_arbitrary_bits(
        bits in proptest::collection::vec(any::<[u32; 12]>(), 2..24),
        picks in proptest::collection::vec(any::<u32>(), 24),
        first in any::<u32>(),
        last in any::<u32>(),
    ) {
        let n = bits.len();
        let mats: Vec<JointMat> = bits.iter().map(|b| JointMat { mat: b.map(f32::from_bits) }).collect();
        let parents: Vec<i32> =
            (0..n).map(|i| if i == 0 { -1 } else { (picks[i] % i as u32) as i32 }).collect();
        let first = 1 + (first as usize % (n - 1));
        let last = (first - 1) + (last as usize % (n - first + 1)); // first - 1 (empty) ..= n - 1
        let out = assert_kernels_agree(&mats, &parents, first as i32, last as i32, "proptest");
        assert_only_range_written(&mats, &out, first..=last);
    }
}

// ---------------------------------------------------------------------------
// Against the f64 oracle.

/// On random rigid skeletons of up to 1024 joints, every implementation
/// through the safe function is within the bounds of the exact inverse.
#[test]
fn every_impl_near_the_f64_oracle() {
    let mut worst = (0.0f64, 0.0f64);
    for (seed, n) in [(1u64, 1024usize), (2, 1024), (3, 200), (4, 17), (5, 2)] {
        let sk = model_skeleton(seed, n);
        let want = oracle(&sk.globals, &sk.parents, 1..=n - 1);
        for imp in UntransformSkeleton::forms().into_iter() {
            let mut mats = sk.globals.clone();
            untransform_skeleton(imp, &mut mats, &sk.parents, 1..=n - 1).unwrap();
            let (rot, trans) = errors(&mats, &want, &sk.globals, &sk.parents, 1..=n - 1);
            assert!(rot <= ROT_BOUND, "{imp} n={n}: rotation error {rot:e} > {ROT_BOUND:e}");
            assert!(trans <= TRANS_BOUND_EPS, "{imp} n={n}: translation error {trans} eps*scale > {TRANS_BOUND_EPS}");
            assert_eq!(mat_bits(&mats[..1]), mat_bits(&sk.globals[..1]), "{imp}: the root was written");
            worst = (worst.0.max(rot), worst.1.max(trans));
        }
    }
    println!("worst vs f64 oracle: rotation {:.3e} abs, translation {:.3} eps*scale", worst.0, worst.1);
}

/// The global matrices of a random rigid skeleton, computed in f64 and
/// rounded to f32, come back to the f64 local matrices: the routine inverts
/// the local-to-global transform of section 3.
///
/// This uses an f64 local-to-global transform; see also
/// [`untransform_inverts_transform_skeleton`].
#[test]
fn untransform_inverts_the_f64_transform() {
    let mut worst = (0.0f64, 0.0f64);
    for (seed, n) in [(21u64, 1024usize), (22, 64)] {
        let sk = model_skeleton(seed, n);
        for imp in UntransformSkeleton::forms().into_iter() {
            let mut mats = sk.globals.clone();
            untransform_skeleton(imp, &mut mats, &sk.parents, 1..=n - 1).unwrap();
            let (rot, trans) = errors(&mats, &sk.locals, &sk.globals, &sk.parents, 1..=n - 1);
            // The f32 rounding of the globals adds about one ulp of each input.
            assert!(rot <= 2.0 * ROT_BOUND, "{imp} n={n}: rotation error {rot:e}");
            assert!(trans <= 2.0 * TRANS_BOUND_EPS, "{imp} n={n}: translation error {trans} eps*scale");
            worst = (worst.0.max(rot), worst.1.max(trans));
        }
    }
    println!("worst vs f64 locals: rotation {:.3e} abs, translation {:.3} eps*scale", worst.0, worst.1);
}

/// The depth of each joint (a root is at depth 0).
fn depths(parents: &[i32]) -> Vec<usize> {
    let mut d: Vec<usize> = Vec::with_capacity(parents.len());
    for &p in parents {
        d.push(if p < 0 { 0 } else { d[p as usize] + 1 });
    }
    d
}

/// `untransform(transform(x)) == x`: random rigid f32 local matrices through
/// `transform_skeleton` (section 3, Appendix A) and back, with every `Impl`
/// for both. The f32 transform makes each global rotation a little less
/// orthonormal at each level (about one ulp per level, as a random walk),
/// and the untransform multiplies by the transpose, so the error grows with
/// the parent's depth `d`: within `ROUND_TRIP_EPS * f32::EPSILON * (2 + d)`
/// in the rotation part and `ROUND_TRIP_EPS * f32::EPSILON * scale * (2 + d)`
/// in the translation.
#[test]
fn untransform_inverts_transform_skeleton() {
    const ROUND_TRIP_EPS: f64 = 1.0;
    let eps = f64::from(f32::EPSILON);
    let mut worst = (0.0f64, 0.0f64, 0usize);
    for (seed, n) in [(31u64, 1024usize), (32, 13)] {
        let sk = model_skeleton(seed, n);
        let depth = depths(&sk.parents);
        let locals: Vec<JointMat> = sk.locals.iter().map(to_f32).collect();
        for imp in UntransformSkeleton::forms().into_iter() {
            let mut mats = locals.clone();
            animasm::transform_skeleton::transform_skeleton(imp, &mut mats, &sk.parents, 1..=n - 1).unwrap();
            let globals = mats.clone();
            untransform_skeleton(imp, &mut mats, &sk.parents, 1..=n - 1).unwrap();
            assert_eq!(mats[0].mat.map(f32::to_bits), locals[0].mat.map(f32::to_bits));
            for i in 1..n {
                let p = sk.parents[i] as usize;
                let s = scale(&globals[i], &globals[p]);
                let level = 2.0 + depth[p] as f64;
                for e in 0..12 {
                    let d = abs_err(f64::from(mats[i].mat[e]), f64::from(locals[i].mat[e]));
                    let units = if e % 4 == 3 { d / (eps * s * level) } else { d / (eps * level) };
                    assert!(units <= ROUND_TRIP_EPS, "{imp} n={n} joint {i} (depth {}) mat[{e}]: {d:e}", depth[i]);
                    if units > worst.0 {
                        worst = (units, d, depth[p]);
                    }
                }
            }
        }
    }
    println!("round trip: worst {:.3} eps * (2 + depth) ({:.3e} at parent depth {})", worst.0, worst.1, worst.2);
}

/// The listing multiplies by the parent's transpose (the paper assumes
/// orthonormal rotations, section 2): with a parent that scales by 2 the
/// result is `Rp^T (a - tp)`, four times the true local matrix's rotation,
/// not `inverse(parent) * a`.
#[test]
fn parent_rotation_must_be_orthonormal() {
    let mut rng = Rng::new(77);
    let r = quat_to_mat3_f64(rng.unit_quat_f64());
    let scaled: [[f64; 3]; 3] = core::array::from_fn(|i| core::array::from_fn(|j| 2.0 * r[i][j]));
    let parent = affine_from_f64(scaled, [1.0, 2.0, 3.0]);
    let local = rigid_mat_f64(&mut rng, 10.0);
    let child = affine_mul_f64(parent, local);
    let mats = vec![to_f32(&parent), to_f32(&child)];
    let transpose_oracle: [f64; 12] = {
        let p = mat_f64(&mats[0]);
        let c = mat_f64(&mats[1]);
        core::array::from_fn(|i| {
            let (row, col) = (i / 4, i % 4);
            let tp = |k: usize| if col == 3 { p[k * 4 + 3] } else { 0.0 };
            (0..3).map(|k| p[k * 4 + row] * (c[k * 4 + col] - tp(k))).sum()
        })
    };
    for imp in UntransformSkeleton::forms().into_iter() {
        let mut out = mats.clone();
        untransform_skeleton(imp, &mut out, &[-1, 0], 1..=1).unwrap();
        for e in 0..12 {
            let got = f64::from(out[1].mat[e]);
            assert!((got - transpose_oracle[e]).abs() <= 1e-5 * (1.0 + transpose_oracle[e].abs()), "{imp} mat[{e}]");
            // Four times the true local matrix (scale 2 in and not undone).
            assert!(
                (got - 4.0 * local[e]).abs() <= 1e-4 * (1.0 + local[e].abs()),
                "{imp} mat[{e}]: {got} vs 4 * {}",
                local[e]
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The Fox.

/// A Fox pose: its name, the f64 local matrices, the f64 model-space reference.
type FoxPose = (String, Vec<[f64; 12]>, Vec<[f64; 12]>);

/// The key poses of `Fox.glb.pose.json` ([`fox::key_poses`]): (name, the f64
/// local matrices of the pose's f32 rotations and translations
/// ([`fox::local_mats_f64`]), the JSON's float64 local-to-model reference).
fn fox_poses() -> Vec<FoxPose> {
    fox::key_poses()
        .into_iter()
        .map(|p| (p.name, fox::local_mats_f64(&p.rotations, &p.translations), p.model))
        .collect()
}

/// The largest translation in a pose: the model's scale (about 70 units).
fn model_scale(model: &[[f64; 12]]) -> f64 {
    model.iter().map(translation_max_norm).fold(0.0, f64::max)
}

/// Largest (rotation abs, translation abs) differences over joints `1..`.
fn fox_errors(got: &[JointMat], want: &[[f64; 12]]) -> (f64, f64) {
    got.iter()
        .zip(want)
        .skip(1)
        .map(|(g, w)| rot_trans_diff(&g.mat, w))
        .fold((0.0, 0.0), |(r, t), (gr, gt)| (r.max(gr), t.max(gt)))
}

/// The Fox hierarchy uses the column-vector convention the routine assumes:
/// the JSON's model-space poses (`global = parent * local`), rounded to f32
/// and untransformed over joints `1..=23`, are the local poses within 5e-7
/// of the model's scale in the translations and 1e-6 in the rotations (the
/// issue asks for ~1e-5; measured: 1.5e-7 and 5.6e-8); joint 0 (the root,
/// parent -1) is left as it is.
#[test]
fn fox_model_poses_untransform_to_local_poses() {
    let parents = fox::parents();
    assert_eq!(parents.len(), 24);
    let mut worst = (0.0f64, 0.0f64);
    for (name, locals, model) in fox_poses() {
        let s = model_scale(&model);
        assert!(s > 50.0 && s < 100.0, "{name}: scale {s}");
        let globals: Vec<JointMat> = model.iter().map(to_f32).collect();
        // The reference is consistent with the locals in f64 (column vectors).
        let composed = local_to_model_f64(&locals, &parents);
        let (r, t) = fox_errors(&composed.iter().map(to_f32).collect::<Vec<_>>(), &model);
        assert!(r < 1e-6 && t < 2e-6 * s, "{name}: the JSON's reference is not parent * local: {r:e} {t:e}");
        for imp in UntransformSkeleton::forms().into_iter() {
            let mut mats = globals.clone();
            untransform_skeleton(imp, &mut mats, &parents, 1..=23).unwrap();
            assert_eq!(mats[0].mat.map(f32::to_bits), globals[0].mat.map(f32::to_bits), "{imp} {name}: root written");
            let (rot, trans) = fox_errors(&mats, &locals);
            assert!(rot <= 1e-6, "{imp} {name}: rotation error {rot:e}");
            assert!(trans <= 5e-7 * s, "{imp} {name}: translation error {trans:e} (scale {s})");
            worst = (worst.0.max(rot), worst.1.max(trans / s));
        }
        // And the three agree bit for bit on real data.
        assert_kernels_agree(&globals, &parents, 1, 23, &name);
    }
    println!("Fox, JSON model poses: rotation {:.3e} abs, translation {:.3e} x scale", worst.0, worst.1);
}

/// The same from f64 model-space poses computed from the local poses
/// (rounded to f32 once; measured: 3.6e-7 and 1.0e-7 of the scale).
#[test]
fn fox_f64_composed_poses_untransform_to_local_poses() {
    let parents = fox::parents();
    let mut worst = (0.0f64, 0.0f64);
    for (name, locals, model) in fox_poses() {
        let s = model_scale(&model);
        let globals: Vec<JointMat> = local_to_model_f64(&locals, &parents).iter().map(to_f32).collect();
        for imp in UntransformSkeleton::forms().into_iter() {
            let mut mats = globals.clone();
            untransform_skeleton(imp, &mut mats, &parents, 1..=23).unwrap();
            let (rot, trans) = fox_errors(&mats, &locals);
            assert!(rot <= 1e-6, "{imp} {name}: rotation error {rot:e}");
            assert!(trans <= 5e-7 * s, "{imp} {name}: translation error {trans:e}");
            worst = (worst.0.max(rot), worst.1.max(trans / s));
        }
    }
    println!("Fox, f64-composed poses: rotation {:.3e} abs, translation {:.3e} x scale", worst.0, worst.1);
}

/// Sub-ranges of the Fox: a leg chain (16..=19), the tail of the skeleton
/// (20..=23) and every single joint: only the range is written, each joint
/// with the oracle's value, and a parent inside the range is read while it
/// is still global (last joint first).
#[test]
fn fox_sub_ranges_and_single_joints() {
    let parents = fox::parents();
    let (name, _, model) = &fox_poses()[0];
    let globals: Vec<JointMat> = model.iter().map(to_f32).collect();
    let mut ranges: Vec<(usize, usize)> = vec![(16, 19), (20, 23), (1, 6), (13, 23)];
    ranges.extend((1..24).map(|k| (k, k)));
    for (a, b) in ranges {
        let want = oracle(&globals, &parents, a..=b);
        for imp in UntransformSkeleton::forms().into_iter() {
            let mut mats = globals.clone();
            untransform_skeleton(imp, &mut mats, &parents, a..=b).unwrap();
            assert_only_range_written(&globals, &mats, a..=b);
            let (rot, trans) = errors(&mats, &want, &globals, &parents, a..=b);
            assert!(rot <= ROT_BOUND && trans <= TRANS_BOUND_EPS, "{imp} {name} {a}..={b}: {rot:e} {trans}");
        }
    }
}

// ---------------------------------------------------------------------------
// The safe function's contract.

/// Calls the safe function on a copy of `mats` and asserts it returns `want`
/// and writes nothing.
#[track_caller]
fn expect_err(imp: Impl, mats: &[JointMat], parents: &[i32], range: core::ops::RangeInclusive<usize>, want: Error) {
    let mut out = mats.to_vec();
    let got = untransform_skeleton(imp, &mut out, parents, range.clone());
    assert_eq!(got, Err(want), "{imp} {range:?}");
    assert_eq!(mat_bits(&out), mat_bits(mats), "{imp} {range:?}: written on Err");
}

#[test]
fn range_out_of_bounds() {
    let sk = model_skeleton(41, 9);
    for imp in UntransformSkeleton::forms().into_iter() {
        let want = |start, end| Error::RangeOutOfBounds { start, end, len: 9 };
        expect_err(imp, &sk.globals, &sk.parents, 1..=9, want(1, 9));
        expect_err(imp, &sk.globals, &sk.parents, 5..=12, want(5, 12));
        expect_err(imp, &sk.globals, &sk.parents, 20..=30, want(20, 30));
        expect_err(imp, &[], &[], 0..=0, Error::RangeOutOfBounds { start: 0, end: 0, len: 0 });
    }
}

/// More than `MAX_JOINTS` matrices: refused before anything else,
/// even for an empty or a small range. The slice is a zeroed allocation that
/// the OS provides lazily (`calloc` of 1.5 GiB): it is never touched, as the
/// length check comes first; the range's joints are checked unwritten.
#[test]
fn too_many_joints() {
    let n = MAX_JOINTS + 1;
    let layout = std::alloc::Layout::array::<JointMat>(n).unwrap();
    // SAFETY: `layout` has a non-zero size.
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<JointMat>();
    if ptr.is_null() {
        common::cpu::skipped(&format!("too_many_joints: no {} bytes of address space", layout.size()));
        return;
    }
    // SAFETY: all-zero bits are a valid `JointMat` (twelve 0.0f32); the
    // pointer comes from the global allocator with `Vec<JointMat>`'s layout
    // for capacity `n`, as `from_raw_parts` needs.
    let mut big: Vec<JointMat> = unsafe { Vec::from_raw_parts(ptr, n, n) };
    let parents: Vec<i32> = (0..9).map(|i| i - 1).collect();
    let want = Err(Error::TooLong { what: "mats", len: n, max: MAX_JOINTS });
    for imp in UntransformSkeleton::forms().into_iter() {
        for range in [1..=8, 1..=0, 0..=8, 5..=n + 3] {
            assert_eq!(untransform_skeleton(imp, &mut big, &parents, range.clone()), want, "{imp} {range:?}");
            assert!(big[..9].iter().all(|m| m.mat.iter().all(|v| v.to_bits() == 0)), "{imp}: written");
        }
        // One fewer is accepted.
        let mut ok = untransform_skeleton(imp, &mut big[..MAX_JOINTS], &parents, 1..=8);
        assert_eq!(ok, Ok(()), "{imp}");
        ok = untransform_skeleton(imp, &mut big[..MAX_JOINTS], &parents, 1..=0);
        assert_eq!(ok, Ok(()), "{imp}");
    }
}

#[test]
fn parents_too_short() {
    let sk = model_skeleton(43, 9);
    for imp in UntransformSkeleton::forms().into_iter() {
        let want = Error::TooShort { what: "parents", needed: 9, found: 8 };
        expect_err(imp, &sk.globals, &sk.parents[..8], 1..=8, want);
        let want = Error::TooShort { what: "parents", needed: 4, found: 0 };
        expect_err(imp, &sk.globals, &[], 3..=3, want);
        // Long enough for the range: fine.
        let mut mats = sk.globals.clone();
        untransform_skeleton(imp, &mut mats, &sk.parents[..5], 1..=4).unwrap();
    }
}

/// A parent that is negative, the joint itself, after it or outside the
/// slice, anywhere in the range (the kernels run last joint first, so an
/// invalid low joint would be reached last: nothing may be written before
/// the check); the lowest such joint is reported; a range starting at 0
/// meets the root's `-1`.
#[test]
fn invalid_parents() {
    let sk = model_skeleton(44, 9);
    for imp in UntransformSkeleton::forms().into_iter() {
        for joint in [1usize, 4, 8] {
            for parent in [-1, i32::MIN, joint as i32, joint as i32 + 1, 9, 100, i32::MAX] {
                let mut parents = sk.parents.clone();
                parents[joint] = parent;
                expect_err(imp, &sk.globals, &parents, 1..=8, Error::InvalidParent { joint, parent });
            }
        }
        // Two bad joints: the lower one is reported.
        let mut parents = sk.parents.clone();
        (parents[3], parents[7]) = (-1, 7);
        expect_err(imp, &sk.globals, &parents, 1..=8, Error::InvalidParent { joint: 3, parent: -1 });
        // Ranges that start at 0: the root's parent is -1, or the root itself.
        expect_err(imp, &sk.globals, &sk.parents, 0..=8, Error::InvalidParent { joint: 0, parent: -1 });
        expect_err(imp, &sk.globals, &sk.parents, 0..=0, Error::InvalidParent { joint: 0, parent: -1 });
        let mut parents = sk.parents.clone();
        parents[0] = 0;
        expect_err(imp, &sk.globals, &parents, 0..=3, Error::InvalidParent { joint: 0, parent: 0 });
    }
}

/// Roots (`-1`) outside the range are fine; a root inside is refused.
#[test]
fn roots_outside_the_range() {
    let parents = [-1, 0, 1, -1, 3, 4];
    let mut rng = Rng::new(45);
    let globals: Vec<JointMat> = (0..6).map(|_| to_f32(&rigid_mat_f64(&mut rng, 10.0))).collect();
    for imp in UntransformSkeleton::forms().into_iter() {
        for (a, b) in [(1, 2), (4, 5), (5, 5)] {
            let mut mats = globals.clone();
            untransform_skeleton(imp, &mut mats, &parents, a..=b).unwrap();
            assert_only_range_written(&globals, &mats, a..=b);
        }
        expect_err(imp, &globals, &parents, 3..=5, Error::InvalidParent { joint: 3, parent: -1 });
        expect_err(imp, &globals, &parents, 1..=5, Error::InvalidParent { joint: 3, parent: -1 });
    }
}

/// Empty ranges (`start > end`, exhausted) that start at most at the
/// slice's end return `Ok` and write nothing, as the listing's `jl done`;
/// one that starts past the end is `RangeOutOfBounds` (slice indexing).
#[test]
fn empty_ranges() {
    let sk = model_skeleton(46, 9);
    let mut exhausted = 1..=1;
    assert_eq!(exhausted.next(), Some(1));
    for imp in UntransformSkeleton::forms().into_iter() {
        #[allow(clippy::reversed_empty_ranges)]
        for range in [3..=2, 1..=0, 9..=8, exhausted.clone()] {
            let mut mats = sk.globals.clone();
            assert_eq!(untransform_skeleton(imp, &mut mats, &sk.parents, range.clone()), Ok(()), "{imp} {range:?}");
            assert_eq!(mat_bits(&mats), mat_bits(&sk.globals), "{imp} {range:?}: written");
        }
        #[allow(clippy::reversed_empty_ranges)]
        for range in [10..=9, 100..=2, usize::MAX..=0] {
            let (start, end) = (*range.start(), *range.end());
            let mut mats = sk.globals.clone();
            let want = Err(Error::RangeOutOfBounds { start, end, len: 9 });
            assert_eq!(untransform_skeleton(imp, &mut mats, &sk.parents, range.clone()), want, "{imp} {range:?}");
            assert_eq!(mat_bits(&mats), mat_bits(&sk.globals), "{imp} {range:?}: written");
            let mut none: [JointMat; 0] = [];
            let want = Err(Error::RangeOutOfBounds { start, end, len: 0 });
            assert_eq!(untransform_skeleton(imp, &mut none, &[], range.clone()), want, "{imp} {range:?}");
        }
    }
}

/// Single-joint ranges `k..=k`, on the first and last joint and inside,
/// write joint `k` only, with the oracle's value.
#[test]
fn single_joint_ranges() {
    let sk = model_skeleton(47, 12);
    for imp in UntransformSkeleton::forms().into_iter() {
        for k in [1, 2, 6, 11] {
            let mut mats = sk.globals.clone();
            untransform_skeleton(imp, &mut mats, &sk.parents, k..=k).unwrap();
            assert_only_range_written(&sk.globals, &mats, k..=k);
            let want = oracle(&sk.globals, &sk.parents, k..=k);
            let (rot, trans) = errors(&mats, &want, &sk.globals, &sk.parents, k..=k);
            assert!(rot <= ROT_BOUND && trans <= TRANS_BOUND_EPS, "{imp} {k}..={k}: {rot:e} {trans}");
        }
    }
}

/// Every implementation this target has is available; the others say so
/// (`Unsupported`, or `MissingCpuFeature` for the successor on a CPU without
/// AVX2 and FMA).
#[test]
fn unsupported_impls_are_refused() {
    let sk = model_skeleton(48, 4);
    for imp in Impl::ALL {
        if let Err(e) = animasm::untransform_skeleton::resolve(imp) {
            expect_err(imp, &sk.globals, &sk.parents, 1..=3, e);
        }
    }
    // Scalar and Portable everywhere; Asm (not under Miri) and Intrinsics on
    // x86_64, with Avx2 where the CPU has AVX2 and FMA; Neon on aarch64.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        let successor = usize::from(animasm::untransform_skeleton::resolve(Impl::Avx2).is_ok());
        assert_eq!(UntransformSkeleton::forms().len(), 4 + successor);
    }
    #[cfg(target_arch = "aarch64")]
    assert_eq!(UntransformSkeleton::forms(), [Impl::Neon, Impl::Portable, Impl::Scalar]);
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
    fn kernels() -> Vec<(Impl, Kernel)> {
        let r = animasm::roster::find("untransform_skeleton").expect("a roster routine");
        let mut out = Vec::new();
        for f in r.all_forms().filter(|f| f.origin == animasm::Origin::Successor) {
            match animasm::untransform_skeleton::kernel(f.imp) {
                Ok(k) => out.push((f.imp, k as Kernel)),
                Err(e) => common::cpu::skipped(&format!("untransform_skeleton: {}: {e}", f.imp)),
            }
        }
        assert!(out.iter().any(|&(imp, _)| imp == Impl::Portable), "the portable successor always runs");
        out.extend(avx512_kernel().map(|k| (Impl::Avx512, k)));
        out
    }

    /// The AVX-512 successor's raw kernel (`untransform_skeleton::avx512`, not in the
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
                return Some(animasm::untransform_skeleton::avx512::untransform_skeleton as Kernel);
            }
            common::cpu::skipped("untransform_skeleton: avx512: the CPU lacks avx512f, avx512vl, avx512dq or avx512bw");
        }
        None
    }

    /// The successor forms this CPU runs.
    fn forms() -> Vec<Impl> {
        kernels().into_iter().map(|(imp, _)| imp).collect()
    }

    /// A successor through the safe function on a `Vec` of exactly
    /// `mats.len()` joints (an access past the last joint is outside the
    /// allocation, for memcheck).
    fn run_safe(
        imp: Impl,
        mats: &[JointMat],
        parents: &[i32],
        range: core::ops::RangeInclusive<usize>,
    ) -> Vec<JointMat> {
        let mut out = Vec::with_capacity(mats.len());
        out.extend_from_slice(mats);
        assert_eq!(out.capacity(), mats.len());
        if imp == Impl::Avx512 {
            // Not in the table: the safe function validates with `Portable`
            // (on a copy), then the raw kernel runs on the exact `Vec`.
            untransform_skeleton(Impl::Portable, &mut mats.to_vec(), parents, range.clone()).unwrap();
            let k = avx512_kernel().expect("Impl::Avx512 is listed only where the CPU runs it");
            if !range.is_empty() {
                // SAFETY: the safe function accepted the range: every joint
                // of it and its parent are in `out` (as long as `mats`), and
                // `parents` has an entry for each; an aligned `Vec`; the CPU
                // has AVX-512 (`avx512_kernel`).
                unsafe { k(out.as_mut_ptr(), parents.as_ptr(), *range.start() as i32, *range.end() as i32) };
            }
        } else {
            untransform_skeleton(imp, &mut out, parents, range).unwrap();
        }
        out
    }

    fn scalar_of(mats: &[JointMat], parents: &[i32], range: core::ops::RangeInclusive<usize>) -> Vec<JointMat> {
        let mut out = mats.to_vec();
        untransform_skeleton(Impl::Scalar, &mut out, parents, range).unwrap();
        out
    }

    /// Runs every successor's raw kernel on the same input (each parent
    /// before its joint, or the joint itself) and asserts that each gives
    /// `Impl::Portable`'s bits (any two NaNs equal); returns the portable
    /// form's output.
    #[track_caller]
    fn assert_successors_agree(mats: &[JointMat], parents: &[i32], first: i32, last: i32, ctx: &str) -> Vec<JointMat> {
        if first <= last {
            assert!(first >= 0 && (last as usize) < mats.len() && (last as usize) < parents.len());
            assert!((first..=last).all(|i| (0..=i).contains(&parents[i as usize])), "test bug: parents");
        }
        let raw = |k: Kernel| {
            let mut out = mats.to_vec();
            // SAFETY: checked above: every joint of the range and its parent
            // (at or before it) are in `out`; `Vec<JointMat>` is aligned;
            // the lengths are far below MAX_JOINTS.
            unsafe { k(out.as_mut_ptr(), parents.as_ptr(), first, last) };
            out
        };
        let reference = raw(animasm::untransform_skeleton::portable::untransform_skeleton);
        for (imp, k) in kernels() {
            let ctx = format!("{ctx}: {imp} vs portable ({first}..={last})");
            assert_mats_bit_identical(&raw(k), &reference, &ctx);
        }
        reference
    }

    /// The one answer: every successor form gives the portable form's bits,
    /// through the safe function, on every count 0..=67 of untransformed
    /// joints and every sub-range that ends at the last joint (random rigid
    /// skeletons, several seeds), and through the raw kernels on inner
    /// ranges; `Impl::Deterministic` runs one of them.
    #[test]
    fn every_successor_equals_the_portable_form_on_every_count() {
        let forms = forms();
        for seed in 0..4u64 {
            for n in 0..=67usize {
                let sk = model_skeleton(0xde7 + 1000 * seed + n as u64, n + 1);
                let starts: Vec<usize> = if n == 0 { vec![1] } else { (1..=n).collect() };
                for first in starts {
                    let want = run_safe(Impl::Portable, &sk.globals, &sk.parents, first..=n);
                    for &imp in &forms {
                        let out = run_safe(imp, &sk.globals, &sk.parents, first..=n);
                        assert_mats_bit_identical(&out, &want, &format!("seed {seed} n = {n} {first}..={n}: {imp}"));
                    }
                }
                if n >= 4 {
                    assert_successors_agree(&sk.globals, &sk.parents, 2, n as i32 - 1, &format!("n = {n}, inner"));
                }
            }
        }
        let sk = model_skeleton(0xde7e, 40);
        let mut out = sk.globals.clone();
        untransform_skeleton(Impl::Deterministic, &mut out, &sk.parents, 1..=39).unwrap();
        assert_mats_bit_identical(&out, &run_safe(Impl::Portable, &sk.globals, &sk.parents, 1..=39), "deterministic");
    }

    /// The one answer on hard inputs: special values (NaN, infinities,
    /// signed zeros, subnormals, the largest finite values) anywhere in the
    /// joints and parents, large, tiny and subnormal translations (sums
    /// that round differently when fused), and a joint that is its own
    /// parent (raw kernels only).
    #[test]
    fn every_successor_equals_the_portable_form_on_hard_inputs() {
        let specials = animasm_testkit::edges::pick([0, 1, 23, 24, 25, 26, 27, 14, 13, 21, 22, 19, 11, 12, 2, 3]);
        let mut rng = Rng::new(0x0de7);
        for n in [2usize, 3, 5, 17, 64] {
            let sk = model_skeleton(0x5e7 + n as u64, n);
            for round in 0..32 {
                let mut mats = sk.globals.clone();
                let scale = [1.0f32, 1e-20, 1e20, 3.0e-39, 1e30][round % 5];
                for m in mats.iter_mut() {
                    for e in 0..12 {
                        m.mat[e] *= if e % 4 == 3 { scale } else { 1.0 };
                        if rng.below(4) == 0 {
                            m.mat[e] = specials[(rng.below(specials.len()) + round) % specials.len()];
                        }
                    }
                }
                assert_successors_agree(&mats, &sk.parents, 1, n as i32 - 1, &format!("n = {n} round {round}"));
            }
        }
        let sk = model_skeleton(0x5e1f, 3);
        assert_successors_agree(&sk.globals, &[0, 0, 1], 0, 2, "self parent");
    }

    mod props {
        use super::*;

        proptest! {
            #![proptest_config(animasm_testkit::strategies::config(256, 2))]

            /// Arbitrary bit patterns in every matrix, arbitrary
            /// parents-first hierarchies and ranges (empty ones included):
            /// every successor's raw kernel gives the portable form's bits.
            #[test]
            fn every_successor_equals_the_portable_form_on_arbitrary_bits(
                bits in proptest::collection::vec(any::<[u32; 12]>(), 2..24),
                picks in proptest::collection::vec(any::<u32>(), 24),
                first in any::<u32>(),
                last in any::<u32>(),
            ) {
                let n = bits.len();
                let mats: Vec<JointMat> = bits.iter().map(|b| JointMat { mat: b.map(f32::from_bits) }).collect();
                let parents: Vec<i32> =
                    (0..n).map(|i| if i == 0 { -1 } else { (picks[i] % i as u32) as i32 }).collect();
                let first = 1 + (first as usize % (n - 1));
                let last = (first - 1) + (last as usize % (n - first + 1));
                let out = assert_successors_agree(&mats, &parents, first as i32, last as i32, "arbitrary bits");
                assert_only_range_written(&mats, &out, first..=last);
            }
        }
    }

    /// Every count 0..=67 of untransformed joints, and every sub-range that
    /// ends at the last joint, on buffers that end there: only the range
    /// written, within the listing's bounds of the f64 oracle ([`ROT_BOUND`],
    /// [`TRANS_BOUND_EPS`]) and within twice those of the scalar port.
    /// Prints the worst errors of the successor and of the scalar port (=
    /// the listing).
    #[test]
    fn every_count_against_the_scalar_port_and_the_oracle() {
        for imp in forms() {
            every_count_against_the_scalar_port_and_the_oracle_of(imp);
        }
    }

    fn every_count_against_the_scalar_port_and_the_oracle_of(imp: Impl) {
        let (mut worst, mut worst_c) = ((0f64, 0f64), (0f64, 0f64));
        for n in 0..=67usize {
            let sk = model_skeleton(0x0c0 + n as u64, n + 1);
            let starts: Vec<usize> = if n == 0 { vec![1] } else { (1..=n).collect() };
            for first in starts {
                let range = first..=n;
                let out = run_safe(imp, &sk.globals, &sk.parents, range.clone());
                assert_only_range_written(&sk.globals, &out, range.clone());
                if first > n {
                    continue;
                }
                let want = oracle(&sk.globals, &sk.parents, range.clone());
                let (rot, trans) = errors(&out, &want, &sk.globals, &sk.parents, range.clone());
                assert!(rot <= ROT_BOUND && trans <= TRANS_BOUND_EPS, "n = {n} {range:?}: {rot:e} {trans}");
                let c = scalar_of(&sk.globals, &sk.parents, range.clone());
                let (cr, ct) = errors(&c, &want, &sk.globals, &sk.parents, range.clone());
                let want_c: Vec<[f64; 12]> = mats_f64(&c);
                let (dr, dt) = errors(&out, &want_c, &sk.globals, &sk.parents, range.clone());
                assert!(dr <= 2.0 * ROT_BOUND && dt <= 2.0 * TRANS_BOUND_EPS, "n = {n}: {dr:e} {dt} from the C");
                worst = (worst.0.max(rot), worst.1.max(trans));
                worst_c = (worst_c.0.max(cr), worst_c.1.max(ct));
            }
        }
        println!(
            "every count 0..=67 vs f64 oracle: {imp} rotation {:e}, translation {:.3} eps*scale; \
             C (= listing) {:e}, {:.3}",
            worst.0, worst.1, worst_c.0, worst_c.1
        );
    }

    /// Large skeletons (1024 joints, as benchmarked; chains and fans, so
    /// parents shared by many joints and long chains through joints just
    /// read): within the listing's bounds of the oracle.
    #[test]
    fn large_skeletons_near_the_oracle() {
        for imp in forms() {
            large_skeletons_near_the_oracle_of(imp);
        }
    }

    fn large_skeletons_near_the_oracle_of(imp: Impl) {
        for seed in [1u64, 2, 3] {
            let sk = model_skeleton(0x1024 + seed, 1024);
            let out = run_safe(imp, &sk.globals, &sk.parents, 1..=1023);
            let want = oracle(&sk.globals, &sk.parents, 1..=1023);
            let (rot, trans) = errors(&out, &want, &sk.globals, &sk.parents, 1..=1023);
            let c = scalar_of(&sk.globals, &sk.parents, 1..=1023);
            let (cr, ct) = errors(&c, &want, &sk.globals, &sk.parents, 1..=1023);
            println!("1024 joints: {imp} {rot:e} {trans:.3}; C {cr:e} {ct:.3}");
            assert!(rot <= ROT_BOUND && trans <= TRANS_BOUND_EPS, "seed {seed}: {rot:e} {trans}");
        }
    }

    /// Hierarchies with every joint under the root (one parent read by every
    /// iteration) and one chain (every parent the next joint the loop
    /// handles, read before it is itself untransformed): the listing's order
    /// kept, within the bounds of the oracle.
    #[test]
    fn fans_and_chains() {
        for imp in forms() {
            fans_and_chains_of(imp);
        }
    }

    fn fans_and_chains_of(imp: Impl) {
        let mut rng = Rng::new(0xfa4);
        for n in [2usize, 3, 9, 33, 64, 65] {
            let chain: Vec<i32> = (0..n as i32).map(|i| i - 1).collect();
            let fan: Vec<i32> = (0..n as i32).map(|i| if i == 0 { -1 } else { 0 }).collect();
            for (what, parents) in [("chain", chain), ("fan", fan)] {
                let locals: Vec<[f64; 12]> = (0..n).map(|_| rigid_mat_f64(&mut rng, 1.0)).collect();
                let globals: Vec<JointMat> = local_to_model_f64(&locals, &parents).iter().map(to_f32).collect();
                let out = run_safe(imp, &globals, &parents, 1..=n - 1);
                let want = oracle(&globals, &parents, 1..=n - 1);
                let (rot, trans) = errors(&out, &want, &globals, &parents, 1..=n - 1);
                assert!(rot <= ROT_BOUND && trans <= TRANS_BOUND_EPS, "{what} n = {n}: {rot:e} {trans}");
            }
        }
    }

    /// The Fox: the JSON's model poses rounded to f32, untransformed, are the
    /// local poses (the bounds of `fox_model_poses_untransform_to_local_poses`).
    #[test]
    fn fox_model_poses() {
        for imp in forms() {
            fox_model_poses_of(imp);
        }
    }

    fn fox_model_poses_of(imp: Impl) {
        let parents = fox::parents();
        let mut worst = (0f64, 0f64);
        for (name, locals, model) in fox_poses() {
            let s = model_scale(&model);
            let globals: Vec<JointMat> = model.iter().map(to_f32).collect();
            let out = run_safe(imp, &globals, &parents, 1..=23);
            assert_eq!(out[0].mat.map(f32::to_bits), globals[0].mat.map(f32::to_bits), "{name}: root written");
            let (rot, trans) = fox_errors(&out, &locals);
            assert!(rot <= 1e-6, "{name}: rotation error {rot:e}");
            assert!(trans <= 5e-7 * s, "{name}: translation error {trans:e} (scale {s})");
            worst = (worst.0.max(rot), worst.1.max(trans / s));
        }
        println!("Fox, {imp}: rotation {:.3e} abs, translation {:.3e} x scale", worst.0, worst.1);
    }

    /// Identical and opposite: a joint equal to its parent becomes the
    /// identity (within the bound), a joint under an identity parent keeps
    /// its bits (every product exact), as in the C.
    #[test]
    fn identity_and_equal_to_the_parent() {
        for imp in forms() {
            identity_and_equal_to_the_parent_of(imp);
        }
    }

    fn identity_and_equal_to_the_parent_of(imp: Impl) {
        let sk = model_skeleton(0x1d, 12);
        let mut mats = sk.globals.clone();
        mats[0] = JointMat::IDENTITY;
        let fan: Vec<i32> = (0..12).map(|i| if i == 0 { -1 } else { 0 }).collect();
        let out = run_safe(imp, &mats, &fan, 1..=11);
        assert_mats_bit_identical(&out, &mats, "identity parent");
        assert_mats_bit_identical(&out, &scalar_of(&mats, &fan, 1..=11), "identity parent vs the C");
        for j in 1..12 {
            let out = run_safe(imp, &[sk.globals[j], sk.globals[j]], &[-1, 0], 1..=1);
            let d = common::error::mat_max_abs_diff(&out[1].mat, &mat_f64(&JointMat::IDENTITY));
            assert!(d <= 1e-6, "joint {j} under itself: {d:e} from the identity");
        }
    }

    /// Signed zeros (the listing keeps them; so does the successor): a column
    /// of `-0.0` under a translated identity parent stays `-0.0`, as in
    /// `negative_zero_survives_the_translation_subtraction`, and every
    /// element is the C's.
    #[test]
    fn keeps_negative_zero() {
        for imp in forms() {
            keeps_negative_zero_of(imp);
        }
    }

    fn keeps_negative_zero_of(imp: Impl) {
        let parent = JointMat { mat: [1.0, 0.0, 0.0, 5.0, 0.0, 1.0, 0.0, 6.0, 0.0, 0.0, 1.0, 7.0] };
        let child = JointMat { mat: [1.0, -0.0, 0.0, 8.0, 0.0, -0.0, -1.0, 9.0, 0.0, -0.0, 1.0, 10.0] };
        let out = run_safe(imp, &[parent, child], &[-1, 0], 1..=1);
        for e in [1, 5, 9] {
            assert_eq!(out[1].mat[e].to_bits(), 0x8000_0000, "mat[{e}] = {:e}", out[1].mat[e]);
        }
        assert_mats_bit_identical(&out, &scalar_of(&[parent, child], &[-1, 0], 1..=1), &format!("{imp} vs the C"));
    }

    /// NaN and infinite components (moderate finite values elsewhere, so no
    /// product overflows): NaN exactly where the C has one, the same
    /// infinities, finite values where the C's are finite.
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
            let sk = model_skeleton(0x5e + n as u64, n);
            for round in 0..24 {
                let mut mats = sk.globals.clone();
                for m in mats.iter_mut() {
                    for e in 0..12 {
                        if rng.below(6) == 0 {
                            m.mat[e] = specials[(rng.below(specials.len()) + round) % specials.len()];
                        }
                    }
                }
                let out = run_safe(imp, &mats, &sk.parents, 1..=n - 1);
                let c = scalar_of(&mats, &sk.parents, 1..=n - 1);
                for (j, (o, w)) in out.iter().zip(&c).enumerate() {
                    for e in 0..12 {
                        let (x, y) = (o.mat[e], w.mat[e]);
                        let ctx = format!("n = {n} round {round}: joint {j} mat[{e}]: {x} vs the C's {y}");
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

    /// The raw kernel: empty ranges (`first > last` as signed 32-bit
    /// integers) read and write nothing; a joint that is its own parent is
    /// read whole before it is written (`Rp^T (a - tp)` with `p = a`: the
    /// identity rotation and a zero translation, within rounding).
    #[test]
    fn raw_kernel_empty_ranges_and_self_parent() {
        for (imp, k) in kernels() {
            raw_kernel_empty_ranges_and_self_parent_of(imp, k);
        }
    }

    fn raw_kernel_empty_ranges_and_self_parent_of(imp: Impl, k: Kernel) {
        let sk = model_skeleton(0xe, 10);
        for (first, last) in [(1, 0), (5, 4), (9, 2), (0, -1), (i32::MAX, i32::MIN), (3, i32::MIN)] {
            let out = run(k, &sk.globals, &sk.parents, first, last);
            assert_eq!(mat_bits(&out), mat_bits(&sk.globals), "{imp} ({first}, {last}): something was written");
        }
        let parents = [0, 0];
        let mut out = sk.globals[..2].to_vec();
        // SAFETY: joint 0 and its parent (itself) are in `out`; `parents[0]`
        // is readable; an aligned Vec; `kernels()` gave a kernel this CPU runs. The raw
        // kernel allows `p == i` (memory-safe; the result is defined above).
        unsafe { k(out.as_mut_ptr(), parents.as_ptr(), 0, 0) };
        let d = common::error::mat_max_abs_diff(&out[0].mat, &mat_f64(&JointMat::IDENTITY));
        assert!(d <= 1e-5, "{imp}: self parent: {d:e} from the identity");
    }
}

/// Every form against the f64 inverse on the properties' inputs.
#[test]
fn differential_against_the_f64_inverse() {
    common::roster_checks::skeleton::untransform_property("untransform_skeleton");
}

/// The printed listing's counts.
#[test]
fn listing_instruction_counts() {
    common::roster_checks::listing::assert_counts("untransform_skeleton", &[("total", 60), ("loopJoint", 48)]);
}
