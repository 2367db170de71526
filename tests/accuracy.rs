//! TEMP
#[path = "common/inputs.rs"]
mod inputs;
#[path = "common/measure.rs"]
mod measure;
#[path = "common/oracle.rs"]
mod oracle;
use measure::*;

#[test]
fn figures() {
    let s = sin_zero_half_pi_errors();
    let a = atan_positive_errors();
    eprintln!("sin {s:?} atan {a:?}");
    eprintln!("scalar slerp {:?} lerp {:?}", slerp_errors(animasm::Impl::Scalar), lerp_errors(animasm::Impl::Scalar));
}
