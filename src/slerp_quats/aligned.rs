//! 32-byte-aligned quaternion storage for the AVX kernels: [`QuatPair`]
//! (no allocation, `no_std`) and [`AlignedQuats`] (an owned, growable array,
//! with the `alloc` feature, on with `std`).
//!
//! A [`Quat`] is 16-byte aligned, so a `Vec<Quat>` or `[Quat; N]` starts at
//! a 32-byte boundary or 16 bytes past one, depending on the allocator or
//! the stack: the AVX kernels' `vmovaps` needs the first. Both types here
//! guarantee it. A subslice keeps it only if it starts at an even index.

use crate::types::Quat;

/// Two quaternions in 32 bytes at a 32-byte-aligned address: the unit of
/// storage that makes a slice of quaternions fit the AVX kernels. A
/// `Vec<QuatPair>`, `[QuatPair; N]` or `Box<[QuatPair]>` holds `2 * len`
/// quaternions that [`QuatPair::as_quats`] / [`QuatPair::as_quats_mut`]
/// view as `&[Quat]` / `&mut [Quat]` starting 32-byte aligned.
///
/// ```
/// use animasm::Quat;
/// use animasm::slerp_quats::QuatPair;
///
/// let mut pairs = [QuatPair::default(); 8]; // 16 quaternions
/// let quats = QuatPair::as_quats_mut(&mut pairs);
/// quats[3] = Quat::IDENTITY;
/// assert_eq!(quats.len(), 16);
/// assert_eq!(quats.as_ptr() as usize % 32, 0);
/// ```
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct QuatPair(pub [Quat; 2]);

const _: () = {
    assert!(core::mem::size_of::<QuatPair>() == 32);
    assert!(core::mem::align_of::<QuatPair>() == 32);
};

impl QuatPair {
    /// The quaternions of `pairs`, in order (`2 * pairs.len()` of them), as
    /// one slice that starts 32-byte aligned.
    pub fn as_quats(pairs: &[QuatPair]) -> &[Quat] {
        // SAFETY: `QuatPair` is `repr(C)` around `[Quat; 2]`, 32 bytes with
        // no padding, so `pairs` is `2 * len` contiguous, initialised `Quat`s
        // with the same lifetime; the length cannot overflow (the slice
        // already spans that many bytes).
        unsafe { core::slice::from_raw_parts(pairs.as_ptr().cast::<Quat>(), pairs.len() * 2) }
    }

    /// The quaternions of `pairs` as one mutable slice (see [`QuatPair::as_quats`]).
    pub fn as_quats_mut(pairs: &mut [QuatPair]) -> &mut [Quat] {
        // SAFETY: as in `as_quats`, with the unique borrow of `pairs`.
        unsafe { core::slice::from_raw_parts_mut(pairs.as_mut_ptr().cast::<Quat>(), pairs.len() * 2) }
    }
}

#[cfg(feature = "alloc")]
pub use owned::AlignedQuats;

#[cfg(feature = "alloc")]
mod owned {
    use super::QuatPair;
    use crate::types::Quat;
    use alloc::vec::Vec;

    /// A growable array of quaternions whose storage starts 32-byte aligned:
    /// a `Vec<Quat>` for the AVX kernels. It dereferences to `[Quat]`, so it
    /// is passed as `&quats` / `&mut quats` where a slice is expected.
    /// Requires the `alloc` feature (on with `std`).
    ///
    /// ```
    /// use animasm::{Impl, Quat};
    /// use animasm::slerp_quats::{AlignedQuats, slerp_quats_corrected};
    ///
    /// let from = AlignedQuats::from_slice(&[Quat::IDENTITY; 20]);
    /// let to = AlignedQuats::from_slice(&[Quat::new(0.0, 0.0, 1.0, 0.0); 20]);
    /// let mut result = AlignedQuats::zeroed(20);
    /// // Auto takes the AVX kernel where the CPU has AVX: the arrays allow it.
    /// slerp_quats_corrected(Impl::Auto, &mut result, &from, &to, 0.5).unwrap();
    /// if animasm::slerp_quats::forms().any(|f| f == Impl::Asm) {
    ///     slerp_quats_corrected(Impl::Asm, &mut result, &from, &to, 0.5).unwrap();
    /// }
    /// let h = core::f32::consts::FRAC_1_SQRT_2;
    /// assert!((result[19].z - h).abs() < 1e-6 && (result[19].w - h).abs() < 1e-6);
    /// ```
    #[derive(Clone, Debug, Default)]
    pub struct AlignedQuats {
        pairs: Vec<QuatPair>,
        len: usize,
    }

    impl AlignedQuats {
        /// An empty array.
        pub const fn new() -> Self {
            AlignedQuats { pairs: Vec::new(), len: 0 }
        }

        /// `len` quaternions, all zero.
        pub fn zeroed(len: usize) -> Self {
            AlignedQuats { pairs: alloc::vec![QuatPair::default(); len.div_ceil(2)], len }
        }

        /// A copy of `quats`.
        pub fn from_slice(quats: &[Quat]) -> Self {
            let mut a = AlignedQuats::zeroed(quats.len());
            a.copy_from_slice(quats);
            a
        }

        /// Appends a quaternion.
        pub fn push(&mut self, q: Quat) {
            if self.len.is_multiple_of(2) {
                self.pairs.push(QuatPair([q, Quat::default()]));
            } else {
                self.pairs[self.len / 2].0[1] = q;
            }
            self.len += 1;
        }

        /// The number of quaternions.
        pub fn len(&self) -> usize {
            self.len
        }

        /// Whether there is none.
        pub fn is_empty(&self) -> bool {
            self.len == 0
        }
    }

    impl PartialEq for AlignedQuats {
        fn eq(&self, other: &Self) -> bool {
            **self == **other
        }
    }

    impl core::ops::Deref for AlignedQuats {
        type Target = [Quat];
        fn deref(&self) -> &[Quat] {
            &QuatPair::as_quats(&self.pairs)[..self.len]
        }
    }

    impl core::ops::DerefMut for AlignedQuats {
        fn deref_mut(&mut self) -> &mut [Quat] {
            &mut QuatPair::as_quats_mut(&mut self.pairs)[..self.len]
        }
    }

    impl FromIterator<Quat> for AlignedQuats {
        fn from_iter<I: IntoIterator<Item = Quat>>(iter: I) -> Self {
            let mut a = AlignedQuats::new();
            for q in iter {
                a.push(q);
            }
            a
        }
    }

    impl From<&[Quat]> for AlignedQuats {
        fn from(quats: &[Quat]) -> Self {
            AlignedQuats::from_slice(quats)
        }
    }
}
