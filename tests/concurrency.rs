//! Concurrency: every safe function (and the `Skeleton` methods) from eight
//! threads at once, each on its own data, with `Impl::Auto` and every form
//! of `forms()`, compared bit for bit with single-threaded runs of the same
//! inputs; threads that narrow the dispatch layer with different test-hook
//! machines at the same time (the hook is per thread); and compile-time
//! checks that the public types are `Send + Sync`.
//!
//! The kernels keep their scratch on the stack and share only read-only
//! constant tables; the dispatch layer's CPU detection is cached by `std`
//! (`is_x86_feature_detected!`), and the test hook lives in a thread-local.

mod common;

use std::sync::Barrier;

use animasm::{Error, Impl, JointMat, JointQuat, Quat, Skeleton, Vec4};

use common::harness::{Routine, out_bits, run};
use common::inputs::{Rng, forest_parents, joint_lists, relabel, rigid_mats};
use common::routines::*;
use common::streams::*;

const THREADS: usize = 8;
/// Rounds per thread: every form of the routine once per round.
const ROUNDS: usize = if cfg!(miri) { 2 } else { 1000 };

// Compile-time: the public types can be shared and sent between threads.
const _: fn() = || {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Impl>();
    assert_send_sync::<Error>();
    assert_send_sync::<Quat>();
    assert_send_sync::<Vec4>();
    assert_send_sync::<JointQuat>();
    assert_send_sync::<JointMat>();
    assert_send_sync::<animasm::QuatPair>();
    assert_send_sync::<animasm::AlignedQuats>();
    assert_send_sync::<Skeleton>();
};

/// The count of thread `t`'s data: 3..=66, so the threads between them
/// cover every tail of the 4- and 8-wide loops.
fn count(t: usize) -> usize {
    3 + 9 * t
}

/// `Auto` and every form that runs here.
fn imps<R: Routine>() -> Vec<Impl> {
    let mut v = vec![Impl::Auto];
    v.extend(R::forms());
    assert!(v.len() >= 2, "{}: no form to run", R::NAME);
    v
}

/// One routine from [`THREADS`] threads at once; returns the number of calls.
fn eight_threads<R: Routine>() -> usize
where
    R::In: Sync,
    R::Out: Sync,
{
    let imps = imps::<R>();
    let data: Vec<_> = (0..THREADS).map(|t| R::inputs(0xc0c0 ^ t as u64, count(t))).collect();
    // Single-threaded reference: thread t's data with every form.
    let reference: Vec<Vec<Vec<u32>>> = data
        .iter()
        .map(|(init, input)| imps.iter().map(|&imp| out_bits(&run::<R>(imp, init, input).unwrap())).collect())
        .collect();
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for (t, ((init, input), want)) in data.iter().zip(&reference).enumerate() {
            let (imps, barrier) = (&imps, &barrier);
            s.spawn(move || {
                barrier.wait();
                for round in 0..ROUNDS {
                    for (k, &imp) in imps.iter().enumerate() {
                        let out = run::<R>(imp, init, input).unwrap();
                        assert!(out_bits(&out) == want[k], "{} {imp} thread {t} round {round}: differs", R::NAME);
                    }
                }
            });
        }
    });
    THREADS * ROUNDS * imps.len()
}

