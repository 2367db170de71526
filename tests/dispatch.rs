//! Every path on every machine: with the dispatch layer's test hook
//! (`animasm::test_hooks::with_machine`), every safe function and every
//! `Impl` on a simulated scalar-only target (`Error::Unsupported`), on the
//! `x86_64` baseline (`Error::MissingCpuFeature`, with the exact `needs`)
//! and under partial masks (AVX2 without FMA, no AVX), with nothing written
//! on `Err` and the forms that run agreeing with the scalar port; the
//! `Skeleton` methods too.
//!
//! The expected tables below are written out from the routines' kernel
//! tables (`src/<routine>/mod.rs`), not read from `forms()`: the tests check
//! `forms()`, `resolve()` and the safe functions against them.
//!
//! The hook needs the `std` feature; without it, one test says so.

mod common;

#[cfg(feature = "std")]
mod hooked {
    use std::collections::BTreeMap;

    use animasm::isa::Detection;
    use animasm::roster::{self, Routine};
    use animasm::test_hooks::{Machine, with_machine};
    use animasm::{Error, Impl, Isa, JointMat, JointQuat, Origin, Skeleton};

    use crate::common::harness::{max_diff, out_bits};
    use crate::common::inputs::{Rng, joint_lists, rigid_mats};
    use crate::common::shapes::{ShapeFn, ShapeKind, for_each_shape, run};

    /// A form of a routine's table and its instruction set (which says where
    /// the form is compiled and what `MissingCpuFeature` must report).
    type Row = (Impl, Isa);

    /// The seven id Software routines.
    const ID: &[Row] = &[
        (Impl::Neon, Isa::Neon),
        (Impl::Simd128, Isa::Simd128),
        (Impl::Avx2, Isa::Avx2Fma),
        (Impl::Intrinsics, Isa::Sse2),
        (Impl::Asm, Isa::Sse2),
        (Impl::Portable, Isa::Portable),
        (Impl::Scalar, Isa::Portable),
    ];
    /// `slerp_joints`, `quats_to_mats`, `mats_to_quats` and
    /// `transform_joints`: the id routines' forms and their AVX-512
    /// successors (first: the fastest on the Intel Xeon measured).
    const ID512: &[Row] = &[
        (Impl::Neon, Isa::Neon),
        (Impl::Simd128, Isa::Simd128),
        (Impl::Avx512, Isa::Avx512),
        (Impl::Avx2, Isa::Avx2Fma),
        (Impl::Intrinsics, Isa::Sse2),
        (Impl::Asm, Isa::Sse2),
        (Impl::Portable, Isa::Portable),
        (Impl::Scalar, Isa::Portable),
    ];
    /// `lerp_joints`: the id routine's forms and the AVX-512 successor
    /// (after `Avx2`, as measured).
    const JOINTS: &[Row] = &[
        (Impl::Neon, Isa::Neon),
        (Impl::Simd128, Isa::Simd128),
        (Impl::Avx2, Isa::Avx2Fma),
        (Impl::Avx512, Isa::Avx512),
        (Impl::Intrinsics, Isa::Sse2),
        (Impl::Asm, Isa::Sse2),
        (Impl::Portable, Isa::Portable),
        (Impl::Scalar, Isa::Portable),
    ];
    /// `transform_skeleton_movss_shufps`: no successor.
    const MOVSS: &[Row] = &[(Impl::Asm, Isa::Sse2), (Impl::Intrinsics, Isa::Sse2), (Impl::Scalar, Isa::Portable)];
    /// `slerp_quats_corrected`.
    const CORRECTED: &[Row] =
        &[(Impl::Intrinsics, Isa::Avx), (Impl::Asm, Isa::Avx), (Impl::Sse2, Isa::Sse2), (Impl::Scalar, Isa::Portable)];
    /// `slerp_quats_as_published`.
    const PUBLISHED: &[Row] = &[(Impl::Intrinsics, Isa::Avx), (Impl::Asm, Isa::Avx), (Impl::Scalar, Isa::Portable)];
    /// `nlerp`, `fnlerp`, `onlerp`.
    const NLERP: &[Row] = &[
        (Impl::Neon, Isa::Neon),
        (Impl::Simd128, Isa::Simd128),
        (Impl::Avx512, Isa::Avx512),
        (Impl::Avx2, Isa::Avx2Fma),
        (Impl::Avx2NoFma, Isa::Avx2),
        (Impl::Sse2, Isa::Sse2),
        (Impl::Scalar, Isa::Portable),
    ];
    /// `slerp_stream`.
    const SCALAR_ONLY: &[Row] = &[(Impl::Scalar, Isa::Portable)];
    /// `slerp_pose` and `lerp_pose`: the forms their four routines share
    /// (`Avx512` and `Avx2` fused, `Avx512` first: it was faster).
    const POSE: &[Row] = &[
        (Impl::Neon, Isa::Neon),
        (Impl::Simd128, Isa::Simd128),
        (Impl::Avx512, Isa::Avx512),
        (Impl::Avx2, Isa::Avx2Fma),
        (Impl::Asm, Isa::Sse2),
        (Impl::Intrinsics, Isa::Sse2),
        (Impl::Portable, Isa::Portable),
        (Impl::Scalar, Isa::Portable),
    ];

