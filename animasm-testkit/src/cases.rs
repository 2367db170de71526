//! Seeded generators of the inputs that break quaternion interpolation
//! code, grouped in [`Family`]s, and the inputs that trigger the listing
//! errata of `asm_notes/` ([`errata_pairs`], [`errata_mats`]).
//!
//! Every generator is a pure function of its seed: the same seed gives the
//! same bits on every machine (SplitMix64 and f64 arithmetic, rounded to f32
//! once at the end), so a failure names its seed and reproduces.
//!
//! A [`Case`] is a pair of quaternions `[x, y, z, w]`; interpolation factors
//! are separate ([`FACTORS`]), so one pair is checked at every factor.
//!
//! ```
//! use animasm_testkit::cases::{Family, family};
//! let near = family(Family::Near180, 7, 100);
//! assert_eq!(near.len(), 100);
//! // Nearly opposite: the 4D dot product is close to -1 (the same rotation,
//! // reached the long way round by a slerp without the shortest-arc flip).
//! assert!(near.iter().all(|c| c.dot() < -0.99));
//! // Seeded: the same call gives the same bits.
//! assert_eq!(family(Family::Near180, 7, 100), near);
//! ```

use animasm::{JointMat, JointQuat, Quat};

use crate::inputs::Rng;

/// A family of quaternion pairs, each a kind of input that interpolation
/// code gets wrong in its own way.
///
/// The first eight are unit quaternions, where a correct slerp must be
/// accurate ([`Family::is_unit`]); the last four probe behaviour outside that
/// contract (non-unit, non-finite, the listing errata, real data).
///
/// ```
/// use animasm_testkit::cases::Family;
/// assert_eq!(Family::ALL.len(), 12);
/// assert!(Family::Near90.is_unit());
/// assert!(!Family::NonFinite.is_unit());
/// assert_eq!(Family::ZeroDot.name(), "zero dot");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Family {
    /// Pairs uniform on S3 x S3 (half of them with a negative dot product).
    #[default]
    Uniform,
    /// `to == from`, bit for bit: the angle is 0 (a `sin(0) / sin(0)`).
    Identical,
    /// Pairs 1e-7 to 1e-3 rad apart (4D angle, log-uniform): consecutive
    /// animation keys, where `acos` loses its digits and a linear fallback
    /// is usually taken.
    Tiny,
    /// Pairs whose 4D angle is within 1 degree of 90 (dot product near 0,
    /// both signs): where the shortest-arc decision flips.
    Near90,
    /// Dot products of exactly `+0.0` and `-0.0` (alternating): the
    /// shortest-arc rule's tie, where `dot >= 0` and a sign-bit test differ.
    ZeroDot,
    /// Pairs whose 4D angle is within 1 degree of 180 (dot near -1): the
    /// same rotation, which a slerp without the shortest-arc flip reaches
    /// through a full turn.
    Near180,
    /// `to == -from` exactly: `q` and `-q`, one rotation.
    Negated,
    /// Unit quaternions with subnormal components (`1e-39` to `1e-45`) next
    /// to normal ones, and pairs whose difference is subnormal.
    Denormal,
    /// Quaternions off unit length by up to 1e-3 (half of the pairs) or 1e-2
    /// (the other half), as after accumulated rounding or a cheap
    /// renormalisation. The reference is the slerp of the normalised pair:
    /// a slerp that does not normalise shows errors of that order.
    NonUnit,
    /// NaN and infinite components (one per pair, in every position).
    NonFinite,
    /// The pairs of [`errata_pairs`]: each triggers a listing erratum.
    Errata,
    /// Consecutive keyframe rotations of `data/Fox.glb` (all three
    /// animations): real data.
    Fox,
}

impl Family {
    /// Every family, in the order above.
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// assert_eq!(Family::ALL[0], Family::Uniform);
    /// assert_eq!(Family::ALL[11], Family::Fox);
    /// ```
    pub const ALL: [Family; 12] = [
        Family::Uniform,
        Family::Identical,
        Family::Tiny,
        Family::Near90,
        Family::ZeroDot,
        Family::Near180,
        Family::Negated,
        Family::Denormal,
        Family::NonUnit,
        Family::NonFinite,
        Family::Errata,
        Family::Fox,
    ];

    /// A short name for tables.
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// assert_eq!(Family::Near180.name(), "near 180");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Family::Uniform => "uniform",
            Family::Identical => "identical",
            Family::Tiny => "tiny angle",
            Family::Near90 => "near 90",
            Family::ZeroDot => "zero dot",
            Family::Near180 => "near 180",
            Family::Negated => "q, -q",
            Family::Denormal => "denormal",
            Family::NonUnit => "non-unit",
            Family::NonFinite => "NaN/inf",
            Family::Errata => "errata",
            Family::Fox => "Fox keys",
        }
    }

    /// Whether the family's quaternions are unit length (within f32
    /// rounding): the contract of a slerp, where its error is bounded.
    /// [`Family::Errata`] holds non-unit pairs too and is not.
    ///
    /// ```
    /// use animasm_testkit::cases::Family;
    /// let unit: Vec<_> = Family::ALL.into_iter().filter(|f| f.is_unit()).collect();
    /// assert_eq!(unit.len(), 9);
    /// assert!(Family::Fox.is_unit() && !Family::NonUnit.is_unit());
    /// ```
    pub fn is_unit(self) -> bool {
        !matches!(self, Family::NonUnit | Family::NonFinite | Family::Errata)
    }
}

/// A pair of quaternions `[x, y, z, w]` to interpolate between, with the
/// family it belongs to and a label saying what it is.
///
/// ```
/// use animasm_testkit::cases::{Family, family};
/// let c = &family(Family::Negated, 1, 1)[0];
/// assert_eq!(c.to.to_array(), c.from.to_array().map(|v| -v));
/// assert!((c.dot() + 1.0).abs() < 1e-6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Case {
    /// The family.
    pub family: Family,
    /// What this pair is (for a family: the family's name; for an erratum:
    /// `"slerp_joints E3: dot product -0.0"` and the like).
    pub label: &'static str,
    /// The start quaternion (interpolation factor 0).
    pub from: Quat,
    /// The end quaternion (factor 1).
    pub to: Quat,
}

impl Case {
    /// The 4D dot product of `from` and `to`, in f64.
    ///
    /// ```
    /// use animasm_testkit::animasm::Quat;
    /// use animasm_testkit::cases::{Case, Family};
    /// let c = Case { family: Family::Uniform, label: "", from: Quat::new(0.0, 0.0, 0.0, 1.0), to: Quat::new(0.0, 0.6, 0.0, 0.8) };
    /// assert!((c.dot() - 0.8).abs() < 1e-7);
    /// ```
    pub fn dot(&self) -> f64 {
        let (a, b) = (self.from.to_array(), self.to.to_array());
        (0..4).map(|i| f64::from(a[i]) * f64::from(b[i])).sum()
    }
}

/// The interpolation factors every pair is checked at: both endpoints, the
/// middle, thirds and quarters, and factors next to each endpoint.
///
/// ```
/// use animasm_testkit::cases::FACTORS;
/// assert!(FACTORS.contains(&0.0) && FACTORS.contains(&1.0) && FACTORS.contains(&0.5));
/// assert!(FACTORS.iter().all(|t| (0.0..=1.0).contains(t)));
/// ```
pub const FACTORS: [f32; 11] = [0.0, 1.0, 0.5, 0.25, 0.75, 1.0 / 3.0, 2.0 / 3.0, 0.1, 0.9, 1e-4, 1.0 - 1e-4];

fn quat(v: [f64; 4]) -> Quat {
    Quat::from_array(v.map(|x| x as f32))
}

fn unit(v: [f64; 4]) -> [f64; 4] {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    v.map(|x| x / n)
}

/// A unit quaternion `omega` radians (4D angle, `0..=PI`) away from the
/// unit `from`, in a uniformly random direction: `cos(omega) from +
/// sin(omega) p` with `p` a random unit quaternion orthogonal to `from`. The
/// rotation angle between the two is `2 omega` (modulo the sign of `q`).
///
/// ```
/// use animasm_testkit::cases::pair_at_angle;
/// use animasm_testkit::inputs::Rng;
/// let mut rng = Rng::new(3);
/// let from = rng.unit_quat_f64();
/// let to = pair_at_angle(&mut rng, from, 0.25);
/// let dot: f64 = (0..4).map(|i| from[i] * to[i]).sum();
/// assert!((dot.acos() - 0.25).abs() < 1e-12);
/// ```
pub fn pair_at_angle(rng: &mut Rng, from: [f64; 4], omega: f64) -> [f64; 4] {
    let p = orthogonal_unit(rng, from);
    let (s, c) = omega.sin_cos();
    core::array::from_fn(|i| c * from[i] + s * p[i])
}

/// A random unit quaternion orthogonal to the unit `p` (4D): Gram-Schmidt of
/// [`Rng::unit_quat_f64`] against `p`, drawn again in the measure-zero case
/// of a draw (nearly) parallel to `p`.
///
/// ```
/// use animasm_testkit::cases::orthogonal_unit;
/// use animasm_testkit::inputs::Rng;
/// let mut rng = Rng::new(5);
/// let p = rng.unit_quat_f64();
/// let o = orthogonal_unit(&mut rng, p);
/// assert!((0..4).map(|i| p[i] * o[i]).sum::<f64>().abs() < 1e-15);
/// assert!(((0..4).map(|i| o[i] * o[i]).sum::<f64>() - 1.0).abs() < 1e-15);
/// ```
pub fn orthogonal_unit(rng: &mut Rng, p: [f64; 4]) -> [f64; 4] {
    loop {
        let r = rng.unit_quat_f64();
        let d: f64 = (0..4).map(|i| p[i] * r[i]).sum();
        let o: [f64; 4] = core::array::from_fn(|i| r[i] - d * p[i]);
        let on = o.iter().map(|v| v * v).sum::<f64>().sqrt();
        if on > 1e-3 {
            return o.map(|v| v / on);
        }
    }
}

/// `n` unit-quaternion pairs whose 4D angle `omega` (`acos |from·to|`,
/// radians) is uniform in `[lo, hi)`, with random directions and a random
/// sign of `to` (so half have a negative dot product): the sweep of the
/// report's error-by-angle plot and of `slerp_quats`' accuracy figures.
///
/// ```
/// use animasm_testkit::cases::pairs_at_angles;
/// let (a, b) = pairs_at_angles(1, 100, 0.5, 0.6);
/// for (a, b) in a.iter().zip(&b) {
///     let d: f64 = (0..4).map(|i| f64::from(a.to_array()[i]) * f64::from(b.to_array()[i])).sum();
///     assert!((0.49..0.61).contains(&d.abs().acos()));
/// }
/// assert!(a.iter().zip(&b).any(|(a, b)| (0..4).map(|i| a.to_array()[i] * b.to_array()[i]).sum::<f32>() < 0.0));
/// ```
pub fn pairs_at_angles(seed: u64, n: usize, lo: f64, hi: f64) -> (Vec<Quat>, Vec<Quat>) {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let p = rng.unit_quat_f64();
            let o = orthogonal_unit(&mut rng, p);
            let omega = rng.range(lo, hi);
            let s = if rng.f64() < 0.5 { -1.0 } else { 1.0 };
            let q: [f64; 4] = core::array::from_fn(|i| s * (omega.cos() * p[i] + omega.sin() * o[i]));
            (quat(p), quat(q))
        })
        .unzip()
}

