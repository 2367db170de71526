//! Appendix C of *The Skeleton Assembly Line* (SSE `TransformJoints`) with
//! `core::arch::x86_64` intrinsics: the listing's operations in the listing's
//! order, one variable per `xmm` register, each statement commented with the
//! instruction it stands for. Every output that is not a NaN is bit-identical
//! to [`super::asm`]'s (a NaN output is a NaN in both; its sign and payload
//! may differ, as LLVM may commute `mulps`/`addps` operands).
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! How the listing maps to Rust:
//! - `eax` is the listing's byte offset from the end of the lists
//!   (`-numJoints * JOINTMAT_SIZE` upwards, an `isize`), `ecx`/`edx`/`edi`
//!   byte pointers one past the end of `joints1`/`joints2`/`result`;
//! - `pshufd xmm, xmm, R_SHUFFLE_D( k, k, k, k )` is `_mm_shuffle_epi32` on
//!   the register cast to `__m128i` and back (the same bits moved);
//! - `andps xmm7, SIMD_SP_clearFirstThree` is `_mm_and_ps` with the static;
//! - the third row after `mulps xmm4, xmm1` and `jl loopJoint` are the
//!   rebuilt part of the listing, as in the asm;
//! - loads and stores go through raw pointers in the listing's order, so an
//!   in-place call (`result` equal to `joints1` or `joints2`) reads what the
//!   asm reads.

use crate::consts::SIMD_SP_CLEAR_FIRST_THREE;
use crate::types::{JOINTMAT_SIZE, JointMat};
use crate::x86::shuffle::r_shuffle_d;
use core::arch::x86_64::*;

/// `R_SHUFFLE_D( 0, 0, 0, 0 )`.
const D0000: i32 = r_shuffle_d(0, 0, 0, 0);
/// `R_SHUFFLE_D( 1, 1, 1, 1 )`.
const D1111: i32 = r_shuffle_d(1, 1, 1, 1);
/// `R_SHUFFLE_D( 2, 2, 2, 2 )`.
const D2222: i32 = r_shuffle_d(2, 2, 2, 2);

/// `JOINTMAT_SIZE` as a byte offset.
const SIZE: isize = JOINTMAT_SIZE as isize;

/// `pshufd dst, src, IMM` on float data: the dwords of `src` picked by `IMM`.
#[inline]
#[target_feature(enable = "sse2")]
fn pshufd<const IMM: i32>(src: __m128) -> __m128 {
    _mm_castsi128_ps(_mm_shuffle_epi32::<IMM>(_mm_castps_si128(src)))
}

/// `TransformJoints` of Appendix C with SSE2 intrinsics: `result[i] =
/// joints1[i] * joints2[i]` for the 3x4 affine joint matrices `i` in
/// `0..num_joints`. Bit-identical to [`super::asm::transform_joints`] except
/// for the sign and payload of NaN outputs.
///
/// # Safety
///
/// As [`super::asm::transform_joints`]:
/// - `result`, `joints1` and `joints2` are 16-byte aligned; `joints1` and
///   `joints2` are valid for reads and `result` for writes of `num_joints`
///   [`JointMat`]s each;
/// - `0 <= num_joints <= crate::transform_joints::MAX_JOINTS`;
/// - `result` may be exactly `joints1` or `joints2` (every row of an input
///   joint is read before the result row at the same place is written); no
///   other overlap.
#[inline(never)]
pub unsafe fn transform_joints(
    result: *mut JointMat,
    joints1: *const JointMat,
    joints2: *const JointMat,
    num_joints: i32,
) {
    // SAFETY: the caller upholds the contract above, which is `kernel`'s;
    // SSE2 is part of the x86_64 baseline.
    unsafe { kernel(result, joints1, joints2, num_joints) }
}

