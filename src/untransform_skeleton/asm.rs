//! `UntransformSkeleton` of Appendix B in `asm!`: the paper's SSE listing,
//! instruction for instruction.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! original listing.
//!
//! The single `asm!` block below is `asm_notes/untransform_skeleton.listing.s`
//! (the 60 instructions of Appendix B, 48 of them in `loopJoint`) in the
//! listing's order and with the listing's xmm registers. Operand forms change
//! as the translation rules of `asm_notes/README.md` say (deviation D0 of
//! `asm_notes/untransform_skeleton.md`):
//!
//! - the parameters come in registers (`mov edx, {first:e}`, `mov rsi,
//!   {mats}`); the 32-bit registers that form addresses become 64-bit where
//!   their value can be negative or must carry into the upper half (`add rdi,
//!   rdx`, `sub rcx, JOINTMAT_SIZE`, `sub rax, 4`, `lea rdx, [rdx+rdx*2]`,
//!   `shl rdx, 4`, `[rsi+rcx+...]`); `sub eax, edx` / `jl done` stays 32-bit
//!   (a signed comparison of the two `int` parameters), and so do the shifts
//!   of the non-negative `lastJoint`, `firstJoint` and `lastJoint -
//!   firstJoint`, which zero-extend;
//! - the labels are numeric: `2` loopJoint, `9` done.
//!
//! One instruction changes (deviation D1): the parent load `mov edx,
//! [edi+eax]` becomes `movsxd rdx, dword ptr [rdi+rax]`, because `parents`
//! holds `int`s that can be negative (`-1` for a root) and the value feeds a
//! 64-bit address. Nothing is added, dropped or reordered, and every xmm
//! register is the listing's (`tests/disasm.rs` checks the built code).

use core::arch::asm;

use crate::types::{JOINTMAT_SIZE, JointMat};
use crate::x86::shuffle::r_shuffle_d;

/// `UntransformSkeleton` (Appendix B): for `i` from `last_joint` down to
/// `first_joint`, `jointMats[i] = Rp^T (jointMats[i] - tp)` with `[Rp | tp] =
/// jointMats[parents[i]]`, in place, with the paper's SSE listing: global
/// joint matrices back to local ones, the inverse of `TransformSkeleton` when
/// the parents' rotations are orthonormal (the listing multiplies by the
/// transpose).
///
/// `first_joint > last_joint`, compared as signed 32-bit integers (`sub eax,
/// edx` / `jl done`), does nothing. Each joint reads its parent's three rows
/// before it stores any of its own.
///
/// # Safety
///
/// If `first_joint <= last_joint`:
/// - `joint_mats` is 16-byte aligned, `0 <= first_joint` and
///   `joint_mats.add(i)` is valid for reads and writes of a [`JointMat`] for
///   every `i` in `first_joint..=last_joint`;
/// - `last_joint * JOINTMAT_SIZE < 2^32`, so the listing's 32-bit `lea ecx,
///   [ecx+ecx*2]` / `shl ecx, 4` are exact ([`super::MAX_JOINTS`]
///   keeps it);
/// - `parents.add(i)` is readable for every such `i`, and `parents[i]` is
///   non-negative with `joint_mats.add(parents[i])` valid for reads. The
///   paper's semantics need `parents[i] < i` (parents first);
/// - the CPU has SSE2 (every `x86_64` CPU has).
#[inline(never)]
pub unsafe fn untransform_skeleton(joint_mats: *mut JointMat, parents: *const i32, first_joint: i32, last_joint: i32) {
    // SAFETY: if `first_joint <= last_joint` (else `jl 9f` leaves before any
    // access), the block reads `parents[first_joint..=last_joint]` (`[rdi+rax]`
    // with `rdi = parents + 4 * first_joint` and `rax` counting `4 * (i -
    // first_joint)` down to 0), for each such `i` reads the 48 bytes of
    // joint `parents[i]` (`[rsi+rdx+0..48]`, `rdx = parents[i] * 48`) and reads
    // and writes the 48 bytes of joint `i` (`[rsi+rcx+0..48]` with `rcx = i *
    // 48` before `sub rcx, 48`, `[rsi+rcx+48+0..48]` after): in bounds and
    // 16-byte aligned by the caller's contract, with `last_joint * 48 < 2^32`
    // keeping the 32-bit `lea`/`shl` exact. It writes only the registers
    // declared below and the flags, and does not touch the stack.
    unsafe {
        asm!(
            "mov edx, {first:e}",
            "mov eax, {last:e}",
            "mov ecx, eax",
            "sub eax, edx",
            "jl 9f",
            "mov rsi, {mats} // esi = jointMats",
            "lea ecx, [rcx + rcx*2] // ecx = lastJoint * JOINTMAT_SIZE",
            "shl ecx, 4",
            "shl edx, 2",
            "mov rdi, {parents} // edi = &parents[firstJoint]",
            "add rdi, rdx",
            "shl eax, 2 // eax = ( lastJoint - firstJoint ) * 4",

            "2: // loopJoint",
            "movsxd rdx, dword ptr [rdi + rax]",
            "movaps xmm0, xmmword ptr [rsi + rcx + 0] // xmm0 = m0, m1, m2, t0",
            "lea rdx, [rdx + rdx*2]",
            "movaps xmm1, xmmword ptr [rsi + rcx + 16] // xmm1 = m2, m3, m4, t1",
            "shl rdx, 4 // edx = parents[i] * JOINTMAT_SIZE",
            "movaps xmm2, xmmword ptr [rsi + rcx + 32] // xmm2 = m5, m6, m7, t2",

            "movss xmm7, dword ptr [rsi + rdx + 12]",
            "pshufd xmm7, xmm7, {s1230}",
            "subps xmm0, xmm7",
            "movss xmm6, dword ptr [rsi + rdx + 28]",
            "pshufd xmm6, xmm6, {s1230}",
            "subps xmm1, xmm6",
            "movss xmm5, dword ptr [rsi + rdx + 44]",
            "pshufd xmm5, xmm5, {s1230}",
            "subps xmm2, xmm5",

            "sub rcx, {size}",
            "sub rax, 4",

            "movaps xmm7, xmmword ptr [rsi + rdx + 0]",
            "pshufd xmm3, xmm7, {s0000}",
            "mulps xmm3, xmm0",
            "pshufd xmm4, xmm7, {s1111}",
            "mulps xmm4, xmm0",
            "pshufd xmm5, xmm7, {s2222}",
            "mulps xmm5, xmm0",

            "movaps xmm7, xmmword ptr [rsi + rdx + 16]",
            "pshufd xmm0, xmm7, {s0000}",
            "mulps xmm0, xmm1",
            "addps xmm3, xmm0",
            "pshufd xmm6, xmm7, {s1111}",
            "mulps xmm6, xmm1",
            "addps xmm4, xmm6",
            "pshufd xmm0, xmm7, {s2222}",
            "mulps xmm0, xmm1",
            "addps xmm5, xmm0",

            "movaps xmm7, xmmword ptr [rsi + rdx + 32]",
            "pshufd xmm6, xmm7, {s0000}",
            "mulps xmm6, xmm2",
            "addps xmm3, xmm6",
            "movaps xmmword ptr [rsi + rcx + {size} + 0], xmm3",
            "pshufd xmm1, xmm7, {s1111}",
            "mulps xmm1, xmm2",
            "addps xmm4, xmm1",
            "movaps xmmword ptr [rsi + rcx + {size} + 16], xmm4",
            "pshufd xmm6, xmm7, {s2222}",
            "mulps xmm6, xmm2",
            "addps xmm5, xmm6",
            "movaps xmmword ptr [rsi + rcx + {size} + 32], xmm5",

            "jge 2b",
            "9: // done",
            first = in(reg) first_joint,
            last = in(reg) last_joint,
            mats = in(reg) joint_mats,
            parents = in(reg) parents,
            size = const JOINTMAT_SIZE,
            s1230 = const r_shuffle_d(1, 2, 3, 0),
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
