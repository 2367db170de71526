//! `SlerpJoints` of Appendix A in `asm!`: the paper's SSE listing,
//! instruction for instruction.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! original listing.
//!
//! The single `asm!` block below is `asm_notes/slerp_joints.listing.s` (the
//! 359 instructions of Appendix A, `TRANSPOSE_4x4` expanded) in the listing's
//! order and with the listing's xmm registers. Only operand forms change, as
//! the translation rules of `asm_notes/README.md` say:
//!
//! - the 32-bit registers that form addresses become 64-bit (`add rdx, rax`,
//!   `neg rax`, `add rax, 4*4`, `[rdi+rcx+...]`); the index loads
//!   `mov ecx, dword ptr [rdx+rax]` and `shl ecx, JOINTQUAT_SIZE_SHIFT` stay
//!   32-bit and zero-extend (entries are non-negative, offsets below 2^32);
//! - the `SIMD_SP_*` globals are RIP-relative (`xmmword ptr [rip + {one}]`,
//!   `dword ptr` for the scalar `ss` forms);
//! - the stack locals `jointQuat0..3`, `blendQuat0..3`, `a0..a3` and the
//!   `lerp` parameter (which the listing reads from memory six times) live
//!   in one 16-byte-aligned `Scratch` struct addressed through `{s}`;
//! - the labels are numeric: `2` loopCopy, `3` lerpJoints, `4` loopJoint4,
//!   `5` done4, `6` loopJoint1, `9` done1.
//!
//! There is no other deviation: no instruction added, dropped, reordered or
//! given another xmm register (`tests/disasm.rs` checks the built code).

use core::arch::asm;
use core::mem::offset_of;

use crate::consts::{
    Align16, SIMD_SP_ABS_MASK, SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4,
    SIMD_SP_ATAN_C5, SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_ONE, SIMD_SP_RSQRT_C0,
    SIMD_SP_RSQRT_C1, SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0, SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4,
    SIMD_SP_TINY, SIMD_SP_ZERO,
};
use crate::types::{JOINTQUAT_Q_OFFSET, JOINTQUAT_SIZE_SHIFT, JOINTQUAT_T_OFFSET, JointQuat};
use crate::x86::shuffle::r_shuffle_ps;

/// The listing's stack locals and its memory copy of `lerp`, in one
/// 16-byte-aligned block that the `asm!` addresses as `[{s} + offset]`.
#[repr(C, align(16))]
struct Scratch {
    /// `jointQuat0..3`: the four joints' quaternions, transposed (x, y, z, w
    /// of four joints per register).
    joint_quat0: Align16<[f32; 4]>,
    joint_quat1: Align16<[f32; 4]>,
    joint_quat2: Align16<[f32; 4]>,
    joint_quat3: Align16<[f32; 4]>,
    /// `blendQuat0..3`: the four blend quaternions, transposed.
    blend_quat0: Align16<[f32; 4]>,
    blend_quat1: Align16<[f32; 4]>,
    blend_quat2: Align16<[f32; 4]>,
    blend_quat3: Align16<[f32; 4]>,
    /// `a0..a3`: the four joints' byte offsets (`index[i] << JOINTQUAT_SIZE_SHIFT`).
    a0: i32,
    a1: i32,
    a2: i32,
    a3: i32,
    /// The `lerp` parameter, which the listing reads from memory.
    lerp: f32,
}

const _: () = {
    assert!(offset_of!(Scratch, joint_quat0) % 16 == 0);
    assert!(offset_of!(Scratch, joint_quat1) % 16 == 0);
    assert!(offset_of!(Scratch, joint_quat2) % 16 == 0);
    assert!(offset_of!(Scratch, joint_quat3) % 16 == 0);
    assert!(offset_of!(Scratch, blend_quat0) % 16 == 0);
    assert!(offset_of!(Scratch, blend_quat1) % 16 == 0);
    assert!(offset_of!(Scratch, blend_quat2) % 16 == 0);
    assert!(offset_of!(Scratch, blend_quat3) % 16 == 0);
};

