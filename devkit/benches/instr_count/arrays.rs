//! The array shapes: `QuatPairs` (Intel's Table 1) and `Stream` (the nlerp
//! family); every form's raw kernel, the stream routines' vectorised scalar
//! loops, and the glam peers.

use std::hint::black_box;

use animasm::Quat;
use animasm::roster::{Routine, Shape, kernel};
use animasm::slerp_quats::AlignedQuats;
use glam::Quat as GQuat;
use gungraun::{library_benchmark, library_benchmark_group};

use devkit::peers::{glam_lerp_stream, glam_slerp_quats, glam_slerp_stream, to_glam_quats};
use devkit::setup::{self, NLERP_ELEMENTS, SLERP_QUATS_COUNTS, SLERP_QUATS_FACTOR};

use crate::{Case, Function};

/// The benchmark functions of this file.
pub(crate) const FUNCTIONS: &[Function] = &[
    Function { path: "quat_pairs::kernels", cases: quat_pairs::kernel_cases },
    Function { path: "quat_pairs::peers", cases: quat_pairs::peer_cases },
    Function { path: "stream::kernels", cases: stream::kernel_cases },
    Function { path: "stream::peers", cases: stream::peer_cases },
];

/// The `QuatPairs` shape.
pub(crate) mod quat_pairs {
    use super::*;

    fn of_shape(shape: &Shape) -> bool {
        matches!(shape, Shape::QuatPairs { .. })
    }

    /// The quaternion counts: Table 1's 64 and 67, and 1024.
    fn sizes() -> [Option<usize>; 3] {
        SLERP_QUATS_COUNTS.map(Some)
    }

    /// A glam loop over quaternion pairs.
    type GlamPairsLoop = fn(&mut [GQuat], &[GQuat], &[GQuat], f32);

    /// A routine's glam peer (`Quat::slerp`), if it has one: the routine
    /// with the article's errata corrected.
    fn peer(r: &Routine) -> Option<GlamPairsLoop> {
        match r.name {
            "slerp_quats_corrected" => Some(glam_slerp_quats),
            _ => None,
        }
    }

    pub(crate) fn kernel_cases() -> Vec<Case> {
        crate::cases(of_shape, &sizes(), true, crate::no_extras)
    }

    pub(crate) fn peer_cases() -> Vec<Case> {
        crate::cases(of_shape, &sizes(), false, |r| if peer(r).is_some() { &["glam"] } else { &[] })
    }

    /// A kernel (`None`: its form does not run here, not run) and `n`
    /// quaternion pairs in 32-byte-aligned storage.
    struct QuatPairsRun {
        kernel: Option<kernel::QuatPairs>,
        from: AlignedQuats,
        to: AlignedQuats,
        result: AlignedQuats,
    }

    impl QuatPairsRun {
        /// Runs the kernel once over the `n` pairs.
        #[inline(always)]
        fn run(&mut self) {
            if let Some(kernel) = self.kernel {
                let result = black_box(self.result.as_mut_ptr());
                let (from, to) = (black_box(self.from.as_ptr()), black_box(self.to.as_ptr()));
                // SAFETY: the three arrays hold `n` (<= 1024) quaternions each,
                // in `AlignedQuats` (32-byte aligned, three allocations); the
                // kernel is `Some` only where the CPU runs its form.
                unsafe { kernel(result, from, to, black_box(SLERP_QUATS_FACTOR), self.result.len() as i32) }
            }
        }
    }

    /// Setup (not counted): the case's count of `setup::slerp_quats_input`
    /// pairs for its kernel.
    fn input(case: Case) -> QuatPairsRun {
        let Shape::QuatPairs { forms, .. } = case.routine.shape else { unreachable!("a QuatPairs case") };
        let n = case.size.expect("a QuatPairs case has a count");
        let (from, to) = setup::slerp_quats_input(n);
        QuatPairsRun { kernel: crate::kernel(&case, forms), result: AlignedQuats::zeroed(n), from, to }
    }

    /// A glam loop, the same pairs as glam `Quat`s, and glam's results.
    struct GlamQuatPairs {
        peer: GlamPairsLoop,
        from: Vec<GQuat>,
        to: Vec<GQuat>,
        result: Vec<GQuat>,
    }

    /// Setup (not counted): [`input`]'s pairs for the case's glam peer.
    fn glam_input(case: Case) -> GlamQuatPairs {
        let peer = peer(case.routine).expect("a peer case's routine has a peer");
        let n = case.size.expect("a QuatPairs case has a count");
        let (from, to) = setup::slerp_quats_input(n);
        GlamQuatPairs { peer, from: to_glam_quats(&from), to: to_glam_quats(&to), result: vec![GQuat::IDENTITY; n] }
    }

    // Every form of every `QuatPairs` routine (as published and corrected:
    // the AVX kernels, Table 1's 128-bit baseline, the scalar forms), the raw
    // kernels, at 64, 67 and 1024 quaternions.
    #[library_benchmark]
    #[benches::cases(iter = kernel_cases(), setup = input)]
    fn kernels(mut run: QuatPairsRun) -> QuatPairsRun {
        run.run();
        black_box(run)
    }

    // The glam peers.
    #[library_benchmark]
    #[benches::cases(iter = peer_cases(), setup = glam_input)]
    fn peers(mut g: GlamQuatPairs) -> GlamQuatPairs {
        let g_ref = black_box(&mut g);
        (g_ref.peer)(&mut g_ref.result, &g_ref.from, &g_ref.to, black_box(SLERP_QUATS_FACTOR));
        black_box(g)
    }

    library_benchmark_group!(name = quat_pairs, benchmarks = [kernels, peers]);
}

/// The `Stream` shape.
pub(crate) mod stream {
    use super::*;

    fn of_shape(shape: &Shape) -> bool {
        matches!(shape, Shape::Stream { .. })
    }

    use devkit::setup::autovec;

    /// A glam loop over a stream.
    type GlamStream = fn(&mut [GQuat], GQuat, &[GQuat], &[f32]);

    /// A routine's glam peer, if it has one: `Quat::lerp` (shorter arc,
    /// normalised) for `nlerp`, `Quat::slerp` for the slerp reference.
    fn peer(r: &Routine) -> Option<GlamStream> {
        match r.name {
            "nlerp" => Some(glam_lerp_stream),
            "slerp_stream" => Some(glam_slerp_stream),
            _ => None,
        }
    }

    pub(crate) fn kernel_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], true, |r| if autovec(r).is_some() { &["autovec"] } else { &[] })
    }

    pub(crate) fn peer_cases() -> Vec<Case> {
        crate::cases(of_shape, &[None], false, |r| if peer(r).is_some() { &["glam"] } else { &[] })
    }

    /// A kernel (`None`: its form does not run here, not run) and the
    /// article's streams.
    struct StreamRun {
        kernel: Option<kernel::Stream>,
        l: Quat,
        r: Vec<Quat>,
        t: Vec<f32>,
        dest: Vec<Quat>,
    }

    /// Setup (not counted): `setup::nlerp_input` for the case's kernel (a
    /// form's, or the routine's `autovec` loop).
    fn input(case: Case) -> StreamRun {
        let Shape::Stream { forms, .. } = case.routine.shape else { unreachable!("a Stream case") };
        let kernel = match case.imp {
            Some(_) => crate::kernel(&case, forms),
            None => autovec(case.routine),
        };
        let (l, r, t) = setup::nlerp_input();
        StreamRun { kernel, l, r, t, dest: vec![Quat::default(); NLERP_ELEMENTS] }
    }

    /// A glam loop, the same streams as glam `Quat`s, and glam's results.
    struct GlamStreamRun {
        peer: GlamStream,
        l: GQuat,
        r: Vec<GQuat>,
        t: Vec<f32>,
        dest: Vec<GQuat>,
    }

    /// Setup (not counted): [`input`]'s streams for the case's glam peer.
    fn glam_input(case: Case) -> GlamStreamRun {
        let peer = peer(case.routine).expect("a peer case's routine has a peer");
        let (l, r, t) = setup::nlerp_input();
        let (l, r) = (GQuat::from_array(l.to_array()), to_glam_quats(&r));
        GlamStreamRun { peer, l, r, t, dest: vec![GQuat::IDENTITY; NLERP_ELEMENTS] }
    }

    // Every form of every `Stream` routine (`nlerp`, `fnlerp`, `onlerp` at
    // every width, the reference slerp), then each one's scalar loop as LLVM
    // vectorises it, the raw kernels.
    #[library_benchmark]
    #[benches::cases(iter = kernel_cases(), setup = input)]
    fn kernels(mut run: StreamRun) -> StreamRun {
        if let Some(kernel) = run.kernel {
            let dest = black_box(run.dest.as_mut_ptr());
            let (r, t) = (black_box(run.r.as_ptr()), black_box(run.t.as_ptr()));
            // SAFETY: `r`, `t` and `dest` hold `NLERP_ELEMENTS` elements each
            // (16-byte aligned `Vec<Quat>`s, distinct allocations); the kernel
            // is `Some` only where this CPU runs its form.
            unsafe { kernel(dest, black_box(&run.l), r, t, NLERP_ELEMENTS) };
        }
        black_box(run)
    }

    // The glam peers.
    #[library_benchmark]
    #[benches::cases(iter = peer_cases(), setup = glam_input)]
    fn peers(mut g: GlamStreamRun) -> GlamStreamRun {
        let g_ref = black_box(&mut g);
        (g_ref.peer)(&mut g_ref.dest, g_ref.l, &g_ref.r, &g_ref.t);
        black_box(g)
    }

    library_benchmark_group!(name = stream, benchmarks = [kernels, peers]);
}