    /// Every `Impl`, the selectors `Auto` and `Deterministic` included.
    const EVERY_IMPL: [Impl; 12] = [
        Impl::Auto,
        Impl::Deterministic,
        Impl::Scalar,
        Impl::Portable,
        Impl::Intrinsics,
        Impl::Asm,
        Impl::Sse2,
        Impl::Avx2NoFma,
        Impl::Avx2,
        Impl::Avx512,
        Impl::Neon,
        Impl::Simd128,
    ];

    /// AVX and AVX2 visible, FMA hidden.
    fn avx2_no_fma() -> Machine {
        // AVX-512 hidden too: no CPU with AVX-512 lacks FMA (and the nlerp
        // family's `Avx512` form would otherwise come before `Avx2NoFma`).
        Machine::REAL.hiding(&["fma", "avx512f"])
    }
    /// AVX hidden, AVX2 and FMA visible (what the hook can do, not a real
    /// CPU): only the forms that need AVX itself go.
    fn no_avx() -> Machine {
        Machine::REAL.hiding(&["avx"])
    }

    /// What a call with `imp` must give on `machine`.
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum Want {
        Runs,
        Unsupported,
        Missing(&'static str),
    }

    /// Whether the real CPU has the instruction set and `machine` shows it:
    /// the baselines always, a compile-time one where this build has it, a
    /// run-time one where the CPU has every feature and the hook shows it.
    fn visible(isa: Isa, m: Machine) -> bool {
        match isa.detection() {
            Detection::Baseline => true,
            Detection::CompileTime => isa.on_target(),
            _ => isa.on_target() && isa.features().iter().all(|&f| m.shows(f) && crate::common::cpu_has(&[f])),
        }
    }

    /// Whether the row exists in this build: where its instruction set is
    /// on the target (`Isa::on_target`), but `Asm`, which is compiled out
    /// under Miri.
    fn compiled(&(imp, isa): &Row) -> bool {
        isa.on_target() && !(imp == Impl::Asm && cfg!(miri))
    }

    fn want(table: &[Row], imp: Impl, m: Machine) -> Want {
        if imp == Impl::Auto {
            return Want::Runs;
        }
        if imp == Impl::Deterministic {
            // Every routine with successors has the portable one.
            return if table.iter().any(|r| r.0 == Impl::Portable) { Want::Runs } else { Want::Unsupported };
        }
        match table.iter().find(|r| r.0 == imp) {
            Some(row) if !compiled(row) || (m.scalar_target() && row.1 != Isa::Portable) => Want::Unsupported,
            None => Want::Unsupported,
            Some(&(_, isa)) if !visible(isa, m) => Want::Missing(isa.needs()),
            Some(_) => Want::Runs,
        }
    }

    /// The forms of `table` that run on `m`, as a sorted list.
    fn runnable(table: &[Row], m: Machine) -> Vec<Impl> {
        let mut v: Vec<Impl> = table.iter().map(|r| r.0).filter(|&i| want(table, i, m) == Want::Runs).collect();
        v.sort_by_key(|i| i.name());
        v
    }

    /// Outcomes counted per kind, for the printed summary.
    #[derive(Default)]
    struct Tally {
        by_kind: BTreeMap<&'static str, usize>,
        routines: usize,
    }

    impl Tally {
        fn add(&mut self, w: Want) {
            let kind = match w {
                Want::Runs => "ran",
                Want::Unsupported => "Unsupported",
                Want::Missing(_) => "MissingCpuFeature",
            };
            *self.by_kind.entry(kind).or_default() += 1;
        }
        fn count(&self, kind: &str) -> usize {
            self.by_kind.get(kind).copied().unwrap_or(0)
        }
        fn print(&self, test: &str, machine: &str) {
            let total: usize = self.by_kind.values().sum();
            eprintln!("{test} ({machine}): {} routines x 11 Impls = {total} calls: {:?}", self.routines, self.by_kind);
        }
    }

    /// One routine on `m`: every `Impl` against its expected outcome,
    /// `forms()` against the table, nothing written on `Err`, the forms that
    /// run bit for bit what they give without the hook (the hook changes
    /// which form runs, never what a form computes; each form's distance
    /// from the scalar port is bounded in the routine's own test file), and
    /// `Auto` and `Scalar` on a scalar target bit for bit the scalar port.
    fn check<S: ShapeKind>(r: &Routine, safe: S::Safe, table: &[Row], m: Machine, tally: &mut Tally) {
        let n = 9;
        let (init, input) = S::inputs(0xd15, n);
        let scalar = run::<S>(safe, Impl::Scalar, &init, &input).unwrap();
        // A write would show: the scalar result is not the initial contents.
        assert_ne!(out_bits(&scalar), out_bits(&init), "{}: the check could not see a write", r.name);
        let unhooked: Vec<(Impl, Vec<u32>)> =
            r.forms().map(|f| (f.imp, out_bits(&run::<S>(safe, f.imp, &init, &input).unwrap()))).collect();
        with_machine(m, || {
            let mut forms: Vec<Impl> = r.forms().map(|f| f.imp).collect();
            forms.sort_by_key(|i| i.name());
            assert_eq!(forms, runnable(table, m), "{}: forms() on {m:?}", r.name);
            for imp in EVERY_IMPL {
                let w = want(table, imp, m);
                tally.add(w);
                let mut out = S::buf(&init);
                let got = S::call(safe, imp, &mut out, &input);
                let ctx = format!("{} {imp} on {m:?}", r.name);
                match w {
                    Want::Runs => {
                        assert_eq!(got, Ok(()), "{ctx}");
                        let resolved = r.resolve(imp).unwrap_or_else(|e| panic!("{ctx}: resolve: {e:?}")).imp;
                        assert!(runnable(table, m).contains(&resolved), "{ctx}: resolves to {resolved}");
                        if imp == Impl::Deterministic {
                            assert_eq!(origin_of(r, resolved), Origin::Successor, "{ctx}: resolves to {resolved}");
                        }
                        // Not under Miri: it randomises `rsqrtps` and C math
                        // on every call (two scalar runs differ there).
                        if cfg!(miri) {
                        } else if m.scalar_target() && resolved == Impl::Scalar {
                            assert_eq!(out_bits(&out), out_bits(&scalar), "{ctx}: not the scalar result");
                        } else {
                            let (_, want) = unhooked
                                .iter()
                                .find(|(f, _)| *f == resolved)
                                .unwrap_or_else(|| panic!("{ctx}: {resolved} does not run without the hook"));
                            assert!(out_bits(&out) == *want, "{ctx}: not what {resolved} gives without the hook");
                        }
                    }
                    Want::Unsupported | Want::Missing(_) => {
                        let e = match w {
                            Want::Missing(needs) => Error::MissingCpuFeature { needs },
                            _ => Error::Unsupported(imp),
                        };
                        assert_eq!(got, Err(e), "{ctx}");
                        assert_eq!(r.resolve(imp).map(|f| f.imp), Err(e), "{ctx}: resolve");
                        assert_eq!(out_bits(&out), out_bits(&init), "{ctx}: written on Err");
                    }
                }
            }
        });
        tally.routines += 1;
    }

    /// [`check`] for a routine of any shape.
    struct Check<'a> {
        table: &'static [Row],
        m: Machine,
        tally: &'a mut Tally,
    }

    impl ShapeFn for Check<'_> {
        fn call<S: ShapeKind>(&mut self, routines: &[(&'static Routine, S::Safe)]) {
            for &(r, safe) in routines {
                check::<S>(r, safe, self.table, self.m, self.tally);
            }
        }
    }

    /// Every safe function with its table.
    fn routines() -> Vec<(&'static str, &'static [Row])> {
        vec![
            ("slerp_joints", ID512),
            ("lerp_joints", JOINTS),
            ("quats_to_mats", ID512),
            ("mats_to_quats", ID512),
            ("transform_skeleton", ID),
            ("transform_skeleton_movss_shufps", MOVSS),
            ("untransform_skeleton", ID),
            ("transform_joints", ID512),
            ("slerp_quats_as_published", PUBLISHED),
            ("slerp_quats_corrected", CORRECTED),
            ("nlerp", NLERP),
            ("fnlerp", NLERP),
            ("onlerp", NLERP),
            ("slerp_stream", SCALAR_ONLY),
            ("slerp_pose", POSE),
            ("lerp_pose", POSE),
        ]
    }

    /// The origin this table says a form has: the paper's C, the listing
    /// and its twin, the id routines' successors (and those of the
    /// composites, `slerp_pose` and `lerp_pose`, which chain them; not id
    /// routines themselves), published code otherwise.
    fn origin_of(r: &Routine, imp: Impl) -> Origin {
        match imp {
            Impl::Scalar => Origin::PaperC,
            Impl::Asm => Origin::Listing,
            Impl::Intrinsics => Origin::ListingTwin,
            Impl::Portable | Impl::Avx2 | Impl::Avx512 | Impl::Neon | Impl::Simd128
                if r.is_id_routine() || r.is_composite() =>
            {
                Origin::Successor
            }
            Impl::Avx512 => Origin::Widened,
            _ => Origin::Published,
        }
    }

    /// The roster holds exactly the routines of this table, in its order,
    /// each with exactly the forms of its table compiled here (the scalar
    /// form last), each form with the origin and the instruction set (its
    /// CPU features) this table gives it; the seven id routines are those
    /// with a successor, the composites aside (the two pose routines, whose
    /// successors chain the id routines').
    #[test]
    fn the_roster_is_this_table() {
        let names: Vec<&str> = routines().iter().map(|r| r.0).collect();
        let listed: Vec<&str> = roster::ROUTINES.iter().map(|r| r.name).collect();
        assert_eq!(listed, names);
        for (name, table) in routines() {
            let r = roster::find(name).unwrap();
            let mut want: Vec<(Impl, Isa, Origin)> =
                table.iter().filter(|row| compiled(row)).map(|&(imp, isa)| (imp, isa, origin_of(r, imp))).collect();
            let mut got: Vec<(Impl, Isa, Origin)> = r.all_forms().map(|f| (f.imp, f.isa, f.origin)).collect();
            assert_eq!(got.last().map(|f| f.0), Some(Impl::Scalar), "{name}: the scalar form last");
            assert!(r.all_forms().all(|f| f.isa.arch().is_none_or(|a| a == std::env::consts::ARCH)), "{name}");
            want.sort_by_key(|f| f.0.name());
            got.sort_by_key(|f| f.0.name());
            assert_eq!(got, want, "{name}");
        }
        let ids: Vec<&str> = roster::id_routines().map(|r| r.name).collect();
        let (composites, with_successor): (Vec<&str>, Vec<&str>) = roster::ROUTINES
            .iter()
            .filter(|r| r.all_forms().any(|f| f.origin == Origin::Successor))
            .map(|r| r.name)
            .partition(|name| roster::find(name).unwrap().is_composite());
        assert_eq!(ids.len(), 7);
        assert_eq!(ids, with_successor);
        assert_eq!(composites, ["slerp_pose", "lerp_pose"]);
        let all_composites: Vec<&str> = roster::ROUTINES.iter().filter(|r| r.is_composite()).map(|r| r.name).collect();
        assert_eq!(all_composites, composites, "every composite has successors");
    }

    /// `Isa::detected` is what the standard library detects, and the
    /// baselines need nothing.
    #[test]
    fn isa_detection_is_the_standard_librarys() {
        assert!(Isa::Portable.detected());
        assert_eq!(Isa::Sse2.detected(), cfg!(target_arch = "x86_64"));
        assert_eq!(Isa::Neon.detected(), cfg!(target_arch = "aarch64"));
        assert_eq!(Isa::Simd128.detected(), cfg!(all(target_arch = "wasm32", target_feature = "simd128")));
        #[cfg(target_arch = "x86_64")]
        for isa in [Isa::Avx, Isa::Avx2, Isa::Avx2Fma, Isa::Avx512] {
            let std_has = crate::common::cpu_has(isa.features());
            assert_eq!(isa.detected(), std_has, "{}", isa.name());
            // A hook that hides the first feature hides the instruction set.
            with_machine(Machine::REAL.hiding(&isa.features()[..1]), || assert!(!isa.detected(), "{}", isa.name()));
        }
        with_machine(Machine::SCALAR_TARGET, || {
            assert!(Isa::Portable.detected() && !Isa::Sse2.detected() && !Isa::Neon.detected());
        });
        eprintln!(
            "detected here: {:?}",
            Isa::ALL.iter().filter(|i| i.detected()).map(|i| i.name()).collect::<Vec<_>>()
        );
    }

    fn check_all(m: Machine) -> Tally {
        let list = routines();
        assert_eq!(list.len(), 16, "every safe function");
        let mut tally = Tally::default();
        for (name, table) in list {
            assert!(!table.is_empty());
            let r = roster::find(name).unwrap_or_else(|| panic!("{name} is not in animasm::roster"));
            for_each_shape([r], &mut Check { table, m, tally: &mut tally });
        }
        tally
    }

    #[test]
    fn unsupported_for_every_routine_on_a_scalar_target() {
        let tally = check_all(Machine::SCALAR_TARGET);
        tally.print("unsupported_for_every_routine_on_a_scalar_target", "scalar target");
        // 16 routines x every `Impl`: only `Auto` and `Scalar` run, and
        // `Portable` and `Deterministic` (which picks it) of the seven id
        // routines and the two pose routines.
        assert_eq!(tally.count("ran"), 16 * 2 + 9 * 2);
        assert_eq!(tally.count("Unsupported"), 16 * EVERY_IMPL.len() - (16 * 2 + 9 * 2));
        assert_eq!(tally.count("MissingCpuFeature"), 0);
    }

    #[test]
    fn missing_cpu_feature_for_every_routine() {
        let tally = check_all(Machine::BASELINE);
        tally.print("missing_cpu_feature_for_every_routine", "x86_64 baseline");
        if cfg!(target_arch = "x86_64") {
            // Avx2 of the seven id routines and the nlerp three, Avx2NoFma
            // of the nlerp three, Intrinsics (and Asm outside Miri) of the
            // two slerp_quats, and Avx512: the successors of slerp_joints,
            // lerp_joints, quats_to_mats, mats_to_quats and
            // transform_joints and the nlerp three's widened forms; Avx512
            // and Avx2 of the two pose routines.
            let asm = if cfg!(miri) { 0 } else { 2 };
            let avx512 = 5 + 3;
            let pose = 2 * 2;
            assert_eq!(tally.count("MissingCpuFeature"), 7 + 3 + 3 + 2 + asm + avx512 + pose);
        } else {
            crate::common::cpu::skipped(
                "missing_cpu_feature_for_every_routine: not x86_64, every SIMD form is Unsupported here",
            );
        }
        // Under the baseline no listed form needs a feature.
        for (name, table) in routines() {
            with_machine(Machine::BASELINE, || {
                for (imp, isa) in table {
                    if isa.detection() == Detection::RunTime {
                        assert!(!runnable(table, Machine::BASELINE).contains(imp), "{name} {imp}");
                    }
                }
            });
        }
    }

    #[test]
    fn missing_cpu_feature_under_partial_masks() {
        for (m, label) in [(avx2_no_fma(), "AVX2 without FMA"), (no_avx(), "no AVX")] {
            let tally = check_all(m);
            tally.print("missing_cpu_feature_under_partial_masks", label);
        }
        if !cfg!(target_arch = "x86_64") {
            crate::common::cpu::skipped(
                "missing_cpu_feature_under_partial_masks: not x86_64, no form needs a feature here",
            );
            return;
        }
        with_machine(avx2_no_fma(), || {
            let missing = Err(Error::MissingCpuFeature { needs: "avx2 and fma" });
            assert_eq!(animasm::nlerp::resolve(Impl::Avx2), missing);
            assert_eq!(animasm::slerp_joints::resolve(Impl::Avx2), missing);
            if visible(Isa::Avx2, avx2_no_fma()) {
                assert_eq!(animasm::nlerp::resolve(Impl::Avx2NoFma), Ok(Impl::Avx2NoFma));
                assert_eq!(animasm::nlerp::resolve(Impl::Auto), Ok(Impl::Avx2NoFma));
            } else {
                crate::common::cpu::skipped(
                    "missing_cpu_feature_under_partial_masks: this CPU has no AVX2: Avx2NoFma not run",
                );
            }
        });
        with_machine(no_avx(), || {
            let missing = Err(Error::MissingCpuFeature { needs: "avx" });
            assert_eq!(animasm::slerp_quats::resolve(Impl::Intrinsics), missing);
            if compiled(&(Impl::Asm, Isa::Avx)) {
                assert_eq!(animasm::slerp_quats::resolve(Impl::Asm), missing);
            }
            assert!(animasm::slerp_quats::forms().all(|f| f == Impl::Sse2 || f == Impl::Scalar));
            assert!(animasm::slerp_quats::forms_as_published().all(|f| f == Impl::Scalar));
        });
    }

    /// The hook is undone when `with_machine` returns, and a narrower
    /// machine never adds a form.
    #[test]
    fn the_hook_restores_and_only_hides() {
        let real: Vec<Impl> = animasm::nlerp::forms().collect();
        for m in [Machine::SCALAR_TARGET, Machine::BASELINE, avx2_no_fma(), no_avx()] {
            let hidden: Vec<Impl> = with_machine(m, || animasm::nlerp::forms().collect());
            assert!(hidden.iter().all(|f| real.contains(f)), "{m:?}");
            assert_eq!(animasm::nlerp::forms().collect::<Vec<_>>(), real, "{m:?} leaked");
        }
        // Nested: the inner machine, then the outer one again.
        with_machine(Machine::BASELINE, || {
            with_machine(Machine::SCALAR_TARGET, || assert_eq!(animasm::nlerp::forms().count(), 1));
            // The forms nothing is detected for at run time: the baselines
            // (SSE2 on x86_64, NEON on aarch64) and SIMD128, fixed when the
            // crate is built.
            let nlerp = roster::find("nlerp").unwrap();
            assert!(
                animasm::nlerp::forms()
                    .all(|imp| { nlerp.all_forms().any(|f| f.imp == imp && f.isa.detection() != Detection::RunTime) })
            );
        });
    }

    /// A skeleton in no particular order with three roots.
    fn skeleton() -> Skeleton {
        let n = 23;
        let mut rng = Rng::new(0x5e1e);
        let mut parents: Vec<i32> = (0..n).map(|j| if j % 8 == 0 { -1 } else { (j - 1 - (j % 3)).max(0) }).collect();
        // Relabel the joints by a permutation, so the order is not parents-first.
        let mut perm: Vec<usize> = (0..n as usize).collect();
        for i in (1..perm.len()).rev() {
            perm.swap(i, (rng.next_u64() % (i as u64 + 1)) as usize);
        }
        let mut shuffled = vec![0; parents.len()];
        for (j, &p) in parents.iter().enumerate() {
            shuffled[perm[j]] = if p < 0 { -1 } else { perm[p as usize] as i32 };
        }
        parents = shuffled;
        let s = Skeleton::new(&parents).unwrap();
        assert!(!s.is_parents_first() && s.roots().len() == 3);
        s
    }

    /// The `Skeleton` methods that take an `Impl`, on `m`: as the safe
    /// function they call, nothing written on `Err`.
    fn check_skeleton(m: Machine) -> Tally {
        let s = skeleton();
        let n = s.len();
        let mats = rigid_mats(0x3a7, n);
        let (joints, blend, _) = joint_lists(0x3a8, n);
        type MatM = fn(&Skeleton, Impl, &mut [JointMat]) -> Result<(), Error>;
        type JointM = fn(&Skeleton, Impl, &mut [JointQuat], &[JointQuat], f32) -> Result<(), Error>;
        // Each method with the routine it runs, whose table it follows.
        let mat_methods: [(&str, &str, MatM); 2] = [
            ("local_to_model", "transform_skeleton", Skeleton::local_to_model),
            ("model_to_local", "untransform_skeleton", Skeleton::model_to_local),
        ];
        let joint_methods: [(&str, &str, JointM); 2] = [
            ("slerp_joints", "slerp_joints", Skeleton::slerp_joints),
            ("lerp_joints", "lerp_joints", Skeleton::lerp_joints),
        ];
        let table_of =
            |routine: &str| routines().into_iter().find(|r| r.0 == routine).expect("a routine of the table").1;
        let mut tally = Tally::default();
        let mut outcome =
            |name: &str, routine: &str, imp: Impl, got: Result<(), Error>, changed: bool, diff: f64, tol: f64| {
                let w = want(table_of(routine), imp, m);
                tally.add(w);
                let ctx = format!("Skeleton::{name} {imp} on {m:?}");
                match w {
                    // Float results are not compared under Miri (see `check`).
                    Want::Runs => {
                        assert!(got.is_ok() && (cfg!(miri) || diff <= tol), "{ctx}: {got:?}, {diff:e} from scalar")
                    }
                    Want::Unsupported => assert_eq!(got, Err(Error::Unsupported(imp)), "{ctx}"),
                    Want::Missing(needs) => assert_eq!(got, Err(Error::MissingCpuFeature { needs }), "{ctx}"),
                }
                assert!(got.is_ok() || !changed, "{ctx}: written on Err");
            };
        for (name, routine, f) in mat_methods {
            let mut scalar = mats.clone();
            f(&s, Impl::Scalar, &mut scalar).unwrap();
            assert_ne!(out_bits(&scalar), out_bits(&mats), "{name}: the check could not see a write");
            with_machine(m, || {
                for imp in EVERY_IMPL {
                    let mut out = mats.clone();
                    let got = f(&s, imp, &mut out);
                    let changed = out_bits(&out) != out_bits(&mats);
                    outcome(name, routine, imp, got, changed, max_diff(&out, &scalar), 1e-5);
                }
            });
        }
        for (name, routine, f) in joint_methods {
            let mut scalar = joints.clone();
            f(&s, Impl::Scalar, &mut scalar, &blend, 0.37).unwrap();
            assert_ne!(out_bits(&scalar), out_bits(&joints), "{name}: the check could not see a write");
            with_machine(m, || {
                for imp in EVERY_IMPL {
                    let mut out = joints.clone();
                    let got = f(&s, imp, &mut out, &blend, 0.37);
                    let changed = out_bits(&out) != out_bits(&joints);
                    outcome(name, routine, imp, got, changed, max_diff(&out, &scalar), 5e-7);
                }
            });
        }
        tally.routines = mat_methods.len() + joint_methods.len();
        tally
    }

    #[test]
    fn skeleton_methods_unsupported_on_a_scalar_target_and_missing_cpu_feature_on_the_baseline() {
        let t = check_skeleton(Machine::SCALAR_TARGET);
        t.print("Skeleton methods", "scalar target");
        // `Auto`, `Scalar`, `Portable` and `Deterministic` run.
        assert_eq!((t.routines, t.count("ran"), t.count("Unsupported")), (4, 4 * 4, 4 * (EVERY_IMPL.len() - 4)));
        let t = check_skeleton(Machine::BASELINE);
        t.print("Skeleton methods", "x86_64 baseline");
        if cfg!(target_arch = "x86_64") {
            // Avx2 of the four methods, Avx512 of slerp_joints and lerp_joints.
            assert_eq!(t.count("MissingCpuFeature"), 4 + 2, "Avx2 of the four methods, Avx512 of the joint two");
        }
        let t = check_skeleton(Machine::REAL);
        t.print("Skeleton methods", "this CPU");
        assert_eq!(t.count("ran") + t.count("Unsupported") + t.count("MissingCpuFeature"), 4 * EVERY_IMPL.len());
    }

    /// On the real machine the expected tables are what `forms()` says (so
    /// the tables above are the kernel tables, not a guess).
    #[test]
    fn expected_tables_match_this_cpu() {
        let tally = check_all(Machine::REAL);
        tally.print("expected_tables_match_this_cpu", "this CPU");
        assert_eq!(tally.routines, 16);
    }
}

/// `TooLong` for the limits that no other test reaches with a real slice:
/// `joints` of `slerp_joints` / `lerp_joints` (2^27 + 1 joints, 4 GiB),
/// `mats` of `transform_skeleton` and its `movss_shufps` variant (2^25 + 1
/// matrices, 1.5 GiB) and `result` of `slerp_quats_*` (2^31 quaternions, 32
/// GiB). The slices are anonymous mappings with `MAP_NORESERVE`: zero pages
/// that cost memory only where touched. The length check comes before any
/// access, so the test touches only the sentinels it plants (and reads
/// back) at both ends of each slice.
#[cfg(all(target_os = "linux", target_pointer_width = "64", not(miri)))]
mod too_long {
    use core::ffi::c_void;
    use core::marker::PhantomData;

