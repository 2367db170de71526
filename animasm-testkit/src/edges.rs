//! Fixed edge-case inputs for the raw kernels: the special f32 values of
//! IEEE arithmetic ([`SPECIAL_F32`]) and the quaternions, joint pairs,
//! matrices and streams built from them, where one listing differs from
//! another or from its C, or where a lane's NaN could leak into its
//! neighbours.
//!
//! Unlike [`crate::cases`] (seeded families of hard but valid pairs, for
//! accuracy) these are mostly outside the routines' contract: zero,
//! non-unit, subnormal, huge, infinite and NaN input, signed zeros, exact
//! ties. What they break is agreement: two forms of one routine (asm and
//! intrinsics, SIMD and scalar) must give the same bits on them, a NaN must
//! stay in its lane, a translation must be copied bit for bit. Each
//! generator is a pure function: the same call gives the same bits (the few
//! random parts are drawn from [`Rng`] with a fixed seed).
//!
//! ```
//! use animasm_testkit::edges::{SPECIAL_F32, pick};
//! // Both zeros, both infinities, quiet NaNs of both signs and a signalling NaN.
//! assert!(SPECIAL_F32.iter().any(|v| v.to_bits() == 0x8000_0000));
//! assert!(SPECIAL_F32.iter().any(|v| v.is_nan() && v.to_bits() & 0x0040_0000 == 0));
//! // A test picks the values it needs by position.
//! assert_eq!(pick([0, 1, 23]).map(f32::to_bits), [0, 0x8000_0000, f32::INFINITY.to_bits()]);
//! ```

use animasm::slerp_quats::AlignedQuats;
use animasm::{JointMat, JointQuat, Quat, Vec4};

use crate::inputs::Rng;
use crate::oracle::{joint_mat_paper_f64, normalize_f64};

/// The special f32 values: where IEEE arithmetic has its special cases (signed
/// zeros, subnormals, overflow, infinities, NaN payloads and signs) and a few
/// ordinary values that are exact in every product (`0.5`, `2`, `3`...).
///
/// The order is fixed (new values go at the end): tests and the generators
/// here [`pick`] their values by position.
///
/// | positions | values |
/// |---|---|
/// | 0..=8 | `0`, `-0`, `1`, `-1`, `0.5`, `1/sqrt(2)`, `2`, `3`, `-3.5` |
/// | 9..=16 | `1e-20`, `MIN_POSITIVE` and subnormals: `MIN_POSITIVE / 4`, `-MIN_POSITIVE / 8`, `-MIN_POSITIVE`, the smallest (`1e-45`) of both signs, the largest negated |
/// | 17..=22 | `1e19`, `1e20`, `1e30`, `-3e38`, `MAX`, `MIN` |
/// | 23..=27 | `INFINITY`, `NEG_INFINITY`, `NAN`, `-NAN`, a signalling NaN (`0x7F80_0001`) |
///
/// ```
/// use animasm_testkit::edges::SPECIAL_F32;
/// assert_eq!(SPECIAL_F32.len(), 28);
/// assert!(SPECIAL_F32[11].is_subnormal() && SPECIAL_F32[14] == 1e-45);
/// assert_eq!(SPECIAL_F32[22], f32::MIN);
/// assert!(SPECIAL_F32[23..].iter().all(|v| !v.is_finite()));
/// ```
pub const SPECIAL_F32: [f32; 28] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    core::f32::consts::FRAC_1_SQRT_2,
    2.0,
    3.0,
    -3.5,
    1e-20,
    f32::MIN_POSITIVE,
    f32::MIN_POSITIVE / 4.0,
    -f32::MIN_POSITIVE / 8.0,
    -f32::MIN_POSITIVE,
    f32::from_bits(1), // 1e-45, the smallest subnormal
    -f32::from_bits(1),
    -f32::from_bits(0x007F_FFFF), // the largest subnormal, negated
    1e19,
    1e20,
    1e30,
    -3e38,
    f32::MAX,
    f32::MIN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    -f32::NAN,
    f32::from_bits(0x7F80_0001), // signalling NaN
];

/// The values of [`SPECIAL_F32`] at positions `idx`, in that order: a test's
/// own selection (and order, which seeded picks from it depend on) out of
/// the one list.
///
/// ```
/// use animasm_testkit::edges::pick;
/// const SIGNED_ZEROS: [f32; 2] = pick([1, 0]);
/// assert_eq!(SIGNED_ZEROS.map(f32::to_bits), [0x8000_0000, 0]);
/// ```
pub const fn pick<const K: usize>(idx: [usize; K]) -> [f32; K] {
    let mut out = [0.0; K];
    let mut i = 0;
    while i < K {
        out[i] = SPECIAL_F32[idx[i]];
        i += 1;
    }
    out
}

