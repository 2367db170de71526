//! # animasm-testkit
//!
//! What decides whether a kernel of [`animasm`] (or your own SIMD slerp,
//! nlerp, quaternion/matrix conversion or skeleton transform) is right:
//!
//! - [`oracle`]: the f64 references, one per operation (slerp with its
//!   shortest-arc rule, lerp, quaternion/matrix conversions in the papers'
//!   and glTF's conventions, 3x4 products, the parent chain and its
//!   inverse), the one definitive copy of each;
//! - [`inputs`]: seeded, reproducible input generators (SplitMix64) and
//!   hard cases: joints, joint lists, rigid matrices, hierarchies;
//! - [`strategies`]: the same as proptest strategies, for property tests;
//! - [`fox`]: the real animation data of `data/Fox.glb` and its test
//!   vectors (`data/Fox.glb.pose.json`);
//! - [`measure`]: the error measures of each routine against the oracles
//!   (and the accuracy figures the crate's report prints next to the
//!   papers'), split per routine family.
//!
//! animasm's own tests, benches, examples and fuzz targets use this crate
//! for all of these: there is no second copy of an oracle anywhere.
#![warn(missing_docs)]

pub mod cases;
pub mod check;
pub mod error;
pub mod fox;
pub mod inputs;
pub mod oracle;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod strategies;
