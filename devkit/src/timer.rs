//! The one timer of the report, the pose example, the pose pipeline's
//! [`time_per_pose`](crate::pipeline::time_per_pose) and the criterion
//! measurement of `devkit/benches/wall_clock/`: the time-stamp counter read with
//! `lfence; rdtsc; lfence` on `x86_64`, `std::time::Instant` in nanoseconds
//! elsewhere; and the one way of summarising samples, [`Stats`] (median and
//! minimum). [`step`] is the timer's resolution, and [`calls_per_sample`]
//! how many calls a sample must take to resolve short calls with it.
//!
//! The TSC ticks at a constant rate, not at the core clock: a tick is not a
//! core cycle. [`rate_hz`] measures the rate once per process against
//! `Instant` (about 100 ms), and [`ticks_to_ns`] converts with it, so the
//! pose pipeline's nanoseconds come from the same counter as the report's
//! ticks.

use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The timer: TSC ticks on `x86_64`.
#[cfg(target_arch = "x86_64")]
mod imp {
    use core::arch::x86_64::{_mm_lfence, _rdtsc};

    pub const UNIT: &str = "ticks";
    pub const NOTE: &str = "TSC ticks (`_rdtsc` fenced by `_mm_lfence`). TSC ticks at a constant rate, \
                            not core cycles; this VM exposes no cycle counters.";

    /// `lfence; rdtsc; lfence`: a stamp that no earlier instruction
    /// finishes after and no later one starts before.
    #[inline(always)]
    pub fn start() -> u64 {
        // SAFETY: `lfence` and `rdtsc` only need SSE2 and the TSC, which every
        // x86_64 CPU has; they touch no memory.
        unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        }
    }

    /// `lfence; rdtsc`: a stamp taken once every earlier instruction is done.
    #[inline(always)]
    pub fn stop() -> u64 {
        // SAFETY: as in `start`.
        unsafe {
            _mm_lfence();
            _rdtsc()
        }
    }
}

/// The timer: nanoseconds since a fixed instant, elsewhere.
#[cfg(not(target_arch = "x86_64"))]
mod imp {
    use std::sync::OnceLock;
    use std::time::Instant;

    pub const UNIT: &str = "ns";
    pub const NOTE: &str = "TSC timing is x86_64-only; this target is timed with `std::time::Instant`, \
                            in nanoseconds.";

    fn epoch() -> Instant {
        static EPOCH: OnceLock<Instant> = OnceLock::new();
        *EPOCH.get_or_init(Instant::now)
    }

    #[inline(always)]
    pub fn start() -> u64 {
        epoch().elapsed().as_nanos() as u64
    }

    #[inline(always)]
    pub fn stop() -> u64 {
        start()
    }
}

/// What the timer counts: `"ticks"` (TSC) on `x86_64`, `"ns"` elsewhere.
pub const UNIT: &str = imp::UNIT;
/// How the report describes the timer.
pub const NOTE: &str = imp::NOTE;

/// A stamp at the start of a timed region (fenced on both sides).
#[inline(always)]
pub fn start() -> u64 {
    imp::start()
}

/// A stamp at the end of a timed region; the region took `stop() - start()`
/// timer units.
#[inline(always)]
pub fn stop() -> u64 {
    imp::stop()
}

/// Timer units ([`UNIT`]) spent in `f`: `lfence; rdtsc; lfence; f();
/// lfence; rdtsc` on `x86_64`.
#[inline(always)]
pub fn time(f: impl FnOnce()) -> u64 {
    let t0 = start();
    f();
    stop().wrapping_sub(t0)
}

/// The timer's rate in units per second: the TSC rate measured once per
/// process (TSC ticks over a ~100 ms `Instant` interval) on `x86_64`, 1e9
/// elsewhere.
pub fn rate_hz() -> f64 {
    static RATE: OnceLock<f64> = OnceLock::new();
    *RATE.get_or_init(|| {
        if cfg!(target_arch = "x86_64") {
            let t = Instant::now();
            let t0 = start();
            while t.elapsed() < Duration::from_millis(100) {
                std::hint::spin_loop();
            }
            let t1 = stop();
            t1.wrapping_sub(t0) as f64 / t.elapsed().as_secs_f64()
        } else {
            1e9
        }
    })
}

/// The TSC rate in Hz, `None` off `x86_64` (no TSC).
pub fn tsc_rate_hz() -> Option<f64> {
    cfg!(target_arch = "x86_64").then(rate_hz)
}

/// Timer units to nanoseconds.
pub fn ticks_to_ns(ticks: f64) -> f64 {
    ticks * 1e9 / rate_hz()
}

/// The median cost of timing nothing, in timer units.
pub fn overhead() -> u64 {
    let mut s: Vec<u64> = (0..1001).map(|_| time(|| ())).collect();
    Stats::of_ticks(&mut s, 1.0).median as u64
}

