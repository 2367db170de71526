//! Appendix B of *The Skeleton Assembly Line* (SSE `UntransformSkeleton`)
//! with `core::arch::x86_64` intrinsics: the listing's operations in the
//! listing's order, one variable per `xmm` register, each statement commented
//! with the instruction it stands for. Every output that is not a NaN is
//! bit-identical to [`super::asm`]'s (a NaN is a NaN in both, its sign and
//! payload may differ: LLVM may commute `mulps`/`addps` and drop the
//! subtraction of `+0.0` in the rotation lanes, which quiets no signalling
//! NaN).
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! How the listing maps to Rust:
//! - `esi` is the byte pointer to `jointMats`, `edi` the byte pointer to
//!   `parents[firstJoint]`; `eax` is the byte offset of `parents[i]` from
//!   `edi` (`(i - firstJoint) * 4`, counting down to 0), `ecx` the byte
//!   offset of joint `i` (`i * JOINTMAT_SIZE`), `edx` that of its parent;
//! - `movss xmm, [mem]` is `_mm_load_ss` (the upper lanes become zero, as
//!   with the memory form of `movss`); `pshufd` is `_mm_shuffle_epi32` on
//!   the register's bits (the listing uses the integer shuffle on floats).

use crate::types::{JOINTMAT_SIZE, JointMat};
use crate::x86::shuffle::r_shuffle_d;
use core::arch::x86_64::*;

/// `R_SHUFFLE_D( 1, 2, 3, 0 )`: rotate the lanes down by one (lane 0 to 3).
const S1230: i32 = r_shuffle_d(1, 2, 3, 0);
/// `R_SHUFFLE_D( 0, 0, 0, 0 )`.
const S0000: i32 = r_shuffle_d(0, 0, 0, 0);
/// `R_SHUFFLE_D( 1, 1, 1, 1 )`.
const S1111: i32 = r_shuffle_d(1, 1, 1, 1);
/// `R_SHUFFLE_D( 2, 2, 2, 2 )`.
const S2222: i32 = r_shuffle_d(2, 2, 2, 2);

/// `pshufd xmm, xmm, IMM` on float data: the bits are moved, not converted.
#[inline]
#[target_feature(enable = "sse2")]
fn pshufd<const IMM: i32>(a: __m128) -> __m128 {
    _mm_castsi128_ps(_mm_shuffle_epi32::<IMM>(_mm_castps_si128(a)))
}

/// `UntransformSkeleton` of Appendix B with SSE intrinsics: for `i` from
/// `last_joint` down to `first_joint`, `jointMats[i] = Rp^T (jointMats[i] -
/// tp)` with `[Rp | tp] = jointMats[parents[i]]`, in place (global joint
/// matrices back to local ones). `first_joint > last_joint` (compared as
/// signed 32-bit integers, as `sub eax, edx` / `jl done`) does nothing.
/// Bit-identical to [`super::asm::untransform_skeleton`] except for the sign
/// and payload of NaN outputs (see the module documentation).
///
/// # Safety
///
/// If `first_joint <= last_joint`:
/// - `joint_mats` is 16-byte aligned, `0 <= first_joint` and
///   `joint_mats.add(i)` is valid for reads and writes of a [`JointMat`] for
///   every `i` in `first_joint..=last_joint`;
/// - `last_joint * JOINTMAT_SIZE < 2^32` (the listing's 32-bit `lea`/`shl`;
///   [`super::MAX_JOINTS`] keeps it);
/// - `parents.add(i)` is readable for every such `i`, and `parents[i]` is
///   non-negative with `joint_mats.add(parents[i])` valid for reads. The
///   paper's semantics need `parents[i] < i` (parents first).
#[inline(never)]
pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    // SAFETY: the caller upholds the contract above, which is `kernel`'s;
    // SSE2 is part of the x86_64 baseline.
    unsafe { kernel(joint_mats, parents, first_joint, last_joint) }
}

