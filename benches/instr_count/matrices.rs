//! The joint-matrix routines (*From Quaternion to Matrix and Back*, *The
//! Skeleton Assembly Line*): the raw kernels (the listing's forms by path,
//! the `Impl::Avx2` successors through `kernel(Impl::Avx2)`, left out with a
//! line on stderr where they cannot run: see [`crate::successor`]) and the
//! glam peers.

use std::hint::black_box;

use animasm::{Error, Impl, JointMat, JointQuat};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};
use gungraun::{library_benchmark, library_benchmark_group};

use devkit::peers::{
    glam_mats_to_quats, glam_quats_to_mats, glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton,
    to_affine, to_affine_paper_rotation, to_glam,
};
use devkit::setup::{self, JOINTS, SKELETON_RANGE};

// -----------------------------------------------------------------------
// `quats_to_mats`.

/// `quats_to_mats`'s raw kernels.
type QuatsToMatsKernel = unsafe fn(*mut JointMat, *const JointQuat, i32);

/// A `quats_to_mats` kernel (`None`: not run here), its quaternions and its
/// matrices.
struct QuatsToMatsRun {
    kernel: Option<QuatsToMatsKernel>,
    quats: Vec<JointQuat>,
    mats: Vec<JointMat>,
}

/// Setup (not counted): the joint lists' first list for `kernel`.
fn quats_to_mats_input(kernel: QuatsToMatsKernel) -> QuatsToMatsRun {
    QuatsToMatsRun {
        kernel: Some(kernel),
        quats: setup::quats_to_mats_input(),
        mats: vec![JointMat::default(); JOINTS],
    }
}

/// Setup (not counted): [`quats_to_mats_input`] for the successor.
fn quats_to_mats_successor(kernel: Result<QuatsToMatsKernel, Error>) -> QuatsToMatsRun {
    let kernel = crate::successor("quats_to_mats", kernel);
    QuatsToMatsRun { kernel, quats: setup::quats_to_mats_input(), mats: vec![JointMat::default(); JOINTS] }
}

/// The same joints as glam arrays, and glam's matrices.
struct GlamQuatsToMats {
    q: Vec<GQuat>,
    t: Vec<GVec4>,
    mats: Vec<Affine3A>,
}

/// Setup (not counted): [`quats_to_mats_input`]'s data for glam.
fn glam_quats_to_mats_input() -> GlamQuatsToMats {
    let (q, t) = to_glam(&setup::quats_to_mats_input());
    GlamQuatsToMats { q, t, mats: vec![Affine3A::IDENTITY; JOINTS] }
}

// `ConvertJointQuatsToJointMats`, the raw kernels.
#[library_benchmark(setup = quats_to_mats_input)]
#[bench::scalar(animasm::quats_to_mats::scalar::quats_to_mats)]
#[bench::intrinsics(animasm::quats_to_mats::intrinsics::quats_to_mats)]
#[bench::asm(animasm::quats_to_mats::asm::quats_to_mats)]
#[bench::avx2(args = (animasm::quats_to_mats::kernel(Impl::Avx2)), setup = quats_to_mats_successor)]
fn quats_to_mats(mut run: QuatsToMatsRun) -> QuatsToMatsRun {
    let Some(kernel) = run.kernel else { return run };
    let mats = black_box(run.mats.as_mut_ptr());
    let quats = black_box(run.quats.as_ptr());
    // SAFETY: both lists hold `JOINTS` elements (16-byte aligned `Vec`s
    // of 16-byte aligned types, two allocations); `JOINTS <= MAX_JOINTS`;
    // a successor is `Some` only where this CPU runs it.
    unsafe { kernel(mats, quats, JOINTS as i32) };
    black_box(run)
}

// `ConvertJointQuatsToJointMats`, the glam peer.
#[library_benchmark(setup = glam_quats_to_mats_input)]
#[bench::glam()]
fn quats_to_mats_peer(mut g: GlamQuatsToMats) -> GlamQuatsToMats {
    let g_ref = black_box(&mut g);
    glam_quats_to_mats(&mut g_ref.mats, &g_ref.q, &g_ref.t);
    black_box(g)
}

// -----------------------------------------------------------------------
// `mats_to_quats`.

