//! Wall-clock benchmarks (criterion 0.8): one group per routine, 1024 joints
//! with hot caches (the papers' setup), `Throughput::Elements(1024)`, one
//! bench per available [`Impl`] through the crate's safe functions (their
//! input validation included: this is what a user calls), and glam as the
//! peer.
//!
//! `slerp_joints` and `lerp_joints` work in place: timed over and over, they
//! would drive the joints onto the blend joints (after which the scalar port
//! takes its cheap near-parallel branch, and branch prediction learns the
//! data). So before every call each bench, the peer included, restores its
//! joints from a pristine copy, outside the timed region: `iter_custom`
//! times each call alone and sums. The buffers are the same
//! from iteration to iteration, so the caches stay hot; the timer's own cost
//! (tens of ns against microseconds per call) is the same for every bench.
//!
//! The measurement is [`devkit::criterion_tsc::Tsc`]: the report's timer
//! (`devkit::timer`, `lfence; rdtsc; lfence`), so criterion's figures are in
//! TSC ticks (nanoseconds off x86_64), comparable with the report's tables;
//! throughput is in elements per kilotick.
//!
//! `transform_skeleton` and `untransform_skeleton` work in place too (each
//! call would transform the previous call's output), so they restore the same
//! way. `quats_to_mats`, `mats_to_quats` and `transform_joints` write a
//! separate output, the same every time: plain `iter`. The skeletons: 1024
//! joints under a random parents-first hierarchy, joints `1..=1023` (the
//! root has no parent), `Throughput::Elements(1023)`. `transform_skeleton`'s
//! group has two extra benches, `intrinsics (movss+shufps)` and `asm
//! (movss+shufps)`, the paper's alternative broadcast
//! (`transform_skeleton_movss_shufps`). The data (`devkit::setup`) and the
//! peers (`devkit::peers`) are those of the report (`examples/report/`; see
//! its notes) and `instr_count.rs`. Every group benches every form the
//! routine's `forms()` lists on this CPU, then `auto` (`Impl::Auto`, the
//! default), by `Impl::name()`.
//!
//! `slerp_quats` (the Intel article's Table 1): one group, the counts 64, 67
//! and 1024 (`setup::SLERP_QUATS_COUNTS`, `Throughput::Elements(n)`, bench
//! ids `<kernel>/<n>`), uniform random unit quaternion pairs in
//! `AlignedQuats` (32-byte aligned), `slerp_quats_as_published` and
//! `slerp_quats_corrected` for every form of `slerp_quats::forms()` and
//! `forms_as_published()` (the `sse2` form of `slerp_quats_corrected` is
//! the 128-bit baseline; without AVX the AVX forms are absent and a line on
//! stderr says so), `auto`, and glam's `Quat::slerp`. Table 1's ratio is
//! `sse2 corrected` over `asm as published` (or `intrinsics as published`)
//! at the same count. The results go to a separate array: plain `iter`.
//!
//! `nlerp` (zeux's article): one group, 1024 elements, `nlerp`, `fnlerp` and
//! `onlerp` in every form of `nlerp::forms()` and `auto` (ids
//! `<function>/<form>`) through the safe functions, plus LLVM's
//! vectorisation of the scalar loops (`<function>/autovec (raw kernel)`: the
//! raw `scalar::autovec_*`, which have no safe function), the reference
//! `slerp_stream` and glam's `Quat::lerp` and `Quat::slerp` over the same streams.
//! Separate output: plain `iter`.
//!
//! The successors (issue 12): each of the seven id routines' groups benches
//! its `Impl::Avx2` form (AVX2 + FMA) as soon as the routine's `forms()`
//! lists it (a line on stderr says when a routine has none in this build or
//! on this CPU), and its memory floor (`devkit::floors`, bench `floor`: the
//! routine's loads and stores with one add), called on the same buffers;
//! the skeleton groups also bench the dependency-chain floor (`chain
//! floor`). The report's section 5b has the same rows at 64, 1024 and 65536
//! elements, with the ultraviolet peers.
//!
//! # Running it
//!
//! The arguments after `--` go to criterion: a filter (a regex on the
//! bench id `<group>/<bench>`: `slerp_joints`, `^lerp_joints`,
//! `nlerp/onlerp`, `/avx2$`), `--quick`, `--warm-up-time`,
//! `--measurement-time`; `-- --list` lists the 104 benches (7 per id
//! routine's group, 10 and 8 for the skeleton groups, 30 for `slerp_quats`,
//! 21 for `nlerp`, on a CPU with AVX2 and FMA). Wall times on the 2-vCPU
//! AMD EPYC VM the crate is developed on, the build done (after `cargo build
//! --release --all-targets` the bench profile reuses the release artifacts:
//! `cargo bench --no-run` takes 0.1 s):
//!
//! | command (`cargo bench --bench wall_clock ...`) | benches | wall time |
//! |---|---|---|
//! | `-- --quick` | 104 | 20 to 40 s |
//! | `-- --quick slerp_joints` | 7 | 3 s |
//! | `-- --warm-up-time 1 --measurement-time 2 slerp_joints` | 7 | 29 s |
//! | `-- --warm-up-time 1 --measurement-time 2` | 104 | 7 min |
//! | `-- slerp_joints` (criterion's defaults) | 7 | 72 s |
//! | (nothing: criterion's defaults) | 104 | about 17 min, estimated |
//!
//! The full run was not timed: with criterion's defaults (3 s warm-up, 5 s
//! measurement, 100 samples, 100 000 bootstrap resamples per bench) three
//! groups run alone (`slerp_joints`, `quats_to_mats`, `transform_joints`,
//! 21 benches, 207 s) took 9.6 to 10.4 s per bench (the in-place groups the
//! most: their restores are untimed but run), and 104 benches at that rate
//! take 17 minutes. `--quick` stops sampling a bench as soon as criterion's
//! significance level is reached: on those three groups its estimates were
//! within 3% of the defaults' in the median and within 11% bench by bench
//! (the floors, which vary by up to 30% in every mode, aside). Use it for a
//! first look, and the defaults (or `--warm-up-time 1 --measurement-time 2`
//! with a filter) for figures you quote. These VMs vary by up to 20% from
//! run to run: compare the ratios within one run.

