//! `nlerp4`, `fnlerp4` and `onlerp4` for wasm SIMD128 (`Impl::Simd128`,
//! `wasm32` built with `-C target-feature=+simd128`): the NEON forms'
//! recipe (`super::neon`) on wasm's four lanes, so every element is **bit
//! for bit the scalar port's** ([`super::scalar::nlerp`],
//! [`super::scalar::fnlerp`], [`super::scalar::onlerp`]) on every input
//! whose result is not a NaN, as on `aarch64`.
//!
//! **The recipe**: four quaternions of `r` loaded as they lie and turned
//! into one register per component (a 4x4 transpose, the `vld4q_f32` of
//! the NEON form), `l` broadcast once per call, then the scalar functions'
//! operations, one for one: the dot product summed left to right, `rt =
//! ca > 0 ? ot : -ot` as the comparison is written, `lerp` without a fused
//! multiply-add (wasm has none, and the scalar port rounds every product),
//! and `unit` with the correctly rounded `1 / sqrt` (`f32x4_sqrt`,
//! `f32x4_div`); the transpose back and four stores. The last `size % 4`
//! elements go through a local block padded with copies of the last
//! element (`crate::blocks::stream_by_4`, shared with the NEON forms).
//!
//! **What changed from the NEON form, and why.** Only the instructions:
//! wasm has no structure load or store, so the de-interleave is eight
//! shuffles each way (`i32x4_shuffle`, which V8 lowers to `unpcklps` /
//! `movlhps`-style moves), and the select is `v128_bitselect`. The
//! arithmetic is the same IEEE operations in the same order, so the bits
//! are those of the scalar port and of the NEON forms (`tests/nlerp.rs`),
//! not those of zeux's SSE2/AVX2 forms (`asm_notes/nlerp.md`, "NEON").

use crate::consts::{NLERP_FNLERP_K, NLERP_ONLERP_A, NLERP_ONLERP_B};
use crate::types::Quat;
use crate::wasm32::blocks4::transpose4;
use core::arch::wasm32::*;

/// `lX, lY, lZ, lW`: the fixed quaternion `l` broadcast to every lane.
#[derive(Clone, Copy)]
struct L4 {
    x: v128,
    y: v128,
    z: v128,
    w: v128,
}

#[inline(always)]
fn splat(l: &Quat) -> L4 {
    L4 { x: f32x4_splat(l.x), y: f32x4_splat(l.y), z: f32x4_splat(l.z), w: f32x4_splat(l.w) }
}

/// Four quaternions from `r[0..4]`, as `[x, y, z, w]` registers.
///
/// # Safety
///
/// `r` is valid for reading four quaternions.
#[inline(always)]
unsafe fn load4(r: *const Quat) -> [v128; 4] {
    let p = r.cast::<v128>();
    // SAFETY: four 16-byte quaternions are readable (caller's contract);
    // `v128_load` needs no alignment.
    unsafe { transpose4(v128_load(p), v128_load(p.add(1)), v128_load(p.add(2)), v128_load(p.add(3))) }
}

/// `((a.x b.x + a.y b.y) + a.z b.z) + a.w b.w` lane by lane: the scalar
/// `dot`'s left-to-right sum.
#[inline(always)]
fn dot(ax: v128, ay: v128, az: v128, aw: v128, b: &[v128; 4]) -> v128 {
    let s = f32x4_add(f32x4_mul(ax, b[0]), f32x4_mul(ay, b[1]));
    f32x4_add(f32x4_add(s, f32x4_mul(az, b[2])), f32x4_mul(aw, b[3]))
}

/// `unit(lerp(l, r, 1 - ot, ca > 0 ? ot : -ot))` for four lanes, the scalar
/// port's operations, interleaved back and stored to `dest[0..4]`.
///
/// # Safety
///
/// `dest` must be valid for writing four quaternions.
#[inline(always)]
unsafe fn finish(dest: *mut Quat, l: &L4, r: &[v128; 4], ca: v128, ot: v128) {
    let one = f32x4_splat(1.0);
    // lt = 1 - ot
    let lt = f32x4_sub(one, ot);
    // rt = ca > 0 ? ot : -ot, the comparison as the scalar code writes it
    let rt = v128_bitselect(ot, f32x4_neg(ot), f32x4_gt(ca, f32x4_splat(0.0)));
    // u = lerp(l, r, lt, rt) = l lt + r rt
    let u = [
        f32x4_add(f32x4_mul(l.x, lt), f32x4_mul(r[0], rt)),
        f32x4_add(f32x4_mul(l.y, lt), f32x4_mul(r[1], rt)),
        f32x4_add(f32x4_mul(l.z, lt), f32x4_mul(r[2], rt)),
        f32x4_add(f32x4_mul(l.w, lt), f32x4_mul(r[3], rt)),
    ];
    // unit(u) = u * (1 / sqrt(dot(u, u))), correctly rounded
    let rs = f32x4_div(one, f32x4_sqrt(dot(u[0], u[1], u[2], u[3], &u)));
    let q = transpose4(f32x4_mul(u[0], rs), f32x4_mul(u[1], rs), f32x4_mul(u[2], rs), f32x4_mul(u[3], rs));
    let p = dest.cast::<v128>();
    // SAFETY: four writable quaternions (caller's contract); `v128_store`
    // needs no alignment.
    unsafe {
        for (k, v) in q.into_iter().enumerate() {
            v128_store(p.add(k), v);
        }
    }
}

/// One block of `nlerp4`: `ot = t`.
///
/// # Safety
///
/// `r` valid for reading and `dest` for writing four quaternions, `t` for
/// reading four floats; `dest` may equal `r`.
#[inline(always)]
unsafe fn nlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    // SAFETY: the caller's contract covers the loads and the stores; all
    // loads come before the store.
    unsafe {
        let r = load4(r);
        let ot = v128_load(t.cast());
        let ca = dot(l.x, l.y, l.z, l.w, &r);
        finish(dest, l, &r, ca, ot);
    }
}

/// One block of `fnlerp4`: `d = |ca|`, `k = K0 + d (K1 + d K2)`, `ot = t +
/// ((t (t - 0.5)) (t - 1)) k`, in the scalar code's order.
///
/// # Safety
///
/// As [`nlerp4_block`].
#[inline(always)]
unsafe fn fnlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    let [k0, k1, k2] = NLERP_FNLERP_K.map(|c| f32x4_splat(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load4(r);
        let tt = v128_load(t.cast());
        let ca = dot(l.x, l.y, l.z, l.w, &r);
        let d = f32x4_abs(ca);
        let k = f32x4_add(k0, f32x4_mul(d, f32x4_add(k1, f32x4_mul(d, k2))));
        let th = f32x4_sub(tt, f32x4_splat(0.5));
        let t1 = f32x4_sub(tt, f32x4_splat(1.0));
        let ot = f32x4_add(tt, f32x4_mul(f32x4_mul(f32x4_mul(tt, th), t1), k));
        finish(dest, l, &r, ca, ot);
    }
}

/// One block of `onlerp4`: `A = A0 + d (A1 + d (A2 - d A3))`,
/// `B = B0 + d (B1 + d B2)`, `k = (A (t - 0.5)) (t - 0.5) + B`,
/// `ot = t + ((t (t - 0.5)) (t - 1)) k`, in the scalar code's order.
///
/// # Safety
///
/// As [`nlerp4_block`].
#[inline(always)]
unsafe fn onlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    let [a0, a1, a2, a3] = NLERP_ONLERP_A.map(|c| f32x4_splat(c));
    let [b0, b1, b2] = NLERP_ONLERP_B.map(|c| f32x4_splat(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = load4(r);
        let tt = v128_load(t.cast());
        let ca = dot(l.x, l.y, l.z, l.w, &r);
        let d = f32x4_abs(ca);
        let a = f32x4_add(a0, f32x4_mul(d, f32x4_add(a1, f32x4_mul(d, f32x4_sub(a2, f32x4_mul(d, a3))))));
        let b = f32x4_add(b0, f32x4_mul(d, f32x4_add(b1, f32x4_mul(d, b2))));
        let th = f32x4_sub(tt, f32x4_splat(0.5));
        let k = f32x4_add(f32x4_mul(f32x4_mul(a, th), th), b);
        let t1 = f32x4_sub(tt, f32x4_splat(1.0));
        let ot = f32x4_add(tt, f32x4_mul(f32x4_mul(f32x4_mul(tt, th), t1), k));
        finish(dest, l, &r, ca, ot);
    }
}

super::kernels4!("wasm SIMD128");