/// The listing's `__asm` block. `+ 0` offsets are kept as the listing writes
/// them.
///
/// # Safety
///
/// As [`transform_joints`].
#[inline]
#[target_feature(enable = "sse2")]
#[allow(clippy::identity_op)]
unsafe fn kernel(result: *mut JointMat, joints1: *const JointMat, joints2: *const JointMat, num_joints: i32) {
    let (mut xmm0, mut xmm1, mut xmm2, mut xmm3, mut xmm4, mut xmm5, mut xmm7): (
        __m128,
        __m128,
        __m128,
        __m128,
        __m128,
        __m128,
        __m128,
    );

    let mut eax: isize = num_joints as isize; //                            mov    eax, numJoints
    if eax == 0 {
        //                                                                  test   eax, eax
        return; //                                                          jz     done
    }

    let mut ecx: *const u8 = joints1.cast(); //                             mov    ecx, joints1
    let mut edx: *const u8 = joints2.cast(); //                             mov    edx, joints2
    let mut edi: *mut u8 = result.cast(); //                                mov    edi, result

    eax *= SIZE; //                                                         imul   eax, JOINTMAT_SIZE

    ecx = ecx.wrapping_offset(eax); //                                      add    ecx, eax
    edx = edx.wrapping_offset(eax); //                                      add    edx, eax
    edi = edi.wrapping_offset(eax); //                                      add    edi, eax

    eax = -eax; //                                                          neg    eax

    loop {
        // loopJoint:
        // SAFETY: `eax` runs from `-num_joints * JOINTMAT_SIZE` up to, not
        // including, 0 in steps of JOINTMAT_SIZE: before the `add`,
        // `edx + eax` and `ecx + eax` are `joints2[i]` and `joints1[i]`,
        // after it `ecx + eax - JOINTMAT_SIZE` and `edi + eax -
        // JOINTMAT_SIZE` are `joints1[i]` and `result[i]`, all 16-byte
        // aligned and valid by the caller's contract; `+ 16`/`+ 32` stay
        // inside the 48-byte joint.
        unsafe {
            xmm0 = _mm_load_ps(edx.offset(eax + 0).cast()); //              movaps xmm0, [edx+eax+ 0]
            xmm1 = _mm_load_ps(edx.offset(eax + 16).cast()); //             movaps xmm1, [edx+eax+16]
            xmm2 = _mm_load_ps(edx.offset(eax + 32).cast()); //             movaps xmm2, [edx+eax+32]

            xmm7 = _mm_load_ps(ecx.offset(eax + 0).cast()); //              movaps xmm7, [ecx+eax+ 0]
            xmm3 = pshufd::<D0000>(xmm7); //                                pshufd xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm3 = _mm_mul_ps(xmm3, xmm0); //                               mulps  xmm3, xmm0
            xmm4 = pshufd::<D1111>(xmm7); //                                pshufd xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm4 = _mm_mul_ps(xmm4, xmm1); //                               mulps  xmm4, xmm1
            xmm3 = _mm_add_ps(xmm3, xmm4); //                               addps  xmm3, xmm4
            eax += SIZE; //                                                 add    eax, JOINTMAT_SIZE
            xmm5 = pshufd::<D2222>(xmm7); //                                pshufd xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm5 = _mm_mul_ps(xmm5, xmm2); //                               mulps  xmm5, xmm2
            xmm3 = _mm_add_ps(xmm3, xmm5); //                               addps  xmm3, xmm5
            xmm7 = _mm_and_ps(xmm7, SIMD_SP_CLEAR_FIRST_THREE.ps()); //     andps  xmm7, SIMD_SP_clearFirstThree
            xmm3 = _mm_add_ps(xmm3, xmm7); //                               addps  xmm3, xmm7
            _mm_store_ps(edi.offset(eax - SIZE + 0).cast(), xmm3); //       movaps [edi+eax-JOINTMAT_SIZE+0], xmm3

            xmm7 = _mm_load_ps(ecx.offset(eax - SIZE + 16).cast()); //      movaps xmm7, [ecx+eax-JOINTMAT_SIZE+16]
            xmm3 = pshufd::<D0000>(xmm7); //                                pshufd xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm3 = _mm_mul_ps(xmm3, xmm0); //                               mulps  xmm3, xmm0
            xmm4 = pshufd::<D1111>(xmm7); //                                pshufd xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm4 = _mm_mul_ps(xmm4, xmm1); //                               mulps  xmm4, xmm1
            xmm3 = _mm_add_ps(xmm3, xmm4); //                               addps  xmm3, xmm4
            xmm5 = pshufd::<D2222>(xmm7); //                                pshufd xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm5 = _mm_mul_ps(xmm5, xmm2); //                               mulps  xmm5, xmm2
            xmm3 = _mm_add_ps(xmm3, xmm5); //                               addps  xmm3, xmm5
            xmm7 = _mm_and_ps(xmm7, SIMD_SP_CLEAR_FIRST_THREE.ps()); //     andps  xmm7, SIMD_SP_clearFirstThree
            xmm3 = _mm_add_ps(xmm3, xmm7); //                               addps  xmm3, xmm7
            _mm_store_ps(edi.offset(eax - SIZE + 16).cast(), xmm3); //      movaps [edi+eax-JOINTMAT_SIZE+16], xmm3

            xmm7 = _mm_load_ps(ecx.offset(eax - SIZE + 32).cast()); //      movaps xmm7, [ecx+eax-JOINTMAT_SIZE+32]
            xmm3 = pshufd::<D0000>(xmm7); //                                pshufd xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm3 = _mm_mul_ps(xmm3, xmm0); //                               mulps  xmm3, xmm0
            xmm4 = pshufd::<D1111>(xmm7); //                                pshufd xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm4 = _mm_mul_ps(xmm4, xmm1); //                               mulps  xmm4, xmm1
            // The OCR of Appendix C ends here; rebuilt from the rows above.
            xmm3 = _mm_add_ps(xmm3, xmm4); //                               addps  xmm3, xmm4
            xmm5 = pshufd::<D2222>(xmm7); //                                pshufd xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm5 = _mm_mul_ps(xmm5, xmm2); //                               mulps  xmm5, xmm2
            xmm3 = _mm_add_ps(xmm3, xmm5); //                               addps  xmm3, xmm5
            xmm7 = _mm_and_ps(xmm7, SIMD_SP_CLEAR_FIRST_THREE.ps()); //     andps  xmm7, SIMD_SP_clearFirstThree
            xmm3 = _mm_add_ps(xmm3, xmm7); //                               addps  xmm3, xmm7
            _mm_store_ps(edi.offset(eax - SIZE + 32).cast(), xmm3); //      movaps [edi+eax-JOINTMAT_SIZE+32], xmm3
        }
        if eax >= 0 {
            break; //                                                       jl     loopJoint
        }
    }
    // done:
}