use std::hint::black_box;
use std::ops::RangeInclusive;

use animasm::slerp_quats::AlignedQuats;
use animasm::{Error, Impl, JointMat, JointQuat, Quat};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use devkit::criterion_tsc::Tsc;
use devkit::floors::{self, Walk};
use devkit::peers::{
    GlamJointLoop, glam_lerp_joints, glam_lerp_stream, glam_mats_to_quats, glam_quats_to_mats, glam_slerp_joints,
    glam_slerp_quats, glam_slerp_stream, glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton,
    to_affine, to_affine_paper_rotation, to_glam, to_glam_quats,
};
use devkit::setup::{self, JOINTS, LERP, NLERP_ELEMENTS, SKELETON_RANGE, SLERP_QUATS_COUNTS, SLERP_QUATS_FACTOR};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};

/// Criterion with the report's timer.
type C = Criterion<Tsc>;

/// The crate's safe `slerp_joints` / `lerp_joints`.
type SafeFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

/// `iters` calls of `call` on `state`, each after an untimed `restore`; the
/// summed ticks of the calls alone.
fn timed<S: ?Sized>(iters: u64, state: &mut S, restore: impl Fn(&mut S), call: impl Fn(&mut S)) -> u64 {
    let mut total = 0;
    for _ in 0..iters {
        restore(state);
        total += Tsc::time(|| call(state));
    }
    total
}

/// The forms `forms` lists (this target and CPU), in [`Impl::ALL`] order,
/// then [`Impl::Auto`].
fn with_auto(forms: impl Iterator<Item = Impl>) -> Vec<Impl> {
    let forms: Vec<Impl> = forms.collect();
    Impl::ALL.into_iter().filter(|i| forms.contains(i)).chain([Impl::Auto]).collect()
}

/// [`with_auto`] for one of the seven id routines, saying on stderr when
/// it has no `Impl::Avx2` form to bench (`resolve(Impl::Avx2)`'s error).
fn with_auto_avx2(routine: &str, forms: impl Iterator<Item = Impl>, avx2: Result<Impl, Error>) -> Vec<Impl> {
    if let Err(e) = avx2 {
        eprintln!("{routine}: no avx2 bench ({e})");
    }
    with_auto(forms)
}

