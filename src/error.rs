//! The one error type of the safe functions.

use crate::Impl;

/// Why a safe function refused its input. When one is returned, nothing has
/// been written.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The chosen implementation cannot run on this target or CPU.
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
    /// More joints than the kernels' 32-bit address arithmetic can reach.
    TooManyJoints {
        /// The number of joints given.
        len: usize,
        /// The most the routine takes.
        max: usize,
    },
    /// The interpolation factor is NaN or infinite.
    NonFiniteLerp(f32),
    /// The parent of a joint in the transformed range is negative, not a
    /// joint of the slice, or not before the joint (parents must come first:
    /// the in-place transforms read a parent as already transformed).
    InvalidParent {
        /// The joint whose parent is wrong.
        joint: usize,
        /// Its entry in `parents`.
        parent: i32,
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
                write!(f, "the {imp} implementation cannot run on this target or CPU")
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
            Error::TooManyJoints { len, max } => {
                write!(f, "{len} joints, the kernels take at most {max}")
            }
            Error::NonFiniteLerp(v) => write!(f, "`lerp` = {v} is not finite"),
            Error::InvalidParent { joint, parent } => {
                write!(f, "`parents[{joint}]` = {parent} is not a joint before {joint} (parents must be in 0..{joint})")
            }
            Error::RangeOutOfBounds { start, end, len } => {
                write!(f, "the joint range {start}..={end} is outside the {len} joints")
            }
        }
    }
}

impl core::error::Error for Error {}
