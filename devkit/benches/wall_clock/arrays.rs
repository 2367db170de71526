//! The array groups: `QuatPairs` (the Intel article's Table 1) and `Stream`
//! (the nlerp family). Both write a separate output: plain `iter`.

use std::hint::black_box;

use animasm::Quat;
use animasm::roster::{Routine, Shape};
use animasm::slerp_quats::AlignedQuats;
use criterion::{BenchmarkId, Throughput};
use devkit::peers::{glam_lerp_stream, glam_slerp_quats, glam_slerp_stream, to_glam_quats};
use devkit::setup::{self, NLERP_ELEMENTS, SLERP_QUATS_COUNTS, SLERP_QUATS_FACTOR};
use glam::Quat as GQuat;

use crate::{C, benched_forms};

// -----------------------------------------------------------------------
// `QuatPairs`.

/// A glam loop over quaternion pairs.
type GlamPairsLoop = fn(&mut [GQuat], &[GQuat], &[GQuat], f32);

/// A routine's glam peer, if it has one: `Quat::slerp` for the routine
/// with the article's errata corrected, as `glam Quat::slerp`.
fn quat_pairs_peer(r: &Routine) -> Option<GlamPairsLoop> {
    match r.name {
        "slerp_quats_corrected" => Some(glam_slerp_quats),
        _ => None,
    }
}

/// A routine's part of a bench id: its name after the group's, `_` shown
/// as ` ` (`as published`, `corrected`).
fn variant(group: &str, r: &Routine) -> String {
    r.name.strip_prefix(group).unwrap_or(r.name).trim_start_matches('_').replace('_', " ")
}

/// One group, at each of `setup::SLERP_QUATS_COUNTS`: each routine's forms
/// and `auto` (`<form> <variant>/<n>`), and its glam peer.
pub(crate) fn quat_pairs(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let benches: Vec<_> = routines
        .iter()
        .filter_map(|r| match r.shape {
            Shape::QuatPairs { safe, .. } => Some((variant(name, r), safe, benched_forms(r), quat_pairs_peer(r))),
            _ => None,
        })
        .collect();
    let mut group = c.benchmark_group(name);
    for n in SLERP_QUATS_COUNTS {
        let (from, to) = setup::slerp_quats_input(n);
        let mut result = AlignedQuats::zeroed(n);
        let (gfrom, gto) = (to_glam_quats(&from), to_glam_quats(&to));
        let mut gresult = vec![GQuat::IDENTITY; n];
        group.throughput(Throughput::Elements(n as u64));
        for (variant, safe, imps, peer) in &benches {
            for &imp in imps {
                group.bench_function(BenchmarkId::new(format!("{imp} {variant}"), n), |b| {
                    b.iter(|| {
                        safe(imp, black_box(&mut result), black_box(&from), black_box(&to), SLERP_QUATS_FACTOR).unwrap()
                    })
                });
            }
            if let Some(peer) = peer {
                group.bench_function(BenchmarkId::new("glam Quat::slerp", n), |b| {
                    b.iter(|| peer(black_box(&mut gresult), black_box(&gfrom), black_box(&gto), SLERP_QUATS_FACTOR))
                });
            }
        }
    }
    group.finish();
}

// -----------------------------------------------------------------------
// `Stream`.

use devkit::setup::autovec;

/// A glam loop over a stream.
type GlamStream = fn(&mut [GQuat], GQuat, &[GQuat], &[f32]);

/// A routine's glam peer and its bench id, if it has one: `Quat::lerp`
/// (shorter arc, normalised) for `nlerp`, `Quat::slerp` for the slerp
/// reference.
fn stream_peer(r: &Routine) -> Option<(&'static str, GlamStream)> {
    match r.name {
        "nlerp" => Some(("glam Quat::lerp", glam_lerp_stream)),
        "slerp_stream" => Some(("glam Quat::slerp", glam_slerp_stream)),
        _ => None,
    }
}

/// One group over the same streams: each routine's forms and `auto`
/// (`<routine>/<form>`), its `autovec` loop (`<routine>/autovec (raw
/// kernel)`), and its glam peer.
pub(crate) fn stream(c: &mut C, name: &str, routines: &[&'static Routine]) {
    let (l, r, t) = setup::nlerp_input();
    let mut dest = vec![Quat::default(); NLERP_ELEMENTS];
    let (gl, gr) = (GQuat::from_array(l.to_array()), to_glam_quats(&r));
    let mut gdest = vec![GQuat::IDENTITY; NLERP_ELEMENTS];

    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(NLERP_ELEMENTS as u64));
    for routine in routines {
        let Shape::Stream { safe, .. } = routine.shape else { continue };
        for imp in benched_forms(routine) {
            group.bench_function(BenchmarkId::new(routine.name, imp), |b| {
                b.iter(|| safe(imp, black_box(&mut dest), black_box(&l), black_box(&r), black_box(&t)).unwrap())
            });
        }
        if let Some(autovec) = autovec(routine) {
            group.bench_function(BenchmarkId::new(routine.name, "autovec (raw kernel)"), |b| {
                b.iter(|| {
                    let d = black_box(dest.as_mut_ptr());
                    // SAFETY: `r`, `t` and `dest` hold `NLERP_ELEMENTS`
                    // elements each, in distinct allocations; the scalar
                    // loops run anywhere.
                    unsafe { autovec(d, black_box(&l), black_box(r.as_ptr()), black_box(t.as_ptr()), NLERP_ELEMENTS) }
                })
            });
        }
        if let Some((bench, peer)) = stream_peer(routine) {
            group.bench_function(bench, |b| {
                b.iter(|| peer(black_box(&mut gdest), black_box(gl), black_box(&gr), black_box(&t)))
            });
        }
    }
    group.finish();
}
