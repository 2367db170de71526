//! The C math library functions the scalar ports call, as their C++ `float`
//! overloads (`acosf`, `sinf`, ...): the platform's with the `std` feature,
//! the `libm` crate's without.

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
