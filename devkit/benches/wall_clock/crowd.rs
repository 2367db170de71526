//! The `pose_crowd` group (`examples/crowd.rs` in small): one crowd frame of
//! [`CHARACTERS`] Foxes (`devkit::crowd`: each character at its own time in
//! one of the Fox's three clips, resampled to 30 Hz; one `slerp_pose` with a
//! `Skin` per character into its own buffers), `Impl::Auto`, on one core
//! (`one_core`, a plain loop) and on every core (`rayon`, `par_iter_mut`
//! over the characters on `devkit::crowd::pinned_pool`, one worker pinned
//! per CPU; not on wasm32). Each iteration is the
//! next frame, 1/60 s later (ten seconds, then over), so the factors vary
//! as in a game. Throughput in joints.

use std::hint::black_box;

use animasm::Impl;
use criterion::Throughput;
use devkit::crowd::Crowd;
#[cfg(not(target_family = "wasm"))]
use rayon::prelude::*;

use crate::C;

/// The characters of the benched crowd.
pub(crate) const CHARACTERS: usize = 100;

/// Crowd time at frame `i`: 60 frames a second, ten seconds, then over.
fn time(i: u32) -> f32 {
    (i % 600) as f32 / 60.0
}

/// The group: one frame on one core, and with rayon.
pub(crate) fn pose_crowd(c: &mut C) {
    let crowd = Crowd::fox().expect("the bundled Fox loads");
    let mut characters = crowd.characters(CHARACTERS);
    let mut group = c.benchmark_group("pose_crowd");
    group.throughput(Throughput::Elements((CHARACTERS * crowd.joints()) as u64));
    let mut i = 0u32;
    group.bench_function(format!("one_core/{CHARACTERS}"), |b| {
        b.iter(|| {
            i = i.wrapping_add(1);
            let t = black_box(time(i));
            for ch in characters.iter_mut() {
                crowd.pose(Impl::Auto, ch, t).unwrap();
            }
        })
    });
    #[cfg(not(target_family = "wasm"))]
    {
        let (pool, _) = devkit::crowd::pinned_pool().expect("the crowd's pool builds");
        group.bench_function(format!("rayon/{CHARACTERS}"), |b| {
            b.iter(|| {
                i = i.wrapping_add(1);
                let t = black_box(time(i));
                pool.install(|| characters.par_iter_mut().for_each(|ch| crowd.pose(Impl::Auto, ch, t).unwrap()));
            })
        });
    }
    group.finish();
}
