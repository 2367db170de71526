//! Appendix A of *From Quaternion to Matrix and Back* (SSE/SSE2
//! `ConvertJointQuatsToJointMats`) with `core::arch::x86_64` intrinsics: the
//! listing's operations in the listing's order, one variable per `xmm`
//! register, each statement commented with the instruction it stands for.
//! Every output that is not a NaN is bit-identical to [`super::asm`]'s (no
//! instruction of the listing approximates, so LLVM's exactly-equivalent
//! rewrites cannot change a value); a NaN output is a NaN in both, but its
//! sign and payload may differ, because Rust and LLVM leave the NaN bits of
//! arithmetic unspecified. The translation is only moved, never computed, so
//! its bits (NaN payloads included) are copied exactly.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! How the listing maps to Rust:
//! - `eax` is the listing's byte offset from the end of `jointQuats`
//!   (`-JOINTQUAT_SIZE * numJoints` upwards), `esi` / `edi` are byte
//!   pointers, `edi` pre-incremented by `JOINTMAT_SIZE` as in the listing
//!   (stores go to `edi - JOINTMAT_SIZE + ...`);
//! - `pshufd` is `_mm_shuffle_epi32` between `_mm_castps_si128` /
//!   `_mm_castsi128_ps` (casts move no bits);
//! - `movss xmm7, SIMD_SP_one` is `_mm_load_ss` of the static (it zeroes the
//!   upper lanes, as the memory form of `movss`), `addss xmm4, SIMD_SP_one`
//!   takes the constant's full register (only lane 0 is used), `movss xmm2,
//!   xmm0` is `_mm_move_ss`, `movhlps` is `_mm_movehl_ps` and the `movss`
//!   stores are `_mm_store_ss`.

use crate::consts::{SIMD_SP_ONE, SIMD_SP_QUAT2MAT_X0, SIMD_SP_QUAT2MAT_X1, SIMD_SP_QUAT2MAT_X2};
use crate::types::{JOINTMAT_SIZE, JOINTQUAT_Q_OFFSET, JOINTQUAT_SIZE, JOINTQUAT_SIZE_SHIFT, JOINTQUAT_T_OFFSET};
use crate::types::{JointMat, JointQuat};
use crate::x86::shuffle::{r_shuffle_d, r_shuffle_ps};
use core::arch::x86_64::*;

const D1001: i32 = r_shuffle_d(1, 0, 0, 1);
const D1122: i32 = r_shuffle_d(1, 1, 2, 2);
const D2333: i32 = r_shuffle_d(2, 3, 3, 3);
const D2210: i32 = r_shuffle_d(2, 2, 1, 0);
const S0123: i32 = r_shuffle_ps(0, 1, 2, 3);
const S1230: i32 = r_shuffle_ps(1, 2, 3, 0);
const S1032: i32 = r_shuffle_ps(1, 0, 3, 2);
const S1302: i32 = r_shuffle_ps(1, 3, 0, 2);

/// `ConvertJointQuatsToJointMats` of Appendix A with SSE/SSE2 intrinsics:
/// writes the matrix of `joint_quats[i]` into `joint_mats[i]` for `i` in
/// `0..num_joints`, one joint per iteration of `loopQuat`, as
/// [`super::asm::quats_to_mats`] (see there for what each step computes) and
/// bit-identical to it except for the sign and payload of NaN outputs.
///
/// # Safety
///
/// As [`super::asm::quats_to_mats`]: `0 <= num_joints <= super::MAX_JOINTS`;
/// if `num_joints > 0`, `joint_quats` is 16-byte aligned and valid for reads
/// of `num_joints` [`JointQuat`], `joint_mats` is 16-byte aligned and valid
/// for writes of `num_joints` [`JointMat`], and the two do not overlap.
#[inline(never)]
pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    // SAFETY: the caller upholds the contract above, which is `kernel`'s;
    // SSE2 is part of the x86_64 baseline.
    unsafe { kernel(joint_mats, joint_quats, num_joints) }
}

