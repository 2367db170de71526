//! Seeded, reproducible input generators: random unit quaternions, joints,
//! joint lists, rigid and general 3x4 matrices, interpolation streams,
//! hierarchies (parents first, shuffled, with several roots) and whole
//! skeletons.
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
    forest_parents(rng, n, |i| i == 0)
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

/// A random parents-first forest of `n` joints from `rng`: joint `i` is a
/// root (`-1`) where `is_root(i)` (joint 0 must be one), and otherwise hangs
/// from a uniform earlier joint (one word per joint that is not a root).
/// [`random_parents_from`] is the one-root case `|i| i == 0`.
///
/// ```
/// use animasm_testkit::inputs::{forest_parents, random_parents_from, Rng};
/// // Three roots first, or a root every seventh joint.
/// let three = forest_parents(&mut Rng::new(1), 30, |i| i < 3);
/// assert_eq!(three.iter().filter(|&&p| p < 0).count(), 3);
/// let sevens = forest_parents(&mut Rng::new(1), 30, |i| i % 7 == 0);
/// assert!(sevens.iter().enumerate().all(|(i, &p)| (p < 0) == (i % 7 == 0) && p < i as i32));
/// assert_eq!(forest_parents(&mut Rng::new(2), 9, |i| i == 0), random_parents_from(&mut Rng::new(2), 9));
/// ```
pub fn forest_parents(rng: &mut Rng, n: usize, is_root: impl Fn(usize) -> bool) -> Vec<i32> {
    (0..n).map(|i| if is_root(i) { -1 } else { rng.below(i) as i32 }).collect()
}

/// A uniformly random permutation of `0..n` (Fisher-Yates from the end, one
/// word per element after the first).
///
/// ```
/// use animasm_testkit::inputs::{permutation, Rng};
/// let mut p = permutation(&mut Rng::new(3), 10);
/// assert_ne!(p, (0..10).collect::<Vec<_>>());
/// p.sort();
/// assert_eq!(p, (0..10).collect::<Vec<_>>());
/// ```
pub fn permutation(rng: &mut Rng, n: usize) -> Vec<usize> {
    let mut perm: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        perm.swap(i, rng.below(i + 1));
    }
    perm
}

/// `parents` with its joints renumbered by `perm` (`perm[old] = new`): the
/// same hierarchy in another order, in general no longer parents first
/// (what `animasm::Skeleton::new` sorts out).
///
/// ```
/// use animasm_testkit::inputs::relabel;
/// // A chain 0 <- 1 <- 2, numbered backwards: children before parents.
/// assert_eq!(relabel(&[-1, 0, 1], &[2, 1, 0]), [1, 2, -1]);
/// ```
pub fn relabel(parents: &[i32], perm: &[usize]) -> Vec<i32> {
    let mut out = vec![0; parents.len()];
    for (old, &p) in parents.iter().enumerate() {
        out[perm[old]] = if p < 0 { -1 } else { perm[p as usize] as i32 };
    }
    out
}

/// `parents` renumbered by a random [`permutation`] drawn from `rng`:
/// `(shuffled parents, perm)` with `perm[old] = new`.
///
/// ```
/// use animasm_testkit::inputs::{relabel, shuffle_parents, Rng};
/// let parents = [-1, 0, 0, 1, 3, -1, 5];
/// let (shuffled, perm) = shuffle_parents(&mut Rng::new(4), &parents);
/// assert_eq!(shuffled, relabel(&parents, &perm));
/// // Joint `old` is `perm[old]` now, and its parent is the image of its old parent.
/// assert_eq!(shuffled[perm[4]], perm[3] as i32);
/// assert_eq!(shuffled.iter().filter(|&&p| p < 0).count(), 2);
/// ```
pub fn shuffle_parents(rng: &mut Rng, parents: &[i32]) -> (Vec<i32>, Vec<usize>) {
    let perm = permutation(rng, parents.len());
    (relabel(parents, &perm), perm)
}

/// A forest of `n` joints with 1 to 3 roots (drawn first), parents
/// first ([`forest_parents`]), then [`shuffle_parents`]: `(parents first,
/// shuffled, perm)` with `perm[old] = new`. The shuffled list has parents
/// after their children and several roots, the input `Skeleton::new` must
/// reorder.
///
/// ```
/// use animasm_testkit::inputs::{relabel, shuffled_forest, Rng};
/// let (parents, shuffled, perm) = shuffled_forest(&mut Rng::new(5), 40);
/// let roots = parents.iter().filter(|&&p| p < 0).count();
/// assert!((1..=3).contains(&roots) && parents[..roots].iter().all(|&p| p < 0));
/// assert_eq!(shuffled, relabel(&parents, &perm));
/// ```
pub fn shuffled_forest(rng: &mut Rng, n: usize) -> (Vec<i32>, Vec<i32>, Vec<usize>) {
    let roots = 1 + rng.below(3);
    let parents = forest_parents(rng, n, |i| i < roots);
    let (shuffled, perm) = shuffle_parents(rng, &parents);
    (parents, shuffled, perm)
}

/// A random skeleton of `n` joints in one draw from `seed`: the parents
/// ([`random_parents_from`]) first, then `n` [`rigid_mat`]s: `(mats,
/// parents)`, the input of `transform_skeleton` (the matrices as locals).
///
/// ```
/// use animasm_testkit::inputs::{random_parents_from, random_skeleton, rigid_mats_from, Rng};
/// let (mats, parents) = random_skeleton(6, 20);
/// let mut rng = Rng::new(6);
/// assert_eq!(parents, random_parents_from(&mut rng, 20));
/// assert_eq!(mats, rigid_mats_from(&mut rng, 20));
/// ```
pub fn random_skeleton(seed: u64, n: usize) -> (Vec<JointMat>, Vec<i32>) {
    let mut rng = Rng::new(seed);
    let parents = random_parents_from(&mut rng, n);
    (rigid_mats_from(&mut rng, n), parents)
}

/// A skeleton in model space: its hierarchy, its f64 local matrices and its
/// model matrices composed in f64 and rounded once to f32. What
/// [`model_skeleton`] returns.
///
/// ```
/// use animasm_testkit::inputs::model_skeleton;
/// let sk = model_skeleton(7, 5);
/// assert_eq!((sk.parents.len(), sk.locals.len(), sk.globals.len()), (5, 5, 5));
/// ```
#[derive(Clone, Debug)]
pub struct ModelSkeleton {
    /// Parents first, joint 0 the root ([`chains_and_fans_parents`]).
    pub parents: Vec<i32>,
    /// The local matrices ([`rigid_mat_f64`], translations in `[-10, 10)^3`).
    pub locals: Vec<[f64; 12]>,
    /// The model matrices: [`oracle::local_to_model_f64`] of the locals,
    /// rounded to f32 (the input of `untransform_skeleton`).
    pub globals: Vec<JointMat>,
}

/// A random skeleton of `n` joints in model space, from `seed`: a
/// [`chains_and_fans_parents`] hierarchy (long chains accumulate error),
/// then `n` [`rigid_mat_f64`] locals, composed in f64 and rounded to f32
/// once. Its exact locals are known, so an inverse transform
/// (`untransform_skeleton`) can be measured against them.
///
/// ```
/// use animasm_testkit::inputs::model_skeleton;
/// use animasm_testkit::oracle::{mats_f64, model_to_local_f64};
/// let sk = model_skeleton(8, 12);
/// assert_eq!(sk.parents[0], -1);
/// // The f64 inverse of the rounded globals is the locals, up to f32 rounding.
/// let back = model_to_local_f64(&mats_f64(&sk.globals), &sk.parents);
/// for (a, b) in back.iter().zip(&sk.locals) {
///     assert!(a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4));
/// }
/// ```
pub fn model_skeleton(seed: u64, n: usize) -> ModelSkeleton {
    let mut rng = Rng::new(seed);
    let parents = chains_and_fans_parents(&mut rng, n);
    let locals: Vec<[f64; 12]> = (0..n).map(|_| rigid_mat_f64(&mut rng, 10.0)).collect();
    let globals =
        oracle::local_to_model_f64(&locals, &parents).iter().map(|m| JointMat { mat: m.map(|v| v as f32) }).collect();
    ModelSkeleton { parents, locals, globals }
}

/// `n` random rigid joint matrices in the papers' convention (row vectors:
/// the rotation block transposed, as `mats_to_quats` and *From Quaternion
/// to Matrix and Back* take them): [`rigid_mats`] with the 3x3 block
/// transposed, which is a rotation too; the translation stays in column 3.
///
/// ```
/// use animasm_testkit::inputs::{paper_mats, rigid_mats};
/// let (p, r) = (paper_mats(9, 3), rigid_mats(9, 3));
/// assert_eq!((p[1].mat[1], p[1].mat[4]), (r[1].mat[4], r[1].mat[1]));
/// assert_eq!(p[2].mat[3], r[2].mat[3]);
/// ```
pub fn paper_mats(seed: u64, n: usize) -> Vec<JointMat> {
    rigid_mats(seed, n)
        .into_iter()
        .map(|m| JointMat {
            mat: core::array::from_fn(|i| if i % 4 == 3 { m.mat[i] } else { m.mat[(i % 4) * 4 + i / 4] }),
        })
        .collect()
}

/// A general affine joint matrix from `rng`: every element uniform in `[-s,
/// s)` for a scale `s = 2^k`, `k` uniform in `[-8, 8)`, the translation
/// column ten times larger (13 words). Not a rotation: products of these
/// have cancellations and magnitudes that rigid matrices never reach.
///
/// ```
/// use animasm_testkit::inputs::{general_mat, Rng};
/// let m = general_mat(&mut Rng::new(10));
/// let s = m.mat.iter().enumerate().filter(|(i, _)| i % 4 != 3).map(|(_, v)| v.abs()).fold(0.0, f32::max);
/// assert!(s < 256.0 && s > 0.0);
/// ```
pub fn general_mat(rng: &mut Rng) -> JointMat {
    let s = 2f64.powf(rng.range(-8.0, 8.0));
    JointMat { mat: core::array::from_fn(|i| (rng.range(-s, s) * if i % 4 == 3 { 10.0 } else { 1.0 }) as f32) }
}

/// `n` joint matrices from `rng`, each a fair coin's pick (one word) of a
/// rigid one ([`rigid_mat_f64`] with translations in `[-100, 100)`, rounded
/// to f32) or a [`general_mat`]: the input of the 3x4 products
/// (`transform_joints`).
///
/// ```
/// use animasm_testkit::inputs::{rigid_and_general_mats, Rng};
/// let mats = rigid_and_general_mats(&mut Rng::new(11), 100);
/// let rigid = |m: &animasm_testkit::animasm::JointMat| (m.mat[0] * m.mat[0] + m.mat[4] * m.mat[4] + m.mat[8] * m.mat[8] - 1.0).abs() < 1e-5;
/// let k = mats.iter().filter(|m| rigid(m)).count();
/// assert!(k > 30 && k < 70, "{k}");
/// ```
pub fn rigid_and_general_mats(rng: &mut Rng, n: usize) -> Vec<JointMat> {
    (0..n)
        .map(|_| {
            if rng.below(2) == 0 {
                JointMat { mat: rigid_mat_f64(rng, 100.0).map(|v| v as f32) }
            } else {
                general_mat(rng)
            }
        })
        .collect()
}

/// A random interpolation stream from `rng`, in the layout of zeux's nlerp
/// family and `slerp_stream` (one `l`, per element an `r` and a `t`): a
/// unit `l`, `n` unit `r`s, then `n` factors `t`, uniform in `[0, 1)`
/// except every eighth, uniform in `[-0.5, 1.5)` (extrapolation).
///
/// ```
/// use animasm_testkit::inputs::{streams, Rng};
/// let (l, r, t) = streams(&mut Rng::new(12), 64);
/// assert_eq!((r.len(), t.len()), (64, 64));
/// assert!((l.to_array().iter().map(|v| v * v).sum::<f32>() - 1.0).abs() < 1e-6);
/// assert!(t.iter().enumerate().all(|(i, t)| i % 8 == 7 || (0.0..1.0).contains(t)));
/// assert!(t.iter().any(|t| !(0.0..=1.0).contains(t)));
/// ```
pub fn streams(rng: &mut Rng, n: usize) -> (Quat, Vec<Quat>, Vec<f32>) {
    let l = rng.unit_quat();
    let r = (0..n).map(|_| rng.unit_quat()).collect();
    let t = (0..n).map(|i| if i % 8 == 7 { rng.range(-0.5, 1.5) } else { rng.f64() } as f32).collect();
    (l, r, t)
}
