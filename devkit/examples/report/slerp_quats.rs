//! Intel's AVX slerp of quaternion arrays (P. Mehrotra, R. Hubbard,
//! *Benefits of Intel AVX for Quaternion Spherical Linear Interpolation*,
//! Intel): the article's Table 1.

use crate::print::{Align::Left as L, Align::Right as R, heading, para, print_grid, progress};
use crate::results::{Results, print_accuracy};
use crate::table::{Row, Table, kernel_row, measure_rows, no_restore, ratio};
use devkit::timer;
use std::hint::black_box;

use animasm::slerp_quats::AlignedQuats;
use animasm::{Impl, Quat};
use devkit::measure;
use devkit::peers::{glam_slerp_quats, to_glam_quats};
use devkit::plots;
use devkit::setup::{self, JOINTS, SLERP_QUATS_COUNTS, SLERP_QUATS_FACTOR};
use glam::Quat as GQuat;

/// `slerp_quats`' raw kernels: `(result, from, to, factor, count)`.
pub(crate) type SlerpQuatsKernel = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32);

/// The article's Table 1 (Sandy Bridge, ICC, data in L1): the AVX kernel's
/// speedup over the 128-bit kernel for 64 and 67 quaternions.
pub(crate) const TABLE1: [(usize, f64); 2] = [(64, 2.16), (67, 1.86)];

/// `slerp_quats`' data for one count: the quaternion pairs in
/// 32-byte-aligned storage, the results, and the same for glam.
pub(crate) struct QuatArrays {
    /// Quaternions per call.
    pub(crate) n: usize,
    /// Back-to-back calls per timed run (see [`print_slerp_quats_tables`]).
    pub(crate) calls: usize,
    pub(crate) from: AlignedQuats,
    pub(crate) to: AlignedQuats,
    pub(crate) result: AlignedQuats,
    pub(crate) gfrom: Vec<GQuat>,
    pub(crate) gto: Vec<GQuat>,
    pub(crate) gresult: Vec<GQuat>,
}

impl QuatArrays {
    pub(crate) fn new(n: usize) -> Self {
        let (from, to) = setup::slerp_quats_input(n);
        let (gfrom, gto) = (to_glam_quats(&from), to_glam_quats(&to));
        QuatArrays {
            n,
            calls: (JOINTS / n).max(1),
            result: AlignedQuats::zeroed(n),
            gresult: vec![GQuat::IDENTITY; n],
            from,
            to,
            gfrom,
            gto,
        }
    }

    /// Runs a raw kernel [`QuatArrays::calls`] times.
    pub(crate) fn run(kernel: SlerpQuatsKernel, b: &mut QuatArrays) {
        for _ in 0..b.calls {
            let (result, from, to) = (black_box(b.result.as_mut_ptr()), b.from.as_ptr(), b.to.as_ptr());
            // SAFETY: the three arrays hold `n` (<= 1024) quaternions each in
            // `AlignedQuats` (32-byte aligned, three allocations, `result`
            // distinct from the inputs); the AVX kernels are only put in a
            // row where they are among `slerp_quats::forms()` (AVX detected).
            unsafe { kernel(result, from, to, SLERP_QUATS_FACTOR, b.n as i32) };
        }
    }

    /// Runs the safe `slerp_quats_corrected` with `Impl::Auto`
    /// [`QuatArrays::calls`] times.
    pub(crate) fn run_auto(b: &mut QuatArrays) {
        for _ in 0..b.calls {
            animasm::slerp_quats_corrected(Impl::Auto, black_box(&mut b.result), &b.from, &b.to, SLERP_QUATS_FACTOR)
                .expect("the benchmark input is valid");
        }
    }

    /// Runs the glam peer [`QuatArrays::calls`] times.
    pub(crate) fn run_glam(b: &mut QuatArrays) {
        for _ in 0..b.calls {
            glam_slerp_quats(black_box(&mut b.gresult), &b.gfrom, &b.gto, SLERP_QUATS_FACTOR);
        }
    }
}

/// The 128-bit kernel's row name: the baseline of Table 1.
pub(crate) const SSE_ROW: &str = "sse2 (128-bit baseline)";

/// The `Impl::Auto` row's name: the safe `slerp_quats_corrected`.
pub(crate) const AUTO_ROW: &str = "auto corrected (safe fn)";

/// Whether this CPU runs `slerp_quats`' AVX forms.
pub(crate) fn avx() -> bool {
    animasm::slerp_quats::forms().any(|i| i == Impl::Asm || i == Impl::Intrinsics)
}

