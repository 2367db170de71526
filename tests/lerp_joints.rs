//! `lerp_joints` (*Slerping Clock Cycles*, Appendix B): the generic harness checks (`tests/common/harness.rs`:
//! twins, forms against the scalar port and the f64 oracle, errors write
//! nothing, every count, form resolution, the interpolators' sibling
//! contract), the safe function's contract, the
//! asm and intrinsics twins on every input,
//! the listing's errata (the test names are the
//! errata's names in `asm_notes/lerp_joints.md`) and the Fox animation data.

mod common;

use animasm::JointQuat;
use common::harness::Routine;
use common::joints::{self, JointRoutine};
use common::oracle::lerp_f64;
use common::shapes::{self, JointIn};

/// `lerp_joints`: its kernels, its C, its f64 oracle and its bounds.
const LERP: JointRoutine = JointRoutine {
    name: "lerp_joints",
    safe: animasm::lerp_joints,
    forms: || animasm::lerp_joints::forms().collect(),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    asm: animasm::lerp_joints::asm::lerp_joints,
    #[cfg(target_arch = "x86_64")]
    intrinsics: animasm::lerp_joints::intrinsics::lerp_joints,
    scalar: animasm::lerp_joints::scalar::lerp_joints,
    kernel_of: animasm::lerp_joints::kernel,
    c: animasm::lerp_joints::scalar::lerp,
    oracle: lerp_f64,
    bound: 3e-7,
    fox_bound: 3e-7,
};

/// `lerp_joints` in the generic harness (`tests/common/harness.rs`), with
/// [`LERP`]'s oracle: every form within 5e-7 of the scalar port and 2e-6 of
/// the f64 lerp.
struct LerpJoints;

impl Routine for LerpJoints {
    const NAME: &'static str = "lerp_joints";
    type Shape = shapes::JointBlend;
    const TOL_SCALAR: f64 = 5e-7;
    const TOL_ORACLE: f64 = 2e-6;
    fn oracle_error(out: &[JointQuat], init: &[JointQuat], input: &JointIn) -> f64 {
        shapes::joint_blend::oracle_error(out, init, input, LERP.oracle)
    }
}

joint_routine_tests!(LerpJoints, &LERP);

/// The successors' one rule for duplicate index entries (`asm_notes/lerp_joints.md`,
/// E6 "changed"): every successor form (`Impl::Portable`, `Impl::Avx2`,
/// `Impl::Neon`), given an index laden with repeated entries (inside a
/// group, on both sides of every block and group boundary, in the padded
/// tail), gives bit for bit what applying the same form entry by entry
/// gives.
#[cfg(not(miri))]
#[test]
fn successor_duplicates_apply_in_list_order() {
    joints::successor_duplicates_apply_in_list_order(&LERP);
}

/// Every form against the f64 normalised lerp on the properties' inputs.
#[test]
fn differential_against_the_f64_lerp() {
    common::roster_checks::joint_blend::against_oracle("lerp_joints", common::oracle::lerp_f64, 3e-7);
}

/// The transcription's counts (the paper states none).
#[test]
fn listing_instruction_counts() {
    common::roster_checks::listing::assert_counts(
        "lerp_joints",
        &[("total", 211), ("loopCopy", 8), ("loopJoint4", 132), ("loopJoint1", 39)],
    );
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
    common::joints::avx512_blocks_of_sixteen("lerp_joints", animasm::lerp_joints::kernel);
}
