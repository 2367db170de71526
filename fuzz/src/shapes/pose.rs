//! `Shape::Pose`: a whole pose, two poses blended to model matrices (and
//! skinning matrices) of a parents-first skeleton (`slerp_pose`,
//! `lerp_pose`).
//!
//! Inputs: any lengths (of `from`, `to`, `parents`, the scales, the
//! inverse bind matrices and the skin), any floats, any factor (the
//! endpoints and beyond them too), any parents, roots anywhere. Besides
//! the common checks ([`run_every_impl`], on the model matrices), the same
//! on the skinning matrices, which [`run_every_impl`]'s buffer does not
//! hold: kept bit for bit on `Err`, the listing and its twin the same bits,
//! the successors the same bits, `Auto` the bits of the form it picks.
//! Then:
//!
//! - the result is the one the documented checks give, in their order
//!   ([`expected`]): a malformed input is an `Err`, never a panic;
//! - on `Ok`, every form gives (NaN payloads aside) the bits of its four
//!   routines' safe functions called one after the other over the whole
//!   skeleton with the same `Impl` ([`chained`]).

use crate::*;
use animasm::pose::{PoseInput, Skin};
use animasm::roster::{Routine, Shape};
use animasm::{JointMat, Vec4};

/// `0, 1, ..., CAP - 1`: the index list of a blend of every joint.
static INDEX: [i32; CAP] = {
    let mut index = [0; CAP];
    let mut i = 0;
    while i < CAP {
        index[i] = i as i32;
        i += 1;
    }
    index
};

/// One input's arrays.
struct Args {
    model_init: Buf<JointMat>,
    from: Buf<JointQuat>,
    to: Buf<JointQuat>,
    factor: f32,
    parents: Buf<i32>,
    scale: Option<Buf<Vec4>>,
    /// The inverse bind matrices and the skin's initial contents.
    skin: Option<(Buf<JointMat>, Buf<JointMat>)>,
}

/// A scale: in a tame input positive and moderate (`[1/16, 16)` on each
/// axis), otherwise any four floats.
fn scale(g: &mut Gen) -> Vec4 {
    if g.tame {
        let mut axis = || 2f32.powi(i32::from(g.byte() % 8) - 4) * (1.0 + f32::from(g.byte()) / 256.0);
        Vec4::new(axis(), axis(), axis(), 1.0)
    } else {
        g.vec4()
    }
}

fn args(g: &mut Gen) -> Args {
    let n = g.length();
    let model_init = g.mats(n);
    let (nf, nt) = (g.len_near(n), g.len_near(n));
    let (from, to) = (g.joints(nf), g.joints(nt));
    let factor = match g.byte() % 8 {
        // The endpoint rule's edges.
        0 => [0.0, -0.0, 1.0, -1.0, 2.0, 1e-30, 0.999_999_94, f32::MIN_POSITIVE][g.byte() as usize % 8],
        1 => g.f32(),
        _ => g.lerp(),
    };
    let np = g.len_near(n);
    // Roots anywhere (one joint in eight), else `Gen::parent`'s.
    let parents = Buf::from_fn(np, |i| if i > 0 && g.one_in(8) { -1 } else { g.parent(i) });
    let scale = g.one_in(2).then(|| {
        let k = g.len_near(n);
        Buf::from_fn(k, |_| scale(g))
    });
    let skin = g.one_in(2).then(|| {
        let (kb, ks) = (g.len_near(n), g.len_near(n));
        (g.mats(kb), g.mats(ks))
    });
    Args { model_init, from, to, factor, parents, scale, skin }
}

