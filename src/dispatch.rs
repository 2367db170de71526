//! The one dispatch layer: [`Impl`] names every form of every routine, each
//! routine declares its forms once in a table of [`Form`]s, and [`select`]
//! turns an `Impl` into a runnable kernel (or the error) the same way for
//! every routine.
//!
//! A routine's table lists its forms **fastest first**: [`Impl::Auto`] takes
//! the first row the running CPU can run (and whose alignment the buffers
//! meet). The order is the measured one (`docs/results.md`); a row is
//! compiled only where its kernel exists (`#[cfg]` on the row), so a form
//! that is absent on the target is simply not found and gives
//! [`Error::Unsupported`], and a form whose CPU features are missing gives
//! [`Error::MissingCpuFeature`].

use crate::error::Error;

/// Which form of a routine runs.
///
/// Not every routine has every form: each routine's module lists its forms
/// (`forms()`, for example [`crate::slerp_joints::forms`]), and a form the
/// routine does not have, or that cannot run on this target, gives
/// [`Error::Unsupported`]. A form that needs CPU features beyond the
/// `x86_64` baseline is detected at run time (with the `std` feature) and
/// gives [`Error::MissingCpuFeature`] where they are missing.
///
/// | form | what it is | routines |
/// |---|---|---|
/// | [`Impl::Auto`] | the fastest form this CPU can run, per routine (the default) | all |
/// | [`Impl::Scalar`] | the paper's C, line by line; every target | all |
/// | [`Impl::Intrinsics`] | the published listing with `core::arch` intrinsics, bit-identical to `Asm` | the id Software routines (SSE), `slerp_quats_*` (AVX) |
/// | [`Impl::Asm`] | the published listing in `asm!`, instruction for instruction | the id Software routines (SSE), `slerp_quats_*` (AVX) |
/// | [`Impl::Sse2`] | published SSE2 intrinsics code that has no listing twin, 4 lanes | [`crate::slerp_quats_corrected()`] (Table 1's 128-bit baseline), the nlerp family (`nlerp4`, ...) |
/// | [`Impl::Avx2NoFma`] | AVX2 without fused multiply-adds, 8 lanes | the nlerp family (`nlerp8`, ...) |
/// | [`Impl::Avx2`] | AVX2 with FMA, 8 lanes: the successors, not a listing | the seven id Software routines (`src/<routine>/avx2.rs`: the paper's algorithm rewritten for a 2026 core, `asm_notes/successors.md`), the nlerp family (`nlerp8_fma`, ...) |
///
/// The nlerp article's widths (scalar, SSE2 4-wide, AVX2 8-wide, AVX2 + FMA)
/// are forms like any other, so that one enum and one error cover every
/// routine.
///
/// There is no AVX-512 form yet: the successors' 16-lane forms are written
/// only where a machine can run their tests (`asm_notes/successors.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Impl {
    /// The fastest form of the routine that this CPU can run, by the
    /// routine's table (measured; see `docs/results.md`). Always available: every
    /// routine has a scalar form.
    #[default]
    Auto,
    /// The paper's C routine ported line by line. Available on every target.
    Scalar,
    /// The listing's operations with `core::arch::x86_64` intrinsics,
    /// bit-identical to [`Impl::Asm`]. `x86_64` only.
    Intrinsics,
    /// The published listing in `asm!`, instruction for instruction.
    /// `x86_64` only, and not under Miri (which cannot run `asm!`).
    Asm,
    /// Published 4-wide SSE2 intrinsics that are not a listing's twin.
    /// `x86_64` only.
    Sse2,
    /// Published 8-wide AVX2 intrinsics without FMA. `x86_64` with AVX2.
    Avx2NoFma,
    /// 8-wide AVX2 intrinsics with fused multiply-adds: the id Software
    /// routines' successors and the nlerp article's FMA forms. `x86_64` with
    /// AVX2 and FMA.
    Avx2,
}

impl Impl {
    /// Every concrete form, in a fixed order (for tests, benches and
    /// reports); [`Impl::Auto`] is not in it.
    pub const ALL: [Impl; 6] = [Impl::Scalar, Impl::Intrinsics, Impl::Asm, Impl::Sse2, Impl::Avx2NoFma, Impl::Avx2];

    /// A short lower-case name (`"auto"`, `"scalar"`, `"intrinsics"`,
    /// `"asm"`, `"sse2"`, `"avx2-nofma"`, `"avx2"`).
    pub const fn name(self) -> &'static str {
        match self {
            Impl::Auto => "auto",
            Impl::Scalar => "scalar",
            Impl::Intrinsics => "intrinsics",
            Impl::Asm => "asm",
            Impl::Sse2 => "sse2",
            Impl::Avx2NoFma => "avx2-nofma",
            Impl::Avx2 => "avx2",
        }
    }
}

impl core::fmt::Display for Impl {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}

/// CPU features a form needs beyond the target's baseline (SSE2 on
/// `x86_64`), as a bit set with the name [`Error::MissingCpuFeature`]
/// reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Needs {
    bits: u8,
    name: &'static str,
}

impl Needs {
    /// Nothing beyond the baseline.
    pub(crate) const NOTHING: Needs = Needs { bits: 0, name: "" };
    /// AVX.
    pub(crate) const AVX: Needs = Needs { bits: AVX, name: "avx" };
    /// AVX2.
    pub(crate) const AVX2: Needs = Needs { bits: AVX2, name: "avx2" };
    /// AVX2 and FMA.
    pub(crate) const AVX2_FMA: Needs = Needs { bits: AVX2 | FMA, name: "avx2 and fma" };
}

const AVX: u8 = 1;
const AVX2: u8 = 2;
const FMA: u8 = 4;

/// The features of [`Needs`] that the running CPU has. Without the `std`
/// feature nothing beyond the baseline can be detected, so none. With the
/// test hooks, less if a test hides some ([`test_hooks`]).
fn detected() -> u8 {
    cfg_if::cfg_if! {
        if #[cfg(all(feature = "std", target_arch = "x86_64"))] {
            let mut bits = 0;
            if std::is_x86_feature_detected!("avx") { bits |= AVX; }
            if std::is_x86_feature_detected!("avx2") { bits |= AVX2; }
            if std::is_x86_feature_detected!("fma") { bits |= FMA; }
            bits & test_hooks::visible_features()
        } else {
            0
        }
    }
}

/// Whether a table row exists for the dispatch layer: every row, unless a
/// test simulates a target without SIMD forms ([`test_hooks`]).
fn present(imp: Impl) -> bool {
    imp == Impl::Scalar || !test_hooks::scalar_target()
}

/// Test hooks: what the dispatch layer sees, narrowed on one thread, so
/// that `Error::MissingCpuFeature` and `Error::Unsupported` can be tested
/// for every routine and form on any `x86_64` machine and under Miri. Not
/// API: compiled only with the `_test-hooks` feature (which the crate's
/// own test kit turns on) and `std`, hidden from the docs. A hook can only
/// hide: it never makes a form runnable that the CPU cannot run.
#[cfg(all(feature = "std", feature = "_test-hooks"))]
#[doc(hidden)]
pub mod test_hooks {
    use core::cell::Cell;

    /// What a test lets the dispatch layer see.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Machine {
        /// AVX stays visible (if the CPU has it).
        pub avx: bool,
        /// AVX2 stays visible (if the CPU has it).
        pub avx2: bool,
        /// FMA stays visible (if the CPU has it).
        pub fma: bool,
        /// Only the scalar forms exist, as on a target other than `x86_64`.
        pub scalar_target: bool,
    }

    impl Machine {
        /// Everything the CPU has: no hook.
        pub const REAL: Machine = Machine { avx: true, avx2: true, fma: true, scalar_target: false };
        /// The `x86_64` baseline only (SSE2): no AVX, AVX2 or FMA.
        pub const BASELINE: Machine = Machine { avx: false, avx2: false, fma: false, scalar_target: false };
        /// A target without the `x86_64` forms: only `Impl::Scalar` exists.
        pub const SCALAR_TARGET: Machine = Machine { avx: false, avx2: false, fma: false, scalar_target: true };
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

    pub(crate) fn visible_features() -> u8 {
        let m = SEEN.with(Cell::get);
        (if m.avx { super::AVX } else { 0 })
            | (if m.avx2 { super::AVX2 } else { 0 })
            | (if m.fma { super::FMA } else { 0 })
    }

    pub(crate) fn scalar_target() -> bool {
        SEEN.with(Cell::get).scalar_target
    }
}

/// Without the test hooks: nothing hidden.
#[cfg(not(all(feature = "std", feature = "_test-hooks")))]
mod test_hooks {
    #[allow(dead_code)] // only read on x86_64 with `std`
    pub(crate) fn visible_features() -> u8 {
        u8::MAX
    }

    pub(crate) fn scalar_target() -> bool {
        false
    }
}

