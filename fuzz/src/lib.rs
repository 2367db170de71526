//! Shared machinery of the fuzz targets.
//!
//! The `roster` target fuzzes every routine of [`animasm::roster::ROUTINES`]:
//! the first byte of an input picks the routine ([`pick`], by name, stable
//! as routines come and go), [`Gen`] turns the rest into the arguments of
//! the routine's [`Shape`](animasm::roster::Shape) ([`shapes`]: one decoder
//! and one set of checks per shape), and [`run_every_impl`] runs the safe
//! function with every [`Impl`] (the concrete forms of [`Impl::ALL`] and
//! [`Impl::Auto`]) and checks what holds for all of them:
//!
//! - no crash and no panic (no safe function panics);
//! - a form the routine's [`Routine::forms`](animasm::roster::Routine::forms)
//!   lacks (absent on this target, or needing CPU features this CPU lacks)
//!   returns `Err(Unsupported)` or `Err(MissingCpuFeature)`;
//! - every form of `forms()`, and `Auto`, returns the same `Ok` or the same
//!   `Err` (the validation does not depend on the form);
//! - on `Err`, the output is bit for bit what it was;
//! - on `Ok`, `Auto` wrote the bits of the form it picks (the first of
//!   `forms()`, since the fuzz buffers meet every form's alignment);
//! - on `Ok`, the forms that reproduce one listing
//!   ([`Origin::is_faithful`](animasm::Origin::is_faithful): the `asm!`
//!   listing and its intrinsics twin) wrote the same bits (NaN payloads
//!   aside: LLVM may commute the intrinsics' operands, which changes which
//!   NaN propagates; every other value and the sign of zero must match);
//! - on `Ok`, the successor forms ([`Origin::Successor`]: `Portable`,
//!   `Avx2`, `Avx512`, `Neon`) wrote the same bits, on any input: the one answer
//!   (NaN payloads aside).
//!
//! Each shape adds its routines' documented guarantees on `Ok`, and
//! compares every other form of `forms()` (listings, published code,
//! successors: whatever the routine's table holds and this CPU runs) with
//! the routine's scalar form
//! ([`Routine::scalar_form`](animasm::roster::Routine::scalar_form)) within
//! the tolerance the tests use (in each shape's module), on every element
//! whose inputs are in the domain where that tolerance holds (unit
//! quaternions, rigid matrices, finite translations: see [`unit_quat`],
//! [`rigid`]); elsewhere (NaN, infinities, huge or non-unit values) only
//! the common checks apply. One input in two is *tame* ([`Gen::tame`]): all
//! its quaternions unit and matrices rigid, so that most lists reach those
//! comparisons whole. A routine that is a variant of another
//! ([`Routine::variant_of`](animasm::roster::Routine::variant_of)) runs on
//! the same input with its whole family, and every form two variants both
//! have writes the same bits ([`with_family`]).
//!
//! The `skeleton` target fuzzes [`animasm::Skeleton`] ([`skeleton_api`]).
//!
//! Speed: lists are short ([`MAX_LEN`]: every tail of the 4- and 8-wide
//! forms, and the block boundaries up to 32), and nothing is allocated per
//! execution but what the routine under test allocates: inputs and outputs
//! live in fixed-capacity stack buffers ([`Buf`]), messages are built only
//! when a check fails (`format_args!`), and per-element facts (rigid, unit)
//! are computed once per input.

use animasm::roster::{FormInfo, ROUTINES, Routine};
use animasm::{Error, Impl, JointMat, JointQuat, Origin, Quat};
use core::fmt::Arguments;

mod buf;
mod inputs;
pub mod pick;
#[cfg(test)]
mod replay;
pub mod shapes;
pub mod skeleton_api;
mod vs_scalar;
pub use buf::*;
pub use inputs::*;
pub use pick::*;
pub use vs_scalar::*;

/// Whether two floats are the same bit for bit, any two NaNs counting as the
/// same (see the crate docs above).
pub fn same_bits(x: f32, y: f32) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

/// A value made of `f32`s (`JointQuat`, `JointMat`, `Quat`).
pub trait Floats: Copy + Default {
    // Implemented only for types made of `N` `f32`s and nothing else
    // (`bytes` relies on it; checked below).
    /// How many floats.
    const N: usize;
    /// Float `l` (`l < N`), in memory order.
    fn float(&self, l: usize) -> f32;
}

impl Floats for JointQuat {
    const N: usize = 8;
    fn float(&self, l: usize) -> f32 {
        if l < 4 { self.q.to_array()[l] } else { self.t.to_array()[l - 4] }
    }
}

