//! The 16-lane pieces that the AVX-512 successors of `slerp_joints` and
//! `lerp_joints` (`Impl::Avx512`) share: the joint-pair layout of whole
//! joints, the dot products of sixteen joints as one SoA register, the
//! broadcast of a SoA lane back over its joint, the slerp arithmetic of
//! Appendix A (`SlerpOptimized`) on sixteen lanes with fused multiply-adds,
//! and the list-order rule for duplicate index entries on blocks of sixteen.
//!
//! **Layout.** A block handles sixteen joints `j0..j15` (sixteen index
//! entries). A *joint-pair register* `J_i` (`i` in `0..8`) holds the whole
//! 32-byte joints `j(2i)` (floats 0 to 7: `q` then `t`) and `j(2i+1)`
//! (floats 8 to 15): one 256-bit load and one `vinsertf64x4` from memory
//! ([`load_joints`]), stored back with one 256-bit store and one
//! `vextractf32x8` to memory ([`store_joints`]). The rotation lanes are the
//! mask [`QLANES`] (`0x0F0F`), the translation lanes [`TLANES`] (`0xF0F0`).
//! [`dots`] multiplies the eight pairs, picks the rotation lanes of two
//! product registers into one with a two-source permute (`vpermt2ps`, four
//! per block), and sums the four resulting registers in-lane (six
//! shuffles, three adds, as `crate::x86::slerp_core8::hsum4`), so that lane
//! `4m + k` of the SoA register is joint `j(4k + m)`; [`spread`] broadcasts
//! the SoA lanes of joints `j(2i)` and `j(2i+1)` over the floats of `J_i`
//! (one `vpermps` with a constant index). When the sixteen joints of a
//! block are consecutive (`pipeline16::block_joints`: a run of the index), [`load_block`]
//! reads the eight registers as eight 64-byte loads, with no insert.
//!
//! **Pipelining** (`crate::x86::pipeline16`): blocks of distinct joints
//! (the strictly increasing prefix of the index) run in three
//! software-pipelined stages, so that one block's long dependency chain
//! sits between other blocks' independent loads and stores.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm and its coefficients). Port licensed under the GNU LGPL 2.1 or
//! later.

use crate::consts::{
    Align16, SIMD_SP_ABS_MASK, SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4,
    SIMD_SP_ATAN_C5, SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_ONE, SIMD_SP_POLY_FLOOR,
    SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0, SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4, SIMD_SP_TINY,
};
use crate::types::JointQuat;
use core::arch::x86_64::*;

/// Joints per block.
pub(crate) const BLOCK: usize = 16;

/// The rotation (`q`) lanes of a joint-pair register.
pub(crate) const QLANES: __mmask16 = 0x0F0F;
/// The translation (`t`) lanes of a joint-pair register.
pub(crate) const TLANES: __mmask16 = 0xF0F0;

/// `_mm512_shuffle_ps` immediate `R_SHUFFLE_PS( 0, 2, 0, 2 )`: the even
/// floats of each 128-bit lane of `a`, then of `b`.
const EVEN: i32 = crate::x86::shuffle::r_shuffle_ps(0, 2, 0, 2);
/// `R_SHUFFLE_PS( 1, 3, 1, 3 )`: the odd floats.
const ODD: i32 = crate::x86::shuffle::r_shuffle_ps(1, 3, 1, 3);

/// The two-source permute indices of [`dots`]: the rotation lanes of the
/// first source (floats 0-3 and 8-11) and then of the second (16 + the
/// same).
static PICK_Q: [u32; 16] = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];

/// The SoA lane of joint `n` (0..16) of a block: [`dots`] puts joint `4k +
/// m` in lane `4m + k`.
const fn soa_lane(n: usize) -> u32 {
    (4 * (n % 4) + n / 4) as u32
}

/// The [`spread`] indices of joint-pair register `i`: floats 0-7 from the
/// SoA lane of joint `2i`, floats 8-15 from that of joint `2i + 1`.
const fn spread_index(i: usize) -> [u32; 16] {
    let mut t = [0u32; 16];
    let mut l = 0;
    while l < 16 {
        t[l] = soa_lane(2 * i + l / 8);
        l += 1;
    }
    t
}

