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
//! Every routine runs on the data of the report (`examples/report/`) and
//! `wall_clock.rs` (`devkit::setup`): the papers' two joint lists for `slerp_joints` and
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
//! the 128-bit baseline (`sse2::slerp_quats_sse`, the `Impl::Sse2` form of
//! `slerp_quats_corrected`) and the scalar forms (`slerp_quats_128`), the AVX
//! kernels as published and corrected, asm and intrinsics
//! (`slerp_quats_avx`; skipped with a line on stderr where the CPU, as
//! valgrind presents it, has no AVX), and glam's `Quat::slerp`. `nlerp` runs
//! every function in every form (`<function>_scalar`, `_autovec`, `4` for
//! `Impl::Sse2`, `8` for `Impl::Avx2NoFma`, `8_fma` for `Impl::Avx2`; the
//! 8-wide ones skipped where `nlerp::forms()` lacks them), the
//! reference slerp and glam's `Quat::lerp` and `Quat::slerp`, over 1024
//! elements. Valgrind 3.19 runs AVX, AVX2 and FMA (not AVX-512, which no
//! kernel uses).
//!
//! Each id routine also has an `avx2` bench: its `Impl::Avx2` successor (AVX2
//! and FMA, 8 lanes), taken from the routine's table through the doc-hidden
//! `kernel(Impl::Avx2)` rather than by path, on the same data. Where the
//! build has no such form (`Error::Unsupported`) or the CPU, as valgrind
//! presents it, lacks AVX2 or FMA (`Error::MissingCpuFeature`), the bench
//! prints why on stderr and runs nothing (its count is the empty call's), so
//! the run never stops on an instruction valgrind cannot execute. Valgrind
//! 3.19 has no AVX-512, and the crate has no AVX-512 form.
//!
//! Needs valgrind and `gungraun-runner` of the same version as the `gungraun`
//! library (`cargo install gungraun-runner --version 0.20.0`), then
//! `cargo bench --bench instr_count`. x86_64 only (the asm and intrinsics
//! kernels exist only there).

#[cfg(target_arch = "x86_64")]
mod arrays;
#[cfg(target_arch = "x86_64")]
mod joints;
#[cfg(target_arch = "x86_64")]
mod matrices;

#[cfg(target_arch = "x86_64")]
use arrays::{nlerp_group, slerp_quats_group};
#[cfg(target_arch = "x86_64")]
use gungraun::main;
#[cfg(target_arch = "x86_64")]
use joints::{lerp_joints_group, slerp_joints_group};
#[cfg(target_arch = "x86_64")]
use matrices::{
    mats_to_quats_group, quats_to_mats_group, transform_joints_group, transform_skeleton_group,
    untransform_skeleton_group,
};

/// The raw kernel of `routine`'s `Impl::Avx2` successor (`kernel` is the
/// routine's `kernel(Impl::Avx2)`), or `None` with a line on stderr saying
/// why it is not run: the form is not in this build, or this CPU (as
/// valgrind presents it) lacks a feature it needs. Called in the benches'
/// setup, so it runs under valgrind, where the CPU detection sees what
/// valgrind emulates.
#[cfg(target_arch = "x86_64")]
pub(crate) fn successor<K>(routine: &str, kernel: Result<K, animasm::Error>) -> Option<K> {
    match kernel {
        Ok(k) => Some(k),
        Err(animasm::Error::Unsupported(_)) => {
            eprintln!("{routine}: the Impl::Avx2 successor is not in this build: its `avx2` bench is not run");
            None
        }
        Err(e) => {
            eprintln!("{routine}: the Impl::Avx2 successor cannot run here ({e}): its `avx2` bench is not run");
            None
        }
    }
}

/// Prints, before the benchmarks run, which id routines' `Impl::Avx2`
/// successors are in this build and run on this CPU (natively; each `avx2`
/// bench checks again under valgrind, see [`successor`], whose own line
/// gungraun shows only with `--nocapture`), so the run's output says which
/// `avx2` counts are kernels and which are empty calls.
#[cfg(target_arch = "x86_64")]
fn successor_status() {
    let status: [(&str, Result<animasm::Impl, animasm::Error>); 7] = [
        ("slerp_joints", animasm::slerp_joints::resolve(animasm::Impl::Avx2)),
        ("lerp_joints", animasm::lerp_joints::resolve(animasm::Impl::Avx2)),
        ("quats_to_mats", animasm::quats_to_mats::resolve(animasm::Impl::Avx2)),
        ("mats_to_quats", animasm::mats_to_quats::resolve(animasm::Impl::Avx2)),
        ("transform_skeleton", animasm::transform_skeleton::resolve(animasm::Impl::Avx2)),
        ("untransform_skeleton", animasm::untransform_skeleton::resolve(animasm::Impl::Avx2)),
        ("transform_joints", animasm::transform_joints::resolve(animasm::Impl::Avx2)),
    ];
    for (routine, s) in status {
        match s {
            Ok(_) => {
                eprintln!("instr_count: {routine}: the Impl::Avx2 successor runs here: its `avx2` bench counts it")
            }
            Err(animasm::Error::Unsupported(_)) => eprintln!(
                "instr_count: {routine}: the Impl::Avx2 successor is not in this build: its `avx2` bench is skipped \
                 (the count is the empty call's)"
            ),
            Err(e) => eprintln!(
                "instr_count: {routine}: the Impl::Avx2 successor cannot run on this CPU ({e}): its `avx2` bench is \
                 skipped (the count is the empty call's)"
            ),
        }
    }
}

#[cfg(target_arch = "x86_64")]
main!(
    // Evaluated once, natively, in the process `cargo bench` starts (before
    // the runner takes over), so its lines reach the terminal: a `setup`
    // here or in a bench runs in a process whose output gungraun captures.
    config = {
        successor_status();
        gungraun::LibraryBenchmarkConfig::default()
    };
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
