//! `cargo run --release --example crowd [-- --characters N] [--frames F] [--quick]`:
//! a crowd of Foxes (default 1,000; `--quick` 100 characters and 16
//! frames, for CI), each playing one of the Fox's three clips
//! (`data/Fox.glb`) at its own time, every clip resampled to 30 Hz once
//! (`devkit::crowd`). A character's frame is the two frames around its time
//! and their factor, then one `animasm::slerp_pose` call with a `Skin`, into
//! the character's own model and skinning matrices; a crowd frame is every
//! character, 1/60 s after the previous one.
//!
//! Each crowd frame is timed three ways, on the same characters and
//! buffers, with the report's timer (`devkit::timer`):
//!
//! - one core: a plain loop over the characters;
//! - every core: rayon's `par_iter_mut` over the characters (each writes
//!   only its own buffers), on `devkit::crowd::pinned_pool`, one worker
//!   pinned per CPU as an engine's job system pins its workers, the timing
//!   loop itself running on that pool (not on wasm32, which has no
//!   threads);
//! - chained, one core: the same pose with the crate's separate calls
//!   (`Skeleton::slerp_joints` on a copy of the first frame,
//!   `quats_to_mats`, `Skeleton::local_to_model`, `transform_joints`).
//!
//! The ways take turns in blocks of [`BLOCK`] consecutive frames (the
//! order turns from block to block), as an engine runs its frames back to
//! back. A block's first frame is counted apart: for rayon it is the
//! frame after the pool idled while the other ways ran (its threads
//! asleep and woken again, which on a virtual machine costs tens of
//! microseconds). On a 2-vCPU AMD EPYC (Zen 4), rayon's global pool timed
//! frame by frame in turn with the other ways ran 0.9x the one-core loop's
//! speed in most runs: its two workers were woken on one vCPU, the other
//! idle (a probe with both pinned: 1.9x).
//!
//! It prints the median over the frames of each (a block's first frames
//! apart): ns per joint, characters per millisecond, the scaling (one core
//! over every core) with the number of rayon threads, and chained over one
//! call. At the end it checks that the one-core loop and the rayon loop
//! wrote bit-identical skinning matrices for the last frame (exit code 1
//! otherwise), and says whether the chained calls gave the same bits. A bad
//! command line is exit code 2.

use std::process::ExitCode;

use animasm::{Impl, JointMat, JointQuat};
use devkit::crowd::{Character, Crowd, RATE};
use devkit::timer::{self, Stats};
#[cfg(not(target_family = "wasm"))]
use rayon::prelude::*;

const USAGE: &str = "usage: cargo run --release --example crowd -- [--characters N] [--frames F] [--quick]

  --characters  how many Foxes (default 1000; 100 with --quick)
  --frames      how many crowd frames each way is timed, rounded up to blocks of 16
                (default 112; 16 with --quick)
  --quick       the CI run: few characters, few frames";

/// The time between two crowd frames, in seconds.
const DT: f32 = 1.0 / 60.0;

/// The frames each way runs back to back before the next way's turn.
const BLOCK: usize = 16;

/// The form every call takes: what an engine would call.
const IMP: Impl = Impl::Auto;

fn parse_args() -> Result<(usize, usize), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let (mut characters, mut frames) = if quick { (100, 16) } else { (1000, 112) };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut number = |name: &str| -> Result<usize, String> {
            let v = it.next().ok_or_else(|| format!("{name} needs a value"))?;
            match v.parse() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!("{name} {v}: not a positive whole number")),
            }
        };
        match a.as_str() {
            "--quick" => {}
            "--characters" => characters = number("--characters")?,
            "--frames" => frames = number("--frames")?,
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok((characters, frames.div_ceil(BLOCK) * BLOCK))
}

/// The ways a crowd frame is run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    OneCore,
    /// rayon, on `devkit::crowd::pinned_pool`.
    #[cfg(not(target_family = "wasm"))]
    EveryCore,
    Chained,
}

const RUNS: &[Run] = &[
    Run::OneCore,
    #[cfg(not(target_family = "wasm"))]
    Run::EveryCore,
    Run::Chained,
];

/// What the ways share: the crowd, its characters and the chained calls'
/// scratch pose.
struct Frame<'a> {
    crowd: &'a Crowd,
    characters: Vec<Character>,
    scratch: Vec<JointQuat>,
}

impl Frame<'_> {
    /// One crowd frame at crowd time `t`, run `run`'s way.
    fn run(&mut self, run: Run, t: f32) -> Result<(), animasm::Error> {
        let (crowd, characters) = (self.crowd, &mut self.characters);
        match run {
            Run::OneCore => characters.iter_mut().try_for_each(|c| crowd.pose(IMP, c, t)),
            #[cfg(not(target_family = "wasm"))]
            Run::EveryCore => characters.par_iter_mut().try_for_each(|c| crowd.pose(IMP, c, t)),
            Run::Chained => {
                let scratch = &mut self.scratch;
                characters.iter_mut().try_for_each(|c| crowd.pose_chained(IMP, c, t, scratch))
            }
        }
    }
}

fn skins(characters: &[Character]) -> Vec<JointMat> {
    characters.iter().flat_map(|c| c.skin.iter().copied()).collect()
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|n| n.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

fn main() -> ExitCode {
    let (n, frames) = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("crowd: {e}");
            }
            eprintln!("{USAGE}");
            return if e.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(2) };
        }
    };
    match run(n, frames) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("crowd: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Times `frames` crowd frames of `n` characters; whether the checks passed.
fn run(n: usize, frames: usize) -> Result<bool, Box<dyn std::error::Error>> {
    let crowd = Crowd::fox()?;
    let joints = crowd.joints();
    #[cfg(not(target_family = "wasm"))]
    let (pool, pinned) = devkit::crowd::pinned_pool()?;
    let mut frame =
        Frame { crowd: &crowd, characters: crowd.characters(n), scratch: vec![JointQuat::default(); joints] };
    #[cfg(not(target_family = "wasm"))]
    let threads = pool.current_num_threads();

    let clips: Vec<String> = crowd.clips.iter().map(|c| format!("{} {:.2} s", c.name, c.duration())).collect();
    println!(
        "crowd: {n} Foxes of {joints} joints, clips {} resampled at {RATE} Hz; {frames} frames {DT:.4} s apart per way, in blocks of {BLOCK}; medians of frames (a block's first apart)",
        clips.join(", ")
    );
    println!(
        "{} ({} logical CPUs seen); forms (Impl::Auto): slerp_pose {}, chained slerp_joints {}, quats_to_mats {}, transform_skeleton {}, transform_joints {}",
        cpu_name(),
        std::thread::available_parallelism().map_or(1, |p| p.get()),
        animasm::pose::slerp::resolve(IMP)?,
        animasm::slerp_joints::resolve(IMP)?,
        animasm::quats_to_mats::resolve(IMP)?,
        animasm::transform_skeleton::resolve(IMP)?,
        animasm::transform_joints::resolve(IMP)?,
    );

    // Per way: the ticks of the frames after a block's first, and of the
    // blocks' first frames.
    let mut ticks: Vec<Vec<u64>> = vec![Vec::with_capacity(frames); RUNS.len()];
    let mut firsts: Vec<Vec<u64>> = vec![Vec::with_capacity(frames / BLOCK); RUNS.len()];
    let mut last: Vec<Vec<JointMat>> = vec![Vec::new(); RUNS.len()];
    #[cfg_attr(not(target_family = "wasm"), allow(unused_mut))]
    let mut timing = || -> Result<(), animasm::Error> {
        // One untimed frame each: the pages touched, rayon's pool started.
        for &r in RUNS {
            frame.run(r, 0.0)?;
        }
        for block in 0..frames / BLOCK {
            for k in 0..RUNS.len() {
                let i = (block + k) % RUNS.len();
                for j in 0..BLOCK {
                    let f = block * BLOCK + j;
                    let t = f as f32 * DT;
                    let mut result = Ok(());
                    let took = timer::time(|| result = frame.run(RUNS[i], t));
                    result?;
                    if j == 0 {
                        firsts[i].push(took)
                    } else {
                        ticks[i].push(took)
                    }
                    if f + 1 == frames {
                        last[i] = skins(&frame.characters);
                    }
                }
            }
        }
        Ok(())
    };
    // The whole timing loop runs on the pool, as an engine's frame loop runs
    // on its job system: the worker running it takes part in every rayon
    // frame (1.77-1.78x over four runs, against 1.61-1.76x with each frame
    // handed to the pool from outside it).
    #[cfg(not(target_family = "wasm"))]
    pool.install(timing)?;
    #[cfg(target_family = "wasm")]
    timing()?;

    let median = |of: &[Vec<u64>], r: Run| {
        let i = RUNS.iter().position(|&x| x == r).expect("a run of RUNS");
        timer::ticks_to_ns(Stats::of_ticks(&mut of[i].clone(), 1.0).median)
    };
    let ns = |r: Run| median(&ticks, r);
    let line = |what: &str, ns: f64| {
        println!(
            "{what:<46} {:>9.1} us/frame {:>7.2} ns/joint {:>8.1} characters/ms",
            ns / 1e3,
            ns / (n * joints) as f64,
            n as f64 / (ns / 1e6)
        );
    };
    let one = ns(Run::OneCore);
    line("(a) one core, slerp_pose", one);
    #[cfg(not(target_family = "wasm"))]
    {
        let every = ns(Run::EveryCore);
        let how = if pinned.is_empty() { "not pinned".to_owned() } else { format!("pinned to CPUs {pinned:?}") };
        line(&format!("(b) rayon ({threads} threads, {how}), slerp_pose"), every);
        println!("scaling (a)/(b): {:.2}x with {threads} rayon threads", one / every);
        let woken = median(&firsts, Run::EveryCore);
        line("    (b) a block's first frame, the pool woken", woken);
        println!("    scaling on those frames: {:.2}x", median(&firsts, Run::OneCore) / woken);
    }
    #[cfg(target_family = "wasm")]
    println!("(b) not run: wasm32 has no threads");
    let chained = ns(Run::Chained);
    line("(c) one core, chained calls", chained);
    println!("chained/one call (c)/(a): {:.2}x", chained / one);

    #[cfg(not(target_family = "wasm"))]
    let ok = {
        let every = RUNS.iter().position(|&x| x == Run::EveryCore).expect("rayon's run");
        let same = last[0] == last[every];
        if same {
            println!("check: (a) and (b) wrote bit-identical skinning matrices for the last frame");
        } else {
            let differ = last[0].iter().zip(&last[every]).filter(|(a, b)| a != b).count();
            println!(
                "check FAILED: (a) and (b) differ on {differ} of {} skinning matrices of the last frame",
                last[0].len()
            );
        }
        same
    };
    #[cfg(target_family = "wasm")]
    let ok = true;
    let chained_last = &last[RUNS.len() - 1];
    if last[0] == *chained_last {
        println!("the chained calls gave the same bits as slerp_pose");
    } else {
        let most = last[0]
            .iter()
            .zip(chained_last)
            .flat_map(|(a, b)| a.mat.iter().zip(&b.mat).map(|(x, y)| (x - y).abs()))
            .fold(0.0f32, f32::max);
        println!("the chained calls differ from slerp_pose by at most {most:e} (forms above)");
    }
    Ok(ok)
}
