//! `slerp_joints` (*Slerping Clock Cycles*, Appendix A): the generic harness checks (`tests/common/harness.rs`:
//! twins, forms against the scalar port and the f64 oracle, errors write
//! nothing, every count, form resolution, the interpolators' sibling
//! contract), the safe function's contract, the
//! asm and intrinsics twins on every input,
//! the listing's errata (the test names are the
//! errata's names in `asm_notes/slerp_joints.md`) and the Fox animation data.

mod common;

use animasm::JointQuat;
use common::harness::Routine;
use common::joints::{self, JointRoutine};
use common::oracle::slerp_f64;
use common::shapes::{self, JointIn};

/// `slerp_joints`: its kernels, its C, its f64 oracle and its bounds.
const SLERP: JointRoutine = JointRoutine {
    name: "slerp_joints",
    safe: animasm::slerp_joints,
    forms: || animasm::slerp_joints::forms().collect(),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    asm: animasm::slerp_joints::asm::slerp_joints,
    #[cfg(target_arch = "x86_64")]
    intrinsics: animasm::slerp_joints::intrinsics::slerp_joints,
    scalar: animasm::slerp_joints::scalar::slerp_joints,
    kernel_of: animasm::slerp_joints::kernel,
    c: animasm::slerp_joints::scalar::slerp,
    oracle: slerp_f64,
    // The worst rotation error measured against the f64 slerp: 5.20e-7 over
    // 740,000 random unit pairs (lerp 0.001 to 0.999) on an Intel Xeon (AVX-512),
    // 5.22e-7 on the committed regression case drawn on an AMD EPYC Zen 4,
    // 5.36e-7 on the Fox data; `rsqrtps` differs between vendors. 6e-7 is
    // 12% above the worst of them.
    bound: 6e-7,
    // The SSE slerp reaches 5.36e-7 on one of the 2460 consecutive Fox pairs
    // (joint 253 at lerp 0.25; 4.66e-7 is the worst over `tests/accuracy.rs`'s
    // random pairs), hence 6e-7 there too.
    fox_bound: 6e-7,
};

/// `slerp_joints` in the generic harness (`tests/common/harness.rs`), with
/// [`SLERP`]'s oracle. Its forms differ from the scalar port by up to
/// 5.96e-7 (10 ulp of a component near 0.5) on unit pairs at any angle from
/// 1e-8 to 1 rad (found by the fuzz target), hence 1e-6.
struct SlerpJoints;

impl Routine for SlerpJoints {
    const NAME: &'static str = "slerp_joints";
    type Shape = shapes::JointBlend;
    const TOL_SCALAR: f64 = 1e-6;
    const TOL_ORACLE: f64 = 2e-6;
    fn oracle_error(out: &[JointQuat], init: &[JointQuat], input: &JointIn) -> f64 {
        shapes::joint_blend::oracle_error(out, init, input, SLERP.oracle)
    }
}

joint_routine_tests!(SlerpJoints, &SLERP);

/// The successors' one rule for duplicate index entries (`asm_notes/slerp_joints.md`,
/// E6 "changed"): every successor form (`Impl::Portable`, `Impl::Avx2`,
/// `Impl::Neon`), given an index laden with repeated entries (inside a
/// group, on both sides of every block and group boundary, in the padded
/// tail), gives bit for bit what applying the same form entry by entry
/// gives.
#[cfg(not(miri))]
#[test]
fn successor_duplicates_apply_in_list_order() {
    joints::successor_duplicates_apply_in_list_order(&SLERP);
}

/// A proptest case drawn on an AMD EPYC Zen 4 (AVX-512), where the
/// intrinsics and asm forms are 5.2155e-7 from the f64 slerp at joint 21
/// (2.83e-7 on an Intel Xeon: `rsqrtps` differs between vendors): every
/// form within the bound of [`SLERP`]. (x86_64 outside Miri, as
/// `common::joint_twins`: elsewhere only the scalar port runs, which the
/// harness checks.)
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[test]
fn regression_zen4_rotation_error() {
    common::joint_twins::every_impl_near_the_oracle(&SLERP, 17984826167823491426, 34, 0.001).unwrap();
}

// ------------------------------------------------------ slerp-only errata ---

/// The errors' messages (not per routine; was in `tests/contract.rs`).
#[test]
fn errors_name_the_problem() {
    joints::errors_name_the_problem();
}

/// Slerp only. The listing has no `( 1.0f - absCosom ) > 1e-6f` test and no
/// linear fallback: it replaces `1 - cos^2 == 0` by `SIMD_SP_tiny` (1e-10),
/// so identical quaternions still give finite results near the input, and
/// takes `|1 - cos^2|` (`SIMD_SP_absMask`) so a dot product above 1 (non-unit
/// input) gives finite values where the C's fallback gives the linear blend.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[test]
fn slerp_has_no_linear_fallback() {
    use animasm::JointQuat;
    use animasm::slerp_joints::scalar::slerp;
    use common::inputs::Rng;
    use common::joint_twins::run_twins;
    let mut rng = Rng::new(8);
    for n in [1, 5] {
        let q: Vec<JointQuat> = (0..n).map(|_| rng.joint()).collect();
        let index: Vec<i32> = (0..n as i32).collect();
        for t in [0.1, 0.5, 0.9] {
            let out = run_twins(R, &q, &q, t, &index, "identical");
            for j in 0..n {
                let e = (0..4).map(|c| (out[j].q.to_array()[c] - q[j].q.to_array()[c]).abs()).fold(0f32, f32::max);
                assert!(e < 3e-7, "identical quaternions moved by {e:e}");
            }
        }
        // Scaled by 1.5: cos = 2.25, 1 - cos^2 < 0. The C blends linearly and
        // returns the input; the listing computes with |1 - cos^2|.
        let big: Vec<JointQuat> =
            q.iter().map(|j| JointQuat::new(animasm::Quat::from_array(j.q.to_array().map(|v| v * 1.5)), j.t)).collect();
        let out = run_twins(R, &big, &big, 0.5, &index, "non-unit");
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
    use animasm::slerp_joints::scalar::atan_positive;
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
        differ += usize::from(!common::same_bits(c, l));
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

/// Every form against the f64 slerp on the properties' inputs (6e-7: the
/// bound of this file's routine, measured across CPUs).
#[test]
fn differential_against_the_f64_slerp() {
    common::roster_checks::joint_blend::against_oracle("slerp_joints", common::oracle::slerp_f64, 6e-7);
}

/// The paper's counts: 359 in all, 212 in the 4-joint loop.
#[test]
fn listing_instruction_counts() {
    common::roster_checks::listing::assert_counts("slerp_joints", &[("total", 359), ("loopJoint4", 212)]);
}

/// The AVX-512 successor (`Impl::Avx512`, sixteen entries per block, two
/// blocks per group for slerp_joints, one for lerp_joints) on the lengths around its block and group boundaries
/// (15 to 17, 31 to 33, 47 to 49, 63 to 65) and longer, in order, reversed
/// and with a repeat across each boundary of sixteen and right before the
/// masked tail: bit for bit `Impl::Portable` and, with repeats, what
/// applying the form entry by entry gives. The lists are allocated to the
/// exact length, so the last joint ends its allocation. Where the CPU lacks
/// AVX-512 the test says so and checks nothing.
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[test]
fn avx512_blocks_of_sixteen() {
    common::joints::avx512_blocks_of_sixteen("slerp_joints", animasm::slerp_joints::kernel);
}
