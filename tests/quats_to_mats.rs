//! `quats_to_mats` (*From Quaternion to Matrix and Back*, section 3 and
//! Appendix A): the asm and intrinsics twins bit for bit, both against an
//! exact f32 model of the listing's 42 instructions, against both C routines
//! of section 3 and against the f64 formula, on random, edge-case and real
//! (Fox) data; the error cases of the safe function; the errata of
//! `asm_notes/quats_to_mats.md` (tests named after them).
//!
//! No instruction of the listing approximates (no `rsqrtps` / `rcpps`), so
//! the exact model is the same on every CPU and the tests compare against it
//! bit for bit.

mod common;

use animasm::quats_to_mats::scalar::{
    joint_quat_to_joint_mat, joint_quat_to_joint_mat_prototype, quats_to_mats as c_quats_to_mats,
    quats_to_mats_prototype,
};
use animasm::quats_to_mats::{MAX_JOINTS, quats_to_mats};
use animasm::{Error, Impl, JointMat, JointQuat, Quat, Vec4};
use animasm_testkit::edges;
use common::error::{mat_max_abs_diff, rot_trans_diff};
use common::harness::{Floats, Routine, SENTINEL};
use common::inputs::Rng;
use common::oracle::{f64x4, joint_mat_paper_f64, mat_f64, quat_to_mat3_f64};
use common::shapes;
use common::{fox, mat_bits, same_bits};

/// `quats_to_mats` in the generic harness (`tests/common/harness.rs`):
/// every form within 5e-7 of the scalar port and of the f64 formula of the
/// paper's matrix.
struct QuatsToMats;

impl Routine for QuatsToMats {
    const NAME: &'static str = "quats_to_mats";
    type Shape = shapes::QuatsToMats;
    const TOL_SCALAR: f64 = 5e-7;
    const TOL_ORACLE: f64 = 5e-7;
    fn oracle_error(out: &[JointMat], _: &[JointMat], q: &Vec<JointQuat>) -> f64 {
        out.iter()
            .zip(q)
            .map(|(m, j)| {
                let t = f64x4(j.t.to_array());
                mat_max_abs_diff(&m.mat, &joint_mat_paper_f64(f64x4(j.q.to_array()), [t[0], t[1], t[2]]))
            })
            .fold(0.0, f64::max)
    }
}

harness_tests!(QuatsToMats);
use proptest::prelude::*;

type Kernel = unsafe fn(*mut JointMat, *const JointQuat, i32);

/// Max abs error of a rotation element against the f64 formula, for unit
/// quaternions, every implementation. Analysis: the products have abs error
/// <= 2^-24 * |p| with the sum of the |p| of an element <= 2, and each of the
/// two additions <= 2^-24 * 1: 2^-23 + 2^-23 = 2.4e-7 (the maximum measured
/// on random, edge and Fox data is printed by `accuracy_against_the_f64_formula`).
const BOUND: f64 = 2.4e-7;

/// The kernels as (name, kernel). The C routines run everywhere.
fn kernels() -> Vec<(&'static str, Kernel)> {
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
    let mut k: Vec<(&'static str, Kernel)> = vec![("scalar", c_quats_to_mats), ("prototype", quats_to_mats_prototype)];
    #[cfg(target_arch = "x86_64")]
    k.extend([
        ("intrinsics", animasm::quats_to_mats::intrinsics::quats_to_mats as Kernel),
        ("asm", animasm::quats_to_mats::asm::quats_to_mats as Kernel),
    ]);
    k
}

/// A matrix of the one sentinel of the tests (`common::harness::SENTINEL`).
fn sentinel_mat() -> JointMat {
    JointMat::sentinel()
}

/// Runs a raw kernel on `quats[..n]` into `len` sentinel-filled matrices.
fn run_n(k: Kernel, quats: &[JointQuat], n: usize, len: usize) -> Vec<JointMat> {
    assert!(n <= quats.len() && n <= len && n <= MAX_JOINTS);
    let mut out = vec![sentinel_mat(); len];
    // SAFETY: `n` quaternions are readable and `n` matrices writable (checked
    // above); Vecs of align(16) types are 16-byte aligned and distinct;
    // `n <= MAX_JOINTS`.
    unsafe { k(out.as_mut_ptr(), quats.as_ptr(), n as i32) };
    out
}

fn run(k: Kernel, quats: &[JointQuat]) -> Vec<JointMat> {
    run_n(k, quats, quats.len(), quats.len())
}

/// Panics unless every float agrees by [`same_bits`] (NaNs count as equal).
/// With `skip_diagonal`, the three diagonal elements are not compared.
#[track_caller]
fn assert_mats_same(a: &[JointMat], b: &[JointMat], skip_diagonal: bool, ctx: &str) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths differ");
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for e in 0..12 {
            if skip_diagonal && [0, 5, 10].contains(&e) {
                continue;
            }
            let (u, v) = (x.mat[e], y.mat[e]);
            assert!(
                same_bits(u, v),
                "{ctx}: matrix {j} element m[{}*4+{}] differs: {:#010x} ({u:e}) vs {:#010x} ({v:e})",
                e / 4,
                e % 4,
                u.to_bits(),
                v.to_bits()
            );
        }
    }
}

/// The 42 instructions of Appendix A as scalar f32 operations, lane by lane,
/// in the listing's order and operand order (`xorps` with a sign mask is a
/// negation, `subps a, b` is `a - b`). This is what the asm must produce,
/// bit for bit, on every CPU (NaN bits aside).
fn listing_model(j: &JointQuat) -> JointMat {
    let [x, y, z, w] = j.q.to_array();
    let t = j.t.to_array();
    // movaps xmm1, xmm0 ; addps xmm1, xmm1
    let (x2, y2, z2) = (x + x, y + y, z + z);
    // pshufd / mulps: xmm2 = yy2, xy2, xz2, yz2 ; xmm4 = zz2, wz2, wy2, wx2
    let xmm2 = [y * y2, x * y2, x * z2, y * z2];
    let xmm4 = [z * z2, w * z2, w * y2, w * x2];
    // mulss xmm0, xmm1: xx2 in lane 0
    let xx2 = x * x2;
    // movss xmm7, one ; subss xmm7, xmm0 ; subss xmm7, xmm2
    let m22 = (1.0f32 - xx2) - xmm2[0];
    // xorps xmm2, x0 ; xorps xmm4, x1 ; addss xmm4, one
    let xmm2 = [xmm2[0], -xmm2[1], -xmm2[2], -xmm2[3]];
    let xmm4 = [-xmm4[0] + 1.0f32, xmm4[1], -xmm4[2], -xmm4[3]];
    // movaps xmm3, xmm4 ; subps xmm3, xmm2
    let row0: [f32; 4] = core::array::from_fn(|i| xmm4[i] - xmm2[i]);
    // movss xmm2, xmm0 ; xorps xmm4, x2 ; subps xmm4, xmm2
    let xmm2 = [xx2, xmm2[1], xmm2[2], xmm2[3]];
    let xmm4 = [xmm4[0], -xmm4[1], -xmm4[2], -xmm4[3]];
    let r1: [f32; 4] = core::array::from_fn(|i| xmm4[i] - xmm2[i]);
    // shufps xmm4, xmm4, (1, 0, 3, 2)
    let row1 = [r1[1], r1[0], r1[3], r1[2]];
    // movhlps xmm3, xmm4 ; shufps xmm3, xmm7, (1, 3, 0, 2)
    let row2 = [row1[3], row0[3], m22, t[2]];
    JointMat {
        mat: [row0[0], row0[1], row0[2], t[0], row1[0], row1[1], row1[2], t[1], row2[0], row2[1], row2[2], t[2]],
    }
}

