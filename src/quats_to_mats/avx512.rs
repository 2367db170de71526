//! The successor of Appendix A (`ConvertJointQuatsToJointMats`) for a core
//! with AVX-512 (F, VL, DQ, BW): sixteen joints per iteration, computed
//! directly in the matrices' memory layout, with `core::arch::x86_64`
//! intrinsics.
//!
//! **What the form is.** Four joints are two 512-bit loads (`[q_0 t_0 q_1
//! t_1]` and `[q_2 t_2 q_3 t_3]`) and three 512-bit stores (their 48 matrix
//! floats, `m[0][0..4] m[1][0..4] m[2][0..4]` joint after joint). Each of the
//! three output vectors covers exactly two joints, so every operand of every
//! one of its sixteen floats is in the two loaded vectors: a two-source
//! permute (`vpermt2ps`, `_mm512_permutex2var_ps`) picks it. The form does
//! not transpose at all. Per input vector, one permute (`vpermps`) and one
//! multiply by `±2` make the signed doubles `x2 y2 z2 -x2 -y2 -z2` in each
//! joint's 8-float record; then per output vector four permutes build the
//! operands, `c1` and `a` from the quaternions, `c2` and `b` from the signed
//! doubles (every sign is on the doubled operand, so nothing is negated per
//! element), and two fused multiply-adds compute every element in place:
//!
//! ```text
//! c   = fma(c1, ±c2, c3)   one_zz2, one_yy2 (c3 = 1) or ±wx2, ±wy2, ±wz2 (c3 = -0)
//! out = fma(a, ±b, c)      the element: m00 = fma(y, -y2, one_zz2), m01 = fma(x, y2, wz2), ...
//! ```
//!
//! The translation lanes (every fourth float, mask `0x7777` clear) take
//! `c1`, which the permute filled with `t`: a blend, no arithmetic, so `t`
//! is copied bit for bit. Sixteen joints are four such groups (8 loads, 56
//! permutes, 8 multiplies, 24 fused operations, 12 blends, 12 stores). A
//! tail of 1 to 15 joints goes four at a time through the same group with
//! masked loads and stores (`_mm512_maskz_loadu_ps`,
//! `_mm512_mask_storeu_ps`): the lanes beyond the last joint are neither
//! read nor written, so there is no stack copy and no access outside the two
//! lists.
//!
//! **What changed from the 2005 listing, and from `Avx2`, and why.** The
//! listing converts one joint per iteration with ten shuffles; the AVX2
//! successor ([`super::avx2`]) converts eight joints in structure-of-arrays
//! form and pays for the change of layout, 43 shuffles and 12 blends per
//! eight joints (5.4 shuffles per joint), then sends its tail through a
//! zero-padded stack block. With two-source permutes over 16 lanes the
//! change of layout can be fused with the arithmetic: each operand is
//! permuted straight from the loaded joints into the lane of the element it
//! is an operand of, 3.5 permutes per joint and nothing else on the shuffle
//! port (16 lanes in structure-of-arrays form would need 71 per 16 joints:
//! `asm_notes/quats_to_mats.md`, "Successor: Impl::Avx512"). The price is
//! arithmetic: the products (`wz2`, `1 - zz2`, ...) are computed per
//! element rather than per joint, which the FP pipe the permutes leave free
//! absorbs. The masks replace the stack copy of the tail. The listing
//! behaviours kept and corrected are `Avx2`'s (see [`super::avx2`]):
//! section 3's matrix `M`, no normalisation, `t.w` never stored, the
//! translation copied bit for bit (NaN payloads included), the diagonal's E4
//! order, E6 corrected (the count is a `usize`).
//!
//! **The one answer.** The form has no estimate instruction. Every element
//! is the fused operation [`super::portable`] writes out, with the same
//! operands: a product `w * x2` becomes `fma(w, x2, -0.0)`, which rounds the
//! same (the exact product plus `-0.0` is the product, and a zero product
//! keeps its sign: `+0 + -0 = +0`, `-0 + -0 = -0`), and `-wy2` becomes
//! `fma(w, -y2, -0.0)`, the same as negating the rounded product (rounding
//! to nearest is symmetric; an exact zero gives `-0 + -0 = -0`, the negated
//! `+0`); `fma(y, -y2, c)` is `fma(-y, y2, c)` (negation is exact), and
//! `y * -2` is `-(y + y)` bit for bit (doubling is exact or overflows the
//! same way). So every joint's matrix is `Impl::Portable`'s bit for bit, on
//! every CPU (NaN bits aside; `tests/golden.rs`), the tail included (each
//! lane depends on its own joint only).

use crate::types::{JointMat, JointQuat};
use core::arch::x86_64::*;

/// The lanes that hold matrix elements (not the translation column).
const MAT: __mmask16 = 0x7777;