impl Floats for JointMat {
    const N: usize = 12;
    fn float(&self, l: usize) -> f32 {
        self.mat[l]
    }
}

impl Floats for Quat {
    const N: usize = 4;
    fn float(&self, l: usize) -> f32 {
        self.to_array()[l]
    }
}

/// The bytes of `a` (one `memcmp` compares two lists).
fn bytes<T: Floats>(a: &[T]) -> &[u8] {
    // SAFETY: `T` is made of `T::N` `f32`s and nothing else (`JointQuat`,
    // `JointMat`, `Quat`: `#[repr(C)]` structs of `f32`s, no padding), so
    // its bytes are initialised; the slice covers exactly `a`'s memory,
    // borrowed for the same lifetime, and `u8` has alignment 1.
    unsafe { core::slice::from_raw_parts(a.as_ptr().cast::<u8>(), core::mem::size_of_val(a)) }
}

/// Panics with `ctx` and the two floats unless `ok(u, v)` holds for every
/// pair of floats of `a` and `b` (`ok` holds for equal bits: lists equal
/// byte for byte pass at the cost of one `memcmp`).
#[track_caller]
fn assert_floats<T: Floats>(a: &[T], b: &[T], ctx: Arguments, ok: impl Fn(f32, f32) -> bool) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths");
    if bytes(a) == bytes(b) {
        return;
    }
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for l in 0..T::N {
            let (u, v) = (x.float(l), y.float(l));
            assert!(
                ok(u, v),
                "{ctx}: element {j} float {l}: {u:e} ({:#010x}) vs {v:e} ({:#010x})",
                u.to_bits(),
                v.to_bits()
            );
        }
    }
}

const _: () = assert!(
    size_of::<JointQuat>() == 4 * <JointQuat as Floats>::N
        && size_of::<JointMat>() == 4 * <JointMat as Floats>::N
        && size_of::<Quat>() == 4 * <Quat as Floats>::N
);

/// Panics unless `a` and `b` are the same bit for bit, exactly (no NaN
/// latitude: used where nothing may have been written).
#[track_caller]
pub fn assert_untouched<T: Floats>(a: &[T], b: &[T], ctx: Arguments) {
    assert_floats(a, b, ctx, |u, v| u.to_bits() == v.to_bits());
}

/// Panics unless `a` and `b` agree by [`same_bits`] in every float.
#[track_caller]
pub fn assert_same<T: Floats>(a: &[T], b: &[T], ctx: Arguments) {
    assert_floats(a, b, ctx, same_bits);
}

/// Panics unless `a` and `b` agree by [`same_bits`] in every float, or are
/// both zeros (of either sign).
#[track_caller]
pub fn assert_same_up_to_sign_of_zero<T: Floats>(a: &[T], b: &[T], ctx: Arguments) {
    assert_floats(a, b, ctx, |u, v| same_bits(u, v) || (u == 0.0 && v == 0.0));
}

/// Whether two results are the same (a `NonFiniteFactor` compares its
/// factor bit for bit, as `Error`'s `PartialEq` would not for NaN).
pub fn same_result(a: &Result<(), Error>, b: &Result<(), Error>) -> bool {
    match (a, b) {
        (
            Err(Error::NonFiniteFactor { what: w1, position: p1, value: x }),
            Err(Error::NonFiniteFactor { what: w2, position: p2, value: y }),
        ) => w1 == w2 && p1 == p2 && x.to_bits() == y.to_bits(),
        _ => a == b,
    }
}

/// Whether `imp` is refused as a form the routine cannot run here.
pub fn refused(result: &Result<(), Error>, imp: Impl) -> bool {
    matches!(result, Err(Error::MissingCpuFeature { .. })) || *result == Err(Error::Unsupported(imp))
}

/// How many runs [`run_every_impl`] makes: [`Impl::ALL`] and [`Impl::Auto`].
pub const RUNS: usize = Impl::ALL.len() + 1;

/// Every form [`run_every_impl`] runs: [`Impl::ALL`], then [`Impl::Auto`].
pub const EVERY_IMPL: [Impl; RUNS] = {
    let mut every = [Impl::Auto; RUNS];
    let mut k = 0;
    while k < Impl::ALL.len() {
        every[k] = Impl::ALL[k];
        k += 1;
    }
    every
};

/// A routine's forms that run here ([`Routine::forms`], fastest first),
/// collected without allocating, with its scalar form
/// ([`Routine::scalar_form`]).
#[derive(Clone, Copy)]
pub struct Forms {
    items: [FormInfo; Impl::ALL.len()],
    len: usize,
    /// The routine's scalar form: what the other forms are compared with.
    pub scalar: FormInfo,
}

