//! # animasm-testkit
//!
//! What decides whether a kernel of [`animasm`] (or your own SIMD slerp,
//! nlerp, quaternion/matrix conversion or skeleton transform) is right:
//!
//! - [`oracle`]: the f64 references, one per operation (slerp with its
//!   shortest-arc rule, lerp and zeux's nlerp family, quaternion/matrix
//!   conversions in the papers' and glTF's conventions, 3x4 products, the
//!   parent chain and its inverse), the one definitive copy of each;
//! - [`error`]: the error measures (the angle between two rotations,
//!   insensitive to the sign of the quaternion; max abs component error;
//!   ulps; a skeleton's error relative to its size), each counting a NaN as
//!   an infinite error;
//! - [`inputs`]: seeded, reproducible input generators (SplitMix64): unit
//!   quaternions, joints, joint lists, rigid matrices, hierarchies;
//! - [`edges`]: fixed edge-case inputs for the raw kernels: the special f32
//!   values (signed zeros, subnormals, infinities, NaNs) and the quaternions,
//!   joint pairs, matrices and streams built from them;
//! - [`fox`]: the real animation data of the Khronos sample "Fox" (24
//!   joints, three animations, 2460 consecutive keyframe pairs) and its
//!   test vectors, shipped inside the crate with their licences;
//! - hard cases and a ready-made differential harness: see [`cases`] and
//!   [`check`];
#![cfg_attr(
    feature = "proptest",
    doc = "- [`strategies`] (feature `proptest`): the same inputs as proptest strategies, for property tests."
)]
#![cfg_attr(
    not(feature = "proptest"),
    doc = "- `strategies` (feature `proptest`, off in this build): the same inputs as proptest strategies, for \
           property tests."
)]
//!
//! animasm's own tests, benches, examples and fuzz targets use this crate
//! for all of these: there is no second copy of an oracle anywhere.
//!
//! Conventions throughout: quaternions are `[x, y, z, w]` (`w` last), 3x4
//! matrices are row-major `[row * 4 + col]` with the translation in column
//! 3, angles are in radians unless a name says `deg`, and every generator
//! is seeded, so a failing input is named by its seed and index.
//!
//! ## Using it in your own tests
//!
//! Add the testkit as a dev-dependency; it is the only dependency your
//! tests need. It re-exports the animasm it is built on
//! ([`animasm`](crate::animasm): `animasm_testkit::animasm::Quat`, ...) and,
//! with the `proptest` feature, proptest (`animasm_testkit::proptest`), and
//! every example in these docs is written that way. The crate is complete
//! in itself (the [`fox`] data is inside it), so a path, git or registry
//! dependency all work:
//!
//! ```toml
//! [dev-dependencies]
//! animasm-testkit = { path = "../animasm/animasm-testkit" } # or git = "<the animasm repository>"
//! # features = ["proptest"] for the proptest strategies
//! ```
//!
//! ## The quickest way: [`check`]
//!
//! Hand [`check::Check`] your interpolation as a function over slices and
//! it runs it on every hard-case family of [`cases`] at every factor of
//! [`cases::FACTORS`], next to animasm's own forms, against the f64
//! reference, and returns a [`check::Report`] to assert on and print:
//!
//! ```
//! use animasm_testkit::animasm::Quat;
//! use animasm_testkit::check::Check;
//!
//! // Your slerp, here a naive one: normalised lerp without the shortest arc.
//! fn my_interpolation(a: Quat, b: Quat, t: f32) -> Quat {
//!     let (a, b) = (a.to_array(), b.to_array());
//!     let q: [f32; 4] = core::array::from_fn(|i| a[i] + (b[i] - a[i]) * t);
//!     let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
//!     Quat::from_array(q.map(|v| v / n))
//! }
//!
//! let report = Check::nlerp("my nlerp").run(|out, from, to, t| {
//!     for i in 0..out.len() {
//!         out[i] = my_interpolation(from[i], to[i], t);
//!     }
//! });
//! println!("{report}"); // a Markdown table per case family
//! // Without the shortest-arc flip it goes the long way round:
//! assert!(report.failures(1e-5).contains(&animasm_testkit::cases::Family::Near180));
//! ```
//!
//! ## By hand
//!
//! A differential test of your own has four steps:
//!
//! 1. draw inputs from a seeded [`inputs::Rng`] (and real ones from
//!    [`fox`]: random pairs are almost never nearly parallel, real
//!    consecutive keyframes mostly are);
//! 2. run your f32 code on them, and the [`oracle`] in f64 on the same f32
//!    values widened (`f64::from`), so the reference sees exactly what your
//!    code saw;
//! 3. measure with [`error`]: [`error::rotation_angle`] for anything that is
//!    a rotation (`q` and `-q` are the same rotation, so a component-wise
//!    difference would flag a correct result of the other sign);
//! 4. assert a bound, naming the worst input.
//!
//! Here is the whole test for a textbook f32 slerp (shortest arc; a
//! normalised lerp where the quaternions are nearly parallel, `acos`/`sin`
//! weights otherwise):
//!
//! ```
//! use animasm_testkit::error::rotation_angle;
//! use animasm_testkit::inputs::Rng;
//! use animasm_testkit::{fox, oracle};
//!
//! /// The slerp under test: `[x, y, z, w]` quaternions, f32 throughout.
//! fn my_slerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
//!     let mut d: f32 = (0..4).map(|i| a[i] * b[i]).sum();
//!     let mut b = b;
//!     if d < 0.0 {
//!         // The shorter arc: blend towards -b.
//!         (d, b) = (-d, b.map(|v| -v));
//!     }
//!     let (wa, wb) = if d > 0.9995 {
//!         (1.0 - t, t)
//!     } else {
//!         let theta = d.acos();
//!         (((1.0 - t) * theta).sin() / theta.sin(), (t * theta).sin() / theta.sin())
//!     };
//!     let r: [f32; 4] = core::array::from_fn(|i| wa * a[i] + wb * b[i]);
//!     let norm = r.iter().map(|v| v * v).sum::<f32>().sqrt();
//!     r.map(|v| v / norm)
//! }
//!
//! /// The error of one blend against the f64 reference, in radians.
//! fn error(a: [f32; 4], b: [f32; 4], t: f32) -> f64 {
//!     let want = oracle::slerp_f64(oracle::f64x4(a), oracle::f64x4(b), f64::from(t));
//!     rotation_angle(my_slerp(a, b, t).map(f64::from), want)
//! }
//!
//! const BOUND: f64 = 2e-6; // radians, about 1e-4 degrees
//!
//! // 10,000 random pairs and factors, reproducible from the seed.
//! let mut rng = Rng::new(2024);
//! let (mut worst, mut worst_at) = (0.0, 0);
//! for k in 0..10_000 {
//!     let (a, b) = (rng.unit_quat().to_array(), rng.unit_quat().to_array());
//!     let t = rng.f64() as f32;
//!     let e = error(a, b, t);
//!     if e > worst {
//!         (worst, worst_at) = (e, k);
//!     }
//! }
//! assert!(worst < BOUND, "random pair {worst_at} of seed 2024: {worst:e} rad");
//!
//! // The real keyframe pairs of the Fox, where the lerp branch is the
//! // common case.
//! for (k, (a, b)) in fox::consecutive_key_pairs().into_iter().enumerate() {
//!     for t in [0.25, 0.5, 0.75] {
//!         let e = error(a, b, t);
//!         assert!(e < BOUND, "Fox pair {k} at t = {t}: {e:e} rad");
//!     }
//! }
//!
//! // A hard case: `b = -a` is the same rotation, so every blend is `a`.
//! let a = Rng::new(1).unit_quat().to_array();
//! assert!(error(a, a.map(|v| -v), 0.5) < BOUND);
//! ```
//!
//! The bound holds with room to spare: this slerp's worst error is 2.5e-7
//! rad on these random pairs and 1.07e-6 rad on the Fox's pairs, where 81%
//! of the blends take the lerp branch (random pairs reach it 19 times in
//! two million). The error comes from that branch: with a threshold of
//! `0.9999` instead of `0.9995` the Fox's figure drops to 1.9e-7 rad. Drop
//! the shortest-arc flip and the random pairs fail at once (3.14 rad), while
//! the Fox's pairs, which never need the flip, still pass: test both kinds.
//!
//! For the inputs that break such code (pairs at chosen angles, `q` and
//! `-q`, dot products of `±0.0`, non-unit, NaN and infinite input, the
//! listing errata) and a harness that runs all of them and reports, see
//! [`cases`]/[`check`].
#![cfg_attr(docsrs, feature(doc_cfg))]
#![warn(missing_docs)]

/// The animasm the testkit is built on, re-exported: its types
/// (`animasm::Quat`, `animasm::JointQuat`, `animasm::Impl`, ...) without a
/// second dependency to keep in step.
///
/// ```
/// use animasm_testkit::animasm::Quat;
/// assert_eq!(Quat::IDENTITY.to_array(), [0.0, 0.0, 0.0, 1.0]);
/// ```
pub use animasm;

/// approx 0.5, re-exported: animasm's `Quat`, `Vec4`, `JointQuat` and
/// `JointMat` implement its `AbsDiffEq`, `RelativeEq` and `UlpsEq`
/// (animasm's `approx` feature, which the testkit turns on), component by
/// component. Use it for yes-or-no comparisons of two f32 values of those
/// types; [`error`] has the measures it has no equivalent for (an f32 result
/// against an f64 reference, the rotation angle, either arc, a skeleton's
/// error relative to its size).
///
/// ```
/// use animasm_testkit::animasm::{JointMat, Quat};
/// use animasm_testkit::approx::{assert_relative_eq, assert_ulps_eq};
/// let q = Quat::new(0.0, 0.0, 0.6, 0.8);
/// assert_ulps_eq!(q, Quat::new(0.0, 0.0, 0.6, 0.8 + f32::EPSILON / 2.0));
/// let mut m = JointMat::IDENTITY;
/// m.mat[3] = 100.0;
/// let mut n = m;
/// n.mat[3] = 100.00001;
/// assert_relative_eq!(m, n, max_relative = 1e-6);
/// ```
pub use approx;

/// proptest, re-exported with the `proptest` feature: the strategies'
/// types and the `proptest!` macro, at the version the strategies are built
/// with.
///
/// ```
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// use animasm_testkit::strategies::unit_quat;
/// let mut runner = TestRunner::new(Config::with_cases(16));
/// runner.run(&unit_quat(), |q| {
///     let n: f32 = q.to_array().iter().map(|v| v * v).sum();
///     prop_assert!((n - 1.0).abs() < 1e-6);
///     Ok(())
/// }).unwrap();
/// ```
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub use proptest;

pub mod cases;
pub mod check;
pub mod edges;
pub mod error;
pub mod fox;
pub mod inputs;
pub mod oracle;
#[cfg(feature = "proptest")]
#[cfg_attr(docsrs, doc(cfg(feature = "proptest")))]
pub mod strategies;

/// The README's example, compiled as a doctest (`tests/worked_examples.rs`
/// runs it as a test).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctest;
