//! proptest strategies (behind the testkit's `proptest` feature): unit
//! quaternions, joints and joint lists, `index` lists (permutations of a
//! subset of the joints, or with repeats), parents-first hierarchies with a
//! joint range, rigid and general joint matrices, interpolation factors with
//! their edge values, special floats, and list lengths that cover every tail
//! of the 4-wide loops.
//!
//! The values follow the conventions of [`crate::inputs`]: quaternions
//! `[x, y, z, w]`, translations with `w = 1`, 3x4 row-major matrices for
//! column vectors, hierarchies parents first. Turn the module on with
//!
//! ```toml
//! [dev-dependencies]
//! animasm-testkit = { git = "...", features = ["proptest"] }
//! proptest = "1"
//! ```
//!
//! and use the strategies in `proptest!` tests (`fn my_slerp_is_unit(q in
//! unit_quat(), t in lerp_factor()) { ... }`) or with a
//! [`TestRunner`](proptest::test_runner::TestRunner), as the examples here
//! do. animasm's own property tests use them.
//!
//! Under Miri the lengths stay small (up to 9 joints: two passes of a 4-wide
//! loop and a tail) and [`config`] runs a handful of cases.
//!
//! ```
//! use animasm_testkit::error::rotation_angle;
//! use animasm_testkit::oracle::{f64x4, slerp_f64};
//! use animasm_testkit::strategies::unit_quat;
//! use animasm_testkit::proptest::prelude::*;
//! use animasm_testkit::proptest::test_runner::{Config, TestRunner};
//!
//! // A property of the f64 reference on 64 random cases: slerp at `t` and
//! // at `1 - t` with the ends swapped is the same rotation.
//! let mut runner = TestRunner::new(Config::with_cases(64));
//! runner
//!     .run(&(unit_quat(), unit_quat(), 0.0f64..1.0), |(a, b, t)| {
//!         let (a, b) = (f64x4(a.to_array()), f64x4(b.to_array()));
//!         prop_assert!(rotation_angle(slerp_f64(a, b, t), slerp_f64(b, a, 1.0 - t)) < 1e-12);
//!         Ok(())
//!     })
//!     .unwrap();
//! ```

use core::ops::RangeInclusive;

use animasm::{JointMat, JointQuat, Quat, Vec4};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

use crate::oracle;

/// A proptest configuration with `cases` cases in an optimised build (`cargo
/// test --release`), an eighth of them in a debug build (about 15 times
/// slower), and `miri_cases` under Miri, where the failure file is not
/// written either (Miri isolates the file system). `PROPTEST_CASES`
/// overrides the count natively, for example to run fewer under valgrind or
/// more for a soak. The cases are drawn from a fixed seed ([`seed`]), so
/// they are the same on every run.
///
/// ```
/// use animasm_testkit::strategies::{config, unit_quat};
/// use animasm_testkit::proptest::test_runner::TestRunner;
/// let c = config(800, 4);
/// if std::env::var_os("PROPTEST_CASES").is_none() {
///     // 800 in an optimised build, 100 in a debug one.
///     assert!(c.cases == 800 || c.cases == 100, "{}", c.cases);
/// }
/// // Use it in `#![proptest_config(config(800, 4))]` or a runner.
/// let mut runner = TestRunner::new(config(16, 2));
/// runner.run(&unit_quat(), |q| Ok(assert!(q.w.is_finite()))).unwrap();
/// ```
pub fn config(cases: u32, miri_cases: u32) -> Config {
    let rng_seed = seed();
    if cfg!(miri) {
        return Config { cases: miri_cases, failure_persistence: None, rng_seed, ..Config::default() };
    }
    let cases = if cfg!(debug_assertions) { (cases / 8).max(1) } else { cases };
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    Config { cases, rng_seed, ..Config::default() }
}

