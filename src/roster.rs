//! The roster: every routine of the crate, once, with its safe function,
//! its source, and its kernel table (every form, with its origin,
//! instruction set and raw kernel).
//!
//! The crate's tests, fuzz targets, benches and reports iterate this list
//! instead of naming routines, so a new form of a routine (one row in the
//! routine's table) or a new routine (one entry here) shows up in all of
//! them. Routines of the same [`Shape`] take the same arguments: a consumer
//! writes its inputs once per shape.
//!
//! ```
//! use animasm::roster::{self, Shape};
//! use animasm::{Impl, Origin};
//!
//! // The seven id Software routines and their successors (`Impl::Portable`
//! // on every target, `Impl::Avx2` and `Impl::Avx512` on x86_64,
//! // `Impl::Neon` on aarch64, `Impl::Simd128` on wasm32 with SIMD128;
//! // `all_forms()` lists those compiled here, `forms()` those this CPU runs).
//! let ids: Vec<&str> = roster::id_routines().map(|r| r.name).collect();
//! assert_eq!(ids.len(), 7);
//! for r in roster::id_routines() {
//!     for f in r.all_forms().filter(|f| f.origin == Origin::Successor) {
//!         let successor = [Impl::Portable, Impl::Avx2, Impl::Avx512, Impl::Neon, Impl::Simd128];
//!         assert!(successor.contains(&f.imp), "{} {}", r.name, f.imp);
//!     }
//!     assert!(r.forms().any(|f| f.imp == Impl::Scalar));
//! }
//! // Calling a routine through its roster entry, by shape.
//! let r = roster::find("quats_to_mats").unwrap();
//! if let Shape::QuatsToMats { safe, .. } = r.shape {
//!     let mut mats = [animasm::JointMat::IDENTITY; 2];
//!     safe(Impl::Scalar, &mut mats, &[animasm::JointQuat::default(); 2])?;
//! }
//! # Ok::<(), animasm::Error>(())
//! ```

use core::ops::RangeInclusive;

use crate::error::Error;
pub use crate::form::kernel;
pub use crate::form::{Form, FormInfo, Impl, Origin};
pub use crate::isa::Isa;
use crate::pose::{PoseInput, Skin};
use crate::types::{JointMat, JointQuat, Quat};

/// The paper a routine comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Source {
    /// J.M.P. van Waveren, *Slerping Clock Cycles* (id Software, 2005).
    SlerpingClockCycles,
    /// J.M.P. van Waveren, *From Quaternion to Matrix and Back* (id
    /// Software, 2005).
    QuaternionToMatrix,
    /// J.M.P. van Waveren, *The Skeleton Assembly Line* (id Software,
    /// 2005).
    SkeletonAssemblyLine,
    /// P. Mehrotra, J. Hubbard, *Benefits of Intel AVX for Quaternion
    /// Spherical Linear Interpolation* (Intel, 2012).
    IntelAvxSlerp,
    /// A. Kapoulkine, *Optimizing slerp* (2015).
    OptimizingSlerp,
}

impl Source {
    /// The paper's title.
    ///
    /// ```
    /// assert_eq!(animasm::roster::Source::SlerpingClockCycles.title(), "Slerping Clock Cycles");
    /// ```
    pub const fn title(self) -> &'static str {
        match self {
            Source::SlerpingClockCycles => "Slerping Clock Cycles",
            Source::QuaternionToMatrix => "From Quaternion to Matrix and Back",
            Source::SkeletonAssemblyLine => "The Skeleton Assembly Line",
            Source::IntelAvxSlerp => "Benefits of Intel AVX for Quaternion Spherical Linear Interpolation",
            Source::OptimizingSlerp => "Optimizing slerp",
        }
    }

    /// Whether the paper is one of van Waveren's three id Software papers.
    ///
    /// ```
    /// assert!(!animasm::roster::Source::OptimizingSlerp.is_id_software());
    /// ```
    pub const fn is_id_software(self) -> bool {
        matches!(self, Source::SlerpingClockCycles | Source::QuaternionToMatrix | Source::SkeletonAssemblyLine)
    }
}

/// The safe function's signature of `slerp_joints` and `lerp_joints`.
pub type JointBlendFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;
/// The safe function's signature of `quats_to_mats`.
pub type QuatsToMatsFn = fn(Impl, &mut [JointMat], &[JointQuat]) -> Result<(), Error>;
/// The safe function's signature of `mats_to_quats`.
pub type MatsToQuatsFn = fn(Impl, &mut [JointQuat], &[JointMat]) -> Result<(), Error>;
/// The safe function's signature of the skeleton transforms.
pub type SkeletonFn = fn(Impl, &mut [JointMat], &[i32], RangeInclusive<usize>) -> Result<(), Error>;
/// The safe function's signature of `transform_joints`.
pub type TransformJointsFn = fn(Impl, &mut [JointMat], &[JointMat], &[JointMat]) -> Result<(), Error>;
/// The safe function's signature of `slerp_quats_*`.
pub type QuatPairsFn = fn(Impl, &mut [Quat], &[Quat], &[Quat], f32) -> Result<(), Error>;
/// The safe function's signature of `slerp_pose` and `lerp_pose`.
pub type PoseFn = fn(Impl, &PoseInput<'_>, &[i32], &mut [JointMat], Option<Skin<'_>>) -> Result<(), Error>;
/// The safe function's signature of the nlerp family.
pub type StreamFn = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;

/// What a routine takes: its safe function and its kernel table, typed by
/// the routine's arguments. Routines of one shape take the same arguments.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Shape {
    /// Interpolates an indexed subset of a joint list towards a blend list
    /// in place: `slerp_joints`, `lerp_joints`.
    JointBlend {
        /// The safe function.
        safe: JointBlendFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::JointBlend>],
    },
    /// Joint quaternions to joint matrices.
    QuatsToMats {
        /// The safe function.
        safe: QuatsToMatsFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::QuatsToMats>],
    },
    /// Joint matrices to joint quaternions.
    MatsToQuats {
        /// The safe function.
        safe: MatsToQuatsFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::MatsToQuats>],
    },
    /// A range of a parent-first skeleton, in place:
    /// `transform_skeleton`, `untransform_skeleton`.
    Skeleton {
        /// The safe function.
        safe: SkeletonFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::Skeleton>],
    },
    /// Joint matrices times joint matrices.
    TransformJoints {
        /// The safe function.
        safe: TransformJointsFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::TransformJoints>],
    },
    /// Element-wise slerp of two quaternion arrays by one factor.
    QuatPairs {
        /// The safe function.
        safe: QuatPairsFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::QuatPairs>],
    },
    /// One quaternion against a stream of quaternions, one factor each.
    Stream {
        /// The safe function.
        safe: StreamFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::Stream>],
    },
    /// A whole pose: two poses blended, to model (and skinning) matrices:
    /// `slerp_pose`, `lerp_pose`.
    Pose {
        /// The safe function.
        safe: PoseFn,
        /// The kernel table, fastest first.
        forms: &'static [Form<kernel::Pose>],
    },
}

/// One routine: its safe function's name at the crate root, its paper and
/// listing, and its [`Shape`] (safe function and kernel table).
#[derive(Clone, Copy, Debug)]
pub struct Routine {
    /// The safe function's name at the crate root (`"slerp_joints"`).
    pub name: &'static str,
    /// The module that holds its forms (`"slerp_joints"`; the nlerp family
    /// shares `"nlerp"`), and the stem of its note, `asm_notes/<module>.md`.
    pub module: &'static str,
    /// The paper.
    pub source: Source,
    /// The listing or section of the paper it reproduces.
    pub listing: &'static str,
    /// For a variant of another routine's listing (the same safe contract,
    /// another instruction sequence), that routine's name.
    pub variant_of: Option<&'static str>,
    /// Its safe function and kernel table.
    pub shape: Shape,
}

/// Applies `$body` to the kernel table of a [`Shape`] whatever its kernel
/// type.
macro_rules! with_table {
    ($shape:expr, |$t:ident| $body:expr) => {
        match $shape {
            Shape::JointBlend { forms: $t, .. } => $body,
            Shape::QuatsToMats { forms: $t, .. } => $body,
            Shape::MatsToQuats { forms: $t, .. } => $body,
            Shape::Skeleton { forms: $t, .. } => $body,
            Shape::TransformJoints { forms: $t, .. } => $body,
            Shape::QuatPairs { forms: $t, .. } => $body,
            Shape::Stream { forms: $t, .. } => $body,
            Shape::Pose { forms: $t, .. } => $body,
        }
    };
}

impl Routine {
    /// Every form of the routine compiled for this target, fastest first
    /// (the order [`Impl::Auto`] tries them in), whether this CPU runs it
    /// or not.
    ///
    /// ```
    /// let r = animasm::roster::find("slerp_joints").unwrap();
    /// assert_eq!(r.all_forms().last().unwrap().imp, animasm::Impl::Scalar);
    /// ```
    pub fn all_forms(&self) -> impl Iterator<Item = FormInfo> + '_ {
        let n = with_table!(self.shape, |t| t.len());
        (0..n).map(move |i| with_table!(self.shape, |t| t[i].info()))
    }

    /// The forms this target and CPU run, fastest first: the routine
    /// module's `forms()`, with each form's origin and instruction set.
    ///
    /// ```
    /// let r = animasm::roster::find("lerp_joints").unwrap();
    /// assert!(r.forms().map(|f| f.imp).eq(animasm::lerp_joints::forms()));
    /// ```
    pub fn forms(&self) -> impl Iterator<Item = FormInfo> + '_ {
        let n = with_table!(self.shape, |t| t.len());
        (0..n)
            .filter(move |&i| with_table!(self.shape, |t| t[i].runnable()))
            .map(move |i| with_table!(self.shape, |t| t[i].info()))
    }

    /// The form the safe function runs for `imp` on this CPU (alignment
    /// aside), or the error it returns: as the module's `resolve()`.
    ///
    /// ```
    /// use animasm::{Error, Impl};
    /// let r = animasm::roster::find("slerp_quats_corrected").unwrap();
    /// assert_eq!(r.resolve(Impl::Scalar).map(|f| f.imp), Ok(Impl::Scalar));
    /// assert_eq!(r.resolve(Impl::Avx512), Err(Error::Unsupported(Impl::Avx512)));
    /// ```
    pub fn resolve(&self, imp: Impl) -> Result<FormInfo, Error> {
        with_table!(self.shape, |t| crate::dispatch::select(t, imp, usize::MAX >> 1).map(|s| t
            .iter()
            .find(|f| f.imp == s.imp)
            .map(Form::info)
            .expect("selected from the table")))
    }

    /// The routine's portable scalar form (the paper's C): every table has
    /// one, last.
    ///
    /// ```
    /// let r = animasm::roster::find("mats_to_quats").unwrap();
    /// assert_eq!(r.scalar_form().isa, animasm::Isa::Portable);
    /// ```
    pub fn scalar_form(&self) -> FormInfo {
        self.all_forms().find(|f| f.imp == Impl::Scalar).expect("every routine has a scalar form")
    }

    /// Whether this is one of the seven id Software routines (van
    /// Waveren's listings, variants and composites aside).
    pub fn is_id_routine(&self) -> bool {
        self.source.is_id_software() && self.variant_of.is_none() && !self.is_composite()
    }

    /// Whether the routine is a composite: the assembly line in one call
    /// (`slerp_pose`, `lerp_pose`, [`Shape::Pose`]), whose forms run
    /// other routines' kernels of the same form one after the other (its
    /// `Asm` form chains the listings; no listing of its own).
    pub fn is_composite(&self) -> bool {
        matches!(self.shape, Shape::Pose { .. })
    }

    /// The routines a composite chains, in the order its forms run them
    /// (each form runs their forms of the same name, a chunk of joints at a
    /// time); empty for a routine that is not a composite.
    ///
    /// ```
    /// let r = animasm::roster::find("lerp_pose").unwrap();
    /// assert_eq!(r.chain(), ["lerp_joints", "quats_to_mats", "transform_skeleton", "transform_joints"]);
    /// assert!(animasm::roster::find("lerp_joints").unwrap().chain().is_empty());
    /// ```
    pub fn chain(&self) -> &'static [&'static str] {
        match (self.shape, self.name) {
            (Shape::Pose { .. }, "slerp_pose") => {
                &["slerp_joints", "quats_to_mats", "transform_skeleton", "transform_joints"]
            }
            (Shape::Pose { .. }, "lerp_pose") => {
                &["lerp_joints", "quats_to_mats", "transform_skeleton", "transform_joints"]
            }
            _ => &[],
        }
    }

    /// The form of the chained routine `step` (one of [`Routine::chain`])
    /// that this composite's form `imp` gives the bits of: `imp` where
    /// `step` has a form of that name, else (a fused successor with no
    /// namesake there, such as the pose routines' `Avx512` beside
    /// `transform_skeleton`) [`Impl::Deterministic`], whose bits every
    /// successor gives.
    ///
    /// ```
    /// use animasm::Impl;
    /// let pose = animasm::roster::find("lerp_pose").unwrap();
    /// assert_eq!(pose.chained_form("lerp_joints", Impl::Scalar), Impl::Scalar);
    /// assert_eq!(pose.chained_form("transform_skeleton", Impl::Avx512), Impl::Deterministic);
    /// ```
    ///
    /// # Panics
    ///
    /// If `step` is not a routine of the roster.
    pub fn chained_form(&self, step: &str, imp: Impl) -> Impl {
        let step = find(step).unwrap_or_else(|| panic!("{step}: no routine of that name"));
        if step.all_forms().any(|f| f.imp == imp) { imp } else { Impl::Deterministic }
    }
}

macro_rules! entry {
    ($name:literal, $module:literal, $source:ident, $listing:literal, $variant:expr, $shape:ident($safe:path, $forms:path)) => {
        Routine {
            name: $name,
            module: $module,
            source: Source::$source,
            listing: $listing,
            variant_of: $variant,
            shape: Shape::$shape { safe: $safe, forms: $forms },
        }
    };
}

/// Every routine, in the order the papers present them.
pub static ROUTINES: &[Routine] = &[
    entry!(
        "slerp_joints",
        "slerp_joints",
        SlerpingClockCycles,
        "Appendix A, SlerpJoints",
        None,
        JointBlend(crate::slerp_joints::slerp_joints, crate::slerp_joints::FORMS)
    ),
    entry!(
        "lerp_joints",
        "lerp_joints",
        SlerpingClockCycles,
        "Appendix B, LerpJoints",
        None,
        JointBlend(crate::lerp_joints::lerp_joints, crate::lerp_joints::FORMS)
    ),
    entry!(
        "quats_to_mats",
        "quats_to_mats",
        QuaternionToMatrix,
        "Appendix A, ConvertJointQuatsToJointMats",
        None,
        QuatsToMats(crate::quats_to_mats::quats_to_mats, crate::quats_to_mats::FORMS)
    ),
    entry!(
        "mats_to_quats",
        "mats_to_quats",
        QuaternionToMatrix,
        "Appendix B, ConvertJointMatsToJointQuats",
        None,
        MatsToQuats(crate::mats_to_quats::mats_to_quats, crate::mats_to_quats::FORMS)
    ),
    entry!(
        "transform_skeleton",
        "transform_skeleton",
        SkeletonAssemblyLine,
        "Appendix A, TransformSkeleton",
        None,
        Skeleton(crate::transform_skeleton::transform_skeleton, crate::transform_skeleton::FORMS)
    ),
    entry!(
        "transform_skeleton_movss_shufps",
        "transform_skeleton",
        SkeletonAssemblyLine,
        "Appendix A with section 3's movss + shufps broadcast",
        Some("transform_skeleton"),
        Skeleton(
            crate::transform_skeleton::transform_skeleton_movss_shufps,
            crate::transform_skeleton::FORMS_MOVSS_SHUFPS
        )
    ),
    entry!(
        "untransform_skeleton",
        "untransform_skeleton",
        SkeletonAssemblyLine,
        "Appendix B, UntransformSkeleton",
        None,
        Skeleton(crate::untransform_skeleton::untransform_skeleton, crate::untransform_skeleton::FORMS)
    ),
    entry!(
        "transform_joints",
        "transform_joints",
        SkeletonAssemblyLine,
        "Appendix C, TransformJoints",
        None,
        TransformJoints(crate::transform_joints::transform_joints, crate::transform_joints::FORMS)
    ),
    entry!(
        "slerp_quats_as_published",
        "slerp_quats",
        IntelAvxSlerp,
        "ProcessOptimizedKernel (AVX), as published",
        None,
        QuatPairs(crate::slerp_quats::slerp_quats_as_published, crate::slerp_quats::FORMS_AS_PUBLISHED)
    ),
    entry!(
        "slerp_quats_corrected",
        "slerp_quats",
        IntelAvxSlerp,
        "ProcessOptimizedKernel (AVX), errata corrected, and Table 1's SSE baseline",
        None,
        QuatPairs(crate::slerp_quats::slerp_quats_corrected, crate::slerp_quats::FORMS_CORRECTED)
    ),
    entry!("nlerp", "nlerp", OptimizingSlerp, "nlerp", None, Stream(crate::nlerp::nlerp, crate::nlerp::NLERP)),
    entry!("fnlerp", "nlerp", OptimizingSlerp, "fnlerp", None, Stream(crate::nlerp::fnlerp, crate::nlerp::FNLERP)),
    entry!("onlerp", "nlerp", OptimizingSlerp, "onlerp", None, Stream(crate::nlerp::onlerp, crate::nlerp::ONLERP)),
    entry!(
        "slerp_stream",
        "nlerp",
        OptimizingSlerp,
        "the scalar slerp reference",
        None,
        Stream(crate::nlerp::slerp, crate::nlerp::SLERP)
    ),
    entry!(
        "slerp_pose",
        "pose",
        SkeletonAssemblyLine,
        "the assembly line (sections 2-4): SlerpJoints, ConvertJointQuatsToJointMats, TransformSkeleton, TransformJoints in one pass",
        None,
        Pose(crate::pose::slerp_pose, crate::pose::SLERP_FORMS)
    ),
    entry!(
        "lerp_pose",
        "pose",
        SkeletonAssemblyLine,
        "the assembly line with LerpJoints in one pass",
        None,
        Pose(crate::pose::lerp_pose, crate::pose::LERP_FORMS)
    ),
];

/// The seven id Software routines ([`Routine::is_id_routine`]), in the
/// papers' order.
pub fn id_routines() -> impl Iterator<Item = &'static Routine> {
    ROUTINES.iter().filter(|r| r.is_id_routine())
}

/// The routine whose safe function is `name`.
///
/// ```
/// assert!(animasm::roster::find("transform_joints").is_some());
/// assert!(animasm::roster::find("no_such_routine").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Routine> {
    ROUTINES.iter().find(|r| r.name == name)
}
