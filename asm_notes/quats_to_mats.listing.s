// ConvertJointQuatsToJointMats: the SSE/SSE2 listing of Appendix A, one
// instruction per line.
//
// Paper: J.M.P. van Waveren, "From Quaternion to Matrix and Back", id
// Software, 2005, section 3 ("Quaternion to Matrix") and Appendix A ("SSE
// Optimized Quaternion to Matrix Conversion", `void
// ConvertJointQuatsToJointMats(`, the whole `__asm { ... }` body).
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the original listing.
//
// Format (parsed by tests/disasm.rs):
// - one instruction per line, indented 4 spaces, in the paper's MSVC Intel
//   syntax exactly as printed (`numJoints`, `SIMD_SP_one`,
//   `SIMD_SP_quat2mat_x0`, `[edi-JOINTMAT_SIZE+0*16+0*4]`,
//   `R_SHUFFLE_D( 1, 0, 0, 1 )` are the listing's own operands); the
//   paper's register comments kept as trailing `// ...`;
// - labels alone on their line, not indented;
// - lines starting with `//` (indented or not) are comments; blank lines
//   are ignored;
// - markers: `//@ rebuilt: <why>` on a line reconstructed from garbled OCR,
//   `//@ D<n> asm: ...` / `//@ D<n> insert: ...` for deviations of the port
//   (rows of the deviations table in asm_notes/quats_to_mats.md).
//   This listing has no `D<n>` marker: the port
//   (src/quats_to_mats/asm.rs) keeps every mnemonic and every xmm register;
//   it changes only operand widths and addressing (eax/esi/edi -> rax/rsi/rdi
//   in addresses, globals RIP-relative, numeric labels): deviation D0.
//
// Reconstruction: the OCR of Appendix A separates the instruction column
// from the operand column in the three row blocks ("calcluate first row",
// "calculate second row", "calculate third row"): mnemonics drift one or two
// lines away from their operands, two operand lines lose their mnemonic and
// the third row is printed as one run-on line. The register comments are
// taken as right even where the instructions are scrambled (the result bears
// this out). Each of the 17 instructions of those blocks is rebuilt from its
// operands, its register comment (before -> after) and section 3's text
// ("one 'subps' instruction per row", "the fourth elements of the SSE
// registers" carry two elements of the last row), and marked `//@ rebuilt`.
// Every rebuilt instruction also computes, with the others, exactly the
// matrix of the C routines (tests/quats_to_mats.rs checks the asm against an
// f32 model of these 42 instructions, bit for bit). The prologue, the 9
// products and the "last two elements of the third row" are read as printed.
//
// The comment of `mulss xmm0, xmm1` reads `xmm0 = xx2, y2, z2, w2` in the
// paper; `mulss` keeps xmm0's upper lanes, `y, z, w` (erratum E5; only lane 0
// is used). It is printed here as in the paper.
//
// Instruction counts (labels and comments not counted):
//   prologue (before loopQuat)                         7
//   loopQuat (loopQuat: .. jl loopQuat)               35
//     loads, pointer steps, x2 y2 z2 w2                6
//     the 9 products                                   7
//     last two elements of the third row               4
//     first row                                        7
//     second row                                       7
//     third row + jl                                   4
//   done                                               0
//   total                                             42
// (the paper: 35 in loopQuat; the total is this transcription's)

    mov         eax, numJoints
    shl         eax, JOINTQUAT_SIZE_SHIFT
    mov         esi, jointQuats
    mov         edi, jointMats
    add         esi, eax
    neg         eax
    jz          done

loopQuat:
    movaps      xmm0, [esi+eax+JOINTQUAT_Q_OFFSET]              // xmm0 = q.x, q.y, q.z, q.w
    movaps      xmm6, [esi+eax+JOINTQUAT_T_OFFSET]              // xmm6 = t.x, t.y, t.z, t.w

    add         edi, JOINTMAT_SIZE

    movaps      xmm1, xmm0                                      // xmm1 = x, y, z, w
    addps       xmm1, xmm1                                      // xmm1 = x2, y2, z2, w2

    add         eax, JOINTQUAT_SIZE

    // calculate the 9 products
    pshufd      xmm2, xmm0, R_SHUFFLE_D( 1, 0, 0, 1 )           // xmm2 = y, x, x, y
    pshufd      xmm3, xmm1, R_SHUFFLE_D( 1, 1, 2, 2 )           // xmm3 = y2, y2, z2, z2
    mulps       xmm2, xmm3                                      // xmm2 = yy2, xy2, xz2, yz2
    pshufd      xmm4, xmm0, R_SHUFFLE_D( 2, 3, 3, 3 )           // xmm4 = z, w, w, w
    pshufd      xmm5, xmm1, R_SHUFFLE_D( 2, 2, 1, 0 )           // xmm5 = z2, z2, y2, x2
    mulps       xmm4, xmm5                                      // xmm4 = zz2, wz2, wy2, wx2
    mulss       xmm0, xmm1                                      // xmm0 = xx2, y2, z2, w2

    // calculate the last two elements of the third row
    movss       xmm7, SIMD_SP_one                               // xmm7 = 1, 0, 0, 0
    subss       xmm7, xmm0                                      // xmm7 = -xx2+1, 0, 0, 0
    subss       xmm7, xmm2                                      // xmm7 = -xx2-yy2+1, 0, 0, 0
    shufps      xmm7, xmm6, R_SHUFFLE_PS( 0, 1, 2, 3 )          // xmm7 = -xx2-yy2+1, 0, t.z, t.w

    // calcluate first row
    xorps       xmm2, SIMD_SP_quat2mat_x0                       // xmm2 = yy2, -xy2, -xz2, -yz2 //@ rebuilt: OCR prints the operands without a mnemonic; `xorps` (printed two lines below) with the sign mask x0 = {0, S, S, S} gives the comment's yy2, -xy2, -xz2, -yz2
    xorps       xmm4, SIMD_SP_quat2mat_x1                       // xmm4 = -zz2, wz2, -wy2, -wx2 //@ rebuilt: mnemonic printed on the line after its operands; x1 = {S, 0, S, S} on zz2, wz2, wy2, wx2 gives the comment
    addss       xmm4, SIMD_SP_one                               // xmm4 = -zz2+1, wz2, -wy2, -wx2 //@ rebuilt: mnemonic, comment and operands printed on three separate lines; the comment changes lane 0 only (-zz2 -> -zz2+1): a scalar add of SIMD_SP_one
    movaps      xmm3, xmm4                                      // xmm3 = -zz2+1, wz2, -wy2, -wx2 //@ rebuilt: comment printed before the mnemonic; the comment is a copy of xmm4
    subps       xmm3, xmm2                                      // xmm3 = -yy2-zz2+1, xy2+wz2, xz2-wy2, yz2-wx2 //@ rebuilt: comment split around the mnemonic; xmm3 - xmm2 lane by lane is the comment ("one 'subps' instruction per row", section 3)
    movaps      [edi-JOINTMAT_SIZE+0*16+0*4], xmm3              // row0 = -yy2-zz2+1, xy2+wz2, xz2-wy2, yz2-wx2 //@ rebuilt: mnemonic printed after its operands; a 16-byte aligned store of the whole row (the comment's four elements)
    movss       [edi-JOINTMAT_SIZE+0*16+3*4], xmm6              // row0 = -yy2-zz2+1, xy2+wz2, xz2-wy2, t.x //@ rebuilt: mnemonic and operands on separate lines; a 4-byte store of t.x over element 3 (the comment changes only that element)

    // calculate second row
    movss       xmm2, xmm0                                      // xmm2 = xx2, -xy2, -xz2, -yz2 //@ rebuilt: OCR prints `xmm2, xmm0` without a mnemonic and `movss` two lines below; the comment replaces lane 0 of xmm2 (yy2) with xmm0's xx2
    xorps       xmm4, SIMD_SP_quat2mat_x2                       // xmm4 = -zz2+1, -wz2, wy2, wx2 //@ rebuilt: mnemonic printed after its operands, comment garbled ("-xy - . -wz 2"); x2 = x0 = {0, S, S, S} on -zz2+1, wz2, -wy2, -wx2 gives -zz2+1, -wz2, wy2, wx2
    subps       xmm4, xmm2                                      // xmm4 = -xx2-zz2+1, xy2-wz2, xz2+wy2, yz2+wx2 //@ rebuilt: operands and comment readable, mnemonic column shifted; xmm4 - xmm2 lane by lane is the comment
    shufps      xmm6, xmm6, R_SHUFFLE_PS( 1, 2, 3, 0 )          // xmm6 = t.y, t.z, t.w, t.x //@ rebuilt: the two `shufps` mnemonics are printed after both operand lines; the comments settle which immediate belongs to which register (t.x, t.y, t.z, t.w -> t.y, t.z, t.w, t.x)
    shufps      xmm4, xmm4, R_SHUFFLE_PS( 1, 0, 3, 2 )          // xmm4 = xy2-wz2, -xx2-zz2+1, yz2+wx2, xz2+wy2 //@ rebuilt: second of the two detached `shufps`; (1, 0, 3, 2) swaps the pairs, as the comment shows
    movaps      [edi-JOINTMAT_SIZE+1*16+0*4], xmm4              // row1 = xy2-wz2, -xx2-zz2+1, yz2+wx2, xz2+wy2 //@ rebuilt: `movaps` and `movss` printed after both store operand lines; the whole-row store is the movaps (as row 0)
    movss       [edi-JOINTMAT_SIZE+1*16+3*4], xmm6              // row1 = xy2-wz2, -xx2-zz2+1, yz2+wx2, t.y //@ rebuilt: the element-3 store of t.y is the movss (as row 0)

    // calculate third row
    movhlps     xmm3, xmm4                                      // xmm3 = yz2+wx2, xz2+wy2, xz2-wy2, yz2-wx2 //@ rebuilt: the third row is one run-on OCR line (operands and comments) followed by the mnemonics `movhlps`, `shufps`, `movaps` in order; movhlps puts xmm4's upper half under xmm3's, as the comment shows
    shufps      xmm3, xmm7, R_SHUFFLE_PS( 1, 3, 0, 2 )          // xmm3 = xz2+wy2, yz2-wx2, -xx2-yy2+1, t.z //@ rebuilt: second operand group of the run-on line; lanes 1, 3 of xmm3 and 0, 2 of xmm7 give the comment
    movaps      [edi-JOINTMAT_SIZE+2*16+0*4], xmm3              // row2 = xz2+wy2, yz2-wx2, -xx2-yy2+1, t.z //@ rebuilt: third operand group of the run-on line (the OCR reads "-vy2" for "-yy2"); the whole-row store, t.z already in lane 3

    jl          loopQuat

done:
