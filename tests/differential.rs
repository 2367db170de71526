//! The three forms against each other: asm and intrinsics bit for bit on
//! every input (edge cases and NaN included, through the raw kernels), and
//! both against the scalar port and the f64 oracle within the documented
//! bounds.
#![cfg(target_arch = "x86_64")]

mod common;

use animasm::{Impl, JointQuat, Quat, Vec4};
use common::inputs::{Rng, joint_lists};
use common::oracle::{f64x4, lerp_f64, max_abs_diff, slerp_f64, vec4_lerp_f64};
use common::{assert_bit_identical, fox};
use proptest::prelude::*;

type SafeFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), animasm::Error>;
type Kernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);

struct Routine {
    name: &'static str,
    asm: Kernel,
    intrinsics: Kernel,
    oracle: fn([f64; 4], [f64; 4], f64) -> [f64; 4],
    /// Max abs error of a rotation against the oracle for unit input.
    bound: f64,
}

const ROUTINES: [Routine; 2] = [
    Routine {
        name: "slerp_joints",
        asm: animasm::slerp_joints::asm::slerp_joints,
        intrinsics: animasm::slerp_joints::intrinsics::slerp_joints,
        oracle: slerp_f64,
        bound: 5e-7,
    },
    Routine {
        name: "lerp_joints",
        asm: animasm::lerp_joints::asm::lerp_joints,
        intrinsics: animasm::lerp_joints::intrinsics::lerp_joints,
        oracle: lerp_f64,
        bound: 3e-7,
    },
];

/// Runs a raw kernel on a copy of `joints`, after checking what the kernels'
/// safety contract needs (so that any input, NaN `lerp` included, can be
/// given to them).
fn run(k: Kernel, joints: &[JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32]) -> Vec<JointQuat> {
    assert!(blend.len() >= joints.len());
    assert!(index.iter().all(|&j| j >= 0 && (j as usize) < joints.len()));
    let mut out = joints.to_vec();
    // SAFETY: checked above: every index entry addresses a joint of both
    // lists; the Vecs of align(16) joints are 16-byte aligned and distinct.
    unsafe { k(out.as_mut_ptr(), blend.as_ptr(), lerp, index.as_ptr(), index.len() as i32) };
    out
}

#[track_caller]
fn assert_twins(r: &Routine, joints: &[JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32], ctx: &str) {
    let a = run(r.asm, joints, blend, lerp, index);
    let i = run(r.intrinsics, joints, blend, lerp, index);
    assert_bit_identical(&a, &i, &format!("{}: asm vs intrinsics, {ctx}, lerp {lerp:e}", r.name));
}

const LERPS: [f32; 16] = [
    0.5,
    0.3,
    0.999,
    0.9999999,
    1e-7,
    1e-30,
    1e-45,
    0.0,
    -0.0,
    -1.0,
    1.0,
    2.0,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.75,
];

#[test]
fn twins_on_every_count_and_lerp() {
    for r in &ROUTINES {
        for n in (0..=20).chain([1023, 1024]) {
            let (joints, blend, index) = joint_lists(n as u64, n);
            for lerp in LERPS {
                assert_twins(r, &joints, &blend, lerp, &index, &format!("{n} random joints"));
            }
        }
    }
}

/// Joint pairs that exercise the edges of the listing's arithmetic.
fn edge_pairs() -> Vec<(JointQuat, JointQuat, &'static str)> {
    let t = Vec4::new(1.0, -2.0, 3.0, 1.0);
    let j = |q: [f32; 4]| JointQuat::new(Quat::from_array(q), t);
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let mut rng = Rng::new(99);
    let q = rng.unit_quat().to_array();
    let neg = q.map(|v| -v);
    let mut near = q;
    near[3] += 1e-7;
    vec![
        (j(q), j(q), "identical"),
        (j(q), j(neg), "opposite"),
        (j([0.0, 0.0, 0.0, 1.0]), j([0.0, 0.0, 0.0, 1.0]), "identity"),
        (j([1.0, 0.0, 0.0, 0.0]), j([0.0, 1.0, 0.0, 0.0]), "orthogonal (+0 dot)"),
        (j([0.0, 0.0, 0.0, 1.0]), j([-1.0, -0.0, -0.0, -0.0]), "orthogonal (-0 dot)"),
        (j([0.0, 0.0, h, h]), j([0.0, 0.0, 0.0, 1.0]), "45 degrees"),
        (j(q), j(near), "near identical"),
        (j([0.0; 4]), j(q), "zero quaternion"),
        (j([0.0; 4]), j([0.0; 4]), "two zero quaternions"),
        (j(q.map(|v| v * 1.5)), j(q.map(|v| v * 1.5)), "identical, non-unit (cos > 1)"),
        (j([f32::NAN, 0.0, 0.0, 1.0]), j(q), "NaN component"),
        (j([f32::INFINITY, 0.0, 0.0, 1.0]), j(q), "infinite component"),
        (j([1e-40, 0.0, 0.0, 1e-40]), j(q), "subnormal"),
        (j([3e38, 3e38, 0.0, 0.0]), j([3e38, 3e38, 0.0, 0.0]), "overflowing dot"),
    ]
}

