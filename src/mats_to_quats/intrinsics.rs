//! Appendix B of *From Quaternion to Matrix and Back* (SSE
//! `ConvertJointMatsToJointQuats`) with `core::arch::x86_64` intrinsics: the
//! listing's operations in the listing's order, one variable per `xmm`
//! register, each statement commented with the instruction it stands for.
//! Every output that is not a NaN is bit-identical to [`super::asm`]'s; a NaN
//! output is a NaN in both, but its sign and payload may differ in optimised
//! builds (Rust and LLVM leave the NaN bits of arithmetic unspecified, and
//! LLVM may commute `addps`/`mulps` or turn `subps x, c` into `addps x, -c`,
//! which picks a different NaN operand).
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! How the listing maps to Rust:
//! - `eax` is the listing's byte offset from the end of the current block of
//!   matrices (`-JOINTMAT_SIZE * count` upwards), `esi` / `edi` byte
//!   pointers, `ecx` / `edx` the 32-bit values the listing moves (a
//!   `shuffle` byte, or a translation copied as raw bits with `mov`); the
//!   loops keep the listing's entry and exit tests;
//! - the stack array `shuffle` is a 16-byte-aligned local byte array,
//!   written with `_mm_store_ps` (`movaps shuffle, xmm4`) or `_mm_store_ss`
//!   (`movss shuffle, xmm4`) and read back byte by byte (`movzx`);
//! - `movss xmm, [mem]` is `_mm_load_ss` (it zeroes the upper lanes, as the
//!   memory form of `movss` does), `movss xmm, xmm` is `_mm_move_ss`, an `ss`
//!   instruction with a memory operand takes `_mm_load_ss` of it or the
//!   constant's full register (only lane 0 is used), and the `mov` copies of
//!   the translations and the `mov dword ptr [...], 0` of `q[7]` are `u32`
//!   reads and writes;
//! - in `loopMat1`, `rsqrtss xmm6, xmm5` keeps xmm6's upper lanes while
//!   `_mm_rsqrt_ss` takes xmm5's; those lanes never reach memory: every value
//!   `loopMat1` stores comes from lane 0.

use crate::consts::{
    Align16, SIMD_DW_MAT2QUAT_SHUFFLE0, SIMD_DW_MAT2QUAT_SHUFFLE1, SIMD_DW_MAT2QUAT_SHUFFLE2,
    SIMD_DW_MAT2QUAT_SHUFFLE3, SIMD_SP_MAT2QUAT_RSQRT_C1, SIMD_SP_NOT, SIMD_SP_ONE, SIMD_SP_RSQRT_C0, SIMD_SP_SIGN_BIT,
    SIMD_SP_ZERO,
};
use crate::types::{JOINTMAT_SIZE, JOINTQUAT_SIZE, JointMat, JointQuat};
use crate::x86::shuffle::r_shuffle_ps;
use core::arch::x86_64::*;

/// `R_SHUFFLE_PS( 3, 0, 1, 2 )`: move every lane up by one (lane 3 to lane 0).
const S3012: i32 = r_shuffle_ps(3, 0, 1, 2);
/// `R_SHUFFLE_PS( 1, 2, 3, 0 )`: move every lane down by one (lane 0 to lane 3).
const S1230: i32 = r_shuffle_ps(1, 2, 3, 0);
/// `JOINTMAT_SIZE` as an address offset.
const MS: isize = JOINTMAT_SIZE as isize;
/// `JOINTQUAT_SIZE` as an address offset.
const QS: isize = JOINTQUAT_SIZE as isize;

/// `ConvertJointMatsToJointQuats` of Appendix B with SSE intrinsics: for
/// each of `num_joints` joints, the quaternion of the rotation part of
/// `joint_mats[i]` (the paper's transposed convention, see
/// [`crate::mats_to_quats`](mod@crate::mats_to_quats)) and its translation, with `q[7] = 0`.
///
/// As the listing: four joints per iteration while at least four remain,
/// the rest one at a time; the cases are chosen with `cmpnltps` (`>=`, true
/// on NaN). Bit-identical to [`super::asm::mats_to_quats`] except for the
/// sign and payload of NaN outputs (see the module documentation).
///
/// # Safety
///
/// - `joint_quats` is valid for writes and `joint_mats` for reads of
///   `num_joints` elements, and the two lists do not overlap;
/// - `0 <= num_joints <= super::MAX_JOINTS`.
#[inline(never)]
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    // SAFETY: the caller upholds the contract above, which is `kernel`'s;
    // SSE2 is part of the x86_64 baseline.
    unsafe { kernel(joint_quats, joint_mats, num_joints) }
}

