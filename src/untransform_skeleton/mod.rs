//! `UntransformSkeleton`: joint matrices from global (object or world) space
//! back to local space (relative to their parents), in place, from J.M.P. van
//! Waveren, *The Skeleton Assembly Line* (id Software, 2005), section 4 and
//! Appendix B. It is the opposite of `TransformSkeleton` (section 3,
//! Appendix A, [`crate::transform_skeleton`]).
//!
//! - [`scalar`]: the paper's `UntransformJoint` and `UntransformSkeleton`,
//!   line by line (the OCR'd C is partly garbled; the port writes every line
//!   from the formula the surviving lines and the listing agree on); the
//!   paper times the loop as "C".
//! - [`intrinsics`]: Appendix B with SSE2 intrinsics, bit-identical to the asm.
//! - [`asm`]: Appendix B in `asm!`, instruction for instruction.
//!
//! The three compute the same roundings in the same order: on every input
//! whose result is not a NaN they agree bit for bit.
//! `asm_notes/untransform_skeleton.md` walks through the listing.

pub mod scalar;

#[cfg(target_arch = "x86_64")]
pub mod asm;
#[cfg(target_arch = "x86_64")]
pub mod intrinsics;

use crate::{Error, Impl, JOINTMAT_SIZE, JointMat};
use core::ops::RangeInclusive;

/// The most joints [`untransform_skeleton()`] takes (`mats.len()`): 2^25,
/// the bound of `transform_skeleton` too. Every 32-bit quantity the listing
/// forms then fits in a signed 32-bit register, as in the 32-bit original:
/// `lastJoint * JOINTMAT_SIZE` (`lea ecx, [ecx+ecx*2]` / `shl ecx, 4`, at
/// most `48 * (2^25 - 1) < 2^31`), `parents[i] * JOINTMAT_SIZE` and
/// `(lastJoint - firstJoint) * 4`, which `jge loopJoint` compares as signed.
pub const MAX_SKELETON_JOINTS: usize = 1 << 25;

const _: () = assert!(((MAX_SKELETON_JOINTS - 1) as u64) * (JOINTMAT_SIZE as u64) <= i32::MAX as u64);

/// Turns the global joint matrices `mats[joints]` back into local ones
/// (relative to their parents), in place, last joint first (the paper's
/// `UntransformSkeleton( jointMats, parents, firstJoint, lastJoint )`):
/// `mats[i] = inverse(mats[parents[i]]) * mats[i]` for `i` from
/// `joints.end()` down to `joints.start()`, where each parent is still a
/// global matrix when its children read it.
///
/// Matrices are row-major 3x4 `[R | t]` for column vectors (`global[i] =
/// global[parent] * local[i]`), as `transform_skeleton` builds them. The
/// inverse is taken as the rigid one, `[R^T | -R^T t]`: the paper assumes
/// orthonormal rotations (its section 2), and the routine computes `mats[i]
/// = Rp^T (mats[i] - tp)` exactly as its C and its listing do. With a parent
/// that scales or shears, the result is not the local matrix (it is `Rp^T`
/// applied, not `Rp^-1`). Joints outside the range are neither read
/// (except as parents) nor written; a parent before the range must already
/// be global.
///
/// [`Impl::Scalar`], [`Impl::Intrinsics`] and [`Impl::Asm`] agree bit for bit
/// on every input whose results are not NaNs (NaN results are NaNs in all
/// three). An empty range (`start > end`, or an exhausted range) returns
/// `Ok(())` and touches nothing, as the listing's `jl done`; its bounds are
/// not checked against the slices.
///
/// # Errors
///
/// Checked before anything is written, in this order:
/// - [`Error::Unsupported`]: `imp` cannot run here;
/// - [`Error::TooManyJoints`]: `mats` has more than [`MAX_SKELETON_JOINTS`]
///   elements;
/// - (an empty range returns `Ok(())` here;)
/// - [`Error::RangeOutOfBounds`]: the last joint of the range is not a joint
///   of `mats`;
/// - [`Error::TooShort`] (`what: "parents"`): `parents` has fewer than
///   `end + 1` entries;
/// - [`Error::InvalidParent`]: a joint `i` of the range (the first such,
///   lowest `i`) has a parent that is negative or not before it
///   (`parents[i] < 0 || parents[i] >= i`). A root has no parent (`-1`), so
///   a range that starts at the root (joint 0) is refused: untransform from
///   joint 1 (the root's global matrix is its local one). Joints outside the
///   range may have any parent.
///
/// Input that only changes results is accepted and computed as the listing
/// computes it: non-orthonormal parent rotations (see above), NaN or infinite
/// values.
///
/// # Panics
///
/// If `mats` is not 16-byte aligned, which [`JointMat`] rules out.
pub fn untransform_skeleton(
    imp: Impl,
    mats: &mut [JointMat],
    parents: &[i32],
    joints: RangeInclusive<usize>,
) -> Result<(), Error> {
    let imp = imp.check()?;
    let len = mats.len();
    if len > MAX_SKELETON_JOINTS {
        return Err(Error::TooManyJoints { len, max: MAX_SKELETON_JOINTS });
    }
    crate::assert_16_byte_aligned(mats.as_ptr(), "mats");
    if joints.is_empty() {
        // The listing: `sub eax, edx` / `jl done`, nothing read or written.
        return Ok(());
    }
    let (start, end) = (*joints.start(), *joints.end());
    if end >= len {
        return Err(Error::RangeOutOfBounds { start, end, len });
    }
    if parents.len() <= end {
        return Err(Error::TooShort { what: "parents", needed: end + 1, found: parents.len() });
    }
    if let Some(joint) = (start..=end).find(|&i| parents[i] < 0 || parents[i] as usize >= i) {
        return Err(Error::InvalidParent { joint, parent: parents[joint] });
    }

    // Both fit: `start <= end < len <= MAX_SKELETON_JOINTS < i32::MAX`.
    let (first, last) = (start as i32, end as i32);
    let (m, p) = (mats.as_mut_ptr(), parents.as_ptr());
    match imp {
        Impl::Scalar => {
            // SAFETY: every joint `i` of `start..=end` is in `mats` (end <
            // len), `parents[i]` is readable (end < parents.len()) and lies in
            // `0..i`, so it is another joint of `mats`.
            unsafe { scalar::untransform_skeleton(m, p, first, last) }
        }
        #[cfg(target_arch = "x86_64")]
        Impl::Intrinsics => {
            // SAFETY: as above, plus the 16-byte alignment asserted above and
            // `end < MAX_SKELETON_JOINTS`, which keeps `end * 48 < 2^31`.
            unsafe { intrinsics::untransform_skeleton(m, p, first, last) }
        }
        #[cfg(target_arch = "x86_64")]
        Impl::Asm => {
            // SAFETY: as for `Impl::Intrinsics`.
            unsafe { asm::untransform_skeleton(m, p, first, last) }
        }
        #[allow(unreachable_patterns)]
        _ => return Err(Error::Unsupported(imp)),
    }
    Ok(())
}
