//! Appendix B of *Slerping Clock Cycles* (`LerpJoints`, SSE) in `asm!`,
//! instruction for instruction: the listing's instructions in the listing's
//! order with the listing's xmm registers, translated to 64-bit by the rules
//! of `asm_notes/README.md`. `asm_notes/lerp_joints.listing.s` is the transcription it
//! follows (211 instructions; no deviations).
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren.
//! Port licensed under the GNU LGPL 2.1 or later (LGPL-2.1-or-later), as the
//! paper's listing.
//!
//! The blocks, named as the listing's labels:
//! - *prologue*: `lerp <= 0` (`cmpnless`, false for NaN) and `numJoints == 0`
//!   return at once; `lerp >= 1` or NaN (`cmpnltss`) jumps to *loopCopy*;
//! - *loopCopy*: copies the indexed blend joints;
//! - *lerpJoints*: `scaledLerp = lerp / (1 - lerp)`; the quaternions are
//!   computed as `joint + (±scaledLerp) * blend`, which the renormalisation
//!   scales back to `(1 - lerp) * joint ± lerp * blend`;
//! - *loopJoint4*: four joints per iteration, quaternions transposed to
//!   structure-of-arrays, `rsqrtps` plus one Newton-Raphson step; runs only
//!   when `numJoints > 4` (`add eax, 4*4` / `jge done4`), `numJoints / 4`
//!   times;
//! - *done4* / *loopJoint1*: the remaining joints one by one (all four when
//!   `numJoints == 4`), with `rsqrtss`.

use crate::consts::{SIMD_SP_ONE, SIMD_SP_RSQRT_C0, SIMD_SP_RSQRT_C1, SIMD_SP_SIGN_BIT, SIMD_SP_ZERO};
use crate::types::{JOINTQUAT_Q_OFFSET, JOINTQUAT_SIZE_SHIFT, JOINTQUAT_T_OFFSET, JointQuat};
use crate::x86::shuffle::r_shuffle_ps;
use core::arch::asm;
use core::mem::offset_of;

/// The listing's stack locals and the `lerp` parameter it reads from memory,
/// in one block the `asm!` addresses as `[{s} + offset]`.
#[repr(C, align(16))]
struct Scratch {
    /// `ALIGN16( float jointQuat3[4]; )`: the `w` components of the four
    /// joint quaternions after the transpose (`movaps`, so 16-byte aligned).
    joint_quat3: [f32; 4],
    /// `ALIGN16( float blendQuat3[4]; )`: the same for the blend quaternions.
    blend_quat3: [f32; 4],
    /// `ALIGN16( float scaledLerp; )`: `lerp / (1 - lerp)`.
    scaled_lerp: f32,
    /// `int a0, a1, a2, a3`: the byte offsets `index[i] << JOINTQUAT_SIZE_SHIFT`
    /// of the four joints, kept for the stores. Unsigned here: an offset can
    /// reach `2^32 - 32`, and `mov ecx, a0` zero-extends into `rcx`.
    a0: u32,
    /// See [`Scratch::a0`].
    a1: u32,
    /// See [`Scratch::a0`].
    a2: u32,
    /// See [`Scratch::a0`].
    a3: u32,
    /// The `lerp` parameter, which the listing reads from memory
    /// (`movss xmm7, lerp` and others) five times.
    lerp: f32,
}

const _: () = {
    assert!(offset_of!(Scratch, joint_quat3) % 16 == 0);
    assert!(offset_of!(Scratch, blend_quat3) % 16 == 0);
    assert!(offset_of!(Scratch, scaled_lerp) % 16 == 0);
};

/// `LerpJoints` of Appendix B: for each `j` in `index[0..num_joints]`, lerps
/// the rotation of `joints[j]` towards the nearer of `±blend_joints[j].q`
/// and renormalises it (`rsqrtps` + one Newton-Raphson step), and lerps the
/// translation as `t + (blend.t - t) * lerp`, in place. `lerp <= 0` returns
/// without writing; `lerp >= 1` or NaN copies the indexed blend joints.
///
/// Bit-identical to [`super::intrinsics::lerp_joints`] on the same CPU.
///
/// # Safety
///
/// - `joints` and `blend_joints` are 16-byte aligned and the two lists do
///   not overlap;
/// - `0 <= num_joints <= super::MAX_JOINTS` (so the listing's 32-bit
///   `shl eax, 2` and `shl ecx, JOINTQUAT_SIZE_SHIFT` are exact) and `index`
///   points to `num_joints` readable `i32` (it is not read when
///   `num_joints == 0` or `lerp <= 0`);
/// - every entry `j` of `index` is in `0..=super::MAX_JOINTS - 1`, with
///   `joints.add(j)` valid for reads and writes and `blend_joints.add(j)`
///   valid for reads.
#[inline(never)]
pub unsafe fn lerp_joints(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    let mut scratch =
        Scratch { joint_quat3: [0.0; 4], blend_quat3: [0.0; 4], scaled_lerp: 0.0, a0: 0, a1: 0, a2: 0, a3: 0, lerp };
    let s: *mut Scratch = &raw mut scratch;

    // SAFETY: the block reads `scratch` and the five `SIMD_SP_*` statics it
    // names, `index[0..num_joints]` (through `rdx + rax` with
    // `rax` in `-4*num_joints..0`, only once `num_joints > 0` and `lerp > 0`
    // or NaN), and reads `blend_joints[j]` / reads and writes `joints[j]`
    // (32 bytes each, 16-byte aligned: `movaps`) for each entry `j`, at byte
    // offset `j << 5` zero-extended from 32 bits, which the caller's contract
    // (`j < MAX_JOINTS = 2^27`) keeps exact; it writes only `scratch` besides
    // `joints`. It uses no stack; every general and xmm register it writes
    // is declared; it changes the flags (no `preserves_flags`).
    unsafe {
        asm!(
            "movss     xmm7, dword ptr [{s} + {lerp}]",
            "cmpnless  xmm7, dword ptr [rip + {zero}]",
            "movmskps  ecx, xmm7",
            "test      ecx, 1",
            "jz        9f",
            "mov       eax, {num:e}",
            "shl       eax, 2",
            "mov       rsi, {joints}",
            "mov       rdi, {blend_joints}",
            "mov       rdx, {index}",
            "add       rdx, rax",
            "neg       rax",
            "jz        9f",
            "movss     xmm7, dword ptr [{s} + {lerp}]",
            "cmpnltss  xmm7, dword ptr [rip + {one}]",
            "movmskps  ecx, xmm7",
            "test      ecx, 1",
            "jz        3f",
            "2: // loopCopy",
            "mov       ecx, dword ptr [rdx + rax]",
            "shl       ecx, {shift}",
            "add       rax, 1*4",
            "movaps    xmm0, xmmword ptr [rdi + rcx + {q_offset}]",
            "movaps    xmm1, xmmword ptr [rdi + rcx + {t_offset}]",
            "movaps    xmmword ptr [rsi + rcx + {q_offset}], xmm0",
            "movaps    xmmword ptr [rsi + rcx + {t_offset}], xmm1",
            "jl        2b",
            "jmp       9f",
            "3: // lerpJoints",
            "movss     xmm7, dword ptr [{s} + {lerp}]",
            "movss     xmm6, dword ptr [rip + {one}]",
            "subss     xmm6, xmm7",
            "divss     xmm7, xmm6",
            "movss     dword ptr [{s} + {scaled_lerp}], xmm7",
            "add       rax, 4*4",
            "jge       5f",
            "4: // loopJoint4",
            "movss     xmm3, dword ptr [{s} + {lerp}]",
            "shufps    xmm3, xmm3, {s0000}",
            "mov       ecx, dword ptr [rdx + rax - 4*4]",
            "shl       ecx, {shift}",
            "mov       dword ptr [{s} + {a0}], ecx",
            "// lerp first translations",
            "movaps    xmm7, xmmword ptr [rdi + rcx + {t_offset}]",
            "subps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "mulps     xmm7, xmm3",
            "addps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "movaps    xmmword ptr [rsi + rcx + {t_offset}], xmm7",
            "// load first quaternions",
            "movaps    xmm0, xmmword ptr [rsi + rcx + {q_offset}]",
            "movaps    xmm4, xmmword ptr [rdi + rcx + {q_offset}]",
            "mov       ecx, dword ptr [rdx + rax - 3*4]",
            "shl       ecx, {shift}",
            "mov       dword ptr [{s} + {a1}], ecx",
            "// lerp second translations",
            "movaps    xmm7, xmmword ptr [rdi + rcx + {t_offset}]",
            "subps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "mulps     xmm7, xmm3",
            "addps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "movaps    xmmword ptr [rsi + rcx + {t_offset}], xmm7",
            "// load second quaternions",
            "movaps    xmm1, xmmword ptr [rsi + rcx + {q_offset}]",
            "movaps    xmm5, xmmword ptr [rdi + rcx + {q_offset}]",
            "mov       ecx, dword ptr [rdx + rax - 2*4]",
            "shl       ecx, {shift}",
            "mov       dword ptr [{s} + {a2}], ecx",
            "// lerp third translations",
            "movaps    xmm7, xmmword ptr [rdi + rcx + {t_offset}]",
            "subps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "mulps     xmm7, xmm3",
            "addps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "movaps    xmmword ptr [rsi + rcx + {t_offset}], xmm7",
            "// load third quaternions",
            "movaps    xmm2, xmmword ptr [rsi + rcx + {q_offset}]",
            "movaps    xmm6, xmmword ptr [rdi + rcx + {q_offset}]",
            "mov       ecx, dword ptr [rdx + rax - 1*4]",
            "shl       ecx, {shift}",
            "mov       dword ptr [{s} + {a3}], ecx",
            "// lerp fourth translations",
            "movaps    xmm7, xmmword ptr [rdi + rcx + {t_offset}]",
            "subps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "mulps     xmm7, xmm3",
            "addps     xmm7, xmmword ptr [rsi + rcx + {t_offset}]",
            "movaps    xmmword ptr [rsi + rcx + {t_offset}], xmm7",
            "// load fourth quaternions",
            "movaps    xmm3, xmmword ptr [rsi + rcx + {q_offset}]",
            // TRANSPOSE_4x4( xmm0, xmm1, xmm2, xmm3, xmm7 )
            crate::x86::shuffle::transpose_4x4_text!("xmm0", "xmm1", "xmm2", "xmm3", "xmm7"),
            "movaps    xmmword ptr [{s} + {joint_quat3}], xmm3",
            "movaps    xmm7, xmmword ptr [rdi + rcx + {q_offset}]",
            // TRANSPOSE_4x4( xmm4, xmm5, xmm6, xmm7, xmm3 )
            crate::x86::shuffle::transpose_4x4_text!("xmm4", "xmm5", "xmm6", "xmm7", "xmm3"),
            "movaps    xmmword ptr [{s} + {blend_quat3}], xmm7",
            "// lerp quaternions",
            "movaps    xmm3, xmm0",
            "mulps     xmm3, xmm4",
            "movaps    xmm7, xmm1",
            "mulps     xmm7, xmm5",
            "addps     xmm3, xmm7",
            "movaps    xmm7, xmm2",
            "mulps     xmm7, xmm6",
            "addps     xmm3, xmm7",
            "movaps    xmm7, xmmword ptr [{s} + {joint_quat3}]",
            "mulps     xmm7, xmmword ptr [{s} + {blend_quat3}]",
            "addps     xmm3, xmm7                             // xmm3 = cosom",
            "andps     xmm3, xmmword ptr [rip + {sign_bit}]   // xmm3 = signBit",
            "movss     xmm7, dword ptr [{s} + {scaled_lerp}]",
            "shufps    xmm7, xmm7, {s0000}",
            "xorps     xmm7, xmm3                             // xmm7 = scaledLerp ^ signBit",
            "mulps     xmm4, xmm7",
            "addps     xmm4, xmm0",
            "movaps    xmm0, xmm4",
            "mulps     xmm0, xmm0",
            "mulps     xmm5, xmm7",
            "addps     xmm5, xmm1",
            "movaps    xmm1, xmm5",
            "mulps     xmm1, xmm1",
            "addps     xmm0, xmm1",
            "mulps     xmm6, xmm7",
            "addps     xmm6, xmm2",
            "movaps    xmm2, xmm6",
            "mulps     xmm2, xmm2",
            "addps     xmm0, xmm2",
            "mulps     xmm7, xmmword ptr [{s} + {blend_quat3}]",
            "addps     xmm7, xmmword ptr [{s} + {joint_quat3}]",
            "movaps    xmm1, xmm7",
            "mulps     xmm1, xmm1",
            "addps     xmm0, xmm1",
            "rsqrtps   xmm2, xmm0",
            "mulps     xmm0, xmm2",
            "mulps     xmm0, xmm2",
            "subps     xmm0, xmmword ptr [rip + {rsqrt_c0}]",
            "mulps     xmm2, xmmword ptr [rip + {rsqrt_c1}]",
            "mulps     xmm0, xmm2",
            "mulps     xmm4, xmm0",
            "mulps     xmm5, xmm0",
            "mulps     xmm6, xmm0",
            "mulps     xmm7, xmm0",
            "add       rax, 4*4",
            "// transpose xmm4, xmm5, xmm6, xmm7 to memory",
            "movaps    xmm2, xmm4",
            "movaps    xmm3, xmm6",
            "unpcklps  xmm4, xmm5",
            "unpcklps  xmm6, xmm7",
            "mov       ecx, dword ptr [{s} + {a0}]",
            "movlps    qword ptr [rsi + rcx + {q_offset} + 0], xmm4",
            "movlps    qword ptr [rsi + rcx + {q_offset} + 8], xmm6",
            "mov       ecx, dword ptr [{s} + {a1}]",
            "movhps    qword ptr [rsi + rcx + {q_offset} + 0], xmm4",
            "movhps    qword ptr [rsi + rcx + {q_offset} + 8], xmm6",
            "unpckhps  xmm2, xmm5",
            "unpckhps  xmm3, xmm7",
            "mov       ecx, dword ptr [{s} + {a2}]",
            "movlps    qword ptr [rsi + rcx + {q_offset} + 0], xmm2",
            "movlps    qword ptr [rsi + rcx + {q_offset} + 8], xmm3",
            "mov       ecx, dword ptr [{s} + {a3}]",
            "movhps    qword ptr [rsi + rcx + {q_offset} + 0], xmm2",
            "movhps    qword ptr [rsi + rcx + {q_offset} + 8], xmm3",
            "jle       4b",
            "5: // done4",
            "sub       rax, 4*4",
            "jz        9f",
            "movss     xmm6, dword ptr [{s} + {lerp}]",
            "shufps    xmm6, xmm6, {s0000}",
            "movss     xmm7, dword ptr [{s} + {scaled_lerp}]",
            "shufps    xmm7, xmm7, {s0000}",
            "6: // loopJoint1",
            "mov       ecx, dword ptr [rdx + rax]",
            "shl       ecx, {shift}",
            "// lerp translations",
            "movaps    xmm3, xmmword ptr [rdi + rcx + {t_offset}]",
            "subps     xmm3, xmmword ptr [rsi + rcx + {t_offset}]",
            "mulps     xmm3, xmm6",
            "addps     xmm3, xmmword ptr [rsi + rcx + {t_offset}]",
            "movaps    xmmword ptr [rsi + rcx + {t_offset}], xmm3",
            "// load quaternions",
            "movaps    xmm0, xmmword ptr [rsi + rcx + {q_offset}]",
            "movaps    xmm1, xmmword ptr [rdi + rcx + {q_offset}]",
            "// lerp quaternions",
            "movaps    xmm2, xmm0",
            "mulps     xmm2, xmm1",
            "movhlps   xmm3, xmm2",
            "addps     xmm2, xmm3",
            "movaps    xmm3, xmm2",
            "shufps    xmm3, xmm3, {s1023}",
            "addss     xmm3, xmm2                             // xmm3 = cosom",
            "shufps    xmm3, xmm3, {s0000}",
            "andps     xmm3, xmmword ptr [rip + {sign_bit}]   // xmm3 = signBit",
            "xorps     xmm3, xmm7                             // xmm3 = scaledLerp ^ signBit",
            "mulps     xmm1, xmm3",
            "addps     xmm1, xmm0                             // xmm1 = jointQuat + scale * blendQuat",
            "movaps    xmm0, xmm1",
            "mulps     xmm0, xmm0",
            "movhlps   xmm2, xmm0",
            "addps     xmm0, xmm2",
            "movaps    xmm2, xmm0",
            "shufps    xmm2, xmm2, {s1023}",
            "addss     xmm0, xmm2",
            "rsqrtss   xmm2, xmm0",
            "mulss     xmm0, xmm2",
            "mulss     xmm0, xmm2",
            "subss     xmm0, dword ptr [rip + {rsqrt_c0}]",
            "mulss     xmm2, dword ptr [rip + {rsqrt_c1}]",
            "mulss     xmm0, xmm2",
            "shufps    xmm0, xmm0, {s0000}",
            "mulps     xmm1, xmm0",
            "movaps    xmmword ptr [rsi + rcx + {q_offset}], xmm1",
            "add       rax, 1*4",
            "jl        6b",
            "9: // done1",
            joints = in(reg) joints,
            blend_joints = in(reg) blend_joints,
            index = in(reg) index,
            num = in(reg) num_joints,
            s = in(reg) s,
            lerp = const offset_of!(Scratch, lerp),
            scaled_lerp = const offset_of!(Scratch, scaled_lerp),
            joint_quat3 = const offset_of!(Scratch, joint_quat3),
            blend_quat3 = const offset_of!(Scratch, blend_quat3),
            a0 = const offset_of!(Scratch, a0),
            a1 = const offset_of!(Scratch, a1),
            a2 = const offset_of!(Scratch, a2),
            a3 = const offset_of!(Scratch, a3),
            zero = sym SIMD_SP_ZERO,
            one = sym SIMD_SP_ONE,
            sign_bit = sym SIMD_SP_SIGN_BIT,
            rsqrt_c0 = sym SIMD_SP_RSQRT_C0,
            rsqrt_c1 = sym SIMD_SP_RSQRT_C1,
            shift = const JOINTQUAT_SIZE_SHIFT,
            q_offset = const JOINTQUAT_Q_OFFSET,
            t_offset = const JOINTQUAT_T_OFFSET,
            s0000 = const r_shuffle_ps(0, 0, 0, 0),
            s1023 = const r_shuffle_ps(1, 0, 2, 3),
            t0101 = const r_shuffle_ps(0, 1, 0, 1),
            t2323 = const r_shuffle_ps(2, 3, 2, 3),
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
