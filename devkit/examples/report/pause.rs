//! The AVX-512 forms after a pause: each routine that has both an `Avx2`
//! and an `Avx512` form, timed back to back (the 512-bit units busy from
//! the call before) and after a pause of scalar work, since an Intel core
//! that has run no 512-bit instruction for a while runs the first few
//! microseconds of 512-bit work slower while it powers the units up and
//! changes its clock (a 1024-joint call lasts about that long).
//!
//! Method: the safe functions (what users call) at [`JOINTS`] elements,
//! `Impl::Avx2` and `Impl::Avx512` alternating (which goes first alternates
//! by round), in-place inputs restored before the pause; "back to back":
//! no pause; "after a pause": [`PAUSE_MS`] ms of a scalar loop (the timer
//! only) before each timed call. Median TSC ticks per element. At a
//! character's size a sample is `timer::calls_per_sample` calls, where the
//! timer's step is too coarse for one (26 ticks on the AMD EPYC VMs).

use std::hint::black_box;

use animasm::roster::{self, Shape};
use animasm::{Impl, JointMat, JointQuat, Quat};
use devkit::setup::{self, JOINTS, LERP};
use devkit::timer::{self, Stats};

use crate::print::{Align::Left as L, Align::Right as R, heading, para, print_grid, progress};

/// The pause before each timed call of the second measurement, in ms.
const PAUSE_MS: f64 = 1.0;
/// Timed rounds back to back and after a pause (each round times both
/// forms once).
const ROUNDS: (usize, usize) = (501, 101);

/// Spins on the timer (no vector instruction) for `ms` milliseconds.
fn pause(ms: f64) {
    let ticks = (timer::rate_hz() * ms * 1e-3) as u64;
    let t0 = timer::start();
    while timer::stop().wrapping_sub(t0) < ticks {
        std::hint::spin_loop();
    }
}

/// A routine's call on its buffers (`restore` then `call`), by form.
struct Case {
    name: &'static str,
    /// Elements per call.
    n: usize,
    /// Calls per timed sample (`timer::calls_per_sample`): an in-place
    /// routine's calls each on its own copy of the joints, the others' on
    /// the same buffers.
    calls: usize,
    restore: Box<dyn FnMut()>,
    call: Box<dyn FnMut(Impl)>,
}

/// The case of routine `r` at `n` elements, `calls` calls per sample, if
/// its table has both forms and this CPU runs them.
fn case(r: &'static roster::Routine, n: usize, calls: usize) -> Option<Case> {
    let runs = |imp| r.resolve(imp).is_ok_and(|f| f.imp == imp);
    if !(runs(Impl::Avx2) && runs(Impl::Avx512)) {
        return None;
    }
    let unwrap = |res: Result<(), animasm::Error>| res.expect("valid buffers");
    Some(match r.shape {
        Shape::JointBlend { safe, .. } => {
            let (pristine, blend, index) = setup::joint_lists_n(n);
            let joints = std::rc::Rc::new(std::cell::RefCell::new(vec![pristine.clone(); calls]));
            let j2 = joints.clone();
            Case {
                name: r.name,
                n,
                calls,
                restore: Box::new(move || joints.borrow_mut().iter_mut().for_each(|j| j.copy_from_slice(&pristine))),
                call: Box::new(move |imp| {
                    for j in j2.borrow_mut().iter_mut() {
                        unwrap(safe(imp, black_box(j), &blend, LERP, &index))
                    }
                }),
            }
        }
        Shape::QuatsToMats { safe, .. } => {
            let quats = setup::quats_to_mats_input_n(n);
            let mut mats = vec![JointMat::default(); n];
            Case {
                name: r.name,
                n,
                calls,
                restore: Box::new(|| {}),
                call: Box::new(move |imp| (0..calls).for_each(|_| unwrap(safe(imp, black_box(&mut mats), &quats)))),
            }
        }
        Shape::MatsToQuats { safe, .. } => {
            let mats = setup::mats_to_quats_input_n(n);
            let mut quats = vec![JointQuat::default(); n];
            Case {
                name: r.name,
                n,
                calls,
                restore: Box::new(|| {}),
                call: Box::new(move |imp| (0..calls).for_each(|_| unwrap(safe(imp, black_box(&mut quats), &mats)))),
            }
        }
        Shape::TransformJoints { safe, .. } => {
            let (a, b) = setup::transform_joints_input_n(n);
            let mut out = vec![JointMat::default(); n];
            Case {
                name: r.name,
                n,
                calls,
                restore: Box::new(|| {}),
                call: Box::new(move |imp| (0..calls).for_each(|_| unwrap(safe(imp, black_box(&mut out), &a, &b)))),
            }
        }
        Shape::Stream { safe, .. } => {
            let (l, mut rs, mut t) = setup::nlerp_input();
            rs.truncate(n);
            t.truncate(n);
            let mut dest = vec![Quat::default(); rs.len()];
            Case {
                name: r.name,
                n,
                calls,
                restore: Box::new(|| {}),
                call: Box::new(move |imp| {
                    (0..calls).for_each(|_| unwrap(safe(imp, black_box(&mut dest), &l, &rs, &t)))
                }),
            }
        }
        _ => return None,
    })
}

