//! The two axes of a form, and the rows of the kernel tables.
//!
//! A *form* of a routine is one way of computing it. It is named by an
//! [`Impl`] (what a caller asks for), and described by two independent
//! facts:
//!
//! - its [`Origin`]: where its code comes from (the paper's C, the listing
//!   in `asm!`, the listing's intrinsics twin, other published code, or a
//!   successor written for today's cores);
//! - its [`Isa`]: the instruction set it runs on (portable Rust, SSE2, AVX,
//!   AVX2, AVX2 + FMA, AVX-512, NEON), which decides the CPU features it
//!   needs and the target it is compiled for.
//!
//! A routine's kernel table is a list of [`Form`]s, one per form, each
//! carrying its `Impl`, origin, instruction set, alignment and raw kernel.
//! [`crate::roster`] lists every routine with its table.

use crate::isa::Isa;
use crate::types::{JointMat, JointQuat, Quat, Vec4};

/// Which form of a routine runs: the name a caller passes to a safe
/// function.
///
/// Not every routine has every form: [`crate::roster`] lists each routine's
/// forms (and each routine's module its `forms()`), and a form the routine
/// does not have, or that cannot run on this target, gives
/// [`Error::Unsupported`](crate::Error::Unsupported). A form whose
/// instruction set needs CPU features beyond the target's baseline is
/// detected at run time (with the `std` feature) and gives
/// [`Error::MissingCpuFeature`](crate::Error::MissingCpuFeature) where they
/// are missing.
///
/// | form | origin | instruction set | routines |
/// |---|---|---|---|
/// | [`Impl::Auto`] | the fastest form this CPU can run, per routine (the default) | | all |
/// | [`Impl::Deterministic`] | the fastest [`Origin::Successor`] form this CPU can run: the one answer, the same bits on every CPU | | the seven id Software routines, the pose routines |
/// | [`Impl::Portable`] | [`Origin::Successor`]: the successors' algorithm in plain Rust | [`Isa::Portable`] | the seven id Software routines, the pose routines |
/// | [`Impl::Scalar`] | [`Origin::PaperC`]: the paper's C, line by line | [`Isa::Portable`] | all |
/// | [`Impl::Intrinsics`] | [`Origin::ListingTwin`]: the listing with `core::arch` intrinsics, bit-identical to `Asm` | [`Isa::Sse2`] (`slerp_quats_*`: [`Isa::Avx`]) | the id Software routines, `slerp_quats_*`, the pose routines (the listings chained) |
/// | [`Impl::Asm`] | [`Origin::Listing`]: the listing in `asm!`, instruction for instruction | as `Intrinsics` | the id Software routines, `slerp_quats_*`, the pose routines (the listings chained) |
/// | [`Impl::Sse2`] | [`Origin::Published`]: published intrinsics that are no listing's twin, 4 lanes | [`Isa::Sse2`] | `slerp_quats_corrected` (Table 1's 128-bit baseline), the nlerp family |
/// | [`Impl::Avx2NoFma`] | [`Origin::Published`], 8 lanes | [`Isa::Avx2`] | the nlerp family |
/// | [`Impl::Avx2`] | [`Origin::Successor`] (the id routines) or [`Origin::Published`] (the nlerp family's FMA forms), 8 lanes | [`Isa::Avx2Fma`] | the seven id Software routines, the nlerp family, the pose routines |
/// | [`Impl::Avx512`] | [`Origin::Successor`] (the id routines) or [`Origin::Widened`] (the nlerp family), 16 lanes | [`Isa::Avx512`] | `slerp_joints`, `lerp_joints`, `quats_to_mats`, `mats_to_quats`, `transform_joints`, the nlerp family, the pose routines (fused) |
/// | [`Impl::Neon`] | [`Origin::Successor`] (the id routines) or [`Origin::Published`] (the nlerp family), 4 lanes | [`Isa::Neon`] | the seven id Software routines, the nlerp family, the pose routines |
/// | [`Impl::Simd128`] | [`Origin::Successor`] (the id routines) or [`Origin::Published`] (the nlerp family), 4 lanes | [`Isa::Simd128`] | the seven id Software routines, the nlerp family, the pose routines |
///
/// The two skeleton routines have no `Avx512` form (their AVX-512 kernels,
/// `transform_skeleton::avx512` and `untransform_skeleton::avx512`, were
/// not faster than `Avx2`: the parent-to-child chain and the memory bound
/// them), nor do `slerp_quats_*`: they return `Error::Unsupported` for it.
///
/// **The one answer.** Every [`Origin::Successor`] form of a routine
/// (`Portable`, `Avx2`, `Avx512`, `Neon`, `Simd128`) computes the same IEEE operations in the same
/// order for every joint: the same bits for the same input on every CPU and
/// instruction set (NaN results aside: they are NaN everywhere, with bits
/// that may differ). [`Impl::Deterministic`] asks for the fastest of them.
/// The faithful forms keep the listings' estimate instructions (`rsqrtps`,
/// `rcpps`), whose results differ between CPU vendors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Impl {
    /// The fastest form of the routine that this CPU can run, by the
    /// routine's table (measured; see `docs/results.md`). Always available:
    /// every routine has a scalar form.
    #[default]
    Auto,
    /// The fastest [`Origin::Successor`] form this CPU can run: the one
    /// answer, the same bits for the same input on every CPU and every
    /// target (the NEON form on `aarch64`; on `x86_64` the AVX-512 or the
    /// AVX2 + FMA form where the CPU has the features, whichever the
    /// routine's table puts first; [`Impl::Portable`] everywhere else). The
    /// seven id Software routines have it; the others give
    /// [`Error::Unsupported`](crate::Error::Unsupported).
    Deterministic,
    /// The paper's C routine ported line by line. Available on every target.
    Scalar,
    /// The portable successor: the successors' algorithm in plain Rust,
    /// one joint at a time, with a fused multiply-add wherever the SIMD
    /// successors fuse one: the instruction where the build has it, on
    /// x86_64 a copy compiled with FMA on CPUs that have it, and elsewhere
    /// an exact multiply-add from f64 arithmetic (wasm32, CPUs without FMA:
    /// 1.3-8x the scalar port's time there). Available on every target; it
    /// gives the same bits as every other successor form.
    Portable,
    /// The listing's operations with `core::arch::x86_64` intrinsics,
    /// bit-identical to [`Impl::Asm`]. `x86_64` only.
    Intrinsics,
    /// The published listing in `asm!`, instruction for instruction.
    /// `x86_64` only, and not under Miri (which cannot run `asm!`).
    Asm,
    /// Published 4-wide SSE2 intrinsics that are not a listing's twin.
    /// `x86_64` only.
    Sse2,
    /// Published 8-wide AVX2 intrinsics without FMA. `x86_64` with AVX2.
    Avx2NoFma,
    /// 8-wide AVX2 intrinsics with fused multiply-adds: the id Software
    /// routines' successors and the nlerp article's FMA forms. `x86_64` with
    /// AVX2 and FMA.
    Avx2,
    /// 16-wide AVX-512 (F, VL, DQ, BW) forms: the successors of five id
    /// Software routines (not the skeletons'), the pose routines fused, and
    /// the nlerp family widened from the article's AVX2 forms. `x86_64`
    /// with AVX-512.
    Avx512,
    /// 4-wide NEON forms (`core::arch::aarch64`): the id Software routines'
    /// successors and the nlerp family. `aarch64`, where NEON is part of the
    /// baseline (no detection).
    Neon,
    /// 4-wide wasm SIMD128 forms (`core::arch::wasm32`): the id Software
    /// routines' successors and the nlerp family. `wasm32` built with
    /// `-C target-feature=+simd128` (fixed at compile time: wasm has no
    /// run-time detection).
    Simd128,
}

