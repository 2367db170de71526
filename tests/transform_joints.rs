//! `transform_joints` (*The Skeleton Assembly Line*, section 5 and Appendix
//! C): the three forms against each other and against the f64 oracle, the
//! rebuilt third row of the listing, the real Fox data, the errata and the
//! error cases of the safe function.
//!
//! - asm and intrinsics are bit-identical on every input (any two NaNs count
//!   as equal);
//! - the scalar port of the C is bit-identical to them too, once `-0.0` in
//!   the rotation columns is read as `+0.0` (the listing adds `+0.0` there:
//!   erratum `erratum_rotation_negative_zero_becomes_positive_zero`);
//! - against the f64 oracle every element is within `4u` (u = 2^-24) of its
//!   scale `sum |a[r][k] * b[k][c]| (+ |a[r][3]|)`, the bound of three
//!   products summed left to right plus the translation;
//! - the successors `Impl::Avx2`, `Impl::Avx512`, `Impl::Neon` and `Impl::Portable` (`mod
//!   successor`, each form this CPU runs): every count 0..=67 on buffers
//!   that end at the last joint, the Fox, special values, in place, the
//!   erratum they correct, within the same `4u` bound, and each other's
//!   bits (the one answer).

mod common;

use animasm::transform_joints::{MAX_JOINTS, transform_joints};
use animasm::{Error, Impl, JointMat};
use animasm_testkit::edges::mat_pairs;
use common::error::mat_max_abs_diff;
use common::fox;
use common::harness::Routine;
use common::inputs::{Rng, rigid_and_general_mats, rigid_mat_f64};
use common::oracle::{affine_inverse_f64, affine_mul_f64, local_to_model_f64, mat_f64};
use common::shapes;
use common::{assert_mats_bit_identical, mat_bits};

/// `transform_joints` in the generic harness (`tests/common/harness.rs`):
/// every form within 5e-6 of the scalar port and 1e-5 of the f64 product.
struct TransformJoints;

impl Routine for TransformJoints {
    const NAME: &'static str = "transform_joints";
    type Shape = shapes::TransformJoints;
    const TOL_SCALAR: f64 = 5e-6;
    const TOL_ORACLE: f64 = 1e-5;
    fn oracle_error(out: &[JointMat], _: &[JointMat], (a, b): &(Vec<JointMat>, Vec<JointMat>)) -> f64 {
        (0..out.len())
            .map(|k| mat_max_abs_diff(&out[k].mat, &affine_mul_f64(mat_f64(&a[k]), mat_f64(&b[k]))))
            .fold(0.0, f64::max)
    }
}

harness_tests!(TransformJoints);

/// Half an ulp of 1.0 in f32: the unit roundoff u = 2^-24.
const U: f64 = f32::EPSILON as f64 / 2.0;

/// A 3x4 matrix from f64 values, rounded to f32.
fn mat_f32(m: [f64; 12]) -> JointMat {
    JointMat { mat: m.map(|v| v as f32) }
}

/// The one sentinel of the tests (`common::harness::SENTINEL`, a NaN with a
/// payload) as a float: the output buffers start with it, so that an element
/// not written shows.
const SENTINEL: f32 = f32::from_bits(common::harness::SENTINEL);

#[cfg(target_arch = "x86_64")]
mod raw {
    use super::*;

    /// A raw kernel: `(result, joints1, joints2, numJoints)`.
    pub type Kernel = unsafe fn(*mut JointMat, *const JointMat, *const JointMat, i32);

    pub const ASM: Kernel = animasm::transform_joints::asm::transform_joints;
    pub const INTRINSICS: Kernel = animasm::transform_joints::intrinsics::transform_joints;
    pub const SCALAR: Kernel = animasm::transform_joints::scalar::transform_joints;

    /// Runs a raw kernel on `n = a.len()` joints into a fresh buffer of `n +
    /// extra` sentinel joints; returns the whole buffer.
    pub fn run_padded(k: Kernel, a: &[JointMat], b: &[JointMat], extra: usize) -> Vec<JointMat> {
        assert_eq!(a.len(), b.len());
        assert!(a.len() <= MAX_JOINTS);
        let mut out = vec![JointMat { mat: [SENTINEL; 12] }; a.len() + extra];
        // SAFETY: three distinct Vecs of align(16) joints (16-byte aligned),
        // `a` and `b` hold `n` joints, `out` at least `n`; n is small.
        unsafe { k(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), a.len() as i32) };
        out
    }

    /// Runs a raw kernel on `a.len()` joints.
    pub fn run(k: Kernel, a: &[JointMat], b: &[JointMat]) -> Vec<JointMat> {
        run_padded(k, a, b, 0)
    }

    /// Runs asm and intrinsics, asserts they are bit-identical, returns the
    /// asm's result.
    #[track_caller]
    pub fn twins(a: &[JointMat], b: &[JointMat], ctx: &str) -> Vec<JointMat> {
        let x = run(ASM, a, b);
        assert_mats_bit_identical(&x, &run(INTRINSICS, a, b), &format!("{ctx}: asm vs intrinsics"));
        x
    }
}

/// What the listing makes of a scalar (C) result: `+0.0` added to the
/// rotation columns turns `-0.0` into `+0.0`, and changes nothing else.
#[cfg(target_arch = "x86_64")]
fn as_listing(m: &[JointMat]) -> Vec<JointMat> {
    m.iter()
        .map(|j| JointMat {
            mat: core::array::from_fn(|e| if e % 4 != 3 && j.mat[e].to_bits() == 0x8000_0000 { 0.0 } else { j.mat[e] }),
        })
        .collect()
}

