//! The `skeleton` target: `Skeleton` on arbitrary parents lists, a forest
//! of up to 40 joints listed in any order (shuffled three inputs in four),
//! and, in a bad input, a few entries replaced by anything (the joint itself, another joint, so
//! cycles, `-2`, `len`, any `i32`). `Skeleton::new` never panics, and:
//!
//! - `Err(InvalidParent { joint, parent })` exactly when some entry is
//!   neither `-1` nor a joint, for the first such `joint`;
//!   `Err(ParentCycle { joint })` exactly when the list is otherwise valid
//!   and has a cycle, `joint` on one; otherwise `Ok`;
//! - on `Ok`: `order` a permutation of the joints with `positions` its
//!   inverse, the identity (`is_parents_first`) when the list already is
//!   parents first; `parents()` the caller's parents in positions, each
//!   before its child; `roots` the positions of `-1`, ascending; `runs` the
//!   maximal root-free ranges; `to_parents_first` and `from_parents_first`
//!   move arrays along `order` (and refuse a wrong length, writing nothing);
//! - `local_to_model` or (one input in two) `model_to_local` with every
//!   `Impl`: a form the routine's `forms()` lacks is refused with nothing
//!   written, a wrong length is `LengthMismatch` with nothing written;
//!   otherwise the bits of a plain per-joint loop of `transform_skeleton`
//!   (parents first) or `untransform_skeleton` (last joint first) over
//!   one-joint ranges with the same form (`Auto`: the bits of the fastest
//!   form); and `local_to_model` within the tests' tolerance ([`TOL`],
//!   scaled by the chain's translations and depth) of the same loop in f64
//!   (`animasm_testkit::oracle::affine_mul_f64`) where every matrix of the
//!   chain is rigid;
//! - `Skeleton::slerp_joints` or (one input in two) `lerp_joints` with
//!   `Auto`: the bits of the safe function with the index list `0..len`.

use crate::shapes::skeleton::TOL;
use crate::{Buf, CAP, EVERY_IMPL, Forms, Gen, MatFacts, assert_same, assert_untouched, refused, same_result};
use animasm::roster::find;
use animasm::{Error, Impl, JointMat, Skeleton};
use animasm_testkit::error::abs_err;
use animasm_testkit::oracle::{affine_mul_f64, mat_f64};

/// Whether walking up from `j` comes back to `j` (valid entries assumed).
fn on_cycle(parents: &[i32], j: usize) -> bool {
    let mut k = j;
    for _ in 0..parents.len() {
        match usize::try_from(parents[k]) {
            Ok(p) if p == j => return true,
            Ok(p) => k = p,
            Err(_) => return false,
        }
    }
    false
}

/// One input of the `skeleton` target (see the module docs).
pub fn fuzz_skeleton(data: &[u8]) {
    let mut g = Gen::new(data);
    let n = g.length();
    // A forest in parents-first order, moved to the caller's order `perm`.
    let mut perm: Buf<usize> = Buf::from_fn(n, |k| k);
    if !g.one_in(4) {
        for k in (1..n).rev() {
            perm.swap(k, g.u32() as usize % (k + 1));
        }
    }
    let mut parents: Buf<i32> = Buf::from_fn(n, |_| -1);
    for k in 0..n {
        let p = if k == 0 || g.one_in(6) { None } else { Some(g.u32() as usize % k) };
        parents[perm[k]] = p.map_or(-1, |p| perm[p] as i32);
    }
    if g.bad && n > 0 {
        for _ in 0..1 + g.byte() % 3 {
            let j = g.u32() as usize % n;
            parents[j] = match g.byte() % 8 {
                0 => j as i32,
                1 => -2,
                2 => n as i32,
                3 => g.u32() as i32,
                4 => i32::MIN,
                _ => (g.u32() as usize % n) as i32,
            };
        }
    }
    let invalid = parents.iter().position(|&p| p < -1 || p as i64 >= n as i64);
    let sk = match (Skeleton::new(&parents), invalid) {
        (Err(Error::InvalidParent { joint, parent }), Some(j)) => {
            assert!(joint == j && parent == parents[j], "InvalidParent {{ {joint}, {parent} }}: first invalid {j}");
            return;
        }
        (r, Some(j)) => panic!("{r:?} with parents[{j}] = {} (parents {parents:?})", parents[j]),
        (Err(Error::ParentCycle { joint }), None) => {
            assert!(joint < n && on_cycle(&parents, joint), "ParentCycle at {joint}: not on a cycle ({parents:?})");
            return;
        }
        (Err(e), None) => panic!("{e:?} for {parents:?}"),
        (Ok(sk), None) => sk,
    };
    let (order, positions, sp) = (sk.order(), sk.positions(), sk.parents());
    assert!(sk.len() == n && order.len() == n && positions.len() == n && sp.len() == n, "lengths of {sk:?}");
    let already = parents.iter().enumerate().all(|(j, &p)| p < j as i32);
    assert_eq!(sk.is_parents_first(), already, "{parents:?}: {order:?}");
    let mut seen = [false; CAP];
    for k in 0..n {
        let j = order[k];
        assert!(j < n && !seen[j] && positions[j] == k, "order {order:?}, positions {positions:?}");
        seen[j] = true;
        assert!(!already || j == k, "{parents:?} is parents first: order {order:?}");
        let want = usize::try_from(parents[j]).map_or(-1, |p| positions[p] as i32);
        assert!(sp[k] == want && sp[k] < k as i32, "parents() {sp:?} for {parents:?} in order {order:?}");
    }
    assert!(sk.roots().iter().copied().eq((0..n).filter(|&k| sp[k] < 0)), "roots {:?} of {sp:?}", sk.roots());
    let mut runs = sk.runs();
    let mut k = 0;
    while k < n {
        if sp[k] < 0 {
            k += 1;
            continue;
        }
        let first = k;
        while k < n && sp[k] >= 0 {
            k += 1;
        }
        assert_eq!(runs.next(), Some(first..=k - 1), "runs of {sp:?}");
    }
    assert_eq!(runs.next(), None, "runs of {sp:?}");
    // The permutations, on the joints' own numbers.
    let ids: Buf<usize> = Buf::from_fn(n, |j| j);
    let mut sorted: Buf<usize> = Buf::from_fn(n, |_| usize::MAX);
    sk.to_parents_first(&ids, &mut sorted).expect("lengths match");
    assert_eq!(&sorted[..], order, "to_parents_first");
    let mut back: Buf<usize> = Buf::from_fn(n, |_| usize::MAX);
    sk.from_parents_first(&sorted, &mut back).expect("lengths match");
    assert_eq!(&back[..], &ids[..], "from_parents_first");
    let mut long: Buf<usize> = Buf::from_fn(n + 1, |_| usize::MAX);
    let r = sk.to_parents_first(&ids, &mut long);
    assert!(r == Err(Error::LengthMismatch { what: "out", expected: n, found: n + 1 }), "{r:?}");
    assert!(long.iter().all(|&v| v == usize::MAX), "written on {r:?}");

    // The kernels over the runs.
    let local = g.mats(n);
    let facts = MatFacts::new(&local);
    // The model matrices in f64, with the chain's rigidity, translations and depth.
    let mut m64 = [[0f64; 12]; CAP];
    // Per position: whether its chain is rigid, 1 + the sum of
    // the chain's translation magnitudes, the chain's length.
    let mut chain = [(true, 1f64, 0usize); CAP];
    for k in 0..n {
        let (ok, scale, depth) = match usize::try_from(sp[k]) {
            Ok(p) => {
                m64[k] = affine_mul_f64(m64[p], mat_f64(&local[k]));
                chain[p]
            }
            Err(_) => {
                m64[k] = mat_f64(&local[k]);
                (true, 1.0, 0)
            }
        };
        chain[k] = (ok && facts.rigid(k), scale + facts.magnitude(k), depth + 1);
    }
    // `local_to_model` runs `transform_skeleton`, `model_to_local`
    // `untransform_skeleton`: each with its forms.
    let routine = |name| Forms::of(find(name).expect("in the roster"));
    let fs = [routine("untransform_skeleton"), routine("transform_skeleton")];
    // What the fastest form wrote, for `Auto` (`EVERY_IMPL` ends with it).
    let mut fastest = [local; 2];
    // One of the two per input (each with every form, on every run).
    let model = g.one_in(2);
    for imp in EVERY_IMPL {
        {
            let fs = &fs[usize::from(model)];
            let here = imp == Impl::Auto || fs.contains(imp);
            let mut got = local;
            let r = if model { sk.local_to_model(imp, &mut got) } else { sk.model_to_local(imp, &mut got) };
            if !here {
                assert!(refused(&r, imp), "{imp}: {r:?}");
                assert_untouched(&local, &got, format_args!("{imp} after {r:?}"));
                continue;
            }
            assert_eq!(r, Ok(()), "{imp}");
            if imp == fs.first().imp {
                fastest[usize::from(model)] = got;
            }
            if imp == Impl::Auto {
                let want = &fastest[usize::from(model)];
                assert_same(want, &got, format_args!("auto vs {} (local_to_model: {model})", fs.first().imp));
                continue;
            }
            let mut want = local;
            for k in 0..n {
                let k = if model { k } else { n - 1 - k };
                if sp[k] >= 0 {
                    let r = if model {
                        animasm::transform_skeleton(imp, &mut want, sp, k..=k)
                    } else {
                        animasm::untransform_skeleton(imp, &mut want, sp, k..=k)
                    };
                    assert_eq!(r, Ok(()), "{imp}: joint {k}");
                }
            }
            assert_same(&want, &got, format_args!("{imp} (local_to_model: {model}) vs a per-joint loop"));
            if model {
                for k in (0..n).filter(|&k| chain[k].0 && sp[k] >= 0) {
                    let bound = TOL * chain[k].1 * (chain[k].2 as f64 / 8.0).max(1.0);
                    for (e, (&g, &w)) in got[k].mat.iter().zip(&m64[k]).enumerate() {
                        let d = abs_err(f64::from(g), w);
                        assert!(d <= bound, "{imp}: joint {k} mat[{e}]: {g:e} vs f64 {w:e} (bound {bound:e})");
                    }
                }
            }
        }
    }
    let mut short = Buf::<JointMat>::from_fn(n.saturating_sub(1), |k| local[k]);
    if n > 0 {
        let r = sk.local_to_model(Impl::Auto, &mut short);
        assert!(r == Err(Error::LengthMismatch { what: "mats", expected: n, found: n - 1 }), "{r:?}");
        assert_untouched(&local[..n - 1], &short, format_args!("after {r:?}"));
    }
    // The blends over every joint.
    let (joints, blend, lerp) = (g.joints(n), g.joints(n), g.lerp());
    let all: Buf<i32> = Buf::from_fn(n, |k| k as i32);
    // One of the two per input (each checks every joint).
    let slerp = g.one_in(2);
    {
        let (mut a, mut b) = (joints, joints);
        let (ra, rb) = if slerp {
            (
                sk.slerp_joints(Impl::Auto, &mut a, &blend, lerp),
                animasm::slerp_joints(Impl::Auto, &mut b, &blend, lerp, &all),
            )
        } else {
            (
                sk.lerp_joints(Impl::Auto, &mut a, &blend, lerp),
                animasm::lerp_joints(Impl::Auto, &mut b, &blend, lerp, &all),
            )
        };
        assert!(same_result(&ra, &rb), "slerp {slerp}: {ra:?} vs {rb:?}");
        assert_same(
            &a,
            &b,
            format_args!("Skeleton::{}_joints vs the safe function", if slerp { "slerp" } else { "lerp" }),
        );
    }
}
