//! The successor of Appendix B (`ConvertJointMatsToJointQuats`) for a core
//! with AVX-512 (F, VL, DQ, BW): sixteen matrices per iteration in
//! structure-of-arrays form, branch-free with mask registers, with
//! `core::arch::x86_64` intrinsics.
//!
//! **What the form is.** The 16 matrices are 48 rows of four floats, one
//! after the other. A 512-bit load at row `3j + r` holds row `r` of joint
//! `j` in its first 128-bit lane and row `r` of joint `j + 1` in its last,
//! so one two-source permute (`vpermt2ps`, `_mm512_permutex2var_ps`) of two
//! such loads picks row `r` of four joints straight from the loaded
//! matrices: `X(r, i) = [row r of 4i, 4i + 2, 4i + 1, 4i + 3]`. Half of the
//! twelve `X` (`i >= 2`, `FROM_INSERTS`) are built instead from 16-byte
//! loads and inserts (LLVM emits `vinsertf32x4` from memory into 256-bit
//! halves and joins them with `vinsertf64x4` or `vshuff64x2`), which moves
//! part of the gathering off the shuffle port. An in-lane 4x4 transpose of `X(r, 0..4)` (four `vunpck*ps`, three
//! `vunpck*pd`) gives the sixteen-lane `m_r0 m_r1 m_r2` (lane `4p + i` is
//! the joint of lane `p` of `X(r, i)`): 21 in-lane shuffles for the nine
//! vectors. The blueprint of section 4 then runs on sixteen lanes, as
//! [`super::avx2`] runs it on eight, with what AVX-512 adds: the four
//! `cmpnltps` write mask registers (`c1` with a masked compare, the `and`
//! for free), the case bits `b0 nb1` and the sign conditions are mask
//! operations, the sign multipliers `s0 s1 s2` are `±1` vectors made by
//! masked blends and enter the sums as exact products (`s0 m00 + s1 m11`
//! is one `vfmadd` of `m00 * s0` on the exact `m11 * s1`, `m01 - s2 m10`
//! one `vfnmadd`), `s = 0.5 / sqrt(t)` is `vsqrtps` and `vdivps`
//! (correctly rounded, no estimate), and the store order `q[c] = v[c ^ e]`
//! is two layers of `vblendmps` on the masks. The inverse in-lane transpose
//! (eight shuffles) gives `Q(i) = [q of 4i, 4i + 2, 4i + 1, 4i + 3]`; the
//! translations of two joints are one `vpermt2ps` of two of the loads
//! already in registers (`t.w = +0.0` from its zero mask); joints `4i, 4i +
//! 1` are a blend of `Q(i)` into them, joints `4i + 2, 4i + 3` a masked
//! permute of `Q(i)`'s lanes 1 and 3 into them (`SHIFT`), two full
//! stores. Per 16 joints: 6 `vpermt2ps` and 18 inserts or joins to
//! gather, 21 + 8 in-lane shuffles, 12 permutes out, 4 compares, about 30
//! arithmetic and blend operations, 8 stores. A tail of 1 to 15 joints goes through the
//! same block once, with masked loads (`_mm512_maskz_loadu_ps`: the lanes
//! past the last matrix are zero, never read) and masked stores
//! (`_mm512_mask_storeu_ps`: nothing written past the last joint): no
//! stack copy, no access outside the two lists.
//!
//! **What changed from `Avx2`, and why.** [`super::avx2`] pays for the
//! change of layout with 8 inserts, 39 in-lane shuffles, 4 lane swaps and
//! 12 blends per eight joints, and sends its tail through a zero-padded
//! stack block. Here two-source permutes (and inserts from memory) gather
//! the rows of a kind from the loaded matrices, so sixteen joints take 57
//! shuffle-port operations in all (with LLVM's six joins and the four
//! compares), 3.6 per joint against `Avx2`'s 5.4 (and 4 lane swaps). The
//! arithmetic is the same per lane on twice the lanes, and the masks save
//! the vector `and`/`or`/`xor` of the case choice and the sign-bit `xor`s.
//! The masks replace the stack copy of the tail. Not kept: every `X` by
//! permutes (all gathering on the shuffle port; slower), a third of them
//! by inserts (register spills, slower than `Avx2`), the inserts forced
//! by `asm!` to be `vinsertf32x4` from memory into the full register
//! (slower here than LLVM's halves, though llvm-mca rates it faster), and
//! the quaternions
//! of joints `4i + 2, 4i + 3` written by a masked store over the
//! translations (a masked store overlapping a store to the same line; the
//! same speed here, and slow in `quats_to_mats`'s measurements).
//!
//! **Listing behaviours** are `Avx2`'s (see [`super::avx2`]): E1 and E2
//! kept (`_CMP_NLT_UQ`: `>=`, true for NaN), E3 corrected (`+0.0` for zero
//! components), E4 kept (`t` summed in pairs), no estimate and no
//! Newton-Raphson step, the translation copied bit for bit and `t.w =
//! +0.0`, the 32-bit count corrected (`num_joints <= 0` converts nothing).
//!
//! **The one answer.** No estimate instruction. Every lane computes the
//! order of operations of [`super::portable`]: the comparisons are the same
//! predicate, the sign multipliers are `±1` so `s m` is exact and `fma(m00,
//! s0, s1 m11)` rounds once, exactly as `flip(m00) + flip(m11)`;
//! `fma(m22, s2, 1)` is `flip(m22) + 1`; `fnmadd(s2, m10, m01)` is `m01 -
//! flip(m10)` (one rounding of the same exact value, and the same sign of
//! a zero: IEEE 754 defines `a - b` as `a + (-b)`); the square root, the
//! division, the products and the selection are the same operations. So
//! every quaternion is `Impl::Portable`'s bit for bit on every CPU (NaN
//! bits aside; `tests/golden.rs`), the tail included (each lane depends on
//! its own joint only; padded lanes are computed from zeros and never
//! stored).

use crate::types::{JointMat, JointQuat};
use core::arch::x86_64::*;

/// Row `r` of joints `j, k, j + 1, k + 1` from a load at row `3j + r` (row
/// `r` of `j` in lanes 0..4, of `j + 1` in lanes 12..16) and one at row
/// `3k + r` (second source, indices 16..32).
const ROWS: [u32; 16] = [0, 1, 2, 3, 16, 17, 18, 19, 12, 13, 14, 15, 28, 29, 30, 31];

/// The translations of joints `a, a + 1` from the loads at floats `12a`
/// (first source) and `12a + 8` (second): `m03 m13 m23` of `a` are floats
/// 3, 7, 11, of `a + 1` floats 15, 19 (lane 11 of the second) and 23 (its
/// lane 15), into lanes 4..7 and 12..15 (lanes 7 and 15 zeroed by
/// [`TRANS`]).
const TRANS_IDX: [u32; 16] = [0, 0, 0, 0, 3, 7, 11, 0, 0, 0, 0, 0, 15, 27, 31, 0];
/// Lanes 4..8 and 12..16 (the quaternions of joints `4i + 2`, `4i + 3` in
/// `Q(i)`) into lanes 0..4 and 8..12.
const SHIFT: [u32; 16] = [4, 5, 6, 7, 0, 0, 0, 0, 12, 13, 14, 15, 0, 0, 0, 0];
/// The lanes [`TRANS_IDX`] fills; the others are `+0.0`.
const TRANS: __mmask16 = 0x7070;

/// `X(r, i)` for `i >= FROM_INSERTS` is built from 16-byte loads and
/// inserts rather than a `vpermt2ps` (the shuffle port): two of the four
/// measured fastest (one: spills; none or three: slower).
const FROM_INSERTS: usize = 2;

/// The mask of the first `n` (at most 16) lanes.
#[inline]
fn first(n: usize) -> __mmask16 {
    ((1u32 << n.min(16)) - 1) as __mmask16
}

