//! Every place where the listings behave differently from the C they
//! implement, shown on the asm kernels (and, since they are twins, on the
//! intrinsics). `asm_notes/slerp_joints.md` and `asm_notes/lerp_joints.md`
//! explain each; the test names are the errata's names there.
#![cfg(target_arch = "x86_64")]

mod common;

use animasm::lerp_joints::scalar::lerp;
use animasm::slerp_joints::scalar::{atan_positive, slerp, vec4_lerp};
use animasm::{JointQuat, Quat, Vec4};
use common::inputs::{Rng, joint_lists};
use common::{assert_bit_identical, same_bits};

type Kernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);
type CQuat = fn(&Quat, &Quat, f32) -> Quat;

/// (name, asm kernel, intrinsics kernel, scalar C kernel, the C's per-quaternion routine)
const ROUTINES: [(&str, Kernel, Kernel, Kernel, CQuat); 2] = [
    (
        "slerp_joints",
        animasm::slerp_joints::asm::slerp_joints,
        animasm::slerp_joints::intrinsics::slerp_joints,
        animasm::slerp_joints::scalar::slerp_joints,
        slerp,
    ),
    (
        "lerp_joints",
        animasm::lerp_joints::asm::lerp_joints,
        animasm::lerp_joints::intrinsics::lerp_joints,
        animasm::lerp_joints::scalar::lerp_joints,
        lerp,
    ),
];

/// Runs a raw kernel on a copy of `joints` after checking its contract.
fn run(k: Kernel, joints: &[JointQuat], blend: &[JointQuat], t: f32, index: &[i32]) -> Vec<JointQuat> {
    assert!(blend.len() >= joints.len() && index.iter().all(|&j| j >= 0 && (j as usize) < joints.len()));
    let mut out = joints.to_vec();
    // SAFETY: every index entry addresses a joint of both lists (checked
    // above); Vecs of align(16) joints are 16-byte aligned and distinct.
    unsafe { k(out.as_mut_ptr(), blend.as_ptr(), t, index.as_ptr(), index.len() as i32) };
    out
}

/// Runs asm and intrinsics, asserts they agree and returns the result.
fn run_twins(r: (Kernel, Kernel), joints: &[JointQuat], blend: &[JointQuat], t: f32, index: &[i32]) -> Vec<JointQuat> {
    let a = run(r.0, joints, blend, t, index);
    assert_bit_identical(&a, &run(r.1, joints, blend, t, index), "asm vs intrinsics");
    a
}

fn q_bits(q: &Quat) -> [u32; 4] {
    q.to_array().map(f32::to_bits)
}

/// `add eax, 4*4; jge done4`: with exactly four joints the 4-wide loop does
/// not run; `loopJoint1` does all four (as it does for one to three). The two
/// loops sum the dot product in different orders, so the loop a joint goes
/// through shows in the last bits of its result.
#[test]
fn four_joints_take_the_one_wide_loop() {
    for (name, asm, intr, ..) in ROUTINES {
        let mut differs_from_4wide = 0;
        for seed in 0..500 {
            let (joints, blend, _) = joint_lists(seed, 8);
            let four = run_twins((asm, intr), &joints, &blend, 0.3, &[0, 1, 2, 3]);
            let eight = run_twins((asm, intr), &joints, &blend, 0.3, &[0, 1, 2, 3, 4, 5, 6, 7]);
            for j in 0..4 {
                // One joint alone can only go through loopJoint1.
                let one = run_twins((asm, intr), &joints, &blend, 0.3, &[j as i32]);
                assert_eq!(q_bits(&four[j].q), q_bits(&one[j].q), "{name}: 4 joints, joint {j} not as loopJoint1");
                differs_from_4wide += usize::from(q_bits(&four[j].q) != q_bits(&eight[j].q));
            }
        }
        // ... and loopJoint4 gives other bits for a good share of the same joints.
        assert!(differs_from_4wide > 100, "{name}: only {differs_from_4wide} of 2000 differ");
    }
}

/// `loopJoint1` sums the dot product as `(y*y' + w*w') + (x*x' + z*z')`, the
/// C and `loopJoint4` as `((x*x' + y*y') + z*z') + w*w'`: for a near-zero
/// dot product the 1-wide loop can pick the other hemisphere.
#[test]
fn one_wide_loop_sums_the_dot_product_in_another_order() {
    let a = JointQuat::new(Quat::new(1.0, 1e-4, 1.0, 1e-4), Vec4::default());
    let b = JointQuat::new(Quat::new(1.0, 1e-4, -1.0, -1e-4), Vec4::default());
    // ((1 + 1e-8) - 1) - 1e-8 = -1e-8 in f32, but (1e-8 - 1e-8) + (1 - 1) = +0.
    for (name, asm, intr, _, c) in ROUTINES {
        let wide = run_twins((asm, intr), &[a; 5], &[b; 5], 0.5, &[0, 1, 2, 3, 4]);
        let mut blend5 = [a; 5];
        blend5[4] = b;
        let one = run_twins((asm, intr), &[a; 5], &blend5, 0.5, &[4]);
        let want_c = c(&a.q, &b.q, 0.5);
        // The C and loopJoint4 negate b (cosom < 0): the x components cancel.
        for q in [want_c, wide[0].q] {
            assert!(q.x.abs() < 1e-3 && q.z.abs() > 0.5, "{name}: {q:?}");
        }
        // loopJoint1 keeps b (cosom = +0): the z components cancel instead.
        assert!(one[4].q.z.abs() < 1e-3 && one[4].q.x.abs() > 0.5, "{name}: {:?}", one[4].q);
    }
}

/// The listing takes the blend quaternion's sign from cosom's sign bit
/// (`andps SIMD_SP_signBit` / `xorps`); the C tests `cosom >= 0.0f`, which
/// is true for -0.0. For a dot product of -0.0 the two take opposite arcs.
#[test]
fn negative_zero_dot_product_flips_the_blend_quaternion() {
    let a = JointQuat::new(Quat::new(0.0, 0.0, 0.0, 1.0), Vec4::default());
    let b = JointQuat::new(Quat::new(-1.0, -0.0, -0.0, -0.0), Vec4::default());
    // 0*-1 + 0*-0 + 0*-0 + 1*-0 = -0.0 in every summation order.
    for (name, asm, intr, scalar, c) in ROUTINES {
        let want_c = c(&a.q, &b.q, 0.3);
        assert!(want_c.x < -0.1, "{name}: the C goes towards b: {want_c:?}");
        let scalar = run(scalar, &[a], &[b], 0.3, &[0]);
        assert_eq!(q_bits(&scalar[0].q), q_bits(&want_c));
        for n in [1, 5] {
            // n = 1: loopJoint1; n = 5: joint 0 in loopJoint4.
            let out = run_twins((asm, intr), &vec![a; n], &vec![b; n], 0.3, &(0..n as i32).collect::<Vec<_>>());
            assert!(out[0].q.x > 0.1, "{name} n={n}: the listing goes towards -b: {:?}", out[0].q);
            assert!((out[0].q.x + want_c.x).abs() < 1e-6 && (out[0].q.w - want_c.w).abs() < 1e-6);
        }
    }
}

/// `cmpnless xmm7, SIMD_SP_zero` and `cmpnltss xmm7, SIMD_SP_one` are both
/// true for NaN: a NaN `lerp` copies the blend joints. The C loop has no such
/// tests and turns every indexed joint into NaN. (The safe functions reject
/// a non-finite `lerp`.)
#[test]
fn nan_lerp_copies_the_blend_joints() {
    for (name, asm, intr, scalar, _) in ROUTINES {
        for n in [1, 4, 5, 9] {
            let (joints, blend, index) = joint_lists(n as u64, n);
            let out = run_twins((asm, intr), &joints, &blend, f32::NAN, &index);
            assert_bit_identical(&out, &blend, &format!("{name} n={n}: NaN lerp"));
            let c = run(scalar, &joints, &blend, f32::NAN, &index);
            assert!(c.iter().all(|j| j.q.x.is_nan() && j.t.x.is_nan()), "{name}: the C gives NaN");
        }
    }
}

/// The listing lerps translations as `t + (blend.t - t) * lerp`
/// (`subps`/`mulps`/`addps`), the C's `Vec4Lerp` as `t * (1 - lerp) +
/// blend.t * lerp`: the last bit differs often, and for huge values the
/// listing's difference overflows.
#[test]
fn translations_are_lerped_as_t_plus_lerp_times_difference() {
    for (name, asm, intr, ..) in ROUTINES {
        let (joints, blend, index) = joint_lists(21, 1024);
        let t = 0.3f32;
        let out = run_twins((asm, intr), &joints, &blend, t, &index);
        let mut differs = 0;
        for j in 0..1024 {
            let (a, b) = (joints[j].t.to_array(), blend[j].t.to_array());
            let listing: [f32; 4] = core::array::from_fn(|c| a[c] + (b[c] - a[c]) * t);
            assert_eq!(out[j].t.to_array().map(f32::to_bits), listing.map(f32::to_bits), "{name} joint {j}");
            differs += usize::from(vec4_lerp(&joints[j].t, &blend[j].t, t) != out[j].t);
        }
        assert!(differs > 100, "{name}: {differs} of 1024 differ from Vec4Lerp");
        let big = |x| JointQuat::new(Quat::IDENTITY, Vec4::new(x, 0.0, 0.0, 1.0));
        let out = run_twins((asm, intr), &[big(3e38)], &[big(-3e38)], 0.5, &[0]);
        assert_eq!(out[0].t.x, f32::NEG_INFINITY, "{name}");
        assert_eq!(vec4_lerp(&big(3e38).t, &big(-3e38).t, 0.5).x, 0.0);
    }
}

