//! Seeded, reproducible input generators: random unit quaternions, joints,
//! joint lists, rigid 3x4 matrices and parents-first hierarchies.
//!
//! Everything is drawn from [`Rng`], a SplitMix64 generator: the same seed
//! gives the same data on every machine and every run, so a failing input
//! can be named by its seed and index and replayed. animasm's own tests,
//! benchmarks and report draw from it too.
//!
//! Conventions (those of [`animasm`]'s types):
//!
//! - quaternions are `[x, y, z, w]` (`w` last), unit length, f32 values
//!   drawn in f64 and rounded once;
//! - translations are `Vec4` with `w = 1`;
//! - 3x4 matrices are row-major (`[row * 4 + col]`), rotation in columns
//!   0..3 and translation in column 3, for column vectors (`v' = R v + t`),
//!   as [`crate::oracle::quat_to_mat3_f64`] and glTF;
//! - hierarchies are `parents[]` lists, parents first: `parents[0] = -1`
//!   (the root) and `parents[i] < i` for every other joint, the layout the
//!   skeleton routines and [`crate::oracle::local_to_model_f64`] take.
//!
//! ```
//! use animasm_testkit::error::rotation_angle;
//! use animasm_testkit::inputs::Rng;
//! use animasm_testkit::oracle::slerp_f64;
//!
//! // Reproducible pairs: the same seed gives the same quaternions.
//! let mut rng = Rng::new(42);
//! let (a, b) = (rng.unit_quat(), rng.unit_quat());
//! let mut again = Rng::new(42);
//! assert_eq!((a, b), (again.unit_quat(), again.unit_quat()));
//!
//! // The f64 slerp of an f32 pair at t = 0 is the first quaternion, widened.
//! let (a64, b64) = (a.to_array().map(f64::from), b.to_array().map(f64::from));
//! assert!(rotation_angle(slerp_f64(a64, b64, 0.0), a64) < 1e-15);
//! ```

use animasm::{JointMat, JointQuat, Quat, Vec4};

use crate::oracle;

