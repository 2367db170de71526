//! The examples' code paths on every CPU the dispatch layer can be made to
//! see (`animasm::test_hooks`): the pose pipeline (`devkit::pipeline`, what
//! `examples/pose.rs` and the report's pose section run) and the glTF
//! example's library functions (`examples/gltf_skin.rs`: `sample_at`,
//! `Resampled`) on the bundled `data/Fox.glb`, each on
//!
//! - the real CPU, no hook (AVX-512 on an AVX-512 machine: there the
//!   pipeline's `avx512` row runs `transform_skeleton` in its
//!   `Deterministic` form, which has no `Avx512` form);
//! - AVX2 and FMA only (AVX-512 hidden);
//! - the baseline (every detected feature hidden: SSE2 on `x86_64`);
//! - a target without SIMD forms (only the portable forms exist).
//!
//! Each must complete, agree with the f64 reference within the pose
//! tests' bound (`tests/pose.rs`, `tests/gltf_example.rs`), offer and run
//! only forms that CPU runs, and the successors' one answer must hold
//! across them: the `deterministic` pipeline gives the same bits on every
//! simulated CPU, and a pipeline whose routine runs a substitute gives the
//! bits of the pipeline it substitutes. A hook can only hide, so a CPU
//! without AVX-512 (or AVX2) runs less under "no hook" and says so with a
//! `SKIPPED` line.
//!
//! The hooks need the `std` feature: without it the file says `SKIPPED`.

#[cfg(feature = "std")]
#[path = "../examples/gltf_skin.rs"]
mod example;

#[path = "common/cpu.rs"]
mod cpu;

#[cfg(not(feature = "std"))]
#[test]
fn hooks_need_std() {
    cpu::skipped("tests/every_cpu.rs: the dispatch test hooks need the `std` feature");
}

#[cfg(feature = "std")]
mod hooked {
    use super::{cpu, example};
    use animasm::Impl;
    use animasm::test_hooks::{Machine, with_machine};
    use devkit::pipeline::{self, Animation, Convention, Forms};

    /// The pose pipeline's bound (`tests/pose.rs`): 1e-5 of the model's size.
    const PIPELINE_BOUND: f64 = 1e-5;
    /// The glTF example's bound (`tests/gltf_example.rs`): 1e-6 of the model's
    /// size.
    const EXAMPLE_BOUND: f64 = 1e-6;

    const FOX: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/Fox.glb");

    const AVX512: [&str; 4] = ["avx512f", "avx512vl", "avx512dq", "avx512bw"];

    /// The simulated CPUs, named.
    fn machines() -> [(&'static str, Machine); 4] {
        [
            ("no hook (this CPU)", Machine::REAL),
            ("AVX2 and FMA only", Machine::REAL.hiding(&AVX512)),
            ("baseline (SSE2 on x86_64)", Machine::BASELINE),
            ("no SIMD forms (portable only)", Machine::SCALAR_TARGET),
        ]
    }

    /// Says what the real CPU lacks, so that the "no hook" and "AVX2 and FMA
    /// only" cases are known to run less than their names say.
    fn say_what_this_cpu_lacks() {
        if !cfg!(target_arch = "x86_64") {
            cpu::skipped("every_cpu: not x86_64: the AVX-512 and AVX2 cases run the target's own forms");
        } else if !cpu::cpu_has(&AVX512) {
            cpu::skipped("every_cpu: this CPU has no AVX-512: the \"no hook\" case runs no avx512 form");
        }
        if cfg!(target_arch = "x86_64") && !cpu::cpu_has(&["avx2", "fma"]) {
            cpu::skipped("every_cpu: this CPU has no AVX2 and FMA: the \"AVX2 and FMA only\" case runs the baseline");
        }
    }

    /// Every third check time and the last: every kind of time, few poses.
    fn some_times(anim: &Animation) -> Vec<f32> {
        let all = anim.check_times();
        let mut t: Vec<f32> = all.iter().step_by(3).copied().collect();
        t.push(*all.last().unwrap());
        t
    }

    /// The forms a machine may run: what the hooks leave visible.
    fn allowed(machine: Machine, imp: Impl) -> bool {
        match imp {
            Impl::Avx512 => !machine.scalar_target() && AVX512.iter().all(|f| machine.shows(f)),
            Impl::Avx2 => !machine.scalar_target() && machine.shows("avx2") && machine.shows("fma"),
            Impl::Avx2NoFma => !machine.scalar_target() && machine.shows("avx2"),
            Impl::Scalar | Impl::Portable => true,
            _ => !machine.scalar_target(),
        }
    }

    /// The pose pipeline under `machine` on every animation of the Fox: every
    /// form it offers there, `deterministic`, and `measure` (the example's and
    /// the report's call) with one round; returns the `deterministic`
    /// pipeline's skinning matrices at `some_times`, as bits, per animation.
    fn pose_pipeline(name: &str, machine: Machine) -> Vec<Vec<u32>> {
        let mut deterministic = Vec::new();
        for a in 0..pipeline::animation_count(pipeline::DEFAULT_PATH).unwrap() {
            let anim = pipeline::load_animation(pipeline::DEFAULT_PATH, a).unwrap();
            let times = some_times(&anim);
            let offered = Forms::available();
            assert_eq!(offered.last(), Some(&Impl::Auto), "{name}");
            for imp in offered.iter().copied().chain([Impl::Deterministic]) {
                let forms = Forms::resolve(imp).unwrap_or_else(|e| panic!("{name}: {imp}: {e}"));
                for (routine, run) in pipeline::ROUTINES.iter().zip(forms.runs) {
                    assert!(allowed(machine, run), "{name}: pipeline {imp}: {routine} runs {run}");
                }
                if !matches!(imp, Impl::Auto | Impl::Deterministic) {
                    // A substitute is the routine's nearest form, said in the note.
                    let subs = forms.substituted();
                    assert_eq!(forms.note().is_some(), !subs.is_empty(), "{name}: {imp}: {:?}", forms.note());
                    for (routine, run) in subs {
                        assert!(forms.note().unwrap().contains(routine), "{name}: {imp}");
                        assert!(run != imp, "{name}: {imp}: {routine}");
                    }
                }
                let e = pipeline::forms_error(&anim, &forms, Convention::Conjugate, &times).unwrap();
                assert!(e <= PIPELINE_BOUND, "{name}: {} {imp}: error {e:e} > {PIPELINE_BOUND:e}", anim.name);
            }
            // The one answer: a pipeline with a successor's substitute gives
            // the bits of the pipeline of its substitutes' form.
            let bits = |imp| -> Vec<u32> {
                times
                    .iter()
                    .flat_map(|&t| pipeline::pipeline(imp, &anim, t).unwrap().into_iter().flatten().map(f32::to_bits))
                    .collect()
            };
            let det = bits(Impl::Deterministic);
            for imp in offered.iter().copied().filter(|&i| matches!(i, Impl::Portable | Impl::Avx2 | Impl::Avx512)) {
                assert!(bits(imp) == det, "{name}: {} {imp}: not the deterministic pipeline's bits", anim.name);
            }
            deterministic.push(det);
            // The example's and the report's call, one timing round.
            let rows = pipeline::measure(&anim, &times, &anim.timing_times(4), 1).unwrap();
            assert_eq!(rows.len(), offered.len() + 1, "{name}: one row per form and glam");
            for r in &rows {
                assert!(r.max_error <= PIPELINE_BOUND, "{name}: {} {}: {:e}", anim.name, r.name, r.max_error);
                assert!(r.ns_per_pose > 0.0, "{name}: {}: {} ns", anim.name, r.ns_per_pose);
            }
        }
        deterministic
    }

    #[test]
    fn the_pose_pipeline_runs_on_every_cpu() {
        say_what_this_cpu_lacks();
        let mut answers = Vec::new();
        for (name, machine) in machines() {
            answers.push((name, with_machine(machine, || pose_pipeline(name, machine))));
        }
        for (name, bits) in &answers[1..] {
            assert!(
                *bits == answers[0].1,
                "the deterministic pipeline gives other bits on {name} than on {}",
                answers[0].0
            );
        }
    }

    #[test]
    fn an_avx512_pipeline_exists_only_where_avx512_runs() {
        for (name, machine) in machines() {
            with_machine(machine, || {
                let offered = Forms::available();
                assert_eq!(offered.contains(&Impl::Avx512), allowed(machine, Impl::Avx512) && avx512_here(), "{name}");
                match Forms::resolve(Impl::Avx512) {
                    Ok(forms) => {
                        // transform_skeleton has no Avx512 form: its nearest,
                        // the fastest successor here.
                        assert_eq!(forms.called[2], Impl::Deterministic, "{name}");
                        assert_eq!(forms.runs[2], Impl::Avx2, "{name}");
                        assert_eq!(forms.runs[0], Impl::Avx512, "{name}");
                        assert!(forms.note().unwrap().contains("transform_skeleton"), "{name}");
                    }
                    Err(e) => {
                        assert!(!offered.contains(&Impl::Avx512), "{name}: {e}");
                        let anim = pipeline::load_animation(pipeline::DEFAULT_PATH, 0).unwrap();
                        assert!(pipeline::pipeline(Impl::Avx512, &anim, 0.5).is_err(), "{name}");
                    }
                }
            });
        }
    }

    /// Whether the build and the CPU run the AVX-512 forms.
    fn avx512_here() -> bool {
        cfg!(target_arch = "x86_64") && cpu::cpu_has(&AVX512)
    }

    /// The glTF example's `sample_at` and `Resampled` under `machine`, every
    /// animation of the Fox, against the pipeline's f64 reference (the skin
    /// joints' model matrices).
    fn gltf_example(name: &str, doc: &gltf::Document, bufs: &[gltf::buffer::Data]) {
        for a in 0..doc.animations().count() {
            let anim = pipeline::load_animation(FOX, a).unwrap();
            let resampled = example::Resampled::load(doc, bufs, a, 30.0).unwrap();
            for t in some_times(&anim) {
                let want = pipeline::model_f64(&anim, f64::from(t));
                let model = example::sample_at(doc, bufs, a, t).unwrap();
                let got: Vec<[f32; 12]> = anim.nodes.iter().map(|&n| model[n].mat).collect();
                let e = animasm_testkit::error::pose_error(&got, &want, anim.size);
                assert!(e <= EXAMPLE_BOUND, "{name}: {} at {t}: sample_at error {e:e} > {EXAMPLE_BOUND:e}", anim.name);
            }
            // At its frames' times the resampled clip is the exact sample.
            for k in (0..=(resampled.duration() * 30.0).round() as usize).step_by(7) {
                let t = k as f32 / 30.0;
                let want = pipeline::model_f64(&anim, f64::from(t));
                let model = resampled.pose_at(t).unwrap();
                let got: Vec<[f32; 12]> = anim.nodes.iter().map(|&n| model[n].mat).collect();
                let e = animasm_testkit::error::pose_error(&got, &want, anim.size);
                assert!(
                    e <= EXAMPLE_BOUND,
                    "{name}: {} frame {k}: Resampled error {e:e} > {EXAMPLE_BOUND:e}",
                    anim.name
                );
            }
        }
    }

    #[test]
    fn the_gltf_example_runs_on_every_cpu() {
        say_what_this_cpu_lacks();
        let (doc, bufs, _) = gltf::import(FOX).unwrap();
        for (name, machine) in machines() {
            with_machine(machine, || gltf_example(name, &doc, &bufs));
        }
    }
}
