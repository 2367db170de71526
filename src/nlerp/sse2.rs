//! `nlerp4`, `fnlerp4` and `onlerp4` of *Optimizing slerp*: the scalar
//! functions converted to SSE2 the way the article converts them, four
//! quaternion pairs per block.
//!
//! Per block: load four quaternions of `r` with `_mm_load_ps` and transpose
//! them to SoA with `_MM_TRANSPOSE4_PS` (here `transpose_4x4` of `src/x86/shuffle.rs`,
//! the crate's `TRANSPOSE_4x4`, which leaves the same columns in the same
//! registers); `l` is the same for every element, so `lX..lW` are broadcast
//! once per call. Then the scalar code with one `__m128` per scalar: the dot
//! product grouped `(xx + yy) + (zz + ww)` as the article's snippet, `d =
//! |ca|` by clearing the sign bit, the polynomial in `d` and `t`, the double
//! cover by `rt = ot ^ (ca & signMask)` (the article's final form, not its
//! compare-and-select example), `u = l * (1 - ot) + r * rt`, and `unit(u)` as
//! `u * us1` with `us0 = rsqrt(un)` refined by one Newton-Raphson step, `us1 =
//! (0.5 us0)(3 - us0 us0 un)`, exactly the article's line. The four results
//! are transposed back and stored with `_mm_store_ps`.
//!
//! Counts that are not a multiple of four take the article's option 2
//! ("pad the arrays with dummy data"), without touching the caller's arrays:
//! the last `size % 4` elements are copied into a local block padded with
//! copies of the last element, the block is computed, and only the real
//! results are copied out. Every element therefore goes through the same
//! SIMD code, and `dest[i]` depends only on `l`, `r[i]` and `t[i]`, never on
//! `size` or on `i % 4` (option 1's scalar tail would make the last elements
//! round differently). Padding with the last element computes nothing the
//! real data does not, so it raises no floating-point exception flag of its
//! own.

use crate::consts::{NLERP_FNLERP_K, NLERP_ONLERP_A, NLERP_ONLERP_B};
use crate::types::Quat;
use crate::x86::shuffle::transpose_4x4;
use core::arch::x86_64::*;

/// `lX, lY, lZ, lW`: the fixed quaternion `l` broadcast to every lane.
#[derive(Clone, Copy)]
struct L4 {
    x: __m128,
    y: __m128,
    z: __m128,
    w: __m128,
}

#[inline]
#[target_feature(enable = "sse2")]
fn splat(l: &Quat) -> L4 {
    L4 { x: _mm_set1_ps(l.x), y: _mm_set1_ps(l.y), z: _mm_set1_ps(l.z), w: _mm_set1_ps(l.w) }
}

/// `signMask`: `_mm_castsi128_ps(_mm_set1_epi32(0x80000000))`.
#[inline]
#[target_feature(enable = "sse2")]
fn sign_mask() -> __m128 {
    _mm_castsi128_ps(_mm_set1_epi32(0x8000_0000_u32 as i32))
}

/// Loads `r[0..4]` and transposes them: `[rX, rY, rZ, rW]`.
///
/// # Safety
///
/// `r` must be 16-byte aligned and valid for reading four quaternions.
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn load_soa(r: *const Quat) -> [__m128; 4] {
    // SAFETY: the caller guarantees four aligned, readable quaternions.
    let (mut rx, mut ry, mut rz, mut rw) = unsafe {
        (
            _mm_load_ps(r.cast::<f32>()),
            _mm_load_ps(r.add(1).cast::<f32>()),
            _mm_load_ps(r.add(2).cast::<f32>()),
            _mm_load_ps(r.add(3).cast::<f32>()),
        )
    };
    let mut tmp = rx;
    transpose_4x4(&mut rx, &mut ry, &mut rz, &mut rw, &mut tmp);
    [rx, ry, rz, rw]
}

/// `ca = (lX rX + lY rY) + (lZ rZ + lW rW)`, the article's grouping.
#[inline]
#[target_feature(enable = "sse2")]
fn dot(l: &L4, r: &[__m128; 4]) -> __m128 {
    _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(l.x, r[0]), _mm_mul_ps(l.y, r[1])),
        _mm_add_ps(_mm_mul_ps(l.z, r[2]), _mm_mul_ps(l.w, r[3])),
    )
}

/// `unit(lerp(l, r, 1 - ot, ca > 0 ? ot : -ot))` for four lanes, transposed
/// back to AoS and stored to `dest[0..4]`.
///
/// # Safety
///
/// `dest` must be 16-byte aligned and valid for writing four quaternions.
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn finish(dest: *mut Quat, l: &L4, r: &[__m128; 4], ca: __m128, ot: __m128) {
    // lt = 1 - ot
    let lt = _mm_sub_ps(_mm_set1_ps(1.0), ot);
    // rt = ca > 0 ? ot : -ot (the article's sign-bit form: see asm_notes/nlerp.md, E2)
    let rt = _mm_xor_ps(ot, _mm_and_ps(sign_mask(), ca));
    // u = lerp(l, r, lt, rt)
    let ux = _mm_add_ps(_mm_mul_ps(l.x, lt), _mm_mul_ps(r[0], rt));
    let uy = _mm_add_ps(_mm_mul_ps(l.y, lt), _mm_mul_ps(r[1], rt));
    let uz = _mm_add_ps(_mm_mul_ps(l.z, lt), _mm_mul_ps(r[2], rt));
    let uw = _mm_add_ps(_mm_mul_ps(l.w, lt), _mm_mul_ps(r[3], rt));
    // un = dot(u, u)
    let un = _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(ux, ux), _mm_mul_ps(uy, uy)),
        _mm_add_ps(_mm_mul_ps(uz, uz), _mm_mul_ps(uw, uw)),
    );
    // us1 = rsqrt(un) with one Newton-Raphson step, as printed
    let us0 = _mm_rsqrt_ps(un);
    let us1 = _mm_mul_ps(
        _mm_mul_ps(_mm_set1_ps(0.5), us0),
        _mm_sub_ps(_mm_set1_ps(3.0), _mm_mul_ps(_mm_mul_ps(us0, us0), un)),
    );
    // unit(u) = u * us1, back to AoS
    let mut qx = _mm_mul_ps(ux, us1);
    let mut qy = _mm_mul_ps(uy, us1);
    let mut qz = _mm_mul_ps(uz, us1);
    let mut qw = _mm_mul_ps(uw, us1);
    let mut tmp = qx;
    transpose_4x4(&mut qx, &mut qy, &mut qz, &mut qw, &mut tmp);
    // SAFETY: the caller guarantees four aligned, writable quaternions.
    unsafe {
        _mm_store_ps(dest.cast::<f32>(), qx);
        _mm_store_ps(dest.add(1).cast::<f32>(), qy);
        _mm_store_ps(dest.add(2).cast::<f32>(), qz);
        _mm_store_ps(dest.add(3).cast::<f32>(), qw);
    }
}

/// One block of `nlerp4`: `ot = t`.
///
/// # Safety
///
/// `r` and `dest` 16-byte aligned and valid for four quaternions (reads,
/// writes), `t` valid for reading four floats; `dest` may equal `r`.
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn nlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let ot = _mm_loadu_ps(t);
        let ca = dot(l, &r);
        finish(dest, l, &r, ca, ot);
    }
}

/// One block of `fnlerp4`: `k = K0 + d (K1 + d K2)`, `ot = t + t (t - 0.5)
/// (t - 1) k`.
///
/// # Safety
///
/// As [`nlerp4_block`].
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn fnlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    let [k0, k1, k2] = NLERP_FNLERP_K.map(|c| _mm_set1_ps(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let tt = _mm_loadu_ps(t);
        let ca = dot(l, &r);
        // d = fabsf(ca)
        let d = _mm_andnot_ps(sign_mask(), ca);
        // k = K0 + d * (K1 + d * K2)
        let k = _mm_add_ps(k0, _mm_mul_ps(d, _mm_add_ps(k1, _mm_mul_ps(d, k2))));
        // ot = t + t * (t - 0.5) * (t - 1) * k
        let th = _mm_sub_ps(tt, _mm_set1_ps(0.5));
        let t1 = _mm_sub_ps(tt, _mm_set1_ps(1.0));
        let ot = _mm_add_ps(tt, _mm_mul_ps(_mm_mul_ps(_mm_mul_ps(tt, th), t1), k));
        finish(dest, l, &r, ca, ot);
    }
}

/// One block of `onlerp4`: `A(d)`, `B(d)`, `k = A (t - 0.5)^2 + B`, `ot = t +
/// t (t - 0.5) (t - 1) k`, in the scalar code's order.
///
/// # Safety
///
/// As [`nlerp4_block`].
#[inline]
#[target_feature(enable = "sse2")]
unsafe fn onlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    let [a0, a1, a2, a3] = NLERP_ONLERP_A.map(|c| _mm_set1_ps(c));
    let [b0, b1, b2] = NLERP_ONLERP_B.map(|c| _mm_set1_ps(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load_soa(r);
        let tt = _mm_loadu_ps(t);
        let ca = dot(l, &r);
        // d = fabsf(ca)
        let d = _mm_andnot_ps(sign_mask(), ca);
        // A = 1.0904 + d * (-3.2452 + d * (3.55645 - d * 1.43519))
        let a = _mm_add_ps(a0, _mm_mul_ps(d, _mm_add_ps(a1, _mm_mul_ps(d, _mm_sub_ps(a2, _mm_mul_ps(d, a3))))));
        // B = 0.848013 + d * (-1.06021 + d * 0.215638)
        let b = _mm_add_ps(b0, _mm_mul_ps(d, _mm_add_ps(b1, _mm_mul_ps(d, b2))));
        // k = A * (t - 0.5) * (t - 0.5) + B
        let th = _mm_sub_ps(tt, _mm_set1_ps(0.5));
        let k = _mm_add_ps(_mm_mul_ps(_mm_mul_ps(a, th), th), b);
        // ot = t + t * (t - 0.5) * (t - 1) * k
        let t1 = _mm_sub_ps(tt, _mm_set1_ps(1.0));
        let ot = _mm_add_ps(tt, _mm_mul_ps(_mm_mul_ps(_mm_mul_ps(tt, th), t1), k));
        finish(dest, l, &r, ca, ot);
    }
}

/// The loop over blocks of four, with the padded last block (module docs).
macro_rules! stream4 {
    ($block:ident, $dest:ident, $l:ident, $r:ident, $t:ident, $size:ident) => {{
        let l4 = splat($l);
        let full = $size - $size % 4;
        let mut i = 0;
        while i < full {
            // SAFETY: `i + 4 <= size`: four elements of each stream, in the
            // ranges the caller guarantees; `Quat` is 16-byte aligned.
            unsafe { $block($dest.add(i), &l4, $r.add(i), $t.add(i)) };
            i += 4;
        }
        if i < $size {
            let n = $size - i;
            // SAFETY: `size - 1` is in range; the tail `i..size` is read
            // into the local block before any of `dest`'s tail is written,
            // so `dest == r` works; the local arrays are disjoint from the
            // caller's memory and 16-byte aligned (`Quat`).
            unsafe {
                let mut rp = [*$r.add($size - 1); 4];
                let mut tp = [*$t.add($size - 1); 4];
                core::ptr::copy_nonoverlapping($r.add(i), rp.as_mut_ptr(), n);
                core::ptr::copy_nonoverlapping($t.add(i), tp.as_mut_ptr(), n);
                let mut out = [Quat::default(); 4];
                $block(out.as_mut_ptr(), &l4, rp.as_ptr(), tp.as_ptr());
                core::ptr::copy_nonoverlapping(out.as_ptr(), $dest.add(i), n);
            }
        }
    }};
}

macro_rules! kernel4 {
    ($(#[$doc:meta])* $name:ident => $block:ident) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// `r` must be valid for reading and `dest` for writing `size`
        /// quaternions, `t` valid for reading `size` floats; `dest` may be
        /// `r` itself but must not otherwise overlap `r` or `t`. (The
        /// alignment the aligned loads and stores need is `Quat`'s own.)
        #[inline(never)]
        #[target_feature(enable = "sse2")]
        pub unsafe fn $name(dest: *mut Quat, l: &Quat, r: *const Quat, t: *const f32, size: usize) {
            stream4!($block, dest, l, r, t, size)
        }
    };
}

kernel4! {
    /// `nlerp4`: `dest[i] = nlerp(l, r[i], t[i])` for `i < size`, four at a
    /// time with SSE2.
    nlerp4 => nlerp4_block
}
kernel4! {
    /// `fnlerp4`: `dest[i] = fnlerp(l, r[i], t[i])` for `i < size`, four at a
    /// time with SSE2.
    fnlerp4 => fnlerp4_block
}
kernel4! {
    /// `onlerp4`: `dest[i] = onlerp(l, r[i], t[i])` for `i < size`, four at a
    /// time with SSE2.
    onlerp4 => onlerp4_block
}
