// TransformSkeleton: the SSE2 listing of Appendix A, one instruction per line.
//
// Paper: J.M.P. van Waveren, "The Skeleton Assembly Line", id Software, 2005,
// section 3 ("Transforming a Skeleton") and Appendix A ("SSE Optimized
// Skeleton Transform for Skeletal Animation Systems", `void
// TransformSkeleton(`, the whole `__asm { ... }` body).
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the original listing.
//
// Format (parsed by tests/disasm.rs):
// - one instruction per line, indented 4 spaces, in the paper's MSVC Intel
//   syntax exactly as printed (`firstJoint`, `parents`, `JOINTMAT_SIZE`,
//   `SIMD_SP_clearFirstThree`, `[esi+ecx-JOINTMAT_SIZE+16]`,
//   `R_SHUFFLE_D( 0, 0, 0, 0 )` are the listing's own operands); the paper's
//   comments kept as trailing `// ...`, including its slips (`// edx =
//   &parents[firstJoint]` on the line that sets edi; `// xmm1 = m2, m3, m4,
//   t1`, where m3, m4, m5 is meant);
// - labels alone on their line, not indented;
// - lines starting with `//` (indented or not) are comments; blank lines
//   are ignored;
// - markers: `//@ rebuilt: <why>` on a line reconstructed from garbled OCR,
//   `//@ D<n> asm: ...` for deviations of the port (rows of the deviations
//   table in asm_notes/transform_skeleton.md).
//   The OCR of Appendix A drops five mnemonics and prints five more on
//   another line than their operands (the column of mnemonics is shifted
//   against the operands in the prologue and at the top of loopJoint); these
//   ten lines are marked `rebuilt`. Appendix B (UntransformSkeleton),
//   printed cleanly, has the same prologue shape and the same first six
//   instructions of the loop, which settles them (`jl done` too, see its
//   line). The port (src/transform_skeleton/asm.rs) keeps every
//   mnemonic, every xmm register and the order; besides operand widths and
//   addressing (D0, no marker) its one change is D1: the parent index is
//   loaded with `movsxd` (sign-extended, 64-bit addressing).
//
// The paper's alternative (section 3: `movss` + `shufps` instead of
// `movaps` + `pshufd`) is asm_notes/transform_skeleton_movss_shufps.listing.s.
//
// Instruction counts (labels and comments not counted):
//   prologue (before loopJoint)                       13
//   loopJoint (loopJoint: .. jle loopJoint)           45
//   done                                               0
//   total                                             58
// (the paper states no counts; 45 in loopJoint is the issue's figure)

    mov         ecx, firstJoint                             //@ rebuilt: the OCR prints `ecx, firstJoint` without its mnemonic; Appendix B begins `mov edx, firstJoint`
    mov         eax, lastJoint                              //@ rebuilt: the OCR prints `eax, lastJoint` without its mnemonic; Appendix B: `mov eax, lastJoint`
    sub         eax, ecx
    jl          done                                        //@ rebuilt: the OCR prints only `done`; Appendix B has `jl done` after the same `sub`, and the signed `jl` skips exactly an empty range (lastJoint < firstJoint)
    shl         ecx, 2                                      // ecx = firstJoint * 4
    mov         edi, parents
    add         edi, ecx                                    // edx = &parents[firstJoint]   //@ rebuilt: mnemonic `add` and operands `edi, ecx` printed on separate OCR lines
    lea         ecx, [ecx+ecx*2]
    shl         ecx, 2                                      // ecx = firstJoint * JOINTMAT_SIZE
    mov         esi, jointMats                              // esi = jointMats
    shl         eax, 2                                      // eax = ( lastJoint - firstJoint ) * 4
    add         edi, eax                                    //@ rebuilt: operands `edi, eax` printed on the line before their mnemonic `add`; edi = &parents[lastJoint], the base of the negative offset eax
    neg         eax

loopJoint:
    mov         edx, [edi+eax]                              //@ rebuilt: the OCR prints `edx, [edi+eax]` without its mnemonic; Appendix B: `mov edx, [edi+eax]` //@ D1 asm: movsxd rdx, [rdi+rax]
    movaps      xmm0, [esi+ecx+ 0]                          // xmm0 = m0, m1, m2, t0   //@ rebuilt: mnemonic `movaps` printed on the next OCR line
    lea         edx, [edx+edx*2]
    movaps      xmm1, [esi+ecx+16]                          // xmm1 = m2, m3, m4, t1
    shl         edx, 4                                      // edx = parents[i] * JOINTMAT_SIZE   //@ rebuilt: the OCR prints `edx, 4` without its mnemonic; the comment and Appendix B give `shl`
    movaps      xmm2, [esi+ecx+32]                          // xmm2 = m5, m6, m7, t2

    movaps      xmm7, [esi+edx+ 0]                          //@ rebuilt: mnemonic `movaps` printed on the next OCR line
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm4, xmm0
    pshufd      xmm5, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm5, xmm1
    addps       xmm4, xmm5
    add         ecx, JOINTMAT_SIZE                          //@ rebuilt: operands `ecx, JOINTMAT_SIZE` printed on the line before their mnemonic `add`
    add         eax, 4
    pshufd      xmm6, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm6, xmm2
    addps       xmm4, xmm6
    andps       xmm7, SIMD_SP_clearFirstThree
    addps       xmm4, xmm7

    movaps      [esi+ecx-JOINTMAT_SIZE+ 0], xmm4

    movaps      xmm3, [esi+edx+16]
    pshufd      xmm5, xmm3, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm5, xmm0
    pshufd      xmm6, xmm3, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm6, xmm1
    addps       xmm5, xmm6
    pshufd      xmm4, xmm3, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm4, xmm2
    addps       xmm5, xmm4
    andps       xmm3, SIMD_SP_clearFirstThree
    addps       xmm5, xmm3

    movaps      [esi+ecx-JOINTMAT_SIZE+16], xmm5

    movaps      xmm7, [esi+edx+32]
    pshufd      xmm6, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm6, xmm0
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm4, xmm1
    addps       xmm6, xmm4
    pshufd      xmm3, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm3, xmm2
    addps       xmm6, xmm3
    andps       xmm7, SIMD_SP_clearFirstThree
    addps       xmm6, xmm7

    movaps      [esi+ecx-JOINTMAT_SIZE+32], xmm6

    jle         loopJoint

done:
