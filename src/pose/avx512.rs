//! `Impl::Avx512` (AVX-512 F, VL, DQ, BW): the whole pose fused, sixteen
//! joints to a register.
//!
//! **What the form is.** The fused `Avx2` form's line ([`super::avx2`]) on
//! sixteen lanes, with the local matrices and the parent products laid out
//! for AVX-512:
//! - *Loads.* A group is two blocks of sixteen joints (both routines). A
//!   block of each pose is eight 64-byte loads (two joints `[q t q t]`
//!   each), turned into the SoA registers `x y z w` and `tx ty tz` by an
//!   in-lane 4x4 transpose of the even and of the odd registers (16
//!   unpacks and shuffles) and eight `vshuff32x4`: three shuffles per joint
//!   for both poses (`Avx2`: four, and one blend). Lane `4 g + k` holds
//!   joint `4 k + g`, the order in which the in-lane transpose of four SoA
//!   registers gives runs of four consecutive joints. The last 25 to 31
//!   joints are a group of two blocks whose loads are masked (no stack
//!   copy); the last 1 to 24 are one to three blocks of eight lanes side by
//!   side (`Avx2`'s blend and conversion, masked 32-byte loads), which an
//!   AMD Zen 4 runs faster than masked blocks of sixteen (`tail`).
//! - *Blend and conversion.* Lane for lane `Avx2`'s arithmetic on sixteen
//!   lanes: the slerp's scales by `slerp_core16::slerp_scales` (the 8-lane
//!   core's operations, lane choices in mask registers), the lerp written
//!   out as `Avx2`'s, section 3's `M` as `quats_to_mats::avx2::rotation`,
//!   the scale a product per element (four loads and an in-lane transpose).
//! - *Local matrices.* Not stored into `model` but into `Avx2`'s ring on
//!   the stack (`super::avx2::Ring`: 64 joints, 3 KiB), row by row: row `r`
//!   of four consecutive joints is one aligned 64-byte store, the in-lane
//!   transpose of `R`'s row and the translation (1.5 shuffles per joint).
//! - *Parent product and skin.* `Avx2`'s chain on the ring's rows
//!   (`super::avx2::chain`, `transform_skeleton::avx2::compose_loaded` and
//!   `compose_held`): the
//!   child's rows broadcast from the ring (`vbroadcastf128`, load ports),
//!   rows 0 and 1 of the result in one `ymm` (the parent's scalars spread
//!   by three in-lane `vpermilps`), row 2 in an `xmm` (the parent's three
//!   scalars by `vbroadcastss` from `model`, load ports). The parent is
//!   the registers of the joint just composed when the joint follows its
//!   parent (a depth-first chain waits for no memory), else its 48 bytes in
//!   `model`, a 32-byte and a 16-byte store that the loads take their data
//!   from. The skin is `transform_joints::avx2::multiply` on the model
//!   matrix just stored.
//!
//!   The form first composed each joint in one `zmm` (row `r` in
//!   128-bit lane `r`, three `vpermilps` on 512 bits, one multiply, two
//!   FMAs and one add), the parents kept as registers in a second ring of
//!   64 joints on the stack and row 2 extracted to memory; the skin the
//!   same on 512 bits. On an AMD EPYC Zen 4 (which runs a 512-bit operation
//!   as two 256-bit halves) that took 1.04-1.10x the time of this chain
//!   without a skin and 1.12-1.18x with one, 24 to 1024 joints, random and
//!   depth-first hierarchies, calls back to back (`asm_notes/pose.md`): one
//!   shuffle of 256 bits a joint less, no extract, one 64-byte store less.
//!
//! The chain runs `LAG` (16) joints behind the groups, as `Avx2`'s.
//!
//! **Where the time goes, the figures, what was tried.** The fused
//! `Avx2` form's time stage by stage, this form's report figures against
//! `Avx2` and the floor, and what was tried and not kept:
//! `asm_notes/pose.md`, "The fused `avx512` form: where the time goes".
//!
//! **The one answer.** Every lane performs `Avx2`'s IEEE operations in its
//! order, with the FMAs in its places: the blend (`slerp_scales` is the
//! 8-lane core's sequence; the lerp's dot product, flip, FMAs, root and
//! division as written in `super::avx2`), `rotation` (three products and
//! nine fused operations), the scale's products, the parent product
//! `((b[r][0] a0 ⊕fma b[r][1] a1) ⊕fma b[r][2] a2) + (t or -0.0)` and the
//! skin's `((a[r][0] b0 + a[r][1] b1) + a[r][2] b2) + (t or -0.0)` with
//! rounded products. Transposes, broadcasts, blends, inserts and masks move
//! bits without arithmetic, and the padding lanes of a last group are never
//! stored. So the model and skinning matrices are `Avx2`'s bit for bit, and
//! so every successor's (`tests/whole_pose.rs`, `tests/golden.rs`).