fn model(quats: &[JointQuat]) -> Vec<JointMat> {
    quats.iter().map(listing_model).collect()
}

/// Max abs error of the rotation parts against the f64 formula in the
/// paper's convention (`oracle::joint_mat_paper_f64`, the transpose of the
/// column-vector matrix) on the f32 input widened.
fn max_rotation_error(mats: &[JointMat], quats: &[JointQuat]) -> f64 {
    mats.iter()
        .zip(quats)
        .map(|(m, j)| rot_trans_diff(&m.mat, &joint_mat_paper_f64(f64x4(j.q.to_array()), [0.0; 3])).0)
        .fold(0.0, f64::max)
}

/// The translation is in column 3, bit for bit.
///
/// With `quiet_snan_ok`, a signalling NaN may come out as the same NaN made
/// quiet: rustc 1.95's LLVM (22) SLP vectorizer compiles the prototype's
/// `m[2*4+3] = q[6]` as one lane of a vector `fadd` with `-0.0` (its
/// "copyable elements"), which quiets a signalling NaN. The asm and the
/// intrinsics only move the bits.
#[track_caller]
fn assert_translation_copied_as(mats: &[JointMat], quats: &[JointQuat], quiet_snan_ok: bool, ctx: &str) {
    for (i, (m, j)) in mats.iter().zip(quats).enumerate() {
        let want = [j.t.x, j.t.y, j.t.z].map(f32::to_bits);
        let got = [m.mat[3], m.mat[7], m.mat[11]].map(f32::to_bits);
        let ok = (0..3).all(|c| {
            got[c] == want[c] || (quiet_snan_ok && f32::from_bits(want[c]).is_nan() && got[c] == want[c] | 0x0040_0000)
        });
        assert!(ok, "{ctx}: joint {i}: translation not copied bit for bit: {got:08x?} vs {want:08x?}");
    }
}

#[track_caller]
fn assert_translation_copied(mats: &[JointMat], quats: &[JointQuat], ctx: &str) {
    assert_translation_copied_as(mats, quats, false, ctx);
}

/// Every check of one input list: twins bit for bit, asm and intrinsics as
/// the listing model, the C routines' off-diagonal elements bit for bit, the
/// diagonals within two roundings, translations exact.
fn check_all(quats: &[JointQuat], ctx: &str) {
    let m = model(quats);
    let c = run(c_quats_to_mats, quats);
    let p = run(quats_to_mats_prototype, quats);
    for (name, k) in kernels() {
        let out = run(k, quats);
        let quiet_snan_ok = !matches!(name, "asm" | "intrinsics");
        assert_translation_copied_as(&out, quats, quiet_snan_ok, &format!("{ctx}: {name}"));
        match name {
            "asm" | "intrinsics" => assert_mats_same(&out, &m, false, &format!("{ctx}: {name} vs listing model")),
            _ => assert_mats_same(&out, &m, true, &format!("{ctx}: {name} vs listing model (off-diagonal)")),
        }
    }
    assert_mats_same(&c, &p, true, &format!("{ctx}: C vs prototype (off-diagonal)"));
    #[cfg(target_arch = "x86_64")]
    assert_mats_same(
        &run(animasm::quats_to_mats::asm::quats_to_mats, quats),
        &run(animasm::quats_to_mats::intrinsics::quats_to_mats, quats),
        false,
        &format!("{ctx}: asm vs intrinsics"),
    );
    // m[2*4+2] is summed in the same order by the listing and the first C.
    for (i, (a, b)) in c.iter().zip(&m).enumerate() {
        assert!(same_bits(a.mat[10], b.mat[10]), "{ctx}: joint {i}: C m[2][2] differs from the listing's");
    }
}

fn random_joints(seed: u64, n: usize) -> Vec<JointQuat> {
    Rng::new(seed).joints(n)
}

// ---------------------------------------------------------------------------
// Twins, counts and the model.

/// Every count 0..=12 and 1024: each kernel writes exactly `n` matrices (the
/// three after them keep their sentinel bits), every element of those `n`.
#[test]
fn counts_0_to_12_and_1024_write_exactly_n_matrices() {
    let quats = random_joints(1, 1024);
    for n in (0..=12).chain([1024]) {
        let want = model(&quats[..n]);
        for (name, k) in kernels() {
            let out = run_n(k, &quats, n, n + 3);
            for (i, m) in out.iter().enumerate() {
                let untouched = m.mat.iter().filter(|v| v.to_bits() == SENTINEL).count();
                let expected = if i < n { 0 } else { 12 };
                assert_eq!(untouched, expected, "{name} n={n}: matrix {i} has {untouched} unwritten elements");
            }
            let skip_diagonal = !matches!(name, "asm" | "intrinsics");
            assert_mats_same(&out[..n], &want, skip_diagonal, &format!("{name} n={n}"));
        }
        check_all(&quats[..n], &format!("n={n}"));
    }
}

#[test]
fn random_rotations_all_checks() {
    for seed in 0..20 {
        check_all(&random_joints(100 + seed, 257), &format!("seed {seed}"));
    }
}

/// Zero, negative-zero, NaN, infinite, denormal, huge and non-unit
/// quaternions through the raw kernels: twins bit for bit, both as the
/// listing model, translations bit for bit (NaN payloads included).
#[test]
fn edge_and_non_unit_quaternions() {
    let quats = edges::quat_joints();
    check_all(&quats, "edge");
    // One at a time too (the listing has no 4-wide loop, but n = 1 is its
    // own prologue path).
    for (i, q) in quats.iter().enumerate().take(40) {
        check_all(core::slice::from_ref(q), &format!("edge joint {i} alone"));
    }
}

/// The zero quaternion gives the identity rotation (all products are zero)
/// with every implementation, and the identity quaternion too.
#[test]
fn zero_and_identity_quaternions_give_the_identity_rotation() {
    let t = Vec4::new(1.5, -2.5, 3.5, 9.0);
    for q in [Quat::new(0.0, 0.0, 0.0, 0.0), Quat::IDENTITY, Quat::new(0.0, 0.0, 0.0, -1.0)] {
        for (name, k) in kernels() {
            let out = run(k, &[JointQuat::new(q, t)]);
            let want = [1.0, 0.0, 0.0, 1.5, 0.0, 1.0, 0.0, -2.5, 0.0, 0.0, 1.0, 3.5];
            assert_eq!(out[0].mat, want, "{name}: {q:?}");
        }
    }
}

