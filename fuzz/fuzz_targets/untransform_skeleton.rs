//! `untransform_skeleton` with every `Impl` on arbitrary matrices, parents
//! and ranges (see `animasm_fuzz::skeleton_routine`): the scalar port agrees
//! with the listing bit for bit (NaN payloads aside).
#![no_main]

use animasm_fuzz::{ScalarAgrees, SkeletonOp, skeleton_routine};

libfuzzer_sys::fuzz_target!(|data: &[u8]| skeleton_routine(
    data,
    &[(animasm::untransform_skeleton, animasm_fuzz::forms(animasm::untransform_skeleton::forms()))],
    SkeletonOp::Untransform,
    ScalarAgrees::Exactly
));
