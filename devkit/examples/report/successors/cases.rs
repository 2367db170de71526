//! The buffers and cases of the successors section, per [`Shape`]: per
//! routine and size, the inputs (restored from a pristine copy before every
//! run), and the rows that time every form's raw kernel, the shape's floors
//! (`devkit::floors`) and the routine's peers (`devkit::peers`,
//! `devkit::uv`, looked up by the routine's name) on them.

use super::*;

/// The forms of a routine's kernel table that this CPU runs, in
/// [`Impl::ALL`] order, with their raw kernels; and what the section says
/// of them ([`FormSet`]).
pub(super) fn forms_of<K: Copy>(r: &Routine, table: &'static [Form<K>]) -> (Vec<(Impl, K)>, FormSet) {
    let mut kernels: Vec<(Impl, K)> = table.iter().filter(|f| f.runnable()).map(|f| (f.imp(), f.kernel())).collect();
    kernels.sort_by_key(|&(imp, _)| impl_order(imp));
    let mut successors: Vec<Impl> =
        table.iter().map(Form::info).filter(|f| f.origin == Origin::Successor).map(|f| f.imp).collect();
    successors.sort_by_key(|&imp| impl_order(imp));
    let missing = successors
        .iter()
        .filter(|&&s| !kernels.iter().any(|&(imp, _)| imp == s))
        .map(|&s| (s, r.resolve(s).err().map_or_else(|| "not run".to_string(), |e| e.to_string())))
        .collect();
    let set = FormSet {
        run: kernels.iter().map(|&(imp, _)| imp).collect(),
        listing: table.iter().map(Form::info).find(|f| f.origin == Origin::Listing).map(|f| f.imp),
        successors,
        missing,
    };
    (kernels, set)
}

/// The rows that time each raw kernel of `kernels` with `run` (a closure,
/// inlined into each row's call).
fn form_rows<B: 'static, K: Copy + 'static, F: Fn(K, &mut B) + Copy + 'static>(
    kernels: &[(Impl, K)],
    restore: fn(&mut B),
    run: F,
) -> Vec<Row<B>> {
    kernels
        .iter()
        .map(|&(imp, kernel)| Row {
            name: imp.name(),
            paper: None,
            restore,
            call: Box::new(move |b: &mut B| run(kernel, b)),
        })
        .collect()
}

/// The note under a routine's table that says what its peers do: glam's
/// and ultraviolet's, where each has one.
fn peer_note(glam: Option<&str>, uv: Option<&str>) -> Vec<String> {
    let parts: Vec<String> =
        [glam.map(|w| format!("glam: {w}")), uv.map(|w| format!("ultraviolet: {w}"))].into_iter().flatten().collect();
    if parts.is_empty() { Vec::new() } else { vec![parts.join(" ")] }
}

// ---------------------------------------------------------------------------
// Shape::JointBlend

#[derive(Clone)]
pub(super) struct JointBufs {
    pub(super) pristine: Vec<JointQuat>,
    pub(super) joints: Vec<JointQuat>,
    pub(super) blend: Vec<JointQuat>,
    pub(super) index: Vec<i32>,
    pub(super) pristine_q: Vec<GQuat>,
    pub(super) pristine_t: Vec<GVec4>,
    pub(super) q: Vec<GQuat>,
    pub(super) t: Vec<GVec4>,
    pub(super) blend_q: Vec<GQuat>,
    pub(super) blend_t: Vec<GVec4>,
    pub(super) soa_pristine: JointsSoa,
    pub(super) soa: JointsSoa,
    pub(super) soa_blend: JointsSoa,
    pub(super) scratch: JointScratch,
}

impl JointBufs {
    fn new(n: usize) -> Self {
        let (pristine, blend, index) = setup::joint_lists_n(n);
        let (pristine_q, pristine_t) = peers::to_glam(&pristine);
        let (blend_q, blend_t) = peers::to_glam(&blend);
        let soa_pristine = JointsSoa::from_joints(&pristine);
        JointBufs {
            joints: pristine.clone(),
            q: pristine_q.clone(),
            t: pristine_t.clone(),
            soa: soa_pristine.clone(),
            soa_blend: JointsSoa::from_joints(&blend),
            scratch: JointScratch::new(n),
            pristine,
            blend,
            index,
            pristine_q,
            pristine_t,
            blend_q,
            blend_t,
            soa_pristine,
        }
    }

