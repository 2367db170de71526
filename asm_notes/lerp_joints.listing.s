// LerpJoints: SSE optimized linear interpolation with renormalisation between
// two lists of joints (quaternion + translation).
// Paper: J.M.P. van Waveren, "Slerping Clock Cycles", id Software, 2005,
// Appendix B (SSE listing), with section 4 (Lerp in C) and section 6 (the
// JointQuat / Vec4Lerp / joint-loop setting it vectorises).
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// Licensed under the GNU Lesser General Public License, version 2.1 or later
// (LGPL-2.1-or-later), as the paper's listing.
//
// Format: the whole `__asm { ... }` body, one instruction per line, indented
// four spaces, in the paper's MSVC Intel syntax as printed; labels alone on
// their line without indentation; the paper's comments kept (trailing `//`);
// TRANSPOSE_4x4( a, b, c, d, e ) expanded into its twelve instructions after
// a comment line naming the macro call. The OCR of Appendix B is clean: no
// line is rebuilt (no `//@ rebuilt` markers) and the asm! port in
// src/lerp_joints/asm.rs keeps every instruction and xmm register (no
// `//@ D<n>` markers).
//
// Instruction counts (macros expanded, labels and comments not counted):
//   total        211
//   prologue      18  (first `movss xmm7, lerp` .. `jz lerpJoints`)
//   loopCopy       9  (`loopCopy:` .. `jmp done1`; 7 per copied joint)
//   lerpJoints     7  (`lerpJoints:` .. `jge done4`)
//   loopJoint4   132  (`loopJoint4:` .. `jle loopJoint4`; per 4 joints)
//   done4          6  (`done4:` .. the two broadcasts before `loopJoint1`)
//   loopJoint1    39  (`loopJoint1:` .. `jl loopJoint1`; per joint)
//
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
    movss       xmm7, lerp
    movss       xmm6, SIMD_SP_one
    subss       xmm6, xmm7
    divss       xmm7, xmm6
    movss       scaledLerp, xmm7
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
    movaps      xmm7, xmm2
    unpcklps    xmm2, xmm3
    unpckhps    xmm7, xmm3
    movaps      xmm3, xmm0
    unpcklps    xmm0, xmm1
    unpckhps    xmm3, xmm1
    movaps      xmm1, xmm0
    shufps      xmm0, xmm2, R_SHUFFLE_PS( 0, 1, 0, 1 )
    shufps      xmm1, xmm2, R_SHUFFLE_PS( 2, 3, 2, 3 )
    movaps      xmm2, xmm3
    shufps      xmm2, xmm7, R_SHUFFLE_PS( 0, 1, 0, 1 )
    shufps      xmm3, xmm7, R_SHUFFLE_PS( 2, 3, 2, 3 )
    movaps      jointQuat3, xmm3
    movaps      xmm7, [edi+ecx+JOINTQUAT_Q_OFFSET]
    // TRANSPOSE_4x4( xmm4, xmm5, xmm6, xmm7, xmm3 )
    movaps      xmm3, xmm6
    unpcklps    xmm6, xmm7
    unpckhps    xmm3, xmm7
    movaps      xmm7, xmm4
    unpcklps    xmm4, xmm5
    unpckhps    xmm7, xmm5
    movaps      xmm5, xmm4
    shufps      xmm4, xmm6, R_SHUFFLE_PS( 0, 1, 0, 1 )
    shufps      xmm5, xmm6, R_SHUFFLE_PS( 2, 3, 2, 3 )
    movaps      xmm6, xmm7
    shufps      xmm6, xmm3, R_SHUFFLE_PS( 0, 1, 0, 1 )
    shufps      xmm7, xmm3, R_SHUFFLE_PS( 2, 3, 2, 3 )
    movaps      blendQuat3, xmm7
    // lerp quaternions
    movaps      xmm3, xmm0
    mulps       xmm3, xmm4
    movaps      xmm7, xmm1
    mulps       xmm7, xmm5
    addps       xmm3, xmm7
    movaps      xmm7, xmm2
    mulps       xmm7, xmm6
    addps       xmm3, xmm7
    movaps      xmm7, jointQuat3
    mulps       xmm7, blendQuat3
    addps       xmm3, xmm7                              // xmm3 = cosom
    andps       xmm3, SIMD_SP_signBit                   // xmm3 = signBit
    movss       xmm7, scaledLerp
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 0, 0, 0, 0 )
    xorps       xmm7, xmm3                              // xmm7 = scaledLerp ^ signBit
    mulps       xmm4, xmm7
    addps       xmm4, xmm0
    movaps      xmm0, xmm4
    mulps       xmm0, xmm0
    mulps       xmm5, xmm7
    addps       xmm5, xmm1
    movaps      xmm1, xmm5
    mulps       xmm1, xmm1
    addps       xmm0, xmm1
    mulps       xmm6, xmm7
    addps       xmm6, xmm2
    movaps      xmm2, xmm6
    mulps       xmm2, xmm2
    addps       xmm0, xmm2
    mulps       xmm7, blendQuat3
    addps       xmm7, jointQuat3
    movaps      xmm1, xmm7
    mulps       xmm1, xmm1
    addps       xmm0, xmm1
    rsqrtps     xmm2, xmm0
    mulps       xmm0, xmm2
    mulps       xmm0, xmm2
    subps       xmm0, SIMD_SP_rsqrt_c0
    mulps       xmm2, SIMD_SP_rsqrt_c1
    mulps       xmm0, xmm2
    mulps       xmm4, xmm0
    mulps       xmm5, xmm0
    mulps       xmm6, xmm0
    mulps       xmm7, xmm0
    add         eax, 4*4
    // transpose xmm4, xmm5, xmm6, xmm7 to memory
    movaps      xmm2, xmm4
    movaps      xmm3, xmm6
    unpcklps    xmm4, xmm5
    unpcklps    xmm6, xmm7
    mov         ecx, a0
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm4
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6
    mov         ecx, a1
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm4
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm6
    unpckhps    xmm2, xmm5
    unpckhps    xmm3, xmm7
    mov         ecx, a2
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm2
    movlps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm3
    mov         ecx, a3
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+0], xmm2
    movhps      [esi+ecx+JOINTQUAT_Q_OFFSET+8], xmm3
    jle         loopJoint4
