//! *From Quaternion to Matrix and Back* (J.M.P. van Waveren, id Software,
//! 2005): `quats_to_mats` and `mats_to_quats`.

use crate::print::{heading, para};
use crate::results::{Results, print_accuracy};
use crate::table::{Paper, Row, Table, auto_note, kernel_rows, no_restore, paper_kernels, print_table};
use animasm::roster::{self, Shape, Source};
use animasm::{Impl, JointMat, JointQuat};
use devkit::peers::{glam_mats_to_quats, glam_quats_to_mats, to_affine_paper_rotation, to_glam};
use devkit::setup::{self, JOINTS};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};

/// The raw kernels of `Shape::QuatsToMats`.
pub(crate) type QuatsToMatsKernel = roster::kernel::QuatsToMats;
/// The raw kernels of `Shape::MatsToQuats`.
pub(crate) type MatsToQuatsKernel = roster::kernel::MatsToQuats;

/// `quats_to_mats`'s data: the joint lists' first list ([`JOINTS`] unit
/// quaternions and translations) and the matrices written, and the same for
/// glam.
pub(crate) struct QuatsToMats {
    pub(crate) quats: Vec<JointQuat>,
    pub(crate) mats: Vec<JointMat>,
    pub(crate) q: Vec<GQuat>,
    pub(crate) t: Vec<GVec4>,
    pub(crate) affine: Vec<Affine3A>,
}

/// `ConvertJointQuatsToJointMats` (*From Quaternion to Matrix and Back*,
/// Appendix A), against `Affine3A::from_rotation_translation` in glam.
pub(crate) fn quats_to_mats_table() -> Table<QuatsToMats> {
    let paper = Paper { name: "ConvertJointQuatsToJointMats", c_130: 54.0, sse_130: 30.0, c_90: 62.0, sse_90: 34.0 };
    let quats = setup::quats_to_mats_input();
    let (q, t) = to_glam(&quats);
    let bufs =
        QuatsToMats { mats: vec![JointMat::default(); JOINTS], affine: vec![Affine3A::IDENTITY; JOINTS], quats, q, t };
    let r = roster::find("quats_to_mats").expect("in the roster");
    let Shape::QuatsToMats { forms, safe } = r.shape else { panic!("{} is not a QuatsToMats routine", r.name) };
    let mut rows =
        kernel_rows(paper_kernels(forms), &paper, no_restore, |kernel: QuatsToMatsKernel, b: &mut QuatsToMats| {
            // SAFETY: both lists hold `JOINTS` elements (16-byte aligned
            // `Vec`s of 16-byte aligned types, two allocations) and
            // `JOINTS <= MAX_JOINTS`.
            unsafe { kernel(b.mats.as_mut_ptr(), b.quats.as_ptr(), JOINTS as i32) }
        });
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: no_restore,
        call: Box::new(move |b: &mut QuatsToMats| {
            safe(Impl::Auto, &mut b.mats, &b.quats).expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut QuatsToMats| glam_quats_to_mats(&mut b.affine, &b.q, &b.t)),
    });
    Table {
        routine: r.name,
        paper: Some(paper),
        title: format!("ConvertJointQuatsToJointMats (`quats_to_mats`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            auto_note(r.name, r.resolve(Impl::Auto).map(|f| f.imp)),
            "Input: the joint lists' first list (uniform unit quaternions, translations in [-10, 10)). glam: \
             `Affine3A::from_rotation_translation` per joint (`Mat3A::from_quat` and the translation: the \
             same work as the kernel's), from `Quat` and `Vec4` arrays holding the same joints, into \
             `Affine3A`s (64 bytes per joint against `JointMat`'s 48)."
                .into(),
        ],
    }
}

