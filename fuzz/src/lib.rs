//! Shared machinery of the fuzz targets: [`Gen`] turns libFuzzer's bytes into
//! lengths, indices, parents, ranges, interpolation factors and floats
//! (arbitrary bit patterns, often special values), and [`run_every_impl`]
//! runs one safe function with every [`Impl`] (the concrete forms of
//! [`Impl::ALL`] and [`Impl::Auto`]) and checks what holds for all of them:
//!
//! - no crash and no panic (no safe function panics);
//! - a form the routine does not list in its `forms()` (absent on this
//!   target, or needing CPU features this CPU lacks) returns
//!   `Err(Unsupported)` or `Err(MissingCpuFeature)`;
//! - every form of `forms()`, and `Auto`, returns the same `Ok` or the same
//!   `Err` (the validation does not depend on the form);
//! - on `Err`, the output is bit for bit what it was;
//! - on `Ok`, `Auto` wrote the bits of the form it picks (the first of
//!   `forms()`, since the fuzz buffers meet every form's alignment);
//! - on `Ok`, [`Impl::Asm`] and [`Impl::Intrinsics`] wrote the same bits
//!   (NaN payloads aside: LLVM may commute the intrinsics' operands, which
//!   changes which NaN propagates; every other value and the sign of zero
//!   must match).
//!
//! Each target adds the routine's own documented guarantees on `Ok`, and
//! compares every form of the routine's `forms()` (the listing's, and the
//! `Impl::Avx2` successor wherever it is in the build and the CPU runs it)
//! with the scalar port within the tolerance the tests use ([`tol`], the
//! harness's `TOL_SCALAR` of `tests/common/routines.rs` and
//! `tests/common/streams.rs`), on every element whose inputs are in the
//! domain where that tolerance holds (unit quaternions, rigid matrices,
//! finite translations: see [`unit_quat`], [`rigid`]); elsewhere (NaN,
//! infinities, huge or non-unit values) only the common checks apply. One
//! input in two is *tame* ([`Gen::tame`]): all its quaternions unit and
//! matrices rigid, so that most lists reach those comparisons whole.
//!
//! Speed: lists are short ([`MAX_LEN`]: every tail of the 4- and 8-wide
//! forms, and the block boundaries up to 32), and nothing is allocated per
//! execution but what the routine under test allocates: inputs and outputs
//! live in fixed-capacity stack buffers ([`Buf`]), messages are built only
//! when a check fails (`format_args!`), and per-element facts (rigid, unit)
//! are computed once per input.

use animasm::{Error, Impl, JointMat, JointQuat, Quat};
use core::fmt::Arguments;

mod buf;
mod inputs;
mod routines;
mod vs_scalar;
pub use buf::*;
pub use inputs::*;
pub use routines::*;
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

/// Every form [`run_every_impl`] runs: [`Impl::ALL`], then [`Impl::Auto`].
pub const EVERY_IMPL: [Impl; 7] = {
    let a = Impl::ALL;
    [a[0], a[1], a[2], a[3], a[4], a[5], Impl::Auto]
};

/// What one implementation did: its result and its output.
pub struct Run<T: Copy + Default> {
    /// The implementation.
    pub imp: Impl,
    /// What the safe function returned.
    pub result: Result<(), Error>,
    /// The output buffer after the call.
    pub out: Buf<T>,
}

/// The runs of every form of [`EVERY_IMPL`], in that order: filled in place
/// by [`run_every_impl`] (moving seven output buffers costs more than the
/// kernels under AddressSanitizer), derefs to the slice of runs.
pub struct Runs<T: Copy + Default>([Run<T>; 7]);

impl<T: Copy + Default> Runs<T> {
    /// Runs with empty outputs, to be filled by [`run_every_impl`].
    pub fn new() -> Self {
        Runs(EVERY_IMPL.map(|imp| Run { imp, result: Ok(()), out: Buf::new() }))
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
        &self.0
    }
}

/// A routine's `forms()`, collected without allocating.
pub type Forms = Buf<Impl, 8>;

/// Collects `forms` (a routine's `forms()`).
pub fn forms(forms: impl Iterator<Item = Impl>) -> Forms {
    let mut b = Forms::new();
    for f in forms {
        b.push(f);
    }
    b
}

/// Runs `f` with every form of [`EVERY_IMPL`], each on its own copy of
/// `init` (in `runs`, stack buffers of exactly its length), and checks the
/// common guarantees (see the crate docs). `forms` is the routine's
/// `forms()`: what runs here, fastest first. Returns the runs, in
/// [`EVERY_IMPL`] order, for the target's own checks.
pub fn run_every_impl<'r, T: Floats>(
    runs: &'r mut Runs<T>,
    forms: &[Impl],
    init: &[T],
    mut f: impl FnMut(Impl, &mut [T]) -> Result<(), Error>,
) -> &'r Runs<T> {
    assert!(!forms.is_empty(), "a routine with no form");
    for (r, imp) in runs.0.iter_mut().zip(EVERY_IMPL) {
        r.imp = imp;
        r.out.set(init);
        r.result = f(imp, &mut r.out);
    }
    let runs = &*runs;
    let runs_here = |r: &Run<T>| r.imp == Impl::Auto || forms.contains(&r.imp);
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
    // `get` returns only runs that returned `Ok`.
    if let (Some(a), Some(i)) = (get(runs, Impl::Asm), get(runs, Impl::Intrinsics)) {
        assert_same(&a.out, &i.out, format_args!("asm vs intrinsics"));
    }
    if let (Some(auto), Some(first)) = (get(runs, Impl::Auto), get(runs, forms[0])) {
        assert_same(&auto.out, &first.out, format_args!("auto vs {}", forms[0]));
    }
    runs
}

/// The run of `imp`, if it returned `Ok` (a form that cannot run here never
/// does: [`run_every_impl`] checks it).
pub fn get<T: Copy + Default>(runs: &[Run<T>], imp: Impl) -> Option<&Run<T>> {
    runs.iter().find(|r| r.imp == imp && r.result.is_ok())
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
