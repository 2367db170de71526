// ConvertJointMatsToJointQuats: the SSE listing of Appendix B, one
// instruction per line.
//
// Paper: J.M.P. van Waveren, "From Quaternion to Matrix and Back", id
// Software, 2005, section 4 ("Matrix to Quaternion") and Appendix B (`void
// ConvertJointMatsToJointQuats(`, the whole `__asm { ... }` body).
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the original listing.
//
// Format (parsed by tests/disasm.rs):
// - one instruction per line, indented 4 spaces, in the paper's MSVC Intel
//   syntax exactly as printed (`numJoints`, `jointMats`, `shuffle`,
//   `SIMD_SP_not`, `[esi+eax+3*JOINTMAT_SIZE+0*16+0*4]`,
//   `R_SHUFFLE_PS( 3, 0, 1, 2 )` are the listing's own operands); the
//   paper's comments kept as trailing `// ...`, as printed (two of them
//   name the wrong register in loopMat1: `// xmm3 = m[1 * 4 + 1] > ...` is
//   xmm4, `// xmm5 = s` is xmm6; see asm_notes/mats_to_quats.md);
// - labels alone on their line, not indented;
// - lines starting with `//` (indented or not) are comments; blank lines
//   are ignored; the listing has no macro;
// - markers: `//@ rebuilt: <why>` on a line reconstructed from garbled OCR,
//   `//@ D<n> asm: ...` / `//@ D<n> insert: ...` for deviations of the port
//   (rows of the deviations table in asm_notes/mats_to_quats.md).
//   This listing has no deviation marker: the port
//   (src/mats_to_quats/asm.rs) keeps every mnemonic and every xmm register;
//   it changes only operand widths and addressing (esi/edi/eax/ecx/edx ->
//   rsi/rdi/rax/rcx/rdx in addresses, globals RIP-relative, the `shuffle`
//   array in a scratch struct, numeric labels).
//
// The OCR flattens the body of loopMat4 into a few paragraphs with the
// mnemonic column shifted against the operand column; it was split back
// into instructions here and each was checked against the C blueprint of
// section 4 (the k0..k3 / s0..s2 routine) and the register comments. Ten
// lines are rebuilt (marked): OCR misreadings (`eax.`, `movzy`, `xmml`,
// `JOINTOUAT SIZE`, `JOINTMAT SIZE`) and five translation stores whose
// operands the OCR lost (q[6] and q[7] of the first joint of loopMat4,
// q[5], q[6] and q[7] of loopMat1).
//
// Instruction counts (labels and comments not counted):
//   prologue (before loopMat4)                         8
//   loopMat4 (loopMat4: .. jl loopMat4)              207
//   done4 (done4: .. neg eax)                          6
//   loopMat1 (loopMat1: .. jl loopMat1)               84
//   done1                                              0
//   total                                            305
// (the paper: 207 in loopMat4, 84 in loopMat1)
//   loopMat4 = 30 (gather the diagonals of four matrices)
//            + 51 (conditions, masks, shuffle, signs, t, s)
//            + 1 (add edi) + 4 x 27 (one joint) + 3 x 5 (rotate lanes)
//            + 2 (add eax, jl)
//   loopMat1 = 3 + 51 + 1 (add edi) + 27 + 2

    mov         eax, numJoints
    mov         esi, jointMats
    mov         edi, jointQuats
    and         eax, ~3                                  //@ rebuilt: OCR `and eax. ~3` (comma read as a period)
    jz          done4
    imul        eax, JOINTMAT_SIZE
    add         esi, eax
    neg         eax

