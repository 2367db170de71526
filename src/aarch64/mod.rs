//! The NEON pieces that the `aarch64` successor forms (`Impl::Neon`) share,
//! as `crate::x86` holds the x86 ones. NEON is part of the `aarch64`
//! baseline: nothing here needs run-time detection.

pub(crate) mod blocks4;
pub(crate) mod joints4;
