//! Conversions from and to other math crates' types, behind optional
//! features: `glam` (glam 0.30) and `mint` (mint 0.5); and the comparisons
//! of `approx` 0.5 (feature `approx`: `assert_relative_eq!`,
//! `assert_ulps_eq!` and `assert_abs_diff_eq!` on `Quat`, `Vec4`,
//! `JointQuat` and `JointMat`, component by component, as glam has them).
//!
//! Two kinds, named differently on purpose:
//!
//! - **lane for lane** (`From` impls): the same four numbers in the same
//!   order, for [`Quat`](crate::Quat) and [`Vec4`](crate::Vec4). A
//!   quaternion converted this way keeps its meaning only if the other crate
//!   reads it in the same convention, which glam and glTF do not (see the
//!   README's "Conventions").
//! - **convention-crossing** (named functions such as
//!   `JointQuat::from_glam`): they take a rotation in glam's (and glTF's)
//!   convention and give what the papers' kernels expect, or back, and say
//!   so.
//!
//! Each feature's items are impls on the crate's types (and on the other
//! crate's, for `From`), so they show on [`Quat`](crate::Quat),
//! [`Vec4`](crate::Vec4), [`JointQuat`](crate::JointQuat) and
//! [`JointMat`](crate::JointMat):
//!
//! | feature | lane for lane (`From`, both ways) | convention-crossing |
//! |---|---|---|
//! | `glam` | `glam::Quat`, `glam::Vec4` | `JointQuat::from_glam(Quat, Vec3)`, `JointQuat::to_glam`; `JointMat::from_glam(Affine3A)`, `JointMat::to_glam` (exact copies: the matrices mean the same) |
//! | `mint` | `mint::Quaternion<f32>`, `mint::Vector4<f32>`, `mint::RowMatrix3x4<f32>` (same layout and meaning as `JointMat`) | `JointQuat::from_mint(Quaternion, Vector3)`, `JointQuat::to_mint` |
//!
//! With either, `quats_to_mats` of `JointQuat::from_glam(r, t)` (or
//! `from_mint`) is the matrix `Affine3A::from_rotation_translation(r, t)`
//! within the kernels' rounding, and `transform_skeleton` computes glam's
//! `parent * local`; `tests/interop.rs` checks both on every pose of the
//! bundled Fox.

#[cfg(feature = "approx")]
#[cfg_attr(docsrs, doc(cfg(feature = "approx")))]
pub mod approx;
#[cfg(feature = "glam")]
mod glam;
#[cfg(feature = "mint")]
mod mint;