/// The error bound of an element against the exact product: `4u` times its
/// scale (three rounded products and three rounded additions for the
/// translation column, two for the others: at most four roundings on any
/// term), and the scale.
fn bound_and_scale(a: &JointMat, b: &JointMat, e: usize) -> (f64, f64) {
    let (r, c) = (e / 4, e % 4);
    let mut scale: f64 = (0..3).map(|k| (f64::from(a.mat[r * 4 + k]) * f64::from(b.mat[k * 4 + c])).abs()).sum();
    if c == 3 {
        scale += f64::from(a.mat[r * 4 + 3]).abs();
    }
    (4.0 * U * scale * (1.0 + 1e-6), scale)
}

/// Checks every element of `out` against the f64 product of the f32 inputs;
/// returns the largest error in units of `u * scale`.
#[track_caller]
fn check_against_oracle(out: &[JointMat], a: &[JointMat], b: &[JointMat], ctx: &str) -> f64 {
    let mut worst = 0f64;
    for j in 0..a.len() {
        let want = affine_mul_f64(mat_f64(&a[j]), mat_f64(&b[j]));
        for (e, &exact) in want.iter().enumerate() {
            let err = (f64::from(out[j].mat[e]) - exact).abs();
            let (bound, scale) = bound_and_scale(&a[j], &b[j], e);
            assert!(
                err <= bound,
                "{ctx}: joint {j} mat[{}*4+{}] = {:e}, exact {exact:e}: error {err:e} > {bound:e} (scale {scale:e})",
                e / 4,
                e % 4,
                out[j].mat[e],
            );
            if scale > 0.0 {
                worst = worst.max(err / (U * scale));
            }
        }
    }
    worst
}

// ---------------------------------------------------------------------------
// asm == intrinsics, bit for bit.

#[cfg(target_arch = "x86_64")]
#[test]
fn twins_on_every_count() {
    for n in (0..=12).chain([1023, 1024]) {
        let mut rng = Rng::new(n as u64 + 1);
        let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
        raw::twins(&a, &b, &format!("{n} random joints"));
    }
}

#[cfg(target_arch = "x86_64")]
#[test]
fn twins_and_scalar_on_special_values() {
    let (a, b) = mat_pairs();
    let asm = raw::twins(&a, &b, "special values");
    let scalar = raw::run(raw::SCALAR, &a, &b);
    assert_mats_bit_identical(&asm, &as_listing(&scalar), "special values: asm vs scalar (rotation -0 read as +0)");
}

/// The scalar port and the listing sum in the same order: on random data they
/// agree bit for bit (after the `-0.0` erratum, which random data does not
/// meet).
#[cfg(target_arch = "x86_64")]
#[test]
fn scalar_is_bit_identical_to_the_listing_on_random_data() {
    let mut rng = Rng::new(42);
    let (a, b) = (rigid_and_general_mats(&mut rng, 4096), rigid_and_general_mats(&mut rng, 4096));
    let asm = raw::twins(&a, &b, "random");
    assert_mats_bit_identical(&asm, &raw::run(raw::SCALAR, &a, &b), "random: asm vs scalar");
}

/// `jl loopJoint` (rebuilt; not `jle`): the loop stops after `numJoints`
/// joints. With `jle` it would run once more, at byte offset 0 from the
/// lists' ends, and write the joint after the last. `numJoints == 0` writes
/// nothing (`test eax, eax; jz done`).
#[cfg(target_arch = "x86_64")]
#[test]
fn rebuilt_jl_writes_exactly_num_joints() {
    for n in (0..=12).chain([1024]) {
        let mut rng = Rng::new(100 + n as u64);
        let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
        for (name, k) in [("asm", raw::ASM), ("intrinsics", raw::INTRINSICS), ("scalar", raw::SCALAR)] {
            let out = raw::run_padded(k, &a, &b, 2);
            for (j, m) in out.iter().enumerate() {
                let written = m.mat.iter().filter(|v| v.to_bits() != SENTINEL.to_bits()).count();
                let want = if j < n { 12 } else { 0 };
                assert_eq!(written, want, "{name}, {n} joints: joint {j} has {written} elements written");
            }
        }
    }
}

/// The listing may run in place: for each joint it reads all of `joints2[i]`
/// and row `r` of `joints1[i]` before it writes row `r` of `result[i]`.
#[cfg(target_arch = "x86_64")]
#[test]
fn asm_and_intrinsics_run_in_place() {
    let mut rng = Rng::new(5);
    for n in [1, 2, 3, 7, 64] {
        let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
        let want = raw::twins(&a, &b, "out of place");
        for (name, k) in [("asm", raw::ASM), ("intrinsics", raw::INTRINSICS)] {
            let mut x = a.clone();
            let p = x.as_mut_ptr();
            // SAFETY: `result == joints1` exactly, which the kernels allow;
            // `b` has n joints; aligned Vecs.
            unsafe { k(p, p, b.as_ptr(), n as i32) };
            assert_mats_bit_identical(&x, &want, &format!("{name}: result == joints1, {n} joints"));
            let mut y = b.clone();
            let p = y.as_mut_ptr();
            // SAFETY: `result == joints2` exactly, which the kernels allow.
            unsafe { k(p, a.as_ptr(), p, n as i32) };
            assert_mats_bit_identical(&y, &want, &format!("{name}: result == joints2, {n} joints"));
        }
    }
}

#[cfg(target_arch = "x86_64")]
mod props {
    use super::*;
    use common::inputs::Rng;
    use proptest::prelude::*;

    fn mat(b: &[u32]) -> JointMat {
        JointMat { mat: core::array::from_fn(|e| f32::from_bits(b[e])) }
    }

    proptest! {
        #![proptest_config(animasm_testkit::strategies::config(512, 2))]

        /// Arbitrary bit patterns in every float: asm and intrinsics
        /// bit-identical, the scalar port too up to the rotation `-0.0`.
        #[test]
        fn twins_and_scalar_on_arbitrary_bits(m in proptest::collection::vec(any::<[u32; 24]>(), 1..12)) {
            let a: Vec<JointMat> = m.iter().map(|b| mat(&b[..12])).collect();
            let b: Vec<JointMat> = m.iter().map(|b| mat(&b[12..])).collect();
            let asm = raw::twins(&a, &b, "arbitrary bits");
            let scalar = raw::run(raw::SCALAR, &a, &b);
            assert_mats_bit_identical(&asm, &as_listing(&scalar), "arbitrary bits: asm vs scalar");
        }

        /// Random finite matrices of any scale: every implementation within
        /// the bound of the f64 oracle.
        #[test]
        fn every_impl_near_the_oracle(seed in any::<u64>(), n in 0usize..40) {
            let mut rng = Rng::new(seed);
            let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
            for imp in TransformJoints::forms().into_iter() {
                let mut out = vec![JointMat::default(); n];
                transform_joints(imp, &mut out, &a, &b).unwrap();
                check_against_oracle(&out, &a, &b, imp.name());
            }
        }
    }
}

/// Every implementation against the oracle on 1024 random joints (rigid and
/// general); prints the largest error in units of `u * scale`.
#[test]
fn every_impl_within_4u_of_the_scale() {
    let mut rng = Rng::new(2005);
    let (a, b) = (rigid_and_general_mats(&mut rng, 1024), rigid_and_general_mats(&mut rng, 1024));
    for imp in TransformJoints::forms().into_iter() {
        let mut out = vec![JointMat::default(); 1024];
        transform_joints(imp, &mut out, &a, &b).unwrap();
        let worst = check_against_oracle(&out, &a, &b, imp.name());
        eprintln!("{imp}: max error {worst:.3} u * scale (bound 4)");
        assert!(worst > 0.0, "{imp}: no rounding error at all on random data is implausible");
    }
}

// ---------------------------------------------------------------------------
// The product, its order, and the rebuilt third row.

/// `a` = rows (1 2 3 4), (5 6 7 8), (9 10 11 12); `b` = rows (13 .. 16),
/// (17 .. 20), (21 .. 24): every product and sum is an integer below 2^24,
/// exact in f32.
fn integer_pair() -> (JointMat, JointMat) {
    (
        JointMat { mat: core::array::from_fn(|e| (e + 1) as f32) },
        JointMat { mat: core::array::from_fn(|e| (e + 13) as f32) },
    )
}

/// `a * b` of [`integer_pair`] by hand: `(a*b)[r][c] = sum_k a[r][k] b[k][c]`
/// (`+ a[r][3]` for c = 3).
const INTEGER_PRODUCT: [f32; 12] = [
    // row 0: 1*13 + 2*17 + 3*21 = 110, 1*14 + 2*18 + 3*22 = 116, 122, 1*16 + 2*20 + 3*24 + 4 = 132
    110.0, 116.0, 122.0, 132.0, //
    // row 1: 5*13 + 6*17 + 7*21 = 314, 332, 350, 5*16 + 6*20 + 7*24 + 8 = 376
    314.0, 332.0, 350.0, 376.0, //
    // row 2: 9*13 + 10*17 + 11*21 = 518, 548, 578, 9*16 + 10*20 + 11*24 + 12 = 620
    518.0, 548.0, 578.0, 620.0,
];

/// `result = joints1 * joints2` (section 5's `MultiplyJoints( result, a, b )`
/// with `a = joints1`), not `joints2 * joints1`, exactly, with every
/// implementation, for every joint of a list.
#[test]
fn product_is_joints1_times_joints2() {
    let (a, b) = integer_pair();
    let ba = affine_mul_f64(mat_f64(&b), mat_f64(&a));
    assert!(INTEGER_PRODUCT.iter().zip(ba).any(|(x, y)| f64::from(*x) != y), "the test needs non-commuting input");
    for imp in TransformJoints::forms().into_iter() {
        for n in [1, 3, 5, 9] {
            let mut out = vec![JointMat::default(); n];
            transform_joints(imp, &mut out, &vec![a; n], &vec![b; n]).unwrap();
            for (j, m) in out.iter().enumerate() {
                assert_eq!(m.mat, INTEGER_PRODUCT, "{imp}, {n} joints: joint {j}");
            }
        }
    }
}

/// The third row of the listing is rebuilt (the OCR stops after its
/// `mulps xmm4, xmm1`). Here only the third row of `joints1` is non-zero, and
/// it is distinct from the others: the result's third row must be the third
/// row of the product (its own rotation lanes times the rows of `joints2`,
/// its translation added: the rebuilt `addps`, `pshufd`/`mulps xmm5, xmm2`,
/// `andps`/`addps xmm3, xmm7` and the store at offset 32) and the first two
/// rows only translations of zero. Each joint of the list gets its own
/// scaling, so a row taken from the wrong joint or offset shows too.
#[test]
fn rebuilt_third_row() {
    let (a, b) = integer_pair();
    let n = 11;
    let a3: Vec<JointMat> = (0..n)
        .map(|j| JointMat { mat: core::array::from_fn(|e| if e >= 8 { a.mat[e] * (j + 1) as f32 } else { 0.0 }) })
        .collect();
    let bs: Vec<JointMat> = (0..n).map(|j| JointMat { mat: b.mat.map(|v| v + j as f32) }).collect();
    for imp in TransformJoints::forms().into_iter() {
        let mut out = vec![JointMat { mat: [SENTINEL; 12] }; n];
        transform_joints(imp, &mut out, &a3, &bs).unwrap();
        for j in 0..n {
            let want = affine_mul_f64(mat_f64(&a3[j]), mat_f64(&bs[j]));
            assert_eq!(out[j].mat[..8], [0.0; 8], "{imp}: joint {j}: rows 0 and 1 must be zero");
            let row2: Vec<f64> = out[j].mat[8..].iter().map(|&v| f64::from(v)).collect();
            assert_eq!(row2, want[8..], "{imp}: joint {j}: third row");
        }
        // The full integer product: the third row as printed in INTEGER_PRODUCT.
        let mut out = [JointMat::default()];
        transform_joints(imp, &mut out, &[a], &[b]).unwrap();
        assert_eq!(out[0].mat[8..], [518.0, 548.0, 578.0, 620.0], "{imp}: third row of the integer product");
    }
}

// ---------------------------------------------------------------------------
// Real data: the Fox's rest pose and inverse bind matrices.

/// The model-space matrices of a pose (local rotations and translations along
/// `parents`), computed in f64 and rounded to f32.
fn model_space(rotations: &[[f32; 4]], translations: &[[f32; 3]], parents: &[i32]) -> Vec<JointMat> {
    local_to_model_f64(&fox::local_mats_f64(rotations, translations), parents).into_iter().map(mat_f32).collect()
}

/// The skinning use of section 5: the model-space rest matrices times the
/// inverse bind matrices is the identity, within 1e-5 (the data's own
/// residue is 8.2e-6, data/README.md), with every implementation, and every
/// element within the bound of the f64 product of the same f32 inputs.
#[test]
fn fox_rest_pose_times_inverse_bind_is_identity() {
    let parents = fox::parents();
    let rest = model_space(&fox::rest_rotations(), &fox::rest_translations(), &parents);
    let inv_bind: Vec<JointMat> = fox::inverse_bind().into_iter().map(|m| JointMat { mat: m }).collect();
    assert_eq!((rest.len(), inv_bind.len()), (24, 24));
    let identity = JointMat::IDENTITY.mat;
    // The residue of the data itself, in f64.
    let data: f64 = (0..24)
        .flat_map(|j| {
            let p = affine_mul_f64(mat_f64(&rest[j]), mat_f64(&inv_bind[j]));
            (0..12).map(move |e| (p[e] - f64::from(identity[e])).abs())
        })
        .fold(0.0, f64::max);
    for imp in TransformJoints::forms().into_iter() {
        let mut out = vec![JointMat { mat: [SENTINEL; 12] }; 24];
        transform_joints(imp, &mut out, &rest, &inv_bind).unwrap();
        let worst = (0..24)
            .flat_map(|j| (0..12).map(move |e| (j, e)))
            .map(|(j, e)| (f64::from(out[j].mat[e]) - f64::from(identity[e])).abs())
            .fold(0.0, f64::max);
        let rel = check_against_oracle(&out, &rest, &inv_bind, imp.name());
        eprintln!(
            "Fox rest x inverse bind, {imp}: max |R - I| = {worst:e} (f64 of the same input {data:e}); {rel:.3} u * scale"
        );
        assert!(worst <= 1e-5, "{imp}: max |rest * inverse bind - I| = {worst:e}");
    }
}

/// The Fox's animated poses (the JSON's key pairs) through the skinning
/// product: every implementation within the bound of the oracle and all of
/// them bit-identical (the listing, its twin, the scalar port and the
/// successors, which round as the C does).
#[test]
fn fox_key_poses_times_inverse_bind() {
    let parents = fox::parents();
    let inv_bind: Vec<JointMat> = fox::inverse_bind().into_iter().map(|m| JointMat { mat: m }).collect();
    for pose in fox::key_poses() {
        let (name, model) = (&pose.name, model_space(&pose.rotations, &pose.translations, &parents));
        let mut results = Vec::new();
        for imp in TransformJoints::forms().into_iter() {
            let mut out = vec![JointMat::default(); 24];
            transform_joints(imp, &mut out, &model, &inv_bind).unwrap();
            check_against_oracle(&out, &model, &inv_bind, &format!("{name} {imp}"));
            results.push((imp, out));
        }
        // The listing forms, the C and the successors (the C's roundings)
        // agree bit for bit (no rotation element sums to -0.0 here).
        for (imp, out) in &results[1..] {
            assert_mats_bit_identical(out, &results[0].1, &format!("{name}: {imp} vs {}", results[0].0));
        }
    }
}

// ---------------------------------------------------------------------------
// Errata.

/// The listing adds each row's translation with `andps xmm7,
/// SIMD_SP_clearFirstThree; addps xmm3, xmm7`, i.e. it adds `+0.0` to the
/// three rotation elements, which the C (`MultiplyJoints`) does not: a
/// rotation element that sums to `-0.0` in the C comes out `+0.0` from the
/// listing. Nothing else changes (`x + 0.0 == x` for every other `x`).
#[test]
fn erratum_rotation_negative_zero_becomes_positive_zero() {
    // Row 0 of `a` is (1, 1, 1, 5); column 1 of `b` is all -0.0: the C sums
    // -0 + -0 + -0 = -0 for result[0][1].
    let a = JointMat { mat: [1.0, 1.0, 1.0, 5.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] };
    let b = JointMat { mat: [1.0, -0.0, 0.0, 2.0, 0.0, -0.0, 0.0, 3.0, 0.0, -0.0, 1.0, 4.0] };
    let c = |imp: Impl| {
        let mut out = [JointMat::default()];
        transform_joints(imp, &mut out, &[a], &[b]).unwrap();
        out[0].mat
    };
    let scalar = c(Impl::Scalar);
    assert_eq!(scalar[1].to_bits(), (-0.0f32).to_bits(), "the C keeps -0.0");
    // The listing forms (the successor corrects it:
    // `successor::corrects_e2_negative_zero_survives`).
    for imp in TransformJoints::forms().into_iter().filter(|&i| i == Impl::Asm || i == Impl::Intrinsics) {
        let simd = c(imp);
        assert_eq!(simd[1].to_bits(), 0.0f32.to_bits(), "{imp}: the listing adds +0.0");
        for e in 0..12 {
            // Column 1 is -0.0 in every row of the C's result; the listing's
            // rows all come out +0.0 there; every other element is the same.
            let want = if e % 4 != 3 && scalar[e].to_bits() == 0x8000_0000 { 0 } else { scalar[e].to_bits() };
            assert_eq!(simd[e].to_bits(), want, "{imp}: element {e}");
        }
        assert_eq!([scalar[5], scalar[9]].map(f32::to_bits), [0x8000_0000; 2], "the C's column 1");
    }
}

