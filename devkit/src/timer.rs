//! The one timer of the report, the pose example, the pose pipeline's
//! [`time_per_pose`](crate::pipeline::time_per_pose) and the criterion
//! measurement of `devkit/benches/wall_clock/`: the time-stamp counter read with
//! `lfence; rdtsc; lfence` on `x86_64`, `std::time::Instant` in nanoseconds
//! elsewhere; and the one way of summarising samples, [`Stats`] (median and
//! minimum).
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
