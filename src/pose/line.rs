//! The assembly line's driver: one pass over the joints, a chunk of
//! [`CHUNK`] joints at a time, through four kernels of one form (a joint
//! blend, `quats_to_mats`, `transform_skeleton` and `transform_joints`).
//!
//! The pose routines' chained forms are this driver with their own
//! kernels: the paper's C routines for `Scalar`, the listings for `Asm` and
//! `Intrinsics`, the successors for `Portable` and `Neon` (`Avx2` and
//! `Avx512` are fused, each in its own file).
//! Each chunk is blended into a buffer on the stack, converted into the
//! model matrices, scaled, composed with its parents (already final: they
//! come before it) and multiplied by the inverse bind matrices while it is
//! still in the L1 cache, so the blended pose and the local matrices never
//! make a round trip through memory. Each kernel computes every joint on
//! its own (the skeleton kernels from the parent's final matrix), so the
//! chunks give the bits of the four routines called one after the other
//! over the whole skeleton.

use crate::form::kernel;
use crate::types::{JointMat, JointQuat, Vec4};

/// Joints per chunk: 32 blended joints (1 KiB on the stack), a multiple of
/// every successor's block (4, 8 or 16 joints).
pub(crate) const CHUNK: usize = 32;

/// The longest chunk: [`CHUNK`], or `CHUNK + 4` for a last chunk that
/// would leave exactly four joints (see [`run`]).
const LONGEST: usize = CHUNK + 4;

/// `0, 1, ..., LONGEST - 1`: the index list that blends a whole chunk.
static INDEX: [i32; LONGEST] = {
    let mut index = [0; LONGEST];
    let mut i = 0;
    while i < LONGEST {
        index[i] = i as i32;
        i += 1;
    }
    index
};

/// One form's four kernels.
#[derive(Clone, Copy)]
pub(crate) struct Line {
    /// `slerp_joints` or `lerp_joints`.
    pub(crate) blend: kernel::JointBlend,
    /// `quats_to_mats`.
    pub(crate) to_mats: kernel::QuatsToMats,
    /// `transform_skeleton`.
    pub(crate) skeleton: kernel::Skeleton,
    /// `transform_joints`.
    pub(crate) skin: kernel::TransformJoints,
}

/// The raw kernel's arguments ([`crate::form::kernel::Pose`]), as every
/// form's driver takes them.
#[derive(Clone, Copy)]
pub(crate) struct Args {
    /// The model matrices written.
    pub(crate) model: *mut JointMat,
    /// The skinning matrices written, or null.
    pub(crate) skin: *mut JointMat,
    /// The pose at factor 0.
    pub(crate) from: *const JointQuat,
    /// The pose at factor 1, or null (no blend).
    pub(crate) to: *const JointQuat,
    /// The blend factor.
    pub(crate) factor: f32,
    /// The joints' scales, or null.
    pub(crate) scale: *const Vec4,
    /// The parents, `-1` or before the joint.
    pub(crate) parents: *const i32,
    /// The inverse bind matrices (read when `skin` is not null).
    pub(crate) inverse_bind: *const JointMat,
    /// The number of joints.
    pub(crate) num_joints: i32,
}

/// Runs the assembly line of [`crate::form::kernel::Pose`] with `line`'s
/// kernels. Inlined into each form's kernel, where the four kernels are
/// constants (direct calls).
///
/// # Safety
///
/// The contract of [`crate::form::kernel::Pose`] (the `# Safety` section of
/// every form's `slerp_pose`), and the CPU runs `line`'s kernels.
#[inline(always)]
pub(crate) unsafe fn run(line: Line, args: Args) {
    let Args { model, skin, from, to, factor, scale, parents, inverse_bind, num_joints } = args;
    let n = num_joints.max(0) as usize;
    let mut blended = [JointQuat::default(); LONGEST];
    let mut start = 0;
    while start < n {
        // The joint-blend listings run their 4-wide loop on a call of more
        // than four joints and their 1-wide loop on a call of exactly four
        // (`add eax, 4*4; jge done4`: erratum E1 of `slerp_joints` and
        // `lerp_joints`), which rounds differently: a last
        // chunk of four joints joins the chunk before it, so that every
        // joint goes through the loop it goes through in one call over the
        // whole skeleton. The successors' results do not depend on where a
        // joint falls.
        let left = n - start;
        let k = if left == CHUNK + 4 { left } else { left.min(CHUNK) };
        // SAFETY: `start + k <= n` and every array has `n` joints (the
        // caller's contract), so each pointer below is into its array and
        // each kernel reads and writes `k` joints from it; `blended` holds
        // `LONGEST >= k` joints and `INDEX` names `0..k`; the kernels' own
        // contracts (16-byte alignment, parents before their children,
        // `n <= MAX_JOINTS`) are the caller's.
        unsafe {
            let local = model.add(start);
            let quats = if to.is_null() {
                from.add(start)
            } else {
                core::ptr::copy_nonoverlapping(from.add(start), blended.as_mut_ptr(), k);
                (line.blend)(blended.as_mut_ptr(), to.add(start), factor, INDEX.as_ptr(), k as i32);
                blended.as_ptr()
            };
            (line.to_mats)(local, quats, k as i32);
            if !scale.is_null() {
                for i in 0..k {
                    apply_scale(&mut *local.add(i), &*scale.add(start + i));
                }
            }
            // The root-free runs of the chunk, each composed with its
            // parents in one call.
            let mut first = start;
            for i in start..start + k {
                if *parents.add(i) < 0 {
                    if first < i {
                        (line.skeleton)(model, parents, first as i32, i as i32 - 1);
                    }
                    first = i + 1;
                }
            }
            if first < start + k {
                (line.skeleton)(model, parents, first as i32, (start + k) as i32 - 1);
            }
            if !skin.is_null() {
                (line.skin)(skin.add(start), local, inverse_bind.add(start), k as i32);
            }
        }
        start += k;
    }
}

/// `R * diag(s)`: each column `c < 3` of the rotation times `s[c]`, one
/// rounding each (glTF's `T * R * S`); the translation is left alone.
#[inline(always)]
pub(crate) fn apply_scale(m: &mut JointMat, s: &Vec4) {
    let s = [s.x, s.y, s.z];
    for row in m.mat.chunks_exact_mut(4) {
        for (e, s) in row.iter_mut().zip(s) {
            *e *= s;
        }
    }
}