/// The seed every [`config`] draws its cases from: [`SEED`], unless the
/// `PROPTEST_RNG_SEED` environment variable names another (a `u64`), as
/// proptest's own setting does. A fixed seed makes a test suite draw the
/// same inputs on every run and every machine, so a failure is never a
/// matter of luck and is reproduced by running the suite again. To explore
/// with fresh inputs, set the variable to a new seed on each run (the
/// repository's `scripts/explore_properties.sh` does), and keep the seed of
/// a run that fails: it reproduces the failure.
///
/// ```
/// use animasm_testkit::strategies::{SEED, seed};
/// use animasm_testkit::proptest::test_runner::RngSeed;
/// if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
///     assert_eq!(seed(), RngSeed::Fixed(SEED));
/// }
/// ```
pub fn seed() -> RngSeed {
    match std::env::var("PROPTEST_RNG_SEED").ok().and_then(|v| v.trim().parse().ok()) {
        Some(s) => RngSeed::Fixed(s),
        None => RngSeed::Fixed(SEED),
    }
}

/// The fixed seed of [`config`] when `PROPTEST_RNG_SEED` is not set.
///
/// ```
/// assert_eq!(animasm_testkit::strategies::SEED, 0x616e_696d_6173_6d31);
/// ```
pub const SEED: u64 = 0x616e_696d_6173_6d31;

/// A list length: mostly `0..=40` (every tail of the 4-wide loops, several
/// times over), sometimes up to 300. Under Miri `0..=9`.
///
/// ```
/// use animasm_testkit::strategies::len;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&len(), |n| {
///     prop_assert!(n <= 300);
///     Ok(())
/// }).unwrap();
/// ```
pub fn len() -> BoxedStrategy<usize> {
    if cfg!(miri) { (0usize..=9).boxed() } else { prop_oneof![6 => 0usize..=40, 1 => 41usize..=300].boxed() }
}

/// [`len`], at least `min` (lengths below `min` become `min`).
///
/// ```
/// use animasm_testkit::strategies::len_at_least;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&len_at_least(2), |n| {
///     prop_assert!((2..=300).contains(&n));
///     Ok(())
/// }).unwrap();
/// ```
pub fn len_at_least(min: usize) -> BoxedStrategy<usize> {
    len().prop_map(move |n| n.max(min)).boxed()
}

/// A unit quaternion `[x, y, z, w]` in f64, uniform on S3 (Shoemake's
/// method, as [`crate::inputs::Rng::unit_quat_f64`]): a uniformly random
/// rotation.
///
/// ```
/// use animasm_testkit::strategies::unit_quat_f64;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&unit_quat_f64(), |q| {
///     let norm = q.iter().map(|v| v * v).sum::<f64>().sqrt();
///     prop_assert!((norm - 1.0).abs() < 1e-12);
///     Ok(())
/// }).unwrap();
/// ```
pub fn unit_quat_f64() -> impl Strategy<Value = [f64; 4]> {
    (0.0f64..1.0, 0.0f64..core::f64::consts::TAU, 0.0f64..core::f64::consts::TAU).prop_map(|(u0, u1, u2)| {
        let (a, b) = ((1.0 - u0).sqrt(), u0.sqrt());
        [a * u1.sin(), a * u1.cos(), b * u2.sin(), b * u2.cos()]
    })
}

/// A unit quaternion ([`unit_quat_f64`]) rounded to f32: unit length to
/// within f32 rounding.
///
/// ```
/// use animasm_testkit::strategies::unit_quat;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&unit_quat(), |q| {
///     let norm = q.to_array().iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
///     prop_assert!((norm - 1.0).abs() < 1e-6);
///     Ok(())
/// }).unwrap();
/// ```
pub fn unit_quat() -> impl Strategy<Value = Quat> {
    unit_quat_f64().prop_map(|q| Quat::from_array(q.map(|v| v as f32)))
}

