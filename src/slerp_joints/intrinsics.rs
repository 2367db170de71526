//! Appendix A of *Slerping Clock Cycles* (SSE `SlerpJoints`) with
//! `core::arch::x86_64` intrinsics: the listing's operations in the listing's
//! order, one variable per `xmm` register, each statement commented with the
//! instruction it stands for. The slerp arithmetic between the transposes
//! (`mulps xmm0, xmm4` .. `addps xmm3, xmm4` of `loopJoint4`, and its
//! `loopJoint1` counterpart) lives in `src/x86/slerp_core.rs`, written in the same
//! style, which the SSE baseline of `slerp_quats` shares; this file holds the
//! loops, the loads, the translations and the stores around it. Every output
//! that is not a NaN is bit-identical
//! to [`super::asm`]'s; a NaN output is a NaN in both, but its sign and
//! payload may differ in optimised builds, because Rust and LLVM leave the NaN
//! bits of arithmetic unspecified and LLVM rewrites exactly-equivalent
//! operations (commutes `addps`/`mulps`, turns `subps x, c` into `addps x, -c`,
//! `c0 * s + c1` into `c1 - (-c0) * s`), which picks a different NaN operand.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! How the listing maps to Rust:
//! - `eax` is the listing's byte offset from the end of `index` (`-4 *
//!   numJoints` upwards), `ecx` and `a0..a3` are byte offsets of a joint
//!   (`index[i] << JOINTQUAT_SIZE_SHIFT`), `esi`/`edi`/`edx` byte pointers;
//!   the loops keep the listing's entry and exit tests, so every joint is
//!   handled by the same loop as in the asm (`numJoints <= 4`, exactly 4
//!   included, runs the 1-wide loop only);
//! - the stack arrays `jointQuat0..3` / `blendQuat0..3` are `__m128` locals;
//! - `movss xmm, lerp` is `_mm_set_ss(lerp)`, `movss xmm, SIMD_SP_x` is
//!   `_mm_set_ss` of the constant (both zero the upper lanes, as the memory
//!   form of `movss` does), and an `ss` instruction with a memory operand
//!   takes the constant's full register (only lane 0 is used);
//! - `movlps` / `movhps` stores are `_mm_storel_pd` / `_mm_storeh_pd` of the
//!   register cast to `__m128d` (Rust has no `_mm_storel_pi`): the same eight
//!   bytes, moved without conversion;
//! - in `loopJoint1` the `ss` instructions become `_ss` intrinsics. Where the
//!   upper lanes of an intrinsic's result differ from the instruction's
//!   (`rsqrtss` / `rcpss` keep the destination's upper lanes, the intrinsics
//!   the source's; `xmm2` enters the loop with whatever the asm's caller or
//!   the 4-wide loop left), those lanes never reach memory: every value
//!   `loopJoint1` stores is built from lane 0 (`shufps ..., (0, 0, 0, 0)`).

use crate::consts::{SIMD_SP_ONE, SIMD_SP_ZERO};
use crate::types::{JOINTQUAT_Q_OFFSET, JOINTQUAT_SIZE_SHIFT, JOINTQUAT_T_OFFSET, JointQuat};
use crate::x86::shuffle::{S0000, transpose_4x4};
use crate::x86::slerp_core::{slerp1, slerp4};
use core::arch::x86_64::*;

/// `SlerpJoints` of Appendix A with SSE intrinsics: for every `j` in
/// `index[0..num_joints]`, slerps `joints[j].q` towards `blend_joints[j].q`
/// and lerps `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place.
///
/// As the listing: `!(lerp > 0)` (`cmpnless` against zero fails, so NaN
/// passes this test) returns at once, `!(lerp < 1)` (NaN included) copies the
/// indexed blend joints; otherwise joints are interpolated four at a time
/// while more than four remain, the rest one at a time. Bit-identical to
/// [`super::asm::slerp_joints`] except for the sign and payload of NaN
/// outputs (see the module documentation).
///
/// # Safety
///
/// - `joints` and `blend_joints` are 16-byte aligned and the two lists do not
///   overlap;
/// - `0 <= num_joints <= super::MAX_JOINTS` and `index` points to
///   `num_joints` readable `i32`;
/// - every entry `j` of `index` satisfies `0 <= j <= super::MAX_JOINTS`,
///   with `joints.add(j)` valid for reads and writes and `blend_joints.add(j)`
///   valid for reads.
#[inline(never)]
pub unsafe fn slerp_joints(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    // SAFETY: the caller upholds the contract above, which is `kernel`'s;
    // SSE2 is part of the x86_64 baseline.
    unsafe { kernel(joints, blend_joints, lerp, index, num_joints) }
}

