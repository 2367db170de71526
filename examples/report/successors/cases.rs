//! The buffers and cases of the successors section: per routine and size,
//! the inputs (restored from a pristine copy before every run), and the rows
//! that time every form's raw kernel, the floors and the peers on them.

use super::*;

/// The forms of a routine on this CPU, in [`Impl::ALL`] order, with their
/// raw kernels; and a note when `Impl::Avx2` is not in this build.
pub(super) fn form_kernels<K>(
    forms: impl Iterator<Item = Impl>,
    kernel: fn(Impl) -> Result<K, Error>,
) -> (Vec<(Impl, K)>, Option<String>) {
    let forms: Vec<Impl> = forms.collect();
    let kernels =
        Impl::ALL.into_iter().filter(|i| forms.contains(i)).filter_map(|i| kernel(i).ok().map(|k| (i, k))).collect();
    let missing = match kernel(Impl::Avx2) {
        Ok(_) => None,
        Err(e) => Some(format!("{e}")),
    };
    (kernels, missing)
}

// ---------------------------------------------------------------------------
// slerp_joints and lerp_joints

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

pub(super) fn joint_case(
    n: usize,
    kernels: &[(Impl, JointKernel)],
    glam: GlamJointLoop,
    uv_loop: UvJointLoop,
) -> Case<JointBufs> {
    let lerp = setup::LERP;
    let mut rows: Vec<Row<JointBufs>> = kernels
        .iter()
        .map(|&(imp, kernel)| Row {
            name: imp.name(),
            paper: None,
            restore: JointBufs::restore,
            call: Box::new(move |b: &mut JointBufs| {
                // SAFETY: `joint_lists_n(n)` gives two lists of `n` joints
                // (16-byte aligned, two allocations) and the identity index
                // `0..n`, so every entry addresses a joint of both lists;
                // `n` is far below the kernels' limits.
                unsafe { kernel(b.joints.as_mut_ptr(), b.blend.as_ptr(), lerp, b.index.as_ptr(), n as i32) }
            }),
        })
        .collect();
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: JointBufs::restore,
        call: Box::new(|b: &mut JointBufs| floors::joint_lists(&mut b.joints, &b.blend, &b.index)),
    });
    rows.push(Row {
        name: GLAM,
        paper: None,
        restore: JointBufs::restore_glam,
        call: Box::new(move |b: &mut JointBufs| glam(&mut b.q, &mut b.t, &b.blend_q, &b.blend_t, lerp, &b.index)),
    });
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
    Case { label: n.to_string(), elements: n, per: n, bufs: JointBufs::new(n), rows }
}

// ---------------------------------------------------------------------------
// quats_to_mats

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

pub(super) fn quats_to_mats_case(n: usize, kernels: &[(Impl, QuatsToMatsKernel)]) -> Case<QuatsToMatsBufs> {
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
    let mut rows: Vec<Row<QuatsToMatsBufs>> = kernels
        .iter()
        .map(|&(imp, kernel)| Row {
            name: imp.name(),
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut QuatsToMatsBufs| {
                // SAFETY: both lists hold `n` elements (16-byte aligned, two
                // allocations); `n` is far below `MAX_JOINTS`.
                unsafe { kernel(b.mats.as_mut_ptr(), b.quats.as_ptr(), n as i32) }
            }),
        })
        .collect();
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut QuatsToMatsBufs| floors::quats_to_mats(&mut b.mats, &b.quats)),
    });
    rows.push(Row {
        name: GLAM,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut QuatsToMatsBufs| peers::glam_quats_to_mats(&mut b.affine, &b.q, &b.t)),
    });
    rows.push(Row {
        name: UV_SOA,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut QuatsToMatsBufs| uv::uv_quats_to_mats(&mut b.soa_out, &b.soa_in)),
    });
    rows.push(Row {
        name: UV_AOS,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut QuatsToMatsBufs| uv::uv_quats_to_mats_aos(&mut b.mats, &b.quats, &mut b.scratch)),
    });
    Case { label: n.to_string(), elements: n, per: n, bufs, rows }
}

// ---------------------------------------------------------------------------
// mats_to_quats

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

pub(super) fn mats_to_quats_case(n: usize, kernels: &[(Impl, MatsToQuatsKernel)]) -> Case<MatsToQuatsBufs> {
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
    let mut rows: Vec<Row<MatsToQuatsBufs>> = kernels
        .iter()
        .map(|&(imp, kernel)| Row {
            name: imp.name(),
            paper: None,
            restore: none,
            call: Box::new(move |b: &mut MatsToQuatsBufs| {
                // SAFETY: both lists hold `n` elements (two allocations);
                // `n` is far below `MAX_JOINTS`.
                unsafe { kernel(b.quats.as_mut_ptr(), b.mats.as_ptr(), n as i32) }
            }),
        })
        .collect();
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut MatsToQuatsBufs| floors::mats_to_quats(&mut b.quats, &b.mats)),
    });
    rows.push(Row {
        name: GLAM,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut MatsToQuatsBufs| peers::glam_mats_to_quats(&mut b.q, &mut b.t, &b.affine)),
    });
    rows.push(Row {
        name: UV_SOA,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut MatsToQuatsBufs| uv::uv_mats_to_quats(&mut b.soa_out, &b.soa_in)),
    });
    rows.push(Row {
        name: UV_AOS,
        paper: None,
        restore: none,
        call: Box::new(|b: &mut MatsToQuatsBufs| uv::uv_mats_to_quats_aos(&mut b.quats, &b.mats, &mut b.scratch)),
    });
    Case { label: n.to_string(), elements: n, per: n, bufs, rows }
}

// ---------------------------------------------------------------------------
// transform_joints

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

pub(super) fn transform_joints_case(n: usize, kernels: &[(Impl, TransformJointsKernel)]) -> Case<PairBufs> {
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
    let mut rows: Vec<Row<PairBufs>> = kernels
        .iter()
        .map(|&(imp, kernel)| Row {
            name: imp.name(),
            paper: None,
            restore: none,
            call: Box::new(move |p: &mut PairBufs| {
                // SAFETY: the three lists hold `n` 16-byte aligned matrices
                // each, in three allocations; `n` is far below `MAX_JOINTS`.
                unsafe { kernel(p.r.as_mut_ptr(), p.a.as_ptr(), p.b.as_ptr(), n as i32) }
            }),
        })
        .collect();
    rows.push(Row {
        name: FLOOR,
        paper: None,
        restore: none,
        call: Box::new(|p: &mut PairBufs| floors::transform_joints(&mut p.r, &p.a, &p.b)),
    });
    rows.push(Row {
        name: GLAM,
        paper: None,
        restore: none,
        call: Box::new(|p: &mut PairBufs| peers::glam_transform_joints(&mut p.gr, &p.ga, &p.gb)),
    });
    rows.push(Row {
        name: UV_SOA,
        paper: None,
        restore: none,
        call: Box::new(|p: &mut PairBufs| {
            let [r, a, b] = &mut p.soa;
            uv::uv_transform_joints(r, a, b)
        }),
    });
    rows.push(Row {
        name: UV_AOS,
        paper: None,
        restore: none,
        call: Box::new(|p: &mut PairBufs| uv::uv_transform_joints_aos(&mut p.r, &p.a, &p.b, &mut p.scratch)),
    });
    Case { label: n.to_string(), elements: n, per: n, bufs, rows }
}

// ---------------------------------------------------------------------------
// transform_skeleton and untransform_skeleton

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

/// The glam skeleton loops.
pub(super) type GlamSkeletonLoop = fn(&mut [Affine3A], &[i32], std::ops::RangeInclusive<usize>);

pub(super) fn skeleton_case(
    label: String,
    (pristine, parents): (Vec<JointMat>, Vec<i32>),
    kernels: &[(Impl, SkeletonKernel)],
    walk: Walk,
    glam: GlamSkeletonLoop,
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
    let mut rows: Vec<Row<SkeletonBufs>> = kernels
        .iter()
        .map(|&(imp, kernel)| Row {
            name: imp.name(),
            paper: None,
            restore: SkeletonBufs::restore,
            call: Box::new(move |b: &mut SkeletonBufs| {
                // SAFETY: `mats` and `parents` hold the skeleton's `n`
                // joints; the skeleton is parents first (the random
                // hierarchy by construction, the Fox's checked by
                // `fox_skeleton_locals`), so every joint of `first..=last`
                // has a parent in `0..joint`, inside `mats`; `n` is far below
                // the kernels' limits.
                unsafe { kernel(b.mats.as_mut_ptr(), b.parents.as_ptr(), b.first as i32, b.last as i32) }
            }),
        })
        .collect();
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
    rows.push(Row {
        name: GLAM,
        paper: None,
        restore: SkeletonBufs::restore_glam,
        call: Box::new(move |b: &mut SkeletonBufs| glam(&mut b.g, &b.parents, b.first..=b.last)),
    });
    Case { label, elements: n, per: range.count(), bufs, rows }
}

// ---------------------------------------------------------------------------
// The tables
