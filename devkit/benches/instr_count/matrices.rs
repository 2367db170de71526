//! The joint-matrix shapes (*From Quaternion to Matrix and Back*, *The
//! Skeleton Assembly Line*): `QuatsToMats`, `MatsToQuats`, `Skeleton`,
//! `TransformJoints`; every form's raw kernel, and the glam peers.

use std::hint::black_box;

use animasm::roster::{Routine, Shape, kernel};
use animasm::{JointMat, JointQuat};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};
use gungraun::{library_benchmark, library_benchmark_group};

use devkit::peers::{
    glam_mats_to_quats, glam_quats_to_mats, glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton,
    to_affine, to_affine_paper_rotation, to_glam,
};
use devkit::setup::{self, JOINTS, SKELETON_RANGE};

use crate::{Case, Function};

/// The benchmark functions of this file.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function { path: "quats_to_mats::kernels", cases: quats_to_mats::kernel_cases },
    Function { path: "quats_to_mats::peers", cases: quats_to_mats::peer_cases },
    Function { path: "mats_to_quats::kernels", cases: mats_to_quats::kernel_cases },
    Function { path: "mats_to_quats::peers", cases: mats_to_quats::peer_cases },
    Function { path: "skeleton::kernels", cases: skeleton::kernel_cases },
    Function { path: "skeleton::peers", cases: skeleton::peer_cases },
    Function { path: "transform_joints::kernels", cases: transform_joints::kernel_cases },
    Function { path: "transform_joints::peers", cases: transform_joints::peer_cases },
];

/// `&["glam"]` for a routine with a peer, else none.
fn glam_if(has_peer: bool) -> &'static [&'static str] {
    if has_peer { &["glam"] } else { &[] }
}

/// The `QuatsToMats` shape.
pub(crate) mod quats_to_mats {
    use super::*;

    fn of_shape(shape: &Shape) -> bool {
        matches!(shape, Shape::QuatsToMats { .. })
    }

    /// A glam loop from joints to affines.
    type GlamQuatsToMatsLoop = fn(&mut [Affine3A], &[GQuat], &[GVec4]);

    /// A routine's glam peer, if it has one.
    fn peer(r: &Routine) -> Option<GlamQuatsToMatsLoop> {
        match r.name {
            "quats_to_mats" => Some(glam_quats_to_mats),
            _ => None,
        }
    }

    pub(crate) fn kernel_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], true, crate::no_extras)
    }

    pub(crate) fn peer_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], false, |r| glam_if(peer(r).is_some()))
    }

    /// A kernel (`None`: not run here), its quaternions and its matrices.
    struct QuatsToMatsRun {
        kernel: Option<kernel::QuatsToMats>,
        quats: Vec<JointQuat>,
        mats: Vec<JointMat>,
    }

    /// Setup (not counted): the joint lists' first list for the case's kernel.
    fn input(case: Case) -> QuatsToMatsRun {
        let Shape::QuatsToMats { forms, .. } = case.routine.shape else { unreachable!("a QuatsToMats case") };
        QuatsToMatsRun {
            kernel: crate::kernel(&case, forms),
            quats: setup::quats_to_mats_input(),
            mats: vec![JointMat::default(); JOINTS],
        }
    }

    /// A glam loop, the same joints as glam arrays, and glam's matrices.
    struct GlamQuatsToMats {
        peer: GlamQuatsToMatsLoop,
        q: Vec<GQuat>,
        t: Vec<GVec4>,
        mats: Vec<Affine3A>,
    }

    /// Setup (not counted): [`input`]'s joints for the case's glam peer.
    fn glam_input(case: Case) -> GlamQuatsToMats {
        let peer = peer(case.routine).expect("a peer case's routine has a peer");
        let (q, t) = to_glam(&setup::quats_to_mats_input());
        GlamQuatsToMats { peer, q, t, mats: vec![Affine3A::IDENTITY; JOINTS] }
    }

    // Every form of every `QuatsToMats` routine, the raw kernels.
    #[library_benchmark]
    #[benches::cases(iter = kernel_cases(), setup = input)]
    fn kernels(mut run: QuatsToMatsRun) -> QuatsToMatsRun {
        let Some(kernel) = run.kernel else { return run };
        let mats = black_box(run.mats.as_mut_ptr());
        let quats = black_box(run.quats.as_ptr());
        // SAFETY: both lists hold `JOINTS` elements (16-byte aligned `Vec`s
        // of 16-byte aligned types, two allocations); `JOINTS <= MAX_JOINTS`;
        // the kernel is `Some` only where this CPU runs its form.
        unsafe { kernel(mats, quats, JOINTS as i32) };
        black_box(run)
    }

    // The glam peers.
    #[library_benchmark]
    #[benches::cases(iter = peer_cases(), setup = glam_input)]
    fn peers(mut g: GlamQuatsToMats) -> GlamQuatsToMats {
        let g_ref = black_box(&mut g);
        (g_ref.peer)(&mut g_ref.mats, &g_ref.q, &g_ref.t);
        black_box(g)
    }

    library_benchmark_group!(name = quats_to_mats, benchmarks = [kernels, peers]);
}