/// One row of a routine's kernel table: the form, its raw kernel, the CPU
/// features it needs and the alignment (in bytes) its loads and stores need
/// beyond what the element types guarantee (1: nothing more). Written with
/// [`form!`](crate::dispatch::form).
#[derive(Clone, Copy)]
pub(crate) struct Form<K> {
    pub(crate) imp: Impl,
    pub(crate) kernel: K,
    pub(crate) needs: Needs,
    pub(crate) align: usize,
}

/// A row of a kernel table: `form!(Asm => asm::slerp_joints)`, with
/// optional `needs AVX2_FMA` (a [`Needs`] constant) and `align 32`.
macro_rules! form {
    ($imp:ident => $kernel:path $(, needs $needs:ident)? $(, align $align:literal)?) => {
        $crate::dispatch::Form {
            imp: $crate::dispatch::Impl::$imp,
            kernel: $kernel,
            needs: $crate::dispatch::form!(@needs $($needs)?),
            align: $crate::dispatch::form!(@align $($align)?),
        }
    };
    (@needs) => { $crate::dispatch::Needs::NOTHING };
    (@needs $needs:ident) => { $crate::dispatch::Needs::$needs };
    (@align) => { 1 };
    (@align $align:literal) => { $align };
}
pub(crate) use form;

impl<K> Form<K> {
    /// Whether this CPU runs the form: no detection at all for the
    /// baseline forms (most rows), so their selection costs a few compares.
    fn runnable(&self) -> bool {
        present(self.imp) && (self.needs.bits == 0 || detected() & self.needs.bits == self.needs.bits)
    }
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
/// - any other form: its row, [`Error::Unsupported`] if the routine has no
///   such form on this target, [`Error::MissingCpuFeature`] if the CPU lacks
///   what it needs. Alignment is checked later ([`Selected::check_align`]),
///   after the other arguments, as the contract orders the checks.
pub(crate) fn select<K: Copy>(table: &[Form<K>], imp: Impl, aligned_to: usize) -> Result<Selected<K>, Error> {
    let form = if imp == Impl::Auto {
        table.iter().find(|f| f.align <= aligned_to && f.runnable()).ok_or(Error::Unsupported(imp))?
    } else {
        let form = table.iter().find(|f| f.imp == imp && present(imp)).ok_or(Error::Unsupported(imp))?;
        if !form.runnable() {
            return Err(Error::MissingCpuFeature { needs: form.needs.name });
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
    table.iter().filter(|f| f.runnable()).map(|f| f.imp)
}

/// Declares `pub fn forms()` and `pub fn resolve()` of a routine module over
/// its kernel table.
macro_rules! routine_api {
    ($table:ident, $safe:literal) => {
        #[doc = concat!("The forms of [`", $safe, "`] that this target and CPU can run, fastest first (the order in which [`Impl::Auto`](crate::Impl::Auto) tries them).")]
        pub fn forms() -> impl Iterator<Item = $crate::Impl> {
            $crate::dispatch::runnable($table)
        }

        #[doc = concat!("The form [`", $safe, "`] runs for `imp` on this CPU (what [`Impl::Auto`](crate::Impl::Auto) resolves to; alignment aside), or the error it returns for `imp`: [`Error::Unsupported`](crate::Error::Unsupported) or [`Error::MissingCpuFeature`](crate::Error::MissingCpuFeature).")]
        pub fn resolve(imp: $crate::Impl) -> Result<$crate::Impl, $crate::Error> {
            $crate::dispatch::select($table, imp, usize::MAX >> 1).map(|s| s.imp)
        }
    };
    ($table:ident, $safe:literal, $kernel:ty) => {
        $crate::dispatch::routine_api!($table, $safe);

        #[doc = concat!("The raw kernel of form `imp` of [`", $safe, "`] (no validation, no endpoint rule), for benches, reports and tests that time or compare the kernels themselves; `Auto` gives the first form this CPU runs, whatever the buffers' alignment. Errors as [`resolve`].")]
        #[doc = ""]
        #[doc = "Calling the kernel is `unsafe`: its safety conditions are those of the form's module function (every module's `# Safety` section), which the safe function checks."]
        #[doc(hidden)]
        pub fn kernel(imp: $crate::Impl) -> Result<$kernel, $crate::Error> {
            $crate::dispatch::select($table, imp, usize::MAX >> 1).map(|s| s.kernel)
        }
    };
}
pub(crate) use routine_api;
