//! The one dispatch layer: each routine declares its forms once in a table
//! of [`Form`]s (`crate::form`), and [`select`] turns an [`Impl`] into a
//! runnable kernel (or the error) the same way for every routine. This is
//! the only place that detects CPU features.
//!
//! A routine's table lists its forms **fastest first**: [`Impl::Auto`] takes
//! the first row the running CPU can run (and whose alignment the buffers
//! meet). The order is the measured one (`docs/results.md`); a row is
//! compiled only where its kernel exists (`#[cfg]` on the row), so a form
//! that is absent on the target is simply not found and gives
//! [`Error::Unsupported`], and a form whose instruction set the CPU lacks
//! gives [`Error::MissingCpuFeature`].

use crate::error::Error;
pub(crate) use crate::form::{Form, Impl, Isa};

/// The CPU features of [`Isa::features`] as bits.
const AVX: u16 = 1;
const AVX2: u16 = 1 << 1;
const FMA: u16 = 1 << 2;
const AVX512F: u16 = 1 << 3;
const AVX512VL: u16 = 1 << 4;
const AVX512DQ: u16 = 1 << 5;
const AVX512BW: u16 = 1 << 6;

/// Every feature bit with its name, as `is_x86_feature_detected!` names it.
#[cfg_attr(not(all(feature = "std", feature = "_test-hooks")), allow(dead_code))]
const FEATURES: [(u16, &str); 7] = [
    (AVX, "avx"),
    (AVX2, "avx2"),
    (FMA, "fma"),
    (AVX512F, "avx512f"),
    (AVX512VL, "avx512vl"),
    (AVX512DQ, "avx512dq"),
    (AVX512BW, "avx512bw"),
];

/// The feature bits an instruction set needs beyond its target's baseline.
const fn needs_bits(isa: Isa) -> u16 {
    match isa {
        Isa::Portable | Isa::Sse2 | Isa::Neon => 0,
        Isa::Avx => AVX,
        Isa::Avx2 => AVX2,
        Isa::Avx2Fma => AVX2 | FMA,
        Isa::Avx512 => AVX512F | AVX512VL | AVX512DQ | AVX512BW,
    }
}

/// The features the running CPU has, as bits. Without the `std` feature
/// nothing beyond the baseline can be detected, so none. With the test
/// hooks, less if a test hides some ([`test_hooks`]).
fn detected() -> u16 {
    cfg_if::cfg_if! {
        if #[cfg(all(feature = "std", target_arch = "x86_64"))] {
            let mut bits = 0;
            if std::is_x86_feature_detected!("avx") { bits |= AVX; }
            if std::is_x86_feature_detected!("avx2") { bits |= AVX2; }
            if std::is_x86_feature_detected!("fma") { bits |= FMA; }
            if std::is_x86_feature_detected!("avx512f") { bits |= AVX512F; }
            if std::is_x86_feature_detected!("avx512vl") { bits |= AVX512VL; }
            if std::is_x86_feature_detected!("avx512dq") { bits |= AVX512DQ; }
            if std::is_x86_feature_detected!("avx512bw") { bits |= AVX512BW; }
            bits & test_hooks::visible_features()
        } else {
            0
        }
    }
}

/// Whether the CPU has FMA, as the dispatch layer sees it (the test hooks
/// can hide it; a simulated target without SIMD forms has none): the
/// portable kernels' choice of their FMA copy on x86_64
/// (`crate::portable::hard_fma`).
#[cfg(all(feature = "std", target_arch = "x86_64", not(target_feature = "fma")))]
pub(crate) fn fma_detected() -> bool {
    detected() & FMA != 0 && !test_hooks::scalar_target()
}

/// Whether this build targets the instruction set's architecture (a
/// portable form runs everywhere).
const fn on_target(isa: Isa) -> bool {
    match isa.arch() {
        None => true,
        Some(_) if matches!(isa, Isa::Neon) => cfg!(target_arch = "aarch64"),
        Some(_) => cfg!(target_arch = "x86_64"),
    }
}

/// [`Isa::detected`]: on this target, and every feature it needs seen.
pub(crate) fn isa_detected(isa: Isa) -> bool {
    let needs = needs_bits(isa);
    on_target(isa)
        && (isa == Isa::Portable || !test_hooks::scalar_target())
        && (needs == 0 || detected() & needs == needs)
}

/// Whether a table row exists for the dispatch layer: every row, unless a
/// test simulates a target without SIMD forms ([`test_hooks`]), where only
/// the portable rows do.
fn present<K>(form: &Form<K>) -> bool {
    form.isa == Isa::Portable || !test_hooks::scalar_target()
}

