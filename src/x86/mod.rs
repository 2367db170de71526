//! The x86 pieces that the SSE and AVX kernels of several routines share:
//! the shuffle immediates and the
//! `TRANSPOSE_4x4` macro as `asm!` text and as intrinsics ([`shuffle`]), and
//! the SSE slerp core of *Slerping Clock Cycles* that `slerp_joints` and
//! `slerp_quats`' SSE2 baseline both run ([`slerp_core`]), and the 8-wide
//! pieces the AVX2 successors share ([`slerp_core8`] for the joint
//! interpolators, [`blocks8`] for the conversions), and the 16-lane pieces
//! of the joint interpolators' AVX-512 successors ([`slerp_core16`]), with the
//! AVX-512 slerp's software pipeline ([`pipeline16`]). None of it is
//! public API. (The listings' constants, which every target's forms use,
//! are `crate::consts`.)

#[cfg(target_arch = "x86_64")]
pub(crate) mod blocks8;
#[cfg(target_arch = "x86_64")]
pub(crate) mod pipeline16;
#[cfg(target_arch = "x86_64")]
pub(crate) mod shuffle;
#[cfg(target_arch = "x86_64")]
pub(crate) mod slerp_core;
#[cfg(target_arch = "x86_64")]
pub(crate) mod slerp_core16;
#[cfg(target_arch = "x86_64")]
pub(crate) mod slerp_core8;
