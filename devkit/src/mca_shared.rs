//! What the llvm-mca estimates of both targets share ([`crate::mca`] on
//! x86_64, [`crate::mca_aarch64`]): where a form's kernel is in the running
//! binary, how a shape's loop steps through its lists, and running a tool.

use std::process::Command;

use animasm::roster::{Form, Routine, Shape};
use animasm::{Impl, Isa};

use crate::objdump::Function;

/// The runtime address of the raw kernel of form `imp` in `r`'s table
/// (whether this CPU runs it or not), `None` when the table has no such
/// form.
pub(crate) fn kernel_address(r: &Routine, imp: Impl) -> Option<usize> {
    fn find<K: Copy>(forms: &[Form<K>], imp: Impl, address: fn(K) -> usize) -> Option<usize> {
        forms.iter().find(|f| f.imp() == imp).map(|f| std::hint::black_box(address(f.kernel())))
    }
    match r.shape {
        Shape::JointBlend { forms, .. } => find(forms, imp, |k| k as usize),
        Shape::QuatsToMats { forms, .. } => find(forms, imp, |k| k as usize),
        Shape::MatsToQuats { forms, .. } => find(forms, imp, |k| k as usize),
        Shape::Skeleton { forms, .. } => find(forms, imp, |k| k as usize),
        Shape::TransformJoints { forms, .. } => find(forms, imp, |k| k as usize),
        Shape::QuatPairs { forms, .. } => find(forms, imp, |k| k as usize),
        Shape::Stream { forms, .. } => find(forms, imp, |k| k as usize),
        Shape::Pose { forms, .. } => find(forms, imp, |k| k as usize),
        _ => None,
    }
}

/// The function of `table` at the runtime address `address` (of a form of
/// `r`): among aliases at one address, the one named after the routine in
/// its module (`animasm::<module>::<form module>::<routine>`), else the
/// first. `anchor` as [`crate::objdump::functions_at`].
pub(crate) fn function_at(
    table: &[Function],
    anchor: (&str, usize),
    r: &Routine,
    address: usize,
) -> Result<Function, String> {
    let found = crate::objdump::functions_at(table, anchor, address)?;
    let own = |f: &&Function| {
        f.name.starts_with(&format!("animasm::{}::", r.module)) && f.name.ends_with(&format!("::{}", r.name))
    };
    found
        .iter()
        .find(own)
        .or(found.first())
        .cloned()
        .ok_or_else(|| format!("{}: no function at the kernel's address", r.name))
}

/// Runs a tool and returns its stdout.
pub(crate) fn run(tool: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(tool).args(args).output().map_err(|e| format!("running `{tool}`: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "`{tool} {}` failed: {}\n{}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// `Block RThroughput: 53.0` -> 53.0.
pub(crate) fn parse_block_rthroughput(text: &str) -> Option<f64> {
    text.lines().find_map(|l| l.trim().strip_prefix("Block RThroughput:")).and_then(|v| v.trim().parse().ok())
}

/// How to read a shape's loop: the byte strides of the lists the loop walks
/// (most specific first), to read the elements per iteration off its
/// pointer steps, and the elements per iteration assumed where the steps
/// say nothing, for a form of `lanes` lanes. Strides: 32 for a `JointQuat`,
/// 48 for a `JointMat`, 16 for a `Quat`, 4 for an `index`, `parents` or
/// factor entry.
pub(crate) fn steps(shape: &Shape, lanes: f64) -> (&'static [u64], f64) {
    match shape {
        Shape::JointBlend { .. } => (&[4], lanes),
        Shape::QuatsToMats { .. } | Shape::MatsToQuats { .. } => (&[48, 32], lanes),
        // A joint at a time: each needs its parent's result.
        Shape::Skeleton { .. } => (&[48, 4], 1.0),
        // A lane group per row of a matrix: four lanes per matrix (a
        // scalar loop: one matrix).
        Shape::TransformJoints { .. } => (&[48], (lanes / 4.0).max(1.0)),
        Shape::QuatPairs { .. } => (&[16], lanes),
        _ => (&[16, 4], lanes),
    }
}

/// The `f32` lanes of a vector of an instruction set (`Isa::lanes`).
pub(crate) fn lanes(isa: Isa) -> f64 {
    f64::from(isa.lanes())
}
