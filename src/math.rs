//! The scalar math the C ports share: the C math library functions they
//! call, as their C++ `float` overloads (`acosf`, `sinf`, ...; the
//! platform's with the `std` feature, the `libm` crate's without), and the
//! helpers of J.M.P. van Waveren, *Slerping Clock Cycles* (id Software,
//! 2005, sections 5 and 6) that several routines' C calls: `ReciprocalSqrt`,
//! `SinZeroHalfPI`, `ATanPositive` and `Vec4Lerp`. They are public as
//! `animasm::slerp_joints::scalar::*`, the paper they come from.

use crate::types::Vec4;

macro_rules! unary {
    ($($(#[$m:meta])* $name:ident => $libm:ident;)*) => {$(
        $(#[$m])*
        #[inline]
        pub fn $name(x: f32) -> f32 {
            cfg_if::cfg_if! {
                if #[cfg(feature = "std")] { f32::$name(x) } else { libm::$libm(x) }
            }
        }
    )*};
}

unary! {
    /// `acos( float )`.
    acos => acosf;
    /// `sin( float )`.
    sin => sinf;
    /// `sqrt( float )`.
    sqrt => sqrtf;
}

/// `fabs( float )`.
#[inline]
pub fn fabs(x: f32) -> f32 {
    f32::from_bits(x.to_bits() & 0x7FFF_FFFF)
}

/// `atan2( float, float )`.
#[inline]
pub fn atan2(y: f32, x: f32) -> f32 {
    cfg_if::cfg_if! {
        if #[cfg(feature = "std")] { f32::atan2(y, x) } else { libm::atan2f(y, x) }
    }
}

/// `ReciprocalSqrt` (section 5): the `0x5f3759df` bit trick and one
/// Newton-Raphson step.
///
/// The C shifts a 32-bit `long` arithmetically; for negative `x` its
/// subtraction overflows (undefined in C), which this port wraps.
pub fn reciprocal_sqrt(x: f32) -> f32 {
    let mut i: i32;
    let (y, mut r): (f32, f32);

    y = x * 0.5f32;
    i = x.to_bits() as i32;
    i = 0x5f3759df_i32.wrapping_sub(i >> 1);
    r = f32::from_bits(i as u32);
    r = r * (1.5f32 - r * r * y);
    r
}

/// `SinZeroHalfPI` (section 5): `sin(a)` for `a` in `[0, PI/2]` as an odd
/// polynomial of degree 11; the paper gives a maximum absolute error of
/// 2.308e-9 (`tests/accuracy.rs` measures it).
#[allow(clippy::excessive_precision)]
pub fn sin_zero_half_pi(a: f32) -> f32 {
    let (s, mut t): (f32, f32);

    s = a * a;
    t = -2.39e-08f32;
    t *= s;
    t += 2.7526e-06f32;
    t *= s;
    t += -1.98409e-04f32;
    t *= s;
    t += 8.3333315e-03f32;
    t *= s;
    t += -1.666666664e-01f32;
    t *= s;
    t += 1.0f32;
    t *= a;
    t
}

/// `ATanPositive` (section 5): `atan2(y, x)` for `y, x >= 0` as a polynomial
/// in `min/max` of degree 17; the paper gives a maximum absolute error of
/// 1.359e-8.
#[allow(clippy::excessive_precision)]
pub fn atan_positive(y: f32, x: f32) -> f32 {
    let (a, d, s, mut t): (f32, f32, f32, f32);

    if y > x {
        a = -x / y;
        d = (core::f64::consts::PI / 2.0) as f32;
    } else {
        a = y / x;
        d = 0.0f32;
    }
    s = a * a;
    t = 0.0028662257f32;
    t *= s;
    t += -0.0161657367f32;
    t *= s;
    t += 0.0429096138f32;
    t *= s;
    t += -0.0752896400f32;
    t *= s;
    t += 0.1065626393f32;
    t *= s;
    t += -0.1420889944f32;
    t *= s;
    t += 0.1999355085f32;
    t *= s;
    t += -0.3333314528f32;
    t *= s;
    t += 1.0f32;
    t *= a;
    t += d;
    t
}

/// `Vec4Lerp` (section 6): `from * (1 - t) + to * t`.
pub fn vec4_lerp(from: &Vec4, to: &Vec4, t: f32) -> Vec4 {
    let s = 1.0f32 - t;
    Vec4 { x: from.x * s + to.x * t, y: from.y * s + to.y * t, z: from.z * s + to.z * t, w: from.w * s + to.w * t }
}