/// One group: every form of `forms` and `auto` through `safe`, then glam.
fn joint_group(c: &mut C, name: &str, safe: SafeFn, forms: Vec<Impl>, peer: GlamJointLoop) {
    let (pristine, blend, index) = setup::joint_lists();
    let mut joints = pristine.clone();
    let (pristine_q, pristine_t) = to_glam(&pristine);
    let (blend_q, blend_t) = to_glam(&blend);
    let (mut q, mut t) = (pristine_q.clone(), pristine_t.clone());

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(JOINTS as u64));
    for imp in forms {
        group.bench_function(imp.name(), |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut joints[..],
                    |j| j.copy_from_slice(&pristine),
                    |j| safe(imp, black_box(j), black_box(&blend), black_box(LERP), black_box(&index)).unwrap(),
                )
            })
        });
    }
    group.bench_function("floor", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut joints[..],
                |j| j.copy_from_slice(&pristine),
                |j| floors::joint_lists(black_box(j), black_box(&blend), black_box(&index)),
            )
        })
    });
    group.bench_function("glam", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut (&mut q, &mut t),
                |(q, t)| {
                    q.copy_from_slice(&pristine_q);
                    t.copy_from_slice(&pristine_t);
                },
                |(q, t)| {
                    peer(
                        black_box(q),
                        black_box(t),
                        black_box(&blend_q),
                        black_box(&blend_t),
                        black_box(LERP),
                        black_box(&index),
                    )
                },
            )
        })
    });
    group.finish();
}

fn slerp_joints(c: &mut C) {
    use animasm::slerp_joints::{forms, resolve};
    let forms = with_auto_avx2("slerp_joints", forms(), resolve(Impl::Avx2));
    joint_group(c, "slerp_joints", animasm::slerp_joints, forms, glam_slerp_joints);
}

fn lerp_joints(c: &mut C) {
    use animasm::lerp_joints::{forms, resolve};
    let forms = with_auto_avx2("lerp_joints", forms(), resolve(Impl::Avx2));
    joint_group(c, "lerp_joints", animasm::lerp_joints, forms, glam_lerp_joints);
}

fn quats_to_mats(c: &mut C) {
    let quats = setup::quats_to_mats_input();
    let mut mats = vec![JointMat::default(); JOINTS];
    let (q, t) = to_glam(&quats);
    let mut affine = vec![Affine3A::IDENTITY; JOINTS];

    let mut group = c.benchmark_group("quats_to_mats");
    group.throughput(Throughput::Elements(JOINTS as u64));
    use animasm::quats_to_mats::{forms, resolve};
    for imp in with_auto_avx2("quats_to_mats", forms(), resolve(Impl::Avx2)) {
        group.bench_function(imp.name(), |b| {
            b.iter(|| animasm::quats_to_mats::quats_to_mats(imp, black_box(&mut mats), black_box(&quats)).unwrap())
        });
    }
    group.bench_function("floor", |b| b.iter(|| floors::quats_to_mats(black_box(&mut mats), black_box(&quats))));
    group.bench_function("glam", |b| {
        b.iter(|| glam_quats_to_mats(black_box(&mut affine), black_box(&q), black_box(&t)))
    });
    group.finish();
}

fn mats_to_quats(c: &mut C) {
    let mats = setup::mats_to_quats_input();
    let mut quats = vec![JointQuat::default(); JOINTS];
    let affine = to_affine_paper_rotation(&mats);
    let (mut q, mut t) = (vec![GQuat::IDENTITY; JOINTS], vec![GVec4::ZERO; JOINTS]);

    let mut group = c.benchmark_group("mats_to_quats");
    group.throughput(Throughput::Elements(JOINTS as u64));
    use animasm::mats_to_quats::{forms, resolve};
    for imp in with_auto_avx2("mats_to_quats", forms(), resolve(Impl::Avx2)) {
        group.bench_function(imp.name(), |b| {
            b.iter(|| animasm::mats_to_quats::mats_to_quats(imp, black_box(&mut quats), black_box(&mats)).unwrap())
        });
    }
    group.bench_function("floor", |b| b.iter(|| floors::mats_to_quats(black_box(&mut quats), black_box(&mats))));
    group.bench_function("glam", |b| {
        b.iter(|| glam_mats_to_quats(black_box(&mut q), black_box(&mut t), black_box(&affine)))
    });
    group.finish();
}

/// The crate's safe `transform_skeleton`, `transform_skeleton_movss_shufps`
/// and `untransform_skeleton`.
type SkeletonFn = fn(Impl, &mut [JointMat], &[i32], RangeInclusive<usize>) -> Result<(), Error>;
/// A skeleton floor (`devkit::floors::skeleton`, `skeleton_chain`).
type SkeletonFloor = fn(&mut [JointMat], &[i32], RangeInclusive<usize>, Walk);
/// A glam skeleton loop.
type GlamSkeletonLoop = fn(&mut [Affine3A], &[i32], RangeInclusive<usize>);

