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
//!   on the same hierarchy
//!   ([`floors::skeleton_chain`](crate::floors::skeleton_chain)) and the
//!   pose's memory floor ([`floors::pose`](crate::floors::pose): two
//!   32-byte joints and a 4-byte parent read, a 48-byte model matrix
//!   written per joint; with a skin a 48-byte inverse bind matrix read and
//!   a 48-byte skinning matrix written too).
//! - [`measure`] (module `measure`): every runnable form of every
//!   `Shape::Pose` routine of the roster, one call and chained, with and without a skin, on every
//!   workload of one hierarchy, and the floors, interleaved round-robin in
//!   one run on the same buffers; median TSC ticks per joint.

use animasm::roster::{self, Routine, Shape, kernel};
use animasm::{Impl, JointMat, JointQuat};
use animasm_testkit::cases::{Workload, workload_joints};
use animasm_testkit::inputs;

mod measure;
pub use measure::{FormRow, Measured, measure};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floors;

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
