//! The 8-wide pieces that the AVX2 + FMA successors of `quats_to_mats` and
//! `mats_to_quats` (`Impl::Avx2`) share: the in-lane 4x4 transpose that
//! turns pair registers into SoA registers and back, and the loop over
//! blocks of eight joints with its zero-padded stack block for the last one
//! to seven (no 1-wide tail).

use core::arch::x86_64::*;

/// Joints per block.
pub(crate) const BLOCK: usize = 8;

/// In-lane 4x4 transpose of four vectors (two independent 4x4 transposes,
/// one per 128-bit half): `(a b c d)` as rows in, columns out.
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) fn transpose_lane4(a: __m256, b: __m256, c: __m256, d: __m256) -> [__m256; 4] {
    let ab_lo = _mm256_castps_pd(_mm256_unpacklo_ps(a, b)); // a0 b0 a1 b1
    let cd_lo = _mm256_castps_pd(_mm256_unpacklo_ps(c, d)); // c0 d0 c1 d1
    let ab_hi = _mm256_castps_pd(_mm256_unpackhi_ps(a, b)); // a2 b2 a3 b3
    let cd_hi = _mm256_castps_pd(_mm256_unpackhi_ps(c, d)); // c2 d2 c3 d3
    [
        _mm256_castpd_ps(_mm256_unpacklo_pd(ab_lo, cd_lo)), // a0 b0 c0 d0
        _mm256_castpd_ps(_mm256_unpackhi_pd(ab_lo, cd_lo)), // a1 b1 c1 d1
        _mm256_castpd_ps(_mm256_unpacklo_pd(ab_hi, cd_hi)), // a2 b2 c2 d2
        _mm256_castpd_ps(_mm256_unpackhi_pd(ab_hi, cd_hi)), // a3 b3 c3 d3
    ]
}

/// Runs `block` on elements `i..i + 8` of `out` and `inp` for every full
/// block of eight, then, for the last `n % 8` elements, on a stack copy of
/// them padded with `I::default()` (its results past the copied ones are
/// dropped). A conversion with no 1-wide tail and no access outside the
/// lists.
///
/// # Safety
///
/// `inp` is valid for reads of `n` elements and `out` for writes of `n`,
/// both aligned for their types, not overlapping; `block` is sound for
/// eight valid elements each side (its CPU features available).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(crate) unsafe fn by_blocks_of_8<O: Copy + Default, I: Copy + Default>(
    out: *mut O,
    inp: *const I,
    n: usize,
    block: unsafe fn(*mut O, *const I),
) {
    let full = n / BLOCK * BLOCK;
    let mut i = 0;
    while i < full {
        // SAFETY: `i + 8 <= n`: elements `i..i + 8` of both lists are valid
        // (caller's contract) and do not overlap.
        unsafe { block(out.add(i), inp.add(i)) };
        i += BLOCK;
    }
    let rest = n - full;
    if rest > 0 {
        let mut src = [I::default(); BLOCK];
        let mut dst = [O::default(); BLOCK];
        // SAFETY: the `rest < 8` elements from `full` are the lists' last
        // (caller's contract); the stack arrays hold eight elements, are
        // aligned and distinct from the lists.
        unsafe {
            core::ptr::copy_nonoverlapping(inp.add(full), src.as_mut_ptr(), rest);
            block(dst.as_mut_ptr(), src.as_ptr());
            core::ptr::copy_nonoverlapping(dst.as_ptr(), out.add(full), rest);
        }
    }
}
