//! The one answer: every successor form of the seven id Software routines
//! (and of the two pose routines, `slerp_pose` and `lerp_pose`, which chain
//! them)
//! ([`Origin::Successor`]: `Impl::Portable`, `Impl::Avx2`, `Impl::Avx512`
//! (all but the two skeleton routines; where the CPU has AVX-512),
//! `Impl::Neon`, and whatever `Impl::Deterministic` picks) gives the same
//! bits on the
//! same inputs, and those bits are the committed golden digests of
//! `tests/golden/digests.txt`, on `x86_64` natively and on `aarch64` (under
//! qemu in `.ci/run`).
//!
//! The inputs are built here from a seeded integer generator and the
//! correctly rounded operations only (`+`, `-`, `*`, `/`, `sqrt`; no `sin`,
//! no `acos`, no fused operation), so they are the same bits on every
//! target; each case's table row carries the digest of its inputs too, so a
//! mismatch says whether the inputs or the outputs moved. The cases: seeded
//! random data, the hard cases (dot products of `+0.0` and `-0.0`, identical
//! and opposite quaternions, tiny angles, non-unit quaternions, the
//! matrices whose diagonal elements tie), every count from 0 to 67, index
//! lists in any order and with repeated entries, and the real poses of
//! `data/Fox.glb`.
//!
//! **When a digest changes.** Only when a successor's algorithm changes on
//! purpose: run `ANIMASM_BLESS=1 cargo test --release --test golden` to
//! rewrite the table, and say in the commit why the answer changed. A
//! digest that moves without such a change is a bug: the forms no longer
//! give the one answer.

#[path = "common/cpu.rs"]
mod cpu;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use animasm::roster::{self, Routine};
use animasm::{Impl, JointMat, JointQuat, Origin, Quat, Vec4};
use animasm_testkit::fox;

/// The committed table: `routine case inputs-digest outputs-digest`.
const TABLE: &str = "tests/golden/digests.txt";

/// FNV-1a, 64 bits, over the little-endian bytes of `words`.
fn fnv(words: impl IntoIterator<Item = u32>) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

/// splitmix64: the same sequence on every target.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `[-1, 1)`, exactly representable (24 random bits).
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 * (1.0 / 8_388_608.0) - 1.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `v / |v|`, the norm summed left to right.
fn normalize(v: [f32; 4]) -> [f32; 4] {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2] + v[3] * v[3]).sqrt();
    v.map(|c| c / n)
}

fn random_quat(rng: &mut Rng) -> [f32; 4] {
    loop {
        let v = [rng.unit(), rng.unit(), rng.unit(), rng.unit()];
        if v.iter().map(|c| c * c).sum::<f32>() > 0.01 {
            return normalize(v);
        }
    }
}

fn joint(q: [f32; 4], t: [f32; 3]) -> JointQuat {
    JointQuat::new(Quat::from_array(q), Vec4::new(t[0], t[1], t[2], 1.0))
}

fn random_joint(rng: &mut Rng) -> JointQuat {
    let q = random_quat(rng);
    joint(q, [rng.unit() * 4.0, rng.unit() * 4.0, rng.unit() * 4.0])
}

/// The 3x4 matrix of a quaternion and a translation (section 3's `M`, row
/// major, translation in column 3), computed with plain operations.
fn mat(q: [f32; 4], t: [f32; 3]) -> JointMat {
    let [x, y, z, w] = q;
    let (x2, y2, z2) = (x + x, y + y, z + z);
    let (xx, yy, zz) = (x * x2, y * y2, z * z2);
    let (xy, xz, yz) = (x * y2, x * z2, y * z2);
    let (wx, wy, wz) = (w * x2, w * y2, w * z2);
    JointMat {
        mat: [
            1.0 - yy - zz,
            xy - wz,
            xz + wy,
            t[0],
            xy + wz,
            1.0 - xx - zz,
            yz - wx,
            t[1],
            xz - wy,
            yz + wx,
            1.0 - xx - yy,
            t[2],
        ],
    }
}

fn random_mat(rng: &mut Rng) -> JointMat {
    mat(random_quat(rng), [rng.unit() * 3.0, rng.unit() * 3.0, rng.unit() * 3.0])
}

fn joint_bits(j: &[JointQuat]) -> impl Iterator<Item = u32> + '_ {
    j.iter().flat_map(|j| {
        let (q, t) = (j.q.to_array(), j.t.to_array());
        [q[0], q[1], q[2], q[3], t[0], t[1], t[2], t[3]].map(f32::to_bits)
    })
}

fn mat_bits(m: &[JointMat]) -> impl Iterator<Item = u32> + '_ {
    m.iter().flat_map(|m| m.mat.map(f32::to_bits))
}

/// One case: its name, the digest of its inputs, and a run that returns the
/// output bits of form `imp` (the routine's safe function, which must
/// succeed).
struct Case {
    name: String,
    inputs: u64,
    run: Box<dyn Fn(Impl) -> Vec<u32>>,
}

fn case(name: impl Into<String>, inputs: u64, run: impl Fn(Impl) -> Vec<u32> + 'static) -> Case {
    Case { name: name.into(), inputs, run: Box::new(run) }
}

/// The lerp factors every joint-blend case runs at.
const LERPS: [f32; 6] = [0.001, 0.25, 0.3, 0.5, 0.75, 0.999];

/// The hard joint pairs: `(from, to)`.
fn hard_joint_pairs(rng: &mut Rng) -> Vec<(JointQuat, JointQuat)> {
    let mut v = Vec::new();
    let t0 = [1.0, -2.0, 0.5];
    let t1 = [-3.0, 2.5, 0.25];
    for _ in 0..8 {
        let a = random_quat(rng);
        let perp = normalize([-a[1], a[0], -a[3], a[2]]); // a · perp = +0 or -0
        v.push((joint(a, t0), joint(a, t1))); // identical
        v.push((joint(a, t0), joint(a.map(|c| -c), t1))); // opposite
        v.push((joint(a, t0), joint(perp, t1))); // a right angle
        for eps in [1e-2, 1e-4, 1e-6, 1e-7, 1e-8] {
            let b = normalize([a[0] + eps * perp[0], a[1] + eps * perp[1], a[2] + eps * perp[2], a[3] + eps * perp[3]]);
            v.push((joint(a, t0), joint(b, t1))); // tiny angles
            v.push((joint(a, t0), joint(b.map(|c| -c), t1))); // nearly opposite
        }
        v.push((joint(a.map(|c| c * 2.0), t0), joint(perp, t0))); // non-unit, same translation
        v.push((joint(a.map(|c| c * 0.5), t1), joint(random_quat(rng), t0)));
    }
    // Dot products of exactly +0.0 and -0.0.
    v.push((joint([1.0, 0.0, 0.0, 0.0], t0), joint([0.0, 1.0, 0.0, 0.0], t1)));
    v.push((joint([1.0, 0.0, 0.0, 0.0], t0), joint([-0.0, -0.0, -0.0, -1.0], t1)));
    v.push((joint([0.0, 0.0, 0.0, 1.0], t0), joint([0.0, 0.0, -1.0, -0.0], t1)));
    v.push((joint([-0.0, 0.0, 0.0, 1.0], t0), joint([1.0, 0.0, 0.0, -0.0], t1)));
    // The identity with itself and with its negation, and zero translations.
    v.push((joint([0.0, 0.0, 0.0, 1.0], [0.0; 3]), joint([0.0, 0.0, 0.0, 1.0], [0.0; 3])));
    v.push((joint([0.0, 0.0, 0.0, 1.0], [0.0; 3]), joint([0.0, 0.0, 0.0, -1.0], [0.0; 3])));
    v
}