impl Impl {
    /// Every concrete form, in a fixed order (for tests, benches and
    /// reports); the selectors [`Impl::Auto`] and [`Impl::Deterministic`]
    /// are not in it.
    pub const ALL: [Impl; 10] = [
        Impl::Scalar,
        Impl::Portable,
        Impl::Intrinsics,
        Impl::Asm,
        Impl::Sse2,
        Impl::Avx2NoFma,
        Impl::Avx2,
        Impl::Avx512,
        Impl::Neon,
        Impl::Simd128,
    ];

    /// A short lower-case name (`"auto"`, `"deterministic"`, `"scalar"`,
    /// `"portable"`, `"intrinsics"`, `"asm"`, `"sse2"`, `"avx2-nofma"`,
    /// `"avx2"`, `"avx512"`, `"neon"`, `"simd128"`).
    ///
    /// ```
    /// assert_eq!(animasm::Impl::Avx2NoFma.name(), "avx2-nofma");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Impl::Auto => "auto",
            Impl::Deterministic => "deterministic",
            Impl::Scalar => "scalar",
            Impl::Portable => "portable",
            Impl::Intrinsics => "intrinsics",
            Impl::Asm => "asm",
            Impl::Sse2 => "sse2",
            Impl::Avx2NoFma => "avx2-nofma",
            Impl::Avx2 => "avx2",
            Impl::Avx512 => "avx512",
            Impl::Neon => "neon",
            Impl::Simd128 => "simd128",
        }
    }
}

impl core::fmt::Display for Impl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a form's code comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Origin {
    /// The paper's C routine, ported line by line.
    PaperC,
    /// The published listing, instruction for instruction and register for
    /// register, in `asm!`.
    Listing,
    /// The listing's operations, in the listing's order, with `core::arch`
    /// intrinsics: bit-identical to the `asm!` listing.
    ListingTwin,
    /// Other published code (intrinsics that are no listing's twin: the AVX
    /// article's SSE baseline, the nlerp article's widths).
    Published,
    /// Not published: the paper's algorithm written anew for a newer
    /// instruction set, under the safe function's contract
    /// (`asm_notes/successors.md`).
    Successor,
    /// A published form widened by this crate to a newer instruction set:
    /// the published recipe on more lanes (the nlerp family's AVX-512
    /// forms).
    Widened,
}

impl Origin {
    /// A short lower-case name (`"paper-c"`, `"listing"`, `"listing-twin"`,
    /// `"published"`, `"successor"`, `"widened"`).
    ///
    /// ```
    /// assert_eq!(animasm::Origin::ListingTwin.name(), "listing-twin");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Origin::PaperC => "paper-c",
            Origin::Listing => "listing",
            Origin::ListingTwin => "listing-twin",
            Origin::Published => "published",
            Origin::Successor => "successor",
            Origin::Widened => "widened",
        }
    }

    /// Whether the form reproduces a published listing (its instructions,
    /// order and registers): [`Origin::Listing`] and
    /// [`Origin::ListingTwin`].
    ///
    /// ```
    /// assert!(animasm::Origin::Listing.is_faithful() && !animasm::Origin::Successor.is_faithful());
    /// ```
    pub const fn is_faithful(self) -> bool {
        matches!(self, Origin::Listing | Origin::ListingTwin)
    }
}

/// The raw kernel signatures, one per shape of routine: a roster entry's
/// forms hold kernels of one of these types. Calling one is `unsafe`: its
/// safety conditions are the `# Safety` section of the form's module
/// function, which the routine's safe function checks.
pub mod kernel {
    use super::{JointMat, JointQuat, Quat, Vec4};

    /// `slerp_joints`, `lerp_joints`: `(joints, blend, lerp, index, count)`.
    pub type JointBlend = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);
    /// `quats_to_mats`: `(mats, quats, count)`.
    pub type QuatsToMats = unsafe fn(*mut JointMat, *const JointQuat, i32);
    /// `mats_to_quats`: `(quats, mats, count)`.
    pub type MatsToQuats = unsafe fn(*mut JointQuat, *const JointMat, i32);
    /// `transform_skeleton`, `untransform_skeleton`: `(mats, parents,
    /// first_joint, last_joint)`.
    pub type Skeleton = unsafe fn(*mut JointMat, *const i32, i32, i32);
    /// `transform_joints`: `(result, a, b, count)`.
    pub type TransformJoints = unsafe fn(*mut JointMat, *const JointMat, *const JointMat, i32);
    /// `slerp_quats_*`: `(result, from, to, factor, count)`.
    pub type QuatPairs = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32);
    /// The nlerp family: `(dest, l, r, t, size)`.
    pub type Stream = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);
    /// `slerp_pose`, `lerp_pose`: `(model, skin, from, to, factor, scale,
    /// parents, inverse_bind, count)`; `skin`, `to` and `scale` may be null
    /// (no skin, no blend, no scale).
    pub type Pose = unsafe fn(
        *mut JointMat,
        *mut JointMat,
        *const JointQuat,
        *const JointQuat,
        f32,
        *const Vec4,
        *const i32,
        *const JointMat,
        i32,
    );
}

/// One row of a routine's kernel table: a form, what it is, and its raw
/// kernel.
#[derive(Clone, Copy, Debug)]
pub struct Form<K> {
    pub(crate) imp: Impl,
    pub(crate) origin: Origin,
    pub(crate) isa: Isa,
    pub(crate) align: usize,
    pub(crate) kernel: K,
}

impl<K: Copy> Form<K> {
    /// The form's name.
    ///
    /// ```
    /// use animasm::roster::{Shape, find};
    /// if let Shape::JointBlend { forms, .. } = find("slerp_joints").unwrap().shape {
    ///     assert_eq!(forms.last().unwrap().imp(), animasm::Impl::Scalar);
    /// }
    /// ```
    pub fn imp(&self) -> Impl {
        self.imp
    }

    /// What the form is: its name, origin, instruction set and alignment.
    pub fn info(&self) -> FormInfo {
        FormInfo { imp: self.imp, origin: self.origin, isa: self.isa, align: self.align }
    }

    /// The raw kernel. Calling it is `unsafe`: its safety conditions are
    /// the `# Safety` section of the form's module function (for example
    /// [`crate::slerp_joints::avx2::slerp_joints`]), which the safe function
    /// checks; and the CPU must have the form's instruction set
    /// ([`Form::runnable`]).
    pub fn kernel(&self) -> K {
        self.kernel
    }
}

/// What a [`Form`] is, without its kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FormInfo {
    /// The form's name.
    pub imp: Impl,
    /// Where its code comes from.
    pub origin: Origin,
    /// The instruction set it runs on.
    pub isa: Isa,
    /// The alignment, in bytes, its loads and stores need beyond what the
    /// element types guarantee (1: nothing more).
    pub align: usize,
}
