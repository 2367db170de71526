//! The successor of Appendix C for wasm SIMD128 (`Impl::Simd128`, builds
//! with `-C target-feature=+simd128`): the NEON successor (`super::neon`)
//! lane for lane, one joint per iteration, one 4-lane register per row, the
//! per-lane arithmetic of [`super::portable`] (the one order of
//! operations, written out there), so its results are the portable form's,
//! the AVX2 form's and the NEON form's bit for bit.
//!
//! **What the form is.** Per joint: the three rows of `joints2[i]` and of
//! `joints1[i]` (six 16-byte loads, all before the stores, so in-place calls
//! work); each result row `r` is `b0 * a[r][0]`, plus `b1 * a[r][1]`, plus
//! `b2 * a[r][2]` (`f32x4_mul` and separate `f32x4_add`s: no fused
//! operation), plus `(-0.0, -0.0, -0.0, a[r][3])` (lane 3 of the row
//! shuffled into a `-0.0` vector), then three 16-byte stores.
//!
//! **What changed from the NEON form, and why.** wasm's multiply has no
//! by-element operand, so `a[r][k]` is broadcast first (`i32x4_shuffle`
//! of one lane, one `pshufd` under V8; `crate::wasm32::blocks4`), and the
//! `bsl` with the lane-3 mask is a blending shuffle. The operations per
//! lane and their order are the same (the C's roundings, the translation
//! added last; nothing to fuse), so no result changes.

use crate::types::JointMat;
use crate::wasm32::blocks4::{load, splat_lane, store, with_lane3_of};
use core::arch::wasm32::*;

/// `TransformJoints` for wasm SIMD128: `result[i] = joints1[i] *
/// joints2[i]` for `i` in `0..num_joints`. `num_joints <= 0` reads and
/// writes nothing.
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
    // The rotation lanes' last addend is -0.0, the translation lane's
    // a[r][3].
    let neg_zero = f32x4_splat(-0.0);
    for i in 0..num_joints.max(0) as usize {
        // SAFETY: `i < num_joints`, so `a`, `b` and `r` are joint `i` of
        // each list, valid for 48 bytes (caller's contract); every access
        // below stays inside them, and all loads of joint `i` come before
        // its stores (in-place calls read the inputs whole first).
        unsafe {
            let a = joints1.add(i).cast::<f32>();
            let b = joints2.add(i).cast::<f32>();
            let r = result.add(i).cast::<f32>();
            let (b0, b1, b2) = (load(b), load(b.add(4)), load(b.add(8)));
            let rows = [load(a), load(a.add(4)), load(a.add(8))];
            let out = rows.map(|ar| {
                let mut y = f32x4_mul(b0, splat_lane::<0>(ar));
                y = f32x4_add(y, f32x4_mul(b1, splat_lane::<1>(ar)));
                y = f32x4_add(y, f32x4_mul(b2, splat_lane::<2>(ar)));
                f32x4_add(y, with_lane3_of(neg_zero, ar))
            });
            store(r, out[0]);
            store(r.add(4), out[1]);
            store(r.add(8), out[2]);
        }
    }
}
