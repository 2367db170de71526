//! Every routine of `animasm::roster`, every form: the first byte picks the
//! routine by name (`animasm_fuzz::routine_for`), the rest is decoded as
//! its shape takes arguments and checked against its scalar form
//! (`animasm_fuzz::shapes`). `ANIMASM_FUZZ_ROUTINE=<name>` runs the inputs
//! of one routine only (`animasm_fuzz::focus`).
#![no_main]

libfuzzer_sys::fuzz_target!(init: animasm_fuzz::init(), |data: &[u8]| animasm_fuzz::fuzz_roster(data));
