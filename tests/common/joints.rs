//! The joint-list interpolators (`slerp_joints`, `lerp_joints`): the
//! [`JointRoutine`] that `tests/slerp_joints.rs` and `tests/lerp_joints.rs`
//! each describe their routine by, and the checks both run on it: the safe
//! functions' contract and the Fox animation data against the f64 oracles.
//! The twins and the errata are in `joint_twins.rs`.

use animasm::{Error, Impl, JointQuat, Quat};
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::fox;
use animasm_testkit::inputs::joint_lists;
use animasm_testkit::oracle::{f64x4, vec4_lerp_f64};

use super::assert_bit_identical;
use super::harness::{Floats, SENTINEL};

/// The safe functions' signature.
pub type SafeFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;
/// The raw kernels' signature.
pub type Kernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);
/// The C's per-quaternion routine (`Slerp`, `Lerp`).
pub type CQuat = fn(&Quat, &Quat, f32) -> Quat;
/// An f64 oracle of the rotation.
pub type Oracle = fn([f64; 4], [f64; 4], f64) -> [f64; 4];

/// One joint-list interpolator.
pub struct JointRoutine {
    /// The safe function's name.
    pub name: &'static str,
    /// The safe function.
    pub safe: SafeFn,
    /// `forms()` of its module.
    pub forms: fn() -> Vec<Impl>,
    /// The asm kernel.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    pub asm: Kernel,
    /// The intrinsics kernel.
    #[cfg(target_arch = "x86_64")]
    pub intrinsics: Kernel,
    /// The scalar C port.
    pub scalar: Kernel,
    /// `kernel(imp)` of its module: the raw kernel of any form.
    pub kernel_of: fn(Impl) -> Result<Kernel, Error>,
    /// The C's per-quaternion routine.
    pub c: CQuat,
    /// The f64 oracle of the rotation.
    pub oracle: Oracle,
    /// Max abs rotation error against the oracle on random unit input.
    pub bound: f64,
    /// The same on the Fox data.
    pub fox_bound: f64,
}

// ---------------------------------------------------------------- contract ---

/// Calls `r` on a fresh copy of 9 joints and asserts it returns `want` and
/// leaves the joints bit for bit as they were.
#[track_caller]
pub fn expect_err(r: &JointRoutine, imp: Impl, blend_len: usize, lerp: f32, index: &[i32], want: Error) {
    let (joints, blend, _) = joint_lists(7, 9);
    let mut out = joints.clone();
    let got = (r.safe)(imp, &mut out, &blend[..blend_len], lerp, index);
    assert_eq!(got, Err(want), "{} {imp}", r.name);
    assert_bit_identical(&out, &joints, "joints after Err");
}

/// Negative and too large index entries, in the 4-wide loop, its tail and
/// the copy path.
pub fn index_out_of_range_or_negative(r: &JointRoutine) {
    for imp in (r.forms)() {
        let want = Error::IndexOutOfRange { position: 5, value: 9, len: 9 };
        expect_err(r, imp, 9, 0.5, &[0, 1, 2, 3, 4, 9, 6], want);
        let want = Error::IndexOutOfRange { position: 0, value: -1, len: 9 };
        expect_err(r, imp, 9, 0.5, &[-1, 1, 2, 3, 4, 5], want);
        let want = Error::IndexOutOfRange { position: 8, value: i32::MIN, len: 9 };
        expect_err(r, imp, 9, 0.5, &[0, 1, 2, 3, 4, 5, 6, 7, i32::MIN], want);
        // A bad entry in the tail of the 4-wide loop, and in the copy path.
        let want = Error::IndexOutOfRange { position: 4, value: 100, len: 9 };
        expect_err(r, imp, 9, 1.0, &[0, 1, 2, 3, 100], want);
    }
}

/// `blend` shorter than `joints`.
pub fn blend_too_short(r: &JointRoutine) {
    for imp in (r.forms)() {
        let want = Error::TooShort { what: "blend", needed: 9, found: 8 };
        expect_err(r, imp, 8, 0.5, &[0, 1], want);
        let want = Error::TooShort { what: "blend", needed: 9, found: 0 };
        expect_err(r, imp, 0, 0.5, &[], want);
    }
}

/// A NaN or infinite `lerp`: `NonFiniteFactor { what: "lerp", position:
/// None, value }`.
pub fn non_finite_lerp(r: &JointRoutine) {
    for imp in (r.forms)() {
        for lerp in [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let index = [0, 1, 2, 3, 4, 5, 6, 7, 8];
            let (joints, blend, _) = joint_lists(7, 9);
            let mut out = joints.clone();
            let got = (r.safe)(imp, &mut out, &blend, lerp, &index);
            assert!(
                matches!(got, Err(Error::NonFiniteFactor { what: "lerp", position: None, value: v }) if v.to_bits() == lerp.to_bits()),
                "{got:?}"
            );
            assert_bit_identical(&out, &joints, "joints after Err");
        }
    }
}

/// More `index` entries than `MAX_JOINTS`: `TooLong { what: "index", len,
/// max }`.
pub fn too_many_joints(r: &JointRoutine) {
    use animasm::slerp_joints::MAX_JOINTS;
    assert_eq!(MAX_JOINTS, animasm::lerp_joints::MAX_JOINTS);
    // `vec![0; n]` is a lazily zeroed allocation: the 512 MiB are never
    // touched, as the length check comes first.
    let index = vec![0i32; MAX_JOINTS + 1];
    for imp in (r.forms)() {
        let want = Error::TooLong { what: "index", len: MAX_JOINTS + 1, max: MAX_JOINTS };
        expect_err(r, imp, 9, 0.5, &index, want);
    }
}

/// `lerp <= 0` keeps the joints, bit for bit.
pub fn lerp_at_or_below_zero_keeps_the_joints(r: &JointRoutine) {
    for imp in (r.forms)() {
        for lerp in [0.0, -0.0, -1e-30, -0.5, -1e30, f32::MIN] {
            let (joints, blend, index) = joint_lists(11, 13);
            let mut out = joints.clone();
            (r.safe)(imp, &mut out, &blend, lerp, &index).unwrap();
            assert_bit_identical(&out, &joints, &format!("{} {imp} lerp {lerp}", r.name));
        }
    }
}

/// `lerp >= 1` copies the indexed blend joints, bit for bit.
pub fn lerp_at_or_above_one_copies_the_indexed_blend_joints(r: &JointRoutine) {
    for imp in (r.forms)() {
        for lerp in [1.0, 1.0 + f32::EPSILON, 2.0, f32::MAX] {
            let (joints, blend, _) = joint_lists(11, 13);
            let index = [12, 0, 5, 3, 7, 1];
            let mut out = joints.clone();
            (r.safe)(imp, &mut out, &blend, lerp, &index).unwrap();
            let mut want = joints.clone();
            for &j in &index {
                want[j as usize] = blend[j as usize];
            }
            assert_bit_identical(&out, &want, &format!("{} {imp} lerp {lerp}", r.name));
        }
    }
}

/// An empty index changes nothing; empty lists are fine.
pub fn empty_index_and_empty_lists(r: &JointRoutine) {
    for imp in (r.forms)() {
        let (joints, blend, _) = joint_lists(3, 5);
        let mut out = joints.clone();
        (r.safe)(imp, &mut out, &blend, 0.5, &[]).unwrap();
        assert_bit_identical(&out, &joints, "empty index");
        (r.safe)(imp, &mut [], &[], 0.5, &[]).unwrap();
    }
}

/// Only the joints in `index` change.
pub fn only_indexed_joints_change(r: &JointRoutine) {
    for imp in (r.forms)() {
        let (joints, blend, _) = joint_lists(5, 40);
        let index: Vec<i32> = (0..40).filter(|j| j % 3 == 1).collect();
        let mut out = joints.clone();
        (r.safe)(imp, &mut out, &blend, 0.25, &index).unwrap();
        for j in 0..40 {
            let changed = out[j] != joints[j];
            assert_eq!(changed, j % 3 == 1, "{} {imp} joint {j}", r.name);
        }
    }
}

/// The errors' messages name the problem (not per routine).
pub fn errors_name_the_problem() {
    let msg = |e: Error| e.to_string();
    assert!(msg(Error::IndexOutOfRange { position: 5, value: -3, len: 9 }).contains("index[5]"));
    assert!(msg(Error::IndexOutOfRange { position: 5, value: -3, len: 9 }).contains("-3"));
    assert!(msg(Error::TooShort { what: "blend", needed: 9, found: 8 }).contains("`blend`"));
    assert!(msg(Error::NonFiniteFactor { what: "lerp", position: None, value: f32::NAN }).contains("lerp"));
    assert!(msg(Error::NonFiniteFactor { what: "t", position: Some(3), value: f32::NAN }).contains("t[3]"));
    assert!(msg(Error::Unsupported(Impl::Asm)).contains("asm"));
    assert!(msg(Error::TooLong { what: "index", len: 10, max: 5 }).contains("at most 5"));
    assert!(msg(Error::MissingCpuFeature { needs: "avx2 and fma" }).contains("avx2 and fma"));
    assert!(msg(Error::InvalidParent { joint: 7, parent: 9 }).contains("parents[7]"));
    assert!(msg(Error::RangeOutOfBounds { start: 1, end: 30, len: 24 }).contains("1..=30"));
    assert!(msg(Error::LengthMismatch { what: "quats", expected: 3, found: 2 }).contains("`quats`"));
    assert!(msg(Error::Misaligned { what: "from", needed: 32, address: 0x1010 }).contains("32-byte"));
    let e: &dyn core::error::Error = &Error::NonFiniteFactor { what: "lerp", position: None, value: 1.0 };
    assert!(e.source().is_none());
    // The one sentinel of the tests is a NaN no routine writes.
    assert!(f32::from_bits(SENTINEL).is_nan() && JointQuat::sentinel().floats().len() == 8);
}

// ---------------------------------------------------------------- Fox data ---

/// Interpolates `from` towards `to` with every form and checks every joint
/// against the oracles; returns the largest rotation error.
pub fn check_fox(r: &JointRoutine, what: &str, from: &[JointQuat], to: &[JointQuat]) -> f64 {
    let index: Vec<i32> = (0..from.len() as i32).collect();
    let mut worst = 0f64;
    for imp in (r.forms)() {
        for t in [0.1f32, 0.25, 0.5, 0.8, 0.95] {
            let mut out = from.to_vec();
            (r.safe)(imp, &mut out, to, t, &index).unwrap();
            for j in 0..from.len() {
                let want = (r.oracle)(f64x4(from[j].q.to_array()), f64x4(to[j].q.to_array()), f64::from(t));
                let e = max_abs_diff(out[j].q.to_array(), want);
                assert!(e <= r.fox_bound, "{what}: {} {imp} joint {j} lerp {t}: rotation error {e:e}", r.name);
                worst = worst.max(e);
                let want = vec4_lerp_f64(f64x4(from[j].t.to_array()), f64x4(to[j].t.to_array()), f64::from(t));
                let scale = from[j].t.to_array().iter().chain(&to[j].t.to_array()).fold(1f32, |m, v| m.max(v.abs()));
                let e = max_abs_diff(out[j].t.to_array(), want);
                assert!(e <= 2.5e-7 * f64::from(scale), "{what}: {} {imp} joint {j}: translation error {e:e}", r.name);
            }
        }
    }
    worst
}