#[test]
fn twins_on_edge_cases_in_every_lane() {
    let edges = edge_pairs();
    for r in &ROUTINES {
        // Each edge pair at every position of lists of 1..=9 joints, so that it
        // meets every lane of the 4-wide loop and the 1-wide loop.
        for n in 1..=9 {
            for (a, b, what) in &edges {
                for pos in 0..n {
                    let (mut joints, mut blend, index) = joint_lists(pos as u64, n);
                    joints[pos] = *a;
                    blend[pos] = *b;
                    for lerp in LERPS {
                        assert_twins(r, &joints, &blend, lerp, &index, &format!("{what} at {pos} of {n}"));
                    }
                }
            }
        }
    }
}

#[test]
fn twins_on_shuffled_and_duplicate_indices() {
    for r in &ROUTINES {
        let mut rng = Rng::new(5);
        for n in [5, 8, 13, 64] {
            let (joints, blend, _) = joint_lists(n as u64, n);
            let index: Vec<i32> = (0..2 * n).map(|_| rng.below(n) as i32).collect();
            for lerp in [0.2, 0.6] {
                assert_twins(r, &joints, &blend, lerp, &index, "random indices with duplicates");
            }
        }
    }
}

#[test]
fn twins_on_fox_key_pairs() {
    let pairs = fox::consecutive_key_pairs();
    let joints: Vec<JointQuat> = pairs.iter().map(|p| JointQuat::new(Quat::from_array(p.0), Vec4::default())).collect();
    let blend: Vec<JointQuat> = pairs.iter().map(|p| JointQuat::new(Quat::from_array(p.1), Vec4::default())).collect();
    let index: Vec<i32> = (0..joints.len() as i32).collect();
    for r in &ROUTINES {
        for lerp in [0.1, 0.5, 0.9] {
            assert_twins(r, &joints, &blend, lerp, &index, "Fox consecutive keys");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Arbitrary bit patterns in every float, `lerp` included.
    #[test]
    fn twins_on_arbitrary_bits(
        q in proptest::collection::vec(any::<[u32; 16]>(), 1..12),
        lerp in any::<u32>(),
    ) {
        let joint = |b: &[u32]| {
            let f = |i: usize| f32::from_bits(b[i]);
            JointQuat::new(Quat::new(f(0), f(1), f(2), f(3)), Vec4::new(f(4), f(5), f(6), f(7)))
        };
        let joints: Vec<JointQuat> = q.iter().map(|b| joint(&b[..8])).collect();
        let blend: Vec<JointQuat> = q.iter().map(|b| joint(&b[8..])).collect();
        let index: Vec<i32> = (0..joints.len() as i32).collect();
        for r in &ROUTINES {
            assert_twins(r, &joints, &blend, f32::from_bits(lerp), &index, "arbitrary bits");
        }
    }

    /// Unit quaternions, any lerp in (0, 1): rotations within the bound of the
    /// f64 oracle for every implementation, translations within a few ulp of
    /// the f64 lerp.
    #[test]
    fn every_impl_near_the_oracle(seed in any::<u64>(), n in 0usize..40, lerp in 0.001f32..0.999) {
        let (joints, blend, index) = joint_lists(seed, n);
        let safe_fns: [SafeFn; 2] = [animasm::slerp_joints, animasm::lerp_joints];
        for (r, safe) in ROUTINES.iter().zip(safe_fns) {
            for imp in Impl::ALL {
                let mut out = joints.clone();
                safe(imp, &mut out, &blend, lerp, &index).unwrap();
                for j in 0..n {
                    let want = (r.oracle)(f64x4(joints[j].q.to_array()), f64x4(blend[j].q.to_array()), f64::from(lerp));
                    let e = max_abs_diff(out[j].q.to_array(), want);
                    prop_assert!(e <= r.bound, "{} {imp} joint {j}: rotation error {e:e}", r.name);
                    let want = vec4_lerp_f64(f64x4(joints[j].t.to_array()), f64x4(blend[j].t.to_array()), f64::from(lerp));
                    let e = max_abs_diff(out[j].t.to_array(), want);
                    prop_assert!(e <= 4e-6, "{} {imp} joint {j}: translation error {e:e}", r.name);
                }
            }
        }
    }
}
