//! The `Pose` shape (the assembly line in one call: `slerp_pose`,
//! `lerp_pose`): every form's raw kernel on the Fox's consecutive keyframe
//! pairs tiled to 24, 100 and 1024 joints under a random parents-first
//! hierarchy, no skin (`devkit::whole_pose`, the inputs of the report's
//! section 8b).

use std::hint::black_box;

use animasm::roster::{Shape, kernel};
use animasm_testkit::cases::Workload;
use devkit::whole_pose::{Hierarchy, PoseCase, PoseOut, SIZES, run_pose};
use gungraun::{library_benchmark, library_benchmark_group};

use crate::{Case, Function};

/// The benchmark functions of this file.
pub(crate) const FUNCTIONS: &[Function] = &[Function { path: "whole_pose::kernels", cases: kernel_cases }];

fn of_shape(shape: &Shape) -> bool {
    matches!(shape, Shape::Pose { .. })
}

fn kernel_cases() -> Vec<Case> {
    crate::cases(of_shape, &SIZES.map(Some), true, crate::no_extras)
}

/// A raw kernel (`None`: its form does not run here, see [`crate::kernel`]),
/// its input and its output.
struct PoseRun {
    kernel: Option<kernel::Pose>,
    case: PoseCase,
    out: PoseOut,
}

impl PoseRun {
    /// One call of the kernel over the whole pose.
    #[inline(always)]
    fn run(&mut self) {
        if let Some(k) = self.kernel {
            run_pose(k, black_box(&self.case), black_box(&mut self.out), false);
        }
    }
}

/// Setup (not counted): the Fox's poses at the case's size under a random
/// hierarchy, for the case's kernel.
fn input(case: Case) -> PoseRun {
    let Shape::Pose { forms, .. } = case.routine.shape else { unreachable!("a Pose case") };
    let n = case.size.expect("a Pose case has a size");
    let case_input = PoseCase::new(Hierarchy::Random(n), Workload::Fox);
    PoseRun { kernel: crate::kernel(&case, forms), out: PoseOut::new(n), case: case_input }
}

// Every form of every `Pose` routine, the raw kernels, at 24, 100 and 1024
// joints.
#[library_benchmark]
#[benches::cases(iter = kernel_cases(), setup = input)]
fn kernels(mut run: PoseRun) -> PoseRun {
    run.run();
    black_box(run)
}

library_benchmark_group!(name = whole_pose, benchmarks = [kernels]);
