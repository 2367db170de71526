//! The bodies of the joint-list and skeleton-range targets (one
//! `fuzz_targets/<routine>.rs` each calls one).

use crate::*;
use core::ops::RangeInclusive;

/// A safe joint-list interpolator (`slerp_joints`, `lerp_joints`).
pub type JointFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

/// Fuzzes a joint-list interpolator with the forms `forms` (its `forms()`):
/// any lengths of `joints`, `blend` and `index`, any `index` entries (one
/// input in four with entries repeated on purpose, within and across blocks
/// of four and eight), any `lerp`, any floats. On `Ok`, besides the common
/// checks: joints not indexed are kept, `lerp <= 0` keeps every joint and
/// `lerp >= 1` copies the indexed blend joints, with every `Impl`; every
/// form agrees with the scalar port within `tol_rot` (rotations) and
/// [`tol::JOINT_TRANSLATION`] (translations, relative above magnitude 1) on
/// every joint indexed once whose quaternions are unit
/// ([`joint_vs_scalar`]).
pub fn joint_routine(data: &[u8], f: JointFn, forms: impl Iterator<Item = Impl>, tol_rot: f64) {
    let forms = crate::forms(forms);
    let mut g = Gen::new(data);
    let n = g.length();
    let joints = g.joints(n);
    let blend_len = g.len_near(n);
    let blend = g.joints(blend_len);
    let index_len = g.length();
    let mut index: Buf<i32> = Buf::from_fn(index_len, |_| g.index_entry(n));
    if index_len > 1 && g.one_in(4) {
        // Repeats: an entry copied from one of the eight before it.
        for k in 1..index_len {
            if g.one_in(3) {
                index[k] = index[k - 1 - g.byte() as usize % k.min(8)];
            }
        }
    }
    let lerp = g.lerp();
    let mut runs = Runs::new();
    let runs = run_every_impl(&mut runs, &forms, &joints, |imp, out| f(imp, out, &blend, lerp, &index));
    if let Err(Error::NonFiniteFactor { what, position, value }) = runs[0].result {
        assert!(what == "lerp" && position.is_none() && same_bits(value, lerp), "{what} {position:?} {value}");
    }
    if runs[0].result.is_err() {
        return;
    }
    // `Ok`: every entry of `index` is a joint. How many times each is named.
    let mut count = [0u8; CAP];
    for &j in index.iter() {
        count[j as usize] = count[j as usize].saturating_add(1);
    }
    joint_vs_scalar(runs, &joints, &blend, lerp, &count, tol_rot);
    for r in runs.iter().filter(|r| r.result.is_ok()) {
        for j in 0..n {
            if count[j] == 0 || lerp <= 0.0 {
                assert_untouched(
                    &joints[j..=j],
                    &r.out[j..=j],
                    format_args!("{}: joint {j}, lerp {lerp:e}: kept", r.imp),
                );
            } else if lerp >= 1.0 {
                assert_same(&blend[j..=j], &r.out[j..=j], format_args!("{}: joint {j}: copied from blend", r.imp));
            }
        }
    }
}

/// A safe skeleton transform (`transform_skeleton`,
/// `transform_skeleton_movss_shufps`, `untransform_skeleton`).
pub type SkeletonFn = fn(Impl, &mut [JointMat], &[i32], RangeInclusive<usize>) -> Result<(), Error>;

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
pub fn skeleton_forms(f: SkeletonFn, candidates: impl Iterator<Item = Impl>) -> Forms {
    let mut root = [JointMat::IDENTITY];
    crate::forms(candidates.filter(|&imp| f(imp, &mut root, &[-1], RangeInclusive::new(1, 0)).is_ok()))
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
pub fn skeleton_routine(data: &[u8], fns: &[(SkeletonFn, Forms)], op: SkeletonOp, scalar: ScalarAgrees) {
    let mut g = Gen::new(data);
    let n = g.length();
    let mats = g.mats(n);
    let parents_len = g.len_near(n);
    let parents: Buf<i32> = Buf::from_fn(parents_len, |i| g.parent(i));
    let range = g.range(n);
    let facts = MatFacts::new(&mats);
    assert!(fns.len() <= 2, "at most two variants");
    let mut both = [Runs::new(), Runs::new()];
    let mut first: Option<&Runs<JointMat>> = None;
    for (k, ((f, forms), runs)) in fns.iter().zip(both.iter_mut()).enumerate() {
        let runs = run_every_impl(runs, forms, &mats, |imp, out| f(imp, out, &parents, range.clone()));
        if runs[0].result.is_err() {
            // The same `Err` for every form (`run_every_impl`), and for
            // every variant: the validation is shared.
            if let Some(prev) = &first {
                assert!(same_result(&prev[0].result, &runs[0].result), "variant {k}: {:?}", runs[0].result);
            }
            first.get_or_insert(runs);
            continue;
        }
        skeleton_vs_scalar(runs, &facts, &parents, &range, op);
        for r in runs.iter().filter(|r| r.result.is_ok()) {
            for j in (0..n).filter(|j| range.is_empty() || !range.contains(j)) {
                assert_untouched(&mats[j..=j], &r.out[j..=j], format_args!("{}: joint {j} outside {range:?}", r.imp));
            }
        }
        if let (Some(s), Some(i)) = (get(runs, Impl::Scalar), get(runs, Impl::Intrinsics)) {
            match scalar {
                ScalarAgrees::Exactly => assert_same(&s.out, &i.out, format_args!("scalar vs intrinsics")),
                ScalarAgrees::UpToSignOfZero => {
                    assert_same_up_to_sign_of_zero(&s.out, &i.out, format_args!("scalar vs intrinsics"));
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
                assert!(same_result(&prev[0].result, &runs[0].result), "variant {k}: {:?}", runs[0].result);
                // Concrete forms both variants ran (`Auto` may pick
                // different forms in the two tables).
                for a in prev.iter().filter(|a| a.imp != Impl::Auto) {
                    if let (Some(a), Some(b)) = (get(prev, a.imp), get(runs, a.imp)) {
                        assert_same(&a.out, &b.out, format_args!("{}: variant 0 vs variant {k}", a.imp));
                    }
                }
            }
        }
    }
}