/// Section 5 says the SSE code "can be found in appendix B"; Appendix B is
/// `UntransformSkeleton`, and section 5's `MultiplyJoints` is Appendix C. The
/// two compute different things: Appendix B's C (`UntransformJoint( a, b )`)
/// subtracts `b`'s translation and multiplies by the transpose of `b`'s
/// rotation, `b^-1 * a` for a rigid `b`; Appendix C computes `a * b`. The port
/// follows Appendix C: the kernels give `a * b` and not `b^-1 * a`.
#[test]
fn erratum_text_names_appendix_b_for_appendix_c() {
    let mut rng = Rng::new(9);
    let (a, b) = (mat_f32(rigid_mat_f64(&mut rng, 100.0)), mat_f32(rigid_mat_f64(&mut rng, 100.0)));
    let appendix_b = affine_mul_f64(affine_inverse_f64(mat_f64(&b)), mat_f64(&a));
    let appendix_c = affine_mul_f64(mat_f64(&a), mat_f64(&b));
    for imp in TransformJoints::forms().into_iter() {
        let mut out = [JointMat::default()];
        transform_joints(imp, &mut out, &[a], &[b]).unwrap();
        let d = |w: &[f64; 12]| (0..12).map(|e| (f64::from(out[0].mat[e]) - w[e]).abs()).fold(0.0, f64::max);
        assert!(d(&appendix_c) < 1e-4, "{imp}: not a * b ({:e})", d(&appendix_c));
        assert!(d(&appendix_b) > 1e-1, "{imp}: looks like Appendix B's b^-1 * a ({:e})", d(&appendix_b));
    }
}

// ---------------------------------------------------------------------------
// The safe function's errors: nothing written.

#[track_caller]
fn expect_err(imp: Impl, n: usize, n1: usize, n2: usize, want: Error) {
    let mut rng = Rng::new(77);
    let (a, b) = (rigid_and_general_mats(&mut rng, n1), rigid_and_general_mats(&mut rng, n2));
    let mut out = rigid_and_general_mats(&mut rng, n);
    let before = mat_bits(&out);
    assert_eq!(transform_joints(imp, &mut out, &a, &b), Err(want), "{imp}: {n}, {n1}, {n2}");
    assert_eq!(mat_bits(&out), before, "{imp}: written on Err");
}

#[test]
fn length_mismatch_names_the_argument() {
    for imp in TransformJoints::forms().into_iter() {
        for (n, n1, n2) in [(4, 3, 4), (4, 5, 4), (0, 1, 0), (7, 0, 7)] {
            expect_err(imp, n, n1, n2, Error::LengthMismatch { what: "joints1", expected: n, found: n1 });
        }
        for (n, n1, n2) in [(4, 4, 3), (4, 4, 5), (0, 0, 1), (7, 7, 0)] {
            expect_err(imp, n, n1, n2, Error::LengthMismatch { what: "joints2", expected: n, found: n2 });
        }
        // Both wrong: `joints1` is reported.
        expect_err(imp, 5, 2, 3, Error::LengthMismatch { what: "joints1", expected: 5, found: 2 });
    }
    let e = Error::LengthMismatch { what: "joints2", expected: 4, found: 3 };
    assert_eq!(e.to_string(), "`joints2` has 3 elements, expected 4");
}

/// Lazily zeroed memory for `n` joints: the pages are never written (the
/// checks come first) and only read as the shared zero page.
struct Zeroed {
    ptr: *mut JointMat,
    n: usize,
    layout: std::alloc::Layout,
}

impl Zeroed {
    fn new(n: usize) -> Option<Zeroed> {
        let layout = std::alloc::Layout::array::<JointMat>(n).ok()?;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<JointMat>();
        (!ptr.is_null()).then_some(Zeroed { ptr, n, layout })
    }

    fn slice(&mut self) -> &mut [JointMat] {
        // SAFETY: `n` zeroed, aligned JointMats (all-zero bits are valid
        // floats), owned by `self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.n) }
    }
}

impl Drop for Zeroed {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.cast(), self.layout) }
    }
}

/// More joints than the listing's 32-bit `imul eax, JOINTMAT_SIZE` can
/// count: `TooLong`, checked before the lengths, nothing written.
#[test]
#[cfg_attr(
    target_pointer_width = "32",
    ignore = "a slice longer than MAX_JOINTS is over isize::MAX bytes, which no 32-bit target can make"
)]
fn too_many_joints() {
    assert_eq!(MAX_JOINTS, 44_739_242);
    assert!(MAX_JOINTS * 48 <= i32::MAX as usize && (MAX_JOINTS + 1) * 48 > i32::MAX as usize);
    let n = MAX_JOINTS + 1;
    let mut big = Zeroed::new(n).expect("2 GiB of lazily zeroed address space");
    for imp in TransformJoints::forms().into_iter() {
        let want = Error::TooLong { what: "result", len: n, max: MAX_JOINTS };
        assert_eq!(transform_joints(imp, big.slice(), &[], &[]), Err(want), "{imp}");
    }
    assert!(big.slice().iter().all(|m| m.mat.iter().all(|v| v.to_bits() == 0)), "written on Err");
}

