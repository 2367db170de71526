//! The portable successor of Appendix A (`Impl::Portable`): `SlerpJoints` in
//! plain Rust, one joint at a time, with exactly the per-lane operations of
//! the AVX2 + FMA successor (`crate::slerp_joints::avx2`), so that the two
//! (and the NEON successor) give the same bits on every CPU.
//!
//! Copyright (C) 2005 Id Software, Inc., written by J.M.P. van Waveren (the
//! algorithm, `SlerpOptimized`, and its coefficients). Port licensed under
//! the GNU LGPL 2.1 or later.
//!
//! **The one order of operations** (`slerp_joint`; `fma(a, b, c)` is
//! `a · b + c` rounded once, `crate::portable::mul_add`; every other
//! step is one IEEE operation, rounded):
//!
//! 1. `cosom = (qx·bx + qy·by) + (qz·bz + qw·bw)`, the products rounded;
//! 2. `flip` = the sign bit where `cosom < 0` (not for `-0.0` or NaN);
//!    `|cos|` = `cosom` with its sign bit cleared;
//! 3. `sinSqr = 1 - cosom·cosom` rounded once
//!    (`crate::portable::MulAdd::neg_mul_add`); `+0`/`-0` becomes `1e-10`
//!    (`SIMD_SP_tiny`), anything else its absolute value (the listing's
//!    patch, no linear fallback);
//! 4. `sin = sqrt(sinSqr)`, `sinom = 1 / sin`;
//! 5. `min = |cos| < sin ? |cos| : sin`, `max = sin > |cos| ? sin : |cos|`
//!    (x86's `minps(|cos|, sin)` and `maxps(sin, |cos|)`), `yGeX = (|cos| ==
//!    min)`; `a = min / max`, negated where `yGeX`; `offset = yGeX ? π/2 : 0`;
//! 6. `s = a·a`, `s2 = s·s`, `s4 = s2·s2`; `omega = fma(fma(fma(fma(fma(c0,
//!    s, c1), s2, fma(c2, s, c3)), s4, fma(fma(c4, s, c5), s2, fma(c6, s,
//!    c7))), s, 1), a, offset)` (`ATanPositive`'s coefficients, Estrin's
//!    scheme);
//! 7. `omega1 = lerp·omega`, `omega0 = omega - omega1`;
//! 8. for `w` in `omega0`, `omega1`: `x = w·w`, `x2 = x·x`,
//!    `scale = ((w · fma(fma(fma(fma(s0, x, s1), x2, fma(s2, x, s3)), x, s4),
//!    x, 1)) · sinom` (`SinZeroHalfPI`'s coefficients);
//! 9. `scale1` gets the sign bit `flip` (xor);
//! 10. each rotation component `fma(q, scale0, b · scale1)`; each
//!     translation component `fma(lerp, tb - tj, tj)`.
//!
//! As every successor: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
//! included) copies the indexed blend joints; the entries of `index` are
//! applied in list order (a joint named twice is interpolated twice, the
//! second time from the first's result).

use crate::consts::{
    SIMD_SP_ATAN_C0, SIMD_SP_ATAN_C1, SIMD_SP_ATAN_C2, SIMD_SP_ATAN_C3, SIMD_SP_ATAN_C4, SIMD_SP_ATAN_C5,
    SIMD_SP_ATAN_C6, SIMD_SP_ATAN_C7, SIMD_SP_HALF_PI, SIMD_SP_POLY_FLOOR, SIMD_SP_SIGN_BIT, SIMD_SP_SIN_C0,
    SIMD_SP_SIN_C1, SIMD_SP_SIN_C2, SIMD_SP_SIN_C3, SIMD_SP_SIN_C4, SIMD_SP_TINY,
};
use crate::portable::{MulAdd, fma_versions, sqrt};
use crate::types::{JointQuat, Quat, Vec4};