/// [`spread_index`] of the eight joint-pair registers.
static SPREAD: [[u32; 16]; 8] = [
    spread_index(0),
    spread_index(1),
    spread_index(2),
    spread_index(3),
    spread_index(4),
    spread_index(5),
    spread_index(6),
    spread_index(7),
];

/// Sixteen 32-bit lanes as a register (unaligned load of a constant).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) fn lanes(a: &[u32; 16]) -> __m512i {
    // SAFETY: `a` is 16 lanes of 4 bytes, 64 readable bytes; `loadu` takes
    // any alignment.
    unsafe { _mm512_loadu_si512(a.as_ptr().cast()) }
}

/// A float constant of `src/x86/consts.rs` in all sixteen lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) fn splat(c: &'static Align16<[f32; 4]>) -> __m512 {
    _mm512_set1_ps(c.0[0])
}

/// A bit-pattern constant of `src/x86/consts.rs` in all sixteen lanes.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) fn splat_bits(c: &'static Align16<[u32; 4]>) -> __m512 {
    _mm512_castsi512_ps(_mm512_set1_epi32(c.0[0] as i32))
}

/// `[f(0), .., f(N - 1)]` of `__m512` for the `N` of the enclosing
/// function: one step of `N` independent blocks, written so that the steps
/// of the blocks interleave in program order (as `slerp_core8::each`).
macro_rules! each16 {
    (|$v:ident| $e:expr) => {{
        let mut out = [core::arch::x86_64::_mm512_setzero_ps(); N];
        for $v in 0..N {
            out[$v] = $e;
        }
        out
    }};
}
pub(crate) use each16;

/// The byte offsets of the joints named by the `16 N` entries at `idx`
/// (`j · 32`, scalar: the offsets are used as scalars): exact in a `u32`, as `j <
/// MAX_JOINTS = 2^27`. Each entry is read with a volatile load, which keeps
/// the loop scalar: LLVM had vectorised it (one 512-bit load and shift,
/// then a `vpextrd` per entry, two micro-ops each on ports 0 and 5, which
/// the 512-bit arithmetic needs: the slerp ran 1.14x faster without them).
///
/// # Safety
///
/// `idx` points to `16 N` readable `i32`, each in `0..2^27`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn offsets<const N: usize>(idx: *const i32) -> [[u32; BLOCK]; N] {
    let mut off = [[0u32; BLOCK]; N];
    for (v, o) in off.iter_mut().enumerate() {
        for (e, oe) in o.iter_mut().enumerate() {
            // SAFETY: entry `16 v + e < 16 N` of `idx` is readable (caller's
            // contract).
            *oe = (unsafe { idx.add(BLOCK * v + e).read_volatile() } as u32) << 5;
        }
    }
    off
}

/// The joint of `list` at the byte offset `off` (an entry of [`offsets`],
/// kept on the stack and read at each use: one load micro-op, where keeping
/// the `16 N` offsets in the 14 free general registers made the compiler
/// spill and reload them with extra moves), as a float pointer (address
/// arithmetic only).
#[inline(always)]
pub(crate) fn at(list: *const JointQuat, off: &u32) -> *mut f32 {
    let o = *off as usize;
    list.cast::<u8>().wrapping_add(o).cast::<f32>().cast_mut()
}

/// The joint-pair register of the whole joints at `lo` (floats 0-7) and
/// `hi` (floats 8-15): `vmovups ymm, [lo]` + `vinsertf64x4 zmm, zmm, [hi],
/// 1`. (Reading each joint as two 16-byte halves, which never cross a
/// cache line, does not survive: LLVM merges the two loads into one.)
///
/// # Safety
///
/// `lo` and `hi` are each valid for a 32-byte read (no alignment needed).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn load_joints(lo: *const f32, hi: *const f32) -> __m512 {
    // SAFETY: the caller guarantees both 32-byte reads.
    unsafe { _mm512_insertf32x8::<1>(_mm512_castps256_ps512(_mm256_loadu_ps(lo)), _mm256_loadu_ps(hi)) }
}

