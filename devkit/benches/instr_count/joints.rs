//! The `JointBlend` shape (*Slerping Clock Cycles*): every form's raw kernel
//! on the papers' two joint lists, and the glam peers.

use std::hint::black_box;

use animasm::JointQuat;
use animasm::roster::{Routine, Shape, kernel};
use glam::{Quat as GQuat, Vec4 as GVec4};
use gungraun::{library_benchmark, library_benchmark_group};

use devkit::peers::{GlamJointLoop, glam_lerp_joints, glam_slerp_joints, to_glam};
use devkit::setup::{self, JOINTS, LERP};

use crate::{Case, Function};

/// The benchmark functions of this file.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function { path: "joint_blend::kernels", cases: kernel_cases },
    Function { path: "joint_blend::peers", cases: peer_cases },
];

fn of_shape(shape: &Shape) -> bool {
    matches!(shape, Shape::JointBlend { .. })
}

/// A routine's glam peer, if it has one.
fn peer(r: &Routine) -> Option<GlamJointLoop> {
    match r.name {
        "slerp_joints" => Some(glam_slerp_joints),
        "lerp_joints" => Some(glam_lerp_joints),
        _ => None,
    }
}

fn kernel_cases() -> Vec<Case> {
    crate::cases(of_shape, &[None], true, crate::no_extras)
}

fn peer_cases() -> Vec<Case> {
    crate::cases(of_shape, &[None], false, |r| if peer(r).is_some() { &["glam"] } else { &[] })
}

/// A raw kernel (`None`: its form does not run here, see [`crate::kernel`])
/// and the joint lists it runs on.
struct KernelRun {
    kernel: Option<kernel::JointBlend>,
    joints: Vec<JointQuat>,
    blend: Vec<JointQuat>,
    index: Vec<i32>,
}

impl KernelRun {
    /// Runs the kernel once over the whole index.
    #[inline(always)]
    fn run(&mut self) {
        let Some(kernel) = self.kernel else { return };
        let joints = black_box(self.joints.as_mut_ptr());
        let blend = black_box(self.blend.as_ptr());
        let index = black_box(self.index.as_ptr());
        // SAFETY: `joint_lists` returns `JOINTS` joints in each list
        // (`Vec<JointQuat>` is 16-byte aligned, as `JointQuat` is), two
        // distinct allocations, and the identity index `0..JOINTS`, so every
        // entry addresses a joint of both lists; `JOINTS <= MAX_JOINTS`. The
        // kernel is `Some` only where this CPU (as valgrind presents it) runs
        // its form (`crate::kernel`).
        unsafe { kernel(joints, blend, black_box(LERP), index, JOINTS as i32) }
    }
}

/// Setup (not counted): the joint lists of the papers' benchmark for the
/// case's kernel.
fn input(case: Case) -> KernelRun {
    let Shape::JointBlend { forms, .. } = case.routine.shape else { unreachable!("a JointBlend case") };
    let (joints, blend, index) = setup::joint_lists();
    KernelRun { kernel: crate::kernel(&case, forms), joints, blend, index }
}

/// A glam loop and the same joint lists as glam rotation and translation
/// arrays.
struct GlamRun {
    peer: GlamJointLoop,
    q: Vec<GQuat>,
    t: Vec<GVec4>,
    blend_q: Vec<GQuat>,
    blend_t: Vec<GVec4>,
    index: Vec<i32>,
}

impl GlamRun {
    /// Runs the glam loop once over the whole index.
    #[inline(always)]
    fn run(&mut self) {
        (self.peer)(&mut self.q, &mut self.t, &self.blend_q, &self.blend_t, black_box(LERP), &self.index);
    }
}

/// Setup (not counted): [`input`]'s data for the case's glam peer.
fn glam_input(case: Case) -> GlamRun {
    let peer = peer(case.routine).expect("a peer case's routine has a peer");
    let (joints, blend, index) = setup::joint_lists();
    let (q, t) = to_glam(&joints);
    let (blend_q, blend_t) = to_glam(&blend);
    GlamRun { peer, q, t, blend_q, blend_t, index }
}

// Every form of every `JointBlend` routine, the raw kernels.
#[library_benchmark]
#[benches::cases(iter = kernel_cases(), setup = input)]
fn kernels(mut run: KernelRun) -> KernelRun {
    run.run();
    black_box(run)
}

// The glam peers.
#[library_benchmark]
#[benches::cases(iter = peer_cases(), setup = glam_input)]
fn peers(mut g: GlamRun) -> GlamRun {
    black_box(&mut g).run();
    black_box(g)
}

library_benchmark_group!(name = joint_blend, benchmarks = [kernels, peers]);
