//! `TransformJoints` of Appendix C in `asm!`: the paper's SSE listing,
//! instruction for instruction.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! original listing.
//!
//! The single `asm!` block below is `asm_notes/transform_joints.listing.s`
//! (52 instructions, 41 in `loopJoint`) in the listing's order and with the
//! listing's xmm registers. The OCR of Appendix C ends inside the third row
//! of the loop; the rest of that row, `jl loopJoint` and `done:` are rebuilt
//! as `asm_notes/transform_joints.md` argues (the third row repeats the
//! first two at offset 32; `jl`, not `jle`). Only operand forms change, as
//! the translation rules of `asm_notes/README.md` say (rows D0-D2 of the deviations table in
//! `asm_notes/transform_joints.md`):
//!
//! - the registers that form addresses are 64-bit (`add rcx, rax`,
//!   `neg rax`, `add rax, JOINTMAT_SIZE`, `[rdx+rax+16]`); `mov eax,
//!   numJoints`, `test eax, eax` and `imul eax, eax, JOINTMAT_SIZE` (the
//!   three-operand spelling of MSVC's `imul eax, JOINTMAT_SIZE`) stay 32-bit
//!   and zero-extend into `rax` (`0 <= numJoints * JOINTMAT_SIZE < 2^31`);
//! - the parameters `joints1`, `joints2`, `result` come in registers (`mov
//!   rcx, {joints1}`); `SIMD_SP_clearFirstThree` is RIP-relative;
//! - the labels are numeric: `2` loopJoint, `9` done.
//!
//! There is no other deviation: no instruction added, dropped, reordered or
//! given another xmm register (`tests/disasm.rs` checks the built code).

use core::arch::asm;

use crate::consts::SIMD_SP_CLEAR_FIRST_THREE;
use crate::types::{JOINTMAT_SIZE, JointMat};
use crate::x86::shuffle::r_shuffle_d;

/// `TransformJoints` (Appendix C): `result[i] = joints1[i] * joints2[i]` for
/// the 3x4 affine joint matrices `i` in `0..num_joints`, with the paper's SSE
/// listing.
///
/// Per joint, the loop loads the three rows of `joints2[i]` (`xmm0..xmm2`),
/// then for each row of `joints1[i]` broadcasts its three rotation elements
/// with `pshufd`, multiplies them with the `joints2` rows, sums left to right,
/// adds the row's translation (lane 3, the others cleared to `+0.0` by
/// `SIMD_SP_clearFirstThree`) and stores the result row. `num_joints == 0`
/// returns at once.
///
/// # Safety
///
/// - `result`, `joints1` and `joints2` are 16-byte aligned; `joints1` and
///   `joints2` are valid for reads and `result` for writes of `num_joints`
///   [`JointMat`]s each;
/// - `0 <= num_joints <= crate::transform_joints::MAX_JOINTS`, so
///   the listing's 32-bit `imul eax, JOINTMAT_SIZE` is exact;
/// - `result` may be *exactly* `joints1` or `joints2` (in place): for each
///   joint the listing reads all three rows of `joints2[i]` before it writes
///   anything, and reads row `r` of `joints1[i]` before it writes row `r` of
///   `result[i]`, which is the only row that store changes. Any other overlap
///   of `result` with an input is not allowed (a store would change an input
///   row that is read later);
/// - the CPU has SSE2 (every `x86_64` CPU has).
#[inline(never)]
pub unsafe fn transform_joints(
    result: *mut JointMat,
    joints1: *const JointMat,
    joints2: *const JointMat,
    num_joints: i32,
) {
    // SAFETY: with `n = num_joints` (0 <= n, n * 48 < 2^31, so the 32-bit
    // `imul` is exact and zero-extends into rax), rcx, rdx and rdi point one
    // past the end of joints1, joints2 and result, and rax runs from -48 * n
    // up to, not including, 0 in steps of 48: the block reads
    // `joints2[i]` (`[rdx+rax+0/16/32]`) and `joints1[i]`
    // (`[rcx+rax-48+0/16/32]` after the `add`), and writes `result[i]`
    // (`[rdi+rax-48+0/16/32]`), 16 bytes each, 16-byte aligned, for i in
    // 0..n: in bounds and aligned by the caller's contract. In-place calls
    // are fine as the Safety section says. It reads the 16-byte-aligned
    // static `SIMD_SP_CLEAR_FIRST_THREE`, writes only the registers declared
    // below and the flags, and does not touch the stack.
    unsafe {
        asm!(
            "mov eax, {num:e}",
            "test eax, eax",
            "jz 9f",

            "mov rcx, {joints1}",
            "mov rdx, {joints2}",
            "mov rdi, {result}",

            "imul eax, eax, {size}",

            "add rcx, rax",
            "add rdx, rax",
            "add rdi, rax",

            "neg rax",

            "2: // loopJoint",
            "movaps xmm0, xmmword ptr [rdx + rax + 0]",
            "movaps xmm1, xmmword ptr [rdx + rax + 16]",
            "movaps xmm2, xmmword ptr [rdx + rax + 32]",

            "movaps xmm7, xmmword ptr [rcx + rax + 0]",
            "pshufd xmm3, xmm7, {d0000}",
            "mulps xmm3, xmm0",
            "pshufd xmm4, xmm7, {d1111}",
            "mulps xmm4, xmm1",
            "addps xmm3, xmm4",
            "add rax, {size}",
            "pshufd xmm5, xmm7, {d2222}",
            "mulps xmm5, xmm2",
            "addps xmm3, xmm5",
            "andps xmm7, xmmword ptr [rip + {clear_first_three}]",
            "addps xmm3, xmm7",
            "movaps xmmword ptr [rdi + rax - {size} + 0], xmm3",

            "movaps xmm7, xmmword ptr [rcx + rax - {size} + 16]",
            "pshufd xmm3, xmm7, {d0000}",
            "mulps xmm3, xmm0",
            "pshufd xmm4, xmm7, {d1111}",
            "mulps xmm4, xmm1",
            "addps xmm3, xmm4",
            "pshufd xmm5, xmm7, {d2222}",
            "mulps xmm5, xmm2",
            "addps xmm3, xmm5",
            "andps xmm7, xmmword ptr [rip + {clear_first_three}]",
            "addps xmm3, xmm7",
            "movaps xmmword ptr [rdi + rax - {size} + 16], xmm3",

            "movaps xmm7, xmmword ptr [rcx + rax - {size} + 32]",
            "pshufd xmm3, xmm7, {d0000}",
            "mulps xmm3, xmm0",
            "pshufd xmm4, xmm7, {d1111}",
            "mulps xmm4, xmm1",
            // The OCR of Appendix C ends here; the rest of the row and the
            // loop branch are rebuilt (asm_notes/transform_joints.md).
            "addps xmm3, xmm4",
            "pshufd xmm5, xmm7, {d2222}",
            "mulps xmm5, xmm2",
            "addps xmm3, xmm5",
            "andps xmm7, xmmword ptr [rip + {clear_first_three}]",
            "addps xmm3, xmm7",
            "movaps xmmword ptr [rdi + rax - {size} + 32], xmm3",

            // the flags of `add rax, {size}`: nothing in between writes them
            "jl 2b",

            "9: // done",
            num = in(reg) num_joints,
            joints1 = in(reg) joints1,
            joints2 = in(reg) joints2,
            result = in(reg) result,
            size = const JOINTMAT_SIZE,
            d0000 = const r_shuffle_d(0, 0, 0, 0),
            d1111 = const r_shuffle_d(1, 1, 1, 1),
            d2222 = const r_shuffle_d(2, 2, 2, 2),
            clear_first_three = sym SIMD_SP_CLEAR_FIRST_THREE,
            out("rax") _,
            out("rcx") _,
            out("rdx") _,
            out("rdi") _,
            out("xmm0") _,
            out("xmm1") _,
            out("xmm2") _,
            out("xmm3") _,
            out("xmm4") _,
            out("xmm5") _,
            out("xmm7") _,
            options(nostack),
        );
    }
}
