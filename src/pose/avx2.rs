//! `Impl::Avx2` (AVX2 + FMA): the whole pose fused, a group of joints at a
//! time.
//!
//! Each group (three blocks of eight joints for `slerp_pose`, whose blend
//! is a long chain of divisions, roots and polynomials, two for
//! `lerp_pose`) is loaded once from both poses into SoA registers (the
//! layout of `quats_to_mats::avx2`), blended there with the blocks side by
//! side (`lerp_joints`' or `slerp_joints`' successor arithmetic, lane for
//! lane), turned into matrices (`quats_to_mats::avx2::rotation`), scaled,
//! and stored as the group's local matrices into `model`; then each joint
//! is composed with its parent (`transform_skeleton::avx2::compose`, or
//! `compose_rows` with the parent's rows still in registers when the
//! parent is the joint just composed) and, with a skin, multiplied by its
//! inverse bind matrix (`transform_joints::avx2::multiply`) while it is in
//! the L1 cache. The blended pose is never stored, no index list is read
//! and no call is made per group. The chain runs `LAG` (16) joints behind
//! the blocks, so that a block's stores have left the store buffer before
//! the chain loads them back, and the blocks' arithmetic (independent of
//! the chain) fills the cycles a parent-to-child chain waits. The last one
//! to seven joints go through a zero-padded block on the stack, as
//! `quats_to_mats::avx2` does.
//!
//! Every operation of the four successors is kept, in their order, lane
//! for lane: the bits of `slerp_joints` (or `lerp_joints`), `quats_to_mats`,
//! `transform_skeleton` and `transform_joints` with `Impl::Avx2` called one
//! after the other, and so of every successor (`tests/whole_pose.rs`).

use super::forms::pose_kernels;
use super::line::Args;
use crate::consts::{IEEE_SP_SIGN, SIMD_SP_SIGN_BIT};
use crate::quats_to_mats::avx2::{load, rotation, store};
use crate::transform_joints::avx2::multiply;
use crate::transform_skeleton::avx2::{compose, compose_rows};
use crate::types::{JointMat, JointQuat, Vec4};
use crate::x86::blocks8::transpose_lane4;
use crate::x86::slerp_core8::{rsqrt_exact, slerp_scales, splat_bits};
use core::arch::x86_64::*;

/// Joints per block.
const BLOCK: usize = 8;
/// How far the chain runs behind the blocks, in joints. On an Intel Xeon
/// with AVX-512, with one block of eight at a time, no lag took 1.15-1.25x
/// the time of a lag of 8, 16 or 24 joints, which were level (random and
/// chain hierarchies, 24 to 1024 joints); not measured again with the
/// groups of 16 and 24.
const LAG: usize = 16;
/// Floats per joint matrix.
const FLOATS: usize = 12;

pose_kernels!(
    fused "the AVX2 + FMA successors fused (see the module documentation)",
    #[target_feature(enable = "avx2,fma")]
    slerp: pose::<true, 3>,
    lerp: pose::<false, 2>
);

/// What a block blends: the factor's registers (the `Avx512` form's last
/// joints use them too, see [`blend`]).
#[derive(Clone, Copy)]
pub(super) struct Factor {
    /// The factor in every lane.
    lerp: __m256,
    /// `lerp / (1 - lerp)` (the lerp's `scaledLerp`).
    scaled: __m256,
}

impl Factor {
    /// The registers of `factor`.
    #[inline]
    #[target_feature(enable = "avx2,fma")]
    pub(super) fn new(factor: f32) -> Factor {
        Factor { lerp: _mm256_set1_ps(factor), scaled: _mm256_set1_ps(factor / (1.0 - factor)) }
    }
}