/// Joint-pair register `i` of a block of `list`: the joints at the byte
/// offsets `off[2i]` and `off[2i + 1]` ([`load_joints`]).
///
/// # Safety
///
/// Both offsets address a valid joint of `list` for reads.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn load_pair(list: *const JointQuat, off: &[u32; BLOCK], i: usize) -> __m512 {
    // SAFETY: the caller guarantees both joints.
    unsafe { load_joints(at(list, &off[2 * i]), at(list, &off[2 * i + 1])) }
}

/// The eight joint-pair registers of a block of `list` whose joints are at
/// the byte offsets `off` ([`load_pair`] for each): as eight 64-byte loads
/// when `run` (`pipeline16::block_joints`: the sixteen joints are consecutive, 512
/// bytes, and only `off[0]` need be filled),
/// with no `vinsertf64x4`; else a 256-bit load and an insert per register.
/// The same floats either way.
///
/// # Safety
///
/// `run` is whether the sixteen joints are consecutive; they (at the
/// offsets `off`, or for a run the sixteen from `off[0]`) are valid joints
/// of `list` for reads.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn load_block(list: *const JointQuat, off: &[u32; BLOCK], run: bool) -> [__m512; 8] {
    let mut r = [_mm512_setzero_ps(); 8];
    // SAFETY: the caller guarantees the sixteen joints; when they are
    // consecutive, the 512 bytes from the first are the sixteen joints.
    unsafe {
        if run {
            let p = at(list, &off[0]);
            for (i, ri) in r.iter_mut().enumerate() {
                *ri = _mm512_loadu_ps(p.add(16 * i));
            }
        } else {
            for (i, ri) in r.iter_mut().enumerate() {
                *ri = load_pair(list, off, i);
            }
        }
    }
    r
}

/// Stores the eight joint-pair registers `r` of a block to the joints at
/// the byte offsets `off` of `list` ([`store_pair`] for each): as eight
/// 64-byte stores when `run` (`pipeline16::block_joints`: the sixteen joints are
/// consecutive; measured 3-10% faster than the 16-byte stores, though a
/// list that is not 64-byte aligned splits every one across two cache
/// lines), else two 16-byte stores per joint.
///
/// # Safety
///
/// `run` is whether the sixteen joints are consecutive; they (at the
/// offsets `off`, or for a run the sixteen from `off[0]`) are valid joints
/// of `list` for writes.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn store_block(list: *mut JointQuat, off: &[u32; BLOCK], run: bool, r: &[__m512; 8]) {
    // SAFETY: the caller guarantees the sixteen joints; when they are
    // consecutive, the 512 bytes from the first are the sixteen joints.
    unsafe {
        if run {
            let p = at(list, &off[0]);
            for (i, ri) in r.iter().enumerate() {
                _mm512_storeu_ps(p.add(16 * i), *ri);
            }
        } else {
            for (i, ri) in r.iter().enumerate() {
                store_pair(list, off, i, *ri);
            }
        }
    }
}

/// Stores joint-pair register `v` to the joints at the byte offsets
/// `off[2i]` and `off[2i + 1]` of `list` ([`store_joints`]).
///
/// # Safety
///
/// Both offsets address a valid joint of `list` for writes.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn store_pair(list: *mut JointQuat, off: &[u32; BLOCK], i: usize, v: __m512) {
    // SAFETY: the caller guarantees both joints.
    unsafe { store_joints(at(list, &off[2 * i]), at(list, &off[2 * i + 1]), v) }
}

/// Stores floats 0-7 of `v` at `lo` and floats 8-15 at `hi`, each joint
/// as two 16-byte stores (`vmovups [p], xmm` + `vextractf32x4 [p + 16],
/// zmm, k`): a `JointQuat` is 16-byte aligned, so a 16-byte store never
/// crosses a cache line where a 32-byte one can (every other joint of a
/// list whose start is an odd multiple of 16).
///
/// # Safety
///
/// `lo` and `hi` are each valid for a 32-byte write (no alignment needed).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn store_joints(lo: *mut f32, hi: *mut f32, v: __m512) {
    // SAFETY: the caller guarantees both 32-byte writes; unaligned stores.
    unsafe {
        _mm256_storeu2_m128(lo.add(4), lo, _mm512_castps512_ps256(v));
        _mm256_storeu2_m128(hi.add(4), hi, _mm512_extractf32x8_ps::<1>(v));
    }
}

