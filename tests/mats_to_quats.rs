//! `mats_to_quats` (*From Quaternion to Matrix and Back*, section 4 and
//! Appendix B): the asm listing and its intrinsics twin bit for bit, both and
//! the two C routines against an f64 oracle (quaternions compared up to
//! sign), round trips, the Fox data, the listing's tie-breaking and its other
//! errata (named as in `asm_notes/mats_to_quats.md`), `q[7]`, every count of
//! the 4-wide loop's tail, and the safe function's errors.
//!
//! The matrices are built in the paper's convention (section 3): the 3x3
//! part is the transpose of the column-vector rotation matrix of the
//! quaternion, `mat[r * 4 + c] = R[c][r]`.

mod common;

use animasm::mats_to_quats::MAX_JOINTS;
use animasm::{Error, Impl, JointMat, JointQuat};
use animasm_testkit::edges;
use common::error::{max_abs_diff, quat_diff_up_to_sign};
use common::harness::{Floats, Routine};
use common::inputs::{Rng, paper_mats};
use common::oracle::{
    affine_parts_f64, f64x4, joint_mat_paper_f64, mat_f64, mat3_paper_to_quat_f64, mat3_to_quat_f64, normalize_f64,
};
use common::shapes;
use common::{assert_bit_identical, fox, same_bits};

/// `mats_to_quats` in the generic harness (`tests/common/harness.rs`): the
/// C port's `ReciprocalSqrt` (0x5f3759df and one Newton-Raphson step) is
/// good to [`C_BOUND`], so every form is held to that against the f64
/// oracle and a little more against the scalar port (the SSE forms to
/// [`SSE_BOUND`], checked below).
struct MatsToQuats;

impl Routine for MatsToQuats {
    const NAME: &'static str = "mats_to_quats";
    type Shape = shapes::MatsToQuats;
    const TOL_SCALAR: f64 = 1.81e-3;
    const TOL_ORACLE: f64 = C_BOUND;
    fn oracle_error(out: &[JointQuat], _: &[JointQuat], mats: &Vec<JointMat>) -> f64 {
        out.iter()
            .zip(mats)
            .map(|(j, m)| {
                let (r, t) = affine_parts_f64(&mat_f64(m));
                let q = quat_diff_up_to_sign(f64x4(j.q.to_array()), mat3_paper_to_quat_f64(r));
                max_abs_diff(j.t.to_array(), [t[0], t[1], t[2], 0.0]).max(q)
            })
            .fold(0.0, f64::max)
    }
}

harness_tests!(MatsToQuats);

type Kernel = unsafe fn(*mut JointQuat, *const JointMat, i32);

/// The two C routines of section 4.
const C_KERNELS: [(&str, Kernel); 2] = [
    ("scalar", animasm::mats_to_quats::scalar::mats_to_quats),
    ("blueprint", animasm::mats_to_quats::scalar::mats_to_quats_blueprint),
];

/// Max abs error (up to sign) of asm and intrinsics against the f64 oracle on
/// orthonormal matrices rounded to f32: `rsqrtps` (12 bits) and one
/// Newton-Raphson step, then a few f32 roundings.
const SSE_BOUND: f64 = 1e-6;
/// The same for the C routines: `ReciprocalSqrt` (`0x5f3759df` and one
/// Newton-Raphson step) is accurate to about 1.75e-3 relative, and the
/// divisor component is at most 1.
const C_BOUND: f64 = 1.8e-3;

/// A joint of the one sentinel of the tests (`common::harness::SENTINEL`):
/// the output buffers start with it, so a value that was not written shows.
fn sentinel_joint() -> JointQuat {
    JointQuat::sentinel()
}

/// Runs a raw kernel on `mats` into a fresh sentinel-filled output with two
/// extra joints, checks that those two are untouched, and returns the rest.
fn run(k: Kernel, mats: &[JointMat]) -> Vec<JointQuat> {
    let n = mats.len();
    let mut out = vec![sentinel_joint(); n + 2];
    // SAFETY: `out` has room for `n` joints (and two more), `mats` holds `n`
    // matrices; distinct allocations; `n` is far below MAX_JOINTS.
    unsafe { k(out.as_mut_ptr(), mats.as_ptr(), n as i32) };
    assert_bit_identical(&out[n..], &[sentinel_joint(); 2], "the joints after the last were written");
    out.truncate(n);
    out
}

/// The paper-convention joint matrix of a unit quaternion (normalised in f64
/// first) and a translation, rounded to f32.
fn mat_of(q: [f64; 4], t: [f64; 3]) -> JointMat {
    JointMat { mat: joint_mat_paper_f64(normalize_f64(q), t).map(|v| v as f32) }
}

/// The 3x3 part of a joint matrix, widened.
fn mat3(m: &JointMat) -> [[f64; 3]; 3] {
    affine_parts_f64(&mat_f64(m)).0
}

/// The f64 oracle for a paper-convention matrix (the oracle takes the
/// column-vector matrix, the transpose).
fn oracle(m: &JointMat) -> [f64; 4] {
    mat3_paper_to_quat_f64(mat3(m))
}

fn q64(j: &JointQuat) -> [f64; 4] {
    f64x4(j.q.to_array())
}

/// Max abs error up to sign of `out` against the oracle of `mats`.
fn max_err_vs_oracle(out: &[JointQuat], mats: &[JointMat]) -> f64 {
    out.iter().zip(mats).map(|(j, m)| quat_diff_up_to_sign(q64(j), oracle(m))).fold(0.0, f64::max)
}

/// Checks the translation part of every output: `t` is column 3 of the
/// matrix bit for bit, and `q[7]` (`t.w`) is `+0.0`.
#[track_caller]
fn assert_translations(out: &[JointQuat], mats: &[JointMat], ctx: &str) {
    for (i, (j, m)) in out.iter().zip(mats).enumerate() {
        let want = [m.mat[3].to_bits(), m.mat[7].to_bits(), m.mat[11].to_bits(), 0];
        assert_eq!(j.t.to_array().map(f32::to_bits), want, "{ctx}: joint {i}: translation or q[7]");
    }
}

// ---------------------------------------------------------------------------
// The C routines (every target).

/// The blueprint (k0..k3, s0..s2) computes exactly what the four unrolled
/// cases compute: `s * m` with `s = ±1` and `a - (-b)` are exact.
#[test]
fn blueprint_equals_the_four_case_routine_bit_for_bit() {
    let mut mats = paper_mats(1, 1000);
    mats.extend(edges::mats().into_iter().map(|(_, m)| m));
    let mut rng = Rng::new(2);
    mats.extend((0..2000).map(|_| JointMat { mat: core::array::from_fn(|_| f32::from_bits(rng.next_u64() as u32)) }));
    let a = run(C_KERNELS[0].1, &mats);
    let b = run(C_KERNELS[1].1, &mats);
    assert_bit_identical(&a, &b, "four-case C vs blueprint C");
}

/// Both C routines against the oracle: within `ReciprocalSqrt`'s accuracy.
#[test]
fn c_routines_against_the_oracle() {
    let mats = paper_mats(3, 4096);
    for (name, k) in C_KERNELS {
        let out = run(k, &mats);
        let err = max_err_vs_oracle(&out, &mats);
        println!("{name}: max abs error vs the f64 oracle (up to sign) {err:.3e}");
        assert!(err < C_BOUND, "{name}: {err:e}");
        // ReciprocalSqrt's error is not small: the C's quaternions are visibly
        // off unit length.
        assert!(err > 1e-4, "{name}: {err:e}, ReciprocalSqrt is more accurate than expected");
        assert_translations(&out, &mats, name);
    }
}

/// The safe function's errors, with nothing written, for every implementation.
#[test]
fn errors_write_nothing() {
    let mats = paper_mats(5, 9);
    for imp in animasm::mats_to_quats::forms() {
        for (nq, nm) in [(9, 8), (8, 9), (0, 1), (1, 0), (5, 9)] {
            let mut out = vec![sentinel_joint(); nq];
            let got = animasm::mats_to_quats::mats_to_quats(imp, &mut out, &mats[..nm]);
            assert_eq!(got, Err(Error::LengthMismatch { what: "mats", expected: nq, found: nm }), "{imp}");
            assert_bit_identical(&out, &vec![sentinel_joint(); nq], "quats after Err");
        }
        let mut none: Vec<JointQuat> = Vec::new();
        assert_eq!(animasm::mats_to_quats::mats_to_quats(imp, &mut none, &[]), Ok(()));
    }
    let e = Error::LengthMismatch { what: "mats", expected: 9, found: 8 };
    assert!(e.to_string().contains("`mats`"), "{e}");
}

/// A zero-filled vector of `n` elements whose pages the OS maps lazily: the
/// test of the count limit needs slices longer than `MAX_JOINTS` without
/// writing gigabytes.
fn zeroed_vec<T>(n: usize) -> Vec<T> {
    let layout = std::alloc::Layout::array::<T>(n).unwrap();
    // SAFETY: the layout is not zero-sized (n > 0, T is not a ZST); every
    // all-zero bit pattern is a valid `JointQuat` / `JointMat` (floats), the
    // allocation is made with the global allocator and the layout of
    // `Vec<T>` with capacity `n`.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout).cast::<T>();
        assert!(!p.is_null(), "allocation of {} bytes failed", layout.size());
        Vec::from_raw_parts(p, n, n)
    }
}

#[test]
#[cfg_attr(
    target_pointer_width = "32",
    ignore = "a slice longer than MAX_JOINTS is over isize::MAX bytes, which no 32-bit target can make"
)]
fn too_many_joints() {
    assert_eq!(MAX_JOINTS, i32::MAX as usize / 48);
    // (MAX_JOINTS + 1) * 48 exceeds i32::MAX: the listing's `imul eax,
    // JOINTMAT_SIZE` would overflow.
    assert!((MAX_JOINTS + 1) * 48 > i32::MAX as usize && MAX_JOINTS * 48 <= i32::MAX as usize);
    let n = MAX_JOINTS + 1;
    let mats: Vec<JointMat> = zeroed_vec(n);
    let mut quats: Vec<JointQuat> = zeroed_vec(n);
    for j in [0, 1, 2, 3, n - 1] {
        quats[j] = sentinel_joint();
    }
    for imp in animasm::mats_to_quats::forms() {
        let got = animasm::mats_to_quats::mats_to_quats(imp, &mut quats, &mats);
        assert_eq!(got, Err(Error::TooLong { what: "quats", len: n, max: MAX_JOINTS }), "{imp}");
        for j in [0, 1, 2, 3, n - 1] {
            assert_bit_identical(&quats[j..j + 1], &[sentinel_joint()], "quats after Err");
        }
    }
}

// ---------------------------------------------------------------------------
// The listing (x86_64).

#[cfg(target_arch = "x86_64")]
mod listing {
    use super::*;
    use core::arch::x86_64::*;
    use proptest::prelude::*;

    /// asm and intrinsics.
    const TWINS: [(&str, Kernel); 2] = [
        ("asm", animasm::mats_to_quats::asm::mats_to_quats),
        ("intrinsics", animasm::mats_to_quats::intrinsics::mats_to_quats),
    ];

    /// Runs both twins, asserts they agree (NaNs aside) and returns asm's.
    #[track_caller]
    fn run_twins(mats: &[JointMat], ctx: &str) -> Vec<JointQuat> {
        let a = run(TWINS[0].1, mats);
        let i = run(TWINS[1].1, mats);
        assert_bit_identical(&a, &i, &format!("asm vs intrinsics, {ctx}"));
        a
    }

    /// Runs one kernel on one matrix (so it goes through loopMat1).
    fn one(k: Kernel, m: &JointMat) -> JointQuat {
        run(k, core::slice::from_ref(m))[0]
    }

    fn q_bits(j: &JointQuat) -> [u32; 4] {
        j.q.to_array().map(f32::to_bits)
    }

    #[test]
    fn twins_on_every_count() {
        for n in (0..=12).chain([1023, 1024]) {
            let mats = paper_mats(100 + n as u64, n);
            let out = run_twins(&mats, &format!("{n} random rotations"));
            assert_translations(&out, &mats, &format!("{n} joints"));
            assert!(max_err_vs_oracle(&out, &mats) < SSE_BOUND, "{n} joints");
        }
    }

    /// Each joint comes out the same whether loopMat4 or loopMat1 converted
    /// it: the two loops run the same operations in the same order.
    #[test]
    fn both_loops_give_the_same_bits() {
        for n in 0..=12 {
            let mats = paper_mats(200 + n as u64, n);
            let out = run_twins(&mats, "loops");
            for (i, m) in mats.iter().enumerate() {
                assert_eq!(q_bits(&out[i]), q_bits(&one(TWINS[0].1, m)), "{n} joints, joint {i}");
            }
        }
    }

    /// Every edge matrix in every lane of the 4-wide loop and in the 1-wide
    /// loop, among random rotations.
    #[test]
    fn twins_on_edge_cases_in_every_lane() {
        for (what, m) in edges::mats() {
            for n in 1..=9 {
                for pos in 0..n {
                    let mut mats = paper_mats(pos as u64, n);
                    mats[pos] = m;
                    let out = run_twins(&mats, &format!("{what} at {pos} of {n}"));
                    assert_translations(&out, &mats, what);
                    // The other joints are not disturbed by the edge case.
                    for i in (0..n).filter(|&i| i != pos) {
                        assert_eq!(q_bits(&out[i]), q_bits(&one(TWINS[0].1, &mats[i])), "{what}: joint {i}");
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(animasm_testkit::strategies::config(512, 2))]

        /// Arbitrary bit patterns in every float of every matrix, through the
        /// raw kernels: asm and intrinsics agree, and so do the two C routines.
        #[test]
        fn twins_on_arbitrary_bits(bits in proptest::collection::vec(any::<[u32; 12]>(), 0..14)) {
            let mats: Vec<JointMat> = bits.iter().map(|b| JointMat { mat: b.map(f32::from_bits) }).collect();
            let out = run_twins(&mats, "arbitrary bits");
            assert_translations(&out, &mats, "arbitrary bits");
            assert_bit_identical(&run(C_KERNELS[0].1, &mats), &run(C_KERNELS[1].1, &mats), "C vs blueprint");
        }

        /// Random rotations: within the bound of the oracle, and the same
        /// case as the C (no ties: the results agree without a sign flip).
        #[test]
        fn rotations_within_the_bound(seed in any::<u64>(), n in 1usize..13) {
            let mats = paper_mats(seed, n);
            let out = run_twins(&mats, "rotations");
            prop_assert!(max_err_vs_oracle(&out, &mats) < SSE_BOUND);
            let c = run(C_KERNELS[0].1, &mats);
            for (a, b) in out.iter().zip(&c) {
                let d = max_abs_diff(a.q.to_array(), q64(b));
                prop_assert!(d < C_BOUND, "asm {:?} vs C {:?}", a.q, b.q);
            }
        }
    }

    /// The accuracy figures of asm_notes/mats_to_quats.md ("Accuracy").
    #[test]
    fn accuracy_against_the_oracle() {
        let mats = paper_mats(7, 100_000);
        let out = run_twins(&mats, "100000 rotations");
        let err = max_err_vs_oracle(&out, &mats);
        let c = run(C_KERNELS[0].1, &mats);
        let err_c = max_err_vs_oracle(&c, &mats);
        let vs_c = out.iter().zip(&c).map(|(a, b)| quat_diff_up_to_sign(q64(a), q64(b))).fold(0.0, f64::max);
        let norm =
            out.iter().map(|j| (q64(j).iter().map(|v| v * v).sum::<f64>().sqrt() - 1.0).abs()).fold(0.0, f64::max);
        println!(
            "asm/intrinsics vs oracle {err:.3e}, C vs oracle {err_c:.3e}, asm vs C {vs_c:.3e}, |q| - 1 {norm:.3e}"
        );
        assert!(err < SSE_BOUND, "{err:e}");
        assert!(err_c < C_BOUND, "{err_c:e}");
        assert!(vs_c < C_BOUND + SSE_BOUND, "{vs_c:e}");
        assert!(norm < SSE_BOUND, "{norm:e}");
    }

    /// quaternion -> matrix (f64, the paper's convention) -> quaternion gives
    /// the quaternion back up to sign; the chosen divisor comes out positive,
    /// so some come back negated.
    #[test]
    fn round_trips_up_to_sign() {
        let mut rng = common::inputs::Rng::new(8);
        let qs: Vec<[f64; 4]> = (0..4096).map(|_| rng.unit_quat_f64()).collect();
        let mats: Vec<JointMat> = qs.iter().map(|&q| mat_of(q, [0.0; 3])).collect();
        for (name, out) in [("asm", run_twins(&mats, "round trip")), ("scalar", run(C_KERNELS[0].1, &mats))] {
            let bound = if name == "asm" { SSE_BOUND } else { C_BOUND };
            let mut negated = 0;
            for (q, j) in qs.iter().zip(&out) {
                assert!(quat_diff_up_to_sign(q64(j), *q) < bound, "{name}: {q:?} -> {:?}", j.q);
                negated += usize::from(max_abs_diff(j.q.to_array(), q.map(|v| -v)) < bound);
            }
            assert!(negated > 1000 && negated < 3096, "{name}: {negated} of 4096 came back negated");
        }
    }

    /// Matrices of the Fox rest pose and of every keyed rotation of its three
    /// animations (about 10% of which have w < 0), with the rest translations.
    #[test]
    fn fox_poses() {
        let rest = fox::rest_pose();
        let keyed = fox::all_keyed_rotations();
        let mut qs: Vec<[f64; 4]> = rest.iter().map(|j| j.q.to_array().map(f64::from)).collect();
        qs.extend(keyed.iter().map(|q| q.map(f64::from)));
        let ts: Vec<[f64; 3]> =
            rest.iter().map(|j| [j.t.x, j.t.y, j.t.z].map(f64::from)).cycle().take(qs.len()).collect();
        let mats: Vec<JointMat> = qs.iter().zip(&ts).map(|(&q, &t)| mat_of(q, t)).collect();
        let neg_w = keyed.iter().filter(|q| q[3] < 0.0).count();
        println!("Fox: {} rest joints, {} keyed rotations ({neg_w} with w < 0)", rest.len(), keyed.len());
        assert!(neg_w > 0);
        let out = run_twins(&mats, "Fox");
        assert_translations(&out, &mats, "Fox");
        let err = max_err_vs_oracle(&out, &mats);
        let back =
            qs.iter().zip(&out).map(|(q, j)| quat_diff_up_to_sign(q64(j), normalize_f64(*q))).fold(0.0, f64::max);
        let c = run(C_KERNELS[0].1, &mats);
        let err_c = max_err_vs_oracle(&c, &mats);
        println!("Fox: asm vs oracle {err:.3e}, round trip {back:.3e}, C vs oracle {err_c:.3e}");
        assert!(err < SSE_BOUND && back < SSE_BOUND && err_c < C_BOUND);
        for (i, j) in rest.iter().enumerate() {
            assert_eq!(out[i].t.to_array()[..3], j.t.to_array()[..3], "rest joint {i}: translation");
        }
    }

    /// The Fox inverse bind matrices (glTF: column-vector convention, real
    /// orthonormal matrices): transposed into the paper's convention they
    /// convert to the oracle's quaternion; as they are, to its conjugate.
    #[test]
    fn column_vector_matrices_give_the_conjugate() {
        let ib = fox::inverse_bind();
        let as_is: Vec<JointMat> = ib.iter().map(|m| JointMat { mat: *m }).collect();
        let transposed: Vec<JointMat> = as_is
            .iter()
            .map(|m| JointMat {
                mat: core::array::from_fn(|i| if i % 4 == 3 { m.mat[i] } else { m.mat[(i % 4) * 4 + i / 4] }),
            })
            .collect();
        let t = run_twins(&transposed, "inverse binds, transposed");
        let r = run_twins(&as_is, "inverse binds");
        for (i, m) in as_is.iter().enumerate() {
            let want = mat3_to_quat_f64(mat3(m));
            let conj = [-want[0], -want[1], -want[2], want[3]];
            assert!(quat_diff_up_to_sign(q64(&t[i]), want) < SSE_BOUND, "joint {i}: {:?} vs {want:?}", t[i].q);
            assert!(quat_diff_up_to_sign(q64(&r[i]), conj) < SSE_BOUND, "joint {i}: {:?} vs {conj:?}", r[i].q);
        }
    }

    #[test]
    fn q7_is_written_as_zero() {
        for n in (0..=12).chain([1024]) {
            let mut mats = paper_mats(300 + n as u64, n);
            for m in &mut mats {
                // NaN, -0.0 and signalling-NaN translations: copied as raw bits.
                m.mat[3] = f32::from_bits(0x7F80_0001);
                m.mat[7] = -0.0;
                m.mat[11] = f32::from_bits(0xFFC0_1234);
            }
            for (name, k) in TWINS.into_iter().chain(C_KERNELS) {
                let out = run(k, &mats);
                assert_translations(&out, &mats, &format!("{name}, {n} joints"));
            }
        }
    }

    /// Erratum "ties": `cmpnltps` is `>=`, the C's `>` is strict. A trace of
    /// exactly 0 takes the `w` case in the listing and not in the C. With all
    /// four components `±0.5` the diagonal is all zeros: the C falls through
    /// to the `z` case. Where `z` and `w` differ in sign, the listing returns
    /// `q` (w > 0) and the C `-q` (z > 0): both right, up to sign.
    #[test]
    fn trace_exactly_zero_takes_the_w_case() {
        let q = [0.5, 0.5, -0.5, 0.5];
        let m = mat_of(q, [0.0; 3]);
        assert_eq!([m.mat[0], m.mat[5], m.mat[10]], [0.0; 3]);
        let neg = q.map(|v| -v);
        for n in [1, 4, 5, 8] {
            let out = run_twins(&vec![m; n], "trace 0");
            for j in &out {
                assert!(max_abs_diff(j.q.to_array(), q) < SSE_BOUND && j.q.w > 0.0, "listing: {:?}", j.q);
            }
        }
        for (name, k) in C_KERNELS {
            let j = one(k, &m);
            assert!(max_abs_diff(j.q.to_array(), neg) < C_BOUND && j.q.z > 0.0, "{name}: {:?}", j.q);
        }
        // The zero matrix (not a rotation) shows the choice alone: the divisor
        // component is s * t with t = 1, the others are 0.
        let zero = JointMat { mat: [0.0; 12] };
        let j = run_twins(&[zero], "zero matrix")[0];
        assert!(j.q.w > 0.49 && j.q.x == 0.0 && j.q.y == 0.0 && j.q.z == 0.0, "listing: {:?}", j.q);
        let c = one(C_KERNELS[0].1, &zero);
        assert!(c.q.z > 0.49 && c.q.x == 0.0 && c.q.y == 0.0 && c.q.w == 0.0, "C: {:?}", c.q);
    }

    /// Erratum "ties", continued: equal diagonal elements (trace < 0). The
    /// listing takes the earlier of x, y, z (`m00 >= m11 && m00 >= m22`,
    /// then `m11 >= m22`); the C needs a strict `>` and takes the next case.
    /// Half-turns about a diagonal axis with components of opposite signs
    /// make the two results opposite quaternions.
    #[test]
    fn equal_diagonal_elements_take_the_earlier_case() {
        let a = core::f64::consts::FRAC_1_SQRT_2;
        // (quaternion, component the listing makes positive, the C's)
        let cases = [([a, -a, 0.0, 0.0], 0, 1), ([a, 0.0, -a, 0.0], 0, 2), ([0.0, a, -a, 0.0], 1, 2)];
        for (q, listing_k, c_k) in cases {
            let m = mat_of(q, [0.0; 3]);
            let d = [m.mat[0], m.mat[5], m.mat[10]];
            assert_eq!(d[listing_k], d[c_k], "{q:?}: the tie is exact in f32: {d:?}");
            assert!(d[0] + d[1] + d[2] < 0.0);
            let neg = q.map(|v| -v);
            for n in [1, 4, 7] {
                for j in run_twins(&vec![m; n], "diagonal tie") {
                    let v = j.q.to_array();
                    assert!(v[listing_k] > 0.0 && max_abs_diff(j.q.to_array(), q) < SSE_BOUND, "{q:?}: {v:?}");
                }
            }
            for (name, k) in C_KERNELS {
                let j = one(k, &m);
                let v = j.q.to_array();
                assert!(v[c_k] > 0.0 && max_abs_diff(j.q.to_array(), neg) < C_BOUND, "{name} {q:?}: {v:?}");
            }
        }
        // diag(0, 0, -1) (not a rotation): x in the listing, y in the C.
        let mut m = JointMat { mat: [0.0; 12] };
        m.mat[10] = -1.0;
        let j = run_twins(&[m], "diag(0, 0, -1)")[0];
        assert!(j.q.x > 0.7 && j.q.y == 0.0, "listing: {:?}", j.q);
        let c = one(C_KERNELS[0].1, &m);
        assert!(c.q.y > 0.7 && c.q.x == 0.0, "C: {:?}", c.q);
    }

    /// Erratum "NaN takes the w case": `cmpnltps` is true on unordered
    /// operands, so a NaN trace selects `w`, where every C comparison fails
    /// and falls to `x`, `y` or `z`. diag(inf, -inf, 0) has a NaN trace: the
    /// listing's `t` is NaN, the C takes the `x` case with `t = inf`. The
    /// stores stay in bounds either way and the translations are copied.
    #[test]
    fn nan_trace_takes_the_w_case() {
        let mut m = JointMat::IDENTITY;
        m.mat[0] = f32::INFINITY;
        m.mat[5] = f32::NEG_INFINITY;
        m.mat[10] = 0.0;
        m.mat[3] = 7.0;
        for n in [1, 4] {
            for j in run_twins(&vec![m; n], "NaN trace") {
                assert!(j.q.to_array().iter().all(|v| v.is_nan()), "listing: {:?}", j.q);
                assert_eq!(j.t.x, 7.0);
            }
        }
        let c = one(C_KERNELS[0].1, &m);
        assert!(c.q.x == f32::NEG_INFINITY, "C took the x case: {:?}", c.q);
    }

    /// Erratum "negative zeros": the listing computes `q[k1..k3]` as
    /// `(s2 * m10 - m01) * -s` (xorps with the sign, `subss`, then `mulss` by
    /// `-s`), the C `(m01 - s2 * m10) * s`. Equal in value, but where the
    /// difference is 0 the listing's product is `-0.0` and the C's `+0.0`:
    /// the identity matrix gives `(-0, -0, -0, 1)`.
    #[test]
    fn zero_components_come_out_negative() {
        for n in [1, 4, 5] {
            for j in run_twins(&vec![JointMat::IDENTITY; n], "identity") {
                let v = j.q.to_array();
                assert_eq!(v[..3].iter().map(|x| x.to_bits()).collect::<Vec<_>>(), [0x8000_0000; 3], "{v:?}");
                assert!((f64::from(v[3]) - 1.0).abs() < SSE_BOUND);
            }
        }
        for (name, k) in C_KERNELS {
            let v = one(k, &JointMat::IDENTITY).q.to_array();
            assert_eq!(v[..3].iter().map(|x| x.to_bits()).collect::<Vec<_>>(), [0; 3], "{name}: {v:?}");
        }
    }

    /// Erratum "t in pairs": the listing sums `t` as
    /// `(s0*m00 + s1*m11) + (s2*m22 + 1)` (`addps xmm5, xmm6; addps xmm7, one;
    /// addps xmm5, xmm7`), the C left to right `((s0*m00 + s1*m11) + s2*m22) + 1`.
    /// Replaying the listing's `q[k0] = s * t` with this CPU's `rsqrtss`
    /// reproduces the asm bit for bit with the listing's order only.
    #[test]
    fn t_is_summed_in_pairs() {
        let mats = paper_mats(9, 4000);
        let out = run_twins(&mats, "t");
        let mut differ = 0;
        for (m, j) in mats.iter().zip(&out) {
            let d = [m.mat[0], m.mat[5], m.mat[10]];
            // The case and its signs, as the listing chooses them (no ties here).
            let (k0, s) = if d[0] + d[1] + d[2] >= 0.0 {
                (3, [1.0, 1.0, 1.0])
            } else if d[0] >= d[1] && d[0] >= d[2] {
                (0, [1.0, -1.0, -1.0])
            } else if d[1] >= d[2] {
                (1, [-1.0, 1.0, -1.0])
            } else {
                (2, [-1.0f32, -1.0, 1.0])
            };
            let listing_t = (s[0] * d[0] + s[1] * d[1]) + (s[2] * d[2] + 1.0);
            let c_t = ((s[0] * d[0] + s[1] * d[1]) + s[2] * d[2]) + 1.0;
            let replay = |t: f32| {
                // SAFETY: SSE is baseline on x86_64.
                let r = unsafe { _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(t))) };
                let s = (r * -0.25) * (((t * r) * r) - 3.0);
                t * s
            };
            let got = j.q.to_array()[k0];
            assert_eq!(got.to_bits(), replay(listing_t).to_bits(), "{:?}", m.mat);
            differ += usize::from(replay(c_t).to_bits() != got.to_bits());
        }
        println!("t summed as the C sums it would change q[k0] in {differ} of 4000 joints");
        assert!(differ > 0);
    }

    /// Erratum of the text "section 4's rsqrt snippet": the first snippet of
    /// section 4 (`rsqrtps xmm6, xmm5; mulps xmm5, xmm6; subps xmm5, c0;
    /// mulps xmm6, c1; mulps xmm6, xmm5`) has one `mulps xmm5, xmm6` where
    /// Appendix B (and its own second snippet's intent) has two: it computes
    /// `-0.5 r (x r - 3)` instead of the Newton-Raphson step
    /// `-0.5 r (x r r - 3)`. Shown with both sequences in intrinsics.
    #[test]
    fn section4_rsqrt_snippet_drops_a_mulps() {
        // SAFETY: SSE is baseline on x86_64.
        unsafe {
            let x = _mm_setr_ps(0.25, 1.0, 2.0, 4.0);
            let c0 = _mm_set1_ps(3.0);
            let c1 = _mm_set1_ps(-0.5);
            // Appendix B (with SIMD_SP_rsqrt_c1 = -0.5 for the full 1/sqrt).
            let r = _mm_rsqrt_ps(x);
            let appendix = _mm_mul_ps(_mm_mul_ps(r, c1), _mm_sub_ps(_mm_mul_ps(_mm_mul_ps(x, r), r), c0));
            // Section 4 as printed.
            let printed = _mm_mul_ps(_mm_mul_ps(r, c1), _mm_sub_ps(_mm_mul_ps(x, r), c0));
            let (mut a, mut p) = ([0f32; 4], [0f32; 4]);
            _mm_storeu_ps(a.as_mut_ptr(), appendix);
            _mm_storeu_ps(p.as_mut_ptr(), printed);
            for (i, xi) in [0.25f32, 1.0, 2.0, 4.0].into_iter().enumerate() {
                let exact = 1.0 / xi.sqrt();
                assert!(((a[i] - exact) / exact).abs() < 1e-6, "appendix at {xi}: {}", a[i]);
                if xi != 1.0 {
                    assert!(((p[i] - exact) / exact).abs() > 0.2, "printed snippet at {xi}: {}", p[i]);
                }
            }
        }
    }

    /// The safe function dispatches to the kernels.
    #[test]
    fn safe_function_matches_the_kernels() {
        let mats = paper_mats(10, 37);
        for (imp, k) in [(Impl::Asm, TWINS[0].1), (Impl::Intrinsics, TWINS[1].1), (Impl::Scalar, C_KERNELS[0].1)] {
            let mut out = vec![sentinel_joint(); 37];
            animasm::mats_to_quats::mats_to_quats(imp, &mut out, &mats).unwrap();
            assert_bit_identical(&out, &run(k, &mats), &format!("{imp}"));
        }
    }

    /// `same_bits` is what the twins are compared with; make sure it is not
    /// vacuous here: a single flipped bit is caught.
    #[test]
    fn twin_comparison_catches_one_bit() {
        let mats = paper_mats(11, 5);
        let a = run(TWINS[0].1, &mats);
        let mut b = a.clone();
        b[3].q.y = f32::from_bits(b[3].q.y.to_bits() ^ 1);
        assert!(!same_bits(a[3].q.y, b[3].q.y));
    }
}

// ---------------------------------------------------------------------------
// The successors, `Impl::Avx2`, `Impl::Avx512`, `Impl::Neon` and
// `Impl::Portable` (`asm_notes/mats_to_quats.md`, "Successor: ..."): each test runs on every
// one this CPU has (`Avx2` and `Avx512` are skipped, with a message, where the
// CPU lacks their features). The comparisons with the listing run where it does
// (x86_64): its `rsqrtps` has no exact model.

mod successor {
    use super::*;
    use proptest::prelude::*;

    /// Max abs error (up to sign) of every successor against the f64 oracle
    /// on orthonormal matrices rounded to f32: the correctly rounded
    /// `sqrt` and division, then a few f32 roundings. The results are the
    /// same bits on every CPU, so the measured errors are too (printed by
    /// `successor_accuracy_no_worse_than_the_listing`: 1.5e-7 on 100 000
    /// random rotations).
    const SUCCESSOR_BOUND: f64 = 2e-7;

    /// The listing's quaternions of `mats` where it runs (x86_64), `None`
    /// elsewhere.
    fn listing(mats: &[JointMat]) -> Option<Vec<JointQuat>> {
        #[cfg(target_arch = "x86_64")]
        return Some(run(animasm::mats_to_quats::asm::mats_to_quats, mats));
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = mats;
            None
        }
    }

    /// The successor forms this CPU runs, fastest first, with their raw
    /// kernels: `Impl::Neon` (aarch64), `Impl::Avx512` and `Impl::Avx2`
    /// (x86_64 with their features; a message where the CPU lacks them) and
    /// `Impl::Portable`
    /// (everywhere).
    fn successors() -> Vec<(Impl, Kernel)> {
        let mut out = Vec::new();
        // The successors in the table's order (the order `Auto` tries).
        let table = animasm::roster::find("mats_to_quats").expect("in the roster");
        let order: Vec<Impl> =
            table.all_forms().filter(|f| f.origin == animasm::Origin::Successor).map(|f| f.imp).collect();
        for imp in order {
            match animasm::mats_to_quats::kernel(imp) {
                Ok(k) => out.push((imp, k)),
                Err(Error::Unsupported(_)) => {}
                Err(e) => common::cpu::skipped(&format!("mats_to_quats: Impl::{imp:?}: {e}")),
            }
        }
        assert!(out.iter().any(|&(imp, _)| imp == Impl::Portable), "Impl::Portable runs everywhere");
        out
    }

