// ProcessOptimizedKernel: the AVX slerp of Mehrotra and Hubbard, as the
// sequence of VEX instructions its intrinsics name, one per line.
//
// Paper: Pallavi Mehrotra and Richard Hubbard, "Benefits of Intel(R) Advanced
// Vector Extensions For Quaternion Spherical Linear Interpolation (Slerp)",
// Intel, section "Source Code for Quaternion Slerp" (the "partial source code
// listing": constants, initializationFunction, ProcessOptimizedKernel).
// The algorithm is van Waveren's: "Slerping Clock Cycles", id Software, 2005,
// Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
// License: LGPL-2.1-or-later (GNU Lesser General Public License, version 2.1
// or, at your option, any later version), as the crate.
//
// THIS IS NOT A PRINTED ASSEMBLY LISTING. The article prints C intrinsics.
// This file is derived from that source: each intrinsic is written as the
// one VEX instruction it names (_mm256_mul_ps -> vmulps, _mm256_unpacklo_ps
// -> vunpcklps, _mm256_castpd_ps(_mm256_unpacklo_pd(_mm256_castps_pd(a),
// _mm256_castps_pd(b))) -> vunpcklpd (the casts are free), _mm256_rsqrt_ps
// -> vrsqrtps, _mm256_rcp_ps -> vrcpps, _mm256_cmpeq_ps -> vcmpeqps (E5),
// _mm256_shuffle_ps -> vshufps, _mm256_load_ps / _mm256_store_ps ->
// vmovaps, _mm256_broadcast_ss -> vbroadcastss), and each assignment between
// __m256 variables (`ymmR1 = absCosom;`) as the vmovaps it needs, in the
// article's source order, both halves of the unrolled loop printed out as in
// the article. The C around the intrinsics (pointer set-up, the `for` loop
// over i, `mod16QuaternionCount`) is written as the instructions the port
// uses (mov, and, shl, xor, cmp, jge, add, jl); the remainder loop is plain C
// in the article and is not here (src/slerp_quats/scalar.rs).
//
// Format (parsed by tests/disasm.rs), as the other listing files:
// - one instruction per line, indented 4 spaces, operands as the C names
//   them (`ymmR0`, `fromX`, `sinC0`, `[pFromQuat+i/8*32+2*4]`; the
//   register map is in asm_notes/slerp_quats.md and src/slerp_quats/asm.rs);
//   the article's comments kept, on their own lines or trailing `// ...`;
//   `E<n>` in a comment points to an erratum of asm_notes/slerp_quats.md;
// - labels alone on their line, not indented (the article has none: the
//   names loopQuat16 and loopDone are the port's);
// - markers `//@ D<n> insert: ...` for instructions the port adds (rows of
//   the deviations table in asm_notes/slerp_quats.md): D1 the store that
//   keeps `factor` in memory (17 values are live at once, x86-64 has 16 ymm
//   registers), D2 the load of `allOnes` before `_mm256_sub_ps(allOnes,
//   ymmR0)` (a VEX first source must be a register), D3 `vzeroupper`.
//   No line is `//@ rebuilt`: the OCR of the source is complete.
// tests/disasm.rs compares mnemonics (and xmm register numbers, of which
// this file has none: the operands are the C variables).
//
// Instruction counts (markers not applied; labels and comments not counted):
//   prologue (before loopQuat16)                               10
//   loopQuat16 (loopQuat16: .. jl loopQuat16)                 259
//     first eight quaternions                                 128
//     second eight quaternions (the loop unrolled once)       128
//     i += 16; i < mod16QuaternionCount                         3
//   loopDone                                                    0
//   total                                                     269
// The port adds 4 (D1 once, D2 twice, D3 once): 273 in the built block, 261
// of them in the loop. Per half: 124 intrinsics + 4 copies = 128, of which
// 8 unpacks and 8 vshufps (16 on the shuffle port per eight quaternions).

    mov          rsi, fromQuaternion            // pFromQuat = (float *) fromQuaternion;
    mov          rdi, toQuaternion              // pToQuat = (float *) toQuaternion;
    mov          rdx, resultQuaternion          // pResults = (float *) resultQuaternion;

    // Other initializations
    vbroadcastss factor, g_factor               // factor = _mm256_broadcast_ss(&g_factor);
    //@ D1 insert: vmovaps factorInMemory, factor
    mov          ecx, g_quaternionCount         // int mod16QuaternionCount = g_quaternionCount & 0xfffffff0;
    and          ecx, 0xfffffff0
    shl          rcx, 4                         // mod16QuaternionCount in bytes (16 per quaternion)

    // Operate on all the quaternions
    xor          eax, eax                       // for(int i = 0; ...  (rax = 16*i, in bytes)
    cmp          rax, rcx                       // ... i < mod16QuaternionCount; ...
    jge          loopDone
loopQuat16:

    // Load From-Quat 0 and Quat 1 into one register
    vmovaps      fromX, [pFromQuat+i/8*32]
    // Load From-Quat 2 and Quat 3 into one register
    vmovaps      fromY, [pFromQuat+i/8*32+2*4]
    // Load From-Quat 4 and Quat 5 into one register
    vmovaps      fromZ, [pFromQuat+i/8*32+4*4]
    // Load From-Quat 6 and Quat 7 into one register
    vmovaps      fromW, [pFromQuat+i/8*32+6*4]
    // Load To-Quat 0 and Quat 1 into one register
    vmovaps      toX, [pToQuat+i/8*32]
    // Load To-Quat 2 and Quat 3 into one register
    vmovaps      toY, [pToQuat+i/8*32+2*4]
    // Load To-Quat 4 and Quat 5 into one register
    vmovaps      toZ, [pToQuat+i/8*32+4*4]
    // Load To-Quat 6 and Quat 7 into one register
    vmovaps      toW, [pToQuat+i/8*32+6*4]

    // *** Compute product terms: fromx*tox, fromy*toy, fromz*toz, fromw*tow
    // ymmR0 = fromw1*tow1, fromz1*toz1, fromy1*toy1, fromx1*tox
    // fromw0*tow0, fromz0*toz0, fromy0*toy0, fromx0*tox0
    vmulps       ymmR0, fromX, toX                      // Quaternion 0 and 1
    vmulps       ymmR1, fromY, toY                      // Quaternion 2 and 3
    vmulps       ymmR2, fromZ, toZ                      // Quaternion 4 and 5
    vmulps       ymmR3, fromW, toW                      // Quaternion 6 and 7

    // *** Swizzle products to prepare for additions
    // Start collecting product terms (step 1 of 2)
    // Get y3, y1, x3, x1, y2, y0, x2, x0
    vunpcklps    ymmR4, ymmR0, ymmR1
    // Get w3, w1, z3, z1, w2, w0, z2, z0
    vunpckhps    ymmR5, ymmR0, ymmR1
    // Get y7, y5, x7, x5, y6, y4, x6, x4
    vunpcklps    ymmR6, ymmR2, ymmR3
    // Get w7, w5, z7, z5, w6, w4, z6, z4
    vunpckhps    ymmR7, ymmR2, ymmR3

    // Finish collecting product terms (step 2 of 2)
    // Get x7, x5, x3, x1, x6, x4, x2, x0
    vunpcklpd    ymmR0, ymmR4, ymmR6
    // Get y7, y5, y3, y1, y6, y4, y2, y0
    vunpckhpd    ymmR1, ymmR4, ymmR6
    // calculate first partial sum
    vaddps       ymmR4, ymmR0, ymmR1
    // Get z7, z5, z3, z1, z6, z4, z2, z0
    vunpcklpd    ymmR2, ymmR5, ymmR7
    // Get w7, w5, w3, w1, w6, w4, w2, w0
    vunpckhpd    ymmR3, ymmR5, ymmR7

    // Finish adding the terms
    // Second partial sum
    vaddps       ymmR5, ymmR2, ymmR3
    // Final sum
    vaddps       cosom, ymmR4, ymmR5

    // *** Compute the absolute value of above
    vandps       absCosom, cosom, clearSignBit          // E4: clearSignBit as intended
    // Save the sign bit, used to invert scale1 later
    vandps       signBit, cosom, setSignBit             // E4: setSignBit as intended

    // *** Compute 1.0 - (above squared)
    vmulps       ymmR0, absCosom, absCosom
    //@ D2 insert: vmovaps sinsqr, allOnes
    vsubps       sinsqr, allOnes, ymmR0
    // Watch for very small values
    vxorps       ymmR1, ymmR1, ymmR1                    // Zeros
    vcmpeqps     ymmR1, ymmR1, sinsqr                   // E5: _mm256_cmpeq_ps, read as vcmpeqps
    vandps       ymmR1, ymmR1, tiny                     // Make them tiny, not zero
    vandps       sinsqr, sinsqr, clearSignBit           // Make them positive
    vorps        sinsqr, sinsqr, ymmR1

    // Compute 1/(square root of above)
    vrsqrtps     sinom, sinsqr
    vmulps       ymmR0, sinsqr, sinom
    vmulps       ymmR0, ymmR0, sinom
    vsubps       ymmR0, ymmR0, sqrtC0
    vmulps       ymmR1, sinom, sqrtC1                   // E2: sqrtC1 holds RSQRT_C0 = 3.0f, not RSQRT_C1 = -0.5f
    vmulps       ymmR0, ymmR0, ymmR1                    // E3: the refined 1/sqrt, overwritten on the next line (as published)
    vmulps       ymmR0, sinsqr, sinom                   // E3: as published, sinom is still the vrsqrtps estimate

    // *** Compute the ArcTangent (omega = arctan(sinom*sinsqr, absCosom))
    vmovaps      ymmR1, absCosom
    vminps       absCosom, absCosom, ymmR0
    vmaxps       ymmR0, ymmR0, ymmR1
    vcmpeqps     ymmR1, ymmR1, absCosom                 // E5
    vrcpps       ymmR2, ymmR0
    vmulps       ymmR0, ymmR0, ymmR2
    vmulps       ymmR0, ymmR0, ymmR2
    vaddps       ymmR2, ymmR2, ymmR2
    vsubps       ymmR2, ymmR2, ymmR0
    vmulps       absCosom, absCosom, ymmR2
    vmovaps      ymmR0, ymmR1                           // copy the mask
    vandps       ymmR0, ymmR0, setSignBit
    vxorps       absCosom, absCosom, ymmR0

    // cmp mask determines contents: Pi/2 or 0.0
    vandps       ymmR1, ymmR1, halfPi                   // E1: halfPi = 22/7/2

    // finish ArcTangent calculation
    vmulps       ymmR0, absCosom, absCosom
    vmulps       ymmR2, atanC0, ymmR0
    vaddps       ymmR2, ymmR2, atanC1
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC2
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC3
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC4
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC5
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC6
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC7
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, allOnes
    vmulps       ymmR2, ymmR2, absCosom
    // Adjust by adding Pi/2 or 0.0
    vaddps       omega, ymmR2, ymmR1

    // *** Compute the first scale factor
    // Compute [1.0 - (move factor)]*above?
    vmulps       ymmR1, factor, omega
    vsubps       ymmR0, omega, ymmR1

    // Compute both scale factors
    // Compute sin(above)
    vmovaps      ymmR1, ymmR0                           // used to calculate scale0
    // Compute factor*omega
    vmulps       ymmR6, factor, omega
    vmovaps      ymmR4, ymmR6                           // used to calculate scale1
    vmulps       ymmR1, ymmR1, ymmR1
    vmulps       ymmR4, ymmR4, ymmR4                    // scale1
    vmulps       ymmR2, sinC0, ymmR1
    vmulps       ymmR5, sinC0, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC1
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC1                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC2
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC2                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC3
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC3                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC4
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC4                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, allOnes
    vmulps       ymmR2, ymmR2, ymmR0                    // ymmR2 has the sin(x) for eight
    vaddps       ymmR5, ymmR5, allOnes                  // scale1
    vmulps       ymmR5, ymmR5, ymmR6                    // ymmR5 has the sin(x) for eight

    // Compute above*sinom
    vmulps       scale0, ymmR2, sinom                   // scale0 has the first scale factor
    vmulps       scale1, ymmR5, sinom                   // scale1 has the second scale factor

    // *** invert the second scale factor if that first sum of products is negative
    vxorps       scale1, scale1, signBit

    // *** Compute the final results by scaling
    // Copy scale values for quat 1 and 0 to all spots in their 128-bit lane
    // ymmR6 = scale01, scale01, scale01, scale01, scale00, scale00, scale00, scale00
    vshufps      ymmR6, scale0, scale0, 0x00
    // ymmR7 = scale11, scale11, scale11, scale11, scale10, scale10, scale10, scale10
    vshufps      ymmR7, scale1, scale1, 0x00
    // Scale the original From quaternions 1 and 0
    vmulps       ymmR0, ymmR6, fromX
    // Scale the original To quaternions 1 and 0
    vmulps       ymmR1, ymmR7, toX
    // Add to complete the SLERP, then store results to memory.
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 0 and 1 results
    vmovaps      [pResults+i/8*32], ymmR2

    // Copy scale values for quat 3 and 2 to all spots in their 128-bit lane
    vshufps      ymmR6, scale0, scale0, 0x55
    vshufps      ymmR7, scale1, scale1, 0x55
    // Scale, add, and store results for quats 2 and 3
    vmulps       ymmR0, ymmR6, fromY
    vmulps       ymmR1, ymmR7, toY
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 2 and 3 results
    vmovaps      [pResults+i/8*32+2*4], ymmR2

    // Copy scale values for quat 5 and 4 to all spots in their 128-bit lane
    vshufps      ymmR6, scale0, scale0, 0xaa
    vshufps      ymmR7, scale1, scale1, 0xaa
    // Scale, add, and store results for quats 4 and 5
    vmulps       ymmR0, ymmR6, fromZ
    vmulps       ymmR1, ymmR7, toZ
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 4 and 5 results
    vmovaps      [pResults+i/8*32+4*4], ymmR2

    // Copy scale values for quat 7 and 6 to all spots in their 128-bit lane
    vshufps      ymmR6, scale0, scale0, 0xff
    vshufps      ymmR7, scale1, scale1, 0xff
    // Scale, add, and store results for quats 6 and 7
    vmulps       ymmR0, ymmR6, fromW
    vmulps       ymmR1, ymmR7, toW
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 6 and 7 results
    vmovaps      [pResults+i/8*32+6*4], ymmR2

    // Unrolled once - repeat the above for another eight quaternions
    vmovaps      fromX, [pFromQuat+i/8*32+32]
    // Load From-Quat 2 and Quat 3 into one register
    vmovaps      fromY, [pFromQuat+i/8*32+2*4+32]
    // Load From-Quat 4 and Quat 5 into one register
    vmovaps      fromZ, [pFromQuat+i/8*32+4*4+32]
    // Load From-Quat 6 and Quat 7 into one register
    vmovaps      fromW, [pFromQuat+i/8*32+6*4+32]
    // Load To-Quat 0 and Quat 1 into one register
    vmovaps      toX, [pToQuat+i/8*32+32]
    // Load To-Quat 2 and Quat 3 into one register
    vmovaps      toY, [pToQuat+i/8*32+2*4+32]
    // Load To-Quat 4 and Quat 5 into one register
    vmovaps      toZ, [pToQuat+i/8*32+4*4+32]
    // Load To-Quat 6 and Quat 7 into one register
    vmovaps      toW, [pToQuat+i/8*32+6*4+32]

    // *** Compute fromx*tox, fromy*toy, fromz*toz, fromw*tow
    vmulps       ymmR0, fromX, toX                      // Quaternion 0 and 1
    vmulps       ymmR1, fromY, toY                      // Quaternion 2 and 3
    vmulps       ymmR2, fromZ, toZ                      // Quaternion 4 and 5
    vmulps       ymmR3, fromW, toW                      // Quaternion 6 and 7

    // *** Swizzle to perform adds
    // Start collecting terms (step 1 of 2)
    // Get y3, y1, x3, x1, y2, y0, x2, x0
    vunpcklps    ymmR4, ymmR0, ymmR1
    // Get w3, w1, z3, z1, w2, w0, z2, z0
    vunpckhps    ymmR5, ymmR0, ymmR1
    // Get y7, y5, x7, x5, y6, y4, x6, x4
    vunpcklps    ymmR6, ymmR2, ymmR3
    // Get w7, w5, z7, z5, w6, w4, z6, z4
    vunpckhps    ymmR7, ymmR2, ymmR3

    // Finish collecting terms (step 2 of 2)
    // Get x7, x5, x3, x1, x6, x4, x2, x0
    vunpcklpd    ymmR0, ymmR4, ymmR6
    // Get y7, y5, y3, y1, y6, y4, y2, y0
    vunpckhpd    ymmR1, ymmR4, ymmR6
    vaddps       ymmR4, ymmR0, ymmR1
    // Get z7, z5, z3, z1, z6, z4, z2, z0
    vunpcklpd    ymmR2, ymmR5, ymmR7
    // Get w7, w5, w3, w1, w6, w4, w2, w0
    vunpckhpd    ymmR3, ymmR5, ymmR7

    // Finish adding the terms
    vaddps       ymmR5, ymmR2, ymmR3
    vaddps       cosom, ymmR4, ymmR5

    // *** Compute the absolute value of above
    vandps       absCosom, cosom, clearSignBit          // E4: clearSignBit as intended
    vandps       signBit, cosom, setSignBit             // Used to invert scale1 later; E4: setSignBit as intended

    // *** Compute 1.0 - (above squared)
    vmulps       ymmR0, absCosom, absCosom
    //@ D2 insert: vmovaps sinsqr, allOnes
    vsubps       sinsqr, allOnes, ymmR0
    // Watch for very small values
    vxorps       ymmR1, ymmR1, ymmR1                    // Zeros
    vcmpeqps     ymmR1, ymmR1, sinsqr                   // E5: _mm256_cmpeq_ps, read as vcmpeqps
    vandps       ymmR1, ymmR1, tiny                     // Make them tiny, not zero
    vandps       sinsqr, sinsqr, clearSignBit           // Make them positive
    vorps        sinsqr, sinsqr, ymmR1

    // Compute 1/(square root of above)
    vrsqrtps     sinom, sinsqr
    vmulps       ymmR0, sinsqr, sinom
    vmulps       ymmR0, ymmR0, sinom
    vsubps       ymmR0, ymmR0, sqrtC0
    vmulps       ymmR1, sinom, sqrtC1                   // E2: sqrtC1 holds RSQRT_C0 = 3.0f, not RSQRT_C1 = -0.5f
    vmulps       ymmR0, ymmR0, ymmR1                    // E3: the refined 1/sqrt, overwritten on the next line (as published)
    vmulps       ymmR0, sinsqr, sinom                   // E3: as published, sinom is still the vrsqrtps estimate

    // *** Compute the ArcTangent (omega = arctan(sinom*sinsqr, absCosom)
    vmovaps      ymmR1, absCosom
    vminps       absCosom, absCosom, ymmR0
    vmaxps       ymmR0, ymmR0, ymmR1
    vcmpeqps     ymmR1, ymmR1, absCosom                 // E5
    vrcpps       ymmR2, ymmR0
    vmulps       ymmR0, ymmR0, ymmR2
    vmulps       ymmR0, ymmR0, ymmR2
    vaddps       ymmR2, ymmR2, ymmR2
    vsubps       ymmR2, ymmR2, ymmR0
    vmulps       absCosom, absCosom, ymmR2
    vmovaps      ymmR0, ymmR1                           // copy the mask
    vandps       ymmR0, ymmR0, setSignBit
    vxorps       absCosom, absCosom, ymmR0

    // cmp mask determines contents: Pi/2 or 0.0
    vandps       ymmR1, ymmR1, halfPi                   // E1: halfPi = 22/7/2
    vmulps       ymmR0, absCosom, absCosom
    vmulps       ymmR2, atanC0, ymmR0
    vaddps       ymmR2, ymmR2, atanC1
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC2
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC3
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC4
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC5
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC6
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, atanC7
    vmulps       ymmR2, ymmR2, ymmR0
    vaddps       ymmR2, ymmR2, allOnes
    vmulps       ymmR2, ymmR2, absCosom
    vaddps       omega, ymmR2, ymmR1

    // *** Compute the first scale factor
    // Compute [1.0 - (move factor)]*above?
    vmulps       ymmR1, factor, omega
    vsubps       ymmR0, omega, ymmR1

    // Compute both scale factors
    // Compute sin(above)
    vmovaps      ymmR1, ymmR0                           // used to calculate scale0
    // Compute factor*omega
    vmulps       ymmR6, factor, omega
    vmovaps      ymmR4, ymmR6                           // used to calculate scale1
    vmulps       ymmR1, ymmR1, ymmR1
    vmulps       ymmR4, ymmR4, ymmR4                    // scale1
    vmulps       ymmR2, sinC0, ymmR1
    vmulps       ymmR5, sinC0, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC1
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC1                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC2
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC2                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC3
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC3                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, sinC4
    vmulps       ymmR2, ymmR2, ymmR1
    vaddps       ymmR5, ymmR5, sinC4                    // scale1
    vmulps       ymmR5, ymmR5, ymmR4                    // scale1
    vaddps       ymmR2, ymmR2, allOnes
    vmulps       ymmR2, ymmR2, ymmR0                    // ymmR2 has the sin(x) for eight
    vaddps       ymmR5, ymmR5, allOnes                  // scale1
    vmulps       ymmR5, ymmR5, ymmR6                    // ymmR5 has the sin(x) for eight

    // Compute above*sinom
    vmulps       scale0, ymmR2, sinom                   // scale0 has the first scale factor
    vmulps       scale1, ymmR5, sinom                   // scale1 has the second scale factor

    // *** invert the second scale factor if
    // *** that first sum of products is negative
    vxorps       scale1, scale1, signBit

    // *** Compute the final results by scaling, adding, then storing
    vshufps      ymmR6, scale0, scale0, 0x00
    vshufps      ymmR7, scale1, scale1, 0x00
    vmulps       ymmR0, ymmR6, fromX
    vmulps       ymmR1, ymmR7, toX
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 0 and 1 results
    vmovaps      [pResults+i/8*32+32], ymmR2

    vshufps      ymmR6, scale0, scale0, 0x55
    vshufps      ymmR7, scale1, scale1, 0x55
    vmulps       ymmR0, ymmR6, fromY
    vmulps       ymmR1, ymmR7, toY
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 2 and 3 results
    vmovaps      [pResults+i/8*32+2*4+32], ymmR2

    vshufps      ymmR6, scale0, scale0, 0xaa
    vshufps      ymmR7, scale1, scale1, 0xaa
    vmulps       ymmR0, ymmR6, fromZ
    vmulps       ymmR1, ymmR7, toZ
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 4 and 5 results
    vmovaps      [pResults+i/8*32+4*4+32], ymmR2

    vshufps      ymmR6, scale0, scale0, 0xff
    vshufps      ymmR7, scale1, scale1, 0xff
    vmulps       ymmR0, ymmR6, fromW
    vmulps       ymmR1, ymmR7, toW
    vaddps       ymmR2, ymmR0, ymmR1                    // ymmR2 has all the quat 6 and 7 results
    vmovaps      [pResults+i/8*32+6*4+32], ymmR2

    add          rax, 16*16                     // ... i += 16)
    cmp          rax, rcx
    jl           loopQuat16
loopDone:
    //@ D3 insert: vzeroupper
