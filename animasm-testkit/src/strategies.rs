//! proptest strategies shared by the tests: unit quaternions, joints and
//! joint lists, `index` lists (permutations of a subset of the joints, or
//! with repeats), parents-first hierarchies with a joint range, rigid and
//! general joint matrices, interpolation factors with their edge values, and
//! list lengths that cover every tail of the 4-wide loops.
//!
//! Under Miri the lengths stay small (up to 9 joints: two passes of a 4-wide
//! loop and a tail) and [`config`] runs a handful of cases.

use core::ops::RangeInclusive;

use animasm::{JointMat, JointQuat, Quat, Vec4};
use proptest::prelude::*;
use proptest::test_runner::Config;

/// A proptest configuration with `cases` cases in an optimised build (`cargo
/// test --release`), an eighth of them in a debug build (about 15 times
/// slower), and `miri_cases` under Miri, where the failure file is not
/// written either (Miri isolates the file system). `PROPTEST_CASES`
/// overrides the count natively, for example to run fewer under valgrind or
/// more for a soak.
pub fn config(cases: u32, miri_cases: u32) -> Config {
    if cfg!(miri) {
        return Config { cases: miri_cases, failure_persistence: None, ..Config::default() };
    }
    let cases = if cfg!(debug_assertions) { (cases / 8).max(1) } else { cases };
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    Config { cases, ..Config::default() }
}

/// A list length: mostly `0..=40` (every tail of the 4-wide loops, several
/// times over), sometimes up to 300. Under Miri `0..=9`.
pub fn len() -> BoxedStrategy<usize> {
    if cfg!(miri) { (0usize..=9).boxed() } else { prop_oneof![6 => 0usize..=40, 1 => 41usize..=300].boxed() }
}

/// [`len`], at least `min`.
pub fn len_at_least(min: usize) -> BoxedStrategy<usize> {
    len().prop_map(move |n| n.max(min)).boxed()
}

/// A unit quaternion `[x, y, z, w]` in f64, uniform on S3 (Shoemake's
/// method, as `inputs::Rng::unit_quat_f64`).
pub fn unit_quat_f64() -> impl Strategy<Value = [f64; 4]> {
    (0.0f64..1.0, 0.0f64..core::f64::consts::TAU, 0.0f64..core::f64::consts::TAU).prop_map(|(u0, u1, u2)| {
        let (a, b) = ((1.0 - u0).sqrt(), u0.sqrt());
        [a * u1.sin(), a * u1.cos(), b * u2.sin(), b * u2.cos()]
    })
}

/// A unit quaternion rounded to f32.
pub fn unit_quat() -> impl Strategy<Value = Quat> {
    unit_quat_f64().prop_map(|q| Quat::from_array(q.map(|v| v as f32)))
}

/// A translation with components in `[-extent, extent)` and `w = 1`.
pub fn translation(extent: f32) -> impl Strategy<Value = Vec4> {
    [-extent..extent, -extent..extent, -extent..extent].prop_map(|[x, y, z]| Vec4::new(x, y, z, 1.0))
}

/// A joint: a unit rotation and a translation in `[-10, 10)^3`.
pub fn joint() -> impl Strategy<Value = JointQuat> {
    (unit_quat(), translation(10.0)).prop_map(|(q, t)| JointQuat::new(q, t))
}

/// `n` joints.
pub fn joints(n: usize) -> impl Strategy<Value = Vec<JointQuat>> {
    proptest::collection::vec(joint(), n)
}

/// `index` entries for `n` joints: a permutation of a random subset of
/// `0..n` (no repeats), in random order.
pub fn index_permutation(n: usize) -> impl Strategy<Value = Vec<i32>> {
    (Just((0..n as i32).collect::<Vec<i32>>()).prop_shuffle(), 0..=n).prop_map(|(mut all, k)| {
        all.truncate(k);
        all
    })
}

/// `index` entries for `n >= 1` joints with repeats: `0..=2n` entries, each
/// uniform in `0..n`.
pub fn index_with_repeats(n: usize) -> impl Strategy<Value = Vec<i32>> {
    proptest::collection::vec(0..n.max(1) as i32, 0..=2 * n)
}

/// An `index` list for `n` joints and whether its entries are distinct:
/// mostly [`index_permutation`], a quarter of the time
/// [`index_with_repeats`] (for `n > 0`).
pub fn index(n: usize) -> BoxedStrategy<(Vec<i32>, bool)> {
    let unique = index_permutation(n).prop_map(|v| (v, true));
    if n == 0 {
        return unique.boxed();
    }
    prop_oneof![3 => unique, 1 => index_with_repeats(n).prop_map(|v| (v, false))].boxed()
}

/// Two joint lists of the same length ([`len`]) and an [`index`] for them.
pub fn joint_lists_and_index() -> impl Strategy<Value = (Vec<JointQuat>, Vec<JointQuat>, Vec<i32>, bool)> {
    len().prop_flat_map(|n| (joints(n), joints(n), index(n)).prop_map(|(a, b, (i, u))| (a, b, i, u)))
}

/// An interpolation factor: mostly in `[0.001, 0.999)`, otherwise one of the
/// values where the listings branch or round differently (0, -0, 1, just
/// below and above them, tiny, huge).
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
/// column 3, computed in f64 and rounded to f32.
pub fn rigid_mat() -> impl Strategy<Value = JointMat> {
    (unit_quat_f64(), [-10.0f64..10.0, -10.0f64..10.0, -10.0f64..10.0]).prop_map(|([x, y, z, w], t)| {
        let r = [
            [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
            [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
            [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
        ];
        JointMat { mat: core::array::from_fn(|i| if i % 4 == 3 { t[i / 4] } else { r[i / 4][i % 4] } as f32) }
    })
}

/// A rigid matrix in the convention of `quats_to_mats` / `mats_to_quats`
/// (*From Quaternion to Matrix and Back*): the 3x3 part is the transpose of
/// [`rigid_mat`]'s, column 3 the translation.
pub fn paper_rigid_mat() -> impl Strategy<Value = JointMat> {
    rigid_mat().prop_map(|m| JointMat {
        mat: core::array::from_fn(|i| if i % 4 == 3 { m.mat[i] } else { m.mat[(i % 4) * 4 + i / 4] }),
    })
}

/// A general 3x4 matrix: every element in `[-4, 4)`, with zeros (of both
/// signs) now and then.
pub fn general_mat() -> impl Strategy<Value = JointMat> {
    let element = prop_oneof![6 => -4.0f32..4.0, 1 => prop::sample::select(vec![0.0f32, -0.0, 1.0, -1.0])];
    proptest::collection::vec(element, 12).prop_map(|v| JointMat { mat: core::array::from_fn(|i| v[i]) })
}

/// `n` elements of `s`.
pub fn list<S: Strategy>(s: S, n: usize) -> impl Strategy<Value = Vec<S::Value>> {
    proptest::collection::vec(s, n)
}

/// A parents-first hierarchy of `n` joints: `parents[0] = -1` (the root) and
/// every other joint's parent uniform in `0..i`.
pub fn parents_first(n: usize) -> impl Strategy<Value = Vec<i32>> {
    (0..n).map(|i| if i == 0 { Just(-1).boxed() } else { (0..i as i32).boxed() }).collect::<Vec<_>>()
}

/// A chain-heavy parents-first hierarchy: each joint hangs from the one
/// before it with probability 3/4 (long chains, deep accumulation),
/// otherwise from a uniform earlier joint.
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
/// has no parent), or, one time in eight, an empty range.
pub fn joint_range(n: usize) -> BoxedStrategy<RangeInclusive<usize>> {
    assert!(n >= 2, "a skeleton range needs a root and a joint");
    let range = (1..n).prop_flat_map(move |first| (Just(first), first..n)).prop_map(|(first, last)| first..=last);
    prop_oneof![7 => range, 1 => (0..n).prop_map(|s| s + 1..=s)].boxed()
}

/// A skeleton: `n >= 2` matrices of `mat`, a parents-first hierarchy (uniform
/// or chain-heavy) and a [`joint_range`].
pub fn skeleton<S>(mat: fn() -> S) -> impl Strategy<Value = (Vec<JointMat>, Vec<i32>, RangeInclusive<usize>)>
where
    S: Strategy<Value = JointMat> + 'static,
{
    len_at_least(2).prop_flat_map(move |n| {
        let parents = prop_oneof![parents_first(n), parents_chains(n)];
        (list(mat(), n), parents, joint_range(n))
    })
}
