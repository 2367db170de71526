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

/// `a * b + c` rounded once. Where the target has a fused multiply-add
/// instruction at compile time (aarch64; x86 and x86_64 built with the
/// `fma` feature) it is that instruction (`f32::mul_add` with the `std`
/// feature, `libm::fmaf` without); everywhere else (x86_64's default target,
/// wasm32, ...) it is [`fma_from_f64`], exact in f64 arithmetic and the
/// same bits (on wasm32 it took the matrix routines' portable forms to about
/// half their time with compiler-builtins' `fmaf`, `docs/results.md`; on
/// x86_64 CPUs with FMA the portable kernels take their FMA copy instead,
/// `hard_fma`).
#[inline(always)]
pub(crate) fn mul_add(a: f32, b: f32, c: f32) -> f32 {
    cfg_if::cfg_if! {
        if #[cfg(not(any(target_arch = "aarch64", target_feature = "fma")))] {
            fma_from_f64(a, b, c)
        } else if #[cfg(feature = "std")] {
            a.mul_add(b, c)
        } else {
            libm::fmaf(a, b, c)
        }
    }
}

/// `a * b + c` rounded once to f32, from f64 arithmetic (IEEE 754
/// round-to-nearest-even, the only mode Rust code runs in):
///
/// 1. the product of two f32 is exact in f64 (24 + 24 significant bits,
///    f64 has 53; its exponent stays far inside f64's range);
/// 2. `s = p + c` in f64 rounds once; rounding `s` to f32 gives the correctly
///    rounded result unless that first rounding landed exactly on a point
///    halfway between two f32 (every such point is an f64, so a rounding
///    that does not land on one cannot move the sum across one): then the
///    second rounding's tie would be decided by the wrong side. For a normal
///    f32 result, `s` is halfway when its 29 low fraction bits are
///    `1000...0`;
/// 3. in that case, and for nonzero sums below f32's normal range (whose
///    halfway points sit higher in `s`'s fraction), [`fma_fix`] recovers the exact
///    error of the f64 sum (TwoSum) and rounds `s` to odd (Boldo and
///    Melquiond, *Emulation of FMA and correctly rounded sums: proved
///    algorithms using rounding to odd*, IEEE TC 2008): the odd one of the
///    two f64 around the exact sum, which then rounds to f32 correctly
///    because f64 carries more than `24 + 1` bits.
///
/// NaN results are NaN, with the payload the f64 operations give (the
/// successors' one answer does not cover NaN payloads).
// Unused where the build has the instruction but by the tests, which
// compare it with the instruction there too.
#[cfg_attr(any(target_arch = "aarch64", target_feature = "fma"), allow(dead_code))]
#[inline(always)]
pub(crate) fn fma_from_f64(a: f32, b: f32, c: f32) -> f32 {
    let p = f64::from(a) * f64::from(b);
    let z = f64::from(c);
    let s = p + z;
    let bits = s.to_bits();
    // The biased exponent of f32's smallest normal, 2^-126, in f64.
    const F32_MIN_NORMAL_EXP: u64 = 1023 - 126;
    // An exact zero (biased exponent 0: a nonzero sum of these terms is a
    // multiple of 2^-298, far above f64's subnormals) takes the common path
    // too, so that a held pose's zero differences stay on it.
    if bits & 0x1FFF_FFFF != 0x1000_0000 && ((bits >> 52) & 0x7FF).wrapping_sub(1) >= F32_MIN_NORMAL_EXP - 1 {
        s as f32
    } else {
        fma_fix(p, z, s)
    }
}

/// The rare step 3 of [`fma_from_f64`]: `s = p + z` rounded to odd, then to
/// f32.
#[cfg_attr(any(target_arch = "aarch64", target_feature = "fma"), allow(dead_code))]
#[cold]
#[inline(never)]
fn fma_fix(p: f64, z: f64, s: f64) -> f32 {
    if !s.is_finite() {
        return s as f32;
    }
    // TwoSum (Knuth): `s + err == p + z` exactly, whatever the magnitudes.
    let pp = s - z;
    let zz = s - pp;
    let err = (p - pp) + (z - zz);
    let mut bits = s.to_bits();
    // Inexact and `s` even: the odd neighbour on the exact sum's side (an
    // `s` of zero is exact: an f64 sum rounds to zero only when it is zero).
    if err != 0.0 && bits & 1 == 0 {
        if (err > 0.0) == (s > 0.0) {
            bits += 1;
        } else {
            bits -= 1;
        }
    }
    f64::from_bits(bits) as f32
}