/// The signed doubles of a joint's `x y z`, lane by lane within its 8-float
/// record: `x2 y2 z2 -x2 -y2 -z2` (and two unused lanes), built from the
/// loaded joints with one permute ([`SIGNED_FROM`]) and one multiply by
/// `±2` ([`SIGNED_BY`]). `v * 2` is `v + v` bit for bit (both exact, both
/// overflow to the same infinity), and `v * -2` its negation.
const SIGNED_FROM: [u32; 16] = [0, 1, 2, 0, 1, 2, 6, 7, 8, 9, 10, 8, 9, 10, 14, 15];
/// See [`SIGNED_FROM`].
const SIGNED_BY: [f32; 16] = [2.0, 2.0, 2.0, -2.0, -2.0, -2.0, 2.0, 2.0, 2.0, 2.0, 2.0, -2.0, -2.0, -2.0, 2.0, 2.0];

/// What each of the twelve floats of a matrix is computed from: `(c1, c2,
/// c3 is one, a, b)` for `c = fma(c1, c2, c3)` and `out = fma(a, b, c)`.
/// `c1` and `a` are components of the quaternion (`x y z w` = 0 1 2 3);
/// `c2` and `b` are lanes of the signed doubles (`x2 y2 z2 -x2 -y2 -z2` = 0
/// to 5): every sign is on the doubled operand. For the translation lanes
/// `c1` is the translation component (4 5 6) and the rest is unused.
const ELEMENT: [(u32, u32, bool, u32, u32); 12] = {
    let (x, y, z, w) = (0, 1, 2, 3);
    let (x2, y2, z2, nx2, ny2, nz2) = (0, 1, 2, 3, 4, 5);
    [
        (z, nz2, true, y, ny2), // m00 = fma(-y, y2, fma(-z, z2, 1))
        (w, z2, false, x, y2),  // m01 = fma(x, y2, fma(w, z2, -0))
        (w, ny2, false, x, z2), // m02 = fma(x, z2, fma(-w, y2, -0))
        (4, 0, false, 0, 0),    // t.x
        (w, nz2, false, x, y2), // m10 = fma(x, y2, fma(-w, z2, -0))
        (z, nz2, true, x, nx2), // m11 = fma(-x, x2, fma(-z, z2, 1))
        (w, x2, false, y, z2),  // m12 = fma(y, z2, fma(w, x2, -0))
        (5, 0, false, 0, 0),    // t.y
        (w, y2, false, x, z2),  // m20 = fma(x, z2, fma(w, y2, -0))
        (w, nx2, false, y, z2), // m21 = fma(y, z2, fma(-w, x2, -0))
        (y, ny2, true, x, nx2), // m22 = fma(-x, x2, fma(-y, y2, 1))
        (6, 0, false, 0, 0),    // t.z
    ]
};

/// The per-lane constants of output vector `s` (0..3) of a group of four
/// joints, as raw 32-bit lanes: the permute indices of `c1`, `c2`, `a`,
/// `b` (joint `p` of the group, lane `k` of its record: index `8p + k`,
/// joints 2 and 3 in the second source) and `c3` (`1.0` or `-0.0`).
const fn lanes(s: usize) -> [[u32; 16]; 5] {
    let mut t = [[0u32; 16]; 5];
    let mut l = 0;
    while l < 16 {
        let f = 16 * s + l;
        let (p, e) = ((f / 12) as u32, f % 12);
        let (c1, c2, one, a, b) = ELEMENT[e];
        t[0][l] = 8 * p + c1;
        t[1][l] = 8 * p + c2;
        t[2][l] = 8 * p + a;
        t[3][l] = 8 * p + b;
        t[4][l] = if one { 1.0f32.to_bits() } else { (-0.0f32).to_bits() };
        l += 1;
    }
    t
}

/// [`lanes`] of the three output vectors.
static LANES: [[[u32; 16]; 5]; 3] = [lanes(0), lanes(1), lanes(2)];

/// The constants of [`LANES`], [`SIGNED_FROM`] and [`SIGNED_BY`] in
/// registers.
#[derive(Clone, Copy)]
struct Consts {
    idx: [[__m512i; 4]; 3],
    c3: [__m512; 3],
    signed_from: __m512i,
    signed_by: __m512,
}

/// Loads the constants.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn consts() -> Consts {
    // SAFETY: each array is 16 lanes of 4 bytes, 64 bytes; `loadu` takes
    // any alignment.
    let v = |a: &[u32; 16]| -> __m512i { unsafe { _mm512_loadu_si512(a.as_ptr().cast()) } };
    Consts {
        idx: core::array::from_fn(|s| core::array::from_fn(|k| v(&LANES[s][k]))),
        c3: core::array::from_fn(|s| _mm512_castsi512_ps(v(&LANES[s][4]))),
        signed_from: v(&SIGNED_FROM),
        signed_by: _mm512_castsi512_ps(v(&SIGNED_BY.map(f32::to_bits))),
    }
}