    use animasm::{Error, Impl, JointMat, JointQuat, Quat};

    unsafe extern "C" {
        fn mmap(addr: *mut c_void, len: usize, prot: i32, flags: i32, fd: i32, offset: i64) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> i32;
    }
    const PROT_READ_WRITE: i32 = 1 | 2;
    const MAP_PRIVATE_ANONYMOUS_NORESERVE: i32 = 0x02 | 0x20 | 0x4000;

    /// Types whose all-zero bytes are a valid value (floats only).
    trait Zeroable: Copy {}
    impl Zeroable for Quat {}
    impl Zeroable for JointQuat {}
    impl Zeroable for JointMat {}

    /// `len` zeroed `T`s in a fresh anonymous mapping.
    struct Lazy<T: Zeroable> {
        ptr: *mut T,
        len: usize,
        _t: PhantomData<T>,
    }

    impl<T: Zeroable> Lazy<T> {
        fn new(len: usize) -> Lazy<T> {
            let bytes = len * size_of::<T>();
            // SAFETY: a new private anonymous mapping; no existing memory is
            // affected.
            let p =
                unsafe { mmap(core::ptr::null_mut(), bytes, PROT_READ_WRITE, MAP_PRIVATE_ANONYMOUS_NORESERVE, -1, 0) };
            assert!(p as isize != -1, "mmap of {bytes} bytes failed");
            Lazy { ptr: p.cast(), len, _t: PhantomData }
        }

