//! The joint-list interpolators' asm and intrinsics twins against each other
//! on every input (edge cases and NaN included, through the raw kernels) and
//! every form against the f64 oracle, and the
//! errata: every place where the listings behave differently from the C
//! they implement, shown on the asm kernels and, since they are twins, on the
//! intrinsics (`asm_notes/slerp_joints.md` and
//! `asm_notes/lerp_joints.md` explain each, the function names are the
//! errata's names there).
#![cfg(all(target_arch = "x86_64", not(miri)))]

use animasm::slerp_joints::scalar::vec4_lerp;
use animasm::{Impl, JointQuat, Quat, Vec4};
use animasm_testkit::edges::{self, SPECIAL_FACTORS};
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::fox;
use animasm_testkit::inputs::{Rng, joint_lists};
use animasm_testkit::oracle::{f64x4, vec4_lerp_f64};

use super::assert_bit_identical;
use super::joints::{JointRoutine, Kernel};

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

/// Runs asm and intrinsics, asserts they agree bit for bit and returns the
/// result.
#[track_caller]
pub fn run_twins(
    r: &JointRoutine,
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
    ctx: &str,
) -> Vec<JointQuat> {
    let a = run(r.asm, joints, blend, lerp, index);
    let i = run(r.intrinsics, joints, blend, lerp, index);
    assert_bit_identical(&a, &i, &format!("{}: asm vs intrinsics, {ctx}, lerp {lerp:e}", r.name));
    a
}

fn q_bits(q: &Quat) -> [u32; 4] {
    q.to_array().map(f32::to_bits)
}

// ------------------------------------------------------------ differential ---

/// Every count 0..=20, 1023 and 1024, every lerp of [`SPECIAL_FACTORS`].
pub fn twins_on_every_count_and_lerp(r: &JointRoutine) {
    for n in (0..=20).chain([1023, 1024]) {
        let (joints, blend, index) = joint_lists(n as u64, n);
        for lerp in SPECIAL_FACTORS {
            run_twins(r, &joints, &blend, lerp, &index, &format!("{n} random joints"));
        }
    }
}

/// Each edge pair at every position of lists of 1..=9 joints, so that it
/// meets every lane of the 4-wide loop and the 1-wide loop.
pub fn twins_on_edge_cases_in_every_lane(r: &JointRoutine) {
    let edges = edges::joint_pairs();
    for n in 1..=9 {
        for (a, b, what) in &edges {
            for pos in 0..n {
                let (mut joints, mut blend, index) = joint_lists(pos as u64, n);
                joints[pos] = *a;
                blend[pos] = *b;
                for lerp in SPECIAL_FACTORS {
                    run_twins(r, &joints, &blend, lerp, &index, &format!("{what} at {pos} of {n}"));
                }
            }
        }
    }
}

/// Random indices with duplicates.
pub fn twins_on_shuffled_and_duplicate_indices(r: &JointRoutine) {
    let mut rng = Rng::new(5);
    for n in [5, 8, 13, 64] {
        let (joints, blend, _) = joint_lists(n as u64, n);
        let index: Vec<i32> = (0..2 * n).map(|_| rng.below(n) as i32).collect();
        for lerp in [0.2, 0.6] {
            run_twins(r, &joints, &blend, lerp, &index, "random indices with duplicates");
        }
    }
}

/// The Fox's consecutive keys.
pub fn twins_on_fox_key_pairs(r: &JointRoutine) {
    let pairs = fox::consecutive_key_pairs();
    let joints: Vec<JointQuat> = pairs.iter().map(|p| JointQuat::new(Quat::from_array(p.0), Vec4::default())).collect();
    let blend: Vec<JointQuat> = pairs.iter().map(|p| JointQuat::new(Quat::from_array(p.1), Vec4::default())).collect();
    let index: Vec<i32> = (0..joints.len() as i32).collect();
    for lerp in [0.1, 0.5, 0.9] {
        run_twins(r, &joints, &blend, lerp, &index, "Fox consecutive keys");
    }
}

/// Arbitrary bit patterns in every float, `lerp` included (a proptest case).
pub fn twins_on_arbitrary_bits(r: &JointRoutine, q: &[[u32; 16]], lerp: u32) {
    let joint = |b: &[u32]| {
        let f = |i: usize| f32::from_bits(b[i]);
        JointQuat::new(Quat::new(f(0), f(1), f(2), f(3)), Vec4::new(f(4), f(5), f(6), f(7)))
    };
    let joints: Vec<JointQuat> = q.iter().map(|b| joint(&b[..8])).collect();
    let blend: Vec<JointQuat> = q.iter().map(|b| joint(&b[8..])).collect();
    let index: Vec<i32> = (0..joints.len() as i32).collect();
    run_twins(r, &joints, &blend, f32::from_bits(lerp), &index, "arbitrary bits");
}

/// Unit quaternions, any lerp in (0, 1): rotations within the bound of the
/// f64 oracle for every form, translations within a few ulp of the f64 lerp
/// (a proptest case). Was over `Impl::ALL` with the old `Impl`, whose every
/// member was a joint form; now over the routine's forms.
pub fn every_impl_near_the_oracle(r: &JointRoutine, seed: u64, n: usize, lerp: f32) -> Result<(), String> {
    let (joints, blend, index) = joint_lists(seed, n);
    for imp in (r.forms)() {
        let mut out = joints.clone();
        (r.safe)(imp, &mut out, &blend, lerp, &index).unwrap();
        for j in 0..n {
            let want = (r.oracle)(f64x4(joints[j].q.to_array()), f64x4(blend[j].q.to_array()), f64::from(lerp));
            let e = max_abs_diff(out[j].q.to_array(), want);
            if e > r.bound {
                return Err(format!("{} {imp} joint {j}: rotation error {e:e}", r.name));
            }
            let want = vec4_lerp_f64(f64x4(joints[j].t.to_array()), f64x4(blend[j].t.to_array()), f64::from(lerp));
            let e = max_abs_diff(out[j].t.to_array(), want);
            if e > 4e-6 {
                return Err(format!("{} {imp} joint {j}: translation error {e:e}", r.name));
            }
        }
    }
    Ok(())
}

// ----------------------------------------------------------------- errata ---

/// `add eax, 4*4; jge done4`: with exactly four joints the 4-wide loop does
/// not run; `loopJoint1` does all four (as it does for one to three). The two
/// loops sum the dot product in different orders, so the loop a joint goes
/// through shows in the last bits of its result.
pub fn four_joints_take_the_one_wide_loop(r: &JointRoutine) {
    let name = r.name;
    let mut differs_from_4wide = 0;
    for seed in 0..500 {
        let (joints, blend, _) = joint_lists(seed, 8);
        let four = run_twins(r, &joints, &blend, 0.3, &[0, 1, 2, 3], "4");
        let eight = run_twins(r, &joints, &blend, 0.3, &[0, 1, 2, 3, 4, 5, 6, 7], "8");
        for j in 0..4 {
            // One joint alone can only go through loopJoint1.
            let one = run_twins(r, &joints, &blend, 0.3, &[j as i32], "1");
            assert_eq!(q_bits(&four[j].q), q_bits(&one[j].q), "{name}: 4 joints, joint {j} not as loopJoint1");
            differs_from_4wide += usize::from(q_bits(&four[j].q) != q_bits(&eight[j].q));
        }
    }
    // ... and loopJoint4 gives other bits for a good share of the same joints.
    assert!(differs_from_4wide > 100, "{name}: only {differs_from_4wide} of 2000 differ");
}

/// `loopJoint1` sums the dot product as `(y*y' + w*w') + (x*x' + z*z')`, the
/// C and `loopJoint4` as `((x*x' + y*y') + z*z') + w*w'`: for a near-zero
/// dot product the 1-wide loop can pick the other hemisphere.
pub fn one_wide_loop_sums_the_dot_product_in_another_order(r: &JointRoutine) {
    let name = r.name;
    let a = JointQuat::new(Quat::new(1.0, 1e-4, 1.0, 1e-4), Vec4::default());
    let b = JointQuat::new(Quat::new(1.0, 1e-4, -1.0, -1e-4), Vec4::default());
    // ((1 + 1e-8) - 1) - 1e-8 = -1e-8 in f32, but (1e-8 - 1e-8) + (1 - 1) = +0.
    let wide = run_twins(r, &[a; 5], &[b; 5], 0.5, &[0, 1, 2, 3, 4], "wide");
    let mut blend5 = [a; 5];
    blend5[4] = b;
    let one = run_twins(r, &[a; 5], &blend5, 0.5, &[4], "one");
    let want_c = (r.c)(&a.q, &b.q, 0.5);
    // The C and loopJoint4 negate b (cosom < 0): the x components cancel.
    for q in [want_c, wide[0].q] {
        assert!(q.x.abs() < 1e-3 && q.z.abs() > 0.5, "{name}: {q:?}");
    }
    // loopJoint1 keeps b (cosom = +0): the z components cancel instead.
    assert!(one[4].q.z.abs() < 1e-3 && one[4].q.x.abs() > 0.5, "{name}: {:?}", one[4].q);
}

/// The listing takes the blend quaternion's sign from cosom's sign bit
/// (`andps SIMD_SP_signBit` / `xorps`); the C tests `cosom >= 0.0f`, which
/// is true for -0.0. For a dot product of -0.0 the two take opposite arcs.
pub fn negative_zero_dot_product_flips_the_blend_quaternion(r: &JointRoutine) {
    let name = r.name;
    let a = JointQuat::new(Quat::new(0.0, 0.0, 0.0, 1.0), Vec4::default());
    let b = JointQuat::new(Quat::new(-1.0, -0.0, -0.0, -0.0), Vec4::default());
    // 0*-1 + 0*-0 + 0*-0 + 1*-0 = -0.0 in every summation order.
    let want_c = (r.c)(&a.q, &b.q, 0.3);
    assert!(want_c.x < -0.1, "{name}: the C goes towards b: {want_c:?}");
    let scalar = run(r.scalar, &[a], &[b], 0.3, &[0]);
    assert_eq!(q_bits(&scalar[0].q), q_bits(&want_c));
    for n in [1, 5] {
        // n = 1: loopJoint1; n = 5: joint 0 in loopJoint4.
        let out = run_twins(r, &vec![a; n], &vec![b; n], 0.3, &(0..n as i32).collect::<Vec<_>>(), "-0 dot");
        assert!(out[0].q.x > 0.1, "{name} n={n}: the listing goes towards -b: {:?}", out[0].q);
        assert!((out[0].q.x + want_c.x).abs() < 1e-6 && (out[0].q.w - want_c.w).abs() < 1e-6);
    }
}

/// `cmpnless xmm7, SIMD_SP_zero` and `cmpnltss xmm7, SIMD_SP_one` are both
/// true for NaN: a NaN `lerp` copies the blend joints. The C loop has no such
/// tests and turns every indexed joint into NaN. (The safe functions reject
/// a non-finite `lerp`.)
pub fn nan_lerp_copies_the_blend_joints(r: &JointRoutine) {
    let name = r.name;
    for n in [1, 4, 5, 9] {
        let (joints, blend, index) = joint_lists(n as u64, n);
        let out = run_twins(r, &joints, &blend, f32::NAN, &index, "NaN");
        assert_bit_identical(&out, &blend, &format!("{name} n={n}: NaN lerp"));
        let c = run(r.scalar, &joints, &blend, f32::NAN, &index);
        assert!(c.iter().all(|j| j.q.x.is_nan() && j.t.x.is_nan()), "{name}: the C gives NaN");
    }
}

/// The listing lerps translations as `t + (blend.t - t) * lerp`
/// (`subps`/`mulps`/`addps`), the C's `Vec4Lerp` as `t * (1 - lerp) +
/// blend.t * lerp`: the last bit differs often, and for huge values the
/// listing's difference overflows.
pub fn translations_are_lerped_as_t_plus_lerp_times_difference(r: &JointRoutine) {
    let name = r.name;
    let (joints, blend, index) = joint_lists(21, 1024);
    let t = 0.3f32;
    let out = run_twins(r, &joints, &blend, t, &index, "1024");
    let mut differs = 0;
    for j in 0..1024 {
        let (a, b) = (joints[j].t.to_array(), blend[j].t.to_array());
        let listing: [f32; 4] = core::array::from_fn(|c| a[c] + (b[c] - a[c]) * t);
        assert_eq!(out[j].t.to_array().map(f32::to_bits), listing.map(f32::to_bits), "{name} joint {j}");
        differs += usize::from(vec4_lerp(&joints[j].t, &blend[j].t, t) != out[j].t);
    }
    assert!(differs > 100, "{name}: {differs} of 1024 differ from Vec4Lerp");
    let big = |x| JointQuat::new(Quat::IDENTITY, Vec4::new(x, 0.0, 0.0, 1.0));
    let out = run_twins(r, &[big(3e38)], &[big(-3e38)], 0.5, &[0], "huge");
    assert_eq!(out[0].t.x, f32::NEG_INFINITY, "{name}");
    assert_eq!(vec4_lerp(&big(3e38).t, &big(-3e38).t, 0.5).x, 0.0);
}

/// `loopJoint4` writes each joint's translation before it reads the next
/// joint's, but loads all four quaternions before writing any: an index
/// repeated within a group of four has its translation lerped twice and its
/// rotation interpolated once. The C (and `loopJoint1`) do both twice.
pub fn duplicate_index_in_a_group_of_four(r: &JointRoutine) {
    let name = r.name;
    let (joints, blend, _) = joint_lists(3, 5);
    let t = 0.25f32;
    let dup = run_twins(r, &joints, &blend, t, &[0, 0, 1, 2, 3], "dup");
    let plain = run_twins(r, &joints, &blend, t, &[0, 4, 1, 2, 3], "plain");
    assert_eq!(q_bits(&dup[0].q), q_bits(&plain[0].q), "{name}: rotation interpolated once");
    let once = plain[0].t.to_array();
    let b = blend[0].t.to_array();
    let twice: [f32; 4] = core::array::from_fn(|c| once[c] + (b[c] - once[c]) * t);
    assert_eq!(dup[0].t.to_array().map(f32::to_bits), twice.map(f32::to_bits), "{name}: translation twice");
    // The C interpolates the rotation twice as well.
    let c = run(r.scalar, &joints, &blend, t, &[0, 0, 1, 2, 3]);
    assert!((c[0].q.w - dup[0].q.w).abs() > 1e-4 || (c[0].q.x - dup[0].q.x).abs() > 1e-4, "{name}");
}

/// The forms this routine runs here, for the callers that want to skip
/// the twins' checks where only the scalar form exists.
pub fn has_twins(r: &JointRoutine) -> bool {
    let f = (r.forms)();
    f.contains(&Impl::Asm) && f.contains(&Impl::Intrinsics)
}

// ------------------------------------------------ the successor (Impl::Avx2) ---

/// The raw `Impl::Avx2` kernel, or `None` after printing why it is skipped.
fn avx2(r: &JointRoutine) -> Option<Kernel> {
    match (r.kernel_of)(Impl::Avx2) {
        Ok(k) => Some(k),
        Err(e) => {
            eprintln!("{}: skipping the avx2 successor (Impl::Avx2): {e}", r.name);
            None
        }
    }
}

/// The largest |component| of the translations of `a` and `b` (at least 1).
fn t_scale(a: &JointQuat, b: &JointQuat) -> f64 {
    f64::from(a.t.to_array().iter().chain(&b.t.to_array()).fold(1f32, |m, v| m.max(v.abs())))
}