impl Forms {
    /// The forms of `r` that run here.
    pub fn of(r: &Routine) -> Self {
        let scalar = r.scalar_form();
        let mut forms = Forms { items: [scalar; Impl::ALL.len()], len: 0, scalar };
        for f in r.forms() {
            // One form per `Impl`: the table cannot hold more.
            assert!(forms.len < forms.items.len(), "{}: more forms than `Impl`s", r.name);
            forms.items[forms.len] = f;
            forms.len += 1;
        }
        assert!(forms.len > 0, "{}: a routine with no form", r.name);
        forms
    }

    /// The form `imp`, if it runs here.
    pub fn info(&self, imp: Impl) -> Option<FormInfo> {
        self.iter().find(|f| f.imp == imp).copied()
    }

    /// Whether the form `imp` runs here.
    pub fn contains(&self, imp: Impl) -> bool {
        self.info(imp).is_some()
    }

    /// The fastest form that runs here (what `Auto` picks where the buffers
    /// meet every form's alignment).
    pub fn first(&self) -> FormInfo {
        self.items[0]
    }
}

impl core::fmt::Debug for Forms {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter().map(|form| form.imp)).finish()
    }
}

impl core::ops::Deref for Forms {
    type Target = [FormInfo];
    fn deref(&self) -> &[FormInfo] {
        &self.items[..self.len]
    }
}

/// What one implementation did: its result and its output.
pub struct Run<T: Copy + Default> {
    /// The implementation.
    pub imp: Impl,
    /// What the safe function returned.
    pub result: Result<(), Error>,
    /// The output buffer after the call.
    pub out: Buf<T>,
}

/// The runs of every form of [`EVERY_IMPL`], in that order, with the forms
/// of the routine that ran: filled in place by [`run_every_impl`] (moving
/// the output buffers costs more than the kernels under AddressSanitizer),
/// derefs to the slice of runs.
pub struct Runs<T: Copy + Default> {
    runs: [Run<T>; RUNS],
    /// The forms of the routine that ran (set by [`run_every_impl`]).
    pub forms: Option<Forms>,
}

impl<T: Copy + Default> Runs<T> {
    /// Runs with empty outputs, to be filled by [`run_every_impl`].
    pub fn new() -> Self {
        Runs { runs: EVERY_IMPL.map(|imp| Run { imp, result: Ok(()), out: Buf::new() }), forms: None }
    }

    /// The forms of the routine that ran.
    pub fn forms(&self) -> &Forms {
        self.forms.as_ref().expect("filled by run_every_impl")
    }

    /// What every form that runs here returned (`Auto`'s result: they all
    /// return the same, checked by [`run_every_impl`]).
    pub fn result(&self) -> Result<(), Error> {
        self.runs[RUNS - 1].result
    }
}

impl<T: Copy + Default> Default for Runs<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default> core::ops::Deref for Runs<T> {
    type Target = [Run<T>];
    fn deref(&self) -> &[Run<T>] {
        &self.runs
    }
}

/// Runs `f` with every form of [`EVERY_IMPL`], each on its own copy of
/// `init` (in `runs`, stack buffers of exactly its length), and checks the
/// common guarantees (see the crate docs). `forms` is the routine's forms
/// that run here, fastest first. Returns the runs, in [`EVERY_IMPL`] order,
/// for the shape's own checks.
pub fn run_every_impl<'r, T: Floats>(
    runs: &'r mut Runs<T>,
    forms: &Forms,
    init: &[T],
    mut f: impl FnMut(Impl, &mut [T]) -> Result<(), Error>,
) -> &'r Runs<T> {
    runs.forms = Some(*forms);
    for (r, imp) in runs.runs.iter_mut().zip(EVERY_IMPL) {
        r.imp = imp;
        r.out.set(init);
        r.result = f(imp, &mut r.out);
    }
    let runs = &*runs;
    let runs_here = |r: &Run<T>| r.imp == Impl::Auto || forms.contains(r.imp);
    let mut first: Option<&Run<T>> = None;
    for r in runs.iter() {
        if !runs_here(r) {
            assert!(refused(&r.result, r.imp), "{}, not among {forms:?}, returned {:?}", r.imp, r.result);
        } else if let Some(a) = first {
            assert!(
                same_result(&r.result, &a.result),
                "{} returned {:?}, {} returned {:?}",
                a.imp,
                a.result,
                r.imp,
                r.result
            );
        } else {
            first = Some(r);
        }
        if r.result.is_err() {
            assert_untouched(init, &r.out, format_args!("{} after {:?}", r.imp, r.result));
        }
    }
    // The forms that reproduce one listing, pairwise (`get` returns only
    // runs that returned `Ok`).
    let faithful = |k: usize| Some(forms[k]).filter(|f| f.origin.is_faithful()).and_then(|f| get(runs, f.imp));
    for i in 0..forms.len() {
        for j in i + 1..forms.len() {
            if let (Some(a), Some(b)) = (faithful(i), faithful(j)) {
                assert_same(&a.out, &b.out, format_args!("{} vs {} (one listing)", a.imp, b.imp));
            }
        }
    }
    // The successors give one answer: every successor form bit for bit the
    // same as every other (NaN payloads aside).
    let successor = |k: usize| Some(forms[k]).filter(|f| f.origin == Origin::Successor).and_then(|f| get(runs, f.imp));
    if let Some(a) = (0..forms.len()).find_map(successor) {
        for b in (0..forms.len()).filter_map(successor) {
            assert_same(&a.out, &b.out, format_args!("{} vs {} (one answer)", a.imp, b.imp));
        }
    }
    let fastest = forms.first().imp;
    if let (Some(auto), Some(first)) = (get(runs, Impl::Auto), get(runs, fastest)) {
        assert_same(&auto.out, &first.out, format_args!("auto vs {fastest}"));
    }
    runs
}