/// The timer's step, in timer units: the greatest common divisor of 2,000
/// timings of nothing, measured once per process. Every timing is a
/// multiple of it: 1 where the TSC counts every tick; on the AMD EPYC Zen
/// 4 VMs seen here the TSC moves in steps of 26 ticks (10 ns at 2.6 GHz), so a 24-joint call of about 200 ticks is measured to within 13%
/// (whole steps), and the median of many such calls is a whole number of
/// steps too: a difference below a step, or a ratio near 1, is hidden or
/// made up. [`calls_per_sample`] is the way round it.
pub fn step() -> u64 {
    static STEP: OnceLock<u64> = OnceLock::new();
    *STEP.get_or_init(|| {
        let mut g = 0;
        for _ in 0..2000 {
            g = gcd(g, time(|| ()));
        }
        g.max(1)
    })
}

/// Greatest common divisor (`gcd(0, x) = x`).
fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The steps a timed sample should span at least: at 64 steps, a whole
/// step is within 1.6% of the sample.
pub const MIN_SAMPLE_STEPS: u64 = 64;

/// How many calls one timed sample takes, for calls of about `call`
/// timer units (the shortest of the calls that are compared): enough
/// for the sample to span [`MIN_SAMPLE_STEPS`] of [`step`], at most 256.
/// 1 wherever a single call spans them already (every call of 64 ticks
/// or more on a timer whose step is one tick), so batching only happens
/// where the timer cannot resolve a single call. The calls of a sample run
/// back to back, as a crowd's characters do, and overlap in the core;
/// figures from samples of several calls compare with each other, not with
/// single calls'.
pub fn calls_per_sample(call: u64) -> usize {
    calls_for(call, step())
}

/// [`calls_per_sample`] for the rows of one comparison: `single(i)` times
/// one call of row `i` (anything it restores outside the timed region) and
/// returns its timer units; nine are taken per row, and the fastest row's
/// median sets the count, which every row then takes.
pub fn calls_for_rows(rows: usize, mut single: impl FnMut(usize) -> u64) -> usize {
    let fastest = (0..rows)
        .map(|i| {
            let mut s: Vec<u64> = (0..9).map(|_| single(i)).collect();
            Stats::of_ticks(&mut s, 1.0).median as u64
        })
        .min()
        .unwrap_or(1);
    calls_per_sample(fastest)
}

/// [`calls_per_sample`] for a timer of step `step`.
fn calls_for(call: u64, step: u64) -> usize {
    (MIN_SAMPLE_STEPS * step).div_ceil(call.max(1)).clamp(1, 256) as usize
}

/// The median and minimum of a set of samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// The median (the upper one of an even count).
    pub median: f64,
    /// The minimum.
    pub min: f64,
}

impl Stats {
    /// The median and minimum of `samples` (sorted in place), each divided by
    /// `per` (elements per sample). `samples` must not be empty.
    pub fn of<T: Copy + Into<f64>>(samples: &mut [T], per: f64) -> Stats {
        assert!(!samples.is_empty(), "no samples");
        samples.sort_by(|a, b| (*a).into().total_cmp(&(*b).into()));
        Stats { median: samples[samples.len() / 2].into() / per, min: samples[0].into() / per }
    }

    /// The median and minimum of `u64` samples (timer units), divided by `per`.
    pub fn of_ticks(samples: &mut [u64], per: f64) -> Stats {
        let mut f: Vec<f64> = samples.iter().map(|&t| t as f64).collect();
        Stats::of(&mut f, per)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stats_are_the_median_and_the_minimum() {
        let mut s = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(Stats::of(&mut s, 2.0), Stats { median: 1.5, min: 0.5 });
    }

    #[test]
    fn a_sample_spans_64_steps_in_whole_calls() {
        assert_eq!(gcd(0, 26), 26);
        assert_eq!(gcd(52, 78), 26);
        assert_eq!(gcd(40, 41), 1);
        // A 200-tick call on a 26-tick step: 64 * 26 = 1664 ticks, 9 calls.
        assert_eq!(calls_for(200, 26), 9);
        // A timer of one tick: single calls from 64 ticks up.
        assert_eq!(calls_for(64, 1), 1);
        assert_eq!(calls_for(63, 1), 2);
        assert_eq!(calls_for(0, 26), 256);
        assert!(step() >= 1);
        assert!(calls_per_sample(u64::MAX) == 1);
    }

    #[test]
    fn the_timer_counts_forward_and_its_rate_is_plausible() {
        let spin = || {
            let t = Instant::now();
            while t.elapsed() < Duration::from_millis(2) {}
        };
        let ns = ticks_to_ns(time(spin) as f64);
        assert!((1.5e6..1e8).contains(&ns), "2 ms measured as {ns} ns");
        let hz = rate_hz();
        assert!((1e8..1e11).contains(&hz), "timer rate {hz} Hz");
    }
}