/// `mats_to_quats`'s raw kernels.
type MatsToQuatsKernel = unsafe fn(*mut JointQuat, *const JointMat, i32);

/// A `mats_to_quats` kernel (`None`: not run here), its matrices and its
/// joints.
struct MatsToQuatsRun {
    kernel: Option<MatsToQuatsKernel>,
    mats: Vec<JointMat>,
    quats: Vec<JointQuat>,
}

/// Setup (not counted): random rigid matrices for `kernel`.
fn mats_to_quats_input(kernel: MatsToQuatsKernel) -> MatsToQuatsRun {
    MatsToQuatsRun {
        kernel: Some(kernel),
        mats: setup::mats_to_quats_input(),
        quats: vec![JointQuat::default(); JOINTS],
    }
}

/// Setup (not counted): [`mats_to_quats_input`] for the successor.
fn mats_to_quats_successor(kernel: Result<MatsToQuatsKernel, Error>) -> MatsToQuatsRun {
    let kernel = crate::successor("mats_to_quats", kernel);
    MatsToQuatsRun { kernel, mats: setup::mats_to_quats_input(), quats: vec![JointQuat::default(); JOINTS] }
}

/// The same rotations as glam affines, and glam's joints.
struct GlamMatsToQuats {
    mats: Vec<Affine3A>,
    q: Vec<GQuat>,
    t: Vec<GVec4>,
}

/// Setup (not counted): [`mats_to_quats_input`]'s rotations for glam
/// (`to_affine_paper_rotation`: the rotation the kernels read).
fn glam_mats_to_quats_input() -> GlamMatsToQuats {
    let mats = to_affine_paper_rotation(&setup::mats_to_quats_input());
    GlamMatsToQuats { mats, q: vec![GQuat::IDENTITY; JOINTS], t: vec![GVec4::ZERO; JOINTS] }
}

// `ConvertJointMatsToJointQuats`, the raw kernels.
#[library_benchmark(setup = mats_to_quats_input)]
#[bench::scalar(animasm::mats_to_quats::scalar::mats_to_quats)]
#[bench::intrinsics(animasm::mats_to_quats::intrinsics::mats_to_quats)]
#[bench::asm(animasm::mats_to_quats::asm::mats_to_quats)]
#[bench::avx2(args = (animasm::mats_to_quats::kernel(Impl::Avx2)), setup = mats_to_quats_successor)]
fn mats_to_quats(mut run: MatsToQuatsRun) -> MatsToQuatsRun {
    let Some(kernel) = run.kernel else { return run };
    let quats = black_box(run.quats.as_mut_ptr());
    let mats = black_box(run.mats.as_ptr());
    // SAFETY: both lists hold `JOINTS` elements (two allocations);
    // `JOINTS <= MAX_JOINTS`; a successor is `Some` only where this CPU
    // runs it.
    unsafe { kernel(quats, mats, JOINTS as i32) };
    black_box(run)
}

// `ConvertJointMatsToJointQuats`, the glam peer.
#[library_benchmark(setup = glam_mats_to_quats_input)]
#[bench::glam()]
fn mats_to_quats_peer(mut g: GlamMatsToQuats) -> GlamMatsToQuats {
    let g_ref = black_box(&mut g);
    glam_mats_to_quats(&mut g_ref.q, &mut g_ref.t, &g_ref.mats);
    black_box(g)
}

// -----------------------------------------------------------------------
// `transform_skeleton` and `untransform_skeleton`.

/// The skeleton routines' raw kernels.
type SkeletonKernel = unsafe fn(*mut JointMat, *const i32, i32, i32);

/// A skeleton kernel (`None`: not run here), its matrices and the
/// hierarchy.
struct SkeletonRun {
    kernel: Option<SkeletonKernel>,
    mats: Vec<JointMat>,
    parents: Vec<i32>,
}

impl SkeletonRun {
    /// Runs the kernel once over [`SKELETON_RANGE`].
    #[inline(always)]
    fn run(&mut self) {
        let Some(kernel) = self.kernel else { return };
        let mats = black_box(self.mats.as_mut_ptr());
        let parents = black_box(self.parents.as_ptr());
        let (first, last) = (*SKELETON_RANGE.start() as i32, *SKELETON_RANGE.end() as i32);
        // SAFETY: `mats` holds `JOINTS` 16-byte aligned matrices and
        // `parents` `JOINTS` entries; `random_parents` gives every joint
        // `i >= 1` of the range a parent in `0..i`, so every joint and
        // parent is in `mats` and never the joint itself; `JOINTS` is
        // far below the kernels' limits; a successor is `Some` only where
        // this CPU runs it.
        unsafe { kernel(mats, parents, black_box(first), black_box(last)) }
    }
}