/// Median ticks per element of `Avx2` and `Avx512` over `rounds` rounds,
/// with a pause of `ms` before each timed call.
fn measure(c: &mut Case, rounds: usize, ms: f64) -> (f64, f64) {
    let mut s = [Vec::with_capacity(rounds), Vec::with_capacity(rounds)];
    for round in 0..rounds + 3 {
        for k in 0..2 {
            let i = (round + k) % 2;
            let imp = [Impl::Avx2, Impl::Avx512][i];
            (c.restore)();
            if ms > 0.0 {
                pause(ms);
            }
            let call = &mut c.call;
            let t = timer::time(|| call(imp));
            if round >= 3 {
                s[i].push(t);
            }
        }
    }
    let [a, b] = s.map(|mut v| Stats::of_ticks(&mut v, (c.n * c.calls) as f64).median);
    (a, b)
}

/// Calls per sample for `c` (one call each): from the faster form's
/// median single call, so that a sample spans `timer::MIN_SAMPLE_STEPS`
/// of the timer's step.
fn calls_at(mut c: Case) -> usize {
    let forms = [Impl::Avx2, Impl::Avx512];
    timer::calls_for_rows(forms.len(), |i| {
        (c.restore)();
        let call = &mut c.call;
        timer::time(|| call(forms[i]))
    })
}

/// A character's joints: the third measurement's call size.
const CHARACTER: usize = 24;

/// The section: one row per routine with both forms.
pub(crate) fn pause_section() {
    heading("The AVX-512 forms after a pause and at a character's size");
    let mut cases: Vec<(Case, Case)> = roster::ROUTINES
        .iter()
        .filter_map(|r| Some((case(r, JOINTS, 1)?, case(r, CHARACTER, calls_at(case(r, CHARACTER, 1)?))?)))
        .collect();
    if cases.is_empty() {
        para(
            "Skipped: this CPU does not run the AVX-512 forms (or no routine has both an `avx2` and an `avx512` form).",
        );
        return;
    }
    let (lo, hi) = cases.iter().fold((usize::MAX, 0), |(lo, hi), c| (lo.min(c.1.calls), hi.max(c.1.calls)));
    let calls = if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") };
    let (step, unit) = (timer::step(), timer::UNIT);
    para(&format!(
        "Each routine's `avx2` and `avx512` forms through the safe function, alternating, median {} per \
         element: at {JOINTS} elements back to back and after {PAUSE_MS} ms of scalar work before each call, and \
         at {CHARACTER} elements (a character) back to back (a sample of {calls} such calls where the timer's \
         step, {step} {unit}, is too coarse for one). A core that has run no 512-bit instruction for a \
         while runs the first microseconds of 512-bit work slower; a call of {JOINTS} elements lasts about that \
         long. `Impl::Auto` keeps an `avx512` form first only where it does not lose in any of the three \
         (`avx2 / avx512` at least 1.00x; the last column says what the table gives).",
        timer::UNIT
    ));
    let mut rows = Vec::new();
    for (c, small) in &mut cases {
        progress(&format!("AVX-512 after a pause: {}", c.name));
        let (b2, b5) = measure(c, crate::table::rounds(ROUNDS.0), 0.0);
        let (p2, p5) = measure(c, crate::table::rounds(ROUNDS.1), PAUSE_MS);
        let (s2, s5) = measure(small, crate::table::rounds(ROUNDS.0), 0.0);
        let first = [b2 / b5, p2 / p5, s2 / s5].iter().all(|&r| r >= 1.0);
        rows.push(vec![
            c.name.to_string(),
            format!("{b2:.2}"),
            format!("{b5:.2}"),
            format!("{:.2}x", b2 / b5),
            format!("{p2:.2}"),
            format!("{p5:.2}"),
            format!("{:.2}x", p2 / p5),
            format!("{s2:.2}"),
            format!("{s5:.2}"),
            format!("{:.2}x", s2 / s5),
            if first { "avx512" } else { "avx2" }.to_string(),
        ]);
    }
    print_grid(
        &[
            "routine",
            "avx2 back to back",
            "avx512 back to back",
            "avx2 / avx512",
            "avx2 after a pause",
            "avx512 after a pause",
            "avx2 / avx512",
            &format!("avx2 at {CHARACTER}"),
            &format!("avx512 at {CHARACTER}"),
            "avx2 / avx512",
            "first by this table",
        ],
        &[L, R, R, R, R, R, R, R, R, R, L],
        &rows,
    );
}