/// Special interpolation factors: ordinary ones, factors just inside the
/// ends (`0.9999999`, `1e-7`), tiny and subnormal ones, both zeros, the ends
/// and beyond (`-1`, `2`), NaN and both infinities. The raw kernels take any
/// factor (the safe functions refuse non-finite ones): these are where the
/// listings' branches and clamps (or their absence) show.
///
/// ```
/// use animasm_testkit::edges::SPECIAL_FACTORS;
/// assert!(SPECIAL_FACTORS.iter().any(|t| t.is_nan()));
/// assert!(SPECIAL_FACTORS.iter().any(|t| *t > 1.0) && SPECIAL_FACTORS.iter().any(|t| *t < 0.0));
/// assert!(SPECIAL_FACTORS.iter().any(|t| t.is_subnormal()));
/// ```
pub const SPECIAL_FACTORS: [f32; 16] = [
    0.5,
    0.3,
    0.999,
    0.9999999,
    1e-7,
    1e-30,
    1e-45,
    0.0,
    -0.0,
    -1.0,
    1.0,
    2.0,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    0.75,
];

/// 509 joints whose quaternions are not rotations, for conversions to
/// matrices: nine hand-picked ones (zero and negative-zero quaternions, the
/// identity and its negation, 180 degrees about x, `(2, 2, 2, 2)`, a NaN
/// and an infinite component with NaN, infinite, signalling-NaN and `-0.0`
/// translations), 400 whose eight lanes are random picks of 20 values of
/// [`SPECIAL_F32`] (seed 7), then 100 random rotations scaled by 0.25 to
/// 5.2 (non-unit). What they break: code that assumes a unit quaternion,
/// lets a NaN reach other joints, or does not copy a translation's bits.
///
/// ```
/// use animasm_testkit::edges::quat_joints;
/// let joints = quat_joints();
/// assert_eq!(joints.len(), 9 + 400 + 100);
/// assert_eq!(joints[0].q.to_array(), [0.0; 4]);
/// assert!(joints.iter().any(|j| j.q.to_array().iter().any(|v| v.is_nan())));
/// // The last ones are scaled rotations, 5.2 times the unit length.
/// let n = joints[508].q.to_array().iter().map(|v| v * v).sum::<f32>().sqrt();
/// assert!((n - 5.2).abs() < 1e-5);
/// ```
pub fn quat_joints() -> Vec<JointQuat> {
    let specials = pick([0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 14, 16, 17, 20, 21, 23, 24, 25, 26, 27]);
    let s = core::f32::consts::FRAC_1_SQRT_2;
    let mut rng = Rng::new(7);
    let mut out = vec![
        JointQuat::new(Quat::new(0.0, 0.0, 0.0, 0.0), Vec4::new(1.0, 2.0, 3.0, 4.0)),
        JointQuat::new(Quat::new(-0.0, -0.0, -0.0, -0.0), Vec4::new(-0.0, 0.0, -0.0, 0.0)),
        JointQuat::new(Quat::IDENTITY, Vec4::new(0.0, 0.0, 0.0, 1.0)),
        JointQuat::new(Quat::new(0.0, 0.0, 0.0, -1.0), Vec4::new(5.0, 6.0, 7.0, 1.0)),
        JointQuat::new(Quat::new(1.0, 0.0, 0.0, 0.0), Vec4::default()),
        JointQuat::new(Quat::new(0.0, 0.0, s, s), Vec4::default()),
        JointQuat::new(Quat::new(2.0, 2.0, 2.0, 2.0), Vec4::default()),
        JointQuat::new(Quat::new(f32::NAN, 0.0, 0.0, 1.0), Vec4::new(f32::NAN, f32::INFINITY, -0.0, f32::NAN)),
        JointQuat::new(Quat::new(0.0, 0.0, 0.0, f32::INFINITY), Vec4::new(f32::from_bits(0x7F80_0001), 0.0, 0.0, 1.0)),
    ];
    for _ in 0..400 {
        let mut pick = || specials[rng.below(specials.len())];
        let q = Quat::new(pick(), pick(), pick(), pick());
        let t = Vec4::new(pick(), pick(), pick(), pick());
        out.push(JointQuat::new(q, t));
    }
    // Non-unit scalings of random rotations.
    for k in 0..100 {
        let q = rng.unit_quat().to_array().map(|v| v * (0.25 + 0.05 * k as f32));
        out.push(JointQuat::new(Quat::from_array(q), rng.translation()));
    }
    out
}