/// Empty lists: `Ok`, nothing to do, with every implementation.
#[test]
fn empty_lists() {
    for imp in TransformJoints::forms().into_iter() {
        assert_eq!(transform_joints(imp, &mut [], &[], &[]), Ok(()));
    }
}

// ---------------------------------------------------------------------------
// The successors, `Impl::Avx2`, `Impl::Avx512`, `Impl::Neon`, `Impl::Portable`: each test
// runs on every one this CPU has.

mod successor {
    use super::*;
    use common::same_bits;

    type Kernel = unsafe fn(*mut JointMat, *const JointMat, *const JointMat, i32);

    /// The successor forms this CPU runs, fastest first, with their raw
    /// kernels: `Impl::Neon` (aarch64), `Impl::Avx512` and `Impl::Avx2`
    /// (x86_64 with their features; a message where the CPU lacks them) and
    /// `Impl::Portable`
    /// (everywhere). Every test below runs on each of them.
    fn successors() -> Vec<(Impl, Kernel)> {
        let mut out = Vec::new();
        // The successors in the table's order (the order `Auto` tries).
        let table = animasm::roster::find("transform_joints").expect("in the roster");
        let order: Vec<Impl> =
            table.all_forms().filter(|f| f.origin == animasm::Origin::Successor).map(|f| f.imp).collect();
        for imp in order {
            match animasm::transform_joints::kernel(imp) {
                Ok(k) => out.push((imp, k)),
                Err(Error::Unsupported(_)) => {}
                Err(e) => common::cpu::skipped(&format!("transform_joints: Impl::{imp:?}: {e}")),
            }
        }
        assert!(out.iter().any(|&(imp, _)| imp == Impl::Portable), "Impl::Portable runs everywhere");
        out
    }

    /// Exactly `v.len()` elements of capacity: a `Vec` that ends where its
    /// data ends, so memcheck sees any access past the last joint.
    fn exact(v: &[JointMat]) -> Vec<JointMat> {
        let mut out = Vec::with_capacity(v.len());
        out.extend_from_slice(v);
        assert_eq!(out.capacity(), v.len());
        out
    }

    /// The successor form `imp` through the safe function, on three exact
    /// buffers.
    fn run_safe(imp: Impl, a: &[JointMat], b: &[JointMat]) -> Vec<JointMat> {
        let (a, b) = (exact(a), exact(b));
        let mut out = exact(&vec![JointMat { mat: [SENTINEL; 12] }; a.len()]);
        transform_joints(imp, &mut out, &a, &b).unwrap();
        out
    }

    fn scalar_of(a: &[JointMat], b: &[JointMat]) -> Vec<JointMat> {
        let mut out = vec![JointMat::default(); a.len()];
        transform_joints(Impl::Scalar, &mut out, a, b).unwrap();
        out
    }

    /// The one answer: every successor form gives `Impl::Portable`'s bits
    /// (NaN as NaN) on every count 0..=67 of 16 seeds, on the special
    /// values (each in every position of a 9-joint list) and on arbitrary
    /// bits (the proptest below).
    #[test]
    fn every_successor_gives_the_portable_bits() {
        let raw = |k: Kernel, a: &[JointMat], b: &[JointMat]| {
            let mut out = vec![JointMat { mat: [SENTINEL; 12] }; a.len()];
            // SAFETY: three distinct Vecs of `a.len()` joints, aligned;
            // `successors()` checked the CPU.
            unsafe { k(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), a.len() as i32) };
            out
        };
        let portable = animasm::transform_joints::kernel(Impl::Portable).unwrap();
        for (imp, k) in successors() {
            for seed in 0..16u64 {
                for n in 0..=67usize {
                    let mut rng = Rng::new(0x0ae5 + 1000 * seed + n as u64);
                    let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
                    assert_mats_bit_identical(
                        &raw(k, &a, &b),
                        &raw(portable, &a, &b),
                        &format!("{imp} seed {seed} n={n}"),
                    );
                }
            }
            let (a, b) = mat_pairs();
            assert_mats_bit_identical(&raw(k, &a, &b), &raw(portable, &a, &b), &format!("{imp}: special values"));
            let mut rng = Rng::new(0x5a);
            let (fa, fb) = (rigid_and_general_mats(&mut rng, 9), rigid_and_general_mats(&mut rng, 9));
            for (j, (ea, eb)) in a.iter().zip(&b).enumerate() {
                let (mut xa, mut xb) = (fa.clone(), fb.clone());
                xa[j % 9] = *ea;
                xb[j % 9] = *eb;
                assert_mats_bit_identical(&raw(k, &xa, &xb), &raw(portable, &xa, &xb), &format!("{imp}: special {j}"));
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(animasm_testkit::strategies::config(256, 2))]

        /// Any bits in every float of up to 12 joint pairs: every successor
        /// form gives `Impl::Portable`'s bits (NaN as NaN).
        #[test]
        fn every_successor_gives_the_portable_bits_on_arbitrary_bits(
            pairs in proptest::collection::vec(proptest::prelude::any::<([u32; 12], [u32; 12])>(), 0..12)
        ) {
            let a: Vec<JointMat> = pairs.iter().map(|p| JointMat { mat: p.0.map(f32::from_bits) }).collect();
            let b: Vec<JointMat> = pairs.iter().map(|p| JointMat { mat: p.1.map(f32::from_bits) }).collect();
            let want = run_safe(Impl::Portable, &a, &b);
            for (imp, _) in successors() {
                assert_mats_bit_identical(&run_safe(imp, &a, &b), &want, &format!("{imp}: arbitrary bits"));
            }
        }
    }

