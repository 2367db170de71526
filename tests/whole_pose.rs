//! `slerp_pose` and `lerp_pose`, the assembly line in one call: every form
//! of the roster's two entries (taken from `animasm::roster`, never a
//! written-out list) against the four safe functions of the same `Impl`
//! called one after the other over the whole skeleton (the blend,
//! `quats_to_mats`, the scale, `transform_skeleton` on each root-free run,
//! `transform_joints`), bit for bit; the successors against
//! `Impl::Portable` bit for bit (and `Impl::Portable` with FMA hidden);
//! every error in the documented order, with nothing written; and
//! `Skeleton::slerp_pose` / `lerp_pose` on a shuffled forest against an
//! f64 reference written here and against the `Skeleton` methods chained.
//!
//! (`tests/pose.rs` is the glTF pose pipeline of `devkit`, another thing.)

mod common;

use animasm::isa::Detection;
use animasm::pose::{PoseInput, Skin};
use animasm::roster::{self, PoseFn, Routine, Shape};
use animasm::{Error, Impl, JointMat, JointQuat, Origin, Skeleton, Vec4};
use animasm_testkit::cases::{Workload, workload_joints};
use animasm_testkit::inputs::{Rng, forest_parents, random_parents, rigid_mats, shuffle_parents};

use common::cpu::skipped;

/// The two routines.
const NAMES: [&str; 2] = ["slerp_pose", "lerp_pose"];

/// What fills every output before a call: a quiet NaN that no kernel
/// writes for the inputs here.
const SENTINEL: u32 = 0x7FA5_A5A5;

/// The joint counts: none, one, two, four (the listings' blends take their
/// one-at-a-time loop for exactly four), a character's 24, around one
/// chunk of 32 and two, 36 and 100 (a chunk of 32 and 4 joints left: the
/// driver splits them 28 and 8, see `src/pose/line.rs`), 8, 12, 20, 40
/// and 56 (the `Avx512` form's last groups of one, two and three blocks of
/// eight lanes), and a long one (Miri: a few, across a chunk).
const COUNTS: &[usize] =
    if cfg!(miri) { &[0, 1, 33] } else { &[0, 1, 2, 4, 8, 12, 20, 24, 31, 32, 33, 36, 40, 56, 64, 100, 1027] };

/// The blend factors: both endpoints and beyond them, and between.
const FACTORS: &[f32] = if cfg!(miri) { &[0.0, 2.0, 0.25] } else { &[0.0, -1.0, 1.0, 2.0, 0.25, 0.5, 0.999] };

/// The roster entry `name`.
#[track_caller]
fn routine(name: &str) -> &'static Routine {
    let r = roster::find(name).unwrap_or_else(|| panic!("no {name} in animasm::roster"));
    assert!(r.is_composite() && !r.is_id_routine(), "{name}");
    r
}

/// The safe function of a pose routine.
#[track_caller]
fn safe(r: &Routine) -> PoseFn {
    match r.shape {
        Shape::Pose { safe, .. } => safe,
        _ => panic!("{} is not a Pose routine", r.name),
    }
}

/// The joint blend a pose routine runs: `slerp_joints` or `lerp_joints`.
type BlendFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

#[track_caller]
fn blend_of(r: &Routine) -> BlendFn {
    match r.name {
        "slerp_pose" => animasm::slerp_joints,
        "lerp_pose" => animasm::lerp_joints,
        other => panic!("no blend known for {other}"),
    }
}

/// The forms of `r` this CPU runs (fastest first); each one it lacks is
/// said on stderr as skipped.
fn forms_here(r: &Routine) -> Vec<(Impl, Origin)> {
    for f in r.all_forms() {
        if let Err(e) = r.resolve(f.imp) {
            skipped(&format!("whole_pose: {} {} not run: {e} (needs {})", r.name, f.imp, f.isa.needs()));
        }
    }
    let forms: Vec<(Impl, Origin)> = r.forms().map(|f| (f.imp, f.origin)).collect();
    assert!(forms.iter().any(|f| f.0 == Impl::Scalar) && forms.iter().any(|f| f.0 == Impl::Portable), "{}", r.name);
    forms
}

/// The hierarchies, parents first.
#[derive(Clone, Copy, Debug)]
enum Hierarchy {
    /// Every joint the child of the one before.
    Chain,
    /// One root (joint 0), every other parent uniform among the joints
    /// before it.
    Tree,
    /// Roots at 0, 5, 32 (a chunk's first joint), 40, 63 (a chunk's last)
    /// and 600, the others a uniform earlier joint.
    Roots,
    /// Every joint a root.
    AllRoots,
}

const HIERARCHIES: [Hierarchy; 4] = [Hierarchy::Chain, Hierarchy::Tree, Hierarchy::Roots, Hierarchy::AllRoots];

fn parents(h: Hierarchy, seed: u64, n: usize) -> Vec<i32> {
    match h {
        Hierarchy::Chain => (0..n as i32).map(|i| i - 1).collect(),
        Hierarchy::Tree => random_parents(seed, n),
        Hierarchy::Roots => forest_parents(&mut Rng::new(seed), n, |i| [0, 5, 32, 40, 63, 600].contains(&i)),
        Hierarchy::AllRoots => vec![-1; n],
    }
}

/// Per-joint scales, non-uniform, each in `[lo, hi)` (`w` 1).
fn scales(seed: u64, n: usize, lo: f64, hi: f64) -> Vec<Vec4> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| Vec4::new(rng.range(lo, hi) as f32, rng.range(lo, hi) as f32, rng.range(lo, hi) as f32, 1.0))
        .collect()
}

/// One call's inputs.
struct Case {
    label: String,
    from: Vec<JointQuat>,
    to: Vec<JointQuat>,
    factor: f32,
    scale: Option<Vec<Vec4>>,
    parents: Vec<i32>,
    inverse_bind: Option<Vec<JointMat>>,
}

impl Case {
    fn input(&self) -> PoseInput<'_> {
        PoseInput { from: &self.from, to: &self.to, factor: self.factor, scale: self.scale.as_deref() }
    }
}

/// A pose's outputs: the model matrices, and the skinning matrices if the
/// case has a skin.
type Out = (Vec<JointMat>, Option<Vec<JointMat>>);

fn sentinels(n: usize) -> Vec<JointMat> {
    vec![JointMat { mat: [f32::from_bits(SENTINEL); 12] }; n]
}

fn untouched(m: &[JointMat]) -> bool {
    m.iter().all(|m| m.mat.iter().all(|v| v.to_bits() == SENTINEL))
}

/// `r` with `imp` on the case, outputs filled with [`SENTINEL`] first.
fn pose(r: &Routine, imp: Impl, c: &Case) -> Result<Out, Error> {
    let n = c.parents.len();
    let mut model = sentinels(n);
    let mut skin = c.inverse_bind.as_ref().map(|_| sentinels(n));
    let s = match (&c.inverse_bind, skin.as_deref_mut()) {
        (Some(inverse_bind), Some(mats)) => Some(Skin { inverse_bind, mats }),
        _ => None,
    };
    safe(r)(imp, &c.input(), &c.parents, &mut model, s)?;
    Ok((model, skin))
}

/// `R * diag(s)`, one rounding per element: column `c` of the rotation
/// times `s[c]`.
fn scale_columns(m: &mut JointMat, s: &Vec4) {
    let s = [s.x, s.y, s.z];
    for (e, v) in m.mat.iter_mut().enumerate() {
        if e % 4 != 3 {
            *v *= s[e % 4];
        }
    }
}

/// The root-free runs of a parents-first hierarchy: each maximal range of
/// joints that are not roots.
fn root_free_runs(parents: &[i32]) -> Vec<core::ops::RangeInclusive<usize>> {
    let mut runs = Vec::new();
    let mut start = None;
    for (i, &p) in parents.iter().enumerate() {
        match (p < 0, start) {
            (true, Some(s)) => {
                runs.push(s..=i - 1);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push(s..=parents.len() - 1);
    }
    runs
}

/// The form of `transform_skeleton` that a pose form `imp` chains (the
/// roster's [`Routine::chained_form`]).
fn skeleton_form(imp: Impl) -> Impl {
    roster::find("lerp_pose").unwrap().chained_form("transform_skeleton", imp)
}

/// The four safe functions of `imp` one after the other over the whole
/// skeleton: what the pose routine `r` must give with `imp` (with
/// [`skeleton_form`]'s `transform_skeleton`).
fn chained(r: &Routine, imp: Impl, c: &Case) -> Out {
    let n = c.parents.len();
    let all: Vec<i32> = (0..n as i32).collect();
    let mut joints = c.from.clone();
    blend_of(r)(imp, &mut joints, &c.to, c.factor, &all).unwrap_or_else(|e| panic!("{} {imp}: blend: {e}", r.name));
    let mut model = sentinels(n);
    animasm::quats_to_mats(imp, &mut model, &joints).unwrap_or_else(|e| panic!("{imp}: quats_to_mats: {e}"));
    if let Some(s) = &c.scale {
        model.iter_mut().zip(s).for_each(|(m, s)| scale_columns(m, s));
    }
    for run in root_free_runs(&c.parents) {
        animasm::transform_skeleton(skeleton_form(imp), &mut model, &c.parents, run)
            .unwrap_or_else(|e| panic!("{imp}: transform_skeleton: {e}"));
    }
    let skin = c.inverse_bind.as_ref().map(|ib| {
        let mut skin = sentinels(n);
        animasm::transform_joints(imp, &mut skin, &model, ib)
            .unwrap_or_else(|e| panic!("{imp}: transform_joints: {e}"));
        skin
    });
    (model, skin)
}

/// Panics unless `a` and `b` are the same bits in every float, naming the
/// first difference.
#[track_caller]
fn assert_same_bits(a: &[JointMat], b: &[JointMat], ctx: &str) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths");
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        if let Some(e) = (0..12).find(|&e| x.mat[e].to_bits() != y.mat[e].to_bits()) {
            let count = a.iter().zip(b).filter(|(x, y)| x.mat.map(f32::to_bits) != y.mat.map(f32::to_bits)).count();
            panic!(
                "{ctx}: joint {j} mat[{e}] differs: {:#010x} ({:e}) vs {:#010x} ({:e}); {count} of {} joints differ",
                x.mat[e].to_bits(),
                x.mat[e],
                y.mat[e].to_bits(),
                y.mat[e],
                a.len()
            );
        }
    }
}

#[track_caller]
fn assert_same_out(a: &Out, b: &Out, ctx: &str) {
    assert_same_bits(&a.0, &b.0, &format!("{ctx}: model"));
    assert_eq!(a.1.is_some(), b.1.is_some(), "{ctx}: skin");
    if let (Some(x), Some(y)) = (&a.1, &b.1) {
        assert_same_bits(x, y, &format!("{ctx}: skin"));
    }
}

/// The workloads: random, the Fox's keyframes (not under Miri: it reads
/// the file), a held pose, near-identical poses.
fn workloads() -> Vec<Workload> {
    Workload::ALL.into_iter().filter(|w| !(cfg!(miri) && *w == Workload::Fox)).collect()
}

/// Every case of the sweep: each count, hierarchy, workload and factor,
/// with each of the four combinations of scale and skin for every count,
/// hierarchy and factor (across the workloads).
fn cases() -> Vec<Case> {
    let mut cases = Vec::new();
    let hierarchies: &[Hierarchy] = if cfg!(miri) { &[Hierarchy::Roots, Hierarchy::Chain] } else { &HIERARCHIES };
    for &n in COUNTS {
        for (hi, &h) in hierarchies.iter().enumerate() {
            let seed = 0x5e_0000 + n as u64 * 16 + hi as u64;
            let parents = parents(h, seed, n);
            for (wi, w) in workloads().into_iter().enumerate() {
                let (from, to) = workload_joints(w, seed ^ 0x77, n);
                for (fi, &factor) in FACTORS.iter().enumerate() {
                    let combo = (wi + fi + hi) % 4;
                    let scale = (combo & 1 == 1).then(|| scales(seed ^ 0x5ca1e, n, 0.5, 2.0));
                    let inverse_bind = (combo & 2 == 2).then(|| rigid_mats(seed ^ 0x1b, n));
                    cases.push(Case {
                        label: format!(
                            "n={n} {h:?} {} factor {factor} scale {} skin {}",
                            w.name(),
                            scale.is_some(),
                            inverse_bind.is_some()
                        ),
                        from: from.clone(),
                        to: to.clone(),
                        factor,
                        scale,
                        parents: parents.clone(),
                        inverse_bind,
                    });
                }
            }
        }
    }
    cases
}

/// Every form of both routines is, bit for bit, its four safe functions
/// chained over the whole skeleton; every successor form and
/// `Deterministic` give `Portable`'s bits; and `Portable` gives the same
/// bits with FMA hidden (its copy without hardware FMA, what targets
/// without it run).
#[test]
fn every_form_is_its_routines_chained_and_the_successors_agree() {
    let cases = cases();
    let mut calls = 0usize;
    for name in NAMES {
        let r = routine(name);
        let forms = forms_here(r);
        for c in &cases {
            let portable = pose(r, Impl::Portable, c).unwrap();
            for &(imp, origin) in &forms {
                let ctx = format!("{name} {imp}: {}", c.label);
                let got = pose(r, imp, c).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                assert!(!got.0.iter().any(|m| m.mat.iter().any(|v| v.to_bits() == SENTINEL)), "{ctx}: not written");
                assert_same_out(&got, &chained(r, imp, c), &format!("{ctx} vs its routines chained"));
                if origin == Origin::Successor {
                    assert_same_out(&got, &portable, &format!("{ctx} vs Portable"));
                }
                calls += 2;
            }
            let det = pose(r, Impl::Deterministic, c).unwrap();
            assert_same_out(&det, &portable, &format!("{name} Deterministic: {}", c.label));
            #[cfg(feature = "std")]
            {
                use animasm::test_hooks::{Machine, with_machine};
                let without_fma = with_machine(Machine::BASELINE, || pose(r, Impl::Portable, c).unwrap());
                assert_same_out(&without_fma, &portable, &format!("{name} Portable with FMA hidden: {}", c.label));
                calls += 1;
            }
            calls += 2;
        }
    }
    #[cfg(not(feature = "std"))]
    skipped("whole_pose: Portable with FMA hidden needs the test hooks (the `std` feature): not run");
    eprintln!("every_form_is_its_routines_chained_and_the_successors_agree: {} cases, {calls} calls", cases.len());
}

/// `Impl::Auto` keeps the row it finds on its first call (the pose
/// routines' `dispatch::Table`), but a thread whose view a test hook
/// narrows neither leaves its row behind nor is given the kept one: on
/// `x86_64` the baseline's `Auto` runs a listing, whose bits differ from
/// the successor a CPU with AVX2 and FMA runs, so each call's bits say
/// which row ran. Narrowed first, then the CPU's row (kept), then narrowed
/// again, then the CPU's row again.
#[cfg(all(feature = "std", target_arch = "x86_64"))]
#[test]
fn auto_keeps_its_row_but_not_under_a_hook() {
    use animasm::test_hooks::{Machine, with_machine};
    let n = 100;
    let parents = parents(Hierarchy::Tree, 0xa070, n);
    let (from, to) = workload_joints(Workload::Random, 0xa071, n);
    let c = Case {
        label: format!("n={n} Tree random factor 0.25"),
        from,
        to,
        factor: 0.25,
        scale: None,
        parents,
        inverse_bind: None,
    };
    for name in NAMES {
        let r = routine(name);
        let ctx = format!("{name} Auto, {}", c.label);
        let baseline_form = with_machine(Machine::BASELINE, || r.resolve(Impl::Auto)).unwrap().imp;
        let cpu_form = r.resolve(Impl::Auto).unwrap().imp;
        let baseline = pose(r, baseline_form, &c).unwrap();
        let cpu = pose(r, cpu_form, &c).unwrap();
        let narrowed = || with_machine(Machine::BASELINE, || pose(r, Impl::Auto, &c)).unwrap();
        assert_same_out(&narrowed(), &baseline, &format!("{ctx}, narrowed first: {baseline_form}"));
        assert_same_out(&pose(r, Impl::Auto, &c).unwrap(), &cpu, &format!("{ctx}: {cpu_form}"));
        assert_same_out(&narrowed(), &baseline, &format!("{ctx}, narrowed after a kept row: {baseline_form}"));
        assert_same_out(&pose(r, Impl::Auto, &c).unwrap(), &cpu, &format!("{ctx}, kept: {cpu_form}"));
        if cpu_form == baseline_form {
            skipped(&format!("{ctx}: this CPU's Auto is the baseline's ({cpu_form}): which row ran is not seen"));
        } else {
            assert!(
                cpu.0.iter().zip(&baseline.0).any(|(a, b)| a.mat.map(f32::to_bits) != b.mat.map(f32::to_bits)),
                "{ctx}: {cpu_form} and {baseline_form} give the same bits, so the check above sees nothing"
            );
        }
    }
}

/// The chained functions are not all the same thing: the check above would
/// see a pose form that blended, scaled, composed or skinned wrongly. On a
/// few cases, each stage left out changes the result.
#[test]
fn the_check_sees_each_stage() {
    let n = 40;
    let (from, to) = workload_joints(Workload::Random, 9, n);
    let c = Case {
        label: "stages".into(),
        from,
        to,
        factor: 0.3,
        scale: Some(scales(3, n, 0.5, 2.0)),
        parents: parents(Hierarchy::Roots, 4, n),
        inverse_bind: Some(rigid_mats(5, n)),
    };
    for name in NAMES {
        let r = routine(name);
        let want = chained(r, Impl::Portable, &c);
        let differs = |other: &Case| {
            let o = chained(r, Impl::Portable, other);
            o.0.iter().zip(&want.0).any(|(a, b)| a.mat != b.mat)
        };
        let tweak = |f: &dyn Fn(&mut Case)| {
            let mut d = Case { label: String::new(), ..clone_case(&c) };
            f(&mut d);
            d
        };
        assert!(differs(&tweak(&|d| d.factor = 0.31)), "{name}: factor");
        assert!(differs(&tweak(&|d| d.scale = None)), "{name}: scale");
        assert!(differs(&tweak(&|d| d.parents = vec![-1; n])), "{name}: parents");
        let got = pose(r, Impl::Portable, &c).unwrap();
        assert_same_out(&got, &want, name);
        let skin = got.1.unwrap();
        assert!(skin.iter().zip(&got.0).any(|(s, m)| s.mat != m.mat), "{name}: the skin is the model");
    }
}

fn clone_case(c: &Case) -> Case {
    Case {
        label: c.label.clone(),
        from: c.from.clone(),
        to: c.to.clone(),
        factor: c.factor,
        scale: c.scale.clone(),
        parents: c.parents.clone(),
        inverse_bind: c.inverse_bind.clone(),
    }
}

// ---------------------------------------------------------------------------
// Errors.

/// A call that may be wrong in several ways: the lengths of each array
/// (`None`: no scale, no skin) and the factor and parents.
#[derive(Clone)]
struct Wrong {
    model: usize,
    from: usize,
    to: usize,
    parents: Vec<i32>,
    scale: Option<usize>,
    inverse_bind: Option<usize>,
    skin: Option<usize>,
    factor: f32,
}

/// A valid call on `n` joints (with scale and skin), two roots.
fn valid(n: usize) -> Wrong {
    Wrong {
        model: n,
        from: n,
        to: n,
        parents: (0..n as i32).map(|i| if i % 4 == 0 { -1 } else { i - 1 }).collect(),
        scale: Some(n),
        inverse_bind: Some(n),
        skin: Some(n),
        factor: 0.4,
    }
}

/// Calls `r` with `imp` on `w`'s arrays; the result, and whether every
/// output kept its sentinel.
fn call_wrong(r: &Routine, imp: Impl, w: &Wrong) -> (Result<(), Error>, bool) {
    let (from, to) = workload_joints(Workload::Random, 1, w.from.max(w.to));
    let scale = w.scale.map(|k| scales(2, k, 0.5, 2.0));
    let ib = w.inverse_bind.map(|k| rigid_mats(3, k));
    let mut model = sentinels(w.model);
    let mut skin = w.skin.map(sentinels);
    let input = PoseInput { from: &from[..w.from], to: &to[..w.to], factor: w.factor, scale: scale.as_deref() };
    let s = match (&ib, skin.as_deref_mut()) {
        (Some(inverse_bind), Some(mats)) => Some(Skin { inverse_bind, mats }),
        _ => None,
    };
    let got = safe(r)(imp, &input, &w.parents, &mut model, s);
    (got, untouched(&model) && skin.as_deref().is_none_or(untouched))
}

/// `got` is `Err(want)`, a NaN factor in both counting as the same.
#[track_caller]
fn assert_err(got: Result<(), Error>, want: Error, ctx: &str) {
    let same = match (got, want) {
        (
            Err(Error::NonFiniteFactor { what: a, position: p, value: x }),
            Error::NonFiniteFactor { what: b, position: q, value: y },
        ) => a == b && p == q && x.to_bits() == y.to_bits(),
        (got, want) => got == Err(want),
    };
    assert!(same, "{ctx}: got {got:?}, expected Err({want:?})");
}

/// The wrong calls, each wrong in its own way and in every way checked
/// after it, with the error it must give: the documented order.
fn wrong_calls(n: usize) -> Vec<(&'static str, Wrong, Error)> {
    let v = valid(n);
    let mismatch = |what, found| Error::LengthMismatch { what, expected: n, found };
    let mut bad_parents = v.parents.clone();
    bad_parents[2] = 2;
    let later = |mut w: Wrong| {
        // A NaN factor and a joint its own parent: checked after the lengths.
        w.factor = f32::NAN;
        w.parents = bad_parents.clone();
        w
    };
    let mut calls = vec![
        (
            "from short, to long, parents short",
            later(Wrong { from: n - 1, to: n + 1, ..v.clone() }),
            mismatch("from", n - 1),
        ),
        ("to long, scale short", later(Wrong { to: n + 1, scale: Some(n - 1), ..v.clone() }), mismatch("to", n + 1)),
        (
            "parents short, scale long, skin short",
            Wrong {
                parents: v.parents[..n - 1].to_vec(),
                scale: Some(n + 1),
                skin: Some(n - 1),
                factor: f32::NAN,
                ..v.clone()
            },
            mismatch("parents", n - 1),
        ),
        (
            "parents long",
            Wrong { parents: [&v.parents[..], &[7]].concat(), factor: f32::INFINITY, ..v.clone() },
            mismatch("parents", n + 1),
        ),
        (
            "scale short, inverse_bind short",
            later(Wrong { scale: Some(n - 1), inverse_bind: Some(n - 1), ..v.clone() }),
            mismatch("scale", n - 1),
        ),
        (
            "inverse_bind long, skin short",
            later(Wrong { inverse_bind: Some(n + 1), skin: Some(n - 1), ..v.clone() }),
            mismatch("inverse_bind", n + 1),
        ),
        ("skin long", later(Wrong { skin: Some(n + 1), ..v.clone() }), mismatch("skin", n + 1)),
        ("skin short, no scale", later(Wrong { skin: Some(n - 1), scale: None, ..v.clone() }), mismatch("skin", n - 1)),
    ];
    for factor in [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        calls.push((
            "a non-finite factor and a bad parent",
            Wrong { factor, parents: bad_parents.clone(), ..v.clone() },
            Error::NonFiniteFactor { what: "factor", position: None, value: factor },
        ));
    }
    let with_parent = |j: usize, p: i32, also: Option<(usize, i32)>| {
        let mut parents = v.parents.clone();
        parents[j] = p;
        if let Some((k, q)) = also {
            parents[k] = q;
        }
        Wrong { parents, ..v.clone() }
    };
    for (what, j, p, also) in [
        ("a joint its own parent", 2, 2, Some((4, i32::MAX))),
        ("a parent after its child", 3, 4, Some((5, -2))),
        ("a parent past the end", n - 1, n as i32, None),
        ("the first joint a child", 0, 0, Some((1, 5))),
        ("-2", 1, -2, Some((2, 9))),
        ("i32::MIN", 4, i32::MIN, None),
        ("i32::MAX", 4, i32::MAX, None),
    ] {
        calls.push((what, with_parent(j, p, also), Error::InvalidParent { joint: j, parent: p }));
    }
    calls
}

/// Every error of the documented list, in its order (a call wrong in
/// several ways gives the first), with every form and `Auto`, and nothing
/// written (the model and the skin keep their sentinel).
#[test]
fn errors_come_in_their_order_and_write_nothing() {
    let mut checked = 0;
    for name in NAMES {
        let r = routine(name);
        let imps: Vec<Impl> = forms_here(r).iter().map(|f| f.0).chain([Impl::Auto, Impl::Deterministic]).collect();
        for n in [6, 37] {
            for (what, w, want) in wrong_calls(n) {
                for &imp in &imps {
                    let (got, kept) = call_wrong(r, imp, &w);
                    let ctx = format!("{name} {imp} n={n}: {what}");
                    assert_err(got, want, &ctx);
                    assert!(kept, "{ctx}: written on Err");
                    checked += 1;
                }
            }
            // The valid call runs and writes (the sentinel check can fail).
            for &imp in &imps {
                let (got, kept) = call_wrong(r, imp, &valid(n));
                assert_eq!(got, Ok(()), "{name} {imp} n={n}");
                assert!(!kept, "{name} {imp} n={n}: nothing written");
            }
        }
        // A form the roster has no row for comes first of all.
        let mut worst = Wrong { model: 5, from: 1, to: 9, ..valid(5) };
        worst.factor = f32::NAN;
        worst.parents = vec![3; 2];
        for imp in Impl::ALL {
            if r.all_forms().all(|f| f.imp != imp) {
                let (got, kept) = call_wrong(r, imp, &worst);
                assert_eq!(got, Err(Error::Unsupported(imp)), "{name} {imp}");
                assert!(kept, "{name} {imp}: written on Err");
                checked += 1;
            }
        }
        assert_eq!(call_wrong(r, Impl::Sse2, &worst).0, Err(Error::Unsupported(Impl::Sse2)), "{name}");
        // A form this CPU lacks (hidden by the hook, or missing) next.
        for f in r.all_forms() {
            #[cfg(feature = "std")]
            let got = {
                use animasm::test_hooks::{Machine, with_machine};
                with_machine(Machine::BASELINE, || (r.resolve(f.imp), call_wrong(r, f.imp, &worst)))
            };
            #[cfg(not(feature = "std"))]
            let got = (r.resolve(f.imp), call_wrong(r, f.imp, &worst));
            let (resolved, (err, kept)) = got;
            match resolved {
                Err(e) => {
                    assert!(matches!(e, Error::MissingCpuFeature { .. } | Error::Unsupported(_)), "{name} {}", f.imp);
                    if let Error::MissingCpuFeature { needs } = e {
                        assert_eq!(needs, f.isa.needs(), "{name} {}", f.imp);
                    }
                    assert_eq!(err, Err(e), "{name} {}", f.imp);
                    assert!(kept, "{name} {}: written on Err", f.imp);
                    checked += 1;
                }
                Ok(_) => assert!(
                    f.isa.detection() != Detection::RunTime,
                    "{name} {}: a form detected at run time runs on the baseline",
                    f.imp
                ),
            }
        }
    }
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    {
        // On x86_64 the hook hides AVX2 and AVX-512 whatever the CPU has.
        use animasm::test_hooks::{Machine, with_machine};
        for name in NAMES {
            let r = routine(name);
            with_machine(Machine::BASELINE, || {
                let got = call_wrong(r, Impl::Avx2, &Wrong { from: 0, ..valid(5) }).0;
                assert_eq!(got, Err(Error::MissingCpuFeature { needs: "avx2 and fma" }), "{name}");
                let needs = "avx512f, avx512vl, avx512dq and avx512bw";
                let got = call_wrong(r, Impl::Avx512, &Wrong { factor: f32::NAN, ..valid(5) }).0;
                assert_eq!(got, Err(Error::MissingCpuFeature { needs }), "{name}");
            });
        }
    }
    eprintln!("errors_come_in_their_order_and_write_nothing: {checked} wrong calls");
}

