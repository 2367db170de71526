//! `Impl::Avx2` (AVX2 + FMA): the whole pose fused, a group of joints at a
//! time.
//!
//! Each group (three blocks of eight joints; then two, one, and a
//! zero-padded block on the stack for the last one to seven, as
//! `quats_to_mats::avx2` pads) is loaded once from both poses into SoA
//! registers (the layout of `quats_to_mats::avx2`), blended there with the
//! blocks side by side (`lerp_joints`' or `slerp_joints`' successor
//! arithmetic, lane for lane; the slerp's blend is a long chain of
//! divisions, roots and polynomials, which the interleaving hides),
//! turned into matrices (`quats_to_mats::avx2::rotation`), scaled, and its
//! local matrices' rows stored into a `Ring` on the stack (`store_rows`:
//! row `r` of joints `2k` and `2k + 1` is one aligned 32-byte store, the
//! in-lane transpose of `R`'s row and the translation). Then `chain`
//! composes each joint with its parent (`transform_skeleton::avx2`'s
//! arithmetic: the child's rows broadcast from the ring, rows 0 and 1 of
//! the result in a `ymm`, row 2 in an `xmm`; the parent from the registers
//! when it is the joint just composed, else from `model`) and, with a skin,
//! multiplies it by its inverse bind matrix
//! (`transform_joints::avx2::multiply`) while it is in the L1 cache. The
//! blended pose and the local matrices never reach `model`, no index list
//! is read and no call is made per group. The chain runs `LAG` (16)
//! joints behind the blocks, and the blocks' arithmetic (independent of
//! the chain) fills the cycles a parent-to-child chain waits. The
//! `Avx512` form runs the same ring and chain.
//!
//! The form first stored whole row-major local matrices into `model`
//! (3.5 shuffles and 1.5 blends a joint) and composed them there, with
//! groups of two blocks for `lerp_pose`: on an AMD EPYC Zen 4, calls back
//! to back, random and depth-first hierarchies, that took 1.0-1.2x this
//! form's time from 24 to 1024 joints, up to 1.35x at 12 to 20 (but 0.95x
//! for `lerp_pose` at 16 joints on a random hierarchy), and 1.1-1.4x with
//! a skin (`asm_notes/pose.md`).
//!
//! Every operation of the four successors is kept, in their order, lane
//! for lane: the bits of `slerp_joints` (or `lerp_joints`), `quats_to_mats`,
//! `transform_skeleton` and `transform_joints` with `Impl::Avx2` called one
//! after the other, and so of every successor (`tests/whole_pose.rs`).

use super::forms::pose_kernels;
use super::line::Args;
use crate::consts::SIMD_SP_SIGN_BIT;
use crate::quats_to_mats::avx2::{load, rotation};
use crate::types::{JointMat, JointQuat, Vec4};
use crate::x86::blocks8::transpose_lane4;
use crate::x86::slerp_core8::{rsqrt_exact, slerp_scales, splat_bits};
use core::arch::x86_64::*;

/// Joints per block.
const BLOCK: usize = 8;
/// Blocks per group.
const GROUP: usize = 3;
/// How far the chain runs behind the blocks, in joints. On an Intel Xeon
/// with AVX-512, with one block of eight at a time, no lag took 1.15-1.25x
/// the time of a lag of 8, 16 or 24 joints, which were level (random and
/// chain hierarchies, 24 to 1024 joints); not measured again with the
/// groups of 24.
const LAG: usize = 16;
/// Joints the [`Ring`] holds: a power of two, at least a group plus
/// [`LAG`], so that a block never overwrites a joint the chain has not
/// composed yet (the `Avx512` form's groups of 32 too).
pub(super) const RING: usize = 64;

const _: () = assert!(RING.is_power_of_two() && BLOCK * GROUP + LAG <= RING && 32 + LAG <= RING);

/// The stack's ring, 64-byte aligned: the local matrices' rows, each row
/// of each joint 16 bytes (`rows[r][j % RING]`: a register of two or four
/// joints' row stores whole, and the chain broadcasts a row from it).
#[repr(C, align(64))]
pub(super) struct Ring {
    /// Row `r` of joint `j`'s local matrix at `rows[r][j % RING]`.
    rows: [[[f32; 4]; RING]; 3],
}

/// Row `r` of the local matrix in ring slot `slot` of the ring at `ring`
/// ([`Ring`], as floats).
#[inline(always)]
pub(super) fn row_at(ring: *mut f32, r: usize, slot: usize) -> *mut f32 {
    ring.wrapping_add(4 * (RING * r + slot))
}

pose_kernels!(
    fused "the AVX2 + FMA successors fused (see the module documentation)",
    #[target_feature(enable = "avx2,fma")]
    slerp: pose::<true>,
    lerp: pose::<false>
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
unsafe fn pose<const SLERP: bool>(args: Args) {
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
    // Not initialised: the chain reads only the slots the blocks have
    // written.
    let mut rows = core::mem::MaybeUninit::<Ring>::uninit();
    let ring = rows.as_mut_ptr().cast::<f32>();
    // Groups of three blocks (their blends interleave), then two, one, and
    // a zero-padded block for the last one to seven joints; the chain
    // follows `LAG` joints behind what the blocks have stored.
    let mut i = 0;
    let mut composed = 0;
    while i < n {
        let left = n - i;
        // SAFETY: joints `i..i + size` of every array are valid (caller's
        // contract; `size <= left`); `other` and `scale` are null or arrays
        // of `n`; the stack blocks hold eight and do not overlap them; `i`
        // is a multiple of eight and the ring slots of `i..i + size` hold
        // joints the chain has composed.
        let size = unsafe {
            let b = if other.is_null() { other } else { other.add(i) };
            let s = if scale.is_null() { scale } else { scale.add(i) };
            if left >= BLOCK * GROUP {
                block::<SLERP, GROUP>(ring, i, src.add(i), b, s, f);
                BLOCK * GROUP
            } else if left >= 2 * BLOCK {
                block::<SLERP, 2>(ring, i, src.add(i), b, s, f);
                2 * BLOCK
            } else if left >= BLOCK {
                block::<SLERP, 1>(ring, i, src.add(i), b, s, f);
                BLOCK
            } else {
                let mut pa = [JointQuat::default(); BLOCK];
                let mut pb = [JointQuat::default(); BLOCK];
                let mut ps = [Vec4::default(); BLOCK];
                core::ptr::copy_nonoverlapping(src.add(i), pa.as_mut_ptr(), left);
                if !b.is_null() {
                    core::ptr::copy_nonoverlapping(b, pb.as_mut_ptr(), left);
                }
                if !s.is_null() {
                    core::ptr::copy_nonoverlapping(s, ps.as_mut_ptr(), left);
                }
                let b = if b.is_null() { b } else { pb.as_ptr() };
                let s = if s.is_null() { s } else { ps.as_ptr() };
                block::<SLERP, 1>(ring, i, pa.as_ptr(), b, s, f);
                left
            }
        };
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

/// `8 N` joints' local matrices into the ring from joint `at`: `[R | t]`
/// of the blend of `a[k]` and `b[k]` (of `a[k]` alone when `b` is null),
/// `R`'s columns scaled by `s[k]` when `s` is not null; the `N` blocks of
/// eight side by side, step by step.
///
/// # Safety
///
/// AVX2 and FMA; `a` (and `b`, `s` when not null) valid for reads of `8 N`
/// elements; `at` a multiple of eight.
// The blocks are indexed on purpose: `v` addresses several arrays in step.
#[allow(clippy::needless_range_loop)]
#[inline]
#[target_feature(enable = "avx2,fma")]
unsafe fn block<const SLERP: bool, const N: usize>(
    ring: *mut f32,
    at: usize,
    a: *const JointQuat,
    b: *const JointQuat,
    s: *const Vec4,
    f: Factor,
) {
    let zero = _mm256_setzero_ps();
    let mut q = [[zero; 4]; N];
    let mut t = [[zero; 4]; N];
    // SAFETY: the caller's contract is `load`'s, `store_rows`' and the
    // scale loads' (eight `Vec4` per block, 128 contiguous bytes).
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
            store_rows(ring, at + BLOCK * v, &m, &t[v]);
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

/// The rows of eight joints' local matrices (`m` and `t` in
/// `quats_to_mats::avx2::load`'s lane order: lanes 0-3 joints 0, 2, 4, 6,
/// lanes 4-7 joints 1, 3, 5, 7) into the ring from joint `at`: row `r` of
/// joints `2k` and `2k + 1` (adjacent slots) is register `k` of the
/// in-lane transpose of `R`'s row and the translation.
///
/// # Safety
///
/// AVX2; `at` a multiple of eight (the eight slots do not wrap).
#[inline]
#[target_feature(enable = "avx2,fma")]
pub(super) unsafe fn store_rows(ring: *mut f32, at: usize, m: &[__m256; 9], t: &[__m256; 4]) {
    let base = at % RING;
    for r in 0..3 {
        let rows = transpose_lane4(m[3 * r], m[3 * r + 1], m[3 * r + 2], t[r]);
        for (k, row) in rows.into_iter().enumerate() {
            // SAFETY: slots `base + 2k` and `base + 2k + 1` are inside row
            // `r`'s array (`base` a multiple of eight, below `RING`), 32-byte
            // aligned (the ring is 64-byte aligned, a slot 16 bytes).
            unsafe { _mm256_store_ps(row_at(ring, r, base + 2 * k), row) };
        }
    }
}

/// Writes `chain`, compiled for the target features given (each fused
/// form's own, so that the `Avx512` form's copy is compiled, and inlined,
/// with its features: called across, its copy compiled for AVX2 alone took
/// that form 1.04-1.07x its time on Zen 4).
macro_rules! ring_chain {
    ($features:literal) => {
        /// Joints `first..last`, whose local rows are in the ring: each composed
        /// with its parent's model matrix (a root's is its local one), stored into
        /// `model`, and, with a skin, multiplied by its inverse bind matrix. The
        /// joint composed last stays in registers, and a child of it takes its
        /// parent from there instead of from memory.
        ///
        /// # Safety
        ///
        /// AVX2 and FMA; the joints are in every array, their parents are `-1` or
        /// earlier joints, already composed; their rows in the ring are theirs
        /// (the caller's contract).
        #[inline]
        #[target_feature(enable = $features)]
        unsafe fn chain(
            ring: *mut f32,
            model: *mut $crate::types::JointMat,
            skin: *mut $crate::types::JointMat,
            parents: *const i32,
            inverse_bind: *const $crate::types::JointMat,
            first: usize,
            last: usize,
        ) {
            use core::arch::x86_64::*;
            use $crate::pose::avx2::{RING, row_at};
            use $crate::transform_joints::avx2::multiply;
            use $crate::transform_skeleton::avx2::{child_rows, compose_held, compose_loaded};
            /// Floats per joint matrix.
            const FLOATS: usize = 12;
            let out = model.cast::<f32>();
            let neg_zero = _mm256_castsi256_ps(_mm256_set1_epi32($crate::consts::IEEE_SP_SIGN as i32));
            let mut held: Option<(usize, __m256, __m128)> = None;
            for j in first..last {
                // SAFETY: joint `j` is in every array and `parents[j]` is `-1` or a
                // joint before it, composed into `model` (caller's contract); the
                // ring's rows of joint `j` were stored by its block, 16-byte
                // aligned; every access to `model`, `skin` and `inverse_bind` is the
                // 48 bytes of joint `j` or `p`, 16-byte aligned as `JointMat` is:
                // `child_rows`', `compose_loaded`'s and `multiply`'s contracts.
                unsafe {
                    let p = *parents.add(j);
                    let slot = j % RING;
                    let rows = [row_at(ring, 0, slot), row_at(ring, 1, slot), row_at(ring, 2, slot)];
                    let child = out.add(FLOATS * j);
                    let a = child_rows(rows[0], rows[1], rows[2]);
                    let (y, x) = if p < 0 {
                        (_mm256_blend_ps::<0xF0>(a[0], a[1]), _mm256_castps256_ps128(a[2]))
                    } else {
                        match held {
                            Some((h, p01, p2)) if h == p as usize => compose_held(a, p01, p2, neg_zero),
                            _ => compose_loaded(a, out.add(FLOATS * p as usize), neg_zero),
                        }
                    };
                    _mm256_storeu_ps(child, y);
                    _mm_store_ps(child.add(8), x);
                    held = Some((j, y, x));
                    if !skin.is_null() {
                        multiply(skin.add(j).cast(), child, inverse_bind.add(j).cast(), neg_zero);
                    }
                }
            }
        }
    };
}
pub(super) use ring_chain;

ring_chain!("avx2,fma");