/// `slerp_quats`' rows for one count: the 128-bit baseline, the AVX kernels
/// (where the CPU has AVX), the scalar forms, the safe function with
/// `Impl::Auto` and glam.
pub(crate) fn slerp_quats_table(n: usize) -> Table<QuatArrays> {
    let mut kernels: Vec<(&'static str, SlerpQuatsKernel)> = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        use animasm::slerp_quats::{asm, intrinsics, sse2};
        kernels.push((SSE_ROW, sse2::slerp_quats_sse));
        if avx() {
            kernels.push(("asm as published", asm::slerp_quats_as_published));
            kernels.push(("intrinsics as published", intrinsics::slerp_quats_as_published));
            kernels.push(("asm corrected", asm::slerp_quats_corrected));
            kernels.push(("intrinsics corrected", intrinsics::slerp_quats_corrected));
        }
    }
    use animasm::slerp_quats::scalar;
    kernels.push(("scalar as published", scalar::slerp_quats_as_published));
    kernels.push(("scalar corrected", scalar::slerp_quats_corrected));
    let mut rows: Vec<Row<QuatArrays>> =
        kernels.into_iter().map(|(name, kernel)| kernel_row(name, None, no_restore, kernel, QuatArrays::run)).collect();
    rows.push(Row { name: AUTO_ROW, paper: None, restore: no_restore, call: Box::new(QuatArrays::run_auto) });
    rows.push(Row { name: "glam Quat::slerp", paper: None, restore: no_restore, call: Box::new(QuatArrays::run_glam) });
    let bufs = QuatArrays::new(n);
    Table {
        routine: "slerp_quats",
        title: String::new(),
        paper: None,
        count: n * bufs.calls,
        bufs,
        rows,
        notes: Vec::new(),
    }
}