/// The `MatsToQuats` shape.
pub(crate) mod mats_to_quats {
    use super::*;

    fn of_shape(shape: &Shape) -> bool {
        matches!(shape, Shape::MatsToQuats { .. })
    }

    /// A glam loop from affines to joints.
    type GlamMatsToQuatsLoop = fn(&mut [GQuat], &mut [GVec4], &[Affine3A]);

    /// A routine's glam peer, if it has one.
    fn peer(r: &Routine) -> Option<GlamMatsToQuatsLoop> {
        match r.name {
            "mats_to_quats" => Some(glam_mats_to_quats),
            _ => None,
        }
    }

    pub(crate) fn kernel_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], true, crate::no_extras)
    }

    pub(crate) fn peer_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], false, |r| glam_if(peer(r).is_some()))
    }

    /// A kernel (`None`: not run here), its matrices and its joints.
    struct MatsToQuatsRun {
        kernel: Option<kernel::MatsToQuats>,
        mats: Vec<JointMat>,
        quats: Vec<JointQuat>,
    }

    /// Setup (not counted): random rigid matrices for the case's kernel.
    fn input(case: Case) -> MatsToQuatsRun {
        let Shape::MatsToQuats { forms, .. } = case.routine.shape else { unreachable!("a MatsToQuats case") };
        MatsToQuatsRun {
            kernel: crate::kernel(&case, forms),
            mats: setup::mats_to_quats_input(),
            quats: vec![JointQuat::default(); JOINTS],
        }
    }

    /// A glam loop, the same rotations as glam affines, and glam's joints.
    struct GlamMatsToQuats {
        peer: GlamMatsToQuatsLoop,
        mats: Vec<Affine3A>,
        q: Vec<GQuat>,
        t: Vec<GVec4>,
    }

    /// Setup (not counted): [`input`]'s rotations for the case's glam peer
    /// (`to_affine_paper_rotation`: the rotation the kernels read).
    fn glam_input(case: Case) -> GlamMatsToQuats {
        let peer = peer(case.routine).expect("a peer case's routine has a peer");
        let mats = to_affine_paper_rotation(&setup::mats_to_quats_input());
        GlamMatsToQuats { peer, mats, q: vec![GQuat::IDENTITY; JOINTS], t: vec![GVec4::ZERO; JOINTS] }
    }

    // Every form of every `MatsToQuats` routine, the raw kernels.
    #[library_benchmark]
    #[benches::cases(iter = kernel_cases(), setup = input)]
    fn kernels(mut run: MatsToQuatsRun) -> MatsToQuatsRun {
        let Some(kernel) = run.kernel else { return run };
        let quats = black_box(run.quats.as_mut_ptr());
        let mats = black_box(run.mats.as_ptr());
        // SAFETY: both lists hold `JOINTS` elements (two allocations);
        // `JOINTS <= MAX_JOINTS`; the kernel is `Some` only where this CPU
        // runs its form.
        unsafe { kernel(quats, mats, JOINTS as i32) };
        black_box(run)
    }

    // The glam peers.
    #[library_benchmark]
    #[benches::cases(iter = peer_cases(), setup = glam_input)]
    fn peers(mut g: GlamMatsToQuats) -> GlamMatsToQuats {
        let g_ref = black_box(&mut g);
        (g_ref.peer)(&mut g_ref.q, &mut g_ref.t, &g_ref.mats);
        black_box(g)
    }

    library_benchmark_group!(name = mats_to_quats, benchmarks = [kernels, peers]);
}

