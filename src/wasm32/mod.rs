//! The wasm SIMD128 pieces that the `wasm32` successor forms
//! (`Impl::Simd128`) share, as `crate::aarch64` holds the NEON ones.
//! SIMD128 is fixed at compile time (`-C target-feature=+simd128`): this
//! module exists only in builds with it, and nothing is detected at run
//! time.

pub(crate) mod blocks4;
pub(crate) mod fma;
pub(crate) mod joints4;
