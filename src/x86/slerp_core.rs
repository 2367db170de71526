//! The SSE slerp core of *Slerping Clock Cycles*, Appendix A, on quaternions
//! already in registers: the part of `SlerpJoints`' two loops that computes
//! the interpolated quaternions, without the index, the translations and the
//! memory traffic around it. Shared by `crate::slerp_joints::intrinsics`
//! (the intrinsics twin of the listing) and the 128-bit baseline of
//! `crate::slerp_quats::sse2`.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later.
//!
//! One statement per listing instruction, in the listing's order and with
//! its register names, each commented with its instruction: [`slerp4`] is `loopJoint4`
//! from `mulps xmm0, xmm4` (after the two `TRANSPOSE_4x4`) to the last
//! `addps xmm3, xmm4` (before the transpose back to memory); [`slerp1`] is
//! `loopJoint1` from `mulps xmm1, xmm0` to `addps xmm5, xmm6` (before the
//! store). Both compute bit for bit what the listing computes for the same
//! quaternions and `lerp` (`twins::` of `tests/slerp_joints.rs` checks
//! `slerp_joints::intrinsics` against the asm bit for bit).

use crate::consts::{
    SIMD_SP_ABS_MASK, SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4,
    SIMD_SP_ATAN_C5, SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_ONE, SIMD_SP_RSQRT_C0,
    SIMD_SP_RSQRT_C1, SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0, SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4,
    SIMD_SP_TINY,
};
use crate::x86::shuffle::{S0000, S1023};
use core::arch::x86_64::*;

