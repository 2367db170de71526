//! `lerp_joints` (*Slerping Clock Cycles*, Appendix B): the generic harness checks (`tests/common/harness.rs`:
//! twins, forms against the scalar port and the f64 oracle, errors write
//! nothing, every count, form resolution, the interpolators' sibling
//! contract), the safe function's contract (was `tests/contract.rs`), the
//! asm and intrinsics twins on every input (was `tests/differential.rs`),
//! the listing's errata (was `tests/errata.rs`; the test names are the
//! errata's names in `asm_notes/lerp_joints.md`) and the Fox animation data (was
//! `tests/realdata.rs`).

mod common;

use common::joints;
use common::routines::LerpJoints;

joint_routine_tests!(LerpJoints, &joints::LERP);