/// One group of an in-place skeleton routine: each `(name, imp, safe)` of
/// `benches`, the memory and chain floors walking as the routine walks
/// (`walk`), then glam; every call on `pristine` restored.
fn skeleton_group(
    c: &mut C,
    name: &str,
    (pristine, parents): (Vec<JointMat>, Vec<i32>),
    benches: Vec<(&str, Impl, SkeletonFn)>,
    walk: Walk,
    peer: GlamSkeletonLoop,
) {
    let mut mats = pristine.clone();
    let pristine_g = to_affine(&pristine);
    let mut g = pristine_g.clone();

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(SKELETON_RANGE.count() as u64));
    for (bench, imp, safe) in benches {
        group.bench_function(bench, |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut mats[..],
                    |m| m.copy_from_slice(&pristine),
                    |m| safe(imp, black_box(m), black_box(&parents), black_box(SKELETON_RANGE)).unwrap(),
                )
            })
        });
    }
    let floor_fns: [(&str, SkeletonFloor); 2] = [("floor", floors::skeleton), ("chain floor", floors::skeleton_chain)];
    for (bench, floor) in floor_fns {
        group.bench_function(bench, |b| {
            b.iter_custom(|iters| {
                timed(
                    iters,
                    &mut mats[..],
                    |m| m.copy_from_slice(&pristine),
                    |m| floor(black_box(m), black_box(&parents), black_box(SKELETON_RANGE), walk),
                )
            })
        });
    }
    group.bench_function("glam", |b| {
        b.iter_custom(|iters| {
            timed(
                iters,
                &mut g[..],
                |g| g.copy_from_slice(&pristine_g),
                |g| peer(black_box(g), black_box(&parents), black_box(SKELETON_RANGE)),
            )
        })
    });
    group.finish();
}

fn transform_skeleton(c: &mut C) {
    use animasm::transform_skeleton::{
        forms, resolve, transform_skeleton as plain, transform_skeleton_movss_shufps as movss,
    };
    let mut benches: Vec<(&str, Impl, SkeletonFn)> = with_auto_avx2("transform_skeleton", forms(), resolve(Impl::Avx2))
        .into_iter()
        .map(|imp| (imp.name(), imp, plain as SkeletonFn))
        .collect();
    let here: Vec<Impl> = forms().collect();
    for (name, imp) in [("intrinsics (movss+shufps)", Impl::Intrinsics), ("asm (movss+shufps)", Impl::Asm)] {
        if here.contains(&imp) {
            benches.push((name, imp, movss));
        }
    }
    skeleton_group(c, "transform_skeleton", setup::skeleton_locals(), benches, Walk::Forward, glam_transform_skeleton);
}

fn untransform_skeleton(c: &mut C) {
    let safe: SkeletonFn = animasm::untransform_skeleton::untransform_skeleton;
    use animasm::untransform_skeleton::{forms, resolve};
    let benches = with_auto_avx2("untransform_skeleton", forms(), resolve(Impl::Avx2))
        .into_iter()
        .map(|imp| (imp.name(), imp, safe))
        .collect();
    skeleton_group(
        c,
        "untransform_skeleton",
        setup::skeleton_globals(),
        benches,
        Walk::Backward,
        glam_untransform_skeleton,
    );
}

fn transform_joints(c: &mut C) {
    let (a, b) = setup::transform_joints_input();
    let mut r = vec![JointMat::default(); JOINTS];
    let (ga, gb) = (to_affine(&a), to_affine(&b));
    let mut gr = vec![Affine3A::IDENTITY; JOINTS];

    let mut group = c.benchmark_group("transform_joints");
    group.throughput(Throughput::Elements(JOINTS as u64));
    use animasm::transform_joints::{forms, resolve};
    for imp in with_auto_avx2("transform_joints", forms(), resolve(Impl::Avx2)) {
        group.bench_function(imp.name(), |bench| {
            bench.iter(|| {
                animasm::transform_joints::transform_joints(imp, black_box(&mut r), black_box(&a), black_box(&b))
                    .unwrap()
            })
        });
    }
    group.bench_function("floor", |bench| {
        bench.iter(|| floors::transform_joints(black_box(&mut r), black_box(&a), black_box(&b)))
    });
    group.bench_function("glam", |bench| {
        bench.iter(|| glam_transform_joints(black_box(&mut gr), black_box(&ga), black_box(&gb)))
    });
    group.finish();
}

/// The crate's safe `slerp_quats_as_published` / `slerp_quats_corrected`.
type SlerpQuatsFn = fn(Impl, &mut [Quat], &[Quat], &[Quat], f32) -> Result<(), Error>;

fn slerp_quats(c: &mut C) {
    use animasm::slerp_quats::{forms, forms_as_published, slerp_quats_as_published, slerp_quats_corrected};
    if !forms().any(|imp| imp == Impl::Asm || imp == Impl::Intrinsics) {
        eprintln!(
            "slerp_quats: no AVX detected (this CPU, or the `std` feature is off): the AVX benches (and Table 1's ratios) are left out"
        );
    }
    let variants: [(&str, SlerpQuatsFn, Vec<Impl>); 2] = [
        ("as published", slerp_quats_as_published, with_auto(forms_as_published())),
        ("corrected", slerp_quats_corrected, with_auto(forms())),
    ];
    let mut group = c.benchmark_group("slerp_quats");
    for n in SLERP_QUATS_COUNTS {
        let (from, to) = setup::slerp_quats_input(n);
        let mut result = AlignedQuats::zeroed(n);
        let (gfrom, gto) = (to_glam_quats(&from), to_glam_quats(&to));
        let mut gresult = vec![GQuat::IDENTITY; n];
        group.throughput(Throughput::Elements(n as u64));
        for (variant, safe, imps) in &variants {
            for &imp in imps {
                group.bench_function(BenchmarkId::new(format!("{imp} {variant}"), n), |b| {
                    b.iter(|| {
                        safe(imp, black_box(&mut result), black_box(&from), black_box(&to), SLERP_QUATS_FACTOR).unwrap()
                    })
                });
            }
        }
        group.bench_function(BenchmarkId::new("glam Quat::slerp", n), |b| {
            b.iter(|| glam_slerp_quats(black_box(&mut gresult), black_box(&gfrom), black_box(&gto), SLERP_QUATS_FACTOR))
        });
    }
    group.finish();
}

/// The crate's safe `nlerp`, `fnlerp`, `onlerp`.
type NlerpFn = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;
/// `nlerp`'s raw kernels (the `autovec_*` loops).
type NlerpKernel = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);

fn nlerp(c: &mut C) {
    use animasm::nlerp::scalar;
    let (l, r, t) = setup::nlerp_input();
    let mut dest = vec![Quat::default(); NLERP_ELEMENTS];
    let (gl, gr) = (GQuat::from_array(l.to_array()), to_glam_quats(&r));
    let mut gdest = vec![GQuat::IDENTITY; NLERP_ELEMENTS];
    let funcs: [(&str, NlerpFn, NlerpKernel); 3] = [
        ("nlerp", animasm::nlerp::nlerp, scalar::autovec_nlerp),
        ("fnlerp", animasm::nlerp::fnlerp, scalar::autovec_fnlerp),
        ("onlerp", animasm::nlerp::onlerp, scalar::autovec_onlerp),
    ];

    let mut group = c.benchmark_group("nlerp");
    group.throughput(Throughput::Elements(NLERP_ELEMENTS as u64));
    for (name, safe, autovec) in funcs {
        for w in with_auto(animasm::nlerp::forms()) {
            group.bench_function(BenchmarkId::new(name, w), |b| {
                b.iter(|| safe(w, black_box(&mut dest), black_box(&l), black_box(&r), black_box(&t)).unwrap())
            });
        }
        group.bench_function(BenchmarkId::new(name, "autovec (raw kernel)"), |b| {
            b.iter(|| {
                let d = black_box(dest.as_mut_ptr());
                // SAFETY: `r`, `t` and `dest` hold `NLERP_ELEMENTS` elements
                // each, in distinct allocations; the scalar loops run anywhere.
                unsafe { autovec(d, black_box(&l), black_box(r.as_ptr()), black_box(t.as_ptr()), NLERP_ELEMENTS) }
            })
        });
    }
    group.bench_function("slerp (reference)", |b| {
        b.iter(|| {
            animasm::slerp_stream(Impl::Auto, black_box(&mut dest), black_box(&l), black_box(&r), black_box(&t))
                .unwrap()
        })
    });
    group.bench_function("glam Quat::lerp", |b| {
        b.iter(|| glam_lerp_stream(black_box(&mut gdest), black_box(gl), black_box(&gr), black_box(&t)))
    });
    group.bench_function("glam Quat::slerp", |b| {
        b.iter(|| glam_slerp_stream(black_box(&mut gdest), black_box(gl), black_box(&gr), black_box(&t)))
    });
    group.finish();
}

criterion_group!(
    name = benches;
    config = Criterion::default().with_measurement(Tsc);
    targets = slerp_joints,
    lerp_joints,
    quats_to_mats,
    mats_to_quats,
    transform_skeleton,
    untransform_skeleton,
    transform_joints,
    slerp_quats,
    nlerp
);
criterion_main!(benches);
