//! Appendix B of *Slerping Clock Cycles* (`LerpJoints`, SSE) with
//! `core::arch::x86_64` intrinsics: the listing's operations in the listing's
//! order, one variable per listing register (`xmm0`..`xmm7`, `eax`, `ecx`,
//! `edx`, `esi`, `edi`), each statement commented with the instruction it
//! mirrors. Bit-identical to [`super::asm::lerp_joints`] on the same CPU.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! paper's listing.
//!
//! Where no intrinsic names the listing's instruction:
//! - `movlps` / `movhps` stores: Rust has no `_mm_storel_pi` /
//!   `_mm_storeh_pi` (they take the removed MMX type `__m64`), so
//!   `_mm_storel_pd` / `_mm_storeh_pd` on the register cast to `__m128d`
//!   store the same eight bytes;
//! - `rsqrtss xmm2, xmm0` keeps the upper lanes of `xmm2`:
//!   `_mm_move_ss(xmm2, _mm_rsqrt_ss(xmm0))`;
//! - the scalar `SIMD_SP_*` operands of `cmpnless`, `subss`, `mulss` read
//!   lane 0 only, so the full `.ps()` load gives the same result; `movss`
//!   loads (which zero the upper lanes) are `_mm_load_ss`.

use crate::consts::{SIMD_SP_ONE, SIMD_SP_RSQRT_C0, SIMD_SP_RSQRT_C1, SIMD_SP_SIGN_BIT, SIMD_SP_ZERO};
use crate::types::{JOINTQUAT_Q_OFFSET, JOINTQUAT_SIZE_SHIFT, JOINTQUAT_T_OFFSET, JointQuat};
use crate::x86::shuffle::{S0000, S1023, transpose_4x4};
use core::arch::x86_64::*;

/// `base + offset` in bytes, as a float pointer: the listing's
/// `[esi+ecx+JOINTQUAT_T_OFFSET]` addressing. Only forms the address.
#[inline(always)]
fn at(base: *const u8, offset: usize) -> *mut f32 {
    base.wrapping_add(offset).cast_mut().cast()
}

/// `mov ecx, [edx+eax+disp]` then `shl ecx, JOINTQUAT_SIZE_SHIFT`: the byte
/// offset of the joint named by the index entry at `edx + eax + disp`,
/// computed in 32 bits and zero-extended as the port's `rcx`.
///
/// # Safety
///
/// `edx + eax + disp` must address a readable, 4-byte aligned `i32`.
#[inline(always)]
unsafe fn joint_offset(edx: *const u8, eax: isize, disp: isize) -> usize {
    // SAFETY: the caller guarantees the address is a readable index entry.
    let ecx = unsafe { edx.wrapping_offset(eax + disp).cast::<u32>().read() }; // mov ecx, [edx+eax+disp]
    (ecx << JOINTQUAT_SIZE_SHIFT) as usize //                                       shl ecx, JOINTQUAT_SIZE_SHIFT
}

/// `movlps [p], x`: stores lanes 0 and 1 of `x` (eight bytes) at `p`.
/// `_mm_storel_pi` does not exist in Rust (its `__m64` type was removed);
/// `_mm_storel_pd` on the register cast to `__m128d` stores the same bytes.
///
/// # Safety
///
/// `p` must be valid for an 8-byte write.
#[inline(always)]
unsafe fn movlps(p: *mut f32, x: __m128) {
    // SAFETY: the caller guarantees `p` is valid for 8 bytes; no alignment needed.
    unsafe { _mm_storel_pd(p.cast(), _mm_castps_pd(x)) }
}

/// `movhps [p], x`: stores lanes 2 and 3 of `x` (eight bytes) at `p`, with
/// `_mm_storeh_pd` for the missing `_mm_storeh_pi` (see [`movlps`]).
///
/// # Safety
///
/// `p` must be valid for an 8-byte write.
#[inline(always)]
unsafe fn movhps(p: *mut f32, x: __m128) {
    // SAFETY: as for `movlps`.
    unsafe { _mm_storeh_pd(p.cast(), _mm_castps_pd(x)) }
}