/// `n` joint pairs whose rotations come in three interleaved mixes: uniform
/// on S3 (`i % 3 == 0`), near parallel (`to` = `from` plus a random
/// perturbation of size 1e-6 to 1e-1, normalised, as consecutive animation
/// keys are) and near opposite (the same, negated); the translations are
/// [`Rng::translation`]s. The pairs of the papers' accuracy figures in
/// animasm's report.
///
/// ```
/// use animasm_testkit::cases::mixed_pairs;
/// let (a, b) = mixed_pairs(9, 30);
/// let dot = |i: usize| (0..4).map(|c| a[i].q.to_array()[c] * b[i].q.to_array()[c]).sum::<f32>();
/// assert!(dot(1) > 0.99 && dot(2) < -0.99);
/// ```
pub fn mixed_pairs(seed: u64, n: usize) -> (Vec<JointQuat>, Vec<JointQuat>) {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let p = rng.unit_quat_f64();
            let q = match i % 3 {
                0 => rng.unit_quat_f64(),
                k => {
                    let eps = 10f64.powf(rng.range(-6.0, -1.0));
                    let d = rng.unit_quat_f64();
                    let s = if k == 2 { -1.0 } else { 1.0 };
                    unit(core::array::from_fn(|c| s * (p[c] + eps * d[c])))
                }
            };
            let (mut ja, mut jb) = (rng.joint(), rng.joint());
            (ja.q, jb.q) = (quat(p), quat(q));
            (ja, jb)
        })
        .unzip()
}

/// The grid of zeux's nlerp accuracy figures: `l` the identity and, for
/// `steps + 1` dot products `d` evenly spaced from `d0` to 1, `r` the
/// rotation about the fixed axis `(1, 2, 3)` with `w = d` and its negation,
/// each at `steps + 1` factors `t` evenly spaced over `[0, 1]`. Returns `(l,
/// r, t)` with `r` and `t` of length `2 (steps + 1)^2`.
///
/// ```
/// use animasm_testkit::cases::dot_grid;
/// let (l, r, t) = dot_grid(0.0, 10);
/// assert_eq!(l.to_array(), [0.0, 0.0, 0.0, 1.0]);
/// assert_eq!((r.len(), t.len()), (2 * 11 * 11, 2 * 11 * 11));
/// assert_eq!(r[0].w, 0.0);
/// assert_eq!((t[0], t[10]), (0.0, 1.0));
/// ```
pub fn dot_grid(d0: f64, steps: usize) -> (Quat, Vec<Quat>, Vec<f32>) {
    let axis = unit([1.0, 2.0, 3.0, 0.0]);
    let (mut r, mut t) = (Vec::new(), Vec::new());
    for i in 0..=steps {
        let d = d0 + (1.0 - d0) * i as f64 / steps as f64;
        let s = (1.0 - d * d).max(0.0).sqrt();
        for sign in [1.0, -1.0] {
            let q = Quat::new((s * axis[0]) as f32, (s * axis[1]) as f32, (s * axis[2]) as f32, d as f32);
            let q = if sign > 0.0 { q } else { Quat::from_array(q.to_array().map(|v| -v)) };
            for j in 0..=steps {
                r.push(q);
                t.push(j as f32 / steps as f32);
            }
        }
    }
    (Quat::IDENTITY, r, t)
}