/// Four joints: the three output vectors (48 floats, four matrices) from
/// the two input vectors `q0 = [q_0 t_0 q_1 t_1]`, `q1 = [q_2 t_2 q_3 t_3]`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn group(k: &Consts, q0: __m512, q1: __m512) -> [__m512; 3] {
    let d0 = _mm512_mul_ps(_mm512_permutexvar_ps(k.signed_from, q0), k.signed_by);
    let d1 = _mm512_mul_ps(_mm512_permutexvar_ps(k.signed_from, q1), k.signed_by);
    core::array::from_fn(|s| {
        let [i_c1, i_c2, i_a, i_b] = k.idx[s];
        let c1 = _mm512_permutex2var_ps(q0, i_c1, q1);
        let c2 = _mm512_permutex2var_ps(d0, i_c2, d1);
        let c = _mm512_fmadd_ps(c1, c2, k.c3[s]);
        let a = _mm512_permutex2var_ps(q0, i_a, q1);
        let b = _mm512_permutex2var_ps(d0, i_b, d1);
        // The translation lanes take `c1`: the `t` component, untouched.
        _mm512_mask_blend_ps(MAT, c1, _mm512_fmadd_ps(a, b, c))
    })
}

/// The mask of the first `n` (at most 16) lanes.
#[inline]
fn first(n: usize) -> __mmask16 {
    ((1u32 << n.min(16)) - 1) as __mmask16
}

/// `ConvertJointQuatsToJointMats` for AVX-512: writes section 3's matrix of
/// `joint_quats[i]` into `joint_mats[i]` for `i` in `0..num_joints`, sixteen
/// joints per iteration, the last 1 to 15 four at a time with masked loads
/// and stores. A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// The CPU must support AVX-512 F, VL, DQ and BW. If `num_joints > 0`:
/// `joint_quats` is valid for reads of `num_joints` [`JointQuat`] and
/// `joint_mats` for writes of `num_joints` [`JointMat`], both aligned for
/// their types (16 bytes; no more is needed), and the two lists do not
/// overlap.
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    let n = num_joints.max(0) as usize;
    let (qf, mf) = (joint_quats.cast::<f32>(), joint_mats.cast::<f32>());
    let k = consts();
    let mut i = 0;
    while i + 16 <= n {
        for g in (i..i + 16).step_by(4) {
            // SAFETY: joints `g..g + 4` are inside the lists (`g + 4 <= n`):
            // floats `8g..8g + 32` of the quaternions and `12g..12g + 48` of
            // the matrices (caller's contract); `loadu`/`storeu` take any
            // alignment.
            unsafe {
                let q = qf.add(8 * g);
                let out = group(&k, _mm512_loadu_ps(q), _mm512_loadu_ps(q.add(16)));
                let m = mf.add(12 * g);
                _mm512_storeu_ps(m, out[0]);
                _mm512_storeu_ps(m.add(16), out[1]);
                _mm512_storeu_ps(m.add(32), out[2]);
            }
        }
        i += 16;
    }
    while i < n {
        let rem = (n - i).min(4);
        // The floats of the `rem` joints: `8 rem` quaternion floats, `12 rem`
        // matrix floats. The addresses are computed with `wrapping_add`:
        // those past the lists are only ever used with an empty mask, and
        // then not at all (the call is skipped).
        let q = qf.wrapping_add(8 * i);
        let m = mf.wrapping_add(12 * i);
        let (mask_q0, mask_q1) = (first(8 * rem), first((8 * rem).saturating_sub(16)));
        // SAFETY: a masked load reads only the lanes of its mask, here the
        // floats `8i..8i + 8 rem` of the quaternions, inside the list
        // (`i + rem <= n`, caller's contract), and does not fault on the
        // others; the second load is skipped when its mask is empty.
        let (q0, q1) = unsafe {
            let q0 = _mm512_maskz_loadu_ps(mask_q0, q);
            let q1 =
                if mask_q1 != 0 { _mm512_maskz_loadu_ps(mask_q1, q.wrapping_add(16)) } else { _mm512_setzero_ps() };
            (q0, q1)
        };
        let out = group(&k, q0, q1);
        for (s, v) in out.into_iter().enumerate() {
            let mask = first((12 * rem).saturating_sub(16 * s));
            if mask != 0 {
                // SAFETY: a masked store writes only the lanes of its mask,
                // here matrix floats below `12 (i + rem)`, inside the list
                // (caller's contract); the lanes of joints beyond `n` were
                // computed from zeros and are not written.
                unsafe { _mm512_mask_storeu_ps(m.wrapping_add(16 * s), mask, v) };
            }
        }
        i += rem;
    }
}