/// The four-float sums of four registers, in-lane: lane `k` of 128-bit
/// lane `m` of the result is `(x + y) + (z + w)` of 128-bit lane `m` of
/// `p[k]` (six in-lane shuffles and three adds; `slerp_core8::hsum4` on
/// sixteen lanes).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) fn hsum4(p: &[__m512; 4]) -> __m512 {
    let u01 = _mm512_add_ps(_mm512_shuffle_ps::<EVEN>(p[0], p[1]), _mm512_shuffle_ps::<ODD>(p[0], p[1]));
    let u23 = _mm512_add_ps(_mm512_shuffle_ps::<EVEN>(p[2], p[3]), _mm512_shuffle_ps::<ODD>(p[2], p[3]));
    _mm512_add_ps(_mm512_shuffle_ps::<EVEN>(u01, u23), _mm512_shuffle_ps::<ODD>(u01, u23))
}

/// The sixteen rotation dot products `(ax·bx + ay·by) + (az·bz + aw·bw)`
/// (products rounded) of the joint-pair registers `a[i]` and `b[i]`, as
/// one SoA register (joint `4k + m` of the block in lane `4m + k`); with
/// `b` equal to `a`, the squared norms. Two joint-pair registers' rotation
/// lanes are picked into one by a two-source permute (`vpermt2ps`).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) fn dots(a: &[__m512; 8], b: &[__m512; 8]) -> __m512 {
    // Loops, not `core::array::from_fn`: closures do not inherit
    // `#[target_feature]` and are not always inlined.
    let mut q = [_mm512_setzero_ps(); 4];
    for c in 0..4 {
        let (p0, p1) = (_mm512_mul_ps(a[2 * c], b[2 * c]), _mm512_mul_ps(a[2 * c + 1], b[2 * c + 1]));
        q[c] = _mm512_permutex2var_ps(p0, lanes(&PICK_Q), p1);
    }
    hsum4(&q)
}

/// The SoA lanes of joints `j(2i)` and `j(2i+1)` of `v`, broadcast over
/// floats 0-7 and 8-15: the layout of joint-pair register `i`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) fn spread(i: usize, v: __m512) -> __m512 {
    _mm512_permutexvar_ps(lanes(&SPREAD[i]), v)
}