/// NaN in a quaternion component spreads to the elements whose products
/// use it, in every implementation; the translation is untouched by it.
#[test]
fn nan_quaternion_components() {
    for lane in 0..4 {
        let mut q = [0.1f32, 0.2, 0.3, 0.9];
        q[lane] = f32::NAN;
        let j = JointQuat::new(Quat::from_array(q), Vec4::new(1.0, 2.0, 3.0, 1.0));
        for (name, k) in kernels() {
            let m = run(k, &[j])[0].mat;
            assert_eq!([m[3], m[7], m[11]], [1.0, 2.0, 3.0], "{name}");
            // w appears only off the diagonal; x, y, z each in two diagonals.
            let nan_diag = [m[0], m[5], m[10]].iter().filter(|v| v.is_nan()).count();
            assert_eq!(nan_diag, if lane == 3 { 0 } else { 2 }, "{name}: NaN in lane {lane}: {m:?}");
            let nan_off = [m[1], m[2], m[4], m[6], m[8], m[9]].iter().filter(|v| v.is_nan()).count();
            assert_eq!(nan_off, 6, "{name}: NaN in lane {lane}: {m:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// Accuracy and convention.

/// Every implementation within [`BOUND`] of the f64 formula (transposed, as
/// the paper's convention needs) on random unit quaternions and on every
/// quaternion of Fox.glb.
#[test]
fn accuracy_against_the_f64_formula() {
    let mut sets: Vec<(String, Vec<JointQuat>)> = vec![("random".into(), random_joints(3, 20_000))];
    sets.push(("fox rest pose".into(), fox::rest_pose()));
    for name in fox::KEY_PAIRS {
        let (a, b) = fox::key_pair(name);
        sets.push((format!("fox {name}"), [a, b].concat()));
    }
    let mut rng = Rng::new(11);
    let keyed: Vec<JointQuat> =
        fox::all_keyed_rotations().iter().map(|r| JointQuat::new(Quat::from_array(*r), rng.translation())).collect();
    assert!(keyed.len() > 1000, "Fox.glb: only {} keyed rotations", keyed.len());
    sets.push(("fox keyed rotations".into(), keyed));
    for (set, quats) in &sets {
        for (name, k) in kernels() {
            let out = run(k, quats);
            let e = max_rotation_error(&out, quats);
            println!("{set}: {name}: max abs error {e:.3e} over {} joints", quats.len());
            assert!(e <= BOUND, "{set}: {name}: max abs error {e:e} > {BOUND:e}");
            assert_translation_copied(&out, quats, &format!("{set}: {name}"));
        }
        check_all(quats, set);
    }
}

/// The paper's `M` (`m[0*4+1] = 2xy + 2wz`) is the transpose of the usual
/// column-vector matrix: a 90 degree turn about z gives `m[0][1] = +1`, and
/// `M v` turns `v` the other way (by the conjugate quaternion).
#[test]
fn convention_rotation_block_is_the_transpose_of_the_column_vector_matrix() {
    let s = core::f32::consts::FRAC_1_SQRT_2;
    let j = JointQuat::new(Quat::new(0.0, 0.0, s, s), Vec4::default()); // +90 degrees about z
    let column_vector = quat_to_mat3_f64([0.0, 0.0, f64::from(s), f64::from(s)]);
    assert!((column_vector[0][1] + 1.0).abs() < 1e-6, "R maps y to -x");
    for (name, k) in kernels() {
        let m = run(k, &[j])[0].mat;
        assert!((m[1] - 1.0).abs() < 1e-6 && (m[4] + 1.0).abs() < 1e-6, "{name}: {m:?}");
        // M (1, 0, 0) as a column vector = (m00, m10, m20) = (0, -1, 0): x turns to -y.
        assert!(m[0].abs() < 1e-6 && (m[4] + 1.0).abs() < 1e-6 && m[8].abs() < 1e-6, "{name}: {m:?}");
    }
    // On random rotations: within BOUND of the transpose, far from R itself.
    let quats = random_joints(5, 1000);
    for (name, k) in kernels() {
        let out = run(k, &quats);
        assert!(max_rotation_error(&out, &quats) <= BOUND);
        let far = out.iter().zip(&quats).filter(|(m, j)| {
            let r = quat_to_mat3_f64(j.q.to_array().map(f64::from));
            (f64::from(m.mat[1]) - r[0][1]).abs() > 1e-3
        });
        assert!(far.count() > 900, "{name}: the rotation block is not the transpose");
    }
}

/// The rows of a unit quaternion's matrix are orthonormal to f32 precision.
#[test]
fn fox_matrices_are_orthonormal() {
    let quats = fox::rest_pose();
    for (name, k) in kernels() {
        for (i, m) in run(k, &quats).iter().enumerate() {
            let row = |r: usize| [m.mat[r * 4], m.mat[r * 4 + 1], m.mat[r * 4 + 2]].map(f64::from);
            for a in 0..3 {
                for b in 0..3 {
                    let d: f64 = (0..3).map(|c| row(a)[c] * row(b)[c]).sum();
                    let want = if a == b { 1.0 } else { 0.0 };
                    assert!((d - want).abs() < 2e-6, "{name}: joint {i}: rows {a}.{b} = {d}");
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The safe function.

/// Each `Impl` through the safe function gives its raw kernel's result:
/// `Scalar` is the paper's first C routine, `Portable` the successors'
/// arithmetic in plain Rust.
#[test]
fn safe_function_dispatches_to_the_raw_kernels() {
    let quats = random_joints(9, 77);
    let mut raw: Vec<(Impl, Kernel)> = vec![(Impl::Scalar, c_quats_to_mats)];
    raw.push((Impl::Portable, animasm::quats_to_mats::portable::quats_to_mats));
    #[cfg(target_arch = "aarch64")]
    raw.push((Impl::Neon, animasm::quats_to_mats::neon::quats_to_mats));
    #[cfg(target_arch = "x86_64")]
    raw.extend([
        (Impl::Intrinsics, animasm::quats_to_mats::intrinsics::quats_to_mats as Kernel),
        (Impl::Asm, animasm::quats_to_mats::asm::quats_to_mats as Kernel),
    ]);
    for (imp, k) in raw {
        let mut out = vec![sentinel_mat(); quats.len()];
        quats_to_mats(imp, &mut out, &quats).unwrap();
        assert_eq!(mat_bits(&out), mat_bits(&run(k, &quats)), "{imp}");
    }
    for imp in animasm::quats_to_mats::forms() {
        quats_to_mats(imp, &mut [], &[]).unwrap();
    }
}

#[test]
fn length_mismatch_writes_nothing() {
    let quats = random_joints(2, 8);
    for imp in animasm::quats_to_mats::forms() {
        for (mats_len, quats_len) in [(5, 4), (5, 6), (0, 1), (1, 0), (8, 7)] {
            let mut mats = vec![sentinel_mat(); mats_len];
            let before = mat_bits(&mats);
            let r = quats_to_mats(imp, &mut mats, &quats[..quats_len]);
            assert_eq!(r, Err(Error::LengthMismatch { what: "quats", expected: mats_len, found: quats_len }), "{imp}");
            assert_eq!(mat_bits(&mats), before, "{imp}: written on Err");
            assert!(r.unwrap_err().to_string().contains("`quats`"));
        }
    }
}

/// `mats.len() > MAX_JOINTS` (2^26) is refused before anything is read or
/// written. The 3 GiB buffer is a lazily zeroed allocation whose pages are
/// never touched.
#[test]
#[cfg_attr(
    target_pointer_width = "32",
    ignore = "a slice longer than MAX_JOINTS is over isize::MAX bytes, which no 32-bit target can make"
)]
fn too_many_joints_writes_nothing() {
    let len = MAX_JOINTS + 1;
    let layout = std::alloc::Layout::array::<JointMat>(len).unwrap();
    // SAFETY: the layout has a non-zero size; all-zero bytes are a valid
    // JointMat (twelve +0.0); the slice covers exactly the allocation and is
    // freed with the same layout below.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<JointMat>();
        assert!(!p.is_null(), "could not reserve {} bytes", layout.size());
        let mats = std::slice::from_raw_parts_mut(p, len);
        let quats = random_joints(4, 3);
        for imp in animasm::quats_to_mats::forms() {
            let r = quats_to_mats(imp, mats, &quats);
            assert_eq!(r, Err(Error::TooLong { what: "mats", len, max: MAX_JOINTS }), "{imp}");
            for m in mats.iter().take(4).chain(mats.iter().rev().take(4)) {
                assert_eq!(m.mat.map(f32::to_bits), [0; 12], "{imp}: written on Err");
            }
        }
        std::alloc::dealloc(p.cast(), layout);
    }
}

// ---------------------------------------------------------------------------
// The C routines.

/// The two C routines of section 3 compute the same products; they differ
/// only in how the diagonal is summed: `1 - yy2 - zz2` against
/// `-yy2 - zz2 + 1`. Both within two roundings of each other.
#[test]
fn c_routine_and_prototype_differ_only_in_the_diagonal_order() {
    let quats = random_joints(12, 20_000);
    let (mut differ, mut max) = (0, 0.0f32);
    for j in &quats {
        let (mut a, mut b) = (JointMat::default(), JointMat::default());
        joint_quat_to_joint_mat(&mut a, j);
        joint_quat_to_joint_mat_prototype(&mut b, j);
        for e in 0..12 {
            if [0, 5, 10].contains(&e) {
                differ += usize::from(a.mat[e] != b.mat[e]);
                max = max.max((a.mat[e] - b.mat[e]).abs());
            } else {
                assert_eq!(a.mat[e].to_bits(), b.mat[e].to_bits(), "element {e} of {j:?}");
            }
        }
    }
    println!("C vs prototype: {differ} of {} diagonal elements differ, by at most {max:e}", 3 * quats.len());
    assert!(differ > 0, "the two summation orders never differed");
    assert!(max <= 2.4e-7, "{max:e}");
}

// ---------------------------------------------------------------------------
// Errata (asm_notes/quats_to_mats.md).

/// E1, E3: `ALIGN4_INIT4` and `SIMD_SP_one` are used by Appendix A without a
/// definition; settled as 16-byte-aligned four-element statics and 1.0f.
/// `SIMD_SP_quat2mat_x2` has the bits of `x0`. With these values the asm is
/// the listing model bit for bit (every other test).
#[test]
fn erratum_e1_e3_undefined_align4_init4_and_simd_sp_one() {
    use animasm::consts::*;
    let s = IEEE_SP_SIGN;
    for (c, want) in [
        (&SIMD_SP_QUAT2MAT_X0, [0, s, s, s]),
        (&SIMD_SP_QUAT2MAT_X1, [s, 0, s, s]),
        (&SIMD_SP_QUAT2MAT_X2, [0, s, s, s]),
    ] {
        assert_eq!(c.0, want);
        assert_eq!(c as *const _ as usize % 16, 0);
    }
    assert_eq!(SIMD_SP_QUAT2MAT_X2.0, SIMD_SP_QUAT2MAT_X0.0);
    assert_eq!(IEEE_SP_ZERO, 0);
    assert_eq!(SIMD_SP_ONE.0, [1.0; 4]);
    assert_eq!(&SIMD_SP_ONE as *const _ as usize % 16, 0);
}

/// E2: `R_SHUFFLE_D` is used without a definition; it is `R_SHUFFLE_PS`
/// (the `pshufd` and `shufps` immediates have the same layout), and the
/// listing's four `pshufd` give the register comments' lanes.
#[test]
fn erratum_e2_r_shuffle_d_is_r_shuffle_ps() {
    // `animasm::sse` (the crate's `R_SHUFFLE_*`) is private since the
    // restructuring (`src/x86/shuffle.rs`, unit-tested there); these are the
    // listings' macro definitions, which the crate's `const fn`s transcribe.
    const fn r_shuffle_ps(x: i32, y: i32, z: i32, w: i32) -> i32 {
        ((w & 3) << 6) | ((z & 3) << 4) | ((y & 3) << 2) | (x & 3)
    }
    const fn r_shuffle_d(x: i32, y: i32, z: i32, w: i32) -> i32 {
        r_shuffle_ps(x, y, z, w)
    }
    for v in 0..256 {
        let (x, y, z, w) = (v & 3, (v >> 2) & 3, (v >> 4) & 3, (v >> 6) & 3);
        assert_eq!(r_shuffle_d(x, y, z, w), r_shuffle_ps(x, y, z, w));
        assert_eq!(r_shuffle_d(x, y, z, w), v);
    }
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::*;
        let lanes = |v: __m128i| {
            let mut o = [0i32; 4];
            // SAFETY: SSE2 is baseline on x86_64; storeu takes any pointer.
            unsafe { _mm_storeu_si128(o.as_mut_ptr().cast(), v) };
            o
        };
        // SAFETY: SSE2 is baseline on x86_64.
        let q = unsafe { _mm_setr_epi32(10, 11, 12, 13) }; // x, y, z, w
        // SAFETY: as above.
        unsafe {
            assert_eq!(lanes(_mm_shuffle_epi32::<{ r_shuffle_d(1, 0, 0, 1) }>(q)), [11, 10, 10, 11]); // y, x, x, y
            assert_eq!(lanes(_mm_shuffle_epi32::<{ r_shuffle_d(1, 1, 2, 2) }>(q)), [11, 11, 12, 12]); // y, y, z, z
            assert_eq!(lanes(_mm_shuffle_epi32::<{ r_shuffle_d(2, 3, 3, 3) }>(q)), [12, 13, 13, 13]); // z, w, w, w
            assert_eq!(lanes(_mm_shuffle_epi32::<{ r_shuffle_d(2, 2, 1, 0) }>(q)), [12, 12, 11, 10]); // z, z, y, x
        }
    }
}

/// E4: the listing sums two diagonal elements in an order neither C routine
/// uses: `m[0][0] = (1 - zz2) - yy2` (C: `(1 - yy2) - zz2`, prototype:
/// `(-yy2 - zz2) + 1`) and `m[1][1] = (1 - zz2) - xx2` (C: `(1 - xx2) -
/// zz2`). `m[2][2] = (1 - xx2) - yy2` is the C's. So the SSE is not bit-equal
/// to either C routine; the difference is at most two roundings.
#[test]
fn erratum_e4_diagonal_rounding_order() {
    let quats = random_joints(13, 20_000);
    let model = model(&quats);
    let c = run(c_quats_to_mats, &quats);
    let p = run(quats_to_mats_prototype, &quats);
    let (mut vs_c, mut vs_p, mut max) = ([0usize; 3], [0usize; 3], 0.0f32);
    for i in 0..quats.len() {
        let [x, y, z, _] = quats[i].q.to_array();
        let (xx2, yy2, zz2) = (x * (x + x), y * (y + y), z * (z + z));
        // The model's diagonal is exactly these sums.
        assert_eq!(model[i].mat[0].to_bits(), ((1.0f32 - zz2) - yy2).to_bits());
        assert_eq!(model[i].mat[5].to_bits(), ((1.0f32 - zz2) - xx2).to_bits());
        assert_eq!(model[i].mat[10].to_bits(), ((1.0f32 - xx2) - yy2).to_bits());
        for (d, e) in [0, 5, 10].into_iter().enumerate() {
            vs_c[d] += usize::from(model[i].mat[e] != c[i].mat[e]);
            vs_p[d] += usize::from(model[i].mat[e] != p[i].mat[e]);
            max = max.max((model[i].mat[e] - c[i].mat[e]).abs()).max((model[i].mat[e] - p[i].mat[e]).abs());
        }
    }
    println!(
        "listing vs C: m00 {} m11 {} m22 {} differ; vs prototype: {vs_p:?}; max {max:e}",
        vs_c[0], vs_c[1], vs_c[2]
    );
    assert!(vs_c[0] > 0 && vs_c[1] > 0, "the orders never differed from the C");
    assert_eq!(vs_c[2], 0, "m[2][2] is the C's order");
    assert!(vs_p.iter().all(|&n| n > 0), "the orders never differed from the prototype");
    assert!(max <= 2.4e-7, "{max:e}");
    let found = quats.iter().zip(&c).zip(&model).find(|((_, c), m)| c.mat[0] != m.mat[0]);
    let ((j, c0), m0) = found.unwrap();
    println!("e.g. q = {:?}: C m00 = {:e}, listing m00 = {:e}", j.q, c0.mat[0], m0.mat[0]);
}

/// E5: the paper's comment of `mulss xmm0, xmm1` says `xmm0 = xx2, y2, z2,
/// w2`; `mulss` keeps the destination's upper lanes, `y, z, w`. Harmless:
/// only lane 0 of xmm0 is read afterwards (`subss xmm7, xmm0`, `movss xmm2,
/// xmm0`), as the bit-exact agreement of the asm with the listing model shows.
#[cfg(target_arch = "x86_64")]
#[test]
fn erratum_e5_mulss_comment_upper_lanes() {
    use core::arch::x86_64::*;
    let (x, y, z, w) = (0.25f32, 0.5, 0.75, 1.5);
    let mut o = [0f32; 4];
    // SAFETY: SSE is baseline on x86_64; storeu takes any pointer.
    unsafe {
        let xmm0 = _mm_setr_ps(x, y, z, w);
        let xmm1 = _mm_add_ps(xmm0, xmm0); // addps xmm1, xmm1 (of a copy)
        _mm_storeu_ps(o.as_mut_ptr(), _mm_mul_ss(xmm0, xmm1)); // mulss xmm0, xmm1
    }
    assert_eq!(o, [x * (x + x), y, z, w], "mulss leaves y, z, w");
    assert_ne!(o[1..], [y + y, z + z, w + w], "not the comment's y2, z2, w2");
    let j = JointQuat::new(Quat::new(x, y, z, w), Vec4::default());
    let asm = run(animasm::quats_to_mats::asm::quats_to_mats, &[j]);
    assert_mats_same(&asm, &[listing_model(&j)], false, "asm vs model");
}

/// E6: the listing's count arithmetic is 32-bit: `shl eax, 5` / `neg eax` /
/// `jl`. For `numJoints < 0` the 32-bit listing converts one joint (the C
/// converts none) and above 2^26 it wraps. The port's raw kernels exclude
/// such counts by contract and the safe function refuses more than
/// `MAX_JOINTS` (`too_many_joints_writes_nothing`); shown here: the C's
/// behaviour for negative counts, and the limit.
#[test]
fn erratum_e6_count_arithmetic_is_32_bit() {
    assert_eq!(MAX_JOINTS, 1 << 26);
    assert_eq!((MAX_JOINTS as u64) << 5, 1u64 << 31, "32 * MAX_JOINTS is the largest 32-bit magnitude");
    // The listing: -n in eax, after `shl`, is negative exactly for 1..=2^26.
    for n in [1i64, 2, 1 << 20, 1 << 26] {
        let eax = ((n as u32) << 5).wrapping_neg() as i32;
        assert!(eax < 0 && i64::from(eax) == -32 * n, "n = {n}");
    }
    let n = (1u32 << 26) + 1;
    assert!((n << 5).wrapping_neg() as i32 > 0, "2^26 + 1 wraps: the listing would run one iteration");
    // The C for numJoints < 0 writes nothing.
    let quats = random_joints(6, 1);
    for k in [c_quats_to_mats as Kernel, quats_to_mats_prototype] {
        let mut out = vec![sentinel_mat(); 1];
        // SAFETY: a negative count makes the C routines' loop empty.
        unsafe { k(out.as_mut_ptr(), quats.as_ptr(), -1) };
        assert!(out[0].mat.iter().all(|v| v.to_bits() == SENTINEL));
    }
}

// ---------------------------------------------------------------------------
// Arbitrary bit patterns.

proptest! {
    #![proptest_config(animasm_testkit::strategies::config(512, 2))]

    /// Any bits in every float of every joint: asm == intrinsics == the
    /// listing model (NaNs as equal), the C routines' off-diagonal elements
    /// and `m[2][2]` equal to the listing's, translations bit for bit in every
    /// implementation.
    #[test]
    fn arbitrary_bits(joints in proptest::collection::vec(any::<[u32; 8]>(), 0..14)) {
        let quats: Vec<JointQuat> = joints
            .iter()
            .map(|b| {
                let f = |i: usize| f32::from_bits(b[i]);
                JointQuat::new(Quat::new(f(0), f(1), f(2), f(3)), Vec4::new(f(4), f(5), f(6), f(7)))
            })
            .collect();
        check_all(&quats, "arbitrary bits");
    }

    /// Unit quaternions at any scale of translation: within the bound.
    #[test]
    fn random_unit_quaternions_within_bound(seed in any::<u64>(), n in 0usize..40) {
        let quats = random_joints(seed, n);
        for (name, k) in kernels() {
            let e = max_rotation_error(&run(k, &quats), &quats);
            prop_assert!(e <= BOUND, "{} max abs error {:e}", name, e);
        }
    }
}

// ---------------------------------------------------------------------------
// The successors, `Impl::Avx2`, `Impl::Avx512`, `Impl::Neon` and
// `Impl::Portable` (`asm_notes/quats_to_mats.md`, "Successor: ..."): each test runs on every
// one this CPU has (`Avx2` and `Avx512` are skipped, with a message, where the
// CPU lacks their features). The listing is the exact model of its 42 instructions
// (`listing_model`, the asm's bits on every CPU), so the comparisons with it
// run on every target.

mod successor {
    use super::*;

    /// The successor forms this CPU runs, fastest first, with their raw
    /// kernels: `Impl::Neon` (aarch64), `Impl::Avx512` (x86_64 with AVX-512
    /// F, VL, DQ and BW) and `Impl::Avx2` (x86_64 with AVX2 and FMA; a
    /// message where the CPU lacks the features) and `Impl::Portable`
    /// (everywhere).
    fn successors() -> Vec<(Impl, Kernel)> {
        let mut out = Vec::new();
        // The successors in the table's order (the order `Auto` tries).
        let table = animasm::roster::find("quats_to_mats").expect("in the roster");
        let order: Vec<Impl> =
            table.all_forms().filter(|f| f.origin == animasm::Origin::Successor).map(|f| f.imp).collect();
        for imp in order {
            match animasm::quats_to_mats::kernel(imp) {
                Ok(k) => out.push((imp, k)),
                Err(Error::Unsupported(_)) => {}
                Err(e) => common::cpu::skipped(&format!("quats_to_mats: Impl::{imp:?}: {e}")),
            }
        }
        assert!(out.iter().any(|&(imp, _)| imp == Impl::Portable), "Impl::Portable runs everywhere");
        out
    }

    /// Whether the test runs under valgrind (`scripts/memcheck.sh`), which
    /// puts its preload libraries in `LD_PRELOAD`.
    fn under_valgrind() -> bool {
        std::env::var("LD_PRELOAD").is_ok_and(|v| v.contains("vgpreload"))
    }

    /// [`assert_mats_same`] against the fused model. Under valgrind only, a
    /// zero of either sign matches a zero of either sign: valgrind 3.19
    /// emulates `vfnmadd` with a `-0.0` where an exact-zero fused result is
    /// `+0.0` (IEEE 754: an exact zero sum of opposite signs is `+0.0`);
    /// natively the comparison is bit for bit, signed zeros included.
    #[track_caller]
    fn assert_fused(out: &[JointMat], want: &[JointMat], ctx: &str) {
        if under_valgrind() {
            let unsign = |m: &[JointMat]| -> Vec<JointMat> {
                m.iter().map(|m| JointMat { mat: m.mat.map(|v| if v == 0.0 { 0.0 } else { v }) }).collect()
            };
            assert_mats_same(&unsign(out), &unsign(want), false, ctx);
        } else {
            assert_mats_same(out, want, false, ctx);
        }
    }

    /// The successor's arithmetic as scalar f32 with `mul_add` (one
    /// rounding per fused operation): what the kernel must give bit for bit
    /// on every CPU (NaN bits aside).
    fn fused_model(j: &JointQuat) -> JointMat {
        let [x, y, z, w] = j.q.to_array();
        let t = j.t.to_array();
        let (x2, y2, z2) = (x + x, y + y, z + z);
        let (wx2, wy2, wz2) = (w * x2, w * y2, w * z2);
        let one_zz2 = (-z).mul_add(z2, 1.0);
        let one_yy2 = (-y).mul_add(y2, 1.0);
        JointMat {
            mat: [
                (-y).mul_add(y2, one_zz2),
                x.mul_add(y2, wz2),
                x.mul_add(z2, -wy2),
                t[0],
                x.mul_add(y2, -wz2),
                (-x).mul_add(x2, one_zz2),
                y.mul_add(z2, wx2),
                t[1],
                x.mul_add(z2, wy2),
                y.mul_add(z2, -wx2),
                (-x).mul_add(x2, one_yy2),
                t[2],
            ],
        }
    }

    /// Every count 0..=67 (every tail length of the 8-wide loop, and up to
    /// eight blocks): exactly `n` matrices written (three sentinels after
    /// them untouched), the fused model bit for bit, within [`BOUND`] of the
    /// f64 formula and of the scalar port, translations bit for bit.
    #[test]
    fn successor_every_count_0_to_67() {
        for (imp, k) in successors() {
            let quats = random_joints(0x5ecc, 67);
            for n in 0..=67 {
                let out = run_n(k, &quats, n, n + 3);
                for (i, m) in out.iter().enumerate().skip(n) {
                    assert!(m.mat.iter().all(|v| v.to_bits() == SENTINEL), "{imp} n={n}: matrix {i} written");
                }
                let (out, q) = (&out[..n], &quats[..n]);
                let want: Vec<JointMat> = q.iter().map(fused_model).collect();
                assert_fused(out, &want, &format!("{imp} n={n}: vs the fused model"));
                assert!(max_rotation_error(out, q) <= BOUND, "{imp} n={n}: vs the f64 formula");
                let c = run(c_quats_to_mats, q);
                let d = out.iter().zip(&c).map(|(a, b)| mat_max_abs_diff(&a.mat, &mat_f64(b))).fold(0.0, f64::max);
                assert!(d <= BOUND, "{imp} n={n}: {d:e} from the scalar port");
                assert_translation_copied(out, q, &format!("{imp} n={n}"));
            }
        }
    }

    /// Buffers that end exactly at their allocation's end (a `Vec` of exactly
    /// `n` elements on both sides) for every tail length: under
    /// `scripts/memcheck.sh` an access past either end is reported.
    #[test]
    fn successor_buffers_ending_at_the_allocation_end() {
        for (imp, k) in successors() {
            for n in 0..=67usize {
                let quats: Vec<JointQuat> = random_joints(900 + n as u64, n);
                let mut mats: Vec<JointMat> = Vec::with_capacity(n);
                mats.resize(n, sentinel_mat());
                assert_eq!((quats.capacity(), mats.capacity()), (n, n));
                // SAFETY: both Vecs hold exactly `n` elements, are aligned for
                // their types and distinct; `successors()` checked the CPU.
                unsafe { k(mats.as_mut_ptr(), quats.as_ptr(), n as i32) };
                let want: Vec<JointMat> = quats.iter().map(fused_model).collect();
                assert_fused(&mats, &want, &format!("{imp} n={n}"));
            }
        }
    }

    /// The real Fox poses (rest pose, the key pairs, every keyed rotation):
    /// within [`BOUND`] of the f64 formula and no less accurate than the
    /// listing on the same joints; rows orthonormal.
    #[test]
    fn successor_fox_poses() {
        for (imp, k) in successors() {
            let mut sets: Vec<(String, Vec<JointQuat>)> = vec![("fox rest pose".into(), fox::rest_pose())];
            for name in fox::KEY_PAIRS {
                let (a, b) = fox::key_pair(name);
                sets.push((format!("fox {name}"), [a, b].concat()));
            }
            let mut rng = Rng::new(11);
            let keyed = fox::all_keyed_rotations();
            sets.push((
                "fox keyed rotations".into(),
                keyed.iter().map(|r| JointQuat::new(Quat::from_array(*r), rng.translation())).collect(),
            ));
            for (set, quats) in &sets {
                let out = run(k, quats);
                let e = max_rotation_error(&out, quats);
                let e_asm = max_rotation_error(&model(quats), quats);
                println!("{set}: {imp} {e:.3e}, the listing {e_asm:.3e}");
                assert!(e <= BOUND && e <= e_asm * 1.25, "{set}: {imp} {e:e}, the listing {e_asm:e}");
                assert_translation_copied(&out, quats, &format!("{imp} {set}"));
                let want: Vec<JointMat> = quats.iter().map(fused_model).collect();
                assert_fused(&out, &want, &format!("{imp} {set}"));
                for (i, m) in out.iter().enumerate() {
                    let row = |r: usize| [m.mat[r * 4], m.mat[r * 4 + 1], m.mat[r * 4 + 2]].map(f64::from);
                    for a in 0..3 {
                        for b in 0..3 {
                            let d: f64 = (0..3).map(|c| row(a)[c] * row(b)[c]).sum();
                            let want = if a == b { 1.0 } else { 0.0 };
                            assert!((d - want).abs() < 2e-6, "{imp} {set}: joint {i}: rows {a}.{b} = {d}");
                        }
                    }
                }
            }
        }
    }

    /// Accuracy on 20000 random unit quaternions: within [`BOUND`], and no
    /// worse than the listing (the fused products round once less).
    #[test]
    fn successor_accuracy_no_worse_than_the_listing() {
        for (imp, k) in successors() {
            let quats = random_joints(3, 20_000);
            let e = max_rotation_error(&run(k, &quats), &quats);
            let e_asm = max_rotation_error(&model(&quats), &quats);
            println!("random: {imp} {e:.3e}, the listing {e_asm:.3e}");
            assert!(e <= BOUND && e <= e_asm, "{imp} {e:e}, the listing {e_asm:e}");
        }
    }

    /// Special values in every lane of a block and in the tail: zero,
    /// negative-zero, NaN, infinite, denormal, huge, signalling-NaN and
    /// non-unit quaternions and translations (`edges::quat_joints`), each as the
    /// fused model gives it (NaN as NaN), lane by lane independent of its
    /// neighbours, translations bit for bit (NaN payloads included).
    #[test]
    fn successor_special_values_in_every_lane() {
        for (imp, k) in successors() {
            let edges = edges::quat_joints();
            let out = run(k, &edges);
            let want: Vec<JointMat> = edges.iter().map(fused_model).collect();
            assert_fused(&out, &want, &format!("{imp}: edge quaternions"));
            assert_translation_copied(&out, &edges, &format!("{imp}: edge quaternions"));
            let filler = random_joints(21, 19);
            for (e, edge) in edges.iter().enumerate().take(40) {
                for lane in 0..19 {
                    let mut quats = filler.clone();
                    quats[lane] = *edge;
                    let out = run(k, &quats);
                    let want: Vec<JointMat> = quats.iter().map(fused_model).collect();
                    assert_fused(&out, &want, &format!("{imp}: edge {e} in lane {lane}"));
                }
            }
        }
    }

    /// The identity, its negation and the zero quaternion give the identity
    /// rotation exactly; `(-0, -0, -0, -0)` too, with `+0.0` off the
    /// diagonal (`fma(-0, -0, +0) = +0`); opposite quaternions `q`, `-q`
    /// give the same matrix bit for bit (every product has two factors of
    /// `q`).
    #[test]
    fn successor_identical_opposite_and_zero_quaternions() {
        for (imp, k) in successors() {
            let t = Vec4::new(1.5, -2.5, 3.5, 9.0);
            for q in [
                Quat::new(0.0, 0.0, 0.0, 0.0),
                Quat::IDENTITY,
                Quat::new(0.0, 0.0, 0.0, -1.0),
                Quat::new(-0.0, -0.0, -0.0, -0.0),
            ] {
                let m = run(k, &[JointQuat::new(q, t)])[0].mat;
                assert_eq!(
                    m.map(f32::to_bits),
                    [1.0f32, 0.0, 0.0, 1.5, 0.0, 1.0, 0.0, -2.5, 0.0, 0.0, 1.0, 3.5].map(f32::to_bits),
                    "{imp}: {q:?}"
                );
            }
            let quats = random_joints(31, 29);
            let neg: Vec<JointQuat> =
                quats.iter().map(|j| JointQuat::new(Quat::from_array(j.q.to_array().map(|v| -v)), j.t)).collect();
            assert_eq!(mat_bits(&run(k, &quats)), mat_bits(&run(k, &neg)), "{imp}");
            // Identical joints give identical matrices, wherever they sit.
            let same = vec![quats[0]; 21];
            let out = run(k, &same);
            assert!(out.iter().all(|m| m.mat.map(f32::to_bits) == out[0].mat.map(f32::to_bits)), "{imp}");
        }
    }

    /// NaN in one quaternion component spreads as in the listing: to the
    /// six off-diagonal elements and to the two diagonal elements whose
    /// products use it (none for `w`); an infinite component gives
    /// infinities or NaN there; the translation is untouched.
    #[test]
    fn successor_nan_and_infinite_components() {
        for (imp, k) in successors() {
            for v in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                for lane in 0..4 {
                    let mut q = [0.1f32, 0.2, 0.3, 0.9];
                    q[lane] = v;
                    let j = JointQuat::new(Quat::from_array(q), Vec4::new(1.0, 2.0, 3.0, 1.0));
                    let m = run(k, &[j])[0].mat;
                    assert_eq!([m[3], m[7], m[11]], [1.0, 2.0, 3.0], "{imp}");
                    let bad_diag = [m[0], m[5], m[10]].iter().filter(|v| !v.is_finite()).count();
                    assert_eq!(bad_diag, if lane == 3 { 0 } else { 2 }, "{imp}: {v} in lane {lane}: {m:?}");
                    let bad_off = [m[1], m[2], m[4], m[6], m[8], m[9]].iter().filter(|v| !v.is_finite()).count();
                    assert_eq!(bad_off, 6, "{imp}: {v} in lane {lane}: {m:?}");
                    if v.is_nan() {
                        assert!([m[0], m[5], m[10]].iter().filter(|v| v.is_nan()).count() == bad_diag);
                    }
                }
            }
        }
    }

    /// Shuffled input order gives the same matrices in the shuffled order,
    /// bit for bit (no lane or block depends on another); repeated joints
    /// give repeated matrices.
    #[test]
    fn successor_shuffled_and_duplicate_joints() {
        for (imp, k) in successors() {
            let quats = random_joints(41, 45);
            let out = run(k, &quats);
            let mut rng = Rng::new(42);
            let perm: Vec<usize> = (0..60).map(|_| rng.below(quats.len())).collect();
            let shuffled: Vec<JointQuat> = perm.iter().map(|&i| quats[i]).collect();
            let out2 = run(k, &shuffled);
            for (a, &i) in perm.iter().enumerate() {
                assert_eq!(
                    out2[a].mat.map(f32::to_bits),
                    out[i].mat.map(f32::to_bits),
                    "{imp}: position {a} (joint {i})"
                );
            }
        }
    }

    /// Kept: section 3's matrix `M`, the transpose of the column-vector
    /// matrix (a 90 degree turn about z gives `m[0][1] = +1`).
    #[test]
    fn successor_keeps_the_paper_convention() {
        for (imp, k) in successors() {
            let s = core::f32::consts::FRAC_1_SQRT_2;
            let m = run(k, &[JointQuat::new(Quat::new(0.0, 0.0, s, s), Vec4::default())])[0].mat;
            assert!((m[1] - 1.0).abs() < 1e-6 && (m[4] + 1.0).abs() < 1e-6, "{imp}: {m:?}");
            let quats = random_joints(5, 1000);
            let out = run(k, &quats);
            let far = out.iter().zip(&quats).filter(|(m, j)| {
                let r = quat_to_mat3_f64(j.q.to_array().map(f64::from));
                (f64::from(m.mat[1]) - r[0][1]).abs() > 1e-3
            });
            assert!(far.count() > 900, "{imp}: the rotation block is not the transpose");
        }
    }

    /// Kept: no normalisation. A quaternion scaled by `k` gives the
    /// polynomial of the scaled components (`1 - 2k²(y² + z²)` etc.), as the
    /// listing does; the zero quaternion gives the identity.
    #[test]
    fn successor_keeps_no_normalisation() {
        for (imp, k) in successors() {
            let quats: Vec<JointQuat> = random_joints(51, 40)
                .iter()
                .enumerate()
                .map(|(i, j)| {
                    JointQuat::new(Quat::from_array(j.q.to_array().map(|v| v * (0.25 + 0.1 * i as f32))), j.t)
                })
                .collect();
            let out = run(k, &quats);
            let listing = model(&quats);
            for (i, (a, b)) in out.iter().zip(&listing).enumerate() {
                for e in 0..12 {
                    assert!(
                        (a.mat[e] - b.mat[e]).abs() <= 4e-6 * b.mat[e].abs().max(1.0),
                        "{imp}: joint {i} element {e}"
                    );
                }
            }
            assert!(
                out.iter().any(|m| (m.mat[0] * m.mat[0] + m.mat[1] * m.mat[1] + m.mat[2] * m.mat[2] - 1.0).abs() > 0.1),
                "{imp}"
            );
        }
    }

    /// Kept, E4: the diagonal is summed as the listing sums `m[0][0]` and
    /// `m[1][1]`, `(1 - zz2) - yy2` and `(1 - zz2) - xx2` (now fused: two
    /// roundings instead of three); `m[2][2]` is `(1 - yy2) - xx2` (fused),
    /// where the listing has `(1 - xx2) - yy2`. Bit for bit against those
    /// sums, and they differ from the other orders now and then.
    #[test]
    fn successor_e4_diagonal_summation_order() {
        for (imp, k) in successors() {
            let quats = random_joints(13, 20_000);
            let out = run(k, &quats);
            let mut other = 0;
            for (m, j) in out.iter().zip(&quats) {
                let [x, y, z, _] = j.q.to_array();
                let (x2, y2, z2) = (x + x, y + y, z + z);
                assert_eq!(m.mat[0].to_bits(), (-y).mul_add(y2, (-z).mul_add(z2, 1.0)).to_bits(), "{imp}");
                assert_eq!(m.mat[5].to_bits(), (-x).mul_add(x2, (-z).mul_add(z2, 1.0)).to_bits());
                assert_eq!(m.mat[10].to_bits(), (-x).mul_add(x2, (-y).mul_add(y2, 1.0)).to_bits());
                other += usize::from(m.mat[0].to_bits() != (-z).mul_add(z2, (-y).mul_add(y2, 1.0)).to_bits());
            }
            assert!(other > 0, "{imp}: the order never mattered");
        }
    }

    /// Corrected, E6: the count is not 32-bit arithmetic: a negative count
    /// converts nothing (the C's `for`), as does 0.
    #[test]
    fn successor_e6_negative_count_converts_nothing() {
        for (imp, k) in successors() {
            let quats = random_joints(6, 9);
            for n in [-1, -8, i32::MIN, 0] {
                let mut out = vec![sentinel_mat(); 9];
                // SAFETY: a count <= 0 reads and writes nothing.
                unsafe { k(out.as_mut_ptr(), quats.as_ptr(), n) };
                assert!(out.iter().all(|m| m.mat.iter().all(|v| v.to_bits() == SENTINEL)), "{imp}: count {n}");
            }
        }
    }

    /// The safe function with each successor form is its raw kernel; `Auto`
    /// and `Deterministic` pick the fastest successor on this CPU (first in
    /// `FORMS`: `Neon`, or `Avx512` or `Avx2` where the CPU has it, else
    /// `Portable`).
    #[test]
    fn successor_through_the_safe_function() {
        for (imp, k) in successors() {
            let quats = random_joints(9, 77);
            let mut out = vec![sentinel_mat(); quats.len()];
            quats_to_mats(imp, &mut out, &quats).unwrap();
            assert_eq!(mat_bits(&out), mat_bits(&run(k, &quats)), "{imp}");
        }
        let fastest = successors()[0].0;
        assert_eq!(animasm::quats_to_mats::resolve(Impl::Deterministic), Ok(fastest));
        if fastest != Impl::Portable {
            assert_eq!(animasm::quats_to_mats::resolve(Impl::Auto), Ok(fastest));
        }
    }

    /// The one answer: every successor form gives `Impl::Portable`'s bits
    /// (NaN as NaN) on every count 0..=67 of 16 seeds and on the special
    /// values (`edges::quat_joints`) in every position of a 19-joint list.
    #[test]
    fn every_successor_gives_the_portable_bits() {
        let portable = animasm::quats_to_mats::kernel(Impl::Portable).unwrap();
        for (imp, k) in successors() {
            for seed in 0..16u64 {
                let quats = random_joints(0x0ae5 + seed, 67);
                for n in 0..=67 {
                    let q = &quats[..n];
                    assert_mats_same(&run(k, q), &run(portable, q), false, &format!("{imp} seed {seed} n={n}"));
                }
            }
            let filler = random_joints(23, 19);
            for (e, edge) in edges::quat_joints().iter().enumerate() {
                let mut quats = filler.clone();
                quats[e % 19] = *edge;
                assert_mats_same(&run(k, &quats), &run(portable, &quats), false, &format!("{imp}: edge {e}"));
            }
        }
    }

    proptest! {
        #![proptest_config(animasm_testkit::strategies::config(256, 2))]

        /// Any bits in every float of up to 20 joints: the fused model bit
        /// for bit (NaNs as equal), translations bit for bit.
        #[test]
        fn successor_arbitrary_bits(joints in proptest::collection::vec(any::<[u32; 8]>(), 0..20)) {
            for (imp, k) in successors() {
            let quats: Vec<JointQuat> = joints
                .iter()
                .map(|b| {
                    let f = |i: usize| f32::from_bits(b[i]);
                    JointQuat::new(Quat::new(f(0), f(1), f(2), f(3)), Vec4::new(f(4), f(5), f(6), f(7)))
                })
                .collect();
            let out = run_n(k, &quats, quats.len(), quats.len() + 2);
            prop_assert!(out[quats.len()..].iter().all(|m| m.mat.iter().all(|v| v.to_bits() == SENTINEL)));
            let want: Vec<JointMat> = quats.iter().map(fused_model).collect();
            assert_fused(&out[..quats.len()], &want, &format!("{imp}: arbitrary bits"));
            assert_translation_copied(&out[..quats.len()], &quats, &format!("{imp}: arbitrary bits"));
            }
        }
    }
}

/// The paper: 35 instructions in `loopQuat`; 42 in all is the transcription's.
#[test]
fn listing_instruction_counts() {
    common::roster_checks::listing::assert_counts("quats_to_mats", &[("total", 42), ("loopQuat", 35)]);
}
