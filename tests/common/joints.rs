//! The joint-list interpolators (`slerp_joints`, `lerp_joints`): the
//! [`JointRoutine`] that `tests/slerp_joints.rs` and `tests/lerp_joints.rs`
//! each describe their routine by, and the checks both run on it: the safe
//! functions' contract and the Fox animation data against the f64 oracles.
//! The twins and the errata are in `joint_twins.rs`.

use animasm::{Error, Impl, JointQuat, Origin, Quat, Vec4};
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::fox;
use animasm_testkit::inputs::{Rng, joint_lists};
use animasm_testkit::oracle::{f64x4, vec4_lerp_f64};

use super::assert_bit_identical;
use super::harness::{Floats, SENTINEL};

/// The safe functions' signature.
pub type SafeFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;
/// The raw kernels' signature.
pub type Kernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);
/// The C's per-quaternion routine (`Slerp`, `Lerp`).
pub type CQuat = fn(&Quat, &Quat, f32) -> Quat;
/// An f64 oracle of the rotation.
pub type Oracle = fn([f64; 4], [f64; 4], f64) -> [f64; 4];

/// One joint-list interpolator.
pub struct JointRoutine {
    /// The safe function's name.
    pub name: &'static str,
    /// The safe function.
    pub safe: SafeFn,
    /// `forms()` of its module.
    pub forms: fn() -> Vec<Impl>,
    /// The asm kernel.
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    pub asm: Kernel,
    /// The intrinsics kernel.
    #[cfg(target_arch = "x86_64")]
    pub intrinsics: Kernel,
    /// The scalar C port.
    pub scalar: Kernel,
    /// `kernel(imp)` of its module: the raw kernel of any form.
    pub kernel_of: fn(Impl) -> Result<Kernel, Error>,
    /// The C's per-quaternion routine.
    pub c: CQuat,
    /// The f64 oracle of the rotation.
    pub oracle: Oracle,
    /// Max abs rotation error against the oracle on random unit input.
    pub bound: f64,
    /// The same on the Fox data.
    pub fox_bound: f64,
}

// ---------------------------------------------------------------- contract ---

/// Calls `r` on a fresh copy of 9 joints and asserts it returns `want` and
/// leaves the joints bit for bit as they were.
#[track_caller]
pub fn expect_err(r: &JointRoutine, imp: Impl, blend_len: usize, lerp: f32, index: &[i32], want: Error) {
    let (joints, blend, _) = joint_lists(7, 9);
    let mut out = joints.clone();
    let got = (r.safe)(imp, &mut out, &blend[..blend_len], lerp, index);
    assert_eq!(got, Err(want), "{} {imp}", r.name);
    assert_bit_identical(&out, &joints, "joints after Err");
}

/// Negative and too large index entries, in the 4-wide loop, its tail and
/// the copy path.
pub fn index_out_of_range_or_negative(r: &JointRoutine) {
    for imp in (r.forms)() {
        let want = Error::IndexOutOfRange { position: 5, value: 9, len: 9 };
        expect_err(r, imp, 9, 0.5, &[0, 1, 2, 3, 4, 9, 6], want);
        let want = Error::IndexOutOfRange { position: 0, value: -1, len: 9 };
        expect_err(r, imp, 9, 0.5, &[-1, 1, 2, 3, 4, 5], want);
        let want = Error::IndexOutOfRange { position: 8, value: i32::MIN, len: 9 };
        expect_err(r, imp, 9, 0.5, &[0, 1, 2, 3, 4, 5, 6, 7, i32::MIN], want);
        // A bad entry in the tail of the 4-wide loop, and in the copy path.
        let want = Error::IndexOutOfRange { position: 4, value: 100, len: 9 };
        expect_err(r, imp, 9, 1.0, &[0, 1, 2, 3, 100], want);
    }
}

/// `blend` shorter than `joints`.
pub fn blend_too_short(r: &JointRoutine) {
    for imp in (r.forms)() {
        let want = Error::TooShort { what: "blend", needed: 9, found: 8 };
        expect_err(r, imp, 8, 0.5, &[0, 1], want);
        let want = Error::TooShort { what: "blend", needed: 9, found: 0 };
        expect_err(r, imp, 0, 0.5, &[], want);
    }
}

/// A NaN or infinite `lerp`: `NonFiniteFactor { what: "lerp", position:
/// None, value }`.
pub fn non_finite_lerp(r: &JointRoutine) {
    for imp in (r.forms)() {
        for lerp in [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let index = [0, 1, 2, 3, 4, 5, 6, 7, 8];
            let (joints, blend, _) = joint_lists(7, 9);
            let mut out = joints.clone();
            let got = (r.safe)(imp, &mut out, &blend, lerp, &index);
            assert!(
                matches!(got, Err(Error::NonFiniteFactor { what: "lerp", position: None, value: v }) if v.to_bits() == lerp.to_bits()),
                "{got:?}"
            );
            assert_bit_identical(&out, &joints, "joints after Err");
        }
    }
}

/// More `index` entries than `MAX_JOINTS`: `TooLong { what: "index", len,
/// max }`.
pub fn too_many_joints(r: &JointRoutine) {
    use animasm::slerp_joints::MAX_JOINTS;
    assert_eq!(MAX_JOINTS, animasm::lerp_joints::MAX_JOINTS);
    // `vec![0; n]` is a lazily zeroed allocation: the 512 MiB are never
    // touched, as the length check comes first.
    let index = vec![0i32; MAX_JOINTS + 1];
    for imp in (r.forms)() {
        let want = Error::TooLong { what: "index", len: MAX_JOINTS + 1, max: MAX_JOINTS };
        expect_err(r, imp, 9, 0.5, &index, want);
    }
}

/// `lerp <= 0` keeps the joints, bit for bit.
pub fn lerp_at_or_below_zero_keeps_the_joints(r: &JointRoutine) {
    for imp in (r.forms)() {
        for lerp in [0.0, -0.0, -1e-30, -0.5, -1e30, f32::MIN] {
            let (joints, blend, index) = joint_lists(11, 13);
            let mut out = joints.clone();
            (r.safe)(imp, &mut out, &blend, lerp, &index).unwrap();
            assert_bit_identical(&out, &joints, &format!("{} {imp} lerp {lerp}", r.name));
        }
    }
}

/// `lerp >= 1` copies the indexed blend joints, bit for bit.
pub fn lerp_at_or_above_one_copies_the_indexed_blend_joints(r: &JointRoutine) {
    for imp in (r.forms)() {
        for lerp in [1.0, 1.0 + f32::EPSILON, 2.0, f32::MAX] {
            let (joints, blend, _) = joint_lists(11, 13);
            let index = [12, 0, 5, 3, 7, 1];
            let mut out = joints.clone();
            (r.safe)(imp, &mut out, &blend, lerp, &index).unwrap();
            let mut want = joints.clone();
            for &j in &index {
                want[j as usize] = blend[j as usize];
            }
            assert_bit_identical(&out, &want, &format!("{} {imp} lerp {lerp}", r.name));
        }
    }
}

/// An empty index changes nothing; empty lists are fine.
pub fn empty_index_and_empty_lists(r: &JointRoutine) {
    for imp in (r.forms)() {
        let (joints, blend, _) = joint_lists(3, 5);
        let mut out = joints.clone();
        (r.safe)(imp, &mut out, &blend, 0.5, &[]).unwrap();
        assert_bit_identical(&out, &joints, "empty index");
        (r.safe)(imp, &mut [], &[], 0.5, &[]).unwrap();
    }
}

/// Only the joints in `index` change.
pub fn only_indexed_joints_change(r: &JointRoutine) {
    for imp in (r.forms)() {
        let (joints, blend, _) = joint_lists(5, 40);
        let index: Vec<i32> = (0..40).filter(|j| j % 3 == 1).collect();
        let mut out = joints.clone();
        (r.safe)(imp, &mut out, &blend, 0.25, &index).unwrap();
        for j in 0..40 {
            let changed = out[j] != joints[j];
            assert_eq!(changed, j % 3 == 1, "{} {imp} joint {j}", r.name);
        }
    }
}

/// The errors' messages name the problem (not per routine).
pub fn errors_name_the_problem() {
    let msg = |e: Error| e.to_string();
    assert!(msg(Error::IndexOutOfRange { position: 5, value: -3, len: 9 }).contains("index[5]"));
    assert!(msg(Error::IndexOutOfRange { position: 5, value: -3, len: 9 }).contains("-3"));
    assert!(msg(Error::TooShort { what: "blend", needed: 9, found: 8 }).contains("`blend`"));
    assert!(msg(Error::NonFiniteFactor { what: "lerp", position: None, value: f32::NAN }).contains("lerp"));
    assert!(msg(Error::NonFiniteFactor { what: "t", position: Some(3), value: f32::NAN }).contains("t[3]"));
    assert!(msg(Error::Unsupported(Impl::Asm)).contains("asm"));
    assert!(msg(Error::TooLong { what: "index", len: 10, max: 5 }).contains("at most 5"));
    assert!(msg(Error::MissingCpuFeature { needs: "avx2 and fma" }).contains("avx2 and fma"));
    assert!(msg(Error::InvalidParent { joint: 7, parent: 9 }).contains("parents[7]"));
    assert!(msg(Error::RangeOutOfBounds { start: 1, end: 30, len: 24 }).contains("1..=30"));
    assert!(msg(Error::LengthMismatch { what: "quats", expected: 3, found: 2 }).contains("`quats`"));
    assert!(msg(Error::Misaligned { what: "from", needed: 32, address: 0x1010 }).contains("32-byte"));
    let e: &dyn core::error::Error = &Error::NonFiniteFactor { what: "lerp", position: None, value: 1.0 };
    assert!(e.source().is_none());
    // The one sentinel of the tests is a NaN no routine writes.
    assert!(f32::from_bits(SENTINEL).is_nan() && JointQuat::sentinel().floats().len() == 8);
}

// ---------------------------------------------------------------- Fox data ---

/// Interpolates `from` towards `to` with every form and checks every joint
/// against the oracles; returns the largest rotation error.
pub fn check_fox(r: &JointRoutine, what: &str, from: &[JointQuat], to: &[JointQuat]) -> f64 {
    let index: Vec<i32> = (0..from.len() as i32).collect();
    let mut worst = 0f64;
    for imp in (r.forms)() {
        for t in [0.1f32, 0.25, 0.5, 0.8, 0.95] {
            let mut out = from.to_vec();
            (r.safe)(imp, &mut out, to, t, &index).unwrap();
            for j in 0..from.len() {
                let want = (r.oracle)(f64x4(from[j].q.to_array()), f64x4(to[j].q.to_array()), f64::from(t));
                let e = max_abs_diff(out[j].q.to_array(), want);
                assert!(e <= r.fox_bound, "{what}: {} {imp} joint {j} lerp {t}: rotation error {e:e}", r.name);
                worst = worst.max(e);
                let want = vec4_lerp_f64(f64x4(from[j].t.to_array()), f64x4(to[j].t.to_array()), f64::from(t));
                let scale = from[j].t.to_array().iter().chain(&to[j].t.to_array()).fold(1f32, |m, v| m.max(v.abs()));
                let e = max_abs_diff(out[j].t.to_array(), want);
                assert!(e <= 2.5e-7 * f64::from(scale), "{what}: {} {imp} joint {j}: translation error {e:e}", r.name);
            }
        }
    }
    worst
}

/// The Fox's pose pairs from `Fox.glb.pose.json`.
pub fn fox_pose_pairs_from_the_json(r: &JointRoutine) {
    for name in fox::KEY_PAIRS {
        let (a, b) = fox::key_pair(name);
        assert_eq!(a.len(), 24);
        let worst = check_fox(r, name, &a, &b);
        eprintln!("{} {name}: max rotation error {worst:e}", r.name);
    }
}

/// Every consecutive key pair of every animation: nearly parallel
/// (median dot 0.99999; about 6% round to >= 1.0 in f32), so the
/// near-identity path is the common case.
pub fn every_consecutive_key_pair_of_every_animation(r: &JointRoutine) {
    let pairs = fox::consecutive_key_pairs();
    assert_eq!(pairs.len(), 1640 + 340 + 480);
    let at_or_above_one = pairs.iter().filter(|(a, b)| (0..4).map(|i| a[i] * b[i]).sum::<f32>().abs() >= 1.0).count();
    eprintln!("{} pairs, {at_or_above_one} with an f32 |dot| >= 1", pairs.len());
    assert!(at_or_above_one > 0, "the data should exercise the near-identity path");
    let (a, b) = fox::joint_lists_from_pairs(&pairs);
    let worst = check_fox(r, "consecutive keys", &a, &b);
    eprintln!("{}: max rotation error {worst:e}", r.name);
}