/// Setup (not counted): the local skeleton for `kernel`.
fn locals_input(kernel: SkeletonKernel) -> SkeletonRun {
    let (mats, parents) = setup::skeleton_locals();
    SkeletonRun { kernel: Some(kernel), mats, parents }
}

/// Setup (not counted): [`locals_input`] for the successor.
fn locals_successor(kernel: Result<SkeletonKernel, Error>) -> SkeletonRun {
    let (mats, parents) = setup::skeleton_locals();
    SkeletonRun { kernel: crate::successor("transform_skeleton", kernel), mats, parents }
}

/// Setup (not counted): the global skeleton for `kernel`.
fn globals_input(kernel: SkeletonKernel) -> SkeletonRun {
    let (mats, parents) = setup::skeleton_globals();
    SkeletonRun { kernel: Some(kernel), mats, parents }
}

/// Setup (not counted): [`globals_input`] for the successor.
fn globals_successor(kernel: Result<SkeletonKernel, Error>) -> SkeletonRun {
    let (mats, parents) = setup::skeleton_globals();
    SkeletonRun { kernel: crate::successor("untransform_skeleton", kernel), mats, parents }
}

/// The same skeleton as glam affines.
struct GlamSkeleton {
    mats: Vec<Affine3A>,
    parents: Vec<i32>,
}

/// Setup (not counted): [`locals_input`]'s skeleton for glam.
fn glam_locals_input() -> GlamSkeleton {
    let (mats, parents) = setup::skeleton_locals();
    GlamSkeleton { mats: to_affine(&mats), parents }
}

/// Setup (not counted): [`globals_input`]'s skeleton for glam.
fn glam_globals_input() -> GlamSkeleton {
    let (mats, parents) = setup::skeleton_globals();
    GlamSkeleton { mats: to_affine(&mats), parents }
}

// `TransformSkeleton`, the raw kernels and the `movss` + `shufps` variant.
#[library_benchmark(setup = locals_input)]
#[bench::scalar(animasm::transform_skeleton::scalar::transform_skeleton)]
#[bench::intrinsics(animasm::transform_skeleton::intrinsics::transform_skeleton)]
#[bench::asm(animasm::transform_skeleton::asm::transform_skeleton)]
#[bench::intrinsics_movss_shufps(animasm::transform_skeleton::intrinsics::transform_skeleton_movss_shufps)]
#[bench::asm_movss_shufps(animasm::transform_skeleton::asm::transform_skeleton_movss_shufps)]
#[bench::avx2(args = (animasm::transform_skeleton::kernel(Impl::Avx2)), setup = locals_successor)]
fn transform_skeleton(mut run: SkeletonRun) -> SkeletonRun {
    run.run();
    black_box(run)
}

// `TransformSkeleton`, the glam peer.
#[library_benchmark(setup = glam_locals_input)]
#[bench::glam()]
fn transform_skeleton_peer(mut g: GlamSkeleton) -> GlamSkeleton {
    let g_ref = black_box(&mut g);
    glam_transform_skeleton(&mut g_ref.mats, &g_ref.parents, black_box(SKELETON_RANGE));
    black_box(g)
}

// `UntransformSkeleton`, the raw kernels.
#[library_benchmark(setup = globals_input)]
#[bench::scalar(animasm::untransform_skeleton::scalar::untransform_skeleton)]
#[bench::intrinsics(animasm::untransform_skeleton::intrinsics::untransform_skeleton)]
#[bench::asm(animasm::untransform_skeleton::asm::untransform_skeleton)]
#[bench::avx2(args = (animasm::untransform_skeleton::kernel(Impl::Avx2)), setup = globals_successor)]
fn untransform_skeleton(mut run: SkeletonRun) -> SkeletonRun {
    run.run();
    black_box(run)
}

