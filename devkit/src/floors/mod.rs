//! The memory floors of the routines, per [`Shape`]: for each shape, a loop
//! that performs its routines' memory traffic (the same loads, through the
//! same index or parent indirection, and the same stores) with no arithmetic
//! beyond one add. No form of a routine can run faster than its shape's
//! floor on the same buffers, so a form's ticks over its floor's say how
//! much of its time is arithmetic the loads and stores do not hide.
//!
//! | shape | floor |
//! |---|---|
//! | `Shape::JointBlend` | [`joint_lists`] |
//! | `Shape::QuatsToMats` | [`quats_to_mats`] |
//! | `Shape::MatsToQuats` | [`mats_to_quats`] |
//! | `Shape::Skeleton` | [`skeleton`] and [`skeleton_chain`], in the routine's [`Walk`] |
//! | `Shape::TransformJoints` | [`transform_joints`] |
//! | `Shape::Pose` | [`pose`], and [`skeleton_chain`] on the same hierarchy (`crate::whole_pose`) |
//!
//! For the skeleton routines there is also the **dependency-chain floor**:
//! the loads and stores, plus one FMA per matrix row, so that a joint's rows
//! depend on its parent's rows through an FMA's latency as in the routine.
//! A routine that walks its joints first to last ([`Walk::Forward`]) reads
//! each parent's *just stored* matrix: the store-to-load forwarding and the
//! FMA are a chain as long as the skeleton is deep. One that walks last to
//! first ([`Walk::Backward`]) reads every parent (an earlier joint) before it
//! is written: its chain floor has no chain, and measures the same as its
//! memory floor plus the FMAs. [`Walk::of`] observes a routine's walk.
//!
//! Every floor is a safe function over slices. It checks every index (and
//! parent) against the buffers before the loop, and panics on one out of
//! range, so that the loop itself has no bounds checks. On x86_64 with AVX
//! (detected at run time with `is_x86_feature_detected!`; the chain floors
//! also need FMA) the loop is a `#[target_feature(enable = "avx")]` kernel
//! of unaligned 256-bit loads and stores (the buffers are only 16-byte
//! aligned, as the kernels' are); elsewhere a portable loop with the same
//! traffic runs ([`simd`] says which). The floors write their buffers, so a
//! benchmark restores in-place inputs between runs as it does for the
//! routines; a caller that loops should pass the buffers through
//! `core::hint::black_box` between runs (the report's tables do: every call
//! goes through a boxed closure on buffers the compiler cannot see through).
//!
//! [`Shape`]: animasm::roster::Shape

use animasm::roster::{Routine, Shape};
use animasm::{Impl, JointMat, JointQuat};

/// Whether the floors run their AVX kernels on this CPU (`false`: the
/// portable loops, same traffic, not a floor of the AVX2 forms).
pub fn simd() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Whether the chain floors run their AVX + FMA kernels on this CPU.
pub fn simd_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// A joint's 8 floats: `q` then `t`.
fn arr(j: &JointQuat) -> [f32; 8] {
    let (q, t) = (j.q.to_array(), j.t.to_array());
    core::array::from_fn(|k| if k < 4 { q[k] } else { t[k - 4] })
}

/// A joint from 8 floats: `q` then `t`.
fn from_arr(a: [f32; 8]) -> JointQuat {
    JointQuat::new(animasm::Quat::new(a[0], a[1], a[2], a[3]), animasm::Vec4::new(a[4], a[5], a[6], a[7]))
}

fn check_index(index: &[i32], len: usize, what: &str) {
    for (k, &j) in index.iter().enumerate() {
        assert!(j >= 0 && (j as usize) < len, "{what}: index[{k}] = {j} is outside 0..{len}");
    }
}

/// The floor of `Shape::JointBlend`: for each `j` of `index`, load
/// `joints[j]` and `blend[j]` (32 bytes each), add them, store the 32 bytes
/// to `joints[j]`. That is the shape's traffic (each routine reads a joint
/// of both lists through the index and writes the joint back in place), so
/// no form can beat it.
///
/// # Panics
/// If an entry of `index` is negative or not below both lists' lengths.
pub fn joint_lists(joints: &mut [JointQuat], blend: &[JointQuat], index: &[i32]) {
    check_index(index, joints.len().min(blend.len()), "joint_lists floor");
    #[cfg(target_arch = "x86_64")]
    if simd() {
        // SAFETY: AVX is detected above; every index entry was checked to
        // address a joint of both lists.
        unsafe { avx::joint_lists(joints.as_mut_ptr(), blend.as_ptr(), index) };
        return;
    }
    for &j in index {
        let j = j as usize;
        let (a, b) = (arr(&joints[j]), arr(&blend[j]));
        joints[j] = from_arr(core::array::from_fn(|k| a[k] + b[k]));
    }
}

/// The floor of `Shape::QuatsToMats`: for each joint, load its 32 bytes,
/// add, store 48 bytes to its matrix (the 32 added bytes and the first 16
/// again). The shape reads each `JointQuat` once and writes each `JointMat`
/// once.
///
/// # Panics
/// If `mats` is shorter than `quats`.
pub fn quats_to_mats(mats: &mut [JointMat], quats: &[JointQuat]) {
    assert!(mats.len() >= quats.len(), "quats_to_mats floor: {} matrices for {} joints", mats.len(), quats.len());
    #[cfg(target_arch = "x86_64")]
    if simd() {
        // SAFETY: AVX is detected above; `mats` holds at least `quats.len()`
        // matrices.
        unsafe { avx::quats_to_mats(mats.as_mut_ptr(), quats.as_ptr(), quats.len()) };
        return;
    }
    for (m, q) in mats.iter_mut().zip(quats) {
        let a = arr(q);
        m.mat = core::array::from_fn(|k| a[k % 8] + a[k % 8]);
    }
}

/// The floor of `Shape::MatsToQuats`: for each matrix, load its 48 bytes
/// (two 32-byte loads at bytes 0 and 16, which overlap and stay inside the
/// matrix), add them, store 32 bytes to the joint. The shape reads each
/// `JointMat` once and writes each `JointQuat` once.
///
/// # Panics
/// If `quats` is shorter than `mats`.
pub fn mats_to_quats(quats: &mut [JointQuat], mats: &[JointMat]) {
    assert!(quats.len() >= mats.len(), "mats_to_quats floor: {} joints for {} matrices", quats.len(), mats.len());
    #[cfg(target_arch = "x86_64")]
    if simd() {
        // SAFETY: AVX is detected above; `quats` holds at least `mats.len()`
        // joints.
        unsafe { avx::mats_to_quats(quats.as_mut_ptr(), mats.as_ptr(), mats.len()) };
        return;
    }
    for (q, m) in quats.iter_mut().zip(mats) {
        *q = from_arr(core::array::from_fn(|k| m.mat[k] + m.mat[k + 4]));
    }
}

/// The floor of `Shape::TransformJoints`: for each `i`, load `a[i]` and
/// `b[i]` (48 bytes each), add, store 48 bytes to `result[i]`: the shape's
/// two reads and one write per joint.
///
/// # Panics
/// If `result` or `b` is shorter than `a`.
pub fn transform_joints(result: &mut [JointMat], a: &[JointMat], b: &[JointMat]) {
    assert!(result.len() >= a.len() && b.len() >= a.len(), "transform_joints floor: lists of different lengths");
    #[cfg(target_arch = "x86_64")]
    if simd() {
        // SAFETY: AVX is detected above; `result` and `b` hold at least
        // `a.len()` matrices.
        unsafe { avx::transform_joints(result.as_mut_ptr(), a.as_ptr(), b.as_ptr(), a.len()) };
        return;
    }
    for ((r, a), b) in result.iter_mut().zip(a).zip(b) {
        r.mat = core::array::from_fn(|k| a.mat[k] + b.mat[k]);
    }
}

/// The memory floor of `Shape::Pose` (`slerp_pose`, `lerp_pose`): for each
/// joint `i`, load `from[i]` and `to[i]` (32 bytes each) and `parents[i]`
/// (4 bytes), add them, store 48 bytes to `model[i]`; with `skin =
/// Some((mats, inverse_bind))` also load `inverse_bind[i]` (48 bytes), add
/// `model[i]`'s value, store 48 bytes to `mats[i]`. That is the bytes a
/// whole pose must read and write (the parents' model matrices it reads
/// again are the ones it has just written: they stay in the L1 cache, and
/// [`skeleton_chain`] is the floor of that dependency).
///
/// # Panics
/// If a list is shorter than `model`.
pub fn pose(
    model: &mut [JointMat],
    from: &[JointQuat],
    to: &[JointQuat],
    parents: &[i32],
    skin: Option<(&mut [JointMat], &[JointMat])>,
) {
    let n = model.len();
    assert!(from.len() >= n && to.len() >= n && parents.len() >= n, "pose floor: lists shorter than model");
    if let Some((mats, bind)) = &skin {
        assert!(mats.len() >= n && bind.len() >= n, "pose floor: skin lists shorter than model");
    }
    #[cfg(target_arch = "x86_64")]
    if simd() {
        let (mats, bind) = match skin {
            Some((m, b)) => (m.as_mut_ptr(), b.as_ptr()),
            None => (core::ptr::null_mut(), core::ptr::null()),
        };
        // SAFETY: AVX is detected above; every list holds at least `n`
        // elements (checked above), the skin's both or neither (null).
        unsafe { avx::pose(model.as_mut_ptr(), from.as_ptr(), to.as_ptr(), parents.as_ptr(), mats, bind, n) };
        return;
    }
    for i in 0..n {
        let (a, b) = (arr(&from[i]), arr(&to[i]));
        let p = parents[i] as f32;
        model[i].mat = core::array::from_fn(|k| a[k % 8] + b[k % 8] + if k >= 8 { p } else { 0.0 });
    }
    if let Some((mats, bind)) = skin {
        for i in 0..n {
            mats[i].mat = core::array::from_fn(|k| model[i].mat[k] + bind[i].mat[k]);
        }
    }
}

/// The order a skeleton routine walks its joints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    /// First to last: a parent is written before its children read it (a
    /// routine from local to model space).
    Forward,
    /// Last to first: a parent is read before it is written (a routine from
    /// model to local space).
    Backward,
}

impl Walk {
    /// The walk of a `Shape::Skeleton` routine (`None` for another shape),
    /// observed: its scalar form on a chain of three joints (0 the parent of
    /// 1, 1 of 2, each a translation by 1 along x) over joints `1..=2`, and
    /// over `1..=1` then `2..=2`. When joint 2's result is the same both
    /// ways, it read the matrix the routine had just written for joint 1:
    /// forward. Otherwise it read joint 1's matrix before it was written:
    /// backward.
    ///
    /// # Panics
    /// If the routine's safe function fails on the chain.
    pub fn of(r: &Routine) -> Option<Walk> {
        let Shape::Skeleton { safe, .. } = r.shape else { return None };
        let step = JointMat { mat: [1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] };
        let parents = [-1, 0, 1];
        let run = |ranges: &[core::ops::RangeInclusive<usize>]| {
            let mut mats = [step; 3];
            for range in ranges {
                safe(Impl::Scalar, &mut mats, &parents, range.clone())
                    .unwrap_or_else(|e| panic!("{}: the three-joint chain: {e}", r.name));
            }
            mats[2]
        };
        Some(if run(&[1..=2]) == run(&[1..=1, 2..=2]) { Walk::Forward } else { Walk::Backward })
    }
}

fn check_skeleton(mats: &[JointMat], parents: &[i32], joints: &core::ops::RangeInclusive<usize>, what: &str) {
    if joints.is_empty() {
        return;
    }
    assert!(
        *joints.end() < mats.len() && *joints.end() < parents.len(),
        "{what}: joints {joints:?} outside the {} matrices / {} parents",
        mats.len(),
        parents.len()
    );
    check_index(&parents[joints.clone()], mats.len(), what);
}

/// The skeleton routines' memory floor: for each joint `i` of `joints` in
/// the order `walk`, load the parent's 48 bytes (through `parents[i]`) and
/// the joint's 48 bytes, add, store 48 bytes to joint `i`: the routines'
/// traffic (two matrix reads, one through the parent list, one write per
/// joint). Walking forward, a joint whose parent is in `joints` reads the
/// matrix the loop stored for the parent (store-to-load forwarding), as the
/// routine does.
///
/// # Panics
/// If a joint of `joints` or its parent is outside `mats` or `parents`.
pub fn skeleton(mats: &mut [JointMat], parents: &[i32], joints: core::ops::RangeInclusive<usize>, walk: Walk) {
    check_skeleton(mats, parents, &joints, "skeleton floor");
    if joints.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd() {
        // SAFETY: AVX is detected above; every joint of `joints` and its
        // parent were checked to be inside `mats` and `parents`.
        unsafe { avx::skeleton(mats.as_mut_ptr(), parents.as_ptr(), *joints.start(), *joints.end(), walk, false) };
        return;
    }
    portable_skeleton(mats, parents, joints, walk, |p, m| p + m);
}

/// The skeleton routines' dependency-chain floor: [`skeleton`]'s traffic
/// with one FMA per matrix row instead of the add (`row = parent_row * 0.5 +
/// row`, 128-bit rows), so that each row of a joint depends on its parent's
/// row through an FMA's latency; walking forward, on the parent's row just
/// stored. The multiplier 0.5 keeps the values bounded down any chain.
///
/// # Panics
/// As [`skeleton`].
pub fn skeleton_chain(mats: &mut [JointMat], parents: &[i32], joints: core::ops::RangeInclusive<usize>, walk: Walk) {
    check_skeleton(mats, parents, &joints, "skeleton chain floor");
    if joints.is_empty() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if simd_fma() {
        // SAFETY: AVX and FMA are detected above; every joint of `joints`
        // and its parent were checked to be inside `mats` and `parents`.
        unsafe { avx::skeleton(mats.as_mut_ptr(), parents.as_ptr(), *joints.start(), *joints.end(), walk, true) };
        return;
    }
    portable_skeleton(mats, parents, joints, walk, |p, m| p.mul_add(0.5, m));
}

