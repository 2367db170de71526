//! `slerp_joints` with every `Impl` on arbitrary lengths, indices, factors and
//! floats (see `animasm_fuzz::joint_routine`); every form of `forms()`
//! against the scalar port within the tests' tolerance.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| animasm_fuzz::joint_routine(
    data,
    animasm::slerp_joints,
    animasm::slerp_joints::forms(),
    animasm_fuzz::tol::SLERP_JOINTS
));
