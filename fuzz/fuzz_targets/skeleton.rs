//! `animasm::Skeleton` on arbitrary parents lists, with the skeleton
//! routines' forms over its runs (`animasm_fuzz::skeleton_api`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| animasm_fuzz::skeleton_api::fuzz_skeleton(data));
