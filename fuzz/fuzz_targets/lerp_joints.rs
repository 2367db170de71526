//! `lerp_joints` with every `Impl` on arbitrary lengths, indices, factors and
//! floats (see `animasm_fuzz::joint_routine`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| animasm_fuzz::joint_routine(
    data,
    animasm::lerp_joints,
    animasm::lerp_joints::forms(),
    animasm_fuzz::tol::LERP_JOINTS
));