/// A translation with `x`, `y`, `z` in `[-extent, extent)` and `w = 1`.
///
/// ```
/// use animasm_testkit::strategies::translation;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&translation(2.5), |t| {
///     prop_assert_eq!(t.w, 1.0);
///     prop_assert!([t.x, t.y, t.z].iter().all(|v| (-2.5..2.5).contains(v)));
///     Ok(())
/// }).unwrap();
/// ```
pub fn translation(extent: f32) -> impl Strategy<Value = Vec4> {
    [-extent..extent, -extent..extent, -extent..extent].prop_map(|[x, y, z]| Vec4::new(x, y, z, 1.0))
}

/// A joint: a unit rotation ([`unit_quat`]) and a translation in
/// `[-10, 10)^3` ([`translation`]).
///
/// ```
/// use animasm_testkit::strategies::joint;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&joint(), |j| {
///     let norm = j.q.to_array().iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
///     prop_assert!((norm - 1.0).abs() < 1e-6);
///     prop_assert!(j.t.w == 1.0 && (-10.0..10.0).contains(&j.t.x));
///     Ok(())
/// }).unwrap();
/// ```
pub fn joint() -> impl Strategy<Value = JointQuat> {
    (unit_quat(), translation(10.0)).prop_map(|(q, t)| JointQuat::new(q, t))
}

/// `n` joints ([`joint`]).
///
/// ```
/// use animasm_testkit::strategies::joints;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(16));
/// runner.run(&joints(7), |js| {
///     prop_assert_eq!(js.len(), 7);
///     prop_assert!(js.iter().all(|j| j.t.w == 1.0));
///     Ok(())
/// }).unwrap();
/// ```
pub fn joints(n: usize) -> impl Strategy<Value = Vec<JointQuat>> {
    proptest::collection::vec(joint(), n)
}

/// `index` entries for `n` joints: a permutation of a random subset of
/// `0..n` (no repeats), in random order, of `0..=n` entries.
///
/// ```
/// use animasm_testkit::strategies::index_permutation;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&index_permutation(10), |index| {
///     prop_assert!(index.len() <= 10);
///     let mut sorted = index.clone();
///     sorted.sort();
///     sorted.dedup();
///     prop_assert_eq!(sorted.len(), index.len()); // distinct
///     prop_assert!(index.iter().all(|&i| (0..10).contains(&i)));
///     Ok(())
/// }).unwrap();
/// ```
pub fn index_permutation(n: usize) -> impl Strategy<Value = Vec<i32>> {
    (Just((0..n as i32).collect::<Vec<i32>>()).prop_shuffle(), 0..=n).prop_map(|(mut all, k)| {
        all.truncate(k);
        all
    })
}

/// `index` entries for `n >= 1` joints with repeats: `0..=2n` entries, each
/// uniform in `0..n`.
///
/// ```
/// use animasm_testkit::strategies::index_with_repeats;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&index_with_repeats(5), |index| {
///     prop_assert!(index.len() <= 10);
///     prop_assert!(index.iter().all(|&i| (0..5).contains(&i)));
///     Ok(())
/// }).unwrap();
/// ```
pub fn index_with_repeats(n: usize) -> impl Strategy<Value = Vec<i32>> {
    proptest::collection::vec(0..n.max(1) as i32, 0..=2 * n)
}

/// An `index` list for `n` joints and whether its entries are distinct:
/// mostly [`index_permutation`], a quarter of the time
/// [`index_with_repeats`] (for `n > 0`). The flag tells a test whether a
/// routine that writes through the index may be compared entry by entry.
///
/// ```
/// use animasm_testkit::strategies::index;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&index(6), |(index, distinct)| {
///     prop_assert!(index.iter().all(|&i| (0..6).contains(&i)));
///     if distinct {
///         let mut sorted = index.clone();
///         sorted.sort();
///         sorted.dedup();
///         prop_assert_eq!(sorted.len(), index.len());
///     }
///     Ok(())
/// }).unwrap();
/// ```
pub fn index(n: usize) -> BoxedStrategy<(Vec<i32>, bool)> {
    let unique = index_permutation(n).prop_map(|v| (v, true));
    if n == 0 {
        return unique.boxed();
    }
    prop_oneof![3 => unique, 1 => index_with_repeats(n).prop_map(|v| (v, false))].boxed()
}