/// The `Skeleton` shape.
pub(crate) mod skeleton {
    use super::*;

    fn of_shape(shape: &Shape) -> bool {
        matches!(shape, Shape::Skeleton { .. })
    }

    /// The skeleton a routine runs on: its matrices and hierarchy. The local
    /// matrices, but for the routine that takes global matrices back to local,
    /// which runs on their globals; a variant runs on its routine's.
    fn data(r: &Routine) -> (Vec<JointMat>, Vec<i32>) {
        match r.variant_of.unwrap_or(r.name) {
            "untransform_skeleton" => setup::skeleton_globals(),
            _ => setup::skeleton_locals(),
        }
    }

    /// A glam skeleton loop.
    type GlamSkeletonLoop = fn(&mut [Affine3A], &[i32], std::ops::RangeInclusive<usize>);

    /// A routine's glam peer, if it has one (a variant has none: it computes
    /// what its routine computes).
    fn peer(r: &Routine) -> Option<GlamSkeletonLoop> {
        match r.name {
            "transform_skeleton" => Some(glam_transform_skeleton),
            // `Affine3A::inverse`, the general one.
            "untransform_skeleton" => Some(glam_untransform_skeleton),
            _ => None,
        }
    }

    pub(crate) fn kernel_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], true, crate::no_extras)
    }

    pub(crate) fn peer_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], false, |r| glam_if(peer(r).is_some()))
    }

    /// A skeleton kernel (`None`: not run here), its matrices and the
    /// hierarchy.
    struct SkeletonRun {
        kernel: Option<kernel::Skeleton>,
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
            // far below the kernels' limits; the kernel is `Some` only where
            // this CPU runs its form.
            unsafe { kernel(mats, parents, black_box(first), black_box(last)) }
        }
    }

    /// Setup (not counted): the routine's skeleton for the case's kernel.
    fn input(case: Case) -> SkeletonRun {
        let Shape::Skeleton { forms, .. } = case.routine.shape else { unreachable!("a Skeleton case") };
        let (mats, parents) = data(case.routine);
        SkeletonRun { kernel: crate::kernel(&case, forms), mats, parents }
    }

    /// A glam loop and the same skeleton as glam affines.
    struct GlamSkeleton {
        peer: GlamSkeletonLoop,
        mats: Vec<Affine3A>,
        parents: Vec<i32>,
    }

    /// Setup (not counted): the routine's skeleton for its glam peer.
    fn glam_input(case: Case) -> GlamSkeleton {
        let peer = peer(case.routine).expect("a peer case's routine has a peer");
        let (mats, parents) = data(case.routine);
        GlamSkeleton { peer, mats: to_affine(&mats), parents }
    }

    // Every form of every `Skeleton` routine (the `movss` + `shufps` variant
    // among them), the raw kernels.
    #[library_benchmark]
    #[benches::cases(iter = kernel_cases(), setup = input)]
    fn kernels(mut run: SkeletonRun) -> SkeletonRun {
        run.run();
        black_box(run)
    }

    // The glam peers.
    #[library_benchmark]
    #[benches::cases(iter = peer_cases(), setup = glam_input)]
    fn peers(mut g: GlamSkeleton) -> GlamSkeleton {
        let g_ref = black_box(&mut g);
        (g_ref.peer)(&mut g_ref.mats, &g_ref.parents, black_box(SKELETON_RANGE));
        black_box(g)
    }

    library_benchmark_group!(name = skeleton, benchmarks = [kernels, peers]);
}

/// The `TransformJoints` shape.
pub(crate) mod transform_joints {
    use super::*;

    fn of_shape(shape: &Shape) -> bool {
        matches!(shape, Shape::TransformJoints { .. })
    }

    /// A glam loop of affine products.
    type GlamTransformJointsLoop = fn(&mut [Affine3A], &[Affine3A], &[Affine3A]);

    /// A routine's glam peer, if it has one.
    fn peer(r: &Routine) -> Option<GlamTransformJointsLoop> {
        match r.name {
            "transform_joints" => Some(glam_transform_joints),
            _ => None,
        }
    }

    pub(crate) fn kernel_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], true, crate::no_extras)
    }

    pub(crate) fn peer_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], false, |r| glam_if(peer(r).is_some()))
    }

    /// A kernel (`None`: not run here), its two input lists and the products.
    struct TransformJointsRun {
        kernel: Option<kernel::TransformJoints>,
        a: Vec<JointMat>,
        b: Vec<JointMat>,
        r: Vec<JointMat>,
    }

    /// Setup (not counted): two lists of random rigid matrices for the case's
    /// kernel.
    fn input(case: Case) -> TransformJointsRun {
        let Shape::TransformJoints { forms, .. } = case.routine.shape else { unreachable!("a TransformJoints case") };
        let (a, b) = setup::transform_joints_input();
        TransformJointsRun { kernel: crate::kernel(&case, forms), a, b, r: vec![JointMat::default(); JOINTS] }
    }

    /// A glam loop, the same lists as glam affines, and glam's products.
    struct GlamTransformJoints {
        peer: GlamTransformJointsLoop,
        a: Vec<Affine3A>,
        b: Vec<Affine3A>,
        r: Vec<Affine3A>,
    }

    /// Setup (not counted): [`input`]'s lists for the case's glam peer.
    fn glam_input(case: Case) -> GlamTransformJoints {
        let peer = peer(case.routine).expect("a peer case's routine has a peer");
        let (a, b) = setup::transform_joints_input();
        GlamTransformJoints { peer, a: to_affine(&a), b: to_affine(&b), r: vec![Affine3A::IDENTITY; JOINTS] }
    }

    // Every form of every `TransformJoints` routine, the raw kernels.
    #[library_benchmark]
    #[benches::cases(iter = kernel_cases(), setup = input)]
    fn kernels(mut run: TransformJointsRun) -> TransformJointsRun {
        let Some(kernel) = run.kernel else { return run };
        let r = black_box(run.r.as_mut_ptr());
        let (a, b) = (black_box(run.a.as_ptr()), black_box(run.b.as_ptr()));
        // SAFETY: the three lists hold `JOINTS` 16-byte aligned matrices
        // each, in three allocations; `JOINTS <= MAX_JOINTS`; the kernel is
        // `Some` only where this CPU runs its form.
        unsafe { kernel(r, a, b, JOINTS as i32) };
        black_box(run)
    }

    // The glam peers.
    #[library_benchmark]
    #[benches::cases(iter = peer_cases(), setup = glam_input)]
    fn peers(mut g: GlamTransformJoints) -> GlamTransformJoints {
        let g_ref = black_box(&mut g);
        (g_ref.peer)(&mut g_ref.r, &g_ref.a, &g_ref.b);
        black_box(g)
    }

    library_benchmark_group!(name = transform_joints, benchmarks = [kernels, peers]);
}