        fn slice(&mut self) -> &mut [T] {
            // SAFETY: the mapping holds `len` elements, is page-aligned
            // (enough for any `T` here), zero-filled (a valid `T`:
            // `Zeroable`), readable and writable, and owned by `self`, which
            // this borrow keeps borrowed.
            unsafe { core::slice::from_raw_parts_mut(self.ptr, self.len) }
        }
    }

    impl<T: Zeroable> Drop for Lazy<T> {
        fn drop(&mut self) {
            // SAFETY: the mapping made in `new`, with its length; no borrow
            // of it outlives `self`.
            unsafe { munmap(self.ptr.cast(), self.len * size_of::<T>()) };
        }
    }

    /// The bits of the first and last element.
    fn ends<T: Zeroable>(s: &[T], bits: fn(&T) -> Vec<u32>) -> Vec<u32> {
        [bits(&s[0]), bits(&s[s.len() - 1])].concat()
    }

    fn jq_bits(j: &JointQuat) -> Vec<u32> {
        [j.q.to_array(), j.t.to_array()].concat().iter().map(|v| v.to_bits()).collect()
    }

    fn mat_bits(m: &JointMat) -> Vec<u32> {
        m.mat.map(f32::to_bits).to_vec()
    }

    fn quat_bits(q: &Quat) -> Vec<u32> {
        q.to_array().map(f32::to_bits).to_vec()
    }