use super::avx2::{RING, Ring, ring_chain, row_at, store_rows};
use super::forms::pose_kernels;
use super::line::Args;
use crate::consts::{SIMD_SP_ONE, SIMD_SP_SIGN_BIT};
use crate::quats_to_mats::avx2::rotation as rotation8;
use crate::types::{JointMat, JointQuat, Vec4};
use crate::x86::blocks8::transpose_lane4;
use crate::x86::slerp_core16::{slerp_scales, splat, splat_bits};
use core::arch::x86_64::*;

/// Joints per block: one per lane.
const BLOCK: usize = 16;
/// How far the chain runs behind the blocks, in joints.
const LAG: usize = 16;
/// The largest last group that [`tail`] blends and converts in blocks of
/// eight lanes instead of sixteen.
const TAIL: usize = 24;
/// Joints per block of [`tail`].
const EIGHT: usize = 8;

const _: () = assert!(2 * BLOCK + LAG <= RING);

pose_kernels!(
    fused "the AVX-512 successors fused (see the module documentation)",
    #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
    slerp: pose::<true, 2>,
    lerp: pose::<false, 2>
);

/// What a block blends: the factor's registers.
#[derive(Clone, Copy)]
struct Factor {
    /// The factor in every lane.
    lerp: __m512,
    /// `lerp / (1 - lerp)` (the lerp's `scaledLerp`).
    scaled: __m512,
}

/// The whole pose, `SLERP` choosing the blend, `N` blocks of sixteen to a
/// group.
///
/// # Safety
///
/// As [`slerp_pose`].
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
unsafe fn pose<const SLERP: bool, const N: usize>(args: Args) {
    let Args { model, skin, from, to, factor, scale, parents, inverse_bind, num_joints } = args;
    if num_joints <= 0 {
        return;
    }
    let n = num_joints as usize;
    // The joint blends' own early-outs: `factor <= 0` keeps `from`,
    // `!(factor < 1)` (NaN included) takes `to`.
    let (src, other) = if to.is_null() || factor <= 0.0 {
        (from, core::ptr::null())
    } else if factor >= 1.0 || factor.is_nan() {
        (to, core::ptr::null())
    } else {
        (from, to)
    };
    let f = Factor { lerp: _mm512_set1_ps(factor), scaled: _mm512_set1_ps(factor / (1.0 - factor)) };
    // Not initialised: the chain reads only the slots the blocks have
    // written (zeroing the 7 KiB of two rings once cost a 24-joint pose 4
    // ticks a joint).
    let mut rows = core::mem::MaybeUninit::<Ring>::uninit();
    let ring = rows.as_mut_ptr().cast::<f32>();
    let group = BLOCK * N;
    let mut i = 0;
    let mut composed = 0;
    while i < n {
        // Whole groups, then the last 1 to `16 N - 1` joints as a group
        // whose loads are masked (as one block when they fit in one): the
        // blocks' long chains still run side by side. A last group of one
        // to 24 joints is one to three blocks of eight lanes (`tail`).
        let size = (n - i).min(group);
        // SAFETY: joints `i..i + size` of every array are valid (caller's
        // contract; a last group reads only its own joints, masked); `i`
        // is a multiple of sixteen and the ring slots `i % RING..` hold
        // joints the chain has composed.
        unsafe {
            let b = if other.is_null() { other } else { other.add(i) };
            let s = if scale.is_null() { scale } else { scale.add(i) };
            if size <= EIGHT {
                tail::<SLERP, 1>(ring, i, src.add(i), b, s, factor, size);
            } else if size <= 2 * EIGHT {
                tail::<SLERP, 2>(ring, i, src.add(i), b, s, factor, size);
            } else if size <= TAIL {
                tail::<SLERP, 3>(ring, i, src.add(i), b, s, factor, size);
            } else if size > BLOCK * (N - 1) {
                block::<SLERP, N>(ring, i, src.add(i), b, s, f, size);
            } else {
                block::<SLERP, 1>(ring, i, src.add(i), b, s, f, size);
            }
        }
        i += size;
        let ready = if i == n { n } else { i.saturating_sub(LAG) };
        if ready > composed {
            // SAFETY: joints `composed..ready` have their local rows in the
            // ring and every parent before them is composed.
            unsafe { chain(ring, model, skin, parents, inverse_bind, composed, ready) };
            composed = ready;
        }
    }
}

/// The mask of the first `n` (at most 16) lanes.
#[inline(always)]
fn first(n: usize) -> __mmask16 {
    ((1u32 << n.min(16)) - 1) as __mmask16
}

/// The joints of block `v` of a group of `count`: 0 to 16.
#[inline(always)]
fn part(count: usize, v: usize) -> usize {
    count.saturating_sub(BLOCK * v).min(BLOCK)
}

/// Transposes four registers within each 128-bit lane: lane `k` of 128-bit
/// lane `g` of output `c` is lane `c` of 128-bit lane `g` of input `k`.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
fn transpose4(a: __m512, b: __m512, c: __m512, d: __m512) -> [__m512; 4] {
    let t0 = _mm512_unpacklo_ps(a, b);
    let t1 = _mm512_unpackhi_ps(a, b);
    let t2 = _mm512_unpacklo_ps(c, d);
    let t3 = _mm512_unpackhi_ps(c, d);
    [
        _mm512_shuffle_ps::<0x44>(t0, t2),
        _mm512_shuffle_ps::<0xEE>(t0, t2),
        _mm512_shuffle_ps::<0x44>(t1, t3),
        _mm512_shuffle_ps::<0xEE>(t1, t3),
    ]
}

/// Sixteen joints from `joints` (the first `count`, the others zero) as SoA
/// registers `[x, y, z, w]`, `[tx, ty, tz, tw]`, lane `4 g + k` holding
/// joint `4 k + g`: the order in which [`transpose4`] of four SoA registers
/// gives four runs of four joints.
///
/// # Safety
///
/// `joints` valid for reads of `count` (1 to 16) [`JointQuat`].
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
unsafe fn load(joints: *const JointQuat, count: usize) -> ([__m512; 4], [__m512; 4]) {
    let jf = joints.cast::<f32>();
    // Register `i`: joints 2i and 2i + 1, `[q t q t]`.
    let mut r = [_mm512_setzero_ps(); 8];
    for (k, rk) in r.iter_mut().enumerate() {
        // SAFETY: floats `16 k..16 k + 16` are joints 2k and 2k + 1; with
        // fewer than sixteen joints the mask reads only the first `count`
        // (a masked load does not touch the other lanes' memory).
        *rk = unsafe {
            if count == BLOCK {
                _mm512_loadu_ps(jf.add(16 * k))
            } else {
                _mm512_maskz_loadu_ps(first(8 * count.saturating_sub(2 * k)), jf.wrapping_add(16 * k))
            }
        };
    }
    // Even registers: joints 0, 4, 8, 12 (q, t), then 1, 5, 9, 13; odd
    // ones: 2, 6, 10, 14, then 3, 7, 11, 15.
    let e = transpose4(r[0], r[2], r[4], r[6]);
    let o = transpose4(r[1], r[3], r[5], r[7]);
    let mut q = [_mm512_setzero_ps(); 4];
    let mut t = [_mm512_setzero_ps(); 4];
    for c in 0..4 {
        q[c] = _mm512_shuffle_f32x4::<0x88>(e[c], o[c]);
        t[c] = _mm512_shuffle_f32x4::<0xDD>(e[c], o[c]);
    }
    (q, t)
}

/// Section 3's `M` of the SoA quaternions `(x, y, z, w)`, as
/// `quats_to_mats::avx2::rotation` computes it lane for lane.
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
fn rotation(x: __m512, y: __m512, z: __m512, w: __m512) -> [__m512; 9] {
    let one = _mm512_set1_ps(1.0);
    let x2 = _mm512_add_ps(x, x);
    let y2 = _mm512_add_ps(y, y);
    let z2 = _mm512_add_ps(z, z);
    let wx2 = _mm512_mul_ps(w, x2);
    let wy2 = _mm512_mul_ps(w, y2);
    let wz2 = _mm512_mul_ps(w, z2);
    let one_zz2 = _mm512_fnmadd_ps(z, z2, one); // 1 - zz2
    let one_yy2 = _mm512_fnmadd_ps(y, y2, one); // 1 - yy2
    [
        _mm512_fnmadd_ps(y, y2, one_zz2), // m00 = (1 - zz2) - yy2
        _mm512_fmadd_ps(x, y2, wz2),      // m01 =      xy2 + wz2
        _mm512_fmsub_ps(x, z2, wy2),      // m02 =      xz2 - wy2
        _mm512_fmsub_ps(x, y2, wz2),      // m10 =      xy2 - wz2
        _mm512_fnmadd_ps(x, x2, one_zz2), // m11 = (1 - zz2) - xx2
        _mm512_fmadd_ps(y, z2, wx2),      // m12 =      yz2 + wx2
        _mm512_fmadd_ps(x, z2, wy2),      // m20 =      xz2 + wy2
        _mm512_fmsub_ps(y, z2, wx2),      // m21 =      yz2 - wx2
        _mm512_fnmadd_ps(x, x2, one_yy2), // m22 = (1 - yy2) - xx2
    ]
}

/// The local matrices of the `count` (at most `16 N`) joints from `a`, `b`
/// and `s` into the ring from joint `at`: `[R | t]` of the blend of `a[k]`
/// and `b[k]` (of `a[k]` alone when `b` is null), `R`'s columns scaled by
/// `s[k]` when `s` is not null; the `N` blocks side by side, step by step,
/// the lanes past `count` zero (their loads masked off) and not stored.
///
/// # Safety
///
/// `a` (and `b`, `s` when not null) valid for reads of `count` elements;
/// `at` a multiple of sixteen.
#[allow(clippy::needless_range_loop)]
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
unsafe fn block<const SLERP: bool, const N: usize>(
    ring: *mut f32,
    at: usize,
    a: *const JointQuat,
    b: *const JointQuat,
    s: *const Vec4,
    f: Factor,
    count: usize,
) {
    let zero = _mm512_setzero_ps();
    let mut q = [[zero; 4]; N];
    let mut t = [[zero; 4]; N];
    // SAFETY: the caller's contract is `load`'s (sixteen joints a block,
    // or `count`) and the scale loads' (sixteen `Vec4`, or `count`).
    unsafe {
        for v in 0..N {
            (q[v], t[v]) = load(a.wrapping_add(BLOCK * v), part(count, v));
        }
        if !b.is_null() {
            let mut p = [[zero; 4]; N];
            let mut u = [[zero; 4]; N];
            for v in 0..N {
                (p[v], u[v]) = load(b.wrapping_add(BLOCK * v), part(count, v));
            }
            blend::<SLERP, N>(&mut q, &mut t, &p, &u, f);
        }
        for v in 0..N {
            let count = part(count, v);
            if count == 0 {
                break;
            }
            let mut m = rotation(q[v][0], q[v][1], q[v][2], q[v][3]);
            if !s.is_null() {
                // Four `Vec4` a register (joints 4k..4k + 3), transposed
                // in-lane: lane `4 g + k` is joint `4 k + g`, as `load`'s.
                let sf = s.wrapping_add(BLOCK * v).cast::<f32>();
                let mut r = [zero; 4];
                for (k, rk) in r.iter_mut().enumerate() {
                    *rk = if count == BLOCK {
                        _mm512_loadu_ps(sf.add(16 * k))
                    } else {
                        _mm512_maskz_loadu_ps(first(4 * count.saturating_sub(4 * k)), sf.wrapping_add(16 * k))
                    };
                }
                let sc = transpose4(r[0], r[1], r[2], r[3]);
                for e in 0..9 {
                    m[e] = _mm512_mul_ps(m[e], sc[e % 3]);
                }
            }
            // Row r of joints 4k..4k + 3 in register k of the transpose.
            let base = (at + BLOCK * v) % RING;
            for r in 0..3 {
                let rows = transpose4(m[3 * r], m[3 * r + 1], m[3 * r + 2], t[v][r]);
                for (k, row) in rows.into_iter().enumerate() {
                    _mm512_store_ps(row_at(ring, r, base + 4 * k), row);
                }
            }
        }
    }
}

/// A last group of `count` (1 to [`TAIL`]) joints, from `a`, `b` and `s`
/// as [`block`] takes them, as `N` blocks of eight lanes side by side
/// (`N = ceil(count / 8)`): the fused `Avx2` form's blend
/// (`super::avx2::blend`, its blocks interleaved step by step as there)
/// and `quats_to_mats::avx2::rotation`, lane for lane the operations of
/// sixteen, with their rows stored into the ring from joint `at`.
///
/// The masked blocks of sixteen spend whole 512-bit operations on them,
/// which an AMD Zen 4 runs as two 256-bit halves. On its calls back to
/// back (random and depth-first hierarchies; `lerp_pose`, `slerp_pose`,
/// `lerp_pose` with a skin) a call took, against the masked blocks:
/// 0.67-0.81x at 1 and 8 joints, 0.91-0.94x at 40 and 0.96-0.97x at 100
/// (one block of eight); 0.81-0.93x at 12 and 16 (two); 0.83-0.92x at 20
/// and 24 and 0.94-0.97x at 56 (three); level at 28, 48, 64 and 1024. A
/// block of sixteen and one of eight run one after the other lost the
/// interleaving (`slerp_pose` 1.06-1.08x at 20 and 24).
/// On an Intel Xeon, where a 512-bit operation is one, the fused `Avx2`
/// form (the same blocks of eight) was level with this form at 24 joints.
///
/// # Safety
///
/// `a` (and `b`, `s` when not null) valid for reads of `count` elements,
/// `count <= 8 N`; `at` a multiple of sixteen.
#[allow(clippy::needless_range_loop)]
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
unsafe fn tail<const SLERP: bool, const N: usize>(
    ring: *mut f32,
    at: usize,
    a: *const JointQuat,
    b: *const JointQuat,
    s: *const Vec4,
    factor: f32,
    count: usize,
) {
    // Joints of block `v`: 0 to 8.
    let part = |v: usize| count.saturating_sub(EIGHT * v).min(EIGHT);
    let zero = _mm256_setzero_ps();
    // SAFETY: the caller's contract is `load8`'s and the scale loads'
    // (joint `k` read only when `k < count`, masked).
    unsafe {
        let mut q = [[zero; 4]; N];
        let mut t = [[zero; 4]; N];
        for v in 0..N {
            (q[v], t[v]) = load8(a.wrapping_add(EIGHT * v), part(v));
        }
        if !b.is_null() {
            let mut p = [[zero; 4]; N];
            let mut u = [[zero; 4]; N];
            for v in 0..N {
                (p[v], u[v]) = load8(b.wrapping_add(EIGHT * v), part(v));
            }
            super::avx2::blend::<SLERP, N>(&mut q, &mut t, &p, &u, super::avx2::Factor::new(factor));
        }
        for v in 0..N {
            let count = part(v);
            let mut m = rotation8(q[v][0], q[v][1], q[v][2], q[v][3]);
            if !s.is_null() {
                // `[s_2k | s_2k+1]`, each half read when its joint is
                // there: after the transpose, lanes 0-3 hold joints 0, 2,
                // 4, 6 and lanes 4-7 joints 1, 3, 5, 7, as `load8`'s.
                let sf = s.wrapping_add(EIGHT * v).cast::<f32>();
                let mut pairs = [zero; 4];
                for (k, pair) in pairs.iter_mut().enumerate() {
                    let mask = present(count, 2 * k) | present(count, 2 * k + 1) << 4;
                    *pair = _mm256_maskz_loadu_ps(mask, sf.wrapping_add(8 * k));
                }
                let sc = transpose_lane4(pairs[0], pairs[1], pairs[2], pairs[3]);
                for e in 0..9 {
                    m[e] = _mm256_mul_ps(m[e], sc[e % 3]);
                }
            }
            store_rows(ring, at + EIGHT * v, &m, &t[v]);
        }
    }
}

/// The lanes of joint `k` of `count` in a four-lane mask: all four when it
/// is there, none past the last.
#[inline(always)]
fn present(count: usize, k: usize) -> __mmask8 {
    if k < count { 0x0F } else { 0 }
}

/// Eight joints from `joints` (the first `count`, the others zero) as SoA
/// registers `[x, y, z, w]`, `[tx, ty, tz, tw]`, lanes 0-3 holding joints
/// 0, 2, 4, 6 and lanes 4-7 joints 1, 3, 5, 7 (`quats_to_mats::avx2::load`'s
/// layout), each joint a masked 32-byte load.
///
/// # Safety
///
/// `joints` valid for reads of `count` (1 to 8) [`JointQuat`].
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
unsafe fn load8(joints: *const JointQuat, count: usize) -> ([__m256; 4], [__m256; 4]) {
    let jf = joints.cast::<f32>();
    let mut q = [_mm256_setzero_ps(); 4];
    let mut t = [_mm256_setzero_ps(); 4];
    for k in 0..4 {
        // SAFETY: joint `j` is floats `8 j..8 j + 8`; the mask reads it only
        // when `j < count` (a masked load does not touch the other lanes'
        // memory).
        let (a, b) = unsafe {
            let (ja, jb) = (2 * k, 2 * k + 1);
            (
                _mm256_maskz_loadu_ps(present(count, ja) | present(count, ja) << 4, jf.wrapping_add(8 * ja)),
                _mm256_maskz_loadu_ps(present(count, jb) | present(count, jb) << 4, jf.wrapping_add(8 * jb)),
            )
        };
        q[k] = _mm256_permute2f128_ps::<0x20>(a, b); // q_a | q_b
        t[k] = _mm256_permute2f128_ps::<0x31>(a, b); // t_a | t_b
    }
    (transpose_lane4(q[0], q[1], q[2], q[3]), transpose_lane4(t[0], t[1], t[2], t[3]))
}

/// The blend of `N` blocks of SoA joints `(q, t)` towards `(p, u)`, in
/// place, lane for lane the arithmetic of `slerp_joints::avx2` (`SLERP`)
/// or `lerp_joints::avx2` (and so of the fused `Avx2` form).
#[allow(clippy::needless_range_loop)]
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
fn blend<const SLERP: bool, const N: usize>(
    q: &mut [[__m512; 4]; N],
    t: &mut [[__m512; 4]; N],
    p: &[[__m512; 4]; N],
    u: &[[__m512; 4]; N],
    f: Factor,
) {
    // (x x' + y y') + (z z' + w w'), each product rounded.
    let mut cosom = [_mm512_setzero_ps(); N];
    for v in 0..N {
        cosom[v] = _mm512_add_ps(
            _mm512_add_ps(_mm512_mul_ps(q[v][0], p[v][0]), _mm512_mul_ps(q[v][1], p[v][1])),
            _mm512_add_ps(_mm512_mul_ps(q[v][2], p[v][2]), _mm512_mul_ps(q[v][3], p[v][3])),
        );
    }
    if SLERP {
        let (scale0, scale1) = slerp_scales::<N>(cosom, f.lerp);
        for v in 0..N {
            for c in 0..4 {
                q[v][c] = _mm512_fmadd_ps(q[v][c], scale0[v], _mm512_mul_ps(p[v][c], scale1[v]));
            }
        }
    } else {
        let sign = splat_bits(&SIMD_SP_SIGN_BIT);
        let one = splat(&SIMD_SP_ONE);
        for v in 0..N {
            // ±scaledLerp: negative where cosom < 0 (not for -0.0 or NaN).
            let flip = _mm512_cmp_ps_mask::<_CMP_LT_OQ>(cosom[v], _mm512_setzero_ps());
            let s = _mm512_mask_xor_ps(f.scaled, flip, f.scaled, sign);
            let mut r = [_mm512_setzero_ps(); 4];
            for c in 0..4 {
                r[c] = _mm512_fmadd_ps(p[v][c], s, q[v][c]);
            }
            let norm2 = _mm512_add_ps(
                _mm512_add_ps(_mm512_mul_ps(r[0], r[0]), _mm512_mul_ps(r[1], r[1])),
                _mm512_add_ps(_mm512_mul_ps(r[2], r[2]), _mm512_mul_ps(r[3], r[3])),
            );
            let inv = _mm512_div_ps(one, _mm512_sqrt_ps(norm2));
            for c in 0..4 {
                q[v][c] = _mm512_mul_ps(r[c], inv);
            }
        }
    }
    for v in 0..N {
        for c in 0..3 {
            t[v][c] = _mm512_fmadd_ps(f.lerp, _mm512_sub_ps(u[v][c], t[v][c]), t[v][c]);
        }
    }
}

ring_chain!("avx512f,avx512vl,avx512dq,avx512bw,avx2,fma");