fma_versions! {
    /// The portable successor of `SlerpJoints`: for every `j` in
    /// `index[0..num_joints]`, in order, slerps `joints[j].q` towards
    /// `blend_joints[j].q` (shorter arc, `cosom < 0` flips) and lerps
    /// `joints[j].t` towards `blend_joints[j].t` by `lerp`, in place.
    ///
    /// As the listing: `lerp <= 0` returns at once; `!(lerp < 1)` (NaN
    /// included) copies the indexed blend joints; a `num_joints <= 0` does
    /// nothing. The arithmetic is `slerp_joint`'s (with the FMA instruction on
    /// an x86_64 CPU that has it, `crate::portable::hard_fma`: the same bits).
    ///
    /// # Safety
    ///
    /// - `joints` and `blend_joints` do not overlap (no alignment is needed
    ///   beyond the type's);
    /// - `index` points to `num_joints` readable `i32` when `num_joints > 0`;
    /// - every entry `j` of `index` satisfies `0 <= j`, with `joints.add(j)`
    ///   valid for reads and writes and `blend_joints.add(j)` valid for reads.
    pub unsafe fn slerp_joints(
        joints: *mut JointQuat,
        blend_joints: *const JointQuat,
        lerp: f32,
        index: *const i32,
        num_joints: i32,
    ) => slerp_joints_with;
}

/// [`slerp_joints`] with the fused multiply-add `F`.
///
/// # Safety
///
/// [`slerp_joints`]' contract.
#[inline(always)]
unsafe fn slerp_joints_with<F: MulAdd>(
    joints: *mut JointQuat,
    blend_joints: *const JointQuat,
    lerp: f32,
    index: *const i32,
    num_joints: i32,
) {
    if lerp <= 0.0 || num_joints <= 0 {
        return;
    }
    let copy = lerp >= 1.0 || lerp.is_nan();
    for i in 0..num_joints as usize {
        // SAFETY: entry `i < num_joints` of `index` is readable and names a
        // joint of both lists, which do not overlap (caller's contract).
        unsafe {
            let j = *index.add(i) as usize;
            let b = *blend_joints.add(j);
            *joints.add(j) = if copy { b } else { slerp_joint::<F>(&*joints.add(j), &b, lerp) };
        }
    }
}

/// One joint: its rotation slerped towards `b`'s, its translation lerped,
/// by `lerp` in `(0, 1)`, in the order of operations of the module
/// documentation (every successor form's, lane for lane).
#[inline(always)]
pub(crate) fn slerp_joint<F: MulAdd>(a: &JointQuat, b: &JointQuat, lerp: f32) -> JointQuat {
    let (q, p) = (a.q.to_array(), b.q.to_array());
    let cosom = (q[0] * p[0] + q[1] * p[1]) + (q[2] * p[2] + q[3] * p[3]);
    let (scale0, scale1) = slerp_scales::<F>(cosom, lerp);
    let r: [f32; 4] = core::array::from_fn(|c| F::mul_add(q[c], scale0, p[c] * scale1));
    let (t, u) = (a.t.to_array(), b.t.to_array());
    let t: [f32; 4] = core::array::from_fn(|c| F::mul_add(lerp, u[c] - t[c], t[c]));
    JointQuat::new(Quat::from_array(r), Vec4::from_array(t))
}