/// The signed scales `(scale0, scale1)` of `SlerpOptimized` for `N`
/// registers of sixteen dot products `cosom` at `lerp` (broadcast):
/// `crate::x86::slerp_core8::slerp_scales` on sixteen lanes, the same
/// operations in the same order (the portable successor's steps 2 to 9),
/// with the lane choices made by mask registers: `1 - cos²` in one
/// `vfnmadd`, `±0` patched to `SIMD_SP_tiny` (a masked blend) and anything
/// else made positive; `sin = vsqrtps`, `sinom = 1 / sin` and `min / max`
/// correctly rounded (`vdivps`, no estimates); the atan selection by
/// `min`/`max`/`cmpeq` (its sign flip and `π/2` offset masked); Estrin's
/// scheme for both polynomials; `scale1` negated (masked `vxorps`) where
/// `cosom < 0`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) fn slerp_scales<const N: usize>(cosom: [__m512; N], lerp: __m512) -> ([__m512; N], [__m512; N]) {
    let sign_bit = splat_bits(&SIMD_SP_SIGN_BIT);
    let abs_mask = splat_bits(&SIMD_SP_ABS_MASK);
    let one = splat(&SIMD_SP_ONE);
    let zero = _mm512_setzero_ps();
    // scale1's sign: negative where cosom < 0 (false for -0.0 and NaN).
    let mut flip = [0 as __mmask16; N];
    for v in 0..N {
        flip[v] = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(cosom[v], zero);
    }
    let abs_cos: [__m512; N] = each16!(|v| _mm512_and_ps(cosom[v], abs_mask));

    // sinSqr = 1 - cos², patched as the listing does.
    let sin_sqr: [__m512; N] = each16!(|v| _mm512_fnmadd_ps(cosom[v], cosom[v], one));
    let sin_sqr: [__m512; N] = each16!(|v| _mm512_mask_blend_ps(
        _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(sin_sqr[v], zero),
        _mm512_and_ps(sin_sqr[v], abs_mask),
        splat(&SIMD_SP_TINY)
    ));
    let sin: [__m512; N] = each16!(|v| _mm512_sqrt_ps(sin_sqr[v]));
    let sinom: [__m512; N] = each16!(|v| _mm512_div_ps(one, sin[v]));

    // omega = ATanPositive( y = sin, x = |cos| ), the listing's selection.
    let min: [__m512; N] = each16!(|v| _mm512_min_ps(abs_cos[v], sin[v]));
    let max: [__m512; N] = each16!(|v| _mm512_max_ps(sin[v], abs_cos[v]));
    let mut y_ge_x = [0 as __mmask16; N];
    for v in 0..N {
        y_ge_x[v] = _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(abs_cos[v], min[v]);
    }
    let a: [__m512; N] = each16!(|v| {
        let d = _mm512_div_ps(min[v], max[v]);
        _mm512_mask_xor_ps(d, y_ge_x[v], d, sign_bit)
    });
    let offset: [__m512; N] = each16!(|v| _mm512_maskz_mov_ps(y_ge_x[v], splat(&SIMD_SP_HALF_PI)));
    // s = max(2^-24, a²), NaN kept: the AVX2 core's floor.
    let s: [__m512; N] = each16!(|v| _mm512_max_ps(splat(&SIMD_SP_POLY_FLOOR), _mm512_mul_ps(a[v], a[v])));
    let s2: [__m512; N] = each16!(|v| _mm512_mul_ps(s[v], s[v]));
    let s4: [__m512; N] = each16!(|v| _mm512_mul_ps(s2[v], s2[v]));
    let a01: [__m512; N] = each16!(|v| _mm512_fmadd_ps(splat(&SIMD_SP_ATAN_C0), s[v], splat(&SIMD_SP_ATAN_C1)));
    let a23: [__m512; N] = each16!(|v| _mm512_fmadd_ps(splat(&SIMD_SP_ATAN_C2), s[v], splat(&SIMD_SP_ATAN_C3)));
    let a45: [__m512; N] = each16!(|v| _mm512_fmadd_ps(splat(&SIMD_SP_ATAN_C4), s[v], splat(&SIMD_SP_ATAN_C5)));
    let a67: [__m512; N] = each16!(|v| _mm512_fmadd_ps(splat(&SIMD_SP_ATAN_C6), s[v], splat(&SIMD_SP_ATAN_C7)));
    let b03: [__m512; N] = each16!(|v| _mm512_fmadd_ps(a01[v], s2[v], a23[v]));
    let b47: [__m512; N] = each16!(|v| _mm512_fmadd_ps(a45[v], s2[v], a67[v]));
    let q: [__m512; N] = each16!(|v| _mm512_fmadd_ps(b03[v], s4[v], b47[v]));
    let p: [__m512; N] = each16!(|v| _mm512_fmadd_ps(q[v], s[v], one));
    let omega: [__m512; N] = each16!(|v| _mm512_fmadd_ps(p[v], a[v], offset[v]));

    let omega1: [__m512; N] = each16!(|v| _mm512_mul_ps(lerp, omega[v]));
    let omega0: [__m512; N] = each16!(|v| _mm512_sub_ps(omega[v], omega1[v]));

    // SinZeroHalfPI of both angles.
    let mut scale = [omega0, omega1];
    for w in &mut scale {
        let x: [__m512; N] = each16!(|v| _mm512_max_ps(splat(&SIMD_SP_POLY_FLOOR), _mm512_mul_ps(w[v], w[v])));
        let x2: [__m512; N] = each16!(|v| _mm512_mul_ps(x[v], x[v]));
        let a01: [__m512; N] = each16!(|v| _mm512_fmadd_ps(splat(&SIMD_SP_SIN_C0), x[v], splat(&SIMD_SP_SIN_C1)));
        let a23: [__m512; N] = each16!(|v| _mm512_fmadd_ps(splat(&SIMD_SP_SIN_C2), x[v], splat(&SIMD_SP_SIN_C3)));
        let b: [__m512; N] = each16!(|v| _mm512_fmadd_ps(a01[v], x2[v], a23[v]));
        let c: [__m512; N] = each16!(|v| _mm512_fmadd_ps(b[v], x[v], splat(&SIMD_SP_SIN_C4)));
        let p: [__m512; N] = each16!(|v| _mm512_fmadd_ps(c[v], x[v], one));
        *w = each16!(|v| _mm512_mul_ps(_mm512_mul_ps(w[v], p[v]), sinom[v]));
    }
    let [scale0, scale1] = scale;
    (scale0, each16!(|v| _mm512_mask_xor_ps(scale1[v], flip[v], scale1[v], sign_bit)))
}

