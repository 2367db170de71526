//! `Shape::QuatPairs`: element-wise slerp of two quaternion arrays by one
//! factor (the Intel AVX slerp: `slerp_quats_as_published`,
//! `slerp_quats_corrected`), in every form on arbitrary lengths, factors
//! and floats, in storage aligned for every form
//! ([`FormInfo::align`](animasm::roster::FormInfo::align)).
//!
//! Checks ([`run_every_impl`]): no crash or panic; a form not in `forms()`
//! is refused; every form that runs returns the same `Ok` or `Err`; on
//! `Err` nothing written; on `Ok` the forms of one listing the same bits
//! (NaN payloads aside) and `auto` the bits of the first form; the endpoint
//! rule with every form (`factor <= 0` gives `from`, `factor >= 1` gives
//! `to`, bit for bit); every form against the scalar form within
//! [`tol`] on unit pairs whose dot product is not within 1e-5 of zero, for
//! a factor in `(0, 1)`. Then the same call with some of the three arrays
//! 16 bytes off a 64-byte boundary (which ones: from the input): with
//! [`VECTOR_LOOP`] or more quaternions a form that needs more than 16-byte
//! alignment returns `Misaligned` naming the first such array (nothing
//! written), the others return what they returned aligned, and `auto`
//! still runs and writes what the fastest form the arrays allow writes.

use crate::*;
use animasm::roster::{Routine, Shape};

/// The tolerance against the scalar form: the tests' `TOL_SCALAR`, 1e-6,
/// but for the routines that keep the published listing's errata (E1-E3 of
/// `slerp_quats_as_published`, `asm_notes/slerp_quats.md`): 1e-2.
pub fn tol(r: &Routine) -> f64 {
    match r.name {
        "slerp_quats_as_published" => 1e-2,
        _ => 1e-6,
    }
}

/// The length from which the safe functions check the arrays' alignment
/// (the AVX listing's vector loop, sixteen quaternions; shorter arrays need
/// `Quat`'s alignment only).
pub const VECTOR_LOOP: usize = 16;

/// The alignment of [`Aligned`]: at least every form's
/// ([`FormInfo::align`](animasm::roster::FormInfo::align), checked).
const ALIGN: usize = 64;

/// Quaternions stored from an [`ALIGN`]-byte boundary (`[1..]` starts 16
/// bytes off).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Aligned([Quat; CAP]);

const _: () = assert!(align_of::<Aligned>() == ALIGN && size_of::<Quat>() == 16);

impl Aligned {
    /// A copy of `q` from the boundary, or (`off`) 16 bytes off it.
    fn placed(q: &[Quat], off: bool) -> Self {
        let mut a = Aligned([Quat::default(); CAP]);
        let o = usize::from(off);
        a.0[o..o + q.len()].copy_from_slice(q);
        a
    }
    /// The `len` quaternions placed with `off`.
    fn at(&self, off: bool, len: usize) -> &[Quat] {
        &self.0[usize::from(off)..usize::from(off) + len]
    }
}

