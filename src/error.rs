//! The one error type of the safe functions.

use crate::form::Impl;

/// Why a safe function refused its input. When one is returned, nothing has
/// been written.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The routine has no such form on this target (for example
    /// [`Impl::Asm`] off `x86_64` or under Miri, or [`Impl::Sse2`] for a
    /// routine that has no SSE2 form).
    Unsupported(Impl),
    /// The kernel needs CPU features (beyond the `x86_64` baseline) that
    /// this CPU lacks, or that cannot be detected (without the `std`
    /// feature).
    MissingCpuFeature {
        /// The features, as `is_x86_feature_detected!` names them (`"avx"`,
        /// `"avx2 and fma"`).
        needs: &'static str,
    },
    /// Two slices that must have the same length do not.
    LengthMismatch {
        /// The argument whose length is wrong.
        what: &'static str,
        /// The length it must have.
        expected: usize,
        /// Its length.
        found: usize,
    },
    /// A slice is shorter than the input requires.
    TooShort {
        /// The argument that is too short.
        what: &'static str,
        /// The length it must at least have.
        needed: usize,
        /// Its length.
        found: usize,
    },
    /// An entry of `index` is negative or not below the number of joints.
    IndexOutOfRange {
        /// The position of the entry in `index`.
        position: usize,
        /// The entry.
        value: i32,
        /// The number of joints it must be below.
        len: usize,
    },
    /// A slice is longer than the kernels' 32-bit counts and address
    /// arithmetic can reach (each routine's `MAX_*` constant).
    TooLong {
        /// The argument that is too long.
        what: &'static str,
        /// Its length.
        len: usize,
        /// The most the routine takes.
        max: usize,
    },
    /// An interpolation factor is NaN or infinite.
    NonFiniteFactor {
        /// The argument (`"lerp"`, `"factor"`, `"t"`).
        what: &'static str,
        /// For a slice of factors (`t`), the position of the first
        /// non-finite one; `None` for a single factor.
        position: Option<usize>,
        /// The factor.
        value: f32,
    },
    /// A slice does not start at the alignment the chosen form's loads and
    /// stores need (the AVX forms of `slerp_quats_*` need 32 bytes).
    Misaligned {
        /// The argument.
        what: &'static str,
        /// The alignment the form needs, in bytes.
        needed: usize,
        /// The slice's address.
        address: usize,
    },
    /// The parent of a joint in the transformed range is negative, not a
    /// joint of the slice, or not before the joint (parents must come first:
    /// the in-place transforms read a parent as already transformed); for
    /// [`crate::Skeleton::new`], which takes any order, a parent that is
    /// neither `-1` (a root) nor a joint.
    InvalidParent {
        /// The joint whose parent is wrong.
        joint: usize,
        /// Its entry in `parents`.
        parent: i32,
    },
    /// A joint is its own ancestor: following `parents` from it comes back
    /// to it ([`crate::Skeleton::new`]).
    ParentCycle {
        /// A joint on the cycle.
        joint: usize,
    },
    /// The joint range does not lie inside the slice.
    RangeOutOfBounds {
        /// First joint of the range.
        start: usize,
        /// Last joint of the range (inclusive).
        end: usize,
        /// The number of joints in the slice.
        len: usize,
    },
}

impl core::fmt::Display for Error {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Error::Unsupported(imp) => {
                write!(f, "the routine has no {imp} form on this target")
            }
            Error::MissingCpuFeature { needs } => write!(
                f,
                "this CPU lacks {needs}, which the kernel needs (or the `std` feature, which detects it, is off)"
            ),
            Error::LengthMismatch { what, expected, found } => {
                write!(f, "`{what}` has {found} elements, expected {expected}")
            }
            Error::TooShort { what, needed, found } => {
                write!(f, "`{what}` has {found} elements, needs at least {needed}")
            }
            Error::IndexOutOfRange { position, value, len } => {
                write!(f, "`index[{position}]` = {value} is outside the joints 0..{len}")
            }
            Error::TooLong { what, len, max } => {
                write!(f, "`{what}` has {len} elements, the kernels take at most {max}")
            }
            Error::NonFiniteFactor { what, position: None, value } => write!(f, "`{what}` = {value} is not finite"),
            Error::NonFiniteFactor { what, position: Some(i), value } => {
                write!(f, "`{what}[{i}]` = {value} is not finite")
            }
            Error::Misaligned { what, needed, address } => {
                write!(
                    f,
                    "`{what}` starts at {address:#x}, which is not {needed}-byte aligned as the chosen form needs"
                )
            }
            Error::InvalidParent { joint, parent } => {
                write!(f, "`parents[{joint}]` = {parent} is not a joint before {joint} (parents must be in 0..{joint})")
            }
            Error::ParentCycle { joint } => {
                write!(f, "joint {joint} is its own ancestor (the parents form a cycle)")
            }
            Error::RangeOutOfBounds { start, end, len } => {
                write!(f, "the joint range {start}..={end} is outside the {len} joints")
            }
        }
    }
}

impl core::error::Error for Error {}