/// 14 named joint pairs at the edges of the joint interpolators' arithmetic
/// (`(from, to, what)`, translations `(1, -2, 3, 1)`): identical and
/// opposite rotations, the identity, orthogonal pairs with a dot product of
/// `+0.0` and of `-0.0`, 45 degrees, a pair 1e-7 apart, zero quaternions,
/// identical non-unit ones (`cos > 1`), NaN, infinite and subnormal
/// components and a dot product that overflows. The random rotation is
/// drawn from seed 99. What they break: the shortest-arc test on a signed
/// zero, `acos`/`sin` at and beyond 1, a linear fallback's threshold, NaN
/// and overflow handling.
///
/// ```
/// use animasm_testkit::edges::joint_pairs;
/// let pairs = joint_pairs();
/// assert_eq!(pairs.len(), 14);
/// let (a, b, what) = &pairs[4];
/// assert_eq!(*what, "orthogonal (-0 dot)");
/// let p: [f32; 4] = core::array::from_fn(|i| a.q.to_array()[i] * b.q.to_array()[i]);
/// assert_eq!((((p[0] + p[1]) + p[2]) + p[3]).to_bits(), (-0.0f32).to_bits());
/// ```
pub fn joint_pairs() -> Vec<(JointQuat, JointQuat, &'static str)> {
    let t = Vec4::new(1.0, -2.0, 3.0, 1.0);
    let j = |q: [f32; 4]| JointQuat::new(Quat::from_array(q), t);
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let mut rng = Rng::new(99);
    let q = rng.unit_quat().to_array();
    let neg = q.map(|v| -v);
    let mut near = q;
    near[3] += 1e-7;
    vec![
        (j(q), j(q), "identical"),
        (j(q), j(neg), "opposite"),
        (j([0.0, 0.0, 0.0, 1.0]), j([0.0, 0.0, 0.0, 1.0]), "identity"),
        (j([1.0, 0.0, 0.0, 0.0]), j([0.0, 1.0, 0.0, 0.0]), "orthogonal (+0 dot)"),
        (j([0.0, 0.0, 0.0, 1.0]), j([-1.0, -0.0, -0.0, -0.0]), "orthogonal (-0 dot)"),
        (j([0.0, 0.0, h, h]), j([0.0, 0.0, 0.0, 1.0]), "45 degrees"),
        (j(q), j(near), "near identical"),
        (j([0.0; 4]), j(q), "zero quaternion"),
        (j([0.0; 4]), j([0.0; 4]), "two zero quaternions"),
        (j(q.map(|v| v * 1.5)), j(q.map(|v| v * 1.5)), "identical, non-unit (cos > 1)"),
        (j([f32::NAN, 0.0, 0.0, 1.0]), j(q), "NaN component"),
        (j([f32::INFINITY, 0.0, 0.0, 1.0]), j(q), "infinite component"),
        (j([1e-40, 0.0, 0.0, 1e-40]), j(q), "subnormal"),
        (j([3e38, 3e38, 0.0, 0.0]), j([3e38, 3e38, 0.0, 0.0]), "overflowing dot"),
    ]
}

/// 60 quaternion pairs for array slerps, in 32-byte-aligned storage: 20
/// special pairs (identical, negated, orthogonal with a dot product of `+0`
/// and `-0`, 45 and 90 degrees, zero, non-unit, tiny, huge, subnormal,
/// infinite and NaN components, and non-unit `to`s a little off the
/// identity), three times, with `from` and `to` swapped on every other one.
/// 60 = 48 + 12 puts every pair in both halves of a 16-wide loop, in every
/// lane, and in an 8-wide remainder. What they break: agreement of two
/// forms of one kernel (a NaN or overflow must stay in its lane).
///
/// ```
/// use animasm_testkit::edges::quat_pairs;
/// let (a, b) = quat_pairs();
/// assert_eq!((a.len(), b.len()), (60, 60));
/// // Pair 1 is the identity against its negation; pair 21 the same, swapped.
/// assert_eq!((a[1].w, b[1].w), (-1.0, 1.0));
/// assert_eq!((a[21].w, b[21].w), (1.0, -1.0));
/// assert!(a.iter().chain(b.iter()).any(|q| q.x.is_nan()));
/// ```
pub fn quat_pairs() -> (AlignedQuats, AlignedQuats) {
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let d = f32::from_bits(1);
    let list: [([f32; 4], [f32; 4]); 20] = [
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]),
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, -1.0]),
        ([0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5]),
        ([0.5, 0.5, 0.5, 0.5], [-0.5, -0.5, -0.5, -0.5]),
        ([1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0]),
        ([1.0, -0.0, -0.0, -0.0], [-0.0, 1.0, 0.0, 0.0]),
        ([h, 0.0, 0.0, h], [0.0, 0.0, 0.0, 1.0]),
        ([h, 0.0, 0.0, h], [-h, 0.0, 0.0, h]),
        ([0.0; 4], [0.0; 4]),
        ([0.0; 4], [0.0, 0.0, 0.0, 1.0]),
        ([2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0]),
        ([1e-20, 0.0, 0.0, 0.0], [1e-20, 1e-20, 0.0, 0.0]),
        ([1e20, 0.0, 0.0, 0.0], [1e20, 1e20, 0.0, 0.0]),
        ([d, d, d, d], [d, -d, d, d]),
        ([f32::INFINITY, 0.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]),
        ([f32::NAN, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0]),
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1e-4, 1.0]),
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0]),
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1.0 + f32::EPSILON]),
        ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.999_999, 1.0]),
    ];
    let mut a = AlignedQuats::new();
    let mut b = AlignedQuats::new();
    for r in 0..3 {
        for (k, (p, q)) in list.iter().enumerate() {
            let (p, q) = if (k + r) % 2 == 0 { (*p, *q) } else { (*q, *p) };
            a.push(Quat::from_array(p));
            b.push(Quat::from_array(q));
        }
    }
    (a, b)
}

/// 99 special `(r, t)` elements of a stream interpolating from the unit
/// `l` (zeux's nlerp family, `slerp_stream`): each of `l`, `-l`, a
/// quaternion orthogonal to `l` (`(-y, x, -w, z)`) and its negation, `1e3 l`,
/// `1e-3` times the orthogonal one, zero and `1e-20 l`, at each factor of
/// `0`, `1`, `0.5`, `-0`, `-0.25`, `1.25`, `3`, NaN, both infinities, `1e-30`
/// and `0.9999999`; then a NaN, an infinite and an overflowing `r` at 0.5.
/// What they break: the endpoints, extrapolation, a dot product of zero
/// (the sign decision), normalisation of zero and of huge or tiny results.
///
/// ```
/// use animasm_testkit::animasm::Quat;
/// use animasm_testkit::edges::stream_elements;
/// let l = Quat::new(0.5, -0.5, 0.5, -0.5);
/// let e = stream_elements(l);
/// assert_eq!(e.len(), 12 * 8 + 3);
/// assert_eq!(e[0], (l, 0.0));
/// assert!(e[96].0.x.is_nan() && e[97].0.x.is_infinite());
/// ```
pub fn stream_elements(l: Quat) -> Vec<(Quat, f32)> {
    let neg = |q: Quat| Quat::from_array(q.to_array().map(|v| -v));
    let scale = |q: Quat, s: f32| Quat::from_array(q.to_array().map(|v| v * s));
    let perp = Quat::new(-l.y, l.x, -l.w, l.z); // dot(l, perp) = 0 up to rounding
    let mut v = Vec::new();
    for t in [0.0, 1.0, 0.5, -0.0, -0.25, 1.25, 3.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 1e-30, 0.999_999_9] {
        for r in [l, neg(l), perp, neg(perp), scale(l, 1e3), scale(perp, 1e-3), Quat::default(), scale(l, 1e-20)] {
            v.push((r, t));
        }
    }
    v.push((Quat::new(f32::NAN, 0.0, 0.0, 1.0), 0.5));
    v.push((Quat::new(f32::INFINITY, 0.0, 0.0, 1.0), 0.5));
    v.push((Quat::new(1e30, 1e30, 0.0, 0.0), 0.5));
    v
}

/// 18 named joint matrices in the papers' convention (row vectors, the
/// transpose of glTF's rotation, as `mats_to_quats` takes them) that sit on
/// the ties of a matrix-to-quaternion conversion: the identity, a trace of
/// exactly 0 (two ways), two equal largest diagonal elements (each pair),
/// 180 degrees about each axis, and beyond rotations: the zero matrix,
/// `diag(0, 0, -1)`, negative zeros, NaN, infinite, subnormal and huge
/// diagonals, a trace of exactly -1 and a rotation scaled by 2. The
/// rotations are [`joint_mat_paper_f64`] of the normalised quaternion,
/// translation `(1, -2, 3)`, rounded to f32. What they break: the choice of
/// the largest of `w, x, y, z` (a `>` against a `>=` picks another branch on
/// a tie), `sqrt` of a negative or zero, NaN propagation.
///
/// ```
/// use animasm_testkit::edges::mats;
/// let m = mats();
/// assert_eq!(m.len(), 18);
/// let (what, tie) = m[1];
/// assert_eq!(what, "trace exactly 0");
/// assert_eq!(tie.mat[0] + tie.mat[5] + tie.mat[10], 0.0);
/// ```
pub fn mats() -> Vec<(&'static str, JointMat)> {
    let mat_of =
        |q: [f64; 4], t: [f64; 3]| JointMat { mat: joint_mat_paper_f64(normalize_f64(q), t).map(|v| v as f32) };
    let h = 0.5f64;
    let a = core::f64::consts::FRAC_1_SQRT_2;
    let t = [1.0, -2.0, 3.0];
    let diag = |d: [f32; 3]| {
        let mut m = JointMat::IDENTITY;
        m.mat[0] = d[0];
        m.mat[5] = d[1];
        m.mat[10] = d[2];
        m
    };
    vec![
        ("identity", JointMat::IDENTITY),
        ("trace exactly 0", mat_of([h, h, -h, h], t)),
        ("trace exactly 0, w and x opposite", mat_of([-h, h, h, h], t)),
        ("m00 == m11 > m22", mat_of([a, -a, 0.0, 0.0], t)),
        ("m00 == m22 > m11", mat_of([a, 0.0, -a, 0.0], t)),
        ("m11 == m22 > m00", mat_of([0.0, a, -a, 0.0], t)),
        ("180 degrees about x", mat_of([1.0, 0.0, 0.0, 0.0], t)),
        ("180 degrees about y", mat_of([0.0, 1.0, 0.0, 0.0], t)),
        ("180 degrees about z", mat_of([0.0, 0.0, 1.0, 0.0], t)),
        ("zero matrix", diag([0.0; 3])),
        ("diag(0, 0, -1)", diag([0.0, 0.0, -1.0])),
        ("negative zeros", diag([-0.0; 3])),
        ("NaN diagonal", diag([f32::NAN, 1.0, 1.0])),
        ("inf, -inf diagonal", diag([f32::INFINITY, f32::NEG_INFINITY, 0.0])),
        ("trace -1 exactly", diag([-1.0, 0.0, 0.0])),
        ("subnormal", diag([1e-40, -1e-40, 1e-40])),
        ("huge", diag([3e38, 3e38, 3e38])),
        ("scaled rotation", {
            let mut m = mat_of([0.1, 0.2, 0.3, 0.9], t);
            m.mat.iter_mut().for_each(|v| *v *= 2.0);
            m
        }),
    ]
}

/// 2018 pairs of 3x4 matrices whose every element is one of 18 values of
/// [`SPECIAL_F32`] (both zeros, `±1`, `0.5`, `3`, `MIN_POSITIVE`, the
/// smallest subnormal of both signs, `1e-20`, `1e20`, `±MAX`, both
/// infinities, NaN of both signs and a signalling NaN): first 18 pairs in
/// which the values are cycled so that every value sits in every element,
/// then 2000 pairs of random picks (seed 7). For matrix products
/// (`transform_joints`): what they break is agreement of two forms that
/// sum in the same order (signed zeros, `0 * inf`, overflow, NaN payloads).
///
/// ```
/// use animasm_testkit::edges::{SPECIAL_F32, mat_pairs};
/// let (a, b) = mat_pairs();
/// assert_eq!((a.len(), b.len()), (2018, 2018));
/// assert!(a.iter().chain(&b).all(|m| m.mat.iter().all(|v| SPECIAL_F32.iter().any(|s| s.to_bits() == v.to_bits()))));
/// // Element 0 of the first 18 `a`s goes through all 18 values.
/// let first: std::collections::HashSet<u32> = a[..18].iter().map(|m| m.mat[0].to_bits()).collect();
/// assert_eq!(first.len(), 18);
/// ```
pub fn mat_pairs() -> (Vec<JointMat>, Vec<JointMat>) {
    const VALUES: [f32; 18] = pick([0, 1, 2, 3, 4, 7, 10, 14, 15, 9, 18, 21, 22, 23, 24, 25, 26, 27]);
    let l = VALUES.len();
    let mut a = Vec::new();
    let mut b = Vec::new();
    for s in 0..l {
        a.push(JointMat { mat: core::array::from_fn(|e| VALUES[(e + s) % l]) });
        b.push(JointMat { mat: core::array::from_fn(|e| VALUES[(5 * e + 2 * s + 1) % l]) });
    }
    let mut rng = Rng::new(7);
    for _ in 0..2000 {
        a.push(JointMat { mat: core::array::from_fn(|_| VALUES[rng.below(l)]) });
        b.push(JointMat { mat: core::array::from_fn(|_| VALUES[rng.below(l)]) });
    }
    (a, b)
}