/// `n` pairs of family `f` from `seed` (for [`Family::Errata`] the
/// [`errata_pairs`], for [`Family::Fox`] `n` of the Fox's consecutive key
/// pairs picked by the seed; each repeated cyclically if `n` is larger).
///
/// ```
/// use animasm_testkit::cases::{Family, family};
/// for f in Family::ALL {
///     let cases = family(f, 11, 40);
///     assert_eq!(cases.len(), 40);
///     assert!(cases.iter().all(|c| c.family == f));
/// }
/// // Tiny angles really are tiny.
/// assert!(family(Family::Tiny, 1, 50).iter().all(|c| c.dot() > 1.0 - 1e-6));
/// ```
pub fn family(f: Family, seed: u64, n: usize) -> Vec<Case> {
    // One stream per family, so adding pairs to one family does not change
    // another's.
    let mut rng = Rng::new(seed ^ (0x9E37_79B9_7F4A_7C15u64.wrapping_mul(f as u64 + 1)));
    let case = |from: [f64; 4], to: [f64; 4]| Case { family: f, label: f.name(), from: quat(from), to: quat(to) };
    match f {
        Family::Errata => cycle(errata_pairs(), n),
        Family::Fox => {
            let pairs = crate::fox::consecutive_key_pairs();
            (0..n)
                .map(|_| {
                    let (a, b) = pairs[rng.below(pairs.len())];
                    Case { family: f, label: f.name(), from: Quat::from_array(a), to: Quat::from_array(b) }
                })
                .collect()
        }
        _ => (0..n).map(|i| generated(f, &mut rng, i, case)).collect(),
    }
}

fn cycle(v: Vec<Case>, n: usize) -> Vec<Case> {
    v.iter().cycle().take(n).copied().collect()
}

fn generated(f: Family, rng: &mut Rng, i: usize, case: impl Fn([f64; 4], [f64; 4]) -> Case) -> Case {
    let from = rng.unit_quat_f64();
    match f {
        Family::Uniform => case(from, rng.unit_quat_f64()),
        Family::Identical => {
            let q = quat(from);
            Case { family: f, label: f.name(), from: q, to: q }
        }
        Family::Tiny => {
            let omega = 10f64.powf(rng.range(-7.0, -3.0));
            case(from, pair_at_angle(rng, from, omega))
        }
        Family::Near90 => {
            let omega = (90.0 + rng.range(-1.0, 1.0)).to_radians();
            case(from, pair_at_angle(rng, from, omega))
        }
        Family::ZeroDot => zero_dot(rng, i % 2 == 1),
        Family::Near180 => {
            let omega = (180.0 - rng.range(0.0, 1.0)).to_radians();
            case(from, pair_at_angle(rng, from, omega))
        }
        Family::Negated => {
            let q = quat(from);
            Case { family: f, label: f.name(), from: q, to: Quat::from_array(q.to_array().map(|v| -v)) }
        }
        Family::Denormal => {
            // Two components subnormal, the others carrying the length; the
            // `to` of every other pair a tiny angle away, so differences are
            // subnormal too.
            let (a, b) = (rng_subnormal(rng), rng_subnormal(rng));
            let k = rng.below(4);
            let (s, c) = rng.range(0.0, core::f64::consts::TAU).sin_cos();
            let mut q = [0.0; 4];
            q[k] = a;
            q[(k + 1) % 4] = b;
            q[(k + 2) % 4] = s;
            q[(k + 3) % 4] = c;
            let from = quat(q);
            let to = if i.is_multiple_of(2) {
                let d = rng.unit_quat_f64();
                let mut p = [0.0; 4];
                p[k] = -b;
                p[(k + 1) % 4] = a;
                p[(k + 2) % 4] = d[2];
                p[(k + 3) % 4] = d[3];
                quat(unit(p))
            } else {
                // One subnormal step in a subnormal component.
                let mut t = from.to_array();
                t[k] = f32::from_bits(t[k].to_bits() ^ 1);
                Quat::from_array(t)
            };
            Case { family: f, label: f.name(), from, to }
        }
        Family::NonUnit => {
            let to = rng.unit_quat_f64();
            let off = if i.is_multiple_of(2) { 1e-3 } else { 1e-2 };
            let (sa, sb) = (1.0 + rng.range(-off, off), 1.0 + rng.range(-off, off));
            case(from.map(|v| v * sa), to.map(|v| v * sb))
        }
        Family::NonFinite => {
            let bad = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY][i % 3];
            let (mut a, b) = (quat(from).to_array(), quat(rng.unit_quat_f64()).to_array());
            let mut b2 = b;
            if (i / 3).is_multiple_of(2) {
                a[(i / 6) % 4] = bad;
            } else {
                b2[(i / 6) % 4] = bad;
            }
            Case { family: f, label: f.name(), from: Quat::from_array(a), to: Quat::from_array(b2) }
        }
        Family::Errata | Family::Fox => unreachable!("handled by `family`"),
    }
}

