//! `lerp_joints` (*Slerping Clock Cycles*, Appendix B): the generic harness checks (`tests/common/harness.rs`:
//! twins, forms against the scalar port and the f64 oracle, errors write
//! nothing, every count, form resolution, the interpolators' sibling
//! contract), the safe function's contract (was `tests/contract.rs`), the
//! asm and intrinsics twins on every input (was `tests/differential.rs`),
//! the listing's errata (was `tests/errata.rs`; the test names are the
//! errata's names in `asm_notes/lerp_joints.md`) and the Fox animation data (was
//! `tests/realdata.rs`).

mod common;

use common::joints::{self, JointRoutine};
use common::routines::LerpJoints;

const R: &JointRoutine = &joints::LERP;

harness_tests!(LerpJoints, interpolator);

// ---------------------------------------------------------------- contract ---

/// The safe function's contract (was `tests/contract.rs`; `contract::` selects it).
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
        #![proptest_config(ProptestConfig::with_cases(256))]

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
