//! Instruction counts (gungraun 0.20, Callgrind): the same matrix as
//! `wall_clock.rs`, 1024 joints, every implementation, plus the glam peer.
//!
//! The raw kernels are called directly (`animasm::slerp_joints::asm::slerp_joints`
//! and so on), so the count is the kernel alone, without the safe functions'
//! validation. Building the input happens in the `setup` functions, which
//! Gungraun does not count; every benchmark returns its input, so freeing it is
//! not counted either. A benchmark runs once on fresh data, so nothing needs
//! restoring. Counts repeat exactly from run to run.
//!
//! Every routine runs on the data of `examples/report.rs` and `wall_clock.rs`
//! (`common/setup.rs`): the papers' two joint lists for `slerp_joints` and
//! `lerp_joints`, unit quaternions (the joint lists' first list) for
//! `quats_to_mats`, random rigid matrices for `mats_to_quats` and
//! `transform_joints`, and for the skeleton routines 1024 rigid matrices
//! (locals for `transform_skeleton`, their globals for `untransform_skeleton`)
//! under a random parents-first hierarchy, joints `1..=1023` (1023 joints).
//! `transform_skeleton` has two extra benches, `intrinsics_movss_shufps` and
//! `asm_movss_shufps`, the paper's alternative broadcast.
//!
//! `slerp_quats` (the Intel article's Table 1) runs at 64, 67 and 1024
//! quaternions (`setup::SLERP_QUATS_COUNTS`; bench ids `<kernel>_<n>`):
//! the 128-bit baseline and the scalar forms (`slerp_quats_128`), the AVX
//! kernels as published and corrected, asm and intrinsics
//! (`slerp_quats_avx`; skipped with a line on stderr where the CPU, as
//! valgrind presents it, has no AVX), and glam's `Quat::slerp`. `nlerp` runs
//! every function at every width (`<function>_scalar`, `_autovec`, `4`, `8`,
//! `8_fma`; the 8-wide ones skipped where AVX2 or FMA is missing), the
//! reference slerp and glam's `Quat::lerp` and `Quat::slerp`, over 1024
//! elements. Valgrind 3.19 runs AVX, AVX2 and FMA (not AVX-512, which no
//! kernel uses).
//!
//! Needs valgrind and `gungraun-runner` of the same version as the `gungraun`
//! library (`cargo install gungraun-runner --version 0.20.0`), then
//! `cargo bench --bench instr_count`. x86_64 only (the asm and intrinsics
//! kernels exist only there).

#[cfg(target_arch = "x86_64")]
#[path = "../tests/common/inputs.rs"]
mod inputs;
#[cfg(target_arch = "x86_64")]
#[path = "common/peers.rs"]
mod peers;
#[cfg(target_arch = "x86_64")]
#[path = "common/setup.rs"]
mod setup;

#[cfg(target_arch = "x86_64")]
mod counts {
    use std::hint::black_box;

    use animasm::nlerp::Width;
    use animasm::slerp_quats::AlignedQuats;
    use animasm::{JointMat, JointQuat, Quat};
    use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};
    use gungraun::{library_benchmark, library_benchmark_group};

    use super::peers::{
        GlamJointLoop, glam_lerp_joints, glam_lerp_stream, glam_mats_to_quats, glam_quats_to_mats, glam_slerp_joints,
        glam_slerp_quats, glam_slerp_stream, glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton,
        to_affine, to_affine_paper_rotation, to_glam, to_glam_quats,
    };
    use super::setup::{self, JOINTS, LERP, NLERP_ELEMENTS, SKELETON_RANGE, SLERP_QUATS_FACTOR};

    /// The raw kernels' signature (`slerp_joints` and `lerp_joints`, every form).
    type JointKernel = unsafe fn(*mut JointQuat, *const JointQuat, f32, *const i32, i32);

    /// A raw kernel and the joint lists it runs on.
    struct KernelRun {
        kernel: JointKernel,
        joints: Vec<JointQuat>,
        blend: Vec<JointQuat>,
        index: Vec<i32>,
    }

    impl KernelRun {
        /// Runs the kernel once over the whole index.
        #[inline(always)]
        fn run(&mut self) {
            let joints = black_box(self.joints.as_mut_ptr());
            let blend = black_box(self.blend.as_ptr());
            let index = black_box(self.index.as_ptr());
            // SAFETY: `joint_lists` returns `JOINTS` joints in each list
            // (`Vec<JointQuat>` is 16-byte aligned, as `JointQuat` is), two
            // distinct allocations, and the identity index `0..JOINTS`, so every
            // entry addresses a joint of both lists; `JOINTS <= MAX_JOINTS`.
            unsafe { (self.kernel)(joints, blend, black_box(LERP), index, JOINTS as i32) }
        }
    }

    /// Setup (not counted): the joint lists of the papers' benchmark for `kernel`.
    fn kernel_input(kernel: JointKernel) -> KernelRun {
        let (joints, blend, index) = setup::joint_lists();
        KernelRun { kernel, joints, blend, index }
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

    // -----------------------------------------------------------------------
    // `quats_to_mats`.

    /// `quats_to_mats`'s raw kernels.
    type QuatsToMatsKernel = unsafe fn(*mut JointMat, *const JointQuat, i32);

    /// A `quats_to_mats` kernel, its quaternions and its matrices.
    struct QuatsToMatsRun {
        kernel: QuatsToMatsKernel,
        quats: Vec<JointQuat>,
        mats: Vec<JointMat>,
    }

    /// Setup (not counted): the joint lists' first list for `kernel`.
    fn quats_to_mats_input(kernel: QuatsToMatsKernel) -> QuatsToMatsRun {
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
    fn quats_to_mats(mut run: QuatsToMatsRun) -> QuatsToMatsRun {
        let mats = black_box(run.mats.as_mut_ptr());
        let quats = black_box(run.quats.as_ptr());
        // SAFETY: both lists hold `JOINTS` elements (16-byte aligned `Vec`s
        // of 16-byte aligned types, two allocations); `JOINTS <= MAX_JOINTS`.
        unsafe { (run.kernel)(mats, quats, JOINTS as i32) };
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

    /// A `mats_to_quats` kernel, its matrices and its joints.
    struct MatsToQuatsRun {
        kernel: MatsToQuatsKernel,
        mats: Vec<JointMat>,
        quats: Vec<JointQuat>,
    }

    /// Setup (not counted): random rigid matrices for `kernel`.
    fn mats_to_quats_input(kernel: MatsToQuatsKernel) -> MatsToQuatsRun {
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
    fn mats_to_quats(mut run: MatsToQuatsRun) -> MatsToQuatsRun {
        let quats = black_box(run.quats.as_mut_ptr());
        let mats = black_box(run.mats.as_ptr());
        // SAFETY: both lists hold `JOINTS` elements (two allocations);
        // `JOINTS <= MAX_JOINTS`.
        unsafe { (run.kernel)(quats, mats, JOINTS as i32) };
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

    /// A skeleton kernel, its matrices and the hierarchy.
    struct SkeletonRun {
        kernel: SkeletonKernel,
        mats: Vec<JointMat>,
        parents: Vec<i32>,
    }

    impl SkeletonRun {
        /// Runs the kernel once over [`SKELETON_RANGE`].
        #[inline(always)]
        fn run(&mut self) {
            let mats = black_box(self.mats.as_mut_ptr());
            let parents = black_box(self.parents.as_ptr());
            let (first, last) = (*SKELETON_RANGE.start() as i32, *SKELETON_RANGE.end() as i32);
            // SAFETY: `mats` holds `JOINTS` 16-byte aligned matrices and
            // `parents` `JOINTS` entries; `random_parents` gives every joint
            // `i >= 1` of the range a parent in `0..i`, so every joint and
            // parent is in `mats` and never the joint itself; `JOINTS` is
            // far below the kernels' limits.
            unsafe { (self.kernel)(mats, parents, black_box(first), black_box(last)) }
        }
    }

    /// Setup (not counted): the local skeleton for `kernel`.
    fn locals_input(kernel: SkeletonKernel) -> SkeletonRun {
        let (mats, parents) = setup::skeleton_locals();
        SkeletonRun { kernel, mats, parents }
    }

    /// Setup (not counted): the global skeleton for `kernel`.
    fn globals_input(kernel: SkeletonKernel) -> SkeletonRun {
        let (mats, parents) = setup::skeleton_globals();
        SkeletonRun { kernel, mats, parents }
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
        kernel: TransformJointsKernel,
        a: Vec<JointMat>,
        b: Vec<JointMat>,
        r: Vec<JointMat>,
    }

    /// Setup (not counted): two lists of random rigid matrices for `kernel`.
    fn transform_joints_input(kernel: TransformJointsKernel) -> TransformJointsRun {
        let (a, b) = setup::transform_joints_input();
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
    fn transform_joints(mut run: TransformJointsRun) -> TransformJointsRun {
        let r = black_box(run.r.as_mut_ptr());
        let (a, b) = (black_box(run.a.as_ptr()), black_box(run.b.as_ptr()));
        // SAFETY: the three lists hold `JOINTS` 16-byte aligned matrices
        // each, in three allocations; `JOINTS <= MAX_JOINTS`.
        unsafe { (run.kernel)(r, a, b, JOINTS as i32) };
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

    // -----------------------------------------------------------------------
    // `slerp_quats`.

    /// `slerp_quats`' raw kernels: `(result, from, to, factor, count)`.
    type SlerpQuatsKernel = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32);

    /// A `slerp_quats` kernel (`None`: an AVX kernel on a CPU without AVX,
    /// not run) and `n` quaternion pairs in 32-byte-aligned storage.
    struct SlerpQuatsRun {
        kernel: Option<SlerpQuatsKernel>,
        from: AlignedQuats,
        to: AlignedQuats,
        result: AlignedQuats,
    }

    impl SlerpQuatsRun {
        /// Runs the kernel once over the `n` pairs.
        #[inline(always)]
        fn run(&mut self) {
            if let Some(kernel) = self.kernel {
                let result = black_box(self.result.as_mut_ptr());
                let (from, to) = (black_box(self.from.as_ptr()), black_box(self.to.as_ptr()));
                // SAFETY: the three arrays hold `n` (<= 1024) quaternions each,
                // in `AlignedQuats` (32-byte aligned, three allocations); an
                // AVX kernel is `Some` only where the CPU has AVX
                // (`slerp_quats_avx_input`).
                unsafe { kernel(result, from, to, black_box(SLERP_QUATS_FACTOR), self.result.len() as i32) }
            }
        }
    }

    /// Setup (not counted): `n` pairs of `setup::slerp_quats_input` for a
    /// kernel that runs on every `x86_64` CPU (SSE2, scalar).
    fn slerp_quats_input(kernel: SlerpQuatsKernel, n: usize) -> SlerpQuatsRun {
        let (from, to) = setup::slerp_quats_input(n);
        SlerpQuatsRun { kernel: Some(kernel), result: AlignedQuats::zeroed(n), from, to }
    }

    /// Setup (not counted): [`slerp_quats_input`] for an AVX kernel, which is
    /// left out (and a line printed) where the CPU has no AVX.
    fn slerp_quats_avx_input(kernel: SlerpQuatsKernel, n: usize) -> SlerpQuatsRun {
        let mut run = slerp_quats_input(kernel, n);
        if !animasm::slerp_quats::avx_available() {
            eprintln!("slerp_quats: no AVX on this CPU (as valgrind presents it): the AVX kernel is not run");
            run.kernel = None;
        }
        run
    }

    /// The same pairs as glam `Quat`s, and glam's results.
    struct GlamSlerpQuats {
        from: Vec<GQuat>,
        to: Vec<GQuat>,
        result: Vec<GQuat>,
    }

    /// Setup (not counted): [`slerp_quats_input`]'s pairs for glam.
    fn glam_slerp_quats_input(n: usize) -> GlamSlerpQuats {
        let (from, to) = setup::slerp_quats_input(n);
        GlamSlerpQuats { from: to_glam_quats(&from), to: to_glam_quats(&to), result: vec![GQuat::IDENTITY; n] }
    }

    // `slerp_quats`, the kernels every `x86_64` CPU runs: Table 1's 128-bit
    // baseline (`slerp_quats_sse`) and the scalar forms (the article's
    // remainder loop over everything), at 64, 67 and 1024 quaternions.
    #[library_benchmark(setup = slerp_quats_input)]
    #[bench::sse_64(animasm::slerp_quats::sse::slerp_quats_sse, 64)]
    #[bench::sse_67(animasm::slerp_quats::sse::slerp_quats_sse, 67)]
    #[bench::sse_1024(animasm::slerp_quats::sse::slerp_quats_sse, 1024)]
    #[bench::scalar_as_published_64(animasm::slerp_quats::scalar::slerp_quats_as_published, 64)]
    #[bench::scalar_as_published_67(animasm::slerp_quats::scalar::slerp_quats_as_published, 67)]
    #[bench::scalar_as_published_1024(animasm::slerp_quats::scalar::slerp_quats_as_published, 1024)]
    #[bench::scalar_corrected_64(animasm::slerp_quats::scalar::slerp_quats_corrected, 64)]
    #[bench::scalar_corrected_67(animasm::slerp_quats::scalar::slerp_quats_corrected, 67)]
    #[bench::scalar_corrected_1024(animasm::slerp_quats::scalar::slerp_quats_corrected, 1024)]
    fn slerp_quats_128(mut run: SlerpQuatsRun) -> SlerpQuatsRun {
        run.run();
        black_box(run)
    }

    // `slerp_quats`, the AVX kernels (`ProcessOptimizedKernel`), as published
    // and corrected, asm and intrinsics, at 64, 67 and 1024 quaternions.
    #[library_benchmark(setup = slerp_quats_avx_input)]
    #[bench::asm_as_published_64(animasm::slerp_quats::asm::slerp_quats_as_published, 64)]
    #[bench::asm_as_published_67(animasm::slerp_quats::asm::slerp_quats_as_published, 67)]
    #[bench::asm_as_published_1024(animasm::slerp_quats::asm::slerp_quats_as_published, 1024)]
    #[bench::intrinsics_as_published_64(animasm::slerp_quats::intrinsics::slerp_quats_as_published, 64)]
    #[bench::intrinsics_as_published_67(animasm::slerp_quats::intrinsics::slerp_quats_as_published, 67)]
    #[bench::intrinsics_as_published_1024(animasm::slerp_quats::intrinsics::slerp_quats_as_published, 1024)]
    #[bench::asm_corrected_64(animasm::slerp_quats::asm::slerp_quats_corrected, 64)]
    #[bench::asm_corrected_67(animasm::slerp_quats::asm::slerp_quats_corrected, 67)]
    #[bench::asm_corrected_1024(animasm::slerp_quats::asm::slerp_quats_corrected, 1024)]
    #[bench::intrinsics_corrected_64(animasm::slerp_quats::intrinsics::slerp_quats_corrected, 64)]
    #[bench::intrinsics_corrected_67(animasm::slerp_quats::intrinsics::slerp_quats_corrected, 67)]
    #[bench::intrinsics_corrected_1024(animasm::slerp_quats::intrinsics::slerp_quats_corrected, 1024)]
    fn slerp_quats_avx(mut run: SlerpQuatsRun) -> SlerpQuatsRun {
        run.run();
        black_box(run)
    }

    // `slerp_quats`, the glam peer (`Quat::slerp`).
    #[library_benchmark(setup = glam_slerp_quats_input)]
    #[bench::glam_64(64)]
    #[bench::glam_67(67)]
    #[bench::glam_1024(1024)]
    fn slerp_quats_peer(mut g: GlamSlerpQuats) -> GlamSlerpQuats {
        let g_ref = black_box(&mut g);
        glam_slerp_quats(&mut g_ref.result, &g_ref.from, &g_ref.to, black_box(SLERP_QUATS_FACTOR));
        black_box(g)
    }

    // -----------------------------------------------------------------------
    // `nlerp`.

    /// `nlerp`'s raw kernels: `(dest, l, r, t, size)`.
    type NlerpKernel = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);

    /// An `nlerp` kernel (`None`: its width is not available here, not run)
    /// and the article's streams.
    struct NlerpRun {
        kernel: Option<NlerpKernel>,
        l: Quat,
        r: Vec<Quat>,
        t: Vec<f32>,
        dest: Vec<Quat>,
    }

    /// Setup (not counted): `setup::nlerp_input` for `kernel` of `width`,
    /// which is left out (and a line printed) where the CPU lacks the width's
    /// features.
    fn nlerp_input(kernel: NlerpKernel, width: Width) -> NlerpRun {
        let (l, r, t) = setup::nlerp_input();
        let kernel = if width.is_available() {
            Some(kernel)
        } else {
            eprintln!("nlerp: {width} is not available on this CPU (as valgrind presents it): not run");
            None
        };
        NlerpRun { kernel, l, r, t, dest: vec![Quat::default(); NLERP_ELEMENTS] }
    }

    // `nlerp`, `fnlerp`, `onlerp` at every width: the scalar loop kept scalar
    // (the article's rows), the same loop vectorised by LLVM (`autovec`), SSE2
    // four wide, AVX2 eight wide and with FMA; and the reference slerp.
    #[library_benchmark(setup = nlerp_input)]
    #[bench::nlerp_scalar(animasm::nlerp::scalar::run_nlerp, Width::Scalar)]
    #[bench::nlerp_autovec(animasm::nlerp::scalar::autovec_nlerp, Width::Scalar)]
    #[bench::nlerp4(animasm::nlerp::sse2::nlerp4, Width::Sse2x4)]
    #[bench::nlerp8(animasm::nlerp::avx2::nlerp8, Width::Avx2x8)]
    #[bench::nlerp8_fma(animasm::nlerp::avx2::nlerp8_fma, Width::Avx2Fma8)]
    #[bench::fnlerp_scalar(animasm::nlerp::scalar::run_fnlerp, Width::Scalar)]
    #[bench::fnlerp_autovec(animasm::nlerp::scalar::autovec_fnlerp, Width::Scalar)]
    #[bench::fnlerp4(animasm::nlerp::sse2::fnlerp4, Width::Sse2x4)]
    #[bench::fnlerp8(animasm::nlerp::avx2::fnlerp8, Width::Avx2x8)]
    #[bench::fnlerp8_fma(animasm::nlerp::avx2::fnlerp8_fma, Width::Avx2Fma8)]
    #[bench::onlerp_scalar(animasm::nlerp::scalar::run_onlerp, Width::Scalar)]
    #[bench::onlerp_autovec(animasm::nlerp::scalar::autovec_onlerp, Width::Scalar)]
    #[bench::onlerp4(animasm::nlerp::sse2::onlerp4, Width::Sse2x4)]
    #[bench::onlerp8(animasm::nlerp::avx2::onlerp8, Width::Avx2x8)]
    #[bench::onlerp8_fma(animasm::nlerp::avx2::onlerp8_fma, Width::Avx2Fma8)]
    #[bench::slerp_reference(animasm::nlerp::scalar::run_slerp, Width::Scalar)]
    fn nlerp(mut run: NlerpRun) -> NlerpRun {
        if let Some(kernel) = run.kernel {
            let dest = black_box(run.dest.as_mut_ptr());
            let (r, t) = (black_box(run.r.as_ptr()), black_box(run.t.as_ptr()));
            // SAFETY: `r`, `t` and `dest` hold `NLERP_ELEMENTS` elements each
            // (16-byte aligned `Vec<Quat>`s, distinct allocations); the kernel
            // is `Some` only where its width is available.
            unsafe { kernel(dest, black_box(&run.l), r, t, NLERP_ELEMENTS) };
        }
        black_box(run)
    }

    /// A glam loop over the `nlerp` streams.
    type GlamStream = fn(&mut [GQuat], GQuat, &[GQuat], &[f32]);

    /// A glam loop and the same streams as glam `Quat`s, and glam's results.
    struct GlamNlerp {
        peer: GlamStream,
        l: GQuat,
        r: Vec<GQuat>,
        t: Vec<f32>,
        dest: Vec<GQuat>,
    }

    /// Setup (not counted): [`nlerp_input`]'s streams for the glam loop `peer`.
    fn glam_nlerp_input(peer: GlamStream) -> GlamNlerp {
        let (l, r, t) = setup::nlerp_input();
        let (l, r) = (GQuat::from_array(l.to_array()), to_glam_quats(&r));
        GlamNlerp { peer, l, r, t, dest: vec![GQuat::IDENTITY; NLERP_ELEMENTS] }
    }

    // `nlerp`, the glam peers: `Quat::lerp` (shorter arc, normalised) and
    // `Quat::slerp` over the same streams.
    #[library_benchmark(setup = glam_nlerp_input)]
    #[bench::glam_lerp(glam_lerp_stream)]
    #[bench::glam_slerp(glam_slerp_stream)]
    fn nlerp_peer(mut g: GlamNlerp) -> GlamNlerp {
        let g_ref = black_box(&mut g);
        (g_ref.peer)(&mut g_ref.dest, g_ref.l, &g_ref.r, &g_ref.t);
        black_box(g)
    }

    library_benchmark_group!(name = slerp_joints_group, benchmarks = [slerp_joints, slerp_joints_peer]);

    library_benchmark_group!(name = lerp_joints_group, benchmarks = [lerp_joints, lerp_joints_peer]);

    library_benchmark_group!(name = quats_to_mats_group, benchmarks = [quats_to_mats, quats_to_mats_peer]);

    library_benchmark_group!(name = mats_to_quats_group, benchmarks = [mats_to_quats, mats_to_quats_peer]);

    library_benchmark_group!(
        name = transform_skeleton_group,
        benchmarks = [transform_skeleton, transform_skeleton_peer]
    );

    library_benchmark_group!(
        name = untransform_skeleton_group,
        benchmarks = [untransform_skeleton, untransform_skeleton_peer]
    );

    library_benchmark_group!(name = transform_joints_group, benchmarks = [transform_joints, transform_joints_peer]);

    library_benchmark_group!(
        name = slerp_quats_group,
        benchmarks = [slerp_quats_128, slerp_quats_avx, slerp_quats_peer]
    );

    library_benchmark_group!(name = nlerp_group, benchmarks = [nlerp, nlerp_peer]);
}

#[cfg(target_arch = "x86_64")]
use counts::{
    lerp_joints_group, mats_to_quats_group, nlerp_group, quats_to_mats_group, slerp_joints_group, slerp_quats_group,
    transform_joints_group, transform_skeleton_group, untransform_skeleton_group,
};
#[cfg(target_arch = "x86_64")]
use gungraun::main;

#[cfg(target_arch = "x86_64")]
main!(
    library_benchmark_groups = slerp_joints_group,
    lerp_joints_group,
    quats_to_mats_group,
    mats_to_quats_group,
    transform_skeleton_group,
    untransform_skeleton_group,
    transform_joints_group,
    slerp_quats_group,
    nlerp_group
);

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("instr_count: the asm and intrinsics kernels exist on x86_64 only; nothing to count here");
}