/// `mats_to_quats`'s data: [`JOINTS`] rigid matrices and the joints written,
/// and the same for glam.
pub(crate) struct MatsToQuats {
    pub(crate) mats: Vec<JointMat>,
    pub(crate) quats: Vec<JointQuat>,
    pub(crate) affine: Vec<Affine3A>,
    pub(crate) q: Vec<GQuat>,
    pub(crate) t: Vec<GVec4>,
}

/// `ConvertJointMatsToJointQuats` (*From Quaternion to Matrix and Back*,
/// Appendix B), against `Quat::from_affine3` in glam.
pub(crate) fn mats_to_quats_table() -> Table<MatsToQuats> {
    let paper = Paper { name: "ConvertJointMatsToJointQuats", c_130: 172.0, sse_130: 61.0, c_90: 173.0, sse_90: 72.0 };
    let mats = setup::mats_to_quats_input();
    let positive_trace = mats.iter().filter(|m| m.mat[0] + m.mat[5] + m.mat[10] > 0.0).count();
    let bufs = MatsToQuats {
        quats: vec![JointQuat::default(); JOINTS],
        affine: to_affine_paper_rotation(&mats),
        q: vec![GQuat::IDENTITY; JOINTS],
        t: vec![GVec4::ZERO; JOINTS],
        mats,
    };
    let r = roster::find("mats_to_quats").expect("in the roster");
    let Shape::MatsToQuats { forms, safe } = r.shape else { panic!("{} is not a MatsToQuats routine", r.name) };
    let mut rows =
        kernel_rows(paper_kernels(forms), &paper, no_restore, |kernel: MatsToQuatsKernel, b: &mut MatsToQuats| {
            // SAFETY: both lists hold `JOINTS` elements (two allocations)
            // and `JOINTS <= MAX_JOINTS`.
            unsafe { kernel(b.quats.as_mut_ptr(), b.mats.as_ptr(), JOINTS as i32) }
        });
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: no_restore,
        call: Box::new(move |b: &mut MatsToQuats| {
            safe(Impl::Auto, &mut b.quats, &b.mats).expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut MatsToQuats| glam_mats_to_quats(&mut b.q, &mut b.t, &b.affine)),
    });
    Table {
        routine: r.name,
        paper: Some(paper),
        title: format!("ConvertJointMatsToJointQuats (`mats_to_quats`), {JOINTS} joints, hot cache"),
        count: JOINTS,
        bufs,
        rows,
        notes: vec![
            auto_note(r.name, r.resolve(Impl::Auto).map(|f| f.imp)),
            format!(
                "Input: uniform random rigid matrices (`inputs::rigid_mats`); the trace is positive for \
                 {positive_trace} of {JOINTS}, so the C port's four-way branch is taken at random (the listing \
                 has no branch on the data). glam: `Quat::from_affine3` (DirectXMath's four cases, `sqrt` \
                 and a division) and the translation copied, on `Affine3A`s whose rotation columns are the \
                 rows of the paper's matrices (the paper stores the transpose of the column-vector \
                 rotation), so both compute the quaternion of the same rotation."
            ),
        ],
    }
}

/// Section 2: the paper's two tables and the accuracy rows.
pub(crate) fn quaternion_to_matrix(res: &mut Results, matrix_rows: &[(String, f64, Option<f64>)]) {
    heading("2. From Quaternion to Matrix and Back (J.M.P. van Waveren, id Software, 2005)");
    let table = quats_to_mats_table();
    let r = roster::find(table.routine).expect("in the roster");
    let m = print_table(table);
    res.record_listing(r, &m);
    let table = mats_to_quats_table();
    let r = roster::find(table.routine).expect("in the roster");
    let m = print_table(table);
    res.record_listing(r, &m);
    let rows = crate::results::rows_of_paper(matrix_rows, Source::QuaternionToMatrix);
    print_accuracy(&rows);
    para(
        "The paper states no error figure. quats_to_mats against the f64 formula over 3072 random unit \
         quaternions; mats_to_quats against the quaternion each of 3072 random rotations was built from.",
    );
}