    const SENTINEL: f32 = 1234.5;

    #[test]
    fn too_long_joints_for_slerp_joints_and_lerp_joints() {
        use animasm::slerp_joints::MAX_JOINTS;
        type F = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;
        let fs: [(&str, F, Vec<Impl>); 2] = [
            ("slerp_joints", animasm::slerp_joints, animasm::slerp_joints::forms().collect()),
            ("lerp_joints", animasm::lerp_joints, animasm::lerp_joints::forms().collect()),
        ];
        let mut joints = Lazy::<JointQuat>::new(MAX_JOINTS + 1);
        let mut blend = Lazy::<JointQuat>::new(MAX_JOINTS + 1);
        let s = JointQuat::new(Quat::new(SENTINEL, 0.0, 0.0, 1.0), animasm::Vec4::new(SENTINEL, 0.0, 0.0, 1.0));
        let j = joints.slice();
        let last = j.len() - 1;
        (j[0], j[last]) = (s, s);
        let before = ends(j, jq_bits);
        let want = Error::TooLong { what: "joints", len: MAX_JOINTS + 1, max: MAX_JOINTS };
        let mut calls = 0;
        for (name, f, forms) in &fs {
            assert!(!forms.is_empty());
            for &imp in forms.iter().chain([&Impl::Auto]) {
                // Every later check would fail too: a short blend, a NaN
                // factor, an index out of range; TooLong comes first.
                for (blend, lerp, index) in [(&[][..], 0.5, &[0][..]), (blend.slice(), f32::NAN, &[-1][..])] {
                    assert_eq!(f(imp, j, blend, lerp, index), Err(want), "{name} {imp}");
                    assert_eq!(ends(j, jq_bits), before, "{name} {imp}: written on Err");
                    calls += 1;
                }
                // One fewer is accepted (nothing indexed: nothing to do).
                assert_eq!(f(imp, &mut j[..MAX_JOINTS], blend.slice(), 0.5, &[]), Ok(()), "{name} {imp}");
            }
        }
        eprintln!("too_long_joints_for_slerp_joints_and_lerp_joints: {calls} calls on 2^27 + 1 joints");
    }

