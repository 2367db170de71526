//! The one dispatch layer: each routine declares its forms once in a table
//! of [`Form`]s (`crate::form`), and [`select`] turns an [`Impl`] into a
//! runnable kernel (or the error) the same way for every routine. This is
//! the only place that selects; what each instruction set is, and whether
//! the CPU has it, is [`crate::isa`]'s.
//!
//! A routine's table lists its forms **fastest first**: [`Impl::Auto`] takes
//! the first row the running CPU can run (and whose alignment the buffers
//! meet). The order is the measured one (`docs/results.md`); a row is
//! compiled only where its kernel exists (`#[cfg]` on the row), so a form
//! that is absent on the target is simply not found and gives
//! [`Error::Unsupported`], and a form whose instruction set the CPU lacks
//! gives [`Error::MissingCpuFeature`].

use crate::error::Error;
pub(crate) use crate::form::{Form, Impl};
use crate::isa::{Isa, test_hooks};
use core::sync::atomic::{AtomicUsize, Ordering};

/// Whether a table row exists for the dispatch layer: every row, unless a
/// test simulates a target without SIMD forms ([`test_hooks`]), where only
/// the portable rows do.
fn present<K>(form: &Form<K>) -> bool {
    form.isa == Isa::Portable || !test_hooks::scalar_target()
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
    (@isa) => { $crate::isa::Isa::Portable };
    (@isa $isa:ident) => { $crate::isa::Isa::$isa };
    (@align) => { 1 };
    (@align $align:literal) => {{
        // `Selected::check_align` masks with `align - 1`.
        const ALIGN: usize = $align;
        const _: () = assert!(ALIGN.is_power_of_two(), "a form's alignment is a power of two");
        ALIGN
    }};
}
pub(crate) use form;

impl<K> Form<K> {
    /// Whether this CPU runs the form: the row exists for the dispatch
    /// layer and the CPU has its instruction set ([`Isa::detected`]).
    pub fn runnable(&self) -> bool {
        runnable_row(self)
    }
}

/// [`Form::runnable`]. No detection at all for the baseline forms (most
/// rows), so their selection costs a few compares.
pub(crate) fn runnable_row<K>(form: &Form<K>) -> bool {
    present(form) && (form.isa.features().is_empty() || form.isa.detected())
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
    Ok(Selected::of(form))
}

/// A routine table together with the row [`Impl::Auto`] picks from it for
/// buffers of any alignment, found on the first call and kept: the pose
/// routines' safe calls select without walking the table (a 24-joint pose
/// takes a few hundred ticks, and the walk was about a fifth of the safe
/// call's instructions beyond its kernel's). The CPU's features do not change while
/// the process runs, so neither does the row. While a test hook narrows
/// what the dispatch layer sees on the calling thread ([`test_hooks`]), the
/// table is walked and nothing is kept.
pub(crate) struct Table<K: 'static> {
    /// The routine's forms, fastest first.
    pub(crate) forms: &'static [Form<K>],
    /// `0`: not found yet; else the row's index plus one.
    auto: AtomicUsize,
}

impl<K: Copy> Table<K> {
    /// The table of `forms`, its `Auto` row not found yet.
    pub(crate) const fn new(forms: &'static [Form<K>]) -> Table<K> {
        Table { forms, auto: AtomicUsize::new(0) }
    }

    /// [`select`] from this table for buffers of any alignment
    /// (`aligned_to = usize::MAX`), with `Auto`'s row kept.
    #[inline]
    pub(crate) fn select(&self, imp: Impl) -> Result<Selected<K>, Error> {
        if imp != Impl::Auto || test_hooks::narrowed() {
            return select(self.forms, imp, usize::MAX);
        }
        let known = self.auto.load(Ordering::Relaxed);
        if let Some(form) = known.checked_sub(1).and_then(|row| self.forms.get(row)) {
            return Ok(Selected::of(form));
        }
        let row = self.forms.iter().position(runnable_row).ok_or(Error::Unsupported(imp))?;
        // Every thread that races here finds and stores the same row.
        self.auto.store(row + 1, Ordering::Relaxed);
        let form = &self.forms[row];
        Ok(Selected::of(form))
    }
}

impl<K: Copy> Selected<K> {
    /// The row `form`, selected.
    fn of(form: &Form<K>) -> Selected<K> {
        Selected { kernel: form.kernel, imp: form.imp, align: form.align }
    }
}

impl<K> Selected<K> {
    /// [`Error::Misaligned`] for the first buffer (name, address) that does
    /// not meet the form's alignment.
    pub(crate) fn check_align(&self, buffers: &[(&'static str, usize)]) -> Result<(), Error> {
        // `align` is a power of two: a mask, not a division per buffer (six
        // `div`s were a third of a 24-joint safe pose call's overhead).
        debug_assert!(self.align.is_power_of_two());
        let low = self.align - 1;
        match buffers.iter().find(|&&(_, address)| address & low != 0) {
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