/// Two joint lists of the same length ([`len`]) and an [`index`] for them,
/// with its distinct-entries flag: the input of `slerp_joints` and
/// `lerp_joints`.
///
/// ```
/// use animasm_testkit::strategies::joint_lists_and_index;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(16));
/// runner.run(&joint_lists_and_index(), |(joints, blend, index, _distinct)| {
///     prop_assert_eq!(joints.len(), blend.len());
///     prop_assert!(index.iter().all(|&i| 0 <= i && (i as usize) < joints.len()));
///     Ok(())
/// }).unwrap();
/// ```
pub fn joint_lists_and_index() -> impl Strategy<Value = (Vec<JointQuat>, Vec<JointQuat>, Vec<i32>, bool)> {
    len().prop_flat_map(|n| (joints(n), joints(n), index(n)).prop_map(|(a, b, (i, u))| (a, b, i, u)))
}

/// An interpolation factor: mostly in `[0.001, 0.999)`, otherwise one of the
/// values where the listings branch or round differently (0, -0, 1, just
/// below and above them, tiny, huge, negative). Never NaN or infinite.
///
/// ```
/// use animasm_testkit::strategies::lerp_factor;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::strategy::ValueTree;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(256));
/// let mut edges = 0;
/// runner.run(&lerp_factor(), |t| {
///     prop_assert!(t.is_finite());
///     Ok(())
/// }).unwrap();
/// // One draw in nine is an edge value: sample a few hundred to see them.
/// for _ in 0..300 {
///     let t = lerp_factor().new_tree(&mut runner).unwrap().current();
///     edges += usize::from(!(0.001..0.999).contains(&t));
/// }
/// assert!(edges > 0);
/// ```
pub fn lerp_factor() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => 0.001f32..0.999,
        1 => prop::sample::select(vec![
            0.0f32,
            -0.0,
            1.0,
            -1e-30,
            -0.5,
            f32::MIN,
            1.0 + f32::EPSILON,
            2.0,
            f32::MAX,
            1e-7,
            1e-30,
            1e-45,
            1.0 - f32::EPSILON / 2.0,
            0.5,
        ]),
    ]
}

/// A float that is often special: NaN (quiet and signalling, both signs),
/// the infinities, the zeros, subnormals, the extremes, or any bit pattern.
/// For tests of what a routine does with malformed input.
///
/// ```
/// use animasm_testkit::strategies::edge_f32;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::strategy::ValueTree;
/// use animasm_testkit::proptest::test_runner::TestRunner;
/// let mut runner = TestRunner::deterministic();
/// let v: Vec<f32> = (0..400).map(|_| edge_f32().new_tree(&mut runner).unwrap().current()).collect();
/// assert!(v.iter().any(|x| x.is_nan()));
/// assert!(v.iter().any(|x| x.is_infinite()));
/// assert!(v.iter().any(|x| x.is_subnormal()));
/// ```
pub fn edge_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        1 => prop::sample::select(vec![
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7F80_0001),
            f32::from_bits(0xFFA0_0000),
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1e-40,
            -1e-40,
            f32::MIN_POSITIVE,
            f32::MAX,
            f32::MIN,
            1.0,
            -1.0,
        ]),
        3 => any::<u32>().prop_map(f32::from_bits),
    ]
}

/// A rigid joint matrix in the column-vector convention of the skeleton
/// routines: the rotation of a uniform unit quaternion in columns 0..3 (rows
/// are the rotation matrix's rows) and a translation in `[-10, 10)^3` in
/// column 3 ([`oracle::quat_to_mat3_f64`], [`oracle::affine_from_f64`]),
/// computed in f64 and rounded to f32: the strategy twin of
/// [`crate::inputs::rigid_mat`].
///
/// ```
/// use animasm_testkit::strategies::rigid_mat;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&rigid_mat(), |m| {
///     let row = |r: usize| [0, 1, 2].map(|c| f64::from(m.mat[r * 4 + c]));
///     for (i, j) in [(0, 0), (0, 1), (1, 2), (2, 2)] {
///         let dot: f64 = (0..3).map(|k| row(i)[k] * row(j)[k]).sum();
///         let want = if i == j { 1.0 } else { 0.0 };
///         prop_assert!((dot - want).abs() < 1e-6);
///     }
///     prop_assert!((-10.0..10.0).contains(&m.mat[3]));
///     Ok(())
/// }).unwrap();
/// ```
pub fn rigid_mat() -> impl Strategy<Value = JointMat> {
    (unit_quat_f64(), [-10.0f64..10.0, -10.0f64..10.0, -10.0f64..10.0])
        .prop_map(|(q, t)| JointMat { mat: oracle::affine_from_f64(oracle::quat_to_mat3_f64(q), t).map(|v| v as f32) })
}

/// A rigid matrix in the convention of `quats_to_mats` / `mats_to_quats`
/// (*From Quaternion to Matrix and Back*): the 3x3 part is the transpose of
/// [`rigid_mat`]'s, column 3 the translation. Its 3x3 part is
/// [`oracle::quat_to_mat3_paper_f64`] of some unit quaternion.
///
/// ```
/// use animasm_testkit::oracle::{mat3_paper_to_quat_f64, quat_to_mat3_paper_f64};
/// use animasm_testkit::strategies::paper_rigid_mat;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&paper_rigid_mat(), |m| {
///     let r: [[f64; 3]; 3] = core::array::from_fn(|i| core::array::from_fn(|j| f64::from(m.mat[i * 4 + j])));
///     // Back to a quaternion, then the papers. matrix again.
///     let again = quat_to_mat3_paper_f64(mat3_paper_to_quat_f64(r));
///     prop_assert!((0..9).all(|k| (again[k / 3][k % 3] - r[k / 3][k % 3]).abs() < 1e-6));
///     Ok(())
/// }).unwrap();
/// ```
pub fn paper_rigid_mat() -> impl Strategy<Value = JointMat> {
    rigid_mat().prop_map(|m| JointMat {
        mat: core::array::from_fn(|i| if i % 4 == 3 { m.mat[i] } else { m.mat[(i % 4) * 4 + i / 4] }),
    })
}

/// A general 3x4 matrix: every element in `[-4, 4)`, with zeros (of both
/// signs) now and then. Not a rotation: for routines that must handle any
/// matrix (the skeleton transforms, the inverse).
///
/// ```
/// use animasm_testkit::strategies::general_mat;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&general_mat(), |m| {
///     prop_assert!(m.mat.iter().all(|v| (-4.0..=4.0).contains(v)));
///     Ok(())
/// }).unwrap();
/// ```
pub fn general_mat() -> impl Strategy<Value = JointMat> {
    let element = prop_oneof![6 => -4.0f32..4.0, 1 => prop::sample::select(vec![0.0f32, -0.0, 1.0, -1.0])];
    proptest::collection::vec(element, 12).prop_map(|v| JointMat { mat: core::array::from_fn(|i| v[i]) })
}

/// `n` elements of `s`.
///
/// ```
/// use animasm_testkit::strategies::{list, unit_quat};
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(16));
/// runner.run(&list(unit_quat(), 9), |qs| {
///     prop_assert_eq!(qs.len(), 9);
///     Ok(())
/// }).unwrap();
/// ```
pub fn list<S: Strategy>(s: S, n: usize) -> impl Strategy<Value = Vec<S::Value>> {
    proptest::collection::vec(s, n)
}

/// A parents-first hierarchy of `n` joints: `parents[0] = -1` (the root) and
/// every other joint's parent uniform in `0..i`. The strategy twin of
/// [`crate::inputs::random_parents`].
///
/// ```
/// use animasm_testkit::strategies::parents_first;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&parents_first(12), |parents| {
///     prop_assert_eq!(parents.len(), 12);
///     prop_assert_eq!(parents[0], -1);
///     prop_assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| 0 <= p && (p as usize) < i));
///     Ok(())
/// }).unwrap();
/// ```
pub fn parents_first(n: usize) -> impl Strategy<Value = Vec<i32>> {
    (0..n).map(|i| if i == 0 { Just(-1).boxed() } else { (0..i as i32).boxed() }).collect::<Vec<_>>()
}

/// A chain-heavy parents-first hierarchy: each joint hangs from the one
/// before it with probability 3/4 (long chains, deep accumulation),
/// otherwise from a uniform earlier joint.
///
/// ```
/// use animasm_testkit::strategies::parents_chains;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(16));
/// runner.run(&parents_chains(400), |parents| {
///     prop_assert_eq!(parents[0], -1);
///     prop_assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| 0 <= p && (p as usize) < i));
///     // About three joints in four hang from the joint just before them.
///     let chained = parents.iter().enumerate().filter(|&(i, &p)| p == i as i32 - 1).count();
///     prop_assert!(chained > 250, "{}", chained);
///     Ok(())
/// }).unwrap();
/// ```
pub fn parents_chains(n: usize) -> impl Strategy<Value = Vec<i32>> {
    (0..n)
        .map(|i| match i {
            0 => Just(-1).boxed(),
            _ => prop_oneof![3 => Just(i as i32 - 1), 1 => 0..i as i32].boxed(),
        })
        .collect::<Vec<_>>()
}

/// A joint range for a skeleton of `n >= 2` joints that the skeleton
/// routines accept: `first..=last` with `1 <= first <= last < n` (the root
/// has no parent), or, one time in eight, an empty range (`s + 1..=s`,
/// which the routines accept as "nothing to do"). Panics if `n < 2`.
///
/// ```
/// use animasm_testkit::strategies::joint_range;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(64));
/// runner.run(&joint_range(5), |range| {
///     prop_assert!(range.is_empty() || (1 <= *range.start() && *range.end() < 5));
///     Ok(())
/// }).unwrap();
/// ```
pub fn joint_range(n: usize) -> BoxedStrategy<RangeInclusive<usize>> {
    assert!(n >= 2, "a skeleton range needs a root and a joint");
    let range = (1..n).prop_flat_map(move |first| (Just(first), first..n)).prop_map(|(first, last)| first..=last);
    prop_oneof![7 => range, 1 => (0..n).prop_map(|s| s + 1..=s)].boxed()
}

/// A skeleton: `n >= 2` matrices of `mat`, a parents-first hierarchy (uniform
/// or chain-heavy) and a [`joint_range`]: the input of
/// `transform_skeleton` and `untransform_skeleton`. `mat` is the matrix
/// strategy, for example [`rigid_mat`] or [`general_mat`].
///
/// ```
/// use animasm_testkit::strategies::skeleton;
/// use animasm_testkit::proptest::prelude::*;
/// use animasm_testkit::proptest::test_runner::{Config, TestRunner};
/// let mut runner = TestRunner::new(Config::with_cases(16));
/// use animasm_testkit::strategies::rigid_mat;
/// runner.run(&skeleton(rigid_mat), |(mats, parents, range)| {
///     prop_assert!(mats.len() >= 2 && mats.len() == parents.len());
///     prop_assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| 0 <= p && (p as usize) < i));
///     prop_assert!(range.is_empty() || (*range.start() >= 1 && *range.end() < mats.len()));
///     Ok(())
/// }).unwrap();
/// ```
pub fn skeleton<S>(mat: fn() -> S) -> impl Strategy<Value = (Vec<JointMat>, Vec<i32>, RangeInclusive<usize>)>
where
    S: Strategy<Value = JointMat> + 'static,
{
    len_at_least(2).prop_flat_map(move |n| {
        let parents = prop_oneof![parents_first(n), parents_chains(n)];
        (list(mat(), n), parents, joint_range(n))
    })
}