/// The Fox's pose pairs from `Fox.glb.pose.json`.
pub fn fox_pose_pairs_from_the_json(r: &JointRoutine) {
    for name in fox::KEY_PAIRS {
        let (a, b) = fox::key_pair(name);
        assert_eq!(a.len(), 24);
        let worst = check_fox(r, name, &a, &b);
        eprintln!("{} {name}: max rotation error {worst:e}", r.name);
    }
}

/// Every consecutive key pair of every animation: nearly parallel
/// (median dot 0.99999; about 6% round to >= 1.0 in f32), so the
/// near-identity path is the common case.
pub fn every_consecutive_key_pair_of_every_animation(r: &JointRoutine) {
    let pairs = fox::consecutive_key_pairs();
    assert_eq!(pairs.len(), 1640 + 340 + 480);
    let at_or_above_one = pairs.iter().filter(|(a, b)| (0..4).map(|i| a[i] * b[i]).sum::<f32>().abs() >= 1.0).count();
    eprintln!("{} pairs, {at_or_above_one} with an f32 |dot| >= 1", pairs.len());
    assert!(at_or_above_one > 0, "the data should exercise the near-identity path");
    let (a, b) = fox::joint_lists_from_pairs(&pairs);
    let worst = check_fox(r, "consecutive keys", &a, &b);
    eprintln!("{}: max rotation error {worst:e}", r.name);
}

/// From the rest pose to the animations' first keys: far-apart pairs.
pub fn rest_pose_towards_every_first_key(r: &JointRoutine) {
    let rest = fox::rest_pose();
    let (first, _) = fox::key_pair("far_apart");
    check_fox(r, "rest to far_apart key", &rest, &first);
}