/// Checks `out` (from `joints`, `blend`, `lerp`, `index`) against the scalar
/// port (rotation within 5e-7), the f64 oracle (rotation within `r.bound`,
/// translation within 2.5e-7 of the translations' scale) and checks that
/// joints not in `index` are untouched.
#[track_caller]
fn check_successor(
    r: &JointRoutine,
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
    out: &[JointQuat],
) {
    let scalar = run(r.scalar, joints, blend, lerp, index);
    for j in 0..joints.len() {
        let ctx = format!("{} avx2 n={} joint {j} lerp {lerp}", r.name, joints.len());
        if !index.contains(&(j as i32)) {
            assert_bit_identical(&out[j..=j], &joints[j..=j], &ctx);
            continue;
        }
        let d = (0..4).map(|c| (out[j].q.to_array()[c] - scalar[j].q.to_array()[c]).abs()).fold(0f32, f32::max);
        assert!(d <= 5e-7, "{ctx}: {d:e} from the scalar port");
        let want = (r.oracle)(f64x4(joints[j].q.to_array()), f64x4(blend[j].q.to_array()), f64::from(lerp));
        let e = max_abs_diff(out[j].q.to_array(), want);
        assert!(e <= r.bound, "{ctx}: rotation {e:e} from the f64 oracle");
        let want = vec4_lerp_f64(f64x4(joints[j].t.to_array()), f64x4(blend[j].t.to_array()), f64::from(lerp));
        let e = max_abs_diff(out[j].t.to_array(), want);
        assert!(e <= 2.5e-7 * t_scale(&joints[j], &blend[j]), "{ctx}: translation {e:e} from the f64 oracle");
    }
}

/// Every count 0..=67 (every tail length after the groups of 24 or 16 and
/// the blocks of 8), with the identity index, its reverse and a subset,
/// against the scalar port and the f64 oracle.
pub fn successor_every_count(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    for n in 0..=67usize {
        let (joints, blend, index) = joint_lists(0x50cc_u64.wrapping_add(n as u64), n);
        let reversed: Vec<i32> = index.iter().rev().copied().collect();
        let subset: Vec<i32> = index.iter().copied().filter(|j| j % 3 != 2).collect();
        for idx in [&index, &reversed, &subset] {
            for lerp in [1e-3, 0.37, 0.5, 0.9] {
                let out = run(k, &joints, &blend, lerp, idx);
                check_successor(r, &joints, &blend, lerp, idx, &out);
            }
        }
    }
}

/// The Fox's pose pairs, its consecutive keys and rest pose to first keys,
/// through the raw successor, against the f64 oracle.
pub fn successor_fox_poses(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    let mut lists: Vec<(String, Vec<JointQuat>, Vec<JointQuat>)> =
        fox::KEY_PAIRS.iter().map(|name| (name.to_string(), fox::key_pair(name).0, fox::key_pair(name).1)).collect();
    let (a, b) = fox::joint_lists_from_pairs(&fox::consecutive_key_pairs());
    lists.push(("consecutive keys".into(), a, b));
    lists.push(("rest to far_apart".into(), fox::rest_pose(), fox::key_pair("far_apart").0));
    for (what, from, to) in &lists {
        let index: Vec<i32> = (0..from.len() as i32).collect();
        for t in [0.1f32, 0.25, 0.5, 0.8, 0.95] {
            let out = run(k, from, to, t, &index);
            for j in 0..from.len() {
                let want = (r.oracle)(f64x4(from[j].q.to_array()), f64x4(to[j].q.to_array()), f64::from(t));
                let e = max_abs_diff(out[j].q.to_array(), want);
                assert!(e <= r.fox_bound, "{what}: {} avx2 joint {j} lerp {t}: {e:e}", r.name);
            }
        }
    }
}

/// Identical, opposite, ±0 components, NaN and infinite components: what
/// the successor does with each (asserted), in every lane of a block.
pub fn successor_special_values(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    let name = r.name;
    let mut rng = Rng::new(0xa7f2);
    let tv = Vec4::new(1.0, -2.0, 3.0, 1.0);
    let jq = |q: [f32; 4]| JointQuat::new(Quat::from_array(q), tv);
    for n in [1usize, 7, 8, 9, 30] {
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
            // NaN and infinite components: that joint's rotation is NaN in all
            // four components, its translation is lerped as usual, and no
            // other joint changes (lanes do not mix).
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
                    assert!(
                        out[pos].q.to_array().iter().all(|v| v.is_nan()),
                        "{name} n={n} {bad} at {pos}: {:?}",
                        out[pos].q
                    );
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
    if name == "slerp_joints" {
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

/// Duplicates within one group are interpolated once (every load before any
/// store), across groups one after the other; a shuffled index gives the
/// same bits as the identity index.
pub fn successor_duplicate_and_shuffled_indices(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    let name = r.name;
    let (joints, blend, _) = joint_lists(3, 64);
    let t = 0.25f32;
    // In the tail block: [0, 0, 1, 2, 3] is [0, 1, 2, 3], bit for bit.
    let dup = run(k, &joints, &blend, t, &[0, 0, 1, 2, 3]);
    let plain = run(k, &joints, &blend, t, &[0, 1, 2, 3]);
    assert_bit_identical(&dup, &plain, &format!("{name}: duplicate in one block"));
    // In a full group of the main loop (24 entries for slerp, 16 for lerp):
    // joint 5 named at positions 0 and 13 is interpolated once.
    let mut index: Vec<i32> = (0..24).collect();
    index[13] = 5;
    let dup = run(k, &joints, &blend, t, &index);
    let once: Vec<i32> = index.iter().copied().filter(|&j| j != 13).collect();
    let plain = run(k, &joints, &blend, t, &once);
    let mut want = plain.clone();
    want[13] = joints[13];
    assert_bit_identical(&dup, &want, &format!("{name}: duplicate in one group"));
    // 0..24 twice (48 entries): every joint interpolated twice, as running
    // the kernel twice on 0..24 (no group holds an entry twice).
    let twice: Vec<i32> = (0..24).chain(0..24).collect();
    let got = run(k, &joints, &blend, t, &twice);
    let first: Vec<i32> = (0..24).collect();
    let want = run(k, &run(k, &joints, &blend, t, &first), &blend, t, &first);
    assert_bit_identical(&got, &want, &format!("{name}: duplicates across groups"));
    // Shuffled: the same bits as in order.
    let mut rng = Rng::new(77);
    let mut shuffled: Vec<i32> = (0..64).collect();
    for i in (1..64).rev() {
        shuffled.swap(i, rng.below(i + 1));
    }
    let a = run(k, &joints, &blend, t, &shuffled);
    let b = run(k, &joints, &blend, t, &(0..64).collect::<Vec<_>>());
    assert_bit_identical(&a, &b, &format!("{name}: shuffled index"));
    // Random indices with duplicates stay within the bounds of the oracle
    // for the joints named once.
    let random: Vec<i32> = (0..40).map(|_| rng.below(64) as i32).collect();
    let out = run(k, &joints, &blend, t, &random);
    for j in 0..64 {
        let count = random.iter().filter(|&&x| x == j as i32).count();
        if count == 0 {
            assert_bit_identical(&out[j..=j], &joints[j..=j], name);
        } else if count == 1 {
            let want = (r.oracle)(f64x4(joints[j].q.to_array()), f64x4(blend[j].q.to_array()), f64::from(t));
            assert!(max_abs_diff(out[j].q.to_array(), want) <= r.bound, "{name} joint {j}");
        }
    }
}

/// Lists, index and blend list that end exactly at their allocation's end
/// (`Vec`s of exactly the length used: memcheck sees any overrun), every
/// count 1..=67, the last joint in the last (padded) block.
pub fn successor_buffers_end_at_the_allocation(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
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
        // `avx2` returned a kernel this CPU runs.
        unsafe { k(out.as_mut_ptr(), blend_exact.as_ptr(), 0.4, index.as_ptr(), n as i32) };
        check_successor(r, &joints, &blend_exact, 0.4, &index, &out);
        // The copy path (lerp >= 1) too.
        let mut out2: Vec<JointQuat> = Vec::with_capacity(n);
        out2.extend_from_slice(&joints);
        // SAFETY: as above.
        unsafe { k(out2.as_mut_ptr(), blend_exact.as_ptr(), 1.0, index.as_ptr(), n as i32) };
        assert_bit_identical(&out2, &blend_exact, &format!("{} n={n}: copy", r.name));
    }
}

/// Errata E1 and E2 corrected: a joint's result does not depend on the
/// count or on its position in `index` (the listing's differs between its
/// 4-wide and 1-wide loops).
pub fn successor_same_result_in_any_position_and_count(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    let (joints, blend, _) = joint_lists(0x51, 67);
    for lerp in [0.3f32, 0.7] {
        let alone: Vec<JointQuat> = (0..67).map(|j| run(k, &joints, &blend, lerp, &[j as i32])[j]).collect();
        for n in [4usize, 5, 8, 9, 16, 23, 24, 25, 40, 67] {
            for idx in [(0..n as i32).collect::<Vec<_>>(), (0..n as i32).rev().collect()] {
                let out = run(k, &joints, &blend, lerp, &idx);
                for &j in &idx {
                    let j = j as usize;
                    assert_bit_identical(&out[j..=j], &alone[j..=j], &format!("{} n={n} joint {j}", r.name));
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
        assert_eq!(q_bits(&m.q), q_bits(&one[0].q), "{} joint {j}", r.name);
    }
}

/// Erratum E3 corrected: a dot product of -0.0 keeps the blend quaternion,
/// as the C's `cosom >= 0.0f` (the listing negates it).
pub fn successor_negative_zero_dot_product_keeps_the_blend_quaternion(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    let a = JointQuat::new(Quat::new(0.0, 0.0, 0.0, 1.0), Vec4::default());
    let b = JointQuat::new(Quat::new(-1.0, -0.0, -0.0, -0.0), Vec4::default());
    let want_c = (r.c)(&a.q, &b.q, 0.3);
    assert!(want_c.x < -0.1);
    for n in [1usize, 5, 8, 9, 30] {
        let out = run(k, &vec![a; n], &vec![b; n], 0.3, &(0..n as i32).collect::<Vec<_>>());
        for (j, o) in out.iter().enumerate() {
            let q = o.q;
            assert!(q.x < -0.1, "{} n={n} joint {j}: {q:?}", r.name);
            assert!((q.x - want_c.x).abs() < 1e-6 && (q.w - want_c.w).abs() < 1e-6, "{} {q:?} {want_c:?}", r.name);
        }
    }
}

/// Erratum E4 kept: a NaN `lerp` copies the indexed blend joints (the
/// listing's prologue; the safe function rejects it).
pub fn successor_nan_lerp_copies_the_blend_joints(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    for n in [1usize, 4, 9, 30] {
        let (joints, blend, index) = joint_lists(n as u64, n);
        let out = run(k, &joints, &blend, f32::NAN, &index);
        assert_bit_identical(&out, &blend, &format!("{} n={n}: NaN lerp", r.name));
        // lerp <= 0 returns without writing.
        let out = run(k, &joints, &blend, -0.0, &index);
        assert_bit_identical(&out, &joints, &format!("{} n={n}: lerp -0", r.name));
    }
}

/// Erratum E5 kept, fused: translations are `t + lerp (b - t)` with one FMA
/// (`lerp.mul_add(b - t, t)` bit for bit), so `b == t` gives `t` and a huge
/// difference still overflows.
pub fn successor_translations_fused(r: &JointRoutine) {
    let Some(k) = avx2(r) else { return };
    let (joints, blend, index) = joint_lists(21, 1024);
    let t = 0.3f32;
    let out = run(k, &joints, &blend, t, &index);
    for j in 0..1024 {
        let (a, b) = (joints[j].t.to_array(), blend[j].t.to_array());
        let want: [f32; 4] = core::array::from_fn(|c| t.mul_add(b[c] - a[c], a[c]));
        assert_eq!(out[j].t.to_array().map(f32::to_bits), want.map(f32::to_bits), "{} joint {j}", r.name);
    }
    let out = run(k, &joints, &joints, t, &index);
    for j in 0..1024 {
        assert_eq!(out[j].t.to_array().map(f32::to_bits), joints[j].t.to_array().map(f32::to_bits));
    }
    let big = |x| JointQuat::new(Quat::IDENTITY, Vec4::new(x, 0.0, 0.0, 1.0));
    let out = run(k, &[big(3e38)], &[big(-3e38)], 0.5, &[0]);
    assert_eq!(out[0].t.x, f32::NEG_INFINITY, "{}", r.name);
}