/// `SlerpJoints` (Appendix A): slerps the quaternions and lerps the
/// translations of `joints[j]` towards `blend_joints[j]` by `lerp`, in place,
/// for every `j` in `index[0..num_joints]`, with the paper's SSE listing.
///
/// As the listing: `lerp <= 0` (or `num_joints == 0`) returns at once;
/// `lerp >= 1` or NaN copies the indexed blend joints; otherwise four joints
/// per iteration go through `loopJoint4` (`SlerpOptimized` in SSE: transposed
/// quaternions, `rsqrtps` and `rcpps` with one Newton-Raphson step, the
/// polynomial `ATanPositive` and `SinZeroHalfPI`) and the rest, one at a time,
/// through `loopJoint1`. The translations are lerped as
/// `t + (blend.t - t) * lerp`. Because `lerpJoints` tests `jge done4`, a list
/// of exactly four joints takes the one-at-a-time loop.
///
/// Within a group of four, a duplicated index has its translation lerped
/// twice (each joint's translation is written before the next one is read)
/// and its quaternion interpolated once from the original value.
///
/// # Safety
///
/// - `joints` and `blend_joints` are 16-byte aligned, and the two lists do
///   not overlap;
/// - `index` points to `num_joints` readable `i32`;
/// - every entry `j` satisfies `0 <= j`, `joints.add(j)` is valid for reads
///   and writes of a [`JointQuat`] and `blend_joints.add(j)` for reads;
/// - `0 <= num_joints <= super::MAX_JOINTS` (2^27), so the listing's 32-bit
///   `shl eax, 2` and `shl ecx, JOINTQUAT_SIZE_SHIFT` are exact;
/// - the CPU has SSE (every `x86_64` CPU has).
#[inline(never)]
pub unsafe fn slerp_joints(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    let zero4 = Align16([0.0f32; 4]);
    let mut scratch = Scratch {
        joint_quat0: zero4,
        joint_quat1: zero4,
        joint_quat2: zero4,
        joint_quat3: zero4,
        blend_quat0: zero4,
        blend_quat1: zero4,
        blend_quat2: zero4,
        blend_quat3: zero4,
        a0: 0,
        a1: 0,
        a2: 0,
        a3: 0,
        lerp,
    };

    // SAFETY: the block reads `index[0..num_joints]` (`[rdx+rax]` with `rdx =
    // index + 4 * num_joints` and `rax` running from `-4 * num_joints` up to,
    // not including, 0), and for each entry `j` reads `blend_joints[j]` and
    // reads and writes `joints[j]` (`[rsi/rdi + (j << 5) + 0 or 16]`, 16
    // bytes, 16-byte aligned): in bounds and aligned by the caller's contract,
    // and `num_joints <= MAX_JOINTS` keeps the 32-bit shifts exact. It reads
    // the `SIMD_SP_*` statics (16-byte aligned, 'static) and reads and writes
    // `scratch` (a local, 16-byte aligned, all offsets within it). It writes
    // only the registers declared below and the flags, and does not touch
    // the stack.
    unsafe {
        asm!(
            "movss xmm7, dword ptr [{s} + {lerp}]",
            "cmpnless xmm7, dword ptr [rip + {zero}]",
            "movmskps ecx, xmm7",
            "test ecx, 1",
            "jz 9f",

            "mov eax, {num:e}",
            "shl eax, 2",
            "mov rsi, {joints}",
            "mov rdi, {blend}",
            "mov rdx, {index}",

            "add rdx, rax",
            "neg rax",
            "jz 9f",

            "movss xmm7, dword ptr [{s} + {lerp}]",
            "cmpnltss xmm7, dword ptr [rip + {one}]",
            "movmskps ecx, xmm7",
            "test ecx, 1",
            "jz 3f",

            "2: // loopCopy",
            "mov ecx, dword ptr [rdx + rax]",
            "shl ecx, {shift}",

            "add rax, 1*4",

            "movaps xmm0, xmmword ptr [rdi + rcx + {q_off}]",
            "movaps xmm1, xmmword ptr [rdi + rcx + {t_off}]",
            "movaps xmmword ptr [rsi + rcx + {q_off}], xmm0",
            "movaps xmmword ptr [rsi + rcx + {t_off}], xmm1",

            "jl 2b",

            "jmp 9f",

            "3: // lerpJoints",
            "add rax, 4*4",
            "jge 5f",

            "4: // loopJoint4",
            "movss xmm3, dword ptr [{s} + {lerp}]",
            "shufps xmm3, xmm3, {s0000}",

            "mov ecx, dword ptr [rdx + rax - 4*4]",
            "shl ecx, {shift}",
            "mov dword ptr [{s} + {a0}], ecx",

            // lerp first translations
            "movaps xmm7, xmmword ptr [rdi + rcx + {t_off}]",
            "subps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "mulps xmm7, xmm3",
            "addps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "movaps xmmword ptr [rsi + rcx + {t_off}], xmm7",

            // load first quaternions
            "movaps xmm0, xmmword ptr [rsi + rcx + {q_off}]",
            "movaps xmm4, xmmword ptr [rdi + rcx + {q_off}]",

            "mov ecx, dword ptr [rdx + rax - 3*4]",
            "shl ecx, {shift}",
            "mov dword ptr [{s} + {a1}], ecx",

            // lerp second translations
            "movaps xmm7, xmmword ptr [rdi + rcx + {t_off}]",
            "subps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "mulps xmm7, xmm3",
            "addps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "movaps xmmword ptr [rsi + rcx + {t_off}], xmm7",

            // load second quaternions
            "movaps xmm1, xmmword ptr [rsi + rcx + {q_off}]",
            "movaps xmm5, xmmword ptr [rdi + rcx + {q_off}]",

            "mov ecx, dword ptr [rdx + rax - 2*4]",
            "shl ecx, {shift}",
            "mov dword ptr [{s} + {a2}], ecx",

            // lerp third translations
            "movaps xmm7, xmmword ptr [rdi + rcx + {t_off}]",
            "subps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "mulps xmm7, xmm3",
            "addps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "movaps xmmword ptr [rsi + rcx + {t_off}], xmm7",

            // load third quaternions
            "movaps xmm2, xmmword ptr [rsi + rcx + {q_off}]",
            "movaps xmm6, xmmword ptr [rdi + rcx + {q_off}]",

            "mov ecx, dword ptr [rdx + rax - 1*4]",
            "shl ecx, {shift}",
            "mov dword ptr [{s} + {a3}], ecx",

            // lerp fourth translations
            "movaps xmm7, xmmword ptr [rdi + rcx + {t_off}]",
            "subps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "mulps xmm7, xmm3",
            "addps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "movaps xmmword ptr [rsi + rcx + {t_off}], xmm7",

            // load fourth quaternions
            "movaps xmm3, xmmword ptr [rsi + rcx + {q_off}]",

            // TRANSPOSE_4x4( xmm0, xmm1, xmm2, xmm3, xmm7 )
            crate::x86::shuffle::transpose_4x4_text!("xmm0", "xmm1", "xmm2", "xmm3", "xmm7"),

            "movaps xmmword ptr [{s} + {jq0}], xmm0",
            "movaps xmmword ptr [{s} + {jq1}], xmm1",
            "movaps xmmword ptr [{s} + {jq2}], xmm2",
            "movaps xmmword ptr [{s} + {jq3}], xmm3",

            "movaps xmm7, xmmword ptr [rdi + rcx + {q_off}]",

            // TRANSPOSE_4x4( xmm4, xmm5, xmm6, xmm7, xmm3 )
            crate::x86::shuffle::transpose_4x4_text!("xmm4", "xmm5", "xmm6", "xmm7", "xmm3"),

            "movaps xmmword ptr [{s} + {bq0}], xmm4",
            "movaps xmmword ptr [{s} + {bq1}], xmm5",
            "movaps xmmword ptr [{s} + {bq2}], xmm6",
            "movaps xmmword ptr [{s} + {bq3}], xmm7",

            // lerp quaternions
            "mulps xmm0, xmm4",
            "mulps xmm1, xmm5",
            "addps xmm0, xmm1",
            "mulps xmm2, xmm6",
            "addps xmm0, xmm2",
            "movaps xmm3, xmmword ptr [{s} + {jq3}]",
            "mulps xmm3, xmmword ptr [{s} + {bq3}]",
            "addps xmm0, xmm3 // xmm0 = cosom",

            "movaps xmm1, xmm0",
            "movaps xmm2, xmm0",
            "andps xmm1, xmmword ptr [rip + {sign_bit}] // xmm1 = signBit",
            "xorps xmm0, xmm1",
            "mulps xmm2, xmm2",

            "xorps xmm4, xmm4",
            "movaps xmm3, xmmword ptr [rip + {one}]",
            "subps xmm3, xmm2 // xmm3 = scale0",
            "cmpeqps xmm4, xmm3",
            "andps xmm4, xmmword ptr [rip + {tiny}] // if values are zero replace them with a tiny number",
            "andps xmm3, xmmword ptr [rip + {abs_mask}] // make sure the values are positive",
            "orps xmm3, xmm4",

            "movaps xmm2, xmm3",
            "rsqrtps xmm4, xmm2",
            "mulps xmm2, xmm4",
            "mulps xmm2, xmm4",
            "subps xmm2, xmmword ptr [rip + {rsqrt_c0}]",
            "mulps xmm4, xmmword ptr [rip + {rsqrt_c1}]",
            "mulps xmm2, xmm4",
            "mulps xmm3, xmm2 // xmm3 = sqrt( scale0 )",

            // omega0 = atan2( xmm3, xmm0 )
            "movaps xmm4, xmm0",
            "minps xmm0, xmm3",
            "maxps xmm3, xmm4",
            "cmpeqps xmm4, xmm0",
            "rcpps xmm5, xmm3",
            "mulps xmm3, xmm5",
            "mulps xmm3, xmm5",
            "addps xmm5, xmm5",
            "subps xmm5, xmm3 // xmm5 = 1 / y or 1 / x",
            "mulps xmm0, xmm5 // xmm0 = x / y or y / x",
            "movaps xmm3, xmm4",
            "andps xmm3, xmmword ptr [rip + {sign_bit}]",
            "xorps xmm0, xmm3 // xmm0 = -x / y or y / x",
            "andps xmm4, xmmword ptr [rip + {half_pi}] // xmm4 = HALF_PI or 0.0f",
            "movaps xmm3, xmm0",
            "mulps xmm3, xmm3 // xmm3 = s",
            "movaps xmm5, xmmword ptr [rip + {atan_c0}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {atan_c1}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {atan_c2}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {atan_c3}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {atan_c4}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {atan_c5}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {atan_c6}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {atan_c7}]",
            "mulps xmm5, xmm3",
            "addps xmm5, xmmword ptr [rip + {one}]",
            "mulps xmm5, xmm0",
            "addps xmm5, xmm4 // xmm5 = omega0",

            "movss xmm6, dword ptr [{s} + {lerp}] // xmm6 = lerp",
            "shufps xmm6, xmm6, {s0000}",

            "mulps xmm6, xmm5 // xmm6 = omega1",
            "subps xmm5, xmm6 // xmm5 = omega0",

            // scale0 = sin( xmm5 ) * xmm2
            // scale1 = sin( xmm6 ) * xmm2
            "movaps xmm3, xmm5",
            "movaps xmm7, xmm6",
            "mulps xmm3, xmm3",
            "mulps xmm7, xmm7",
            "movaps xmm4, xmmword ptr [rip + {sin_c0}]",
            "movaps xmm0, xmmword ptr [rip + {sin_c0}]",
            "mulps xmm4, xmm3",
            "mulps xmm0, xmm7",
            "addps xmm4, xmmword ptr [rip + {sin_c1}]",
            "addps xmm0, xmmword ptr [rip + {sin_c1}]",
            "mulps xmm4, xmm3",
            "mulps xmm0, xmm7",
            "addps xmm4, xmmword ptr [rip + {sin_c2}]",
            "addps xmm0, xmmword ptr [rip + {sin_c2}]",
            "mulps xmm4, xmm3",
            "mulps xmm0, xmm7",
            "addps xmm4, xmmword ptr [rip + {sin_c3}]",
            "addps xmm0, xmmword ptr [rip + {sin_c3}]",
            "mulps xmm4, xmm3",
            "mulps xmm0, xmm7",
            "addps xmm4, xmmword ptr [rip + {sin_c4}]",
            "addps xmm0, xmmword ptr [rip + {sin_c4}]",
            "mulps xmm4, xmm3",
            "mulps xmm0, xmm7",
            "addps xmm4, xmmword ptr [rip + {one}]",
            "addps xmm0, xmmword ptr [rip + {one}]",
            "mulps xmm5, xmm4",
            "mulps xmm6, xmm0",
            "mulps xmm5, xmm2 // xmm5 = scale0",
            "mulps xmm6, xmm2 // xmm6 = scale1",

            "xorps xmm6, xmm1",

            "movaps xmm0, xmmword ptr [{s} + {jq0}]",
            "mulps xmm0, xmm5",
            "movaps xmm1, xmmword ptr [{s} + {bq0}]",
            "mulps xmm1, xmm6",
            "addps xmm0, xmm1",

            "movaps xmm1, xmmword ptr [{s} + {jq1}]",
            "mulps xmm1, xmm5",
            "movaps xmm2, xmmword ptr [{s} + {bq1}]",
            "mulps xmm2, xmm6",
            "addps xmm1, xmm2",

            "movaps xmm2, xmmword ptr [{s} + {jq2}]",
            "mulps xmm2, xmm5",
            "movaps xmm3, xmmword ptr [{s} + {bq2}]",
            "mulps xmm3, xmm6",
            "addps xmm2, xmm3",

            "movaps xmm3, xmmword ptr [{s} + {jq3}]",
            "mulps xmm3, xmm5",
            "movaps xmm4, xmmword ptr [{s} + {bq3}]",
            "mulps xmm4, xmm6",
            "addps xmm3, xmm4",

            "add rax, 4*4",

            // transpose xmm0, xmm1, xmm2, xmm3 to memory
            "movaps xmm7, xmm0",
            "movaps xmm6, xmm2",

            "unpcklps xmm0, xmm1",
            "unpcklps xmm2, xmm3",

            "mov ecx, dword ptr [{s} + {a0}]",
            "movlps qword ptr [rsi + rcx + {q_off} + 0], xmm0",
            "movlps qword ptr [rsi + rcx + {q_off} + 8], xmm2",

            "mov ecx, dword ptr [{s} + {a1}]",
            "movhps qword ptr [rsi + rcx + {q_off} + 0], xmm0",
            "movhps qword ptr [rsi + rcx + {q_off} + 8], xmm2",

            "unpckhps xmm7, xmm1",
            "unpckhps xmm6, xmm3",

            "mov ecx, dword ptr [{s} + {a2}]",
            "movlps qword ptr [rsi + rcx + {q_off} + 0], xmm7",
            "movlps qword ptr [rsi + rcx + {q_off} + 8], xmm6",

            "mov ecx, dword ptr [{s} + {a3}]",
            "movhps qword ptr [rsi + rcx + {q_off} + 0], xmm7",
            "movhps qword ptr [rsi + rcx + {q_off} + 8], xmm6",

            "jle 4b",

            "5: // done4",
            "sub rax, 4*4",
            "jz 9f",

            "6: // loopJoint1",
            "movss xmm3, dword ptr [{s} + {lerp}]",
            "shufps xmm3, xmm3, {s0000}",

            "mov ecx, dword ptr [rdx + rax]",
            "shl ecx, {shift}",

            // lerp first translations
            "movaps xmm7, xmmword ptr [rdi + rcx + {t_off}]",
            "subps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "mulps xmm7, xmm3",
            "addps xmm7, xmmword ptr [rsi + rcx + {t_off}]",
            "movaps xmmword ptr [rsi + rcx + {t_off}], xmm7",

            // load first quaternions
            "movaps xmm0, xmmword ptr [rsi + rcx + {q_off}]",
            "movaps xmm1, xmmword ptr [rdi + rcx + {q_off}]",

            "movaps xmmword ptr [{s} + {jq0}], xmm0",
            "movaps xmmword ptr [{s} + {bq0}], xmm1",

            // lerp quaternions
            "mulps xmm1, xmm0",
            "movhlps xmm0, xmm1",
            "addps xmm1, xmm0",
            "movaps xmm0, xmm1",
            "shufps xmm0, xmm0, {s1023}",
            "addss xmm0, xmm1 // xmm0 = cosom",

            "movss xmm1, xmm0",
            "movss xmm2, xmm0",
            "andps xmm1, xmmword ptr [rip + {sign_bit}] // xmm1 = signBit",
            "xorps xmm0, xmm1",
            "mulss xmm2, xmm2",

            "xorps xmm4, xmm4",
            "movss xmm3, dword ptr [rip + {one}]",
            "subss xmm3, xmm2 // xmm3 = scale0",
            "cmpeqss xmm4, xmm3",
            "andps xmm4, xmmword ptr [rip + {tiny}] // if values are zero replace them with a tiny number",
            "andps xmm3, xmmword ptr [rip + {abs_mask}] // make sure the values are positive",
            "orps xmm3, xmm4",

            "movss xmm2, xmm3",
            "rsqrtss xmm4, xmm2",
            "mulss xmm2, xmm4",
            "mulss xmm2, xmm4",
            "subss xmm2, dword ptr [rip + {rsqrt_c0}]",
            "mulss xmm4, dword ptr [rip + {rsqrt_c1}]",
            "mulss xmm2, xmm4",
            "mulss xmm3, xmm2 // xmm3 = sqrt( scale0 )",

            // omega0 = atan2( xmm3, xmm0 )
            "movss xmm4, xmm0",
            "minss xmm0, xmm3",
            "maxss xmm3, xmm4",
            "cmpeqss xmm4, xmm0",
            "rcpss xmm5, xmm3",
            "mulss xmm3, xmm5",
            "mulss xmm3, xmm5",
            "addss xmm5, xmm5",
            "subss xmm5, xmm3 // xmm5 = 1 / y or 1 / x",
            "mulss xmm0, xmm5 // xmm0 = x / y or y / x",
            "movss xmm3, xmm4",
            "andps xmm3, xmmword ptr [rip + {sign_bit}]",
            "xorps xmm0, xmm3 // xmm0 = -x / y or y / x",
            "andps xmm4, xmmword ptr [rip + {half_pi}] // xmm4 = HALF_PI or 0.0f",
            "movss xmm3, xmm0",
            "mulss xmm3, xmm3 // xmm3 = s",
            "movss xmm5, dword ptr [rip + {atan_c0}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {atan_c1}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {atan_c2}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {atan_c3}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {atan_c4}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {atan_c5}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {atan_c6}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {atan_c7}]",
            "mulss xmm5, xmm3",
            "addss xmm5, dword ptr [rip + {one}]",
            "mulss xmm5, xmm0",
            "addss xmm5, xmm4 // xmm5 = omega0",

            "movss xmm6, dword ptr [{s} + {lerp}] // xmm6 = lerp",
            "mulss xmm6, xmm5 // xmm6 = omega1",
            "subss xmm5, xmm6 // xmm5 = omega0",

            // scale0 = sin( xmm5 ) * xmm2
            // scale1 = sin( xmm6 ) * xmm2
            "movss xmm3, xmm5",
            "movss xmm7, xmm6",
            "mulss xmm3, xmm3",
            "mulss xmm7, xmm7",
            "movss xmm4, dword ptr [rip + {sin_c0}]",
            "movss xmm0, dword ptr [rip + {sin_c0}]",
            "mulss xmm4, xmm3",
            "mulss xmm0, xmm7",
            "addss xmm4, dword ptr [rip + {sin_c1}]",
            "addss xmm0, dword ptr [rip + {sin_c1}]",
            "mulss xmm4, xmm3",
            "mulss xmm0, xmm7",
            "addss xmm4, dword ptr [rip + {sin_c2}]",
            "addss xmm0, dword ptr [rip + {sin_c2}]",
            "mulss xmm4, xmm3",
            "mulss xmm0, xmm7",
            "addss xmm4, dword ptr [rip + {sin_c3}]",
            "addss xmm0, dword ptr [rip + {sin_c3}]",
            "mulss xmm4, xmm3",
            "mulss xmm0, xmm7",
            "addss xmm4, dword ptr [rip + {sin_c4}]",
            "addss xmm0, dword ptr [rip + {sin_c4}]",
            "mulss xmm4, xmm3",
            "mulss xmm0, xmm7",
            "addss xmm4, dword ptr [rip + {one}]",
            "addss xmm0, dword ptr [rip + {one}]",
            "mulss xmm5, xmm4",
            "mulss xmm6, xmm0",
            "mulss xmm5, xmm2 // xmm5 = scale0",
            "mulss xmm6, xmm2 // xmm6 = scale1",

            "xorps xmm6, xmm1",

            "shufps xmm5, xmm5, {s0000}",
            "mulps xmm5, xmmword ptr [{s} + {jq0}]",
            "shufps xmm6, xmm6, {s0000}",
            "mulps xmm6, xmmword ptr [{s} + {bq0}]",
            "addps xmm5, xmm6",

            "movaps xmmword ptr [rsi + rcx + {q_off}], xmm5",

            "add rax, 1*4",
            "jl 6b",

            "9: // done1",
            joints = in(reg) joints,
            blend = in(reg) blend_joints,
            index = in(reg) index,
            num = in(reg) num_joints,
            s = in(reg) &mut scratch,
            lerp = const offset_of!(Scratch, lerp),
            jq0 = const offset_of!(Scratch, joint_quat0),
            jq1 = const offset_of!(Scratch, joint_quat1),
            jq2 = const offset_of!(Scratch, joint_quat2),
            jq3 = const offset_of!(Scratch, joint_quat3),
            bq0 = const offset_of!(Scratch, blend_quat0),
            bq1 = const offset_of!(Scratch, blend_quat1),
            bq2 = const offset_of!(Scratch, blend_quat2),
            bq3 = const offset_of!(Scratch, blend_quat3),
            a0 = const offset_of!(Scratch, a0),
            a1 = const offset_of!(Scratch, a1),
            a2 = const offset_of!(Scratch, a2),
            a3 = const offset_of!(Scratch, a3),
            shift = const JOINTQUAT_SIZE_SHIFT,
            q_off = const JOINTQUAT_Q_OFFSET,
            t_off = const JOINTQUAT_T_OFFSET,
            s0000 = const r_shuffle_ps(0, 0, 0, 0),
            s1023 = const r_shuffle_ps(1, 0, 2, 3),
            t0101 = const r_shuffle_ps(0, 1, 0, 1),
            t2323 = const r_shuffle_ps(2, 3, 2, 3),
            zero = sym SIMD_SP_ZERO,
            one = sym SIMD_SP_ONE,
            sign_bit = sym SIMD_SP_SIGN_BIT,
            tiny = sym SIMD_SP_TINY,
            abs_mask = sym SIMD_SP_ABS_MASK,
            rsqrt_c0 = sym SIMD_SP_RSQRT_C0,
            rsqrt_c1 = sym SIMD_SP_RSQRT_C1,
            half_pi = sym SIMD_SP_HALF_PI,
            sin_c0 = sym SIMD_SP_SIN_C0,
            sin_c1 = sym SIMD_SP_SIN_C1,
            sin_c2 = sym SIMD_SP_SIN_C2,
            sin_c3 = sym SIMD_SP_SIN_C3,
            sin_c4 = sym SIMD_SP_SIN_C4,
            atan_c0 = sym SIMD_SP_ATAN_C0,
            atan_c1 = sym SIMD_SP_ATAN_C1,
            atan_c2 = sym SIMD_SP_ATAN_C2,
            atan_c3 = sym SIMD_SP_ATAN_C3,
            atan_c4 = sym SIMD_SP_ATAN_C4,
            atan_c5 = sym SIMD_SP_ATAN_C5,
            atan_c6 = sym SIMD_SP_ATAN_C6,
            atan_c7 = sym SIMD_SP_ATAN_C7,
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
