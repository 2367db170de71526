//! The arithmetic the portable successors (`Impl::Portable`) share with
//! every other successor form: the fused multiply-add, rounded once, on
//! every target.
//!
//! The successors' one answer (`Impl::Deterministic`) rests on three rules
//! that every successor form follows, whatever its instruction set and
//! width: no estimate instructions (square roots and divisions are the
//! correctly rounded IEEE operations), one order of operations per joint
//! (written in each routine's portable form, which the SIMD forms follow
//! lane for lane), and a fused multiply-add exactly where that order says
//! so (`vfmadd` on AVX2, `fmla`/`vfmaq_f32` on NEON, [`mul_add`] here).

/// `a * b + c` rounded once: `f32::mul_add` with the `std` feature (an
/// instruction where the target has a fused multiply-add, a correctly
/// rounded library call where it has not), `libm::fmaf` without it.
#[inline(always)]
pub(crate) fn mul_add(a: f32, b: f32, c: f32) -> f32 {
    cfg_if::cfg_if! {
        if #[cfg(feature = "std")] { a.mul_add(b, c) } else { libm::fmaf(a, b, c) }
    }
}

/// `c - a * b` rounded once (`vfnmadd`, `fmls`): `mul_add(-a, b, c)`.
#[inline(always)]
pub(crate) fn neg_mul_add(a: f32, b: f32, c: f32) -> f32 {
    mul_add(-a, b, c)
}

/// `sqrt(x)` correctly rounded (IEEE 754's square root, as `vsqrtps` and
/// `fsqrt` compute it): `f32::sqrt` with the `std` feature, `libm::sqrtf`
/// without it.
#[inline(always)]
pub(crate) fn sqrt(x: f32) -> f32 {
    cfg_if::cfg_if! {
        if #[cfg(feature = "std")] { x.sqrt() } else { libm::sqrtf(x) }
    }
}