/// The quaternion floats of sixteen joints, `[x, y, z, w]` in sixteen
/// lanes each (lane `4p + i` is joint `J(p, i)`, see the module
/// documentation), from the nine matrix elements in the same lanes: the
/// successors' order of operations ([`super::portable`]).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn blueprint(m: [[__m512; 3]; 3]) -> [__m512; 4] {
    let [[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]] = m;
    let zero = _mm512_setzero_ps();
    let one = _mm512_set1_ps(1.0);
    let minus_one = _mm512_set1_ps(-1.0);

    // The listing's conditions, `cmpnltps` (true for `>=` and unordered),
    // into mask registers; `c1`'s `and` is the masked compare.
    let trace = _mm512_add_ps(_mm512_add_ps(m00, m11), m22);
    let c0 = _mm512_cmp_ps_mask::<_CMP_NLT_UQ>(trace, zero);
    let c1 = _mm512_mask_cmp_ps_mask::<_CMP_NLT_UQ>(_mm512_cmp_ps_mask::<_CMP_NLT_UQ>(m00, m11), m00, m22);
    let c2 = _mm512_cmp_ps_mask::<_CMP_NLT_UQ>(m11, m22);
    // b0 = w | y (bit 0 of the case number e), nb1 = x | y (bit 1 clear).
    let b0 = c0 | (!c1 & c2);
    let nb1 = !c0 & (c1 | c2);
    // The sign multipliers as `±1`: s0 = -1 where b0 == nb1 (y, z), s1 =
    // -1 where !b0 (x, z), s2 = -1 where nb1 (x, y).
    let s0 = _mm512_mask_blend_ps(!(b0 ^ nb1), one, minus_one);
    let s1 = _mm512_mask_blend_ps(b0, minus_one, one);
    let s2 = _mm512_mask_blend_ps(nb1, one, minus_one);

    // t = (s0 m00 + s1 m11) + (s2 m22 + 1): every product by `±1` is exact,
    // so each fused operation rounds once, as the portable sum does.
    let t = _mm512_add_ps(_mm512_fmadd_ps(m00, s0, _mm512_mul_ps(m11, s1)), _mm512_fmadd_ps(m22, s2, one));
    // s = 0.5 / sqrt(t), both correctly rounded (no estimate).
    let s = _mm512_div_ps(_mm512_set1_ps(0.5), _mm512_sqrt_ps(t));

    // In the order k0..k3; `m01 - s2 m10` is `fnmadd(s2, m10, m01)`.
    let v0 = _mm512_mul_ps(s, t);
    let v1 = _mm512_mul_ps(_mm512_fnmadd_ps(s2, m10, m01), s);
    let v2 = _mm512_mul_ps(_mm512_fnmadd_ps(s1, m02, m20), s);
    let v3 = _mm512_mul_ps(_mm512_fnmadd_ps(s0, m21, m12), s);
    // Component c is v[c ^ e]: swap neighbours where bit 0 of e is set,
    // then pairs where bit 1 is.
    let a0 = _mm512_mask_blend_ps(b0, v0, v1);
    let a1 = _mm512_mask_blend_ps(b0, v1, v0);
    let a2 = _mm512_mask_blend_ps(b0, v2, v3);
    let a3 = _mm512_mask_blend_ps(b0, v3, v2);
    [
        _mm512_mask_blend_ps(nb1, a2, a0),
        _mm512_mask_blend_ps(nb1, a3, a1),
        _mm512_mask_blend_ps(nb1, a0, a2),
        _mm512_mask_blend_ps(nb1, a1, a3),
    ]
}

/// The in-lane transpose of four vectors, the first three of the four
/// results: lane `p` of result `c` is `[a[p][c], b[p][c], c[p][c],
/// d[p][c]]` (seven shuffles).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn transpose3(x: [__m512; 4]) -> [__m512; 3] {
    let s0 = _mm512_castps_pd(_mm512_unpacklo_ps(x[0], x[1]));
    let s1 = _mm512_castps_pd(_mm512_unpackhi_ps(x[0], x[1]));
    let s2 = _mm512_castps_pd(_mm512_unpacklo_ps(x[2], x[3]));
    let s3 = _mm512_castps_pd(_mm512_unpackhi_ps(x[2], x[3]));
    [
        _mm512_castpd_ps(_mm512_unpacklo_pd(s0, s2)),
        _mm512_castpd_ps(_mm512_unpackhi_pd(s0, s2)),
        _mm512_castpd_ps(_mm512_unpacklo_pd(s1, s3)),
    ]
}

