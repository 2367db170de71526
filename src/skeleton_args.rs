//! Validation shared by the skeleton transforms (`transform_skeleton`,
//! `untransform_skeleton`), which walk `firstJoint..=lastJoint` with a
//! `parents` array.

use core::ops::RangeInclusive;

use crate::dispatch::{Form, Selected};
use crate::error::Error;
use crate::types::{JOINTMAT_SIZE, JointMat};

/// The most joints (`mats.len()`) the skeleton transforms take: 2^25, so that
/// every 32-bit quantity the listings form (`4 * joint` for `parents`,
/// `48 * joint` = `joint * JOINTMAT_SIZE` for `jointMats`, and their
/// differences, which `jl`/`jge` compare as signed) fits in a signed 32-bit
/// register, as in the 32-bit originals.
pub const MAX_JOINTS: usize = 1 << 25;

const _: () = assert!(((MAX_JOINTS - 1) as u64) * (JOINTMAT_SIZE as u64) <= i32::MAX as u64);

/// The raw kernels' signature: `(jointMats, parents, firstJoint, lastJoint)`.
pub(crate) type SkeletonKernel = crate::form::kernel::Skeleton;

/// A row of a skeleton routine's kernel table.
pub(crate) type SkeletonForm = Form<SkeletonKernel>;

/// The one body of the skeleton transforms' safe functions
/// (`transform_skeleton`, `transform_skeleton_movss_shufps`,
/// `untransform_skeleton`), over the routine's kernel `table`: select the
/// form, validate everything before any write, run the kernel.
pub(crate) fn run(
    table: &[SkeletonForm],
    imp: crate::form::Impl,
    mats: &mut [JointMat],
    parents: &[i32],
    joints: RangeInclusive<usize>,
) -> Result<(), Error> {
    let form = crate::dispatch::select(table, imp, crate::dispatch::alignment_of(&[mats.as_ptr() as usize]))?;
    let Some((first, last)) = validate(&form, mats, parents, joints)? else {
        return Ok(());
    };
    // SAFETY: `validate` checked `first <= last < mats.len() <= MAX_JOINTS`
    // (so the listings' 32-bit arithmetic is exact), that `parents` has an
    // entry for every joint of the range with `0 <= parents[i] < i`, so every
    // joint and parent the kernel touches is in `mats` and no joint is its
    // own parent, and the alignment the form needs; `mats` is borrowed
    // mutably and `parents` is another allocation; `select` returned a
    // kernel this CPU can run.
    unsafe { (form.kernel)(mats.as_mut_ptr(), parents.as_ptr(), first, last) };
    Ok(())
}

/// Validates everything the kernels' memory accesses and the paper's
/// semantics depend on, in the order the safe functions document. Returns
/// the range as the kernels' `(firstJoint, lastJoint)`, or `None` for an
/// empty range (nothing to do, as the listings' `jl done`).
pub(crate) fn validate(
    form: &Selected<SkeletonKernel>,
    mats: &[JointMat],
    parents: &[i32],
    joints: RangeInclusive<usize>,
) -> Result<Option<(i32, i32)>, Error> {
    let len = mats.len();
    if len > MAX_JOINTS {
        return Err(Error::TooLong { what: "mats", len, max: MAX_JOINTS });
    }
    let (first, last) = (*joints.start(), *joints.end());
    if joints.is_empty() {
        // As `&slice[start..start]`: an empty range must start inside the
        // slice or at its end (`1..=0` on one joint is fine, `1000..=999`
        // on ten is not).
        if first > len {
            return Err(Error::RangeOutOfBounds { start: first, end: last, len });
        }
        return Ok(None);
    }
    if last >= len {
        return Err(Error::RangeOutOfBounds { start: first, end: last, len });
    }
    if parents.len() <= last {
        return Err(Error::TooShort { what: "parents", needed: last + 1, found: parents.len() });
    }
    // A negative parent is a huge `u32`, so `parent as u32 >= joint`
    // catches both bad cases (`first + i < MAX_JOINTS` fits in a `u32`).
    let range = &parents[first..=last];
    if let Some(i) = first_bad_parent(range, first as u32, |parent, joint| parent >= joint) {
        return Err(Error::InvalidParent { joint: first + i, parent: range[i] });
    }
    form.check_align(&[("mats", mats.as_ptr() as usize)])?;
    // `first <= last < len <= MAX_JOINTS < 2^31`: both fit in an `i32`.
    Ok(Some((first as i32, last as i32)))
}

/// The index `i` of the first of `parents` for which `bad(parent as u32,
/// base + i)` holds, if any: the safe functions' parent check. One pass
/// without early exit over 32-bit lanes (it vectorises on SSE2, where a
/// comparison of 64-bit indices would not: a safe call on 1024 joints
/// spent about 0.8 ticks a joint in the scalar loop); the search for the
/// culprit runs only on error.
///
/// The caller keeps `base + parents.len()` within `u32` (every routine's
/// limit on joints is far below it).
#[inline]
pub(crate) fn first_bad_parent(parents: &[i32], base: u32, bad: impl Fn(u32, u32) -> bool) -> Option<usize> {
    let mut joint = base;
    let mut any = false;
    for &parent in parents {
        any |= bad(parent as u32, joint);
        joint = joint.wrapping_add(1);
    }
    if !any {
        return None;
    }
    parents.iter().zip(base..).position(|(&parent, joint)| bad(parent as u32, joint))
}