/// Fuzzes the slerp `r` on arguments from `g`.
pub fn fuzz(r: &'static Routine, g: &mut Gen) {
    let n = g.length();
    let from_all = Aligned::placed(&g.quats(n), false);
    let to_len = g.len_near(n);
    let to_all = Aligned::placed(&g.quats(to_len), false);
    let factor = g.lerp();
    let init = Aligned::placed(&g.quats(n), false);
    // Which of `result`, `from`, `to` start 16 bytes off (at least one):
    // copies of the same values there.
    let off = 1 + g.byte() % 7;
    let off = [off & 1 != 0, off & 2 != 0, off & 4 != 0];
    let (from, to) = (from_all.at(false, n), to_all.at(false, to_len));
    let (mfrom_all, mto_all, minit) =
        (Aligned::placed(from, off[1]), Aligned::placed(to, off[2]), Aligned::placed(&init.0[..n], off[0]));
    let (mfrom, mto) = (mfrom_all.at(off[1], n), mto_all.at(off[2], to_len));
    let pair = |k: usize| (factor > 0.0 && factor < 1.0).then_some((from[k], to[k]));
    with_family(r, |m, runs| {
        let Shape::QuatPairs { safe, .. } = m.shape else { unreachable!("a variant of another shape") };
        let name = m.name;
        let forms = Forms::of(m);
        assert!(forms.iter().all(|f| ALIGN.is_multiple_of(f.align)), "{name}: a form needs more than {ALIGN} bytes");
        // The forms whose alignment 16 bytes off the boundary does not meet.
        let needs_more = |imp: Impl| forms.info(imp).is_some_and(|f| f.align > 16);
        // Aligned: every array starts at the boundary (each call runs on an
        // aligned copy of the run's buffer and copies the result back).
        let runs = run_every_impl(runs, &forms, &init.0[..n], |imp, out| {
            let mut aligned = init;
            let r = safe(imp, &mut aligned.0[..n], from, to, factor);
            out.copy_from_slice(&aligned.0[..n]);
            r
        });
        if runs.result().is_ok() {
            for run in runs.iter().filter(|run| run.result.is_ok()) {
                if factor <= 0.0 {
                    assert_same(from, &run.out, format_args!("{name} {}: factor {factor:e}: from", run.imp));
                } else if factor >= 1.0 {
                    assert_same(to, &run.out, format_args!("{name} {}: factor {factor:e}: to", run.imp));
                }
            }
            quats_vs_scalar(runs, tol(m), pair, format_args!("{name} (factor {factor:e})"));
        }
        // Misaligned: the arrays `off` says 16 bytes off the boundary.
        let first_off = ["result", "from", "to"][off.iter().position(|&o| o).unwrap_or(0)];
        let mut outs = [(Impl::Auto, Ok(()), minit); RUNS];
        let o = usize::from(off[0]);
        for (k, imp) in EVERY_IMPL.into_iter().enumerate() {
            let mut out_all = minit;
            let r = safe(imp, &mut out_all.0[o..o + n], mfrom, mto, factor);
            if r.is_err() {
                assert_untouched(&minit.0, &out_all.0, format_args!("{name} {imp} misaligned {off:?}: after {r:?}"));
            }
            let before = runs[k].result;
            match r {
                Err(Error::Misaligned { what, needed, .. }) => assert!(
                    n >= VECTOR_LOOP
                        && needs_more(imp)
                        && before.is_ok()
                        && forms.info(imp).is_some_and(|f| f.align == needed)
                        && what == first_off,
                    "{name} {imp} misaligned {off:?}, {n} quaternions: {r:?}, aligned {before:?}"
                ),
                _ => assert!(
                    same_result(&r, &before),
                    "{name} {imp} misaligned {off:?}, {n} quaternions: {r:?}, aligned {before:?}"
                ),
            }
            if r.is_ok() && imp != Impl::Auto {
                // Where a form runs, the arrays' alignment changes nothing.
                let want = &get(runs, imp).expect("Ok aligned").out;
                assert_same(want, &out_all.0[o..o + n], format_args!("{name} {imp}: misaligned vs aligned"));
            }
            outs[k] = (imp, r, out_all);
        }
        let picked = if n >= VECTOR_LOOP {
            forms.iter().map(|f| f.imp).find(|&i| !needs_more(i))
        } else {
            Some(forms.first().imp)
        };
        let ok = |imp: Impl| outs.iter().find(|(i, r, _)| *i == imp && r.is_ok()).map(|(_, _, o)| o);
        if let (Some(picked), Some(auto)) = (picked, ok(Impl::Auto))
            && let Some(want) = ok(picked)
        {
            assert_same(&want.0, &auto.0, format_args!("{name} misaligned {off:?}: auto vs {picked}"));
        }
    });
}