/// Test hooks: what the dispatch layer sees, narrowed on one thread, so
/// that `Error::MissingCpuFeature` and `Error::Unsupported` can be tested
/// for every routine and form on any machine and under Miri. Not API:
/// compiled only with the `_test-hooks` feature (which the crate's own test
/// kit turns on) and `std`, hidden from the docs. A hook can only hide: it
/// never makes a form runnable that the CPU cannot run.
#[cfg(all(feature = "std", feature = "_test-hooks"))]
#[doc(hidden)]
pub mod test_hooks {
    use core::cell::Cell;

    /// What a test lets the dispatch layer see.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Machine {
        hidden: u16,
        scalar_target: bool,
    }

    impl Machine {
        /// Everything the CPU has: no hook.
        pub const REAL: Machine = Machine { hidden: 0, scalar_target: false };
        /// The target's baseline only (SSE2 on `x86_64`, NEON on
        /// `aarch64`): every detected feature hidden.
        pub const BASELINE: Machine = Machine { hidden: u16::MAX, scalar_target: false };
        /// A target without SIMD forms: only the portable forms exist
        /// (`Impl::Scalar`).
        pub const SCALAR_TARGET: Machine = Machine { hidden: u16::MAX, scalar_target: true };

        /// This machine with the CPU features `names` hidden too (as
        /// `is_x86_feature_detected!` names them: `"avx"`, `"avx2"`,
        /// `"fma"`, `"avx512f"`, `"avx512vl"`, `"avx512dq"`, `"avx512bw"`).
        ///
        /// # Panics
        ///
        /// On a name the dispatch layer does not detect.
        pub fn hiding(self, names: &[&str]) -> Machine {
            let mut hidden = self.hidden;
            for name in names {
                let bit = super::FEATURES.iter().find(|f| f.1 == *name).unwrap_or_else(|| panic!("no feature {name}"));
                hidden |= bit.0;
            }
            Machine { hidden, ..self }
        }

        /// Whether this machine lets the dispatch layer see the feature
        /// `name` (if the CPU has it).
        pub fn shows(self, name: &str) -> bool {
            super::FEATURES.iter().any(|f| f.1 == name && self.hidden & f.0 == 0)
        }

        /// Whether only the portable forms exist.
        pub fn scalar_target(self) -> bool {
            self.scalar_target
        }
    }

    std::thread_local! {
        static SEEN: Cell<Machine> = const { Cell::new(Machine::REAL) };
    }

    /// Runs `f` with the dispatch layer of this thread seeing `machine`,
    /// then restores what it saw before (also if `f` panics).
    pub fn with_machine<R>(machine: Machine, f: impl FnOnce() -> R) -> R {
        struct Restore(Machine);
        impl Drop for Restore {
            fn drop(&mut self) {
                SEEN.with(|s| s.set(self.0));
            }
        }
        let _restore = Restore(SEEN.with(|s| s.replace(machine)));
        f()
    }

    #[allow(dead_code)] // only read on x86_64
    pub(crate) fn visible_features() -> u16 {
        !SEEN.with(Cell::get).hidden
    }

    pub(crate) fn scalar_target() -> bool {
        SEEN.with(Cell::get).scalar_target
    }
}

/// Without the test hooks: nothing hidden.
#[cfg(not(all(feature = "std", feature = "_test-hooks")))]
mod test_hooks {
    #[allow(dead_code)] // only read on x86_64 with `std`
    pub(crate) fn visible_features() -> u16 {
        u16::MAX
    }

    pub(crate) fn scalar_target() -> bool {
        false
    }
}

/// A row of a kernel table: `form!(Avx2 => avx2::slerp_joints, Successor on
/// Avx2Fma)`: the [`Impl`], the raw kernel, the [`Origin`](crate::Origin)
/// and the [`Isa`] (default [`Isa::Portable`]), and optionally `align 32`
/// (the alignment the kernel needs beyond its types; default 1).
macro_rules! form {
    ($imp:ident => $kernel:path, $origin:ident $(on $isa:ident)? $(, align $align:literal)?) => {
        $crate::form::Form {
            imp: $crate::form::Impl::$imp,
            origin: $crate::form::Origin::$origin,
            isa: $crate::dispatch::form!(@isa $($isa)?),
            align: $crate::dispatch::form!(@align $($align)?),
            kernel: $kernel,
        }
    };
    (@isa) => { $crate::form::Isa::Portable };
    (@isa $isa:ident) => { $crate::form::Isa::$isa };
    (@align) => { 1 };
    (@align $align:literal) => { $align };
}
pub(crate) use form;

/// [`Form::runnable`]: the row exists for the dispatch layer and this CPU
/// runs its instruction set. No detection at all for the baseline forms
/// (most rows), so their selection costs a few compares.
pub(crate) fn runnable_row<K>(form: &Form<K>) -> bool {
    present(form) && (needs_bits(form.isa) == 0 || isa_detected(form.isa))
}

/// The form [`select`] chose: its kernel, which form it is, and the
/// alignment its buffers need (checked last by [`Selected::check_align`]).
pub(crate) struct Selected<K> {
    pub(crate) kernel: K,
    pub(crate) imp: Impl,
    align: usize,
}

/// The lowest set bit of the addresses: the largest power of two that
/// divides all of them (`usize::MAX >> 1` for none), for [`select`]'s
/// `aligned_to`.
pub(crate) fn alignment_of(addresses: &[usize]) -> usize {
    let all = addresses.iter().fold(0, |a, &p| a | p);
    if all == 0 { 1 << (usize::BITS - 2) } else { 1 << all.trailing_zeros() }
}

/// Picks the kernel for `imp` from a routine's `table` (fastest first).
///
/// - [`Impl::Auto`]: the first row this CPU can run whose alignment
///   `aligned_to` (from [`alignment_of`] the buffers) meets; every table ends
///   in a scalar row, so this never fails.
/// - [`Impl::Deterministic`]: the first [`Origin::Successor`](crate::Origin)
///   row this CPU can run (alignment as for `Auto`); [`Error::Unsupported`]
///   for a routine without successors (every id routine has the portable
///   one, so on those this never fails);
/// - any other form: its row, [`Error::Unsupported`] if the routine has no
///   such form on this target, [`Error::MissingCpuFeature`] if the CPU lacks
///   what it needs. Alignment is checked later ([`Selected::check_align`]),
///   after the other arguments, as the contract orders the checks.
pub(crate) fn select<K: Copy>(table: &[Form<K>], imp: Impl, aligned_to: usize) -> Result<Selected<K>, Error> {
    let form = if imp == Impl::Auto {
        table.iter().find(|f| f.align <= aligned_to && runnable_row(f)).ok_or(Error::Unsupported(imp))?
    } else if imp == Impl::Deterministic {
        table
            .iter()
            .find(|f| f.origin == crate::form::Origin::Successor && f.align <= aligned_to && runnable_row(f))
            .ok_or(Error::Unsupported(imp))?
    } else {
        let form = table.iter().find(|f| f.imp == imp && present(f)).ok_or(Error::Unsupported(imp))?;
        if !runnable_row(form) {
            return Err(Error::MissingCpuFeature { needs: form.isa.needs() });
        }
        form
    };
    Ok(Selected { kernel: form.kernel, imp: form.imp, align: form.align })
}

impl<K> Selected<K> {
    /// [`Error::Misaligned`] for the first buffer (name, address) that does
    /// not meet the form's alignment.
    pub(crate) fn check_align(&self, buffers: &[(&'static str, usize)]) -> Result<(), Error> {
        match buffers.iter().find(|&&(_, address)| address % self.align != 0) {
            Some(&(what, address)) => Err(Error::Misaligned { what, needed: self.align, address }),
            None => Ok(()),
        }
    }
}

/// The forms of `table` this target and CPU can run, fastest first.
pub(crate) fn runnable<K>(table: &'static [Form<K>]) -> impl Iterator<Item = Impl> {
    table.iter().filter(|f| runnable_row(f)).map(|f| f.imp)
}

/// Declares `pub fn forms()`, `pub fn resolve()` and `pub fn kernel()` of a
/// routine module over its kernel table.
macro_rules! routine_api {
    ($table:ident, $safe:literal, $kernel:ty) => {
        #[doc = concat!("The forms of [`", $safe, "`] that this target and CPU can run, fastest first (the order in which [`Impl::Auto`](crate::Impl::Auto) tries them).")]
        pub fn forms() -> impl Iterator<Item = $crate::Impl> {
            $crate::dispatch::runnable($table)
        }

        #[doc = concat!("The form [`", $safe, "`] runs for `imp` on this CPU (what [`Impl::Auto`](crate::Impl::Auto) resolves to; alignment aside), or the error it returns for `imp`: [`Error::Unsupported`](crate::Error::Unsupported) or [`Error::MissingCpuFeature`](crate::Error::MissingCpuFeature).")]
        pub fn resolve(imp: $crate::Impl) -> Result<$crate::Impl, $crate::Error> {
            $crate::dispatch::select($table, imp, usize::MAX >> 1).map(|s| s.imp)
        }

        #[doc = concat!("The raw kernel of form `imp` of [`", $safe, "`] (no validation, no endpoint rule), for benches, reports and tests that time or compare the kernels themselves; `Auto` gives the first form this CPU runs, whatever the buffers' alignment. Errors as [`resolve`]. The routine's whole table, with each form's origin and instruction set, is in [`crate::roster`].")]
        #[doc = ""]
        #[doc = "Calling the kernel is `unsafe`: its safety conditions are those of the form's module function (every module's `# Safety` section), which the safe function checks."]
        pub fn kernel(imp: $crate::Impl) -> Result<$kernel, $crate::Error> {
            $crate::dispatch::select($table, imp, usize::MAX >> 1).map(|s| s.kernel)
        }
    };
}
pub(crate) use routine_api;
