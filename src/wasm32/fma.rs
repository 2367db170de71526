//! The fused multiply-add of the SIMD128 successors, four lanes at once:
//! wasm has no fused multiply-add (the relaxed-SIMD `relaxed_madd` may or
//! may not fuse, so it cannot give the one answer), so each lane is
//! `crate::portable::fma_from_f64`'s exact construction, in vectors.
//!
//! **The common path** (about 30 wasm instructions for four lanes, fewer
//! where operands are shared or constant): the lanes widened to two `f64x2`
//! pairs, the products (exact in f64) and the sums rounded once in f64,
//! then narrowed to f32. That is the correctly
//! rounded `a · b + c` unless the f64 sum landed exactly halfway between
//! two f32, or lies below f32's normal range (where f32's halfway points
//! sit elsewhere in its fraction): both are read from the sums' bits (the
//! low 29 fraction bits `1000...0`; a biased exponent from 1 to 896; an
//! exact zero, exponent 0, is neither).
//!
//! **The rare path**: when any lane is such a case, all four lanes are
//! redone in vectors with `crate::portable::fma_fix`'s construction: the
//! f64 sums' exact errors (TwoSum), each inexact sum rounded to odd, then to
//! f32 (correct for every finite lane, so the lanes that were not flagged
//! keep their bits). Inline, about 50 more instructions: a halfway flag is
//! not rare where the sums are exact ties (a blend factor of 0.5: `tj +
//! 0.5 · (tb - tj)`, `q + 1 · b` in `lerp_joints`, 60% of its calls), and an
//! out-of-line call, with its register spills in V8, cost more than the
//! arithmetic.

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
    if i32x4_bitmask(v128_or(halfway, small)) != 0 { rounded_to_odd(a, b, c) } else { y }
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

/// [`fma`]'s rare path, four lanes at once: the f64 sums rounded to odd,
/// then to f32.
#[inline(always)]
fn rounded_to_odd(a: v128, b: v128, c: v128) -> v128 {
    let s0 = odd_sum(f64x2_promote_low_f32x4(a), f64x2_promote_low_f32x4(b), f64x2_promote_low_f32x4(c));
    let s1 =
        odd_sum(f64x2_promote_low_f32x4(high(a)), f64x2_promote_low_f32x4(high(b)), f64x2_promote_low_f32x4(high(c)));
    narrow(s0, s1)
}

/// `a · b + z` per lane of two f64 (f32 values widened), rounded to odd:
/// `crate::portable::fma_fix` on two lanes. The product is exact; the sum
/// `s` rounds once; where it was inexact (TwoSum's error is not zero) and
/// `s` is even, the odd neighbour on the exact sum's side (the error's
/// sign against `s`'s); NaN and infinite sums as they are. Rounding that
/// to f32 gives the correctly rounded `a · b + z`, since f64 carries more
/// than `24 + 1` bits (Boldo and Melquiond).
#[inline(always)]
fn odd_sum(a: v128, b: v128, z: v128) -> v128 {
    let p = f64x2_mul(a, b);
    let s = f64x2_add(p, z);
    // TwoSum (Knuth): `s + err == p + z` exactly.
    let pp = f64x2_sub(s, z);
    let zz = f64x2_sub(s, pp);
    let err = f64x2_add(f64x2_sub(p, pp), f64x2_sub(z, zz));
    let inexact = f64x2_ne(err, f64x2_splat(0.0));
    let even = i64x2_eq(v128_and(s, i64x2_splat(1)), i64x2_splat(0));
    let finite = f64x2_lt(f64x2_abs(s), f64x2_splat(f64::INFINITY));
    // +1 (away from zero) where `err` has the sign of `s`, else -1.
    let toward_zero = v128_xor(f64x2_gt(err, f64x2_splat(0.0)), f64x2_gt(s, f64x2_splat(0.0)));
    let step = v128_or(i64x2_splat(1), toward_zero);
    i64x2_add(s, v128_and(step, v128_and(inexact, v128_and(even, finite))))
}

/// Lanes 2 and 3 of `v` in lanes 0 and 1.
#[inline(always)]
fn high(v: v128) -> v128 {
    i64x2_shuffle::<1, 1>(v, v)
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
        check_against(a, b, c, reference(a, b, c));
    }

    /// [`check`] against `want`.
    fn check_against(a: f32, b: f32, c: f32, want: f32) {
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

    /// Sums just off a halfway point between two f32 subnormals, which
    /// their f64 rounding puts on it: `a · b = ±2^-150 (1 - 2^-30)` beside a
    /// subnormal `c` from 2^-127 up (54 bits apart), so that the exact sum is
    /// `c` moved by less than half its ulp and rounds to `c`, where the f64
    /// sum's rounding to f32 moves an odd `c` by one. These are the exponent
    /// test's cases, which the halfway test does not see: made to skip the
    /// small sums, this test fails. (Its reference is not `f32::mul_add`,
    /// which rounds these as the f64 sum does: wasm32's `fmaf` looks for
    /// the halfway points of normal floats only.)
    #[test]
    fn subnormal_sums_rounded_onto_a_halfway_point() {
        let (a, b) = (f32::from_bits(0x1A00_0100), f32::from_bits(0x19FF_FE00)); // (1 ± 2^-15) 2^-75
        assert_eq!(f64::from(a) * f64::from(b), (1.0 - 2f64.powi(-30)) * 2f64.powi(-150));
        let mut moved = 0;
        for bits in (0x0040_0000..0x0080_0000u32).step_by(4099).chain([0x003F_FFFF, 0x007F_FFFE, 0x007F_FFFF]) {
            for (sa, sc) in [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)] {
                let c = sc * f32::from_bits(bits);
                check_against(sa * a, b, c, c);
                moved += usize::from((f64::from(sa * a) * f64::from(b) + f64::from(c)) as f32 != c);
            }
        }
        assert!(moved > 1000, "only {moved} sums that rounding the f64 sum moves");
    }
}
