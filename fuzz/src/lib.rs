//! Shared machinery of the fuzz targets: [`Gen`] turns libFuzzer's bytes into
//! lengths, indices, parents, ranges, interpolation factors and floats
//! (arbitrary bit patterns, often special values), and [`run_every_impl`]
//! runs one safe function with every [`Impl`] (the concrete forms of
//! [`Impl::ALL`] and [`Impl::Auto`]) and checks what holds for all of them:
//!
//! - no crash and no panic (no safe function panics);
//! - a form the routine does not list in its `forms()` (absent on this
//!   target, or needing CPU features this CPU lacks) returns
//!   `Err(Unsupported)` or `Err(MissingCpuFeature)`;
//! - every form of `forms()`, and `Auto`, returns the same `Ok` or the same
//!   `Err` (the validation does not depend on the form);
//! - on `Err`, the output is bit for bit what it was;
//! - on `Ok`, `Auto` wrote the bits of the form it picks (the first of
//!   `forms()`, since the fuzz buffers meet every form's alignment);
//! - on `Ok`, [`Impl::Asm`] and [`Impl::Intrinsics`] wrote the same bits
//!   (NaN payloads aside: LLVM may commute the intrinsics' operands, which
//!   changes which NaN propagates; every other value and the sign of zero
//!   must match).
//!
//! Each target adds the routine's own documented guarantees on `Ok`, and
//! compares every form of the routine's `forms()` (the listing's, and the
//! `Impl::Avx2` successor wherever it is in the build and the CPU runs it)
//! with the scalar port within the tolerance the tests use ([`tol`], the
//! harness's `TOL_SCALAR` of `tests/common/routines.rs`), on every element
//! whose inputs are in the domain where that tolerance holds (unit
//! quaternions, rigid matrices, finite translations: see [`unit_quat`],
//! [`rigid`]); elsewhere (NaN, infinities, huge or non-unit values) only the
//! common checks apply. One input in two is *tame* ([`Gen::tame`]): all its
//! quaternions unit and matrices rigid, so that most lists reach those
//! comparisons whole.
//!
//! Lengths cover every tail of the 4-wide listings and of the 8-wide
//! successors (counts up to 24 often, up to a few hundred sometimes), and the
//! joint-list targets repeat `index` entries on purpose one input in four.

use animasm::{Error, Impl, JointMat, JointQuat, Quat};
pub use libfuzzer_sys::arbitrary::Unstructured;

mod inputs;
mod vs_scalar;
pub use inputs::*;
pub use vs_scalar::*;

/// Whether two floats are the same bit for bit, any two NaNs counting as the
/// same (see the crate docs above).
pub fn same_bits(x: f32, y: f32) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

/// The floats of a value made of `f32`s (`JointQuat`, `JointMat`).
pub trait Floats: Clone {
    /// Every float, in memory order.
    fn floats(&self) -> Vec<f32>;
}

impl Floats for JointQuat {
    fn floats(&self) -> Vec<f32> {
        let (q, t) = (self.q.to_array(), self.t.to_array());
        q.into_iter().chain(t).collect()
    }
}

impl Floats for JointMat {
    fn floats(&self) -> Vec<f32> {
        self.mat.to_vec()
    }
}

/// Panics unless `a` and `b` are the same bit for bit, exactly (no NaN
/// latitude: used where nothing may have been written).
#[track_caller]
pub fn assert_untouched<T: Floats>(a: &[T], b: &[T], ctx: &str) {
    assert_eq!(a.len(), b.len());
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        let (fx, fy) = (x.floats(), y.floats());
        for (l, (u, v)) in fx.iter().zip(&fy).enumerate() {
            assert!(
                u.to_bits() == v.to_bits(),
                "{ctx}: element {j} float {l} changed: {u:e} ({:#010x}) -> {v:e} ({:#010x})",
                u.to_bits(),
                v.to_bits()
            );
        }
    }
}

/// Panics unless `a` and `b` agree by [`same_bits`] in every float.
#[track_caller]
pub fn assert_same<T: Floats>(a: &[T], b: &[T], ctx: &str) {
    assert_eq!(a.len(), b.len());
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for (l, (u, v)) in x.floats().iter().zip(&y.floats()).enumerate() {
            assert!(
                same_bits(*u, *v),
                "{ctx}: element {j} float {l}: {u:e} ({:#010x}) vs {v:e} ({:#010x})",
                u.to_bits(),
                v.to_bits()
            );
        }
    }
}

/// Panics unless `a` and `b` agree by [`same_bits`] in every float, or are
/// both zeros (of either sign).
#[track_caller]
pub fn assert_same_up_to_sign_of_zero<T: Floats>(a: &[T], b: &[T], ctx: &str) {
    assert_eq!(a.len(), b.len());
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for (l, (u, v)) in x.floats().iter().zip(&y.floats()).enumerate() {
            assert!(
                same_bits(*u, *v) || (*u == 0.0 && *v == 0.0),
                "{ctx}: element {j} float {l}: {u:e} ({:#010x}) vs {v:e} ({:#010x})",
                u.to_bits(),
                v.to_bits()
            );
        }
    }
}

/// Whether two results are the same (a `NonFiniteFactor` compares its
/// factor bit for bit, as `Error`'s `PartialEq` would not for NaN).
pub fn same_result(a: &Result<(), Error>, b: &Result<(), Error>) -> bool {
    match (a, b) {
        (
            Err(Error::NonFiniteFactor { what: w1, position: p1, value: x }),
            Err(Error::NonFiniteFactor { what: w2, position: p2, value: y }),
        ) => w1 == w2 && p1 == p2 && x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// Whether `imp` is refused as a form the routine cannot run here.
pub fn refused(result: &Result<(), Error>, imp: Impl) -> bool {
    matches!(result, Err(Error::MissingCpuFeature { .. })) || *result == Err(Error::Unsupported(imp))
}

/// What one implementation did: its result and its output.
pub struct Run<T> {
    /// The implementation.
    pub imp: Impl,
    /// What the safe function returned.
    pub result: Result<(), Error>,
    /// The output buffer after the call.
    pub out: Vec<T>,
}

/// Runs `f` with every form of [`Impl::ALL`] and [`Impl::Auto`], each on
/// its own copy of `init` (an allocation of exactly its length), and checks
/// the common guarantees (see the crate docs). `forms` is the routine's
/// `forms()`: what runs here, fastest first. Returns the runs, in
/// [`Impl::ALL`] order then `Auto`, for the target's own checks.
pub fn run_every_impl<T: Floats>(
    forms: impl Iterator<Item = Impl>,
    init: &[T],
    mut f: impl FnMut(Impl, &mut [T]) -> Result<(), Error>,
) -> Vec<Run<T>> {
    let forms: Vec<Impl> = forms.collect();
    assert!(!forms.is_empty(), "a routine with no form");
    let runs: Vec<Run<T>> = Impl::ALL
        .into_iter()
        .chain([Impl::Auto])
        .map(|imp| {
            let mut out = init.to_vec();
            let result = f(imp, &mut out);
            Run { imp, result, out }
        })
        .collect();
    let runs_here = |r: &&Run<T>| r.imp == Impl::Auto || forms.contains(&r.imp);
    for r in &runs {
        if !runs_here(&r) {
            assert!(refused(&r.result, r.imp), "{}, not among {forms:?}, returned {:?}", r.imp, r.result);
        }
        if r.result.is_err() {
            assert_untouched(init, &r.out, &format!("{} after {:?}", r.imp, r.result));
        }
    }
    let available: Vec<&Run<T>> = runs.iter().filter(runs_here).collect();
    for r in &available {
        assert!(
            same_result(&r.result, &available[0].result),
            "{} returned {:?}, {} returned {:?}",
            available[0].imp,
            available[0].result,
            r.imp,
            r.result
        );
    }
    // `get` returns only runs that returned `Ok`.
    if let (Some(a), Some(i)) = (get(&runs, Impl::Asm), get(&runs, Impl::Intrinsics)) {
        assert_same(&a.out, &i.out, "asm vs intrinsics");
    }
    if let (Some(auto), Some(first)) = (get(&runs, Impl::Auto), get(&runs, forms[0])) {
        assert_same(&auto.out, &first.out, &format!("auto vs {}", forms[0]));
    }
    runs
}

/// The run of `imp`, if it returned `Ok` (a form that cannot run here never
/// does: [`run_every_impl`] checks it).
pub fn get<T>(runs: &[Run<T>], imp: Impl) -> Option<&Run<T>> {
    runs.iter().find(|r| r.imp == imp && r.result.is_ok())
}

/// What the SSE listings make of a scalar matrix result: they add
/// `(0, 0, 0, t)` to every row, turning a `-0.0` in the rotation columns into
/// `+0.0` (and changing nothing else).
pub fn as_listing(m: &[JointMat]) -> Vec<JointMat> {
    m.iter()
        .map(|j| JointMat {
            mat: core::array::from_fn(|e| if e % 4 != 3 && j.mat[e].to_bits() == 0x8000_0000 { 0.0 } else { j.mat[e] }),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The routines' targets (one `fuzz_targets/<routine>.rs` each calls one).

/// A safe joint-list interpolator (`slerp_joints`, `lerp_joints`).
pub type JointFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

/// Fuzzes a joint-list interpolator with the forms `forms` (its `forms()`):
/// any lengths of `joints`, `blend` and `index`, any `index` entries (one
/// input in four with entries repeated on purpose, within and across blocks
/// of four and eight), any `lerp`, any floats. On `Ok`, besides the common
/// checks: joints not indexed are kept, `lerp <= 0` keeps every joint and
/// `lerp >= 1` copies the indexed blend joints, with every `Impl`; the
/// scalar port and the listing agree on which joints they write; every form
/// agrees with the scalar port within `tol_rot` (rotations) and
/// [`tol::JOINT_TRANSLATION`] (translations, relative above magnitude 1) on
/// every joint indexed once whose quaternions are unit
/// ([`joint_vs_scalar`]).
pub fn joint_routine(data: &[u8], f: JointFn, forms: impl Iterator<Item = Impl>, tol_rot: f64) {
    let mut g = Gen::new(data);
    let n = g.len(16, 300);
    let joints = g.joints(n);
    let blend_len = g.len_near(n);
    let blend = g.joints(blend_len);
    let index_len = g.len(24, 400);
    let mut index: Vec<i32> = (0..index_len).map(|_| g.index_entry(n)).collect();
    if index_len > 1 && g.one_in(4) {
        // Repeats: an entry copied from one of the eight before it.
        for k in 1..index_len {
            if g.one_in(3) {
                index[k] = index[k - 1 - g.byte() as usize % k.min(8)];
            }
        }
    }
    let lerp = g.lerp();
    let runs = run_every_impl(forms, &joints, |imp, out| f(imp, out, &blend, lerp, &index));
    joint_vs_scalar(&runs, &joints, &blend, lerp, &index, tol_rot);
    if let Some(Err(Error::NonFiniteFactor { what, position, value })) = runs.first().map(|r| r.result) {
        assert!(what == "lerp" && position.is_none() && same_bits(value, lerp), "{what} {position:?} {value}");
    }
    for r in runs.iter().filter(|r| r.result.is_ok()) {
        let indexed: Vec<bool> = (0..n).map(|j| index.contains(&(j as i32))).collect();
        for j in 0..n {
            let ctx = format!("{}: joint {j}, lerp {lerp:e}", r.imp);
            if !indexed[j] || lerp <= 0.0 {
                assert_untouched(&joints[j..=j], &r.out[j..=j], &format!("{ctx}: kept"));
            } else if lerp >= 1.0 {
                assert_same(&blend[j..=j], &r.out[j..=j], &format!("{ctx}: copied from blend"));
            }
        }
    }
}

/// A safe skeleton transform (`transform_skeleton`,
/// `transform_skeleton_movss_shufps`, `untransform_skeleton`).
pub type SkeletonFn = fn(Impl, &mut [JointMat], &[i32], core::ops::RangeInclusive<usize>) -> Result<(), Error>;

/// How the scalar port's results relate to the listing's, as documented.
#[derive(Clone, Copy, PartialEq)]
pub enum ScalarAgrees {
    /// Bit for bit (NaN payloads aside).
    Exactly,
    /// Bit for bit but for the sign of zeros: the listing adds `+0.0` to
    /// the rotation columns (turning a `-0.0` into `+0.0`, erratum E1 of
    /// `transform_skeleton`), and a child of a joint where that happened
    /// can then sum its zeros, translation included, to the other sign.
    /// The listing's written rotation elements are never `-0.0`.
    UpToSignOfZero,
}

/// The forms of `candidates` (a routine's `forms()`) that the skeleton
/// function `f` accepts: a call on an empty range checks the form before
/// anything else and returns `Err(Unsupported)` for a form `f` does not
/// have. For `transform_skeleton_movss_shufps`, which has no `forms()` of its
/// own and no successor.
pub fn skeleton_forms(f: SkeletonFn, candidates: impl Iterator<Item = Impl>) -> Vec<Impl> {
    let mut root = [JointMat::IDENTITY];
    candidates.filter(|&imp| f(imp, &mut root, &[-1], core::ops::RangeInclusive::new(1, 0)).is_ok()).collect()
}

/// What a skeleton routine computes, for [`skeleton_vs_scalar`].
#[derive(Clone, Copy, PartialEq)]
pub enum SkeletonOp {
    /// `transform_skeleton`: `M[i] = M[parents[i]] * M[i]`, parents first.
    Transform,
    /// `untransform_skeleton`: `M[i] = M[parents[i]]^-1 * M[i]` (the
    /// parents as they were), last joint first.
    Untransform,
}

/// Fuzzes skeleton transforms: any number of matrices, any `parents` (length
/// and entries), any range (empty, exhausted, out of bounds), any floats.
/// On `Ok`: joints outside the range are kept; the scalar port agrees with
/// the intrinsics as `scalar` says; every form agrees with the scalar port
/// within [`tol::SKELETON`] where the chain of matrices is rigid
/// ([`skeleton_vs_scalar`]); every function of `fns` (variants of one
/// routine, each with its forms: `skeleton_forms`) gives the same results as
/// the first with every form both have.
pub fn skeleton_routine(data: &[u8], fns: &[(SkeletonFn, Vec<Impl>)], op: SkeletonOp, scalar: ScalarAgrees) {
    let mut g = Gen::new(data);
    let n = g.len(24, 200);
    let mats = g.mats(n);
    let parents_len = g.len_near(n);
    let parents: Vec<i32> = (0..parents_len).map(|i| g.parent(i)).collect();
    let range = g.range(n);
    let mut first: Option<Vec<Run<JointMat>>> = None;
    for (k, (f, forms)) in fns.iter().enumerate() {
        let runs = run_every_impl(forms.iter().copied(), &mats, |imp, out| f(imp, out, &parents, range.clone()));
        skeleton_vs_scalar(&runs, &mats, &parents, &range, op);
        for r in runs.iter().filter(|r| r.result.is_ok()) {
            for j in (0..n).filter(|j| range.is_empty() || !range.contains(j)) {
                assert_untouched(&mats[j..=j], &r.out[j..=j], &format!("{}: joint {j} outside {range:?}", r.imp));
            }
        }
        if let (Some(s), Some(i)) = (get(&runs, Impl::Scalar), get(&runs, Impl::Intrinsics)) {
            match scalar {
                ScalarAgrees::Exactly => assert_same(&s.out, &i.out, "scalar vs intrinsics"),
                ScalarAgrees::UpToSignOfZero => {
                    assert_same_up_to_sign_of_zero(&s.out, &i.out, "scalar vs intrinsics");
                    for j in range.clone() {
                        let m = i.out[j].mat;
                        assert!(
                            (0..12).all(|e| e % 4 == 3 || m[e].to_bits() != 0x8000_0000),
                            "intrinsics: joint {j} has a -0.0 rotation element: {m:?}"
                        );
                    }
                }
            }
        }
        match &first {
            None => first = Some(runs),
            Some(prev) => {
                // Concrete forms both variants ran (`Auto` may pick
                // different forms in the two tables).
                for a in prev.iter().filter(|a| a.imp != Impl::Auto) {
                    if let (Some(a), Some(b)) = (get(prev, a.imp), get(&runs, a.imp)) {
                        assert_same(&a.out, &b.out, &format!("{}: variant 0 vs variant {k}", a.imp));
                    }
                }
            }
        }
    }
}

impl Floats for Quat {
    fn floats(&self) -> Vec<f32> {
        self.to_array().to_vec()
    }
}
