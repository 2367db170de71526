//! Differential property tests of the stream shapes, one per [`Shape`]
//! over every routine of that shape in `animasm::roster`: the
//! quaternion-array slerps (`QuatPairs`: `slerp_quats_as_published`,
//! `slerp_quats_corrected`) and the streams (`Stream`: `nlerp`, `fnlerp`,
//! `onlerp`, `slerp_stream`); the `Skeleton` methods; and the boundary test
//! of the stream kernels, [`every_stream_kernel_reaches_the_end_of_exact_buffers`].
//!
//! Each property runs every form of every routine of its shape that this
//! CPU runs, each on its own output in an allocation that begins and ends
//! exactly at the buffer's bounds (32-byte aligned for `QuatPairs`, whose
//! AVX forms need it), and checks:
//! - the endpoint rule exactly (`factor <= 0` gives the start, `>= 1` the
//!   end, element by element for the streams);
//! - the listing ([`Origin::Listing`](animasm::Origin::Listing), the asm
//!   port) and its intrinsics twin bit for bit where both run;
//! - for the streams, every form within 5e-7 of the scalar form, and that
//!   an element depends only on its inputs (a suffix of the stream gives
//!   the same bits), so the widths' tails are the same computation as their
//!   blocks;
//! - for the slerps, `Auto` on unaligned arrays and the refusal of the
//!   aligned forms.
//!
//! Every form's bound against the f64 oracle (`slerp_f64`,
//! `measure::nlerp::func_f64`), and for the slerps against the scalar form,
//! is the routine's: its test file checks it on the same inputs
//! (`common::roster_checks::{quat_pairs, stream}`).
//!
//! `cargo test --release` runs 2000 cases per property (a debug build an
//! eighth, `PROPTEST_CASES` overrides). Under Miri (`scripts/miri.sh`) each
//! property runs two cases on short lists, long enough to enter every
//! form's vector loop (16 quaternions for `slerp_quats`' AVX loop, 8 for the
//! AVX2 nlerp widths): the scalar, SSE2 and intrinsics paths run there (the
//! AVX ones when the Miri build enables AVX, AVX2 and FMA, as the script's
//! second x86_64 run does); there is no asm under Miri.

mod common;

use animasm::roster::FormInfo;
use animasm::{Error, Impl, JointMat, JointQuat, Origin, Quat, Skeleton};
use common::error::mat_max_abs_diff;
use common::exact::exact_vec;
use common::harness::max_diff;
use common::inputs::{Rng, rigid_mats_from, shuffled_forest};
use common::mat_bits;
use common::oracle::{local_to_model_f64, model_to_local_f64};
use common::roster_checks::stream::{CASES, MIRI_CASES, assert_rerun, stream_len};
use common::roster_checks::{joint_blend, of_shape, quat_pairs, routine, stream};
use common::strategies::{config, lerp_factor};
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// Skeleton.

