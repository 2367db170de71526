//! The successors (issue 12, items 3 to 5): every form of the seven id
//! Software routines (the listing, its twin, the scalar port and the
//! `Impl::Avx2` successor once its branch is in the build), against the
//! routine's memory floor (`devkit::floors`), glam's per-element loop
//! (`devkit::peers`) and ultraviolet's 8-wide SoA types (`devkit::uv`, on
//! SoA data and with the AoS conversion), at 64, 1024 and 65536 elements
//! (and the Fox's skeleton for the skeleton routines); one table and one
//! SVG per routine, and the targets checked at 1024.
//!
//! Method: the raw kernels (`<routine>::kernel(imp)`), the floors and the
//! peers run on the same buffers per size, round-robin (starting one
//! further each round), in-place inputs restored from a pristine copy
//! outside the timed region; the median ticks per element of the rounds.

use std::hint::black_box;

use animasm::{Error, Impl, JointMat, JointQuat};
use devkit::floors::{self, Walk};
use devkit::peers::{self, GlamJointLoop};
use devkit::setup::{self, SUCCESSOR_SIZES};
use devkit::timer::{self, Stats};
use devkit::uv::{self, JointScratch, JointsSoa, MatsSoa, UvJointLoop};
use devkit::{peers::to_affine, plots};
use glam::{Affine3A, Quat as GQuat, Vec4 as GVec4};

use crate::joints::JointKernel;
use crate::matrix::{MatsToQuatsKernel, QuatsToMatsKernel};
use crate::print::{Align::Left as L, Align::Right as R, heading, item, para, print_grid, progress};
use crate::results::{Results, SuccessorTicks};
use crate::skeleton::{SkeletonKernel, TransformJointsKernel};
use crate::table::Row;

mod cases;
use cases::*;

/// Row names of the floors and peers (as in `SuccessorTicks::form`).
const FLOOR: &str = "floor";
const CHAIN: &str = "chain floor";
const GLAM: &str = "glam";
const UV_SOA: &str = "ultraviolet (SoA)";
const UV_AOS: &str = "ultraviolet (with conversion)";

/// Timed rounds at `n` elements: fewer for the large sizes, to keep the
/// section within about two minutes.
fn runs(n: usize) -> usize {
    match n {
        0..=256 => 2001,
        257..=4096 => 501,
        _ => 101,
    }
}

/// Untimed rounds before the timed ones.
const WARMUP: usize = 5;

/// One size of one routine: its buffers and rows.
struct Case<B> {
    /// The column label (`64`, `1024`, `65536`, `Fox (24)`).
    label: String,
    /// The size recorded in `SuccessorTicks::elements`.
    elements: usize,
    /// The elements each run processes (the ticks are divided by it).
    per: usize,
    bufs: B,
    rows: Vec<Row<B>>,
}

/// One measured case: its label, its size and each row's median ticks per
/// element.
type Column = (String, usize, Vec<(&'static str, f64)>);

/// Times every row of `case` round-robin; the median ticks per element by
/// row name.
fn measure<B>(mut case: Case<B>) -> Column {
    let n = case.rows.len();
    let runs = runs(case.per);
    let mut samples = vec![Vec::with_capacity(runs); n];
    for round in 0..WARMUP + runs {
        for k in 0..n {
            let i = (round + k) % n;
            let row = &case.rows[i];
            (row.restore)(&mut case.bufs);
            let bufs = black_box(&mut case.bufs);
            let t = timer::time(|| (row.call)(bufs));
            black_box(&mut case.bufs);
            if round >= WARMUP {
                samples[i].push(t);
            }
        }
    }
    let rows = case
        .rows
        .iter()
        .zip(samples)
        .map(|(r, mut s)| (r.name, Stats::of_ticks(&mut s, case.per as f64).median))
        .collect();
    (case.label, case.elements, rows)
}

/// One routine's measurements: per row, the median ticks per element of
/// each case (column).
struct Routine {
    name: &'static str,
    columns: Vec<(String, usize)>,
    rows: Vec<(&'static str, Vec<f64>)>,
    missing: Option<String>,
    notes: Vec<String>,
}

impl Routine {
    fn collect(name: &'static str, measured: Vec<Column>, missing: Option<String>, notes: Vec<String>) -> Routine {
        let columns: Vec<(String, usize)> = measured.iter().map(|(l, e, _)| (l.clone(), *e)).collect();
        let names: Vec<&'static str> = measured[0].2.iter().map(|r| r.0).collect();
        let rows = names
            .into_iter()
            .map(|n| {
                (
                    n,
                    measured
                        .iter()
                        .map(|(_, _, rows)| rows.iter().find(|r| r.0 == n).map_or(f64::NAN, |r| r.1))
                        .collect(),
                )
            })
            .collect();
        Routine { name, columns, rows, missing, notes }
    }

    fn ticks(&self, row: &str, col: usize) -> Option<f64> {
        self.rows.iter().find(|r| r.0 == row).map(|r| r.1[col]).filter(|v| v.is_finite())
    }

    /// The floor a row is compared with: the memory floor, or for the
    /// skeletons the larger of the memory and chain floors.
    fn floor(&self, col: usize) -> Option<f64> {
        match (self.ticks(FLOOR, col), self.ticks(CHAIN, col)) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        }
    }

    fn column(&self, elements: usize) -> Option<usize> {
        self.columns.iter().position(|c| c.1 == elements && c.0 == elements.to_string())
    }
}

/// The short label of a row in the printed tables.
fn short(row: &str) -> &str {
    match row {
        UV_SOA => "ultraviolet SoA",
        UV_AOS => "ultraviolet +conversion",
        r => r,
    }
}

fn print_routine(r: &Routine) {
    outln!("### {}\n", r.name);
    let mut head: Vec<String> = r.columns.iter().map(|c| c.0.clone()).collect();
    head.extend(r.columns.iter().map(|c| format!("{} /floor", c.0.split(' ').next().unwrap_or(""))));
    let mut all = vec!["row".to_string()];
    all.extend(head);
    let head: Vec<&str> = all.iter().map(|s| s.as_str()).collect();
    let mut align = vec![L];
    align.extend(std::iter::repeat_n(R, head.len() - 1));
    let f = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
    let mut lines: Vec<Vec<String>> = r
        .rows
        .iter()
        .map(|(name, ticks)| {
            let mut l = vec![short(name).to_string()];
            l.extend(ticks.iter().map(|&t| f(Some(t).filter(|t| t.is_finite()))));
            l.extend((0..r.columns.len()).map(|c| {
                r.floor(c)
                    .zip(Some(ticks[c]).filter(|t| t.is_finite()))
                    .map_or("-".into(), |(fl, t)| format!("{:.2}x", t / fl))
            }));
            l
        })
        .collect();
    if r.missing.is_some() {
        let mut l = vec![Impl::Avx2.name().to_string()];
        l.extend(std::iter::repeat_n("n/a".to_string(), head.len() - 1));
        lines.push(l);
    }
    print_grid(&head, &align, &lines);
    let ratios: Vec<String> = (0..r.columns.len())
        .map(|c| match (r.ticks(Impl::Asm.name(), c), r.ticks(Impl::Avx2.name(), c)) {
            (Some(asm), Some(avx2)) => format!("{}: {:.2}x", r.columns[c].0, asm / avx2),
            _ => format!("{}: n/a", r.columns[c].0),
        })
        .collect();
    para(&format!("avx2 over asm (asm ticks / avx2 ticks): {}.", ratios.join(", ")));
    if let Some(m) = &r.missing {
        para(&format!("avx2: n/a, not in this build ({m}): its branch is not merged here."));
    }
    for n in &r.notes {
        para(n);
    }
}

/// The speed targets at 1024: avx2 over asm, and (mats_to_quats)
/// over the scalar port.
fn target(routine: &str) -> (f64, Option<f64>) {
    match routine {
        "slerp_joints" => (3.0, None),
        "lerp_joints" | "quats_to_mats" => (1.5, None),
        "mats_to_quats" => (4.0, Some(1.8)),
        "transform_skeleton" | "untransform_skeleton" => (1.3, None),
        _ => (1.15, None),
    }
}

fn print_targets(routines: &[Routine]) {
    let n = setup::JOINTS;
    let verdict = |v: Option<f64>, ok: bool| {
        v.map_or("n/a".to_string(), |v| format!("{v:.2}x {}", if ok { "met" } else { "NOT met" }))
    };
    let mut scalar_note = String::new();
    let lines: Vec<Vec<String>> = routines
        .iter()
        .map(|r| {
            let c = r.column(n);
            let t = |row: &str| c.and_then(|c| r.ticks(row, c));
            let avx2 = t(Impl::Avx2.name());
            let (want, want_scalar) = target(r.name);
            let over_asm = t(Impl::Asm.name()).zip(avx2).map(|(a, b)| a / b);
            let over_floor = c.and_then(|c| r.floor(c)).zip(avx2).map(|(fl, a)| a / fl);
            if let Some(w) = want_scalar {
                let over_scalar = t(Impl::Scalar.name()).zip(avx2).map(|(a, b)| a / b);
                scalar_note = format!(
                    "{} also over the scalar port (target >= {w}x): {}.",
                    r.name,
                    verdict(over_scalar, over_scalar.is_some_and(|x| x >= w))
                );
            }
            let best = r
                .rows
                .iter()
                .filter(|(name, _)| Impl::ALL.iter().any(|i| i.name() == *name))
                .filter_map(|(name, _)| t(name).map(|v| (*name, v)))
                .min_by(|a, b| a.1.total_cmp(&b.1));
            let vs = |peer: &str| match (best, t(peer)) {
                (Some((_, b)), Some(p)) => format!("{:.2}x", p / b),
                _ => "-".into(),
            };
            vec![
                r.name.to_string(),
                verdict(over_asm, over_asm.is_some_and(|x| x >= want)),
                format!("{want}x"),
                verdict(over_floor, over_floor.is_some_and(|x| x <= 2.0)),
                best.map_or("-".into(), |b| b.0.to_string()),
                vs(GLAM),
                vs(UV_SOA),
            ]
        })
        .collect();
    outln!("### Issue 12's targets at {n} elements\n");
    print_grid(
        &["routine", "avx2 / asm", "target", "avx2 / floor", "best", "glam/best", "uv/best"],
        &[L, L, R, L, L, R, R],
        &lines,
    );
    para(&format!(
        "This run: avx2 / asm = asm's ticks over avx2's (the speedup; target: issue 12's); avx2 / floor = avx2's \
         ticks over the floor's (for the skeletons the larger of the memory and chain floors; target <= 2x); \
         best = the fastest form of the routine here; glam/best and uv/best = glam's and ultraviolet's (SoA, \
         no conversion) ticks over the best form's (above 1.00x: the best form is faster). n/a: no avx2 form \
         in this build (its branch not merged). {scalar_note}"
    ));
}

/// The report's section: every routine at every size, the targets, the
/// plots; fills `res.successor_ticks`.
pub(crate) fn successors_section(res: &mut Results) {
    heading("5b. Successors: every form against the memory floor and the peers, 64 to 65536 elements");
    para(&format!(
        "Issue 12's successors (`Impl::Avx2`: AVX2 + FMA, 8 lanes) beside the listing (asm), its twin \
         (intrinsics) and the scalar port, the memory floor (`devkit::floors`: the routine's loads and stores \
         with one add, AVX 256-bit accesses; for the skeletons also the dependency-chain floor, the parent-to-child \
         chain with one FMA per row), glam's per-element loop, and ultraviolet 0.10's 8-wide SoA types \
         (`devkit::uv`) twice: on data already in SoA (`ultraviolet SoA`) and including the AoS-to-SoA \
         conversion and back that a user with `JointQuat`/`JointMat` arrays pays (`ultraviolet +conversion`). \
         {} per element, the median of {} / {} / {} rounds at 64 / 1024 / 65536 elements, round-robin across \
         the rows on the same buffers, in-place inputs restored outside the timed region; /floor = the row's \
         ticks over the floor's. The raw kernels are timed (`<routine>::kernel(imp)`), as in the papers' tables. \
         The floors run {}. ultraviolet's `f32x8` is `wide`'s, two SSE halves in a build without a global \
         `target-feature` (as here, and as a user gets by default); the rotor/quaternion mapping is \
         ultraviolet's own `from_quaternion_array` (sign flips; `devkit/src/uv.rs` says what each peer does). \
         At 65536 elements the data no longer fit in L2; the branchy rows (the scalar `mats_to_quats` and \
         glam's `from_affine3`) also lose there the branch predictor's memory of the 1024 elements it sees \
         again every round.",
        timer::UNIT,
        runs(64),
        runs(1024),
        runs(65536),
        if floors::simd() {
            "their AVX kernels"
        } else {
            "their portable loops (no AVX here: not a floor of the AVX2 forms)"
        }
    ));
    let sizes = SUCCESSOR_SIZES;
    let mut routines = Vec::new();

    for (name, kernel, glam, uv_loop, what) in [
        (
            "slerp_joints",
            animasm::slerp_joints::kernel as fn(Impl) -> Result<JointKernel, Error>,
            peers::glam_slerp_joints as GlamJointLoop,
            uv::uv_slerp_joints as UvJointLoop,
            "ultraviolet: `Rotor3x8::slerp` (after flipping the blend rotor to the shorter arc, which ultraviolet's \
             wide slerp does not do) and `Vec3x8::lerp`, over every joint (no gather: the benchmark's index is \
             the identity).",
        ),
        (
            "lerp_joints",
            animasm::lerp_joints::kernel,
            peers::glam_lerp_joints,
            uv::uv_lerp_joints,
            "ultraviolet: `Rotor3x8::lerp` towards the shorter-arc blend rotor, `normalized()`, and \
             `Vec3x8::lerp`.",
        ),
    ] {
        let forms = if name == "slerp_joints" {
            animasm::slerp_joints::forms().collect::<Vec<_>>()
        } else {
            animasm::lerp_joints::forms().collect()
        };
        let (kernels, missing) = form_kernels(forms.into_iter(), kernel);
        let measured = sizes
            .iter()
            .map(|&n| {
                progress(&format!("successors: {name} at {n}"));
                measure(joint_case(n, &kernels, glam, uv_loop))
            })
            .collect();
        routines.push(Routine::collect(name, measured, missing, vec![what.into()]));
    }

    {
        let (kernels, missing) = form_kernels(animasm::quats_to_mats::forms(), animasm::quats_to_mats::kernel);
        let measured = sizes
            .iter()
            .map(|&n| {
                progress(&format!("successors: quats_to_mats at {n}"));
                measure(quats_to_mats_case(n, &kernels))
            })
            .collect();
        let note = "glam: `Affine3A::from_rotation_translation` (64-byte output). ultraviolet: \
                    `Rotor3x8::into_matrix` and the translation; with conversion, the matrices are written \
                    back as the paper's `JointMat`s (rotation transposed).";
        routines.push(Routine::collect("quats_to_mats", measured, missing, vec![note.into()]));
    }
    {
        let (kernels, missing) = form_kernels(animasm::mats_to_quats::forms(), animasm::mats_to_quats::kernel);
        let measured = sizes
            .iter()
            .map(|&n| {
                progress(&format!("successors: mats_to_quats at {n}"));
                measure(mats_to_quats_case(n, &kernels))
            })
            .collect();
        let note = "glam: `Quat::from_affine3` (four cases, branchy). ultraviolet: `Mat3x8::into_rotor3`, \
                    branch-free (four square roots, signs copied), less accurate than the paper's four cases \
                    (up to about 6e-4 on a small component, `devkit::uv`'s unit test).";
        routines.push(Routine::collect("mats_to_quats", measured, missing, vec![note.into()]));
    }
    for (name, kernel, walk, glam, locals) in [
        (
            "transform_skeleton",
            animasm::transform_skeleton::kernel as fn(Impl) -> Result<SkeletonKernel, Error>,
            Walk::Forward,
            peers::glam_transform_skeleton as GlamSkeletonLoop,
            true,
        ),
        (
            "untransform_skeleton",
            animasm::untransform_skeleton::kernel,
            Walk::Backward,
            peers::glam_untransform_skeleton,
            false,
        ),
    ] {
        let forms: Vec<Impl> = if locals {
            animasm::transform_skeleton::forms().collect()
        } else {
            animasm::untransform_skeleton::forms().collect()
        };
        let (kernels, missing) = form_kernels(forms.into_iter(), kernel);
        let mut measured: Vec<_> = sizes
            .iter()
            .map(|&n| {
                progress(&format!("successors: {name} at {n}"));
                let data = if locals { setup::skeleton_locals_n(n) } else { setup::skeleton_globals_n(n) };
                measure(skeleton_case(n.to_string(), data, &kernels, walk, glam))
            })
            .collect();
        let fox = if locals { setup::fox_skeleton_locals() } else { setup::fox_skeleton_globals() };
        let fox_n = fox.0.len();
        progress(&format!("successors: {name} on the Fox ({fox_n} joints)"));
        measured.push(measure(skeleton_case(format!("Fox {fox_n}"), fox, &kernels, walk, glam)));
        let chain = if locals {
            "chain floor: each joint's three rows are an FMA of its parent's rows just stored (store-to-load \
             forwarding, then the FMA's latency), as long a chain as the skeleton is deep."
        } else {
            "chain floor: untransform_skeleton walks last to first, so every parent it reads (an earlier joint) \
             is not yet written: there is no chain, and the chain floor is the memory floor with FMAs."
        };
        let note = format!(
            "Skeletons: joints 1..=n-1 of n (the root has no parent) under a random parents-first hierarchy \
             (`inputs::random_parents`), {} matrices; `Fox {fox_n}`: the Fox's own skeleton \
             (`data/Fox.glb.pose.json`: its {}), joints 1..={}. Ticks per transformed joint. /floor: over \
             the larger of the memory and chain floors. {chain} ultraviolet: not applicable (a joint needs its \
             parent's result: no eight independent lanes without regrouping the joints by depth).",
            if locals { "random rigid local" } else { "the model-space" },
            if locals { "rest pose's local matrices" } else { "rest pose in model space" },
            fox_n - 1
        );
        routines.push(Routine::collect(name, measured, missing, vec![note]));
    }
    {
        let (kernels, missing) = form_kernels(animasm::transform_joints::forms(), animasm::transform_joints::kernel);
        let measured = sizes
            .iter()
            .map(|&n| {
                progress(&format!("successors: transform_joints at {n}"));
                measure(transform_joints_case(n, &kernels))
            })
            .collect();
        let note = "glam: `Affine3A` products. ultraviolet: `Mat3x8 * Mat3x8` and `Mat3x8 * Vec3x8 + Vec3x8` \
                    (the 3x4 affine product in SoA).";
        routines.push(Routine::collect("transform_joints", measured, missing, vec![note.into()]));
    }

    for r in &routines {
        print_routine(r);
        for (row, ticks) in &r.rows {
            for (c, &t) in ticks.iter().enumerate() {
                res.successor_ticks.push(SuccessorTicks {
                    routine: r.name,
                    form: row.to_string(),
                    elements: r.columns[c].1,
                    ticks: t,
                });
            }
        }
    }
    print_targets(&routines);
    write_plots(res, &routines);
}

/// One SVG per routine: ticks per element against size for the listing
/// (asm), avx2, the floors and the peers.
fn write_plots(res: &mut Results, routines: &[Routine]) {
    progress("successors: writing the plots");
    let dir = plots::out_dir();
    if let Err(e) = std::fs::create_dir_all(&dir) {
        para(&format!("The successors' plots could not be written: creating {}: {e}.", dir.display()));
        return;
    }
    let mut written = Vec::new();
    for r in routines {
        let series: Vec<(String, Vec<(f64, f64)>)> = r
            .rows
            .iter()
            .filter(|(name, _)| {
                [Impl::Asm.name(), Impl::Avx2.name(), FLOOR, CHAIN, GLAM, UV_SOA, UV_AOS].contains(name)
            })
            .map(|(name, ticks)| {
                let pts = r
                    .columns
                    .iter()
                    .zip(ticks)
                    .filter(|((label, n), t)| *label == n.to_string() && t.is_finite())
                    .map(|((_, n), &t)| (*n as f64, t))
                    .collect();
                (name.to_string(), pts)
            })
            .collect();
        let path = dir.join(format!("successors_{}.svg", r.name));
        match plots::ticks_vs_size(&path, &format!("{}: {} per element against size", r.name, timer::UNIT), &series) {
            Ok(()) => written.push(path),
            Err(e) => para(&format!("The plot of {} could not be written: {e}.", r.name)),
        }
    }
    if !written.is_empty() {
        para("SVG plots (ticks per element against size, log axes):");
        for p in &written {
            item(&p.display().to_string());
        }
        outln!();
    }
    res.plots.extend(written);
}
