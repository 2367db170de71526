//! Shared helpers of the integration tests (`mod common;`): the generic
//! routine harness ([`harness`], with each roster shape's inputs and calls
//! in [`shapes`]), the joint-list interpolators' shared checks
//! ([`joints`], [`joint_twins`]), the testkit's modules re-exported (input
//! generators [`inputs`], f64 oracles [`oracle`], error measurements
//! [`measure`], the real data of `data/Fox.glb` [`fox`], proptest strategies
//! [`strategies`]) and a few assertions.

#![allow(dead_code)]

pub mod cpu;
pub mod exact;
pub mod harness;
pub mod joint_twins;
pub mod joints;
pub mod nlerp_model;
pub mod roster_checks;
pub mod shapes;

#[allow(unused_imports)]
pub use animasm_testkit::{error, fox, inputs, oracle, strategies};
#[allow(unused_imports)]
pub use devkit::measure;

use animasm::{JointMat, JointQuat};

/// The eight floats of a joint, `q` then `t`.
pub fn lanes(j: &JointQuat) -> [f32; 8] {
    let (q, t) = (j.q.to_array(), j.t.to_array());
    [q[0], q[1], q[2], q[3], t[0], t[1], t[2], t[3]]
}

/// Every float of every joint as its bit pattern (`q` then `t`, 8 per joint).
pub fn bits(joints: &[JointQuat]) -> Vec<u32> {
    joints.iter().flat_map(|j| lanes(j).map(f32::to_bits)).collect()
}

/// Every float of every joint matrix as its bit pattern (12 per joint).
pub fn mat_bits(mats: &[JointMat]) -> Vec<u32> {
    mats.iter().flat_map(|m| m.mat.map(f32::to_bits)).collect()
}

/// The name of lane `l` of [`lanes`].
pub fn lane_name(l: usize) -> &'static str {
    ["q.x", "q.y", "q.z", "q.w", "t.x", "t.y", "t.z", "t.w"][l]
}

/// Whether two floats are the same bit for bit, except that any two NaNs
/// count as the same: Rust leaves the sign and payload of a NaN produced by
/// arithmetic unspecified, and LLVM commutes `addps`/`mulps` operands and
/// rewrites `x - c` as `x + (-c)` in the intrinsics kernels, which changes
/// which NaN operand propagates. Every non-NaN value, and the sign of zero,
/// must match exactly.
pub fn same_bits(x: f32, y: f32) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

/// Panics unless `a` and `b` have the same length and agree by [`same_bits`]
/// in every float, naming the first differing joint and lane with both values
/// in hex and as floats. `ctx` says what was compared.
#[track_caller]
pub fn assert_bit_identical(a: &[JointQuat], b: &[JointQuat], ctx: &str) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths differ");
    let joint_differs = |x: &JointQuat, y: &JointQuat| {
        let (lx, ly) = (lanes(x), lanes(y));
        (0..8).find(|&l| !same_bits(lx[l], ly[l]))
    };
    if let Some((j, l)) = a.iter().zip(b).enumerate().find_map(|(j, (x, y))| joint_differs(x, y).map(|l| (j, l))) {
        let (x, y) = (lanes(&a[j])[l], lanes(&b[j])[l]);
        let differing = a.iter().zip(b).filter(|(x, y)| joint_differs(x, y).is_some()).count();
        panic!(
            "{ctx}: joint {j} lane {} differs: {:#010x} ({x:e}) vs {:#010x} ({y:e}); {differing} of {} joints differ",
            lane_name(l),
            x.to_bits(),
            y.to_bits(),
            a.len()
        );
    }
}

/// Panics unless `a` and `b` have the same length and agree by [`same_bits`]
/// in every float, naming the first differing joint and element with both
/// values in hex and as floats. `ctx` says what was compared.
#[track_caller]
pub fn assert_mats_bit_identical(a: &[JointMat], b: &[JointMat], ctx: &str) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths differ");
    let differs = |x: &JointMat, y: &JointMat| (0..12).find(|&e| !same_bits(x.mat[e], y.mat[e]));
    if let Some((j, e)) = a.iter().zip(b).enumerate().find_map(|(j, (x, y))| differs(x, y).map(|e| (j, e))) {
        let (x, y) = (a[j].mat[e], b[j].mat[e]);
        let count = a.iter().zip(b).filter(|(x, y)| differs(x, y).is_some()).count();
        panic!(
            "{ctx}: joint {j} mat[{e}] (row {}, column {}) differs: {:#010x} ({x:e}) vs {:#010x} ({y:e}); \
             {count} of {} joints differ",
            e / 4,
            e % 4,
            x.to_bits(),
            y.to_bits(),
            a.len()
        );
    }
}

#[cfg(feature = "std")]
#[allow(unused_imports)]
pub use cpu::cpu_has;