/// A subnormal f32 magnitude in `[1e-45, 1e-39]`, random sign, as f64.
fn rng_subnormal(rng: &mut Rng) -> f64 {
    let bits = 1 + rng.below(0x7F_FFFF) as u32;
    let v = f64::from(f32::from_bits(bits));
    if rng.below(2) == 0 { v } else { -v }
}

/// A pair whose f32 dot product is exactly `-0.0` (`negative`) or `+0.0` in
/// every summation order: each product is a signed zero.
fn zero_dot(rng: &mut Rng, negative: bool) -> Case {
    // `from` has two zero components, `to` has zeros where `from` is
    // non-zero; the signs of the zeros decide the sign of every product.
    let k = rng.below(4);
    let (s, c) = rng.range(0.1, 1.4).sin_cos();
    let (s2, c2) = rng.range(0.1, 1.4).sin_cos();
    let z = if negative { -0.0f32 } else { 0.0 };
    let mut a = [0.0f32; 4];
    let mut b = [0.0f32; 4];
    a[k] = s as f32;
    a[(k + 1) % 4] = c as f32;
    // Products a[k] * b[k] and a[k+1] * b[k+1]: positive times a signed zero.
    b[k] = z;
    b[(k + 1) % 4] = z;
    // Products of a's zeros with b's values: `+0 * v` has the sign of `v`.
    let sign = if negative { -1.0 } else { 1.0 };
    b[(k + 2) % 4] = (sign * s2) as f32;
    b[(k + 3) % 4] = (sign * c2) as f32;
    let family = Family::ZeroDot;
    let label = if negative { "dot product -0.0" } else { "dot product +0.0" };
    Case { family, label, from: Quat::from_array(a), to: Quat::from_array(b) }
}

/// The quaternion pairs that trigger the interpolation errata of
/// `asm_notes/` (see its errata index), one or more per erratum, labelled
/// with the routine and erratum:
///
/// - `slerp_joints`/`lerp_joints` E3: a dot product of `-0.0` flips the
///   blend quaternion (the listing tests the sign bit; the C's `cosom >= 0`
///   keeps it);
/// - `nlerp` E2: at a dot product of `+0.0` the sign-bit XOR keeps `r`, the
///   C's `ca > 0` negates it;
/// - `slerp_joints` E7: no linear fallback for identical quaternions, unit
///   and scaled by 1.5 (`1 - cos^2 < 0`);
/// - `slerp_joints` E8: a pair 45 degrees apart (4D), where `ATanPositive`'s
///   `y == x` tie can fall;
/// - `slerp_quats` E1-E3: pairs across the angle range, where `HALF_PI =
///   22/7/2` and the lost Newton-Raphson step show (every angle is affected;
///   these make it visible at small, middle and large angles).
///
/// The NaN-factor erratum (E4 of `slerp_joints`/`lerp_joints`) is a factor,
/// not a pair: [`crate::check`] probes NaN factors separately. The matrix
/// errata are in [`errata_mats`].
///
/// ```
/// use animasm_testkit::cases::errata_pairs;
/// let pairs = errata_pairs();
/// let minus_zero = pairs.iter().find(|c| c.label.starts_with("slerp_joints/lerp_joints E3")).unwrap();
/// assert_eq!(minus_zero.dot().to_bits(), (-0.0f64).to_bits());
/// ```
pub fn errata_pairs() -> Vec<Case> {
    // The fixed pairs are `edges::joint_pairs`' (one definition each).
    let pairs = crate::edges::joint_pairs();
    let edge = |name: &str| {
        let (a, b, _) =
            pairs.iter().find(|p| p.2 == name).unwrap_or_else(|| panic!("edges::joint_pairs has no {name:?}"));
        (a.q, b.q)
    };
    let e = |label, (from, to): (Quat, Quat)| Case { family: Family::Errata, label, from, to };
    let mut v = vec![
        e("slerp_joints/lerp_joints E3: dot product -0.0", edge("orthogonal (-0 dot)")),
        e("nlerp E2: dot product +0.0", edge("orthogonal (+0 dot)")),
        e("slerp_joints E7: identical unit quaternions", edge("identical")),
        e("slerp_joints E7: identical, scaled by 1.5", edge("identical, non-unit (cos > 1)")),
        e("slerp_joints E8: 45 degrees apart", edge("45 degrees")),
    ];
    let mut rng = Rng::new(0xE1_E3);
    for deg in [1.0f64, 30.0, 60.0, 89.0] {
        let from = rng.unit_quat_f64();
        let to = pair_at_angle(&mut rng, from, deg.to_radians());
        v.push(Case {
            family: Family::Errata,
            label: "slerp_quats E1-E3: HALF_PI = 22/7/2",
            from: quat(from),
            to: quat(to),
        });
    }
    v
}

/// Joint matrices (row-major 3x4, `[R | t]`) that trigger the matrix
/// errata of `asm_notes/`, labelled with the routine and erratum:
///
/// - `mats_to_quats` E1: a trace of exactly 0 (the w case wins the tie) and
///   equal diagonal elements (the earlier case wins);
/// - `mats_to_quats` E2: a NaN trace (takes the w case);
/// - `mats_to_quats` E3: rotations about one axis, whose zero components
///   come out `-0.0`;
/// - `transform_skeleton` E1 and `transform_joints` E2: `-0.0` rotation
///   elements (the listings turn them into `+0.0`).
///
/// ```
/// use animasm_testkit::cases::errata_mats;
/// let mats = errata_mats();
/// let (_, m) = mats.iter().find(|(l, _)| l.contains("trace of exactly 0")).unwrap();
/// assert_eq!(m.mat[0] + m.mat[5] + m.mat[10], 0.0);
/// assert!(mats.iter().any(|(_, m)| m.mat[2].to_bits() == (-0.0f32).to_bits()));
/// assert!(mats.iter().any(|(_, m)| m.mat.iter().any(|v| v.is_nan())));
/// ```
pub fn errata_mats() -> Vec<(&'static str, JointMat)> {
    // The ties and special matrices are `edges::mats`' (one definition each).
    let mats = crate::edges::mats();
    let edge =
        |name: &str| mats.iter().find(|m| m.0 == name).unwrap_or_else(|| panic!("edges::mats has no {name:?}")).1;
    // A rotation about z by (0.6, 0.8) with its zero elements -0.0.
    let (s, c) = (0.6f32, 0.8f32);
    let negative_zeros = JointMat { mat: [c, -s, -0.0, 0.5, s, c, -0.0, -0.0, -0.0, -0.0, 1.0, 2.0] };
    vec![
        ("mats_to_quats E1: trace of exactly 0", edge("trace exactly 0")),
        ("mats_to_quats E1: equal diagonal elements", edge("m00 == m11 > m22")),
        ("mats_to_quats E2: NaN trace", edge("NaN diagonal")),
        ("mats_to_quats E3: 180 degrees about z (zero x and y)", edge("180 degrees about z")),
        ("mats_to_quats E3: identity (zero x, y and z)", edge("identity")),
        ("transform_skeleton E1, transform_joints E2: -0.0 rotation elements", negative_zeros),
    ]
}

/// The inputs animation really hands a joint blend, beside random pairs:
/// what a benchmark or a speed check of `slerp_joints`-like kernels should
/// time (a kernel that is fast on random pairs and slow on a held pose is
/// slow). See [`workload_joints`].
///
/// ```
/// use animasm_testkit::cases::Workload;
/// assert_eq!(Workload::ALL.len(), 4);
/// assert_eq!(Workload::Held.name(), "held");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Workload {
    /// Independent uniform unit quaternions ([`Rng::joint`] twice): the
    /// input of the papers' timings.
    Random,
    /// The Fox's consecutive keyframe pairs (`fox::consecutive_key_pairs`,
    /// in file order, repeated when more are asked for): real animation,
    /// 148 of its 2460 pairs with an f32 dot product that rounds to 1 or more.
    Fox,
    /// A held pose: the blend joints equal the joints, bit for bit (an idle
    /// pose, a joint the clip does not move, a pose blended with itself).
    Held,
    /// Near-identical poses: each blend rotation is its joint's rotation
    /// turned by 1e-3 rad about a random axis (a 4D angle of 5e-4), each
    /// translation moved by up to 1e-3.
    Near,
}

impl Workload {
    /// Every workload, random first.
    ///
    /// ```
    /// use animasm_testkit::cases::Workload;
    /// assert_eq!(Workload::ALL[0], Workload::Random);
    /// ```
    pub const ALL: [Workload; 4] = [Workload::Random, Workload::Fox, Workload::Held, Workload::Near];

    /// A short lowercase name (`"random"`, `"fox"`, `"held"`, `"near"`).
    ///
    /// ```
    /// use animasm_testkit::cases::Workload;
    /// assert_eq!(Workload::Near.name(), "near");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Workload::Random => "random",
            Workload::Fox => "fox",
            Workload::Held => "held",
            Workload::Near => "near",
        }
    }
}

/// `n` joint pairs `(joints, blend_joints)` of a [`Workload`], seeded (the
/// Fox's pairs do not depend on the seed); translations as
/// [`Rng::translation`] (the Fox's as `fox::joint_lists_from_pairs`).
///
/// ```
/// use animasm_testkit::cases::{Workload, workload_joints};
/// let (a, b) = workload_joints(Workload::Held, 3, 24);
/// assert_eq!(a, b);
/// let (a, b) = workload_joints(Workload::Near, 3, 24);
/// // The chord between the rotations: 2 sin(5e-4 / 2), within f32 rounding.
/// let chord = |i: usize| {
///     (0..4).map(|c| f64::from(a[i].q.to_array()[c] - b[i].q.to_array()[c]).powi(2)).sum::<f64>().sqrt()
/// };
/// assert!((0..24).all(|i| (chord(i) - 5e-4).abs() < 1e-6));
/// let (a, _) = workload_joints(Workload::Fox, 0, 3000);
/// assert_eq!(a.len(), 3000);
/// ```
pub fn workload_joints(w: Workload, seed: u64, n: usize) -> (Vec<JointQuat>, Vec<JointQuat>) {
    let mut rng = Rng::new(seed);
    match w {
        Workload::Random => (rng.joints(n), rng.joints(n)),
        Workload::Fox => {
            let pairs = crate::fox::consecutive_key_pairs();
            let pairs: Vec<_> = pairs.iter().cycle().take(n).copied().collect();
            crate::fox::joint_lists_from_pairs(&pairs)
        }
        Workload::Held => {
            let a = rng.joints(n);
            (a.clone(), a)
        }
        Workload::Near => (0..n)
            .map(|_| {
                let p = rng.unit_quat_f64();
                let q = pair_at_angle(&mut rng, p, 5e-4);
                let (mut ja, mut jb) = (rng.joint(), rng.joint());
                let d: [f32; 4] = core::array::from_fn(|_| rng.range(-1e-3, 1e-3) as f32);
                let t = ja.t.to_array();
                jb.t = animasm::Vec4::new(t[0] + d[0], t[1] + d[1], t[2] + d[2], t[3]);
                (ja.q, jb.q) = (quat(p), quat(q));
                (ja, jb)
            })
            .unzip(),
    }
}
