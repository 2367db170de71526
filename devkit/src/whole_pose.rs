//! The whole pose in one call (`slerp_pose`, `lerp_pose`: `Shape::Pose`)
//! against the same form's routines called one after the other, and the
//! pose's floors: the inputs, the chained calls, the floor and the
//! measurement shared by the report's `whole_pose` section and the benches.
//!
//! - The inputs ([`PoseCase`]): two poses of a [`Workload`] (random pairs,
//!   the Fox's consecutive keys tiled to the size, a held pose) under a
//!   [`Hierarchy`] (a random parents-first hierarchy of 24, 100 or 1024
//!   joints, each joint's parent uniform among the earlier ones with a
//!   fixed seed, the root at 0; the same tree renumbered depth-first, the
//!   order skeletons are usually stored in, with long parent-to-child
//!   chains; or the Fox's own 24-joint skeleton), and inverse bind matrices
//!   (random rigid ones; the Fox's own for its skeleton).
//! - The chained calls ([`Chain`]): the same form's raw kernels of the
//!   pose routine's joint blend (`slerp_joints` or `lerp_joints`),
//!   `quats_to_mats` and `transform_skeleton`, and `transform_joints` with a
//!   skin, each over the whole arrays, one after the other (the issue's
//!   `lerp_joints + quats_to_mats + transform_skeleton`).
//! - The floor: the larger of `transform_skeleton`'s dependency-chain floor
//!   on the same hierarchy ([`floors::skeleton_chain`]) and the pose's
//!   memory floor ([`floors::pose`]: two 32-byte joints and a 4-byte parent
//!   read, a 48-byte model matrix written per joint; with a skin a 48-byte
//!   inverse bind matrix read and a 48-byte skinning matrix written too).
//! - [`measure`]: every runnable form of every `Shape::Pose` routine of the
//!   roster, one call and chained, with and without a skin, on every
//!   workload of one hierarchy, and the floors, interleaved round-robin in
//!   one run on the same buffers; median TSC ticks per joint.

use std::hint::black_box;

use animasm::roster::{self, Routine, Shape, kernel};
use animasm::{Impl, JointMat, JointQuat};
use animasm_testkit::cases::{Workload, workload_joints};
use animasm_testkit::inputs;

use crate::floors::{self, Walk};
use crate::timer::{self, Stats};

/// The sizes of the random hierarchies: a fox's (24 joints), a human's
/// (100) and the papers' 1024 (`devkit::workloads::SIZES`).
pub const SIZES: [usize; 3] = crate::workloads::SIZES;

/// The blend factor of every timed call (not an endpoint: every joint is
/// blended).
pub const FACTOR: f32 = crate::workloads::LERP;

/// The seed of the random hierarchies.
pub const HIERARCHY_SEED: u64 = crate::setup::PARENT_SEED;

/// The seed of the random inverse bind matrices.
pub const BIND_SEED: u64 = crate::setup::MAT_SEED_2;

/// The workloads of the section: random pairs, the Fox's consecutive keys,
/// a held pose and near-identical poses.
pub const WORKLOADS: [Workload; 4] = [Workload::Random, Workload::Fox, Workload::Held, Workload::Near];

/// A skeleton's hierarchy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hierarchy {
    /// `n` joints, parents first: joint 0 the root, every other joint's
    /// parent uniform among the earlier ones (`inputs::random_parents`,
    /// [`HIERARCHY_SEED`]).
    Random(usize),
    /// The tree of [`Hierarchy::Random`] with its joints renumbered in
    /// depth-first preorder (each joint's subtree right after it): the
    /// order skeletons are usually stored in, the Fox's among them, where
    /// a joint's first child follows it and the parent-to-child chains are
    /// long.
    DepthFirst(usize),
    /// The Fox's skeleton (`animasm_testkit::fox::parents`, 24 joints).
    Fox,
}

/// `parents` (parents first, one root at 0) renumbered in depth-first
/// preorder, children in their order: still parents first.
fn depth_first(parents: &[i32]) -> Vec<i32> {
    let n = parents.len();
    let mut children = vec![Vec::new(); n];
    for (j, &p) in parents.iter().enumerate().skip(1) {
        children[p as usize].push(j);
    }
    let (mut order, mut stack) = (Vec::with_capacity(n), vec![0usize]);
    while let Some(j) = stack.pop() {
        order.push(j);
        stack.extend(children[j].iter().rev());
    }
    let mut position = vec![0; n];
    for (k, &j) in order.iter().enumerate() {
        position[j] = k;
    }
    order.iter().map(|&j| if parents[j] < 0 { -1 } else { position[parents[j] as usize] as i32 }).collect()
}

impl Hierarchy {
    /// The random hierarchies at [`SIZES`], then the Fox's.
    pub fn all() -> Vec<Hierarchy> {
        let random = SIZES.iter().map(|&n| Hierarchy::Random(n));
        random.chain(SIZES.iter().map(|&n| Hierarchy::DepthFirst(n))).chain([Hierarchy::Fox]).collect()
    }

    /// The parents, parents first, `-1` for the root (joint 0).
    pub fn parents(self) -> Vec<i32> {
        match self {
            Hierarchy::Random(n) => inputs::random_parents(HIERARCHY_SEED, n),
            Hierarchy::DepthFirst(n) => depth_first(&inputs::random_parents(HIERARCHY_SEED, n)),
            Hierarchy::Fox => animasm_testkit::fox::parents(),
        }
    }

    /// The joints.
    pub fn joints(self) -> usize {
        match self {
            Hierarchy::Random(n) | Hierarchy::DepthFirst(n) => n,
            Hierarchy::Fox => animasm_testkit::fox::parents().len(),
        }
    }

    /// `random`, `depth-first` or `Fox`.
    pub fn name(self) -> &'static str {
        match self {
            Hierarchy::Random(_) => "random",
            Hierarchy::DepthFirst(_) => "depth-first",
            Hierarchy::Fox => "Fox",
        }
    }
}

/// One input of the pose routines: two poses, a hierarchy, inverse bind
/// matrices.
#[derive(Clone, Debug)]
pub struct PoseCase {
    pub hierarchy: Hierarchy,
    pub workload: Workload,
    /// The pose at factor 0.
    pub from: Vec<JointQuat>,
    /// The pose at factor 1.
    pub to: Vec<JointQuat>,
    /// Parents first: `parents[0] = -1`, `0 <= parents[i] < i` otherwise.
    pub parents: Vec<i32>,
    /// The skin's inverse bind matrices.
    pub inverse_bind: Vec<JointMat>,
}

impl PoseCase {
    /// The poses of `workload` (`workload_joints`, the seed of
    /// `devkit::workloads`) at the hierarchy's size, its parents, and its
    /// inverse bind matrices.
    ///
    /// # Panics
    /// If the hierarchy is not parents first with one root, joint 0 (the
    /// chained calls transform joints `1..n` in one call).
    pub fn new(hierarchy: Hierarchy, workload: Workload) -> PoseCase {
        let n = hierarchy.joints();
        let parents = hierarchy.parents();
        assert!(n >= 2 && parents[0] == -1, "{hierarchy:?}: joint 0 is the root");
        assert!(
            parents.iter().enumerate().skip(1).all(|(i, &p)| p >= 0 && (p as usize) < i),
            "{hierarchy:?}: not parents first with one root"
        );
        let (from, to) = workload_joints(workload, 0x3017 + n as u64, n);
        let inverse_bind = match hierarchy {
            Hierarchy::Random(_) | Hierarchy::DepthFirst(_) => inputs::rigid_mats(BIND_SEED, n),
            Hierarchy::Fox => animasm_testkit::fox::inverse_bind().into_iter().map(|mat| JointMat { mat }).collect(),
        };
        PoseCase { hierarchy, workload, from, to, parents, inverse_bind }
    }