/// The tests `tests/slerp_joints.rs` and `tests/lerp_joints.rs` share, written
/// once: the harness checks, `mod contract`, `mod twins` and the Fox data,
/// each calling the shared bodies of this module and of `joint_twins` for the
/// routine `$routine` (a [`JointRoutine`]) whose generic harness checks
/// are `$harness` (its [`Routine`](super::harness::Routine)).
// `crate::common` is meant to be the calling test crate's `common` module.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! joint_routine_tests {
    ($harness:ident, $routine:expr) => {
        const R: &common::joints::JointRoutine = $routine;

        harness_tests!($harness, interpolator);

        // ---------------------------------------------------------------- contract ---

        /// The safe function's contract (`contract::` selects it).
        mod contract {
            use super::*;

            #[test]
            fn index_out_of_range_or_negative() {
                joints::index_out_of_range_or_negative(R);
            }

            #[test]
            fn blend_too_short() {
                joints::blend_too_short(R);
            }

            #[test]
            fn non_finite_lerp() {
                joints::non_finite_lerp(R);
            }

            #[test]
            fn too_many_joints() {
                joints::too_many_joints(R);
            }

            #[test]
            fn lerp_at_or_below_zero_keeps_the_joints() {
                joints::lerp_at_or_below_zero_keeps_the_joints(R);
            }

            #[test]
            fn lerp_at_or_above_one_copies_the_indexed_blend_joints() {
                joints::lerp_at_or_above_one_copies_the_indexed_blend_joints(R);
            }

            #[test]
            fn empty_index_and_empty_lists() {
                joints::empty_index_and_empty_lists(R);
            }

            #[test]
            fn only_indexed_joints_change() {
                joints::only_indexed_joints_change(R);
            }
        }

        // ---------------------------------------------------------------- Fox data ---

        #[test]
        fn fox_pose_pairs_from_the_json() {
            joints::fox_pose_pairs_from_the_json(R);
        }

        #[test]
        fn every_consecutive_key_pair_of_every_animation() {
            joints::every_consecutive_key_pair_of_every_animation(R);
        }

        #[test]
        fn rest_pose_towards_every_first_key() {
            joints::rest_pose_towards_every_first_key(R);
        }

        // ------------------------------------------------- the twins and the errata ---

        #[cfg(all(target_arch = "x86_64", not(miri)))]
        mod twins {
            use super::R;
            use crate::common::joint_twins as t;
            use proptest::prelude::*;

            #[test]
            fn twins_on_every_count_and_lerp() {
                t::twins_on_every_count_and_lerp(R);
            }

            #[test]
            fn twins_on_edge_cases_in_every_lane() {
                t::twins_on_edge_cases_in_every_lane(R);
            }

            #[test]
            fn twins_on_shuffled_and_duplicate_indices() {
                t::twins_on_shuffled_and_duplicate_indices(R);
            }

            #[test]
            fn twins_on_fox_key_pairs() {
                t::twins_on_fox_key_pairs(R);
            }

            proptest! {
                #![proptest_config(animasm_testkit::strategies::config(256, 2))]

                /// Arbitrary bit patterns in every float, `lerp` included.
                #[test]
                fn twins_on_arbitrary_bits(q in proptest::collection::vec(any::<[u32; 16]>(), 1..12), lerp in any::<u32>()) {
                    t::twins_on_arbitrary_bits(R, &q, lerp);
                }

                /// Unit quaternions, any lerp in (0, 1): every form near the oracle.
                #[test]
                fn every_impl_near_the_oracle(seed in any::<u64>(), n in 0usize..40, lerp in 0.001f32..0.999) {
                    if let Err(e) = t::every_impl_near_the_oracle(R, seed, n, lerp) {
                        prop_assert!(false, "{}", e);
                    }
                }
            }

            #[test]
            fn four_joints_take_the_one_wide_loop() {
                t::four_joints_take_the_one_wide_loop(R);
            }

            #[test]
            fn one_wide_loop_sums_the_dot_product_in_another_order() {
                t::one_wide_loop_sums_the_dot_product_in_another_order(R);
            }

            #[test]
            fn negative_zero_dot_product_flips_the_blend_quaternion() {
                t::negative_zero_dot_product_flips_the_blend_quaternion(R);
            }

            #[test]
            fn nan_lerp_copies_the_blend_joints() {
                t::nan_lerp_copies_the_blend_joints(R);
            }

            #[test]
            fn translations_are_lerped_as_t_plus_lerp_times_difference() {
                t::translations_are_lerped_as_t_plus_lerp_times_difference(R);
            }

            #[test]
            fn duplicate_index_in_a_group_of_four() {
                t::duplicate_index_in_a_group_of_four(R);
            }
        }

        // ------------------------------------- the successor (`Impl::Avx2`) ---

        /// The AVX2 + FMA successor: its own behaviours (the listing
        /// behaviours it keeps or corrects, `asm_notes/<routine>.md`,
        /// "Successor: Impl::Avx2"). Each test prints and returns where the
        /// CPU lacks AVX2 or FMA.
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        mod successor {
            use super::R;
            use crate::common::joint_twins as t;

            #[test]
            fn successor_every_count_0_to_67_against_scalar_and_oracle() {
                t::successor_every_count(R);
            }

            #[test]
            fn successor_fox_poses() {
                t::successor_fox_poses(R);
            }

            #[test]
            fn successor_special_values() {
                t::successor_special_values(R);
            }

            #[test]
            fn successor_duplicate_and_shuffled_indices() {
                t::successor_duplicate_and_shuffled_indices(R);
            }

            #[test]
            fn successor_buffers_end_at_the_allocation() {
                t::successor_buffers_end_at_the_allocation(R);
            }

            #[test]
            fn successor_same_result_in_any_position_and_count() {
                t::successor_same_result_in_any_position_and_count(R);
            }

            #[test]
            fn successor_negative_zero_dot_product_keeps_the_blend_quaternion() {
                t::successor_negative_zero_dot_product_keeps_the_blend_quaternion(R);
            }

            #[test]
            fn successor_nan_lerp_copies_the_blend_joints() {
                t::successor_nan_lerp_copies_the_blend_joints(R);
            }

            #[test]
            fn successor_translations_are_t_plus_lerp_times_difference_fused() {
                t::successor_translations_fused(R);
            }
        }
    };
}