/// The in-lane transpose of four vectors (eight shuffles): lane `p` of
/// result `i` is `[x[p][i], y[p][i], z[p][i], w[p][i]]`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn transpose4(x: [__m512; 4]) -> [__m512; 4] {
    let u0 = _mm512_castps_pd(_mm512_unpacklo_ps(x[0], x[1]));
    let u1 = _mm512_castps_pd(_mm512_unpackhi_ps(x[0], x[1]));
    let u2 = _mm512_castps_pd(_mm512_unpacklo_ps(x[2], x[3]));
    let u3 = _mm512_castps_pd(_mm512_unpackhi_ps(x[2], x[3]));
    [
        _mm512_castpd_ps(_mm512_unpacklo_pd(u0, u2)),
        _mm512_castpd_ps(_mm512_unpackhi_pd(u0, u2)),
        _mm512_castpd_ps(_mm512_unpacklo_pd(u1, u3)),
        _mm512_castpd_ps(_mm512_unpackhi_pd(u1, u3)),
    ]
}

/// Sixteen joints: `quats[0..16]` from `mats[0..16]`, or, with `MASKED`,
/// the first `n` (1 to 15): only floats `0..12n` of `mats` are read
/// (masked loads; the others are zero) and only floats `0..8n` of `quats`
/// written (masked stores).
///
/// # Safety
///
/// AVX-512 F, VL, DQ, BW. `mats` valid for reads of 16 (`MASKED`: `n`)
/// [`JointMat`] and `quats` for writes of 16 (`n`) [`JointQuat`], not
/// overlapping.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn block<const MASKED: bool>(quats: *mut f32, mats: *const f32, n: usize) {
    let (n_in, n_out) = if MASKED { (12 * n, 8 * n) } else { (192, 128) };
    // The 16 floats at float `o` of the matrices (zero past `n_in`).
    let load = |o: usize| -> __m512 {
        if !MASKED {
            // SAFETY: `o + 16 <= 192`, inside the 16 matrices (caller);
            // `loadu` takes any alignment.
            return unsafe { _mm512_loadu_ps(mats.add(o)) };
        }
        let mask = first(n_in.saturating_sub(o));
        if mask == 0 {
            return _mm512_setzero_ps();
        }
        // SAFETY: a masked load reads only the lanes of its mask, floats
        // `o..n_in`, inside the `n` matrices (caller), and does not fault
        // on the others; the address is computed with `wrapping_add`.
        unsafe { _mm512_maskz_loadu_ps(mask, mats.wrapping_add(o)) }
    };
    // Stores `v`'s lanes of `lanes` at float `o` of the quaternions (the
    // ones below `n_out` only).
    let store = |o: usize, lanes: __mmask16, v: __m512| {
        let dst = quats.wrapping_add(o);
        if !MASKED && lanes == 0xFFFF {
            // SAFETY: floats `o..o + 16` are inside the 16 joints (caller).
            unsafe { _mm512_storeu_ps(dst, v) };
            return;
        }
        // The lanes at floats `o + l < n_out` (`o` may be 4 below a joint
        // in the list, never below the list: lane 0 is then not in `lanes`).
        let below = if o >= n_out { 0 } else { first(n_out - o) };
        let mask = lanes & below;
        if mask != 0 {
            // SAFETY: a masked store writes only the lanes of its mask,
            // floats inside the first `n` joints (caller), and does not
            // fault on the others; the address is computed with
            // `wrapping_add`.
            unsafe { _mm512_mask_storeu_ps(dst, mask, v) };
        }
    };

    // SAFETY: each array is 16 lanes of 4 bytes; `loadu` takes any
    // alignment.
    let (rows, trans_idx, shift) = unsafe {
        (
            _mm512_loadu_si512(ROWS.as_ptr().cast()),
            _mm512_loadu_si512(TRANS_IDX.as_ptr().cast()),
            _mm512_loadu_si512(SHIFT.as_ptr().cast()),
        )
    };
    // w[i][r][h]: the load at row 3(4i + 2h) + r, float 48i + 24h + 4r.
    let w: [[[__m512; 2]; 3]; 4] =
        core::array::from_fn(|i| core::array::from_fn(|r| core::array::from_fn(|h| load(48 * i + 24 * h + 4 * r))));
    // x[r][i] = [row r of 4i, 4i + 2, 4i + 1, 4i + 3].
    let x: [[__m512; 4]; 3] = core::array::from_fn(|r| {
        core::array::from_fn(|i| {
            if !MASKED && i >= FROM_INSERTS {
                // SAFETY: rows `r` of joints `4i..4i + 4`, floats below 192
                // (caller); 16-byte loads of any alignment.
                unsafe {
                    let row = |j: usize| _mm_loadu_ps(mats.add(48 * i + 12 * j + 4 * r));
                    let v = _mm512_castps128_ps512(row(0));
                    let v = _mm512_insertf32x4::<1>(v, row(2));
                    let v = _mm512_insertf32x4::<2>(v, row(1));
                    _mm512_insertf32x4::<3>(v, row(3))
                }
            } else {
                _mm512_permutex2var_ps(w[i][r][0], rows, w[i][r][1])
            }
        })
    });
    let m = [transpose3(x[0]), transpose3(x[1]), transpose3(x[2])];
    // q[i] = [q of 4i, 4i + 2, 4i + 1, 4i + 3].
    let q = transpose4(blueprint(m));
    for i in 0..4 {
        // The translations of joints 4i + 2h and 4i + 2h + 1 from the loads
        // at floats 48i + 24h and + 8 (rows 0 and 2 of joint 4i + 2h).
        let t0 = _mm512_maskz_permutex2var_ps(TRANS, w[i][0][0], trans_idx, w[i][2][0]);
        let t1 = _mm512_maskz_permutex2var_ps(TRANS, w[i][0][1], trans_idx, w[i][2][1]);
        // Joints 4i, 4i + 1: their quaternions are lanes 0 and 2 of q[i].
        store(32 * i, 0xFFFF, _mm512_mask_blend_ps(0x0F0F, t0, q[i]));
        // Joints 4i + 2, 4i + 3: their quaternions are lanes 1 and 3 of
        // q[i], moved to lanes 0 and 2 by a permute merged into t1.
        store(32 * i + 16, 0xFFFF, _mm512_mask_permutexvar_ps(t1, 0x0F0F, shift, q[i]));
    }
}

