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
use super::joints::JointRoutine;

pub use super::joints::run;

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