/// `loopJoint4`'s slerp of four quaternion pairs held transposed:
/// `joint_quat[k]` / `blend_quat[k]` hold component `k` (x, y, z, w) of the
/// four "from" / "to" quaternions (the listing's `jointQuat0..3` and
/// `blendQuat0..3`). Returns the four results, transposed the same way (the
/// listing's `xmm0..xmm3` before it stores them).
///
/// `cosom = ((x·x' + y·y') + z·z') + w·w'`; the angle from `rsqrtps` and
/// `rcpps` with one Newton-Raphson step each and the `ATanPositive` and
/// `SinZeroHalfPI` polynomials; the "to" quaternion negated where the sign
/// bit of `cosom` is set (`-0.0` included).
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn slerp4(joint_quat: [__m128; 4], blend_quat: [__m128; 4], lerp: f32) -> [__m128; 4] {
    let [joint_quat0, joint_quat1, joint_quat2, joint_quat3] = joint_quat;
    let [blend_quat0, blend_quat1, blend_quat2, blend_quat3] = blend_quat;
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
    // On entry the listing holds jointQuat0..2 in xmm0..xmm2 and blendQuat0..3
    // in xmm4..xmm7; it reads jointQuat3 and blendQuat3 from memory, as here.
    (xmm0, xmm1, xmm2) = (joint_quat0, joint_quat1, joint_quat2);
    (xmm4, xmm5, xmm6) = (blend_quat0, blend_quat1, blend_quat2);

    // lerp quaternions
    xmm0 = _mm_mul_ps(xmm0, xmm4); //                                        mulps  xmm0, xmm4
    xmm1 = _mm_mul_ps(xmm1, xmm5); //                                        mulps  xmm1, xmm5
    xmm0 = _mm_add_ps(xmm0, xmm1); //                                        addps  xmm0, xmm1
    xmm2 = _mm_mul_ps(xmm2, xmm6); //                                        mulps  xmm2, xmm6
    xmm0 = _mm_add_ps(xmm0, xmm2); //                                        addps  xmm0, xmm2
    xmm3 = joint_quat3; //                                                   movaps xmm3, jointQuat3
    xmm3 = _mm_mul_ps(xmm3, blend_quat3); //                                 mulps  xmm3, blendQuat3
    xmm0 = _mm_add_ps(xmm0, xmm3); //                                        addps  xmm0, xmm3 // xmm0 = cosom

    xmm1 = xmm0; //                                                          movaps xmm1, xmm0
    xmm2 = xmm0; //                                                          movaps xmm2, xmm0
    xmm1 = _mm_and_ps(xmm1, SIMD_SP_SIGN_BIT.ps()); //                       andps  xmm1, SIMD_SP_signBit // xmm1 = signBit
    xmm0 = _mm_xor_ps(xmm0, xmm1); //                                        xorps  xmm0, xmm1
    xmm2 = _mm_mul_ps(xmm2, xmm2); //                                        mulps  xmm2, xmm2

    xmm4 = _mm_setzero_ps(); //                                              xorps  xmm4, xmm4
    xmm3 = SIMD_SP_ONE.ps(); //                                              movaps xmm3, SIMD_SP_one
    xmm3 = _mm_sub_ps(xmm3, xmm2); //                                        subps  xmm3, xmm2 // xmm3 = scale0
    xmm4 = _mm_cmpeq_ps(xmm4, xmm3); //                                      cmpeqps xmm4, xmm3
    xmm4 = _mm_and_ps(xmm4, SIMD_SP_TINY.ps()); //                           andps  xmm4, SIMD_SP_tiny
    xmm3 = _mm_and_ps(xmm3, SIMD_SP_ABS_MASK.ps()); //                       andps  xmm3, SIMD_SP_absMask
    xmm3 = _mm_or_ps(xmm3, xmm4); //                                         orps   xmm3, xmm4

    xmm2 = xmm3; //                                                          movaps xmm2, xmm3
    xmm4 = _mm_rsqrt_ps(xmm2); //                                            rsqrtps xmm4, xmm2
    xmm2 = _mm_mul_ps(xmm2, xmm4); //                                        mulps  xmm2, xmm4
    xmm2 = _mm_mul_ps(xmm2, xmm4); //                                        mulps  xmm2, xmm4
    xmm2 = _mm_sub_ps(xmm2, SIMD_SP_RSQRT_C0.ps()); //                       subps  xmm2, SIMD_SP_rsqrt_c0
    xmm4 = _mm_mul_ps(xmm4, SIMD_SP_RSQRT_C1.ps()); //                       mulps  xmm4, SIMD_SP_rsqrt_c1
    xmm2 = _mm_mul_ps(xmm2, xmm4); //                                        mulps  xmm2, xmm4
    xmm3 = _mm_mul_ps(xmm3, xmm2); //                                        mulps  xmm3, xmm2 // xmm3 = sqrt( scale0 )

    // omega0 = atan2( xmm3, xmm0 )
    xmm4 = xmm0; //                                                          movaps xmm4, xmm0
    xmm0 = _mm_min_ps(xmm0, xmm3); //                                        minps  xmm0, xmm3
    xmm3 = _mm_max_ps(xmm3, xmm4); //                                        maxps  xmm3, xmm4
    xmm4 = _mm_cmpeq_ps(xmm4, xmm0); //                                      cmpeqps xmm4, xmm0
    xmm5 = _mm_rcp_ps(xmm3); //                                              rcpps  xmm5, xmm3
    xmm3 = _mm_mul_ps(xmm3, xmm5); //                                        mulps  xmm3, xmm5
    xmm3 = _mm_mul_ps(xmm3, xmm5); //                                        mulps  xmm3, xmm5
    xmm5 = _mm_add_ps(xmm5, xmm5); //                                        addps  xmm5, xmm5
    xmm5 = _mm_sub_ps(xmm5, xmm3); //                                        subps  xmm5, xmm3 // xmm5 = 1 / y or 1 / x
    xmm0 = _mm_mul_ps(xmm0, xmm5); //                                        mulps  xmm0, xmm5 // xmm0 = x / y or y / x
    xmm3 = xmm4; //                                                          movaps xmm3, xmm4
    xmm3 = _mm_and_ps(xmm3, SIMD_SP_SIGN_BIT.ps()); //                       andps  xmm3, SIMD_SP_signBit
    xmm0 = _mm_xor_ps(xmm0, xmm3); //                                        xorps  xmm0, xmm3 // xmm0 = -x / y or y / x
    xmm4 = _mm_and_ps(xmm4, SIMD_SP_HALF_PI.ps()); //                        andps  xmm4, SIMD_SP_halfPI // xmm4 = HALF_PI or 0.0f
    xmm3 = xmm0; //                                                          movaps xmm3, xmm0
    xmm3 = _mm_mul_ps(xmm3, xmm3); //                                        mulps  xmm3, xmm3 // xmm3 = s
    xmm5 = SIMD_SP_ATAN_C0.ps(); //                                          movaps xmm5, SIMD_SP_atan_c0
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ATAN_C1.ps()); //                        addps  xmm5, SIMD_SP_atan_c1
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ATAN_C2.ps()); //                        addps  xmm5, SIMD_SP_atan_c2
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ATAN_C3.ps()); //                        addps  xmm5, SIMD_SP_atan_c3
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ATAN_C4.ps()); //                        addps  xmm5, SIMD_SP_atan_c4
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ATAN_C5.ps()); //                        addps  xmm5, SIMD_SP_atan_c5
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ATAN_C6.ps()); //                        addps  xmm5, SIMD_SP_atan_c6
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ATAN_C7.ps()); //                        addps  xmm5, SIMD_SP_atan_c7
    xmm5 = _mm_mul_ps(xmm5, xmm3); //                                        mulps  xmm5, xmm3
    xmm5 = _mm_add_ps(xmm5, SIMD_SP_ONE.ps()); //                            addps  xmm5, SIMD_SP_one
    xmm5 = _mm_mul_ps(xmm5, xmm0); //                                        mulps  xmm5, xmm0
    xmm5 = _mm_add_ps(xmm5, xmm4); //                                        addps  xmm5, xmm4 // xmm5 = omega0

    xmm6 = _mm_set_ss(lerp); //                                              movss  xmm6, lerp // xmm6 = lerp
    xmm6 = _mm_shuffle_ps::<S0000>(xmm6, xmm6); //                           shufps xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
    xmm6 = _mm_mul_ps(xmm6, xmm5); //                                        mulps  xmm6, xmm5 // xmm6 = omega1
    xmm5 = _mm_sub_ps(xmm5, xmm6); //                                        subps  xmm5, xmm6 // xmm5 = omega0

    // scale0 = sin( xmm5 ) * xmm2
    // scale1 = sin( xmm6 ) * xmm2
    xmm3 = xmm5; //                                                          movaps xmm3, xmm5
    xmm7 = xmm6; //                                                          movaps xmm7, xmm6
    xmm3 = _mm_mul_ps(xmm3, xmm3); //                                        mulps  xmm3, xmm3
    xmm7 = _mm_mul_ps(xmm7, xmm7); //                                        mulps  xmm7, xmm7
    xmm4 = SIMD_SP_SIN_C0.ps(); //                                           movaps xmm4, SIMD_SP_sin_c0
    xmm0 = SIMD_SP_SIN_C0.ps(); //                                           movaps xmm0, SIMD_SP_sin_c0
    xmm4 = _mm_mul_ps(xmm4, xmm3); //                                        mulps  xmm4, xmm3
    xmm0 = _mm_mul_ps(xmm0, xmm7); //                                        mulps  xmm0, xmm7
    xmm4 = _mm_add_ps(xmm4, SIMD_SP_SIN_C1.ps()); //                         addps  xmm4, SIMD_SP_sin_c1
    xmm0 = _mm_add_ps(xmm0, SIMD_SP_SIN_C1.ps()); //                         addps  xmm0, SIMD_SP_sin_c1
    xmm4 = _mm_mul_ps(xmm4, xmm3); //                                        mulps  xmm4, xmm3
    xmm0 = _mm_mul_ps(xmm0, xmm7); //                                        mulps  xmm0, xmm7
    xmm4 = _mm_add_ps(xmm4, SIMD_SP_SIN_C2.ps()); //                         addps  xmm4, SIMD_SP_sin_c2
    xmm0 = _mm_add_ps(xmm0, SIMD_SP_SIN_C2.ps()); //                         addps  xmm0, SIMD_SP_sin_c2
    xmm4 = _mm_mul_ps(xmm4, xmm3); //                                        mulps  xmm4, xmm3
    xmm0 = _mm_mul_ps(xmm0, xmm7); //                                        mulps  xmm0, xmm7
    xmm4 = _mm_add_ps(xmm4, SIMD_SP_SIN_C3.ps()); //                         addps  xmm4, SIMD_SP_sin_c3
    xmm0 = _mm_add_ps(xmm0, SIMD_SP_SIN_C3.ps()); //                         addps  xmm0, SIMD_SP_sin_c3
    xmm4 = _mm_mul_ps(xmm4, xmm3); //                                        mulps  xmm4, xmm3
    xmm0 = _mm_mul_ps(xmm0, xmm7); //                                        mulps  xmm0, xmm7
    xmm4 = _mm_add_ps(xmm4, SIMD_SP_SIN_C4.ps()); //                         addps  xmm4, SIMD_SP_sin_c4
    xmm0 = _mm_add_ps(xmm0, SIMD_SP_SIN_C4.ps()); //                         addps  xmm0, SIMD_SP_sin_c4
    xmm4 = _mm_mul_ps(xmm4, xmm3); //                                        mulps  xmm4, xmm3
    xmm0 = _mm_mul_ps(xmm0, xmm7); //                                        mulps  xmm0, xmm7
    xmm4 = _mm_add_ps(xmm4, SIMD_SP_ONE.ps()); //                            addps  xmm4, SIMD_SP_one
    xmm0 = _mm_add_ps(xmm0, SIMD_SP_ONE.ps()); //                            addps  xmm0, SIMD_SP_one
    xmm5 = _mm_mul_ps(xmm5, xmm4); //                                        mulps  xmm5, xmm4
    xmm6 = _mm_mul_ps(xmm6, xmm0); //                                        mulps  xmm6, xmm0
    xmm5 = _mm_mul_ps(xmm5, xmm2); //                                        mulps  xmm5, xmm2 // xmm5 = scale0
    xmm6 = _mm_mul_ps(xmm6, xmm2); //                                        mulps  xmm6, xmm2 // xmm6 = scale1

    xmm6 = _mm_xor_ps(xmm6, xmm1); //                                        xorps  xmm6, xmm1

    xmm0 = joint_quat0; //                                                   movaps xmm0, jointQuat0
    xmm0 = _mm_mul_ps(xmm0, xmm5); //                                        mulps  xmm0, xmm5
    xmm1 = blend_quat0; //                                                   movaps xmm1, blendQuat0
    xmm1 = _mm_mul_ps(xmm1, xmm6); //                                        mulps  xmm1, xmm6
    xmm0 = _mm_add_ps(xmm0, xmm1); //                                        addps  xmm0, xmm1

    xmm1 = joint_quat1; //                                                   movaps xmm1, jointQuat1
    xmm1 = _mm_mul_ps(xmm1, xmm5); //                                        mulps  xmm1, xmm5
    xmm2 = blend_quat1; //                                                   movaps xmm2, blendQuat1
    xmm2 = _mm_mul_ps(xmm2, xmm6); //                                        mulps  xmm2, xmm6
    xmm1 = _mm_add_ps(xmm1, xmm2); //                                        addps  xmm1, xmm2

    xmm2 = joint_quat2; //                                                   movaps xmm2, jointQuat2
    xmm2 = _mm_mul_ps(xmm2, xmm5); //                                        mulps  xmm2, xmm5
    xmm3 = blend_quat2; //                                                   movaps xmm3, blendQuat2
    xmm3 = _mm_mul_ps(xmm3, xmm6); //                                        mulps  xmm3, xmm6
    xmm2 = _mm_add_ps(xmm2, xmm3); //                                        addps  xmm2, xmm3

    xmm3 = joint_quat3; //                                                   movaps xmm3, jointQuat3
    xmm3 = _mm_mul_ps(xmm3, xmm5); //                                        mulps  xmm3, xmm5
    xmm4 = blend_quat3; //                                                   movaps xmm4, blendQuat3
    xmm4 = _mm_mul_ps(xmm4, xmm6); //                                        mulps  xmm4, xmm6
    xmm3 = _mm_add_ps(xmm3, xmm4); //                                        addps  xmm3, xmm4

    [xmm0, xmm1, xmm2, xmm3]
}

/// `loopJoint1`'s slerp of one quaternion pair (`joint_quat0`, `blend_quat0`:
/// x, y, z, w in lanes 0..3). Returns the result, lanes 0..3.
///
/// `cosom = (x·x' + z·z') + (y·y' + w·w')` (`movhlps` and a shuffle: another
/// order than [`slerp4`]'s, erratum E2 of `asm_notes/slerp_joints.md`),
/// otherwise the same operations on lane 0 with `ss` instructions. The upper
/// lanes of the scratch registers never reach the result (it is built from
/// lane 0 broadcast by `shufps`), so they start as zero here.
#[inline]
#[target_feature(enable = "sse2")]
pub(crate) fn slerp1(joint_quat0: __m128, blend_quat0: __m128, lerp: f32) -> __m128 {
    let (mut xmm0, mut xmm1, mut xmm3, mut xmm4, mut xmm5, mut xmm6): (__m128, __m128, __m128, __m128, __m128, __m128);
    let mut xmm2 = _mm_setzero_ps();
    let mut xmm7 = _mm_setzero_ps();
    xmm0 = joint_quat0;
    xmm1 = blend_quat0;

    // lerp quaternions
    xmm1 = _mm_mul_ps(xmm1, xmm0); //                                        mulps  xmm1, xmm0
    xmm0 = _mm_movehl_ps(xmm0, xmm1); //                                     movhlps xmm0, xmm1
    xmm1 = _mm_add_ps(xmm1, xmm0); //                                        addps  xmm1, xmm0
    xmm0 = xmm1; //                                                          movaps xmm0, xmm1
    xmm0 = _mm_shuffle_ps::<S1023>(xmm0, xmm0); //                           shufps xmm0, xmm0, R_SHUFFLE_PS( 1, 0, 2, 3 )
    xmm0 = _mm_add_ss(xmm0, xmm1); //                                        addss  xmm0, xmm1 // xmm0 = cosom

    xmm1 = _mm_move_ss(xmm1, xmm0); //                                       movss  xmm1, xmm0
    xmm2 = _mm_move_ss(xmm2, xmm0); //                                       movss  xmm2, xmm0
    xmm1 = _mm_and_ps(xmm1, SIMD_SP_SIGN_BIT.ps()); //                       andps  xmm1, SIMD_SP_signBit // xmm1 = signBit
    xmm0 = _mm_xor_ps(xmm0, xmm1); //                                        xorps  xmm0, xmm1
    xmm2 = _mm_mul_ss(xmm2, xmm2); //                                        mulss  xmm2, xmm2

    xmm4 = _mm_setzero_ps(); //                                              xorps  xmm4, xmm4
    xmm3 = _mm_set_ss(SIMD_SP_ONE.0[0]); //                                  movss  xmm3, SIMD_SP_one
    xmm3 = _mm_sub_ss(xmm3, xmm2); //                                        subss  xmm3, xmm2 // xmm3 = scale0
    xmm4 = _mm_cmpeq_ss(xmm4, xmm3); //                                      cmpeqss xmm4, xmm3
    xmm4 = _mm_and_ps(xmm4, SIMD_SP_TINY.ps()); //                           andps  xmm4, SIMD_SP_tiny
    xmm3 = _mm_and_ps(xmm3, SIMD_SP_ABS_MASK.ps()); //                       andps  xmm3, SIMD_SP_absMask
    xmm3 = _mm_or_ps(xmm3, xmm4); //                                         orps   xmm3, xmm4

    xmm2 = _mm_move_ss(xmm2, xmm3); //                                       movss  xmm2, xmm3
    xmm4 = _mm_rsqrt_ss(xmm2); //                                            rsqrtss xmm4, xmm2
    xmm2 = _mm_mul_ss(xmm2, xmm4); //                                        mulss  xmm2, xmm4
    xmm2 = _mm_mul_ss(xmm2, xmm4); //                                        mulss  xmm2, xmm4
    xmm2 = _mm_sub_ss(xmm2, SIMD_SP_RSQRT_C0.ps()); //                       subss  xmm2, SIMD_SP_rsqrt_c0
    xmm4 = _mm_mul_ss(xmm4, SIMD_SP_RSQRT_C1.ps()); //                       mulss  xmm4, SIMD_SP_rsqrt_c1
    xmm2 = _mm_mul_ss(xmm2, xmm4); //                                        mulss  xmm2, xmm4
    xmm3 = _mm_mul_ss(xmm3, xmm2); //                                        mulss  xmm3, xmm2 // xmm3 = sqrt( scale0 )

    // omega0 = atan2( xmm3, xmm0 )
    xmm4 = _mm_move_ss(xmm4, xmm0); //                                       movss  xmm4, xmm0
    xmm0 = _mm_min_ss(xmm0, xmm3); //                                        minss  xmm0, xmm3
    xmm3 = _mm_max_ss(xmm3, xmm4); //                                        maxss  xmm3, xmm4
    xmm4 = _mm_cmpeq_ss(xmm4, xmm0); //                                      cmpeqss xmm4, xmm0
    xmm5 = _mm_rcp_ss(xmm3); //                                              rcpss  xmm5, xmm3
    xmm3 = _mm_mul_ss(xmm3, xmm5); //                                        mulss  xmm3, xmm5
    xmm3 = _mm_mul_ss(xmm3, xmm5); //                                        mulss  xmm3, xmm5
    xmm5 = _mm_add_ss(xmm5, xmm5); //                                        addss  xmm5, xmm5
    xmm5 = _mm_sub_ss(xmm5, xmm3); //                                        subss  xmm5, xmm3 // xmm5 = 1 / y or 1 / x
    xmm0 = _mm_mul_ss(xmm0, xmm5); //                                        mulss  xmm0, xmm5 // xmm0 = x / y or y / x
    xmm3 = _mm_move_ss(xmm3, xmm4); //                                       movss  xmm3, xmm4
    xmm3 = _mm_and_ps(xmm3, SIMD_SP_SIGN_BIT.ps()); //                       andps  xmm3, SIMD_SP_signBit
    xmm0 = _mm_xor_ps(xmm0, xmm3); //                                        xorps  xmm0, xmm3 // xmm0 = -x / y or y / x
    xmm4 = _mm_and_ps(xmm4, SIMD_SP_HALF_PI.ps()); //                        andps  xmm4, SIMD_SP_halfPI // xmm4 = HALF_PI or 0.0f
    xmm3 = _mm_move_ss(xmm3, xmm0); //                                       movss  xmm3, xmm0
    xmm3 = _mm_mul_ss(xmm3, xmm3); //                                        mulss  xmm3, xmm3 // xmm3 = s
    xmm5 = _mm_set_ss(SIMD_SP_ATAN_C0.0[0]); //                              movss  xmm5, SIMD_SP_atan_c0
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ATAN_C1.ps()); //                        addss  xmm5, SIMD_SP_atan_c1
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ATAN_C2.ps()); //                        addss  xmm5, SIMD_SP_atan_c2
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ATAN_C3.ps()); //                        addss  xmm5, SIMD_SP_atan_c3
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ATAN_C4.ps()); //                        addss  xmm5, SIMD_SP_atan_c4
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ATAN_C5.ps()); //                        addss  xmm5, SIMD_SP_atan_c5
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ATAN_C6.ps()); //                        addss  xmm5, SIMD_SP_atan_c6
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ATAN_C7.ps()); //                        addss  xmm5, SIMD_SP_atan_c7
    xmm5 = _mm_mul_ss(xmm5, xmm3); //                                        mulss  xmm5, xmm3
    xmm5 = _mm_add_ss(xmm5, SIMD_SP_ONE.ps()); //                            addss  xmm5, SIMD_SP_one
    xmm5 = _mm_mul_ss(xmm5, xmm0); //                                        mulss  xmm5, xmm0
    xmm5 = _mm_add_ss(xmm5, xmm4); //                                        addss  xmm5, xmm4 // xmm5 = omega0

    xmm6 = _mm_set_ss(lerp); //                                              movss  xmm6, lerp // xmm6 = lerp
    xmm6 = _mm_mul_ss(xmm6, xmm5); //                                        mulss  xmm6, xmm5 // xmm6 = omega1
    xmm5 = _mm_sub_ss(xmm5, xmm6); //                                        subss  xmm5, xmm6 // xmm5 = omega0

    // scale0 = sin( xmm5 ) * xmm2
    // scale1 = sin( xmm6 ) * xmm2
    xmm3 = _mm_move_ss(xmm3, xmm5); //                                       movss  xmm3, xmm5
    xmm7 = _mm_move_ss(xmm7, xmm6); //                                       movss  xmm7, xmm6
    xmm3 = _mm_mul_ss(xmm3, xmm3); //                                        mulss  xmm3, xmm3
    xmm7 = _mm_mul_ss(xmm7, xmm7); //                                        mulss  xmm7, xmm7
    xmm4 = _mm_set_ss(SIMD_SP_SIN_C0.0[0]); //                               movss  xmm4, SIMD_SP_sin_c0
    xmm0 = _mm_set_ss(SIMD_SP_SIN_C0.0[0]); //                               movss  xmm0, SIMD_SP_sin_c0
    xmm4 = _mm_mul_ss(xmm4, xmm3); //                                        mulss  xmm4, xmm3
    xmm0 = _mm_mul_ss(xmm0, xmm7); //                                        mulss  xmm0, xmm7
    xmm4 = _mm_add_ss(xmm4, SIMD_SP_SIN_C1.ps()); //                         addss  xmm4, SIMD_SP_sin_c1
    xmm0 = _mm_add_ss(xmm0, SIMD_SP_SIN_C1.ps()); //                         addss  xmm0, SIMD_SP_sin_c1
    xmm4 = _mm_mul_ss(xmm4, xmm3); //                                        mulss  xmm4, xmm3
    xmm0 = _mm_mul_ss(xmm0, xmm7); //                                        mulss  xmm0, xmm7
    xmm4 = _mm_add_ss(xmm4, SIMD_SP_SIN_C2.ps()); //                         addss  xmm4, SIMD_SP_sin_c2
    xmm0 = _mm_add_ss(xmm0, SIMD_SP_SIN_C2.ps()); //                         addss  xmm0, SIMD_SP_sin_c2
    xmm4 = _mm_mul_ss(xmm4, xmm3); //                                        mulss  xmm4, xmm3
    xmm0 = _mm_mul_ss(xmm0, xmm7); //                                        mulss  xmm0, xmm7
    xmm4 = _mm_add_ss(xmm4, SIMD_SP_SIN_C3.ps()); //                         addss  xmm4, SIMD_SP_sin_c3
    xmm0 = _mm_add_ss(xmm0, SIMD_SP_SIN_C3.ps()); //                         addss  xmm0, SIMD_SP_sin_c3
    xmm4 = _mm_mul_ss(xmm4, xmm3); //                                        mulss  xmm4, xmm3
    xmm0 = _mm_mul_ss(xmm0, xmm7); //                                        mulss  xmm0, xmm7
    xmm4 = _mm_add_ss(xmm4, SIMD_SP_SIN_C4.ps()); //                         addss  xmm4, SIMD_SP_sin_c4
    xmm0 = _mm_add_ss(xmm0, SIMD_SP_SIN_C4.ps()); //                         addss  xmm0, SIMD_SP_sin_c4
    xmm4 = _mm_mul_ss(xmm4, xmm3); //                                        mulss  xmm4, xmm3
    xmm0 = _mm_mul_ss(xmm0, xmm7); //                                        mulss  xmm0, xmm7
    xmm4 = _mm_add_ss(xmm4, SIMD_SP_ONE.ps()); //                            addss  xmm4, SIMD_SP_one
    xmm0 = _mm_add_ss(xmm0, SIMD_SP_ONE.ps()); //                            addss  xmm0, SIMD_SP_one
    xmm5 = _mm_mul_ss(xmm5, xmm4); //                                        mulss  xmm5, xmm4
    xmm6 = _mm_mul_ss(xmm6, xmm0); //                                        mulss  xmm6, xmm0
    xmm5 = _mm_mul_ss(xmm5, xmm2); //                                        mulss  xmm5, xmm2 // xmm5 = scale0
    xmm6 = _mm_mul_ss(xmm6, xmm2); //                                        mulss  xmm6, xmm2 // xmm6 = scale1

    xmm6 = _mm_xor_ps(xmm6, xmm1); //                                        xorps  xmm6, xmm1

    xmm5 = _mm_shuffle_ps::<S0000>(xmm5, xmm5); //                           shufps xmm5, xmm5, R_SHUFFLE_PS( 0, 0, 0, 0 )
    xmm5 = _mm_mul_ps(xmm5, joint_quat0); //                                 mulps  xmm5, jointQuat0
    xmm6 = _mm_shuffle_ps::<S0000>(xmm6, xmm6); //                           shufps xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
    xmm6 = _mm_mul_ps(xmm6, blend_quat0); //                                 mulps  xmm6, blendQuat0
    xmm5 = _mm_add_ps(xmm5, xmm6); //                                        addps  xmm5, xmm6

    xmm5
}
