//! The 4-wide pieces that the NEON successors of `quats_to_mats` and
//! `mats_to_quats` (`Impl::Neon`) share, as `crate::x86::blocks8` holds the
//! AVX2 ones: the 4x4 transpose that turns rows into structure-of-arrays
//! vectors and back (the loop over blocks of four joints, which no
//! instruction set's vectors enter, is `crate::blocks::by_blocks_of_4`).

use core::arch::aarch64::*;

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
