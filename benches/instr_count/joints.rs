//! `slerp_joints` and `lerp_joints` (*Slerping Clock Cycles*): the raw
//! kernels (the listing's forms by path, the `Impl::Avx2` successor through
//! `kernel(Impl::Avx2)`) and the glam peers.

use std::hint::black_box;

use animasm::{Error, Impl, JointQuat};
use glam::{Quat as GQuat, Vec4 as GVec4};
use gungraun::{library_benchmark, library_benchmark_group};

use devkit::peers::{GlamJointLoop, glam_lerp_joints, glam_slerp_joints, to_glam};
use devkit::setup::{self, JOINTS, LERP};

/// The raw kernels' signature (`slerp_joints` and `lerp_joints`, every form).
type JointKernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);

/// A raw kernel (`None`: a successor that is not run here, see
/// [`crate::successor`]) and the joint lists it runs on.
struct KernelRun {
    kernel: Option<JointKernel>,
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
        // entry addresses a joint of both lists; `JOINTS <= MAX_JOINTS`. A
        // successor's kernel is `Some` only where this CPU (as valgrind
        // presents it) has the features it needs (`crate::successor`).
        unsafe { kernel(joints, blend, black_box(LERP), index, JOINTS as i32) }
    }
}

/// Setup (not counted): the joint lists of the papers' benchmark for `kernel`.
fn kernel_input(kernel: JointKernel) -> KernelRun {
    let (joints, blend, index) = setup::joint_lists();
    KernelRun { kernel: Some(kernel), joints, blend, index }
}

/// Setup (not counted): [`kernel_input`] for the `Impl::Avx2` successor of
/// `routine` (`kernel` is its `kernel(Impl::Avx2)`), which is left out, with
/// a line on stderr, where it is not in this build or cannot run here.
fn successor_input(routine: &str, kernel: Result<JointKernel, Error>) -> KernelRun {
    let (joints, blend, index) = setup::joint_lists();
    KernelRun { kernel: crate::successor(routine, kernel), joints, blend, index }
}

/// The same joint lists as glam rotation and translation arrays.
struct GlamRun {
    q: Vec<GQuat>,
    t: Vec<GVec4>,
    blend_q: Vec<GQuat>,
    blend_t: Vec<GVec4>,
    index: Vec<i32>,
}

impl GlamRun {
    /// Runs a glam loop once over the whole index.
    #[inline(always)]
    fn run(&mut self, peer: GlamJointLoop) {
        peer(&mut self.q, &mut self.t, &self.blend_q, &self.blend_t, black_box(LERP), &self.index);
    }
}

/// Setup (not counted): [`kernel_input`]'s data for glam.
fn glam_input() -> GlamRun {
    let (joints, blend, index) = setup::joint_lists();
    let (q, t) = to_glam(&joints);
    let (blend_q, blend_t) = to_glam(&blend);
    GlamRun { q, t, blend_q, blend_t, index }
}

// `SlerpJoints`, the raw kernels.
#[library_benchmark(setup = kernel_input)]
#[bench::scalar(animasm::slerp_joints::scalar::slerp_joints)]
#[bench::intrinsics(animasm::slerp_joints::intrinsics::slerp_joints)]
#[bench::asm(animasm::slerp_joints::asm::slerp_joints)]
#[bench::avx2(args = ("slerp_joints", animasm::slerp_joints::kernel(Impl::Avx2)), setup = successor_input)]
fn slerp_joints(mut run: KernelRun) -> KernelRun {
    run.run();
    black_box(run)
}

// `SlerpJoints`, the glam peer.
#[library_benchmark(setup = glam_input)]
#[bench::glam()]
fn slerp_joints_peer(mut g: GlamRun) -> GlamRun {
    black_box(&mut g).run(glam_slerp_joints);
    black_box(g)
}

// `LerpJoints`, the raw kernels.
#[library_benchmark(setup = kernel_input)]
#[bench::scalar(animasm::lerp_joints::scalar::lerp_joints)]
#[bench::intrinsics(animasm::lerp_joints::intrinsics::lerp_joints)]
#[bench::asm(animasm::lerp_joints::asm::lerp_joints)]
#[bench::avx2(args = ("lerp_joints", animasm::lerp_joints::kernel(Impl::Avx2)), setup = successor_input)]
fn lerp_joints(mut run: KernelRun) -> KernelRun {
    run.run();
    black_box(run)
}

// `LerpJoints`, the glam peer.
#[library_benchmark(setup = glam_input)]
#[bench::glam()]
fn lerp_joints_peer(mut g: GlamRun) -> GlamRun {
    black_box(&mut g).run(glam_lerp_joints);
    black_box(g)
}

library_benchmark_group!(name = slerp_joints_group, benchmarks = [slerp_joints, slerp_joints_peer]);

library_benchmark_group!(name = lerp_joints_group, benchmarks = [lerp_joints, lerp_joints_peer]);
