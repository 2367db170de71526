// TransformSkeleton, the paper's alternative broadcast: Appendix A with
// every `pshufd` replaced by the `movss` + `shufps` pair of section 3.
//
// Paper: J.M.P. van Waveren, "The Skeleton Assembly Line", id Software, 2005,
// section 3 ("Transforming a Skeleton") and Appendix A ("SSE Optimized
// Skeleton Transform for Skeletal Animation Systems").
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the original listing.
//
// THIS IS NOT THE PAPER'S LISTING. Section 3 shows two ways to spread a
// scalar of one matrix over an SSE register: `movss xmmN, [esi+edx+k]` +
// `shufps xmmN, xmmN, R_SHUFFLE_D( 0, 0, 0, 0 )` per scalar, or one `movaps`
// of the row into a temporary and `pshufd` per scalar. Appendix A uses the
// second; the text says which is faster "depends on the surrounding
// instructions and the processor type" and that "it is usually worthwhile to
// try both variants ... and time the results". This file is the first
// variant applied to Appendix A, kernel
// `animasm::transform_skeleton::asm::transform_skeleton_movss_shufps`.
//
// The file is Appendix A exactly as in asm_notes/transform_skeleton.listing.s
// (same lines, same `rebuilt` markers, same D1) with a `//@ D2 asm:` marker
// on each of the nine `pshufd` lines: the port has, in its place, a `movss`
// of that scalar of the parent's row straight from memory (row r, lane k at
// `[esi+edx+16*r+4*k]`) into the same destination register, then `shufps`
// of the register with itself, `R_SHUFFLE_PS( 0, 0, 0, 0 )`. Everything else
// is kept: the `movaps` of each parent row into xmm7 / xmm3 / xmm7 still
// feeds `andps ..., SIMD_SP_clearFirstThree` (the translation lane), and
// the registers, the order and the flags (`add eax, 4` ... `jle loopJoint`)
// are the listing's. tests/disasm.rs checks the built kernel against this
// file with the markers applied; D1 and D2 are rows of the deviations table
// in asm_notes/transform_skeleton.md.
//
// Format: as asm_notes/transform_skeleton.listing.s (see its header).
//
// Instruction counts (labels and comments not counted):
//                                  Appendix A as printed   this variant
//   prologue (before loopJoint)                       13             13
//   loopJoint (loopJoint: .. jle loopJoint)           45             54
//   done                                               0              0
//   total                                             58             67
// (tests/disasm.rs counts the lines as printed, so the `counts` of this
// file's KERNELS row are Appendix A's: 58 and 45)

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
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )       //@ D2 asm: movss xmm4, [esi+edx+0] ; shufps xmm4, xmm4, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm4, xmm0
    pshufd      xmm5, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )       //@ D2 asm: movss xmm5, [esi+edx+4] ; shufps xmm5, xmm5, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm5, xmm1
    addps       xmm4, xmm5
    add         ecx, JOINTMAT_SIZE                          //@ rebuilt: operands `ecx, JOINTMAT_SIZE` printed on the line before their mnemonic `add`
    add         eax, 4
    pshufd      xmm6, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )       //@ D2 asm: movss xmm6, [esi+edx+8] ; shufps xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm6, xmm2
    addps       xmm4, xmm6
    andps       xmm7, SIMD_SP_clearFirstThree
    addps       xmm4, xmm7

    movaps      [esi+ecx-JOINTMAT_SIZE+ 0], xmm4

    movaps      xmm3, [esi+edx+16]
    pshufd      xmm5, xmm3, R_SHUFFLE_D( 0, 0, 0, 0 )       //@ D2 asm: movss xmm5, [esi+edx+16] ; shufps xmm5, xmm5, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm5, xmm0
    pshufd      xmm6, xmm3, R_SHUFFLE_D( 1, 1, 1, 1 )       //@ D2 asm: movss xmm6, [esi+edx+20] ; shufps xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm6, xmm1
    addps       xmm5, xmm6
    pshufd      xmm4, xmm3, R_SHUFFLE_D( 2, 2, 2, 2 )       //@ D2 asm: movss xmm4, [esi+edx+24] ; shufps xmm4, xmm4, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm4, xmm2
    addps       xmm5, xmm4
    andps       xmm3, SIMD_SP_clearFirstThree
    addps       xmm5, xmm3

    movaps      [esi+ecx-JOINTMAT_SIZE+16], xmm5

    movaps      xmm7, [esi+edx+32]
    pshufd      xmm6, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )       //@ D2 asm: movss xmm6, [esi+edx+32] ; shufps xmm6, xmm6, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm6, xmm0
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )       //@ D2 asm: movss xmm4, [esi+edx+36] ; shufps xmm4, xmm4, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm4, xmm1
    addps       xmm6, xmm4
    pshufd      xmm3, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )       //@ D2 asm: movss xmm3, [esi+edx+40] ; shufps xmm3, xmm3, R_SHUFFLE_PS( 0, 0, 0, 0 )
    mulps       xmm3, xmm2
    addps       xmm6, xmm3
    andps       xmm7, SIMD_SP_clearFirstThree
    addps       xmm6, xmm7

    movaps      [esi+ecx-JOINTMAT_SIZE+32], xmm6

    jle         loopJoint

done:
