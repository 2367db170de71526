//! Differential property tests of the safe functions `tests/properties.rs`
//! leaves out: the quaternion-array slerps (`slerp_quats_as_published`,
//! `slerp_quats_corrected`), the nlerp family (`nlerp`, `fnlerp`, `onlerp`,
//! `slerp_stream`) and the `Skeleton` methods; and the boundary test of the
//! stream kernels, [`every_stream_kernel_reaches_the_end_of_exact_buffers`].
//!
//! Each property runs every form of the routine's `forms()` (or
//! `forms_as_published()`), each on its own output in an allocation that
//! begins and ends exactly at the buffer's bounds (32-byte aligned for
//! `slerp_quats`, whose AVX forms need it), and checks:
//! - the endpoint rule exactly (`factor <= 0` gives the start, `>= 1` the
//!   end, element by element for the streams);
//! - [`Impl::Asm`] and [`Impl::Intrinsics`] bit for bit where both run;
//! - every form within the bound its routine test asserts of the f64 oracle
//!   (`animasm_testkit::oracle::slerp_f64`, `measure::nlerp::func_f64`) and
//!   of the scalar port;
//! - for the nlerp widths, that an element depends only on its inputs (a
//!   suffix of the stream gives the same bits), so the widths' tails are
//!   the same computation as their blocks.
//!
//! `cargo test --release` runs 2000 cases per property (a debug build an
//! eighth, `PROPTEST_CASES` overrides). Under Miri (`scripts/miri.sh`) each
//! property runs two cases on short lists, long enough to enter every
//! form's vector loop (16 quaternions for `slerp_quats`' AVX loop, 8 for the
//! AVX2 nlerp widths): the scalar, SSE2 and intrinsics paths run there (the
//! AVX ones when the Miri build enables AVX, AVX2 and FMA, as the script's
//! second x86_64 run does); there is no asm under Miri.

mod common;

use animasm::{Error, Impl, JointMat, JointQuat, Quat, Skeleton};
use common::error::{mat_max_abs_diff, max_abs_diff};
use common::exact::{ExactAligned, exact_vec};
use common::harness::{Floats, max_diff, out_bits};
use common::inputs::{Rng, rigid_mats_from, shuffled_forest};
use common::oracle::{f64x4, local_to_model_f64, model_to_local_f64, slerp_f64};
use common::strategies::{config, len, lerp_factor, list, unit_quat};
use common::{mat_bits, same_bits};
use proptest::prelude::*;

use devkit::measure::nlerp::{FUNCS, Func, func_f64};

const CASES: u32 = 2000;
const MIRI_CASES: u32 = 2;

// ---------------------------------------------------------------------------
// Helpers.

fn quat_bits(q: &[Quat]) -> Vec<u32> {
    q.iter().flat_map(|q| q.to_array().map(f32::to_bits)).collect()
}

/// Max abs error of `q` against `want`, a NaN counting as infinite.
fn quat_err(q: &Quat, want: [f64; 4]) -> f64 {
    max_abs_diff(q.to_array(), want)
}

fn result_of(outs: &[(Impl, Vec<Quat>)], imp: Impl) -> Option<&[Quat]> {
    outs.iter().find(|(i, _)| *i == imp).map(|(_, v)| v.as_slice())
}

/// asm against intrinsics, bit for bit (NaN-aware), where both ran.
#[track_caller]
fn assert_twins(outs: &[(Impl, Vec<Quat>)], ctx: &str) {
    if let (Some(a), Some(i)) = (result_of(outs, Impl::Asm), result_of(outs, Impl::Intrinsics)) {
        let (a, i) = (quat_bits(a), quat_bits(i));
        let same = a.iter().zip(&i).all(|(&x, &y)| same_bits(f32::from_bits(x), f32::from_bits(y)));
        assert!(same, "{ctx}: asm and intrinsics differ");
    }
}

/// Two runs of the same form on the same input: bit for bit natively;
/// within `bound` under Miri, whose `rsqrtps` and `rcpps` add a random
/// error (within Intel's bound) on every call, so that two runs differ in
/// the last bits.
#[track_caller]
fn assert_rerun<T: Floats>(a: &[T], b: &[T], bound: f64, ctx: &str) {
    if cfg!(miri) {
        let d = max_diff(a, b);
        assert!(d <= bound, "{ctx}: {d:e} apart (bound {bound:e} under Miri)");
    } else {
        assert_eq!(out_bits(a), out_bits(b), "{ctx}");
    }
}

/// A list length: [`len`] natively; under Miri `miri` (a range that enters
/// the vector loop of the widest form and leaves a tail).
fn stream_len(miri: core::ops::RangeInclusive<usize>) -> BoxedStrategy<usize> {
    if cfg!(miri) { miri.boxed() } else { len() }
}

// ---------------------------------------------------------------------------
// slerp_quats.

type QuatsFn = fn(Impl, &mut [Quat], &[Quat], &[Quat], f32) -> Result<(), Error>;

struct QuatsRoutine {
    name: &'static str,
    f: QuatsFn,
    forms: fn() -> Vec<Impl>,
    /// Max abs error of a component against the f64 slerp, as
    /// `tests/slerp_quats.rs` asserts at every count (the published kernels'
    /// remainder loop, erratum E6, is the worst).
    bound: f64,
}

const AS_PUBLISHED: QuatsRoutine = QuatsRoutine {
    name: "slerp_quats_as_published",
    f: animasm::slerp_quats_as_published,
    forms: || animasm::slerp_quats::forms_as_published().collect(),
    bound: 5e-3,
};
const CORRECTED: QuatsRoutine = QuatsRoutine {
    name: "slerp_quats_corrected",
    f: animasm::slerp_quats_corrected,
    forms: || animasm::slerp_quats::forms().collect(),
    bound: 5e-7,
};

/// Runs `r` with `imp` on exact 32-byte-aligned copies; the result.
fn run_quats(r: &QuatsRoutine, imp: Impl, from: &[Quat], to: &[Quat], factor: f32) -> Result<Vec<Quat>, Error> {
    let (from, to) = (ExactAligned::new(from, 32), ExactAligned::new(to, 32));
    let mut out = ExactAligned::new(&vec![Quat::default(); from.len()], 32);
    (r.f)(imp, &mut out, &from, &to, factor).map(|()| out.to_vec())
}

fn check_slerp_quats(r: &QuatsRoutine, from: &[Quat], to: &[Quat], factor: f32) {
    let n = from.len();
    let ctx = format!("{}: {n} quaternions, factor {factor:e}", r.name);
    let outs: Vec<(Impl, Vec<Quat>)> = (r.forms)()
        .into_iter()
        .map(|imp| (imp, run_quats(r, imp, from, to, factor).unwrap_or_else(|e| panic!("{ctx}: {imp}: {e}"))))
        .collect();
    assert_twins(&outs, &ctx);
    let scalar = result_of(&outs, Impl::Scalar).expect("the scalar port always runs").to_vec();
    for (imp, out) in &outs {
        let ctx = format!("{ctx}: {imp}");
        if factor <= 0.0 || factor >= 1.0 {
            let want = if factor <= 0.0 { from } else { to };
            assert_eq!(quat_bits(out), quat_bits(want), "{ctx}: the endpoint rule");
            continue;
        }
        for k in 0..n {
            let want = slerp_f64(f64x4(from[k].to_array()), f64x4(to[k].to_array()), f64::from(factor));
            let e = quat_err(&out[k], want);
            assert!(e <= r.bound, "{ctx}: quaternion {k}: {e:e} from the f64 slerp (bound {:e})", r.bound);
        }
        let d = max_diff(out, &scalar);
        assert!(d <= 2.0 * r.bound, "{ctx}: {d:e} from the scalar port");
    }
    // `Auto` on arrays one quaternion into their allocation (16 bytes off a
    // 32-byte boundary): it takes a form the arrays allow, whose result is
    // that form's; an explicit AVX form refuses them from 16 on, writing
    // nothing.
    let shift = |v: &[Quat]| ExactAligned::new(&[&[Quat::IDENTITY], v].concat(), 32);
    let (from_u, to_u) = (shift(from), shift(to));
    let mut out_u = shift(&vec![Quat::default(); n]);
    (r.f)(Impl::Auto, &mut out_u[1..], &from_u[1..], &to_u[1..], factor).unwrap();
    if cfg!(miri) {
        // Each run draws new `rsqrtps` errors: bounded only.
        let d = max_diff(&out_u[1..], &scalar);
        assert!(d <= 2.0 * r.bound, "{ctx}: Auto on unaligned arrays: {d:e} from the scalar port");
    } else {
        assert!(
            outs.iter().any(|(_, o)| quat_bits(o) == quat_bits(&out_u[1..])),
            "{ctx}: Auto on unaligned arrays gave no form's result"
        );
    }
    for imp in [Impl::Intrinsics, Impl::Asm] {
        if n >= 16 && outs.iter().any(|(i, _)| *i == imp) {
            let zeros = vec![Quat::default(); n];
            let mut out_u = shift(&zeros);
            let got = (r.f)(imp, &mut out_u[1..], &from_u[1..], &to_u[1..], factor);
            assert!(matches!(got, Err(Error::Misaligned { needed: 32, .. })), "{ctx}: {imp} unaligned: {got:?}");
            assert_eq!(quat_bits(&out_u[1..]), quat_bits(&zeros), "{ctx}: {imp}: written on Err");
        }
    }
}

// ---------------------------------------------------------------------------
// The nlerp family.

type StreamFn = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;

/// Max abs error of a component of every width against the f64 function
/// and against the scalar port (`tests/nlerp.rs`, `tests/common/streams.rs`).
const NLERP_BOUND: f64 = 5e-7;
/// Max abs error of `slerp_stream` (the article's scalar slerp) against the
/// f64 slerp.
const SLERP_STREAM_BOUND: f64 = 1e-6;

/// Runs `f` with `imp` on exact copies (`dest`, `r` and `t` each end their
/// allocation); the result.
fn run_stream(f: StreamFn, imp: Impl, l: &Quat, r: &[Quat], t: &[f32]) -> Result<Vec<Quat>, Error> {
    let (r, t) = (exact_vec(r), exact_vec(t));
    let mut dest = exact_vec(&vec![Quat::default(); r.len()]);
    f(imp, &mut dest, l, &r, &t).map(|()| dest)
}

/// One function of the family on every form of `forms`: the endpoint rule
/// exactly, every other element within `bound` of `oracle` and of the
/// scalar port, and every element the same bits on a suffix of the stream.
fn check_stream(
    name: &str,
    f: StreamFn,
    forms: Vec<Impl>,
    oracle: &dyn Fn(&Quat, &Quat, f32) -> [f64; 4],
    bound: f64,
    (l, r, t): (&Quat, &[Quat], &[f32]),
) {
    let n = r.len();
    let ctx = format!("{name}: {n} quaternions");
    let run = |imp: Impl, r: &[Quat], t: &[f32]| {
        run_stream(f, imp, l, r, t).unwrap_or_else(|e| panic!("{ctx}: {imp}: unexpected error {e}"))
    };
    let scalar = run(Impl::Scalar, r, t);
    for imp in forms {
        let out = run(imp, r, t);
        let ctx = format!("{ctx}: {imp}");
        for k in 0..n {
            let ctx = format!("{ctx}: element {k}, t = {:e}", t[k]);
            if t[k] <= 0.0 || t[k] >= 1.0 {
                let want = if t[k] <= 0.0 { *l } else { r[k] };
                assert_eq!(quat_bits(&[out[k]]), quat_bits(&[want]), "{ctx}: the endpoint rule");
                continue;
            }
            let e = quat_err(&out[k], oracle(l, &r[k], t[k]));
            assert!(e <= bound, "{ctx}: {e:e} from the f64 oracle (bound {bound:e})");
            let d = max_diff(&out[k..=k], &scalar[k..=k]);
            assert!(d <= bound, "{ctx}: {d:e} from the scalar port");
        }
        // An element depends on its own inputs only, not on its place in a
        // block or tail: every suffix that starts a new block or tail.
        for start in [1, 3, 5, 8].into_iter().filter(|&s| s < n) {
            let tail = run(imp, &r[start..], &t[start..]);
            assert_rerun(&tail, &out[start..], bound, &format!("{ctx}: the suffix from {start}"));
        }
    }
}

