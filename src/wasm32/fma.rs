//! The fused multiply-add of the SIMD128 successors, four lanes at once:
//! wasm has no fused multiply-add (the relaxed-SIMD `relaxed_madd` may or
//! may not fuse, so it cannot give the one answer), so each lane is
//! `crate::portable::fma_from_f64`'s exact construction, in vectors.
//!
//! **The common path** (about 16 wasm instructions for four lanes): the
//! lanes widened to two `f64x2` pairs, the products (exact in f64) and the
//! sums rounded once in f64, then narrowed to f32. That is the correctly
//! rounded `a · b + c` unless the f64 sum landed exactly halfway between
//! two f32, or lies below f32's normal range (where f32's halfway points
//! sit elsewhere in its fraction): both are read from the sums' bits (the
//! low 29 fraction bits `1000...0`; a biased exponent from 1 to 896; an
//! exact zero, exponent 0, is neither).
//!
//! **The rare path**: when any lane is such a case, all four lanes are
//! redone one by one with `fma_from_f64` (its round-to-odd fix where
//! needed), out of line.

use core::arch::wasm32::*;

/// `a · b + c` per lane, rounded once (the lanes of `vfmadd231ps`,
/// `fmla`, `crate::portable::mul_add`).
#[inline(always)]
pub(crate) fn fma(a: v128, b: v128, c: v128) -> v128 {
    let (a0, a1) = (f64x2_promote_low_f32x4(a), f64x2_promote_low_f32x4(high(a)));
    let (b0, b1) = (f64x2_promote_low_f32x4(b), f64x2_promote_low_f32x4(high(b)));
    let (c0, c1) = (f64x2_promote_low_f32x4(c), f64x2_promote_low_f32x4(high(c)));
    let s0 = f64x2_add(f64x2_mul(a0, b0), c0);
    let s1 = f64x2_add(f64x2_mul(a1, b1), c1);
    let y = narrow(s0, s1);
    // The low and the high 32 bits of the four sums.
    let lo = i32x4_shuffle::<0, 2, 4, 6>(s0, s1);
    let hi = i32x4_shuffle::<1, 3, 5, 7>(s0, s1);
    let halfway = i32x4_eq(v128_and(lo, u32x4_splat(0x1FFF_FFFF)), u32x4_splat(0x1000_0000));
    // Biased exponent in 1..=896: 2^-1022 <= |s| < 2^-126. `exponent`
    // (the field in place, a multiple of 2^20 below 2^31) minus 2^20 is
    // negative only for 0, minus 897 · 2^20 only below 897: `small` is the
    // sign bit of the second and not the first, which `i32x4_bitmask` reads
    // (as it reads `halfway`'s all-ones lanes). Written as compares, LLVM
    // makes this one `i32x4.lt_u`, four instructions in V8 on x86_64; the
    // bitmask is one `movmskps` where `v128_any_true` is `ptest` and `setnz`.
    let exponent = v128_and(hi, u32x4_splat(0x7FF0_0000));
    let small = v128_andnot(i32x4_sub(exponent, u32x4_splat(897 << 20)), i32x4_sub(exponent, u32x4_splat(1 << 20)));
    if i32x4_bitmask(v128_or(halfway, small)) != 0 { lane_by_lane(a, b, c) } else { y }
}

/// `c - a · b` per lane, rounded once (`vfnmadd231ps`, `fmls`).
#[inline(always)]
pub(crate) fn fnma(a: v128, b: v128, c: v128) -> v128 {
    fma(f32x4_neg(a), b, c)
}

/// The f64 pairs `s0` and `s1` rounded to f32, in lanes 0-1 and 2-3: two
/// `f32x4.demote_f64x2_zero`, the second's lanes moved up by an
/// `i8x16.swizzle`, and an `or`. Combined by a shuffle (`i64x2_shuffle::<0,
/// 2>`), the two demotions become one `fptrunc <4 x double>` in LLVM, which
/// the wasm backend splits into four `f64x2.extract_lane`, `f32.demote_f64`
/// and `f32x4.replace_lane` (about 12 instructions where 4 do); the
/// swizzle's mask is read from memory (`read_volatile`), so LLVM cannot turn
/// it into a shuffle and combine it: the same bits, two demotions.
#[inline(always)]
fn narrow(s0: v128, s1: v128) -> v128 {
    // SAFETY: `MOVE_LOW_HALF_UP` is a `v128` static, aligned and readable.
    let up = unsafe { core::ptr::read_volatile(&MOVE_LOW_HALF_UP) };
    v128_or(f32x4_demote_f64x2_zero(s0), i8x16_swizzle(f32x4_demote_f64x2_zero(s1), up))
}

/// [`narrow`]'s `i8x16.swizzle` mask: bytes 0-7 to 8-15, zeros (an index
/// out of range) below.
static MOVE_LOW_HALF_UP: v128 = u8x16(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0, 1, 2, 3, 4, 5, 6, 7);

/// Lanes 2 and 3 of `v` in lanes 0 and 1.
#[inline(always)]
fn high(v: v128) -> v128 {
    i64x2_shuffle::<1, 1>(v, v)
}

/// [`fma`]'s rare path: each lane with `crate::portable::fma_from_f64`.
/// `extern "C"` passes and returns the `v128` as wasm values: with the Rust
/// ABI they go through the stack in memory, and LLVM stores the common
/// path's result there too, to load it back after the branch.
#[cold]
#[inline(never)]
#[allow(improper_ctypes_definitions)]
extern "C" fn lane_by_lane(a: v128, b: v128, c: v128) -> v128 {
    use crate::portable::fma_from_f64 as f;
    f32x4(
        f(f32x4_extract_lane::<0>(a), f32x4_extract_lane::<0>(b), f32x4_extract_lane::<0>(c)),
        f(f32x4_extract_lane::<1>(a), f32x4_extract_lane::<1>(b), f32x4_extract_lane::<1>(c)),
        f(f32x4_extract_lane::<2>(a), f32x4_extract_lane::<2>(b), f32x4_extract_lane::<2>(c)),
        f(f32x4_extract_lane::<3>(a), f32x4_extract_lane::<3>(b), f32x4_extract_lane::<3>(c)),
    )
}

#[cfg(test)]
mod tests {
    use super::fma;
    use crate::portable::tests::{halfway_triples, random_triples, reference, same};
    use core::arch::wasm32::*;

    /// [`fma`] against the reference on a triple, in two lanes (two
    /// rotations of it), with an exact zero and a plain sum in the lanes
    /// beside it: a lane on the rare path must not move the others.
    fn check(a: f32, b: f32, c: f32) {
        let want = reference(a, b, c);
        let v = fma(f32x4(a, 1.5, b, 0.25), f32x4(b, 2.0, a, 4.0), f32x4(c, -3.0, c, 1.0));
        let lanes = [
            f32x4_extract_lane::<0>(v),
            f32x4_extract_lane::<1>(v),
            f32x4_extract_lane::<2>(v),
            f32x4_extract_lane::<3>(v),
        ];
        assert!(same(lanes[0], want) && same(lanes[2], want), "fma({a:e}, {b:e}, {c:e}): {lanes:?}, want {want:e}");
        assert_eq!((lanes[1].to_bits(), lanes[3]), (0, 2.0), "the lanes beside fma({a:e}, {b:e}, {c:e})");
    }

    /// The halfway cases of `crate::portable`'s tests (205,000 triples,
    /// subnormal results and exact zeros among them), lane by lane. Made to
    /// skip the rare path, this test fails.
    #[test]
    fn halfway_cases() {
        halfway_triples(check);
    }

    /// `crate::portable`'s random triples (600,000: every class of bit
    /// pattern, and like magnitudes that cancel).
    #[test]
    fn random_arguments() {
        random_triples(check);
    }
}