/// `LerpJoints` of Appendix B with intrinsics: for each `j` in
/// `index[0..num_joints]`, lerps the rotation of `joints[j]` towards the
/// nearer of `±blend_joints[j].q` and renormalises it (`rsqrtps` + one
/// Newton-Raphson step), and lerps the translation as
/// `t + (blend.t - t) * lerp`, in place. `lerp <= 0` returns without writing;
/// `lerp >= 1` or NaN copies the indexed blend joints.
///
/// # Safety
///
/// As [`super::asm::lerp_joints`]:
/// - `joints` and `blend_joints` are 16-byte aligned and the two lists do
///   not overlap;
/// - `0 <= num_joints <= super::MAX_JOINTS` and `index` points to
///   `num_joints` readable `i32` (it is not read when `num_joints == 0` or
///   `lerp <= 0`);
/// - every entry `j` of `index` is in `0..=super::MAX_JOINTS - 1`, with
///   `joints.add(j)` valid for reads and writes and `blend_joints.add(j)`
///   valid for reads.
#[inline(never)]
pub unsafe fn lerp_joints(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    // SAFETY: SSE2 is part of the x86_64 baseline; the caller upholds the
    // kernel's contract, which is this function's.
    unsafe { kernel(joints, blend_joints, lerp, index, num_joints) }
}