fn func_oracle(func: Func) -> impl Fn(&Quat, &Quat, f32) -> [f64; 4] {
    move |l, r, t| func_f64(func, l, r, t)
}

fn slerp_oracle(l: &Quat, r: &Quat, t: f32) -> [f64; 4] {
    slerp_f64(f64x4(l.to_array()), f64x4(r.to_array()), f64::from(t))
}

/// A stream: `l`, then `n` quaternions `r` and factors `t` (mostly inside
/// `(0, 1)`, sometimes an edge value, the endpoints and beyond included).
fn stream(miri: core::ops::RangeInclusive<usize>) -> impl Strategy<Value = (Quat, Vec<Quat>, Vec<f32>)> {
    (unit_quat(), stream_len(miri)).prop_flat_map(|(l, n)| (Just(l), list(unit_quat(), n), list(lerp_factor(), n)))
}

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
    let mut models: Vec<(Impl, Vec<u32>)> = Vec::new();
    for imp in animasm::transform_skeleton::forms() {
        let mut mats = exact_vec(&sorted);
        sk.local_to_model(imp, &mut mats).unwrap();
        let model = sk.from_parents_first_vec(&mats).unwrap();
        let err = (0..n).map(|j| mat_max_abs_diff(&model[perm[j]].mat, &want[j])).fold(0.0, f64::max);
        assert!(err <= 1e-5 * size, "{ctx}: {imp} local_to_model: {err:e} (model size {size})");
        models.push((imp, mat_bits(&mats)));
        if animasm::untransform_skeleton::forms().any(|f| f == imp) {
            sk.model_to_local(imp, &mut mats).unwrap();
            let back = sk.from_parents_first_vec(&mats).unwrap();
            let err = (0..n).map(|j| mat_max_abs_diff(&back[perm[j]].mat, &local_want[j])).fold(0.0, f64::max);
            assert!(err <= 1e-5 * size, "{ctx}: {imp} model_to_local: {err:e}");
        }
    }
    let model_of = |imp| models.iter().find(|(i, _)| *i == imp).map(|(_, b)| b);
    if let (Some(a), Some(i)) = (model_of(Impl::Asm), model_of(Impl::Intrinsics)) {
        assert_eq!(a, i, "{ctx}: local_to_model: asm vs intrinsics");
    }

    let (joints, blend) = (exact_vec(&rng.joints(n)), exact_vec(&rng.joints(n)));
    let index: Vec<i32> = (0..n as i32).collect();
    type Blend = fn(&Skeleton, Impl, &mut [JointQuat], &[JointQuat], f32) -> Result<(), Error>;
    type Plain = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;
    let blends: [(&str, Blend, Plain, Vec<Impl>); 2] = [
        ("slerp_joints", Skeleton::slerp_joints, animasm::slerp_joints, animasm::slerp_joints::forms().collect()),
        ("lerp_joints", Skeleton::lerp_joints, animasm::lerp_joints, animasm::lerp_joints::forms().collect()),
    ];
    for (name, method, plain, forms) in blends {
        for imp in forms {
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

    /// `slerp_quats_corrected`, every form of `slerp_quats::forms()`: within
    /// 5e-7 of the f64 slerp, asm and intrinsics bit for bit, the endpoint
    /// rule, `Auto` on unaligned arrays.
    #[test]
    fn slerp_quats_corrected_differential(
        (from, to) in stream_len(16..=19).prop_flat_map(|n| (list(unit_quat(), n), list(unit_quat(), n))),
        factor in lerp_factor(),
    ) {
        check_slerp_quats(&CORRECTED, &from, &to, factor);
    }

    /// `slerp_quats_as_published`, every form of `forms_as_published()`:
    /// within 5e-3 of the f64 slerp (errata E1, E3, E6 kept), asm and
    /// intrinsics bit for bit, the endpoint rule.
    #[test]
    fn slerp_quats_as_published_differential(
        (from, to) in stream_len(16..=19).prop_flat_map(|n| (list(unit_quat(), n), list(unit_quat(), n))),
        factor in lerp_factor(),
    ) {
        check_slerp_quats(&AS_PUBLISHED, &from, &to, factor);
    }

    /// `nlerp`, `fnlerp`, `onlerp`, every width of `nlerp::forms()`: within
    /// 5e-7 of the f64 function and of the scalar port, the endpoint rule
    /// element by element, the same bits on a suffix.
    #[test]
    fn nlerp_family_differential((l, r, t) in stream(7..=11)) {
        for func in FUNCS {
            let oracle = func_oracle(func);
            check_stream(func.name(), func.safe(), animasm::nlerp::forms().collect(), &oracle, NLERP_BOUND, (&l, &r, &t));
        }
    }

    /// `slerp_stream` (its one form, the scalar reference): within 1e-6 of
    /// the f64 slerp, the endpoint rule element by element.
    #[test]
    fn slerp_stream_differential((l, r, t) in stream(0..=5)) {
        check_stream("slerp_stream", animasm::slerp_stream, vec![Impl::Scalar], &slerp_oracle, SLERP_STREAM_BOUND, (&l, &r, &t));
    }

    /// Every `Skeleton` method on a shuffled forest (see [`check_skeleton`]).
    #[test]
    fn skeleton_methods(n in stream_len(1..=9), seed in any::<u64>(), lerp in lerp_factor()) {
        check_skeleton(n, seed, lerp);
    }
}

// ---------------------------------------------------------------------------
// Every stream kernel on exact buffers, for memcheck.

/// Every count `0..=67` (every tail of `slerp_quats`' 16-wide loop after
/// zero to four blocks, and of the nlerp widths' 4- and 8-wide loops), and a
/// few larger ones. Under Miri every tail of the 8-wide loop and the first
/// 16-wide block.
fn exact_buffer_counts() -> Vec<usize> {
    if cfg!(miri) { (0..=9).chain(15..=17).collect() } else { (0..=67).chain([127, 128, 129, 1023]).collect() }
}

/// Every form of `slerp_quats_*` and of the nlerp family (the AVX and AVX2
/// forms wherever this CPU runs them), on every count of
/// [`exact_buffer_counts`], with every buffer in an allocation that begins
/// at its first element and ends at its last (32-byte aligned for
/// `slerp_quats`); asm and intrinsics bit for bit, the nlerp widths within
/// 5e-7 of each other. Under valgrind (`scripts/memcheck.sh`) and Miri any
/// access outside an allocation is an error. Prints the forms it ran.
#[test]
fn every_stream_kernel_reaches_the_end_of_exact_buffers() {
    for r in [&AS_PUBLISHED, &CORRECTED] {
        let forms = (r.forms)();
        eprintln!("{}: exact buffers with {forms:?}", r.name);
        for n in exact_buffer_counts() {
            let mut rng = Rng::new(n as u64);
            let from: Vec<Quat> = (0..n).map(|_| rng.unit_quat()).collect();
            let to: Vec<Quat> = (0..n).map(|_| rng.unit_quat()).collect();
            let outs: Vec<(Impl, Vec<Quat>)> =
                forms.iter().map(|&imp| (imp, run_quats(r, imp, &from, &to, 0.37).unwrap())).collect();
            assert_twins(&outs, &format!("{}, {n} quaternions", r.name));
        }
    }
    let forms: Vec<Impl> = animasm::nlerp::forms().collect();
    eprintln!("nlerp, fnlerp, onlerp: exact buffers with {forms:?}; slerp_stream with Scalar");
    for n in exact_buffer_counts() {
        let mut rng = Rng::new(0x5eed + n as u64);
        let l = rng.unit_quat();
        let r: Vec<Quat> = (0..n).map(|_| rng.unit_quat()).collect();
        let t: Vec<f32> = (0..n).map(|_| rng.range(0.01, 0.99) as f32).collect();
        for func in FUNCS {
            let scalar = run_stream(func.safe(), Impl::Scalar, &l, &r, &t).unwrap();
            for &imp in &forms {
                let out = run_stream(func.safe(), imp, &l, &r, &t).unwrap();
                let d = max_diff(&out, &scalar);
                assert!(d <= NLERP_BOUND, "{}, {n} quaternions: {imp}: {d:e} from the scalar port", func.name());
            }
        }
        run_stream(animasm::slerp_stream, Impl::Scalar, &l, &r, &t).unwrap();
    }
}