loopMat4:
    movss       xmm5, [esi+eax+3*JOINTMAT_SIZE+0*16+0*4]
    movss       xmm6, [esi+eax+3*JOINTMAT_SIZE+1*16+1*4]
    movss       xmm7, [esi+eax+3*JOINTMAT_SIZE+2*16+2*4]

    shufps      xmm5, xmm5, R_SHUFFLE_PS( 3, 0, 1, 2 )
    shufps      xmm6, xmm6, R_SHUFFLE_PS( 3, 0, 1, 2 )
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 3, 0, 1, 2 )

    movss       xmm0, [esi+eax+2*JOINTMAT_SIZE+0*16+0*4]
    movss       xmm1, [esi+eax+2*JOINTMAT_SIZE+1*16+1*4]
    movss       xmm2, [esi+eax+2*JOINTMAT_SIZE+2*16+2*4]

    movss       xmm5, xmm0
    movss       xmm6, xmm1
    movss       xmm7, xmm2

    shufps      xmm5, xmm5, R_SHUFFLE_PS( 3, 0, 1, 2 )
    shufps      xmm6, xmm6, R_SHUFFLE_PS( 3, 0, 1, 2 )
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 3, 0, 1, 2 )

    movss       xmm0, [esi+eax+1*JOINTMAT_SIZE+0*16+0*4]
    movss       xmm1, [esi+eax+1*JOINTMAT_SIZE+1*16+1*4]
    movss       xmm2, [esi+eax+1*JOINTMAT_SIZE+2*16+2*4]

    movss       xmm5, xmm0
    movss       xmm6, xmm1
    movss       xmm7, xmm2

    shufps      xmm5, xmm5, R_SHUFFLE_PS( 3, 0, 1, 2 )
    shufps      xmm6, xmm6, R_SHUFFLE_PS( 3, 0, 1, 2 )
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 3, 0, 1, 2 )

    movss       xmm0, [esi+eax+0*JOINTMAT_SIZE+0*16+0*4]
    movss       xmm1, [esi+eax+0*JOINTMAT_SIZE+1*16+1*4]
    movss       xmm2, [esi+eax+0*JOINTMAT_SIZE+2*16+2*4]

    movss       xmm5, xmm0
    movss       xmm6, xmm1
    movss       xmm7, xmm2

    // -----

    movaps      xmm0, xmm5
    addps       xmm0, xmm6
    addps       xmm0, xmm7
    cmpnltps    xmm0, SIMD_SP_zero                       // xmm0 = m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f

    movaps      xmm1, xmm5
    movaps      xmm2, xmm5
    cmpnltps    xmm1, xmm6
    cmpnltps    xmm2, xmm7
    andps       xmm2, xmm1                               // xmm2 = m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2]

    movaps      xmm4, xmm6
    cmpnltps    xmm4, xmm7                               // xmm4 = m[1 * 4 + 1] > m[2 * 4 + 2]

    movaps      xmm1, xmm0
    andnps      xmm1, xmm2
    orps        xmm2, xmm0
    movaps      xmm3, xmm2
    andnps      xmm2, xmm4
    orps        xmm3, xmm2
    xorps       xmm3, SIMD_SP_not

    andps       xmm0, SIMD_DW_mat2quatShuffle0
    movaps      xmm4, xmm1
    andps       xmm4, SIMD_DW_mat2quatShuffle1
    orps        xmm0, xmm4
    movaps      xmm4, xmm2
    andps       xmm4, SIMD_DW_mat2quatShuffle2
    orps        xmm0, xmm4
    movaps      xmm4, xmm3
    andps       xmm4, SIMD_DW_mat2quatShuffle3
    orps        xmm4, xmm0
    movaps      shuffle, xmm4

    movaps      xmm0, xmm2
    orps        xmm0, xmm3                               // xmm0 = xmm2 | xmm3 = s0
    orps        xmm2, xmm1                               // xmm2 = xmm1 | xmm2 = s2
    orps        xmm1, xmm3                               // xmm1 = xmm1 | xmm3 = s1

    andps       xmm0, SIMD_SP_signBit
    andps       xmm1, SIMD_SP_signBit
    andps       xmm2, SIMD_SP_signBit

    xorps       xmm5, xmm0
    xorps       xmm6, xmm1
    xorps       xmm7, xmm2
    addps       xmm5, xmm6
    addps       xmm7, SIMD_SP_one
    addps       xmm5, xmm7                               // xmm5 = t

    movaps      xmm7, xmm5                               // xmm7 = t

    rsqrtps     xmm6, xmm5
    mulps       xmm5, xmm6
    mulps       xmm5, xmm6
    subps       xmm5, SIMD_SP_rsqrt_c0
    mulps       xmm6, SIMD_SP_mat2quat_rsqrt_c1
    mulps       xmm6, xmm5                               // xmm6 = s

    mulps       xmm7, xmm6                               // xmm7 = s * t
    xorps       xmm6, SIMD_SP_signBit                    // xmm6 = -s

    // -----

    add         edi, 4*JOINTQUAT_SIZE

    movzx       ecx, byte ptr shuffle[0*4+0]             // ecx = k0
    movss       [edi+ecx*4-4*JOINTQUAT_SIZE], xmm7       // q[k0] = s * t;

    movzx       edx, byte ptr shuffle[0*4+1]             // edx = k1
    movss       xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+0*4]
    xorps       xmm4, xmm2
    subss       xmm4, [esi+eax+0*JOINTMAT_SIZE+0*16+1*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-4*JOINTQUAT_SIZE], xmm4       // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

    movzx       ecx, byte ptr shuffle[0*4+2]             // ecx = k2
    movss       xmm3, [esi+eax+0*JOINTMAT_SIZE+0*16+2*4]
    xorps       xmm3, xmm1
    subss       xmm3, [esi+eax+0*JOINTMAT_SIZE+2*16+0*4]
    mulss       xmm3, xmm6
    movss       [edi+ecx*4-4*JOINTQUAT_SIZE], xmm3       // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

    movzx       edx, byte ptr shuffle[0*4+3]             // edx = k3
    movss       xmm4, [esi+eax+0*JOINTMAT_SIZE+2*16+1*4]
    xorps       xmm4, xmm0
    subss       xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+2*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-4*JOINTQUAT_SIZE], xmm4       // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

    mov         ecx, [esi+eax+0*JOINTMAT_SIZE+0*16+3*4]
    mov         [edi-4*JOINTQUAT_SIZE+16], ecx           // q[4] = m[0 * 4 + 3];
    mov         edx, [esi+eax+0*JOINTMAT_SIZE+1*16+3*4]
    mov         [edi-4*JOINTQUAT_SIZE+20], edx           // q[5] = m[1 * 4 + 3];
    mov         ecx, [esi+eax+0*JOINTMAT_SIZE+2*16+3*4]
    mov         [edi-4*JOINTQUAT_SIZE+24], ecx           // q[6] = m[2 * 4 + 3]; //@ rebuilt: OCR keeps only the mnemonic `mov` (operands lost); the pattern of joints 1-3 and the C line q[6] = m[2*4+3]
    mov         dword ptr [edi-4*JOINTQUAT_SIZE+28], 0   // q[7] = 0.0f; //@ rebuilt: OCR keeps only the mnemonic `mov` (operands lost); the pattern of joints 1-3 and the C line q[7] = 0.0f

    shufps      xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm0, xmm0, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm1, xmm1, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm2, xmm2, R_SHUFFLE_PS( 1, 2, 3, 0 )

    movzx       ecx, byte ptr shuffle[1*4+0]             // ecx = k0 //@ rebuilt: OCR `movzy`
    movss       [edi+ecx*4-3*JOINTQUAT_SIZE], xmm7       // q[k0] = s * t;

    movzx       edx, byte ptr shuffle[1*4+1]             // edx = k1
    movss       xmm4, [esi+eax+1*JOINTMAT_SIZE+1*16+0*4]
    xorps       xmm4, xmm2
    subss       xmm4, [esi+eax+1*JOINTMAT_SIZE+0*16+1*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-3*JOINTQUAT_SIZE], xmm4       // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

    movzx       ecx, byte ptr shuffle[1*4+2]             // ecx = k2
    movss       xmm3, [esi+eax+1*JOINTMAT_SIZE+0*16+2*4]
    xorps       xmm3, xmm1
    subss       xmm3, [esi+eax+1*JOINTMAT_SIZE+2*16+0*4]
    mulss       xmm3, xmm6
    movss       [edi+ecx*4-3*JOINTQUAT_SIZE], xmm3       // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s; //@ rebuilt: OCR `JOINTOUAT SIZE`

    movzx       edx, byte ptr shuffle[1*4+3]             // edx = k3
    movss       xmm4, [esi+eax+1*JOINTMAT_SIZE+2*16+1*4]
    xorps       xmm4, xmm0
    subss       xmm4, [esi+eax+1*JOINTMAT_SIZE+1*16+2*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-3*JOINTQUAT_SIZE], xmm4       // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

    mov         ecx, [esi+eax+1*JOINTMAT_SIZE+0*16+3*4]
    mov         [edi-3*JOINTQUAT_SIZE+16], ecx           // q[4] = m[0 * 4 + 3];
    mov         edx, [esi+eax+1*JOINTMAT_SIZE+1*16+3*4]
    mov         [edi-3*JOINTQUAT_SIZE+20], edx           // q[5] = m[1 * 4 + 3];
    mov         ecx, [esi+eax+1*JOINTMAT_SIZE+2*16+3*4]  //@ rebuilt: OCR `JOINTMAT SIZE` (underscore lost)
    mov         [edi-3*JOINTQUAT_SIZE+24], ecx           // q[6] = m[2 * 4 + 3];
    mov         dword ptr [edi-3*JOINTQUAT_SIZE+28], 0   // q[7] = 0.0f;

    shufps      xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm0, xmm0, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm1, xmm1, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm2, xmm2, R_SHUFFLE_PS( 1, 2, 3, 0 )

    movzx       ecx, byte ptr shuffle[2*4+0]             // ecx = k0
    movss       [edi+ecx*4-2*JOINTQUAT_SIZE], xmm7       // q[k0] = s * t;

    movzx       edx, byte ptr shuffle[2*4+1]             // edx = k1
    movss       xmm4, [esi+eax+2*JOINTMAT_SIZE+1*16+0*4]
    xorps       xmm4, xmm2
    subss       xmm4, [esi+eax+2*JOINTMAT_SIZE+0*16+1*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-2*JOINTQUAT_SIZE], xmm4       // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

    movzx       ecx, byte ptr shuffle[2*4+2]             // ecx = k2
    movss       xmm3, [esi+eax+2*JOINTMAT_SIZE+0*16+2*4]
    xorps       xmm3, xmm1
    subss       xmm3, [esi+eax+2*JOINTMAT_SIZE+2*16+0*4]
    mulss       xmm3, xmm6
    movss       [edi+ecx*4-2*JOINTQUAT_SIZE], xmm3       // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

    movzx       edx, byte ptr shuffle[2*4+3]             // edx = k3
    movss       xmm4, [esi+eax+2*JOINTMAT_SIZE+2*16+1*4]
    xorps       xmm4, xmm0
    subss       xmm4, [esi+eax+2*JOINTMAT_SIZE+1*16+2*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-2*JOINTQUAT_SIZE], xmm4       // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

    mov         ecx, [esi+eax+2*JOINTMAT_SIZE+0*16+3*4]
    mov         [edi-2*JOINTQUAT_SIZE+16], ecx           // q[4] = m[0 * 4 + 3];
    mov         edx, [esi+eax+2*JOINTMAT_SIZE+1*16+3*4]
    mov         [edi-2*JOINTQUAT_SIZE+20], edx           // q[5] = m[1 * 4 + 3];
    mov         ecx, [esi+eax+2*JOINTMAT_SIZE+2*16+3*4]
    mov         [edi-2*JOINTQUAT_SIZE+24], ecx           // q[6] = m[2 * 4 + 3];
    mov         dword ptr [edi-2*JOINTQUAT_SIZE+28], 0   // q[7] = 0.0f;

    shufps      xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm7, xmm7, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm0, xmm0, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm1, xmm1, R_SHUFFLE_PS( 1, 2, 3, 0 )
    shufps      xmm2, xmm2, R_SHUFFLE_PS( 1, 2, 3, 0 )

    movzx       ecx, byte ptr shuffle[3*4+0]             // ecx = k0
    movss       [edi+ecx*4-1*JOINTQUAT_SIZE], xmm7       // q[k0] = s * t;

    movzx       edx, byte ptr shuffle[3*4+1]             // edx = k1
    movss       xmm4, [esi+eax+3*JOINTMAT_SIZE+1*16+0*4]
    xorps       xmm4, xmm2
    subss       xmm4, [esi+eax+3*JOINTMAT_SIZE+0*16+1*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-1*JOINTQUAT_SIZE], xmm4       // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

    movzx       ecx, byte ptr shuffle[3*4+2]             // ecx = k2
    movss       xmm3, [esi+eax+3*JOINTMAT_SIZE+0*16+2*4]
    xorps       xmm3, xmm1
    subss       xmm3, [esi+eax+3*JOINTMAT_SIZE+2*16+0*4]
    mulss       xmm3, xmm6
    movss       [edi+ecx*4-1*JOINTQUAT_SIZE], xmm3       // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

    movzx       edx, byte ptr shuffle[3*4+3]             // edx = k3
    movss       xmm4, [esi+eax+3*JOINTMAT_SIZE+2*16+1*4]
    xorps       xmm4, xmm0
    subss       xmm4, [esi+eax+3*JOINTMAT_SIZE+1*16+2*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-1*JOINTQUAT_SIZE], xmm4       // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

    mov         ecx, [esi+eax+3*JOINTMAT_SIZE+0*16+3*4]
    mov         [edi-1*JOINTQUAT_SIZE+16], ecx           // q[4] = m[0 * 4 + 3];
    mov         edx, [esi+eax+3*JOINTMAT_SIZE+1*16+3*4]
    mov         [edi-1*JOINTQUAT_SIZE+20], edx           // q[5] = m[1 * 4 + 3];
    mov         ecx, [esi+eax+3*JOINTMAT_SIZE+2*16+3*4]
    mov         [edi-1*JOINTQUAT_SIZE+24], ecx           // q[6] = m[2 * 4 + 3];
    mov         dword ptr [edi-1*JOINTQUAT_SIZE+28], 0   // q[7] = 0.0f;

    add         eax, 4*JOINTMAT_SIZE
    jl          loopMat4

