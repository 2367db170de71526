//! *The Skeleton Assembly Line* (J.M.P. van Waveren, id Software, 2005):
//! `transform_skeleton` (and its `movss` + `shufps` variant),
//! `untransform_skeleton`, `transform_joints`.

use crate::print::{heading, para};
use crate::results::{Results, print_accuracy};
use crate::table::{Paper, Row, Table, auto_note, kernel_row, kernel_rows, kernels, no_restore, print_table};
use animasm::{Impl, JointMat};
use devkit::peers::{glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton, to_affine};
use devkit::setup::{self, JOINTS, SKELETON_RANGE};
use glam::Affine3A;

/// `transform_skeleton`'s and `untransform_skeleton`'s raw kernels.
pub(crate) type SkeletonKernel = unsafe fn(*mut JointMat, *const i32, i32, i32);
/// `transform_joints`'s raw kernels.
pub(crate) type TransformJointsKernel = unsafe fn(*mut JointMat, *const JointMat, *const JointMat, i32);

/// A skeleton for the in-place skeleton routines: [`JOINTS`] matrices, their
/// pristine copy, the random parents-first hierarchy, and the same for glam.
pub(crate) struct Skeleton {
    pub(crate) pristine: Vec<JointMat>,
    pub(crate) mats: Vec<JointMat>,
    pub(crate) parents: Vec<i32>,
    pub(crate) pristine_g: Vec<Affine3A>,
    pub(crate) g: Vec<Affine3A>,
}

impl Skeleton {
    /// Local matrices: random rigid transforms (`inputs::rigid_mats`) under a
    /// random hierarchy (`inputs::random_parents`): `setup::skeleton_locals`.
    pub(crate) fn locals() -> Self {
        Skeleton::new(setup::skeleton_locals())
    }

    /// Global matrices: [`Skeleton::locals`] transformed to model space (by
    /// the scalar `transform_skeleton`, once): `setup::skeleton_globals`.
    pub(crate) fn globals() -> Self {
        Skeleton::new(setup::skeleton_globals())
    }

    pub(crate) fn new((pristine, parents): (Vec<JointMat>, Vec<i32>)) -> Self {
        let pristine_g = to_affine(&pristine);
        Skeleton { mats: pristine.clone(), g: pristine_g.clone(), pristine, parents, pristine_g }
    }

    pub(crate) fn restore(&mut self) {
        self.mats.copy_from_slice(&self.pristine);
    }

    pub(crate) fn restore_glam(&mut self) {
        self.g.copy_from_slice(&self.pristine_g);
    }

    /// Runs a raw skeleton kernel over [`SKELETON_RANGE`].
    pub(crate) fn run(kernel: SkeletonKernel, b: &mut Skeleton) {
        // SAFETY: `mats` holds `JOINTS` 16-byte aligned matrices and
        // `parents` `JOINTS` entries; `random_parents` gives every joint
        // `i >= 1` of the range a parent in `0..i`, so every joint and parent
        // is in `mats` and never the joint itself; `JOINTS` is far below the
        // kernels' limits.
        unsafe {
            kernel(
                b.mats.as_mut_ptr(),
                b.parents.as_ptr(),
                *SKELETON_RANGE.start() as i32,
                *SKELETON_RANGE.end() as i32,
            )
        }
    }
}

/// The notes on the skeleton tables' data.
pub(crate) fn skeleton_note(what: &str) -> String {
    let n = SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1;
    format!(
        "Input: {what} under a random parents-first hierarchy (`inputs::random_parents`: joint 0 the root, every \
         other joint's parent uniform among the earlier ones); joints {}..={} ({n} joints; the per-joint \
         figures divide by {n}), restored from a pristine copy before every run.",
        SKELETON_RANGE.start(),
        SKELETON_RANGE.end()
    )
}

/// `TransformSkeleton` (*The Skeleton Assembly Line*, Appendix A), with the
/// `movss` + `shufps` variant, against `Affine3A` products in glam.
pub(crate) fn transform_skeleton_table() -> Table<Skeleton> {
    let paper = Paper { name: "TransformSkeleton", c_130: 130.0, sse_130: 53.0, c_90: 163.0, sse_90: 53.0 };
    let mut rows = kernel_rows(kernels!(SkeletonKernel, transform_skeleton), &paper, Skeleton::restore, Skeleton::run);
    #[cfg(target_arch = "x86_64")]
    {
        use animasm::transform_skeleton::{asm, intrinsics};
        let variants: [(&str, SkeletonKernel); 2] = [
            ("intrinsics (movss+shufps)", intrinsics::transform_skeleton_movss_shufps),
            ("asm (movss+shufps)", asm::transform_skeleton_movss_shufps),
        ];
        for (name, kernel) in variants {
            rows.push(kernel_row(name, None, Skeleton::restore, kernel, Skeleton::run));
        }
    }
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: Skeleton::restore,
        call: Box::new(|b: &mut Skeleton| {
            animasm::transform_skeleton(Impl::Auto, &mut b.mats, &b.parents, SKELETON_RANGE)
                .expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: Skeleton::restore_glam,
        call: Box::new(|b: &mut Skeleton| glam_transform_skeleton(&mut b.g, &b.parents, SKELETON_RANGE)),
    });
    Table {
        routine: "transform_skeleton",
        paper: Some(paper),
        title: format!("TransformSkeleton (`transform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::locals(),
        rows,
        notes: vec![
            auto_note("transform_skeleton", animasm::transform_skeleton::resolve(Impl::Auto)),
            skeleton_note("random rigid local matrices"),
            "The (movss+shufps) rows are the listing with section 3's other way to broadcast a scalar \
             (`movss` + `shufps` instead of `pshufd`), which the paper recommends timing but does not report. \
             glam: `m[i] = m[parents[i]] * m[i]` with `Affine3A`, in order."
                .into(),
        ],
    }
}

/// `UntransformSkeleton` (*The Skeleton Assembly Line*, Appendix B),
/// against `Affine3A::inverse` products in glam.
pub(crate) fn untransform_skeleton_table() -> Table<Skeleton> {
    let paper = Paper { name: "UntransformSkeleton", c_130: 131.0, sse_130: 55.0, c_90: 154.0, sse_90: 56.0 };
    let mut rows =
        kernel_rows(kernels!(SkeletonKernel, untransform_skeleton), &paper, Skeleton::restore, Skeleton::run);
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: Skeleton::restore,
        call: Box::new(|b: &mut Skeleton| {
            animasm::untransform_skeleton(Impl::Auto, &mut b.mats, &b.parents, SKELETON_RANGE)
                .expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: Skeleton::restore_glam,
        call: Box::new(|b: &mut Skeleton| glam_untransform_skeleton(&mut b.g, &b.parents, SKELETON_RANGE)),
    });
    Table {
        routine: "untransform_skeleton",
        paper: Some(paper),
        title: format!("UntransformSkeleton (`untransform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::globals(),
        rows,
        notes: vec![
            auto_note("untransform_skeleton", animasm::untransform_skeleton::resolve(Impl::Auto)),
            skeleton_note("the global matrices of the TransformSkeleton table's skeleton"),
            "glam: `m[i] = m[parents[i]].inverse() * m[i]` with `Affine3A`, last joint first. glam's `inverse` \
             is the general one (cofactors and a division by the determinant); the kernels take the rigid \
             inverse `[R^T | -R^T t]`, which a glam user could write by hand for less work (not done here)."
                .into(),
        ],
    }
}

/// `transform_joints`'s data: two lists of [`JOINTS`] rigid matrices and the
/// products, and the same for glam.
pub(crate) struct JointPairs {
    pub(crate) a: Vec<JointMat>,
    pub(crate) b: Vec<JointMat>,
    pub(crate) r: Vec<JointMat>,
    pub(crate) ga: Vec<Affine3A>,
    pub(crate) gb: Vec<Affine3A>,
    pub(crate) gr: Vec<Affine3A>,
}

/// `TransformJoints` (*The Skeleton Assembly Line*, Appendix C), against
/// `Affine3A` products in glam.
pub(crate) fn transform_joints_table() -> Table<JointPairs> {
    let paper = Paper { name: "TransformJoints", c_130: 135.0, sse_130: 36.0, c_90: 148.0, sse_90: 48.0 };
    let (a, b) = setup::transform_joints_input();
    let bufs = JointPairs {
        ga: to_affine(&a),
        gb: to_affine(&b),
        gr: vec![Affine3A::IDENTITY; JOINTS],
        r: vec![JointMat::default(); JOINTS],
        a,
        b,
    };
    let mut rows = kernel_rows(
        kernels!(TransformJointsKernel, transform_joints),
        &paper,
        no_restore,
        |kernel, p: &mut JointPairs| {
            // SAFETY: the three lists hold `JOINTS` 16-byte aligned matrices
            // each, in three allocations; `JOINTS <= MAX_JOINTS`.
            unsafe { kernel(p.r.as_mut_ptr(), p.a.as_ptr(), p.b.as_ptr(), JOINTS as i32) }
        },
    );
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut JointPairs| {
            animasm::transform_joints(Impl::Auto, &mut b.r, &b.a, &b.b).expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: no_restore,
        call: Box::new(|p: &mut JointPairs| glam_transform_joints(&mut p.gr, &p.ga, &p.gb)),
    });
    Table {
        routine: "transform_joints",
        paper: Some(paper),
        title: format!("TransformJoints (`transform_joints`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            auto_note("transform_joints", animasm::transform_joints::resolve(Impl::Auto)),
            "Input: two lists of random rigid matrices (`inputs::rigid_mats`), the products into a third; \
             nothing to restore. glam: `r[i] = a[i] * b[i]` with `Affine3A`."
                .into(),
        ],
    }
}

/// Section 3: the paper's three tables and the accuracy rows.
pub(crate) fn skeleton_assembly_line(res: &mut Results, matrix_rows: &[(String, f64, Option<f64>)]) {
    heading("3. The Skeleton Assembly Line (J.M.P. van Waveren, id Software, 2005)");
    let m = print_table(transform_skeleton_table());
    res.record("transform_skeleton", &m, "asm");
    res.record("transform_skeleton (movss+shufps)", &m, "asm (movss+shufps)");
    let m = print_table(untransform_skeleton_table());
    res.record("untransform_skeleton", &m, "asm");
    let m = print_table(transform_joints_table());
    res.record("transform_joints", &m, "asm");
    let rows: Vec<_> = matrix_rows
        .iter()
        .filter(|r| !(r.0.starts_with("quats_to_mats") || r.0.starts_with("mats_to_quats")))
        .cloned()
        .collect();
    print_accuracy(&rows);
    para(
        "The paper states no error figure. The skeleton routines on the Fox's key poses (data/Fox.glb.pose.json) \
         against their f64 reference, divided by the model's size; transform_joints against the f64 product \
         over 3072 pairs of random rigid matrices.",
    );
}
