//! The 128-bit baseline of the article's Table 1: van Waveren's SSE slerp
//! (*Slerping Clock Cycles*, Appendix A) "converted to C intrinsics" and run
//! over the same quaternion arrays as the AVX kernel, four quaternions per
//! iteration, the rest one at a time.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! The article does not print its SSE code; it says the SSE version was van
//! Waveren's listing converted to C intrinsics "with no additional
//! optimizations applied", on 16-byte-aligned data. This kernel is that
//! listing without what `SlerpJoints` adds around the slerp (the `index`
//! indirection, the translations, the early-outs for `lerp <= 0` and
//! `lerp >= 1`): load four "from" and four "to" quaternions with `movaps`,
//! transpose both (`TRANSPOSE_4x4`, `src/x86/shuffle.rs`), run
//! `loopJoint4`'s slerp (`src/x86/slerp_core.rs`), transpose the results back
//! and store them with `movaps`; the last `count % 4` quaternions go through
//! `loopJoint1`'s one-wide slerp. The slerp core is shared with nothing
//! copied; its results are those of `slerp_joints` bit for bit (for `0 <
//! lerp < 1` and any count but 4, which `slerp_joints` sends through its
//! one-wide loop: erratum E1 of `asm_notes/slerp_joints.md`).
//!
//! Its accuracy is the SSE slerp's: 4.8e-7 against an f64 slerp.

use crate::types::Quat;
use crate::x86::shuffle::transpose_4x4;
use crate::x86::slerp_core::{slerp1, slerp4};
use core::arch::x86_64::*;

/// `result[i] = slerp( from[i], to[i], factor )` for `0 <= i < count` with
/// van Waveren's SSE slerp: four quaternions per iteration, then one at a
/// time. The 128-bit kernel that the AVX article's Table 1 compares with.
///
/// # Safety
///
/// If `count > 0`: `from` and `to` are valid for reads and `result` for
/// writes of `count` quaternions, all 16-byte aligned (as every [`Quat`]
/// is); `result` may be one of the inputs (each group is read before it is
/// written) but must not overlap them otherwise.
#[inline(never)]
pub unsafe fn slerp_quats_sse(result: *mut Quat, from: *const Quat, to: *const Quat, factor: f32, count: i32) {
    // SAFETY: the caller's contract; SSE2 is part of the x86_64 baseline.
    unsafe { kernel(result, from, to, factor, count) }
}

/// The loops of [`slerp_quats_sse`].
///
/// # Safety
///
/// As [`slerp_quats_sse`].
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn kernel(result: *mut Quat, from: *const Quat, to: *const Quat, factor: f32, count: i32) {
    let n = count.max(0) as usize;
    let (from, to, result) = (from.cast::<f32>(), to.cast::<f32>(), result.cast::<f32>());
    let mut i = 0;
    while i + 4 <= n {
        // SAFETY: quaternions i..i+4 are in bounds (i + 4 <= count) and
        // 16-byte aligned (caller's contract); offsets are in floats.
        unsafe {
            let mut joint_quat: [__m128; 4] = core::array::from_fn(|k| _mm_load_ps(from.add((i + k) * 4)));
            let mut blend_quat: [__m128; 4] = core::array::from_fn(|k| _mm_load_ps(to.add((i + k) * 4)));
            let mut tmp = _mm_setzero_ps();
            let [j0, j1, j2, j3] = &mut joint_quat;
            transpose_4x4(j0, j1, j2, j3, &mut tmp);
            let [b0, b1, b2, b3] = &mut blend_quat;
            transpose_4x4(b0, b1, b2, b3, &mut tmp);
            let mut r = slerp4(joint_quat, blend_quat, factor);
            let [r0, r1, r2, r3] = &mut r;
            transpose_4x4(r0, r1, r2, r3, &mut tmp);
            for (k, q) in r.into_iter().enumerate() {
                _mm_store_ps(result.add((i + k) * 4), q);
            }
        }
        i += 4;
    }
    while i < n {
        // SAFETY: quaternion i is in bounds and 16-byte aligned.
        unsafe {
            let q = slerp1(_mm_load_ps(from.add(i * 4)), _mm_load_ps(to.add(i * 4)), factor);
            _mm_store_ps(result.add(i * 4), q);
        }
        i += 1;
    }
}