/// The kernel proper; see [`lerp_joints`].
///
/// # Safety
///
/// As [`lerp_joints`].
#[target_feature(enable = "sse2")]
unsafe fn kernel(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    let (mut xmm0, mut xmm1, mut xmm2, mut xmm3): (__m128, __m128, __m128, __m128);
    let (mut xmm4, mut xmm5, mut xmm6, mut xmm7): (__m128, __m128, __m128, __m128);
    let mut ecx: usize;

    // SAFETY: the caller's contract: every index entry read lies in
    // `index[0..num_joints]` (`edx + eax` with `eax` in `-4*num_joints..0`,
    // read only once `num_joints > 0` and `lerp > 0` or NaN); every joint
    // read or written is `joints[j]` / `blend_joints[j]` of an entry `j`,
    // at byte offset `j << 5` (exact: `j < 2^27`), 16-byte aligned for the
    // `_mm_load_ps` / `_mm_store_ps`; the lists do not overlap.
    unsafe {
        xmm7 = _mm_load_ss(&lerp); //                                         movss    xmm7, lerp
        xmm7 = _mm_cmpnle_ss(xmm7, SIMD_SP_ZERO.ps()); //                     cmpnless xmm7, SIMD_SP_zero
        ecx = _mm_movemask_ps(xmm7) as usize; //                              movmskps ecx, xmm7
        if ecx & 1 == 0 {
            //                                                                test ecx, 1
            return; //                                                        jz done1
        }

        let mut eax: isize = ((num_joints as u32) << 2) as isize; //          mov eax, numJoints; shl eax, 2
        let esi: *const u8 = joints.cast_const().cast(); //                   mov esi, joints
        let edi: *const u8 = blend_joints.cast(); //                          mov edi, blendJoints
        let mut edx: *const u8 = index.cast(); //                             mov edx, index

        edx = edx.wrapping_offset(eax); //                                    add edx, eax
        eax = -eax; //                                                        neg eax
        if eax == 0 {
            return; //                                                        jz done1
        }

        xmm7 = _mm_load_ss(&lerp); //                                         movss    xmm7, lerp
        xmm7 = _mm_cmpnlt_ss(xmm7, SIMD_SP_ONE.ps()); //                      cmpnltss xmm7, SIMD_SP_one
        ecx = _mm_movemask_ps(xmm7) as usize; //                              movmskps ecx, xmm7
        if ecx & 1 != 0 {
            // test ecx, 1; jz lerpJoints (not taken)
            // loopCopy:
            loop {
                ecx = joint_offset(edx, eax, 0); //                           mov ecx, [edx+eax]; shl ecx, JOINTQUAT_SIZE_SHIFT
                eax += 4; //                                                  add eax, 1*4
                xmm0 = _mm_load_ps(at(edi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm0, [edi+ecx+JOINTQUAT_Q_OFFSET]
                xmm1 = _mm_load_ps(at(edi, ecx + JOINTQUAT_T_OFFSET)); //     movaps xmm1, [edi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(at(esi, ecx + JOINTQUAT_Q_OFFSET), xmm0); //     movaps [esi+ecx+JOINTQUAT_Q_OFFSET], xmm0
                _mm_store_ps(at(esi, ecx + JOINTQUAT_T_OFFSET), xmm1); //     movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm1
                if eax >= 0 {
                    break; //                                                 jl loopCopy (not taken)
                }
            }
            return; //                                                        jmp done1
        }

        // lerpJoints:
        xmm7 = _mm_load_ss(&lerp); //                                         movss xmm7, lerp
        xmm6 = _mm_load_ss(SIMD_SP_ONE.0.as_ptr()); //                        movss xmm6, SIMD_SP_one
        xmm6 = _mm_sub_ss(xmm6, xmm7); //                                     subss xmm6, xmm7
        xmm7 = _mm_div_ss(xmm7, xmm6); //                                     divss xmm7, xmm6
        let scaled_lerp: f32 = _mm_cvtss_f32(xmm7); //                        movss scaledLerp, xmm7

        eax += 4 * 4; //                                                      add eax, 4*4
        if eax < 0 {
            // jge done4 (not taken)
            // loopJoint4:
            loop {
                xmm3 = _mm_load_ss(&lerp); //                                 movss  xmm3, lerp
                xmm3 = _mm_shuffle_ps::<S0000>(xmm3, xmm3); //                shufps xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )

                ecx = joint_offset(edx, eax, -4 * 4); //                      mov ecx, [edx+eax-4*4]; shl ecx, JOINTQUAT_SIZE_SHIFT
                let a0 = ecx; //                                              mov a0, ecx

                // lerp first translations
                xmm7 = _mm_load_ps(at(edi, ecx + JOINTQUAT_T_OFFSET)); //     movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                             mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(at(esi, ecx + JOINTQUAT_T_OFFSET), xmm7); //     movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load first quaternions
                xmm0 = _mm_load_ps(at(esi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm0, [esi+ecx+JOINTQUAT_Q_OFFSET]
                xmm4 = _mm_load_ps(at(edi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm4, [edi+ecx+JOINTQUAT_Q_OFFSET]

                ecx = joint_offset(edx, eax, -3 * 4); //                      mov ecx, [edx+eax-3*4]; shl ecx, JOINTQUAT_SIZE_SHIFT
                let a1 = ecx; //                                              mov a1, ecx

                // lerp second translations
                xmm7 = _mm_load_ps(at(edi, ecx + JOINTQUAT_T_OFFSET)); //     movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                             mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(at(esi, ecx + JOINTQUAT_T_OFFSET), xmm7); //     movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load second quaternions
                xmm1 = _mm_load_ps(at(esi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm1, [esi+ecx+JOINTQUAT_Q_OFFSET]
                xmm5 = _mm_load_ps(at(edi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm5, [edi+ecx+JOINTQUAT_Q_OFFSET]

                ecx = joint_offset(edx, eax, -2 * 4); //                      mov ecx, [edx+eax-2*4]; shl ecx, JOINTQUAT_SIZE_SHIFT
                let a2 = ecx; //                                              mov a2, ecx

                // lerp third translations
                xmm7 = _mm_load_ps(at(edi, ecx + JOINTQUAT_T_OFFSET)); //     movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                             mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(at(esi, ecx + JOINTQUAT_T_OFFSET), xmm7); //     movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load third quaternions
                xmm2 = _mm_load_ps(at(esi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm2, [esi+ecx+JOINTQUAT_Q_OFFSET]
                xmm6 = _mm_load_ps(at(edi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm6, [edi+ecx+JOINTQUAT_Q_OFFSET]

                ecx = joint_offset(edx, eax, -4); //                          mov ecx, [edx+eax-1*4]; shl ecx, JOINTQUAT_SIZE_SHIFT
                let a3 = ecx; //                                              mov a3, ecx

                // lerp fourth translations
                xmm7 = _mm_load_ps(at(edi, ecx + JOINTQUAT_T_OFFSET)); //     movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                             mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(at(esi, ecx + JOINTQUAT_T_OFFSET), xmm7); //     movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load fourth quaternions
                xmm3 = _mm_load_ps(at(esi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm3, [esi+ecx+JOINTQUAT_Q_OFFSET]

                transpose_4x4(&mut xmm0, &mut xmm1, &mut xmm2, &mut xmm3, &mut xmm7); // TRANSPOSE_4x4( xmm0, xmm1, xmm2, xmm3, xmm7 )

                let joint_quat3 = xmm3; //                                    movaps jointQuat3, xmm3

                xmm7 = _mm_load_ps(at(edi, ecx + JOINTQUAT_Q_OFFSET)); //     movaps xmm7, [edi+ecx+JOINTQUAT_Q_OFFSET]

                transpose_4x4(&mut xmm4, &mut xmm5, &mut xmm6, &mut xmm7, &mut xmm3); // TRANSPOSE_4x4( xmm4, xmm5, xmm6, xmm7, xmm3 )

                let blend_quat3 = xmm7; //                                    movaps blendQuat3, xmm7

                // lerp quaternions
                xmm3 = xmm0; //                                               movaps xmm3, xmm0
                xmm3 = _mm_mul_ps(xmm3, xmm4); //                             mulps  xmm3, xmm4
                xmm7 = xmm1; //                                               movaps xmm7, xmm1
                xmm7 = _mm_mul_ps(xmm7, xmm5); //                             mulps  xmm7, xmm5
                xmm3 = _mm_add_ps(xmm3, xmm7); //                             addps  xmm3, xmm7
                xmm7 = xmm2; //                                               movaps xmm7, xmm2
                xmm7 = _mm_mul_ps(xmm7, xmm6); //                             mulps  xmm7, xmm6
                xmm3 = _mm_add_ps(xmm3, xmm7); //                             addps  xmm3, xmm7

                xmm7 = joint_quat3; //                                        movaps xmm7, jointQuat3
                xmm7 = _mm_mul_ps(xmm7, blend_quat3); //                      mulps  xmm7, blendQuat3
                xmm3 = _mm_add_ps(xmm3, xmm7); //                             addps  xmm3, xmm7           // xmm3 = cosom
                xmm3 = _mm_and_ps(xmm3, SIMD_SP_SIGN_BIT.ps()); //            andps  xmm3, SIMD_SP_signBit // xmm3 = signBit
                xmm7 = _mm_set_ss(scaled_lerp); //                            movss  xmm7, scaledLerp
                xmm7 = _mm_shuffle_ps::<S0000>(xmm7, xmm7); //                shufps xmm7, xmm7, R_SHUFFLE_PS( 0, 0, 0, 0 )
                xmm7 = _mm_xor_ps(xmm7, xmm3); //                             xorps  xmm7, xmm3           // xmm7 = scaledLerp ^ signBit

                xmm4 = _mm_mul_ps(xmm4, xmm7); //                             mulps  xmm4, xmm7
                xmm4 = _mm_add_ps(xmm4, xmm0); //                             addps  xmm4, xmm0
                xmm0 = xmm4; //                                               movaps xmm0, xmm4
                xmm0 = _mm_mul_ps(xmm0, xmm0); //                             mulps  xmm0, xmm0

                xmm5 = _mm_mul_ps(xmm5, xmm7); //                             mulps  xmm5, xmm7
                xmm5 = _mm_add_ps(xmm5, xmm1); //                             addps  xmm5, xmm1
                xmm1 = xmm5; //                                               movaps xmm1, xmm5
                xmm1 = _mm_mul_ps(xmm1, xmm1); //                             mulps  xmm1, xmm1
                xmm0 = _mm_add_ps(xmm0, xmm1); //                             addps  xmm0, xmm1

                xmm6 = _mm_mul_ps(xmm6, xmm7); //                             mulps  xmm6, xmm7
                xmm6 = _mm_add_ps(xmm6, xmm2); //                             addps  xmm6, xmm2
                xmm2 = xmm6; //                                               movaps xmm2, xmm6
                xmm2 = _mm_mul_ps(xmm2, xmm2); //                             mulps  xmm2, xmm2
                xmm0 = _mm_add_ps(xmm0, xmm2); //                             addps  xmm0, xmm2

                xmm7 = _mm_mul_ps(xmm7, blend_quat3); //                      mulps  xmm7, blendQuat3
                xmm7 = _mm_add_ps(xmm7, joint_quat3); //                      addps  xmm7, jointQuat3
                xmm1 = xmm7; //                                               movaps xmm1, xmm7
                xmm1 = _mm_mul_ps(xmm1, xmm1); //                             mulps  xmm1, xmm1
                xmm0 = _mm_add_ps(xmm0, xmm1); //                             addps  xmm0, xmm1

                xmm2 = _mm_rsqrt_ps(xmm0); //                                 rsqrtps xmm2, xmm0
                xmm0 = _mm_mul_ps(xmm0, xmm2); //                             mulps  xmm0, xmm2
                xmm0 = _mm_mul_ps(xmm0, xmm2); //                             mulps  xmm0, xmm2
                xmm0 = _mm_sub_ps(xmm0, SIMD_SP_RSQRT_C0.ps()); //            subps  xmm0, SIMD_SP_rsqrt_c0
                xmm2 = _mm_mul_ps(xmm2, SIMD_SP_RSQRT_C1.ps()); //            mulps  xmm2, SIMD_SP_rsqrt_c1
                xmm0 = _mm_mul_ps(xmm0, xmm2); //                             mulps  xmm0, xmm2

                xmm4 = _mm_mul_ps(xmm4, xmm0); //                             mulps  xmm4, xmm0
                xmm5 = _mm_mul_ps(xmm5, xmm0); //                             mulps  xmm5, xmm0
                xmm6 = _mm_mul_ps(xmm6, xmm0); //                             mulps  xmm6, xmm0
                xmm7 = _mm_mul_ps(xmm7, xmm0); //                             mulps  xmm7, xmm0

                eax += 4 * 4; //                                              add eax, 4*4

                // transpose xmm4, xmm5, xmm6, xmm7 to memory
                xmm2 = xmm4; //                                               movaps   xmm2, xmm4
                xmm3 = xmm6; //                                               movaps   xmm3, xmm6

                xmm4 = _mm_unpacklo_ps(xmm4, xmm5); //                        unpcklps xmm4, xmm5
                xmm6 = _mm_unpacklo_ps(xmm6, xmm7); //                        unpcklps xmm6, xmm7

                ecx = a0; //                                                  mov    ecx, a0
                movlps(at(esi, ecx + JOINTQUAT_Q_OFFSET), xmm4); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm4
                movlps(at(esi, ecx + JOINTQUAT_Q_OFFSET + 8), xmm6); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6

                ecx = a1; //                                                  mov    ecx, a1
                movhps(at(esi, ecx + JOINTQUAT_Q_OFFSET), xmm4); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm4
                movhps(at(esi, ecx + JOINTQUAT_Q_OFFSET + 8), xmm6); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6

                xmm2 = _mm_unpackhi_ps(xmm2, xmm5); //                        unpckhps xmm2, xmm5
                xmm3 = _mm_unpackhi_ps(xmm3, xmm7); //                        unpckhps xmm3, xmm7

                ecx = a2; //                                                  mov    ecx, a2
                movlps(at(esi, ecx + JOINTQUAT_Q_OFFSET), xmm2); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm2
                movlps(at(esi, ecx + JOINTQUAT_Q_OFFSET + 8), xmm3); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm3

                ecx = a3; //                                                  mov    ecx, a3
                movhps(at(esi, ecx + JOINTQUAT_Q_OFFSET), xmm2); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm2
                movhps(at(esi, ecx + JOINTQUAT_Q_OFFSET + 8), xmm3); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm3

                if eax > 0 {
                    break; //                                                 jle loopJoint4 (not taken)
                }
            }
        }

        // done4:
        eax -= 4 * 4; //                                                      sub eax, 4*4
        if eax == 0 {
            return; //                                                        jz done1
        }

        xmm6 = _mm_load_ss(&lerp); //                                         movss  xmm6, lerp
        xmm6 = _mm_shuffle_ps::<S0000>(xmm6, xmm6); //                        shufps xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
        xmm7 = _mm_set_ss(scaled_lerp); //                                    movss  xmm7, scaledLerp
        xmm7 = _mm_shuffle_ps::<S0000>(xmm7, xmm7); //                        shufps xmm7, xmm7, R_SHUFFLE_PS( 0, 0, 0, 0 )

        // loopJoint1:
        loop {
            ecx = joint_offset(edx, eax, 0); //                               mov ecx, [edx+eax]; shl ecx, JOINTQUAT_SIZE_SHIFT

            // lerp translations
            xmm3 = _mm_load_ps(at(edi, ecx + JOINTQUAT_T_OFFSET)); //         movaps xmm3, [edi+ecx+JOINTQUAT_T_OFFSET]
            xmm3 = _mm_sub_ps(xmm3, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // subps xmm3, [esi+ecx+JOINTQUAT_T_OFFSET]
            xmm3 = _mm_mul_ps(xmm3, xmm6); //                                 mulps  xmm3, xmm6
            xmm3 = _mm_add_ps(xmm3, _mm_load_ps(at(esi, ecx + JOINTQUAT_T_OFFSET))); // addps xmm3, [esi+ecx+JOINTQUAT_T_OFFSET]
            _mm_store_ps(at(esi, ecx + JOINTQUAT_T_OFFSET), xmm3); //         movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm3

            // load quaternions
            xmm0 = _mm_load_ps(at(esi, ecx + JOINTQUAT_Q_OFFSET)); //         movaps xmm0, [esi+ecx+JOINTQUAT_Q_OFFSET]
            xmm1 = _mm_load_ps(at(edi, ecx + JOINTQUAT_Q_OFFSET)); //         movaps xmm1, [edi+ecx+JOINTQUAT_Q_OFFSET]

            // lerp quaternions
            xmm2 = xmm0; //                                                   movaps  xmm2, xmm0
            xmm2 = _mm_mul_ps(xmm2, xmm1); //                                 mulps   xmm2, xmm1
            xmm3 = _mm_movehl_ps(xmm3, xmm2); //                              movhlps xmm3, xmm2
            xmm2 = _mm_add_ps(xmm2, xmm3); //                                 addps   xmm2, xmm3
            xmm3 = xmm2; //                                                   movaps  xmm3, xmm2
            xmm3 = _mm_shuffle_ps::<S1023>(xmm3, xmm3); //                    shufps  xmm3, xmm3, R_SHUFFLE_PS( 1, 0, 2, 3 )
            xmm3 = _mm_add_ss(xmm3, xmm2); //                                 addss   xmm3, xmm2 // xmm3 = cosom
            xmm3 = _mm_shuffle_ps::<S0000>(xmm3, xmm3); //                    shufps  xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )
            xmm3 = _mm_and_ps(xmm3, SIMD_SP_SIGN_BIT.ps()); //                andps   xmm3, SIMD_SP_signBit // xmm3 = signBit
            xmm3 = _mm_xor_ps(xmm3, xmm7); //                                 xorps   xmm3, xmm7 // xmm3 = scaledLerp ^ signBit

            xmm1 = _mm_mul_ps(xmm1, xmm3); //                                 mulps   xmm1, xmm3
            xmm1 = _mm_add_ps(xmm1, xmm0); //                                 addps   xmm1, xmm0 // xmm1 = jointQuat + scale * blendQuat

            xmm0 = xmm1; //                                                   movaps  xmm0, xmm1
            xmm0 = _mm_mul_ps(xmm0, xmm0); //                                 mulps   xmm0, xmm0
            xmm2 = _mm_movehl_ps(xmm2, xmm0); //                              movhlps xmm2, xmm0
            xmm0 = _mm_add_ps(xmm0, xmm2); //                                 addps   xmm0, xmm2
            xmm2 = xmm0; //                                                   movaps  xmm2, xmm0
            xmm2 = _mm_shuffle_ps::<S1023>(xmm2, xmm2); //                    shufps  xmm2, xmm2, R_SHUFFLE_PS( 1, 0, 2, 3 )
            xmm0 = _mm_add_ss(xmm0, xmm2); //                                 addss   xmm0, xmm2

            xmm2 = _mm_move_ss(xmm2, _mm_rsqrt_ss(xmm0)); //                  rsqrtss xmm2, xmm0
            xmm0 = _mm_mul_ss(xmm0, xmm2); //                                 mulss   xmm0, xmm2
            xmm0 = _mm_mul_ss(xmm0, xmm2); //                                 mulss   xmm0, xmm2
            xmm0 = _mm_sub_ss(xmm0, SIMD_SP_RSQRT_C0.ps()); //                subss   xmm0, SIMD_SP_rsqrt_c0
            xmm2 = _mm_mul_ss(xmm2, SIMD_SP_RSQRT_C1.ps()); //                mulss   xmm2, SIMD_SP_rsqrt_c1
            xmm0 = _mm_mul_ss(xmm0, xmm2); //                                 mulss   xmm0, xmm2

            xmm0 = _mm_shuffle_ps::<S0000>(xmm0, xmm0); //                    shufps  xmm0, xmm0, R_SHUFFLE_PS( 0, 0, 0, 0 )
            xmm1 = _mm_mul_ps(xmm1, xmm0); //                                 mulps   xmm1, xmm0
            _mm_store_ps(at(esi, ecx + JOINTQUAT_Q_OFFSET), xmm1); //         movaps  [esi+ecx+JOINTQUAT_Q_OFFSET], xmm1

            eax += 4; //                                                      add eax, 1*4
            if eax >= 0 {
                break; //                                                     jl loopJoint1 (not taken)
            }
        }
    } // done1:
}
