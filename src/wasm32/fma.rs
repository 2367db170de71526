//! The fused multiply-add of the SIMD128 successors, four lanes at once:
//! wasm has no fused multiply-add (the relaxed-SIMD `relaxed_madd` may or
//! may not fuse, so it cannot give the one answer), so each lane is
//! `crate::portable::fma_from_f64`'s exact construction, in vectors.
//!
//! **The common path** (about 20 wasm instructions for four lanes): the
//! lanes widened to two `f64x2` pairs, the products (exact in f64) and the
//! sums rounded once in f64, then narrowed to f32. That is the correctly
//! rounded `a · b + c` unless the f64 sum landed exactly halfway between
//! two f32, or lies below f32's normal range (where f32's halfway points
//! sit elsewhere in its fraction): both are read from the sums' bits (the
//! low 29 fraction bits `1000...0`; a biased exponent from 1 to 896; an
//! exact zero, exponent 0, is neither), three integer instructions per
//! pair ([`Rare`]).
//!
//! **The rare path** ([`fma`], [`fnma`]): when any lane is such a case,
//! all four lanes are redone in vectors with `fma_fix`'s construction: the
//! f64 sums' exact errors (TwoSum), each inexact sum rounded to odd, then
//! to f32 (correct for every finite lane, so the lanes that were not
//! flagged keep their bits); inline, about 50 more instructions.
//!
//! **The deferred test** ([`fma_deferred`], [`fnma_deferred`],
//! [`fms_deferred`], [`Rare`]): a kernel with several fused multiply-adds
//! per block takes the common path of each, gathers their rare cases in
//! one [`Rare`] and tests it once, then redoes the whole block with exact
//! scalar code (its routine's portable form) when it holds any. Under V8
//! a wasm call clobbers every vector register, so a test per call, with
//! its out-of-line rare path, spilled every live vector before each
//! branch (with that and the lane-by-lane narrowing below, the matrix
//! routines' SIMD128 forms took 1.5 to 1.8 times as long as now). `c - a ·
//! b` and `a · b - c` subtract in f64 (the same IEEE sums
//! as adding the negated operand), so they share `a · b` with the calls
//! on the same operands.
//!
//! **The narrowing** (`narrow`): each pair is narrowed with
//! `f32x4.demote_f64x2_zero` and the two low halves joined. LLVM's
//! demanded-lanes folding drops the zero upper lanes of such a join's
//! operands, and without them it no longer sees the demotes: it narrows
//! lane by lane instead (four `f64x2.extract_lane`, `f32.demote_f64` and
//! `f32x4.replace_lane`, ten x86 instructions under V8 in place of three).
//! An `i8x16.avgr_u` of each demote with itself (the identity, as
//! `(x + x + 1) >> 1` is `x`; one `pavgb`) uses all its lanes where LLVM
//! cannot look through, which keeps the demotes.

use core::arch::wasm32::*;

/// `a · b + c` per lane, rounded once (the lanes of `vfmadd231ps`,
/// `fmla`, `crate::portable::mul_add`).
#[inline(always)]
pub(crate) fn fma(a: v128, b: v128, c: v128) -> v128 {
    let mut rare = Rare::new();
    let y = fma_deferred(a, b, c, &mut rare);
    if rare.any() { rounded_to_odd(a, b, c) } else { y }
}

/// `c - a · b` per lane, rounded once (`vfnmadd231ps`, `fmls`).
#[inline(always)]
pub(crate) fn fnma(a: v128, b: v128, c: v128) -> v128 {
    fma(f32x4_neg(a), b, c)
}

/// The rare cases met by a run of [`fma_deferred`] calls, as one vector
/// of running minima: for each f64 sum `s` (two per call), its low word `lo`
/// and high word `hi` become `lo · 8 - 2^31` and `hi · 2 - 2^21` (the
/// 29-bit fraction tail shifted to the top, then `1000...0` subtracted;
/// the sign shifted out, then biased exponent 1 subtracted), and each lane
/// keeps the least, unsigned. A sum was halfway when its low word's value
/// is 0, and had a biased exponent in `1..=896` when its high word's is
/// below `896 << 21` (an exact zero's `0 - 2^21` wraps to the top: never
/// below). One multiply, one subtraction and one minimum per pair: no
/// shuffle, no compare, two constants.
#[derive(Clone, Copy)]
pub(crate) struct Rare(v128);

impl Rare {
    /// No case met yet.
    #[inline(always)]
    pub(crate) fn new() -> Rare {
        Rare(u32x4_splat(u32::MAX))
    }

    /// Adds the f64 pair `s` (two sums) to the minima.
    #[inline(always)]
    fn add(&mut self, s: v128) {
        // Through `avgr` (the identity), the multipliers are no constant
        // to LLVM, which would otherwise make the multiply a shift by
        // lane (3, 1, 3, 1), which wasm has not: it would shift lane by lane.
        let tail_and_exponent = i32x4_mul(s, u8x16_avgr(u32x4(8, 2, 8, 2), u32x4(8, 2, 8, 2)));
        let v = i32x4_sub(tail_and_exponent, u32x4(1 << 31, 1 << 21, 1 << 31, 1 << 21));
        self.0 = u32x4_min(self.0, v);
    }

    /// Whether any lane of any sum so far was a rare case: halfway, or a
    /// biased exponent in `1..=896` (`2^-1022 <= |s| < 2^-126`). Then the
    /// values those calls returned may be off by one rounding: redo them
    /// exactly.
    #[inline(always)]
    pub(crate) fn any(self) -> bool {
        v128_any_true(u32x4_lt(self.0, u32x4(1, 896 << 21, 1, 896 << 21)))
    }
}

/// [`fma`]'s common path alone: `a · b + c` per lane from the f64 pairs,
/// correctly rounded unless `rare` says otherwise after the call (the
/// lanes' rare cases are added to it).
#[inline(always)]
pub(crate) fn fma_deferred(a: v128, b: v128, c: v128, rare: &mut Rare) -> v128 {
    let ((p0, p1), (c0, c1)) = (products(a, b), wide(c));
    rounded(f64x2_add(p0, c0), f64x2_add(p1, c1), rare)
}

/// `c - a · b` per lane ([`fnma`]) as [`fma_deferred`] computes `a · b +
/// c`: the f64 product subtracted from the f64 `c` (`c + (-a) · b` is the
/// same IEEE sum, and this form shares `a · b` with the calls on `a, b`).
#[inline(always)]
pub(crate) fn fnma_deferred(a: v128, b: v128, c: v128, rare: &mut Rare) -> v128 {
    let ((p0, p1), (c0, c1)) = (products(a, b), wide(c));
    rounded(f64x2_sub(c0, p0), f64x2_sub(c1, p1), rare)
}

/// `a · b - c` per lane (x86's `vfmsub`, `fma(a, b, -c)`) as
/// [`fma_deferred`] computes `a · b + c`: `c`'s f64 subtracted from the
/// product (the same IEEE sum as adding `-c`).
#[inline(always)]
pub(crate) fn fms_deferred(a: v128, b: v128, c: v128, rare: &mut Rare) -> v128 {
    let ((p0, p1), (c0, c1)) = (products(a, b), wide(c));
    rounded(f64x2_sub(p0, c0), f64x2_sub(p1, c1), rare)
}

/// The four lanes of `v` as two f64 pairs (lanes 0-1, lanes 2-3).
#[inline(always)]
fn wide(v: v128) -> (v128, v128) {
    (f64x2_promote_low_f32x4(v), f64x2_promote_low_f32x4(high(v)))
}

/// The four products `a · b` as two f64 pairs, exact.
#[inline(always)]
fn products(a: v128, b: v128) -> (v128, v128) {
    let ((a0, a1), (b0, b1)) = (wide(a), wide(b));
    (f64x2_mul(a0, b0), f64x2_mul(a1, b1))
}

/// The f64 sums `s0`, `s1` (lanes 0-1, 2-3) added to `rare` and rounded to
/// f32.
#[inline(always)]
fn rounded(s0: v128, s1: v128, rare: &mut Rare) -> v128 {
    rare.add(s0);
    rare.add(s1);
    narrow(s0, s1)
}

/// The two f64 pairs `s0`, `s1` rounded to f32, in lanes 0-1 and 2-3 (see
/// the module documentation for the `avgr`).
#[inline(always)]
fn narrow(s0: v128, s1: v128) -> v128 {
    let keep = |v: v128| u8x16_avgr(v, v);
    i64x2_shuffle::<0, 2>(keep(f32x4_demote_f64x2_zero(s0)), keep(f32x4_demote_f64x2_zero(s1)))
}

/// Lanes 2 and 3 of `v` in lanes 0 and 1.
#[inline(always)]
fn high(v: v128) -> v128 {
    i64x2_shuffle::<1, 1>(v, v)
}

/// [`fma`]'s rare path, four lanes at once: the f64 sums rounded to odd,
/// then to f32 (`crate::portable`'s `fma_fix` in vectors). Inline: a
/// halfway flag is not rare where the sums are exact ties (a blend factor
/// of 0.5: `tj + 0.5 · (tb - tj)` and `q + 1 · b` in `lerp_joints`, 60% of
/// its calls), and an out-of-line call, with its register spills in V8,
/// cost more than the arithmetic.
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

#[cfg(test)]
pub(crate) mod tests {
    use super::{Rare, fma, fma_deferred, fms_deferred, fnma_deferred};
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

    /// The deferred forms on a triple, in lane 2, after a plain call in
    /// another lane and with plain lanes beside it: where their [`Rare`]
    /// holds no case, each is the reference (`a b + c`, `c - a b`, `a b -
    /// c`); the case of the triple's call is not lost among the plain ones
    /// (a run's [`Rare`] says what the triple's own says).
    fn check_deferred(a: f32, b: f32, c: f32) {
        let lanes = |v: v128| f32x4_extract_lane::<2>(v);
        type Deferred = fn(v128, v128, v128, &mut Rare) -> v128;
        let forms: [(Deferred, f32); 3] = [
            (fma_deferred, reference(a, b, c)),
            (fnma_deferred, reference(-a, b, c)),
            (fms_deferred, reference(a, b, -c)),
        ];
        for (k, (f, want)) in forms.into_iter().enumerate() {
            let (va, vb, vc) = (f32x4(1.5, 2.0, a, 0.25), f32x4(2.0, 3.0, b, 4.0), f32x4(-3.0, 1.0, c, 1.0));
            let mut own = Rare::new();
            let y = f(va, vb, vc, &mut own);
            let mut run = Rare::new();
            f(f32x4(1.0, 0.5, 1.0, 2.0), f32x4(1.0, 2.0, 3.0, 0.5), f32x4(0.0, 1.0, 0.25, -1.0), &mut run);
            f(va, vb, vc, &mut run);
            assert_eq!(run.any(), own.any(), "form {k} on ({a:e}, {b:e}, {c:e}): the run's rare cases");
            assert!(
                own.any() || same(lanes(y), want),
                "form {k} on ({a:e}, {b:e}, {c:e}): {:e}, want {want:e}",
                lanes(y)
            );
        }
    }

    /// The deferred forms and [`Rare`] on the halfway cases: every result
    /// that `Rare` lets through is right (made to flag nothing, this test
    /// fails).
    #[test]
    fn deferred_halfway_cases() {
        halfway_triples(check_deferred);
    }

    /// The deferred forms and [`Rare`] on the random triples.
    #[test]
    fn deferred_random_arguments() {
        random_triples(check_deferred);
    }

    /// A triple whose `a b + c` summed in f64 and then rounded to f32 (the
    /// common path alone) is one rounding off, its f64 sum landing halfway
    /// between two f32: `a` and `c` in `[0.5, 2)`, `b` near `2^-24`. The
    /// routines' tests build joints on it, to reach their rare paths where
    /// skipping them would show.
    pub(crate) fn double_rounding_triple() -> (f32, f32, f32) {
        let mut found = None;
        halfway_triples(|a, b, c| {
            let common = (f64::from(a) * f64::from(b) + f64::from(c)) as f32;
            let moderate = (0.5..2.0).contains(&a.abs()) && (0.5..2.0).contains(&c.abs());
            if found.is_none() && moderate && !same(common, reference(a, b, c)) {
                found = Some((a, b, c));
            }
        });
        found.expect("a halfway triple that the f64 sum alone rounds wrongly")
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
