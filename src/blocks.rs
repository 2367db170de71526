//! The loops over blocks of four joints that the 4-lane successor forms
//! share, whatever their instruction set (NEON, `crate::aarch64`; wasm
//! SIMD128, `crate::wasm32`): the conversions' loop with its zero-padded
//! last block ([`by_blocks_of_4`]), the nlerp family's loop over a stream
//! with its padded last block ([`stream_by_4`]) and the one rule for duplicate index
//! entries of the joint blends ([`in_list_order`]), whose duplicate test an
//! instruction set may do with its own vectors ([`Repeats`]).
//!
//! Nothing here computes: every joint goes through its form's lane
//! arithmetic, wherever it sits in the list.

use crate::types::{JointQuat, Quat};

/// Joints per block.
pub(crate) const BLOCK: usize = 4;

/// Runs `block` on elements `i..i + 4` of `out` and `inp` for every full
/// block of four, then, for the last `n % 4` elements, on a stack copy of
/// them padded with `I::default()` (its results past the copied ones are
/// dropped). A conversion with no 1-wide tail and no access outside the
/// lists.
///
/// # Safety
///
/// `inp` is valid for reads of `n` elements and `out` for writes of `n`,
/// both aligned for their types, not overlapping; `block` is sound for four
/// valid elements each side.
#[inline(always)]
pub(crate) unsafe fn by_blocks_of_4<O: Copy + Default, I: Copy + Default>(
    out: *mut O,
    inp: *const I,
    n: usize,
    block: unsafe fn(*mut O, *const I),
) {
    let full = n / BLOCK * BLOCK;
    let mut i = 0;
    while i < full {
        // SAFETY: `i + 4 <= n`: elements `i..i + 4` of both lists are valid
        // (caller's contract) and do not overlap.
        unsafe { block(out.add(i), inp.add(i)) };
        i += BLOCK;
    }
    let rest = n - full;
    if rest > 0 {
        let mut src = [I::default(); BLOCK];
        let mut dst = [O::default(); BLOCK];
        // SAFETY: the `rest < 4` elements from `full` are the lists' last
        // (caller's contract); the stack arrays hold four elements, are
        // aligned and distinct from the lists.
        unsafe {
            core::ptr::copy_nonoverlapping(inp.add(full), src.as_mut_ptr(), rest);
            block(dst.as_mut_ptr(), src.as_ptr());
            core::ptr::copy_nonoverlapping(dst.as_ptr(), out.add(full), rest);
        }
    }
}

/// The nlerp family's loop (`dest[i] = f(l, r[i], t[i])`): `block` on
/// elements `i..i + 4` of the streams for every full block of four, then
/// the last `size % 4` through a local block padded with copies of the
/// last element (the article's option 2), so that every element goes
/// through the same lane operations whatever its position: `dest[i]`
/// depends only on `l`, `r[i]` and `t[i]`. `l` is the fixed quaternion as
/// the instruction set broadcasts it.
///
/// # Safety
///
/// `r` valid for reading and `dest` for writing `size` quaternions, `t`
/// for reading `size` floats; `dest` may be `r` itself but must not
/// otherwise overlap `r` or `t`; `block` is sound for four elements of
/// each (`dest` may equal `r`: it loads before it stores).
#[inline(always)]
pub(crate) unsafe fn stream_by_4<L>(
    dest: *mut Quat,
    l: &L,
    r: *const Quat,
    t: *const f32,
    size: usize,
    block: unsafe fn(*mut Quat, &L, *const Quat, *const f32),
) {
    let full = size - size % BLOCK;
    let mut i = 0;
    while i < full {
        // SAFETY: `i + 4 <= size`: four elements of each stream, in the
        // ranges the caller guarantees.
        unsafe { block(dest.add(i), l, r.add(i), t.add(i)) };
        i += BLOCK;
    }
    if i < size {
        let n = size - i;
        // SAFETY: `size - 1` is in range; the tail `i..size` is read into
        // the local block before any of `dest`'s tail is written, so
        // `dest == r` works; the local arrays are disjoint from the
        // caller's memory.
        unsafe {
            let mut rp = [*r.add(size - 1); BLOCK];
            let mut tp = [*t.add(size - 1); BLOCK];
            core::ptr::copy_nonoverlapping(r.add(i), rp.as_mut_ptr(), n);
            core::ptr::copy_nonoverlapping(t.add(i), tp.as_mut_ptr(), n);
            let mut out = [Quat::default(); BLOCK];
            block(out.as_mut_ptr(), l, rp.as_ptr(), tp.as_ptr());
            core::ptr::copy_nonoverlapping(out.as_ptr(), dest.add(i), n);
        }
    }
}

/// The listings' `lerp >= 1` (and NaN `lerp`) early-out of both joint
/// interpolators, for every 4-lane form: copies `blend_joints[j]` to
/// `joints[j]` for every `j` in `index[0..n]`, in order, bit for bit (a
/// copy moves bits: NaN payloads too).
///
/// # Safety
///
/// `index` points to `n` readable `i32`, each a joint of both lists
/// (`joints` valid for writes, `blend_joints` for reads), which do not
/// overlap.
#[inline]
pub(crate) unsafe fn copy_indexed(joints: *mut JointQuat, blend_joints: *const JointQuat, index: *const i32, n: usize) {
    for i in 0..n {
        // SAFETY: `i < n` entries of `index` are readable; the entry names a
        // joint of both lists, which do not overlap (caller's contract).
        unsafe {
            let j = *index.add(i) as usize;
            *joints.add(j) = *blend_joints.add(j);
        }
    }
}

/// How an instruction set tells whether index entries name a joint twice
/// (the test of [`in_list_order`]). The provided methods compare the
/// entries one by one; an instruction set may compare them in vectors
/// instead (the NEON forms do), with the same answers.
pub(crate) trait Repeats {
    /// Whether the `4 N` entries at `idx` name some joint twice. A strictly
    /// increasing run (a sorted index) is recognised first; otherwise every
    /// pair of entries is compared.
    ///
    /// # Safety
    ///
    /// `idx` points to `4 N` readable `i32`.
    #[inline(always)]
    unsafe fn group<const N: usize>(idx: *const i32) -> bool {
        // SAFETY: `4 N` entries are readable (caller's contract).
        let e = unsafe { core::slice::from_raw_parts(idx, 4 * N) };
        if e.windows(2).all(|w| w[0] < w[1]) {
            return false;
        }
        (1..e.len()).any(|i| e[..i].contains(&e[i]))
    }

    /// Whether the first `m` (1 to 4) of the four entries at `idx` name
    /// some joint twice (the others are a padded block's copies of its last
    /// entry).
    ///
    /// # Safety
    ///
    /// `idx` points to four readable `i32`; `1 <= m <= 4`; the first `m`
    /// are not negative.
    #[inline(always)]
    unsafe fn block(idx: *const i32, m: usize) -> bool {
        // SAFETY: `m <= 4` entries are readable (caller's contract).
        let e = unsafe { core::slice::from_raw_parts(idx, m) };
        (1..m).any(|i| e[..i].contains(&e[i]))
    }
}

/// The entries compared one by one ([`Repeats`]' provided methods): the
/// wasm SIMD128 forms' test.
#[cfg_attr(not(all(target_arch = "wasm32", target_feature = "simd128")), allow(dead_code))]
pub(crate) struct OneByOne;

impl Repeats for OneByOne {}

/// The one rule for duplicate index entries of the successors, on blocks of
/// four (the AVX2 successors' `crate::x86::slerp_core8::in_list_order` on
/// blocks of eight): the entries of `index[0..n]` are applied in list
/// order, each interpolating from what the entries before it left, while
/// every joint goes through the same per-lane arithmetic.
///
/// `groups` runs `4 N` entries (`N` interleaved blocks of four) and `block`
/// four, each loading everything before storing anything, so each may run
/// only entries that name distinct joints: a group whose entries are
/// distinct (`R::group`) is one `groups` call, else its blocks run one after
/// the other; after the groups come blocks of four, the last one padded
/// with the last entry; a block whose (real) entries are distinct
/// (`R::block`) is one `block` call, else its entries run one at a time,
/// each as a block of four copies of itself.
///
/// # Safety
///
/// `index` points to `n` readable `i32`, none negative; `groups` and `block`
/// are sound for any pointer to `4 N` (resp. four) entries of `index` (or
/// copies of them).
#[inline(always)]
pub(crate) unsafe fn in_list_order<const N: usize, R: Repeats>(
    index: *const i32,
    n: usize,
    mut groups: impl FnMut(*const i32),
    mut block: impl FnMut(*const i32),
) {
    let g = 4 * N;
    let mut i = 0;
    // SAFETY: entries `i..i + 4 N` (resp. the blocks' entries) are readable
    // as each call needs (caller's contract, `i + 4 N <= n`; the last block
    // is copied to `pad`).
    unsafe {
        while n - i >= g {
            let idx = index.add(i);
            if R::group::<N>(idx) {
                for b in 0..N {
                    block_in_list_order::<R>(idx.add(4 * b), 4, &mut block);
                }
            } else {
                groups(idx);
            }
            i += g;
        }
        let mut pad = [0i32; 4];
        while i < n {
            let m = (n - i).min(4);
            let idx = if m == 4 {
                index.add(i)
            } else {
                pad.fill(*index.add(n - 1));
                core::ptr::copy_nonoverlapping(index.add(i), pad.as_mut_ptr(), m);
                pad.as_ptr()
            };
            block_in_list_order::<R>(idx, m, &mut block);
            i += 4;
        }
    }
}

/// One block of [`in_list_order`]: the four entries at `idx`, of which the
/// first `m` are real, as one `block` call or entry by entry.
///
/// # Safety
///
/// As [`Repeats::block`]; `block` is sound for `idx` and for four copies of
/// any of its entries.
#[inline(always)]
unsafe fn block_in_list_order<R: Repeats>(idx: *const i32, m: usize, block: &mut impl FnMut(*const i32)) {
    // SAFETY: four entries at `idx`, `m` real (caller's contract).
    unsafe {
        if R::block(idx, m) {
            for e in 0..m {
                let one = [*idx.add(e); 4];
                block(one.as_ptr());
            }
        } else {
            block(idx);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{OneByOne, Repeats};

    #[test]
    fn one_by_one_finds_repeats() {
        // SAFETY: each array holds the entries read.
        unsafe {
            assert!(!OneByOne::group::<2>([0, 1, 2, 3, 4, 5, 6, 7].as_ptr()));
            assert!(!OneByOne::group::<2>([7, 1, 2, 3, 4, 5, 6, 0].as_ptr()));
            assert!(OneByOne::group::<2>([7, 1, 2, 3, 4, 5, 6, 7].as_ptr()));
            assert!(OneByOne::group::<1>([3, 3, 0, 1].as_ptr()));
            assert!(!OneByOne::block([5, 2, 2, 2].as_ptr(), 2));
            assert!(OneByOne::block([5, 2, 5, 5].as_ptr(), 3));
        }
    }
}