/// `v` rotated by `K` lanes: lane `i` of the result is lane `(i + K) mod
/// 16` of `v` (one `vpermd`).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn rot<const K: u32>(v: __m512i) -> __m512i {
    let idx: [u32; 16] = core::array::from_fn(|i| (i as u32 + K) & 15);
    _mm512_permutexvar_epi32(lanes(&idx), v)
}

/// The lanes of `v` that equal another lane of `v` (every pair of lanes is
/// compared by the rotations by 1 to 8).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn equal_within(v: __m512i) -> __mmask16 {
    let e = |r: __m512i| _mm512_cmpeq_epi32_mask(v, r);
    e(rot::<1>(v))
        | e(rot::<2>(v))
        | e(rot::<3>(v))
        | e(rot::<4>(v))
        | e(rot::<5>(v))
        | e(rot::<6>(v))
        | e(rot::<7>(v))
        | e(rot::<8>(v))
}

/// The lanes of `a` that equal some lane of `b` (`a` against the sixteen
/// rotations of `b`).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn equal_across(a: __m512i, b: __m512i) -> __mmask16 {
    let e = |r: __m512i| _mm512_cmpeq_epi32_mask(a, r);
    let m0 = e(b) | e(rot::<1>(b)) | e(rot::<2>(b)) | e(rot::<3>(b));
    let m1 = e(rot::<4>(b)) | e(rot::<5>(b)) | e(rot::<6>(b)) | e(rot::<7>(b));
    let m2 = e(rot::<8>(b)) | e(rot::<9>(b)) | e(rot::<10>(b)) | e(rot::<11>(b));
    let m3 = e(rot::<12>(b)) | e(rot::<13>(b)) | e(rot::<14>(b)) | e(rot::<15>(b));
    m0 | m1 | m2 | m3
}

/// Whether the `16 N` entries at `idx` name some joint twice. A strictly
/// increasing run of entries (a sorted index, the common case) is
/// recognised first: each block compared with the entries one further on
/// (the last block's last lane left out by the mask of a masked load, which
/// reads nothing past the group); otherwise every pair of entries is
/// compared ([`equal_within`], [`equal_across`]).
///
/// # Safety
///
/// `idx` points to `16 N` readable `i32`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn group_repeats<const N: usize>(idx: *const i32) -> bool {
    // SAFETY: every load reads entries of `idx[0..16 N]`: block `b` at
    // `16 b`, its successors at `16 b + 1` (lanes up to entry `16 b + 16`,
    // and for the last block only the 15 lanes up to `16 N - 1`, masked)
    // (caller's contract).
    unsafe {
        let mut v = [_mm512_setzero_si512(); N];
        for (b, vb) in v.iter_mut().enumerate() {
            *vb = _mm512_loadu_si512(idx.add(16 * b).cast());
        }
        let mut inc: __mmask16 = 0xFFFF;
        for (b, vb) in v.iter().enumerate() {
            let m: __mmask16 = if b + 1 == N { 0x7FFF } else { 0xFFFF };
            let next = _mm512_maskz_loadu_epi32(m, idx.add(16 * b + 1));
            inc &= _mm512_mask_cmpgt_epi32_mask(m, next, *vb) | !m;
        }
        if inc == 0xFFFF {
            return false;
        }
        let mut m: __mmask16 = 0;
        for b in 0..N {
            m |= equal_within(v[b]);
            for c in b + 1..N {
                m |= equal_across(v[b], v[c]);
            }
        }
        m != 0
    }
}