/// The joint-blend cases of `slerp_joints` and `lerp_joints`.
fn joint_blend_cases(safe: animasm::roster::JointBlendFn) -> Vec<Case> {
    let mut cases = Vec::new();
    let blend_case = |name: String, from: Vec<JointQuat>, to: Vec<JointQuat>, index: Vec<i32>, lerps: Vec<f32>| {
        let inputs = fnv(joint_bits(&from)
            .chain(joint_bits(&to))
            .chain(index.iter().map(|&j| j as u32))
            .chain(lerps.iter().map(|l| l.to_bits())));
        case(name, inputs, move |imp| {
            let mut out = Vec::new();
            for &lerp in &lerps {
                let mut j = from.clone();
                safe(imp, &mut j, &to, lerp, &index).unwrap();
                out.extend(joint_bits(&j));
            }
            out
        })
    };
    let mut rng = Rng(0x0060_1de4);
    // Seeded random joints, every entry once, in order.
    let n: usize = 4099;
    let from: Vec<JointQuat> = (0..n).map(|_| random_joint(&mut rng)).collect();
    let to: Vec<JointQuat> = (0..n).map(|_| random_joint(&mut rng)).collect();
    cases.push(blend_case("random".into(), from.clone(), to.clone(), (0..n as i32).collect(), LERPS.to_vec()));
    // The same lists through a shuffled index with repeated entries: 600
    // entries over the first 97 joints (so every group has repeats), and a
    // lerp drawn at random.
    let index: Vec<i32> = (0..600).map(|_| rng.below(97) as i32).collect();
    let lerps = vec![0.5 + 0.4 * rng.unit(), 0.3];
    cases.push(blend_case("repeated-index".into(), from.clone(), to.clone(), index, lerps));
    // A permutation (every joint once, out of order).
    let mut perm: Vec<i32> = (0..n as i32).collect();
    for i in (1..perm.len()).rev() {
        perm.swap(i, rng.below(i + 1));
    }
    cases.push(blend_case("permuted-index".into(), from.clone(), to.clone(), perm, vec![0.3, 0.75]));
    // Every count from 0 to 67, each from the same lists.
    let (f67, t67) = (from[..67].to_vec(), to[..67].to_vec());
    let mut tails = Vec::new();
    for count in 0..=67 {
        tails.push(blend_case(String::new(), f67.clone(), t67.clone(), (0..count).collect(), vec![0.3]));
    }
    let inputs = fnv(tails.iter().map(|c| c.inputs as u32));
    cases.push(case("counts-0-to-67", inputs, move |imp| tails.iter().flat_map(|c| (c.run)(imp)).collect()));
    // The hard pairs.
    let (hf, ht): (Vec<JointQuat>, Vec<JointQuat>) = hard_joint_pairs(&mut rng).into_iter().unzip();
    let all = (0..hf.len() as i32).collect();
    cases.push(blend_case("hard-pairs".into(), hf, ht, all, LERPS.to_vec()));
    // The Fox's consecutive keyframes (2460 real pairs).
    let (ff, ft) = fox::joint_lists_from_pairs(&fox::consecutive_key_pairs());
    let all = (0..ff.len() as i32).collect();
    cases.push(blend_case("fox-keys".into(), ff, ft, all, vec![0.25, 0.5, 0.75]));
    cases
}

/// The quaternions `quats_to_mats` converts: random unit and non-unit
/// quaternions, the axes and their negations with signed zeros, and the
/// Fox's keyed rotations.
fn hard_quats(rng: &mut Rng) -> Vec<JointQuat> {
    let mut v = Vec::new();
    for q in [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0, -1.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.0, -1.0, -0.0, 0.0],
        [-0.0, -0.0, 1.0, -0.0],
        [0.5, 0.5, 0.5, 0.5],
        [-0.5, 0.5, -0.5, 0.5],
        [0.0; 4],
        [2.0, 0.0, 0.0, 0.0],
        [1e-20, 0.0, 0.0, 1.0],
        [1e18, 1e18, 0.0, 1.0],
    ] {
        v.push(joint(q, [1.0, 2.0, 3.0]));
    }
    for _ in 0..64 {
        let q = random_quat(rng);
        let s = 0.5 + rng.unit().abs() * 2.0;
        v.push(joint(q.map(|c| c * s), [rng.unit(), -0.0, f32::MAX]));
    }
    v
}

