//! Conversions from and to other math crates' types, behind optional
//! features: `glam` (glam 0.30) and `mint` (mint 0.5).
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