/// From the rest pose to the animations' first keys: far-apart pairs.
pub fn rest_pose_towards_every_first_key(r: &JointRoutine) {
    let rest = fox::rest_pose();
    let (first, _) = fox::key_pair("far_apart");
    check_fox(r, "rest to far_apart key", &rest, &first);
}

// ------------------------------------------------------------ raw kernels ---

/// Runs a raw kernel on a copy of `joints`, after checking what the kernels'
/// safety contract needs (so that any input, NaN `lerp` included, can be
/// given to them).
pub fn run(k: Kernel, joints: &[JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32]) -> Vec<JointQuat> {
    assert!(blend.len() >= joints.len());
    assert!(index.iter().all(|&j| j >= 0 && (j as usize) < joints.len()));
    let mut out = joints.to_vec();
    // SAFETY: checked above: every index entry addresses a joint of both
    // lists; the Vecs of align(16) joints are 16-byte aligned and distinct.
    unsafe { k(out.as_mut_ptr(), blend.as_ptr(), lerp, index.as_ptr(), index.len() as i32) };
    out
}

// ---------------------- the successors (Portable, Avx2, Avx512, Neon) ---

/// Every successor form ([`Origin::Successor`]) of `r` this CPU runs, with
/// its raw kernel: `Impl::Portable` everywhere, `Impl::Avx2` and
/// `Impl::Avx512` on `x86_64` with their features, `Impl::Neon` on `aarch64`. A CPU that lacks a form's
/// features is said once on stderr.
pub fn successors(r: &JointRoutine) -> Vec<(Impl, Kernel)> {
    let table = animasm::roster::find(r.name).expect("a roster routine");
    let forms: Vec<(Impl, Kernel)> = table
        .forms()
        .filter(|f| f.origin == Origin::Successor)
        .map(|f| (f.imp, (r.kernel_of)(f.imp).expect("a runnable form")))
        .collect();
    assert!(forms.iter().any(|&(imp, _)| imp == Impl::Portable), "{}: no Impl::Portable", r.name);
    if !forms.iter().any(|&(imp, _)| matches!(imp, Impl::Avx2 | Impl::Neon)) {
        super::cpu::skipped(&format!("{}: only the portable successor runs on this CPU", r.name));
    }
    forms
}

/// The largest |component| of the translations of `a` and `b` (at least 1).
fn t_scale(a: &JointQuat, b: &JointQuat) -> f64 {
    f64::from(a.t.to_array().iter().chain(&b.t.to_array()).fold(1f32, |m, v| m.max(v.abs())))
}

/// Checks `out` of the successor `imp` (from `joints`, `blend`, `lerp`,
/// `index` with distinct entries) against the scalar port (rotation within
/// 5e-7), the f64 oracle (rotation within `r.bound`, translation within
/// 2.5e-7 of the translations' scale) and checks that joints not in `index`
/// are untouched; returns the largest rotation error against the oracle.
#[track_caller]
fn check_successor(
    r: &JointRoutine,
    imp: Impl,
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
    out: &[JointQuat],
) -> f64 {
    let scalar = run(r.scalar, joints, blend, lerp, index);
    let mut worst = 0f64;
    for j in 0..joints.len() {
        let ctx = format!("{} {imp} n={} joint {j} lerp {lerp}", r.name, joints.len());
        if !index.contains(&(j as i32)) {
            assert_bit_identical(&out[j..=j], &joints[j..=j], &ctx);
            continue;
        }
        let d = (0..4).map(|c| (out[j].q.to_array()[c] - scalar[j].q.to_array()[c]).abs()).fold(0f32, f32::max);
        assert!(d <= 5e-7, "{ctx}: {d:e} from the scalar port");
        let want = (r.oracle)(f64x4(joints[j].q.to_array()), f64x4(blend[j].q.to_array()), f64::from(lerp));
        let e = max_abs_diff(out[j].q.to_array(), want);
        assert!(e <= r.bound, "{ctx}: rotation {e:e} from the f64 oracle");
        worst = worst.max(e);
        let want = vec4_lerp_f64(f64x4(joints[j].t.to_array()), f64x4(blend[j].t.to_array()), f64::from(lerp));
        let e = max_abs_diff(out[j].t.to_array(), want);
        assert!(e <= 2.5e-7 * t_scale(&joints[j], &blend[j]), "{ctx}: translation {e:e} from the f64 oracle");
    }
    worst
}

/// Every count 0..=67 (every tail length after the groups and blocks of
/// every width), with the identity index, its reverse and a subset,
/// against the scalar port and the f64 oracle.
pub fn successor_every_count(r: &JointRoutine) {
    for (imp, k) in successors(r) {
        let mut worst = 0f64;
        for n in 0..=67usize {
            let (joints, blend, index) = joint_lists(0x50cc_u64.wrapping_add(n as u64), n);
            let reversed: Vec<i32> = index.iter().rev().copied().collect();
            let subset: Vec<i32> = index.iter().copied().filter(|j| j % 3 != 2).collect();
            for idx in [&index, &reversed, &subset] {
                for lerp in [1e-3, 0.37, 0.5, 0.9] {
                    let out = run(k, &joints, &blend, lerp, idx);
                    worst = worst.max(check_successor(r, imp, &joints, &blend, lerp, idx, &out));
                }
            }
        }
        eprintln!("{} {imp}: every count, max rotation error against the f64 oracle {worst:e}", r.name);
    }
}