    /// The joints.
    pub fn joints(&self) -> usize {
        self.parents.len()
    }
}

/// The output buffers of a pose: the model matrices, the skinning
/// matrices, the chained calls' blended pose (restored from `from` before
/// each chained call) and the floors' matrices.
#[derive(Clone, Debug)]
pub struct PoseOut {
    pub model: Vec<JointMat>,
    pub skin: Vec<JointMat>,
    pub blended: Vec<JointQuat>,
}

impl PoseOut {
    /// Buffers for `n` joints.
    pub fn new(n: usize) -> PoseOut {
        PoseOut {
            model: vec![JointMat::IDENTITY; n],
            skin: vec![JointMat::IDENTITY; n],
            blended: vec![JointQuat::default(); n],
        }
    }
}

/// The `Shape::Pose` routines of the roster, with their kernel tables.
pub fn pose_routines() -> Vec<(&'static Routine, &'static [roster::Form<kernel::Pose>])> {
    roster::ROUTINES
        .iter()
        .filter_map(|r| match r.shape {
            Shape::Pose { forms, .. } => Some((r, forms)),
            _ => None,
        })
        .collect()
}

/// The joint blend a pose routine chains: the first routine of its
/// [`Routine::chain`] (`slerp_joints` for `slerp_pose`, `lerp_joints` for
/// `lerp_pose`).
///
/// # Panics
/// If the routine chains nothing, or its first routine is not in the
/// roster.
pub fn blend_routine(pose: &Routine) -> &'static Routine {
    let name = pose.chain().first().unwrap_or_else(|| panic!("{} chains no routine", pose.name));
    roster::find(name).unwrap_or_else(|| panic!("{}: no joint blend {name} in the roster", pose.name))
}

/// The form `imp` of a routine's table if this CPU runs it, else the form
/// the table's `Auto` runs (a routine without the form: `transform_skeleton`
/// has no `Avx512` in its table), and then that form's name.
fn pick<K: Copy>(forms: &'static [roster::Form<K>], imp: Impl) -> (K, Option<Impl>) {
    match forms.iter().find(|f| f.imp() == imp && f.runnable()) {
        Some(f) => (f.kernel(), None),
        None => {
            let f = forms.iter().find(|f| f.runnable()).expect("every table has a form this CPU runs");
            (f.kernel(), Some(f.imp()))
        }
    }
}

/// One form's chained calls: the raw kernels of a joint blend,
/// `quats_to_mats`, `transform_skeleton` and `transform_joints`.
#[derive(Clone, Copy, Debug)]
pub struct Chain {
    /// The form asked for.
    pub imp: Impl,
    pub blend: kernel::JointBlend,
    pub to_mats: kernel::QuatsToMats,
    pub skeleton: kernel::Skeleton,
    pub skin: kernel::TransformJoints,
    /// A routine of the chain without the form, and the form it runs
    /// instead (its table's first runnable form, what `Auto` runs).
    pub substitute: Option<(&'static str, Impl)>,
}

impl Chain {
    /// The chain of form `imp` for the pose routine `pose`.
    ///
    /// # Panics
    /// If a routine of the chain is missing from the roster or has another
    /// shape.
    pub fn new(pose: &Routine, imp: Impl) -> Chain {
        let chain = pose.chain();
        assert_eq!(chain.len(), 4, "{}: a blend, quats_to_mats, a skeleton and a skin", pose.name);
        let find = |name: &str| roster::find(name).unwrap_or_else(|| panic!("{name} is not in the roster"));
        let shape = |k: usize| find(chain[k]).shape;
        let Shape::JointBlend { forms: blend, .. } = shape(0) else { panic!("{}: not a joint blend", chain[0]) };
        let Shape::QuatsToMats { forms: to_mats, .. } = shape(1) else { panic!("{}: not QuatsToMats", chain[1]) };
        let Shape::Skeleton { forms: skeleton, .. } = shape(2) else { panic!("{}: not a skeleton", chain[2]) };
        let Shape::TransformJoints { forms: skin, .. } = shape(3) else { panic!("{}: not a product", chain[3]) };
        let (blend, b) = pick(blend, imp);
        let (to_mats, t) = pick(to_mats, imp);
        let (skeleton, k) = pick(skeleton, imp);
        let (skin, s) = pick(skin, imp);
        let substitute = chain.iter().zip([b, t, k, s]).find_map(|(&name, got)| got.map(|got| (name, got)));
        Chain { imp, blend, to_mats, skeleton, skin, substitute }
    }

