//! The assembly line in one call: a character's whole pose, from two
//! keyframe poses to model (and skinning) matrices, in one pass over its
//! joints. J.M.P. van Waveren's *The Skeleton Assembly Line* (id Software,
//! 2005) describes the line (blend, convert, transform, skin) and gives a
//! listing for each stage; here the stages run one after the other a chunk
//! of joints at a time, so each joint's data stays in the L1 cache from the
//! blend to the skin.
//!
//! For every joint `i` of a skeleton in parents-first order:
//!
//! 1. `q = blend(from[i], to[i], factor)`: [`slerp_pose()`] by the rules of
//!    [`slerp_joints()`](crate::slerp_joints()), [`lerp_pose()`] by those of
//!    [`lerp_joints()`](crate::lerp_joints()) (the endpoint rule included:
//!    `factor <= 0` takes `from` as it is, `factor >= 1` takes `to`);
//! 2. `local = [R | t]` of `q` ([`quats_to_mats()`](crate::quats_to_mats()));
//!    with a scale, each column `c` of `R` times `scale[i][c]` (glTF's
//!    `T * R * S`, one multiply per element);
//! 3. `model[i] = model[parents[i]] * local`, or `local` for a root
//!    ([`transform_skeleton()`](crate::transform_skeleton()));
//! 4. with a [`Skin`], `skin[i] = model[i] * inverse_bind[i]`
//!    ([`transform_joints()`](crate::transform_joints())).
//!
//! Each form runs the four routines' form of the same name. [`scalar`]
//! chains the paper's C routines, [`asm`] and [`intrinsics`] the listings,
//! [`portable`], `neon` and `simd128` the successors' kernels, 32 joints at a time.
//! [`avx2`] is fused: 16 or 24 joints at a time from both poses to their
//! model (and skin) matrices in registers and L1, with the successors'
//! arithmetic. [`avx512`] is fused the same way on sixteen lanes, 32 joints
//! at a time, with the local matrices' rows in a ring on the stack and
//! `Avx2`'s parent product (a `ymm` and an `xmm` a joint); on an Intel Xeon
//! with AVX-512 its first version (one `zmm` per parent product, which an
//! AMD Zen 4 runs 1.04-1.18x slower than the present one) took a median
//! 0.89x `Avx2`'s time over five runs of every row of the report (most rows
//! 0.75-0.95x at 100 and 1024 joints; level at 24, and `slerp_pose` up to
//! 1.15x on some rows at 1024: its module documentation has the figures),
//! so it comes first and
//! `Impl::Auto` and `Impl::Deterministic` run it there.
//! (The AVX-512 successors merely chained took 1.1-1.6x `Avx2`'s time,
//! `asm_notes/pose.md`.) Every
//! form gives, bit for bit, what its four routines give when called one
//! after the other over the whole skeleton (`tests/whole_pose.rs` checks
//! it), so the successors give the one answer.
//!
//! A skeleton in another order, or with several roots anywhere, goes
//! through [`crate::Skeleton::slerp_pose`] and
//! [`crate::Skeleton::lerp_pose`].
//!
//! # A crowd's frame
//!
//! Resample each clip to a fixed rate once at load, so that a pose is one
//! factor for every joint; then each character's frame is one call
//! (`examples/crowd.rs` runs 1,000 Foxes this way, on one core and with
//! rayon):
//!
//! ```
//! use animasm::pose::{PoseInput, Skin};
//! use animasm::{Impl, JointMat, JointQuat, Quat, Vec4, slerp_pose};
//!
//! /// A clip resampled once to `rate` frames a second: every joint's local
//! /// pose per frame (parents first; rotations in the papers' convention,
//! /// glTF's conjugated: see Conventions above).
//! struct Clip { rate: f32, frames: Vec<Vec<JointQuat>> }
//!
//! /// A character: its clip, its time in it, its own output.
//! struct Character { clip: usize, time: f32, model: Vec<JointMat>, skin: Vec<JointMat> }
//!
//! /// One frame of every character: one call each. With rayon,
//! /// `crowd.par_iter_mut().try_for_each(...)` runs the same body on every
//! /// core (each character writes only its own buffers).
//! fn pose_crowd(clips: &[Clip], parents: &[i32], inverse_bind: &[JointMat], crowd: &mut [Character], dt: f32)
//!     -> Result<(), animasm::Error> {
//!     crowd.iter_mut().try_for_each(|c| {
//!         let clip = &clips[c.clip];
//!         let last = clip.frames.len() - 1;
//!         c.time = (c.time + dt) % (last as f32 / clip.rate);
//!         let x = c.time * clip.rate;
//!         let k = (x as usize).min(last - 1); // the two frames around the time, the factor between
//!         let input = PoseInput::new(&clip.frames[k], &clip.frames[k + 1], x - k as f32);
//!         let skin = Skin { inverse_bind, mats: &mut c.skin };
//!         slerp_pose(Impl::Auto, &input, parents, &mut c.model, Some(skin))
//!     })
//! }
//!
//! fn main() -> Result<(), animasm::Error> {
//!     // Two joints, the second 1 along x from the first, turning about z.
//!     let h = core::f32::consts::FRAC_1_SQRT_2;
//!     let at = |q| vec![JointQuat::new(q, Vec4::new(1.0, 0.0, 0.0, 1.0)); 2];
//!     let clips = [Clip { rate: 30.0, frames: vec![at(Quat::IDENTITY), at(Quat::new(0.0, 0.0, h, h))] }];
//!     let id = || vec![JointMat::IDENTITY; 2];
//!     let mut crowd: Vec<Character> =
//!         (0..3).map(|i| Character { clip: 0, time: i as f32 / 100.0, model: id(), skin: id() }).collect();
//!     pose_crowd(&clips, &[-1, 0], &id(), &mut crowd, 1.0 / 60.0)?;
//!     assert!(crowd.iter().all(|c| c.skin == c.model)); // identity inverse binds
//!     Ok(())
//! }
//! ```

mod forms;
mod line;
pub mod portable;
pub mod scalar;

#[cfg(all(target_arch = "x86_64", not(miri)))]
pub mod asm;
#[cfg(target_arch = "x86_64")]
pub mod avx2;
#[cfg(target_arch = "x86_64")]
pub mod avx512;
#[cfg(target_arch = "x86_64")]
pub mod intrinsics;
#[cfg(target_arch = "aarch64")]
pub mod neon;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub mod simd128;

use crate::dispatch::{Form, Impl, Table, form};
use crate::error::Error;
use crate::skeleton_args::first_bad_parent;
use crate::types::{JointMat, JointQuat, Vec4};

/// The raw kernels' signature ([`crate::form::kernel::Pose`]).
pub(crate) type PoseKernel = crate::form::kernel::Pose;

/// The most joints a pose takes: the skeleton kernels' limit
/// ([`crate::transform_skeleton::MAX_JOINTS`], the smallest of the four
/// routines').
pub const MAX_JOINTS: usize = crate::skeleton_args::MAX_JOINTS;

/// The forms of [`slerp_pose()`], fastest first: the order [`Impl::Auto`]
/// tries them in (`docs/results.md`, "The whole pose").
pub(crate) static SLERP_FORMS: &[Form<PoseKernel>] = &[
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::slerp_pose, Successor on Neon),
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::slerp_pose, Successor on Simd128),
    #[cfg(target_arch = "x86_64")]
    form!(Avx512 => avx512::slerp_pose, Successor on Avx512),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::slerp_pose, Successor on Avx2Fma),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::slerp_pose, Listing on Sse2),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::slerp_pose, ListingTwin on Sse2),
    form!(Portable => portable::slerp_pose, Successor),
    form!(Scalar => scalar::slerp_pose, PaperC),
];

/// The forms of [`lerp_pose()`], fastest first (the chained forms in the
/// order of `lerp_joints`' table, whose intrinsics twin is the faster of
/// the listing's two forms).
pub(crate) static LERP_FORMS: &[Form<PoseKernel>] = &[
    #[cfg(target_arch = "aarch64")]
    form!(Neon => neon::lerp_pose, Successor on Neon),
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    form!(Simd128 => simd128::lerp_pose, Successor on Simd128),
    #[cfg(target_arch = "x86_64")]
    form!(Avx512 => avx512::lerp_pose, Successor on Avx512),
    #[cfg(target_arch = "x86_64")]
    form!(Avx2 => avx2::lerp_pose, Successor on Avx2Fma),
    #[cfg(target_arch = "x86_64")]
    form!(Intrinsics => intrinsics::lerp_pose, ListingTwin on Sse2),
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    form!(Asm => asm::lerp_pose, Listing on Sse2),
    form!(Portable => portable::lerp_pose, Successor),
    form!(Scalar => scalar::lerp_pose, PaperC),
];

/// [`SLERP_FORMS`] with the row `Impl::Auto` runs, found on the first safe
/// call ([`Table`]).
pub(crate) static SLERP: Table<PoseKernel> = Table::new(SLERP_FORMS);

/// [`LERP_FORMS`] with the row `Impl::Auto` runs ([`Table`]).
pub(crate) static LERP: Table<PoseKernel> = Table::new(LERP_FORMS);

/// The forms of [`slerp_pose()`]: `forms()`, `resolve()` and `kernel()`.
pub mod slerp {
    use super::{PoseKernel, SLERP_FORMS};
    use crate::dispatch::routine_api;

    routine_api!(SLERP_FORMS, "super::slerp_pose()", PoseKernel);
}

/// The forms of [`lerp_pose()`]: `forms()`, `resolve()` and `kernel()`.
pub mod lerp {
    use super::{LERP_FORMS, PoseKernel};
    use crate::dispatch::routine_api;

    routine_api!(LERP_FORMS, "super::lerp_pose()", PoseKernel);
}

/// The two poses a pose routine blends, by one factor, and the joints'
/// scales.
///
/// ```
/// use animasm::{JointQuat, pose::PoseInput};
/// let (a, b) = (vec![JointQuat::default(); 3], vec![JointQuat::default(); 3]);
/// let input = PoseInput::new(&a, &b, 0.25);
/// assert!(input.scale.is_none());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PoseInput<'a> {
    /// The pose at factor 0 (the listings' `joints`).
    pub from: &'a [JointQuat],
    /// The pose at factor 1 (the listings' `blendJoints`).
    pub to: &'a [JointQuat],
    /// The blend factor: `<= 0` gives `from`, `>= 1` gives `to`.
    pub factor: f32,
    /// Each joint's scale along its local x, y and z axes (`w` unused),
    /// applied to the blended rotation's columns (glTF's `T * R * S`), or
    /// `None` for none. A scale is not blended: give the scale at the
    /// factor (an animated scale is a lerp of the keys' scales).
    pub scale: Option<&'a [Vec4]>,
}

impl<'a> PoseInput<'a> {
    /// `from` and `to` blended by `factor`, without a scale.
    pub fn new(from: &'a [JointQuat], to: &'a [JointQuat], factor: f32) -> PoseInput<'a> {
        PoseInput { from, to, factor, scale: None }
    }

    /// The same input with each joint scaled by `scale`.
    pub fn with_scale(self, scale: &'a [Vec4]) -> PoseInput<'a> {
        PoseInput { scale: Some(scale), ..self }
    }
}

/// The skinning stage: `mats[i] = model[i] * inverse_bind[i]`.
#[derive(Debug)]
pub struct Skin<'a> {
    /// Each joint's inverse bind matrix (glTF's `inverseBindMatrices`).
    pub inverse_bind: &'a [JointMat],
    /// The skinning matrices written.
    pub mats: &'a mut [JointMat],
}

/// The pose of a skeleton in parents-first order, blended by slerp: for
/// every joint, `model[i] = model[parents[i]] * [R | t]` of the slerp of
/// `input.from[i]` and `input.to[i]` by `input.factor` (a root's `model` is
/// its own `[R | t]`), the scale applied to `R` first, and with `skin`
/// `skin.mats[i] = model[i] * skin.inverse_bind[i]`. The module
/// documentation gives the stages; each form gives the bits of its
/// `slerp_joints`, `quats_to_mats`, `transform_skeleton` and
/// `transform_joints` called one after the other (so the successors,
/// [`Impl::Portable`], [`Impl::Avx2`], [`Impl::Avx512`], [`Impl::Neon`], [`Impl::Simd128`] and
/// [`Impl::Deterministic`], agree bit for bit on every CPU), and the
/// listings' errata with them.
///
/// ```
/// use animasm::{Impl, JointMat, JointQuat, Quat, Vec4};
/// use animasm::pose::{PoseInput, Skin};
///
/// // A chain of three joints, each 1 along x from its parent, turning
/// // from no rotation to a quarter turn about z.
/// let h = core::f32::consts::FRAC_1_SQRT_2;
/// let rest = vec![JointQuat::new(Quat::IDENTITY, Vec4::new(1.0, 0.0, 0.0, 1.0)); 3];
/// let turned = vec![JointQuat::new(Quat::new(0.0, 0.0, h, h), Vec4::new(1.0, 0.0, 0.0, 1.0)); 3];
/// let parents = [-1, 0, 1];
/// let mut model = [JointMat::IDENTITY; 3];
/// animasm::slerp_pose(Impl::Auto, &PoseInput::new(&rest, &turned, 0.0), &parents, &mut model, None)?;
/// assert_eq!(model[2].translation(), [3.0, 0.0, 0.0]);
///
/// // With skinning matrices: the rest pose's inverse makes them identities.
/// let mut inverse_bind = [JointMat::IDENTITY; 3];
/// for (x, m) in inverse_bind.iter_mut().enumerate() {
///     m.mat[3] = -(x as f32 + 1.0);
/// }
/// let mut skin = [JointMat::default(); 3];
/// let s = Skin { inverse_bind: &inverse_bind, mats: &mut skin };
/// animasm::slerp_pose(Impl::Auto, &PoseInput::new(&rest, &turned, 0.0), &parents, &mut model, Some(s))?;
/// assert!(skin.iter().all(|m| *m == JointMat::IDENTITY));
/// # Ok::<(), animasm::Error>(())
/// ```
///
/// # Errors
///
/// Checked in this order, before anything is written:
/// - [`Error::Unsupported`]: the routine has no form `imp` on this target;
/// - [`Error::MissingCpuFeature`]: the form needs CPU features this CPU lacks;
/// - [`Error::TooLong`] (`what: "model"`): more than [`MAX_JOINTS`] joints;
/// - [`Error::LengthMismatch`]: `from`, `to`, `parents`, `scale`,
///   `inverse_bind` or `skin` (checked in that order) does not have
///   `model.len()` elements (`what` names it);
/// - [`Error::NonFiniteFactor`] (`what: "factor"`): the factor is NaN or
///   infinite;
/// - [`Error::InvalidParent`]: the first joint `i` whose parent is neither
///   `-1` nor in `0..i` (parents first);
/// - [`Error::Misaligned`]: never with safe code (no form needs more than
///   the types' 16 bytes).
pub fn slerp_pose(
    imp: Impl,
    input: &PoseInput<'_>,
    parents: &[i32],
    model: &mut [JointMat],
    skin: Option<Skin<'_>>,
) -> Result<(), Error> {
    run(&SLERP, imp, input, Parents::Unchecked(parents), model, skin)
}

/// [`slerp_pose()`] with the blend of [`lerp_joints()`](crate::lerp_joints())
/// (a renormalised lerp of the rotations): the same stages, contract and
/// errors.
pub fn lerp_pose(
    imp: Impl,
    input: &PoseInput<'_>,
    parents: &[i32],
    model: &mut [JointMat],
    skin: Option<Skin<'_>>,
) -> Result<(), Error> {
    run(&LERP, imp, input, Parents::Unchecked(parents), model, skin)
}

/// A pose routine's parents: a caller's list, checked on every call, or a
/// [`Skeleton`](crate::Skeleton)'s, checked (parents first) when it was
/// built, which its pose methods pass without the O(n) check.
#[derive(Clone, Copy)]
#[cfg_attr(not(feature = "alloc"), allow(dead_code))]
pub(crate) enum Parents<'a> {
    /// To check.
    Unchecked(&'a [i32]),
    /// Every parent `-1` or before its joint (a `Skeleton`'s).
    Checked(&'a [i32]),
}

impl<'a> Parents<'a> {
    fn list(self) -> &'a [i32] {
        match self {
            Parents::Unchecked(p) | Parents::Checked(p) => p,
        }
    }
}

/// The safe functions' one body: select, validate, one kernel call
/// (`Skeleton`'s pose methods call it with their checked parents).
pub(crate) fn run(
    table: &Table<PoseKernel>,
    imp: Impl,
    input: &PoseInput<'_>,
    checked: Parents<'_>,
    model: &mut [JointMat],
    skin: Option<Skin<'_>>,
) -> Result<(), Error> {
    let parents = checked.list();
    let (inverse_bind, skin_mats) = match skin {
        Some(Skin { inverse_bind, mats }) => (Some(inverse_bind), Some(mats)),
        None => (None, None),
    };
    // No pose form needs more than its types' alignment (`ALIGNED`), so
    // the buffers' addresses are not looked at.
    let form = table.select(imp)?;
    validate(input, checked, model, inverse_bind, skin_mats.as_deref())?;
    // The endpoint rule: no blend at all (a null `to`) from the pose that
    // is kept.
    let (from, to) = if input.factor <= 0.0 {
        (input.from.as_ptr(), core::ptr::null())
    } else if input.factor >= 1.0 {
        (input.to.as_ptr(), core::ptr::null())
    } else {
        (input.from.as_ptr(), input.to.as_ptr())
    };
    let scale = input.scale.map_or(core::ptr::null(), <[Vec4]>::as_ptr);
    let inverse_bind = inverse_bind.map_or(core::ptr::null(), <[JointMat]>::as_ptr);
    let skin = skin_mats.map_or(core::ptr::null_mut(), <[JointMat]>::as_mut_ptr);
    // SAFETY: `validate` checked that every array has `model.len() <=
    // MAX_JOINTS` elements, that every parent is `-1` or before its joint,
    // and the alignment the form needs; `model` and `skin` are borrowed
    // mutably, so they overlap nothing; `select` returned a kernel this CPU
    // can run.
    unsafe {
        (form.kernel)(
            model.as_mut_ptr(),
            skin,
            from,
            to,
            input.factor,
            scale,
            parents.as_ptr(),
            inverse_bind,
            model.len() as i32,
        )
    };
    Ok(())
}

/// Checks everything the kernels' memory accesses and the contract depend
/// on, in the order the safe functions document, before any write.
fn validate(
    input: &PoseInput<'_>,
    checked: Parents<'_>,
    model: &[JointMat],
    inverse_bind: Option<&[JointMat]>,
    skin: Option<&[JointMat]>,
) -> Result<(), Error> {
    let parents = checked.list();
    let n = model.len();
    if n > MAX_JOINTS {
        return Err(Error::TooLong { what: "model", len: n, max: MAX_JOINTS });
    }
    let mismatch = |what, found| Err(Error::LengthMismatch { what, expected: n, found });
    if input.from.len() != n {
        return mismatch("from", input.from.len());
    }
    if input.to.len() != n {
        return mismatch("to", input.to.len());
    }
    if parents.len() != n {
        return mismatch("parents", parents.len());
    }
    if let Some(s) = input.scale.filter(|s| s.len() != n) {
        return mismatch("scale", s.len());
    }
    if let Some(b) = inverse_bind.filter(|b| b.len() != n) {
        return mismatch("inverse_bind", b.len());
    }
    if let Some(s) = skin.filter(|s| s.len() != n) {
        return mismatch("skin", s.len());
    }
    if !input.factor.is_finite() {
        return Err(Error::NonFiniteFactor { what: "factor", position: None, value: input.factor });
    }
    // `parent + 1` as `u32` is `0` for a root and `p + 1` for a parent `p`:
    // at most `i` exactly when the parent is valid (`p < -1` wraps to a
    // huge number); `n <= MAX_JOINTS` fits in a `u32`.
    if let Parents::Unchecked(parents) = checked
        && let Some(joint) = first_bad_parent(parents, 0, |parent, joint| parent.wrapping_add(1) > joint)
    {
        return Err(Error::InvalidParent { joint, parent: parents[joint] });
    }
    // Alignment: nothing to check (`ALIGNED`).
    Ok(())
}

/// Every pose form takes its buffers at their types' alignment (16 bytes):
/// the safe functions neither pick a form by the buffers' addresses nor
/// check them.
const ALIGNED: () = {
    let mut i = 0;
    while i < SLERP_FORMS.len() {
        assert!(SLERP_FORMS[i].align == 1, "a slerp_pose form needs an alignment: restore the check");
        i += 1;
    }
    let mut i = 0;
    while i < LERP_FORMS.len() {
        assert!(LERP_FORMS[i].align == 1, "a lerp_pose form needs an alignment: restore the check");
        i += 1;
    }
};
const _: () = ALIGNED;