/// `loopJoint4` writes each joint's translation before it reads the next
/// joint's, but loads all four quaternions before writing any: an index
/// repeated within a group of four has its translation lerped twice and its
/// rotation interpolated once. The C (and `loopJoint1`) do both twice.
#[test]
fn duplicate_index_in_a_group_of_four() {
    for (name, asm, intr, scalar, _) in ROUTINES {
        let (joints, blend, _) = joint_lists(3, 5);
        let t = 0.25f32;
        let dup = run_twins((asm, intr), &joints, &blend, t, &[0, 0, 1, 2, 3]);
        let plain = run_twins((asm, intr), &joints, &blend, t, &[0, 4, 1, 2, 3]);
        assert_eq!(q_bits(&dup[0].q), q_bits(&plain[0].q), "{name}: rotation interpolated once");
        let once = plain[0].t.to_array();
        let b = blend[0].t.to_array();
        let twice: [f32; 4] = core::array::from_fn(|c| once[c] + (b[c] - once[c]) * t);
        assert_eq!(dup[0].t.to_array().map(f32::to_bits), twice.map(f32::to_bits), "{name}: translation twice");
        // The C interpolates the rotation twice as well.
        let c = run(scalar, &joints, &blend, t, &[0, 0, 1, 2, 3]);
        assert!((c[0].q.w - dup[0].q.w).abs() > 1e-4 || (c[0].q.x - dup[0].q.x).abs() > 1e-4, "{name}");
    }
}

/// Slerp only. The listing has no `( 1.0f - absCosom ) > 1e-6f` test and no
/// linear fallback: it replaces `1 - cos^2 == 0` by `SIMD_SP_tiny` (1e-10),
/// so identical quaternions still give finite results near the input, and
/// takes `|1 - cos^2|` (`SIMD_SP_absMask`) so a dot product above 1 (non-unit
/// input) gives finite values where the C's fallback gives the linear blend.
#[test]
fn slerp_has_no_linear_fallback() {
    let r = ROUTINES[0];
    let mut rng = Rng::new(8);
    for n in [1, 5] {
        let q: Vec<JointQuat> = (0..n).map(|_| rng.joint()).collect();
        let index: Vec<i32> = (0..n as i32).collect();
        for t in [0.1, 0.5, 0.9] {
            let out = run_twins((r.1, r.2), &q, &q, t, &index);
            for j in 0..n {
                let e = (0..4).map(|c| (out[j].q.to_array()[c] - q[j].q.to_array()[c]).abs()).fold(0f32, f32::max);
                assert!(e < 3e-7, "identical quaternions moved by {e:e}");
            }
        }
        // Scaled by 1.5: cos = 2.25, 1 - cos^2 < 0. The C blends linearly and
        // returns the input; the listing computes with |1 - cos^2|.
        let big: Vec<JointQuat> =
            q.iter().map(|j| JointQuat::new(Quat::from_array(j.q.to_array().map(|v| v * 1.5)), j.t)).collect();
        let out = run_twins((r.1, r.2), &big, &big, 0.5, &index);
        let c = slerp(&big[0].q, &big[0].q, 0.5);
        assert!(out[0].q.to_array().iter().all(|v| v.is_finite()));
        assert!((0..4).any(|k| (out[0].q.to_array()[k] - c.to_array()[k]).abs() > 1e-3), "{:?} {c:?}", out[0].q);
    }
}

/// Slerp only. At `y == x` (the angle is exactly PI/4), `ATanPositive`'s
/// `y > x` is false and it evaluates `P(y/x)`; the listing's mask
/// `cmpeqps(x, min(x, y))` is true and it evaluates `PI/2 + P(-x/y)`. Both are
/// PI/4 to within an ulp. (Section 6's comment `( y > x ) ? 0xFFFFFFFF` is
/// really `( y >= x )`.) Shown on the f32 C routine and its `>=` twin.
#[test]
fn atan_ties_take_the_other_branch() {
    // ATanPositive with the listing's selection, `y >= x`.
    let listing_rule = |y: f32, x: f32| {
        let (a, d) = if y >= x { (-x / y, core::f32::consts::FRAC_PI_2) } else { (y / x, 0.0) };
        poly(a) + d
    };
    // The C's own selection reproduces `atan_positive` exactly.
    assert_eq!(atan_positive(0.3, 0.2).to_bits(), (poly(-0.2 / 0.3) + core::f32::consts::FRAC_PI_2).to_bits());
    let mut differ = 0;
    for k in 0..1000 {
        let v = 0.1 + k as f32 * 1e-3;
        let c = atan_positive(v, v);
        let l = listing_rule(v, v);
        assert!((c - core::f32::consts::FRAC_PI_4).abs() < 2e-7 && (l - core::f32::consts::FRAC_PI_4).abs() < 2e-7);
        differ += usize::from(!same_bits(c, l));
    }
    assert!(differ > 0, "the two branches should not always round alike");
}

/// `ATanPositive`'s polynomial part, `a * P(a^2)`, in the C's f32 order.
#[allow(clippy::excessive_precision)]
fn poly(a: f32) -> f32 {
    let s = a * a;
    let mut t = 0.0028662257f32;
    for c in
        [-0.0161657367f32, 0.0429096138, -0.0752896400, 0.1065626393, -0.1420889944, 0.1999355085, -0.3333314528, 1.0]
    {
        t *= s;
        t += c;
    }
    t * a
}
