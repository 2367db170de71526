//! A criterion [`Measurement`] backed by [`crate::timer`]: the benches of
//! `devkit/benches/wall_clock/` count the same fenced TSC ticks as the report
//! (nanoseconds off `x86_64`), so their figures compare with the report's
//! tables directly.
//!
//! Use it with `Criterion::default().with_measurement(Tsc)`; a bench that
//! times its own region (`iter_custom`) adds [`Tsc::time`]s.

use criterion::Throughput;
use criterion::measurement::{Measurement, ValueFormatter};

use crate::timer;

/// Timer units ([`timer::UNIT`]) as a criterion measurement.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tsc;

impl Tsc {
    /// Timer units spent in `f`, as [`Measurement::Value`] (for
    /// `iter_custom`).
    #[inline(always)]
    pub fn time(f: impl FnOnce()) -> u64 {
        timer::time(f)
    }
}

impl Measurement for Tsc {
    type Intermediate = u64;
    type Value = u64;

    #[inline(always)]
    fn start(&self) -> u64 {
        timer::start()
    }

    #[inline(always)]
    fn end(&self, start: u64) -> u64 {
        timer::stop().wrapping_sub(start)
    }

    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }

    fn zero(&self) -> u64 {
        0
    }

    fn to_f64(&self, value: &u64) -> f64 {
        *value as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        &TscFormatter
    }
}

/// Formats timer units: ticks (`k`, `M` prefixes), throughput in elements
/// (or bytes, bits) per kilotick (per microsecond off `x86_64`).
struct TscFormatter;

impl ValueFormatter for TscFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (factor, unit) = match (timer::UNIT, typical) {
            ("ticks", t) if t >= 1e6 => (1e-6, "Mticks"),
            ("ticks", t) if t >= 1e3 => (1e-3, "kticks"),
            ("ticks", _) => (1.0, "ticks"),
            (_, _) => (1.0, "ns"),
        };
        values.iter_mut().for_each(|v| *v *= factor);
        unit
    }

    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let ticks = timer::UNIT == "ticks";
        let (per_iteration, unit) = match *throughput {
            Throughput::Bits(n) => (n, if ticks { "bits/kticks" } else { "bits/µs" }),
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => (n, if ticks { "B/kticks" } else { "B/µs" }),
            Throughput::Elements(n) | Throughput::ElementsAndBytes { elements: n, .. } => {
                (n, if ticks { "elem/kticks" } else { "elem/µs" })
            }
        };
        // Per 1000 timer units (kiloticks, or microseconds).
        values.iter_mut().for_each(|v| *v = per_iteration as f64 * 1e3 / *v);
        unit
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        timer::UNIT
    }
}