    #[test]
    #[allow(clippy::reversed_empty_ranges)]
    fn too_long_mats_for_transform_skeleton_and_movss_shufps() {
        use animasm::transform_skeleton::MAX_JOINTS;
        type F = fn(Impl, &mut [JointMat], &[i32], core::ops::RangeInclusive<usize>) -> Result<(), Error>;
        let fs: [(&str, F, Vec<Impl>); 2] = [
            ("transform_skeleton", animasm::transform_skeleton, animasm::transform_skeleton::forms().collect()),
            (
                "transform_skeleton_movss_shufps",
                animasm::transform_skeleton_movss_shufps,
                animasm::transform_skeleton::movss_shufps::forms().collect(),
            ),
        ];
        let mut mats = Lazy::<JointMat>::new(MAX_JOINTS + 1);
        let m = mats.slice();
        let last = m.len() - 1;
        m[0].mat[3] = SENTINEL;
        m[last].mat[3] = SENTINEL;
        let before = ends(m, mat_bits);
        let parents: Vec<i32> = (0..9).map(|i| i - 1).collect();
        let want = Error::TooLong { what: "mats", len: MAX_JOINTS + 1, max: MAX_JOINTS };
        let mut calls = 0;
        for (name, f, forms) in &fs {
            assert!(!forms.is_empty());
            for &imp in forms.iter().chain([&Impl::Auto]) {
                // Also an empty range, a range past the end, a root in range.
                for range in [1..=8, 1..=0, last + 5..=last + 9, 0..=8] {
                    assert_eq!(f(imp, m, &parents, range.clone()), Err(want), "{name} {imp} {range:?}");
                    assert_eq!(ends(m, mat_bits), before, "{name} {imp}: written on Err");
                    calls += 1;
                }
                // One fewer is accepted: the range runs (on the first page).
                for range in [1..=8, 9..=8] {
                    assert_eq!(f(imp, &mut m[..MAX_JOINTS], &parents, range.clone()), Ok(()), "{name} {imp} {range:?}");
                }
            }
        }
        eprintln!("too_long_mats_for_transform_skeleton_and_movss_shufps: {calls} calls on 2^25 + 1 matrices");
    }

    #[test]
    fn too_long_result_for_slerp_quats() {
        use animasm::slerp_quats::MAX_QUATS;
        type F = fn(Impl, &mut [Quat], &[Quat], &[Quat], f32) -> Result<(), Error>;
        let fs: [(&str, F, Vec<Impl>); 2] = [
            (
                "slerp_quats_as_published",
                animasm::slerp_quats_as_published,
                animasm::slerp_quats::forms_as_published().collect(),
            ),
            ("slerp_quats_corrected", animasm::slerp_quats_corrected, animasm::slerp_quats::forms().collect()),
        ];
        let mut result = Lazy::<Quat>::new(MAX_QUATS + 1);
        let r = result.slice();
        let last = r.len() - 1;
        (r[0], r[last]) = (Quat::new(SENTINEL, 0.0, 0.0, 1.0), Quat::new(SENTINEL, 0.0, 0.0, 1.0));
        let before = ends(r, quat_bits);
        let want = Error::TooLong { what: "result", len: MAX_QUATS + 1, max: MAX_QUATS };
        let mut calls = 0;
        for (name, f, forms) in &fs {
            assert!(!forms.is_empty());
            for &imp in forms.iter().chain([&Impl::Auto]) {
                // Also short inputs and a NaN factor: TooLong comes first.
                for factor in [0.5, f32::NAN, 0.0, 1.0] {
                    assert_eq!(f(imp, r, &[], &[], factor), Err(want), "{name} {imp}");
                    assert_eq!(ends(r, quat_bits), before, "{name} {imp}: written on Err");
                    calls += 1;
                }
            }
        }
        eprintln!("too_long_result_for_slerp_quats: {calls} calls on 2^31 quaternions");
    }
}

#[cfg(not(feature = "std"))]
#[test]
fn hooks_need_std() {
    common::cpu::skipped("tests/dispatch.rs: the dispatch test hooks need the `std` feature");
}
