//! Buffers that begin and end exactly at an allocation's bounds, for the
//! boundary tests that `scripts/memcheck.sh` runs under valgrind (a read or
//! write one element before or after is in valgrind's red zone) and that
//! `scripts/miri.sh` runs under Miri (which reports any access out of the
//! allocation).
//!
//! A `Vec` built by `to_vec` is exact for any element type
//! ([`exact_vec`]); [`ExactAligned`] is the same with a stronger alignment,
//! for `slerp_quats`' AVX forms, which need 32-byte-aligned arrays (an
//! `AlignedQuats` rounds odd counts up to a whole pair, so its last
//! quaternion does not end the allocation).

use std::alloc::{Layout, alloc, dealloc};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A copy of `v` in an allocation of exactly `v.len()` elements.
pub fn exact_vec<T: Clone>(v: &[T]) -> Vec<T> {
    let copy = v.to_vec();
    assert_eq!(copy.capacity(), copy.len(), "not an exact allocation");
    copy
}

/// `len` elements of `T` in one allocation of exactly `len * size_of::<T>()`
/// bytes, starting at an `align`-byte boundary. Derefs to `[T]`.
pub struct ExactAligned<T: Copy> {
    ptr: NonNull<T>,
    len: usize,
    layout: Option<Layout>,
}

impl<T: Copy> ExactAligned<T> {
    /// A copy of `init` in an exact allocation aligned to `align` bytes (a
    /// power of two, at least `T`'s alignment). An empty `init` allocates
    /// nothing (a dangling, well-aligned pointer, as `Vec` uses).
    pub fn new(init: &[T], align: usize) -> Self {
        let len = init.len();
        if len == 0 || size_of::<T>() == 0 {
            return ExactAligned { ptr: NonNull::dangling(), len, layout: None };
        }
        let layout = Layout::array::<T>(len).and_then(|l| l.align_to(align)).expect("layout");
        assert_eq!(layout.size(), size_of_val(init), "the allocation would be padded");
        // SAFETY: `layout` has a non-zero size (`len > 0`, `T` not a ZST).
        let raw = unsafe { alloc(layout) } as *mut T;
        let ptr = NonNull::new(raw).unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        // SAFETY: `ptr` is valid for `len` writes of `T` (just allocated with
        // `T`'s array layout) and does not overlap `init`.
        unsafe { core::ptr::copy_nonoverlapping(init.as_ptr(), ptr.as_ptr(), len) };
        ExactAligned { ptr, len, layout: Some(layout) }
    }
}

impl<T: Copy> Deref for ExactAligned<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised `T`s (copied in `new`; or it
        // is dangling and `len == 0`), owned by `self` for its lifetime.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> DerefMut for ExactAligned<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as `deref`, and `&mut self` makes this borrow unique.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Copy> Drop for ExactAligned<T> {
    fn drop(&mut self) {
        if let Some(layout) = self.layout {
            // SAFETY: allocated in `new` with this very layout, freed once.
            unsafe { dealloc(self.ptr.as_ptr() as *mut u8, layout) };
        }
    }
}
