//! The pieces of the cross-routine tests (`tests/disasm.rs`,
//! `tests/properties.rs`, `tests/properties_streams.rs`) that iterate
//! `animasm::roster`, and the checks of those tests that belong to one
//! routine.
//!
//! A cross-routine test runs, for every routine of a [`Shape`], every form
//! the routine's table lists, and checks what holds for every routine of
//! that shape: the listing's two forms ([`Origin::Listing`] and
//! [`Origin::ListingTwin`]) bit for bit, every form against the routine's
//! scalar form, what the routine must leave as it was. A new form, or a new
//! routine of an existing shape, is checked with no edit there.
//!
//! What differs between routines of one shape (the f64 oracle, its bound,
//! a listing's erratum, a listing's instruction counts) is a function here
//! that the routine's own test file (`tests/<routine>.rs`) calls with the
//! routine's name and, where it is a number or a function, the value:
//! [`joint_blend::against_oracle`], [`skeleton::transform_property`],
//! [`skeleton::untransform_property`], [`quat_pairs::against_f64`],
//! [`stream::against_f64`], [`listing::assert_counts`]. Each property runs
//! on the same strategy, with the same fixed-seed configuration
//! ([`super::strategies::config`]), as the shape's property of the
//! cross-routine test: both draw the same inputs.

pub mod joint_blend;
pub mod listing;
pub mod quat_pairs;
pub mod skeleton;
pub mod stream;

use core::fmt::Debug;

use animasm::roster::{self, FormInfo, Routine, Shape};
use animasm::{Error, Impl, JointMat, Origin};
use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestRunner};

use super::exact::exact_vec;
use super::oracle::{affine_mul_f64, mat_f64};

/// Cases per property of the joint-list and matrix shapes natively (each a
/// list of up to 300 joints run by every form) and under Miri (the stream
/// shapes have their own: [`stream::CASES`]).
pub const CASES: u32 = 4000;
pub const MIRI_CASES: u32 = 3;

/// The routine `name` of the roster.
#[track_caller]
pub fn routine(name: &str) -> &'static Routine {
    roster::find(name).unwrap_or_else(|| panic!("no routine {name:?} in animasm::roster"))
}

/// The routines whose [`Shape`] `is` accepts, in the roster's order.
pub fn of_shape(is: fn(&Shape) -> bool) -> impl Iterator<Item = &'static Routine> {
    roster::ROUTINES.iter().filter(move |r| is(&r.shape))
}

/// Every form's output: the form, and what it wrote.
pub type Outs<T> = Vec<(FormInfo, Vec<T>)>;

/// Runs `f` with every form of `r` that this CPU runs (fastest first), each
/// on a copy of `init` in an allocation of exactly its length (its last
/// element ends the allocation: valgrind reports an access one past it);
/// every form with its output. Panics on `Err`.
pub fn each_form<T: Clone>(r: &Routine, init: &[T], mut f: impl FnMut(Impl, &mut [T]) -> Result<(), Error>) -> Outs<T> {
    r.forms()
        .map(|form| {
            let mut out = exact_vec(init);
            f(form.imp, &mut out).unwrap_or_else(|e| panic!("{} {}: unexpected error: {e}", r.name, form.imp));
            (form, out)
        })
        .collect()
}

/// The output of the form `imp`, if it ran.
pub fn output<T>(outs: &[(FormInfo, Vec<T>)], imp: Impl) -> Option<&[T]> {
    outs.iter().find(|(f, _)| f.imp == imp).map(|(_, v)| v.as_slice())
}

/// The output of the form of origin `origin`, if one ran.
pub fn output_of_origin<T>(outs: &[(FormInfo, Vec<T>)], origin: Origin) -> Option<&[T]> {
    outs.iter().find(|(f, _)| f.origin == origin).map(|(_, v)| v.as_slice())
}

/// The outputs of the listing ([`Origin::Listing`], the asm port) and of
/// its intrinsics twin ([`Origin::ListingTwin`]), where both ran: they must
/// agree bit for bit.
pub fn twins<T>(outs: &[(FormInfo, Vec<T>)]) -> Option<(&[T], &[T])> {
    Some((output_of_origin(outs, Origin::Listing)?, output_of_origin(outs, Origin::ListingTwin)?))
}

/// The output of `r`'s scalar form (every routine has one, and it always
/// runs).
#[track_caller]
pub fn scalar<'a, T>(r: &Routine, outs: &'a [(FormInfo, Vec<T>)]) -> &'a [T] {
    output(outs, r.scalar_form().imp).unwrap_or_else(|| panic!("{}: the scalar form did not run", r.name))
}

/// Runs `check` on the cases of `strategy` as `proptest!` would: with
/// `config` (from [`super::strategies::config`]: a fixed seed), a failing
/// case shrunk and, natively, saved next to the calling test file
/// (`tests/<routine>.proptest-regressions`).
#[track_caller]
pub fn property<S>(test: &'static str, mut config: Config, strategy: S, check: impl Fn(S::Value))
where
    S: Strategy,
    S::Value: Debug,
{
    config.source_file = Some(core::panic::Location::caller().file());
    config.test_name = Some(test);
    let mut runner = TestRunner::new(config);
    if let Err(e) = runner.run(&strategy, |v| {
        check(v);
        Ok(())
    }) {
        panic!("{test}: {e}\n{runner}");
    }
}

/// Unit roundoff of f32.
pub const U: f64 = f32::EPSILON as f64 / 2.0;

/// Asserts `got` is within `k` roundings of `want` = `a * b` (3x4 affine,
/// computed in f64): element by element, `|got - want| <= k u scale`, where
/// `scale` is the sum of the magnitudes of the terms.
#[track_caller]
pub fn assert_affine_product(got: &JointMat, a: &JointMat, b: &JointMat, k: f64, ctx: &str) {
    let want = affine_mul_f64(mat_f64(a), mat_f64(b));
    for (e, &exact) in want.iter().enumerate() {
        let (r, c) = (e / 4, e % 4);
        let mut scale: f64 = (0..3).map(|i| (f64::from(a.mat[r * 4 + i]) * f64::from(b.mat[i * 4 + c])).abs()).sum();
        if c == 3 {
            scale += f64::from(a.mat[r * 4 + 3]).abs();
        }
        let err = (f64::from(got.mat[e]) - exact).abs();
        let bound = k * U * scale * (1.0 + 1e-6);
        assert!(err <= bound, "{ctx}: mat[{r}*4+{c}] = {:e}, exact {exact:e}: error {err:e} > {bound:e}", got.mat[e]);
    }
}