/// The fused multiply-add a portable kernel is compiled with: [`Soft`]
/// (this target's [`mul_add`]) or, in the copy compiled for x86_64 CPUs that
/// have FMA, [`Hard`] (the instruction). Both round once: the same bits.
pub(crate) trait MulAdd {
    /// `a * b + c` rounded once.
    fn mul_add(a: f32, b: f32, c: f32) -> f32;
    /// `c - a * b` rounded once.
    #[inline(always)]
    fn neg_mul_add(a: f32, b: f32, c: f32) -> f32 {
        Self::mul_add(-a, b, c)
    }
}

/// [`mul_add`]: the instruction where the target has it at compile time,
/// else [`fma_from_f64`].
pub(crate) struct Soft;

impl MulAdd for Soft {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        mul_add(a, b, c)
    }
}

/// `f32::mul_add`, which is one `vfmadd` inside a function compiled with
/// `#[target_feature(enable = "fma")]`: only used in such functions, the
/// `*_fma` copies of the portable kernels that [`hard_fma`] selects.
#[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "fma")))]
pub(crate) struct Hard;

#[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "fma")))]
impl MulAdd for Hard {
    #[inline(always)]
    fn mul_add(a: f32, b: f32, c: f32) -> f32 {
        a.mul_add(b, c)
    }
}

/// Whether the portable kernels take their copy compiled with FMA: an
/// x86_64 build without the `fma` target feature, on a CPU that has it (as
/// the dispatch layer sees it: the test hooks can hide it, and a simulated
/// target without SIMD forms has none). The same bits either way; without
/// it each fused multiply-add is [`fma_from_f64`], about ten instructions
/// (the portable forms were 2-8x slower than the scalar ports).
#[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "fma")))]
#[inline]
pub(crate) fn hard_fma() -> bool {
    crate::isa::fma_detected()
}

/// A portable kernel `$name`, public, with the caller's contract of
/// `$with`: `$with::<Soft>` everywhere, and on x86_64 builds without the
/// `fma` target feature, `$with::<Hard>` compiled with FMA where the CPU
/// has it ([`hard_fma`]). The doc comment (with its `# Safety`) is the
/// kernel's.
macro_rules! fma_versions {
    ($(#[$doc:meta])* pub unsafe fn $name:ident($($arg:ident: $ty:ty),* $(,)?) => $with:ident;) => {
        $(#[$doc])*
        #[allow(clippy::too_many_arguments)]
        pub unsafe fn $name($($arg: $ty),*) {
            #[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "fma")))]
            {
                /// `$with::<Hard>` compiled with FMA.
                ///
                /// # Safety
                ///
                /// The kernel's contract, on a CPU with FMA.
                #[allow(clippy::too_many_arguments)]
                #[target_feature(enable = "fma")]
                unsafe fn with_fma($($arg: $ty),*) {
                    // SAFETY: the kernel's contract, passed on.
                    unsafe { $with::<$crate::portable::Hard>($($arg),*) }
                }
                if $crate::portable::hard_fma() {
                    // SAFETY: the CPU has FMA (`hard_fma`); the caller keeps
                    // the kernel's contract.
                    return unsafe { with_fma($($arg),*) };
                }
            }
            // SAFETY: the caller keeps the kernel's contract.
            unsafe { $with::<$crate::portable::Soft>($($arg),*) }
        }
    };
}
pub(crate) use fma_versions;

/// `sqrt(x)` correctly rounded (IEEE 754's square root, as `vsqrtps` and
/// `fsqrt` compute it): `f32::sqrt` with the `std` feature, `libm::sqrtf`
/// without it.
#[inline(always)]
pub(crate) fn sqrt(x: f32) -> f32 {
    cfg_if::cfg_if! {
        if #[cfg(feature = "std")] { x.sqrt() } else { libm::sqrtf(x) }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::fma_from_f64;

    /// The reference: the target's fused multiply-add instruction where the
    /// CPU has one, else the C library's `fmaf` (correctly rounded), or
    /// `libm::fmaf` without `std`.
    pub(crate) fn reference(a: f32, b: f32, c: f32) -> f32 {
        #[cfg(all(feature = "std", target_arch = "x86_64"))]
        {
            if std::is_x86_feature_detected!("fma") {
                use core::arch::x86_64::*;
                #[target_feature(enable = "fma")]
                fn f(a: f32, b: f32, c: f32) -> f32 {
                    _mm_cvtss_f32(_mm_fmadd_ss(_mm_set_ss(a), _mm_set_ss(b), _mm_set_ss(c)))
                }
                // SAFETY: the CPU has FMA (checked above).
                return unsafe { f(a, b, c) };
            }
        }
        cfg_if::cfg_if! {
            if #[cfg(feature = "std")] { a.mul_add(b, c) } else { libm::fmaf(a, b, c) }
        }
    }

    /// `2^e` for `-149 <= e <= 127` (subnormal below -126), without `std`.
    fn p2(e: i32) -> f32 {
        if e >= -126 { f32::from_bits(((e + 127) as u32) << 23) } else { f32::from_bits(1 << (e + 149)) }
    }

    /// Whether `got` is `want`'s bits (or both are NaN).
    pub(crate) fn same(got: f32, want: f32) -> bool {
        got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan())
    }

    fn check(a: f32, b: f32, c: f32) {
        let (got, want) = (fma_from_f64(a, b, c), reference(a, b, c));
        assert!(
            same(got, want),
            "fma({a:e}, {b:e}, {c:e}): {got:e} ({:#010x}), want {want:e} ({:#010x})",
            got.to_bits(),
            want.to_bits()
        );
    }

    /// SplitMix64, for reproducible bit patterns.
    fn next(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The cases where the f64 sum lands exactly halfway between two f32
    /// and a plain second rounding goes the wrong way: `a = 1 + i u`, `b =
    /// (1 - i u) 2^-24 k` (`u = 2^-23`), so `a b` is `k 2^-24` less a
    /// sliver below f64's precision, and `c` an f32 whose half ulp is `k
    /// 2^-24`: the exact sum is just below a halfway point that the f64 sum
    /// rounds onto. Every sign and a spread of exponents, and the sums
    /// below f32's normal range.
    #[test]
    #[cfg_attr(miri, ignore = "205,000 multiply-adds: minutes under Miri; run natively on every target")]
    fn halfway_cases() {
        halfway_triples(check);
    }

    /// The triples of [`halfway_cases`], each given to `check`.
    pub(crate) fn halfway_triples(mut check: impl FnMut(f32, f32, f32)) {
        let u = f32::EPSILON;
        for i in 1..=4u32 {
            let a = 1.0 + i as f32 * u;
            for e in -100..100 {
                let k = p2(e);
                let b = (1.0 - i as f32 * u) * p2(-24) * k;
                for m in 0..64u32 {
                    let c = f32::from_bits((1.0f32 * k).to_bits() + m * 131_071 % (1 << 23));
                    for (sa, sc) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
                        check(sa * a, b, sc * c);
                    }
                }
            }
        }
        // Results among the f32 subnormals, and exact zeros of both signs.
        for (a, b, c) in [
            (p2(-70), p2(-70) * 1.5, p2(-149)),
            (p2(-75), p2(-75), -p2(-149) * 3.0),
            (1.0 + u, p2(-140) * (1.0 - u), p2(-149)),
            (0.0, -1.0, 0.0),
            (-0.0, -1.0, -0.0),
            (1.0, 1.0, -1.0),
            (f32::MAX, 2.0, -f32::MAX),
            (f32::MAX, f32::MAX, f32::NEG_INFINITY),
            (f32::NAN, 1.0, 1.0),
        ] {
            check(a, b, c);
        }
    }

    /// Random bit patterns (every class, NaN and infinities included) and
    /// random arguments of like magnitudes (where cancellation is common).
    #[test]
    #[cfg_attr(miri, ignore = "600,000 multiply-adds: minutes under Miri; run natively on every target")]
    fn random_arguments() {
        random_triples(check);
    }

    /// The triples of [`random_arguments`], each given to `check`.
    pub(crate) fn random_triples(mut check: impl FnMut(f32, f32, f32)) {
        let mut state = 0x5EED;
        for _ in 0..200_000 {
            let r = next(&mut state);
            let (a, b, c) =
                (f32::from_bits(r as u32), f32::from_bits((r >> 32) as u32), f32::from_bits(next(&mut state) as u32));
            check(a, b, c);
            let f = |x: u64| (x as u32 >> 9) as f32 / (1u32 << 23) as f32 * 2.0 - 1.0;
            let r2 = next(&mut state);
            check(f(r), f(r >> 32), f(r2));
            check(f(r), f(r >> 32), -(f(r) * f(r >> 32)) + f(r2) * 1e-7);
        }
    }
}
