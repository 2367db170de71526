//! `ConvertJointMatsToJointQuats` of Appendix B in `asm!`: the paper's SSE
//! listing, instruction for instruction.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! original listing.
//!
//! The single `asm!` block below is `asm_notes/mats_to_quats.listing.s` (the
//! 305 instructions of Appendix B: 207 in `loopMat4`, 84 in `loopMat1`) in
//! the listing's order and with the listing's xmm registers. Only operand
//! forms change, as the translation rules of `asm_notes/README.md` say:
//!
//! - the registers that form addresses are 64-bit (`add rsi, rax`,
//!   `neg rax`, `add rax, 4*JOINTMAT_SIZE`, `[rsi+rax+...]`,
//!   `[rdi+rcx*4-...]`); `mov eax, numJoints`, `and eax, ~3` / `and eax, 3`
//!   and `imul eax, eax, JOINTMAT_SIZE` stay 32-bit and zero-extend into
//!   `rax` (the count is non-negative and at most [`super::MAX_JOINTS`], so
//!   `numJoints * JOINTMAT_SIZE` is exact and below 2^31); the `movzx` of a
//!   `shuffle` byte zero-extends into `rcx` / `rdx` by itself;
//! - the `SIMD_SP_*` / `SIMD_DW_*` globals are RIP-relative
//!   (`xmmword ptr [rip + {zero}]`, `dword ptr` for the scalar `ss` forms);
//! - the stack array `shuffle` (`ALIGN16( byte shuffle[16]; )`) lives in a
//!   16-byte-aligned `Scratch` struct addressed through `{s}`;
//! - `numJoints`, which the listing reads twice from memory, is a register
//!   operand (`{n:e}`), as in the other ports;
//! - the labels are numeric: `2` loopMat4, `3` done4, `4` loopMat1,
//!   `5` done1.
//!
//! There is no other deviation: no instruction added, dropped, reordered or
//! given another xmm register (`tests/disasm.rs` checks the built code).

use core::arch::asm;
use core::mem::offset_of;

use crate::consts::{
    SIMD_DW_MAT2QUAT_SHUFFLE0, SIMD_DW_MAT2QUAT_SHUFFLE1, SIMD_DW_MAT2QUAT_SHUFFLE2, SIMD_DW_MAT2QUAT_SHUFFLE3,
    SIMD_SP_MAT2QUAT_RSQRT_C1, SIMD_SP_NOT, SIMD_SP_ONE, SIMD_SP_RSQRT_C0, SIMD_SP_SIGN_BIT, SIMD_SP_ZERO,
};
use crate::types::{JOINTMAT_SIZE, JOINTQUAT_SIZE, JointMat, JointQuat};
use crate::x86::shuffle::r_shuffle_ps;

/// The listing's stack local `shuffle`, 16-byte aligned (`ALIGN16( byte
/// shuffle[16]; )`), which the `asm!` addresses as `[{s} + {shuffle}]`.
#[repr(C, align(16))]
struct Scratch {
    /// `shuffle`: the store indices `k0..k3` of four joints, one byte each,
    /// four bytes per joint (written by `movaps shuffle, xmm4`, read back by
    /// `movzx ecx, byte ptr shuffle[j*4+k]`).
    shuffle: [u8; 16],
}

const _: () = assert!(offset_of!(Scratch, shuffle) % 16 == 0);

