//! The scalar form: the C loop with which Mehrotra and Hubbard's
//! `ProcessOptimizedKernel` handles the quaternions left over after the
//! 16-wide AVX loop ("Handle any remaining quaternions"), line by line.
//!
//! Port licensed under the GNU LGPL 2.1 or later. The loop is van Waveren's
//! `SlerpOptimized` (*Slerping Clock Cycles*, section 5; Copyright (C) 2005
//! Id Software, Inc., written by J.M.P. van Waveren), written inline.
//!
//! The article does not print `reciprocalSqrt`, `atanPositive` or
//! `sinZeroHalfPi`; it says that both its scalar and its SIMD code follow
//! the optimized slerp of its reference \[1\], *Slerping Clock Cycles*. So
//! these are van Waveren's `ReciprocalSqrt` (the `0x5f3759df` bit trick and
//! one Newton-Raphson step), `ATanPositive` and `SinZeroHalfPI`, the crate's
//! [`crate::slerp_joints::scalar`] functions (shared, not copied).
//! `atanPositive` takes a third argument, the loop index `i`, that no value
//! of the routine depends on: the port drops it.
//!
//! Two loops:
//! - [`remainder_loop_as_published`]: the article's loop. Its
//!   `reciprocalSqrt` is good to about 1.75e-3 relative, so quaternions that
//!   take this loop are about 1000 times less accurate than the corrected
//!   vector loop (erratum E6 of `asm_notes/slerp_quats.md`);
//! - [`remainder_loop_corrected`]: the same loop with `1.0f / sqrtf( sinSqr )`
//!   (about 2.5e-7 against an f64 slerp).
//!
//! [`slerp_quats_as_published`] and [`slerp_quats_corrected`] run these loops
//! over the whole arrays: the scalar form of the routine, [`crate::Impl::Scalar`].

use crate::math::{atan_positive, reciprocal_sqrt, sin_zero_half_pi};
use crate::math::{fabs, sqrt};
use crate::types::Quat;

/// The article's remainder loop with the reciprocal square root `rsqrt`:
/// `for( int i = first; i < count; i++ )`.
///
/// # Safety
///
/// As [`remainder_loop_as_published`].
#[inline(always)]
unsafe fn remainder_loop(
    rsqrt: fn(f32) -> f32,
    result_quaternion: *mut Quat,
    from_quaternion: *const Quat,
    to_quaternion: *const Quat,
    g_factor: f32,
    first: i32,
    g_quaternion_count: i32,
) {
    let (mut cosom, mut abs_cosom, mut sinom, mut sin_sqr, mut omega, mut scale0, mut scale1): (
        f32,
        f32,
        f32,
        f32,
        f32,
        f32,
        f32,
    );
    for i in first.max(0)..g_quaternion_count {
        let i = i as usize;
        // SAFETY: the caller guarantees elements `first..count` of the three
        // arrays are valid (reads from `from`/`to`, writes to `result`). Each
        // element is read completely before its result is written.
        let (from, to) = unsafe { (*from_quaternion.add(i), *to_quaternion.add(i)) };
        cosom = from.x * to.x + from.y * to.y + from.z * to.z + from.w * to.w;
        abs_cosom = fabs(cosom);
        if (1.0f32 - abs_cosom) > 1e-6f32 {
            sin_sqr = 1.0f32 - abs_cosom * abs_cosom;
            sinom = rsqrt(sin_sqr);
            omega = atan_positive(sin_sqr * sinom, abs_cosom); // atanPositive( sinSqr*sinom, absCosom, i )
            scale0 = sin_zero_half_pi((1.0f32 - g_factor) * omega) * sinom;
            scale1 = sin_zero_half_pi(g_factor * omega) * sinom;
        } else {
            scale0 = 1.0f32 - g_factor;
            scale1 = g_factor;
        }
        scale1 = if cosom >= 0.0f32 { scale1 } else { -scale1 };
        let result = Quat {
            x: scale0 * from.x + scale1 * to.x,
            y: scale0 * from.y + scale1 * to.y,
            z: scale0 * from.z + scale1 * to.z,
            w: scale0 * from.w + scale1 * to.w,
        };
        // SAFETY: see above.
        unsafe { result_quaternion.add(i).write(result) };
    }
}

/// `1.0f / sqrtf( x )`: the corrected loop's reciprocal square root.
fn reciprocal_sqrt_exact(x: f32) -> f32 {
    1.0f32 / sqrt(x)
}

/// The article's "Handle any remaining quaternions" loop, as published:
/// `result[i] = slerp( from[i], to[i], factor )` for `first <= i < count`
/// with van Waveren's `SlerpOptimized` (the `ReciprocalSqrt` bit trick:
/// about 1.75e-3 relative, erratum E6). The AVX kernels call it with
/// `first = count & 0xfffffff0`.
///
/// Per quaternion it computes exactly
/// [`crate::slerp_joints::scalar::slerp_optimized`] (`tests/slerp_quats.rs`
/// checks it bit for bit): `cosom` summed left to right, the linear fallback
/// when `1 - |cosom| <= 1e-6`, `-scale1` when `cosom < 0` (not for `-0.0`).
///
/// # Safety
///
/// If `first < count`: `from_quaternion` and `to_quaternion` are valid for
/// reads and `result_quaternion` for writes of elements `first..count`; the
/// result may be one of the inputs (each element is read before it is
/// written) but must not overlap them otherwise.
#[inline(never)]
pub unsafe fn remainder_loop_as_published(
    result_quaternion: *mut Quat,
    from_quaternion: *const Quat,
    to_quaternion: *const Quat,
    g_factor: f32,
    first: i32,
    g_quaternion_count: i32,
) {
    // SAFETY: the caller's contract is `remainder_loop`'s.
    unsafe {
        remainder_loop(
            reciprocal_sqrt,
            result_quaternion,
            from_quaternion,
            to_quaternion,
            g_factor,
            first,
            g_quaternion_count,
        )
    }
}

/// [`remainder_loop_as_published`] with `reciprocalSqrt( sinSqr )` replaced
/// by `1.0f / sqrtf( sinSqr )` (erratum E6): about 2.5e-7 against an f64
/// slerp, as accurate as the corrected vector loop.
///
/// # Safety
///
/// As [`remainder_loop_as_published`].
#[inline(never)]
pub unsafe fn remainder_loop_corrected(
    result_quaternion: *mut Quat,
    from_quaternion: *const Quat,
    to_quaternion: *const Quat,
    g_factor: f32,
    first: i32,
    g_quaternion_count: i32,
) {
    // SAFETY: the caller's contract is `remainder_loop`'s.
    unsafe {
        remainder_loop(
            reciprocal_sqrt_exact,
            result_quaternion,
            from_quaternion,
            to_quaternion,
            g_factor,
            first,
            g_quaternion_count,
        )
    }
}

/// The scalar form of the routine as published: the article's remainder loop
/// over the whole arrays (`first = 0`), `result[i] = slerp( from[i], to[i],
/// g_factor )` for `0 <= i < g_quaternion_count`.
///
/// # Safety
///
/// If `g_quaternion_count > 0`: `from_quaternion` and `to_quaternion` are
/// valid for reads and `result_quaternion` for writes of
/// `g_quaternion_count` quaternions (no alignment beyond `Quat`'s is
/// needed); `result_quaternion` may be one of the inputs but must not
/// overlap them otherwise.
#[inline(never)]
pub unsafe fn slerp_quats_as_published(
    result_quaternion: *mut Quat,
    from_quaternion: *const Quat,
    to_quaternion: *const Quat,
    g_factor: f32,
    g_quaternion_count: i32,
) {
    // SAFETY: elements 0..count, the caller's contract.
    unsafe {
        remainder_loop_as_published(result_quaternion, from_quaternion, to_quaternion, g_factor, 0, g_quaternion_count)
    }
}

/// The scalar form of the corrected routine: [`remainder_loop_corrected`]
/// over the whole arrays.
///
/// # Safety
///
/// As [`slerp_quats_as_published`].
#[inline(never)]
pub unsafe fn slerp_quats_corrected(
    result_quaternion: *mut Quat,
    from_quaternion: *const Quat,
    to_quaternion: *const Quat,
    g_factor: f32,
    g_quaternion_count: i32,
) {
    // SAFETY: elements 0..count, the caller's contract.
    unsafe {
        remainder_loop_corrected(result_quaternion, from_quaternion, to_quaternion, g_factor, 0, g_quaternion_count)
    }
}