    /// Every count 0..=67 (every remainder a 2-, 4- or 8-joint block would
    /// leave) on buffers that end at the last joint: every element written,
    /// within `4u` of its scale against the oracle and within rounding of the
    /// scalar port. Prints the worst error of the successor and of the
    /// listing in units of `u * scale`.
    #[test]
    fn every_count_against_the_scalar_port_and_the_oracle() {
        for (imp, _) in successors() {
            let (mut worst, mut worst_listing) = (0f64, 0f64);
            for n in 0..=67usize {
                let mut rng = Rng::new(0x7a11 + n as u64);
                let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
                let out = run_safe(imp, &a, &b);
                assert!(out.iter().all(|m| m.mat.iter().all(|v| v.to_bits() != SENTINEL.to_bits())), "n = {n}");
                worst = worst.max(check_against_oracle(&out, &a, &b, &format!("{imp} n = {n}")));
                // Both within 4u * scale of the exact product: within 8u * scale
                // of each other.
                let c = scalar_of(&a, &b);
                for j in 0..n {
                    for e in 0..12 {
                        let d = (f64::from(out[j].mat[e]) - f64::from(c[j].mat[e])).abs();
                        let (bound, _) = bound_and_scale(&a[j], &b[j], e);
                        assert!(d <= 2.0 * bound, "n = {n}: joint {j} mat[{e}]: {d:e} from the scalar port");
                    }
                }
                if animasm::transform_joints::resolve(Impl::Asm) == Ok(Impl::Asm) {
                    let mut l = vec![JointMat::default(); n];
                    transform_joints(Impl::Asm, &mut l, &a, &b).unwrap();
                    worst_listing = worst_listing.max(check_against_oracle(&l, &a, &b, "asm"));
                }
            }
            println!("every count 0..=67: {imp} {worst:.3} u * scale, asm {worst_listing:.3} u * scale (bound 4)");
        }
    }

    /// The successor rounds as the C does: the scalar port's results bit
    /// for bit on every count 0..=67 (the scalar port keeps the C's `-0.0`,
    /// which the successor keeps too; inputs with zero factors are included).
    #[test]
    fn bit_identical_to_the_scalar_port() {
        for (imp, _) in successors() {
            for n in 0..=67usize {
                let mut rng = Rng::new(0xb17 + n as u64);
                let (mut a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
                // Zero rows in some joints of `a`: products of zeros, signed.
                for (j, m) in a.iter_mut().enumerate().filter(|(j, _)| j % 5 == 2) {
                    m.mat[..3].copy_from_slice(&[-0.0, 0.0, -0.0]);
                    m.mat[4 + j % 3] = -0.0;
                }
                let out = run_safe(imp, &a, &b);
                let c = scalar_of(&a, &b);
                for j in 0..n {
                    for e in 0..12 {
                        assert!(
                            same_bits(out[j].mat[e], c[j].mat[e]),
                            "n = {n}: joint {j} mat[{e}]: {} vs {}",
                            out[j].mat[e],
                            c[j].mat[e]
                        );
                    }
                }
            }
        }
    }

    /// The Fox: every key pose's model matrices times the inverse bind
    /// matrices, within `4u` of the oracle.
    #[test]
    fn fox_key_poses() {
        for (imp, _) in successors() {
            let parents = fox::parents();
            let inv_bind: Vec<JointMat> = fox::inverse_bind().into_iter().map(|m| JointMat { mat: m }).collect();
            let mut worst = 0f64;
            for pose in fox::key_poses() {
                let model = model_space(&pose.rotations, &pose.translations, &parents);
                let out = run_safe(imp, &model, &inv_bind);
                worst = worst.max(check_against_oracle(&out, &model, &inv_bind, &pose.name));
            }
            println!("Fox key poses x inverse bind: {imp} {worst:.3} u * scale");
        }
    }

    /// Identical and opposite: the identity times `b` is `b` and `a` times
    /// the identity is `a`, bit for bit (the products are exact); a rigid
    /// joint times its inverse is the identity within 1e-6; `a` times
    /// itself (the same list twice) is the oracle's square.
    #[test]
    fn identity_inverse_and_the_same_list_twice() {
        for (imp, _) in successors() {
            let mut rng = Rng::new(0x1de);
            let a = rigid_and_general_mats(&mut rng, 33);
            let id = vec![JointMat::IDENTITY; 33];
            assert_mats_bit_identical(&run_safe(imp, &id, &a), &a, "identity * b");
            assert_mats_bit_identical(&run_safe(imp, &a, &id), &a, "a * identity");
            let rigid: Vec<JointMat> = (0..33).map(|_| super::mat_f32(rigid_mat_f64(&mut rng, 100.0))).collect();
            let inv: Vec<JointMat> = rigid.iter().map(|m| mat_f32(affine_inverse_f64(mat_f64(m)))).collect();
            for (j, m) in run_safe(imp, &rigid, &inv).iter().enumerate() {
                let d = common::error::mat_max_abs_diff(&m.mat, &mat_f64(&JointMat::IDENTITY));
                assert!(d <= 1e-5, "joint {j}: {d:e} from the identity");
            }
            let out = run_safe(imp, &a, &a);
            check_against_oracle(&out, &a, &a, "a * a");
        }
    }

    /// Special values (NaN, infinities, signed zeros, subnormals, extremes,
    /// as `twins_and_scalar_on_special_values`): a NaN exactly where the C
    /// has one, the same infinity where the C has one, the same finite
    /// values within rounding, except for elements whose terms add up past
    /// `f32::MAX` (there the order of the sums decides which overflow:
    /// counted and printed).
    #[test]
    fn special_values_where_the_c_has_them() {
        for (imp, _) in successors() {
            let (a, b) = mat_pairs();
            let out = run_safe(imp, &a, &b);
            let c = scalar_of(&a, &b);
            let mut overflow_differences = 0;
            for (j, (o, w)) in out.iter().zip(&c).enumerate() {
                for e in 0..12 {
                    let (x, y) = (o.mat[e], w.mat[e]);
                    if same_bits(x, y) || (x.is_nan() && y.is_nan()) {
                        continue;
                    }
                    // Terms whose magnitudes add up past f32::MAX: where the C's
                    // rounded products or partial sums overflow depends on the
                    // order and on the rounding of the products (the FMA keeps
                    // them exact, and adds the translation first), so an
                    // infinity (or inf - inf = NaN) may appear in one and not in
                    // the other.
                    let (_, scale) = bound_and_scale(&a[j], &b[j], e);
                    if scale >= f64::from(f32::MAX) {
                        overflow_differences += 1;
                        continue;
                    }
                    assert!(!x.is_nan() && !y.is_nan(), "joint {j} mat[{e}]: {x} vs the C's {y}");
                    assert!(x.is_finite() && y.is_finite(), "joint {j} mat[{e}]: {x} vs the C's {y}");
                    let (bound, _) = bound_and_scale(&a[j], &b[j], e);
                    let d = (f64::from(x) - f64::from(y)).abs();
                    // Subnormal results: an absolute ulp of the smallest normal.
                    assert!(d <= 2.0 * bound + 1e-44, "joint {j} mat[{e}]: {x} vs the C's {y}");
                }
            }
            println!("special values: {overflow_differences} elements differ where the C's products overflow");
        }
    }

    /// Erratum E2 of the listing corrected: column 1 of `b` all `-0.0`; the
    /// C gives `-0.0` in column 1 of every row, the listing `+0.0`, the
    /// successor the C's bits everywhere.
    #[test]
    fn corrects_e2_negative_zero_survives() {
        for (imp, _) in successors() {
            let a = JointMat { mat: [1.0, 1.0, 1.0, 5.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] };
            let b = JointMat { mat: [1.0, -0.0, 0.0, 2.0, 0.0, -0.0, 0.0, 3.0, 0.0, -0.0, 1.0, 4.0] };
            let out = run_safe(imp, &[a], &[b]);
            let c = scalar_of(&[a], &[b]);
            assert_eq!(c[0].mat[1].to_bits(), (-0.0f32).to_bits(), "the C keeps -0.0");
            assert_mats_bit_identical(&out, &c, &format!("{imp} vs the C, signed zeros"));
        }
    }

    /// The listing's in-place calls are kept: `result == joints1` and
    /// `result == joints2` give the out-of-place result, bit for bit.
    #[test]
    fn runs_in_place() {
        for (imp, k) in successors() {
            let mut rng = Rng::new(5);
            for n in [1, 2, 3, 7, 64] {
                let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
                let want = run_safe(imp, &a, &b);
                let mut x = a.clone();
                let p = x.as_mut_ptr();
                // SAFETY: `result == joints1` exactly, which the kernel allows;
                // `b` has n joints; aligned Vecs; `successors()` checked the CPU.
                unsafe { k(p, p, b.as_ptr(), n as i32) };
                assert_mats_bit_identical(&x, &want, &format!("result == joints1, {n} joints"));
                let mut y = b.clone();
                let p = y.as_mut_ptr();
                // SAFETY: `result == joints2` exactly, which the kernel allows.
                unsafe { k(p, a.as_ptr(), p, n as i32) };
                assert_mats_bit_identical(&y, &want, &format!("result == joints2, {n} joints"));
            }
        }
    }

    /// `numJoints <= 0` reads and writes nothing (dangling pointers would
    /// do); `numJoints` joints are written and not one more.
    #[test]
    fn writes_exactly_num_joints() {
        for (imp, k) in successors() {
            for n in (0..=12).chain([67, 1024]) {
                let mut rng = Rng::new(100 + n as u64);
                let (a, b) = (rigid_and_general_mats(&mut rng, n), rigid_and_general_mats(&mut rng, n));
                let mut out = vec![JointMat { mat: [SENTINEL; 12] }; n + 2];
                // SAFETY: `a` and `b` hold n joints, `out` n + 2; distinct Vecs;
                // `successors()` checked the CPU.
                unsafe { k(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n as i32) };
                for (j, m) in out.iter().enumerate() {
                    let written = m.mat.iter().filter(|v| v.to_bits() != SENTINEL.to_bits()).count();
                    assert_eq!(written, if j < n { 12 } else { 0 }, "{imp}: {n} joints: joint {j}");
                }
            }
            let mut out = [JointMat { mat: [SENTINEL; 12] }];
            for n in [0, -1, i32::MIN] {
                // SAFETY: `n <= 0`: nothing is read or written.
                unsafe { k(out.as_mut_ptr(), core::ptr::null(), core::ptr::null(), n) };
                assert!(out[0].mat.iter().all(|v| v.to_bits() == SENTINEL.to_bits()), "{imp}: count {n}");
            }
        }
    }
}

/// No counts in the paper: 41 in the loop (8 of them rebuilt), 52 in all.
#[test]
fn listing_instruction_counts() {
    common::roster_checks::listing::assert_counts("transform_joints", &[("total", 52), ("loopJoint", 41)]);
}
