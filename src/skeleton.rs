//! [`Skeleton`]: a joint hierarchy checked once, in any order, with the
//! paper kernels run over it.
//!
//! The paper's skeleton routines (`transform_skeleton`,
//! `untransform_skeleton`) take a joint range whose every joint has a parent
//! before it: the joints must be stored parents first, and the range must
//! leave out the roots. glTF skins list their joints in any order and
//! characters often have several roots, so a caller would have to sort the
//! joints, find the roots and call the kernel once per root-free run. A
//! `Skeleton` does that once, from the parents list, and then runs the
//! kernels over every run.

use alloc::vec::Vec;
use core::ops::RangeInclusive;

use crate::dispatch::Impl;
use crate::error::Error;
use crate::pose::{Parents, PoseInput, Skin};
use crate::skeleton_args::MAX_JOINTS;
use crate::types::{JointMat, JointQuat};

/// A joint hierarchy, validated and put in parents-first order.
///
/// Built once from a parents list in any order (`parents[j]` is the parent
/// of joint `j`, `-1` for a root). It keeps:
///
/// - a **parents-first order** of the joints (every parent before its
///   children): the caller's order itself when it already is one, otherwise
///   the caller's order with each joint moved after its ancestors;
///   [`order`](Skeleton::order) and [`positions`](Skeleton::positions) map
///   between the two, and [`to_parents_first`](Skeleton::to_parents_first)
///   and [`from_parents_first`](Skeleton::from_parents_first) move joint
///   arrays across;
/// - the parents in that order ([`parents`](Skeleton::parents)), the
///   [`roots`](Skeleton::roots), and the **root-free runs**
///   ([`runs`](Skeleton::runs)): the maximal ranges of positions without a
///   root, which are the ranges the paper kernels take.
///
/// Every method that takes joint arrays takes them in the parents-first
/// order. [`local_to_model`](Skeleton::local_to_model) and
/// [`model_to_local`](Skeleton::model_to_local) run
/// [`transform_skeleton`](crate::transform_skeleton()) and
/// [`untransform_skeleton`](crate::untransform_skeleton()) over every run;
/// [`slerp_joints`](Skeleton::slerp_joints) and
/// [`lerp_joints`](Skeleton::lerp_joints) blend every joint without an index
/// list. They return an [`Error`] before anything is written, as the safe
/// functions do. Requires the `alloc` feature (on with `std`).
///
/// ```
/// use animasm::{Impl, JointMat, Skeleton};
///
/// // Two roots (1 and 3), listed children first.
/// let parents = [1, -1, 0, -1, 3];
/// let skeleton = Skeleton::new(&parents)?;
/// assert_eq!(skeleton.order(), &[1, 0, 2, 3, 4]);
/// assert_eq!(skeleton.parents(), &[-1, 0, 1, -1, 3]);
/// assert_eq!(skeleton.roots(), &[0, 3]);
/// assert_eq!(skeleton.runs().collect::<Vec<_>>(), [1..=2, 4..=4]);
///
/// // Each joint moves 1 along x from its parent: the model-space x is its depth.
/// let mut step = JointMat::IDENTITY;
/// step.mat[3] = 1.0;
/// let local = vec![step; 5];
/// let mut mats = skeleton.to_parents_first_vec(&local)?;
/// skeleton.local_to_model(Impl::Auto, &mut mats)?;
/// let model = skeleton.from_parents_first_vec(&mats)?;
/// let x: Vec<f32> = model.iter().map(|m| m.translation()[0]).collect();
/// assert_eq!(x, [2.0, 1.0, 3.0, 1.0, 2.0]);
/// # Ok::<(), animasm::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skeleton {
    /// `order[k]`: the caller's joint at position `k`.
    order: Vec<usize>,
    /// `positions[j]`: the position of the caller's joint `j`.
    positions: Vec<usize>,
    /// The parents by position, `-1` for a root.
    parents: Vec<i32>,
    /// The roots' positions, ascending.
    roots: Vec<usize>,
    /// The root-free runs, as `(first, last)` positions.
    runs: Vec<(usize, usize)>,
    /// `0..len` as `i32`: the index list that blends every joint.
    all: Vec<i32>,
}

impl Skeleton {
    /// The most joints a skeleton can have: the skeleton kernels' limit,
    /// [`transform_skeleton::MAX_JOINTS`](crate::transform_skeleton::MAX_JOINTS).
    pub const MAX_JOINTS: usize = MAX_JOINTS;

    /// Checks the hierarchy `parents` (`parents[j]` is the parent of joint
    /// `j`, `-1` for a root; any order) and builds its parents-first order.
    ///
    /// # Errors
    ///
    /// - [`Error::TooLong`] (`what: "parents"`): more than
    ///   [`Skeleton::MAX_JOINTS`] joints;
    /// - [`Error::InvalidParent`]: the first joint (lowest index) whose
    ///   parent is neither `-1` nor a joint (`parent < -1` or `parent >=
    ///   parents.len()`);
    /// - [`Error::ParentCycle`]: a joint that is its own ancestor (itself
    ///   included: `parents[j] == j`), the first one the walk meets.
    pub fn new(parents: &[i32]) -> Result<Skeleton, Error> {
        let n = parents.len();
        if n > MAX_JOINTS {
            return Err(Error::TooLong { what: "parents", len: n, max: MAX_JOINTS });
        }
        if let Some((joint, &parent)) = parents.iter().enumerate().find(|&(_, &p)| p < -1 || p as i64 >= n as i64) {
            return Err(Error::InvalidParent { joint, parent });
        }
        // Each joint not yet placed is placed after its ancestors: walk up to
        // a placed joint or a root, then place the walk from the top down.
        // A joint met twice on one walk is on a cycle. A list that is
        // already parents first keeps its order (each walk is one joint).
        const UNPLACED: usize = usize::MAX;
        const ON_WALK: usize = usize::MAX - 1;
        let mut positions = alloc::vec![UNPLACED; n];
        let mut order = Vec::with_capacity(n);
        let mut walk = Vec::new();
        for j in 0..n {
            let mut k = j;
            while positions[k] == UNPLACED {
                positions[k] = ON_WALK;
                walk.push(k);
                match usize::try_from(parents[k]) {
                    Ok(p) => k = p,
                    Err(_) => break,
                }
            }
            if positions[k] == ON_WALK && parents[k] >= 0 {
                return Err(Error::ParentCycle { joint: k });
            }
            while let Some(w) = walk.pop() {
                positions[w] = order.len();
                order.push(w);
            }
        }
        let parents: Vec<i32> = order
            .iter()
            .map(|&j| match usize::try_from(parents[j]) {
                // `positions[p] < n <= MAX_JOINTS < 2^31`.
                Ok(p) => positions[p] as i32,
                Err(_) => -1,
            })
            .collect();
        let roots: Vec<usize> = (0..n).filter(|&k| parents[k] < 0).collect();
        let mut runs = Vec::new();
        let mut start = 0;
        for &r in roots.iter().chain(core::iter::once(&n)) {
            if start < r {
                runs.push((start, r - 1));
            }
            start = r + 1;
        }
        let all = (0..n as i32).collect();
        Ok(Skeleton { order, positions, parents, roots, runs, all })
    }

    /// The number of joints.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    /// Whether the skeleton has no joint.
    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// Whether the caller's order already is parents first (then
    /// [`order`](Skeleton::order) is `0, 1, 2, ...` and the permutations are
    /// copies).
    pub fn is_parents_first(&self) -> bool {
        self.order.iter().enumerate().all(|(k, &j)| k == j)
    }

    /// The parents-first order: `order()[k]` is the caller's joint at
    /// position `k`.
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The inverse of [`order`](Skeleton::order): `positions()[j]` is the
    /// position of the caller's joint `j`.
    pub fn positions(&self) -> &[usize] {
        &self.positions
    }

    /// The parents by position (`parents()[k]` is the position of the parent
    /// of position `k`, `-1` for a root): always before `k`. This is the
    /// `parents` array the paper kernels take.
    pub fn parents(&self) -> &[i32] {
        &self.parents
    }

    /// The roots' positions, ascending.
    pub fn roots(&self) -> &[usize] {
        &self.roots
    }

    /// The root-free runs: the maximal ranges of positions that hold no
    /// root, ascending. Each is a valid range for
    /// [`transform_skeleton`](crate::transform_skeleton()) and
    /// [`untransform_skeleton`](crate::untransform_skeleton()) with
    /// [`parents`](Skeleton::parents). A skeleton listed with its roots
    /// first has one run (or none, if every joint is a root).
    pub fn runs(&self) -> impl DoubleEndedIterator<Item = RangeInclusive<usize>> + ExactSizeIterator + '_ {
        self.runs.iter().map(|&(a, b)| a..=b)
    }

    /// Copies the caller's `joints` (any element type) into `out` in the
    /// parents-first order: `out[k] = joints[order()[k]]`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] (`what: "joints"`, then `"out"`) when a
    /// slice does not have [`len`](Skeleton::len) elements; nothing is
    /// written then.
    pub fn to_parents_first<T: Copy>(&self, joints: &[T], out: &mut [T]) -> Result<(), Error> {
        self.check_len("joints", joints.len())?;
        self.check_len("out", out.len())?;
        for (o, &j) in out.iter_mut().zip(&self.order) {
            *o = joints[j];
        }
        Ok(())
    }

    /// Copies `sorted` (in the parents-first order) back into the caller's
    /// order: `out[order()[k]] = sorted[k]`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] (`what: "sorted"`, then `"out"`) when a
    /// slice does not have [`len`](Skeleton::len) elements; nothing is
    /// written then.
    pub fn from_parents_first<T: Copy>(&self, sorted: &[T], out: &mut [T]) -> Result<(), Error> {
        self.check_len("sorted", sorted.len())?;
        self.check_len("out", out.len())?;
        for (&s, &j) in sorted.iter().zip(&self.order) {
            out[j] = s;
        }
        Ok(())
    }

    /// [`to_parents_first`](Skeleton::to_parents_first) into a new `Vec`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] (`what: "joints"`).
    pub fn to_parents_first_vec<T: Copy>(&self, joints: &[T]) -> Result<Vec<T>, Error> {
        self.check_len("joints", joints.len())?;
        Ok(self.order.iter().map(|&j| joints[j]).collect())
    }

    /// [`from_parents_first`](Skeleton::from_parents_first) into a new `Vec`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] (`what: "sorted"`).
    pub fn from_parents_first_vec<T: Copy>(&self, sorted: &[T]) -> Result<Vec<T>, Error> {
        self.check_len("sorted", sorted.len())?;
        Ok(self.positions.iter().map(|&k| sorted[k]).collect())
    }

    /// Local to model space, in place, in the parents-first order: every
    /// joint's matrix becomes its parent's model matrix times its own
    /// (`model[k] = model[parents()[k]] * local[k]`); the roots' matrices
    /// are their model matrices already and are not written.
    /// [`transform_skeleton`](crate::transform_skeleton()) with `imp` runs
    /// once per root-free run.
    ///
    /// # Errors
    ///
    /// Before anything is written: [`Error::LengthMismatch`] (`what:
    /// "mats"`) when `mats` does not have [`len`](Skeleton::len) elements;
    /// then the errors of
    /// [`transform_skeleton`](crate::transform_skeleton()) for `imp`
    /// ([`Error::Unsupported`], [`Error::MissingCpuFeature`]). The hierarchy
    /// was checked when the skeleton was built, so no later run can fail.
    pub fn local_to_model(&self, imp: Impl, mats: &mut [JointMat]) -> Result<(), Error> {
        self.check_len("mats", mats.len())?;
        // The first call checks `imp` (on an empty range when there is no
        // run), so an error comes before any write.
        crate::transform_skeleton(imp, mats, &self.parents, self.empty_range())?;
        for run in self.runs() {
            crate::transform_skeleton(imp, mats, &self.parents, run)?;
        }
        Ok(())
    }

    /// Model to local space, in place, in the parents-first order: the
    /// inverse of [`local_to_model`](Skeleton::local_to_model) for rigid
    /// transforms (`local[k] = model[parents()[k]]^-1 * model[k]`, the
    /// inverse taken as the transpose, as the paper does).
    /// [`untransform_skeleton`](crate::untransform_skeleton()) with `imp`
    /// runs once per root-free run, the last run first, so that every parent
    /// is still a model matrix when its children read it.
    ///
    /// # Errors
    ///
    /// As [`local_to_model`](Skeleton::local_to_model), with the errors of
    /// [`untransform_skeleton`](crate::untransform_skeleton()).
    pub fn model_to_local(&self, imp: Impl, mats: &mut [JointMat]) -> Result<(), Error> {
        self.check_len("mats", mats.len())?;
        crate::untransform_skeleton(imp, mats, &self.parents, self.empty_range())?;
        for run in self.runs().rev() {
            crate::untransform_skeleton(imp, mats, &self.parents, run)?;
        }
        Ok(())
    }

    /// [`slerp_joints`](crate::slerp_joints()) over every joint, without an
    /// index list: `joints[k] = slerp(joints[k], blend[k], lerp)`.
    ///
    /// # Errors
    ///
    /// [`Error::LengthMismatch`] (`what: "joints"`) when `joints` does not
    /// have [`len`](Skeleton::len) elements, then those of
    /// [`slerp_joints`](crate::slerp_joints()); nothing is written then.
    pub fn slerp_joints(
        &self,
        imp: Impl,
        joints: &mut [JointQuat],
        blend: &[JointQuat],
        lerp: f32,
    ) -> Result<(), Error> {
        self.check_len("joints", joints.len())?;
        crate::slerp_joints(imp, joints, blend, lerp, &self.all)
    }

    /// [`lerp_joints`](crate::lerp_joints()) over every joint, without an
    /// index list.
    ///
    /// # Errors
    ///
    /// As [`slerp_joints`](Skeleton::slerp_joints), with the errors of
    /// [`lerp_joints`](crate::lerp_joints()).
    pub fn lerp_joints(
        &self,
        imp: Impl,
        joints: &mut [JointQuat],
        blend: &[JointQuat],
        lerp: f32,
    ) -> Result<(), Error> {
        self.check_len("joints", joints.len())?;
        crate::lerp_joints(imp, joints, blend, lerp, &self.all)
    }

    /// The whole pose in one call, in the parents-first order:
    /// [`slerp_pose`](crate::slerp_pose()) with this skeleton's
    /// [`parents`](Skeleton::parents), so any node order and any number of
    /// roots (a root's model matrix is its local one). Give the poses,
    /// scales and inverse bind matrices in the parents-first order
    /// ([`to_parents_first`](Skeleton::to_parents_first), once per clip);
    /// the model and skinning matrices come out in it.
    ///
    /// ```
    /// use animasm::pose::PoseInput;
    /// use animasm::{Impl, JointMat, JointQuat, Quat, Skeleton, Vec4};
    ///
    /// // Two roots (1 and 3), listed children first; each joint 1 along x.
    /// let skeleton = Skeleton::new(&[1, -1, 0, -1, 3])?;
    /// let step = JointQuat::new(Quat::IDENTITY, Vec4::new(1.0, 0.0, 0.0, 1.0));
    /// let pose = skeleton.to_parents_first_vec(&[step; 5])?;
    /// let mut model = vec![JointMat::IDENTITY; 5];
    /// skeleton.slerp_pose(Impl::Auto, &PoseInput::new(&pose, &pose, 0.5), &mut model, None)?;
    /// let x: Vec<f32> = skeleton.from_parents_first_vec(&model)?.iter().map(|m| m.translation()[0]).collect();
    /// assert_eq!(x, [2.0, 1.0, 3.0, 1.0, 2.0]);
    /// # Ok::<(), animasm::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`slerp_pose`](crate::slerp_pose()), before anything is
    /// written (`model` is checked against [`len`](Skeleton::len) first,
    /// as [`Error::LengthMismatch`] with `what: "model"`); the hierarchy was
    /// checked when the skeleton was built, and a call does not check it
    /// again (the free function's pass over the parents).
    pub fn slerp_pose(
        &self,
        imp: Impl,
        input: &PoseInput<'_>,
        model: &mut [JointMat],
        skin: Option<Skin<'_>>,
    ) -> Result<(), Error> {
        self.check_len("model", model.len())?;
        // The parents were checked when the skeleton was built.
        crate::pose::run(&crate::pose::SLERP, imp, input, Parents::Checked(&self.parents), model, skin)
    }

    /// [`slerp_pose`](Skeleton::slerp_pose) with the blend of
    /// [`lerp_pose`](crate::lerp_pose()).
    ///
    /// # Errors
    ///
    /// As [`slerp_pose`](Skeleton::slerp_pose).
    pub fn lerp_pose(
        &self,
        imp: Impl,
        input: &PoseInput<'_>,
        model: &mut [JointMat],
        skin: Option<Skin<'_>>,
    ) -> Result<(), Error> {
        self.check_len("model", model.len())?;
        crate::pose::run(&crate::pose::LERP, imp, input, Parents::Checked(&self.parents), model, skin)
    }

    fn check_len(&self, what: &'static str, found: usize) -> Result<(), Error> {
        if found == self.len() { Ok(()) } else { Err(Error::LengthMismatch { what, expected: self.len(), found }) }
    }

    /// An empty range at the end of the joints (`len..=len`, exhausted).
    fn empty_range(&self) -> RangeInclusive<usize> {
        let mut r = self.len()..=self.len();
        r.next();
        r
    }
}
