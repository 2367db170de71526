//! *Slerping Clock Cycles* (J.M.P. van Waveren, id Software, 2005):
//! `slerp_joints` and `lerp_joints`.

use crate::print::{heading, para, progress};
use crate::results::{Results, print_accuracy};
use crate::table::{Paper, Row, Table, auto_note, paper_kernels, print_table};
use animasm::roster::{self, FormInfo, Shape};
use animasm::{Impl, JointQuat};
use devkit::measure;
use devkit::peers::{GlamJointLoop as GlamLoop, glam_lerp_joints, glam_slerp_joints, to_glam};
use devkit::setup::{self, JOINTS, LERP};
use glam::{Quat as GQuat, Vec4 as GVec4};

/// The raw kernels' signature (`Shape::JointBlend`, every form).
pub(crate) type JointKernel = roster::kernel::JointBlend;

/// The papers' benchmark data: two lists of [`JOINTS`] joints and the
/// identity index, plus the same data as glam arrays.
pub(crate) struct JointLists {
    pub(crate) pristine: Vec<JointQuat>,
    pub(crate) joints: Vec<JointQuat>,
    pub(crate) blend: Vec<JointQuat>,
    pub(crate) index: Vec<i32>,
    pub(crate) pristine_q: Vec<GQuat>,
    pub(crate) pristine_t: Vec<GVec4>,
    pub(crate) q: Vec<GQuat>,
    pub(crate) t: Vec<GVec4>,
    pub(crate) blend_q: Vec<GQuat>,
    pub(crate) blend_t: Vec<GVec4>,
}

impl JointLists {
    pub(crate) fn new() -> Self {
        let (pristine, blend, index) = setup::joint_lists();
        let (pristine_q, pristine_t) = to_glam(&pristine);
        let (blend_q, blend_t) = to_glam(&blend);
        JointLists {
            joints: pristine.clone(),
            q: pristine_q.clone(),
            t: pristine_t.clone(),
            pristine_q,
            pristine_t,
            blend_q,
            blend_t,
            pristine,
            blend,
            index,
        }
    }

    pub(crate) fn restore(&mut self) {
        self.joints.copy_from_slice(&self.pristine);
    }

    pub(crate) fn restore_glam(&mut self) {
        self.q.copy_from_slice(&self.pristine_q);
        self.t.copy_from_slice(&self.pristine_t);
    }
}

/// The table of a joint-list routine (`Shape::JointBlend`): its raw
/// kernels (the paper's forms, [`paper_kernels`]) and its glam peer.
pub(crate) fn joint_table(routine: &'static str, title: &str, peer: GlamLoop, paper: Paper) -> Table<JointLists> {
    let r = roster::find(routine).unwrap_or_else(|| panic!("{routine} is not in the roster"));
    let Shape::JointBlend { safe, forms } = r.shape else { panic!("{routine} is not a joint-blend routine") };
    let kernels: Vec<(FormInfo, JointKernel)> = paper_kernels(forms);
    let resolved = r.resolve(Impl::Auto).map(|f| f.imp);
    let mut rows: Vec<Row<JointLists>> = kernels
        .into_iter()
        .map(|(form, kernel)| Row {
            name: form.imp.name(),
            paper: Some(paper.for_form(form)),
            restore: JointLists::restore,
            call: Box::new(move |b: &mut JointLists| {
                // SAFETY: `joint_lists` gives `JOINTS` joints in each list
                // (16-byte aligned `Vec<JointQuat>`s, two allocations) and the
                // identity index `0..JOINTS`, so every entry addresses a joint
                // of both lists; `JOINTS <= MAX_JOINTS`.
                unsafe { kernel(b.joints.as_mut_ptr(), b.blend.as_ptr(), LERP, b.index.as_ptr(), JOINTS as i32) }
            }),
        })
        .collect();
    rows.push(Row {
        name: Impl::Auto.name(),
        paper: None,
        restore: JointLists::restore,
        call: Box::new(move |b: &mut JointLists| {
            safe(Impl::Auto, &mut b.joints, &b.blend, LERP, &b.index).expect("the benchmark input is valid")
        }),
    });
    rows.push(Row {
        name: "glam",
        paper: None,
        restore: JointLists::restore_glam,
        call: Box::new(move |b: &mut JointLists| peer(&mut b.q, &mut b.t, &b.blend_q, &b.blend_t, LERP, &b.index)),
    });
    Table {
        routine,
        paper: Some(paper),
        title: format!("{title}, {JOINTS} joints, hot cache, lerp {LERP}"),
        count: JOINTS,
        bufs: JointLists::new(),
        rows,
        notes: vec![
            auto_note(routine, resolved),
            "glam: `Quat` and `Vec4` arrays holding the same data, one loop over `index`.".into(),
        ],
    }
}

/// `SlerpJoints` (Appendix A), against `Quat::slerp` in glam.
pub(crate) fn slerp_joints_table() -> Table<JointLists> {
    joint_table(
        "slerp_joints",
        "SlerpJoints (`slerp_joints`)",
        glam_slerp_joints,
        Paper { name: "SlerpJoints", c_130: 1011.0, sse_130: 107.0, c_90: 1018.0, sse_90: 128.0 },
    )
}

/// `LerpJoints` (Appendix B), against `Quat::lerp` in glam.
pub(crate) fn lerp_joints_table() -> Table<JointLists> {
    joint_table(
        "lerp_joints",
        "LerpJoints (`lerp_joints`)",
        glam_lerp_joints,
        Paper { name: "LerpJoints", c_130: 213.0, sse_130: 50.0, c_90: 248.0, sse_90: 52.0 },
    )
}

/// Section 1: `SlerpJoints` and `LerpJoints`, and the accuracy rows.
pub(crate) fn slerping_clock_cycles(res: &mut Results) {
    heading("1. Slerping Clock Cycles (J.M.P. van Waveren, id Software, 2005)");
    let table = slerp_joints_table();
    let r = roster::find(table.routine).expect("in the roster");
    let m = print_table(table);
    res.record_listing(r, &m);
    let table = lerp_joints_table();
    let r = roster::find(table.routine).expect("in the roster");
    let m = print_table(table);
    res.record_listing(r, &m);
    progress("measuring slerp_joints and lerp_joints accuracy");
    let rows = measure::report_rows();
    print_accuracy(&rows);
    para(
        "Published: the paper's maximum errors of its SinZeroHalfPI and ATanPositive approximations and of the \
         SSE slerp against the C Slerp. Measured over 3072 random quaternion pairs at 63 lerp factors.",
    );
    res.accuracy.extend(rows);
}