/// The whole pose, `SLERP` choosing the blend.
///
/// # Safety
///
/// As [`slerp_pose`].
#[inline]
#[target_feature(enable = "avx2,fma")]
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
    let f = Factor::new(factor);
    let neg_zero = _mm256_castsi256_ps(_mm256_set1_epi32(IEEE_SP_SIGN as i32));
    // Groups of `N` blocks (their blends interleave: the slerp's chain of
    // divisions, roots and polynomials is long), then single blocks, then
    // a zero-padded block for the last one to seven joints; the chain
    // follows `LAG` joints behind what the blocks have stored.
    let group = BLOCK * N;
    let mut i = 0;
    let mut composed = 0;
    while i < n {
        let (size, padded) = if n - i >= group {
            (group, false)
        } else if n - i >= BLOCK {
            (BLOCK, false)
        } else {
            (n - i, true)
        };
        // SAFETY: `i + size <= n`: joints `i..i + size` of every array are
        // valid (caller's contract); `other` and `scale` are null or arrays
        // of `n`; the stack blocks hold eight and do not overlap them.
        unsafe {
            let b = if other.is_null() { other } else { other.add(i) };
            let s = if scale.is_null() { scale } else { scale.add(i) };
            if size == group {
                block::<SLERP, N>(model.add(i), src.add(i), b, s, f);
            } else if !padded {
                block::<SLERP, 1>(model.add(i), src.add(i), b, s, f);
            } else {
                let mut pa = [JointQuat::default(); BLOCK];
                let mut pb = [JointQuat::default(); BLOCK];
                let mut ps = [Vec4::default(); BLOCK];
                let mut m = [JointMat::default(); BLOCK];
                core::ptr::copy_nonoverlapping(src.add(i), pa.as_mut_ptr(), size);
                if !b.is_null() {
                    core::ptr::copy_nonoverlapping(b, pb.as_mut_ptr(), size);
                }
                if !s.is_null() {
                    core::ptr::copy_nonoverlapping(s, ps.as_mut_ptr(), size);
                }
                let b = if b.is_null() { b } else { pb.as_ptr() };
                let s = if s.is_null() { s } else { ps.as_ptr() };
                block::<SLERP, 1>(m.as_mut_ptr(), pa.as_ptr(), b, s, f);
                core::ptr::copy_nonoverlapping(m.as_ptr(), model.add(i), size);
            }
        }
        i += size;
        let ready = if i == n { n } else { i.saturating_sub(LAG) };
        if ready > composed {
            // SAFETY: joints `composed..ready` have their local matrices
            // in `model` and every parent before them is composed.
            unsafe { chain(model, skin, parents, inverse_bind, composed, ready - composed, neg_zero) };
            composed = ready;
        }
    }
}

/// `8 N` joints' local matrices: `mats[k] = [R | t]` of the blend of
/// `a[k]` and `b[k]` (of `a[k]` alone when `b` is null), `R`'s columns
/// scaled by `s[k]` when `s` is not null; the `N` blocks of eight side by
/// side, step by step.
///
/// # Safety
///
/// AVX2 and FMA; `a` (and `b`, `s` when not null) valid for reads of `8 N`
/// elements, `mats` for writes of `8 N`, 16-byte aligned, not overlapping
/// them.
// The blocks are indexed on purpose: `v` addresses several arrays in step.
#[allow(clippy::needless_range_loop)]
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn block<const SLERP: bool, const N: usize>(
    mats: *mut JointMat,
    a: *const JointQuat,
    b: *const JointQuat,
    s: *const Vec4,
    f: Factor,
) {
    let zero = _mm256_setzero_ps();
    let mut q = [[zero; 4]; N];
    let mut t = [[zero; 4]; N];
    // SAFETY: the caller's contract is `load`'s, `store`'s and the scale
    // loads' (eight `Vec4` per block, 128 contiguous bytes).
    unsafe {
        for v in 0..N {
            (q[v], t[v]) = load(a.add(BLOCK * v));
        }
        if !b.is_null() {
            let mut p = [[zero; 4]; N];
            let mut u = [[zero; 4]; N];
            for v in 0..N {
                (p[v], u[v]) = load(b.add(BLOCK * v));
            }
            blend::<SLERP, N>(&mut q, &mut t, &p, &u, f);
        }
        for v in 0..N {
            let mut m = rotation(q[v][0], q[v][1], q[v][2], q[v][3]);
            if !s.is_null() {
                // `[s_2k | s_2k+1]` is one 32-byte load: after the
                // transpose, lanes 0-3 hold joints 0, 2, 4, 6 and lanes 4-7
                // joints 1, 3, 5, 7, as `load`'s.
                let sf = s.add(BLOCK * v).cast::<f32>();
                let sc = transpose_lane4(
                    _mm256_loadu_ps(sf),
                    _mm256_loadu_ps(sf.add(8)),
                    _mm256_loadu_ps(sf.add(16)),
                    _mm256_loadu_ps(sf.add(24)),
                );
                for e in 0..9 {
                    m[e] = _mm256_mul_ps(m[e], sc[e % 3]);
                }
            }
            store(mats.add(BLOCK * v), &m, [t[v][0], t[v][1], t[v][2]]);
        }
    }
}

/// The blend of `N` blocks of SoA joints `(q, t)` towards `(p, u)`, in
/// place, lane for lane the arithmetic of `slerp_joints::avx2` (`SLERP`)
/// or `lerp_joints::avx2`. (The `Avx512` form blends its last one to eight
/// joints with it.)
#[allow(clippy::needless_range_loop)]
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) fn blend<const SLERP: bool, const N: usize>(
    q: &mut [[__m256; 4]; N],
    t: &mut [[__m256; 4]; N],
    p: &[[__m256; 4]; N],
    u: &[[__m256; 4]; N],
    f: Factor,
) {
    // (x x' + y y') + (z z' + w w'), each product rounded: `hsum4`'s order.
    let mut cosom = [_mm256_setzero_ps(); N];
    for v in 0..N {
        cosom[v] = _mm256_add_ps(
            _mm256_add_ps(_mm256_mul_ps(q[v][0], p[v][0]), _mm256_mul_ps(q[v][1], p[v][1])),
            _mm256_add_ps(_mm256_mul_ps(q[v][2], p[v][2]), _mm256_mul_ps(q[v][3], p[v][3])),
        );
    }
    if SLERP {
        let (scale0, scale1) = slerp_scales::<N>(cosom, f.lerp);
        for v in 0..N {
            for c in 0..4 {
                q[v][c] = _mm256_fmadd_ps(q[v][c], scale0[v], _mm256_mul_ps(p[v][c], scale1[v]));
            }
        }
    } else {
        let sign = splat_bits(&SIMD_SP_SIGN_BIT);
        for v in 0..N {
            // ±scaledLerp: negative where cosom < 0 (not for -0.0 or NaN).
            let flip = _mm256_and_ps(_mm256_cmp_ps::<_CMP_LT_OQ>(cosom[v], _mm256_setzero_ps()), sign);
            let s = _mm256_xor_ps(f.scaled, flip);
            let mut r = [_mm256_setzero_ps(); 4];
            for c in 0..4 {
                r[c] = _mm256_fmadd_ps(p[v][c], s, q[v][c]);
            }
            let norm2 = _mm256_add_ps(
                _mm256_add_ps(_mm256_mul_ps(r[0], r[0]), _mm256_mul_ps(r[1], r[1])),
                _mm256_add_ps(_mm256_mul_ps(r[2], r[2]), _mm256_mul_ps(r[3], r[3])),
            );
            let inv = rsqrt_exact(norm2);
            for c in 0..4 {
                q[v][c] = _mm256_mul_ps(r[c], inv);
            }
        }
    }
    for v in 0..N {
        for c in 0..4 {
            t[v][c] = _mm256_fmadd_ps(f.lerp, _mm256_sub_ps(u[v][c], t[v][c]), t[v][c]);
        }
    }
}

/// Joints `first..first + count`, whose local matrices are in `model`:
/// each composed with its parent's model matrix (a root's is its local
/// one) and, with a skin, multiplied by its inverse bind matrix.
///
/// # Safety
///
/// AVX2 and FMA; the joints are in every array, and their parents are
/// `-1` or earlier joints, already model matrices (the caller's contract).
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn chain(
    model: *mut JointMat,
    skin: *mut JointMat,
    parents: *const i32,
    inverse_bind: *const JointMat,
    first: usize,
    count: usize,
    neg_zero: __m256,
) {
    let base = model.cast::<f32>();
    // The joint composed last, with its rows in registers: a child of it
    // takes them from there (`compose_rows`) instead of from memory.
    let mut held: Option<(usize, __m256, __m128)> = None;
    for j in first..first + count {
        // SAFETY: joint `j` is in every array and `parents[j]` is `-1` or a
        // joint before it (caller's contract): `compose`'s,
        // `compose_rows`' and `multiply`'s contracts, on a CPU with AVX2
        // and FMA; the rows held are those of the joint stored at `held.0`.
        unsafe {
            let p = *parents.add(j);
            let child = base.add(j * FLOATS);
            if p >= 0 {
                let (y, x) = match held {
                    Some((h, y, x)) if h == p as usize => {
                        let (y, x) = compose_rows(child, y, x, neg_zero);
                        _mm256_storeu_ps(child, y);
                        _mm_storeu_ps(child.add(8), x);
                        (y, x)
                    }
                    _ => compose(child, base.add(p as usize * FLOATS), neg_zero),
                };
                held = Some((j, y, x));
            } else {
                held = None;
            }
            if !skin.is_null() {
                multiply(skin.add(j).cast(), child, inverse_bind.add(j).cast(), neg_zero);
            }
        }
    }
}