/// x86's `maxps(a, b)`: `a > b ? a : b`, so `b` where either is NaN.
#[inline(always)]
fn max_x86(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// The floor under the polynomials' argument (`SIMD_SP_POLY_FLOOR`).
const FLOOR: f32 = SIMD_SP_POLY_FLOOR.0[0];

/// A constant's first float.
#[inline(always)]
fn c(k: &crate::consts::Align16<[f32; 4]>) -> f32 {
    k.0[0]
}

/// `ATanPositive`'s polynomial in `s = a²` (the factor of `a`), by
/// Estrin's scheme: `(((c0 s + c1) s² + (c2 s + c3)) s⁴ + ((c4 s + c5) s²
/// + (c6 s + c7))) s + 1`.
#[inline(always)]
fn atan_poly<F: MulAdd>(s: f32) -> f32 {
    let s2 = s * s;
    let s4 = s2 * s2;
    let a01 = F::mul_add(c(&SIMD_SP_ATAN_C0), s, c(&SIMD_SP_ATAN_C1));
    let a23 = F::mul_add(c(&SIMD_SP_ATAN_C2), s, c(&SIMD_SP_ATAN_C3));
    let a45 = F::mul_add(c(&SIMD_SP_ATAN_C4), s, c(&SIMD_SP_ATAN_C5));
    let a67 = F::mul_add(c(&SIMD_SP_ATAN_C6), s, c(&SIMD_SP_ATAN_C7));
    let b03 = F::mul_add(a01, s2, a23);
    let b47 = F::mul_add(a45, s2, a67);
    F::mul_add(F::mul_add(b03, s4, b47), s, 1.0)
}

/// `SinZeroHalfPI`'s polynomial in `x = w²` (the factor of `w`): `(((c0 x +
/// c1) x² + (c2 x + c3)) x + c4) x + 1`.
#[inline(always)]
fn sin_poly<F: MulAdd>(x: f32) -> f32 {
    let x2 = x * x;
    let a01 = F::mul_add(c(&SIMD_SP_SIN_C0), x, c(&SIMD_SP_SIN_C1));
    let a23 = F::mul_add(c(&SIMD_SP_SIN_C2), x, c(&SIMD_SP_SIN_C3));
    let b = F::mul_add(a01, x2, a23);
    F::mul_add(F::mul_add(b, x, c(&SIMD_SP_SIN_C4)), x, 1.0)
}

/// The sign bit of an `f32`.
const SIGN: u32 = SIMD_SP_SIGN_BIT.0[0];

/// `x` with the sign bits `sign` flipped (x86's `xorps`).
#[inline(always)]
fn xor_sign(x: f32, sign: u32) -> f32 {
    f32::from_bits(x.to_bits() ^ sign)
}

/// The signed scales `(scale0, scale1)` of `SlerpOptimized` for a dot
/// product `cosom` at `lerp`: steps 2 to 9 of the module documentation.
#[inline(always)]
pub(crate) fn slerp_scales<F: MulAdd>(cosom: f32, lerp: f32) -> (f32, f32) {
    let flip = if cosom < 0.0 { SIGN } else { 0 };
    let abs_cos = f32::from_bits(cosom.to_bits() & !SIGN);

    let sin_sqr = F::neg_mul_add(cosom, cosom, 1.0);
    let sin_sqr = if sin_sqr == 0.0 { SIMD_SP_TINY.0[0] } else { f32::from_bits(sin_sqr.to_bits() & !SIGN) };
    let sin = sqrt(sin_sqr);
    let sinom = 1.0 / sin;

    // ATanPositive(y = sin, x = |cos|) with the listing's selection.
    let min = if abs_cos < sin { abs_cos } else { sin };
    let max = if sin > abs_cos { sin } else { abs_cos };
    let y_ge_x = abs_cos == min;
    let a = xor_sign(min / max, if y_ge_x { SIGN } else { 0 });
    let offset = if y_ge_x { SIMD_SP_HALF_PI.0[0] } else { 0.0 };
    // s = max(2^-24, a²) as x86's `maxps(floor, s)` (NaN kept): below the
    // floor the polynomial is exactly 1, and s⁴ stays normal.
    let s = max_x86(FLOOR, a * a);
    let omega = F::mul_add(atan_poly::<F>(s), a, offset);

    let omega1 = lerp * omega;
    let omega0 = omega - omega1;
    let sin_zero_half_pi = |w: f32| (w * sin_poly::<F>(max_x86(FLOOR, w * w))) * sinom;
    (sin_zero_half_pi(omega0), xor_sign(sin_zero_half_pi(omega1), flip))
}

#[cfg(test)]
mod tests {
    use super::{FLOOR, atan_poly, sin_poly};
    use crate::portable::Soft;

    /// The floor changes no bit: both polynomials are exactly 1 at every
    /// argument from 0 to the floor (so evaluating at `max(FLOOR, s)`
    /// instead of `s` gives what `s` gave), and not above it (the floor is
    /// not needlessly low for the atan, whose next term is larger).
    #[test]
    #[cfg_attr(miri, ignore = "211,000 polynomial pairs: minutes under Miri; run natively on every target")]
    fn polynomials_are_one_up_to_the_floor() {
        let top = FLOOR.to_bits();
        // Every 4099th bit pattern from +0 to the floor, the smallest
        // subnormals and the floor's neighbours: 211,000 arguments.
        let args = (0..=top).step_by(4099).chain(0..64).chain(top - 64..=top).map(f32::from_bits);
        for s in args {
            assert_eq!(atan_poly::<Soft>(s).to_bits(), 1.0f32.to_bits(), "atan_poly({s:e})");
            assert_eq!(sin_poly::<Soft>(s).to_bits(), 1.0f32.to_bits(), "sin_poly({s:e})");
        }
        let above = f32::from_bits(top) * 4.0;
        assert_ne!(atan_poly::<Soft>(above), 1.0, "atan_poly({above:e}) already differs from 1");
    }
}
