//! [`Buf`]: a list of at most `C` elements on the stack, so that the targets
//! allocate nothing per execution.

use core::ops::{Deref, DerefMut};

/// The capacity of the targets' lists (at least [`crate::MAX_LEN`] + 2).
pub const CAP: usize = 48;

/// A list of at most `C` copyable elements, stored inline; it derefs to the
/// slice of its `len` elements.
#[derive(Clone, Copy)]
pub struct Buf<T: Copy + Default, const C: usize = CAP> {
    items: [T; C],
    len: usize,
}

impl<T: Copy + Default, const C: usize> Buf<T, C> {
    /// An empty list.
    pub fn new() -> Self {
        Buf { items: [T::default(); C], len: 0 }
    }

    /// `f(0), ..., f(len - 1)`.
    pub fn from_fn(len: usize, mut f: impl FnMut(usize) -> T) -> Self {
        assert!(len <= C, "{len} elements in a buffer of {C}");
        let mut b = Self::new();
        for (k, item) in b.items[..len].iter_mut().enumerate() {
            *item = f(k);
        }
        b.len = len;
        b
    }

    /// A copy of `s`.
    pub fn from_slice(s: &[T]) -> Self {
        assert!(s.len() <= C, "{} elements in a buffer of {C}", s.len());
        let mut b = Self::new();
        b.items[..s.len()].copy_from_slice(s);
        b.len = s.len();
        b
    }

    /// Makes the list a copy of `s` (copying `s.len()` elements only).
    pub fn set(&mut self, s: &[T]) {
        assert!(s.len() <= C, "{} elements in a buffer of {C}", s.len());
        self.items[..s.len()].copy_from_slice(s);
        self.len = s.len();
    }

    /// Appends `x`.
    pub fn push(&mut self, x: T) {
        assert!(self.len < C, "a buffer of {C} is full");
        self.items[self.len] = x;
        self.len += 1;
    }
}

impl<T: Copy + Default, const C: usize> Default for Buf<T, C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const C: usize> Deref for Buf<T, C> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items[..self.len]
    }
}

impl<T: Copy + Default, const C: usize> DerefMut for Buf<T, C> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len]
    }
}

impl<T: Copy + Default + core::fmt::Debug, const C: usize> core::fmt::Debug for Buf<T, C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
