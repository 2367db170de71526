//! `ConvertJointQuatsToJointMats` of Appendix A in `asm!`: the paper's
//! SSE/SSE2 listing, instruction for instruction.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! original listing.
//!
//! The single `asm!` block below is `asm_notes/quats_to_mats.listing.s` (the
//! 42 instructions of Appendix A, 35 of them in `loopQuat`) in the listing's
//! order and with the listing's xmm registers. The three row blocks are
//! rebuilt from the listing's register comments, because the OCR scrambles
//! their instruction columns (`asm_notes/quats_to_mats.md`, "Reconstruction").
//! Only operand forms change, as the translation rules of `asm_notes/README.md` say:
//!
//! - the 32-bit registers that form addresses become 64-bit (`add rsi, rax`,
//!   `neg rax`, `add rdi, JOINTMAT_SIZE`, `add rax, JOINTQUAT_SIZE`,
//!   `[rsi+rax+...]`, `[rdi-JOINTMAT_SIZE+...]`); `mov eax, numJoints` and
//!   `shl eax, JOINTQUAT_SIZE_SHIFT` stay 32-bit and zero-extend, which is
//!   exact for `0 <= numJoints <= MAX_JOINTS` (2^26);
//! - `SIMD_SP_one` and `SIMD_SP_quat2mat_x0..x2` are RIP-relative
//!   (`xmmword ptr [rip + {x0}]`, `dword ptr` for the scalar `ss` forms);
//! - `R_SHUFFLE_D` / `R_SHUFFLE_PS` immediates are `const` operands;
//! - the labels are numeric: `2` loopQuat, `3` done.
//!
//! There is no other deviation: no instruction added, dropped, reordered or
//! given another xmm register (`tests/disasm.rs` checks the built code). The
//! listing has no stack locals and reads no parameter from memory inside
//! the loop, so there is no scratch block.

use core::arch::asm;

use crate::consts::{SIMD_SP_ONE, SIMD_SP_QUAT2MAT_X0, SIMD_SP_QUAT2MAT_X1, SIMD_SP_QUAT2MAT_X2};
use crate::types::{JOINTMAT_SIZE, JOINTQUAT_Q_OFFSET, JOINTQUAT_SIZE, JOINTQUAT_SIZE_SHIFT, JOINTQUAT_T_OFFSET};
use crate::types::{JointMat, JointQuat};
use crate::x86::shuffle::{r_shuffle_d, r_shuffle_ps};