    fn restore(&mut self) {
        self.joints.copy_from_slice(&self.pristine);
    }

    fn restore_glam(&mut self) {
        self.q.copy_from_slice(&self.pristine_q);
        self.t.copy_from_slice(&self.pristine_t);
    }

    fn restore_soa(&mut self) {
        self.soa.rot.copy_from_slice(&self.soa_pristine.rot);
        self.soa.pos.copy_from_slice(&self.soa_pristine.pos);
    }
}

/// The notes of a `Shape::JointBlend` routine: what ultraviolet's peer does
/// (section 1's tables say what glam's does).
pub(super) fn joint_blend_notes(r: &Routine) -> Vec<String> {
    peer_note(None, uv::joint_blend(r.name).map(|p| p.what))
}

pub(super) fn joint_blend_case(r: &Routine, kernels: &[(Impl, JointKernel)], n: usize) -> Case<JointBufs> {
    let lerp = setup::LERP;
    let mut rows = form_rows(kernels, JointBufs::restore, |kernel: JointKernel, b: &mut JointBufs| {
        let n = b.index.len();
        // SAFETY: `joint_lists_n(n)` gives two lists of `n` joints (16-byte
        // aligned, two allocations) and the identity index `0..n`, so every
        // entry addresses a joint of both lists; `n` is far below the
        // kernels' limits.
        unsafe { kernel(b.joints.as_mut_ptr(), b.blend.as_ptr(), setup::LERP, b.index.as_ptr(), n as i32) }
    });
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: JointBufs::restore,
        call: Box::new(|b: &mut JointBufs| floors::joint_lists(&mut b.joints, &b.blend, &b.index)),
    });
    if let Some(glam) = peers::joint_blend(r.name).map(|p| p.run) {
        rows.push(Row {
            name: GLAM,
            paper: None,
            restore: JointBufs::restore_glam,
            call: Box::new(move |b: &mut JointBufs| glam(&mut b.q, &mut b.t, &b.blend_q, &b.blend_t, lerp, &b.index)),
        });
    }
    if let Some(uv_loop) = uv::joint_blend(r.name).map(|p| p.run) {
        rows.push(Row {
            name: UV_SOA,
            paper: None,
            restore: JointBufs::restore_soa,
            call: Box::new(move |b: &mut JointBufs| uv_loop(&mut b.soa, &b.soa_blend, lerp)),
        });
        rows.push(Row {
            name: UV_AOS,
            paper: None,
            restore: JointBufs::restore,
            call: Box::new(move |b: &mut JointBufs| {
                uv::uv_joints_aos(uv_loop, &mut b.joints, &b.blend, lerp, &mut b.scratch)
            }),
        });
    }
    Case { label: n.to_string(), elements: n, per: n, bufs: JointBufs::new(n), rows }
}

// ---------------------------------------------------------------------------
// Shape::QuatsToMats

#[derive(Clone)]
pub(super) struct QuatsToMatsBufs {
    pub(super) quats: Vec<JointQuat>,
    pub(super) mats: Vec<JointMat>,
    pub(super) q: Vec<GQuat>,
    pub(super) t: Vec<GVec4>,
    pub(super) affine: Vec<Affine3A>,
    pub(super) soa_in: JointsSoa,
    pub(super) soa_out: MatsSoa,
    pub(super) scratch: (JointsSoa, MatsSoa),
}

/// The notes of a `Shape::QuatsToMats` routine: what its peers do.
pub(super) fn quats_to_mats_notes(r: &Routine) -> Vec<String> {
    peer_note(peers::quats_to_mats(r.name).map(|p| p.what), uv::quats_to_mats(r.name).map(|p| p.what))
}