/// Whether the first `m` (1 to 16) of the sixteen entries in `v` name some
/// joint twice. The lanes from `m` on (a padded block's copies of its last
/// entry) are replaced by distinct negative values first, so padding is
/// not a repeat.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
fn block_repeats(v: __m512i, m: usize) -> bool {
    let negative: [u32; 16] = core::array::from_fn(|i| (-1 - i as i32) as u32);
    let v = _mm512_mask_mov_epi32(lanes(&negative), first(m), v);
    equal_within(v) != 0
}

/// The mask of the first `n` (at most 16) lanes.
#[inline(always)]
pub(crate) fn first(n: usize) -> __mmask16 {
    ((1u32 << n.min(16)) - 1) as __mmask16
}

/// The one rule for duplicate index entries of the successors, on blocks
/// of sixteen (`crate::x86::slerp_core8::in_list_order` on sixteen lanes):
/// the entries of `index[0..n]` are applied in list order, each
/// interpolating from what the entries before it left, while every joint
/// goes through the same per-lane arithmetic whatever its position.
///
/// `groups` runs `16 N` entries (`N` interleaved blocks) and `block`
/// sixteen, each loading everything before storing anything, so they may
/// run only entries that name distinct joints:
/// - each group of `16 N` entries runs as one `groups` call if its entries
///   are distinct ([`group_repeats`]), else block by block;
/// - after the groups, blocks of sixteen; the last one (1 to 15 entries)
///   is read with a masked load, its other lanes filled with the last entry
///   (a padding lane repeats that joint's loads, arithmetic and stores, so
///   nothing outside what the index names is touched);
/// - a block whose entries are distinct ([`block_repeats`]: the padding
///   does not count) runs as one `block` call, else entry by entry, each
///   entry as a block of sixteen copies of itself.
///
/// # Safety
///
/// `index` points to `n` readable `i32`, none negative; `groups` and `block`
/// are sound for any pointer to `16 N` (resp. sixteen) entries of `index`
/// (or copies of them).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
pub(crate) unsafe fn in_list_order<const N: usize>(
    index: *const i32,
    n: usize,
    mut groups: impl FnMut(*const i32),
    mut block: impl FnMut(*const i32),
) {
    let g = BLOCK * N;
    let mut i = 0;
    // SAFETY: entries `i..i + 16 N` (resp. the blocks' entries) are readable
    // as each call needs (caller's contract, `i + 16 N <= n`); the masked
    // load of the last block reads only its `n - i` entries.
    unsafe {
        while n - i >= g {
            let idx = index.add(i);
            if group_repeats::<N>(idx) {
                for b in 0..N {
                    block_in_list_order(idx.add(BLOCK * b), BLOCK, &mut block);
                }
            } else {
                groups(idx);
            }
            i += g;
        }
        while i < n {
            let m = (n - i).min(BLOCK);
            if m == BLOCK {
                block_in_list_order(index.add(i), BLOCK, &mut block);
            } else {
                let last = _mm512_set1_epi32(*index.add(n - 1));
                let v = _mm512_mask_loadu_epi32(last, first(m), index.add(i));
                let mut pad = [0i32; BLOCK];
                _mm512_storeu_si512(pad.as_mut_ptr().cast(), v);
                block_in_list_order(pad.as_ptr(), m, &mut block);
            }
            i += BLOCK;
        }
    }
}

/// One block of [`in_list_order`]: the sixteen entries at `idx`, of which
/// the first `m` are real, as one `block` call or, if two real entries name
/// the same joint, entry by entry.
///
/// # Safety
///
/// `idx` points to sixteen readable `i32`, the first `m` (1 to 16) not
/// negative; `block` is sound for `idx` and for sixteen copies of any of
/// its entries.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw")]
unsafe fn block_in_list_order(idx: *const i32, m: usize, block: &mut impl FnMut(*const i32)) {
    // SAFETY: sixteen entries at `idx`, `m` real (caller's contract).
    unsafe {
        if block_repeats(_mm512_loadu_si512(idx.cast()), m) {
            for e in 0..m {
                let one = [*idx.add(e); BLOCK];
                block(one.as_ptr());
            }
        } else {
            block(idx);
        }
    }
}