/// The Fox's pose pairs, its consecutive keys and rest pose to first keys,
/// through every raw successor, against the f64 oracle.
pub fn successor_fox_poses(r: &JointRoutine) {
    let mut lists: Vec<(String, Vec<JointQuat>, Vec<JointQuat>)> =
        fox::KEY_PAIRS.iter().map(|name| (name.to_string(), fox::key_pair(name).0, fox::key_pair(name).1)).collect();
    let (a, b) = fox::joint_lists_from_pairs(&fox::consecutive_key_pairs());
    lists.push(("consecutive keys".into(), a, b));
    lists.push(("rest to far_apart".into(), fox::rest_pose(), fox::key_pair("far_apart").0));
    for (imp, k) in successors(r) {
        let mut worst = 0f64;
        for (what, from, to) in &lists {
            let index: Vec<i32> = (0..from.len() as i32).collect();
            for t in [0.1f32, 0.25, 0.5, 0.8, 0.95] {
                let out = run(k, from, to, t, &index);
                for j in 0..from.len() {
                    let want = (r.oracle)(f64x4(from[j].q.to_array()), f64x4(to[j].q.to_array()), f64::from(t));
                    let e = max_abs_diff(out[j].q.to_array(), want);
                    assert!(e <= r.fox_bound, "{what}: {} {imp} joint {j} lerp {t}: {e:e}", r.name);
                    worst = worst.max(e);
                }
            }
        }
        eprintln!("{} {imp}: Fox data, max rotation error against the f64 oracle {worst:e}", r.name);
    }
}

/// Identical, opposite, ±0 components, NaN and infinite components: what
/// every successor does with each (asserted), in every lane of a block.
pub fn successor_special_values(r: &JointRoutine) {
    for (imp, k) in successors(r) {
        let name = format!("{} {imp}", r.name);
        let mut rng = Rng::new(0xa7f2);
        let tv = Vec4::new(1.0, -2.0, 3.0, 1.0);
        let jq = |q: [f32; 4]| JointQuat::new(Quat::from_array(q), tv);
        for n in [1usize, 3, 4, 5, 7, 8, 9, 30] {
            for pos in [0, n / 2, n - 1] {
                let (mut joints, mut blend, index) = joint_lists(n as u64, n);
                let q = rng.unit_quat().to_array();
                // Identical (the tiny patch of 1 - cos², erratum E7 kept): the input back.
                joints[pos] = jq(q);
                blend[pos] = jq(q);
                let out = run(k, &joints, &blend, 0.3, &index);
                let e = (0..4).map(|c| (out[pos].q.to_array()[c] - q[c]).abs()).fold(0f32, f32::max);
                assert!(e < 3e-7, "{name} n={n} at {pos}: identical moved by {e:e}");
                // Opposite: the shorter arc is the input itself.
                blend[pos] = jq(q.map(|v| -v));
                let out = run(k, &joints, &blend, 0.3, &index);
                let e = (0..4).map(|c| (out[pos].q.to_array()[c] - q[c]).abs()).fold(0f32, f32::max);
                assert!(e < 3e-7, "{name} n={n} at {pos}: opposite moved by {e:e}");
                // -0.0 components (dot +0 or -0 in no component): identity stays identity.
                joints[pos] = jq([-0.0, 0.0, -0.0, 1.0]);
                blend[pos] = jq([0.0, -0.0, -0.0, 1.0]);
                let out = run(k, &joints, &blend, 0.3, &index);
                let e = (0..4).map(|c| (out[pos].q.to_array()[c] - [0.0, 0.0, 0.0, 1.0][c]).abs()).fold(0f32, f32::max);
                assert!(e < 3e-7, "{name} n={n} at {pos}: -0.0 components: {:?}", out[pos].q);
                // NaN and infinite components: that joint's rotation is NaN
                // (slerp: all four components; lerp: all four for a NaN, and
                // for an infinity NaN where `Q` is infinite and ±0 elsewhere,
                // since 1 / sqrt(inf) = 0 exactly), its translation is lerped
                // as usual, and no other joint changes (lanes do not mix).
                let clean = {
                    let (mut j2, mut b2) = (joints.clone(), blend.clone());
                    j2[pos] = jq(q);
                    b2[pos] = jq(rng.unit_quat().to_array());
                    (j2, b2)
                };
                let want_others = run(k, &clean.0, &clean.1, 0.3, &index);
                for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                    for (in_joint, c) in [(true, 0), (false, 3)] {
                        let (mut j2, mut b2) = clean.clone();
                        let target = if in_joint { &mut j2[pos] } else { &mut b2[pos] };
                        let mut a = target.q.to_array();
                        a[c] = bad;
                        target.q = Quat::from_array(a);
                        let out = run(k, &j2, &b2, 0.3, &index);
                        let got = out[pos].q.to_array();
                        if r.name == "lerp_joints" && bad.is_infinite() {
                            for (i, v) in got.iter().enumerate() {
                                let ok = if i == c { v.is_nan() } else { *v == 0.0 };
                                assert!(ok, "{name} n={n} {bad} at {pos}: {:?}", out[pos].q);
                            }
                        } else {
                            assert!(got.iter().all(|v| v.is_nan()), "{name} n={n} {bad} at {pos}: {:?}", out[pos].q);
                        }
                        assert_eq!(out[pos].t, want_others[pos].t, "{name}: translation of the {bad} joint");
                        for j in (0..n).filter(|&j| j != pos) {
                            assert_bit_identical(
                                &out[j..=j],
                                &want_others[j..=j],
                                &format!("{name} n={n}: {bad} at {pos}, joint {j}"),
                            );
                        }
                    }
                }
            }
        }
        if r.name == "slerp_joints" {
            // No linear fallback (erratum E7 kept): scaled by 1.5, cos = 2.25;
            // the successor computes with |1 - cos²| and stays finite, where the
            // C's fallback returns the input.
            let q = rng.unit_quat().to_array().map(|v| v * 1.5);
            let out = run(k, &[jq(q)], &[jq(q)], 0.5, &[0]);
            let c = (r.c)(&Quat::from_array(q), &Quat::from_array(q), 0.5);
            assert!(out[0].q.to_array().iter().all(|v| v.is_finite()));
            assert!((0..4).any(|i| (out[0].q.to_array()[i] - c.to_array()[i]).abs() > 1e-3), "{:?} {c:?}", out[0].q);
        }
    }
}

/// What applying `index` entry by entry through the kernel `k` gives: one
/// call per entry, each on the previous call's result.
pub fn entry_by_entry(
    k: Kernel,
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
) -> Vec<JointQuat> {
    index.iter().fold(joints.to_vec(), |out, &e| run(k, &out, blend, lerp, &[e]))
}

/// Index lists laden with duplicates over `0..n` joints, each with what it
/// exercises: repeats inside a group of 24 (AVX2) / 8 (NEON) entries and
/// inside a block, on either side of every block and group boundary (4, 8,
/// 16, 24), in the padded tail (the last entry repeated, which the
/// padding copies too) and everywhere at once.
pub fn duplicate_laden_indices(n: usize) -> Vec<(String, Vec<i32>)> {
    assert!(n >= 64);
    let mut v: Vec<(String, Vec<i32>)> = Vec::new();
    let identity = |len: usize| (0..len as i32).collect::<Vec<i32>>();
    // Inside a group and inside a block.
    let mut a = identity(48);
    a[5] = 2;
    a[13] = 5;
    v.push(("inside a group".into(), a));
    // Both sides of each boundary: entries b - 1 and b name one joint.
    for b in [4usize, 8, 16, 24, 32] {
        let mut a = identity(56);
        a[b] = a[b - 1];
        v.push((format!("across the boundary at {b}"), a));
    }
    // A joint named in two groups and in every block of one group.
    let mut a = identity(50);
    for p in [1usize, 9, 17, 25] {
        a[p] = 40;
    }
    v.push(("one joint in many blocks and groups".into(), a));
    // The tail after the groups and blocks: every tail length, the last
    // entry repeated right before it and earlier.
    for len in [25usize, 27, 30, 31, 33, 35, 37, 47, 49, 51, 53, 55] {
        let mut a = identity(len);
        a[len - 2] = a[len - 1];
        v.push((format!("tail of {len}: last entry twice"), a.clone()));
        a[len - 2] = len as i32 - 2;
        a[len - 4] = a[len - 1];
        v.push((format!("tail of {len}: last entry and an earlier one"), a));
    }
    // Strictly increasing for whole blocks of sixteen (the prefix that the
    // AVX-512 slerp pipelines), then entries naming joints of that prefix
    // again: after consecutive joints (a run, loaded whole) and after every
    // other joint.
    let mut a = identity(48);
    a.extend([5, 47, 20, 0, 33, 16, 31, 2, 47]);
    v.push(("three increasing blocks, then their joints again".into(), a));
    let mut a: Vec<i32> = (0..32).map(|j| 2 * j).collect();
    a.extend([62, 0, 30, 31, 1, 62]);
    v.push(("two increasing blocks of every other joint, then some again".into(), a));
    // Short lists: one to seven entries, all the same joint.
    for len in 1..=7usize {
        v.push((format!("{len} times one joint"), vec![3; len]));
    }
    // Random: many repeats over a few joints, some over many.
    let mut rng = Rng::new(0xd0b1e);
    for (len, over) in [(40usize, 6usize), (67, 16), (100, 50), (200, n)] {
        v.push((
            format!("{len} random entries over {over} joints"),
            (0..len).map(|_| rng.below(over) as i32).collect(),
        ));
    }
    // Every joint twice, the second pass reversed.
    v.push(("0..n then n..0".into(), (0..n as i32).chain((0..n as i32).rev()).collect()));
    v
}

/// The one duplicate rule: every successor form, given an index with
/// repeated entries, gives bit for bit what applying the same form entry
/// by entry gives (a joint named twice is interpolated twice, the second
/// time from the first's result, in list order), whatever the width, the
/// group and the position of the repeats.
pub fn successor_duplicates_apply_in_list_order(r: &JointRoutine) {
    let n = 64;
    let (joints, blend, _) = joint_lists(0xd0b, n);
    let cases = duplicate_laden_indices(n);
    for (imp, k) in successors(r) {
        for lerp in [0.25f32, 0.7] {
            for (what, index) in &cases {
                let got = run(k, &joints, &blend, lerp, index);
                let want = entry_by_entry(k, &joints, &blend, lerp, index);
                assert_bit_identical(&got, &want, &format!("{} {imp} lerp {lerp}: {what}", r.name));
            }
        }
        // A joint named twice really moves twice: not what naming it once
        // gives.
        let once = run(k, &joints, &blend, 0.25, &[7]);
        let twice = run(k, &joints, &blend, 0.25, &[7, 7]);
        assert_ne!(once[7], twice[7], "{} {imp}: interpolated twice", r.name);
        assert_bit_identical(&twice, &run(k, &once, &blend, 0.25, &[7]), &format!("{} {imp}: twice", r.name));
    }
}

