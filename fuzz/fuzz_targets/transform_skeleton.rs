//! `transform_skeleton` and `transform_skeleton_movss_shufps` with every
//! `Impl` on arbitrary matrices, parents and ranges (see
//! `animasm_fuzz::skeleton_routine`): the two agree bit for bit, and the
//! scalar port agrees with the listing up to the sign of zeros (erratum E1
//! and its effect on the joints below); every form (the variant has no
//! successor: its forms are those of `transform_skeleton` it accepts)
//! against the scalar port within the tests' tolerance on rigid chains.
#![no_main]

use animasm_fuzz::{ScalarAgrees, SkeletonOp, skeleton_forms, skeleton_routine};

libfuzzer_sys::fuzz_target!(|data: &[u8]| skeleton_routine(
    data,
    &[
        (animasm::transform_skeleton, animasm_fuzz::forms(animasm::transform_skeleton::forms())),
        (
            animasm::transform_skeleton_movss_shufps,
            skeleton_forms(animasm::transform_skeleton_movss_shufps, animasm::transform_skeleton::forms())
        ),
    ],
    SkeletonOp::Transform,
    ScalarAgrees::UpToSignOfZero
));