// `UntransformSkeleton`, the glam peer (`Affine3A::inverse`, the general one).
#[library_benchmark(setup = glam_globals_input)]
#[bench::glam()]
fn untransform_skeleton_peer(mut g: GlamSkeleton) -> GlamSkeleton {
    let g_ref = black_box(&mut g);
    glam_untransform_skeleton(&mut g_ref.mats, &g_ref.parents, black_box(SKELETON_RANGE));
    black_box(g)
}

// -----------------------------------------------------------------------
// `transform_joints`.

/// `transform_joints`'s raw kernels.
type TransformJointsKernel = unsafe fn(*mut JointMat, *const JointMat, *const JointMat, i32);

/// A `transform_joints` kernel, its two input lists and the products.
struct TransformJointsRun {
    /// `None`: a successor not run here.
    kernel: Option<TransformJointsKernel>,
    a: Vec<JointMat>,
    b: Vec<JointMat>,
    r: Vec<JointMat>,
}

/// Setup (not counted): two lists of random rigid matrices for `kernel`.
fn transform_joints_input(kernel: TransformJointsKernel) -> TransformJointsRun {
    let (a, b) = setup::transform_joints_input();
    TransformJointsRun { kernel: Some(kernel), a, b, r: vec![JointMat::default(); JOINTS] }
}

/// Setup (not counted): [`transform_joints_input`] for the successor.
fn transform_joints_successor(kernel: Result<TransformJointsKernel, Error>) -> TransformJointsRun {
    let (a, b) = setup::transform_joints_input();
    let kernel = crate::successor("transform_joints", kernel);
    TransformJointsRun { kernel, a, b, r: vec![JointMat::default(); JOINTS] }
}

/// The same lists as glam affines, and glam's products.
struct GlamTransformJoints {
    a: Vec<Affine3A>,
    b: Vec<Affine3A>,
    r: Vec<Affine3A>,
}

/// Setup (not counted): [`transform_joints_input`]'s lists for glam.
fn glam_transform_joints_input() -> GlamTransformJoints {
    let (a, b) = setup::transform_joints_input();
    GlamTransformJoints { a: to_affine(&a), b: to_affine(&b), r: vec![Affine3A::IDENTITY; JOINTS] }
}

// `TransformJoints`, the raw kernels.
#[library_benchmark(setup = transform_joints_input)]
#[bench::scalar(animasm::transform_joints::scalar::transform_joints)]
#[bench::intrinsics(animasm::transform_joints::intrinsics::transform_joints)]
#[bench::asm(animasm::transform_joints::asm::transform_joints)]
#[bench::avx2(args = (animasm::transform_joints::kernel(Impl::Avx2)), setup = transform_joints_successor)]
fn transform_joints(mut run: TransformJointsRun) -> TransformJointsRun {
    let Some(kernel) = run.kernel else { return run };
    let r = black_box(run.r.as_mut_ptr());
    let (a, b) = (black_box(run.a.as_ptr()), black_box(run.b.as_ptr()));
    // SAFETY: the three lists hold `JOINTS` 16-byte aligned matrices
    // each, in three allocations; `JOINTS <= MAX_JOINTS`; a successor is
    // `Some` only where this CPU runs it.
    unsafe { kernel(r, a, b, JOINTS as i32) };
    black_box(run)
}

// `TransformJoints`, the glam peer.
#[library_benchmark(setup = glam_transform_joints_input)]
#[bench::glam()]
fn transform_joints_peer(mut g: GlamTransformJoints) -> GlamTransformJoints {
    let g_ref = black_box(&mut g);
    glam_transform_joints(&mut g_ref.r, &g_ref.a, &g_ref.b);
    black_box(g)
}

library_benchmark_group!(name = quats_to_mats_group, benchmarks = [quats_to_mats, quats_to_mats_peer]);

library_benchmark_group!(name = mats_to_quats_group, benchmarks = [mats_to_quats, mats_to_quats_peer]);

library_benchmark_group!(name = transform_skeleton_group, benchmarks = [transform_skeleton, transform_skeleton_peer]);

library_benchmark_group!(
    name = untransform_skeleton_group,
    benchmarks = [untransform_skeleton, untransform_skeleton_peer]
);

library_benchmark_group!(name = transform_joints_group, benchmarks = [transform_joints, transform_joints_peer]);