/// `TooLong` (`what: "model"`) for `MAX_JOINTS + 1` model matrices, before
/// every other check, with nothing written: the model is an anonymous
/// mapping with `MAP_NORESERVE` (zero pages that cost memory only where
/// touched; 1.5 GiB of address space), of which the test touches the two
/// ends.
#[cfg(all(target_os = "linux", target_pointer_width = "64", not(miri)))]
#[test]
fn too_long_comes_first() {
    use animasm::pose::MAX_JOINTS;
    use core::ffi::c_void;

    unsafe extern "C" {
        fn mmap(addr: *mut c_void, len: usize, prot: i32, flags: i32, fd: i32, offset: i64) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> i32;
    }
    let len = MAX_JOINTS + 1;
    let bytes = len * size_of::<JointMat>();
    // SAFETY: a new private anonymous mapping (read and write, no swap
    // reserved); no existing memory is affected.
    let p = unsafe { mmap(core::ptr::null_mut(), bytes, 1 | 2, 0x02 | 0x20 | 0x4000, -1, 0) };
    assert!(p as isize != -1, "mmap of {bytes} bytes failed");
    // SAFETY: the mapping holds `len` zeroed `JointMat`s (all-zero floats
    // are valid), page-aligned, readable and writable, unmapped only below
    // after the last use of the slice.
    let model = unsafe { core::slice::from_raw_parts_mut(p.cast::<JointMat>(), len) };
    model[0].mat[0] = f32::from_bits(SENTINEL);
    model[len - 1].mat[11] = f32::from_bits(SENTINEL);
    let want = Error::TooLong { what: "model", len, max: MAX_JOINTS };
    let (from, to) = workload_joints(Workload::Random, 1, 3);
    for name in NAMES {
        let r = routine(name);
        for imp in forms_here(r).iter().map(|f| f.0).chain([Impl::Auto]) {
            // Also every later check wrong: lengths, the factor.
            let input = PoseInput { from: &from, to: &to[..1], factor: f32::NAN, scale: None };
            assert_eq!(safe(r)(imp, &input, &[5], model, None), Err(want), "{name} {imp}");
            let mut skin = sentinels(2);
            let s = Skin { inverse_bind: &[], mats: &mut skin };
            assert_eq!(safe(r)(imp, &PoseInput::new(&[], &[], 0.5), &[], model, Some(s)), Err(want), "{name} {imp}");
            assert!(untouched(&skin), "{name} {imp}: skin written on Err");
            assert_eq!(model[0].mat[0].to_bits(), SENTINEL, "{name} {imp}: written on Err");
            assert_eq!(model[1].mat, [0.0; 12], "{name} {imp}: written on Err");
            assert_eq!(model[len - 1].mat[11].to_bits(), SENTINEL, "{name} {imp}: written on Err");
        }
    }
    // SAFETY: the mapping made above, with its length; `model` is not used
    // after this.
    unsafe { munmap(p, bytes) };
}

// ---------------------------------------------------------------------------
// The `Skeleton` methods against an f64 reference.

/// The blend in f64 of the routine `name`: `slerp_joints`' (the shorter
/// arc) or `lerp_joints`' (a renormalised lerp on the shorter side), with
/// the endpoint rule; the translation lerped.
fn blend_f64(name: &str, a: &JointQuat, b: &JointQuat, t: f64) -> ([f64; 4], [f64; 3]) {
    let q = |j: &JointQuat| j.q.to_array().map(f64::from);
    let v = |j: &JointQuat| [j.t.x, j.t.y, j.t.z].map(f64::from);
    if t <= 0.0 {
        return (q(a), v(a));
    }
    if t >= 1.0 {
        return (q(b), v(b));
    }
    let (qa, mut qb) = (q(a), q(b));
    let mut cos: f64 = (0..4).map(|i| qa[i] * qb[i]).sum();
    if cos < 0.0 {
        qb = qb.map(|x| -x);
        cos = -cos;
    }
    let rot: [f64; 4] = if name == "lerp_pose" {
        let l: [f64; 4] = core::array::from_fn(|i| (1.0 - t) * qa[i] + t * qb[i]);
        let norm = l.iter().map(|x| x * x).sum::<f64>().sqrt();
        l.map(|x| x / norm)
    } else if 1.0 - cos < 1e-12 {
        core::array::from_fn(|i| (1.0 - t) * qa[i] + t * qb[i])
    } else {
        let omega = cos.min(1.0).acos();
        let (s0, s1) = (((1.0 - t) * omega).sin() / omega.sin(), (t * omega).sin() / omega.sin());
        core::array::from_fn(|i| s0 * qa[i] + s1 * qb[i])
    };
    let (ta, tb) = (v(a), v(b));
    (rot, core::array::from_fn(|i| ta[i] + t * (tb[i] - ta[i])))
}

/// The crate's joint matrix of `q` and `t` in f64 (the papers' `M`, row
/// by row, translation in column 3; `quats_to_mats`' convention), each
/// rotation column `c` times `s[c]`.
fn local_f64(q: [f64; 4], t: [f64; 3], s: [f64; 3]) -> [f64; 12] {
    let [x, y, z, w] = q;
    let m = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y + w * z), 2.0 * (x * z - w * y)],
        [2.0 * (x * y - w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z + w * x)],
        [2.0 * (x * z + w * y), 2.0 * (y * z - w * x), 1.0 - 2.0 * (x * x + y * y)],
    ];
    core::array::from_fn(|e| if e % 4 == 3 { t[e / 4] } else { m[e / 4][e % 4] * s[e % 4] })
}

/// `a * b`, 3x4 affine (row-major, column vectors).
fn mul_f64(a: &[f64; 12], b: &[f64; 12]) -> [f64; 12] {
    core::array::from_fn(|e| {
        let (r, c) = (e / 4, e % 4);
        (0..3).map(|k| a[r * 4 + k] * b[k * 4 + c]).sum::<f64>() + if c == 3 { a[r * 4 + 3] } else { 0.0 }
    })
}

/// The model matrices of `locals` under `parents` in any order (a joint's
/// parent may come after it), by recursion with memo.
fn model_f64(locals: &[[f64; 12]], parents: &[i32]) -> Vec<[f64; 12]> {
    fn at(k: usize, locals: &[[f64; 12]], parents: &[i32], memo: &mut [Option<[f64; 12]>]) -> [f64; 12] {
        if let Some(m) = memo[k] {
            return m;
        }
        let m = match parents[k] {
            p if p < 0 => locals[k],
            p => mul_f64(&at(p as usize, locals, parents, memo), &locals[k]),
        };
        memo[k] = Some(m);
        m
    }
    let mut memo = vec![None; locals.len()];
    (0..locals.len()).map(|k| at(k, locals, parents, &mut memo)).collect()
}

/// The largest `|got - want| / (1 + max |want|)` over a matrix's elements.
fn rel_error(got: &JointMat, want: &[f64; 12]) -> f64 {
    let size = want.iter().fold(0f64, |m, v| m.max(v.abs()));
    (0..12).map(|e| (f64::from(got.mat[e]) - want[e]).abs() / (1.0 + size)).fold(0.0, f64::max)
}

/// The bound of [`rel_error`] for every form: the listings' slerp
/// approximations (about 5e-7 a quaternion) and f32 products down parent
/// paths of up to about a dozen joints; measured below 5e-6.
const F64_BOUND: f64 = 2e-5;

/// `Skeleton::slerp_pose` / `lerp_pose` on forests in a shuffled order
/// with several roots: within [`F64_BOUND`] of the f64 reference built
/// here in the node order, and bit for bit `Skeleton::slerp_joints` (or
/// `lerp_joints`), `quats_to_mats`, the scale, `Skeleton::local_to_model`
/// and `transform_joints` of the same form.
#[test]
fn skeleton_pose_in_any_order() {
    let counts: &[usize] = if cfg!(miri) { &[9] } else { &[1, 7, 40, 100, 300] };
    let mut worst = 0f64;
    for &n in counts {
        let mut rng = Rng::new(0xa11 + n as u64);
        // Roots every 13th joint (at least two roots from 14 joints on),
        // then shuffled: children before parents, roots anywhere.
        let forest = forest_parents(&mut rng, n, |i| i % 13 == 0);
        let (node_parents, _) = shuffle_parents(&mut rng, &forest);
        let skeleton = Skeleton::new(&node_parents).unwrap();
        assert_eq!(skeleton.roots().len(), n.div_ceil(13), "n={n}");
        let workloads: &[Workload] = if cfg!(miri) { &[Workload::Random] } else { &[Workload::Random, Workload::Fox] };
        for &w in workloads {
            let (from_n, to_n) = workload_joints(w, 0xb0 + n as u64, n);
            let scale_n = scales(0xc0 + n as u64, n, 0.8, 1.25);
            let ib_n = rigid_mats(0xd0 + n as u64, n);
            let sorted = |v: &[JointQuat]| skeleton.to_parents_first_vec(v).unwrap();
            let (from, to) = (sorted(&from_n), sorted(&to_n));
            let scale = skeleton.to_parents_first_vec(&scale_n).unwrap();
            let ib = skeleton.to_parents_first_vec(&ib_n).unwrap();
            for factor in [0.0f32, 0.3, 0.75, 1.0] {
                for name in NAMES {
                    let r = routine(name);
                    // The f64 reference, in the node order.
                    let locals: Vec<[f64; 12]> = (0..n)
                        .map(|k| {
                            let (q, t) = blend_f64(name, &from_n[k], &to_n[k], f64::from(factor));
                            let s = scale_n[k];
                            local_f64(q, t, [s.x, s.y, s.z].map(f64::from))
                        })
                        .collect();
                    let model_want = model_f64(&locals, &node_parents);
                    let skin_want: Vec<[f64; 12]> =
                        model_want.iter().zip(&ib_n).map(|(m, b)| mul_f64(m, &b.mat.map(f64::from))).collect();
                    for (imp, _) in forms_here(r) {
                        let ctx = format!("{name} {imp} n={n} {} factor {factor}", w.name());
                        let input = PoseInput { from: &from, to: &to, factor, scale: Some(&scale) };
                        let mut model = sentinels(n);
                        let mut skin = sentinels(n);
                        let s = Skin { inverse_bind: &ib, mats: &mut skin };
                        let run = if name == "slerp_pose" { Skeleton::slerp_pose } else { Skeleton::lerp_pose };
                        run(&skeleton, imp, &input, &mut model, Some(s)).unwrap_or_else(|e| panic!("{ctx}: {e}"));
                        // The Skeleton methods chained, parents first.
                        let mut joints = from.clone();
                        let blend = if name == "slerp_pose" { Skeleton::slerp_joints } else { Skeleton::lerp_joints };
                        blend(&skeleton, imp, &mut joints, &to, factor).unwrap();
                        let mut chain = sentinels(n);
                        animasm::quats_to_mats(imp, &mut chain, &joints).unwrap();
                        chain.iter_mut().zip(&scale).for_each(|(m, s)| scale_columns(m, s));
                        skeleton.local_to_model(skeleton_form(imp), &mut chain).unwrap();
                        let mut chain_skin = sentinels(n);
                        animasm::transform_joints(imp, &mut chain_skin, &chain, &ib).unwrap();
                        assert_same_bits(&model, &chain, &format!("{ctx}: model vs the Skeleton methods chained"));
                        assert_same_bits(&skin, &chain_skin, &format!("{ctx}: skin vs the Skeleton methods chained"));
                        // Back in the node order, against the f64 reference.
                        let model_n = skeleton.from_parents_first_vec(&model).unwrap();
                        let skin_n = skeleton.from_parents_first_vec(&skin).unwrap();
                        for k in 0..n {
                            let (em, es) =
                                (rel_error(&model_n[k], &model_want[k]), rel_error(&skin_n[k], &skin_want[k]));
                            assert!(em <= F64_BOUND, "{ctx}: node {k}: model {em:e} from the f64 reference");
                            assert!(es <= F64_BOUND, "{ctx}: node {k}: skin {es:e} from the f64 reference");
                            worst = worst.max(em).max(es);
                        }
                    }
                }
            }
        }
    }
    eprintln!("skeleton_pose_in_any_order: worst error {worst:e} (bound {F64_BOUND:e})");
}

/// The `Skeleton` methods check `model` against the skeleton first, then
/// give the free functions' errors, writing nothing.
#[test]
fn skeleton_pose_errors() {
    let skeleton = Skeleton::new(&[2, -1, 1, -1, 3]).unwrap();
    let (from, to) = workload_joints(Workload::Random, 4, 5);
    for name in NAMES {
        let run = if name == "slerp_pose" { Skeleton::slerp_pose } else { Skeleton::lerp_pose };
        for imp in forms_here(routine(name)).iter().map(|f| f.0) {
            let mut model = sentinels(4);
            let got = run(&skeleton, imp, &PoseInput::new(&from[..4], &to, f32::NAN), &mut model, None);
            assert_eq!(got, Err(Error::LengthMismatch { what: "model", expected: 5, found: 4 }), "{name} {imp}");
            assert!(untouched(&model), "{name} {imp}");
            let mut model = sentinels(5);
            let got = run(&skeleton, imp, &PoseInput::new(&from, &to[..4], 0.5), &mut model, None);
            assert_eq!(got, Err(Error::LengthMismatch { what: "to", expected: 5, found: 4 }), "{name} {imp}");
            let got = run(&skeleton, imp, &PoseInput::new(&from, &to, f32::INFINITY), &mut model, None);
            assert_err(got, Error::NonFiniteFactor { what: "factor", position: None, value: f32::INFINITY }, name);
            assert!(untouched(&model), "{name} {imp}");
            run(&skeleton, imp, &PoseInput::new(&from, &to, 0.5), &mut model, None).unwrap();
            assert!(!untouched(&model), "{name} {imp}");
        }
    }
}

/// The root-free runs of the reference, on hierarchies whose runs are
/// known.
#[test]
fn root_free_runs_are_the_runs() {
    assert_eq!(root_free_runs(&[]), vec![]);
    assert_eq!(root_free_runs(&[-1]), vec![]);
    assert_eq!(root_free_runs(&[-1, 0, 1, -1, -1, 4]), vec![1..=2, 5..=5]);
    assert_eq!(root_free_runs(&[-1, -1, 1]), vec![2..=2]);
    let p = parents(Hierarchy::Roots, 1, 100);
    assert_eq!(root_free_runs(&p), vec![1..=4, 6..=31, 33..=39, 41..=62, 64..=99]);
}