done4:
    sub         eax, 4*4
    jz          done1
    movss       xmm6, lerp
    shufps      xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
    movss       xmm7, scaledLerp
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 0, 0, 0, 0 )
loopJoint1:
    mov         ecx, [edx+eax]
    shl         ecx, JOINTQUAT_SIZE_SHIFT
    // lerp translations
    movaps      xmm3, [edi+ecx+JOINTQUAT_T_OFFSET]
    subps       xmm3, [esi+ecx+JOINTQUAT_T_OFFSET]
    mulps       xmm3, xmm6
    addps       xmm3, [esi+ecx+JOINTQUAT_T_OFFSET]
    movaps      [esi+ecx+JOINTQUAT_T_OFFSET], xmm3
    // load quaternions
    movaps      xmm0, [esi+ecx+JOINTQUAT_Q_OFFSET]
    movaps      xmm1, [edi+ecx+JOINTQUAT_Q_OFFSET]
    // lerp quaternions
    movaps      xmm2, xmm0
    mulps       xmm2, xmm1
    movhlps     xmm3, xmm2
    addps       xmm2, xmm3
    movaps      xmm3, xmm2
    shufps      xmm3, xmm3, R_SHUFFLE_PS( 1, 0, 2, 3 )
    addss       xmm3, xmm2                              // xmm3 = cosom
    shufps      xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )
    andps       xmm3, SIMD_SP_signBit                   // xmm3 = signBit
    xorps       xmm3, xmm7                              // xmm3 = scaledLerp ^ signBit
    mulps       xmm1, xmm3
    addps       xmm1, xmm0                              // xmm1 = jointQuat + scale * blendQuat
    movaps      xmm0, xmm1
    mulps       xmm0, xmm0
    movhlps     xmm2, xmm0
    addps       xmm0, xmm2
    movaps      xmm2, xmm0
    shufps      xmm2, xmm2, R_SHUFFLE_PS( 1, 0, 2, 3 )
    addss       xmm0, xmm2
    rsqrtss     xmm2, xmm0
    mulss       xmm0, xmm2
    mulss       xmm0, xmm2
    subss       xmm0, SIMD_SP_rsqrt_c0
    mulss       xmm2, SIMD_SP_rsqrt_c1
    mulss       xmm0, xmm2
    shufps      xmm0, xmm0, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm1, xmm0
    movaps      [esi+ecx+JOINTQUAT_Q_OFFSET], xmm1
    add         eax, 1*4
    jl          loopJoint1
done1:
