//! The 4-lane pieces that the SIMD128 successors (`Impl::Simd128`) share,
//! as `crate::aarch64::blocks4` holds the NEON ones: the 4x4 transpose that
//! turns rows into structure-of-arrays vectors and back, and the broadcast
//! of one lane (NEON's by-element operand; wasm's arithmetic has none). The
//! loop over blocks of four joints is `crate::blocks::by_blocks_of_4`.
//!
//! Everything here only moves 32-bit lanes (`i32x4_shuffle`,
//! `i64x2_shuffle`): no arithmetic, so the bits are the inputs'.

use crate::types::JointMat;
use core::arch::wasm32::*;

/// 4x4 transpose of four vectors: `(a b c d)` as rows in, columns out
/// (NEON's `transpose4`). Built from the interleaves that V8 lowers to
/// single SSE instructions (`unpcklps`/`unpckhps`, then
/// `punpcklqdq`/`punpckhqdq`) rather than NEON's `trn1`/`trn2` order,
/// whose 32-bit shuffle has no single x86 instruction; the same columns.
#[inline(always)]
pub(crate) fn transpose4(a: v128, b: v128, c: v128, d: v128) -> [v128; 4] {
    let ab_lo = i32x4_shuffle::<0, 4, 1, 5>(a, b); // a0 b0 a1 b1
    let cd_lo = i32x4_shuffle::<0, 4, 1, 5>(c, d); // c0 d0 c1 d1
    let ab_hi = i32x4_shuffle::<2, 6, 3, 7>(a, b); // a2 b2 a3 b3
    let cd_hi = i32x4_shuffle::<2, 6, 3, 7>(c, d); // c2 d2 c3 d3
    [
        i64x2_shuffle::<0, 2>(ab_lo, cd_lo), // a0 b0 c0 d0
        i64x2_shuffle::<1, 3>(ab_lo, cd_lo), // a1 b1 c1 d1
        i64x2_shuffle::<0, 2>(ab_hi, cd_hi), // a2 b2 c2 d2
        i64x2_shuffle::<1, 3>(ab_hi, cd_hi), // a3 b3 c3 d3
    ]
}

/// Lane `K` of `v` in all four lanes (one `pshufd` under V8): the operand
/// that NEON's `vmulq_laneq_f32::<K>`/`vfmaq_laneq_f32::<K>` take by
/// element.
#[inline(always)]
pub(crate) fn splat_lane<const K: usize>(v: v128) -> v128 {
    // Lane indices 0 to 3 of `v` only: the shuffle's second operand is `v`
    // too and never picked.
    match K {
        0 => i32x4_shuffle::<0, 0, 0, 0>(v, v),
        1 => i32x4_shuffle::<1, 1, 1, 1>(v, v),
        2 => i32x4_shuffle::<2, 2, 2, 2>(v, v),
        3 => i32x4_shuffle::<3, 3, 3, 3>(v, v),
        _ => unreachable!("a lane of a 4-lane vector"),
    }
}

/// `base` with its lane 3 replaced by lane 3 of `v` (NEON's
/// `vcopyq_laneq_f32::<3, 3>(base, v)`; a blend, `pblendw` under V8).
#[inline(always)]
pub(crate) fn with_lane3_of(base: v128, v: v128) -> v128 {
    i32x4_shuffle::<0, 1, 2, 7>(base, v)
}

/// A 16-byte load from `p` (any alignment).
///
/// # Safety
///
/// `p` is valid for reads of 16 bytes.
#[inline(always)]
pub(crate) unsafe fn load(p: *const f32) -> v128 {
    // SAFETY: 16 readable bytes at `p` (caller's contract); `v128_load`
    // takes any alignment (`read_unaligned`).
    unsafe { v128_load(p.cast::<v128>()) }
}

/// A 16-byte store of `v` to `p` (any alignment).
///
/// # Safety
///
/// `p` is valid for writes of 16 bytes.
#[inline(always)]
pub(crate) unsafe fn store(p: *mut f32, v: v128) {
    // SAFETY: 16 writable bytes at `p` (caller's contract); `v128_store`
    // takes any alignment (`write_unaligned`).
    unsafe { v128_store(p.cast::<v128>(), v) }
}

