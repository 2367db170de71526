//! Appendix A of *The Skeleton Assembly Line* (SSE2 `TransformSkeleton`) with
//! `core::arch::x86_64` intrinsics: the listing's operations in the listing's
//! order, one variable per `xmm` register, each statement commented with the
//! instruction it stands for; and the twin of the `movss` + `shufps` variant
//! of [`super::asm::transform_skeleton_movss_shufps`]. Every output that is
//! not a NaN is bit-identical to the asm kernels' (the same products and sums
//! in the same order); a NaN output may differ in sign and payload, because
//! LLVM may commute the operands of `mulps` / `addps`.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! How the listing maps to Rust:
//! - `eax` is the byte offset from `&parents[lastJoint]` (`-4 * (lastJoint -
//!   firstJoint)` up to 0), `ecx` the byte offset of joint `i` in
//!   `jointMats`, `edx` that of its parent, `esi` / `edi` byte pointers;
//! - `add eax, 4` / `jle loopJoint` is `eax += 4; if eax > 0 { break }`;
//! - `pshufd xmmN, xmmR, R_SHUFFLE_D( k, k, k, k )` is `_mm_shuffle_epi32` on
//!   the register cast to `__m128i` and back (the bits move unchanged, as
//!   the paper says: "every 32 bits floating point bit pattern represents a
//!   valid integer");
//! - `movss xmmN, [mem]` is `_mm_load_ss` (zeroes lanes 1..3, as the memory
//!   form of `movss`).

use crate::consts::SIMD_SP_CLEAR_FIRST_THREE;
use crate::types::{JOINTMAT_SIZE, JointMat};
use crate::x86::shuffle::{S0000, r_shuffle_d};
use core::arch::x86_64::*;

/// `R_SHUFFLE_D( 0, 0, 0, 0 )`.
const D0000: i32 = r_shuffle_d(0, 0, 0, 0);
/// `R_SHUFFLE_D( 1, 1, 1, 1 )`.
const D1111: i32 = r_shuffle_d(1, 1, 1, 1);
/// `R_SHUFFLE_D( 2, 2, 2, 2 )`.
const D2222: i32 = r_shuffle_d(2, 2, 2, 2);

/// `pshufd dst, src, IMM`.
#[inline]
#[target_feature(enable = "sse2")]
fn pshufd<const IMM: i32>(src: __m128) -> __m128 {
    _mm_castsi128_ps(_mm_shuffle_epi32::<IMM>(_mm_castps_si128(src)))
}

/// `TransformSkeleton` of Appendix A with SSE2 intrinsics: for `i =
/// firstJoint ..= lastJoint`, `jointMats[i] = jointMats[parents[i]] *
/// jointMats[i]` (3x4 affine, parent times child), in place. Bit-identical to
/// [`super::asm::transform_skeleton`] except for the sign and payload of NaN
/// outputs.
///
/// # Safety
///
/// As [`super::asm::transform_skeleton`].
#[inline(never)]
pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    // SAFETY: the caller upholds the contract above, which is `kernel`'s;
    // SSE2 is part of the x86_64 baseline.
    unsafe { kernel(joint_mats, parents, first_joint, last_joint) }
}

/// The listing's `__asm` block. `+ 0` is kept as the listing writes it.
///
/// # Safety
///
/// As [`transform_skeleton`].
#[inline]
#[target_feature(enable = "sse2")]
#[allow(clippy::identity_op)]
unsafe fn kernel(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
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
    let clear = SIMD_SP_CLEAR_FIRST_THREE.ps();

    let first = first_joint as isize; //                                  mov  ecx, firstJoint
    let mut eax: isize = last_joint as isize; //                          mov  eax, lastJoint
    eax -= first; //                                                      sub  eax, ecx
    if eax < 0 {
        return; //                                                        jl   done (signed, as `jl`)
    }
    let mut ecx = first as usize; //                                      (firstJoint >= 0 from here on)
    ecx <<= 2; //                                                         shl  ecx, 2
    let mut edi: *const u8 = parents.cast(); //                           mov  edi, parents
    edi = edi.wrapping_add(ecx); //                                       add  edi, ecx
    ecx += ecx * 2; //                                                    lea  ecx, [ecx+ecx*2]
    ecx <<= 2; //                                                         shl  ecx, 2
    let esi: *mut u8 = joint_mats.cast(); //                              mov  esi, jointMats
    eax <<= 2; //                                                         shl  eax, 2
    edi = edi.wrapping_offset(eax); //                                    add  edi, eax
    eax = -eax; //                                                        neg  eax

    loop {
        // loopJoint:
        // SAFETY: `edi + eax` (eax from -4 * (last - first) up to 0) is an
        // entry of `parents[first..=last]`; `ecx` is 48 * i and `edx` 48 *
        // parents[i] for a joint `i` of the range, both joints of the
        // 16-byte-aligned array (caller's contract).
        unsafe {
            let mut edx = edi.offset(eax).cast::<i32>().read() as isize; //          mov    edx, [edi+eax]
            xmm0 = _mm_load_ps(esi.add(ecx + 0).cast()); //                           movaps xmm0, [esi+ecx+ 0]
            edx += edx * 2; //                                                        lea    edx, [edx+edx*2]
            xmm1 = _mm_load_ps(esi.add(ecx + 16).cast()); //                          movaps xmm1, [esi+ecx+16]
            edx <<= 4; //                                                             shl    edx, 4
            xmm2 = _mm_load_ps(esi.add(ecx + 32).cast()); //                          movaps xmm2, [esi+ecx+32]

            xmm7 = _mm_load_ps(esi.offset(edx + 0).cast()); //                        movaps xmm7, [esi+edx+ 0]
            xmm4 = pshufd::<D0000>(xmm7); //                                          pshufd xmm4, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm4 = _mm_mul_ps(xmm4, xmm0); //                                         mulps  xmm4, xmm0
            xmm5 = pshufd::<D1111>(xmm7); //                                          pshufd xmm5, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm5 = _mm_mul_ps(xmm5, xmm1); //                                         mulps  xmm5, xmm1
            xmm4 = _mm_add_ps(xmm4, xmm5); //                                         addps  xmm4, xmm5
            ecx += JOINTMAT_SIZE; //                                                  add    ecx, JOINTMAT_SIZE
            eax += 4; //                                                              add    eax, 4
            xmm6 = pshufd::<D2222>(xmm7); //                                          pshufd xmm6, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm6 = _mm_mul_ps(xmm6, xmm2); //                                         mulps  xmm6, xmm2
            xmm4 = _mm_add_ps(xmm4, xmm6); //                                         addps  xmm4, xmm6
            xmm7 = _mm_and_ps(xmm7, clear); //                                        andps  xmm7, SIMD_SP_clearFirstThree
            xmm4 = _mm_add_ps(xmm4, xmm7); //                                         addps  xmm4, xmm7

            _mm_store_ps(esi.add(ecx - JOINTMAT_SIZE + 0).cast(), xmm4); //           movaps [esi+ecx-JOINTMAT_SIZE+ 0], xmm4

            xmm3 = _mm_load_ps(esi.offset(edx + 16).cast()); //                       movaps xmm3, [esi+edx+16]
            xmm5 = pshufd::<D0000>(xmm3); //                                          pshufd xmm5, xmm3, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm5 = _mm_mul_ps(xmm5, xmm0); //                                         mulps  xmm5, xmm0
            xmm6 = pshufd::<D1111>(xmm3); //                                          pshufd xmm6, xmm3, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm6 = _mm_mul_ps(xmm6, xmm1); //                                         mulps  xmm6, xmm1
            xmm5 = _mm_add_ps(xmm5, xmm6); //                                         addps  xmm5, xmm6
            xmm4 = pshufd::<D2222>(xmm3); //                                          pshufd xmm4, xmm3, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm4 = _mm_mul_ps(xmm4, xmm2); //                                         mulps  xmm4, xmm2
            xmm5 = _mm_add_ps(xmm5, xmm4); //                                         addps  xmm5, xmm4
            xmm3 = _mm_and_ps(xmm3, clear); //                                        andps  xmm3, SIMD_SP_clearFirstThree
            xmm5 = _mm_add_ps(xmm5, xmm3); //                                         addps  xmm5, xmm3

            _mm_store_ps(esi.add(ecx - JOINTMAT_SIZE + 16).cast(), xmm5); //          movaps [esi+ecx-JOINTMAT_SIZE+16], xmm5

            xmm7 = _mm_load_ps(esi.offset(edx + 32).cast()); //                       movaps xmm7, [esi+edx+32]
            xmm6 = pshufd::<D0000>(xmm7); //                                          pshufd xmm6, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm6 = _mm_mul_ps(xmm6, xmm0); //                                         mulps  xmm6, xmm0
            xmm4 = pshufd::<D1111>(xmm7); //                                          pshufd xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm4 = _mm_mul_ps(xmm4, xmm1); //                                         mulps  xmm4, xmm1
            xmm6 = _mm_add_ps(xmm6, xmm4); //                                         addps  xmm6, xmm4
            xmm3 = pshufd::<D2222>(xmm7); //                                          pshufd xmm3, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm3 = _mm_mul_ps(xmm3, xmm2); //                                         mulps  xmm3, xmm2
            xmm6 = _mm_add_ps(xmm6, xmm3); //                                         addps  xmm6, xmm3
            xmm7 = _mm_and_ps(xmm7, clear); //                                        andps  xmm7, SIMD_SP_clearFirstThree
            xmm6 = _mm_add_ps(xmm6, xmm7); //                                         addps  xmm6, xmm7

            _mm_store_ps(esi.add(ecx - JOINTMAT_SIZE + 32).cast(), xmm6); //          movaps [esi+ecx-JOINTMAT_SIZE+32], xmm6
        }
        if eax > 0 {
            break; //                                                                 jle    loopJoint
        }
    }
    // done:
}

/// The intrinsics twin of
/// [`super::asm::transform_skeleton_movss_shufps`]: Appendix A with each
/// `pshufd` replaced by `movss` + `shufps` (section 3's other way to spread
/// a scalar; not the paper's listing). Bit-identical to the asm variant and
/// to [`transform_skeleton`] except for the sign and payload of NaN outputs.
///
/// # Safety
///
/// As [`super::asm::transform_skeleton`].
#[inline(never)]
pub unsafe fn transform_skeleton_movss_shufps(
    joint_mats: *mut JointMat,
    parents: *const i32,
    first_joint: i32,
    last_joint: i32,
) {
    // SAFETY: the caller upholds the contract above, which is
    // `kernel_movss_shufps`'s; SSE2 is part of the x86_64 baseline.
    unsafe { kernel_movss_shufps(joint_mats, parents, first_joint, last_joint) }
}

/// `movss xmmN, [esi+edx+offset]` + `shufps xmmN, xmmN, R_SHUFFLE_PS( 0, 0,
/// 0, 0 )`: the float at `p` in all four lanes.
///
/// # Safety
///
/// `p` is readable for 4 bytes.
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn movss_shufps(p: *const u8) -> __m128 {
    // SAFETY: the caller's contract.
    let x = unsafe { _mm_load_ss(p.cast()) }; //                           movss  xmmN, [esi+edx+offset]
    _mm_shuffle_ps::<S0000>(x, x) //                                         shufps xmmN, xmmN, R_SHUFFLE_PS( 0, 0, 0, 0 )
}

/// The variant's `__asm` block.
///
/// # Safety
///
/// As [`transform_skeleton`].
#[inline]
#[target_feature(enable = "sse2")]
#[allow(clippy::identity_op)]
unsafe fn kernel_movss_shufps(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
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
    let clear = SIMD_SP_CLEAR_FIRST_THREE.ps();

    let first = first_joint as isize; //                                  mov  ecx, firstJoint
    let mut eax: isize = last_joint as isize; //                          mov  eax, lastJoint
    eax -= first; //                                                      sub  eax, ecx
    if eax < 0 {
        return; //                                                        jl   done (signed, as `jl`)
    }
    let mut ecx = first as usize; //                                      (firstJoint >= 0 from here on)
    ecx <<= 2; //                                                         shl  ecx, 2
    let mut edi: *const u8 = parents.cast(); //                           mov  edi, parents
    edi = edi.wrapping_add(ecx); //                                       add  edi, ecx
    ecx += ecx * 2; //                                                    lea  ecx, [ecx+ecx*2]
    ecx <<= 2; //                                                         shl  ecx, 2
    let esi: *mut u8 = joint_mats.cast(); //                              mov  esi, jointMats
    eax <<= 2; //                                                         shl  eax, 2
    edi = edi.wrapping_offset(eax); //                                    add  edi, eax
    eax = -eax; //                                                        neg  eax

    loop {
        // loopJoint:
        // SAFETY: as in `kernel`; each `movss` reads a float of the parent's
        // rows.
        unsafe {
            let mut edx = edi.offset(eax).cast::<i32>().read() as isize; //          mov    edx, [edi+eax]
            xmm0 = _mm_load_ps(esi.add(ecx + 0).cast()); //                           movaps xmm0, [esi+ecx+ 0]
            edx += edx * 2; //                                                        lea    edx, [edx+edx*2]
            xmm1 = _mm_load_ps(esi.add(ecx + 16).cast()); //                          movaps xmm1, [esi+ecx+16]
            edx <<= 4; //                                                             shl    edx, 4
            xmm2 = _mm_load_ps(esi.add(ecx + 32).cast()); //                          movaps xmm2, [esi+ecx+32]

            xmm7 = _mm_load_ps(esi.offset(edx + 0).cast()); //                        movaps xmm7, [esi+edx+ 0]
            xmm4 = movss_shufps(esi.offset(edx + 0)); //                              movss  xmm4, [esi+edx+0] ; shufps xmm4, xmm4, (0, 0, 0, 0)
            xmm4 = _mm_mul_ps(xmm4, xmm0); //                                         mulps  xmm4, xmm0
            xmm5 = movss_shufps(esi.offset(edx + 4)); //                              movss  xmm5, [esi+edx+4] ; shufps xmm5, xmm5, (0, 0, 0, 0)
            xmm5 = _mm_mul_ps(xmm5, xmm1); //                                         mulps  xmm5, xmm1
            xmm4 = _mm_add_ps(xmm4, xmm5); //                                         addps  xmm4, xmm5
            ecx += JOINTMAT_SIZE; //                                                  add    ecx, JOINTMAT_SIZE
            eax += 4; //                                                              add    eax, 4
            xmm6 = movss_shufps(esi.offset(edx + 8)); //                              movss  xmm6, [esi+edx+8] ; shufps xmm6, xmm6, (0, 0, 0, 0)
            xmm6 = _mm_mul_ps(xmm6, xmm2); //                                         mulps  xmm6, xmm2
            xmm4 = _mm_add_ps(xmm4, xmm6); //                                         addps  xmm4, xmm6
            xmm7 = _mm_and_ps(xmm7, clear); //                                        andps  xmm7, SIMD_SP_clearFirstThree
            xmm4 = _mm_add_ps(xmm4, xmm7); //                                         addps  xmm4, xmm7

            _mm_store_ps(esi.add(ecx - JOINTMAT_SIZE + 0).cast(), xmm4); //           movaps [esi+ecx-JOINTMAT_SIZE+ 0], xmm4

            xmm3 = _mm_load_ps(esi.offset(edx + 16).cast()); //                       movaps xmm3, [esi+edx+16]
            xmm5 = movss_shufps(esi.offset(edx + 16)); //                             movss  xmm5, [esi+edx+16] ; shufps xmm5, xmm5, (0, 0, 0, 0)
            xmm5 = _mm_mul_ps(xmm5, xmm0); //                                         mulps  xmm5, xmm0
            xmm6 = movss_shufps(esi.offset(edx + 20)); //                             movss  xmm6, [esi+edx+20] ; shufps xmm6, xmm6, (0, 0, 0, 0)
            xmm6 = _mm_mul_ps(xmm6, xmm1); //                                         mulps  xmm6, xmm1
            xmm5 = _mm_add_ps(xmm5, xmm6); //                                         addps  xmm5, xmm6
            xmm4 = movss_shufps(esi.offset(edx + 24)); //                             movss  xmm4, [esi+edx+24] ; shufps xmm4, xmm4, (0, 0, 0, 0)
            xmm4 = _mm_mul_ps(xmm4, xmm2); //                                         mulps  xmm4, xmm2
            xmm5 = _mm_add_ps(xmm5, xmm4); //                                         addps  xmm5, xmm4
            xmm3 = _mm_and_ps(xmm3, clear); //                                        andps  xmm3, SIMD_SP_clearFirstThree
            xmm5 = _mm_add_ps(xmm5, xmm3); //                                         addps  xmm5, xmm3

            _mm_store_ps(esi.add(ecx - JOINTMAT_SIZE + 16).cast(), xmm5); //          movaps [esi+ecx-JOINTMAT_SIZE+16], xmm5

            xmm7 = _mm_load_ps(esi.offset(edx + 32).cast()); //                       movaps xmm7, [esi+edx+32]
            xmm6 = movss_shufps(esi.offset(edx + 32)); //                             movss  xmm6, [esi+edx+32] ; shufps xmm6, xmm6, (0, 0, 0, 0)
            xmm6 = _mm_mul_ps(xmm6, xmm0); //                                         mulps  xmm6, xmm0
            xmm4 = movss_shufps(esi.offset(edx + 36)); //                             movss  xmm4, [esi+edx+36] ; shufps xmm4, xmm4, (0, 0, 0, 0)
            xmm4 = _mm_mul_ps(xmm4, xmm1); //                                         mulps  xmm4, xmm1
            xmm6 = _mm_add_ps(xmm6, xmm4); //                                         addps  xmm6, xmm4
            xmm3 = movss_shufps(esi.offset(edx + 40)); //                             movss  xmm3, [esi+edx+40] ; shufps xmm3, xmm3, (0, 0, 0, 0)
            xmm3 = _mm_mul_ps(xmm3, xmm2); //                                         mulps  xmm3, xmm2
            xmm6 = _mm_add_ps(xmm6, xmm3); //                                         addps  xmm6, xmm3
            xmm7 = _mm_and_ps(xmm7, clear); //                                        andps  xmm7, SIMD_SP_clearFirstThree
            xmm6 = _mm_add_ps(xmm6, xmm7); //                                         addps  xmm6, xmm7

            _mm_store_ps(esi.add(ecx - JOINTMAT_SIZE + 32).cast(), xmm6); //          movaps [esi+ecx-JOINTMAT_SIZE+32], xmm6
        }
        if eax > 0 {
            break; //                                                                 jle    loopJoint
        }
    }
    // done:
}