/// The listing's `__asm` block. `1*4`, `+0` and `JOINTQUAT_Q_OFFSET` are kept
/// as the listing writes them.
///
/// # Safety
///
/// As [`slerp_joints`].
#[inline]
#[target_feature(enable = "sse2")]
#[allow(clippy::identity_op)]
unsafe fn kernel(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
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
    let (mut joint_quat0, mut joint_quat1, mut joint_quat2, mut joint_quat3): (__m128, __m128, __m128, __m128);
    let (mut blend_quat0, mut blend_quat1, mut blend_quat2, mut blend_quat3): (__m128, __m128, __m128, __m128);
    let (mut a0, mut a1, mut a2, mut a3): (usize, usize, usize, usize);
    let mut ecx: usize;

    xmm7 = _mm_set_ss(lerp); //                                         movss    xmm7, lerp
    xmm7 = _mm_cmpnle_ss(xmm7, SIMD_SP_ZERO.ps()); //                   cmpnless xmm7, SIMD_SP_zero
    let mask = _mm_movemask_ps(xmm7); //                                movmskps ecx, xmm7
    if mask & 1 == 0 {
        //                                                              test ecx, 1
        return; //                                                      jz done1
    }

    let mut eax: isize = (num_joints << 2) as isize; //                 mov eax, numJoints ; shl eax, 2
    let esi: *mut u8 = joints.cast(); //                                mov esi, joints
    let edi: *const u8 = blend_joints.cast(); //                        mov edi, blendJoints
    let mut edx: *const u8 = index.cast(); //                           mov edx, index

    edx = edx.wrapping_offset(eax); //                                  add edx, eax
    eax = -eax; //                                                      neg eax
    if eax == 0 {
        return; //                                                      jz done1
    }

    xmm7 = _mm_set_ss(lerp); //                                         movss    xmm7, lerp
    xmm7 = _mm_cmpnlt_ss(xmm7, SIMD_SP_ONE.ps()); //                    cmpnltss xmm7, SIMD_SP_one
    let mask = _mm_movemask_ps(xmm7); //                                movmskps ecx, xmm7
    if mask & 1 != 0 {
        //                                                              test ecx, 1 ; jz lerpJoints
        loop {
            // loopCopy:
            // SAFETY: `edx + eax` (eax in -4*numJoints..0, step 4) addresses an
            // entry of `index`; `ecx` is that entry times JOINTQUAT_SIZE, which
            // the caller guarantees is a joint of both 16-byte-aligned lists.
            unsafe {
                ecx = edx.offset(eax).cast::<i32>().read() as usize; //                  mov    ecx, [edx+eax]
                ecx <<= JOINTQUAT_SIZE_SHIFT; //                                         shl    ecx, JOINTQUAT_SIZE_SHIFT

                eax += 1 * 4; //                                                         add    eax, 1*4

                xmm0 = _mm_load_ps(edi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm0, [edi+ecx+JOINTQUAT_Q_OFFSET]
                xmm1 = _mm_load_ps(edi.add(ecx + JOINTQUAT_T_OFFSET).cast()); //         movaps xmm1, [edi+ecx+JOINTQUAT_T_OFFSET]

                _mm_store_ps(esi.add(ecx + JOINTQUAT_Q_OFFSET).cast(), xmm0); //         movaps [esi+ecx+JOINTQUAT_Q_OFFSET], xmm0
                _mm_store_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast(), xmm1); //         movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm1
            }
            if eax >= 0 {
                break; //                                                                jl loopCopy
            }
        }
        return; //                                                                       jmp done1
    }

    // lerpJoints:
    eax += 4 * 4; //                                                                     add eax, 4*4
    if eax < 0 {
        //                                                                               jge done4
        loop {
            // loopJoint4:
            // SAFETY: `edx + eax - 4*4 .. edx + eax - 1*4` (eax <= 0) are four
            // entries of `index`; each `ecx` / `a0..a3` is an entry times
            // JOINTQUAT_SIZE, a joint of both 16-byte-aligned lists (caller's
            // contract); the `+8` halves stay inside the quaternion.
            unsafe {
                xmm3 = _mm_set_ss(lerp); //                                              movss  xmm3, lerp
                xmm3 = _mm_shuffle_ps::<S0000>(xmm3, xmm3); //                           shufps xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )

                ecx = edx.offset(eax - 4 * 4).cast::<i32>().read() as usize; //         mov    ecx, [edx+eax-4*4]
                ecx <<= JOINTQUAT_SIZE_SHIFT; //                                         shl    ecx, JOINTQUAT_SIZE_SHIFT
                a0 = ecx; //                                                             mov    a0, ecx

                // lerp first translations
                xmm7 = _mm_load_ps(edi.add(ecx + JOINTQUAT_T_OFFSET).cast()); //         movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                                        mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast(), xmm7); //         movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load first quaternions
                xmm0 = _mm_load_ps(esi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm0, [esi+ecx+JOINTQUAT_Q_OFFSET]
                xmm4 = _mm_load_ps(edi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm4, [edi+ecx+JOINTQUAT_Q_OFFSET]

                ecx = edx.offset(eax - 3 * 4).cast::<i32>().read() as usize; //         mov    ecx, [edx+eax-3*4]
                ecx <<= JOINTQUAT_SIZE_SHIFT; //                                         shl    ecx, JOINTQUAT_SIZE_SHIFT
                a1 = ecx; //                                                             mov    a1, ecx

                // lerp second translations
                xmm7 = _mm_load_ps(edi.add(ecx + JOINTQUAT_T_OFFSET).cast()); //         movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                                        mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast(), xmm7); //         movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load second quaternions
                xmm1 = _mm_load_ps(esi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm1, [esi+ecx+JOINTQUAT_Q_OFFSET]
                xmm5 = _mm_load_ps(edi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm5, [edi+ecx+JOINTQUAT_Q_OFFSET]

                ecx = edx.offset(eax - 2 * 4).cast::<i32>().read() as usize; //         mov    ecx, [edx+eax-2*4]
                ecx <<= JOINTQUAT_SIZE_SHIFT; //                                         shl    ecx, JOINTQUAT_SIZE_SHIFT
                a2 = ecx; //                                                             mov    a2, ecx

                // lerp third translations
                xmm7 = _mm_load_ps(edi.add(ecx + JOINTQUAT_T_OFFSET).cast()); //         movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                                        mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast(), xmm7); //         movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load third quaternions
                xmm2 = _mm_load_ps(esi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm2, [esi+ecx+JOINTQUAT_Q_OFFSET]
                xmm6 = _mm_load_ps(edi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm6, [edi+ecx+JOINTQUAT_Q_OFFSET]

                ecx = edx.offset(eax - 1 * 4).cast::<i32>().read() as usize; //         mov    ecx, [edx+eax-1*4]
                ecx <<= JOINTQUAT_SIZE_SHIFT; //                                         shl    ecx, JOINTQUAT_SIZE_SHIFT
                a3 = ecx; //                                                             mov    a3, ecx

                // lerp fourth translations
                xmm7 = _mm_load_ps(edi.add(ecx + JOINTQUAT_T_OFFSET).cast()); //         movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                xmm7 = _mm_mul_ps(xmm7, xmm3); //                                        mulps  xmm7, xmm3
                xmm7 = _mm_add_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
                _mm_store_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast(), xmm7); //         movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

                // load fourth quaternions
                xmm3 = _mm_load_ps(esi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm3, [esi+ecx+JOINTQUAT_Q_OFFSET]

                transpose_4x4(&mut xmm0, &mut xmm1, &mut xmm2, &mut xmm3, &mut xmm7); // TRANSPOSE_4x4( xmm0, xmm1, xmm2, xmm3, xmm7 )

                joint_quat0 = xmm0; //                                                   movaps jointQuat0, xmm0
                joint_quat1 = xmm1; //                                                   movaps jointQuat1, xmm1
                joint_quat2 = xmm2; //                                                   movaps jointQuat2, xmm2
                joint_quat3 = xmm3; //                                                   movaps jointQuat3, xmm3

                xmm7 = _mm_load_ps(edi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //         movaps xmm7, [edi+ecx+JOINTQUAT_Q_OFFSET]

                transpose_4x4(&mut xmm4, &mut xmm5, &mut xmm6, &mut xmm7, &mut xmm3); // TRANSPOSE_4x4( xmm4, xmm5, xmm6, xmm7, xmm3 )

                blend_quat0 = xmm4; //                                                   movaps blendQuat0, xmm4
                blend_quat1 = xmm5; //                                                   movaps blendQuat1, xmm5
                blend_quat2 = xmm6; //                                                   movaps blendQuat2, xmm6
                blend_quat3 = xmm7; //                                                   movaps blendQuat3, xmm7

                // lerp quaternions: `mulps xmm0, xmm4` .. `addps xmm3, xmm4` (141 instructions), shared
                // with the SSE baseline of `slerp_quats` in `crate::x86::slerp_core`.
                [xmm0, xmm1, xmm2, xmm3] = slerp4(
                    [joint_quat0, joint_quat1, joint_quat2, joint_quat3],
                    [blend_quat0, blend_quat1, blend_quat2, blend_quat3],
                    lerp,
                );

                eax += 4 * 4; //                                                         add    eax, 4*4

                // transpose xmm0, xmm1, xmm2, xmm3 to memory
                xmm7 = xmm0; //                                                          movaps xmm7, xmm0
                xmm6 = xmm2; //                                                          movaps xmm6, xmm2

                xmm0 = _mm_unpacklo_ps(xmm0, xmm1); //                                   unpcklps xmm0, xmm1
                xmm2 = _mm_unpacklo_ps(xmm2, xmm3); //                                   unpcklps xmm2, xmm3

                ecx = a0; //                                                             mov    ecx, a0
                _mm_storel_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 0).cast(), _mm_castps_pd(xmm0)); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm0
                _mm_storel_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 8).cast(), _mm_castps_pd(xmm2)); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm2

                ecx = a1; //                                                             mov    ecx, a1
                _mm_storeh_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 0).cast(), _mm_castps_pd(xmm0)); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm0
                _mm_storeh_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 8).cast(), _mm_castps_pd(xmm2)); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm2

                xmm7 = _mm_unpackhi_ps(xmm7, xmm1); //                                   unpckhps xmm7, xmm1
                xmm6 = _mm_unpackhi_ps(xmm6, xmm3); //                                   unpckhps xmm6, xmm3

                ecx = a2; //                                                             mov    ecx, a2
                _mm_storel_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 0).cast(), _mm_castps_pd(xmm7)); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm7
                _mm_storel_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 8).cast(), _mm_castps_pd(xmm6)); // movlps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6

                ecx = a3; //                                                             mov    ecx, a3
                _mm_storeh_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 0).cast(), _mm_castps_pd(xmm7)); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm7
                _mm_storeh_pd(esi.add(ecx + JOINTQUAT_Q_OFFSET + 8).cast(), _mm_castps_pd(xmm6)); // movhps [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6
            }
            if eax > 0 {
                break; //                                                                jle loopJoint4
            }
        }
    }

    // done4:
    eax -= 4 * 4; //                                                                     sub eax, 4*4
    if eax == 0 {
        return; //                                                                       jz done1
    }

    loop {
        // loopJoint1:
        // SAFETY: `edx + eax` (eax < 0) addresses an entry of `index`; `ecx`
        // is that entry times JOINTQUAT_SIZE, a joint of both 16-byte-aligned
        // lists (caller's contract).
        unsafe {
            xmm3 = _mm_set_ss(lerp); //                                                  movss  xmm3, lerp
            xmm3 = _mm_shuffle_ps::<S0000>(xmm3, xmm3); //                               shufps xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )

            ecx = edx.offset(eax).cast::<i32>().read() as usize; //                      mov    ecx, [edx+eax]
            ecx <<= JOINTQUAT_SIZE_SHIFT; //                                             shl    ecx, JOINTQUAT_SIZE_SHIFT

            // lerp first translations
            xmm7 = _mm_load_ps(edi.add(ecx + JOINTQUAT_T_OFFSET).cast()); //             movaps xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
            xmm7 = _mm_sub_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // subps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
            xmm7 = _mm_mul_ps(xmm7, xmm3); //                                            mulps  xmm7, xmm3
            xmm7 = _mm_add_ps(xmm7, _mm_load_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast())); // addps xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
            _mm_store_ps(esi.add(ecx + JOINTQUAT_T_OFFSET).cast(), xmm7); //             movaps [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

            // load first quaternions
            xmm0 = _mm_load_ps(esi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //             movaps xmm0, [esi+ecx+JOINTQUAT_Q_OFFSET]
            xmm1 = _mm_load_ps(edi.add(ecx + JOINTQUAT_Q_OFFSET).cast()); //             movaps xmm1, [edi+ecx+JOINTQUAT_Q_OFFSET]

            joint_quat0 = xmm0; //                                                       movaps jointQuat0, xmm0
            blend_quat0 = xmm1; //                                                       movaps blendQuat0, xmm1

            // lerp quaternions: `mulps xmm1, xmm0` .. `addps xmm5, xmm6`, shared with the SSE
            // baseline of `slerp_quats` in `crate::x86::slerp_core`.
            xmm5 = slerp1(joint_quat0, blend_quat0, lerp);

            _mm_store_ps(esi.add(ecx + JOINTQUAT_Q_OFFSET).cast(), xmm5); //             movaps [esi+ecx+JOINTQUAT_Q_OFFSET], xmm5
        }
        eax += 1 * 4; //                                                                 add eax, 1*4
        if eax >= 0 {
            break; //                                                                    jl loopJoint1
        }
    }
    // done1:
}
