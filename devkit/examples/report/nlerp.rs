//! The nlerp family of A. Kapoulkine (*Optimizing slerp* and *Approximating
//! slerp*, 2015): the article's cycles-per-element table and its angle
//! errors.

use crate::print::{Align::Left as L, Align::Right as R, heading, item, para, print_grid, progress};
use crate::results::Results;
use crate::table::{Row, Table, kernel_row, measure_rows, no_restore, ratio};
use devkit::timer;
use std::hint::black_box;

use animasm::{Impl, Quat};
use devkit::measure;
use devkit::peers::{glam_lerp_stream, glam_slerp_stream, to_glam_quats};
use devkit::plots;
use devkit::setup::{self, NLERP_ELEMENTS};
use glam::Quat as GQuat;

/// `nlerp`'s raw kernels: `(dest, l, r, t, size)`.
pub(crate) type NlerpKernel = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);

/// The article's streams ([`NLERP_ELEMENTS`] elements) and the results,
/// and the same for glam.
pub(crate) struct Streams {
    pub(crate) l: Quat,
    pub(crate) r: Vec<Quat>,
    pub(crate) t: Vec<f32>,
    pub(crate) dest: Vec<Quat>,
    pub(crate) gl: GQuat,
    pub(crate) gr: Vec<GQuat>,
    pub(crate) gdest: Vec<GQuat>,
}

impl Streams {
    pub(crate) fn new() -> Self {
        let (l, r, t) = setup::nlerp_input();
        Streams {
            gl: GQuat::from_array(l.to_array()),
            gr: to_glam_quats(&r),
            gdest: vec![GQuat::IDENTITY; r.len()],
            dest: vec![Quat::default(); r.len()],
            l,
            r,
            t,
        }
    }

    /// Runs a raw kernel over the streams.
    pub(crate) fn run(kernel: NlerpKernel, b: &mut Streams) {
        let dest = black_box(b.dest.as_mut_ptr());
        // SAFETY: `r`, `t` and `dest` hold `NLERP_ELEMENTS` elements each
        // (16-byte aligned `Vec<Quat>`s, distinct allocations); the SIMD
        // kernels are only put in a row where they are among `nlerp::forms()`.
        unsafe { kernel(dest, &b.l, b.r.as_ptr(), b.t.as_ptr(), NLERP_ELEMENTS) }
    }
}

/// The article's final table: IACA cycles per element (4-wide figures
/// divided by 4, 8-wide by 8), by row name.
pub(crate) const NLERP_IACA: [(&str, f64); 8] = [
    ("nlerp", 14.15),
    ("fnlerp", 18.35),
    ("onlerp", 22.95),
    ("nlerp4", 4.76),
    ("fnlerp4", 6.14),
    ("onlerp4", 7.19),
    ("onlerp8", 3.65),
    ("onlerp8 FMA", 2.63),
];

