//! A per-lane model of the nlerp family's SIMD kernels, for
//! `tests/nlerp.rs`: one element computed with the SIMD kernels' operations
//! in their order (the `(xx + yy) + (zz + ww)` dot product, the sign-bit
//! double cover, `rsqrtss` and one Newton-Raphson step, `f32::mul_add` for
//! the FMA forms). The SIMD kernels must equal it bit for bit.
#![cfg(target_arch = "x86_64")]

use animasm::Quat;
use animasm::consts::{NLERP_FNLERP_K as K, NLERP_ONLERP_A as A, NLERP_ONLERP_B as B};
use core::arch::x86_64::*;
use devkit::measure::nlerp::Func;

/// `rsqrtss`: on one CPU the same approximation as each lane of
/// `rsqrtps` / `vrsqrtps`.
pub fn rsqrt(x: f32) -> f32 {
    // SAFETY: SSE is baseline on x86_64.
    unsafe { _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x))) }
}

/// `vrsqrt14ss`: on one CPU the same approximation as each lane of
/// `vrsqrt14ps` (the AVX-512 forms' estimate). Called only where the CPU
/// has AVX-512 F (the AVX-512 forms run only there).
pub fn rsqrt14(x: f32) -> f32 {
    #[target_feature(enable = "avx512f")]
    fn r14(x: f32) -> f32 {
        let v = _mm_set_ss(x);
        _mm_cvtss_f32(_mm_rsqrt14_ss(v, v))
    }
    assert!(std::is_x86_feature_detected!("avx512f"), "rsqrt14 needs AVX-512 F");
    // SAFETY: the CPU has AVX-512 F (checked above).
    unsafe { r14(x) }
}

/// Options of the model beyond the kernels: `fma` picks the FMA forms'
/// fusions; `newton_raphson = false` drops the refinement of `rsqrt`
/// (the article's "use _mm_rsqrt_ps blindly"); `rsqrt14` takes the AVX-512
/// forms' `vrsqrt14ps` estimate instead of `rsqrtps`.
#[derive(Clone, Copy)]
pub struct Opts {
    pub fma: bool,
    pub newton_raphson: bool,
    pub rsqrt14: bool,
}

pub const PLAIN: Opts = Opts { fma: false, newton_raphson: true, rsqrt14: false };
pub const FMA: Opts = Opts { fma: true, newton_raphson: true, rsqrt14: false };
/// The AVX-512 forms: the FMA forms' fusions with `vrsqrt14ps`.
pub const AVX512: Opts = Opts { fma: true, newton_raphson: true, rsqrt14: true };

/// One element as the SIMD kernels compute it.
pub fn lane(f: Func, o: Opts, l: Quat, r: Quat, t: f32) -> Quat {
    // a * b + c, fused or not
    let ma = |a: f32, b: f32, c: f32| if o.fma { a.mul_add(b, c) } else { a * b + c };
    // c - a * b, fused or not
    let nma = |a: f32, b: f32, c: f32| if o.fma { (-a).mul_add(b, c) } else { c - a * b };

    let ca = ma(l.x, r.x, l.y * r.y) + ma(l.z, r.z, l.w * r.w);
    let d = f32::from_bits(ca.to_bits() & 0x7FFF_FFFF);
    let ot = match f {
        Func::Nlerp => t,
        Func::Fnlerp => {
            let k = ma(d, ma(d, K[2], K[1]), K[0]);
            ma(t * (t - 0.5) * (t - 1.0), k, t)
        }
        Func::Onlerp => {
            let a = ma(d, ma(d, nma(d, A[3], A[2]), A[1]), A[0]);
            let b = ma(d, ma(d, B[2], B[1]), B[0]);
            let th = t - 0.5;
            let k = ma(a * th, th, b);
            ma(t * th * (t - 1.0), k, t)
        }
    };
    let lt = 1.0 - ot;
    let rt = f32::from_bits(ot.to_bits() ^ (ca.to_bits() & 0x8000_0000));
    let u = [ma(l.x, lt, r.x * rt), ma(l.y, lt, r.y * rt), ma(l.z, lt, r.z * rt), ma(l.w, lt, r.w * rt)];
    let un = ma(u[0], u[0], u[1] * u[1]) + ma(u[2], u[2], u[3] * u[3]);
    let us0 = if o.rsqrt14 { rsqrt14(un) } else { rsqrt(un) };
    let us = if o.newton_raphson { (0.5 * us0) * nma(us0 * us0, un, 3.0) } else { us0 };
    Quat::from_array(u.map(|c| c * us))
}

/// The model of a width (`None` for the scalar width).
pub fn opts(w: animasm::Impl) -> Option<Opts> {
    use animasm::Impl;
    match w {
        Impl::Sse2 | Impl::Avx2NoFma => Some(PLAIN),
        Impl::Avx2 => Some(FMA),
        Impl::Avx512 => Some(AVX512),
        _ => None,
    }
}
