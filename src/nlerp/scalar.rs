//! The scalar functions of *Optimizing slerp* (and `fnlerp` of *Approximating
//! slerp*), ported line by line, and the article's `run` loop over each.
//!
//! The article prints `onlerp` in full; `nlerp`, `fnlerp`, `slerp` and the
//! helpers `dot`, `lerp` and `unit` are not printed there and are written
//! from the text:
//! - `dot(l, r)` sums left to right, as C evaluates `a + b + c + d` (the
//!   article contrasts this with the `(a + b) + (c + d)` grouping of its SIMD
//!   dot product);
//! - `lerp(l, r, lt, rt)` is `l * lt + r * rt` per component: `onlerp` calls it
//!   as `lerp(l, r, 1 - ot, ca > 0 ? ot : -ot)`;
//! - `unit(q)` multiplies by `1 / sqrt(dot(q, q))`: the article's
//!   normalisation section describes the SIMD form as "multiply q by" the
//!   inverse square root "instead of using a slower division";
//! - `nlerp` is `onlerp` with `ot = t` ("the baseline normalized linear
//!   interpolation"), `fnlerp` takes `k` from *Approximating slerp*, with `onlerp`'s double cover and normalisation;
//! - `slerp` (not printed in either article) is the textbook formula with the
//!   article's double-cover test `ca > 0` and a linear fallback when the
//!   quaternions are within `1 - |ca| <= 1e-6`, where `sin(a)` vanishes.
//!
//! All arithmetic is single precision; Rust never contracts `a * b + c` into
//! an FMA, so every operation rounds as in the article's scalar build.

use crate::math::{acos, fabs, sin, sqrt};
use crate::types::Quat;

/// `dot(l, r)`: `l.x * r.x + l.y * r.y + l.z * r.z + l.w * r.w`, left to right.
#[inline]
pub fn dot(l: &Quat, r: &Quat) -> f32 {
    l.x * r.x + l.y * r.y + l.z * r.z + l.w * r.w
}

/// `lerp(l, r, lt, rt)`: `l * lt + r * rt` per component.
#[inline]
pub fn lerp(l: &Quat, r: &Quat, lt: f32, rt: f32) -> Quat {
    Quat { x: l.x * lt + r.x * rt, y: l.y * lt + r.y * rt, z: l.z * lt + r.z * rt, w: l.w * lt + r.w * rt }
}

/// `unit(q)`: `q * (1 / sqrt(dot(q, q)))`. A zero `q` gives NaN components.
#[inline]
pub fn unit(q: &Quat) -> Quat {
    let rs = 1.0f32 / sqrt(dot(q, q));
    Quat { x: q.x * rs, y: q.y * rs, z: q.z * rs, w: q.w * rs }
}

/// `nlerp(l, r, t)`: normalised linear interpolation along the shorter arc,
/// `unit(lerp(l, r, 1 - t, ca > 0 ? t : -t))`.
#[inline]
pub fn nlerp(l: Quat, r: Quat, t: f32) -> Quat {
    let ca = dot(&l, &r);

    unit(&lerp(&l, &r, 1.0f32 - t, if ca > 0.0f32 { t } else { -t }))
}

/// `fnlerp(l, r, t)`: `nlerp` with `t` corrected by the simpler fit of
/// *Approximating slerp*, `k = 0.931872 + d * (-1.25654 + d * 0.331442)`,
/// `ot = t + t * (t - 0.5) * (t - 1) * k`.
#[inline]
#[allow(clippy::excessive_precision)]
pub fn fnlerp(l: Quat, r: Quat, t: f32) -> Quat {
    let ca = dot(&l, &r);

    let d = fabs(ca);
    let k = 0.931872f32 + d * (-1.25654f32 + d * 0.331442f32);
    let ot = t + t * (t - 0.5f32) * (t - 1.0f32) * k;

    unit(&lerp(&l, &r, 1.0f32 - ot, if ca > 0.0f32 { ot } else { -ot }))
}

/// `onlerp(l, r, t)` as printed in *Optimizing slerp*: `nlerp` with `t`
/// corrected by the more exact fit, `A(d) (t - 0.5)^2 + B(d)`.
#[inline]
#[allow(clippy::excessive_precision)]
pub fn onlerp(l: Quat, r: Quat, t: f32) -> Quat {
    let ca = dot(&l, &r);

    let d = fabs(ca);
    let a = 1.0904f32 + d * (-3.2452f32 + d * (3.55645f32 - d * 1.43519f32));
    let b = 0.848013f32 + d * (-1.06021f32 + d * 0.215638f32);
    let k = a * (t - 0.5f32) * (t - 0.5f32) + b;
    let ot = t + t * (t - 0.5f32) * (t - 1.0f32) * k;

    unit(&lerp(&l, &r, 1.0f32 - ot, if ca > 0.0f32 { ot } else { -ot }))
}

