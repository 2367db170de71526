//! The 4-wide pieces that the NEON successors of `quats_to_mats` and
//! `mats_to_quats` (`Impl::Neon`) share, as `crate::x86::blocks8` holds the
//! AVX2 ones: the 4x4 transpose that turns rows into structure-of-arrays
//! vectors and back, and the loop over blocks of four joints with its
//! zero-padded stack block for the last one to three (no 1-wide tail: every
//! joint goes through the same lane arithmetic, wherever it sits).

use core::arch::aarch64::*;

/// Joints per block.
pub(crate) const BLOCK: usize = 4;

/// 4x4 transpose of four vectors: `(a b c d)` as rows in, columns out
/// (`trn1`/`trn2` on 32-bit then on 64-bit elements; no arithmetic).
#[inline]
#[target_feature(enable = "neon")]
pub(crate) fn transpose4(a: float32x4_t, b: float32x4_t, c: float32x4_t, d: float32x4_t) -> [float32x4_t; 4] {
    let ab0 = vreinterpretq_f64_f32(vtrn1q_f32(a, b)); // a0 b0 a2 b2
    let ab1 = vreinterpretq_f64_f32(vtrn2q_f32(a, b)); // a1 b1 a3 b3
    let cd0 = vreinterpretq_f64_f32(vtrn1q_f32(c, d)); // c0 d0 c2 d2
    let cd1 = vreinterpretq_f64_f32(vtrn2q_f32(c, d)); // c1 d1 c3 d3
    [
        vreinterpretq_f32_f64(vtrn1q_f64(ab0, cd0)), // a0 b0 c0 d0
        vreinterpretq_f32_f64(vtrn1q_f64(ab1, cd1)), // a1 b1 c1 d1
        vreinterpretq_f32_f64(vtrn2q_f64(ab0, cd0)), // a2 b2 c2 d2
        vreinterpretq_f32_f64(vtrn2q_f64(ab1, cd1)), // a3 b3 c3 d3
    ]
}

/// Runs `block` on elements `i..i + 4` of `out` and `inp` for every full
/// block of four, then, for the last `n % 4` elements, on a stack copy of
/// them padded with `I::default()` (its results past the copied ones are
/// dropped). A conversion with no 1-wide tail and no access outside the
/// lists.
///
/// # Safety
///
/// `inp` is valid for reads of `n` elements and `out` for writes of `n`,
/// both aligned for their types, not overlapping; `block` is sound for four
/// valid elements each side.
#[inline]
#[target_feature(enable = "neon")]
pub(crate) unsafe fn by_blocks_of_4<O: Copy + Default, I: Copy + Default>(
    out: *mut O,
    inp: *const I,
    n: usize,
    block: unsafe fn(*mut O, *const I),
) {
    let full = n / BLOCK * BLOCK;
    let mut i = 0;
    while i < full {
        // SAFETY: `i + 4 <= n`: elements `i..i + 4` of both lists are valid
        // (caller's contract) and do not overlap.
        unsafe { block(out.add(i), inp.add(i)) };
        i += BLOCK;
    }
    let rest = n - full;
    if rest > 0 {
        let mut src = [I::default(); BLOCK];
        let mut dst = [O::default(); BLOCK];
        // SAFETY: the `rest < 4` elements from `full` are the lists' last
        // (caller's contract); the stack arrays hold four elements, are
        // aligned and distinct from the lists.
        unsafe {
            core::ptr::copy_nonoverlapping(inp.add(full), src.as_mut_ptr(), rest);
            block(dst.as_mut_ptr(), src.as_ptr());
            core::ptr::copy_nonoverlapping(dst.as_ptr(), out.add(full), rest);
        }
    }
}