/// The listing's `__asm` block. `0*JOINTMAT_SIZE`, `+0*16` and the like are
/// kept as the listing writes them.
///
/// # Safety
///
/// As [`mats_to_quats`].
#[inline]
#[target_feature(enable = "sse2")]
#[allow(clippy::identity_op, clippy::erasing_op, clippy::neg_multiply)]
unsafe fn kernel(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
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
    let mut shuffle = Align16([0u8; 16]); //                                ALIGN16( byte shuffle[16]; )
    let (mut ecx, mut edx): (u32, u32);

    let mut eax: isize = num_joints as isize; //                             mov eax, numJoints
    let mut esi: *const u8 = joint_mats.cast(); //                          mov esi, jointMats
    let mut edi: *mut u8 = joint_quats.cast(); //                           mov edi, jointQuats
    eax &= !3; //                                                           and eax, ~3
    if eax != 0 {
        //                                                                  jz done4
        eax *= MS; //                                                       imul eax, JOINTMAT_SIZE
        // SAFETY: `eax` is the byte size of the first `num_joints & !3`
        // matrices: `esi` becomes the end of that block, inside (or one past
        // the end of) the caller's list.
        esi = unsafe { esi.offset(eax) }; //                                add esi, eax
        eax = -eax; //                                                      neg eax
        loop {
            // loopMat4:
            // SAFETY: `esi + eax + j*JOINTMAT_SIZE` (eax <= -4*JOINTMAT_SIZE)
            // is the j-th of four matrices of the caller's list and every
            // displacement stays inside it; `edi` (after `add edi,
            // 4*JOINTQUAT_SIZE`) is the end of the four joints written now,
            // the stores `edi - (4-j)*JOINTQUAT_SIZE + k*4` use a `shuffle`
            // byte `k` in 0..4 (the masks are exclusive and exhaustive, the
            // constants permutations of 0..4) or the offsets 16..28: inside
            // joint j. All accesses are 4 bytes, 4-byte aligned.
            unsafe {
                xmm5 = _mm_load_ss(esi.offset(eax + 3 * MS + 0 * 16 + 0 * 4).cast()); // movss xmm5, [esi+eax+3*JOINTMAT_SIZE+0*16+0*4]
                xmm6 = _mm_load_ss(esi.offset(eax + 3 * MS + 1 * 16 + 1 * 4).cast()); // movss xmm6, [esi+eax+3*JOINTMAT_SIZE+1*16+1*4]
                xmm7 = _mm_load_ss(esi.offset(eax + 3 * MS + 2 * 16 + 2 * 4).cast()); // movss xmm7, [esi+eax+3*JOINTMAT_SIZE+2*16+2*4]

                xmm5 = _mm_shuffle_ps::<S3012>(xmm5, xmm5); // shufps xmm5, xmm5, R_SHUFFLE_PS( 3, 0, 1, 2 )
                xmm6 = _mm_shuffle_ps::<S3012>(xmm6, xmm6); // shufps xmm6, xmm6, R_SHUFFLE_PS( 3, 0, 1, 2 )
                xmm7 = _mm_shuffle_ps::<S3012>(xmm7, xmm7); // shufps xmm7, xmm7, R_SHUFFLE_PS( 3, 0, 1, 2 )

                xmm0 = _mm_load_ss(esi.offset(eax + 2 * MS + 0 * 16 + 0 * 4).cast()); // movss xmm0, [esi+eax+2*JOINTMAT_SIZE+0*16+0*4]
                xmm1 = _mm_load_ss(esi.offset(eax + 2 * MS + 1 * 16 + 1 * 4).cast()); // movss xmm1, [esi+eax+2*JOINTMAT_SIZE+1*16+1*4]
                xmm2 = _mm_load_ss(esi.offset(eax + 2 * MS + 2 * 16 + 2 * 4).cast()); // movss xmm2, [esi+eax+2*JOINTMAT_SIZE+2*16+2*4]

                xmm5 = _mm_move_ss(xmm5, xmm0); // movss xmm5, xmm0
                xmm6 = _mm_move_ss(xmm6, xmm1); // movss xmm6, xmm1
                xmm7 = _mm_move_ss(xmm7, xmm2); // movss xmm7, xmm2

                xmm5 = _mm_shuffle_ps::<S3012>(xmm5, xmm5); // shufps xmm5, xmm5, R_SHUFFLE_PS( 3, 0, 1, 2 )
                xmm6 = _mm_shuffle_ps::<S3012>(xmm6, xmm6); // shufps xmm6, xmm6, R_SHUFFLE_PS( 3, 0, 1, 2 )
                xmm7 = _mm_shuffle_ps::<S3012>(xmm7, xmm7); // shufps xmm7, xmm7, R_SHUFFLE_PS( 3, 0, 1, 2 )

                xmm0 = _mm_load_ss(esi.offset(eax + 1 * MS + 0 * 16 + 0 * 4).cast()); // movss xmm0, [esi+eax+1*JOINTMAT_SIZE+0*16+0*4]
                xmm1 = _mm_load_ss(esi.offset(eax + 1 * MS + 1 * 16 + 1 * 4).cast()); // movss xmm1, [esi+eax+1*JOINTMAT_SIZE+1*16+1*4]
                xmm2 = _mm_load_ss(esi.offset(eax + 1 * MS + 2 * 16 + 2 * 4).cast()); // movss xmm2, [esi+eax+1*JOINTMAT_SIZE+2*16+2*4]

                xmm5 = _mm_move_ss(xmm5, xmm0); // movss xmm5, xmm0
                xmm6 = _mm_move_ss(xmm6, xmm1); // movss xmm6, xmm1
                xmm7 = _mm_move_ss(xmm7, xmm2); // movss xmm7, xmm2

                xmm5 = _mm_shuffle_ps::<S3012>(xmm5, xmm5); // shufps xmm5, xmm5, R_SHUFFLE_PS( 3, 0, 1, 2 )
                xmm6 = _mm_shuffle_ps::<S3012>(xmm6, xmm6); // shufps xmm6, xmm6, R_SHUFFLE_PS( 3, 0, 1, 2 )
                xmm7 = _mm_shuffle_ps::<S3012>(xmm7, xmm7); // shufps xmm7, xmm7, R_SHUFFLE_PS( 3, 0, 1, 2 )

                xmm0 = _mm_load_ss(esi.offset(eax + 0 * MS + 0 * 16 + 0 * 4).cast()); // movss xmm0, [esi+eax+0*JOINTMAT_SIZE+0*16+0*4]
                xmm1 = _mm_load_ss(esi.offset(eax + 0 * MS + 1 * 16 + 1 * 4).cast()); // movss xmm1, [esi+eax+0*JOINTMAT_SIZE+1*16+1*4]
                xmm2 = _mm_load_ss(esi.offset(eax + 0 * MS + 2 * 16 + 2 * 4).cast()); // movss xmm2, [esi+eax+0*JOINTMAT_SIZE+2*16+2*4]

                xmm5 = _mm_move_ss(xmm5, xmm0); // movss xmm5, xmm0
                xmm6 = _mm_move_ss(xmm6, xmm1); // movss xmm6, xmm1
                xmm7 = _mm_move_ss(xmm7, xmm2); // movss xmm7, xmm2

                xmm0 = xmm5; // movaps xmm0, xmm5
                xmm0 = _mm_add_ps(xmm0, xmm6); // addps xmm0, xmm6
                xmm0 = _mm_add_ps(xmm0, xmm7); // addps xmm0, xmm7
                xmm0 = _mm_cmpnlt_ps(xmm0, SIMD_SP_ZERO.ps()); // cmpnltps xmm0, SIMD_SP_zero // xmm0 = m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f

                xmm1 = xmm5; // movaps xmm1, xmm5
                xmm2 = xmm5; // movaps xmm2, xmm5
                xmm1 = _mm_cmpnlt_ps(xmm1, xmm6); // cmpnltps xmm1, xmm6
                xmm2 = _mm_cmpnlt_ps(xmm2, xmm7); // cmpnltps xmm2, xmm7
                xmm2 = _mm_and_ps(xmm2, xmm1); // andps xmm2, xmm1 // xmm2 = m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2]

                xmm4 = xmm6; // movaps xmm4, xmm6
                xmm4 = _mm_cmpnlt_ps(xmm4, xmm7); // cmpnltps xmm4, xmm7 // xmm4 = m[1 * 4 + 1] > m[2 * 4 + 2]

                xmm1 = xmm0; // movaps xmm1, xmm0
                xmm1 = _mm_andnot_ps(xmm1, xmm2); // andnps xmm1, xmm2
                xmm2 = _mm_or_ps(xmm2, xmm0); // orps xmm2, xmm0
                xmm3 = xmm2; // movaps xmm3, xmm2
                xmm2 = _mm_andnot_ps(xmm2, xmm4); // andnps xmm2, xmm4
                xmm3 = _mm_or_ps(xmm3, xmm2); // orps xmm3, xmm2
                xmm3 = _mm_xor_ps(xmm3, SIMD_SP_NOT.ps()); // xorps xmm3, SIMD_SP_not

                xmm0 = _mm_and_ps(xmm0, SIMD_DW_MAT2QUAT_SHUFFLE0.ps()); // andps xmm0, SIMD_DW_mat2quatShuffle0
                xmm4 = xmm1; // movaps xmm4, xmm1
                xmm4 = _mm_and_ps(xmm4, SIMD_DW_MAT2QUAT_SHUFFLE1.ps()); // andps xmm4, SIMD_DW_mat2quatShuffle1
                xmm0 = _mm_or_ps(xmm0, xmm4); // orps xmm0, xmm4
                xmm4 = xmm2; // movaps xmm4, xmm2
                xmm4 = _mm_and_ps(xmm4, SIMD_DW_MAT2QUAT_SHUFFLE2.ps()); // andps xmm4, SIMD_DW_mat2quatShuffle2
                xmm0 = _mm_or_ps(xmm0, xmm4); // orps xmm0, xmm4
                xmm4 = xmm3; // movaps xmm4, xmm3
                xmm4 = _mm_and_ps(xmm4, SIMD_DW_MAT2QUAT_SHUFFLE3.ps()); // andps xmm4, SIMD_DW_mat2quatShuffle3
                xmm4 = _mm_or_ps(xmm4, xmm0); // orps xmm4, xmm0
                _mm_store_ps(shuffle.0.as_mut_ptr().cast(), xmm4); // movaps shuffle, xmm4

                xmm0 = xmm2; // movaps xmm0, xmm2
                xmm0 = _mm_or_ps(xmm0, xmm3); // orps xmm0, xmm3 // xmm0 = xmm2 | xmm3 = s0
                xmm2 = _mm_or_ps(xmm2, xmm1); // orps xmm2, xmm1 // xmm2 = xmm1 | xmm2 = s2
                xmm1 = _mm_or_ps(xmm1, xmm3); // orps xmm1, xmm3 // xmm1 = xmm1 | xmm3 = s1

                xmm0 = _mm_and_ps(xmm0, SIMD_SP_SIGN_BIT.ps()); // andps xmm0, SIMD_SP_signBit
                xmm1 = _mm_and_ps(xmm1, SIMD_SP_SIGN_BIT.ps()); // andps xmm1, SIMD_SP_signBit
                xmm2 = _mm_and_ps(xmm2, SIMD_SP_SIGN_BIT.ps()); // andps xmm2, SIMD_SP_signBit

                xmm5 = _mm_xor_ps(xmm5, xmm0); // xorps xmm5, xmm0
                xmm6 = _mm_xor_ps(xmm6, xmm1); // xorps xmm6, xmm1
                xmm7 = _mm_xor_ps(xmm7, xmm2); // xorps xmm7, xmm2
                xmm5 = _mm_add_ps(xmm5, xmm6); // addps xmm5, xmm6
                xmm7 = _mm_add_ps(xmm7, SIMD_SP_ONE.ps()); // addps xmm7, SIMD_SP_one
                xmm5 = _mm_add_ps(xmm5, xmm7); // addps xmm5, xmm7 // xmm5 = t

                xmm7 = xmm5; // movaps xmm7, xmm5 // xmm7 = t

                xmm6 = _mm_rsqrt_ps(xmm5); // rsqrtps xmm6, xmm5
                xmm5 = _mm_mul_ps(xmm5, xmm6); // mulps xmm5, xmm6
                xmm5 = _mm_mul_ps(xmm5, xmm6); // mulps xmm5, xmm6
                xmm5 = _mm_sub_ps(xmm5, SIMD_SP_RSQRT_C0.ps()); // subps xmm5, SIMD_SP_rsqrt_c0
                xmm6 = _mm_mul_ps(xmm6, SIMD_SP_MAT2QUAT_RSQRT_C1.ps()); // mulps xmm6, SIMD_SP_mat2quat_rsqrt_c1
                xmm6 = _mm_mul_ps(xmm6, xmm5); // mulps xmm6, xmm5 // xmm6 = s

                xmm7 = _mm_mul_ps(xmm7, xmm6); // mulps xmm7, xmm6 // xmm7 = s * t
                xmm6 = _mm_xor_ps(xmm6, SIMD_SP_SIGN_BIT.ps()); // xorps xmm6, SIMD_SP_signBit // xmm6 = -s

                edi = edi.offset(4 * QS); // add edi, 4*JOINTQUAT_SIZE

                ecx = shuffle.0[0 * 4 + 0] as u32; // movzx ecx, byte ptr shuffle[0*4+0] // ecx = k0
                _mm_store_ss(edi.offset(ecx as isize * 4 - 4 * QS).cast(), xmm7); // movss [edi+ecx*4-4*JOINTQUAT_SIZE], xmm7 // q[k0] = s * t;

                edx = shuffle.0[0 * 4 + 1] as u32; // movzx edx, byte ptr shuffle[0*4+1] // edx = k1
                xmm4 = _mm_load_ss(esi.offset(eax + 0 * MS + 1 * 16 + 0 * 4).cast()); // movss xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+0*4]
                xmm4 = _mm_xor_ps(xmm4, xmm2); // xorps xmm4, xmm2
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 0 * MS + 0 * 16 + 1 * 4).cast())); // subss xmm4, [esi+eax+0*JOINTMAT_SIZE+0*16+1*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 4 * QS).cast(), xmm4); // movss [edi+edx*4-4*JOINTQUAT_SIZE], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

                ecx = shuffle.0[0 * 4 + 2] as u32; // movzx ecx, byte ptr shuffle[0*4+2] // ecx = k2
                xmm3 = _mm_load_ss(esi.offset(eax + 0 * MS + 0 * 16 + 2 * 4).cast()); // movss xmm3, [esi+eax+0*JOINTMAT_SIZE+0*16+2*4]
                xmm3 = _mm_xor_ps(xmm3, xmm1); // xorps xmm3, xmm1
                xmm3 = _mm_sub_ss(xmm3, _mm_load_ss(esi.offset(eax + 0 * MS + 2 * 16 + 0 * 4).cast())); // subss xmm3, [esi+eax+0*JOINTMAT_SIZE+2*16+0*4]
                xmm3 = _mm_mul_ss(xmm3, xmm6); // mulss xmm3, xmm6
                _mm_store_ss(edi.offset(ecx as isize * 4 - 4 * QS).cast(), xmm3); // movss [edi+ecx*4-4*JOINTQUAT_SIZE], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

                edx = shuffle.0[0 * 4 + 3] as u32; // movzx edx, byte ptr shuffle[0*4+3] // edx = k3
                xmm4 = _mm_load_ss(esi.offset(eax + 0 * MS + 2 * 16 + 1 * 4).cast()); // movss xmm4, [esi+eax+0*JOINTMAT_SIZE+2*16+1*4]
                xmm4 = _mm_xor_ps(xmm4, xmm0); // xorps xmm4, xmm0
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 0 * MS + 1 * 16 + 2 * 4).cast())); // subss xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+2*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 4 * QS).cast(), xmm4); // movss [edi+edx*4-4*JOINTQUAT_SIZE], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

                ecx = esi.offset(eax + 0 * MS + 0 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+0*JOINTMAT_SIZE+0*16+3*4]
                edi.offset(-4 * QS + 16).cast::<u32>().write(ecx); // mov [edi-4*JOINTQUAT_SIZE+16], ecx // q[4] = m[0 * 4 + 3];
                edx = esi.offset(eax + 0 * MS + 1 * 16 + 3 * 4).cast::<u32>().read(); // mov edx, [esi+eax+0*JOINTMAT_SIZE+1*16+3*4]
                edi.offset(-4 * QS + 20).cast::<u32>().write(edx); // mov [edi-4*JOINTQUAT_SIZE+20], edx // q[5] = m[1 * 4 + 3];
                ecx = esi.offset(eax + 0 * MS + 2 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+0*JOINTMAT_SIZE+2*16+3*4]
                edi.offset(-4 * QS + 24).cast::<u32>().write(ecx); // mov [edi-4*JOINTQUAT_SIZE+24], ecx // q[6] = m[2 * 4 + 3];
                edi.offset(-4 * QS + 28).cast::<u32>().write(0); // mov dword ptr [edi-4*JOINTQUAT_SIZE+28], 0 // q[7] = 0.0f;

                xmm6 = _mm_shuffle_ps::<S1230>(xmm6, xmm6); // shufps xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm7 = _mm_shuffle_ps::<S1230>(xmm7, xmm7); // shufps xmm7, xmm7, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm0 = _mm_shuffle_ps::<S1230>(xmm0, xmm0); // shufps xmm0, xmm0, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm1 = _mm_shuffle_ps::<S1230>(xmm1, xmm1); // shufps xmm1, xmm1, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm2 = _mm_shuffle_ps::<S1230>(xmm2, xmm2); // shufps xmm2, xmm2, R_SHUFFLE_PS( 1, 2, 3, 0 )

                ecx = shuffle.0[1 * 4 + 0] as u32; // movzx ecx, byte ptr shuffle[1*4+0] // ecx = k0
                _mm_store_ss(edi.offset(ecx as isize * 4 - 3 * QS).cast(), xmm7); // movss [edi+ecx*4-3*JOINTQUAT_SIZE], xmm7 // q[k0] = s * t;

                edx = shuffle.0[1 * 4 + 1] as u32; // movzx edx, byte ptr shuffle[1*4+1] // edx = k1
                xmm4 = _mm_load_ss(esi.offset(eax + 1 * MS + 1 * 16 + 0 * 4).cast()); // movss xmm4, [esi+eax+1*JOINTMAT_SIZE+1*16+0*4]
                xmm4 = _mm_xor_ps(xmm4, xmm2); // xorps xmm4, xmm2
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 1 * MS + 0 * 16 + 1 * 4).cast())); // subss xmm4, [esi+eax+1*JOINTMAT_SIZE+0*16+1*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 3 * QS).cast(), xmm4); // movss [edi+edx*4-3*JOINTQUAT_SIZE], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

                ecx = shuffle.0[1 * 4 + 2] as u32; // movzx ecx, byte ptr shuffle[1*4+2] // ecx = k2
                xmm3 = _mm_load_ss(esi.offset(eax + 1 * MS + 0 * 16 + 2 * 4).cast()); // movss xmm3, [esi+eax+1*JOINTMAT_SIZE+0*16+2*4]
                xmm3 = _mm_xor_ps(xmm3, xmm1); // xorps xmm3, xmm1
                xmm3 = _mm_sub_ss(xmm3, _mm_load_ss(esi.offset(eax + 1 * MS + 2 * 16 + 0 * 4).cast())); // subss xmm3, [esi+eax+1*JOINTMAT_SIZE+2*16+0*4]
                xmm3 = _mm_mul_ss(xmm3, xmm6); // mulss xmm3, xmm6
                _mm_store_ss(edi.offset(ecx as isize * 4 - 3 * QS).cast(), xmm3); // movss [edi+ecx*4-3*JOINTQUAT_SIZE], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

                edx = shuffle.0[1 * 4 + 3] as u32; // movzx edx, byte ptr shuffle[1*4+3] // edx = k3
                xmm4 = _mm_load_ss(esi.offset(eax + 1 * MS + 2 * 16 + 1 * 4).cast()); // movss xmm4, [esi+eax+1*JOINTMAT_SIZE+2*16+1*4]
                xmm4 = _mm_xor_ps(xmm4, xmm0); // xorps xmm4, xmm0
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 1 * MS + 1 * 16 + 2 * 4).cast())); // subss xmm4, [esi+eax+1*JOINTMAT_SIZE+1*16+2*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 3 * QS).cast(), xmm4); // movss [edi+edx*4-3*JOINTQUAT_SIZE], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

                ecx = esi.offset(eax + 1 * MS + 0 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+1*JOINTMAT_SIZE+0*16+3*4]
                edi.offset(-3 * QS + 16).cast::<u32>().write(ecx); // mov [edi-3*JOINTQUAT_SIZE+16], ecx // q[4] = m[0 * 4 + 3];
                edx = esi.offset(eax + 1 * MS + 1 * 16 + 3 * 4).cast::<u32>().read(); // mov edx, [esi+eax+1*JOINTMAT_SIZE+1*16+3*4]
                edi.offset(-3 * QS + 20).cast::<u32>().write(edx); // mov [edi-3*JOINTQUAT_SIZE+20], edx // q[5] = m[1 * 4 + 3];
                ecx = esi.offset(eax + 1 * MS + 2 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+1*JOINTMAT_SIZE+2*16+3*4]
                edi.offset(-3 * QS + 24).cast::<u32>().write(ecx); // mov [edi-3*JOINTQUAT_SIZE+24], ecx // q[6] = m[2 * 4 + 3];
                edi.offset(-3 * QS + 28).cast::<u32>().write(0); // mov dword ptr [edi-3*JOINTQUAT_SIZE+28], 0 // q[7] = 0.0f;

                xmm6 = _mm_shuffle_ps::<S1230>(xmm6, xmm6); // shufps xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm7 = _mm_shuffle_ps::<S1230>(xmm7, xmm7); // shufps xmm7, xmm7, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm0 = _mm_shuffle_ps::<S1230>(xmm0, xmm0); // shufps xmm0, xmm0, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm1 = _mm_shuffle_ps::<S1230>(xmm1, xmm1); // shufps xmm1, xmm1, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm2 = _mm_shuffle_ps::<S1230>(xmm2, xmm2); // shufps xmm2, xmm2, R_SHUFFLE_PS( 1, 2, 3, 0 )

                ecx = shuffle.0[2 * 4 + 0] as u32; // movzx ecx, byte ptr shuffle[2*4+0] // ecx = k0
                _mm_store_ss(edi.offset(ecx as isize * 4 - 2 * QS).cast(), xmm7); // movss [edi+ecx*4-2*JOINTQUAT_SIZE], xmm7 // q[k0] = s * t;

                edx = shuffle.0[2 * 4 + 1] as u32; // movzx edx, byte ptr shuffle[2*4+1] // edx = k1
                xmm4 = _mm_load_ss(esi.offset(eax + 2 * MS + 1 * 16 + 0 * 4).cast()); // movss xmm4, [esi+eax+2*JOINTMAT_SIZE+1*16+0*4]
                xmm4 = _mm_xor_ps(xmm4, xmm2); // xorps xmm4, xmm2
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 2 * MS + 0 * 16 + 1 * 4).cast())); // subss xmm4, [esi+eax+2*JOINTMAT_SIZE+0*16+1*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 2 * QS).cast(), xmm4); // movss [edi+edx*4-2*JOINTQUAT_SIZE], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

                ecx = shuffle.0[2 * 4 + 2] as u32; // movzx ecx, byte ptr shuffle[2*4+2] // ecx = k2
                xmm3 = _mm_load_ss(esi.offset(eax + 2 * MS + 0 * 16 + 2 * 4).cast()); // movss xmm3, [esi+eax+2*JOINTMAT_SIZE+0*16+2*4]
                xmm3 = _mm_xor_ps(xmm3, xmm1); // xorps xmm3, xmm1
                xmm3 = _mm_sub_ss(xmm3, _mm_load_ss(esi.offset(eax + 2 * MS + 2 * 16 + 0 * 4).cast())); // subss xmm3, [esi+eax+2*JOINTMAT_SIZE+2*16+0*4]
                xmm3 = _mm_mul_ss(xmm3, xmm6); // mulss xmm3, xmm6
                _mm_store_ss(edi.offset(ecx as isize * 4 - 2 * QS).cast(), xmm3); // movss [edi+ecx*4-2*JOINTQUAT_SIZE], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

                edx = shuffle.0[2 * 4 + 3] as u32; // movzx edx, byte ptr shuffle[2*4+3] // edx = k3
                xmm4 = _mm_load_ss(esi.offset(eax + 2 * MS + 2 * 16 + 1 * 4).cast()); // movss xmm4, [esi+eax+2*JOINTMAT_SIZE+2*16+1*4]
                xmm4 = _mm_xor_ps(xmm4, xmm0); // xorps xmm4, xmm0
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 2 * MS + 1 * 16 + 2 * 4).cast())); // subss xmm4, [esi+eax+2*JOINTMAT_SIZE+1*16+2*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 2 * QS).cast(), xmm4); // movss [edi+edx*4-2*JOINTQUAT_SIZE], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

                ecx = esi.offset(eax + 2 * MS + 0 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+2*JOINTMAT_SIZE+0*16+3*4]
                edi.offset(-2 * QS + 16).cast::<u32>().write(ecx); // mov [edi-2*JOINTQUAT_SIZE+16], ecx // q[4] = m[0 * 4 + 3];
                edx = esi.offset(eax + 2 * MS + 1 * 16 + 3 * 4).cast::<u32>().read(); // mov edx, [esi+eax+2*JOINTMAT_SIZE+1*16+3*4]
                edi.offset(-2 * QS + 20).cast::<u32>().write(edx); // mov [edi-2*JOINTQUAT_SIZE+20], edx // q[5] = m[1 * 4 + 3];
                ecx = esi.offset(eax + 2 * MS + 2 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+2*JOINTMAT_SIZE+2*16+3*4]
                edi.offset(-2 * QS + 24).cast::<u32>().write(ecx); // mov [edi-2*JOINTQUAT_SIZE+24], ecx // q[6] = m[2 * 4 + 3];
                edi.offset(-2 * QS + 28).cast::<u32>().write(0); // mov dword ptr [edi-2*JOINTQUAT_SIZE+28], 0 // q[7] = 0.0f;

                xmm6 = _mm_shuffle_ps::<S1230>(xmm6, xmm6); // shufps xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm7 = _mm_shuffle_ps::<S1230>(xmm7, xmm7); // shufps xmm7, xmm7, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm0 = _mm_shuffle_ps::<S1230>(xmm0, xmm0); // shufps xmm0, xmm0, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm1 = _mm_shuffle_ps::<S1230>(xmm1, xmm1); // shufps xmm1, xmm1, R_SHUFFLE_PS( 1, 2, 3, 0 )
                xmm2 = _mm_shuffle_ps::<S1230>(xmm2, xmm2); // shufps xmm2, xmm2, R_SHUFFLE_PS( 1, 2, 3, 0 )

                ecx = shuffle.0[3 * 4 + 0] as u32; // movzx ecx, byte ptr shuffle[3*4+0] // ecx = k0
                _mm_store_ss(edi.offset(ecx as isize * 4 - 1 * QS).cast(), xmm7); // movss [edi+ecx*4-1*JOINTQUAT_SIZE], xmm7 // q[k0] = s * t;

                edx = shuffle.0[3 * 4 + 1] as u32; // movzx edx, byte ptr shuffle[3*4+1] // edx = k1
                xmm4 = _mm_load_ss(esi.offset(eax + 3 * MS + 1 * 16 + 0 * 4).cast()); // movss xmm4, [esi+eax+3*JOINTMAT_SIZE+1*16+0*4]
                xmm4 = _mm_xor_ps(xmm4, xmm2); // xorps xmm4, xmm2
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 3 * MS + 0 * 16 + 1 * 4).cast())); // subss xmm4, [esi+eax+3*JOINTMAT_SIZE+0*16+1*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 1 * QS).cast(), xmm4); // movss [edi+edx*4-1*JOINTQUAT_SIZE], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

                ecx = shuffle.0[3 * 4 + 2] as u32; // movzx ecx, byte ptr shuffle[3*4+2] // ecx = k2
                xmm3 = _mm_load_ss(esi.offset(eax + 3 * MS + 0 * 16 + 2 * 4).cast()); // movss xmm3, [esi+eax+3*JOINTMAT_SIZE+0*16+2*4]
                xmm3 = _mm_xor_ps(xmm3, xmm1); // xorps xmm3, xmm1
                xmm3 = _mm_sub_ss(xmm3, _mm_load_ss(esi.offset(eax + 3 * MS + 2 * 16 + 0 * 4).cast())); // subss xmm3, [esi+eax+3*JOINTMAT_SIZE+2*16+0*4]
                xmm3 = _mm_mul_ss(xmm3, xmm6); // mulss xmm3, xmm6
                _mm_store_ss(edi.offset(ecx as isize * 4 - 1 * QS).cast(), xmm3); // movss [edi+ecx*4-1*JOINTQUAT_SIZE], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

                edx = shuffle.0[3 * 4 + 3] as u32; // movzx edx, byte ptr shuffle[3*4+3] // edx = k3
                xmm4 = _mm_load_ss(esi.offset(eax + 3 * MS + 2 * 16 + 1 * 4).cast()); // movss xmm4, [esi+eax+3*JOINTMAT_SIZE+2*16+1*4]
                xmm4 = _mm_xor_ps(xmm4, xmm0); // xorps xmm4, xmm0
                xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 3 * MS + 1 * 16 + 2 * 4).cast())); // subss xmm4, [esi+eax+3*JOINTMAT_SIZE+1*16+2*4]
                xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
                _mm_store_ss(edi.offset(edx as isize * 4 - 1 * QS).cast(), xmm4); // movss [edi+edx*4-1*JOINTQUAT_SIZE], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

                ecx = esi.offset(eax + 3 * MS + 0 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+3*JOINTMAT_SIZE+0*16+3*4]
                edi.offset(-1 * QS + 16).cast::<u32>().write(ecx); // mov [edi-1*JOINTQUAT_SIZE+16], ecx // q[4] = m[0 * 4 + 3];
                edx = esi.offset(eax + 3 * MS + 1 * 16 + 3 * 4).cast::<u32>().read(); // mov edx, [esi+eax+3*JOINTMAT_SIZE+1*16+3*4]
                edi.offset(-1 * QS + 20).cast::<u32>().write(edx); // mov [edi-1*JOINTQUAT_SIZE+20], edx // q[5] = m[1 * 4 + 3];
                ecx = esi.offset(eax + 3 * MS + 2 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+3*JOINTMAT_SIZE+2*16+3*4]
                edi.offset(-1 * QS + 24).cast::<u32>().write(ecx); // mov [edi-1*JOINTQUAT_SIZE+24], ecx // q[6] = m[2 * 4 + 3];
                edi.offset(-1 * QS + 28).cast::<u32>().write(0); // mov dword ptr [edi-1*JOINTQUAT_SIZE+28], 0 // q[7] = 0.0f;
            }
            eax += 4 * MS; //                                               add eax, 4*JOINTMAT_SIZE
            if eax >= 0 {
                break; //                                                   jl loopMat4
            }
        }
    }

    // done4:
    eax = num_joints as isize; //                                           mov eax, numJoints
    eax &= 3; //                                                            and eax, 3
    if eax == 0 {
        return; //                                                          jz done1
    }
    eax *= MS; //                                                           imul eax, JOINTMAT_SIZE
    // SAFETY: `esi` is the end of the converted block (or the list's start);
    // adding the byte size of the last `num_joints & 3` matrices gives the
    // end of the caller's list.
    esi = unsafe { esi.offset(eax) }; //                                    add esi, eax
    eax = -eax; //                                                          neg eax
    loop {
        // loopMat1:
        // SAFETY: `esi + eax` (eax <= -JOINTMAT_SIZE) is a matrix of the
        // caller's list; after `add edi, JOINTQUAT_SIZE`, `edi -
        // JOINTQUAT_SIZE` is the joint written now, and the stores stay inside
        // it as in loopMat4.
        unsafe {
            xmm5 = _mm_load_ss(esi.offset(eax + 0 * MS + 0 * 16 + 0 * 4).cast()); // movss xmm5, [esi+eax+0*JOINTMAT_SIZE+0*16+0*4]
            xmm6 = _mm_load_ss(esi.offset(eax + 0 * MS + 1 * 16 + 1 * 4).cast()); // movss xmm6, [esi+eax+0*JOINTMAT_SIZE+1*16+1*4]
            xmm7 = _mm_load_ss(esi.offset(eax + 0 * MS + 2 * 16 + 2 * 4).cast()); // movss xmm7, [esi+eax+0*JOINTMAT_SIZE+2*16+2*4]

            xmm0 = xmm5; // movaps xmm0, xmm5
            xmm0 = _mm_add_ss(xmm0, xmm6); // addss xmm0, xmm6
            xmm0 = _mm_add_ss(xmm0, xmm7); // addss xmm0, xmm7
            xmm0 = _mm_cmpnlt_ss(xmm0, SIMD_SP_ZERO.ps()); // cmpnltss xmm0, SIMD_SP_zero // xmm0 = m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f

            xmm1 = xmm5; // movaps xmm1, xmm5
            xmm2 = xmm5; // movaps xmm2, xmm5
            xmm1 = _mm_cmpnlt_ss(xmm1, xmm6); // cmpnltss xmm1, xmm6
            xmm2 = _mm_cmpnlt_ss(xmm2, xmm7); // cmpnltss xmm2, xmm7
            xmm2 = _mm_and_ps(xmm2, xmm1); // andps xmm2, xmm1 // xmm2 = m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2]

            xmm4 = xmm6; // movaps xmm4, xmm6
            xmm4 = _mm_cmpnlt_ss(xmm4, xmm7); // cmpnltss xmm4, xmm7 // xmm3 = m[1 * 4 + 1] > m[2 * 4 + 2]

            xmm1 = xmm0; // movaps xmm1, xmm0
            xmm1 = _mm_andnot_ps(xmm1, xmm2); // andnps xmm1, xmm2
            xmm2 = _mm_or_ps(xmm2, xmm0); // orps xmm2, xmm0
            xmm3 = xmm2; // movaps xmm3, xmm2
            xmm2 = _mm_andnot_ps(xmm2, xmm4); // andnps xmm2, xmm4
            xmm3 = _mm_or_ps(xmm3, xmm2); // orps xmm3, xmm2
            xmm3 = _mm_xor_ps(xmm3, SIMD_SP_NOT.ps()); // xorps xmm3, SIMD_SP_not

            xmm0 = _mm_and_ps(xmm0, SIMD_DW_MAT2QUAT_SHUFFLE0.ps()); // andps xmm0, SIMD_DW_mat2quatShuffle0
            xmm4 = xmm1; // movaps xmm4, xmm1
            xmm4 = _mm_and_ps(xmm4, SIMD_DW_MAT2QUAT_SHUFFLE1.ps()); // andps xmm4, SIMD_DW_mat2quatShuffle1
            xmm0 = _mm_or_ps(xmm0, xmm4); // orps xmm0, xmm4
            xmm4 = xmm2; // movaps xmm4, xmm2
            xmm4 = _mm_and_ps(xmm4, SIMD_DW_MAT2QUAT_SHUFFLE2.ps()); // andps xmm4, SIMD_DW_mat2quatShuffle2
            xmm0 = _mm_or_ps(xmm0, xmm4); // orps xmm0, xmm4
            xmm4 = xmm3; // movaps xmm4, xmm3
            xmm4 = _mm_and_ps(xmm4, SIMD_DW_MAT2QUAT_SHUFFLE3.ps()); // andps xmm4, SIMD_DW_mat2quatShuffle3
            xmm4 = _mm_or_ps(xmm4, xmm0); // orps xmm4, xmm0
            _mm_store_ss(shuffle.0.as_mut_ptr().cast(), xmm4); // movss shuffle, xmm4

            xmm0 = xmm2; // movaps xmm0, xmm2
            xmm0 = _mm_or_ps(xmm0, xmm3); // orps xmm0, xmm3 // xmm0 = xmm2 | xmm3 = s0
            xmm2 = _mm_or_ps(xmm2, xmm1); // orps xmm2, xmm1 // xmm2 = xmm1 | xmm2 = s2
            xmm1 = _mm_or_ps(xmm1, xmm3); // orps xmm1, xmm3 // xmm1 = xmm1 | xmm3 = s1

            xmm0 = _mm_and_ps(xmm0, SIMD_SP_SIGN_BIT.ps()); // andps xmm0, SIMD_SP_signBit
            xmm1 = _mm_and_ps(xmm1, SIMD_SP_SIGN_BIT.ps()); // andps xmm1, SIMD_SP_signBit
            xmm2 = _mm_and_ps(xmm2, SIMD_SP_SIGN_BIT.ps()); // andps xmm2, SIMD_SP_signBit

            xmm5 = _mm_xor_ps(xmm5, xmm0); // xorps xmm5, xmm0
            xmm6 = _mm_xor_ps(xmm6, xmm1); // xorps xmm6, xmm1
            xmm7 = _mm_xor_ps(xmm7, xmm2); // xorps xmm7, xmm2
            xmm5 = _mm_add_ss(xmm5, xmm6); // addss xmm5, xmm6
            xmm7 = _mm_add_ss(xmm7, SIMD_SP_ONE.ps()); // addss xmm7, SIMD_SP_one
            xmm5 = _mm_add_ss(xmm5, xmm7); // addss xmm5, xmm7 // xmm5 = t

            xmm7 = _mm_move_ss(xmm7, xmm5); // movss xmm7, xmm5 // xmm7 = t

            xmm6 = _mm_rsqrt_ss(xmm5); // rsqrtss xmm6, xmm5
            xmm5 = _mm_mul_ss(xmm5, xmm6); // mulss xmm5, xmm6
            xmm5 = _mm_mul_ss(xmm5, xmm6); // mulss xmm5, xmm6
            xmm5 = _mm_sub_ss(xmm5, SIMD_SP_RSQRT_C0.ps()); // subss xmm5, SIMD_SP_rsqrt_c0
            xmm6 = _mm_mul_ss(xmm6, SIMD_SP_MAT2QUAT_RSQRT_C1.ps()); // mulss xmm6, SIMD_SP_mat2quat_rsqrt_c1
            xmm6 = _mm_mul_ss(xmm6, xmm5); // mulss xmm6, xmm5 // xmm5 = s

            xmm7 = _mm_mul_ss(xmm7, xmm6); // mulss xmm7, xmm6 // xmm7 = s * t
            xmm6 = _mm_xor_ps(xmm6, SIMD_SP_SIGN_BIT.ps()); // xorps xmm6, SIMD_SP_signBit // xmm6 = -s

            ecx = shuffle.0[0] as u32; // movzx ecx, byte ptr shuffle[0] // ecx = k0
            edi = edi.offset(QS); // add edi, JOINTQUAT_SIZE
            _mm_store_ss(edi.offset(ecx as isize * 4 - 1 * QS).cast(), xmm7); // movss [edi+ecx*4-1*JOINTQUAT_SIZE], xmm7 // q[k0] = s * t;

            edx = shuffle.0[1] as u32; // movzx edx, byte ptr shuffle[1] // edx = k1
            xmm4 = _mm_load_ss(esi.offset(eax + 0 * MS + 1 * 16 + 0 * 4).cast()); // movss xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+0*4]
            xmm4 = _mm_xor_ps(xmm4, xmm2); // xorps xmm4, xmm2
            xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 0 * MS + 0 * 16 + 1 * 4).cast())); // subss xmm4, [esi+eax+0*JOINTMAT_SIZE+0*16+1*4]
            xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
            _mm_store_ss(edi.offset(edx as isize * 4 - 1 * QS).cast(), xmm4); // movss [edi+edx*4-1*JOINTQUAT_SIZE], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

            ecx = shuffle.0[2] as u32; // movzx ecx, byte ptr shuffle[2] // ecx = k2
            xmm3 = _mm_load_ss(esi.offset(eax + 0 * MS + 0 * 16 + 2 * 4).cast()); // movss xmm3, [esi+eax+0*JOINTMAT_SIZE+0*16+2*4]
            xmm3 = _mm_xor_ps(xmm3, xmm1); // xorps xmm3, xmm1
            xmm3 = _mm_sub_ss(xmm3, _mm_load_ss(esi.offset(eax + 0 * MS + 2 * 16 + 0 * 4).cast())); // subss xmm3, [esi+eax+0*JOINTMAT_SIZE+2*16+0*4]
            xmm3 = _mm_mul_ss(xmm3, xmm6); // mulss xmm3, xmm6
            _mm_store_ss(edi.offset(ecx as isize * 4 - 1 * QS).cast(), xmm3); // movss [edi+ecx*4-1*JOINTQUAT_SIZE], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

            edx = shuffle.0[3] as u32; // movzx edx, byte ptr shuffle[3] // edx = k3
            xmm4 = _mm_load_ss(esi.offset(eax + 0 * MS + 2 * 16 + 1 * 4).cast()); // movss xmm4, [esi+eax+0*JOINTMAT_SIZE+2*16+1*4]
            xmm4 = _mm_xor_ps(xmm4, xmm0); // xorps xmm4, xmm0
            xmm4 = _mm_sub_ss(xmm4, _mm_load_ss(esi.offset(eax + 0 * MS + 1 * 16 + 2 * 4).cast())); // subss xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+2*4]
            xmm4 = _mm_mul_ss(xmm4, xmm6); // mulss xmm4, xmm6
            _mm_store_ss(edi.offset(edx as isize * 4 - 1 * QS).cast(), xmm4); // movss [edi+edx*4-1*JOINTQUAT_SIZE], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

            ecx = esi.offset(eax + 0 * MS + 0 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+0*JOINTMAT_SIZE+0*16+3*4]
            edi.offset(-1 * QS + 16).cast::<u32>().write(ecx); // mov [edi-1*JOINTQUAT_SIZE+16], ecx // q[4] = m[0 * 4 + 3];
            edx = esi.offset(eax + 0 * MS + 1 * 16 + 3 * 4).cast::<u32>().read(); // mov edx, [esi+eax+0*JOINTMAT_SIZE+1*16+3*4]
            edi.offset(-1 * QS + 20).cast::<u32>().write(edx); // mov [edi-1*JOINTQUAT_SIZE+20], edx // q[5] = m[1 * 4 + 3];
            ecx = esi.offset(eax + 0 * MS + 2 * 16 + 3 * 4).cast::<u32>().read(); // mov ecx, [esi+eax+0*JOINTMAT_SIZE+2*16+3*4]
            edi.offset(-1 * QS + 24).cast::<u32>().write(ecx); // mov [edi-1*JOINTQUAT_SIZE+24], ecx // q[6] = m[2 * 4 + 3];
            edi.offset(-1 * QS + 28).cast::<u32>().write(0); // mov dword ptr [edi-1*JOINTQUAT_SIZE+28], 0 // q[7] = 0.0f;
        }
        eax += MS; //                                                       add eax, JOINTMAT_SIZE
        if eax >= 0 {
            break; //                                                       jl loopMat1
        }
    }
    // done1:
}