/// The article's Table 1 on this CPU: every `slerp_quats` kernel at 64, 67
/// and 1024 quaternions, in ticks per quaternion, and its speedup over the
/// 128-bit kernel (the AVX rows' speedup is Table 1's figure), next to the
/// article's; then the corrected kernel's cost relative to the published one.
///
/// One table of rows per count, timed as the other tables (round-robin,
/// [`RUNS`] runs, median). The 64 and 67 quaternions of one call take a few
/// hundred ticks, not far above the timer's overhead, so each run times
/// `1024 / n` back-to-back calls (16 and 15; 1 for 1024) on the same arrays;
/// the results go to a separate array, so nothing needs restoring and the
/// caches stay hot.
pub(crate) fn print_slerp_quats_tables(res: &mut Results) {
    let avx = avx();
    let mut names: Vec<&'static str> = Vec::new();
    let mut medians: Vec<Vec<f64>> = Vec::new(); // [count][row]
    let mut calls = Vec::new();
    for n in SLERP_QUATS_COUNTS {
        progress(&format!("measuring slerp_quats, {n} quaternions"));
        let mut table = slerp_quats_table(n);
        calls.push(table.bufs.calls);
        let stats = measure_rows(&mut table);
        names = table.rows.iter().map(|r| r.name).collect();
        medians.push(stats.iter().map(|s| s.median).collect());
    }
    let row = |name: &str| names.iter().position(|r| *r == name);
    let unit = timer::UNIT;
    let counts = SLERP_QUATS_COUNTS;
    outln!(
        "ProcessOptimizedKernel (`slerp_quats`): {}, {} and {} quaternions, hot cache, factor {SLERP_QUATS_FACTOR}\n",
        counts[0],
        counts[1],
        counts[2]
    );
    let sse = row(SSE_ROW);
    let mut lines = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let mut l = vec![name.to_string()];
        l.extend(medians.iter().map(|m| format!("{:.1}", m[i])));
        l.extend(medians.iter().map(|m| ratio(sse.map(|s| m[s]), Some(m[i]))));
        l.push(if name.contains("as published") && !name.starts_with("scalar") {
            format!("{:.2}x / {:.2}x", TABLE1[0].1, TABLE1[1].1)
        } else {
            "-".into()
        });
        lines.push(l);
    }
    let head: Vec<String> = counts
        .iter()
        .map(|n| format!("{n}"))
        .chain(counts.iter().map(|n| format!("x{n}")))
        .chain(["published".to_string()])
        .collect();
    let mut h: Vec<&str> = vec!["kernel"];
    h.extend(head.iter().map(String::as_str));
    print_grid(&h, &[L, R, R, R, R, R, R, R], &lines);
    if !avx {
        para(
            "No AVX on this CPU (`slerp_quats::forms()` has no AVX form): the AVX rows, and with them Table 1's \
             ratios, are left out.",
        );
    }
    para(&format!(
        "N: {unit} per quaternion at N quaternions (median of {} runs). xN = the 128-bit kernel's \
         time / the row's time at N: on the AVX rows, the article's Table 1. Published: the article's Table 1 \
         (at {} / {} quaternions), \
         the published intrinsics built with ICC 11 on Sandy Bridge (two sets of 64 and of 67 quaternions in L1); \
         it gives none for 1024. Its IACA section predicts 1.96x (printed as 2.07x, erratum E9).",
        crate::table::runs(),
        TABLE1[0].0,
        TABLE1[1].0
    ));
    if avx {
        let cost = |corrected: &str, published: &str| {
            let (c, p) = (row(corrected).unwrap(), row(published).unwrap());
            let r: Vec<String> = counts.iter().zip(&medians).map(|(n, m)| format!("{n}: {:.2}", m[c] / m[p])).collect();
            r.join(", ")
        };
        para(&format!(
            "Corrected kernel's time / published kernel's time: asm {}; intrinsics {}. (The published asm \
             executes the dead Newton-Raphson refinement of E3, the correction puts it on the critical path; \
             LLVM deletes it from the published intrinsics, and the correction puts it back.)",
            cost("asm corrected", "asm as published"),
            cost("intrinsics corrected", "intrinsics as published")
        ));
    }
    if let (Some(i64), Some(i67)) = (counts.iter().position(|&n| n == 64), counts.iter().position(|&n| n == 67)) {
        let tail = |name: &str| {
            row(name).map(|r| format!("{name} {:.1}", (medians[i67][r] * 67.0 - medians[i64][r] * 64.0) / 3.0))
        };
        let tails: Vec<String> = ["asm as published", "asm corrected"].into_iter().filter_map(tail).collect();
        if !tails.is_empty() {
            para(&format!(
                "The three quaternions past 64 go through the scalar remainder loop: (time of 67 - time of 64) / 3 \
                 = {} {unit} per quaternion.",
                tails.join(", ")
            ));
        }
        if let Some(s) = sse {
            for (name, n, i, published) in
                [("asm as published", 64, i64, TABLE1[0].1), ("asm as published", 67, i67, TABLE1[1].1)]
            {
                if let Some(r) = row(name) {
                    res.speedups.push(plots::Speedup {
                        routine: format!("slerp_quats AVX / SSE, {n} quats"),
                        measured: medians[i][s] / medians[i][r],
                        paper: Some(published),
                    });
                }
            }
        }
    }
    if let Some(i1024) = counts.iter().position(|&n| n == 1024) {
        for (key, name) in
            [("slerp_quats as published", "asm as published"), ("slerp_quats corrected", "asm corrected")]
        {
            if let Some(r) = row(name) {
                res.asm_ticks.push((key.to_string(), medians[i1024][r]));
            }
        }
    }
    para(&format!(
        "Input: `setup::slerp_quats_input`, uniform random unit quaternion pairs in `AlignedQuats` (32-byte \
         aligned), the 64 and 67 the first pairs of the 1024; results into a separate `AlignedQuats`. Each \
         timed run makes {} back-to-back calls (for {}, {} and {} quaternions): one call of 64 is a few hundred \
         {unit}, against the timer's overhead; the per-quaternion figures divide by calls x count. {AUTO_ROW}: \
         the safe `slerp_quats_corrected` with `Impl::Auto` (validation included), which runs {} here. glam: \
         `result[i] = from[i].slerp(to[i], factor)` on `Quat` arrays.",
        calls.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(", "),
        counts[0],
        counts[1],
        counts[2],
        animasm::slerp_quats::resolve(Impl::Auto).map_or_else(|e| e.to_string(), |imp| format!("the `{imp}` form"))
    ));
}

/// Section 4: the article's Table 1 and the accuracy rows.
pub(crate) fn intel_table1(res: &mut Results) {
    heading("4. Intel's AVX slerp (Mehrotra and Hubbard), Table 1");
    print_slerp_quats_tables(res);
    progress("measuring slerp_quats accuracy");
    let rows = measure::slerp_quats::report_rows();
    print_accuracy(&rows);
    if !avx() {
        para("No AVX on this CPU: the slerp_quats AVX rows are left out.");
    }
    para(
        "Against the f64 slerp over 5120 pairs (random, near-parallel, near-opposite, and a uniform sweep of the \
         angle; every pair through the 16-wide loop) at 63 factors in (0, 1), a NaN counted as infinite; omega = \
         acos |from.to|, 45 degrees being where the article's `HALF_PI` enters. The article gives no error \
         figure; the corrected kernel should match van Waveren's SSE slerp (published 4.8e-7).",
    );
    res.accuracy.extend(rows);
}