pub(super) fn quats_to_mats_case(
    r: &Routine,
    kernels: &[(Impl, QuatsToMatsKernel)],
    n: usize,
) -> Case<QuatsToMatsBufs> {
    let quats = setup::quats_to_mats_input_n(n);
    let (q, t) = peers::to_glam(&quats);
    let bufs = QuatsToMatsBufs {
        mats: vec![JointMat::default(); n],
        affine: vec![Affine3A::IDENTITY; n],
        soa_in: JointsSoa::from_joints(&quats),
        soa_out: MatsSoa::new(n),
        scratch: (JointsSoa::new(n), MatsSoa::new(n)),
        quats,
        q,
        t,
    };
    let none = |_: &mut QuatsToMatsBufs| {};
    let mut rows = form_rows(kernels, none, |kernel: QuatsToMatsKernel, b: &mut QuatsToMatsBufs| {
        // SAFETY: both lists hold `n` elements (16-byte aligned, two
        // allocations); `n` is far below `MAX_JOINTS`.
        unsafe { kernel(b.mats.as_mut_ptr(), b.quats.as_ptr(), b.quats.len() as i32) }
    });
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut QuatsToMatsBufs| floors::quats_to_mats(&mut b.mats, &b.quats)),
    });
    if let Some(glam) = peers::quats_to_mats(r.name).map(|p| p.run) {
        rows.push(Row {
            name: GLAM,
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut QuatsToMatsBufs| glam(&mut b.affine, &b.q, &b.t)),
        });
    }
    if let Some(p) = uv::quats_to_mats(r.name).map(|p| p.run) {
        rows.push(Row {
            name: UV_SOA,
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut QuatsToMatsBufs| (p.soa)(&mut b.soa_out, &b.soa_in)),
        });
        rows.push(Row {
            name: UV_AOS,
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut QuatsToMatsBufs| (p.aos)(&mut b.mats, &b.quats, &mut b.scratch)),
        });
    }
    Case { label: n.to_string(), elements: n, per: n, bufs, rows }
}

// ---------------------------------------------------------------------------
// Shape::MatsToQuats

#[derive(Clone)]
pub(super) struct MatsToQuatsBufs {
    pub(super) mats: Vec<JointMat>,
    pub(super) quats: Vec<JointQuat>,
    pub(super) affine: Vec<Affine3A>,
    pub(super) q: Vec<GQuat>,
    pub(super) t: Vec<GVec4>,
    pub(super) soa_in: MatsSoa,
    pub(super) soa_out: JointsSoa,
    pub(super) scratch: (MatsSoa, JointsSoa),
}

/// The notes of a `Shape::MatsToQuats` routine: what its peers do.
pub(super) fn mats_to_quats_notes(r: &Routine) -> Vec<String> {
    peer_note(peers::mats_to_quats(r.name).map(|p| p.what), uv::mats_to_quats(r.name).map(|p| p.what))
}

pub(super) fn mats_to_quats_case(
    r: &Routine,
    kernels: &[(Impl, MatsToQuatsKernel)],
    n: usize,
) -> Case<MatsToQuatsBufs> {
    let mats = setup::mats_to_quats_input_n(n);
    let mut soa_in = MatsSoa::new(n);
    soa_in.load_paper_rotation(&mats);
    let bufs = MatsToQuatsBufs {
        quats: vec![JointQuat::default(); n],
        affine: peers::to_affine_paper_rotation(&mats),
        q: vec![GQuat::IDENTITY; n],
        t: vec![GVec4::ZERO; n],
        soa_in,
        soa_out: JointsSoa::new(n),
        scratch: (MatsSoa::new(n), JointsSoa::new(n)),
        mats,
    };
    let none = |_: &mut MatsToQuatsBufs| {};
    let mut rows = form_rows(kernels, none, |kernel: MatsToQuatsKernel, b: &mut MatsToQuatsBufs| {
        // SAFETY: both lists hold `n` elements (two allocations); `n` is
        // far below `MAX_JOINTS`.
        unsafe { kernel(b.quats.as_mut_ptr(), b.mats.as_ptr(), b.mats.len() as i32) }
    });
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut MatsToQuatsBufs| floors::mats_to_quats(&mut b.quats, &b.mats)),
    });
    if let Some(glam) = peers::mats_to_quats(r.name).map(|p| p.run) {
        rows.push(Row {
            name: GLAM,
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut MatsToQuatsBufs| glam(&mut b.q, &mut b.t, &b.affine)),
        });
    }
    if let Some(p) = uv::mats_to_quats(r.name).map(|p| p.run) {
        rows.push(Row {
            name: UV_SOA,
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut MatsToQuatsBufs| (p.soa)(&mut b.soa_out, &b.soa_in)),
        });
        rows.push(Row {
            name: UV_AOS,
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut MatsToQuatsBufs| (p.aos)(&mut b.quats, &b.mats, &mut b.scratch)),
        });
    }
    Case { label: n.to_string(), elements: n, per: n, bufs, rows }
}

// ---------------------------------------------------------------------------
// Shape::TransformJoints

#[derive(Clone)]
pub(super) struct PairBufs {
    pub(super) a: Vec<JointMat>,
    pub(super) b: Vec<JointMat>,
    pub(super) r: Vec<JointMat>,
    pub(super) ga: Vec<Affine3A>,
    pub(super) gb: Vec<Affine3A>,
    pub(super) gr: Vec<Affine3A>,
    pub(super) soa: [MatsSoa; 3],
    pub(super) scratch: [MatsSoa; 3],
}

/// The notes of a `Shape::TransformJoints` routine: what its peers do.
pub(super) fn transform_joints_notes(r: &Routine) -> Vec<String> {
    peer_note(peers::transform_joints(r.name).map(|p| p.what), uv::transform_joints(r.name).map(|p| p.what))
}

pub(super) fn transform_joints_case(
    r: &Routine,
    kernels: &[(Impl, TransformJointsKernel)],
    n: usize,
) -> Case<PairBufs> {
    let (a, b) = setup::transform_joints_input_n(n);
    let (mut sa, mut sb) = (MatsSoa::new(n), MatsSoa::new(n));
    sa.load_affine(&a);
    sb.load_affine(&b);
    let bufs = PairBufs {
        ga: to_affine(&a),
        gb: to_affine(&b),
        gr: vec![Affine3A::IDENTITY; n],
        r: vec![JointMat::default(); n],
        soa: [MatsSoa::new(n), sa, sb],
        scratch: [MatsSoa::new(n), MatsSoa::new(n), MatsSoa::new(n)],
        a,
        b,
    };
    let none = |_: &mut PairBufs| {};
    let mut rows = form_rows(kernels, none, |kernel: TransformJointsKernel, p: &mut PairBufs| {
        // SAFETY: the three lists hold `n` 16-byte aligned matrices each, in
        // three allocations; `n` is far below `MAX_JOINTS`.
        unsafe { kernel(p.r.as_mut_ptr(), p.a.as_ptr(), p.b.as_ptr(), p.a.len() as i32) }
    });
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: none,
        call: Box::new(|p: &mut PairBufs| floors::transform_joints(&mut p.r, &p.a, &p.b)),
    });
    if let Some(glam) = peers::transform_joints(r.name).map(|p| p.run) {
        rows.push(Row {
            name: GLAM,
            paper: None,
            restore: none,
            call: Box::new(move |p: &mut PairBufs| glam(&mut p.gr, &p.ga, &p.gb)),
        });
    }
    if let Some(peer) = uv::transform_joints(r.name).map(|p| p.run) {
        rows.push(Row {
            name: UV_SOA,
            paper: None,
            restore: none,
            call: Box::new(move |p: &mut PairBufs| {
                let [r, a, b] = &mut p.soa;
                (peer.soa)(r, a, b)
            }),
        });
        rows.push(Row {
            name: UV_AOS,
            paper: None,
            restore: none,
            call: Box::new(move |p: &mut PairBufs| (peer.aos)(&mut p.r, &p.a, &p.b, &mut p.scratch)),
        });
    }
    Case { label: n.to_string(), elements: n, per: n, bufs, rows }
}

// ---------------------------------------------------------------------------
// Shape::Skeleton

#[derive(Clone)]
pub(super) struct SkeletonBufs {
    pub(super) pristine: Vec<JointMat>,
    pub(super) mats: Vec<JointMat>,
    pub(super) parents: Vec<i32>,
    pub(super) first: usize,
    pub(super) last: usize,
    pub(super) pristine_g: Vec<Affine3A>,
    pub(super) g: Vec<Affine3A>,
}

impl SkeletonBufs {
    fn restore(&mut self) {
        self.mats.copy_from_slice(&self.pristine);
    }

    fn restore_glam(&mut self) {
        self.g.copy_from_slice(&self.pristine_g);
    }
}

/// The notes of a `Shape::Skeleton` routine that walks `walk` on the Fox's
/// `fox_n` joints: the data, the floors, and why ultraviolet has no peer.
pub(super) fn skeleton_notes(r: &Routine, walk: Walk, fox_n: usize) -> Vec<String> {
    let forward = walk == Walk::Forward;
    let chain = if forward {
        "chain floor: each joint's three rows are an FMA of its parent's rows just stored (store-to-load \
         forwarding, then the FMA's latency), as long a chain as the skeleton is deep."
            .to_string()
    } else {
        format!(
            "chain floor: {} walks last to first, so every parent it reads (an earlier joint) is not yet \
             written: there is no chain, and the chain floor is the memory floor with FMAs.",
            r.name
        )
    };
    vec![format!(
        "Skeletons: joints 1..=n-1 of n (the root has no parent) under a random parents-first hierarchy \
         (`inputs::random_parents`), {} matrices; `Fox {fox_n}`: the Fox's own skeleton \
         (`data/Fox.glb.pose.json`: its {}), joints 1..={}. Ticks per transformed joint. /floor: over \
         the larger of the memory and chain floors. {chain} ultraviolet: not applicable (a joint needs its \
         parent's result: no eight independent lanes without regrouping the joints by depth).",
        if forward { "random rigid local" } else { "the model-space" },
        if forward { "rest pose's local matrices" } else { "rest pose in model space" },
        fox_n - 1
    )]
}

pub(super) fn skeleton_case(
    r: &Routine,
    label: String,
    (pristine, parents): (Vec<JointMat>, Vec<i32>),
    kernels: &[(Impl, SkeletonKernel)],
    walk: Walk,
) -> Case<SkeletonBufs> {
    let n = pristine.len();
    let range = setup::skeleton_range_n(n);
    let pristine_g = to_affine(&pristine);
    let bufs = SkeletonBufs {
        mats: pristine.clone(),
        g: pristine_g.clone(),
        first: *range.start(),
        last: *range.end(),
        pristine,
        parents,
        pristine_g,
    };
    let mut rows = form_rows(kernels, SkeletonBufs::restore, |kernel: SkeletonKernel, b: &mut SkeletonBufs| {
        // SAFETY: `mats` and `parents` hold the skeleton's `n` joints; the
        // skeleton is parents first (the random hierarchy by construction,
        // the Fox's checked by `fox_skeleton_locals`), so every joint of
        // `first..=last` has a parent in `0..joint`, inside `mats`; `n` is far
        // below the kernels' limits.
        unsafe { kernel(b.mats.as_mut_ptr(), b.parents.as_ptr(), b.first as i32, b.last as i32) }
    });
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: SkeletonBufs::restore,
        call: Box::new(move |b: &mut SkeletonBufs| floors::skeleton(&mut b.mats, &b.parents, b.first..=b.last, walk)),
    });
    rows.push(Row {
        name: CHAIN,
        paper: None,
        restore: SkeletonBufs::restore,
        call: Box::new(move |b: &mut SkeletonBufs| {
            floors::skeleton_chain(&mut b.mats, &b.parents, b.first..=b.last, walk)
        }),
    });
    if let Some(glam) = peers::skeleton(r.name).map(|p| p.run) {
        rows.push(Row {
            name: GLAM,
            paper: None,
            restore: SkeletonBufs::restore_glam,
            call: Box::new(move |b: &mut SkeletonBufs| glam(&mut b.g, &b.parents, b.first..=b.last)),
        });
    }
    Case { label, elements: n, per: range.count(), bufs, rows }
}