#[test]
fn every_safe_function_from_eight_threads() {
    type Run = (&'static str, fn() -> usize);
    let runs: [Run; 14] = [
        ("slerp_joints", eight_threads::<SlerpJoints>),
        ("lerp_joints", eight_threads::<LerpJoints>),
        ("quats_to_mats", eight_threads::<QuatsToMats>),
        ("mats_to_quats", eight_threads::<MatsToQuats>),
        ("transform_skeleton", eight_threads::<TransformSkeleton>),
        ("transform_skeleton_movss_shufps", eight_threads::<TransformSkeletonMovssShufps>),
        ("untransform_skeleton", eight_threads::<UntransformSkeleton>),
        ("transform_joints", eight_threads::<TransformJoints>),
        ("slerp_quats_as_published", eight_threads::<SlerpQuatsAsPublished>),
        ("slerp_quats_corrected", eight_threads::<SlerpQuatsCorrected>),
        ("nlerp", eight_threads::<Nlerp>),
        ("fnlerp", eight_threads::<Fnlerp>),
        ("onlerp", eight_threads::<Onlerp>),
        ("slerp_stream", eight_threads::<SlerpStream>),
    ];
    let mut total = 0;
    for (name, f) in runs {
        let calls = f();
        assert!(calls > 0, "{name}");
        total += calls;
    }
    eprintln!(
        "every_safe_function_from_eight_threads: {} functions, {THREADS} threads x {ROUNDS} rounds, {total} calls, \
         all bit for bit as single-threaded",
        runs.len()
    );
}

/// Every `Skeleton` method that takes an `Impl`, from eight threads that
/// share one `Skeleton` each pair (`&Skeleton` across threads: `Sync`).
#[test]
fn skeleton_methods_from_eight_threads() {
    // Skeletons of 10 to 43 joints with a root every seventh, numbered
    // backwards (children before parents).
    let skeletons: Vec<Skeleton> = (0..THREADS / 2)
        .map(|k| {
            let n = 10 + 11 * k;
            let parents = forest_parents(&mut Rng::new(0x51 + k as u64), n, |j| j % 7 == 0);
            Skeleton::new(&relabel(&parents, &(0..n).rev().collect::<Vec<_>>())).unwrap()
        })
        .collect();
    let forms: Vec<Impl> = [Impl::Auto].into_iter().chain(common::harness::forms_of_all()).collect();
    // (mats, joints, blend) of thread t, on skeleton t / 2.
    let data: Vec<_> = (0..THREADS)
        .map(|t| {
            let n = skeletons[t / 2].len();
            let (joints, blend, _) = joint_lists(0x77 + t as u64, n);
            (rigid_mats(0x99 + t as u64, n), joints, blend)
        })
        .collect();
    let one = |s: &Skeleton, imp: Impl, (mats, joints, blend): &(Vec<JointMat>, Vec<JointQuat>, Vec<JointQuat>)| {
        let (mut a, mut b, mut c, mut d) = (mats.clone(), mats.clone(), joints.clone(), joints.clone());
        s.local_to_model(imp, &mut a).unwrap();
        s.model_to_local(imp, &mut b).unwrap();
        s.slerp_joints(imp, &mut c, blend, 0.3).unwrap();
        s.lerp_joints(imp, &mut d, blend, 0.6).unwrap();
        (out_bits(&a), out_bits(&b), out_bits(&c), out_bits(&d))
    };
    let reference: Vec<Vec<_>> = data
        .iter()
        .enumerate()
        .map(|(t, d)| forms.iter().map(|&imp| one(&skeletons[t / 2], imp, d)).collect())
        .collect();
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for (t, (d, want)) in data.iter().zip(&reference).enumerate() {
            let (skeleton, forms, barrier, one) = (&skeletons[t / 2], &forms, &barrier, &one);
            s.spawn(move || {
                barrier.wait();
                for round in 0..ROUNDS {
                    for (k, &imp) in forms.iter().enumerate() {
                        assert!(one(skeleton, imp, d) == want[k], "Skeleton {imp} thread {t} round {round}: differs");
                    }
                }
            });
        }
    });
    eprintln!(
        "skeleton_methods_from_eight_threads: 4 methods x {} forms x {THREADS} threads x {ROUNDS} rounds, bit for bit",
        forms.len()
    );
}

/// Threads with different test-hook machines at once: each sees its own
/// `forms()` and gets its own `Auto` results, never another thread's.
#[cfg(feature = "std")]
mod machines {
    use super::*;
    use animasm::test_hooks::{Machine, with_machine};

    fn machines() -> [Machine; 4] {
        [Machine::REAL, Machine::BASELINE, Machine::SCALAR_TARGET, Machine::REAL.hiding(&["fma"])]
    }

    /// What a thread on `m` sees of `R`: its forms and the bits of `Auto`
    /// and of every form on `R`'s data for count `n` (an `Err` as no bits).
    fn seen<R: Routine>(m: Machine, init: &[R::Out], input: &R::In) -> (Vec<Impl>, Vec<Result<Vec<u32>, Error>>) {
        with_machine(m, || {
            let all = [Impl::Auto].into_iter().chain(Impl::ALL);
            (R::forms(), all.map(|imp| run::<R>(imp, init, input).map(|o| out_bits(&o))).collect())
        })
    }

    fn mixed<R: Routine>() -> usize
    where
        R::In: Sync,
        R::Out: Sync,
    {
        let (init, input) = R::inputs(0x111, 37);
        let machines = machines();
        let reference: Vec<_> = machines.iter().map(|&m| seen::<R>(m, &init, &input)).collect();
        // The machines differ for this routine (else the test shows nothing;
        // `slerp_stream` has only its scalar form).
        if R::NAME != "slerp_stream" {
            assert_ne!(reference[0].0, reference[2].0, "{}: real and scalar target alike", R::NAME);
        }
        let barrier = Barrier::new(THREADS);
        std::thread::scope(|s| {
            for t in 0..THREADS {
                let (m, want) = (machines[t % machines.len()], &reference[t % machines.len()]);
                let (init, input, barrier) = (&init, &input, &barrier);
                s.spawn(move || {
                    barrier.wait();
                    for round in 0..ROUNDS / 3 {
                        assert!(&seen::<R>(m, init, input) == want, "{} {m:?} thread {t} round {round}", R::NAME);
                    }
                });
            }
        });
        THREADS * (ROUNDS / 3) * 7
    }

    #[test]
    fn machines_differ_per_thread_at_the_same_time() {
        let runs: [fn() -> usize; 14] = [
            mixed::<SlerpJoints>,
            mixed::<LerpJoints>,
            mixed::<QuatsToMats>,
            mixed::<MatsToQuats>,
            mixed::<TransformSkeleton>,
            mixed::<TransformSkeletonMovssShufps>,
            mixed::<UntransformSkeleton>,
            mixed::<TransformJoints>,
            mixed::<SlerpQuatsAsPublished>,
            mixed::<SlerpQuatsCorrected>,
            mixed::<Nlerp>,
            mixed::<Fnlerp>,
            mixed::<Onlerp>,
            mixed::<SlerpStream>,
        ];
        let total: usize = runs.iter().map(|f| f()).sum();
        eprintln!(
            "machines_differ_per_thread_at_the_same_time: 14 functions, {THREADS} threads on {} machines, {total} calls",
            machines().len()
        );
    }
}
