//! Validation shared by the skeleton transforms (`transform_skeleton`,
//! `untransform_skeleton`), which walk `firstJoint..=lastJoint` with a
//! `parents` array.

use core::ops::RangeInclusive;

use crate::{Error, JOINTMAT_SIZE, JointMat};

/// The most joints (`mats.len()`) the skeleton transforms take: 2^25, so that
/// every 32-bit quantity the listings form (`4 * joint` for `parents`,
/// `48 * joint` = `joint * JOINTMAT_SIZE` for `jointMats`, and their
/// differences, which `jl`/`jge` compare as signed) fits in a signed 32-bit
/// register, as in the 32-bit originals.
pub const MAX_JOINTS: usize = 1 << 25;

const _: () = assert!(((MAX_JOINTS - 1) as u64) * (JOINTMAT_SIZE as u64) <= i32::MAX as u64);

/// The raw kernels' signature: `(jointMats, parents, firstJoint, lastJoint)`.
pub(crate) type SkeletonKernel = unsafe fn(*mut JointMat, *const i32, i32, i32);

/// Validates everything the kernels' memory accesses and the paper's
/// semantics depend on, in the order the safe functions document, then runs
/// `kernel` on the range.
pub(crate) fn run(
    kernel: SkeletonKernel,
    mats: &mut [JointMat],
    parents: &[i32],
    joints: RangeInclusive<usize>,
) -> Result<(), Error> {
    let len = mats.len();
    if len > MAX_JOINTS {
        return Err(Error::TooManyJoints { len, max: MAX_JOINTS });
    }
    crate::assert_16_byte_aligned(mats.as_ptr(), "mats");
    if joints.is_empty() {
        // The listings: `sub eax, ecx` / `jl done`, nothing read or written.
        return Ok(());
    }
    let (first, last) = (*joints.start(), *joints.end());
    if last >= len {
        return Err(Error::RangeOutOfBounds { start: first, end: last, len });
    }
    if parents.len() <= last {
        return Err(Error::TooShort { what: "parents", needed: last + 1, found: parents.len() });
    }
    // One pass without early exit (it vectorises): a negative parent is a
    // huge `u32`, so `parent as u32 >= joint` catches both bad cases. The
    // search for the first culprit runs only on error.
    let range = &parents[first..=last];
    let bad = |(i, &parent): (usize, &i32)| parent as u32 as usize >= first + i;
    if range.iter().enumerate().fold(false, |any, p| any | bad(p)) {
        let (i, &parent) = range.iter().enumerate().find(|&p| bad(p)).expect("a parent is invalid");
        return Err(Error::InvalidParent { joint: first + i, parent });
    }
    // SAFETY: `first <= last < len <= MAX_JOINTS` (so both fit in an i32 and
    // the listings' 32-bit arithmetic is exact); `parents` has an entry for
    // every joint of the range, each `0 <= parents[i] < i <= last < len`, so
    // every joint and parent the kernels touch is in `mats` and a joint is
    // never its own parent; `mats` is 16-byte aligned (asserted) and borrowed
    // mutably, `parents` is a different allocation; `kernel` is runnable here
    // (the caller got it from `Impl::check`).
    unsafe { kernel(mats.as_mut_ptr(), parents.as_ptr(), first as i32, last as i32) };
    Ok(())
}