/// A seeded random generator: SplitMix64 (Steele, Lea, Flood 2014), small,
/// fast and good enough for test data, with the draws the tests need on top
/// (uniform floats, unit quaternions, joints).
///
/// Two generators with the same seed produce the same sequence, and each
/// draw consumes a fixed number of 64-bit words (documented per method), so
/// the inputs of a test are fixed by its seed. Clone a generator to replay
/// from the current position.
///
/// ```
/// use animasm_testkit::inputs::Rng;
/// let mut rng = Rng::new(7);
/// let first: Vec<f64> = (0..4).map(|_| rng.f64()).collect();
/// let mut replay = Rng::new(7);
/// assert_eq!(first, (0..4).map(|_| replay.f64()).collect::<Vec<_>>());
/// // A clone continues where the original is.
/// let mut fork = rng.clone();
/// assert_eq!(rng.next_u64(), fork.next_u64());
/// ```
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed. Any `u64` is a good seed, 0 included.
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let (mut a, mut b, mut c) = (Rng::new(7), Rng::new(7), Rng::new(8));
    /// let (x, y, z) = (a.next_u64(), b.next_u64(), c.next_u64());
    /// assert_eq!(x, y); // same seed, same sequence
    /// assert_ne!(x, z); // another seed, another sequence
    /// ```
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits: one SplitMix64 step, the word every other
    /// draw is made of. The sequence is the reference SplitMix64's, so other
    /// languages' implementations reproduce it from the same seed.
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// // The first output of SplitMix64 seeded with 0.
    /// assert_eq!(Rng::new(0).next_u64(), 0xE220_A839_7B1D_CDAF);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 53 random bits (one word): every value is a
    /// multiple of 2^-53, and 1.0 never comes.
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let mut rng = Rng::new(1);
    /// for _ in 0..1000 {
    ///     let u = rng.f64();
    ///     assert!((0.0..1.0).contains(&u));
    ///     assert_eq!(u * (1u64 << 53) as f64, (u * (1u64 << 53) as f64).floor());
    /// }
    /// ```
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[lo, hi)` (one word), `lo < hi`.
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let mut rng = Rng::new(2);
    /// let v: Vec<f64> = (0..1000).map(|_| rng.range(-3.0, 5.0)).collect();
    /// assert!(v.iter().all(|x| (-3.0..5.0).contains(x)));
    /// // Both halves of the range are drawn.
    /// assert!(v.iter().any(|&x| x < 1.0) && v.iter().any(|&x| x >= 1.0));
    /// ```
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f64()
    }

    /// Uniform in `0..n` (one word), `n >= 1`.
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let mut rng = Rng::new(3);
    /// let mut seen = [false; 6];
    /// for _ in 0..200 {
    ///     seen[rng.below(6)] = true; // never 6 or more
    /// }
    /// assert!(seen.iter().all(|&s| s)); // every value of 0..6 comes
    /// ```
    pub fn below(&mut self, n: usize) -> usize {
        (self.f64() * n as f64) as usize
    }

    /// A unit quaternion `[x, y, z, w]` uniformly distributed on S3
    /// (Shoemake's method, three words), in f64: a uniformly random rotation.
    /// Either sign of `w` comes, so pairs of them include both arcs.
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let mut rng = Rng::new(4);
    /// for _ in 0..1000 {
    ///     let q = rng.unit_quat_f64();
    ///     let norm = q.iter().map(|v| v * v).sum::<f64>().sqrt();
    ///     assert!((norm - 1.0).abs() < 1e-12);
    /// }
    /// ```
    pub fn unit_quat_f64(&mut self) -> [f64; 4] {
        let u0 = self.f64();
        let (u1, u2) = (self.f64() * core::f64::consts::TAU, self.f64() * core::f64::consts::TAU);
        let (a, b) = ((1.0 - u0).sqrt(), u0.sqrt());
        [a * u1.sin(), a * u1.cos(), b * u2.sin(), b * u2.cos()]
    }

    /// A unit quaternion uniformly distributed on S3, drawn in f64
    /// ([`Rng::unit_quat_f64`], three words) and rounded to f32: unit length
    /// to within f32 rounding.
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let q = Rng::new(5).unit_quat();
    /// let norm = q.to_array().iter().map(|&v| f64::from(v).powi(2)).sum::<f64>().sqrt();
    /// assert!((norm - 1.0).abs() < 1e-6);
    /// // The same draw as the f64 one, rounded.
    /// assert_eq!(q.to_array(), Rng::new(5).unit_quat_f64().map(|v| v as f32));
    /// ```
    pub fn unit_quat(&mut self) -> Quat {
        Quat::from_array(self.unit_quat_f64().map(|v| v as f32))
    }

    /// A translation with `x`, `y`, `z` in `[-10, 10)` and `w = 1` (three
    /// words), the layout of [`animasm::JointQuat::t`].
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let t = Rng::new(6).translation();
    /// assert_eq!(t.w, 1.0);
    /// assert!([t.x, t.y, t.z].iter().all(|v| (-10.0..10.0).contains(v)));
    /// ```
    pub fn translation(&mut self) -> Vec4 {
        Vec4::new(self.range(-10.0, 10.0) as f32, self.range(-10.0, 10.0) as f32, self.range(-10.0, 10.0) as f32, 1.0)
    }

    /// A joint: a [`Rng::unit_quat`] rotation, then a [`Rng::translation`]
    /// (six words).
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let j = Rng::new(8).joint();
    /// let mut rng = Rng::new(8);
    /// assert_eq!((j.q, j.t), (rng.unit_quat(), rng.translation()));
    /// assert_eq!(j.t.w, 1.0);
    /// ```
    pub fn joint(&mut self) -> JointQuat {
        JointQuat::new(self.unit_quat(), self.translation())
    }

    /// `n` random joints ([`Rng::joint`] `n` times).
    ///
    /// ```
    /// use animasm_testkit::inputs::Rng;
    /// let mut rng = Rng::new(9);
    /// let joints = rng.joints(3);
    /// let mut again = Rng::new(9);
    /// assert_eq!(joints, [again.joint(), again.joint(), again.joint()]);
    /// ```
    pub fn joints(&mut self, n: usize) -> Vec<JointQuat> {
        (0..n).map(|_| self.joint()).collect()
    }
}

/// The benchmark setup of the papers' `SlerpJoints`/`LerpJoints`: two lists
/// of `n` random joints (`joints`, then `blend`, from one generator seeded
/// with `seed`) and the identity `index` `0..n`.
///
/// ```
/// use animasm_testkit::inputs::{joint_lists, Rng};
/// let (joints, blend, index) = joint_lists(11, 5);
/// assert_eq!((joints.len(), blend.len()), (5, 5));
/// assert_eq!(index, [0, 1, 2, 3, 4]);
/// let mut rng = Rng::new(11);
/// assert_eq!((rng.joints(5), rng.joints(5)), (joints, blend));
/// ```
pub fn joint_lists(seed: u64, n: usize) -> (Vec<JointQuat>, Vec<JointQuat>, Vec<i32>) {
    let mut rng = Rng::new(seed);
    let joints = rng.joints(n);
    let blend = rng.joints(n);
    (joints, blend, (0..n as i32).collect())
}

/// A rigid 3x4 matrix in f64: the rotation of a uniform unit quaternion (the
/// standard matrix for column vectors, `R[0][1] = 2(xy - wz)`,
/// [`oracle::quat_to_mat3_f64`]) in columns 0..3 and a translation in
/// `[-extent, extent)^3` in column 3, row-major `[row * 4 + col]`
/// ([`oracle::affine_from_f64`]). Draws a [`Rng::unit_quat_f64`], then the
/// three translation components (six words).
///
/// ```
/// use animasm_testkit::inputs::{rigid_mat_f64, Rng};
/// let m = rigid_mat_f64(&mut Rng::new(12), 2.0);
/// let row = |r: usize| [m[r * 4], m[r * 4 + 1], m[r * 4 + 2]];
/// let dot = |a: [f64; 3], b: [f64; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
/// // The 3x3 part is a rotation: orthonormal rows.
/// for i in 0..3 {
///     for j in 0..3 {
///         let want = if i == j { 1.0 } else { 0.0 };
///         assert!((dot(row(i), row(j)) - want).abs() < 1e-12);
///     }
/// }
/// // Column 3 is the translation.
/// assert!([m[3], m[7], m[11]].iter().all(|v| (-2.0..2.0).contains(v)));
/// ```
pub fn rigid_mat_f64(rng: &mut Rng, extent: f64) -> [f64; 12] {
    let q = rng.unit_quat_f64();
    let t = [rng.range(-extent, extent), rng.range(-extent, extent), rng.range(-extent, extent)];
    oracle::affine_from_f64(oracle::quat_to_mat3_f64(q), t)
}

/// A rigid joint matrix: [`rigid_mat_f64`] with translations in
/// `[-10, 10)^3`, computed in f64 and rounded to f32 (the input of
/// `transform_skeleton` and friends).
///
/// ```
/// use animasm_testkit::inputs::{rigid_mat, rigid_mat_f64, Rng};
/// let m = rigid_mat(&mut Rng::new(13));
/// assert_eq!(m.mat, rigid_mat_f64(&mut Rng::new(13), 10.0).map(|v| v as f32));
/// ```
pub fn rigid_mat(rng: &mut Rng) -> JointMat {
    JointMat { mat: rigid_mat_f64(rng, 10.0).map(|v| v as f32) }
}

/// `n` random rigid joint matrices ([`rigid_mat`]) from `rng`, which moves
/// on: consecutive calls give new matrices.
///
/// ```
/// use animasm_testkit::inputs::{rigid_mat, rigid_mats_from, Rng};
/// let mut rng = Rng::new(14);
/// let (first, second) = (rigid_mats_from(&mut rng, 2), rigid_mats_from(&mut rng, 2));
/// assert_ne!(first, second);
/// let mut again = Rng::new(14);
/// assert_eq!(first, [rigid_mat(&mut again), rigid_mat(&mut again)]);
/// ```
pub fn rigid_mats_from(rng: &mut Rng, n: usize) -> Vec<JointMat> {
    (0..n).map(|_| rigid_mat(rng)).collect()
}

/// `n` random rigid joint matrices ([`rigid_mat`]) from a generator seeded
/// with `seed`.
///
/// ```
/// use animasm_testkit::inputs::{rigid_mats, rigid_mats_from, Rng};
/// let mats = rigid_mats(15, 4);
/// assert_eq!(mats.len(), 4);
/// assert_eq!(mats, rigid_mats_from(&mut Rng::new(15), 4));
/// ```
pub fn rigid_mats(seed: u64, n: usize) -> Vec<JointMat> {
    rigid_mats_from(&mut Rng::new(seed), n)
}

/// A random parents-first hierarchy of `n` joints from `rng`: `parents[0] =
/// -1` (the root) and every other joint's parent uniform in `0..i` (one
/// word per joint after the root).
///
/// ```
/// use animasm_testkit::inputs::{random_parents_from, Rng};
/// let parents = random_parents_from(&mut Rng::new(16), 50);
/// assert_eq!(parents[0], -1);
/// assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| 0 <= p && (p as usize) < i));
/// ```
pub fn random_parents_from(rng: &mut Rng, n: usize) -> Vec<i32> {
    (0..n).map(|i| if i == 0 { -1 } else { rng.below(i) as i32 }).collect()
}

/// [`random_parents_from`] with a generator seeded with `seed`: a
/// parents-first hierarchy ready for
/// [`oracle::local_to_model_f64`] and the skeleton routines.
///
/// ```
/// use animasm_testkit::inputs::{random_parents, rigid_mat_f64, Rng};
/// use animasm_testkit::oracle::{local_to_model_f64, model_to_local_f64};
/// let parents = random_parents(17, 8);
/// assert_eq!(parents, random_parents(17, 8)); // reproducible
/// assert_eq!(parents[0], -1);
/// // Local to model and back is the identity, up to f64 rounding.
/// let mut rng = Rng::new(18);
/// let locals: Vec<[f64; 12]> = (0..8).map(|_| rigid_mat_f64(&mut rng, 1.0)).collect();
/// let back = model_to_local_f64(&local_to_model_f64(&locals, &parents), &parents);
/// for (a, b) in back.iter().zip(&locals) {
///     assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12));
/// }
/// ```
pub fn random_parents(seed: u64, n: usize) -> Vec<i32> {
    random_parents_from(&mut Rng::new(seed), n)
}

/// A parents-first hierarchy of `n` joints with long chains and wide fans:
/// joint 0 is the root (`-1`); each later joint hangs from the joint before
/// it half of the time and from a uniform earlier joint otherwise (one or
/// two words per joint after the root). The chains make errors accumulate
/// down long parent paths, as in a real rig's spine and tail.
///
/// ```
/// use animasm_testkit::inputs::{chains_and_fans_parents, Rng};
/// let parents = chains_and_fans_parents(&mut Rng::new(19), 1000);
/// assert_eq!(parents[0], -1);
/// assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| 0 <= p && (p as usize) < i));
/// // About half of the joints (or more) hang from the joint just before them.
/// let chained = parents.iter().enumerate().filter(|&(i, &p)| p == i as i32 - 1).count();
/// assert!(chained > 450, "{chained}");
/// ```
pub fn chains_and_fans_parents(rng: &mut Rng, n: usize) -> Vec<i32> {
    (0..n)
        .map(|i| match i {
            0 => -1,
            _ if rng.below(2) == 0 => i as i32 - 1,
            _ => rng.below(i) as i32,
        })
        .collect()
}
