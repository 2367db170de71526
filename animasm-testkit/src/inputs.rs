//! Deterministic input generators shared by the tests, the benchmarks and the
//! report. No dependencies beyond `animasm`'s types:
//! a SplitMix64 generator, so every run sees the same data.

use animasm::{JointMat, JointQuat, Quat, Vec4};

use crate::oracle;

/// SplitMix64 (Steele, Lea, Flood 2014): small, fast, good enough for test data.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)` with 53 random bits.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f64()
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.f64() * n as f64) as usize
    }

    /// A unit quaternion uniformly distributed on S3 (Shoemake's method),
    /// in f64.
    pub fn unit_quat_f64(&mut self) -> [f64; 4] {
        let u0 = self.f64();
        let (u1, u2) = (self.f64() * core::f64::consts::TAU, self.f64() * core::f64::consts::TAU);
        let (a, b) = ((1.0 - u0).sqrt(), u0.sqrt());
        [a * u1.sin(), a * u1.cos(), b * u2.sin(), b * u2.cos()]
    }

    /// A unit quaternion uniformly distributed on S3, rounded to f32.
    pub fn unit_quat(&mut self) -> Quat {
        Quat::from_array(self.unit_quat_f64().map(|v| v as f32))
    }

    /// A translation with components in `[-10, 10)` and `w = 1`.
    pub fn translation(&mut self) -> Vec4 {
        Vec4::new(self.range(-10.0, 10.0) as f32, self.range(-10.0, 10.0) as f32, self.range(-10.0, 10.0) as f32, 1.0)
    }

    /// A joint with a random rotation and translation.
    pub fn joint(&mut self) -> JointQuat {
        JointQuat::new(self.unit_quat(), self.translation())
    }

    /// `n` random joints.
    pub fn joints(&mut self, n: usize) -> Vec<JointQuat> {
        (0..n).map(|_| self.joint()).collect()
    }
}

/// The benchmark setup of the papers: two lists of `n` random joints and the
/// identity `index` `0..n`.
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
/// ([`oracle::affine_from_f64`]).
pub fn rigid_mat_f64(rng: &mut Rng, extent: f64) -> [f64; 12] {
    let q = rng.unit_quat_f64();
    let t = [rng.range(-extent, extent), rng.range(-extent, extent), rng.range(-extent, extent)];
    oracle::affine_from_f64(oracle::quat_to_mat3_f64(q), t)
}

/// A rigid joint matrix: [`rigid_mat_f64`] with translations in
/// `[-10, 10)^3`, computed in f64 and rounded to f32.
pub fn rigid_mat(rng: &mut Rng) -> JointMat {
    JointMat { mat: rigid_mat_f64(rng, 10.0).map(|v| v as f32) }
}

/// `n` random rigid joint matrices ([`rigid_mat`]) from `rng`.
pub fn rigid_mats_from(rng: &mut Rng, n: usize) -> Vec<JointMat> {
    (0..n).map(|_| rigid_mat(rng)).collect()
}

/// `n` random rigid joint matrices ([`rigid_mat`]).
pub fn rigid_mats(seed: u64, n: usize) -> Vec<JointMat> {
    rigid_mats_from(&mut Rng::new(seed), n)
}

/// A random parents-first hierarchy of `n` joints from `rng`: `parents[0] =
/// -1` (the root) and every other joint's parent uniform in `0..i`.
pub fn random_parents_from(rng: &mut Rng, n: usize) -> Vec<i32> {
    (0..n).map(|i| if i == 0 { -1 } else { rng.below(i) as i32 }).collect()
}

/// [`random_parents_from`] with a generator seeded with `seed`.
pub fn random_parents(seed: u64, n: usize) -> Vec<i32> {
    random_parents_from(&mut Rng::new(seed), n)
}

/// A parents-first hierarchy of `n` joints with long chains and wide fans:
/// joint 0 is the root (`-1`); each later joint hangs from the joint before
/// it half of the time and from a uniform earlier joint otherwise.
pub fn chains_and_fans_parents(rng: &mut Rng, n: usize) -> Vec<i32> {
    (0..n)
        .map(|i| match i {
            0 => -1,
            _ if rng.below(2) == 0 => i as i32 - 1,
            _ => rng.below(i) as i32,
        })
        .collect()
}