/// Every `Skeleton` method on one shuffled forest: the structure
/// (`order`/`positions` inverse, parents first, `roots`, `runs`), the moves
/// both ways (slice and `Vec` forms the same), `local_to_model` and
/// `model_to_local` with every form within 1e-5 of the model size of the
/// f64 chain (asm and intrinsics bit for bit), and the blends bit for bit
/// the crate's functions with the index `0..n`.
fn check_skeleton(n: usize, seed: u64, lerp: f32) {
    let mut rng = Rng::new(seed);
    let (parents, shuffled, perm) = shuffled_forest(&mut rng, n);
    let ctx = format!("Skeleton: {n} joints, seed {seed:#x}");
    let sk = Skeleton::new(&exact_vec(&shuffled)).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(sk.len(), n);
    for (k, &j) in sk.order().iter().enumerate() {
        assert_eq!(sk.positions()[j], k, "{ctx}: order and positions are not inverse");
        let p = sk.parents()[k];
        assert_eq!(p, if shuffled[j] < 0 { -1 } else { sk.positions()[shuffled[j] as usize] as i32 }, "{ctx}");
        assert!(p < k as i32, "{ctx}: position {k} has parent {p}");
    }
    let roots: Vec<usize> = (0..n).filter(|&k| sk.parents()[k] < 0).collect();
    assert_eq!(sk.roots(), roots.as_slice(), "{ctx}: roots");
    let in_runs: usize = sk.runs().map(|r| r.count()).sum();
    assert_eq!(in_runs + roots.len(), n, "{ctx}: the runs and roots do not cover the joints");
    assert!(sk.runs().all(|r| r.clone().all(|k| sk.parents()[k] >= 0)), "{ctx}: a root in a run");

    let locals_old = rigid_mats_from(&mut rng, n);
    let mut locals = vec![JointMat::IDENTITY; n];
    for (old, &new) in perm.iter().enumerate() {
        locals[new] = locals_old[old];
    }
    let sorted = sk.to_parents_first_vec(&locals).unwrap();
    let mut sorted2 = exact_vec(&vec![JointMat::IDENTITY; n]);
    sk.to_parents_first(&exact_vec(&locals), &mut sorted2).unwrap();
    assert_eq!(mat_bits(&sorted), mat_bits(&sorted2), "{ctx}: to_parents_first");
    let mut back = exact_vec(&vec![JointMat::IDENTITY; n]);
    sk.from_parents_first(&sorted, &mut back).unwrap();
    assert_eq!(mat_bits(&back), mat_bits(&locals), "{ctx}: from_parents_first");
    assert_eq!(mat_bits(&sk.from_parents_first_vec(&sorted).unwrap()), mat_bits(&locals), "{ctx}");

    let f64s = |m: &[JointMat]| m.iter().map(|m| m.mat.map(f64::from)).collect::<Vec<_>>();
    let want = local_to_model_f64(&f64s(&locals_old), &parents);
    let local_want = model_to_local_f64(&want, &parents);
    let size = want.iter().map(|m| (m[3] * m[3] + m[7] * m[7] + m[11] * m[11]).sqrt()).fold(1.0, f64::max);
    let mut models: Vec<(FormInfo, Vec<u32>)> = Vec::new();
    let untransform = routine("untransform_skeleton");
    for form in routine("transform_skeleton").forms() {
        let imp = form.imp;
        let mut mats = exact_vec(&sorted);
        sk.local_to_model(imp, &mut mats).unwrap();
        let model = sk.from_parents_first_vec(&mats).unwrap();
        let err = (0..n).map(|j| mat_max_abs_diff(&model[perm[j]].mat, &want[j])).fold(0.0, f64::max);
        assert!(err <= 1e-5 * size, "{ctx}: {imp} local_to_model: {err:e} (model size {size})");
        models.push((form, mat_bits(&mats)));
        if untransform.forms().any(|f| f.imp == imp) {
            sk.model_to_local(imp, &mut mats).unwrap();
            let back = sk.from_parents_first_vec(&mats).unwrap();
            let err = (0..n).map(|j| mat_max_abs_diff(&back[perm[j]].mat, &local_want[j])).fold(0.0, f64::max);
            assert!(err <= 1e-5 * size, "{ctx}: {imp} model_to_local: {err:e}");
        }
    }
    let model_of = |origin| models.iter().find(|(f, _)| f.origin == origin).map(|(_, b)| b);
    if let (Some(a), Some(i)) = (model_of(Origin::Listing), model_of(Origin::ListingTwin)) {
        assert_eq!(a, i, "{ctx}: local_to_model: the listing vs its twin");
    }

    let (joints, blend) = (exact_vec(&rng.joints(n)), exact_vec(&rng.joints(n)));
    let index: Vec<i32> = (0..n as i32).collect();
    type Blend = fn(&Skeleton, Impl, &mut [JointQuat], &[JointQuat], f32) -> Result<(), Error>;
    // Each blend method and the routine it runs on the index `0..n`.
    let blends: [(&str, Blend); 2] = [("slerp_joints", Skeleton::slerp_joints), ("lerp_joints", Skeleton::lerp_joints)];
    for (name, method) in blends {
        let r = routine(name);
        let plain = joint_blend::safe(r);
        for imp in r.forms().map(|f| f.imp) {
            let (mut got, mut want) = (exact_vec(&joints), exact_vec(&joints));
            method(&sk, imp, &mut got, &blend, lerp).unwrap();
            plain(imp, &mut want, &blend, lerp, &index).unwrap();
            assert_rerun(&got, &want, 1e-6, &format!("{ctx}: Skeleton::{name} {imp}, lerp {lerp:e}"));
        }
    }
}

// ---------------------------------------------------------------------------
// The properties.

proptest! {
    #![proptest_config(config(CASES, MIRI_CASES))]

    /// `QuatPairs` (`slerp_quats_corrected`, `slerp_quats_as_published`),
    /// every form: the listing and its twin bit for bit, the endpoint rule,
    /// `Auto` on unaligned arrays, the aligned forms' refusal of them. Each
    /// routine's test file checks its bound against the f64 slerp and the
    /// scalar form (`quat_pairs::against_f64`).
    #[test]
    fn quat_pairs_differential(case in quat_pairs::cases()) {
        for r in of_shape(quat_pairs::is) {
            quat_pairs::check_shape(r, &case);
        }
    }

    /// `Stream` (`nlerp`, `fnlerp`, `onlerp`, `slerp_stream`), every form:
    /// within 5e-7 of the scalar form, the endpoint rule element by element,
    /// the same bits on a suffix. Each routine's test file checks its bound
    /// against its f64 function (`stream::against_f64`).
    #[test]
    fn stream_differential(case in stream::cases()) {
        for r in of_shape(stream::is) {
            stream::check_shape(r, &case);
        }
    }

    /// Every `Skeleton` method on a shuffled forest (see [`check_skeleton`]).
    #[test]
    fn skeleton_methods(n in stream_len(1..=9), seed in any::<u64>(), lerp in lerp_factor()) {
        check_skeleton(n, seed, lerp);
    }
}

// ---------------------------------------------------------------------------
// Every stream kernel on exact buffers, for memcheck.

/// Every count `0..=67` (every tail of the `QuatPairs` AVX forms' 16-wide
/// loop after zero to four blocks, and of the stream widths' 4- and 8-wide
/// loops), and a few larger ones. Under Miri every tail of the 8-wide loop and the first
/// 16-wide block.
fn exact_buffer_counts() -> Vec<usize> {
    if cfg!(miri) { (0..=9).chain(15..=17).collect() } else { (0..=67).chain([127, 128, 129, 1023]).collect() }
}

/// Every form of every `QuatPairs` and `Stream` routine (the AVX and AVX2
/// forms wherever this CPU runs them), on every count of
/// [`exact_buffer_counts`], with every buffer in an allocation that begins
/// at its first element and ends at its last (32-byte aligned for
/// `QuatPairs`); the listing and its twin bit for bit, the stream forms
/// within 5e-7 of the scalar form. Under valgrind (`scripts/memcheck.sh`)
/// and Miri any access outside an allocation is an error. Prints the forms
/// it ran.
#[test]
fn every_stream_kernel_reaches_the_end_of_exact_buffers() {
    let names = |r: &animasm::roster::Routine| r.forms().map(|f| f.imp.name()).collect::<Vec<_>>().join(", ");
    for r in of_shape(quat_pairs::is) {
        eprintln!("{}: exact buffers with {}", r.name, names(r));
        for n in exact_buffer_counts() {
            let mut rng = Rng::new(n as u64);
            let from: Vec<Quat> = (0..n).map(|_| rng.unit_quat()).collect();
            let to: Vec<Quat> = (0..n).map(|_| rng.unit_quat()).collect();
            let outs = quat_pairs::run(r, &from, &to, 0.37);
            quat_pairs::assert_twins(&outs, &format!("{}, {n} quaternions", r.name));
        }
    }
    for r in of_shape(stream::is) {
        eprintln!("{}: exact buffers with {}", r.name, names(r));
    }
    for n in exact_buffer_counts() {
        let mut rng = Rng::new(0x5eed + n as u64);
        let l = rng.unit_quat();
        let q: Vec<Quat> = (0..n).map(|_| rng.unit_quat()).collect();
        let t: Vec<f32> = (0..n).map(|_| rng.range(0.01, 0.99) as f32).collect();
        for r in of_shape(stream::is) {
            let scalar = stream::run_one(r, r.scalar_form().imp, &l, &q, &t).unwrap();
            // Every other form against the scalar one (the scalar form
            // against itself would compare Miri's randomly rounded `sin` and
            // `acos` with themselves).
            for imp in r.forms().map(|f| f.imp).filter(|&imp| imp != r.scalar_form().imp) {
                let out = stream::run_one(r, imp, &l, &q, &t).unwrap();
                let d = max_diff(&out, &scalar);
                assert!(d <= stream::VS_SCALAR, "{}, {n} quaternions: {imp}: {d:e} from the scalar form", r.name);
            }
        }
    }
}
