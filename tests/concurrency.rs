//! Concurrency: every safe function of `animasm::roster` (and the
//! `Skeleton` methods) from eight threads at once, each on its own data,
//! with `Impl::Auto` and every form the roster runs here, compared bit for
//! bit with single-threaded runs of the same inputs; threads that narrow the
//! dispatch layer with different test-hook machines at the same time (the
//! hook is per thread); and compile-time checks that the public types are
//! `Send + Sync`. The routines are taken shape by shape
//! (`common::shapes::for_each_shape`): each shape's inputs are built once
//! and every routine of it runs on them through its safe function.
//!
//! The kernels keep their scratch on the stack and share only read-only
//! constant tables; the dispatch layer's CPU detection is cached by `std`
//! (`is_x86_feature_detected!`), and the test hook lives in a thread-local.

mod common;

use std::sync::Barrier;

use animasm::roster::{self, Routine};
use animasm::{Error, Impl, JointMat, JointQuat, Quat, Skeleton, Vec4};

use common::harness::out_bits;
use common::inputs::{Rng, forest_parents, joint_lists, relabel, rigid_mats};
use common::shapes::{ShapeFn, ShapeKind, for_each_shape, run};

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

/// `Auto` and every form of `r` that runs here.
fn imps(r: &Routine) -> Vec<Impl> {
    let mut v = vec![Impl::Auto];
    v.extend(r.forms().map(|f| f.imp));
    assert!(v.len() >= 2, "{}: no form to run", r.name);
    v
}

/// Every routine of a shape from [`THREADS`] threads at once, one routine
/// after another on the shape's data (built once per shape); counts the
/// routines and the calls.
#[derive(Default)]
struct EightThreads {
    routines: usize,
    calls: usize,
}

impl ShapeFn for EightThreads {
    fn call<S: ShapeKind>(&mut self, routines: &[(&'static Routine, S::Safe)]) {
        let data: Vec<_> = (0..THREADS).map(|t| S::inputs(0xc0c0 ^ t as u64, count(t))).collect();
        for &(r, safe) in routines {
            let imps = imps(r);
            // Single-threaded reference: thread t's data with every form.
            let reference: Vec<Vec<Vec<u32>>> = data
                .iter()
                .map(|(init, input)| {
                    imps.iter().map(|&imp| out_bits(&run::<S>(safe, imp, init, input).unwrap())).collect()
                })
                .collect();
            let barrier = Barrier::new(THREADS);
            std::thread::scope(|s| {
                for (t, ((init, input), want)) in data.iter().zip(&reference).enumerate() {
                    let (imps, barrier) = (&imps, &barrier);
                    s.spawn(move || {
                        barrier.wait();
                        for round in 0..ROUNDS {
                            for (k, &imp) in imps.iter().enumerate() {
                                let out = run::<S>(safe, imp, init, input).unwrap();
                                assert!(
                                    out_bits(&out) == want[k],
                                    "{} {imp} thread {t} round {round}: differs",
                                    r.name
                                );
                            }
                        }
                    });
                }
            });
            let calls = THREADS * ROUNDS * imps.len();
            assert!(calls > 0, "{}", r.name);
            self.routines += 1;
            self.calls += calls;
        }
    }
}

/// Every routine of the roster, with `Auto` and every form it runs here.
#[test]
#[cfg_attr(target_family = "wasm", ignore = "wasm32-wasip1 has no threads")]
fn every_safe_function_from_eight_threads() {
    let mut runs = EightThreads::default();
    for_each_shape(roster::ROUTINES, &mut runs);
    assert_eq!(runs.routines, roster::ROUTINES.len(), "every routine of the roster");
    eprintln!(
        "every_safe_function_from_eight_threads: {} functions, {THREADS} threads x {ROUNDS} rounds, {} calls, \
         all bit for bit as single-threaded",
        runs.routines, runs.calls
    );
}

/// Every `Skeleton` method that takes an `Impl`, from eight threads that
/// share one `Skeleton` each pair (`&Skeleton` across threads: `Sync`).
#[test]
#[cfg_attr(target_family = "wasm", ignore = "wasm32-wasip1 has no threads")]
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

    /// What a thread on `m` sees of `r` (of shape `S`): its forms and the
    /// bits of `Auto` and of every `Impl` on its data (an `Err` as no bits).
    fn seen<S: ShapeKind>(
        r: &Routine,
        safe: S::Safe,
        m: Machine,
        init: &[S::Out],
        input: &S::In,
    ) -> (Vec<Impl>, Vec<Result<Vec<u32>, Error>>) {
        with_machine(m, || {
            let all = [Impl::Auto].into_iter().chain(Impl::ALL);
            let forms = r.forms().map(|f| f.imp).collect();
            (forms, all.map(|imp| run::<S>(safe, imp, init, input).map(|o| out_bits(&o))).collect())
        })
    }

    /// Every routine of a shape from threads on different machines at once,
    /// on the shape's data (built once per shape); counts the routines and
    /// the calls.
    #[derive(Default)]
    struct Mixed {
        routines: usize,
        calls: usize,
    }

    impl ShapeFn for Mixed {
        fn call<S: ShapeKind>(&mut self, routines: &[(&'static Routine, S::Safe)]) {
            let (init, input) = S::inputs(0x111, 37);
            let machines = machines();
            for &(r, safe) in routines {
                let reference: Vec<_> = machines.iter().map(|&m| seen::<S>(r, safe, m, &init, &input)).collect();
                // The machines differ for a routine with a form besides the
                // scalar one here (else the test shows nothing).
                if r.forms().count() > 1 {
                    assert_ne!(reference[0].0, reference[2].0, "{}: real and scalar target alike", r.name);
                }
                let barrier = Barrier::new(THREADS);
                std::thread::scope(|s| {
                    for t in 0..THREADS {
                        let (m, want) = (machines[t % machines.len()], &reference[t % machines.len()]);
                        let (init, input, barrier) = (&init, &input, &barrier);
                        s.spawn(move || {
                            barrier.wait();
                            for round in 0..ROUNDS / 3 {
                                let got = seen::<S>(r, safe, m, init, input);
                                assert!(&got == want, "{} {m:?} thread {t} round {round}", r.name);
                            }
                        });
                    }
                });
                self.routines += 1;
                self.calls += THREADS * (ROUNDS / 3) * 7;
            }
        }
    }

    /// Every routine of the roster.
    #[test]
    #[cfg_attr(target_family = "wasm", ignore = "wasm32-wasip1 has no threads")]
    fn machines_differ_per_thread_at_the_same_time() {
        let mut runs = Mixed::default();
        for_each_shape(roster::ROUTINES, &mut runs);
        assert_eq!(runs.routines, roster::ROUTINES.len(), "every routine of the roster");
        eprintln!(
            "machines_differ_per_thread_at_the_same_time: {} functions, {THREADS} threads on {} machines, {} calls",
            runs.routines,
            machines().len(),
            runs.calls
        );
    }
}
