//! `TransformSkeleton` of Appendix A in `asm!`: the paper's SSE2 listing,
//! instruction for instruction, and the paper's alternative broadcast
//! (`movss` + `shufps`, section 3) as a second kernel.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! original listing.
//!
//! [`transform_skeleton`] is `asm_notes/transform_skeleton.listing.s` (the 58
//! instructions of Appendix A, 45 in `loopJoint`) in the listing's order and
//! with the listing's xmm registers. Operand forms change as the
//! translation rules of `asm_notes/README.md` say (D0 of `asm_notes/transform_skeleton.md`):
//!
//! - `firstJoint` and `lastJoint` come in as 32-bit register operands
//!   (`mov ecx, {first:e}`); `sub eax, ecx` / `jl done` and `shl eax, 2`
//!   stay 32-bit (the count is signed, then non-negative, and 32-bit writes
//!   zero-extend);
//! - the registers that form addresses are 64-bit: `rcx` (the joint's byte
//!   offset, `lea rcx, [rcx+rcx*2]`, `add rcx, JOINTMAT_SIZE`), `rax` (`neg
//!   rax`, `add rax, 4`, which sets the flags `jle loopJoint` reads), `rdx`,
//!   `rsi`, `rdi`; `shl ecx, 2` stays 32-bit (`firstJoint >= 0`);
//! - `SIMD_SP_clearFirstThree` is RIP-relative;
//! - the labels are numeric: `2` loopJoint, `9` done.
//!
//! One mnemonic changes (D1): the parent index is loaded with `movsxd rdx,
//! dword ptr [rdi+rax]` instead of `mov edx, [edi+eax]`, so that the parent's
//! byte offset `lea rdx, [rdx+rdx*2]` / `shl rdx, 4` is formed in 64 bits
//! from the sign-extended `int`, as the 32-bit listing formed it from the
//! `int` in 32 bits. The safe function only passes parents `0 <= p < i`.
//!
//! [`transform_skeleton_movss_shufps`] is the same block with each of the
//! nine `pshufd xmmN, xmmR, R_SHUFFLE_D( k, k, k, k )` replaced by `movss
//! xmmN, [rsi+rdx+16*r+4*k]` + `shufps xmmN, xmmN, R_SHUFFLE_PS( 0, 0, 0, 0 )`
//! (D2; `asm_notes/transform_skeleton_movss_shufps.listing.s`).
//!
//! `tests/disasm.rs` checks both built kernels against their listing files.

use core::arch::asm;

use crate::consts::SIMD_SP_CLEAR_FIRST_THREE;
use crate::types::{JOINTMAT_SIZE, JointMat};
use crate::x86::shuffle::r_shuffle_d;

/// `TransformSkeleton` (Appendix A, SSE2): for `i = firstJoint ..=
/// lastJoint`, `jointMats[i] = jointMats[parents[i]] * jointMats[i]` (3x4
/// affine, parent times child), in place, with the paper's listing. Row `r`
/// of the result is `b[r][0] * row0 + b[r][1] * row1 + b[r][2] * row2 + (0,
/// 0, 0, b[r][3])` with `b` the parent and `row0..2` the child's rows; the
/// parent's scalars are spread over the lanes with `pshufd`.
///
/// `first_joint > last_joint` returns at `jl done` without reading or
/// writing memory.
///
/// # Safety
///
/// - `joint_mats` is 16-byte aligned;
/// - `0 <= first_joint` and `last_joint < crate::transform_skeleton::MAX_JOINTS`
///   (so the 32-bit `shl ecx, 2` and `shl eax, 2` are exact), or
///   `first_joint > last_joint` (nothing is accessed);
/// - `parents.add(i)` is readable for every `i` in `first_joint..=last_joint`;
/// - for every such `i`, `joint_mats.add(i)` is valid for reads and writes of
///   a [`JointMat`] and `p = parents[i]` satisfies `0 <= p` with
///   `joint_mats.add(p)` valid for reads. `p < i` gives the transform to
///   global space; `p >= i` is memory-safe and reads that joint as it is at
///   that point (`p == i`: rows already stored are read back).
/// - the CPU has SSE2 (every `x86_64` CPU has).
#[inline(never)]
pub unsafe fn transform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    // SAFETY: with `first_joint > last_joint` the block returns at `jl 9f`
    // before any memory access. Otherwise it reads `parents[first..=last]`
    // (`[rdi+rax]`, `rdi = parents + 4 * last`, `rax` from `-4 * (last -
    // first)` up to 0), and for each `i` reads and writes the three 16-byte
    // rows of `joint_mats[i]` (`[rsi+rcx-48+0/16/32]` after `add rcx, 48`,
    // `rcx = 48 * i`) and reads the three rows of `joint_mats[parents[i]]`
    // (`[rsi+rdx+0/16/32]`, `rdx = 48 * parents[i]` in 64 bits): in bounds and
    // 16-byte aligned by the caller's contract, and `last_joint <
    // MAX_JOINTS` keeps the 32-bit shifts exact. It reads
    // `SIMD_SP_CLEAR_FIRST_THREE` (16-byte aligned, 'static). It writes only
    // the registers declared below and the flags, and does not touch the
    // stack.
    unsafe {
        asm!(
            "mov ecx, {first:e}",
            "mov eax, {last:e}",
            "sub eax, ecx",
            "jl 9f",
            "shl ecx, 2 // ecx = firstJoint * 4",
            "mov rdi, {parents}",
            "add rdi, rcx // edi = &parents[firstJoint]",
            "lea rcx, [rcx+rcx*2]",
            "shl rcx, 2 // ecx = firstJoint * JOINTMAT_SIZE",
            "mov rsi, {mats} // esi = jointMats",
            "shl eax, 2 // eax = ( lastJoint - firstJoint ) * 4",
            "add rdi, rax",
            "neg rax",

            "2: // loopJoint",
            "movsxd rdx, dword ptr [rdi+rax]",
            "movaps xmm0, xmmword ptr [rsi+rcx+0] // xmm0 = m0, m1, m2, t0",
            "lea rdx, [rdx+rdx*2]",
            "movaps xmm1, xmmword ptr [rsi+rcx+16] // xmm1 = m3, m4, m5, t1",
            "shl rdx, 4 // edx = parents[i] * JOINTMAT_SIZE",
            "movaps xmm2, xmmword ptr [rsi+rcx+32] // xmm2 = m6, m7, m8, t2",

            "movaps xmm7, xmmword ptr [rsi+rdx+0]",
            "pshufd xmm4, xmm7, {s0000}",
            "mulps xmm4, xmm0",
            "pshufd xmm5, xmm7, {s1111}",
            "mulps xmm5, xmm1",
            "addps xmm4, xmm5",
            "add rcx, {size}",
            "add rax, 4",
            "pshufd xmm6, xmm7, {s2222}",
            "mulps xmm6, xmm2",
            "addps xmm4, xmm6",
            "andps xmm7, xmmword ptr [rip + {clear}]",
            "addps xmm4, xmm7",

            "movaps xmmword ptr [rsi+rcx-{size}+0], xmm4",

            "movaps xmm3, xmmword ptr [rsi+rdx+16]",
            "pshufd xmm5, xmm3, {s0000}",
            "mulps xmm5, xmm0",
            "pshufd xmm6, xmm3, {s1111}",
            "mulps xmm6, xmm1",
            "addps xmm5, xmm6",
            "pshufd xmm4, xmm3, {s2222}",
            "mulps xmm4, xmm2",
            "addps xmm5, xmm4",
            "andps xmm3, xmmword ptr [rip + {clear}]",
            "addps xmm5, xmm3",

            "movaps xmmword ptr [rsi+rcx-{size}+16], xmm5",

            "movaps xmm7, xmmword ptr [rsi+rdx+32]",
            "pshufd xmm6, xmm7, {s0000}",
            "mulps xmm6, xmm0",
            "pshufd xmm4, xmm7, {s1111}",
            "mulps xmm4, xmm1",
            "addps xmm6, xmm4",
            "pshufd xmm3, xmm7, {s2222}",
            "mulps xmm3, xmm2",
            "addps xmm6, xmm3",
            "andps xmm7, xmmword ptr [rip + {clear}]",
            "addps xmm6, xmm7",

            "movaps xmmword ptr [rsi+rcx-{size}+32], xmm6",

            "jle 2b",

            "9: // done",
            first = in(reg) first_joint,
            last = in(reg) last_joint,
            parents = in(reg) parents,
            mats = in(reg) joint_mats,
            clear = sym SIMD_SP_CLEAR_FIRST_THREE,
            size = const JOINTMAT_SIZE,
            s0000 = const r_shuffle_d(0, 0, 0, 0),
            s1111 = const r_shuffle_d(1, 1, 1, 1),
            s2222 = const r_shuffle_d(2, 2, 2, 2),
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

/// `TransformSkeleton` with the paper's other way to spread a scalar over a
/// register (section 3: `movss` + `shufps` instead of `movaps` + `pshufd`):
/// **not the paper's listing**, but Appendix A with each `pshufd xmmN, xmmR,
/// R_SHUFFLE_D( k, k, k, k )` replaced by `movss xmmN, [parent row r, lane
/// k]` + `shufps xmmN, xmmN, R_SHUFFLE_PS( 0, 0, 0, 0 )`; everything else,
/// the `movaps` of each parent row for its translation lane included, is the
/// listing's. Section 3 says which of the two is faster depends on the
/// processor and recommends timing both. Results are bit-identical to
/// [`transform_skeleton`] (the same products and sums in the same order).
///
/// # Safety
///
/// As [`transform_skeleton`].
#[inline(never)]
pub unsafe fn transform_skeleton_movss_shufps(
    joint_mats: *mut JointMat,
    parents: *const i32,
    first_joint: i32,
    last_joint: i32,
) {
    // SAFETY: as in `transform_skeleton`; the `movss` loads read 4 bytes
    // inside the parent's rows that the `movaps` loads read as well.
    unsafe {
        asm!(
            "mov ecx, {first:e}",
            "mov eax, {last:e}",
            "sub eax, ecx",
            "jl 9f",
            "shl ecx, 2 // ecx = firstJoint * 4",
            "mov rdi, {parents}",
            "add rdi, rcx // edi = &parents[firstJoint]",
            "lea rcx, [rcx+rcx*2]",
            "shl rcx, 2 // ecx = firstJoint * JOINTMAT_SIZE",
            "mov rsi, {mats} // esi = jointMats",
            "shl eax, 2 // eax = ( lastJoint - firstJoint ) * 4",
            "add rdi, rax",
            "neg rax",

            "2: // loopJoint",
            "movsxd rdx, dword ptr [rdi+rax]",
            "movaps xmm0, xmmword ptr [rsi+rcx+0] // xmm0 = m0, m1, m2, t0",
            "lea rdx, [rdx+rdx*2]",
            "movaps xmm1, xmmword ptr [rsi+rcx+16] // xmm1 = m3, m4, m5, t1",
            "shl rdx, 4 // edx = parents[i] * JOINTMAT_SIZE",
            "movaps xmm2, xmmword ptr [rsi+rcx+32] // xmm2 = m6, m7, m8, t2",

            "movaps xmm7, xmmword ptr [rsi+rdx+0]",
            "movss xmm4, dword ptr [rsi+rdx+0] // D2: pshufd xmm4, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )",
            "shufps xmm4, xmm4, {s0000}",
            "mulps xmm4, xmm0",
            "movss xmm5, dword ptr [rsi+rdx+4] // D2: pshufd xmm5, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )",
            "shufps xmm5, xmm5, {s0000}",
            "mulps xmm5, xmm1",
            "addps xmm4, xmm5",
            "add rcx, {size}",
            "add rax, 4",
            "movss xmm6, dword ptr [rsi+rdx+8] // D2: pshufd xmm6, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )",
            "shufps xmm6, xmm6, {s0000}",
            "mulps xmm6, xmm2",
            "addps xmm4, xmm6",
            "andps xmm7, xmmword ptr [rip + {clear}]",
            "addps xmm4, xmm7",

            "movaps xmmword ptr [rsi+rcx-{size}+0], xmm4",

            "movaps xmm3, xmmword ptr [rsi+rdx+16]",
            "movss xmm5, dword ptr [rsi+rdx+16] // D2: pshufd xmm5, xmm3, R_SHUFFLE_D( 0, 0, 0, 0 )",
            "shufps xmm5, xmm5, {s0000}",
            "mulps xmm5, xmm0",
            "movss xmm6, dword ptr [rsi+rdx+20] // D2: pshufd xmm6, xmm3, R_SHUFFLE_D( 1, 1, 1, 1 )",
            "shufps xmm6, xmm6, {s0000}",
            "mulps xmm6, xmm1",
            "addps xmm5, xmm6",
            "movss xmm4, dword ptr [rsi+rdx+24] // D2: pshufd xmm4, xmm3, R_SHUFFLE_D( 2, 2, 2, 2 )",
            "shufps xmm4, xmm4, {s0000}",
            "mulps xmm4, xmm2",
            "addps xmm5, xmm4",
            "andps xmm3, xmmword ptr [rip + {clear}]",
            "addps xmm5, xmm3",

            "movaps xmmword ptr [rsi+rcx-{size}+16], xmm5",

            "movaps xmm7, xmmword ptr [rsi+rdx+32]",
            "movss xmm6, dword ptr [rsi+rdx+32] // D2: pshufd xmm6, xmm7, R_SHUFFLE_D( 0, 0, 0, 0 )",
            "shufps xmm6, xmm6, {s0000}",
            "mulps xmm6, xmm0",
            "movss xmm4, dword ptr [rsi+rdx+36] // D2: pshufd xmm4, xmm7, R_SHUFFLE_D( 1, 1, 1, 1 )",
            "shufps xmm4, xmm4, {s0000}",
            "mulps xmm4, xmm1",
            "addps xmm6, xmm4",
            "movss xmm3, dword ptr [rsi+rdx+40] // D2: pshufd xmm3, xmm7, R_SHUFFLE_D( 2, 2, 2, 2 )",
            "shufps xmm3, xmm3, {s0000}",
            "mulps xmm3, xmm2",
            "addps xmm6, xmm3",
            "andps xmm7, xmmword ptr [rip + {clear}]",
            "addps xmm6, xmm7",

            "movaps xmmword ptr [rsi+rcx-{size}+32], xmm6",

            "jle 2b",

            "9: // done",
            first = in(reg) first_joint,
            last = in(reg) last_joint,
            parents = in(reg) parents,
            mats = in(reg) joint_mats,
            clear = sym SIMD_SP_CLEAR_FIRST_THREE,
            size = const JOINTMAT_SIZE,
            s0000 = const crate::x86::shuffle::r_shuffle_ps(0, 0, 0, 0),
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
