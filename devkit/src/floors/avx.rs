//! The AVX kernels: unaligned 256-bit loads and stores (a 48-byte matrix is
//! a 256-bit and a 128-bit access), one add.

use core::arch::x86_64::*;

use super::Walk;
use animasm::{JointMat, JointQuat};

/// # Safety
/// AVX; every entry of `index` addresses a joint of both lists.
#[target_feature(enable = "avx")]
pub(super) unsafe fn joint_lists(joints: *mut JointQuat, blend: *const JointQuat, index: &[i32]) {
    for &j in index {
        // SAFETY: the caller checked `j` against both lists; a
        // `JointQuat` is 32 bytes, so each access stays inside one joint.
        unsafe {
            let d = joints.add(j as usize) as *mut f32;
            let s = blend.add(j as usize) as *const f32;
            _mm256_storeu_ps(d, _mm256_add_ps(_mm256_loadu_ps(d), _mm256_loadu_ps(s)));
        }
    }
}

/// # Safety
/// AVX; `mats` and `quats` hold `n` elements.
#[target_feature(enable = "avx")]
pub(super) unsafe fn quats_to_mats(mats: *mut JointMat, quats: *const JointQuat, n: usize) {
    for i in 0..n {
        // SAFETY: `i < n`; 32 bytes read inside joint `i`, 32 + 16
        // bytes written inside matrix `i` (48 bytes).
        unsafe {
            let q = _mm256_loadu_ps(quats.add(i) as *const f32);
            let s = _mm256_add_ps(q, q);
            let m = mats.add(i) as *mut f32;
            _mm256_storeu_ps(m, s);
            _mm_storeu_ps(m.add(8), _mm256_castps256_ps128(s));
        }
    }
}

/// # Safety
/// AVX; `quats` and `mats` hold `n` elements.
#[target_feature(enable = "avx")]
pub(super) unsafe fn mats_to_quats(quats: *mut JointQuat, mats: *const JointMat, n: usize) {
    for i in 0..n {
        // SAFETY: `i < n`; the two 32-byte reads cover bytes 0..48 of
        // matrix `i`, the write is joint `i`'s 32 bytes.
        unsafe {
            let m = mats.add(i) as *const f32;
            let s = _mm256_add_ps(_mm256_loadu_ps(m), _mm256_loadu_ps(m.add(4)));
            _mm256_storeu_ps(quats.add(i) as *mut f32, s);
        }
    }
}

/// # Safety
/// AVX; the three lists hold `n` matrices.
#[target_feature(enable = "avx")]
pub(super) unsafe fn transform_joints(r: *mut JointMat, a: *const JointMat, b: *const JointMat, n: usize) {
    for i in 0..n {
        // SAFETY: `i < n`; every access is inside matrix `i` of its list
        // (bytes 0..32 and 32..48).
        unsafe {
            let (a, b, r) = (a.add(i) as *const f32, b.add(i) as *const f32, r.add(i) as *mut f32);
            _mm256_storeu_ps(r, _mm256_add_ps(_mm256_loadu_ps(a), _mm256_loadu_ps(b)));
            _mm_storeu_ps(r.add(8), _mm_add_ps(_mm_loadu_ps(a.add(8)), _mm_loadu_ps(b.add(8))));
        }
    }
}