/// The run of `imp`, if it returned `Ok` (a form that cannot run here never
/// does: [`run_every_impl`] checks it).
pub fn get<T: Copy + Default>(runs: &[Run<T>], imp: Impl) -> Option<&Run<T>> {
    runs.iter().find(|r| r.imp == imp && r.result.is_ok())
}

/// The runs of the forms that reproduce a listing
/// ([`Origin::is_faithful`](animasm::Origin::is_faithful)) and returned
/// `Ok`.
pub fn faithful_runs<T: Copy + Default>(runs: &Runs<T>) -> impl Iterator<Item = &Run<T>> {
    runs.forms().iter().filter(|f| f.origin.is_faithful()).filter_map(|f| get(runs, f.imp))
}

/// The run of the routine's scalar form
/// ([`Routine::scalar_form`](animasm::roster::Routine::scalar_form)), if
/// it returned `Ok`.
pub fn scalar_run<T: Copy + Default>(runs: &Runs<T>) -> Option<&Run<T>> {
    get(runs, runs.forms().scalar.imp)
}

/// `r`, then the other routines of its family: its variants
/// ([`Routine::variant_of`](animasm::roster::Routine::variant_of) naming
/// it), or, for a variant, the routine it is a variant of and that
/// routine's other variants. Variants have the same safe contract, so the
/// same shape and the same results.
pub fn family(r: &'static Routine) -> impl Iterator<Item = &'static Routine> {
    let base = r.variant_of.unwrap_or(r.name);
    core::iter::once(r)
        .chain(ROUTINES.iter().filter(move |x| x.name != r.name && (x.name == base || x.variant_of == Some(base))))
}

/// Runs `check` for `r` and each other routine of its [`family`], each
/// filling its own [`Runs`] with the same input, and checks that every
/// variant returned what `r` returned and wrote the same bits with every
/// concrete form both have (`Auto` may pick different forms in two
/// tables).
pub fn with_family<T: Floats>(r: &'static Routine, mut check: impl FnMut(&'static Routine, &mut Runs<T>)) {
    let mut first = Runs::new();
    check(r, &mut first);
    let mut other: Option<Runs<T>> = None;
    for v in family(r).skip(1) {
        let runs = other.get_or_insert_with(Runs::new);
        check(v, runs);
        assert!(
            same_result(&first.result(), &runs.result()),
            "{}: {:?}, its variant {}: {:?}",
            r.name,
            first.result(),
            v.name,
            runs.result()
        );
        for a in first.iter().filter(|a| a.imp != Impl::Auto) {
            if let (Some(a), Some(b)) = (get(&first, a.imp), get(runs, a.imp)) {
                assert_same(&a.out, &b.out, format_args!("{}: {} vs {}", a.imp, r.name, v.name));
            }
        }
    }
}

/// What the SSE listings make of a scalar matrix result: they add
/// `(0, 0, 0, t)` to every row, turning a `-0.0` in the rotation columns into
/// `+0.0` (and changing nothing else).
pub fn as_listing(m: &[JointMat]) -> Buf<JointMat> {
    Buf::from_fn(m.len(), |k| JointMat {
        mat: core::array::from_fn(
            |e| {
                if e % 4 != 3 && m[k].mat[e].to_bits() == 0x8000_0000 { 0.0 } else { m[k].mat[e] }
            },
        ),
    })
}
