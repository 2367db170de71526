// UntransformSkeleton: the SSE listing of Appendix B, one instruction per line.
//
// Paper: J.M.P. van Waveren, "The Skeleton Assembly Line", id Software,
// February 27th 2005, section 4 ("Untransforming a Skeleton") and Appendix B
// ("SSE Optimized Skeleton Untransform for Skeletal Animation Systems",
// `void UntransformSkeleton(`, the whole `__asm { ... }` body).
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the original listing.
//
// Format (parsed by tests/disasm.rs):
// - one instruction per line, indented 4 spaces, in the paper's MSVC Intel
//   syntax exactly as printed (`firstJoint`, `jointMats`, `JOINTMAT_SIZE`,
//   `R_SHUFFLE_D( 1, 2, 3, 0 )` are the listing's own operands); the paper's
//   comments kept as trailing `// ...` where printed (`// edi =
//   &parents[firstJoint]` sits on `mov edi, parents`, one line before it is
//   true); the OCR runs three loop comments together beside `lea edx`: they
//   are put back on the lines they describe, as in Appendix A; `m2, m3, m4`
//   and `m5, m6, m7` are the paper's own slips for rows 1 and 2, kept);
// - labels alone on their line, not indented;
// - lines starting with `//` (indented or not) are comments; blank lines
//   are ignored;
// - markers: `//@ rebuilt: <why>` on a line reconstructed from garbled OCR,
//   `//@ D<n> asm: ...` / `//@ D<n> insert: ...` for deviations of the port
//   (rows of the deviations table in asm_notes/untransform_skeleton.md).
//   One line is rebuilt (the loop's closing branch, whose mnemonic the OCR
//   lost) and one is a deviation (D1: the parent index is sign-extended).
//   The port (src/untransform_skeleton/asm.rs) otherwise keeps every
//   mnemonic and every xmm register; it changes only operand widths and
//   addressing (D0: parameters in registers, 64-bit address arithmetic,
//   numeric labels).
//
// Instruction counts (labels and comments not counted):
//   prologue (before loopJoint)                       12
//   loopJoint (loopJoint: .. jge loopJoint)           48
//   done                                               0
//   total                                             60
// (the paper states no count; 48 per joint in loopJoint)

    mov         edx, firstJoint
    mov         eax, lastJoint
    mov         ecx, eax
    sub         eax, edx
    jl          done
    mov         esi, jointMats                  // esi = jointMats
    lea         ecx, [ecx+ecx*2]                // ecx = lastJoint * JOINTMAT_SIZE
    shl         ecx, 4
    shl         edx, 2
    mov         edi, parents                    // edi = &parents[firstJoint]
    add         edi, edx
    shl         eax, 2                          // eax = ( lastJoint - firstJoint ) * 4

loopJoint:
    mov         edx, [edi+eax]                  //@ D1 asm: movsxd rdx, [rdi+rax]
    movaps      xmm0, [esi+ecx+ 0]              // xmm0 = m0, m1, m2, t0
    lea         edx, [edx+edx*2]
    movaps      xmm1, [esi+ecx+16]              // xmm1 = m2, m3, m4, t1
    shl         edx, 4                          // edx = parents[i] * JOINTMAT_SIZE
    movaps      xmm2, [esi+ecx+32]              // xmm2 = m5, m6, m7, t2

    movss       xmm7, [esi+edx+12]
    pshufd      xmm7, xmm7, R_SHUFFLE_D( 1, 2, 3, 0 )
    subps       xmm0, xmm7
    movss       xmm6, [esi+edx+28]
    pshufd      xmm6, xmm6, R_SHUFFLE_D( 1, 2, 3, 0 )
    subps       xmm1, xmm6
    movss       xmm5, [esi+edx+44]
    pshufd      xmm5, xmm5, R_SHUFFLE_D( 1, 2, 3, 0 )
    subps       xmm2, xmm5

    sub         ecx, JOINTMAT_SIZE
    sub         eax, 4

    movaps      xmm7, [esi+edx+ 0]
    pshufd      xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm3, xmm0
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm4, xmm0
    pshufd      xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm5, xmm0

    movaps      xmm7, [esi+edx+16]
    pshufd      xmm0, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm0, xmm1
    addps       xmm3, xmm0
    pshufd      xmm6, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm6, xmm1
    addps       xmm4, xmm6
    pshufd      xmm0, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm0, xmm1
    addps       xmm5, xmm0

    movaps      xmm7, [esi+edx+32]
    pshufd      xmm6, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm6, xmm2
    addps       xmm3, xmm6
    movaps      [esi+ecx+JOINTMAT_SIZE+ 0], xmm3
    pshufd      xmm1, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm1, xmm2
    addps       xmm4, xmm1
    movaps      [esi+ecx+JOINTMAT_SIZE+16], xmm4
    pshufd      xmm6, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm6, xmm2
    addps       xmm5, xmm6
    movaps      [esi+ecx+JOINTMAT_SIZE+32], xmm5

    jge         loopJoint                       //@ rebuilt: the OCR prints only the operand `loopJoint`; eax counts (i - firstJoint) * 4 down to 0, so the loop goes on while `sub eax, 4` leaves it not negative: the signed `jge`
done:
