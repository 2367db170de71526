//! `Impl::Avx512` (AVX-512 F, VL, DQ, BW): the whole pose fused, sixteen
//! joints to a register.
//!
//! MODULE-DOC-PLACEHOLDER

use super::forms::pose_kernels;
use super::line::Args;
use crate::types::{JointMat, JointQuat, Vec4};
use crate::x86::consts::{IEEE_SP_SIGN, SIMD_SP_ONE, SIMD_SP_SIGN_BIT};
use crate::x86::slerp_core16::{slerp_scales, splat, splat_bits};
use core::arch::x86_64::*;

/// Joints per block: one per lane.
const BLOCK: usize = 16;
/// How far the chain runs behind the blocks, in joints.
const LAG: usize = 16;
/// Joints the two rings on the stack hold (the local matrices' rows, the
/// model matrices as registers): a power of two, at least the largest group
/// plus [`LAG`], so that a block never overwrites a joint the chain has not
/// composed yet.
const RING: usize = 64;
/// Floats per joint matrix.
const FLOATS: usize = 12;
/// The twelve lanes of a joint matrix in a register (row `r` in 128-bit
/// lane `r`).
const MAT: __mmask16 = 0x0FFF;
/// The translation lanes of the three rows (lane 3 of each row).
const TRANSLATION: __mmask16 = 0x0888;

const _: () = assert!(RING.is_power_of_two() && 2 * BLOCK + LAG <= RING);

pose_kernels!(
    fused "the AVX-512 successors fused (see the module documentation)",
    #[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
    slerp: pose::<true, 2>,
    lerp: pose::<false, 1>
);

/// What a block blends: the factor's registers.
#[derive(Clone, Copy)]
struct Factor {
    /// The factor in every lane.
    lerp: __m512,
    /// `lerp / (1 - lerp)` (the lerp's `scaledLerp`).
    scaled: __m512,
}

/// Row `r` of the local matrix in ring slot `slot` of the rings at `ring`
/// ([`Rings`], as floats).
#[inline(always)]
fn row_at(ring: *mut f32, r: usize, slot: usize) -> *mut f32 {
    ring.wrapping_add(4 * (RING * r + slot))
}

/// The model matrix in ring slot `slot` of the rings at `ring`.
#[inline(always)]
fn model_at(ring: *mut f32, slot: usize) -> *mut f32 {
    ring.wrapping_add(12 * RING + 16 * slot)
}

/// The stack's rings, 64-byte aligned: the local matrices' rows, each
/// row of each joint 16 bytes (`rows[r][j % RING]`, as four-joint runs of
/// one row that a register stores whole and the chain broadcasts a row
/// from), and the model matrices as the chain's registers hold them
/// (`model[j % RING]`, three rows and a lane the stores leave out).
#[repr(C, align(64))]
struct Rings {
    /// Row `r` of joint `j`'s local matrix at `rows[r][j % RING]`.
    rows: [[[f32; 4]; RING]; 3],
    /// Joint `j`'s model matrix at `model[j % RING]`.
    model: [[f32; 16]; RING],
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
    // Not initialised: the chain reads only the slots the blocks and it
    // have written (zeroing 7 KiB would cost a 24-joint pose 4 ticks a joint).
    let mut rings = core::mem::MaybeUninit::<Rings>::uninit();
    let ring = rings.as_mut_ptr().cast::<f32>();
    let group = BLOCK * N;
    let mut i = 0;
    let mut composed = 0;
    while i < n {
        let size = if n - i >= group { group } else { (n - i).min(BLOCK) };
        // SAFETY: joints `i..i + size` of every array are valid (caller's
        // contract; a last block of fewer than sixteen reads only its own
        // joints, masked); `i` is a multiple of sixteen and the ring slots
        // `i % RING..` hold joints the chain has composed.
        unsafe {
            let b = if other.is_null() { other } else { other.add(i) };
            let s = if scale.is_null() { scale } else { scale.add(i) };
            if size == group {
                block::<SLERP, N>(ring, i, src.add(i), b, s, f, BLOCK);
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

/// `16 N` joints' local matrices (of which the first `count` when `N` is
/// 1) into the ring from joint `at`: `[R | t]` of the blend of `a[k]` and
/// `b[k]` (of `a[k]` alone when `b` is null), `R`'s columns scaled by
/// `s[k]` when `s` is not null; the `N` blocks side by side, step by step.
///
/// # Safety
///
/// `a` (and `b`, `s` when not null) valid for reads of `16 N` elements (of
/// `count` when `N` is 1); `at` a multiple of sixteen.
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
            (q[v], t[v]) = load(a.add(BLOCK * v), count);
        }
        if !b.is_null() {
            let mut p = [[zero; 4]; N];
            let mut u = [[zero; 4]; N];
            for v in 0..N {
                (p[v], u[v]) = load(b.add(BLOCK * v), count);
            }
            blend::<SLERP, N>(&mut q, &mut t, &p, &u, f);
        }
        for v in 0..N {
            let mut m = rotation(q[v][0], q[v][1], q[v][2], q[v][3]);
            if !s.is_null() {
                // Four `Vec4` a register (joints 4k..4k + 3), transposed
                // in-lane: lane `4 g + k` is joint `4 k + g`, as `load`'s.
                let sf = s.add(BLOCK * v).cast::<f32>();
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

/// Joints `first..last`, whose local rows are in the ring: each composed
/// with its parent's model matrix (a root's is its local one), stored into
/// `model` and the ring, and, with a skin, multiplied by its inverse bind
/// matrix.
///
/// # Safety
///
/// The joints are in every array, their parents are `-1` or earlier
/// joints, already composed (the caller's contract).
#[inline]
#[target_feature(enable = "avx512f,avx512vl,avx512dq,avx512bw,avx2,fma")]
unsafe fn chain(
    ring: *mut f32,
    model: *mut JointMat,
    skin: *mut JointMat,
    parents: *const i32,
    inverse_bind: *const JointMat,
    first: usize,
    last: usize,
) {
    let out = model.cast::<f32>();
    let neg_zero = _mm512_castsi512_ps(_mm512_set1_epi32(IEEE_SP_SIGN as i32));
    for j in first..last {
        // SAFETY: joint `j` is in every array and `parents[j]` is `-1` or a
        // joint before it, composed (caller's contract); its ring slot holds
        // its model matrix while `j - p < RING` (no later joint has taken
        // it); an older parent is read from `model`, 64 bytes from its
        // first float: its 48 and 16 of the next joint, at most `j`, inside
        // the array (those lanes are not used for the result's twelve).
        unsafe {
            let p = *parents.add(j);
            let slot = j % RING;
            let a0 = _mm512_broadcast_f32x4(_mm_load_ps(row_at(ring, 0, slot)));
            let a1 = _mm512_broadcast_f32x4(_mm_load_ps(row_at(ring, 1, slot)));
            let a2 = _mm512_broadcast_f32x4(_mm_load_ps(row_at(ring, 2, slot)));
            let y = if p < 0 {
                _mm512_mask_blend_ps(0x0F00, _mm512_mask_blend_ps(0x00F0, a0, a1), a2)
            } else {
                let p = p as usize;
                let b = if j - p < RING {
                    _mm512_load_ps(model_at(ring, p % RING))
                } else {
                    _mm512_loadu_ps(out.add(FLOATS * p))
                };
                // b[r][k] over row r's lane: `compose`'s operands, in its order.
                let t = _mm512_mask_blend_ps(TRANSLATION, neg_zero, b);
                let mut y = _mm512_mul_ps(_mm512_permute_ps::<0x00>(b), a0);
                y = _mm512_fmadd_ps(_mm512_permute_ps::<0x55>(b), a1, y);
                y = _mm512_fmadd_ps(_mm512_permute_ps::<0xAA>(b), a2, y);
                _mm512_add_ps(y, t)
            };
            _mm512_store_ps(model_at(ring, slot), y);
            _mm512_mask_storeu_ps(out.add(FLOATS * j), MAT, y);
            if !skin.is_null() {
                let ib = inverse_bind.add(j).cast::<f32>();
                let b0 = _mm512_broadcast_f32x4(_mm_load_ps(ib));
                let b1 = _mm512_broadcast_f32x4(_mm_load_ps(ib.add(4)));
                let b2 = _mm512_broadcast_f32x4(_mm_load_ps(ib.add(8)));
                // `transform_joints::avx2::multiply`'s operations: products
                // rounded, summed left to right, the translation last.
                let t = _mm512_mask_blend_ps(TRANSLATION, neg_zero, y);
                let mut s = _mm512_mul_ps(_mm512_permute_ps::<0x00>(y), b0);
                s = _mm512_add_ps(s, _mm512_mul_ps(_mm512_permute_ps::<0x55>(y), b1));
                s = _mm512_add_ps(s, _mm512_mul_ps(_mm512_permute_ps::<0xAA>(y), b2));
                s = _mm512_add_ps(s, t);
                _mm512_mask_storeu_ps(skin.add(j).cast::<f32>(), MAT, s);
            }
        }
    }
}