/// `ConvertJointQuatsToJointMats` (Appendix A): writes the matrix of
/// `joint_quats[i]` into `joint_mats[i]` for `i` in `0..num_joints`, with the
/// paper's SSE/SSE2 listing.
///
/// One joint per iteration of `loopQuat`: `pshufd` lays out the nine products
/// `yy2, xy2, xz2, yz2` and `zz2, wz2, wy2, wx2` (plus `xx2` with `mulss`),
/// `xorps` with `SIMD_SP_quat2mat_x0/x1/x2` flips their signs so that one
/// `subps` per row forms the first two rows, whose fourth lanes carry two
/// elements of the third, and `movhlps` + `shufps` assemble the third row.
/// Each row is one aligned 16-byte store; the translation `t.x`, `t.y`,
/// `t.z` goes into column 3 with `movss` stores (bit for bit; `t.w` is not
/// stored). The rotation is the paper's `M`, `m[0*4+1] = xy2 + wz2` (see
/// [`super`]); the diagonal is `(1 - zz2) - yy2`, `(1 - zz2) - xx2`,
/// `(1 - xx2) - yy2` (erratum E4 of `asm_notes/quats_to_mats.md`).
///
/// No instruction approximates: the result is the same on every x86-64 CPU.
///
/// # Safety
///
/// - `0 <= num_joints <= super::MAX_JOINTS` (2^26), so the listing's 32-bit
///   `shl eax, JOINTQUAT_SIZE_SHIFT` is exact (a negative count is not "no
///   joints" here: see erratum E6);
/// - if `num_joints > 0`: `joint_quats` is 16-byte aligned and valid for
///   reads of `num_joints` [`JointQuat`], `joint_mats` is 16-byte aligned and
///   valid for writes of `num_joints` [`JointMat`], and the two lists do not
///   overlap;
/// - the CPU has SSE2 (every `x86_64` CPU has).
#[inline(never)]
pub unsafe fn quats_to_mats(joint_mats: *mut JointMat, joint_quats: *const JointQuat, num_joints: i32) {
    // SAFETY: with `n = num_joints` in `0..=2^26`, `rax` runs from `-32 * n`
    // up to, not including, 0 in steps of 32 and `rsi = joint_quats + 32 * n`,
    // so the block reads `joint_quats[0..n]` (two aligned 16-byte loads per
    // joint at offsets 0 and 16); `rdi` steps through `joint_mats` by 48, and
    // the block writes `joint_mats[i]` at byte offsets 0..48 (three aligned
    // 16-byte stores at 0, 16, 32 and three 4-byte stores at 12, 28, 44) for
    // `i` in `0..n` only. In bounds and aligned by the caller's contract;
    // `n = 0` leaves at `jz` before any access. It also reads the `SIMD_SP_*`
    // statics (16-byte aligned, 'static). It writes only the registers
    // declared below and the flags, and does not touch the stack.
    unsafe {
        asm!(
            "mov eax, {n:e}",
            "shl eax, {shift}",
            "mov rsi, {quats}",
            "mov rdi, {mats}",
            "add rsi, rax",
            "neg rax",
            "jz 3f",

            "2: // loopQuat",
            "movaps xmm0, xmmword ptr [rsi + rax + {q_off}] // xmm0 = q.x, q.y, q.z, q.w",
            "movaps xmm6, xmmword ptr [rsi + rax + {t_off}] // xmm6 = t.x, t.y, t.z, t.w",
            "add rdi, {mat_size}",
            "movaps xmm1, xmm0 // xmm1 = x, y, z, w",
            "addps xmm1, xmm1 // xmm1 = x2, y2, z2, w2",
            "add rax, {quat_size}",

            // calculate the 9 products
            "pshufd xmm2, xmm0, {d1001} // xmm2 = y, x, x, y",
            "pshufd xmm3, xmm1, {d1122} // xmm3 = y2, y2, z2, z2",
            "mulps xmm2, xmm3 // xmm2 = yy2, xy2, xz2, yz2",
            "pshufd xmm4, xmm0, {d2333} // xmm4 = z, w, w, w",
            "pshufd xmm5, xmm1, {d2210} // xmm5 = z2, z2, y2, x2",
            "mulps xmm4, xmm5 // xmm4 = zz2, wz2, wy2, wx2",
            "mulss xmm0, xmm1 // xmm0 = xx2, y, z, w",

            // calculate the last two elements of the third row
            "movss xmm7, dword ptr [rip + {one}] // xmm7 = 1, 0, 0, 0",
            "subss xmm7, xmm0 // xmm7 = -xx2+1, 0, 0, 0",
            "subss xmm7, xmm2 // xmm7 = -xx2-yy2+1, 0, 0, 0",
            "shufps xmm7, xmm6, {s0123} // xmm7 = -xx2-yy2+1, 0, t.z, t.w",

            // calculate first row
            "xorps xmm2, xmmword ptr [rip + {x0}] // xmm2 = yy2, -xy2, -xz2, -yz2",
            "xorps xmm4, xmmword ptr [rip + {x1}] // xmm4 = -zz2, wz2, -wy2, -wx2",
            "addss xmm4, dword ptr [rip + {one}] // xmm4 = -zz2+1, wz2, -wy2, -wx2",
            "movaps xmm3, xmm4 // xmm3 = -zz2+1, wz2, -wy2, -wx2",
            "subps xmm3, xmm2 // xmm3 = -yy2-zz2+1, xy2+wz2, xz2-wy2, yz2-wx2",
            "movaps xmmword ptr [rdi - {mat_size} + 0*16 + 0*4], xmm3 // row0 = -yy2-zz2+1, xy2+wz2, xz2-wy2, yz2-wx2",
            "movss dword ptr [rdi - {mat_size} + 0*16 + 3*4], xmm6 // row0 = -yy2-zz2+1, xy2+wz2, xz2-wy2, t.x",

            // calculate second row
            "movss xmm2, xmm0 // xmm2 = xx2, -xy2, -xz2, -yz2",
            "xorps xmm4, xmmword ptr [rip + {x2}] // xmm4 = -zz2+1, -wz2, wy2, wx2",
            "subps xmm4, xmm2 // xmm4 = -xx2-zz2+1, xy2-wz2, xz2+wy2, yz2+wx2",
            "shufps xmm6, xmm6, {s1230} // xmm6 = t.y, t.z, t.w, t.x",
            "shufps xmm4, xmm4, {s1032} // xmm4 = xy2-wz2, -xx2-zz2+1, yz2+wx2, xz2+wy2",
            "movaps xmmword ptr [rdi - {mat_size} + 1*16 + 0*4], xmm4 // row1 = xy2-wz2, -xx2-zz2+1, yz2+wx2, xz2+wy2",
            "movss dword ptr [rdi - {mat_size} + 1*16 + 3*4], xmm6 // row1 = xy2-wz2, -xx2-zz2+1, yz2+wx2, t.y",

            // calculate third row
            "movhlps xmm3, xmm4 // xmm3 = yz2+wx2, xz2+wy2, xz2-wy2, yz2-wx2",
            "shufps xmm3, xmm7, {s1302} // xmm3 = xz2+wy2, yz2-wx2, -xx2-yy2+1, t.z",
            "movaps xmmword ptr [rdi - {mat_size} + 2*16 + 0*4], xmm3 // row2 = xz2+wy2, yz2-wx2, -xx2-yy2+1, t.z",

            "jl 2b",

            "3: // done",
            n = in(reg) num_joints,
            quats = in(reg) joint_quats,
            mats = in(reg) joint_mats,
            shift = const JOINTQUAT_SIZE_SHIFT,
            q_off = const JOINTQUAT_Q_OFFSET,
            t_off = const JOINTQUAT_T_OFFSET,
            quat_size = const JOINTQUAT_SIZE,
            mat_size = const JOINTMAT_SIZE,
            d1001 = const r_shuffle_d(1, 0, 0, 1),
            d1122 = const r_shuffle_d(1, 1, 2, 2),
            d2333 = const r_shuffle_d(2, 3, 3, 3),
            d2210 = const r_shuffle_d(2, 2, 1, 0),
            s0123 = const r_shuffle_ps(0, 1, 2, 3),
            s1230 = const r_shuffle_ps(1, 2, 3, 0),
            s1032 = const r_shuffle_ps(1, 0, 3, 2),
            s1302 = const r_shuffle_ps(1, 3, 0, 2),
            one = sym SIMD_SP_ONE,
            x0 = sym SIMD_SP_QUAT2MAT_X0,
            x1 = sym SIMD_SP_QUAT2MAT_X1,
            x2 = sym SIMD_SP_QUAT2MAT_X2,
            out("rax") _,
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