    fn one(k: Kernel, m: &JointMat) -> JointQuat {
        run(k, core::slice::from_ref(m))[0]
    }

    fn q_bits(j: &JointQuat) -> [u32; 4] {
        j.q.to_array().map(f32::to_bits)
    }

    /// The case of the listing's choice (`>=`, a NaN trace takes `w`), as
    /// the successors make it: `(k0, [s0, s1, s2])`, the divisor component
    /// and the sign multipliers.
    fn listing_case(m: &JointMat) -> (usize, [f32; 3]) {
        let d = [m.mat[0], m.mat[5], m.mat[10]];
        let nlt = |a: f32, b: f32| a.partial_cmp(&b) != Some(core::cmp::Ordering::Less);
        if nlt((d[0] + d[1]) + d[2], 0.0) {
            (3, [1.0, 1.0, 1.0])
        } else if nlt(d[0], d[1]) && nlt(d[0], d[2]) {
            (0, [1.0, -1.0, -1.0])
        } else if nlt(d[1], d[2]) {
            (1, [-1.0, 1.0, -1.0])
        } else {
            (2, [-1.0, -1.0, 1.0])
        }
    }

    /// Every count 0..=67 (every tail length of the 8- and 4-wide loops, up
    /// to eight blocks): nothing written past `n` (`run` checks two
    /// sentinels), within [`SUCCESSOR_BOUND`] of the oracle, the listing's
    /// sign (same case) and value within `SUCCESSOR_BOUND + SSE_BOUND` where
    /// it runs, the scalar port's within [`C_BOUND`], translations bit for
    /// bit and `q[7] = +0.0`.
    #[test]
    fn successor_every_count_0_to_67() {
        for (imp, k) in successors() {
            let mats = paper_mats(0x5ecc, 67);
            for n in 0..=67 {
                let m = &mats[..n];
                let out = run(k, m);
                assert_translations(&out, m, &format!("{imp} n={n}"));
                let e = max_err_vs_oracle(&out, m);
                assert!(e < SUCCESSOR_BOUND, "{imp} n={n}: {e:e} from the oracle");
                for (i, (a, b)) in out.iter().zip(listing(m).unwrap_or_default()).enumerate() {
                    assert!(
                        max_abs_diff(a.q.to_array(), q64(&b)) < SUCCESSOR_BOUND + SSE_BOUND,
                        "{imp} n={n} joint {i}: {:?} vs {:?}",
                        a.q,
                        b.q
                    );
                }
                for (i, (a, b)) in out.iter().zip(run(C_KERNELS[0].1, m)).enumerate() {
                    assert!(
                        max_abs_diff(a.q.to_array(), q64(&b)) < C_BOUND + SUCCESSOR_BOUND,
                        "{imp} n={n} joint {i}: vs the scalar port"
                    );
                }
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
                let mats: Vec<JointMat> = paper_mats(700 + n as u64, n);
                let mut out: Vec<JointQuat> = Vec::with_capacity(n);
                out.resize(n, sentinel_joint());
                assert_eq!((mats.capacity(), out.capacity()), (n, n));
                // SAFETY: both Vecs hold exactly `n` elements, are aligned for
                // their types and distinct; `successors()` checked the CPU.
                unsafe { k(out.as_mut_ptr(), mats.as_ptr(), n as i32) };
                assert_translations(&out, &mats, &format!("{imp} n={n}"));
                assert!(max_err_vs_oracle(&out, &mats) < SUCCESSOR_BOUND, "{imp} n={n}");
            }
        }
    }

    /// 100 000 random rotations: within [`SUCCESSOR_BOUND`] of the oracle,
    /// unit length within it, and no less accurate than the listing where
    /// it runs.
    #[test]
    fn successor_accuracy_no_worse_than_the_listing() {
        let mats = paper_mats(2, 100_000);
        for (imp, k) in successors() {
            let out = run(k, &mats);
            let e = max_err_vs_oracle(&out, &mats);
            let norm =
                out.iter().map(|j| (q64(j).iter().map(|v| v * v).sum::<f64>().sqrt() - 1.0).abs()).fold(0.0, f64::max);
            println!("random rotations: {imp} {e:.3e} (|q| - 1 up to {norm:.3e})");
            assert!(e < SUCCESSOR_BOUND && norm < SUCCESSOR_BOUND, "{imp} {e:e}, |q| - 1 {norm:e}");
            if let Some(l) = listing(&mats) {
                let e_asm = max_err_vs_oracle(&l, &mats);
                println!("random rotations: the listing {e_asm:.3e}");
                assert!(e <= e_asm, "{imp} {e:e}, asm {e_asm:e}");
            }
        }
    }

    /// The real Fox poses (rest pose and every keyed rotation, about 10% with
    /// w < 0) and the round trip quaternion -> matrix -> quaternion; the Fox
    /// inverse bind matrices (glTF's column-vector convention) give the
    /// conjugate, transposed the oracle's quaternion.
    #[test]
    fn successor_fox_poses() {
        let rest = fox::rest_pose();
        let keyed = fox::all_keyed_rotations();
        let mut qs: Vec<[f64; 4]> = rest.iter().map(|j| j.q.to_array().map(f64::from)).collect();
        qs.extend(keyed.iter().map(|q| q.map(f64::from)));
        let ts: Vec<[f64; 3]> =
            rest.iter().map(|j| [j.t.x, j.t.y, j.t.z].map(f64::from)).cycle().take(qs.len()).collect();
        let mats: Vec<JointMat> = qs.iter().zip(&ts).map(|(&q, &t)| mat_of(q, t)).collect();
        for (imp, k) in successors() {
            let out = run(k, &mats);
            assert_translations(&out, &mats, &format!("{imp}: Fox"));
            let err = max_err_vs_oracle(&out, &mats);
            let back =
                qs.iter().zip(&out).map(|(q, j)| quat_diff_up_to_sign(q64(j), normalize_f64(*q))).fold(0.0, f64::max);
            println!("Fox: {imp} vs oracle {err:.3e}, round trip {back:.3e}");
            assert!(err < SUCCESSOR_BOUND && back < SUCCESSOR_BOUND, "{imp}: {err:e}, {back:e}");
            if let Some(l) = listing(&mats) {
                let err_asm = max_err_vs_oracle(&l, &mats);
                println!("Fox: the listing vs oracle {err_asm:.3e}");
                assert!(err <= err_asm, "{imp}: {err:e}, the listing {err_asm:e}");
            }
            let ib = fox::inverse_bind();
            let as_is: Vec<JointMat> = ib.iter().map(|m| JointMat { mat: *m }).collect();
            let transposed: Vec<JointMat> = as_is
                .iter()
                .map(|m| JointMat {
                    mat: core::array::from_fn(|i| if i % 4 == 3 { m.mat[i] } else { m.mat[(i % 4) * 4 + i / 4] }),
                })
                .collect();
            let (t, r) = (run(k, &transposed), run(k, &as_is));
            for (i, m) in as_is.iter().enumerate() {
                let want = mat3_to_quat_f64(mat3(m));
                let conj = [-want[0], -want[1], -want[2], want[3]];
                assert!(quat_diff_up_to_sign(q64(&t[i]), want) < SUCCESSOR_BOUND, "{imp}: joint {i}");
                assert!(quat_diff_up_to_sign(q64(&r[i]), conj) < SUCCESSOR_BOUND, "{imp}: joint {i}");
            }
        }
    }

    /// Kept, E1: a trace of exactly 0 takes the `w` case (`q` with w > 0,
    /// where the C returns `-q`), in a full block and in the tail; the zero
    /// matrix gives `(0, 0, 0, 0.5)` exactly (`t = 1`, `s = 0.5`).
    #[test]
    fn successor_e1_kept_trace_exactly_zero_takes_the_w_case() {
        for (imp, k) in successors() {
            let q = [0.5, 0.5, -0.5, 0.5];
            let m = mat_of(q, [0.0; 3]);
            assert_eq!([m.mat[0], m.mat[5], m.mat[10]], [0.0; 3]);
            for n in [1, 3, 4, 5, 7, 8, 9, 16] {
                for j in run(k, &vec![m; n]) {
                    assert!(max_abs_diff(j.q.to_array(), q) < SUCCESSOR_BOUND && j.q.w > 0.0, "{imp}: {:?}", j.q);
                }
            }
            let j = one(k, &JointMat { mat: [0.0; 12] });
            assert_eq!(q_bits(&j), [0, 0, 0, 0.5f32.to_bits()], "{imp}: {:?}", j.q);
        }
    }

    /// Kept, E1: equal diagonal elements take the earlier of x, y, z (the
    /// listing's `>=`), so the successors return the listing's quaternion,
    /// not the C's negation.
    #[test]
    fn successor_e1_kept_equal_diagonal_elements_take_the_earlier_case() {
        for (imp, k) in successors() {
            let a = core::f64::consts::FRAC_1_SQRT_2;
            for (q, listing_k) in [([a, -a, 0.0, 0.0], 0), ([a, 0.0, -a, 0.0], 0), ([0.0, a, -a, 0.0], 1)] {
                let m = mat_of(q, [0.0; 3]);
                for n in [1, 4, 8, 11] {
                    for j in run(k, &vec![m; n]) {
                        let v = j.q.to_array();
                        assert!(
                            v[listing_k] > 0.0 && max_abs_diff(j.q.to_array(), q) < SUCCESSOR_BOUND,
                            "{imp}: {q:?}: {v:?}"
                        );
                    }
                }
            }
            let mut m = JointMat { mat: [0.0; 12] };
            m.mat[10] = -1.0;
            let j = one(k, &m);
            assert!(j.q.x > 0.7 && j.q.y == 0.0, "{imp}: diag(0, 0, -1): {:?}", j.q);
        }
    }

    /// Kept, E2: a NaN trace (here `inf + -inf`) takes the `w` case, as the
    /// listing's unordered `cmpnltps`: four NaN components; the translation
    /// is still copied and nothing else is written.
    #[test]
    fn successor_e2_kept_nan_trace_takes_the_w_case() {
        for (imp, k) in successors() {
            let mut m = JointMat::IDENTITY;
            m.mat[0] = f32::INFINITY;
            m.mat[5] = f32::NEG_INFINITY;
            m.mat[3] = 7.0;
            for n in [1, 4, 8, 9] {
                for j in run(k, &vec![m; n]) {
                    assert!(j.q.to_array().iter().all(|v| v.is_nan()), "{imp}: {:?}", j.q);
                    assert_eq!(j.t.to_array().map(f32::to_bits), [7.0f32, 0.0, 0.0, 0.0].map(f32::to_bits));
                }
            }
            let mut m = JointMat::IDENTITY;
            m.mat[5] = f32::NAN;
            assert!(one(k, &m).q.to_array().iter().all(|v| v.is_nan()), "{imp}");
        }
    }

    /// Corrected, E3: the off-diagonal components are `(m01 - s2 m10) * s`
    /// (the C's order), so an exact zero comes out `+0.0`: the identity
    /// gives `(+0, +0, +0, 1)` exactly where the listing gives
    /// `(-0, -0, -0, 1)`; `diag(-0, -0, -0)` (trace `-0.0 >= 0`: the `w`
    /// case, `t = 1`) gives `(+0, +0, +0, 0.5)`.
    #[test]
    fn successor_e3_corrected_zero_components_are_positive() {
        for (imp, k) in successors() {
            for n in [1, 4, 8, 13] {
                for j in run(k, &vec![JointMat::IDENTITY; n]) {
                    assert_eq!(q_bits(&j), [0, 0, 0, 1.0f32.to_bits()], "{imp}: {:?}", j.q);
                }
            }
            let mut m = JointMat::IDENTITY;
            m.mat[0] = -0.0;
            m.mat[5] = -0.0;
            m.mat[10] = -0.0;
            let j = one(k, &m);
            assert_eq!(q_bits(&j), [0, 0, 0, 0.5f32.to_bits()], "{imp}: {:?}", j.q);
        }
        if let Some(l) = listing(&[JointMat::IDENTITY]) {
            assert_eq!(q_bits(&l[0])[..3], [0x8000_0000; 3], "the listing's -0.0");
        }
    }

    /// Kept, E4: `t = (s0 m00 + s1 m11) + (s2 m22 + 1)`, in the listing's
    /// pairs. Replaying the divisor component `s * t` with `s = 0.5 /
    /// sqrt(t)` (correctly rounded, so the replay is exact on every CPU)
    /// reproduces the kernel bit for bit with the pairs; with the C's
    /// left-to-right sum some joints differ.
    #[test]
    fn successor_e4_kept_t_is_summed_in_pairs() {
        let replay = |t: f32| (0.5 / t.sqrt()) * t;
        let mats = paper_mats(9, 4000);
        for (imp, k) in successors() {
            let out = run(k, &mats);
            let mut differ = 0;
            for (m, j) in mats.iter().zip(&out) {
                let d = [m.mat[0], m.mat[5], m.mat[10]];
                let (k0, s) = listing_case(m);
                let pairs = (s[0] * d[0] + s[1] * d[1]) + (s[2] * d[2] + 1.0);
                let c = ((s[0] * d[0] + s[1] * d[1]) + s[2] * d[2]) + 1.0;
                let got = j.q.to_array()[k0];
                assert_eq!(got.to_bits(), replay(pairs).to_bits(), "{imp}: {:?}", m.mat);
                differ += usize::from(replay(c).to_bits() != got.to_bits());
            }
            println!("{imp}: t summed as the C sums it would change q[k0] in {differ} of 4000 joints");
            assert!(differ > 0, "{imp}");
        }
    }

    /// Kept: the translation is copied bit for bit (signalling NaN, `-0.0`,
    /// NaN payloads) and `q[7]` is written as `+0.0`, for every count.
    #[test]
    fn successor_translation_copied_and_q7_zero() {
        for (imp, k) in successors() {
            for n in 0..=20 {
                let mut mats = paper_mats(300 + n as u64, n);
                for m in &mut mats {
                    m.mat[3] = f32::from_bits(0x7F80_0001);
                    m.mat[7] = -0.0;
                    m.mat[11] = f32::from_bits(0xFFC0_1234);
                }
                assert_translations(&run(k, &mats), &mats, &format!("{imp}: {n} joints"));
            }
        }
    }

    /// Special values (the tie, zero, NaN, infinite, subnormal, huge and
    /// scaled matrices of `edges::mats`) in every lane of a block and of the
    /// tail, among random rotations: each joint's result is the one it gets
    /// alone, bit for bit (NaN as NaN): the lanes are independent, whatever
    /// their neighbours hold.
    #[test]
    fn successor_special_values_in_every_lane() {
        for (imp, k) in successors() {
            let filler = paper_mats(21, 19);
            let alone: Vec<JointQuat> = filler.iter().map(|m| one(k, m)).collect();
            for (what, edge) in edges::mats() {
                let e = one(k, &edge);
                for lane in 0..19 {
                    let mut mats = filler.clone();
                    mats[lane] = edge;
                    let out = run(k, &mats);
                    let mut want = alone.clone();
                    want[lane] = e;
                    assert_bit_identical(&out, &want, &format!("{imp}: {what} in lane {lane}"));
                }
            }
        }
    }

    /// Shuffled and repeated matrices give the same quaternions, shuffled and
    /// repeated, bit for bit.
    #[test]
    fn successor_shuffled_and_duplicate_matrices() {
        for (imp, k) in successors() {
            let mats = paper_mats(41, 45);
            let out = run(k, &mats);
            let mut rng = common::inputs::Rng::new(42);
            let perm: Vec<usize> = (0..60).map(|_| rng.below(mats.len())).collect();
            let shuffled: Vec<JointMat> = perm.iter().map(|&i| mats[i]).collect();
            let out2 = run(k, &shuffled);
            let want: Vec<JointQuat> = perm.iter().map(|&i| out[i]).collect();
            assert_bit_identical(&out2, &want, &format!("{imp}: shuffled"));
        }
    }

    /// Corrected: the count is not the listing's 32-bit arithmetic; a count
    /// <= 0 converts nothing.
    #[test]
    fn successor_negative_count_converts_nothing() {
        for (imp, k) in successors() {
            let mats = paper_mats(6, 9);
            for n in [-1, -8, i32::MIN, 0] {
                let mut out = vec![sentinel_joint(); 9];
                // SAFETY: a count <= 0 reads and writes nothing.
                unsafe { k(out.as_mut_ptr(), mats.as_ptr(), n) };
                assert_bit_identical(&out, &[sentinel_joint(); 9], &format!("{imp}: count {n}"));
            }
        }
    }

    /// The safe function with each successor form is its raw kernel; `Auto`
    /// and `Deterministic` pick the fastest successor on this CPU (first in
    /// `FORMS`: `Neon`, or `Avx2` or `Avx512` where the CPU has it, else
    /// `Portable`).
    #[test]
    fn successor_through_the_safe_function() {
        let mats = paper_mats(10, 37);
        for (imp, k) in successors() {
            let mut out = vec![sentinel_joint(); 37];
            animasm::mats_to_quats::mats_to_quats(imp, &mut out, &mats).unwrap();
            assert_bit_identical(&out, &run(k, &mats), &format!("{imp}"));
        }
        let fastest = successors()[0].0;
        assert_eq!(animasm::mats_to_quats::resolve(Impl::Deterministic), Ok(fastest));
        if fastest != Impl::Portable {
            assert_eq!(animasm::mats_to_quats::resolve(Impl::Auto), Ok(fastest));
        }
    }

    /// Matrices whose diagonal elements are drawn from signed zeros, ties,
    /// NaN and infinities (every one of 10^3 diagonals), with random
    /// off-diagonal elements: the case choice on them.
    fn tie_mats() -> Vec<JointMat> {
        const D: [f32; 10] = [-1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY];
        let mut rng = common::inputs::Rng::new(0x71e);
        let mut out = Vec::new();
        for a in D {
            for b in D {
                for c in D {
                    let mut m = paper_mats(rng.below(1000) as u64, 1)[0];
                    m.mat[0] = a;
                    m.mat[5] = b;
                    m.mat[10] = c;
                    out.push(m);
                }
            }
        }
        out
    }

    /// The one answer: every successor form gives `Impl::Portable`'s bits
    /// (NaN as NaN) on every count 0..=67 of 16 seeds, on the special
    /// values of `edges::mats` and on 1000 diagonals of ties, signed zeros,
    /// NaN and infinities (the case choice: the same case on every form).
    #[test]
    fn every_successor_gives_the_portable_bits() {
        let portable = animasm::mats_to_quats::kernel(Impl::Portable).unwrap();
        let ties = tie_mats();
        let edges: Vec<JointMat> = edges::mats().into_iter().map(|(_, m)| m).collect();
        for (imp, k) in successors() {
            for seed in 0..16u64 {
                let mats = paper_mats(0x0ae5 + seed, 67);
                for n in 0..=67 {
                    let m = &mats[..n];
                    assert_bit_identical(&run(k, m), &run(portable, m), &format!("{imp} seed {seed} n={n}"));
                }
            }
            assert_bit_identical(&run(k, &edges), &run(portable, &edges), &format!("{imp}: edges"));
            assert_bit_identical(&run(k, &ties), &run(portable, &ties), &format!("{imp}: ties"));
        }
    }

    /// The case choice of the successors is the listing's, on the tie
    /// matrices: the divisor component `q[k0]` of [`listing_case`] is `s t`
    /// (positive or NaN), bit for bit the replay of `t` summed in pairs.
    #[test]
    fn successor_case_choice_on_ties_zeros_and_nan() {
        let replay = |t: f32| (0.5 / t.sqrt()) * t;
        let ties = tie_mats();
        for (imp, k) in successors() {
            for (m, j) in ties.iter().zip(run(k, &ties)) {
                let d = [m.mat[0], m.mat[5], m.mat[10]];
                let (k0, s) = listing_case(m);
                let t = (s[0] * d[0] + s[1] * d[1]) + (s[2] * d[2] + 1.0);
                let got = j.q.to_array()[k0];
                assert!(same_bits(got, replay(t)), "{imp}: diagonal {d:?}: q[{k0}] = {got:e}, want {:e}", replay(t));
            }
        }
    }

    proptest! {
        #![proptest_config(animasm_testkit::strategies::config(256, 2))]

        /// Any bits in every float of up to 20 matrices: nothing written past
        /// the end, translations copied, `q[7] = +0.0`, each joint's
        /// result the one it gets alone, and `Impl::Portable`'s bits.
        #[test]
        fn successor_arbitrary_bits(mats in proptest::collection::vec(any::<[u32; 12]>(), 0..20)) {
            let mats: Vec<JointMat> = mats.iter().map(|b| JointMat { mat: b.map(f32::from_bits) }).collect();
            let portable = run(animasm::mats_to_quats::kernel(Impl::Portable).unwrap(), &mats);
            for (imp, k) in successors() {
                let out = run(k, &mats);
                assert_translations(&out, &mats, &format!("{imp}: arbitrary bits"));
                let alone: Vec<JointQuat> = mats.iter().map(|m| one(k, m)).collect();
                assert_bit_identical(&out, &alone, &format!("{imp}: arbitrary bits"));
                assert_bit_identical(&out, &portable, &format!("{imp} vs portable: arbitrary bits"));
            }
        }
    }
}

/// The paper: 207 in `loopMat4`, 84 in `loopMat1`; 305 = 8 + 207 + 6 + 84 in all.
#[test]
fn listing_instruction_counts() {
    common::roster_checks::listing::assert_counts(
        "mats_to_quats",
        &[("loopMat4", 207), ("loopMat1", 84), ("total", 305)],
    );
}