fn quats_to_mats_cases() -> Vec<Case> {
    let mut rng = Rng(0x9a75);
    let mut cases = Vec::new();
    let conv = |name: &str, quats: Vec<JointQuat>| {
        let inputs = fnv(joint_bits(&quats));
        case(name, inputs, move |imp| {
            let mut mats = vec![JointMat { mat: [0.0; 12] }; quats.len()];
            animasm::quats_to_mats(imp, &mut mats, &quats).unwrap();
            mat_bits(&mats).collect()
        })
    };
    let random: Vec<JointQuat> = (0..4099).map(|_| random_joint(&mut rng)).collect();
    cases.push(conv("random", random.clone()));
    let tails: Vec<Case> = (0..=67).map(|n| conv("", random[..n].to_vec())).collect();
    let inputs = fnv(tails.iter().map(|c| c.inputs as u32));
    cases.push(case("counts-0-to-67", inputs, move |imp| tails.iter().flat_map(|c| (c.run)(imp)).collect()));
    cases.push(conv("hard", hard_quats(&mut rng)));
    let fox: Vec<JointQuat> = fox::all_keyed_rotations().into_iter().map(|q| joint(q, [0.5, -0.25, 4.0])).collect();
    cases.push(conv("fox-keys", fox));
    cases
}

/// Rotation matrices for `mats_to_quats`: from random unit quaternions, the
/// half turns about each axis (trace -1, two diagonal elements tied), the
/// identity, matrices whose largest diagonal elements tie, and the Fox's
/// keyed rotations.
fn mats_to_quats_cases() -> Vec<Case> {
    let mut rng = Rng(0x4a75);
    let mut cases = Vec::new();
    let conv = |name: &str, mats: Vec<JointMat>| {
        let inputs = fnv(mat_bits(&mats));
        case(name, inputs, move |imp| {
            let mut quats = vec![JointQuat::new(Quat::from_array([0.0; 4]), Vec4::new(0.0, 0.0, 0.0, 0.0)); mats.len()];
            animasm::mats_to_quats(imp, &mut quats, &mats).unwrap();
            joint_bits(&quats).collect()
        })
    };
    let random: Vec<JointMat> = (0..4099).map(|_| random_mat(&mut rng)).collect();
    cases.push(conv("random", random.clone()));
    let tails: Vec<Case> = (0..=67).map(|n| conv("", random[..n].to_vec())).collect();
    let inputs = fnv(tails.iter().map(|c| c.inputs as u32));
    cases.push(case("counts-0-to-67", inputs, move |imp| tails.iter().flat_map(|c| (c.run)(imp)).collect()));
    let mut hard = Vec::new();
    let h = 0.5f32.sqrt();
    for q in [
        [0.0, 0.0, 0.0, 1.0],
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
        [h, h, 0.0, 0.0],
        [0.0, h, h, 0.0],
        [h, 0.0, h, 0.0],
        [0.5, 0.5, 0.5, 0.5],
        [0.5, -0.5, 0.5, -0.5],
        [h, 0.0, 0.0, h],
        [0.0, -h, 0.0, h],
        [0.0, 0.0, h, -h],
    ] {
        hard.push(mat(q, [1.0, -1.0, 0.0]));
    }
    // Diagonals with exact ties and a zero trace.
    for d in [[1.0, 1.0, -1.0], [-1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [0.0, 0.0, 0.0], [-1.0, -1.0, -1.0]] {
        hard.push(JointMat { mat: [d[0], 0.0, 0.0, 0.0, 0.0, d[1], 0.0, 0.0, 0.0, 0.0, d[2], 0.0] });
    }
    // Near-ties: a random quaternion's matrix nudged off rotation.
    for _ in 0..32 {
        let mut m = random_mat(&mut rng);
        m.mat[0] = m.mat[5];
        hard.push(m);
    }
    cases.push(conv("hard", hard));
    let fox: Vec<JointMat> = fox::all_keyed_rotations().into_iter().map(|q| mat(q, [0.5, 1.5, -2.5])).collect();
    cases.push(conv("fox-keys", fox));
    cases
}

fn transform_joints_cases() -> Vec<Case> {
    let mut rng = Rng(0x7a);
    let mut cases = Vec::new();
    let mul = |name: &str, a: Vec<JointMat>, b: Vec<JointMat>| {
        let inputs = fnv(mat_bits(&a).chain(mat_bits(&b)));
        case(name, inputs, move |imp| {
            let mut r = vec![JointMat { mat: [0.0; 12] }; a.len()];
            animasm::transform_joints(imp, &mut r, &a, &b).unwrap();
            mat_bits(&r).collect()
        })
    };
    let a: Vec<JointMat> = (0..4099).map(|_| random_mat(&mut rng)).collect();
    let b: Vec<JointMat> = (0..4099).map(|_| random_mat(&mut rng)).collect();
    cases.push(mul("random", a.clone(), b.clone()));
    let tails: Vec<Case> = (0..=67).map(|n| mul("", a[..n].to_vec(), b[..n].to_vec())).collect();
    let inputs = fnv(tails.iter().map(|c| c.inputs as u32));
    cases.push(case("counts-0-to-67", inputs, move |imp| tails.iter().flat_map(|c| (c.run)(imp)).collect()));
    let fox = fox_local_mats();
    let n = fox.len();
    cases.push(mul("fox-rest", fox.clone(), fox.iter().cycle().skip(5).take(n).copied().collect()));
    cases
}

/// The Fox's rest pose as local matrices, built here with plain operations.
fn fox_local_mats() -> Vec<JointMat> {
    let (r, t) = (fox::rest_rotations(), fox::rest_translations());
    r.iter().zip(&t).map(|(q, t)| mat(*q, *t)).collect()
}

/// A random tree of `n` joints: joint 0 the root, every other joint's
/// parent before it (the ranges leave out the root).
fn random_parents(rng: &mut Rng, n: usize) -> Vec<i32> {
    (0..n).map(|i| if i == 0 { -1 } else { rng.below(i) as i32 }).collect()
}

fn skeleton_cases(safe: animasm::roster::SkeletonFn) -> Vec<Case> {
    let mut rng = Rng(0x5e1e);
    let mut cases = Vec::new();
    let skel = |name: &str, mats: Vec<JointMat>, parents: Vec<i32>, ranges: Vec<(usize, usize)>| {
        let inputs = fnv(mat_bits(&mats)
            .chain(parents.iter().map(|&p| p as u32))
            .chain(ranges.iter().flat_map(|r| [r.0 as u32, r.1 as u32])));
        case(name, inputs, move |imp| {
            let mut out = Vec::new();
            for &(first, last) in &ranges {
                let mut m = mats.clone();
                safe(imp, &mut m, &parents, first..=last).unwrap();
                out.extend(mat_bits(&m));
            }
            out
        })
    };
    let n = 1500;
    let mats: Vec<JointMat> = (0..n).map(|_| random_mat(&mut rng)).collect();
    let parents = random_parents(&mut rng, n);
    cases.push(skel("random", mats.clone(), parents.clone(), vec![(1, n - 1), (700, 1321)]));
    // Every range length up to 67 starting at joint 1 (joint 0 is a root).
    let ranges = (1..=67).map(|len| (1, len)).collect();
    cases.push(skel("counts-1-to-67", mats[..68].to_vec(), parents[..68].to_vec(), ranges));
    let fox = fox_local_mats();
    let last = fox.len() - 1;
    cases.push(skel("fox-rest", fox, fox::parents(), vec![(1, last), (3, 17)]));
    cases
}

/// A forest of `n` joints, parents first: joint 0 and about one in 40
/// others roots, every other parent uniform among the joints before it.
fn random_forest(rng: &mut Rng, n: usize) -> Vec<i32> {
    (0..n).map(|i| if i == 0 || rng.below(40) == 0 { -1 } else { rng.below(i) as i32 }).collect()
}

/// The cases of `slerp_pose` and `lerp_pose`: the model matrices, then
/// the skinning matrices where a case has inverse bind matrices.
fn pose_cases(safe: animasm::roster::PoseFn) -> Vec<Case> {
    use animasm::pose::{PoseInput, Skin};
    struct PoseCase {
        from: Vec<JointQuat>,
        to: Vec<JointQuat>,
        parents: Vec<i32>,
        scale: Option<Vec<Vec4>>,
        inverse_bind: Option<Vec<JointMat>>,
        factors: Vec<f32>,
    }
    let pose_case = |name: &str, c: PoseCase| {
        let vec4_bits = |v: &[Vec4]| v.iter().flat_map(|v| v.to_array().map(f32::to_bits)).collect::<Vec<_>>();
        let inputs = fnv(joint_bits(&c.from)
            .chain(joint_bits(&c.to))
            .chain(c.parents.iter().map(|&p| p as u32))
            .chain(c.scale.as_deref().map(vec4_bits).unwrap_or_default())
            .chain(c.inverse_bind.as_deref().map(|b| mat_bits(b).collect::<Vec<_>>()).unwrap_or_default())
            .chain(c.factors.iter().map(|f| f.to_bits())));
        case(name, inputs, move |imp| {
            let n = c.parents.len();
            let mut out = Vec::new();
            for &factor in &c.factors {
                let input = PoseInput { from: &c.from, to: &c.to, factor, scale: c.scale.as_deref() };
                let mut model = vec![JointMat::IDENTITY; n];
                let mut skin = vec![JointMat::IDENTITY; n];
                let s = c.inverse_bind.as_deref().map(|inverse_bind| Skin { inverse_bind, mats: &mut skin });
                let with_skin = s.is_some();
                safe(imp, &input, &c.parents, &mut model, s).unwrap();
                out.extend(mat_bits(&model));
                if with_skin {
                    out.extend(mat_bits(&skin));
                }
            }
            out
        })
    };
    let mut rng = Rng(0x0007_05e5);
    let mut cases = Vec::new();
    // Seeded random poses on a forest, scaled (each axis in [0.5, 2)) and
    // skinned, at a factor between the poses, near one and at one.
    let n = 1500;
    let from: Vec<JointQuat> = (0..n).map(|_| random_joint(&mut rng)).collect();
    let to: Vec<JointQuat> = (0..n).map(|_| random_joint(&mut rng)).collect();
    let parents = random_forest(&mut rng, n);
    let scale: Vec<Vec4> = (0..n)
        .map(|_| Vec4::new(1.25 + 0.75 * rng.unit(), 1.25 + 0.75 * rng.unit(), 1.25 + 0.75 * rng.unit(), 1.0))
        .collect();
    let inverse_bind: Vec<JointMat> = (0..n).map(|_| random_mat(&mut rng)).collect();
    cases.push(pose_case(
        "random",
        PoseCase {
            from: from.clone(),
            to: to.clone(),
            parents: parents.clone(),
            scale: Some(scale),
            inverse_bind: Some(inverse_bind.clone()),
            factors: vec![0.3, 0.999, 1.0],
        },
    ));
    // Every count from 0 to 67 (a chunk of 32 joints and the tails), a
    // chain, no scale, skinned.
    let mut tails = Vec::new();
    for count in 0..=67 {
        tails.push(pose_case(
            "",
            PoseCase {
                from: from[..count].to_vec(),
                to: to[..count].to_vec(),
                parents: (0..count as i32).map(|i| i - 1).collect(),
                scale: None,
                inverse_bind: Some(inverse_bind[..count].to_vec()),
                factors: vec![0.7],
            },
        ));
    }
    let inputs = fnv(tails.iter().map(|c| c.inputs as u32));
    cases.push(case("counts-0-to-67", inputs, move |imp| tails.iter().flat_map(|c| (c.run)(imp)).collect()));
    // The hard pairs on a forest, no scale, no skin.
    let (hf, ht): (Vec<JointQuat>, Vec<JointQuat>) = hard_joint_pairs(&mut rng).into_iter().unzip();
    let parents = random_forest(&mut rng, hf.len());
    let factors = LERPS.to_vec();
    cases.push(pose_case(
        "hard-pairs",
        PoseCase { from: hf, to: ht, parents, scale: None, inverse_bind: None, factors },
    ));
    cases
}

/// The routines with golden digests: the seven id routines, then the
/// composites (`slerp_pose`, `lerp_pose`: the id routines' successors
/// chained, the one answer too).
fn golden_routines() -> impl Iterator<Item = &'static Routine> {
    roster::id_routines().chain(roster::ROUTINES.iter().filter(|r| r.is_composite()))
}