/// The one answer: every successor form gives the bits of `Impl::Portable`
/// (NaN payloads aside) on seeded random joints at every count 0..=67, on
/// index lists in order, reversed, shuffled, subsets and laden with
/// duplicates, at several factors, the listing's endpoints included, and
/// on the special values (identical, opposite, ±0, NaN, infinite, non-unit
/// quaternions, huge translations) in every lane.
pub fn successors_agree_bit_for_bit(r: &JointRoutine) {
    let forms = successors(r);
    let portable = forms.iter().find(|f| f.0 == Impl::Portable).expect("Impl::Portable").1;
    let others: Vec<(Impl, Kernel)> = forms.into_iter().filter(|f| f.0 != Impl::Portable).collect();
    if others.is_empty() {
        return;
    }
    let mut rng = Rng::new(0x0a5e);
    let check = |what: &str, joints: &[JointQuat], blend: &[JointQuat], lerp: f32, index: &[i32]| {
        let want = run(portable, joints, blend, lerp, index);
        for &(imp, k) in &others {
            let got = run(k, joints, blend, lerp, index);
            assert_bit_identical(&got, &want, &format!("{} {imp} vs portable, {what}, lerp {lerp:e}", r.name));
        }
    };
    let lerps = [-0.0f32, 1e-30, 1e-3, 0.25, 0.3, 0.5, 0.75, 0.999, 1.0 - f32::EPSILON / 2.0, 1.0, f32::NAN];
    for n in 0..=67usize {
        let (joints, blend, index) = joint_lists(0x90_1d + n as u64, n);
        let mut shuffled = index.clone();
        for i in (1..n).rev() {
            shuffled.swap(i, rng.below(i + 1));
        }
        let reversed: Vec<i32> = index.iter().rev().copied().collect();
        let subset: Vec<i32> = index.iter().copied().filter(|j| j % 3 != 1).collect();
        let dups: Vec<i32> = if n == 0 { vec![] } else { (0..n + n / 2).map(|_| rng.below(n) as i32).collect() };
        for lerp in lerps {
            for (what, idx) in [
                ("identity", &index),
                ("reversed", &reversed),
                ("shuffled", &shuffled),
                ("subset", &subset),
                ("dups", &dups),
            ] {
                check(&format!("n={n} {what}"), &joints, &blend, lerp, idx);
            }
        }
    }
    // Special values in every lane position of a block of 8 and of the tail.
    let specials: Vec<[f32; 4]> = vec![
        [0.0, 0.0, 0.0, 1.0],
        [-0.0, -0.0, -0.0, -1.0],
        [1.0, 0.0, 0.0, 0.0],
        [-0.0, 0.0, 1.0, -0.0],
        [f32::NAN, 0.0, 0.0, 1.0],
        [f32::INFINITY, 0.0, 0.0, 1.0],
        [0.0, f32::NEG_INFINITY, 0.5, 0.5],
        [1.5, 0.0, 0.0, 0.0],
        [1e-20, 1e-20, 0.0, 1e-20],
        [0.0; 4],
        [f32::MAX, 0.0, 0.0, 0.0],
        [1e-40, 0.0, 0.0, 1.0],
    ];
    for n in [1usize, 5, 8, 13, 24, 37] {
        for pos in 0..n {
            for (a, b) in specials.iter().zip(specials.iter().rev().chain(specials.iter())) {
                let (mut joints, mut blend, index) = joint_lists(n as u64 + 7, n);
                joints[pos].q = Quat::from_array(*a);
                blend[pos].q = Quat::from_array(*b);
                if pos % 2 == 1 {
                    blend[pos].q = joints[pos].q;
                    blend[pos].t = Vec4::new(3e38, -3e38, f32::NAN, 1.0);
                    joints[pos].t = Vec4::new(-3e38, 3e38, 0.0, -0.0);
                }
                check(&format!("n={n} specials at {pos}"), &joints, &blend, 0.3, &index);
            }
        }
    }
    // Random bit patterns.
    for seed in 0..200u64 {
        let mut g = Rng::new(seed);
        let n = 1 + g.below(40);
        let any = |g: &mut Rng| f32::from_bits(g.next_u64() as u32);
        let joint = |g: &mut Rng| {
            JointQuat::new(Quat::new(any(g), any(g), any(g), any(g)), Vec4::new(any(g), any(g), any(g), any(g)))
        };
        let joints: Vec<JointQuat> = (0..n).map(|_| joint(&mut g)).collect();
        let blend: Vec<JointQuat> = (0..n).map(|_| joint(&mut g)).collect();
        let index: Vec<i32> = (0..n as i32).collect();
        check(&format!("random bits, seed {seed}"), &joints, &blend, 0.5, &index);
    }
}

/// Lists, index and blend list that end exactly at their allocation's end
/// (`Vec`s of exactly the length used: memcheck sees any overrun), every
/// count 1..=67, the last joint in the last (padded) block.
pub fn successor_buffers_end_at_the_allocation(r: &JointRoutine) {
    for (imp, k) in successors(r) {
        for n in 1..=67usize {
            let (joints, blend, _) = joint_lists(0xe0d + n as u64, n);
            let mut index: Vec<i32> = Vec::with_capacity(n);
            index.extend((0..n as i32).rev());
            assert_eq!(index.capacity(), n);
            let blend_exact: Vec<JointQuat> = blend.to_vec();
            let mut out: Vec<JointQuat> = Vec::with_capacity(n);
            out.extend_from_slice(&joints);
            assert!(out.capacity() == n && blend_exact.capacity() == n);
            // SAFETY: every entry is in 0..n, both lists have n joints, and
            // `successors` returned a kernel this CPU runs.
            unsafe { k(out.as_mut_ptr(), blend_exact.as_ptr(), 0.4, index.as_ptr(), n as i32) };
            check_successor(r, imp, &joints, &blend_exact, 0.4, &index, &out);
            // The copy path (lerp >= 1) too.
            let mut out2: Vec<JointQuat> = Vec::with_capacity(n);
            out2.extend_from_slice(&joints);
            // SAFETY: as above.
            unsafe { k(out2.as_mut_ptr(), blend_exact.as_ptr(), 1.0, index.as_ptr(), n as i32) };
            assert_bit_identical(&out2, &blend_exact, &format!("{} {imp} n={n}: copy", r.name));
        }
    }
}

/// Errata E1 and E2 corrected: a joint's result does not depend on the
/// count or on its position in `index` (the listing's differs between its
/// 4-wide and 1-wide loops).
pub fn successor_same_result_in_any_position_and_count(r: &JointRoutine) {
    let (joints, blend, _) = joint_lists(0x51, 67);
    for (imp, k) in successors(r) {
        for lerp in [0.3f32, 0.7] {
            let alone: Vec<JointQuat> = (0..67).map(|j| run(k, &joints, &blend, lerp, &[j as i32])[j]).collect();
            for n in [4usize, 5, 8, 9, 16, 23, 24, 25, 40, 67] {
                for idx in [(0..n as i32).collect::<Vec<_>>(), (0..n as i32).rev().collect()] {
                    let out = run(k, &joints, &blend, lerp, &idx);
                    for &j in &idx {
                        let j = j as usize;
                        assert_bit_identical(&out[j..=j], &alone[j..=j], &format!("{} {imp} n={n} joint {j}", r.name));
                    }
                }
            }
        }
        // The example of E2: the listing's 1-wide loop keeps b, its 4-wide loop
        // negates it; the successor gives one answer in every position.
        let a = JointQuat::new(Quat::new(1.0, 1e-4, 1.0, 1e-4), Vec4::default());
        let b = JointQuat::new(Quat::new(1.0, 1e-4, -1.0, -1e-4), Vec4::default());
        let one = run(k, &[a], &[b], 0.5, &[0]);
        let many = run(k, &[a; 9], &[b; 9], 0.5, &(0..9).collect::<Vec<_>>());
        for (j, m) in many.iter().enumerate() {
            assert_bit_identical(&[*m], &one, &format!("{} {imp} joint {j}", r.name));
        }
    }
}

/// Erratum E3 corrected: a dot product of -0.0 keeps the blend quaternion,
/// as the C's `cosom >= 0.0f` (the listing negates it).
pub fn successor_negative_zero_dot_product_keeps_the_blend_quaternion(r: &JointRoutine) {
    let a = JointQuat::new(Quat::new(0.0, 0.0, 0.0, 1.0), Vec4::default());
    let b = JointQuat::new(Quat::new(-1.0, -0.0, -0.0, -0.0), Vec4::default());
    let want_c = (r.c)(&a.q, &b.q, 0.3);
    assert!(want_c.x < -0.1);
    for (imp, k) in successors(r) {
        for n in [1usize, 5, 8, 9, 30] {
            let out = run(k, &vec![a; n], &vec![b; n], 0.3, &(0..n as i32).collect::<Vec<_>>());
            for (j, o) in out.iter().enumerate() {
                let q = o.q;
                assert!(q.x < -0.1, "{} {imp} n={n} joint {j}: {q:?}", r.name);
                assert!((q.x - want_c.x).abs() < 1e-6 && (q.w - want_c.w).abs() < 1e-6, "{} {q:?} {want_c:?}", r.name);
            }
        }
    }
}

/// Erratum E4 kept: a NaN `lerp` copies the indexed blend joints (the
/// listing's prologue; the safe function rejects it).
pub fn successor_nan_lerp_copies_the_blend_joints(r: &JointRoutine) {
    for (imp, k) in successors(r) {
        for n in [1usize, 4, 9, 30] {
            let (joints, blend, index) = joint_lists(n as u64, n);
            let out = run(k, &joints, &blend, f32::NAN, &index);
            assert_bit_identical(&out, &blend, &format!("{} {imp} n={n}: NaN lerp", r.name));
            // lerp <= 0 returns without writing.
            let out = run(k, &joints, &blend, -0.0, &index);
            assert_bit_identical(&out, &joints, &format!("{} {imp} n={n}: lerp -0", r.name));
        }
    }
}

/// Erratum E5 kept, fused: translations are `t + lerp (b - t)` with one FMA
/// (`lerp.mul_add(b - t, t)` bit for bit), so `b == t` gives `t` and a huge
/// difference still overflows.
pub fn successor_translations_fused(r: &JointRoutine) {
    let (joints, blend, index) = joint_lists(21, 1024);
    let t = 0.3f32;
    for (imp, k) in successors(r) {
        let out = run(k, &joints, &blend, t, &index);
        for j in 0..1024 {
            let (a, b) = (joints[j].t.to_array(), blend[j].t.to_array());
            let want: [f32; 4] = core::array::from_fn(|c| t.mul_add(b[c] - a[c], a[c]));
            assert_eq!(out[j].t.to_array().map(f32::to_bits), want.map(f32::to_bits), "{} {imp} joint {j}", r.name);
        }
        let out = run(k, &joints, &joints, t, &index);
        for j in 0..1024 {
            assert_eq!(out[j].t.to_array().map(f32::to_bits), joints[j].t.to_array().map(f32::to_bits));
        }
        let big = |x| JointQuat::new(Quat::IDENTITY, Vec4::new(x, 0.0, 0.0, 1.0));
        let out = run(k, &[big(3e38)], &[big(-3e38)], 0.5, &[0]);
        assert_eq!(out[0].t.x, f32::NEG_INFINITY, "{} {imp}", r.name);
    }
}

/// The tests `tests/slerp_joints.rs` and `tests/lerp_joints.rs` share, written
/// once: the harness checks, `mod contract`, `mod twins` and the Fox data,
/// each calling the shared bodies of this module and of `joint_twins` for the
/// routine `$routine` (a [`JointRoutine`]) whose generic harness checks
/// are `$harness` (its [`Routine`](super::harness::Routine)).
// `crate::common` is meant to be the calling test crate's `common` module.
#[allow(clippy::crate_in_macro_def)]
#[macro_export]
macro_rules! joint_routine_tests {
    ($harness:ident, $routine:expr) => {
        const R: &common::joints::JointRoutine = $routine;

        harness_tests!($harness, interpolator);

        // ---------------------------------------------------------------- contract ---

        /// The safe function's contract (`contract::` selects it).
        mod contract {
            use super::*;

            #[test]
            fn index_out_of_range_or_negative() {
                joints::index_out_of_range_or_negative(R);
            }

            #[test]
            fn blend_too_short() {
                joints::blend_too_short(R);
            }

            #[test]
            fn non_finite_lerp() {
                joints::non_finite_lerp(R);
            }

            #[test]
            fn too_many_joints() {
                joints::too_many_joints(R);
            }

            #[test]
            fn lerp_at_or_below_zero_keeps_the_joints() {
                joints::lerp_at_or_below_zero_keeps_the_joints(R);
            }

            #[test]
            fn lerp_at_or_above_one_copies_the_indexed_blend_joints() {
                joints::lerp_at_or_above_one_copies_the_indexed_blend_joints(R);
            }

            #[test]
            fn empty_index_and_empty_lists() {
                joints::empty_index_and_empty_lists(R);
            }

            #[test]
            fn only_indexed_joints_change() {
                joints::only_indexed_joints_change(R);
            }
        }

        // ---------------------------------------------------------------- Fox data ---

        #[test]
        fn fox_pose_pairs_from_the_json() {
            joints::fox_pose_pairs_from_the_json(R);
        }

        #[test]
        fn every_consecutive_key_pair_of_every_animation() {
            joints::every_consecutive_key_pair_of_every_animation(R);
        }

        #[test]
        fn rest_pose_towards_every_first_key() {
            joints::rest_pose_towards_every_first_key(R);
        }

        // ------------------------------------------------- the twins and the errata ---

        #[cfg(all(target_arch = "x86_64", not(miri)))]
        mod twins {
            use super::R;
            use crate::common::joint_twins as t;
            use proptest::prelude::*;

            #[test]
            fn twins_on_every_count_and_lerp() {
                t::twins_on_every_count_and_lerp(R);
            }

            #[test]
            fn twins_on_edge_cases_in_every_lane() {
                t::twins_on_edge_cases_in_every_lane(R);
            }

            #[test]
            fn twins_on_shuffled_and_duplicate_indices() {
                t::twins_on_shuffled_and_duplicate_indices(R);
            }

            #[test]
            fn twins_on_fox_key_pairs() {
                t::twins_on_fox_key_pairs(R);
            }

            proptest! {
                #![proptest_config(animasm_testkit::strategies::config(256, 2))]

                /// Arbitrary bit patterns in every float, `lerp` included.
                #[test]
                fn twins_on_arbitrary_bits(q in proptest::collection::vec(any::<[u32; 16]>(), 1..12), lerp in any::<u32>()) {
                    t::twins_on_arbitrary_bits(R, &q, lerp);
                }

                /// Unit quaternions, any lerp in (0, 1): every form near the oracle.
                #[test]
                fn every_impl_near_the_oracle(seed in any::<u64>(), n in 0usize..40, lerp in 0.001f32..0.999) {
                    if let Err(e) = t::every_impl_near_the_oracle(R, seed, n, lerp) {
                        prop_assert!(false, "{}", e);
                    }
                }
            }

            #[test]
            fn four_joints_take_the_one_wide_loop() {
                t::four_joints_take_the_one_wide_loop(R);
            }

            #[test]
            fn one_wide_loop_sums_the_dot_product_in_another_order() {
                t::one_wide_loop_sums_the_dot_product_in_another_order(R);
            }

            #[test]
            fn negative_zero_dot_product_flips_the_blend_quaternion() {
                t::negative_zero_dot_product_flips_the_blend_quaternion(R);
            }

            #[test]
            fn nan_lerp_copies_the_blend_joints() {
                t::nan_lerp_copies_the_blend_joints(R);
            }

            #[test]
            fn translations_are_lerped_as_t_plus_lerp_times_difference() {
                t::translations_are_lerped_as_t_plus_lerp_times_difference(R);
            }

            #[test]
            fn duplicate_index_in_a_group_of_four() {
                t::duplicate_index_in_a_group_of_four(R);
            }
        }

        // -------- the successors (`Impl::Portable`, `Avx2`, `Avx512`, `Neon`) ---

        /// The successors: their own behaviours (the listing behaviours
        /// they keep or correct, `asm_notes/<routine>.md`, "Successor:
        /// Impl::Avx2"), each on every successor form this CPU runs
        /// (`common::joints::successors`).
        #[cfg(not(miri))]
        mod successor {
            use super::R;
            use crate::common::joints as t;

            #[test]
            fn successor_every_count_0_to_67_against_scalar_and_oracle() {
                t::successor_every_count(R);
            }

            #[test]
            fn successor_fox_poses() {
                t::successor_fox_poses(R);
            }

            #[test]
            fn successor_special_values() {
                t::successor_special_values(R);
            }

            #[test]
            fn successor_buffers_end_at_the_allocation() {
                t::successor_buffers_end_at_the_allocation(R);
            }

            #[test]
            fn successor_same_result_in_any_position_and_count() {
                t::successor_same_result_in_any_position_and_count(R);
            }

            #[test]
            fn successor_negative_zero_dot_product_keeps_the_blend_quaternion() {
                t::successor_negative_zero_dot_product_keeps_the_blend_quaternion(R);
            }

            #[test]
            fn successor_nan_lerp_copies_the_blend_joints() {
                t::successor_nan_lerp_copies_the_blend_joints(R);
            }

            #[test]
            fn successor_translations_are_t_plus_lerp_times_difference_fused() {
                t::successor_translations_fused(R);
            }

            #[test]
            fn successors_agree_bit_for_bit() {
                t::successors_agree_bit_for_bit(R);
            }
        }
    };
}

/// The AVX-512 form of `routine` (`kernel_of`: the routine module's
/// `kernel`) on the lengths around its blocks of sixteen, in order, reversed
/// and with repeats across each boundary and before the masked tail: bit
/// for bit `Impl::Portable`, and with repeats what applying the form entry
/// by entry gives; lists allocated to the exact length. Where the CPU lacks
/// AVX-512 it says so and checks nothing.
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub fn avx512_blocks_of_sixteen(routine: &str, kernel_of: fn(Impl) -> Result<Kernel, Error>) {
    let k = match kernel_of(Impl::Avx512) {
        Ok(k) => k,
        Err(e @ Error::MissingCpuFeature { .. }) => {
            super::cpu::skipped(&format!("{routine} Impl::Avx512 on the blocks of sixteen: {e}"));
            return;
        }
        Err(e) => panic!("{routine} Impl::Avx512: {e}"),
    };
    let portable = kernel_of(Impl::Portable).unwrap();
    for len in [15usize, 16, 17, 31, 32, 33, 47, 48, 49, 63, 64, 65, 100, 130] {
        let (joints, blend, _) = joint_lists(0x16 + len as u64, len);
        let (joints, blend) = (joints[..len].to_vec(), blend[..len].to_vec());
        let identity: Vec<i32> = (0..len as i32).collect();
        let reversed: Vec<i32> = identity.iter().rev().copied().collect();
        for lerp in [0.3f32, 0.75] {
            for (what, index) in [("in order", &identity), ("reversed", &reversed)] {
                let got = run(k, &joints, &blend, lerp, index);
                let want = run(portable, &joints, &blend, lerp, index);
                assert_bit_identical(&got, &want, &format!("{routine} avx512 {len} {what} lerp {lerp}"));
            }
            let mut repeats = identity.clone();
            for b in (16..len).step_by(16) {
                repeats[b] = repeats[b - 1];
            }
            if len >= 2 {
                repeats[len - 2] = repeats[len - 1];
            }
            let got = run(k, &joints, &blend, lerp, &repeats);
            let by_entry = entry_by_entry(k, &joints, &blend, lerp, &repeats);
            let want = run(portable, &joints, &blend, lerp, &repeats);
            assert_bit_identical(&got, &by_entry, &format!("{routine} avx512 {len} repeats lerp {lerp}"));
            assert_bit_identical(&got, &want, &format!("{routine} avx512 {len} repeats vs portable lerp {lerp}"));
        }
    }
}