    /// The chained calls over the whole arrays: `out.blended` (which must
    /// hold `case.from`: restore it first, it is blended in place) blended
    /// towards `case.to`, converted into `out.model`, composed with the
    /// parents, and with `skin` multiplied by the inverse bind matrices
    /// into `out.skin`.
    ///
    /// # Panics
    /// If a buffer of `out` does not have the case's joints.
    pub fn run(&self, case: &PoseCase, out: &mut PoseOut, index: &[i32], skin: bool) {
        let n = case.joints();
        assert!(out.model.len() == n && out.skin.len() == n && out.blended.len() == n && index.len() == n);
        assert!(case.from.len() == n && case.to.len() == n && case.inverse_bind.len() == n);
        // SAFETY: every array holds `n` 16-byte aligned elements (the
        // types' alignment), in distinct allocations; `index` is checked to
        // hold `n` entries, which `measure` and the benches make `0..n`;
        // `PoseCase::new` checked that joint 0 is the only root and every
        // other joint's parent comes before it, so joints `1..n` are one
        // root-free run; `n` is at most 1024, below every kernel's limit;
        // `Chain::new` took only forms this CPU runs.
        unsafe {
            (self.blend)(out.blended.as_mut_ptr(), case.to.as_ptr(), FACTOR, index.as_ptr(), n as i32);
            (self.to_mats)(out.model.as_mut_ptr(), out.blended.as_ptr(), n as i32);
            (self.skeleton)(out.model.as_mut_ptr(), case.parents.as_ptr(), 1, n as i32 - 1);
            if skin {
                (self.skin)(out.skin.as_mut_ptr(), out.model.as_ptr(), case.inverse_bind.as_ptr(), n as i32);
            }
        }
    }
}

/// One call of a pose routine's raw kernel `k` (a form this CPU runs) on
/// `case`, into `out.model` (and `out.skin` with `skin`), at [`FACTOR`].
///
/// # Panics
/// If a buffer of `out` does not have the case's joints.
pub fn run_pose(k: kernel::Pose, case: &PoseCase, out: &mut PoseOut, skin: bool) {
    let n = case.joints();
    assert!(out.model.len() == n && out.skin.len() == n);
    assert!(case.from.len() == n && case.to.len() == n && case.inverse_bind.len() == n);
    let skin_ptr = if skin { out.skin.as_mut_ptr() } else { core::ptr::null_mut() };
    // SAFETY: every array holds `n` 16-byte aligned elements in distinct
    // allocations (`model` and `skin` overlap nothing); `PoseCase::new`
    // checked the parents (`-1` or before their joint); `n <= 1024 <=
    // MAX_JOINTS`; no scale (null); the caller passes a kernel of a form
    // this CPU runs (`measure` and the benches take runnable forms only).
    unsafe {
        k(
            out.model.as_mut_ptr(),
            skin_ptr,
            case.from.as_ptr(),
            case.to.as_ptr(),
            FACTOR,
            core::ptr::null(),
            case.parents.as_ptr(),
            case.inverse_bind.as_ptr(),
            n as i32,
        )
    }
}

/// One measured form: ticks per joint of the one call and of the chained
/// calls.
#[derive(Clone, Debug)]
pub struct FormRow {
    /// `slerp_pose` or `lerp_pose`.
    pub routine: &'static str,
    pub imp: Impl,
    pub workload: Workload,
    pub skin: bool,
    /// Median ticks per joint of the one call.
    pub one: f64,
    /// Median ticks per joint of the chained calls.
    pub chained: f64,
    /// A routine of the chain that runs another form (see [`Chain`]).
    pub substitute: Option<(&'static str, Impl)>,
}

/// One hierarchy's measurements.
#[derive(Clone, Debug)]
pub struct Measured {
    pub hierarchy: Hierarchy,
    pub joints: usize,
    /// `transform_skeleton`'s chain floor on the hierarchy, ticks per joint.
    pub chain_floor: f64,
    /// The pose's memory floor without and with a skin, ticks per joint.
    pub memory_floor: [f64; 2],
    pub rows: Vec<FormRow>,
    /// The one calls whose model (or skinning) matrices differ in a bit
    /// from their chained calls' ([`identical`]), by name: none expected.
    pub mismatches: Vec<String>,
}

impl Measured {
    /// The floor: max(chain floor, memory floor), with or without a skin.
    pub fn floor(&self, skin: bool) -> f64 {
        self.chain_floor.max(self.memory_floor[usize::from(skin)])
    }

    /// The row of `routine`'s form `imp` on `workload`.
    pub fn row(&self, routine: &str, imp: Impl, workload: Workload, skin: bool) -> Option<&FormRow> {
        self.rows.iter().find(|r| r.routine == routine && r.imp == imp && r.workload == workload && r.skin == skin)
    }
}

/// Whether one call of `k` and the chained calls `chain` give the same
/// bits on `case`, model and (with `skin`) skinning matrices.
pub fn identical(k: kernel::Pose, chain: &Chain, case: &PoseCase, skin: bool) -> bool {
    let n = case.joints();
    let index: Vec<i32> = (0..n as i32).collect();
    let (mut one, mut chained) = (PoseOut::new(n), PoseOut::new(n));
    run_pose(k, case, &mut one, skin);
    chained.blended.copy_from_slice(&case.from);
    chain.run(case, &mut chained, &index, skin);
    let bits = |m: &[JointMat]| m.iter().flat_map(|m| m.mat.map(f32::to_bits)).collect::<Vec<u32>>();
    bits(&one.model) == bits(&chained.model) && (!skin || bits(&one.skin) == bits(&chained.skin))
}

/// What a timed row runs.
#[derive(Clone, Copy)]
enum Call {
    /// Routine `r`'s raw kernel.
    One(usize, kernel::Pose),
    /// Routine `r`'s chain.
    Chained(usize, Chain),
    ChainFloor,
    MemoryFloor,
}

/// Times every runnable form of every `Shape::Pose` routine on `hierarchy`:
/// one call and chained, without and with a skin, on each of [`WORKLOADS`],
/// and the floors; `rounds` timed rounds (after 5 untimed ones), every row
/// once per round, round-robin starting one further each round. Each
/// workload's buffers serve all its rows. A sample is one call, or where
/// the timer's step is too coarse for the fastest row's call (24 joints on
/// a TSC that moves 26 ticks at a time), `timer::calls_per_sample` calls
/// back to back.
pub fn measure(hierarchy: Hierarchy, rounds: usize) -> Measured {
    let routines = pose_routines();
    let cases: Vec<PoseCase> = WORKLOADS.iter().map(|&w| PoseCase::new(hierarchy, w)).collect();
    let n = cases[0].joints();
    let index: Vec<i32> = (0..n as i32).collect();
    let mut outs: Vec<PoseOut> = cases.iter().map(|_| PoseOut::new(n)).collect();
    // (case, skin, call): the rows.
    let mut rows: Vec<(usize, bool, Call)> = Vec::new();
    for c in 0..cases.len() {
        for skin in [false, true] {
            for (r, (routine, forms)) in routines.iter().enumerate() {
                for f in forms.iter().filter(|f| f.runnable()) {
                    rows.push((c, skin, Call::One(r, f.kernel())));
                    rows.push((c, skin, Call::Chained(r, Chain::new(routine, f.imp()))));
                }
            }
        }
    }
    let mut mismatches = Vec::new();
    for &(c, skin, call) in &rows {
        if let Call::Chained(r, chain) = call {
            let Some(f) = routines[r].1.iter().find(|f| f.imp() == chain.imp) else { continue };
            if !identical(f.kernel(), &chain, &cases[c], skin) {
                mismatches.push(format!(
                    "{} {} on {} poses{}",
                    routines[r].0.name,
                    chain.imp,
                    cases[c].workload.name(),
                    if skin { " with a skin" } else { "" }
                ));
            }
        }
    }
    rows.push((0, false, Call::ChainFloor));
    rows.push((0, false, Call::MemoryFloor));
    rows.push((0, true, Call::MemoryFloor));
    // The chain floor's matrices: the first case's model, restored.
    let mut pristine = PoseOut::new(n);
    Chain::new(routines[0].0, Impl::Scalar).run(&cases[0], &mut pristine, &index, false);
    let pristine_model = pristine.model.clone();
    // One call of row `i`; the chain floor on copy `f` of its matrices
    // (restored before the sample).
    let call = |i: usize, f: usize, outs: &mut [PoseOut], floor_mats: &mut [Vec<JointMat>]| {
        let (c, skin, call) = rows[i];
        let (case, out) = (&cases[c], &mut outs[c]);
        match call {
            Call::One(_, k) => run_pose(k, black_box(case), black_box(&mut *out), skin),
            // The chained calls blend in place, so they start from a copy
            // of the first pose (an engine keeps its keyframes): the copy
            // is part of their time, as the one call's reading of `from`
            // is part of its own.
            Call::Chained(_, chain) => {
                out.blended.copy_from_slice(black_box(&case.from));
                chain.run(black_box(case), black_box(&mut *out), &index, skin)
            }
            Call::ChainFloor => {
                floors::skeleton_chain(black_box(&mut floor_mats[f]), &case.parents, 1..=n - 1, Walk::Forward)
            }
            Call::MemoryFloor => {
                let skin = skin.then_some((&mut out.skin[..], &case.inverse_bind[..]));
                floors::pose(black_box(&mut out.model), &case.from, &case.to, &case.parents, skin)
            }
        }
        black_box(&mut *out);
    };
    // A sample: `calls` calls back to back (the one call, the chained calls
    // and the memory floor rewrite their outputs from unchanged inputs; the
    // chain floor works in place, a copy of its matrices per call).
    let sample = |i: usize, calls: usize, outs: &mut [PoseOut], floor_mats: &mut Vec<Vec<JointMat>>| {
        if matches!(rows[i].2, Call::ChainFloor) {
            floor_mats.resize(calls, pristine_model.clone());
            for m in floor_mats.iter_mut() {
                m.copy_from_slice(&pristine_model);
            }
        }
        timer::time(|| (0..calls).for_each(|f| call(i, f, &mut *outs, &mut floor_mats[..])))
    };
    let mut floor_mats = Vec::new();
    // Calls per sample: enough for the fastest row's sample to span
    // `timer::MIN_SAMPLE_STEPS` of the timer's step (one call on a fine
    // timer or at 100 joints and more).
    let calls = timer::calls_for_rows(rows.len(), |i| sample(i, 1, &mut outs, &mut floor_mats));
    let mut samples = vec![Vec::with_capacity(rounds); rows.len()];
    const WARMUP: usize = 5;
    for round in 0..WARMUP + rounds {
        for k in 0..rows.len() {
            let i = (round + k) % rows.len();
            let t = sample(i, calls, &mut outs, &mut floor_mats);
            if round >= WARMUP {
                samples[i].push(t);
            }
        }
    }
    let mut median = |i: usize| Stats::of_ticks(&mut samples[i], (n * calls) as f64).median;
    let mut out =
        Measured { hierarchy, joints: n, chain_floor: 0.0, memory_floor: [0.0; 2], rows: Vec::new(), mismatches };
    let mut k = 0;
    while k < rows.len() {
        let (c, skin, call) = rows[k];
        match call {
            Call::One(r, _) => {
                let Call::Chained(_, chain) = rows[k + 1].2 else {
                    unreachable!("a one call's chained row follows it")
                };
                out.rows.push(FormRow {
                    routine: routines[r].0.name,
                    imp: chain.imp,
                    workload: cases[c].workload,
                    skin,
                    one: median(k),
                    chained: median(k + 1),
                    substitute: chain.substitute,
                });
                k += 2;
            }
            Call::Chained(..) => unreachable!("follows its one call"),
            Call::ChainFloor => {
                out.chain_floor = median(k);
                k += 1;
            }
            Call::MemoryFloor => {
                out.memory_floor[usize::from(skin)] = median(k);
                k += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every runnable form's one call gives its chained calls' bits at every
    /// size from 2 to 200 joints (every remainder of the 32-joint chunks,
    /// the last chunk of four among them: erratum E1 of the listings'
    /// blends), with and without a skin, on random and held poses.
    #[test]
    fn every_form_gives_its_chained_calls_bits_at_every_size() {
        let mut checked = 0;
        for n in 2..=200 {
            for w in [Workload::Random, Workload::Held] {
                let case = PoseCase::new(Hierarchy::Random(n), w);
                for (r, forms) in pose_routines() {
                    for f in forms.iter().filter(|f| f.runnable()) {
                        let chain = Chain::new(r, f.imp());
                        for skin in [false, true] {
                            assert!(
                                identical(f.kernel(), &chain, &case, skin),
                                "{} {} n={n} {w:?} skin {skin}",
                                r.name,
                                f.imp()
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 0);
    }

    #[test]
    fn depth_first_is_the_same_tree() {
        let parents = inputs::random_parents(HIERARCHY_SEED, 100);
        let dfs = depth_first(&parents);
        // The same multiset of depths, and most joints follow their parent.
        let depths = |p: &[i32]| {
            let mut d = vec![0usize; p.len()];
            for j in 1..p.len() {
                d[j] = d[p[j] as usize] + 1;
            }
            d.sort_unstable();
            d
        };
        assert_eq!(depths(&parents), depths(&dfs));
        let follow = |p: &[i32]| p.iter().enumerate().filter(|&(j, &q)| q == j as i32 - 1).count();
        assert!(follow(&dfs) > follow(&parents), "{} vs {}", follow(&dfs), follow(&parents));
    }

    #[test]
    fn the_hierarchies_are_parents_first_with_one_root() {
        for h in Hierarchy::all() {
            let parents = h.parents();
            assert_eq!(parents.len(), h.joints());
            assert_eq!(parents[0], -1);
            assert!(parents.iter().enumerate().skip(1).all(|(i, &p)| 0 <= p && (p as usize) < i), "{h:?}");
        }
        assert_eq!(Hierarchy::Fox.joints(), 24);
    }

    #[test]
    fn the_pose_floor_writes_every_output() {
        let case = PoseCase::new(Hierarchy::Random(5), Workload::Random);
        let mut model = vec![JointMat::default(); 5];
        let mut skin = vec![JointMat::default(); 5];
        floors::pose(&mut model, &case.from, &case.to, &case.parents, Some((&mut skin, &case.inverse_bind)));
        let q = |j: &JointQuat, k: usize| if k < 4 { j.q.to_array()[k] } else { j.t.to_array()[k - 4] };
        assert_eq!(model[4].mat[0], q(&case.from[4], 0) + q(&case.to[4], 0));
        assert_eq!(skin[4].mat[11], model[4].mat[11] + case.inverse_bind[4].mat[11]);
    }
}