/// Every case of the routine `name` (of [`golden_routines`]).
fn cases_of(name: &str) -> Vec<Case> {
    match name {
        "slerp_pose" => pose_cases(animasm::slerp_pose),
        "lerp_pose" => pose_cases(animasm::lerp_pose),
        "slerp_joints" => joint_blend_cases(animasm::slerp_joints),
        "lerp_joints" => joint_blend_cases(animasm::lerp_joints),
        "quats_to_mats" => quats_to_mats_cases(),
        "mats_to_quats" => mats_to_quats_cases(),
        "transform_joints" => transform_joints_cases(),
        "transform_skeleton" => skeleton_cases(animasm::transform_skeleton),
        "untransform_skeleton" => skeleton_cases(animasm::untransform_skeleton),
        _ => panic!("no golden cases for {name}"),
    }
}

/// The successor forms of `r` this CPU runs, `Portable` first, then
/// `Deterministic` (whatever it resolves to); the ones it cannot run are
/// printed as skipped.
fn successor_forms(r: &Routine) -> Vec<Impl> {
    let mut forms = vec![Impl::Portable];
    for f in r.all_forms().filter(|f| f.origin == Origin::Successor && f.imp != Impl::Portable) {
        if r.resolve(f.imp).is_ok() {
            forms.push(f.imp);
        } else {
            cpu::skipped(&format!("golden digests of {}: {} not run: this CPU lacks {}", r.name, f.imp, f.isa.needs()));
        }
    }
    forms.push(Impl::Deterministic);
    forms
}

/// The committed table, `(routine, case) -> (inputs, outputs)`.
fn committed() -> BTreeMap<(String, String), (u64, u64)> {
    let path = format!("{}/{TABLE}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let hex = |s: &str| u64::from_str_radix(s, 16).unwrap_or_else(|e| panic!("{path}: {s}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 4, "{path}: {l}");
            ((f[0].to_string(), f[1].to_string()), (hex(f[2]), hex(f[3])))
        })
        .collect()
}

/// Every successor form of every routine of [`golden_routines`] agrees bit for bit with
/// `Impl::Portable` on every case (the first differing float is named),
/// and the digests are the committed ones. `ANIMASM_BLESS=1` rewrites the
/// table instead of comparing it.
#[test]
#[cfg_attr(miri, ignore = "4099-joint cases: too slow under Miri")]
fn every_successor_gives_the_committed_answer() {
    let table = committed();
    let bless = std::env::var_os("ANIMASM_BLESS").is_some();
    let mut fresh = String::from(
        "# The one answer: digests (FNV-1a 64) of each case's inputs and of the\n\
         # successors' outputs, written by `ANIMASM_BLESS=1 cargo test --release\n\
         # --test golden` (tests/golden.rs). Change only with the algorithm, and\n\
         # say why in the commit.\n",
    );
    let mut failures = Vec::new();
    let mut checked = 0;
    for r in golden_routines() {
        if r.resolve(Impl::Portable).is_err() {
            failures.push(format!("{}: no Impl::Portable form", r.name));
            continue;
        }
        let forms = successor_forms(r);
        for c in cases_of(r.name) {
            let want = (c.run)(Impl::Portable);
            for &imp in &forms[1..] {
                let got = (c.run)(imp);
                assert_eq!(got.len(), want.len(), "{} {}: {imp}", r.name, c.name);
                if let Some(i) = (0..want.len()).find(|&i| {
                    got[i] != want[i] && !(f32::from_bits(got[i]).is_nan() && f32::from_bits(want[i]).is_nan())
                }) {
                    failures.push(format!(
                        "{} {}: {imp} differs from portable at float {i}: {:#010x} ({}) against {:#010x} ({})",
                        r.name,
                        c.name,
                        got[i],
                        f32::from_bits(got[i]),
                        want[i],
                        f32::from_bits(want[i])
                    ));
                }
            }
            let digest = fnv(want.iter().copied());
            writeln!(fresh, "{} {} {:016x} {digest:016x}", r.name, c.name, c.inputs).unwrap();
            checked += 1;
            if bless {
                continue;
            }
            match table.get(&(r.name.to_string(), c.name.clone())) {
                None => failures.push(format!("{} {}: not in {TABLE} (ANIMASM_BLESS=1 writes it)", r.name, c.name)),
                Some(&(inputs, _)) if inputs != c.inputs => failures.push(format!(
                    "{} {}: the inputs' digest is {:016x}, the table's {inputs:016x}: the inputs are not the same bits here",
                    r.name, c.name, c.inputs
                )),
                Some(&(_, out)) if out != digest => failures.push(format!(
                    "{} {}: the outputs' digest is {digest:016x}, the table's {out:016x} (forms run: {forms:?})",
                    r.name, c.name
                )),
                Some(_) => {}
            }
        }
    }
    if bless {
        std::fs::write(format!("{}/{TABLE}", env!("CARGO_MANIFEST_DIR")), fresh).unwrap();
        println!("{TABLE} written ({checked} cases)");
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n"));
    println!("{checked} cases checked on {}", std::env::consts::ARCH);
}

/// `Impl::Portable` without hardware FMA gives the same bits: on an x86_64
/// CPU with FMA the portable kernels run their copy compiled with FMA
/// (`vfmadd`), and with FMA hidden by the test hooks (`Machine::BASELINE`)
/// their copy with the exact multiply-add from f64 arithmetic, which
/// targets without FMA (x86_64 CPUs without it, wasm32) run. Every case of
/// every routine of [`golden_routines`], compared float for float.
#[test]
#[cfg(all(feature = "std", not(miri)))]
fn portable_gives_the_same_bits_without_hardware_fma() {
    use animasm::test_hooks::{Machine, with_machine};
    for r in golden_routines() {
        for c in cases_of(r.name) {
            let with_fma = (c.run)(Impl::Portable);
            let without = with_machine(Machine::BASELINE, || (c.run)(Impl::Portable));
            assert_eq!(with_fma.len(), without.len());
            if let Some(i) = (0..with_fma.len()).find(|&i| {
                with_fma[i] != without[i]
                    && !(f32::from_bits(with_fma[i]).is_nan() && f32::from_bits(without[i]).is_nan())
            }) {
                panic!(
                    "{} {}: portable without FMA differs at float {i}: {:#010x} against {:#010x}",
                    r.name, c.name, without[i], with_fma[i]
                );
            }
        }
    }
}