/// A skeleton joint whose fused multiply-adds met a rare case
/// (`crate::wasm32::fma::Rare`), done again exactly: `joint(a, b)` (the
/// routine's portable per-joint function, whose fused multiply-add rounds
/// once in every case: the same bits as the common path where that one is
/// exact) on the child's rows as they were (`rows`) and the parent, over
/// what the common path stored; out of line. The parent is read from
/// `parent` unless it is the child (`parent == child`, raw kernels only),
/// whose old rows are `rows`.
///
/// # Safety
///
/// `child` is valid for writes of a [`JointMat`] and `parent` for reads of
/// one (any alignment).
#[cold]
#[inline(never)]
pub(crate) unsafe fn joint_exactly(
    child: *mut f32,
    parent: *const f32,
    rows: [v128; 3],
    joint: fn(&mut JointMat, &JointMat),
) {
    let mut a = JointMat::default();
    let m = a.mat.as_mut_ptr();
    // SAFETY: `a` is a local joint, 12 floats; the parent is 12 readable
    // floats when it is not the child (caller's contract), and the child
    // is written whole after both are read.
    unsafe {
        for (r, row) in rows.into_iter().enumerate() {
            store(m.add(4 * r), row);
        }
        let b = if core::ptr::eq(parent, child) { a } else { parent.cast::<JointMat>().read_unaligned() };
        joint(&mut a, &b);
        child.cast::<JointMat>().write_unaligned(a);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::wasm32::fma::tests::double_rounding_triple;

    /// A skeleton kernel's raw form: `(joints, parents, first, last)`.
    pub(crate) type SkeletonKernel = unsafe fn(*mut JointMat, *const i32, i32, i32);

    /// Up to 6 joints (the first `n` used) of pseudo-random elements in
    /// `[-1, 1)`, each joint's parent an earlier one (joint 0 its own,
    /// outside the range), and at `rare` a child of joint 0 crafted with it
    /// from [`double_rounding_triple`] `(a, b, c)`: joint 0 is `parent(b)`
    /// and the child's rows are `(c, 1, 1, 1)`, `(a, 0, 0, 0)`, `(0, 0, 1,
    /// 0)`, so that element `(0, 0)` is `(c 1 ⊕fma a b) ⊕fma 0 0`, whose
    /// second step is `a b + c`, which the common path alone rounds wrongly.
    fn skeleton(n: usize, rare: usize, seed: u32, parent: fn(f32) -> [f32; 12]) -> ([JointMat; 6], [i32; 6]) {
        let (a, b, c) = double_rounding_triple();
        let mut s = seed;
        let mut next = || {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            s
        };
        let mut mats: [JointMat; 6] = core::array::from_fn(|_| JointMat {
            mat: core::array::from_fn(|_| (next() >> 8) as f32 / (1 << 23) as f32 - 1.0),
        });
        let mut parents: [i32; 6] =
            core::array::from_fn(|i| if i == 0 || i >= n { 0 } else { (next() % i as u32) as i32 });
        mats[0].mat = parent(b);
        mats[rare].mat = [c, 1.0, 1.0, 1.0, a, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        parents[rare] = 0;
        (mats, parents)
    }

    /// Every skeleton of [`skeleton`] with the crafted joint (at every
    /// place of the range; as its own parent too, which the raw kernel
    /// allows) gives `portable`'s bits under `kernel`: the rare path redoes
    /// its joint right (made to skip it, the routines' tests fail).
    /// `parent(b)` is joint 0's matrix, with `b` where the routine reads
    /// the factor of the child's second row for element `(0, 0)`.
    pub(crate) fn check_rare_joints(kernel: SkeletonKernel, portable: SkeletonKernel, parent: fn(f32) -> [f32; 12]) {
        for n in 2..=6 {
            for at in 1..n {
                for self_parent in [false, true] {
                    let (mut got, mut parents) = skeleton(n, at, (n * 16 + at) as u32, parent);
                    if self_parent {
                        parents[at] = at as i32;
                    }
                    let mut want = got;
                    // SAFETY: 6 joints, every parent index below 6.
                    unsafe {
                        kernel(got.as_mut_ptr(), parents.as_ptr(), 1, n as i32 - 1);
                        portable(want.as_mut_ptr(), parents.as_ptr(), 1, n as i32 - 1);
                    }
                    let bits = |m: &[JointMat; 6]| m.map(|j| j.mat.map(f32::to_bits));
                    assert_eq!(
                        bits(&got),
                        bits(&want),
                        "{n} joints, the rare one at {at}, its own parent: {self_parent}"
                    );
                }
            }
        }
    }

    fn lanes(v: v128) -> [u32; 4] {
        [u32x4_extract_lane::<0>(v), u32x4_extract_lane::<1>(v), u32x4_extract_lane::<2>(v), u32x4_extract_lane::<3>(v)]
    }

    #[test]
    fn transpose4_transposes() {
        let rows: [v128; 4] = core::array::from_fn(|r| {
            let r = r as u32 * 4;
            u32x4(r, r + 1, r + 2, r + 3)
        });
        let cols = transpose4(rows[0], rows[1], rows[2], rows[3]);
        for (c, col) in cols.iter().enumerate() {
            let c = c as u32;
            assert_eq!(lanes(*col), [c, 4 + c, 8 + c, 12 + c]);
        }
        let back = transpose4(cols[0], cols[1], cols[2], cols[3]);
        for (r, row) in back.iter().enumerate() {
            assert_eq!(lanes(*row), lanes(rows[r]));
        }
    }

    #[test]
    fn lanes_move() {
        let v = u32x4(10, 11, 12, 13);
        assert_eq!(lanes(splat_lane::<0>(v)), [10; 4]);
        assert_eq!(lanes(splat_lane::<1>(v)), [11; 4]);
        assert_eq!(lanes(splat_lane::<2>(v)), [12; 4]);
        assert_eq!(lanes(splat_lane::<3>(v)), [13; 4]);
        assert_eq!(lanes(with_lane3_of(u32x4(0, 1, 2, 3), v)), [0, 1, 2, 13]);
    }
}