done4:
    mov         eax, numJoints
    and         eax, 3
    jz          done1
    imul        eax, JOINTMAT_SIZE
    add         esi, eax
    neg         eax

loopMat1:
    movss       xmm5, [esi+eax+0*JOINTMAT_SIZE+0*16+0*4]
    movss       xmm6, [esi+eax+0*JOINTMAT_SIZE+1*16+1*4]
    movss       xmm7, [esi+eax+0*JOINTMAT_SIZE+2*16+2*4]

    // -----

    movaps      xmm0, xmm5
    addss       xmm0, xmm6
    addss       xmm0, xmm7
    cmpnltss    xmm0, SIMD_SP_zero                       // xmm0 = m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f

    movaps      xmm1, xmm5                               //@ rebuilt: OCR `xmml` (the digit 1 read as the letter l)
    movaps      xmm2, xmm5
    cmpnltss    xmm1, xmm6
    cmpnltss    xmm2, xmm7
    andps       xmm2, xmm1                               // xmm2 = m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2]

    movaps      xmm4, xmm6
    cmpnltss    xmm4, xmm7                               // xmm3 = m[1 * 4 + 1] > m[2 * 4 + 2]

    movaps      xmm1, xmm0
    andnps      xmm1, xmm2
    orps        xmm2, xmm0
    movaps      xmm3, xmm2
    andnps      xmm2, xmm4
    orps        xmm3, xmm2
    xorps       xmm3, SIMD_SP_not

    andps       xmm0, SIMD_DW_mat2quatShuffle0
    movaps      xmm4, xmm1
    andps       xmm4, SIMD_DW_mat2quatShuffle1
    orps        xmm0, xmm4
    movaps      xmm4, xmm2
    andps       xmm4, SIMD_DW_mat2quatShuffle2
    orps        xmm0, xmm4
    movaps      xmm4, xmm3
    andps       xmm4, SIMD_DW_mat2quatShuffle3
    orps        xmm4, xmm0
    movss       shuffle, xmm4

    movaps      xmm0, xmm2
    orps        xmm0, xmm3                               // xmm0 = xmm2 | xmm3 = s0
    orps        xmm2, xmm1                               // xmm2 = xmm1 | xmm2 = s2
    orps        xmm1, xmm3                               // xmm1 = xmm1 | xmm3 = s1

    andps       xmm0, SIMD_SP_signBit
    andps       xmm1, SIMD_SP_signBit
    andps       xmm2, SIMD_SP_signBit

    xorps       xmm5, xmm0
    xorps       xmm6, xmm1
    xorps       xmm7, xmm2
    addss       xmm5, xmm6
    addss       xmm7, SIMD_SP_one
    addss       xmm5, xmm7                               // xmm5 = t

    movss       xmm7, xmm5                               // xmm7 = t

    rsqrtss     xmm6, xmm5
    mulss       xmm5, xmm6
    mulss       xmm5, xmm6
    subss       xmm5, SIMD_SP_rsqrt_c0
    mulss       xmm6, SIMD_SP_mat2quat_rsqrt_c1
    mulss       xmm6, xmm5                               // xmm5 = s

    mulss       xmm7, xmm6                               // xmm7 = s * t
    xorps       xmm6, SIMD_SP_signBit                    // xmm6 = -s

    // -----

    movzx       ecx, byte ptr shuffle[0]                 // ecx = k0
    add         edi, JOINTQUAT_SIZE
    movss       [edi+ecx*4-1*JOINTQUAT_SIZE], xmm7       // q[k0] = s * t;

    movzx       edx, byte ptr shuffle[1]                 // edx = k1
    movss       xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+0*4]
    xorps       xmm4, xmm2
    subss       xmm4, [esi+eax+0*JOINTMAT_SIZE+0*16+1*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-1*JOINTQUAT_SIZE], xmm4       // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;

    movzx       ecx, byte ptr shuffle[2]                 // ecx = k2
    movss       xmm3, [esi+eax+0*JOINTMAT_SIZE+0*16+2*4]
    xorps       xmm3, xmm1
    subss       xmm3, [esi+eax+0*JOINTMAT_SIZE+2*16+0*4]
    mulss       xmm3, xmm6
    movss       [edi+ecx*4-1*JOINTQUAT_SIZE], xmm3       // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;

    movzx       edx, byte ptr shuffle[3]                 // edx = k3
    movss       xmm4, [esi+eax+0*JOINTMAT_SIZE+2*16+1*4]
    xorps       xmm4, xmm0
    subss       xmm4, [esi+eax+0*JOINTMAT_SIZE+1*16+2*4]
    mulss       xmm4, xmm6
    movss       [edi+edx*4-1*JOINTQUAT_SIZE], xmm4       // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;

    mov         ecx, [esi+eax+0*JOINTMAT_SIZE+0*16+3*4]
    mov         [edi-1*JOINTQUAT_SIZE+16], ecx           // q[4] = m[0 * 4 + 3];
    mov         edx, [esi+eax+0*JOINTMAT_SIZE+1*16+3*4]
    mov         [edi-1*JOINTQUAT_SIZE+20], edx           // q[5] = m[1 * 4 + 3]; //@ rebuilt: OCR lost the operands of the q[5], q[6] and q[7] stores (one garbled `[edi-1*JOINTOHAT_SIZE+2*16+3*4]` remains); the pattern of loopMat4 and the C lines
    mov         ecx, [esi+eax+0*JOINTMAT_SIZE+2*16+3*4]
    mov         [edi-1*JOINTQUAT_SIZE+24], ecx           // q[6] = m[2 * 4 + 3]; //@ rebuilt: OCR lost the operands (see the q[5] store)
    mov         dword ptr [edi-1*JOINTQUAT_SIZE+28], 0   // q[7] = 0.0f; //@ rebuilt: OCR lost the operands (see the q[5] store)

    add         eax, JOINTMAT_SIZE
    jl          loopMat1

done1:
