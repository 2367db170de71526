// SlerpJoints: the SSE listing of Appendix A, one instruction per line.
//
// Paper: J.M.P. van Waveren, "Slerping Clock Cycles", id Software, 2005,
// section 6 ("SSE Optimized Slerp") and Appendix A (`void SlerpJoints(`,
// the whole `__asm { ... }` body).
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the original listing.
//
// Format (parsed by tests/disasm.rs):
// - one instruction per line, indented 4 spaces, in the paper's MSVC Intel
//   syntax exactly as printed (`lerp`, `SIMD_SP_one`, `jointQuat0`, `a0`,
//   `[edi+ecx+JOINTQUAT_T_OFFSET]`, `R_SHUFFLE_PS( 0, 0, 0, 0 )` are the
//   listing's own operands); the paper's comments kept as trailing `// ...`;
// - labels alone on their line, not indented;
// - lines starting with `//` (indented or not) are comments; blank lines
//   are ignored;
// - `TRANSPOSE_4x4( a, b, c, d, e )` is expanded: a comment line naming the
//   macro, then its twelve instructions with the registers substituted (the
//   macro's `/* reg = ... */` comments kept as trailing comments);
// - markers: `//@ rebuilt: <why>` on a line reconstructed from garbled OCR,
//   `//@ D<n> asm: ...` / `//@ D<n> insert: ...` for deviations of the port
//   (rows of the deviations table in asm_notes/slerp_joints.md).
//   This listing has no marker: the OCR of Appendix A is complete and
//   readable, and the port (src/slerp_joints/asm.rs) keeps every mnemonic and
//   every xmm register; it changes only operand widths and addressing
//   (eax -> rax in addresses, globals RIP-relative, locals in a scratch
//   struct, numeric labels).
//
// Instruction counts (TRANSPOSE_4x4 expanded as 12 each; labels and
// comments not counted):
//   prologue (before loopCopy)                        18
//   loopCopy (loopCopy: .. jl loopCopy)                8
//   jmp done1                                          1
//   lerpJoints (lerpJoints: .. jge done4)              2
//   loopJoint4 (loopJoint4: .. jle loopJoint4)       212
//   done4 (done4: .. jz done1)                         2
//   loopJoint1 (loopJoint1: .. jl loopJoint1)        116
//   done1                                              0
//   total                                            359
// (the paper: 359 in all, 212 in loopJoint4)

    movss       xmm7, lerp
    cmpnless    xmm7, SIMD_SP_zero
    movmskps    ecx, xmm7
    test        ecx, 1
    jz          done1

    mov         eax, numJoints
    shl         eax, 2
    mov         esi, joints
    mov         edi, blendJoints
    mov         edx, index

    add         edx, eax
    neg         eax
    jz          done1

    movss       xmm7, lerp
    cmpnltss    xmm7, SIMD_SP_one
    movmskps    ecx, xmm7
    test        ecx, 1
    jz          lerpJoints

loopCopy:
    mov         ecx, [edx+eax]
    shl         ecx, JOINTQUAT_SIZE_SHIFT

    add         eax, 1*4

    movaps      xmm0, [edi+ecx+JOINTQUAT_Q_OFFSET]
    movaps      xmm1, [edi+ecx+JOINTQUAT_T_OFFSET]
    movaps      [esi+ecx+JOINTQUAT_Q_OFFSET], xmm0
    movaps      [esi+ecx+JOINTQUAT_T_OFFSET], xmm1

    jl          loopCopy

    jmp         done1

lerpJoints:
    add         eax, 4*4
    jge         done4

loopJoint4:
    movss       xmm3, lerp
    shufps      xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )

    mov         ecx, [edx+eax-4*4]
    shl         ecx, JOINTQUAT_SIZE_SHIFT
    mov         a0, ecx

    // lerp first translations
    movaps      xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
    subps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    mulps       xmm7, xmm3
    addps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    movaps      [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

    // load first quaternions
    movaps      xmm0, [esi+ecx+JOINTQUAT_Q_OFFSET]
    movaps      xmm4, [edi+ecx+JOINTQUAT_Q_OFFSET]

    mov         ecx, [edx+eax-3*4]
    shl         ecx, JOINTQUAT_SIZE_SHIFT
    mov         a1, ecx

    // lerp second translations
    movaps      xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
    subps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    mulps       xmm7, xmm3
    addps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    movaps      [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

    // load second quaternions
    movaps      xmm1, [esi+ecx+JOINTQUAT_Q_OFFSET]
    movaps      xmm5, [edi+ecx+JOINTQUAT_Q_OFFSET]

    mov         ecx, [edx+eax-2*4]
    shl         ecx, JOINTQUAT_SIZE_SHIFT
    mov         a2, ecx

    // lerp third translations
    movaps      xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
    subps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    mulps       xmm7, xmm3
    addps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    movaps      [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

    // load third quaternions
    movaps      xmm2, [esi+ecx+JOINTQUAT_Q_OFFSET]
    movaps      xmm6, [edi+ecx+JOINTQUAT_Q_OFFSET]

    mov         ecx, [edx+eax-1*4]
    shl         ecx, JOINTQUAT_SIZE_SHIFT
    mov         a3, ecx

    // lerp fourth translations
    movaps      xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
    subps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    mulps       xmm7, xmm3
    addps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    movaps      [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

    // load fourth quaternions
    movaps      xmm3, [esi+ecx+JOINTQUAT_Q_OFFSET]

    // TRANSPOSE_4x4( xmm0, xmm1, xmm2, xmm3, xmm7 )
    movaps      xmm7, xmm2                                  // xmm7 = 8, 9, 10, 11
    unpcklps    xmm2, xmm3                                  // xmm2 = 8, 12, 9, 13
    unpckhps    xmm7, xmm3                                  // xmm7 = 10, 14, 11, 15
    movaps      xmm3, xmm0                                  // xmm3 = 0, 1, 2, 3
    unpcklps    xmm0, xmm1                                  // xmm0 = 0, 4, 1, 5
    unpckhps    xmm3, xmm1                                  // xmm3 = 2, 6, 3, 7
    movaps      xmm1, xmm0                                  // xmm1 = 0, 4, 1, 5
    shufps      xmm0, xmm2, R_SHUFFLE_PS( 0, 1, 0, 1 )      // xmm0 = 0, 4, 8, 12
    shufps      xmm1, xmm2, R_SHUFFLE_PS( 2, 3, 2, 3 )      // xmm1 = 1, 5, 9, 13
    movaps      xmm2, xmm3                                  // xmm2 = 2, 6, 3, 7
    shufps      xmm2, xmm7, R_SHUFFLE_PS( 0, 1, 0, 1 )      // xmm2 = 2, 6, 10, 14
    shufps      xmm3, xmm7, R_SHUFFLE_PS( 2, 3, 2, 3 )      // xmm3 = 3, 7, 11, 15

    movaps      jointQuat0, xmm0
    movaps      jointQuat1, xmm1
    movaps      jointQuat2, xmm2
    movaps      jointQuat3, xmm3

    movaps      xmm7, [edi+ecx+JOINTQUAT_Q_OFFSET]

    // TRANSPOSE_4x4( xmm4, xmm5, xmm6, xmm7, xmm3 )
    movaps      xmm3, xmm6                                  // xmm3 = 8, 9, 10, 11
    unpcklps    xmm6, xmm7                                  // xmm6 = 8, 12, 9, 13
    unpckhps    xmm3, xmm7                                  // xmm3 = 10, 14, 11, 15
    movaps      xmm7, xmm4                                  // xmm7 = 0, 1, 2, 3
    unpcklps    xmm4, xmm5                                  // xmm4 = 0, 4, 1, 5
    unpckhps    xmm7, xmm5                                  // xmm7 = 2, 6, 3, 7
    movaps      xmm5, xmm4                                  // xmm5 = 0, 4, 1, 5
    shufps      xmm4, xmm6, R_SHUFFLE_PS( 0, 1, 0, 1 )      // xmm4 = 0, 4, 8, 12
    shufps      xmm5, xmm6, R_SHUFFLE_PS( 2, 3, 2, 3 )      // xmm5 = 1, 5, 9, 13
    movaps      xmm6, xmm7                                  // xmm6 = 2, 6, 3, 7
    shufps      xmm6, xmm3, R_SHUFFLE_PS( 0, 1, 0, 1 )      // xmm6 = 2, 6, 10, 14
    shufps      xmm7, xmm3, R_SHUFFLE_PS( 2, 3, 2, 3 )      // xmm7 = 3, 7, 11, 15

    movaps      blendQuat0, xmm4
    movaps      blendQuat1, xmm5
    movaps      blendQuat2, xmm6
    movaps      blendQuat3, xmm7

    // lerp quaternions
    mulps       xmm0, xmm4
    mulps       xmm1, xmm5
    addps       xmm0, xmm1
    mulps       xmm2, xmm6
    addps       xmm0, xmm2
    movaps      xmm3, jointQuat3
    mulps       xmm3, blendQuat3
    addps       xmm0, xmm3                                  // xmm0 = cosom

    movaps      xmm1, xmm0
    movaps      xmm2, xmm0
    andps       xmm1, SIMD_SP_signBit                       // xmm1 = signBit
    xorps       xmm0, xmm1
    mulps       xmm2, xmm2

    xorps       xmm4, xmm4
    movaps      xmm3, SIMD_SP_one
    subps       xmm3, xmm2                                  // xmm3 = scale0
    cmpeqps     xmm4, xmm3
    andps       xmm4, SIMD_SP_tiny                          // if values are zero replace them with a tiny number
    andps       xmm3, SIMD_SP_absMask                       // make sure the values are positive
    orps        xmm3, xmm4

    movaps      xmm2, xmm3
    rsqrtps     xmm4, xmm2
    mulps       xmm2, xmm4
    mulps       xmm2, xmm4
    subps       xmm2, SIMD_SP_rsqrt_c0
    mulps       xmm4, SIMD_SP_rsqrt_c1
    mulps       xmm2, xmm4
    mulps       xmm3, xmm2                                  // xmm3 = sqrt( scale0 )

    // omega0 = atan2( xmm3, xmm0 )
    movaps      xmm4, xmm0
    minps       xmm0, xmm3
    maxps       xmm3, xmm4
    cmpeqps     xmm4, xmm0
    rcpps       xmm5, xmm3
    mulps       xmm3, xmm5
    mulps       xmm3, xmm5
    addps       xmm5, xmm5
    subps       xmm5, xmm3                                  // xmm5 = 1 / y or 1 / x
    mulps       xmm0, xmm5                                  // xmm0 = x / y or y / x
    movaps      xmm3, xmm4
    andps       xmm3, SIMD_SP_signBit
    xorps       xmm0, xmm3                                  // xmm0 = -x / y or y / x
    andps       xmm4, SIMD_SP_halfPI                        // xmm4 = HALF_PI or 0.0f
    movaps      xmm3, xmm0
    mulps       xmm3, xmm3                                  // xmm3 = s
    movaps      xmm5, SIMD_SP_atan_c0
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_atan_c1
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_atan_c2
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_atan_c3
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_atan_c4
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_atan_c5
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_atan_c6
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_atan_c7
    mulps       xmm5, xmm3
    addps       xmm5, SIMD_SP_one
    mulps       xmm5, xmm0
    addps       xmm5, xmm4                                  // xmm5 = omega0

    movss       xmm6, lerp                                  // xmm6 = lerp
    shufps      xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )

    mulps       xmm6, xmm5                                  // xmm6 = omega1
    subps       xmm5, xmm6                                  // xmm5 = omega0

    // scale0 = sin( xmm5 ) * xmm2
    // scale1 = sin( xmm6 ) * xmm2
    movaps      xmm3, xmm5
    movaps      xmm7, xmm6
    mulps       xmm3, xmm3
    mulps       xmm7, xmm7
    movaps      xmm4, SIMD_SP_sin_c0
    movaps      xmm0, SIMD_SP_sin_c0
    mulps       xmm4, xmm3
    mulps       xmm0, xmm7
    addps       xmm4, SIMD_SP_sin_c1
    addps       xmm0, SIMD_SP_sin_c1
    mulps       xmm4, xmm3
    mulps       xmm0, xmm7
    addps       xmm4, SIMD_SP_sin_c2
    addps       xmm0, SIMD_SP_sin_c2
    mulps       xmm4, xmm3
    mulps       xmm0, xmm7
    addps       xmm4, SIMD_SP_sin_c3
    addps       xmm0, SIMD_SP_sin_c3
    mulps       xmm4, xmm3
    mulps       xmm0, xmm7
    addps       xmm4, SIMD_SP_sin_c4
    addps       xmm0, SIMD_SP_sin_c4
    mulps       xmm4, xmm3
    mulps       xmm0, xmm7
    addps       xmm4, SIMD_SP_one
    addps       xmm0, SIMD_SP_one
    mulps       xmm5, xmm4
    mulps       xmm6, xmm0
    mulps       xmm5, xmm2                                  // xmm5 = scale0
    mulps       xmm6, xmm2                                  // xmm6 = scale1

    xorps       xmm6, xmm1

    movaps      xmm0, jointQuat0
    mulps       xmm0, xmm5
    movaps      xmm1, blendQuat0
    mulps       xmm1, xmm6
    addps       xmm0, xmm1

    movaps      xmm1, jointQuat1
    mulps       xmm1, xmm5
    movaps      xmm2, blendQuat1
    mulps       xmm2, xmm6
    addps       xmm1, xmm2

    movaps      xmm2, jointQuat2
    mulps       xmm2, xmm5
    movaps      xmm3, blendQuat2
    mulps       xmm3, xmm6
    addps       xmm2, xmm3

    movaps      xmm3, jointQuat3
    mulps       xmm3, xmm5
    movaps      xmm4, blendQuat3
    mulps       xmm4, xmm6
    addps       xmm3, xmm4

    add         eax, 4*4

    // transpose xmm0, xmm1, xmm2, xmm3 to memory
    movaps      xmm7, xmm0
    movaps      xmm6, xmm2

    unpcklps    xmm0, xmm1
    unpcklps    xmm2, xmm3

    mov         ecx, a0
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm0
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm2

    mov         ecx, a1
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm0
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm2

    unpckhps    xmm7, xmm1
    unpckhps    xmm6, xmm3

    mov         ecx, a2
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm7
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6

    mov         ecx, a3
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm7
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6

    jle         loopJoint4

done4:
    sub         eax, 4*4
    jz          done1

loopJoint1:
    movss       xmm3, lerp
    shufps      xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )

    mov         ecx, [edx+eax]
    shl         ecx, JOINTQUAT_SIZE_SHIFT

    // lerp first translations
    movaps      xmm7, [edi+ecx+JOINTQUAT_T_OFFSET]
    subps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    mulps       xmm7, xmm3
    addps       xmm7, [esi+ecx+JOINTQUAT_T_OFFSET]
    movaps      [esi+ecx+JOINTQUAT_T_OFFSET], xmm7

    // load first quaternions
    movaps      xmm0, [esi+ecx+JOINTQUAT_Q_OFFSET]
    movaps      xmm1, [edi+ecx+JOINTQUAT_Q_OFFSET]

    movaps      jointQuat0, xmm0
    movaps      blendQuat0, xmm1

    // lerp quaternions
    mulps       xmm1, xmm0
    movhlps     xmm0, xmm1
    addps       xmm1, xmm0
    movaps      xmm0, xmm1
    shufps      xmm0, xmm0, R_SHUFFLE_PS( 1, 0, 2, 3 )
    addss       xmm0, xmm1                                  // xmm0 = cosom

    movss       xmm1, xmm0
    movss       xmm2, xmm0
    andps       xmm1, SIMD_SP_signBit                       // xmm1 = signBit
    xorps       xmm0, xmm1
    mulss       xmm2, xmm2

    xorps       xmm4, xmm4
    movss       xmm3, SIMD_SP_one
    subss       xmm3, xmm2                                  // xmm3 = scale0
    cmpeqss     xmm4, xmm3
    andps       xmm4, SIMD_SP_tiny                          // if values are zero replace them with a tiny number
    andps       xmm3, SIMD_SP_absMask                       // make sure the values are positive
    orps        xmm3, xmm4

    movss       xmm2, xmm3
    rsqrtss     xmm4, xmm2
    mulss       xmm2, xmm4
    mulss       xmm2, xmm4
    subss       xmm2, SIMD_SP_rsqrt_c0
    mulss       xmm4, SIMD_SP_rsqrt_c1
    mulss       xmm2, xmm4
    mulss       xmm3, xmm2                                  // xmm3 = sqrt( scale0 )

    // omega0 = atan2( xmm3, xmm0 )
    movss       xmm4, xmm0
    minss       xmm0, xmm3
    maxss       xmm3, xmm4
    cmpeqss     xmm4, xmm0
    rcpss       xmm5, xmm3
    mulss       xmm3, xmm5
    mulss       xmm3, xmm5
    addss       xmm5, xmm5
    subss       xmm5, xmm3                                  // xmm5 = 1 / y or 1 / x
    mulss       xmm0, xmm5                                  // xmm0 = x / y or y / x
    movss       xmm3, xmm4
    andps       xmm3, SIMD_SP_signBit
    xorps       xmm0, xmm3                                  // xmm0 = -x / y or y / x
    andps       xmm4, SIMD_SP_halfPI                        // xmm4 = HALF_PI or 0.0f
    movss       xmm3, xmm0
    mulss       xmm3, xmm3                                  // xmm3 = s
    movss       xmm5, SIMD_SP_atan_c0
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_atan_c1
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_atan_c2
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_atan_c3
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_atan_c4
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_atan_c5
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_atan_c6
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_atan_c7
    mulss       xmm5, xmm3
    addss       xmm5, SIMD_SP_one
    mulss       xmm5, xmm0
    addss       xmm5, xmm4                                  // xmm5 = omega0

    movss       xmm6, lerp                                  // xmm6 = lerp
    mulss       xmm6, xmm5                                  // xmm6 = omega1
    subss       xmm5, xmm6                                  // xmm5 = omega0

    // scale0 = sin( xmm5 ) * xmm2
    // scale1 = sin( xmm6 ) * xmm2
    movss       xmm3, xmm5
    movss       xmm7, xmm6
    mulss       xmm3, xmm3
    mulss       xmm7, xmm7
    movss       xmm4, SIMD_SP_sin_c0
    movss       xmm0, SIMD_SP_sin_c0
    mulss       xmm4, xmm3
    mulss       xmm0, xmm7
    addss       xmm4, SIMD_SP_sin_c1
    addss       xmm0, SIMD_SP_sin_c1
    mulss       xmm4, xmm3
    mulss       xmm0, xmm7
    addss       xmm4, SIMD_SP_sin_c2
    addss       xmm0, SIMD_SP_sin_c2
    mulss       xmm4, xmm3
    mulss       xmm0, xmm7
    addss       xmm4, SIMD_SP_sin_c3
    addss       xmm0, SIMD_SP_sin_c3
    mulss       xmm4, xmm3
    mulss       xmm0, xmm7
    addss       xmm4, SIMD_SP_sin_c4
    addss       xmm0, SIMD_SP_sin_c4
    mulss       xmm4, xmm3
    mulss       xmm0, xmm7
    addss       xmm4, SIMD_SP_one
    addss       xmm0, SIMD_SP_one
    mulss       xmm5, xmm4
    mulss       xmm6, xmm0
    mulss       xmm5, xmm2                                  // xmm5 = scale0
    mulss       xmm6, xmm2                                  // xmm6 = scale1

    xorps       xmm6, xmm1

    shufps      xmm5, xmm5, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm5, jointQuat0
    shufps      xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm6, blendQuat0
    addps       xmm5, xmm6

    movaps      [esi+ecx+JOINTQUAT_Q_OFFSET], xmm5

    add         eax, 1*4
    jl          loopJoint1

done1:
