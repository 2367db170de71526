//! `ProcessOptimizedKernel` of Mehrotra and Hubbard, *Benefits of Intel AVX
//! for Quaternion Spherical Linear Interpolation* (Intel), in `asm!`: the
//! article's intrinsics written as the VEX instructions they name, one for
//! one, in source order.
//!
//! Port licensed under the GNU LGPL 2.1 or later. The algorithm is van
//! Waveren's SSE slerp (*Slerping Clock Cycles*, Copyright (C) 2005 Id
//! Software, Inc., written by J.M.P. van Waveren).
//!
//! The article prints C intrinsics, not assembly: there is no printed
//! listing to copy. The `asm!` block below is the sequence of
//! `asm_notes/slerp_quats.listing.s`, the instruction each intrinsic names
//! (`_mm256_mul_ps` is `vmulps`, `_mm256_castpd_ps(_mm256_unpacklo_pd(..))`
//! is `vunpcklpd`, an assignment between `__m256` variables is `vmovaps`),
//! in the article's order, so that a reader can set the article's order
//! beside what LLVM makes of the same intrinsics ([`super::intrinsics`]).
//! The loop control and the pointer set-up are the C statements around the
//! intrinsics, compiled by hand (`mov`, `and`, `shl`, `xor`, `cmp`, `add`,
//! `jge`, `jl`). The remainder loop, plain C in the article, is the Rust
//! port [`super::scalar`], called after the block.
//!
//! Register map (the article names 27 `__m256` variables; x86-64 has 16
//! ymm registers, and no more than 17 values are live at once):
//!
//! | ymm | variables |
//! |---|---|
//! | 0..7 | `ymmR0` .. `ymmR7` |
//! | 8..11 | `fromX`, `fromY`, `fromZ`, `fromW` (quaternions 0-1, 2-3, 4-5, 6-7) |
//! | 12..15 | `toX`, `toY`, `toZ`, `toW` |
//! | 7 | also `cosom` (while `ymmR7` is dead), then `sinom` |
//! | 4 | also `absCosom`, then `scale0` |
//! | 3 | also `signBit` |
//! | 6 | also `sinsqr` |
//! | 5 | also `omega`, then `scale1` |
//! | memory | `factor` (`[{s} + {factor}]`), the 17th value |
//!
//! Departures from the listing file (rows of the deviations table in
//! `asm_notes/slerp_quats.md`):
//! - D1 (`insert`): `factor` lives in the scratch block: one `vmovaps`
//!   stores the broadcast before the loop, and the two products with
//!   `factor` read it as their memory operand;
//! - D2 (`insert`, twice): `_mm256_sub_ps(allOnes, ymmR0)` has its constant
//!   as the first source, which VEX requires in a register: `vmovaps sinsqr,
//!   allOnes` loads it first;
//! - D3 (`insert`): `vzeroupper` at the end, which the compiler adds after
//!   AVX code (and the article's compiler did) and `asm!` must write out:
//!   without it the SSE code that follows (the remainder loop, the caller)
//!   pays the AVX-SSE transition;
//! - D0 (no marker: operand forms): the constants are `ymmword ptr [rip +
//!   {name}]` operands (the `AVX_*` statics of [`crate::consts`]); products
//!   of a constant or `factor` with a register (`_mm256_mul_ps(sinC0,
//!   ymmR1)`, `_mm256_mul_ps(factor, omega)`) put the memory operand second
//!   (`vmulps ymm2, ymm1, [sinC0]`), as VEX requires, which changes no bit of
//!   a non-NaN result; `pFromQuat + i/8*32 + k*4` is `[rsi + rax + 16*k]`
//!   with `rax` = 16·i bytes (`i/8*32` floats); labels are numeric.
//!
//! Two kernels come out of the one block (the macro `process_optimized_kernel!`):
//! [`slerp_quats_as_published`] and [`slerp_quats_corrected`], which binds
//! the corrected `halfPi` and `sqrtC1` and sends the Newton-Raphson product
//! to `sinom` (`vmulps ymm7, ymm0, ymm1` instead of `vmulps ymm0, ymm0,
//! ymm1`): the same instructions, one destination register different.

use core::arch::asm;
use core::mem::offset_of;

use crate::consts::{
    AVX_ALL_ONES, AVX_ATAN_C0, AVX_ATAN_C1, AVX_ATAN_C2, AVX_ATAN_C3, AVX_ATAN_C4, AVX_ATAN_C5, AVX_ATAN_C6,
    AVX_ATAN_C7, AVX_CLEAR_SIGN_BIT, AVX_HALF_PI, AVX_HALF_PI_CORRECTED, AVX_SET_SIGN_BIT, AVX_SIN_C0, AVX_SIN_C1,
    AVX_SIN_C2, AVX_SIN_C3, AVX_SIN_C4, AVX_SQRT_C0, AVX_SQRT_C1, AVX_SQRT_C1_CORRECTED, AVX_TINY, Align32,
};
use crate::types::Quat;

use super::scalar::{remainder_loop_as_published, remainder_loop_corrected};

/// The memory the block addresses besides the arrays and the constants:
/// `factor`, spilled (D1), and `g_factor`, the parameter that
/// `_mm256_broadcast_ss(&g_factor)` reads from memory.
#[repr(C, align(32))]
struct Scratch {
    /// `factor` = `g_factor` in all eight lanes.
    factor: Align32<[f32; 8]>,
    /// `g_factor`.
    g_factor: f32,
}

const _: () = assert!(offset_of!(Scratch, factor) % 32 == 0);

/// The `asm!` block of both kernels: `asm_notes/slerp_quats.listing.s`.
/// `$nr_dest` is the destination of the Newton-Raphson product
/// (`_mm256_mul_ps(ymmR0, ymmR1)`): `"ymm0"` (`ymmR0`) as published,
/// `"ymm7"` (`sinom`) corrected; `$half_pi` and `$sqrt_c1` are the statics
/// bound to `halfPi` and `sqrtC1`.
///
/// The block reads `count` quaternions rounded down to a multiple of 16 from
/// `$from` and `$to` and writes as many to `$result` (`ymmword`, 32-byte
/// aligned: `[rsi/rdi/rdx + rax + 0..224]`, `rax` from 0 by 256 while below
/// 16·(count & !15)); reads the constants; reads and writes `$scratch`.
macro_rules! process_optimized_kernel {
    ($nr_dest:literal, $half_pi:path, $sqrt_c1:path, $result:expr, $from:expr, $to:expr, $count:expr, $scratch:expr) => {
        asm!(
            // Initialize data in and out pointers
            "mov rsi, {from}",                                        // pFromQuat = (float *) fromQuaternion;
            "mov rdi, {to}",                                          // pToQuat = (float *) toQuaternion;
            "mov rdx, {result}",                                      // pResults = (float *) resultQuaternion;

            // Other initializations
            "vbroadcastss ymm0, dword ptr [{s} + {g_factor}]",        // vbroadcastss factor, g_factor
            "vmovaps ymmword ptr [{s} + {factor}], ymm0",             // D1: factor lives in memory
            "mov ecx, {count:e}",                                     // int mod16QuaternionCount =
            "and ecx, 0xfffffff0",                                    //     g_quaternionCount & 0xfffffff0;
            "shl rcx, 4",                                             // (in bytes, 16 per quaternion)

            // Operate on all the quaternions
            "xor eax, eax",                                           // for(int i = 0; (rax = 16 * i)
            "cmp rax, rcx",                                           //     i < mod16QuaternionCount;
            "jge 9f",
            "2: // loopQuat16",

            // Load From-Quat 0 and Quat 1 into one register
            "vmovaps ymm8, ymmword ptr [rsi + rax]",                  // vmovaps fromX, [pFromQuat+i/8*32]
            // Load From-Quat 2 and Quat 3 into one register
            "vmovaps ymm9, ymmword ptr [rsi + rax + 32]",             // vmovaps fromY, [pFromQuat+i/8*32+2*4]
            // Load From-Quat 4 and Quat 5 into one register
            "vmovaps ymm10, ymmword ptr [rsi + rax + 64]",            // vmovaps fromZ, [pFromQuat+i/8*32+4*4]
            // Load From-Quat 6 and Quat 7 into one register
            "vmovaps ymm11, ymmword ptr [rsi + rax + 96]",            // vmovaps fromW, [pFromQuat+i/8*32+6*4]
            // Load To-Quat 0 and Quat 1 into one register
            "vmovaps ymm12, ymmword ptr [rdi + rax]",                 // vmovaps toX, [pToQuat+i/8*32]
            // Load To-Quat 2 and Quat 3 into one register
            "vmovaps ymm13, ymmword ptr [rdi + rax + 32]",            // vmovaps toY, [pToQuat+i/8*32+2*4]
            // Load To-Quat 4 and Quat 5 into one register
            "vmovaps ymm14, ymmword ptr [rdi + rax + 64]",            // vmovaps toZ, [pToQuat+i/8*32+4*4]
            // Load To-Quat 6 and Quat 7 into one register
            "vmovaps ymm15, ymmword ptr [rdi + rax + 96]",            // vmovaps toW, [pToQuat+i/8*32+6*4]

            // *** Compute product terms: fromx*tox, fromy*toy, fromz*toz, fromw*tow
            // ymmR0 = fromw1*tow1, fromz1*toz1, fromy1*toy1, fromx1*tox
            // fromw0*tow0, fromz0*toz0, fromy0*toy0, fromx0*tox0
            "vmulps ymm0, ymm8, ymm12",                               // vmulps ymmR0, fromX, toX // Quaternion 0 and 1
            "vmulps ymm1, ymm9, ymm13",                               // vmulps ymmR1, fromY, toY // Quaternion 2 and 3
            "vmulps ymm2, ymm10, ymm14",                              // vmulps ymmR2, fromZ, toZ // Quaternion 4 and 5
            "vmulps ymm3, ymm11, ymm15",                              // vmulps ymmR3, fromW, toW // Quaternion 6 and 7

            // *** Swizzle products to prepare for additions
            // Start collecting product terms (step 1 of 2)
            // Get y3, y1, x3, x1, y2, y0, x2, x0
            "vunpcklps ymm4, ymm0, ymm1",                             // vunpcklps ymmR4, ymmR0, ymmR1
            // Get w3, w1, z3, z1, w2, w0, z2, z0
            "vunpckhps ymm5, ymm0, ymm1",                             // vunpckhps ymmR5, ymmR0, ymmR1
            // Get y7, y5, x7, x5, y6, y4, x6, x4
            "vunpcklps ymm6, ymm2, ymm3",                             // vunpcklps ymmR6, ymmR2, ymmR3
            // Get w7, w5, z7, z5, w6, w4, z6, z4
            "vunpckhps ymm7, ymm2, ymm3",                             // vunpckhps ymmR7, ymmR2, ymmR3

            // Finish collecting product terms (step 2 of 2)
            // Get x7, x5, x3, x1, x6, x4, x2, x0
            "vunpcklpd ymm0, ymm4, ymm6",                             // vunpcklpd ymmR0, ymmR4, ymmR6
            // Get y7, y5, y3, y1, y6, y4, y2, y0
            "vunpckhpd ymm1, ymm4, ymm6",                             // vunpckhpd ymmR1, ymmR4, ymmR6
            // calculate first partial sum
            "vaddps ymm4, ymm0, ymm1",                                // vaddps ymmR4, ymmR0, ymmR1
            // Get z7, z5, z3, z1, z6, z4, z2, z0
            "vunpcklpd ymm2, ymm5, ymm7",                             // vunpcklpd ymmR2, ymmR5, ymmR7
            // Get w7, w5, w3, w1, w6, w4, w2, w0
            "vunpckhpd ymm3, ymm5, ymm7",                             // vunpckhpd ymmR3, ymmR5, ymmR7

            // Finish adding the terms
            // Second partial sum
            "vaddps ymm5, ymm2, ymm3",                                // vaddps ymmR5, ymmR2, ymmR3
            // Final sum
            "vaddps ymm7, ymm4, ymm5",                                // vaddps cosom, ymmR4, ymmR5

            // *** Compute the absolute value of above
            "vandps ymm4, ymm7, ymmword ptr [rip + {clear_sign_bit}]",// vandps absCosom, cosom, clearSignBit // E4: clearSignBit as intended
            // Save the sign bit, used to invert scale1 later
            "vandps ymm3, ymm7, ymmword ptr [rip + {set_sign_bit}]",  // vandps signBit, cosom, setSignBit // E4: setSignBit as intended

            // *** Compute 1.0 - (above squared)
            "vmulps ymm0, ymm4, ymm4",                                // vmulps ymmR0, absCosom, absCosom
            "vmovaps ymm6, ymmword ptr [rip + {all_ones}]",           // D2: sinsqr = allOnes
            "vsubps ymm6, ymm6, ymm0",                                // vsubps sinsqr, allOnes, ymmR0
            // Watch for very small values
            "vxorps ymm1, ymm1, ymm1",                                // vxorps ymmR1, ymmR1, ymmR1 // Zeros
            "vcmpeqps ymm1, ymm1, ymm6",                              // vcmpeqps ymmR1, ymmR1, sinsqr // E5: _mm256_cmpeq_ps, read as vcmpeqps
            "vandps ymm1, ymm1, ymmword ptr [rip + {tiny}]",          // vandps ymmR1, ymmR1, tiny // Make them tiny, not zero
            "vandps ymm6, ymm6, ymmword ptr [rip + {clear_sign_bit}]",// vandps sinsqr, sinsqr, clearSignBit // Make them positive
            "vorps ymm6, ymm6, ymm1",                                 // vorps sinsqr, sinsqr, ymmR1

            // Compute 1/(square root of above)
            "vrsqrtps ymm7, ymm6",                                    // vrsqrtps sinom, sinsqr
            "vmulps ymm0, ymm6, ymm7",                                // vmulps ymmR0, sinsqr, sinom
            "vmulps ymm0, ymm0, ymm7",                                // vmulps ymmR0, ymmR0, sinom
            "vsubps ymm0, ymm0, ymmword ptr [rip + {sqrt_c0}]",       // vsubps ymmR0, ymmR0, sqrtC0
            "vmulps ymm1, ymm7, ymmword ptr [rip + {sqrt_c1}]",       // vmulps ymmR1, sinom, sqrtC1 // E2: sqrtC1 holds RSQRT_C0 = 3.0f, not RSQRT_C1 = -0.5f
            concat!("vmulps ", $nr_dest, ", ymm0, ymm1"), // vmulps ymmR0, ymmR0, ymmR1 // E3: the refined 1/sqrt, overwritten on the next line (as published)
            "vmulps ymm0, ymm6, ymm7",                                // vmulps ymmR0, sinsqr, sinom // E3: as published, sinom is still the vrsqrtps estimate

            // *** Compute the ArcTangent (omega = arctan(sinom*sinsqr, absCosom))
            "vmovaps ymm1, ymm4",                                     // vmovaps ymmR1, absCosom
            "vminps ymm4, ymm4, ymm0",                                // vminps absCosom, absCosom, ymmR0
            "vmaxps ymm0, ymm0, ymm1",                                // vmaxps ymmR0, ymmR0, ymmR1
            "vcmpeqps ymm1, ymm1, ymm4",                              // vcmpeqps ymmR1, ymmR1, absCosom // E5
            "vrcpps ymm2, ymm0",                                      // vrcpps ymmR2, ymmR0
            "vmulps ymm0, ymm0, ymm2",                                // vmulps ymmR0, ymmR0, ymmR2
            "vmulps ymm0, ymm0, ymm2",                                // vmulps ymmR0, ymmR0, ymmR2
            "vaddps ymm2, ymm2, ymm2",                                // vaddps ymmR2, ymmR2, ymmR2
            "vsubps ymm2, ymm2, ymm0",                                // vsubps ymmR2, ymmR2, ymmR0
            "vmulps ymm4, ymm4, ymm2",                                // vmulps absCosom, absCosom, ymmR2
            "vmovaps ymm0, ymm1",                                     // vmovaps ymmR0, ymmR1 // copy the mask
            "vandps ymm0, ymm0, ymmword ptr [rip + {set_sign_bit}]",  // vandps ymmR0, ymmR0, setSignBit
            "vxorps ymm4, ymm4, ymm0",                                // vxorps absCosom, absCosom, ymmR0

            // cmp mask determines contents: Pi/2 or 0.0
            "vandps ymm1, ymm1, ymmword ptr [rip + {half_pi}]",       // vandps ymmR1, ymmR1, halfPi // E1: halfPi = 22/7/2

            // finish ArcTangent calculation
            "vmulps ymm0, ymm4, ymm4",                                // vmulps ymmR0, absCosom, absCosom
            "vmulps ymm2, ymm0, ymmword ptr [rip + {atan_c0}]",       // vmulps ymmR2, atanC0, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c1}]",       // vaddps ymmR2, ymmR2, atanC1
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c2}]",       // vaddps ymmR2, ymmR2, atanC2
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c3}]",       // vaddps ymmR2, ymmR2, atanC3
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c4}]",       // vaddps ymmR2, ymmR2, atanC4
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c5}]",       // vaddps ymmR2, ymmR2, atanC5
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c6}]",       // vaddps ymmR2, ymmR2, atanC6
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c7}]",       // vaddps ymmR2, ymmR2, atanC7
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {all_ones}]",      // vaddps ymmR2, ymmR2, allOnes
            "vmulps ymm2, ymm2, ymm4",                                // vmulps ymmR2, ymmR2, absCosom
            // Adjust by adding Pi/2 or 0.0
            "vaddps ymm5, ymm2, ymm1",                                // vaddps omega, ymmR2, ymmR1

            // *** Compute the first scale factor
            // Compute [1.0 - (move factor)]*above?
            "vmulps ymm1, ymm5, ymmword ptr [{s} + {factor}]",        // vmulps ymmR1, factor, omega
            "vsubps ymm0, ymm5, ymm1",                                // vsubps ymmR0, omega, ymmR1

            // Compute both scale factors
            // Compute sin(above)
            "vmovaps ymm1, ymm0",                                     // vmovaps ymmR1, ymmR0 // used to calculate scale0
            // Compute factor*omega
            "vmulps ymm6, ymm5, ymmword ptr [{s} + {factor}]",        // vmulps ymmR6, factor, omega
            "vmovaps ymm4, ymm6",                                     // vmovaps ymmR4, ymmR6 // used to calculate scale1
            "vmulps ymm1, ymm1, ymm1",                                // vmulps ymmR1, ymmR1, ymmR1
            "vmulps ymm4, ymm4, ymm4",                                // vmulps ymmR4, ymmR4, ymmR4 // scale1
            "vmulps ymm2, ymm1, ymmword ptr [rip + {sin_c0}]",        // vmulps ymmR2, sinC0, ymmR1
            "vmulps ymm5, ymm4, ymmword ptr [rip + {sin_c0}]",        // vmulps ymmR5, sinC0, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c1}]",        // vaddps ymmR2, ymmR2, sinC1
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c1}]",        // vaddps ymmR5, ymmR5, sinC1 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c2}]",        // vaddps ymmR2, ymmR2, sinC2
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c2}]",        // vaddps ymmR5, ymmR5, sinC2 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c3}]",        // vaddps ymmR2, ymmR2, sinC3
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c3}]",        // vaddps ymmR5, ymmR5, sinC3 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c4}]",        // vaddps ymmR2, ymmR2, sinC4
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c4}]",        // vaddps ymmR5, ymmR5, sinC4 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {all_ones}]",      // vaddps ymmR2, ymmR2, allOnes
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0 // ymmR2 has the sin(x) for eight
            "vaddps ymm5, ymm5, ymmword ptr [rip + {all_ones}]",      // vaddps ymmR5, ymmR5, allOnes // scale1
            "vmulps ymm5, ymm5, ymm6",                                // vmulps ymmR5, ymmR5, ymmR6 // ymmR5 has the sin(x) for eight

            // Compute above*sinom
            "vmulps ymm4, ymm2, ymm7",                                // vmulps scale0, ymmR2, sinom // scale0 has the first scale factor
            "vmulps ymm5, ymm5, ymm7",                                // vmulps scale1, ymmR5, sinom // scale1 has the second scale factor

            // *** invert the second scale factor if that first sum of products is negative
            "vxorps ymm5, ymm5, ymm3",                                // vxorps scale1, scale1, signBit

            // *** Compute the final results by scaling
            // Copy scale values for quat 1 and 0 to all spots in their 128-bit lane
            // ymmR6 = scale01, scale01, scale01, scale01, scale00, scale00, scale00, scale00
            "vshufps ymm6, ymm4, ymm4, 0x00",                         // vshufps ymmR6, scale0, scale0, 0x00
            // ymmR7 = scale11, scale11, scale11, scale11, scale10, scale10, scale10, scale10
            "vshufps ymm7, ymm5, ymm5, 0x00",                         // vshufps ymmR7, scale1, scale1, 0x00
            // Scale the original From quaternions 1 and 0
            "vmulps ymm0, ymm6, ymm8",                                // vmulps ymmR0, ymmR6, fromX
            // Scale the original To quaternions 1 and 0
            "vmulps ymm1, ymm7, ymm12",                               // vmulps ymmR1, ymmR7, toX
            // Add to complete the SLERP, then store results to memory.
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 0 and 1 results
            "vmovaps ymmword ptr [rdx + rax], ymm2",                  // vmovaps [pResults+i/8*32], ymmR2

            // Copy scale values for quat 3 and 2 to all spots in their 128-bit lane
            "vshufps ymm6, ymm4, ymm4, 0x55",                         // vshufps ymmR6, scale0, scale0, 0x55
            "vshufps ymm7, ymm5, ymm5, 0x55",                         // vshufps ymmR7, scale1, scale1, 0x55
            // Scale, add, and store results for quats 2 and 3
            "vmulps ymm0, ymm6, ymm9",                                // vmulps ymmR0, ymmR6, fromY
            "vmulps ymm1, ymm7, ymm13",                               // vmulps ymmR1, ymmR7, toY
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 2 and 3 results
            "vmovaps ymmword ptr [rdx + rax + 32], ymm2",             // vmovaps [pResults+i/8*32+2*4], ymmR2

            // Copy scale values for quat 5 and 4 to all spots in their 128-bit lane
            "vshufps ymm6, ymm4, ymm4, 0xaa",                         // vshufps ymmR6, scale0, scale0, 0xaa
            "vshufps ymm7, ymm5, ymm5, 0xaa",                         // vshufps ymmR7, scale1, scale1, 0xaa
            // Scale, add, and store results for quats 4 and 5
            "vmulps ymm0, ymm6, ymm10",                               // vmulps ymmR0, ymmR6, fromZ
            "vmulps ymm1, ymm7, ymm14",                               // vmulps ymmR1, ymmR7, toZ
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 4 and 5 results
            "vmovaps ymmword ptr [rdx + rax + 64], ymm2",             // vmovaps [pResults+i/8*32+4*4], ymmR2

            // Copy scale values for quat 7 and 6 to all spots in their 128-bit lane
            "vshufps ymm6, ymm4, ymm4, 0xff",                         // vshufps ymmR6, scale0, scale0, 0xff
            "vshufps ymm7, ymm5, ymm5, 0xff",                         // vshufps ymmR7, scale1, scale1, 0xff
            // Scale, add, and store results for quats 6 and 7
            "vmulps ymm0, ymm6, ymm11",                               // vmulps ymmR0, ymmR6, fromW
            "vmulps ymm1, ymm7, ymm15",                               // vmulps ymmR1, ymmR7, toW
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 6 and 7 results
            "vmovaps ymmword ptr [rdx + rax + 96], ymm2",             // vmovaps [pResults+i/8*32+6*4], ymmR2

            // Unrolled once - repeat the above for another eight quaternions
            "vmovaps ymm8, ymmword ptr [rsi + rax + 128]",            // vmovaps fromX, [pFromQuat+i/8*32+32]
            // Load From-Quat 2 and Quat 3 into one register
            "vmovaps ymm9, ymmword ptr [rsi + rax + 160]",            // vmovaps fromY, [pFromQuat+i/8*32+2*4+32]
            // Load From-Quat 4 and Quat 5 into one register
            "vmovaps ymm10, ymmword ptr [rsi + rax + 192]",           // vmovaps fromZ, [pFromQuat+i/8*32+4*4+32]
            // Load From-Quat 6 and Quat 7 into one register
            "vmovaps ymm11, ymmword ptr [rsi + rax + 224]",           // vmovaps fromW, [pFromQuat+i/8*32+6*4+32]
            // Load To-Quat 0 and Quat 1 into one register
            "vmovaps ymm12, ymmword ptr [rdi + rax + 128]",           // vmovaps toX, [pToQuat+i/8*32+32]
            // Load To-Quat 2 and Quat 3 into one register
            "vmovaps ymm13, ymmword ptr [rdi + rax + 160]",           // vmovaps toY, [pToQuat+i/8*32+2*4+32]
            // Load To-Quat 4 and Quat 5 into one register
            "vmovaps ymm14, ymmword ptr [rdi + rax + 192]",           // vmovaps toZ, [pToQuat+i/8*32+4*4+32]
            // Load To-Quat 6 and Quat 7 into one register
            "vmovaps ymm15, ymmword ptr [rdi + rax + 224]",           // vmovaps toW, [pToQuat+i/8*32+6*4+32]

            // *** Compute fromx*tox, fromy*toy, fromz*toz, fromw*tow
            "vmulps ymm0, ymm8, ymm12",                               // vmulps ymmR0, fromX, toX // Quaternion 0 and 1
            "vmulps ymm1, ymm9, ymm13",                               // vmulps ymmR1, fromY, toY // Quaternion 2 and 3
            "vmulps ymm2, ymm10, ymm14",                              // vmulps ymmR2, fromZ, toZ // Quaternion 4 and 5
            "vmulps ymm3, ymm11, ymm15",                              // vmulps ymmR3, fromW, toW // Quaternion 6 and 7

            // *** Swizzle to perform adds
            // Start collecting terms (step 1 of 2)
            // Get y3, y1, x3, x1, y2, y0, x2, x0
            "vunpcklps ymm4, ymm0, ymm1",                             // vunpcklps ymmR4, ymmR0, ymmR1
            // Get w3, w1, z3, z1, w2, w0, z2, z0
            "vunpckhps ymm5, ymm0, ymm1",                             // vunpckhps ymmR5, ymmR0, ymmR1
            // Get y7, y5, x7, x5, y6, y4, x6, x4
            "vunpcklps ymm6, ymm2, ymm3",                             // vunpcklps ymmR6, ymmR2, ymmR3
            // Get w7, w5, z7, z5, w6, w4, z6, z4
            "vunpckhps ymm7, ymm2, ymm3",                             // vunpckhps ymmR7, ymmR2, ymmR3

            // Finish collecting terms (step 2 of 2)
            // Get x7, x5, x3, x1, x6, x4, x2, x0
            "vunpcklpd ymm0, ymm4, ymm6",                             // vunpcklpd ymmR0, ymmR4, ymmR6
            // Get y7, y5, y3, y1, y6, y4, y2, y0
            "vunpckhpd ymm1, ymm4, ymm6",                             // vunpckhpd ymmR1, ymmR4, ymmR6
            "vaddps ymm4, ymm0, ymm1",                                // vaddps ymmR4, ymmR0, ymmR1
            // Get z7, z5, z3, z1, z6, z4, z2, z0
            "vunpcklpd ymm2, ymm5, ymm7",                             // vunpcklpd ymmR2, ymmR5, ymmR7
            // Get w7, w5, w3, w1, w6, w4, w2, w0
            "vunpckhpd ymm3, ymm5, ymm7",                             // vunpckhpd ymmR3, ymmR5, ymmR7

            // Finish adding the terms
            "vaddps ymm5, ymm2, ymm3",                                // vaddps ymmR5, ymmR2, ymmR3
            "vaddps ymm7, ymm4, ymm5",                                // vaddps cosom, ymmR4, ymmR5

            // *** Compute the absolute value of above
            "vandps ymm4, ymm7, ymmword ptr [rip + {clear_sign_bit}]",// vandps absCosom, cosom, clearSignBit // E4: clearSignBit as intended
            "vandps ymm3, ymm7, ymmword ptr [rip + {set_sign_bit}]",  // vandps signBit, cosom, setSignBit // Used to invert scale1 later; E4: setSignBit as intended

            // *** Compute 1.0 - (above squared)
            "vmulps ymm0, ymm4, ymm4",                                // vmulps ymmR0, absCosom, absCosom
            "vmovaps ymm6, ymmword ptr [rip + {all_ones}]",           // D2: sinsqr = allOnes
            "vsubps ymm6, ymm6, ymm0",                                // vsubps sinsqr, allOnes, ymmR0
            // Watch for very small values
            "vxorps ymm1, ymm1, ymm1",                                // vxorps ymmR1, ymmR1, ymmR1 // Zeros
            "vcmpeqps ymm1, ymm1, ymm6",                              // vcmpeqps ymmR1, ymmR1, sinsqr // E5: _mm256_cmpeq_ps, read as vcmpeqps
            "vandps ymm1, ymm1, ymmword ptr [rip + {tiny}]",          // vandps ymmR1, ymmR1, tiny // Make them tiny, not zero
            "vandps ymm6, ymm6, ymmword ptr [rip + {clear_sign_bit}]",// vandps sinsqr, sinsqr, clearSignBit // Make them positive
            "vorps ymm6, ymm6, ymm1",                                 // vorps sinsqr, sinsqr, ymmR1

            // Compute 1/(square root of above)
            "vrsqrtps ymm7, ymm6",                                    // vrsqrtps sinom, sinsqr
            "vmulps ymm0, ymm6, ymm7",                                // vmulps ymmR0, sinsqr, sinom
            "vmulps ymm0, ymm0, ymm7",                                // vmulps ymmR0, ymmR0, sinom
            "vsubps ymm0, ymm0, ymmword ptr [rip + {sqrt_c0}]",       // vsubps ymmR0, ymmR0, sqrtC0
            "vmulps ymm1, ymm7, ymmword ptr [rip + {sqrt_c1}]",       // vmulps ymmR1, sinom, sqrtC1 // E2: sqrtC1 holds RSQRT_C0 = 3.0f, not RSQRT_C1 = -0.5f
            concat!("vmulps ", $nr_dest, ", ymm0, ymm1"), // vmulps ymmR0, ymmR0, ymmR1 // E3: the refined 1/sqrt, overwritten on the next line (as published)
            "vmulps ymm0, ymm6, ymm7",                                // vmulps ymmR0, sinsqr, sinom // E3: as published, sinom is still the vrsqrtps estimate

            // *** Compute the ArcTangent (omega = arctan(sinom*sinsqr, absCosom)
            "vmovaps ymm1, ymm4",                                     // vmovaps ymmR1, absCosom
            "vminps ymm4, ymm4, ymm0",                                // vminps absCosom, absCosom, ymmR0
            "vmaxps ymm0, ymm0, ymm1",                                // vmaxps ymmR0, ymmR0, ymmR1
            "vcmpeqps ymm1, ymm1, ymm4",                              // vcmpeqps ymmR1, ymmR1, absCosom // E5
            "vrcpps ymm2, ymm0",                                      // vrcpps ymmR2, ymmR0
            "vmulps ymm0, ymm0, ymm2",                                // vmulps ymmR0, ymmR0, ymmR2
            "vmulps ymm0, ymm0, ymm2",                                // vmulps ymmR0, ymmR0, ymmR2
            "vaddps ymm2, ymm2, ymm2",                                // vaddps ymmR2, ymmR2, ymmR2
            "vsubps ymm2, ymm2, ymm0",                                // vsubps ymmR2, ymmR2, ymmR0
            "vmulps ymm4, ymm4, ymm2",                                // vmulps absCosom, absCosom, ymmR2
            "vmovaps ymm0, ymm1",                                     // vmovaps ymmR0, ymmR1 // copy the mask
            "vandps ymm0, ymm0, ymmword ptr [rip + {set_sign_bit}]",  // vandps ymmR0, ymmR0, setSignBit
            "vxorps ymm4, ymm4, ymm0",                                // vxorps absCosom, absCosom, ymmR0

            // cmp mask determines contents: Pi/2 or 0.0
            "vandps ymm1, ymm1, ymmword ptr [rip + {half_pi}]",       // vandps ymmR1, ymmR1, halfPi // E1: halfPi = 22/7/2
            "vmulps ymm0, ymm4, ymm4",                                // vmulps ymmR0, absCosom, absCosom
            "vmulps ymm2, ymm0, ymmword ptr [rip + {atan_c0}]",       // vmulps ymmR2, atanC0, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c1}]",       // vaddps ymmR2, ymmR2, atanC1
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c2}]",       // vaddps ymmR2, ymmR2, atanC2
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c3}]",       // vaddps ymmR2, ymmR2, atanC3
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c4}]",       // vaddps ymmR2, ymmR2, atanC4
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c5}]",       // vaddps ymmR2, ymmR2, atanC5
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c6}]",       // vaddps ymmR2, ymmR2, atanC6
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {atan_c7}]",       // vaddps ymmR2, ymmR2, atanC7
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0
            "vaddps ymm2, ymm2, ymmword ptr [rip + {all_ones}]",      // vaddps ymmR2, ymmR2, allOnes
            "vmulps ymm2, ymm2, ymm4",                                // vmulps ymmR2, ymmR2, absCosom
            "vaddps ymm5, ymm2, ymm1",                                // vaddps omega, ymmR2, ymmR1

            // *** Compute the first scale factor
            // Compute [1.0 - (move factor)]*above?
            "vmulps ymm1, ymm5, ymmword ptr [{s} + {factor}]",        // vmulps ymmR1, factor, omega
            "vsubps ymm0, ymm5, ymm1",                                // vsubps ymmR0, omega, ymmR1

            // Compute both scale factors
            // Compute sin(above)
            "vmovaps ymm1, ymm0",                                     // vmovaps ymmR1, ymmR0 // used to calculate scale0
            // Compute factor*omega
            "vmulps ymm6, ymm5, ymmword ptr [{s} + {factor}]",        // vmulps ymmR6, factor, omega
            "vmovaps ymm4, ymm6",                                     // vmovaps ymmR4, ymmR6 // used to calculate scale1
            "vmulps ymm1, ymm1, ymm1",                                // vmulps ymmR1, ymmR1, ymmR1
            "vmulps ymm4, ymm4, ymm4",                                // vmulps ymmR4, ymmR4, ymmR4 // scale1
            "vmulps ymm2, ymm1, ymmword ptr [rip + {sin_c0}]",        // vmulps ymmR2, sinC0, ymmR1
            "vmulps ymm5, ymm4, ymmword ptr [rip + {sin_c0}]",        // vmulps ymmR5, sinC0, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c1}]",        // vaddps ymmR2, ymmR2, sinC1
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c1}]",        // vaddps ymmR5, ymmR5, sinC1 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c2}]",        // vaddps ymmR2, ymmR2, sinC2
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c2}]",        // vaddps ymmR5, ymmR5, sinC2 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c3}]",        // vaddps ymmR2, ymmR2, sinC3
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c3}]",        // vaddps ymmR5, ymmR5, sinC3 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {sin_c4}]",        // vaddps ymmR2, ymmR2, sinC4
            "vmulps ymm2, ymm2, ymm1",                                // vmulps ymmR2, ymmR2, ymmR1
            "vaddps ymm5, ymm5, ymmword ptr [rip + {sin_c4}]",        // vaddps ymmR5, ymmR5, sinC4 // scale1
            "vmulps ymm5, ymm5, ymm4",                                // vmulps ymmR5, ymmR5, ymmR4 // scale1
            "vaddps ymm2, ymm2, ymmword ptr [rip + {all_ones}]",      // vaddps ymmR2, ymmR2, allOnes
            "vmulps ymm2, ymm2, ymm0",                                // vmulps ymmR2, ymmR2, ymmR0 // ymmR2 has the sin(x) for eight
            "vaddps ymm5, ymm5, ymmword ptr [rip + {all_ones}]",      // vaddps ymmR5, ymmR5, allOnes // scale1
            "vmulps ymm5, ymm5, ymm6",                                // vmulps ymmR5, ymmR5, ymmR6 // ymmR5 has the sin(x) for eight

            // Compute above*sinom
            "vmulps ymm4, ymm2, ymm7",                                // vmulps scale0, ymmR2, sinom // scale0 has the first scale factor
            "vmulps ymm5, ymm5, ymm7",                                // vmulps scale1, ymmR5, sinom // scale1 has the second scale factor

            // *** invert the second scale factor if
            // *** that first sum of products is negative
            "vxorps ymm5, ymm5, ymm3",                                // vxorps scale1, scale1, signBit

            // *** Compute the final results by scaling, adding, then storing
            "vshufps ymm6, ymm4, ymm4, 0x00",                         // vshufps ymmR6, scale0, scale0, 0x00
            "vshufps ymm7, ymm5, ymm5, 0x00",                         // vshufps ymmR7, scale1, scale1, 0x00
            "vmulps ymm0, ymm6, ymm8",                                // vmulps ymmR0, ymmR6, fromX
            "vmulps ymm1, ymm7, ymm12",                               // vmulps ymmR1, ymmR7, toX
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 0 and 1 results
            "vmovaps ymmword ptr [rdx + rax + 128], ymm2",            // vmovaps [pResults+i/8*32+32], ymmR2

            "vshufps ymm6, ymm4, ymm4, 0x55",                         // vshufps ymmR6, scale0, scale0, 0x55
            "vshufps ymm7, ymm5, ymm5, 0x55",                         // vshufps ymmR7, scale1, scale1, 0x55
            "vmulps ymm0, ymm6, ymm9",                                // vmulps ymmR0, ymmR6, fromY
            "vmulps ymm1, ymm7, ymm13",                               // vmulps ymmR1, ymmR7, toY
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 2 and 3 results
            "vmovaps ymmword ptr [rdx + rax + 160], ymm2",            // vmovaps [pResults+i/8*32+2*4+32], ymmR2

            "vshufps ymm6, ymm4, ymm4, 0xaa",                         // vshufps ymmR6, scale0, scale0, 0xaa
            "vshufps ymm7, ymm5, ymm5, 0xaa",                         // vshufps ymmR7, scale1, scale1, 0xaa
            "vmulps ymm0, ymm6, ymm10",                               // vmulps ymmR0, ymmR6, fromZ
            "vmulps ymm1, ymm7, ymm14",                               // vmulps ymmR1, ymmR7, toZ
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 4 and 5 results
            "vmovaps ymmword ptr [rdx + rax + 192], ymm2",            // vmovaps [pResults+i/8*32+4*4+32], ymmR2

            "vshufps ymm6, ymm4, ymm4, 0xff",                         // vshufps ymmR6, scale0, scale0, 0xff
            "vshufps ymm7, ymm5, ymm5, 0xff",                         // vshufps ymmR7, scale1, scale1, 0xff
            "vmulps ymm0, ymm6, ymm11",                               // vmulps ymmR0, ymmR6, fromW
            "vmulps ymm1, ymm7, ymm15",                               // vmulps ymmR1, ymmR7, toW
            "vaddps ymm2, ymm0, ymm1",                                // vaddps ymmR2, ymmR0, ymmR1 // ymmR2 has all the quat 6 and 7 results
            "vmovaps ymmword ptr [rdx + rax + 224], ymm2",            // vmovaps [pResults+i/8*32+6*4+32], ymmR2

            "add rax, 16*16",                                         // i += 16)
            "cmp rax, rcx",
            "jl 2b",
            "9: // loopDone",
            "vzeroupper",                                             // D3

            from = in(reg) $from,
            to = in(reg) $to,
            result = in(reg) $result,
            count = in(reg) $count,
            s = in(reg) $scratch,
            g_factor = const offset_of!(Scratch, g_factor),
            factor = const offset_of!(Scratch, factor),
            sin_c0 = sym AVX_SIN_C0,
            sin_c1 = sym AVX_SIN_C1,
            sin_c2 = sym AVX_SIN_C2,
            sin_c3 = sym AVX_SIN_C3,
            sin_c4 = sym AVX_SIN_C4,
            sqrt_c0 = sym AVX_SQRT_C0,
            sqrt_c1 = sym $sqrt_c1,
            atan_c0 = sym AVX_ATAN_C0,
            atan_c1 = sym AVX_ATAN_C1,
            atan_c2 = sym AVX_ATAN_C2,
            atan_c3 = sym AVX_ATAN_C3,
            atan_c4 = sym AVX_ATAN_C4,
            atan_c5 = sym AVX_ATAN_C5,
            atan_c6 = sym AVX_ATAN_C6,
            atan_c7 = sym AVX_ATAN_C7,
            all_ones = sym AVX_ALL_ONES,
            half_pi = sym $half_pi,
            tiny = sym AVX_TINY,
            clear_sign_bit = sym AVX_CLEAR_SIGN_BIT,
            set_sign_bit = sym AVX_SET_SIGN_BIT,
            out("rax") _,
            out("rcx") _,
            out("rdx") _,
            out("rsi") _,
            out("rdi") _,
            out("xmm0") _,
            out("xmm1") _,
            out("xmm2") _,
            out("xmm3") _,
            out("xmm4") _,
            out("xmm5") _,
            out("xmm6") _,
            out("xmm7") _,
            out("xmm8") _,
            out("xmm9") _,
            out("xmm10") _,
            out("xmm11") _,
            out("xmm12") _,
            out("xmm13") _,
            out("xmm14") _,
            out("xmm15") _,
            options(nostack),
        )
    };
}

/// `ProcessOptimizedKernel` as published, in VEX instructions:
/// `result[i] = slerp( from[i], to[i], factor )` for `0 <= i < count`,
/// sixteen quaternions per iteration, the last `count % 16` through the
/// article's scalar remainder loop. Every erratum kept; bit-identical to
/// [`super::intrinsics::slerp_quats_as_published`] (NaN payloads aside).
///
/// # Safety
///
/// - the CPU supports AVX (`is_x86_feature_detected!("avx")`): the function
///   has no `#[target_feature]`, its `asm!` block simply contains VEX
///   instructions;
/// - `count >= 0`; if `count > 0`, `from` and `to` are valid for reads and
///   `result` for writes of `count` quaternions;
/// - if `count >= 16`, all three are 32-byte aligned;
/// - `result` may be one of the inputs but must not overlap them otherwise.
#[inline(never)]
pub unsafe fn slerp_quats_as_published(result: *mut Quat, from: *const Quat, to: *const Quat, factor: f32, count: i32) {
    let mut scratch = Scratch { factor: Align32([0.0; 8]), g_factor: factor };
    let s: *mut Scratch = &mut scratch;
    // SAFETY: see `process_optimized_kernel!`: the block reads and writes
    // the first `count & !15` quaternions of the arrays (in bounds and
    // 32-byte aligned by the caller's contract; `count & !15 <= i32::MAX`,
    // so `16 * (count & !15)` fits the 64-bit `rcx`), reads the 32-byte-aligned
    // `AVX_*` statics and reads and writes `scratch` (a local, 32-byte
    // aligned). It writes only the declared registers and the flags, leaves
    // the upper ymm halves zero (`vzeroupper`) and does not touch the stack.
    // The CPU has AVX (caller's contract).
    unsafe { process_optimized_kernel!("ymm0", AVX_HALF_PI, AVX_SQRT_C1, result, from, to, count, s) };
    // Handle any remaining quaternions
    let first = (count as u32 & 0xfffffff0) as i32;
    // SAFETY: elements `first..count`, the caller's contract.
    unsafe { remainder_loop_as_published(result, from, to, factor, first, count) };
}

/// The corrected kernel in VEX instructions: [`slerp_quats_as_published`]
/// with `halfPi` = pi/2 (E1), `sqrtC1` = -0.5 (E2), the Newton-Raphson
/// product written to `sinom` (`vmulps ymm7, ymm0, ymm1`, E3) and the
/// corrected remainder loop (E6). Bit-identical to
/// [`super::intrinsics::slerp_quats_corrected`] (NaN payloads aside).
///
/// # Safety
///
/// As [`slerp_quats_as_published`].
#[inline(never)]
pub unsafe fn slerp_quats_corrected(result: *mut Quat, from: *const Quat, to: *const Quat, factor: f32, count: i32) {
    let mut scratch = Scratch { factor: Align32([0.0; 8]), g_factor: factor };
    let s: *mut Scratch = &mut scratch;
    // SAFETY: as in `slerp_quats_as_published`.
    unsafe {
        process_optimized_kernel!("ymm7", AVX_HALF_PI_CORRECTED, AVX_SQRT_C1_CORRECTED, result, from, to, count, s)
    };
    let first = (count as u32 & 0xfffffff0) as i32;
    // SAFETY: elements `first..count`, the caller's contract.
    unsafe { remainder_loop_corrected(result, from, to, factor, first, count) };
}
