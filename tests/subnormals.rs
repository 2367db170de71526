//! No subnormal intermediates in the successors on the inputs animation
//! produces: held poses (both inputs equal), near-identical poses and the
//! Fox's consecutive keys.
//!
//! An operation that reads or makes a subnormal takes a microcode assist on
//! x86 (tens to a hundred cycles each), which made the successors of
//! `slerp_joints` 2-4x slower on a held pose than on random pairs until
//! they clamped their polynomials' arguments (`asm_notes/successors.md`,
//! "Subnormals"). The test reads the floating-point status flags, which are
//! sticky and per thread: it clears them, calls one form through its safe
//! function, and reads them back. x86_64's MXCSR has *denormal operand* (DE)
//! and *underflow* (UE, a result that is tiny and inexact); aarch64's FPSR
//! has *underflow* (UFC; its input-denormal flag is only raised in
//! flush-to-zero mode, which the crate never sets). The test changes only
//! the flags, never a mode bit, and only on its own thread.
//!
//! Every successor form (`Origin::Successor`) must raise neither flag. The
//! faithful forms and the scalar ports stay as published: what they raise
//! is printed (the note records it), not asserted.

mod common;

use animasm::roster::{self, Shape};
use animasm::{AlignedQuats, Impl, JointQuat, Origin, Quat};
use animasm_testkit::cases::{Workload, pair_at_angle, workload_joints};
use common::cpu::skipped;

/// The underflow and denormal flags this target's status register has.
#[cfg(target_arch = "x86_64")]
mod flags {
    /// MXCSR bits: DE (1) denormal operand, UE (4) underflow.
    const MASK: u32 = (1 << 1) | (1 << 4);

    /// Clears the sticky DE and UE flags of this thread's MXCSR (the mode
    /// bits are written back as they were).
    #[allow(deprecated)] // `_mm_getcsr`/`_mm_setcsr`: the flags, not the mode
    pub fn clear() {
        // SAFETY: SSE is baseline on x86_64; only the sticky status flags
        // DE and UE change, the rounding and flush modes are kept.
        unsafe { core::arch::x86_64::_mm_setcsr(core::arch::x86_64::_mm_getcsr() & !MASK) }
    }

    /// The DE and UE flags raised since [`clear`], in words (empty: none).
    #[allow(deprecated)]
    pub fn raised() -> String {
        // SAFETY: reading MXCSR has no side effect.
        let csr = unsafe { core::arch::x86_64::_mm_getcsr() };
        let mut s = Vec::new();
        if csr & (1 << 1) != 0 {
            s.push("denormal operand");
        }
        if csr & (1 << 4) != 0 {
            s.push("underflow");
        }
        s.join(" + ")
    }

    pub const SUPPORTED: bool = true;
}

#[cfg(target_arch = "aarch64")]
mod flags {
    /// FPSR bit 3: UFC, underflow cumulative.
    const UFC: u64 = 1 << 3;

    /// Clears the sticky UFC flag of this thread's FPSR.
    pub fn clear() {
        let mut fpsr: u64;
        // SAFETY: FPSR holds only cumulative status flags (no mode bits);
        // reading it and writing it back with UFC cleared touches nothing
        // else.
        unsafe {
            core::arch::asm!("mrs {0}, fpsr", out(reg) fpsr, options(nomem, nostack));
            fpsr &= !UFC;
            core::arch::asm!("msr fpsr, {0}", in(reg) fpsr, options(nomem, nostack));
        }
    }

    /// The UFC flag raised since [`clear`], in words (empty: none).
    pub fn raised() -> String {
        let fpsr: u64;
        // SAFETY: reading FPSR has no side effect.
        unsafe { core::arch::asm!("mrs {0}, fpsr", out(reg) fpsr, options(nomem, nostack)) };
        if fpsr & UFC != 0 { "underflow".into() } else { String::new() }
    }

    pub const SUPPORTED: bool = true;
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
mod flags {
    pub fn clear() {}
    pub fn raised() -> String {
        String::new()
    }
    pub const SUPPORTED: bool = false;
}

/// Runs `call` with the flags cleared before and read after it.
fn flags_of(call: impl FnOnce()) -> String {
    flags::clear();
    call();
    let r = flags::raised();
    flags::clear();
    r
}

/// The factors every input is blended at: the middle, both quarters, and a
/// small and a large one (a small factor makes a small angle smaller).
const LERPS: [f32; 5] = [0.5, 0.25, 0.75, 0.01, 0.99];

/// Joint counts: a character, the papers' 1024 and an odd tail.
const COUNTS: [usize; 2] = [24, 1027];

/// The workloads checked (random pairs are not: an intermediate of a
/// random pair can be tiny in a measure-zero set of cases the test would
/// have to avoid by hand).
const WORKLOADS: [Workload; 3] = [Workload::Fox, Workload::Held, Workload::Near];

/// Checks every runnable form of one routine; `run` gives the raised
/// flags of one form on one workload, count and factor.
fn check_forms(name: &str, forms: Vec<(Impl, Origin)>, mut run: impl FnMut(Impl, Workload, usize, f32) -> String) {
    let mut failures = Vec::new();
    for (imp, origin) in forms {
        let mut published = Vec::new();
        for w in WORKLOADS {
            for n in COUNTS {
                for lerp in LERPS {
                    let raised = run(imp, w, n, lerp);
                    if raised.is_empty() {
                        continue;
                    }
                    let what = format!("{name} {imp}: {raised} on {} poses ({n}, lerp {lerp})", w.name());
                    if origin == Origin::Successor {
                        failures.push(what);
                    } else {
                        published.push(what);
                    }
                }
            }
        }
        // What the published forms do is printed for the note, once each.
        if let Some(first) = published.first() {
            println!("published form raises flags ({} cases), first: {first}", published.len());
        }
    }
    assert!(failures.is_empty(), "successors with subnormal intermediates:\n{}", failures.join("\n"));
}

/// The runnable forms of a routine with their origins, saying what is
/// skipped.
fn runnable(r: &roster::Routine) -> Vec<(Impl, Origin)> {
    for f in r.all_forms().filter(|f| f.origin == Origin::Successor) {
        if !r.forms().any(|g| g.imp == f.imp) {
            skipped(&format!("subnormals: {} {} (this CPU lacks it)", r.name, f.imp));
        }
    }
    r.forms().map(|f| (f.imp, f.origin)).collect()
}

#[test]
fn joint_blend_successors_make_no_subnormal() {
    if !flags::SUPPORTED {
        skipped("subnormals: no status flags read on this target");
        return;
    }
    for r in roster::ROUTINES {
        let Shape::JointBlend { safe, .. } = r.shape else { continue };
        check_forms(r.name, runnable(r), |imp, w, n, lerp| {
            let (a, b) = workload_joints(w, 11, n);
            let index: Vec<i32> = (0..n as i32).collect();
            let mut out = a.clone();
            let raised = flags_of(|| safe(imp, &mut out, &b, lerp, &index).expect("valid input"));
            std::hint::black_box(&out);
            raised
        });
    }
}

/// The rotations of a joint workload as quaternion lists.
fn quats(j: &[JointQuat]) -> Vec<Quat> {
    j.iter().map(|j| j.q).collect()
}

#[test]
fn quaternion_stream_and_pair_successors_make_no_subnormal() {
    if !flags::SUPPORTED {
        skipped("subnormals: no status flags read on this target");
        return;
    }
    for r in roster::ROUTINES {
        match r.shape {
            Shape::QuatPairs { safe, .. } => check_forms(r.name, runnable(r), |imp, w, n, lerp| {
                let (a, b) = workload_joints(w, 12, n);
                // 32-byte aligned, as the AVX forms need.
                let (a, b) = (AlignedQuats::from_slice(&quats(&a)), AlignedQuats::from_slice(&quats(&b)));
                let mut out = AlignedQuats::zeroed(n);
                let raised = flags_of(|| safe(imp, &mut out, &a, &b, lerp).expect("valid input"));
                std::hint::black_box(&out);
                raised
            }),
            Shape::Stream { safe, .. } => check_forms(r.name, runnable(r), |imp, w, n, lerp| {
                // One quaternion against a stream: the held pose is the
                // stream of `l` itself, the others `l` against each
                // workload's blend rotations turned onto `l`'s.
                let (a, b) = workload_joints(w, 13, n);
                let l = a[0].q;
                let lf = l.to_array().map(f64::from);
                let mut rng = animasm_testkit::inputs::Rng::new(14);
                let rs: Vec<Quat> = match w {
                    Workload::Held => vec![l; n],
                    Workload::Near => {
                        (0..n).map(|_| Quat::from_array(pair_at_angle(&mut rng, lf, 5e-4).map(|v| v as f32))).collect()
                    }
                    _ => quats(&b),
                };
                let ts = vec![lerp; n];
                let mut out = vec![Quat::default(); n];
                let raised = flags_of(|| safe(imp, &mut out, &l, &rs, &ts).expect("valid input"));
                std::hint::black_box(&out);
                raised
            }),
            _ => {}
        }
    }
}