/// The listing's `__asm` block. `+ 0` and `JOINTMAT_SIZE + 0` are kept as
/// the listing writes them.
///
/// # Safety
///
/// As [`untransform_skeleton`].
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

    let mut edx: i32 = first_joint; //                                  mov   edx, firstJoint
    let mut eax: i32 = last_joint; //                                   mov   eax, lastJoint
    let ecx: i32 = eax; //                                              mov   ecx, eax
    if eax < edx {
        //                                                              sub   eax, edx ; jl done
        return;
    }
    eax = eax.wrapping_sub(edx); //                                     sub   eax, edx
    let esi: *mut u8 = joint_mats.cast(); //                            mov   esi, jointMats
    let ecx: u32 = (ecx as u32).wrapping_mul(3); //                     lea   ecx, [ecx+ecx*2]
    let mut ecx: isize = ecx.wrapping_shl(4) as isize; //               shl   ecx, 4
    edx = ((edx as u32).wrapping_shl(2)) as i32; //                     shl   edx, 2
    let mut edi: *const u8 = parents.cast(); //                         mov   edi, parents
    edi = edi.wrapping_add(edx as u32 as usize); //                     add   edi, edx
    let mut eax: isize = (eax as u32).wrapping_shl(2) as isize; //      shl   eax, 2

    loop {
        // loopJoint:
        // SAFETY: `edi + eax` is `&parents[i]` for the joint `i` in
        // `first_joint..=last_joint` this iteration handles (eax counts
        // `(i - first_joint) * 4` down to 0), `ecx` is `i * JOINTMAT_SIZE`
        // before the `sub` and `edx` is `parents[i] * JOINTMAT_SIZE`; both
        // joints are valid, 16-byte-aligned `JointMat`s by the caller's
        // contract, and the offsets 0..48 stay inside them.
        unsafe {
            let mut edx: isize = edi.offset(eax).cast::<i32>().read() as isize; //     movsxd rdx, [edi+eax]  (mov edx, [edi+eax])
            xmm0 = _mm_load_ps(esi.offset(ecx + 0).cast()); //                           movaps xmm0, [esi+ecx+ 0]
            edx *= 3; //                                                                 lea    edx, [edx+edx*2]
            xmm1 = _mm_load_ps(esi.offset(ecx + 16).cast()); //                          movaps xmm1, [esi+ecx+16]
            edx <<= 4; //                                                                shl    edx, 4
            xmm2 = _mm_load_ps(esi.offset(ecx + 32).cast()); //                          movaps xmm2, [esi+ecx+32]

            xmm7 = _mm_load_ss(esi.offset(edx + 12).cast()); //                          movss  xmm7, [esi+edx+12]
            xmm7 = pshufd::<S1230>(xmm7); //                                             pshufd xmm7, xmm7, R_SHUFFLE_D( 1, 2, 3, 0 )
            xmm0 = _mm_sub_ps(xmm0, xmm7); //                                            subps  xmm0, xmm7
            xmm6 = _mm_load_ss(esi.offset(edx + 28).cast()); //                          movss  xmm6, [esi+edx+28]
            xmm6 = pshufd::<S1230>(xmm6); //                                             pshufd xmm6, xmm6, R_SHUFFLE_D( 1, 2, 3, 0 )
            xmm1 = _mm_sub_ps(xmm1, xmm6); //                                            subps  xmm1, xmm6
            xmm5 = _mm_load_ss(esi.offset(edx + 44).cast()); //                          movss  xmm5, [esi+edx+44]
            xmm5 = pshufd::<S1230>(xmm5); //                                             pshufd xmm5, xmm5, R_SHUFFLE_D( 1, 2, 3, 0 )
            xmm2 = _mm_sub_ps(xmm2, xmm5); //                                            subps  xmm2, xmm5

            ecx -= JOINTMAT_SIZE as isize; //                                            sub    ecx, JOINTMAT_SIZE
            eax -= 4; //                                                                 sub    eax, 4

            xmm7 = _mm_load_ps(esi.offset(edx + 0).cast()); //                           movaps xmm7, [esi+edx+ 0]
            xmm3 = pshufd::<S0000>(xmm7); //                                             pshufd xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm3 = _mm_mul_ps(xmm3, xmm0); //                                            mulps  xmm3, xmm0
            xmm4 = pshufd::<S1111>(xmm7); //                                             pshufd xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm4 = _mm_mul_ps(xmm4, xmm0); //                                            mulps  xmm4, xmm0
            xmm5 = pshufd::<S2222>(xmm7); //                                             pshufd xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm5 = _mm_mul_ps(xmm5, xmm0); //                                            mulps  xmm5, xmm0

            xmm7 = _mm_load_ps(esi.offset(edx + 16).cast()); //                          movaps xmm7, [esi+edx+16]
            xmm0 = pshufd::<S0000>(xmm7); //                                             pshufd xmm0, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm0 = _mm_mul_ps(xmm0, xmm1); //                                            mulps  xmm0, xmm1
            xmm3 = _mm_add_ps(xmm3, xmm0); //                                            addps  xmm3, xmm0
            xmm6 = pshufd::<S1111>(xmm7); //                                             pshufd xmm6, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm6 = _mm_mul_ps(xmm6, xmm1); //                                            mulps  xmm6, xmm1
            xmm4 = _mm_add_ps(xmm4, xmm6); //                                            addps  xmm4, xmm6
            xmm0 = pshufd::<S2222>(xmm7); //                                             pshufd xmm0, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm0 = _mm_mul_ps(xmm0, xmm1); //                                            mulps  xmm0, xmm1
            xmm5 = _mm_add_ps(xmm5, xmm0); //                                            addps  xmm5, xmm0

            xmm7 = _mm_load_ps(esi.offset(edx + 32).cast()); //                          movaps xmm7, [esi+edx+32]
            xmm6 = pshufd::<S0000>(xmm7); //                                             pshufd xmm6, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
            xmm6 = _mm_mul_ps(xmm6, xmm2); //                                            mulps  xmm6, xmm2
            xmm3 = _mm_add_ps(xmm3, xmm6); //                                            addps  xmm3, xmm6
            _mm_store_ps(esi.offset(ecx + JOINTMAT_SIZE as isize + 0).cast(), xmm3); //  movaps [esi+ecx+JOINTMAT_SIZE+ 0], xmm3
            xmm1 = pshufd::<S1111>(xmm7); //                                             pshufd xmm1, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
            xmm1 = _mm_mul_ps(xmm1, xmm2); //                                            mulps  xmm1, xmm2
            xmm4 = _mm_add_ps(xmm4, xmm1); //                                            addps  xmm4, xmm1
            _mm_store_ps(esi.offset(ecx + JOINTMAT_SIZE as isize + 16).cast(), xmm4); // movaps [esi+ecx+JOINTMAT_SIZE+16], xmm4
            xmm6 = pshufd::<S2222>(xmm7); //                                             pshufd xmm6, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
            xmm6 = _mm_mul_ps(xmm6, xmm2); //                                            mulps  xmm6, xmm2
            xmm5 = _mm_add_ps(xmm5, xmm6); //                                            addps  xmm5, xmm6
            _mm_store_ps(esi.offset(ecx + JOINTMAT_SIZE as isize + 32).cast(), xmm5); // movaps [esi+ecx+JOINTMAT_SIZE+32], xmm5
        }
        if eax < 0 {
            break; //                                                                    jge    loopJoint
        }
    }
    // done:
}
