//! The array routines: `slerp_quats` (Intel's Table 1) and the nlerp
//! family, the raw kernels and the glam peers.

use std::hint::black_box;

use animasm::slerp_quats::AlignedQuats;
use animasm::{Impl, Quat};
use glam::Quat as GQuat;
use gungraun::{library_benchmark, library_benchmark_group};

use devkit::peers::{glam_lerp_stream, glam_slerp_quats, glam_slerp_stream, to_glam_quats};
use devkit::setup::{self, NLERP_ELEMENTS, SLERP_QUATS_FACTOR};

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
    if !animasm::slerp_quats::forms().any(|imp| imp == Impl::Asm || imp == Impl::Intrinsics) {
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
#[bench::sse_64(animasm::slerp_quats::sse2::slerp_quats_sse, 64)]
#[bench::sse_67(animasm::slerp_quats::sse2::slerp_quats_sse, 67)]
#[bench::sse_1024(animasm::slerp_quats::sse2::slerp_quats_sse, 1024)]
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

/// An `nlerp` kernel (`None`: its form does not run here, not run)
/// and the article's streams.
struct NlerpRun {
    kernel: Option<NlerpKernel>,
    l: Quat,
    r: Vec<Quat>,
    t: Vec<f32>,
    dest: Vec<Quat>,
}

/// Setup (not counted): `setup::nlerp_input` for `kernel` of the form
/// `width`, which is left out (and a line printed) where the CPU lacks the
/// form's features (it is not among `nlerp::forms()`).
fn nlerp_input(kernel: NlerpKernel, width: Impl) -> NlerpRun {
    let (l, r, t) = setup::nlerp_input();
    let kernel = if animasm::nlerp::forms().any(|imp| imp == width) {
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
#[bench::nlerp_scalar(animasm::nlerp::scalar::run_nlerp, Impl::Scalar)]
#[bench::nlerp_autovec(animasm::nlerp::scalar::autovec_nlerp, Impl::Scalar)]
#[bench::nlerp4(animasm::nlerp::sse2::nlerp4, Impl::Sse2)]
#[bench::nlerp8(animasm::nlerp::avx2::nlerp8, Impl::Avx2NoFma)]
#[bench::nlerp8_fma(animasm::nlerp::avx2::nlerp8_fma, Impl::Avx2)]
#[bench::fnlerp_scalar(animasm::nlerp::scalar::run_fnlerp, Impl::Scalar)]
#[bench::fnlerp_autovec(animasm::nlerp::scalar::autovec_fnlerp, Impl::Scalar)]
#[bench::fnlerp4(animasm::nlerp::sse2::fnlerp4, Impl::Sse2)]
#[bench::fnlerp8(animasm::nlerp::avx2::fnlerp8, Impl::Avx2NoFma)]
#[bench::fnlerp8_fma(animasm::nlerp::avx2::fnlerp8_fma, Impl::Avx2)]
#[bench::onlerp_scalar(animasm::nlerp::scalar::run_onlerp, Impl::Scalar)]
#[bench::onlerp_autovec(animasm::nlerp::scalar::autovec_onlerp, Impl::Scalar)]
#[bench::onlerp4(animasm::nlerp::sse2::onlerp4, Impl::Sse2)]
#[bench::onlerp8(animasm::nlerp::avx2::onlerp8, Impl::Avx2NoFma)]
#[bench::onlerp8_fma(animasm::nlerp::avx2::onlerp8_fma, Impl::Avx2)]
#[bench::slerp_reference(animasm::nlerp::scalar::run_slerp, Impl::Scalar)]
fn nlerp(mut run: NlerpRun) -> NlerpRun {
    if let Some(kernel) = run.kernel {
        let dest = black_box(run.dest.as_mut_ptr());
        let (r, t) = (black_box(run.r.as_ptr()), black_box(run.t.as_ptr()));
        // SAFETY: `r`, `t` and `dest` hold `NLERP_ELEMENTS` elements each
        // (16-byte aligned `Vec<Quat>`s, distinct allocations); the kernel
        // is `Some` only where its form is among `nlerp::forms()`.
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

library_benchmark_group!(name = slerp_quats_group, benchmarks = [slerp_quats_128, slerp_quats_avx, slerp_quats_peer]);

library_benchmark_group!(name = nlerp_group, benchmarks = [nlerp, nlerp_peer]);