/// `slerp(l, r, t)`: the reference the approximations are fitted to (not
/// printed in the article): `a = acos(|ca|)`, `lt = sin((1 - t) a) / sin(a)`,
/// `rt = sin(t a) / sin(a)`, `rt` negated unless `ca > 0` (the article's
/// double-cover test), and `lt = 1 - t`, `rt = t` when `1 - |ca| <= 1e-6`
/// (`sin(a)` vanishes there). Not normalised: for unit inputs the result is
/// unit up to rounding.
#[inline]
pub fn slerp(l: Quat, r: Quat, t: f32) -> Quat {
    let ca = dot(&l, &r);

    let d = fabs(ca);
    let (lt, rt);
    if 1.0f32 - d > 1e-6f32 {
        let a = acos(d);
        let sa = sin(a);
        lt = sin((1.0f32 - t) * a) / sa;
        rt = sin(t * a) / sa;
    } else {
        lt = 1.0f32 - t;
        rt = t;
    }

    lerp(&l, &r, lt, if ca > 0.0f32 { rt } else { -rt })
}

/// The article's `run( dest, l, r, t, size, f )`:
/// `for (i = 0; i < size; ++i) dest[i] = f(l, r[i], t[i]);`
///
/// With `SCALAR` the loop stays scalar: on `x86_64` an empty `asm!`
/// statement per iteration (no instruction, no operand) keeps LLVM's loop
/// vectorizer away, which otherwise turns the loop into 4-wide SSE code
/// (`sqrtps`, `divps`) and would make the article's scalar rows measure the
/// compiler's vectorization instead.
///
/// # Safety
///
/// `r` and `t` must be valid for reading `size` elements and `dest` for
/// writing `size` elements; `dest` may be `r` itself (each element is read
/// before it is written) but must not otherwise overlap `r` or `t`.
#[inline(always)]
unsafe fn run<const SCALAR: bool>(
    dest: *mut Quat,
    l: &Quat,
    r: *const Quat,
    t: *const f32,
    size: usize,
    f: fn(Quat, Quat, f32) -> Quat,
) {
    let l = *l;
    for i in 0..size {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        if SCALAR {
            // SAFETY: an empty template: no instruction, reads and writes
            // nothing; it only is opaque to the optimiser.
            unsafe { core::arch::asm!("", options(nomem, nostack, preserves_flags)) };
        }
        // SAFETY: `i < size`, within the ranges the caller guarantees.
        unsafe { *dest.add(i) = f(l, *r.add(i), *t.add(i)) };
    }
}

macro_rules! run_kernel {
    ($(#[$doc:meta])* $name:ident => $f:ident, $scalar:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        ///
        /// `r` and `t` must be valid for reading `size` elements and `dest`
        /// for writing `size` elements (no alignment beyond the types' own);
        /// `dest` may be `r` itself (each element is read before it is
        /// written) but must not otherwise overlap `r` or `t`.
        #[inline(never)]
        pub unsafe fn $name(dest: *mut Quat, l: &Quat, r: *const Quat, t: *const f32, size: usize) {
            // SAFETY: the caller upholds `run`'s contract, which is this one.
            unsafe { run::<$scalar>(dest, l, r, t, size, $f) }
        }
    };
}

run_kernel! {
    /// `run(dest, l, r, t, size, nlerp)`, kept scalar: the article's "nlerp" row.
    run_nlerp => nlerp, true
}
run_kernel! {
    /// `run(dest, l, r, t, size, fnlerp)`, kept scalar: the article's "fnlerp" row.
    run_fnlerp => fnlerp, true
}
run_kernel! {
    /// `run(dest, l, r, t, size, onlerp)`, kept scalar: the article's "onlerp" row.
    run_onlerp => onlerp, true
}
run_kernel! {
    /// `run(dest, l, r, t, size, slerp)`, kept scalar: the reference the
    /// article leaves out of its table ("about 3x slower than onlerp").
    run_slerp => slerp, true
}
run_kernel! {
    /// `run(dest, l, r, t, size, nlerp)` left to the compiler: on `x86_64`
    /// LLVM vectorizes it four wide (SSE2, `sqrtps` + `divps`). A peer for
    /// the benchmarks, not one of the article's rows; its results are
    /// [`run_nlerp`]'s bit for bit (`tests/nlerp.rs`).
    autovec_nlerp => nlerp, false
}
run_kernel! {
    /// `run(dest, l, r, t, size, fnlerp)` left to the compiler (see
    /// [`autovec_nlerp`]).
    autovec_fnlerp => fnlerp, false
}
run_kernel! {
    /// `run(dest, l, r, t, size, onlerp)` left to the compiler (see
    /// [`autovec_nlerp`]).
    autovec_onlerp => onlerp, false
}
