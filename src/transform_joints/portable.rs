//! The successor of Appendix C in plain Rust (`Impl::Portable`): one joint
//! at a time, exactly the per-lane operations of the AVX2 successor
//! ([`super::avx2`]) and of the NEON one (`super::neon`), so all of them
//! give the same bits on every CPU (NaN bits aside).
//!
//! **The one order of operations** (every successor form follows it lane
//! for lane; no operation is fused): for row `r` and column `c` of
//! `result = a * b`,
//!
//! ```text
//! result[r][c] = ((a[r][0] * b[0][c] + a[r][1] * b[1][c]) + a[r][2] * b[2][c]) + t_rc
//! t_rc = a[r][3] for c == 3, -0.0 for c < 3
//! ```
//!
//! the C's roundings (products, then sums left to right, the translation
//! last), so the results are also the scalar port's bit for bit: adding
//! `-0.0` changes no number (`x + -0.0 == x` for every `x`, `-0.0`
//! included), it only stands for the rotation lanes of the SIMD forms'
//! one vector add of `(-0.0, -0.0, -0.0, t)`.
//!
//! **What changed from the AVX2 successor, and why.** Nothing in the
//! arithmetic: the AVX2 form has no estimate instruction, no FMA and no
//! tail (one joint per iteration, rows 0 and 1 in one `ymm`), so its bits
//! were already the same on every x86 CPU. Here each element is written out
//! as the formula above, one joint at a time. Both input joints are read
//! whole before the result joint is written, so `result` may be exactly
//! `joints1` or `joints2`, as for the AVX2 form and the listing.
//!
//! The form runs on every target and is what
//! [`crate::Impl::Deterministic`] falls back to where no SIMD successor
//! runs.

use crate::types::JointMat;

/// The successors' product of two joints, `a * b` (3x4 row-major affine
/// matrices, implicit last row `0 0 0 1`), rounded as the module
/// documentation writes it.
#[inline]
pub fn multiply_joints(a: &JointMat, b: &JointMat) -> JointMat {
    let (a, b) = (&a.mat, &b.mat);
    JointMat {
        mat: core::array::from_fn(|e| {
            let (r, c) = (e / 4, e % 4);
            let t = if c == 3 { a[r * 4 + 3] } else { -0.0 };
            ((a[r * 4] * b[c] + a[r * 4 + 1] * b[4 + c]) + a[r * 4 + 2] * b[8 + c]) + t
        }),
    }
}

/// `TransformJoints`, the successors' arithmetic in plain Rust:
/// `result[i] = joints1[i] * joints2[i]` ([`multiply_joints`]) for `i` in
/// `0..num_joints`. `num_joints <= 0` reads and writes nothing.
///
/// # Safety
///
/// If `num_joints > 0`:
/// - `joints1` and `joints2` are valid for reads and `result` for writes of
///   `num_joints` [`JointMat`]s each, all aligned for the type;
/// - `result` may be exactly `joints1` or `joints2` (each input joint is
///   read whole before the result joint at the same place is written); no
///   other overlap.
pub unsafe fn transform_joints(
    result: *mut JointMat,
    joints1: *const JointMat,
    joints2: *const JointMat,
    num_joints: i32,
) {
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`: the three elements are valid and aligned
        // (caller's contract); both inputs are read (copied) before
        // `result[i]` is written, so an in-place call is sound.
        unsafe {
            let (a, b) = (joints1.add(i).read(), joints2.add(i).read());
            result.add(i).write(multiply_joints(&a, &b));
        }
    }
}