/// `nlerp`'s rows: every function at every width this CPU runs (the
/// article's row names), the autovectorised scalar loops, the reference
/// slerp and glam; the article's IACA figure where it has one.
pub(crate) fn nlerp_table() -> Table<Streams> {
    use animasm::nlerp::scalar;
    let mut kernels: Vec<(&'static str, Impl, NlerpKernel)> = vec![
        ("nlerp", Impl::Scalar, scalar::run_nlerp),
        ("fnlerp", Impl::Scalar, scalar::run_fnlerp),
        ("onlerp", Impl::Scalar, scalar::run_onlerp),
        ("autovec nlerp", Impl::Scalar, scalar::autovec_nlerp),
        ("autovec fnlerp", Impl::Scalar, scalar::autovec_fnlerp),
        ("autovec onlerp", Impl::Scalar, scalar::autovec_onlerp),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        use animasm::nlerp::{avx2, avx512, sse2};
        kernels.extend([
            ("nlerp4", Impl::Sse2, sse2::nlerp4 as NlerpKernel),
            ("fnlerp4", Impl::Sse2, sse2::fnlerp4),
            ("onlerp4", Impl::Sse2, sse2::onlerp4),
            ("nlerp8", Impl::Avx2NoFma, avx2::nlerp8),
            ("fnlerp8", Impl::Avx2NoFma, avx2::fnlerp8),
            ("onlerp8", Impl::Avx2NoFma, avx2::onlerp8),
            ("nlerp8 FMA", Impl::Avx2, avx2::nlerp8_fma),
            ("fnlerp8 FMA", Impl::Avx2, avx2::fnlerp8_fma),
            ("onlerp8 FMA", Impl::Avx2, avx2::onlerp8_fma),
            // Not the article's: its AVX2 FMA forms widened by this crate.
            ("nlerp16 FMA", Impl::Avx512, avx512::nlerp16_fma),
            ("fnlerp16 FMA", Impl::Avx512, avx512::fnlerp16_fma),
            ("onlerp16 FMA", Impl::Avx512, avx512::onlerp16_fma),
        ]);
    }
    kernels.push(("slerp (reference)", Impl::Scalar, scalar::run_slerp));
    let iaca = |name: &str| NLERP_IACA.iter().find(|(n, _)| *n == name).map(|&(_, c)| c);
    let forms: Vec<Impl> = animasm::nlerp::forms().collect();
    let missing: Vec<&str> = [Impl::Avx2NoFma, Impl::Avx2, Impl::Avx512]
        .into_iter()
        .filter(|w| !forms.contains(w))
        .map(Impl::name)
        .collect();
    let mut rows: Vec<Row<Streams>> = kernels
        .into_iter()
        .filter(|(_, w, _)| forms.contains(w))
        .map(|(name, _, kernel)| kernel_row(name, iaca(name), no_restore, kernel, Streams::run))
        .collect();
    type Safe = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), animasm::Error>;
    let autos: [(&'static str, Safe); 3] =
        [("nlerp auto", animasm::nlerp), ("fnlerp auto", animasm::fnlerp), ("onlerp auto", animasm::onlerp)];
    for (name, safe) in autos {
        rows.push(Row {
            name,
            paper: None,
            restore: no_restore,
            call: Box::new(move |b: &mut Streams| {
                safe(Impl::Auto, black_box(&mut b.dest), &b.l, &b.r, &b.t).expect("the benchmark input is valid")
            }),
        });
    }
    rows.push(Row {
        name: "glam Quat::lerp",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut Streams| glam_lerp_stream(black_box(&mut b.gdest), b.gl, &b.gr, &b.t)),
    });
    rows.push(Row {
        name: "glam Quat::slerp",
        paper: None,
        restore: no_restore,
        call: Box::new(|b: &mut Streams| glam_slerp_stream(black_box(&mut b.gdest), b.gl, &b.gr, &b.t)),
    });
    let auto = animasm::nlerp::resolve(Impl::Auto).map_or_else(|e| e.to_string(), |imp| format!("the `{imp}` form"));
    let mut notes = vec![format!(
        "The `auto` rows: the safe `nlerp`, `fnlerp` and `onlerp` with `Impl::Auto` (the default; validation \
         and the endpoint rule included), which run {auto} on this CPU."
    )];
    if forms.contains(&Impl::Avx512) {
        notes.push(
            "The `16 FMA` rows are not the article's: its AVX2 FMA forms widened to AVX-512 by this crate \
             (`Origin::Widened`, `vrsqrt14ps` for `rsqrtps`, masked tails)."
                .into(),
        );
    }
    if !missing.is_empty() {
        notes.push(format!("Not available on this CPU, left out: {}.", missing.join(", ")));
    }
    Table {
        routine: "nlerp",
        paper: None,
        title: format!(
            "zeux's nlerp family (`nlerp`), {NLERP_ELEMENTS} elements, hot cache: the article's cycles-per-element \
             table"
        ),
        count: NLERP_ELEMENTS,
        bufs: Streams::new(),
        rows,
        notes,
    }
}

/// The scalar row of a row's function (`"onlerp8 FMA"` and `"autovec
/// onlerp"` -> `"onlerp"`); `None` for the reference slerp and glam.
pub(crate) fn nlerp_scalar_row(name: &str) -> Option<&str> {
    let name = name.strip_prefix("autovec ").unwrap_or(name);
    let base = name.split(|c: char| c.is_ascii_digit() || c == ' ').next()?;
    ["nlerp", "fnlerp", "onlerp"].into_iter().find(|f| *f == base)
}

/// Measures and prints the nlerp table: ticks per element next to the
/// article's IACA cycles per element, each row's speedup over its
/// function's scalar row next to the article's, then the ratios the
/// article's claims are about.
pub(crate) fn print_nlerp_table(mut table: Table<Streams>, res: &mut Results) {
    progress("measuring nlerp");
    let stats = measure_rows(&mut table);
    let idx = |name: &str| table.rows.iter().position(|r| r.name == name);
    let median = |name: &str| idx(name).map(|i| stats[i].median);
    let unit = timer::UNIT;
    outln!("{}\n", table.title);
    let mut lines = Vec::new();
    for (row, s) in table.rows.iter().zip(&stats) {
        let paper = row.paper.map_or("-".into(), |p| format!("{p:.2}"));
        let base = nlerp_scalar_row(row.name);
        let speedup = ratio(base.and_then(median), Some(s.median));
        let base_paper = base.and_then(idx).and_then(|i| table.rows[i].paper);
        let paper_speedup = if row.paper.is_some() { ratio(base_paper, row.paper) } else { "-".into() };
        lines.push(vec![
            row.name.to_string(),
            paper,
            paper_speedup,
            format!("{:.2}", s.median),
            format!("{:.2}", s.min),
            speedup,
        ]);
        if let (Some(b), Some(bm)) = (base, base.and_then(median))
            && row.paper.is_some()
            && b != row.name
        {
            res.speedups.push(plots::Speedup {
                routine: format!("{} / {b}", row.name),
                measured: bm / s.median,
                paper: base_paper.zip(row.paper).map(|(a, b)| a / b),
            });
        }
    }
    print_grid(&["row", "published IACA", "published x", unit, "min", "x scalar"], &[L, R, R, R, R, R], &lines);
    para(&format!(
        "Published: the article's IACA cycles per element (4-wide figures divided by 4, 8-wide by 8) and the \
         speedup they give over the function's scalar row. Measured: {unit} per element, median and minimum of \
         {} runs; x scalar = the scalar row's median / the row's.",
        crate::table::runs()
    ));
    for note in &table.notes {
        para(note);
    }
    let paper = |name: &str| idx(name).and_then(|i| table.rows[i].paper);
    // (what, slower row, faster row)
    let pairs: [(&str, &str, &str); 11] = [
        ("onlerp4 vs scalar onlerp", "onlerp", "onlerp4"),
        ("onlerp4 vs autovec onlerp", "autovec onlerp", "onlerp4"),
        ("onlerp8 vs onlerp4", "onlerp4", "onlerp8"),
        ("onlerp8 FMA vs onlerp8 (\"allegedly a full cycle faster\")", "onlerp8", "onlerp8 FMA"),
        ("onlerp8 FMA vs scalar onlerp (\"6x faster than scalar\")", "onlerp", "onlerp8 FMA"),
        ("nlerp4 vs scalar nlerp (\"2.5-3x\")", "nlerp", "nlerp4"),
        ("fnlerp4 vs scalar fnlerp (\"2.5-3x\")", "fnlerp", "fnlerp4"),
        ("onlerp8 vs scalar onlerp", "onlerp", "onlerp8"),
        ("reference slerp vs scalar onlerp (\"about 3x slower\")", "slerp (reference)", "onlerp"),
        ("glam Quat::lerp vs nlerp4", "glam Quat::lerp", "nlerp4"),
        ("glam Quat::slerp vs onlerp4", "glam Quat::slerp", "onlerp4"),
    ];
    para("Ratios (time of the first / time of the second; the article's IACA ratio where it has both rows):");
    for (what, slow, fast) in pairs {
        if let (Some(a), Some(b)) = (median(slow), median(fast)) {
            let article = match (paper(slow), paper(fast)) {
                (Some(p), Some(q)) => format!("; article {:.2}x", p / q),
                _ => String::new(),
            };
            item(&format!("{what}: {:.2}x{article}", a / b));
        }
    }
    outln!();
    para(&format!(
        "The \"scalar\" rows (`nlerp`, `fnlerp`, `onlerp`: `nlerp::scalar::run_*`) keep the article's loop \
         scalar: an empty `asm!` barrier in each iteration stops LLVM from vectorising it (D7 of \
         `asm_notes/nlerp.md`), so they time the scalar code the article's IACA rows estimate. The `autovec` rows \
         (`scalar::autovec_*`, an extra row, not the article's) are the same plain loop without the barrier, which \
         LLVM vectorises four wide (`sqrtps`, `divps`); their results are the scalar ones bit for bit. The \
         article's figures are IACA throughput estimates in core cycles (the modelled CPU is not named); these \
         are TSC ticks measured on this CPU, not core cycles: compare the ratios. Input: `setup::nlerp_input`, one random unit `l`, \
         {NLERP_ELEMENTS} random unit `r[i]` (the dot product's sign at random) and `t[i]` uniform in [0, 1); \
         results into a separate array, nothing to restore. glam: `dest[i] = l.lerp(r[i], t[i])` and \
         `l.slerp(r[i], t[i])` on `Quat` arrays."
    ));
}

/// Section 5: the article's cycles-per-element table and the angle errors.
pub(crate) fn zeux_nlerp(res: &mut Results) {
    heading("5. zeux's nlerp family (Arseny Kapoulkine): the cycles-per-element table");
    print_nlerp_table(nlerp_table(), res);
    progress("measuring nlerp angle errors");
    let rows = measure::nlerp::angle_error_table();
    let widths: Vec<String> =
        rows.first().map(|r| r.widths.iter().map(|(w, _)| w.to_string()).collect()).unwrap_or_default();
    outln!("Rotation-angle error (radians)\n");
    let mut head = vec!["function", "range", "published", "f64 evaluation"];
    head.extend(widths.iter().map(String::as_str));
    let lines: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let mut l = vec![
                r.func.name().to_string(),
                r.label.to_string(),
                format!("{:.3e}", r.published),
                format!("{:.3e}", r.exact),
            ];
            l.extend(r.widths.iter().map(|(_, e)| format!("{e:.3e}")));
            l
        })
        .collect();
    let mut align = vec![L, L];
    align.resize(head.len(), R);
    print_grid(&head, &align, &lines);
    para(
        "Maximum absolute error of the full rotation angle against the f64 slerp, over t in [0, 1] and |dot| in \
         [0, 1] (\"all\") or [cos 45 deg, 1] (\"<= 90 deg\": rotations up to 90 degrees apart), both signs of the \
         dot product, on a 1001 x 1001 grid; published: the article's figure; \"f64 evaluation\" is the function \
         itself in f64 (the approximation alone). nlerp and onlerp reproduce the published figures; fnlerp's do \
         not (erratum E4 of `asm_notes/nlerp.md`).",
    );
    res.nlerp_errors = rows;
}
