//! *The Skeleton Assembly Line* (J.M.P. van Waveren, id Software, 2005):
//! `transform_skeleton` (and its `movss` + `shufps` variant),
//! `untransform_skeleton`, `transform_joints`.

use crate::print::{heading, para};
use crate::results::{Results, print_accuracy};
use crate::table::{Paper, Row, Table, auto_note, kernel_row, kernel_rows, no_restore, paper_kernels, print_table};
use animasm::roster::{self, Routine, Shape, Source};
use animasm::{Impl, JointMat, Origin};
use devkit::peers::{glam_transform_joints, glam_transform_skeleton, glam_untransform_skeleton, to_affine};
use devkit::setup::{self, JOINTS, SKELETON_RANGE};
use glam::Affine3A;

/// The raw kernels of `Shape::Skeleton`.
pub(crate) type SkeletonKernel = roster::kernel::Skeleton;
/// The raw kernels of `Shape::TransformJoints`.
pub(crate) type TransformJointsKernel = roster::kernel::TransformJoints;

/// A skeleton routine of the roster: the routine, its kernel table and its
/// safe function.
fn skeleton_routine(name: &str) -> (&'static Routine, &'static [roster::Form<SkeletonKernel>], roster::SkeletonFn) {
    let r = roster::find(name).unwrap_or_else(|| panic!("{name} is not in the roster"));
    let Shape::Skeleton { forms, safe } = r.shape else { panic!("{name} is not a skeleton routine") };
    (r, forms, safe)
}

/// The rows of the variants of `r` (the roster's routines whose
/// `variant_of` is `r`): each variant's listing and twin, named
/// `<form> (<what the variant changes>)`, with no published figure; and,
/// for [`Results::record`], each variant's label and its listing row.
fn variant_rows(r: &Routine) -> (Vec<Row<Skeleton>>, Vec<(&'static str, &'static str)>) {
    let (mut rows, mut records) = (Vec::new(), Vec::new());
    for v in roster::ROUTINES.iter().filter(|v| v.variant_of == Some(r.name)) {
        let Shape::Skeleton { forms, .. } = v.shape else { continue };
        let suffix = devkit::setup::variant_suffix(v).unwrap_or_default();
        for (form, kernel) in paper_kernels(forms).into_iter().filter(|(f, _)| f.origin.is_faithful()) {
            let name: &'static str = Box::leak(format!("{} ({suffix})", form.imp).into_boxed_str());
            rows.push(kernel_row(name, None, Skeleton::restore, kernel, Skeleton::run));
            if form.origin == Origin::Listing {
                records.push((devkit::setup::label(v), name));
            }
        }
    }
    (rows, records)
}

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
/// And the rows of the variants to record (label, row name).
pub(crate) fn transform_skeleton_table() -> (Table<Skeleton>, Vec<(&'static str, &'static str)>) {
    let paper = Paper { name: "TransformSkeleton", c_130: 130.0, sse_130: 53.0, c_90: 163.0, sse_90: 53.0 };
    let (r, forms, safe) = skeleton_routine("transform_skeleton");
    let mut rows = kernel_rows(paper_kernels(forms), &paper, Skeleton::restore, Skeleton::run);
    let (variants, records) = variant_rows(r);
    rows.extend(variants);
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: Skeleton::restore,
        call: Box::new(move |b: &mut Skeleton| {
            safe(Impl::Auto, &mut b.mats, &b.parents, SKELETON_RANGE).expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: Skeleton::restore_glam,
        call: Box::new(|b: &mut Skeleton| glam_transform_skeleton(&mut b.g, &b.parents, SKELETON_RANGE)),
    });
    let table = Table {
        routine: r.name,
        paper: Some(paper),
        title: format!("TransformSkeleton (`transform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::locals(),
        rows,
        notes: vec![
            auto_note(r.name, r.resolve(Impl::Auto).map(|f| f.imp)),
            skeleton_note("random rigid local matrices"),
            "The (movss+shufps) rows are the listing with section 3's other way to broadcast a scalar \
             (`movss` + `shufps` instead of `pshufd`), which the paper recommends timing but does not report. \
             glam: `m[i] = m[parents[i]] * m[i]` with `Affine3A`, in order."
                .into(),
        ],
    };
    (table, records)
}

/// `UntransformSkeleton` (*The Skeleton Assembly Line*, Appendix B),
/// against `Affine3A::inverse` products in glam.
pub(crate) fn untransform_skeleton_table() -> Table<Skeleton> {
    let paper = Paper { name: "UntransformSkeleton", c_130: 131.0, sse_130: 55.0, c_90: 154.0, sse_90: 56.0 };
    let (r, forms, safe) = skeleton_routine("untransform_skeleton");
    let mut rows = kernel_rows(paper_kernels(forms), &paper, Skeleton::restore, Skeleton::run);
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: Skeleton::restore,
        call: Box::new(move |b: &mut Skeleton| {
            safe(Impl::Auto, &mut b.mats, &b.parents, SKELETON_RANGE).expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: Skeleton::restore_glam,
        call: Box::new(|b: &mut Skeleton| glam_untransform_skeleton(&mut b.g, &b.parents, SKELETON_RANGE)),
    });
    Table {
        routine: r.name,
        paper: Some(paper),
        title: format!("UntransformSkeleton (`untransform_skeleton`), {JOINTS} joints, hot cache"),
        count: SKELETON_RANGE.end() - SKELETON_RANGE.start() + 1,
        bufs: Skeleton::globals(),
        rows,
        notes: vec![
            auto_note(r.name, r.resolve(Impl::Auto).map(|f| f.imp)),
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
    let r = roster::find("transform_joints").expect("in the roster");
    let Shape::TransformJoints { forms, safe } = r.shape else { panic!("{} is not a TransformJoints routine", r.name) };
    let mut rows =
        kernel_rows(paper_kernels(forms), &paper, no_restore, |kernel: TransformJointsKernel, p: &mut JointPairs| {
            // SAFETY: the three lists hold `JOINTS` 16-byte aligned matrices
            // each, in three allocations; `JOINTS <= MAX_JOINTS`.
            unsafe { kernel(p.r.as_mut_ptr(), p.a.as_ptr(), p.b.as_ptr(), JOINTS as i32) }
        });
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: no_restore,
        call: Box::new(move |b: &mut JointPairs| {
            safe(Impl::Auto, &mut b.r, &b.a, &b.b).expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: no_restore,
        call: Box::new(|p: &mut JointPairs| glam_transform_joints(&mut p.gr, &p.ga, &p.gb)),
    });
    Table {
        routine: r.name,
        paper: Some(paper),
        title: format!("TransformJoints (`transform_joints`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            auto_note(r.name, r.resolve(Impl::Auto).map(|f| f.imp)),
            "Input: two lists of random rigid matrices (`inputs::rigid_mats`), the products into a third; \
             nothing to restore. glam: `r[i] = a[i] * b[i]` with `Affine3A`."
                .into(),
        ],
    }
}

/// Section 3: the paper's three tables and the accuracy rows.
pub(crate) fn skeleton_assembly_line(res: &mut Results, matrix_rows: &[(String, f64, Option<f64>)]) {
    heading("3. The Skeleton Assembly Line (J.M.P. van Waveren, id Software, 2005)");
    let (table, variants) = transform_skeleton_table();
    let r = roster::find(table.routine).expect("in the roster");
    let m = print_table(table);
    res.record_listing(r, &m);
    for (label, row) in variants {
        res.record(label, &m, row);
    }
    let table = untransform_skeleton_table();
    let r = roster::find(table.routine).expect("in the roster");
    let m = print_table(table);
    res.record_listing(r, &m);
    let table = transform_joints_table();
    let r = roster::find(table.routine).expect("in the roster");
    let m = print_table(table);
    res.record_listing(r, &m);
    let rows = crate::results::rows_of_paper(matrix_rows, Source::SkeletonAssemblyLine);
    print_accuracy(&rows);
    para(
        "The paper states no error figure. The skeleton routines on the Fox's key poses (data/Fox.glb.pose.json) \
         against their f64 reference, divided by the model's size; transform_joints against the f64 product \
         over 3072 pairs of random rigid matrices.",
    );
}