fn portable_skeleton(
    mats: &mut [JointMat],
    parents: &[i32],
    joints: core::ops::RangeInclusive<usize>,
    walk: Walk,
    op: impl Fn(f32, f32) -> f32,
) {
    let mut step = |i: usize| {
        let p = mats[parents[i] as usize].mat;
        let m = &mut mats[i].mat;
        for k in 0..12 {
            m[k] = op(p[k], m[k]);
        }
    };
    match walk {
        Walk::Forward => joints.for_each(&mut step),
        Walk::Backward => joints.rev().for_each(&mut step),
    }
}

/// The AVX kernels: unaligned 256-bit loads and stores (a 48-byte matrix is
/// a 256-bit and a 128-bit access), one add.
#[cfg(target_arch = "x86_64")]
mod avx;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup;

    #[test]
    fn the_joint_floor_adds_the_blend_joints_through_the_index() {
        let (mut joints, blend, _) = setup::joint_lists_n(9);
        let before = joints.clone();
        joint_lists(&mut joints, &blend, &[3, 7, 3]);
        for j in 0..9 {
            let times = [0, 0, 0, 2, 0, 0, 0, 1, 0][j] as f32;
            let (a, b, c) = (arr(&before[j]), arr(&blend[j]), arr(&joints[j]));
            for k in 0..8 {
                assert_eq!(c[k], a[k] + times * b[k], "joint {j} component {k}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "outside")]
    #[cfg_attr(target_family = "wasm", ignore = "a should_panic test needs unwinding: wasm32-wasip1 has panic=abort")]
    fn the_joint_floor_checks_the_index() {
        let (mut joints, blend, _) = setup::joint_lists_n(4);
        joint_lists(&mut joints, &blend, &[0, 4]);
    }

    #[test]
    fn the_conversion_and_product_floors_write_every_element() {
        let quats = setup::quats_to_mats_input_n(5);
        let mut mats = vec![JointMat::default(); 5];
        quats_to_mats(&mut mats, &quats);
        assert_eq!(mats[4].mat[0], 2.0 * arr(&quats[4])[0]);
        assert_eq!(mats[4].mat[11], 2.0 * arr(&quats[4])[3]);
        let mut out = vec![JointQuat::default(); 5];
        mats_to_quats(&mut out, &mats);
        assert_eq!(arr(&out[4])[7], mats[4].mat[7] + mats[4].mat[11]);
        let (a, b) = setup::transform_joints_input_n(5);
        let mut r = vec![JointMat::default(); 5];
        transform_joints(&mut r, &a, &b);
        assert_eq!(r[4].mat[11], a[4].mat[11] + b[4].mat[11]);
    }

    #[test]
    fn the_skeleton_floors_read_the_parent_just_written_walking_forward() {
        let parents = vec![-1, 0, 1, 2];
        let one = JointMat { mat: [1.0; 12] };
        for (chain, step) in [(false, 1.0f32), (true, 0.5)] {
            let mut mats = vec![one; 4];
            let run = if chain { skeleton_chain } else { skeleton };
            run(&mut mats, &parents, 1..=3, Walk::Forward);
            // Forward: each joint adds (a multiple of) its parent's new value.
            let mut expect = 1.0f32;
            for m in &mats[1..] {
                expect = expect * step + 1.0;
                assert!(m.mat.iter().all(|&v| v == expect), "chain {chain}: {:?} != {expect}", m.mat);
            }
            let mut mats = vec![one; 4];
            run(&mut mats, &parents, 1..=3, Walk::Backward);
            // Backward: every parent is read before it is written.
            for m in &mats[1..] {
                assert!(m.mat.iter().all(|&v| v == step + 1.0), "chain {chain} backward: {:?}", m.mat);
            }
        }
    }

    #[test]
    fn every_skeleton_routine_has_a_walk_and_both_walks_occur() {
        let mut walks = Vec::new();
        for r in animasm::roster::ROUTINES {
            let walk = Walk::of(r);
            assert_eq!(walk.is_some(), matches!(r.shape, Shape::Skeleton { .. }), "{}", r.name);
            // A variant walks as the routine it varies.
            if let (Some(w), Some(base)) = (walk, r.variant_of.and_then(animasm::roster::find)) {
                assert_eq!(Walk::of(base), Some(w), "{}", r.name);
            }
            walks.extend(walk);
        }
        assert!(walks.contains(&Walk::Forward) && walks.contains(&Walk::Backward), "{walks:?}");
    }

    #[test]
    #[should_panic(expected = "outside")]
    #[cfg_attr(target_family = "wasm", ignore = "a should_panic test needs unwinding: wasm32-wasip1 has panic=abort")]
    fn the_skeleton_floor_checks_the_parents() {
        let mut mats = vec![JointMat::default(); 3];
        skeleton(&mut mats, &[-1, 0, 3], 1..=2, Walk::Forward);
    }
}
