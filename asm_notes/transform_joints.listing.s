// TransformJoints: the SSE listing of Appendix C, one instruction per line.
//
// Paper: J.M.P. van Waveren, "The Skeleton Assembly Line", id Software,
// February 27th 2005, section 5 ("Transforming Joints", the C routine
// `MultiplyJoints`) and Appendix C ("SSE Optimized Joint Transform for
// Skeletal Animation Systems": `void TransformJoints( JointMat *result,
// const JointMat *joints1, const JointMat *joints2, const int numJoints )`,
// the whole `__asm { ... }` body). Section 5 says the code "can be found in
// appendix B"; it is Appendix C (Appendix B is UntransformSkeleton): an
// erratum of the text, see asm_notes/transform_joints.md.
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the original listing.
//
// Format (parsed by tests/disasm.rs):
// - one instruction per line, indented 4 spaces, in the paper's MSVC Intel
//   syntax exactly as printed (`numJoints`, `joints1`, `SIMD_SP_clearFirstThree`,
//   `[edi+eax-JOINTMAT_SIZE+0]`, `R_SHUFFLE_D( 0, 0, 0, 0 )` are the
//   listing's own operands);
// - labels alone on their line, not indented;
// - lines starting with `//` (indented or not) are comments; blank lines
//   are ignored;
// - markers: `//@ rebuilt: <why>` on a line reconstructed from the OCR,
//   `//@ D<n> asm: ...` / `//@ D<n> insert: ...` for deviations of the port
//   (rows of the deviations table in asm_notes/transform_joints.md).
//
// The OCR of Appendix C stops inside the third row, after
// `mulps xmm4, xmm1`: the eight instructions after it (the rest of the third
// row, `jl loopJoint`) and the label `done:` are rebuilt, as the data flow
// settles them: the third row repeats the first two at offset 32, then
// `jl loopJoint` (not `jle`) and `done:` (the target of `jz done`). Each
// rebuilt instruction carries `//@ rebuilt:`. There is no `//@ D<n>` marker:
// the port (src/transform_joints/asm.rs) keeps every mnemonic and every xmm
// register; it changes only operand widths and addressing (eax/ecx/edx/edi
// -> rax/rcx/rdx/rdi in addresses, `imul` in its three-operand spelling,
// the global RIP-relative, numeric labels): rows D0-D2 of the table, which
// carry no marker.
//
// Instruction counts (labels and comments not counted):
//   prologue (before loopJoint)                       11
//   loopJoint (loopJoint: .. jl loopJoint)            41
//     first row (+0, with `add eax, JOINTMAT_SIZE`)   16
//     second row (+16)                                12
//     third row (+32, with `jl loopJoint`)            13  (8 rebuilt)
//   done                                               0
//   total                                             52
// (the paper states no counts; 41 in the loop body is the brief's figure,
// which the completed listing meets)

    mov         eax, numJoints
    test        eax, eax
    jz          done

    mov         ecx, joints1
    mov         edx, joints2
    mov         edi, result

    imul        eax, JOINTMAT_SIZE

    add         ecx, eax
    add         edx, eax
    add         edi, eax

    neg         eax

loopJoint:
    movaps      xmm0, [edx+eax+ 0]
    movaps      xmm1, [edx+eax+16]
    movaps      xmm2, [edx+eax+32]

    movaps      xmm7, [ecx+eax+ 0]
    pshufd      xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm3, xmm0
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm4, xmm1
    addps       xmm3, xmm4
    add         eax, JOINTMAT_SIZE
    pshufd      xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm5, xmm2
    addps       xmm3, xmm5
    andps       xmm7, SIMD_SP_clearFirstThree
    addps       xmm3, xmm7
    movaps      [edi+eax-JOINTMAT_SIZE+0], xmm3

    movaps      xmm7, [ecx+eax-JOINTMAT_SIZE+16]
    pshufd      xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm3, xmm0
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm4, xmm1
    addps       xmm3, xmm4
    pshufd      xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )
    mulps       xmm5, xmm2
    addps       xmm3, xmm5
    andps       xmm7, SIMD_SP_clearFirstThree
    addps       xmm3, xmm7
    movaps      [edi+eax-JOINTMAT_SIZE+16], xmm3

    movaps      xmm7, [ecx+eax-JOINTMAT_SIZE+32]
    pshufd      xmm3, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )
    mulps       xmm3, xmm0
    pshufd      xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )
    mulps       xmm4, xmm1
    // The OCR of Appendix C ends here.
    addps       xmm3, xmm4                              //@ rebuilt: cut off; the second row's `addps xmm3, xmm4` (the third row repeats the first two at offset 32)
    pshufd      xmm5, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )   //@ rebuilt: cut off; as in rows one and two, lane 2 of the joints1 row times the joints2 row in xmm2
    mulps       xmm5, xmm2                              //@ rebuilt: cut off; as in rows one and two
    addps       xmm3, xmm5                              //@ rebuilt: cut off; as in rows one and two
    andps       xmm7, SIMD_SP_clearFirstThree           //@ rebuilt: cut off; as in rows one and two (keeps the row's translation, lane 3)
    addps       xmm3, xmm7                              //@ rebuilt: cut off; as in rows one and two (adds the translation)
    movaps      [edi+eax-JOINTMAT_SIZE+32], xmm3        //@ rebuilt: cut off; the third row's store, offset 32 as the load `[ecx+eax-JOINTMAT_SIZE+32]`
    jl          loopJoint                               //@ rebuilt: cut off; `jl` (not `jle`: eax reaches 0 after the last joint), on the flags of `add eax, JOINTMAT_SIZE`

// `done:` is rebuilt too (cut off): the target of `jz done` in the prologue.
done:
