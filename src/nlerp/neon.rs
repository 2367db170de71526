//! `nlerp4`, `fnlerp4` and `onlerp4` for NEON (`Impl::Neon`, `aarch64`):
//! the article's SIMD recipe, four quaternion pairs per block, with the
//! scalar functions' roundings, so every element is **bit for bit the
//! scalar port's** ([`super::scalar::nlerp`], [`super::scalar::fnlerp`],
//! [`super::scalar::onlerp`]) on every input whose result is not a NaN
//! (NaN results are NaN in both), and therefore the same on every CPU.
//!
//! **The recipe** (*Optimizing slerp*, as `super::sse2` ports it for x86):
//! one register per scalar variable, four elements per register. `vld4q_f32`
//! loads four quaternions of `r` and de-interleaves them to SoA in one
//! instruction (NEON's structure load does `_MM_TRANSPOSE4_PS`'s work);
//! `l` is broadcast once per call; then the scalar code, operation for
//! operation; `vst4q_f32` interleaves the four results back. Counts that
//! are not a multiple of four take the article's option 2 as the x86 forms
//! do: the last `size % 4` elements go through a local block padded with
//! copies of the last element, so every element goes through the same
//! operations whatever its position or the count, and `dest[i]` depends
//! only on `l`, `r[i]` and `t[i]`.
//!
//! **Where it departs from zeux's x86 forms, and why.** The article
//! normalises with `rsqrtps` and one Newton-Raphson step. NEON's estimate
//! `frsqrte` (`vrsqrteq_f32`) has 8 bits, not `rsqrtps`'s 12 (and 12 only
//! on cores with `FEAT_RPRES` when `FPCR.AH` is set, so not even one answer
//! across ARM cores): one step leaves relative errors of order 1e-5, tens of
//! times the x86 forms' 5e-7 bound, and two steps give bits that match
//! neither the x86 forms (whose `rsqrtps` differs between Intel and AMD)
//! nor the scalar port. These kernels use the
//! correctly rounded `1 / sqrt(un)` instead (`fsqrt` + `fdiv`, as the scalar
//! `unit` does), and take the rest of the scalar order too, so that the
//! result is defined by IEEE arithmetic alone:
//!
//! | step | zeux's SSE2 / AVX2 (`super::sse2`, `super::avx2`) | NEON (here) = the scalar port |
//! |---|---|---|
//! | `ca`, `un` | `(xx + yy) + (zz + ww)` | `((xx + yy) + zz) + ww`, as C sums `a + b + c + d` |
//! | `rt = ca > 0 ? ot : -ot` | sign-bit XOR (`+ot` at `ca = +0.0`: erratum E2) | `fcmgt` + `bsl`: the comparison as written (`-ot` at `ca = +0.0`) |
//! | `unit(u)` | `rsqrtps` + one Newton-Raphson step (per-vendor bits) | `u * (1 / sqrt(un))`, correctly rounded `fsqrt` and `fdiv` |
//! | FMA (`Impl::Avx2`) | fused pairs | none: the scalar port rounds every product |
//!
//! So the NEON forms do **not** agree bit for bit with zeux's SSE2/AVX2
//! forms (they differ by the x86 forms' few-ulp `rsqrt` error, at most 5e-7
//! per component on unit inputs, and take the other arc at `ca = +0.0`,
//! E2), and they **do** agree bit for bit with the scalar port, and with
//! `super::scalar::autovec_*`, on every CPU: what `Impl::Scalar` gives on
//! any machine, `Impl::Neon` gives on `aarch64`, four times wider
//! (`tests/nlerp.rs`, under qemu). The price is `fsqrt` and `fdiv` instead
//! of the cheap estimate; `asm_notes/nlerp.md` ("NEON") has the reasoning.
//!
//! Every operation is an IEEE single-precision one that NEON rounds as the
//! scalar FPU does (`FPCR` is shared; Linux leaves flush-to-zero off), and
//! no multiply-add is fused (Rust never contracts `a * b + c`).

use crate::consts::{NLERP_FNLERP_K, NLERP_ONLERP_A, NLERP_ONLERP_B};
use crate::types::Quat;
use core::arch::aarch64::*;

/// `lX, lY, lZ, lW`: the fixed quaternion `l` broadcast to every lane.
#[derive(Clone, Copy)]
struct L4 {
    x: float32x4_t,
    y: float32x4_t,
    z: float32x4_t,
    w: float32x4_t,
}

#[inline]
#[target_feature(enable = "neon")]
fn splat(l: &Quat) -> L4 {
    L4 { x: vdupq_n_f32(l.x), y: vdupq_n_f32(l.y), z: vdupq_n_f32(l.z), w: vdupq_n_f32(l.w) }
}

/// `((a.x b.x + a.y b.y) + a.z b.z) + a.w b.w` lane by lane: the scalar
/// `dot`'s left-to-right sum.
#[inline]
#[target_feature(enable = "neon")]
fn dot(ax: float32x4_t, ay: float32x4_t, az: float32x4_t, aw: float32x4_t, b: &float32x4x4_t) -> float32x4_t {
    let s = vaddq_f32(vmulq_f32(ax, b.0), vmulq_f32(ay, b.1));
    vaddq_f32(vaddq_f32(s, vmulq_f32(az, b.2)), vmulq_f32(aw, b.3))
}

/// `unit(lerp(l, r, 1 - ot, ca > 0 ? ot : -ot))` for four lanes, the scalar
/// port's operations, interleaved back and stored to `dest[0..4]`.
///
/// # Safety
///
/// `dest` must be valid for writing four quaternions.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn finish(dest: *mut Quat, l: &L4, r: &float32x4x4_t, ca: float32x4_t, ot: float32x4_t) {
    let one = vdupq_n_f32(1.0);
    // lt = 1 - ot
    let lt = vsubq_f32(one, ot);
    // rt = ca > 0 ? ot : -ot, the comparison as the scalar code writes it
    let rt = vbslq_f32(vcgtq_f32(ca, vdupq_n_f32(0.0)), ot, vnegq_f32(ot));
    // u = lerp(l, r, lt, rt) = l lt + r rt
    let u = float32x4x4_t(
        vaddq_f32(vmulq_f32(l.x, lt), vmulq_f32(r.0, rt)),
        vaddq_f32(vmulq_f32(l.y, lt), vmulq_f32(r.1, rt)),
        vaddq_f32(vmulq_f32(l.z, lt), vmulq_f32(r.2, rt)),
        vaddq_f32(vmulq_f32(l.w, lt), vmulq_f32(r.3, rt)),
    );
    // unit(u) = u * (1 / sqrt(dot(u, u))), correctly rounded
    let rs = vdivq_f32(one, vsqrtq_f32(dot(u.0, u.1, u.2, u.3, &u)));
    let q = float32x4x4_t(vmulq_f32(u.0, rs), vmulq_f32(u.1, rs), vmulq_f32(u.2, rs), vmulq_f32(u.3, rs));
    // SAFETY: the caller guarantees four writable quaternions (`vst4q_f32`
    // needs no alignment beyond the floats').
    unsafe { vst4q_f32(dest.cast::<f32>(), q) };
}

/// One block of `nlerp4`: `ot = t`.
///
/// # Safety
///
/// `r` valid for reading and `dest` for writing four quaternions, `t` for
/// reading four floats; `dest` may equal `r`.
#[inline]
#[target_feature(enable = "neon")]
unsafe fn nlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    // SAFETY: the caller's contract covers the loads and the stores; all
    // loads come before the store.
    unsafe {
        let r = vld4q_f32(r.cast::<f32>());
        let ot = vld1q_f32(t);
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
#[inline]
#[target_feature(enable = "neon")]
unsafe fn fnlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    let [k0, k1, k2] = NLERP_FNLERP_K.map(|c| vdupq_n_f32(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = vld4q_f32(r.cast::<f32>());
        let tt = vld1q_f32(t);
        let ca = dot(l.x, l.y, l.z, l.w, &r);
        let d = vabsq_f32(ca);
        let k = vaddq_f32(k0, vmulq_f32(d, vaddq_f32(k1, vmulq_f32(d, k2))));
        let th = vsubq_f32(tt, vdupq_n_f32(0.5));
        let t1 = vsubq_f32(tt, vdupq_n_f32(1.0));
        let ot = vaddq_f32(tt, vmulq_f32(vmulq_f32(vmulq_f32(tt, th), t1), k));
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
#[inline]
#[target_feature(enable = "neon")]
unsafe fn onlerp4_block(dest: *mut Quat, l: &L4, r: *const Quat, t: *const f32) {
    let [a0, a1, a2, a3] = NLERP_ONLERP_A.map(|c| vdupq_n_f32(c));
    let [b0, b1, b2] = NLERP_ONLERP_B.map(|c| vdupq_n_f32(c));
    // SAFETY: the caller's contract covers the loads and the stores.
    unsafe {
        let r = vld4q_f32(r.cast::<f32>());
        let tt = vld1q_f32(t);
        let ca = dot(l.x, l.y, l.z, l.w, &r);
        let d = vabsq_f32(ca);
        let a = vaddq_f32(a0, vmulq_f32(d, vaddq_f32(a1, vmulq_f32(d, vsubq_f32(a2, vmulq_f32(d, a3))))));
        let b = vaddq_f32(b0, vmulq_f32(d, vaddq_f32(b1, vmulq_f32(d, b2))));
        let th = vsubq_f32(tt, vdupq_n_f32(0.5));
        let k = vaddq_f32(vmulq_f32(vmulq_f32(a, th), th), b);
        let t1 = vsubq_f32(tt, vdupq_n_f32(1.0));
        let ot = vaddq_f32(tt, vmulq_f32(vmulq_f32(vmulq_f32(tt, th), t1), k));
        finish(dest, l, &r, ca, ot);
    }
}

super::kernels4!("NEON", #[target_feature(enable = "neon")]);