/// What the safe functions return once the form is known to run, for `n`
/// model matrices, the other arrays' `lengths` (in the documented order;
/// `None`: not given), `factor` and `parents`: the documented checks in
/// their order (`TooLong` cannot happen with the fuzz's short lists).
pub fn expected(
    n: usize,
    lengths: [(&'static str, Option<usize>); 6],
    factor: f32,
    parents: &[i32],
) -> Result<(), Error> {
    if let Some(&(what, Some(found))) = lengths.iter().find(|(_, l)| l.is_some_and(|l| l != n)) {
        return Err(Error::LengthMismatch { what, expected: n, found });
    }
    if !factor.is_finite() {
        return Err(Error::NonFiniteFactor { what: "factor", position: None, value: factor });
    }
    for (joint, &parent) in parents.iter().enumerate() {
        if parent != -1 && !(0..joint as i64).contains(&i64::from(parent)) {
            return Err(Error::InvalidParent { joint, parent });
        }
    }
    Ok(())
}

/// The joint blend of the pose routine `r`.
fn blend_of(r: &Routine) -> fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error> {
    match r.name {
        "slerp_pose" => animasm::slerp_joints,
        "lerp_pose" => animasm::lerp_joints,
        other => panic!("{other}: a pose routine fuzz/src/shapes/pose.rs does not know the blend of"),
    }
}

/// The four safe functions of `imp` one after the other over the whole
/// skeleton (of a valid input): the blend, `quats_to_mats`, the scale (each
/// rotation column `c` times `scale[c]`), `transform_skeleton` on each
/// root-free run, then `transform_joints`: the model and skinning
/// matrices.
fn chained(r: &Routine, imp: Impl, a: &Args) -> (Buf<JointMat>, Buf<JointMat>) {
    let n = a.model_init.len();
    let [blend, to_mats, skeleton, skin_step] = [0, 1, 2, 3].map(|k| r.chained_form(r.chain()[k], imp));
    let mut joints = a.from;
    blend_of(r)(blend, &mut joints, &a.to, a.factor, &INDEX[..n]).expect("the blend of a valid pose");
    let mut model = Buf::from_fn(n, |_| JointMat::default());
    animasm::quats_to_mats(to_mats, &mut model, &joints).expect("quats_to_mats of a valid pose");
    if let Some(scale) = &a.scale {
        for (m, s) in model.iter_mut().zip(scale.iter()) {
            let s = [s.x, s.y, s.z];
            for e in (0..12).filter(|e| e % 4 != 3) {
                m.mat[e] *= s[e % 4];
            }
        }
    }
    let mut first = 0;
    for i in 0..=n {
        if i == n || a.parents[i] < 0 {
            if first < i {
                animasm::transform_skeleton(skeleton, &mut model, &a.parents, first..=i - 1)
                    .expect("transform_skeleton of a valid pose");
            }
            first = i + 1;
        }
    }
    let mut skin = Buf::from_fn(n, |_| JointMat::default());
    if let Some((inverse_bind, _)) = &a.skin {
        animasm::transform_joints(skin_step, &mut skin, &model, inverse_bind).expect("transform_joints of a valid pose");
    }
    (model, skin)
}

/// Fuzzes the pose routine `r` on arguments from `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let Shape::Pose { safe, .. } = r.shape else { unreachable!("not a pose routine") };
    assert!(family(r).count() == 1, "{}: a pose routine with variants (fuzz/src/shapes/pose.rs)", r.name);
    let a = args(g);
    let forms = Forms::of(r);
    let mut skins = [Buf::<JointMat>::new(); RUNS];
    let mut runs = Runs::new();
    let runs = run_every_impl(&mut runs, &forms, &a.model_init, |imp, out| {
        let input = PoseInput { from: &a.from, to: &a.to, factor: a.factor, scale: a.scale.as_deref() };
        match &a.skin {
            Some((inverse_bind, init)) => {
                let k = EVERY_IMPL.iter().position(|&i| i == imp).expect("a form of EVERY_IMPL");
                skins[k].set(init);
                safe(imp, &input, &a.parents, out, Some(Skin { inverse_bind, mats: &mut skins[k] }))
            }
            None => safe(imp, &input, &a.parents, out, None),
        }
    });
    let n = a.model_init.len();
    let lengths = [
        ("from", Some(a.from.len())),
        ("to", Some(a.to.len())),
        ("parents", Some(a.parents.len())),
        ("scale", a.scale.as_ref().map(|s| s.len())),
        ("inverse_bind", a.skin.as_ref().map(|s| s.0.len())),
        ("skin", a.skin.as_ref().map(|s| s.1.len())),
    ];
    let want = expected(n, lengths, a.factor, &a.parents);
    let got = runs.result();
    assert!(same_result(&got, &want), "returned {got:?}, the documented checks give {want:?}");
    // The skinning matrices: the common checks, on the second output.
    let skin_of = |imp: Impl| &skins[EVERY_IMPL.iter().position(|&i| i == imp).expect("a form of EVERY_IMPL")];
    if let Some((_, init)) = &a.skin {
        for run in runs.iter().filter(|r| r.result.is_err()) {
            assert_untouched(init, skin_of(run.imp), format_args!("{}: skin after {:?}", run.imp, run.result));
        }
        let ok = |origin: fn(Origin) -> bool| {
            forms.iter().filter(move |f| origin(f.origin)).filter_map(|f| get(runs, f.imp)).map(|r| r.imp)
        };
        for group in [ok(|o| o.is_faithful()).collect::<Vec<_>>(), ok(|o| o == Origin::Successor).collect()] {
            for pair in group.windows(2) {
                assert_same(skin_of(pair[0]), skin_of(pair[1]), format_args!("skin: {} vs {}", pair[0], pair[1]));
            }
        }
        if get(runs, Impl::Auto).is_some() {
            let fastest = forms.first().imp;
            assert_same(skin_of(Impl::Auto), skin_of(fastest), format_args!("skin: auto vs {fastest}"));
        }
    }
    // Every form that ran, against its four routines chained.
    for run in runs.iter().filter(|r| r.result.is_ok() && r.imp != Impl::Auto) {
        let (model, skin) = chained(r, run.imp, &a);
        assert_same(&model, &run.out, format_args!("{}: model vs its routines chained", run.imp));
        if a.skin.is_some() {
            assert_same(&skin, skin_of(run.imp), format_args!("{}: skin vs its routines chained", run.imp));
        }
    }
}