/// # Safety
/// AVX; `model`, `from`, `to` and `parents` hold `n` elements; `mats`
/// and `bind` are both null or both hold `n` matrices.
#[target_feature(enable = "avx")]
pub(super) unsafe fn pose(
    model: *mut JointMat,
    from: *const JointQuat,
    to: *const JointQuat,
    parents: *const i32,
    mats: *mut JointMat,
    bind: *const JointMat,
    n: usize,
) {
    for i in 0..n {
        // SAFETY: `i < n`; 32 bytes read inside joint `i` of each pose,
        // 4 inside parent `i`, 32 + 16 bytes inside each matrix `i`.
        unsafe {
            let s = _mm256_add_ps(_mm256_loadu_ps(from.add(i) as *const f32), _mm256_loadu_ps(to.add(i) as *const f32));
            let p = _mm_castsi128_ps(_mm_cvtsi32_si128(*parents.add(i)));
            let tail = _mm_add_ps(_mm256_castps256_ps128(s), p);
            let m = model.add(i) as *mut f32;
            _mm256_storeu_ps(m, s);
            _mm_storeu_ps(m.add(8), tail);
            if !mats.is_null() {
                let (r, b) = (mats.add(i) as *mut f32, bind.add(i) as *const f32);
                _mm256_storeu_ps(r, _mm256_add_ps(s, _mm256_loadu_ps(b)));
                _mm_storeu_ps(r.add(8), _mm_add_ps(tail, _mm_loadu_ps(b.add(8))));
            }
        }
    }
}

/// One joint of the memory floor: 48 + 48 bytes read, 48 written.
///
/// # Safety
/// AVX; `m` and `p` point to matrices.
#[inline(always)]
unsafe fn add_joint(m: *mut f32, p: *const f32) {
    // SAFETY: the caller's; bytes 0..32 and 32..48 of each matrix.
    unsafe {
        _mm256_storeu_ps(m, _mm256_add_ps(_mm256_loadu_ps(p), _mm256_loadu_ps(m)));
        _mm_storeu_ps(m.add(8), _mm_add_ps(_mm_loadu_ps(p.add(8)), _mm_loadu_ps(m.add(8))));
    }
}

/// One joint of the chain floor: three 128-bit rows, one FMA each.
///
/// # Safety
/// AVX and FMA; `m` and `p` point to matrices.
#[inline(always)]
unsafe fn fma_joint(m: *mut f32, p: *const f32) {
    // SAFETY: the caller's; rows at bytes 0, 16 and 32 of each matrix.
    unsafe {
        let half = _mm_set1_ps(0.5);
        for r in [0, 4, 8] {
            _mm_storeu_ps(m.add(r), _mm_fmadd_ps(_mm_loadu_ps(p.add(r)), half, _mm_loadu_ps(m.add(r))));
        }
    }
}

#[target_feature(enable = "avx")]
unsafe fn walk_add(mats: *mut JointMat, parents: *const i32, first: usize, last: usize, walk: Walk) {
    // SAFETY (both loops): the caller's; `i` in `first..=last`.
    match walk {
        Walk::Forward => {
            for i in first..=last {
                unsafe { add_joint(mats.add(i) as *mut f32, mats.add(*parents.add(i) as usize) as *const f32) }
            }
        }
        Walk::Backward => {
            for i in (first..=last).rev() {
                unsafe { add_joint(mats.add(i) as *mut f32, mats.add(*parents.add(i) as usize) as *const f32) }
            }
        }
    }
}

#[target_feature(enable = "avx,fma")]
unsafe fn walk_fma(mats: *mut JointMat, parents: *const i32, first: usize, last: usize, walk: Walk) {
    // SAFETY (both loops): the caller's; `i` in `first..=last`.
    match walk {
        Walk::Forward => {
            for i in first..=last {
                unsafe { fma_joint(mats.add(i) as *mut f32, mats.add(*parents.add(i) as usize) as *const f32) }
            }
        }
        Walk::Backward => {
            for i in (first..=last).rev() {
                unsafe { fma_joint(mats.add(i) as *mut f32, mats.add(*parents.add(i) as usize) as *const f32) }
            }
        }
    }
}

/// # Safety
/// AVX (and FMA when `chain`); `first <= last`; every joint of
/// `first..=last` and its parent are inside `mats` and `parents`.
pub(super) unsafe fn skeleton(
    mats: *mut JointMat,
    parents: *const i32,
    first: usize,
    last: usize,
    walk: Walk,
    chain: bool,
) {
    // SAFETY: the caller's conditions are the kernels'.
    unsafe {
        if chain { walk_fma(mats, parents, first, last, walk) } else { walk_add(mats, parents, first, last, walk) }
    }
}