/// `ConvertJointMatsToJointQuats` for AVX-512: writes the quaternion of the
/// rotation part of `joint_mats[i]` (paper convention) and its translation
/// `(m03, m13, m23, 0)` into `joint_quats[i]` for `i` in `0..num_joints`,
/// sixteen joints per iteration, the last 1 to 15 through the same block
/// with masked loads and stores. A `num_joints <= 0` converts nothing.
///
/// # Safety
///
/// The CPU must support AVX-512 F, VL, DQ and BW. If `num_joints > 0`:
/// `joint_mats` is valid for reads of `num_joints` [`JointMat`] and
/// `joint_quats` for writes of `num_joints` [`JointQuat`], both aligned for
/// their types (the kernel needs no alignment), and the two lists do not
/// overlap.
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    let n = num_joints.max(0) as usize;
    let (qf, mf) = (joint_quats.cast::<f32>(), joint_mats.cast::<f32>());
    let mut i = 0;
    while i + 16 <= n {
        // SAFETY: joints `i..i + 16` are inside both lists (caller's
        // contract), which do not overlap.
        unsafe { block::<false>(qf.add(8 * i), mf.add(12 * i), 16) };
        i += 16;
    }
    if i < n {
        // SAFETY: joints `i..n` are inside both lists; the masked block
        // touches no float outside them. The addresses are in the lists
        // (`i < n`).
        unsafe { block::<true>(qf.add(8 * i), mf.add(12 * i), n - i) };
    }
}