/// `ConvertJointMatsToJointQuats` (Appendix B): for each of `num_joints`
/// joints, the quaternion of the rotation part of `joint_mats[i]` (the
/// paper's transposed convention, see [`crate::mats_to_quats`](mod@crate::mats_to_quats)) and its
/// translation, with `q[7] = 0`, with the paper's SSE listing.
///
/// `loopMat4` converts four matrices per iteration: it gathers the four
/// diagonals into xmm5..xmm7, evaluates the three conditions with
/// `cmpnltps` (`>=`, and true on NaN, where the C tests `>`), turns them
/// into four exclusive masks, selects the store order `k0..k3` of each joint
/// from `SIMD_DW_mat2quatShuffle0..3` into the byte array `shuffle` and the
/// sign bits `s0..s2`, and computes `t` and `s = rsqrt(t) / 2` (`rsqrtps`
/// and one Newton-Raphson step) four-wide; the off-diagonal part is scalar,
/// one joint after the other, storing through the `shuffle` bytes.
/// `loopMat1` does the remaining `num_joints % 4` joints one at a time with
/// the same sequence in `ss` form.
///
/// Every byte of `shuffle` is in `0..4` whatever the input (NaN included):
/// the four masks are exclusive and cover all cases, and each constant
/// holds a permutation of `0..4`. So the stores stay inside the joint.
///
/// # Safety
///
/// - `joint_quats` is valid for writes and `joint_mats` for reads of
///   `num_joints` elements, and the two lists do not overlap (no alignment
///   is assumed beyond the types' own: the listing reads and writes the
///   lists with `movss` and `mov` only);
/// - `0 <= num_joints <= super::MAX_JOINTS`, so the listing's 32-bit
///   `imul eax, JOINTMAT_SIZE` is exact;
/// - the CPU has SSE (every `x86_64` CPU has).
#[inline(never)]
pub unsafe fn mats_to_quats(joint_quats: *mut JointQuat, joint_mats: *const JointMat, num_joints: i32) {
    let mut scratch = Scratch { shuffle: [0; 16] };

    // SAFETY: with `n = num_joints` (0 <= n <= MAX_JOINTS, so `n * 48` fits
    // in 31 bits), loopMat4 reads `joint_mats[0..n & !3]` and loopMat1
    // `joint_mats[n & !3..n]`: `rsi` is the end of the block, `rax` runs from
    // `-48 * count` up to, not including, 0, and every displacement is inside
    // a `JointMat` (at most `3*48 + 2*16 + 3*4`). The stores go to
    // `rdi - 4*32 .. rdi` (loopMat4, after `add rdi, 4*JOINTQUAT_SIZE`) or
    // `rdi - 32 .. rdi` (loopMat1), where `rdi` advances from `joint_quats`
    // by one joint per joint converted: `joint_quats[0..n]`, in bounds; the
    // quaternion stores `[rdi + k*4 - ...]` use a `shuffle` byte `k` in
    // `0..4` (see above). All accesses are 4-byte; the lists are only as
    // aligned as their types, which is all `movss`/`mov` need. The block
    // reads the `SIMD_*` statics (16-byte aligned, 'static) and reads and
    // writes `scratch` (a local, 16-byte aligned, `movaps` in bounds). It
    // writes only the registers declared below and the flags, and does not
    // touch the stack.
    unsafe {
        asm!(
            "mov eax, {n:e}",
            "mov rsi, {mats}",
            "mov rdi, {quats}",
            "and eax, ~3",
            "jz 3f",
            "imul eax, eax, {ms}",
            "add rsi, rax",
            "neg rax",

            "2: // loopMat4",
            "movss xmm5, dword ptr [rsi + rax + 3*{ms} + 0*16 + 0*4]",
            "movss xmm6, dword ptr [rsi + rax + 3*{ms} + 1*16 + 1*4]",
            "movss xmm7, dword ptr [rsi + rax + 3*{ms} + 2*16 + 2*4]",

            "shufps xmm5, xmm5, {s3012}",
            "shufps xmm6, xmm6, {s3012}",
            "shufps xmm7, xmm7, {s3012}",

            "movss xmm0, dword ptr [rsi + rax + 2*{ms} + 0*16 + 0*4]",
            "movss xmm1, dword ptr [rsi + rax + 2*{ms} + 1*16 + 1*4]",
            "movss xmm2, dword ptr [rsi + rax + 2*{ms} + 2*16 + 2*4]",

            "movss xmm5, xmm0",
            "movss xmm6, xmm1",
            "movss xmm7, xmm2",

            "shufps xmm5, xmm5, {s3012}",
            "shufps xmm6, xmm6, {s3012}",
            "shufps xmm7, xmm7, {s3012}",

            "movss xmm0, dword ptr [rsi + rax + 1*{ms} + 0*16 + 0*4]",
            "movss xmm1, dword ptr [rsi + rax + 1*{ms} + 1*16 + 1*4]",
            "movss xmm2, dword ptr [rsi + rax + 1*{ms} + 2*16 + 2*4]",

            "movss xmm5, xmm0",
            "movss xmm6, xmm1",
            "movss xmm7, xmm2",

            "shufps xmm5, xmm5, {s3012}",
            "shufps xmm6, xmm6, {s3012}",
            "shufps xmm7, xmm7, {s3012}",

            "movss xmm0, dword ptr [rsi + rax + 0*{ms} + 0*16 + 0*4]",
            "movss xmm1, dword ptr [rsi + rax + 0*{ms} + 1*16 + 1*4]",
            "movss xmm2, dword ptr [rsi + rax + 0*{ms} + 2*16 + 2*4]",

            "movss xmm5, xmm0",
            "movss xmm6, xmm1",
            "movss xmm7, xmm2",

            // -----

            "movaps xmm0, xmm5",
            "addps xmm0, xmm6",
            "addps xmm0, xmm7",
            "cmpnltps xmm0, xmmword ptr [rip + {zero}] // xmm0 = m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f",

            "movaps xmm1, xmm5",
            "movaps xmm2, xmm5",
            "cmpnltps xmm1, xmm6",
            "cmpnltps xmm2, xmm7",
            "andps xmm2, xmm1 // xmm2 = m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2]",

            "movaps xmm4, xmm6",
            "cmpnltps xmm4, xmm7 // xmm4 = m[1 * 4 + 1] > m[2 * 4 + 2]",

            "movaps xmm1, xmm0",
            "andnps xmm1, xmm2",
            "orps xmm2, xmm0",
            "movaps xmm3, xmm2",
            "andnps xmm2, xmm4",
            "orps xmm3, xmm2",
            "xorps xmm3, xmmword ptr [rip + {not}]",

            "andps xmm0, xmmword ptr [rip + {shuffle0}]",
            "movaps xmm4, xmm1",
            "andps xmm4, xmmword ptr [rip + {shuffle1}]",
            "orps xmm0, xmm4",
            "movaps xmm4, xmm2",
            "andps xmm4, xmmword ptr [rip + {shuffle2}]",
            "orps xmm0, xmm4",
            "movaps xmm4, xmm3",
            "andps xmm4, xmmword ptr [rip + {shuffle3}]",
            "orps xmm4, xmm0",
            "movaps xmmword ptr [{s} + {shuffle}], xmm4",

            "movaps xmm0, xmm2",
            "orps xmm0, xmm3 // xmm0 = xmm2 | xmm3 = s0",
            "orps xmm2, xmm1 // xmm2 = xmm1 | xmm2 = s2",
            "orps xmm1, xmm3 // xmm1 = xmm1 | xmm3 = s1",

            "andps xmm0, xmmword ptr [rip + {sign_bit}]",
            "andps xmm1, xmmword ptr [rip + {sign_bit}]",
            "andps xmm2, xmmword ptr [rip + {sign_bit}]",

            "xorps xmm5, xmm0",
            "xorps xmm6, xmm1",
            "xorps xmm7, xmm2",
            "addps xmm5, xmm6",
            "addps xmm7, xmmword ptr [rip + {one}]",
            "addps xmm5, xmm7 // xmm5 = t",

            "movaps xmm7, xmm5 // xmm7 = t",

            "rsqrtps xmm6, xmm5",
            "mulps xmm5, xmm6",
            "mulps xmm5, xmm6",
            "subps xmm5, xmmword ptr [rip + {rsqrt_c0}]",
            "mulps xmm6, xmmword ptr [rip + {rsqrt_c1}]",
            "mulps xmm6, xmm5 // xmm6 = s",

            "mulps xmm7, xmm6 // xmm7 = s * t",
            "xorps xmm6, xmmword ptr [rip + {sign_bit}] // xmm6 = -s",

            // -----

            "add rdi, 4*{qs}",

            "movzx ecx, byte ptr [{s} + {shuffle} + 0*4+0] // ecx = k0",
            "movss dword ptr [rdi + rcx*4 - 4*{qs}], xmm7 // q[k0] = s * t;",

            "movzx edx, byte ptr [{s} + {shuffle} + 0*4+1] // edx = k1",
            "movss xmm4, dword ptr [rsi + rax + 0*{ms} + 1*16 + 0*4]",
            "xorps xmm4, xmm2",
            "subss xmm4, dword ptr [rsi + rax + 0*{ms} + 0*16 + 1*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 4*{qs}], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;",

            "movzx ecx, byte ptr [{s} + {shuffle} + 0*4+2] // ecx = k2",
            "movss xmm3, dword ptr [rsi + rax + 0*{ms} + 0*16 + 2*4]",
            "xorps xmm3, xmm1",
            "subss xmm3, dword ptr [rsi + rax + 0*{ms} + 2*16 + 0*4]",
            "mulss xmm3, xmm6",
            "movss dword ptr [rdi + rcx*4 - 4*{qs}], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;",

            "movzx edx, byte ptr [{s} + {shuffle} + 0*4+3] // edx = k3",
            "movss xmm4, dword ptr [rsi + rax + 0*{ms} + 2*16 + 1*4]",
            "xorps xmm4, xmm0",
            "subss xmm4, dword ptr [rsi + rax + 0*{ms} + 1*16 + 2*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 4*{qs}], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;",

            "mov ecx, dword ptr [rsi + rax + 0*{ms} + 0*16 + 3*4]",
            "mov dword ptr [rdi - 4*{qs} + 16], ecx // q[4] = m[0 * 4 + 3];",
            "mov edx, dword ptr [rsi + rax + 0*{ms} + 1*16 + 3*4]",
            "mov dword ptr [rdi - 4*{qs} + 20], edx // q[5] = m[1 * 4 + 3];",
            "mov ecx, dword ptr [rsi + rax + 0*{ms} + 2*16 + 3*4]",
            "mov dword ptr [rdi - 4*{qs} + 24], ecx // q[6] = m[2 * 4 + 3];",
            "mov dword ptr [rdi - 4*{qs} + 28], 0 // q[7] = 0.0f;",

            "shufps xmm6, xmm6, {s1230}",
            "shufps xmm7, xmm7, {s1230}",
            "shufps xmm0, xmm0, {s1230}",
            "shufps xmm1, xmm1, {s1230}",
            "shufps xmm2, xmm2, {s1230}",

            "movzx ecx, byte ptr [{s} + {shuffle} + 1*4+0] // ecx = k0",
            "movss dword ptr [rdi + rcx*4 - 3*{qs}], xmm7 // q[k0] = s * t;",

            "movzx edx, byte ptr [{s} + {shuffle} + 1*4+1] // edx = k1",
            "movss xmm4, dword ptr [rsi + rax + 1*{ms} + 1*16 + 0*4]",
            "xorps xmm4, xmm2",
            "subss xmm4, dword ptr [rsi + rax + 1*{ms} + 0*16 + 1*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 3*{qs}], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;",

            "movzx ecx, byte ptr [{s} + {shuffle} + 1*4+2] // ecx = k2",
            "movss xmm3, dword ptr [rsi + rax + 1*{ms} + 0*16 + 2*4]",
            "xorps xmm3, xmm1",
            "subss xmm3, dword ptr [rsi + rax + 1*{ms} + 2*16 + 0*4]",
            "mulss xmm3, xmm6",
            "movss dword ptr [rdi + rcx*4 - 3*{qs}], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;",

            "movzx edx, byte ptr [{s} + {shuffle} + 1*4+3] // edx = k3",
            "movss xmm4, dword ptr [rsi + rax + 1*{ms} + 2*16 + 1*4]",
            "xorps xmm4, xmm0",
            "subss xmm4, dword ptr [rsi + rax + 1*{ms} + 1*16 + 2*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 3*{qs}], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;",

            "mov ecx, dword ptr [rsi + rax + 1*{ms} + 0*16 + 3*4]",
            "mov dword ptr [rdi - 3*{qs} + 16], ecx // q[4] = m[0 * 4 + 3];",
            "mov edx, dword ptr [rsi + rax + 1*{ms} + 1*16 + 3*4]",
            "mov dword ptr [rdi - 3*{qs} + 20], edx // q[5] = m[1 * 4 + 3];",
            "mov ecx, dword ptr [rsi + rax + 1*{ms} + 2*16 + 3*4]",
            "mov dword ptr [rdi - 3*{qs} + 24], ecx // q[6] = m[2 * 4 + 3];",
            "mov dword ptr [rdi - 3*{qs} + 28], 0 // q[7] = 0.0f;",

            "shufps xmm6, xmm6, {s1230}",
            "shufps xmm7, xmm7, {s1230}",
            "shufps xmm0, xmm0, {s1230}",
            "shufps xmm1, xmm1, {s1230}",
            "shufps xmm2, xmm2, {s1230}",

            "movzx ecx, byte ptr [{s} + {shuffle} + 2*4+0] // ecx = k0",
            "movss dword ptr [rdi + rcx*4 - 2*{qs}], xmm7 // q[k0] = s * t;",

            "movzx edx, byte ptr [{s} + {shuffle} + 2*4+1] // edx = k1",
            "movss xmm4, dword ptr [rsi + rax + 2*{ms} + 1*16 + 0*4]",
            "xorps xmm4, xmm2",
            "subss xmm4, dword ptr [rsi + rax + 2*{ms} + 0*16 + 1*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 2*{qs}], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;",

            "movzx ecx, byte ptr [{s} + {shuffle} + 2*4+2] // ecx = k2",
            "movss xmm3, dword ptr [rsi + rax + 2*{ms} + 0*16 + 2*4]",
            "xorps xmm3, xmm1",
            "subss xmm3, dword ptr [rsi + rax + 2*{ms} + 2*16 + 0*4]",
            "mulss xmm3, xmm6",
            "movss dword ptr [rdi + rcx*4 - 2*{qs}], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;",

            "movzx edx, byte ptr [{s} + {shuffle} + 2*4+3] // edx = k3",
            "movss xmm4, dword ptr [rsi + rax + 2*{ms} + 2*16 + 1*4]",
            "xorps xmm4, xmm0",
            "subss xmm4, dword ptr [rsi + rax + 2*{ms} + 1*16 + 2*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 2*{qs}], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;",

            "mov ecx, dword ptr [rsi + rax + 2*{ms} + 0*16 + 3*4]",
            "mov dword ptr [rdi - 2*{qs} + 16], ecx // q[4] = m[0 * 4 + 3];",
            "mov edx, dword ptr [rsi + rax + 2*{ms} + 1*16 + 3*4]",
            "mov dword ptr [rdi - 2*{qs} + 20], edx // q[5] = m[1 * 4 + 3];",
            "mov ecx, dword ptr [rsi + rax + 2*{ms} + 2*16 + 3*4]",
            "mov dword ptr [rdi - 2*{qs} + 24], ecx // q[6] = m[2 * 4 + 3];",
            "mov dword ptr [rdi - 2*{qs} + 28], 0 // q[7] = 0.0f;",

            "shufps xmm6, xmm6, {s1230}",
            "shufps xmm7, xmm7, {s1230}",
            "shufps xmm0, xmm0, {s1230}",
            "shufps xmm1, xmm1, {s1230}",
            "shufps xmm2, xmm2, {s1230}",

            "movzx ecx, byte ptr [{s} + {shuffle} + 3*4+0] // ecx = k0",
            "movss dword ptr [rdi + rcx*4 - 1*{qs}], xmm7 // q[k0] = s * t;",

            "movzx edx, byte ptr [{s} + {shuffle} + 3*4+1] // edx = k1",
            "movss xmm4, dword ptr [rsi + rax + 3*{ms} + 1*16 + 0*4]",
            "xorps xmm4, xmm2",
            "subss xmm4, dword ptr [rsi + rax + 3*{ms} + 0*16 + 1*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 1*{qs}], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;",

            "movzx ecx, byte ptr [{s} + {shuffle} + 3*4+2] // ecx = k2",
            "movss xmm3, dword ptr [rsi + rax + 3*{ms} + 0*16 + 2*4]",
            "xorps xmm3, xmm1",
            "subss xmm3, dword ptr [rsi + rax + 3*{ms} + 2*16 + 0*4]",
            "mulss xmm3, xmm6",
            "movss dword ptr [rdi + rcx*4 - 1*{qs}], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;",

            "movzx edx, byte ptr [{s} + {shuffle} + 3*4+3] // edx = k3",
            "movss xmm4, dword ptr [rsi + rax + 3*{ms} + 2*16 + 1*4]",
            "xorps xmm4, xmm0",
            "subss xmm4, dword ptr [rsi + rax + 3*{ms} + 1*16 + 2*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 1*{qs}], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;",

            "mov ecx, dword ptr [rsi + rax + 3*{ms} + 0*16 + 3*4]",
            "mov dword ptr [rdi - 1*{qs} + 16], ecx // q[4] = m[0 * 4 + 3];",
            "mov edx, dword ptr [rsi + rax + 3*{ms} + 1*16 + 3*4]",
            "mov dword ptr [rdi - 1*{qs} + 20], edx // q[5] = m[1 * 4 + 3];",
            "mov ecx, dword ptr [rsi + rax + 3*{ms} + 2*16 + 3*4]",
            "mov dword ptr [rdi - 1*{qs} + 24], ecx // q[6] = m[2 * 4 + 3];",
            "mov dword ptr [rdi - 1*{qs} + 28], 0 // q[7] = 0.0f;",

            "add rax, 4*{ms}",
            "jl 2b",

            "3: // done4",
            "mov eax, {n:e}",
            "and eax, 3",
            "jz 5f",
            "imul eax, eax, {ms}",
            "add rsi, rax",
            "neg rax",

            "4: // loopMat1",
            "movss xmm5, dword ptr [rsi + rax + 0*{ms} + 0*16 + 0*4]",
            "movss xmm6, dword ptr [rsi + rax + 0*{ms} + 1*16 + 1*4]",
            "movss xmm7, dword ptr [rsi + rax + 0*{ms} + 2*16 + 2*4]",

            // -----

            "movaps xmm0, xmm5",
            "addss xmm0, xmm6",
            "addss xmm0, xmm7",
            "cmpnltss xmm0, dword ptr [rip + {zero}] // xmm0 = m[0 * 4 + 0] + m[1 * 4 + 1] + m[2 * 4 + 2] > 0.0f",

            "movaps xmm1, xmm5",
            "movaps xmm2, xmm5",
            "cmpnltss xmm1, xmm6",
            "cmpnltss xmm2, xmm7",
            "andps xmm2, xmm1 // xmm2 = m[0 * 4 + 0] > m[1 * 4 + 1] && m[0 * 4 + 0] > m[2 * 4 + 2]",

            "movaps xmm4, xmm6",
            "cmpnltss xmm4, xmm7 // xmm3 = m[1 * 4 + 1] > m[2 * 4 + 2]",

            "movaps xmm1, xmm0",
            "andnps xmm1, xmm2",
            "orps xmm2, xmm0",
            "movaps xmm3, xmm2",
            "andnps xmm2, xmm4",
            "orps xmm3, xmm2",
            "xorps xmm3, xmmword ptr [rip + {not}]",

            "andps xmm0, xmmword ptr [rip + {shuffle0}]",
            "movaps xmm4, xmm1",
            "andps xmm4, xmmword ptr [rip + {shuffle1}]",
            "orps xmm0, xmm4",
            "movaps xmm4, xmm2",
            "andps xmm4, xmmword ptr [rip + {shuffle2}]",
            "orps xmm0, xmm4",
            "movaps xmm4, xmm3",
            "andps xmm4, xmmword ptr [rip + {shuffle3}]",
            "orps xmm4, xmm0",
            "movss dword ptr [{s} + {shuffle}], xmm4",

            "movaps xmm0, xmm2",
            "orps xmm0, xmm3 // xmm0 = xmm2 | xmm3 = s0",
            "orps xmm2, xmm1 // xmm2 = xmm1 | xmm2 = s2",
            "orps xmm1, xmm3 // xmm1 = xmm1 | xmm3 = s1",

            "andps xmm0, xmmword ptr [rip + {sign_bit}]",
            "andps xmm1, xmmword ptr [rip + {sign_bit}]",
            "andps xmm2, xmmword ptr [rip + {sign_bit}]",

            "xorps xmm5, xmm0",
            "xorps xmm6, xmm1",
            "xorps xmm7, xmm2",
            "addss xmm5, xmm6",
            "addss xmm7, dword ptr [rip + {one}]",
            "addss xmm5, xmm7 // xmm5 = t",

            "movss xmm7, xmm5 // xmm7 = t",

            "rsqrtss xmm6, xmm5",
            "mulss xmm5, xmm6",
            "mulss xmm5, xmm6",
            "subss xmm5, dword ptr [rip + {rsqrt_c0}]",
            "mulss xmm6, dword ptr [rip + {rsqrt_c1}]",
            "mulss xmm6, xmm5 // xmm5 = s",

            "mulss xmm7, xmm6 // xmm7 = s * t",
            "xorps xmm6, xmmword ptr [rip + {sign_bit}] // xmm6 = -s",

            // -----

            "movzx ecx, byte ptr [{s} + {shuffle} + 0] // ecx = k0",
            "add rdi, {qs}",
            "movss dword ptr [rdi + rcx*4 - 1*{qs}], xmm7 // q[k0] = s * t;",

            "movzx edx, byte ptr [{s} + {shuffle} + 1] // edx = k1",
            "movss xmm4, dword ptr [rsi + rax + 0*{ms} + 1*16 + 0*4]",
            "xorps xmm4, xmm2",
            "subss xmm4, dword ptr [rsi + rax + 0*{ms} + 0*16 + 1*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 1*{qs}], xmm4 // q[k1] = ( m[0 * 4 + 1] - s2 * m[1 * 4 + 0] ) * s;",

            "movzx ecx, byte ptr [{s} + {shuffle} + 2] // ecx = k2",
            "movss xmm3, dword ptr [rsi + rax + 0*{ms} + 0*16 + 2*4]",
            "xorps xmm3, xmm1",
            "subss xmm3, dword ptr [rsi + rax + 0*{ms} + 2*16 + 0*4]",
            "mulss xmm3, xmm6",
            "movss dword ptr [rdi + rcx*4 - 1*{qs}], xmm3 // q[k2] = ( m[2 * 4 + 0] - s1 * m[0 * 4 + 2] ) * s;",

            "movzx edx, byte ptr [{s} + {shuffle} + 3] // edx = k3",
            "movss xmm4, dword ptr [rsi + rax + 0*{ms} + 2*16 + 1*4]",
            "xorps xmm4, xmm0",
            "subss xmm4, dword ptr [rsi + rax + 0*{ms} + 1*16 + 2*4]",
            "mulss xmm4, xmm6",
            "movss dword ptr [rdi + rdx*4 - 1*{qs}], xmm4 // q[k3] = ( m[1 * 4 + 2] - s0 * m[2 * 4 + 1] ) * s;",

            "mov ecx, dword ptr [rsi + rax + 0*{ms} + 0*16 + 3*4]",
            "mov dword ptr [rdi - 1*{qs} + 16], ecx // q[4] = m[0 * 4 + 3];",
            "mov edx, dword ptr [rsi + rax + 0*{ms} + 1*16 + 3*4]",
            "mov dword ptr [rdi - 1*{qs} + 20], edx // q[5] = m[1 * 4 + 3];",
            "mov ecx, dword ptr [rsi + rax + 0*{ms} + 2*16 + 3*4]",
            "mov dword ptr [rdi - 1*{qs} + 24], ecx // q[6] = m[2 * 4 + 3];",
            "mov dword ptr [rdi - 1*{qs} + 28], 0 // q[7] = 0.0f;",

            "add rax, {ms}",
            "jl 4b",

            "5: // done1",

            n = in(reg) num_joints,
            mats = in(reg) joint_mats,
            quats = in(reg) joint_quats,
            s = in(reg) &mut scratch as *mut Scratch,
            shuffle = const offset_of!(Scratch, shuffle),
            ms = const JOINTMAT_SIZE,
            qs = const JOINTQUAT_SIZE,
            s3012 = const r_shuffle_ps(3, 0, 1, 2),
            s1230 = const r_shuffle_ps(1, 2, 3, 0),
            zero = sym SIMD_SP_ZERO,
            one = sym SIMD_SP_ONE,
            not = sym SIMD_SP_NOT,
            sign_bit = sym SIMD_SP_SIGN_BIT,
            shuffle0 = sym SIMD_DW_MAT2QUAT_SHUFFLE0,
            shuffle1 = sym SIMD_DW_MAT2QUAT_SHUFFLE1,
            shuffle2 = sym SIMD_DW_MAT2QUAT_SHUFFLE2,
            shuffle3 = sym SIMD_DW_MAT2QUAT_SHUFFLE3,
            rsqrt_c0 = sym SIMD_SP_RSQRT_C0,
            rsqrt_c1 = sym SIMD_SP_MAT2QUAT_RSQRT_C1,
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
            options(nostack),
        );
    }
}