/// The listing's `__asm` block. `0*16 + 0*4` and the like are kept as the
/// listing writes them.
///
/// # Safety
///
/// As [`quats_to_mats`].
#[inline]
#[target_feature(enable = "sse2")]
#[allow(clippy::identity_op, clippy::erasing_op)]
unsafe fn kernel(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    let (mut xmm0, mut xmm1, mut xmm2, mut xmm3, mut xmm4, mut xmm5, mut xmm6, mut xmm7): (
        __m128,
        __m128,
        __m128,
        __m128,
        __m128,
        __m128,
        __m128,
        __m128,
    );
    const MAT: isize = JOINTMAT_SIZE as isize;

    let mut eax: isize = ((num_joints as u32) << JOINTQUAT_SIZE_SHIFT) as isize; // mov eax, numJoints ; shl eax, JOINTQUAT_SIZE_SHIFT
    let mut esi: *const u8 = joint_quats.cast(); //                               mov esi, jointQuats
    let mut edi: *mut u8 = joint_mats.cast(); //                                  mov edi, jointMats
    esi = esi.wrapping_offset(eax); //                                            add esi, eax
    eax = -eax; //                                                                neg eax
    if eax == 0 {
        return; //                                                                jz  done
    }

    loop {
        // loopQuat:
        // SAFETY: `esi + eax` (eax in -32*numJoints..0, step 32) is
        // `joint_quats[i]` for i in 0..numJoints, 16-byte aligned; after the
        // `add edi`, `edi - JOINTMAT_SIZE` is `joint_mats[i]`, 16-byte
        // aligned, and every store stays in its 48 bytes (caller's contract).
        unsafe {
            xmm0 = _mm_load_ps(esi.offset(eax + JOINTQUAT_Q_OFFSET as isize).cast()); // movaps xmm0, [esi+eax+JOINTQUAT_Q_OFFSET]
            xmm6 = _mm_load_ps(esi.offset(eax + JOINTQUAT_T_OFFSET as isize).cast()); // movaps xmm6, [esi+eax+JOINTQUAT_T_OFFSET]
            edi = edi.add(JOINTMAT_SIZE); //                                             add    edi, JOINTMAT_SIZE
            xmm1 = xmm0; //                                                              movaps xmm1, xmm0
            xmm1 = _mm_add_ps(xmm1, xmm1); //                                            addps  xmm1, xmm1
            eax += JOINTQUAT_SIZE as isize; //                                           add    eax, JOINTQUAT_SIZE

            // calculate the 9 products
            xmm2 = _mm_castsi128_ps(_mm_shuffle_epi32::<D1001>(_mm_castps_si128(xmm0))); // pshufd xmm2, xmm0, R_SHUFFLE_D( 1, 0, 0, 1 )
            xmm3 = _mm_castsi128_ps(_mm_shuffle_epi32::<D1122>(_mm_castps_si128(xmm1))); // pshufd xmm3, xmm1, R_SHUFFLE_D( 1, 1, 2, 2 )
            xmm2 = _mm_mul_ps(xmm2, xmm3); //                                            mulps  xmm2, xmm3
            xmm4 = _mm_castsi128_ps(_mm_shuffle_epi32::<D2333>(_mm_castps_si128(xmm0))); // pshufd xmm4, xmm0, R_SHUFFLE_D( 2, 3, 3, 3 )
            xmm5 = _mm_castsi128_ps(_mm_shuffle_epi32::<D2210>(_mm_castps_si128(xmm1))); // pshufd xmm5, xmm1, R_SHUFFLE_D( 2, 2, 1, 0 )
            xmm4 = _mm_mul_ps(xmm4, xmm5); //                                            mulps  xmm4, xmm5
            xmm0 = _mm_mul_ss(xmm0, xmm1); //                                            mulss  xmm0, xmm1

            // calculate the last two elements of the third row
            xmm7 = _mm_load_ss(SIMD_SP_ONE.0.as_ptr()); //                               movss  xmm7, SIMD_SP_one
            xmm7 = _mm_sub_ss(xmm7, xmm0); //                                            subss  xmm7, xmm0
            xmm7 = _mm_sub_ss(xmm7, xmm2); //                                            subss  xmm7, xmm2
            xmm7 = _mm_shuffle_ps::<S0123>(xmm7, xmm6); //                               shufps xmm7, xmm6, R_SHUFFLE_PS( 0, 1, 2, 3 )

            // calculate first row
            xmm2 = _mm_xor_ps(xmm2, SIMD_SP_QUAT2MAT_X0.ps()); //                        xorps  xmm2, SIMD_SP_quat2mat_x0
            xmm4 = _mm_xor_ps(xmm4, SIMD_SP_QUAT2MAT_X1.ps()); //                        xorps  xmm4, SIMD_SP_quat2mat_x1
            xmm4 = _mm_add_ss(xmm4, SIMD_SP_ONE.ps()); //                                addss  xmm4, SIMD_SP_one
            xmm3 = xmm4; //                                                              movaps xmm3, xmm4
            xmm3 = _mm_sub_ps(xmm3, xmm2); //                                            subps  xmm3, xmm2
            _mm_store_ps(edi.offset(-MAT + 0 * 16 + 0 * 4).cast(), xmm3); //             movaps [edi-JOINTMAT_SIZE+0*16+0*4], xmm3
            _mm_store_ss(edi.offset(-MAT + 0 * 16 + 3 * 4).cast(), xmm6); //             movss  [edi-JOINTMAT_SIZE+0*16+3*4], xmm6

            // calculate second row
            xmm2 = _mm_move_ss(xmm2, xmm0); //                                           movss  xmm2, xmm0
            xmm4 = _mm_xor_ps(xmm4, SIMD_SP_QUAT2MAT_X2.ps()); //                        xorps  xmm4, SIMD_SP_quat2mat_x2
            xmm4 = _mm_sub_ps(xmm4, xmm2); //                                            subps  xmm4, xmm2
            xmm6 = _mm_shuffle_ps::<S1230>(xmm6, xmm6); //                               shufps xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )
            xmm4 = _mm_shuffle_ps::<S1032>(xmm4, xmm4); //                               shufps xmm4, xmm4, R_SHUFFLE_PS( 1, 0, 3, 2 )
            _mm_store_ps(edi.offset(-MAT + 1 * 16 + 0 * 4).cast(), xmm4); //             movaps [edi-JOINTMAT_SIZE+1*16+0*4], xmm4
            _mm_store_ss(edi.offset(-MAT + 1 * 16 + 3 * 4).cast(), xmm6); //             movss  [edi-JOINTMAT_SIZE+1*16+3*4], xmm6

            // calculate third row
            xmm3 = _mm_movehl_ps(xmm3, xmm4); //                                         movhlps xmm3, xmm4
            xmm3 = _mm_shuffle_ps::<S1302>(xmm3, xmm7); //                               shufps xmm3, xmm7, R_SHUFFLE_PS( 1, 3, 0, 2 )
            _mm_store_ps(edi.offset(-MAT + 2 * 16 + 0 * 4).cast(), xmm3); //             movaps [edi-JOINTMAT_SIZE+2*16+0*4], xmm3
        }
        if eax >= 0 {
            break; //                                                                    jl loopQuat
        }
    }
    // done:
}
