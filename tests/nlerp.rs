//! zeux's nlerp family (*Optimizing slerp*; `asm_notes/nlerp.md`): every
//! width of `nlerp`, `fnlerp` and `onlerp` against a per-lane model of the
//! article's SIMD recipe (bit for bit), against the scalar functions and
//! against the f64 slerp (measured, asserted bounds), the article's accuracy
//! figures on a fine grid, every count 0..=40 and 1024, edge cases, the Fox
//! animation tracks, the errata (named as in `asm_notes/nlerp.md`) and the
//! safe functions' errors.
//!
//! The lane model ([`model`]) computes one element with the x86 SIMD
//! kernels' operations in their order (the `(xx + yy) + (zz + ww)` dot
//! product, the sign-bit double cover, `rsqrtss` and one Newton-Raphson step,
//! `f32::mul_add` for the FMA forms). The x86 SIMD kernels must equal it bit
//! for bit (any two NaNs counting as equal), lane by lane, on the same CPU;
//! nothing compares against stored `rsqrt` values. The NEON kernels
//! (`aarch64`, run under qemu here) must equal the scalar functions bit for
//! bit (`neon_forms_equal_the_scalar_port_bit_for_bit`).

mod common;

use animasm::nlerp::scalar;
use animasm::{Error, Impl, Quat};
use animasm_testkit::cases::dot_grid;
use animasm_testkit::edges::stream_elements;
use common::error::{either_arc, max_abs_diff, quat_diff_up_to_sign, rotation_angle};
use common::harness::{Floats, Routine, SENTINEL};
use common::inputs::{Rng, streams};
use common::measure::nlerp::{
    AngleErrors, FUNCS, Func, Raw, angle_error_table, dot64, f64q, func_f64, max_angle_error, run, widths,
};
// Only the x86 lane model's `rsqrt_without_newton_raphson` uses these.
#[cfg(target_arch = "x86_64")]
use common::measure::nlerp::{GRID, angle_error};
use common::oracle::{f64x4, nlerp_with_f64, normalize_f64, slerp_f64};
use common::same_bits;
use common::shapes::{self, StreamIn};

/// `nlerp` in the generic harness (`tests/common/harness.rs`): every form
/// within 5e-7 of the scalar function and of the f64 nlerp.
struct Nlerp;

impl Routine for Nlerp {
    const NAME: &'static str = "nlerp";
    type Shape = shapes::Stream;
    const TOL_SCALAR: f64 = 5e-7;
    const TOL_ORACLE: f64 = 5e-7;
    fn oracle_error(out: &[Quat], _: &[Quat], i: &StreamIn) -> f64 {
        shapes::stream::oracle_error(out, i, |l, r, t| func_f64(Func::Nlerp, l, r, t))
    }
}

/// `fnlerp` in the generic harness: every form within 5e-7 of the scalar
/// function and of the f64 fnlerp.
struct Fnlerp;

impl Routine for Fnlerp {
    const NAME: &'static str = "fnlerp";
    type Shape = shapes::Stream;
    const TOL_SCALAR: f64 = 5e-7;
    const TOL_ORACLE: f64 = 5e-7;
    fn oracle_error(out: &[Quat], _: &[Quat], i: &StreamIn) -> f64 {
        shapes::stream::oracle_error(out, i, |l, r, t| func_f64(Func::Fnlerp, l, r, t))
    }
}

/// `onlerp` in the generic harness: every form within 5e-7 of the scalar
/// function and of the f64 onlerp.
struct Onlerp;

impl Routine for Onlerp {
    const NAME: &'static str = "onlerp";
    type Shape = shapes::Stream;
    const TOL_SCALAR: f64 = 5e-7;
    const TOL_ORACLE: f64 = 5e-7;
    fn oracle_error(out: &[Quat], _: &[Quat], i: &StreamIn) -> f64 {
        shapes::stream::oracle_error(out, i, |l, r, t| func_f64(Func::Onlerp, l, r, t))
    }
}

/// `slerp_stream` in the generic harness: its one form is the scalar
/// function, within 1e-6 of the f64 slerp.
struct SlerpStream;

impl Routine for SlerpStream {
    const NAME: &'static str = "slerp_stream";
    type Shape = shapes::Stream;
    const TOL_SCALAR: f64 = 0.0;
    const TOL_ORACLE: f64 = 1e-6;
    fn oracle_error(out: &[Quat], _: &[Quat], i: &StreamIn) -> f64 {
        shapes::stream::oracle_error(out, i, |l, r, t| {
            slerp_f64(f64x4(l.to_array()), f64x4(r.to_array()), f64::from(t))
        })
    }
}

harness_tests!(Nlerp, interpolator);

/// The harness checks of `fnlerp`.
mod fnlerp {
    use super::*;
    harness_tests!(Fnlerp, interpolator);
}

/// The harness checks of `onlerp`.
mod onlerp {
    use super::*;
    harness_tests!(Onlerp, interpolator);
}

/// The harness checks of `slerp_stream` (the article's scalar reference).
mod slerp_stream {
    use super::*;
    harness_tests!(SlerpStream, interpolator);
}

/// The SIMD widths this CPU runs.
fn simd_widths() -> impl Iterator<Item = Impl> {
    widths().filter(|&w| w != Impl::Scalar)
}

/// A quaternion of the one sentinel of the tests (`common::harness::SENTINEL`,
/// a bit pattern no kernel writes for the inputs used with it).
fn sentinel() -> Quat {
    Quat::sentinel()
}

/// Runs a raw kernel into a sentinel-filled buffer with `extra` more
/// elements, checks those are untouched, and returns the first `r.len()`.
fn run_raw(k: Raw, l: &Quat, r: &[Quat], t: &[f32], extra: usize, ctx: &str) -> Vec<Quat> {
    assert_eq!(r.len(), t.len());
    let n = r.len();
    let mut out = vec![sentinel(); n + extra];
    // SAFETY: `out` has room for `n` (+ `extra`) quaternions, `r` and `t`
    // hold `n` elements each, distinct allocations; the caller passes a kernel
    // whose width `is_available()` here.
    unsafe { k(out.as_mut_ptr(), l, r.as_ptr(), t.as_ptr(), n) };
    for (i, q) in out[n..].iter().enumerate() {
        assert!(
            q.to_array().iter().all(|v| v.to_bits() == SENTINEL),
            "{ctx}: element {} past the end was written",
            n + i
        );
    }
    out.truncate(n);
    out
}

fn quat_same_bits(a: &Quat, b: &Quat) -> bool {
    a.to_array().iter().zip(b.to_array()).all(|(&x, y)| same_bits(x, y))
}

#[track_caller]
fn assert_quats_identical(a: &[Quat], b: &[Quat], ctx: &str) {
    assert_eq!(a.len(), b.len(), "{ctx}: lengths differ");
    if let Some(i) = (0..a.len()).find(|&i| !quat_same_bits(&a[i], &b[i])) {
        let count = (0..a.len()).filter(|&i| !quat_same_bits(&a[i], &b[i])).count();
        panic!(
            "{ctx}: element {i} differs: {:?} ({:08x?}) vs {:?} ({:08x?}); {count} of {} differ",
            a[i],
            a[i].to_array().map(f32::to_bits),
            b[i],
            b[i].to_array().map(f32::to_bits),
            a.len()
        );
    }
}

/// The largest component difference of `q` from the f64 slerp of `l`, `r`,
/// `t` (the nearer of `±slerp`, the same rotation), with [`angle_error`]'s
/// treatment of `|dot(l, r)| < 1e-6`.
fn component_error(q: &Quat, l: &Quat, r: &Quat, t: f32) -> f64 {
    let q = f64q(q);
    either_arc(f64q(l), f64q(r), f64::from(t), 1e-6, |p| quat_diff_up_to_sign(q, p))
}

/// The largest absolute component difference (`error::max_abs_diff`).
fn max_diff(a: &Quat, b: &Quat) -> f64 {
    max_abs_diff(a.to_array(), f64x4(b.to_array()))
}

/// A per-lane model of the SIMD kernels (module docs; `tests/common/nlerp_model.rs`).
#[cfg(target_arch = "x86_64")]
use common::nlerp_model as model;

/// Whether a width computes the scalar functions' roundings: the scalar
/// width, and every width off x86 (`src/nlerp/neon.rs`, `src/nlerp/simd128.rs`:
/// the article's recipe with the scalar order and the correctly rounded
/// `1 / sqrt`), as the roster gives their instruction sets.
fn scalar_bits(w: Impl) -> bool {
    w == Impl::Scalar
        || animasm::roster::find("nlerp").unwrap().all_forms().any(|f| f.imp == w && f.isa.arch() != Some("x86_64"))
}

/// What a width must compute for one element: the lane model for the x86
/// SIMD widths, the scalar function for the scalar and NEON widths.
fn expected(f: Func, w: Impl, l: &Quat, r: &Quat, t: f32) -> Quat {
    #[cfg(target_arch = "x86_64")]
    if let Some(o) = model::opts(w) {
        return model::lane(f, o, *l, *r, t);
    }
    assert!(scalar_bits(w), "{w}: no model");
    f.scalar()(*l, *r, t)
}

/// The endpoint rule of the safe functions (contract change; the raw
/// kernels keep the article's extrapolation): `t <= 0` gives `l`, `t >= 1`
/// gives `r`, exactly; otherwise `v`, what the kernel computes.
fn endpoint_rule(l: &Quat, r: &Quat, t: f32, v: Quat) -> Quat {
    if t <= 0.0 {
        *l
    } else if t >= 1.0 {
        *r
    } else {
        v
    }
}

/// What the safe function with form `w` gives for one element: [`expected`]
/// under the [`endpoint_rule`].
fn safe_expected(f: Func, w: Impl, l: &Quat, r: &Quat, t: f32) -> Quat {
    endpoint_rule(l, r, t, expected(f, w, l, r, t))
}

// ------------------------------------------------------------ every count ---

/// Every width on every count 0..=40 and 1024 (every remainder of both block
/// sizes), through the raw kernels with guard elements: exactly `size`
/// elements written, each the lane model's (SIMD) or the scalar function's
/// value, bit for bit.
#[test]
fn every_count_writes_exactly_size_elements_of_the_model() {
    let mut rng = Rng::new(0x6e6c_6572);
    for n in (0..=40).chain([1024]) {
        let (l, r, t) = streams(&mut rng, n);
        for f in FUNCS {
            for w in widths() {
                let ctx = format!("{} {w} n={n}", f.name());
                let out = run_raw(f.raw(w), &l, &r, &t, 9, &ctx);
                let want: Vec<Quat> = (0..n).map(|i| expected(f, w, &l, &r[i], t[i])).collect();
                assert_quats_identical(&out, &want, &ctx);
                // The safe function runs the same kernel, under the endpoint rule.
                let want: Vec<Quat> = (0..n).map(|i| safe_expected(f, w, &l, &r[i], t[i])).collect();
                assert_quats_identical(&run(f, w, &l, &r, &t), &want, &ctx);
            }
        }
    }
}

/// The article's option 2 without side effects: an element's result depends
/// neither on its position nor on the count (a scalar tail, option 1, would
/// round the last `size % 4` elements differently).
#[test]
fn results_do_not_depend_on_position_or_count() {
    let mut rng = Rng::new(17);
    let (l, r, t) = streams(&mut rng, 19);
    for f in FUNCS {
        for w in widths() {
            let alone: Vec<Quat> = (0..19).map(|i| run(f, w, &l, &r[i..=i], &t[i..=i])[0]).collect();
            for n in 1..=19 {
                for start in [0, 19 - n] {
                    let out = run(f, w, &l, &r[start..start + n], &t[start..start + n]);
                    assert_quats_identical(&out, &alone[start..start + n], &format!("{} {w} {start}+{n}", f.name()));
                }
            }
        }
    }
}

/// `dest == r`: each block reads its `r` before writing `dest`, the padded
/// tail is copied out first.
#[test]
fn raw_kernels_run_in_place() {
    let mut rng = Rng::new(99);
    for n in [1, 3, 4, 7, 8, 13, 33] {
        let (l, r, t) = streams(&mut rng, n);
        for f in FUNCS {
            for w in widths() {
                // Against the raw kernel out of place (the safe function
                // applies the endpoint rule, which the raw kernels do not).
                let want = run_raw(f.raw(w), &l, &r, &t, 0, "out of place");
                let mut inout = r.clone();
                // SAFETY: `inout` and `t` hold `n` elements; `dest == r` is
                // allowed; the width is available.
                unsafe { f.raw(w)(inout.as_mut_ptr(), &l, inout.as_ptr(), t.as_ptr(), n) };
                assert_quats_identical(&inout, &want, &format!("{} {w} in place n={n}", f.name()));
            }
        }
    }
}

/// The scalar `run` loops left to the compiler (`scalar::autovec_*`, which
/// LLVM vectorizes with `sqrtps`/`divps` on `x86_64`) give the scalar loops'
/// bits: the vectorizer only widens correctly rounded operations.
#[test]
fn autovectorized_scalar_loops_equal_the_scalar_ones() {
    let mut rng = Rng::new(0xa7);
    let pairs: [(Func, Raw); 3] = [
        (Func::Nlerp, scalar::autovec_nlerp),
        (Func::Fnlerp, scalar::autovec_fnlerp),
        (Func::Onlerp, scalar::autovec_onlerp),
    ];
    for n in (0..=40).chain([1024]) {
        let (l, mut r, mut t) = streams(&mut rng, n);
        let specials = stream_elements(l);
        for i in 0..n {
            if i % 3 == 0 {
                (r[i], t[i]) = specials[i % specials.len()];
            }
        }
        for (f, k) in pairs {
            let ctx = format!("{} autovec n={n}", f.name());
            let want = run_raw(f.raw(Impl::Scalar), &l, &r, &t, 0, &ctx);
            assert_quats_identical(&run_raw(k, &l, &r, &t, 3, &ctx), &want, &ctx);
        }
    }
}

// ------------------------------------------------------ against the scalar ---

/// Largest component difference between a SIMD width and the scalar
/// function on unit quaternions: the dot product's grouping (a few ulp of
/// `ca`), `rsqrt` + one Newton-Raphson step (at most 2.0e-7 relative, see
/// [`ROUNDING`]) against `1 / sqrt` and, for FMA, the fused roundings
/// (measured: 3.0e-7 here). Away from `ca = ±0` (erratum E2) the arcs agree.
const SIMD_VS_SCALAR: f64 = 5e-7;

#[test]
fn every_width_against_the_scalar_function() {
    let mut rng = Rng::new(0x5ca1a4);
    let (l, r, t) = streams(&mut rng, 1 << 16);
    for f in FUNCS {
        let want: Vec<Quat> = (0..r.len()).map(|i| endpoint_rule(&l, &r[i], t[i], f.scalar()(l, r[i], t[i]))).collect();
        for w in simd_widths() {
            let out = run(f, w, &l, &r, &t);
            let worst = (0..r.len()).map(|i| max_diff(&out[i], &want[i])).fold(0.0, f64::max);
            eprintln!("{} {w} vs scalar: max component difference {worst:.3e}", f.name());
            assert!(worst <= SIMD_VS_SCALAR, "{} {w}: {worst:e} > {SIMD_VS_SCALAR:e}", f.name());
        }
    }
}

/// The rounding of each width alone: the largest and the root-mean-square
/// component difference from the same function evaluated in f64
/// ([`func_f64`]), away from `ca = ±0`.
fn rounding_errors(f: Func) -> Vec<(Impl, f64, f64)> {
    let mut rng = Rng::new(0xf00d);
    let (l, r, t) = streams(&mut rng, 1 << 16);
    // Under the endpoint rule the safe functions return `l` or `r` exactly
    // for `t` outside `(0, 1)`.
    let want: Vec<[f64; 4]> = (0..r.len())
        .map(|i| {
            if t[i] > 0.0 && t[i] < 1.0 {
                func_f64(f, &l, &r[i], t[i])
            } else {
                f64q(&endpoint_rule(&l, &r[i], t[i], l))
            }
        })
        .collect();
    widths()
        .map(|w| {
            let out = run(f, w, &l, &r, &t);
            let (mut worst, mut sum, mut n) = (0f64, 0f64, 0usize);
            for i in (0..r.len()).filter(|&i| dot64(f64q(&l), f64q(&r[i])).abs() > 1e-6) {
                for (&got, &exact) in out[i].to_array().iter().zip(&want[i]) {
                    let e = (f64::from(got) - exact).abs();
                    worst = worst.max(e);
                    sum += e * e;
                    n += 1;
                }
            }
            (w, worst, (sum / n as f64).sqrt())
        })
        .collect()
}

/// Every width is within [`ROUNDING`] of its function evaluated in f64
/// (component-wise, unit inputs rounded to f32, `t` in `[-0.5, 1.5)`):
/// `rsqrtps` is within 1.5 * 2^-12 relative (Intel's and AMD's documented
/// bound), one Newton-Raphson step leaves at most 1.5 * that squared = 2.0e-7
/// relative, and about four roundings of components below 1 add the rest
/// (measured: 2.5e-7 here). The AVX-512 forms' `vrsqrt14ps` is within 2^-14
/// relative (documented for every AVX-512 CPU), so after the step at most
/// 1.5 * 2^-28 = 5.6e-9 relative: their margin is wider than the AVX2 forms'
/// (about four roundings, 2.4e-7, against the 5e-7 bound).
const ROUNDING: f64 = 5e-7;

#[test]
fn fma_changes_the_rounding_error_only_slightly() {
    for f in FUNCS {
        let errs = rounding_errors(f);
        for &(w, max, rms) in &errs {
            eprintln!("{} {w}: component error against the f64 {}: max {max:.3e}, rms {rms:.3e}", f.name(), f.name());
            assert!(max <= ROUNDING, "{} {w}: {max:e}", f.name());
        }
        // The article: "using FMA reduces the error slightly". Measured on
        // rounding alone: the FMA form's rms error is below the plain
        // 8-wide form's, its maximum within 25% either way (asm_notes/nlerp.md
        // gives the figures; the approximation error dwarfs both).
        let get = |w| errs.iter().find(|e| e.0 == w).map(|e| (e.1, e.2));
        if let (Some(plain), Some(fma)) = (get(Impl::Avx2NoFma), get(Impl::Avx2)) {
            assert!(fma.0 <= plain.0 * 1.25 && plain.0 <= fma.0 * 1.25, "{}: plain {plain:?}, fma {fma:?}", f.name());
            assert!(fma.1 < plain.1, "{}: rms plain {:e}, fma {:e}", f.name(), plain.1, fma.1);
        }
    }
}

// ------------------------------------------------- the published accuracy ---

/// The article's figures, measured: the approximation in f64 and every
/// width, on a 1001 x 1001 grid over `t` and `|dot|` (both signs of the dot
/// product). nlerp and onlerp reproduce the published figures to within one
/// unit of their third digit (onlerp up to 90°: 7.240e-5 for 7.23e-5);
/// fnlerp does not (erratum E4). Every width is within 2e-6 rad of
/// the f64 figure: the f32 rounding adds at most that.
#[test]
fn published_angle_errors() {
    // The measurement is shared with `devkit/examples/report/`
    // (`common::measure::nlerp::angle_error_table`).
    for AngleErrors { func: f, label, published, exact, widths } in angle_error_table() {
        eprintln!("{} {label}: published {published:.3e}, f64 {exact:.4e}", f.name());
        if f == Func::Fnlerp {
            assert!(exact > published * 1.2, "fnlerp {label}: {exact:e} now reproduces {published:e}");
        } else {
            // Within one unit of the third digit (0.2% at most here).
            assert!((exact / published - 1.0).abs() < 0.005, "{} {label}: {exact:e} vs {published:e}", f.name());
        }
        for (w, got) in widths {
            eprintln!("{} {label} {w}: {got:.4e}", f.name());
            assert!((got - exact).abs() <= 2e-6, "{} {label} {w}: {got:e} vs f64 {exact:e}", f.name());
        }
    }
}

/// Random unit pairs (generic `l`, every dot product): no width exceeds the
/// grid's maximum for its function by more than rounding.
#[test]
fn random_pairs_within_the_grid_maxima() {
    let mut rng = Rng::new(0xa11);
    let bound = [(Func::Nlerp, 0.1423), (Func::Fnlerp, 8.42e-3), (Func::Onlerp, 7.78e-4)];
    for _ in 0..8 {
        let (l, r, t) = streams(&mut rng, 1 << 13);
        let t: Vec<f32> = t.iter().map(|v| v.clamp(0.0, 1.0)).collect();
        for (f, b) in bound {
            for w in widths() {
                let got = max_angle_error(&run(f, w, &l, &r, &t), &l, &r, &t);
                assert!(got <= b, "{} {w}: {got:e} > {b:e}", f.name());
            }
        }
    }
}

/// The reference slerp (f32, `acos` and `sin`) against the f64 slerp: the
/// component error on unit inputs with `t` in `[0, 1]`, random pairs and
/// near-parallel pairs (angles down to 1e-5 rad, where `acos` of a float
/// near 1 keeps few digits of the angle; only the `O(a^2)` terms of the
/// weights depend on it, and the fallback takes over at `1 - |dot| <= 1e-6`).
/// The worst measured is printed; [`SLERP_VS_F64`] is twice it, rounded up.
const SLERP_VS_F64: f64 = 5e-7;

#[test]
fn reference_slerp_against_f64() {
    let mut rng = Rng::new(5);
    let (mut worst, mut worst_near): (f64, f64) = (0.0, 0.0);
    let mut dest = vec![Quat::default(); 4096];
    for round in 0..16 {
        let (l, mut r, t) = streams(&mut rng, 4096);
        let t: Vec<f32> = t.iter().map(|v| v.clamp(0.0, 1.0)).collect();
        let near = round % 2 == 1;
        if near {
            // r = l rotated by a small angle about a random axis (both signs).
            for (i, q) in r.iter_mut().enumerate() {
                let a = 10f64.powf(rng.range(-5.0, -1.0)) / 2.0;
                let axis = normalize_f64([rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), 0.0]);
                let [lx, ly, lz, lw] = f64q(&l);
                let [ax, ay, az] = [axis[0] * a.sin(), axis[1] * a.sin(), axis[2] * a.sin()];
                let aw = a.cos();
                let p = [
                    aw * lx + ax * lw + ay * lz - az * ly,
                    aw * ly - ax * lz + ay * lw + az * lx,
                    aw * lz + ax * ly - ay * lx + az * lw,
                    aw * lw - ax * lx - ay * ly - az * lz,
                ];
                let s = if i % 2 == 0 { 1.0 } else { -1.0 };
                *q = Quat::from_array(p.map(|v| (s * v) as f32));
            }
        }
        animasm::nlerp::slerp(Impl::Scalar, &mut dest, &l, &r, &t).unwrap();
        for i in 0..r.len() {
            assert!(quat_same_bits(&dest[i], &endpoint_rule(&l, &r[i], t[i], scalar::slerp(l, r[i], t[i]))));
            let e = component_error(&dest[i], &l, &r[i], t[i]);
            if near { worst_near = worst_near.max(e) } else { worst = worst.max(e) }
        }
    }
    eprintln!("reference slerp vs f64: random pairs {worst:.3e}, near-parallel pairs {worst_near:.3e}");
    assert!(worst.max(worst_near) <= SLERP_VS_F64, "{worst:e} {worst_near:e}");
}

/// The article: "if we use _mm_rsqrt_ps blindly, the error that we get from
/// our function increases ~4x". Measured with the lane model without the
/// Newton-Raphson step, as the maximum component error against the f64
/// slerp: 1.44x over the whole grid, 8.8x over rotations up to 90 degrees,
/// 1.07x on uniformly random pairs (printed; asserted only to grow). The
/// rotation-angle error, the article's own accuracy measure, does not change
/// at all: scaling a quaternion does not change its rotation. Against the
/// function itself (onlerp in f64) raw `rsqrt` is about 1400x worse. See
/// `asm_notes/nlerp.md`, "Claims checked".
#[cfg(target_arch = "x86_64")]
#[test]
fn rsqrt_without_newton_raphson() {
    let blind = model::Opts { fma: false, newton_raphson: false, rsqrt14: false };
    for (d0, label) in [(0.0, "all"), (core::f64::consts::FRAC_1_SQRT_2, "<= 90 deg")] {
        let (l, r, t) = dot_grid(d0, GRID);
        let (mut comp, mut comp_blind, mut ang, mut ang_blind) = (0f64, 0f64, 0f64, 0f64);
        for i in (0..r.len()).step_by(7) {
            let q = model::lane(Func::Onlerp, model::PLAIN, l, r[i], t[i]);
            let qb = model::lane(Func::Onlerp, blind, l, r[i], t[i]);
            comp = comp.max(component_error(&q, &l, &r[i], t[i]));
            comp_blind = comp_blind.max(component_error(&qb, &l, &r[i], t[i]));
            ang = ang.max(angle_error(&q, &l, &r[i], t[i]));
            ang_blind = ang_blind.max(angle_error(&qb, &l, &r[i], t[i]));
        }
        eprintln!(
            "onlerp {label}: component error {comp:.3e} with Newton-Raphson, {comp_blind:.3e} without ({:.2}x); \
             angle error {ang:.4e} vs {ang_blind:.4e}",
            comp_blind / comp
        );
        assert!(comp_blind > 1.2 * comp, "{label}: {comp_blind:e} vs {comp:e}");
        assert!((ang_blind - ang).abs() <= 1e-6, "{label}: {ang_blind:e} vs {ang:e}");
    }
    // Uniformly random unit pairs and t in [0, 1].
    let mut rng = Rng::new(44);
    let (l, r, t) = streams(&mut rng, 1 << 16);
    let (mut comp, mut comp_blind) = (0f64, 0f64);
    for i in 0..r.len() {
        let ti = t[i].clamp(0.0, 1.0);
        comp = comp.max(component_error(&model::lane(Func::Onlerp, model::PLAIN, l, r[i], ti), &l, &r[i], ti));
        comp_blind = comp_blind.max(component_error(&model::lane(Func::Onlerp, blind, l, r[i], ti), &l, &r[i], ti));
    }
    eprintln!(
        "onlerp random pairs: component error {comp:.3e} with, {comp_blind:.3e} without ({:.2}x)",
        comp_blind / comp
    );
    assert!(comp_blind > comp);
    // Against the function itself (onlerp in f64) instead of slerp.
    let (mut own, mut own_blind) = (0f64, 0f64);
    for i in 0..r.len() {
        let want = func_f64(Func::Onlerp, &l, &r[i], t[i]);
        let err = |q: Quat| (0..4).map(|c| (f64::from(q.to_array()[c]) - want[c]).abs()).fold(0.0, f64::max);
        if dot64(f64q(&l), f64q(&r[i])).abs() > 1e-6 {
            own = own.max(err(model::lane(Func::Onlerp, model::PLAIN, l, r[i], t[i])));
            own_blind = own_blind.max(err(model::lane(Func::Onlerp, blind, l, r[i], t[i])));
        }
    }
    eprintln!("onlerp against the f64 onlerp: {own:.3e} with, {own_blind:.3e} without ({:.0}x)", own_blind / own);
    assert!(own_blind > 100.0 * own && own <= ROUNDING);
}

// ------------------------------------------------------------ edge cases ---

/// Each special pair in every lane position of a block (the other lanes
/// ordinary), every width against its model: lanes are independent, and a
/// NaN or overflow in one lane stays there.
#[test]
fn special_values_in_every_lane() {
    let mut rng = Rng::new(3);
    for l in [Quat::IDENTITY, rng.unit_quat(), Quat::new(0.5, -0.5, 0.5, -0.5)] {
        for (sr, st) in stream_elements(l) {
            for lane in 0..8 {
                let (_, mut r, mut t) = streams(&mut rng, 8 + 3);
                r[lane] = sr;
                t[lane] = st;
                for f in FUNCS {
                    for w in widths() {
                        // Contract change: the safe functions refuse a
                        // non-finite `t` (nothing written); the raw kernels
                        // still take it, and lanes must stay independent.
                        let out = if st.is_finite() {
                            run(f, w, &l, &r, &t)
                        } else {
                            let mut dest = vec![sentinel(); r.len()];
                            let got = f.safe()(w, &mut dest, &l, &r, &t);
                            let want = Error::NonFiniteFactor { what: "t", position: Some(lane), value: st };
                            assert_eq!(format!("{got:?}"), format!("{:?}", Err::<(), _>(want)), "{} {w}", f.name());
                            assert!(dest.iter().all(|q| q.to_array().iter().all(|v| v.to_bits() == SENTINEL)));
                            run_raw(f.raw(w), &l, &r, &t, 0, "non-finite t")
                        };
                        let rule =
                            |i: usize| if st.is_finite() { safe_expected } else { expected }(f, w, &l, &r[i], t[i]);
                        let want: Vec<Quat> = (0..r.len()).map(rule).collect();
                        assert_quats_identical(&out, &want, &format!("{} {w} lane {lane} r={sr:?} t={st}", f.name()));
                        for i in (0..r.len()).filter(|&i| i != lane) {
                            assert!(
                                out[i].to_array().iter().all(|v| v.is_finite()),
                                "{} {w}: lane {i} polluted",
                                f.name()
                            );
                        }
                    }
                }
            }
        }
    }
}

/// The endpoints and the degenerate pairs: `t = 0` gives `l` and `t = 1`
/// gives `r`, exactly (contract change: the endpoint rule of the safe
/// functions; before, `t = 1` gave the shorter-arc `±r` and both were within
/// 4e-7), `r = ±l` gives `l` for every `t` in `(0, 1)` (within 4e-7 per
/// component, the rsqrt refinement's accuracy), and a non-unit `r` is
/// normalised away, in every width.
#[test]
fn endpoints_and_degenerate_pairs() {
    let mut rng = Rng::new(11);
    let close = |a: &Quat, b: &Quat| max_diff(a, b) <= 4e-7;
    let neg = |q: Quat| Quat::from_array(q.to_array().map(|v| -v));
    for _ in 0..64 {
        let (l, r, _) = streams(&mut rng, 1);
        let r = r[0];
        let r_short = if scalar::dot(&l, &r) > 0.0 { r } else { neg(r) };
        for f in FUNCS {
            for w in widths() {
                let ctx = format!("{} {w}", f.name());
                let q = run(f, w, &l, &[r, r, l, neg(l), l, neg(l)], &[0.0, 1.0, 0.3, 0.3, 1.0, 1.0]);
                assert!(quat_same_bits(&q[0], &l), "{ctx}: t = 0 gives {:?}, not {l:?}", q[0]);
                assert!(quat_same_bits(&q[1], &r), "{ctx}: t = 1 gives {:?}, not {r:?}", q[1]);
                assert!(close(&q[1], &r_short) || close(&neg(q[1]), &r_short), "{ctx}: t = 1: {:?}", q[1]);
                for (i, qi) in q.iter().enumerate().skip(2).take(2) {
                    assert!(close(qi, &l), "{ctx}: r = ±l gives {qi:?} at {i}");
                }
                assert!(quat_same_bits(&q[4], &l) && quat_same_bits(&q[5], &neg(l)), "{ctx}: t = 1 gives r");
                let big = Quat::from_array(r.to_array().map(|v| v * 1000.0));
                let unit = run(f, w, &l, &[big], &[0.4])[0];
                let n = dot64(f64q(&unit), f64q(&unit)).sqrt();
                assert!((n - 1.0).abs() <= 5e-7, "{ctx}: |q| = {n}");
            }
        }
    }
}

mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(animasm_testkit::strategies::config(256, 2))]

        /// Arbitrary bit patterns in `l`, `r` and `t`, every count up to 19,
        /// through the raw kernels: every x86 SIMD width equals its lane
        /// model, the scalar and NEON widths the scalar function, and
        /// nothing past `size` is written.
        #[test]
        fn every_width_on_arbitrary_bits(
            lb in any::<[u32; 4]>(),
            rb in proptest::collection::vec(any::<([u32; 4], u32)>(), 0..20),
        ) {
            let l = Quat::from_array(lb.map(f32::from_bits));
            let r: Vec<Quat> = rb.iter().map(|(q, _)| Quat::from_array(q.map(f32::from_bits))).collect();
            let t: Vec<f32> = rb.iter().map(|&(_, t)| f32::from_bits(t)).collect();
            for f in FUNCS {
                for w in widths() {
                    let ctx = format!("{} {w}", f.name());
                    let out = run_raw(f.raw(w), &l, &r, &t, 9, &ctx);
                    let want: Vec<Quat> = (0..r.len()).map(|i| expected(f, w, &l, &r[i], t[i])).collect();
                    assert_quats_identical(&out, &want, &ctx);
                }
            }
        }
    }
}

// --------------------------------------------------------------- Fox data ---

/// Every rotation track of `data/Fox.glb`: `l` = the first key, `r` = every
/// key, `t` on a ramp. Every width equals its model and stays within the
/// grid's error maxima against the f64 slerp.
#[test]
fn fox_rotation_tracks() {
    let tracks = common::fox::animation_rotation_tracks();
    assert!(!tracks.is_empty());
    let mut keys = 0;
    for track in &tracks {
        let r: Vec<Quat> = track.keys.iter().map(|&k| Quat::from_array(k)).collect();
        let l = r[0];
        let t: Vec<f32> = (0..r.len()).map(|i| (i % 11) as f32 / 10.0).collect();
        keys += r.len();
        for (f, bound) in [(Func::Nlerp, 0.1423), (Func::Fnlerp, 8.42e-3), (Func::Onlerp, 7.78e-4)] {
            for w in widths() {
                let out = run(f, w, &l, &r, &t);
                let want: Vec<Quat> = (0..r.len()).map(|i| safe_expected(f, w, &l, &r[i], t[i])).collect();
                assert_quats_identical(&out, &want, &format!("{} {w} {}", f.name(), track.animation));
                let err = max_angle_error(&out, &l, &r, &t);
                assert!(err <= bound, "{} {w} {}: {err:e}", f.name(), track.animation);
            }
        }
    }
    assert!(keys > 100, "only {keys} keys");
}

// ------------------------------------------------------------------ NEON ---

/// The NEON forms' claim (`src/nlerp/neon.rs`, `asm_notes/nlerp.md`,
/// "NEON"): every element is the scalar port's, bit for bit (any two NaNs
/// equal), through the raw kernels on every count 0..=67 with guard elements
/// and in place, through the safe functions, on random unit pairs (several
/// seeds), on the article's grid over `t` and `|dot|`, near-parallel and
/// exactly opposite pairs, `ca = ±0.0` (erratum E2: NEON compares `ca > 0`
/// as the scalar code does), non-unit, huge, tiny and subnormal
/// quaternions, the special values of every lane, and `t` outside `[0, 1]`;
/// and the scalar port's autovectorised loops agree too.
/// The same claim holds for the wasm SIMD128 forms (`src/nlerp/simd128.rs`),
/// which this test checks in the same way where they are built: every form
/// off x86 ([`scalar_bits`]) that this build runs.
#[test]
fn forms_off_x86_equal_the_scalar_port_bit_for_bit() {
    let forms: Vec<Impl> = animasm::nlerp::forms().filter(|&w| w != Impl::Scalar && scalar_bits(w)).collect();
    if forms.is_empty() {
        common::cpu::skipped("nlerp: no form off x86 (NEON, SIMD128) in this build");
        return;
    }
    let check = |f: Func, l: &Quat, r: &[Quat], t: &[f32], ctx: &str| {
        for &w in &forms {
            let ctx = format!("{} {w} {ctx} n={}", f.name(), r.len());
            let want = run_raw(f.raw(Impl::Scalar), l, r, t, 0, &ctx);
            assert_quats_identical(&run_raw(f.raw(w), l, r, t, 5, &ctx), &want, &ctx);
            let mut inout = r.to_vec();
            // SAFETY: `inout` and `t` hold `r.len()` elements; `dest == r` is
            // allowed; the form runs in this build (`forms()`).
            unsafe { f.raw(w)(inout.as_mut_ptr(), l, inout.as_ptr(), t.as_ptr(), r.len()) };
            assert_quats_identical(&inout, &want, &format!("{ctx} in place"));
        }
    };
    let mut rng = Rng::new(0x4e45_4f4e);
    for n in 0..=67 {
        let (l, r, t) = streams(&mut rng, n);
        for f in FUNCS {
            check(f, &l, &r, &t, "random");
            let want: Vec<Quat> = (0..n).map(|i| endpoint_rule(&l, &r[i], t[i], f.scalar()(l, r[i], t[i]))).collect();
            for &w in &forms {
                assert_quats_identical(&run(f, w, &l, &r, &t), &want, &format!("{} {w} safe n={n}", f.name()));
            }
            assert_quats_identical(&run(f, Impl::Auto, &l, &r, &t), &want, &format!("{} auto n={n}", f.name()));
        }
    }
    for _ in 0..8 {
        let (l, r, t) = streams(&mut rng, 4099);
        for f in FUNCS {
            check(f, &l, &r, &t, "random 4099");
        }
    }
    // The grid of the published accuracy, both signs of the dot product.
    for d0 in [0.0, core::f64::consts::FRAC_1_SQRT_2] {
        let (l, r, t) = dot_grid(d0, 301);
        for f in FUNCS {
            check(f, &l, &r, &t, "grid");
        }
    }
    // Scales, near-parallel, opposite and orthogonal pairs, signed zeros.
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let (l0, r0, _) = streams(&mut rng, 64);
    let mut r = Vec::new();
    for &q in &r0 {
        for s in [1.0f32, -1.0, 1e-20, 1e20, 3e-39, 1e-45, 1e19] {
            r.push(Quat::from_array(q.to_array().map(|v| v * s)));
        }
        r.push(l0);
        r.push(Quat::from_array(l0.to_array().map(|v| -v)));
        r.push(Quat::from_array(l0.to_array().map(|v| v + 1e-7)));
    }
    r.extend([Quat::new(0.0, 1.0, 0.0, 0.0), Quat::new(-0.0, -1.0, -0.0, -0.0), Quat::new(h, h, 0.0, 0.0)]);
    let t: Vec<f32> = (0..r.len()).map(|i| [0.5, 0.25, -0.5, 1.5, 1e-8, 0.999_999_9, -3.0, 7.0][i % 8]).collect();
    for l in [l0, Quat::new(1.0, 0.0, 0.0, 0.0), Quat::from_array(l0.to_array().map(|v| v * 1e3))] {
        for f in FUNCS {
            check(f, &l, &r, &t, "hard pairs");
        }
    }
    // The special values of every lane (NaN, infinities, zero and huge
    // quaternions, `t` outside `[0, 1]`).
    for l in [Quat::IDENTITY, l0] {
        let (r, t): (Vec<Quat>, Vec<f32>) = stream_elements(l).into_iter().unzip();
        for f in FUNCS {
            check(f, &l, &r, &t, "special values");
        }
    }
}

/// The other half of the NEON claim: zeux's x86 SIMD forms (`rsqrtps` + one
/// Newton-Raphson step, the `(xx + yy) + (zz + ww)` grouping, FMA) do not
/// give the scalar port's bits, so the NEON forms, which do, do not give
/// theirs: on random unit pairs more than a quarter of the elements differ
/// in some bit from the scalar function's (measured: 35-37% in the SSE2 and
/// plain AVX2 forms, 73-75% in the FMA forms), and they take the other arc
/// at `ca = +0.0` (`erratum_e2_sign_bit_xor_at_zero_dot`).
#[cfg(target_arch = "x86_64")]
#[test]
fn x86_simd_forms_do_not_give_the_scalar_bits() {
    let mut rng = Rng::new(0x4e45);
    let (l, r, t) = streams(&mut rng, 4096);
    for f in FUNCS {
        let want = run_raw(f.raw(Impl::Scalar), &l, &r, &t, 0, "scalar");
        for w in simd_widths() {
            let out = run_raw(f.raw(w), &l, &r, &t, 0, "simd");
            let differ = (0..r.len()).filter(|&i| !quat_same_bits(&out[i], &want[i])).count();
            eprintln!("{} {w}: {differ} of {} elements differ in bits from the scalar port", f.name(), r.len());
            assert!(differ > r.len() / 4, "{} {w}: only {differ} elements differ", f.name());
        }
    }
}

// ----------------------------------------------------------------- errata ---

/// E1: the article's select example
/// `_mm_or_ps(_mm_andnot_ps(rtMask, rt0), _mm_and_ps(rtMask, rt1))` with
/// `rtMask = ca > 0`, `rt0 = ot`, `rt1 = -ot` gives `-ot` where `ca > 0` and
/// `ot` elsewhere: the opposite of its comment `rt = ca > 0 ? ot : -ot`.
/// Swapping `rt0` and `rt1` (or the `and`/`andnot`) gives the comment; the
/// kernels use the sign-bit form, which agrees with the comment except at
/// `ca = +0` (E2).
#[cfg(target_arch = "x86_64")]
#[test]
fn erratum_e1_select_example_picks_the_wrong_side() {
    use core::arch::x86_64::*;
    let ca = [0.5f32, -0.5, 1e-30, -1e-30];
    let ot = [0.25f32, 0.25, 0.75, 0.75];
    let store = |v: __m128| {
        let mut a = [0f32; 4];
        // SAFETY: `a` has room for four floats; SSE is baseline.
        unsafe { _mm_storeu_ps(a.as_mut_ptr(), v) };
        a
    };
    // SAFETY: SSE2 is baseline on x86_64; the loads read four floats each.
    let (printed, swapped, xor) = unsafe {
        let (ca, ot) = (_mm_loadu_ps(ca.as_ptr()), _mm_loadu_ps(ot.as_ptr()));
        let rt0 = ot;
        let rt1 = _mm_sub_ps(_mm_setzero_ps(), ot);
        let rt_mask = _mm_cmpgt_ps(ca, _mm_setzero_ps());
        let printed = _mm_or_ps(_mm_andnot_ps(rt_mask, rt0), _mm_and_ps(rt_mask, rt1));
        let swapped = _mm_or_ps(_mm_and_ps(rt_mask, rt0), _mm_andnot_ps(rt_mask, rt1));
        let sign_mask = _mm_castsi128_ps(_mm_set1_epi32(0x8000_0000_u32 as i32));
        let xor = _mm_xor_ps(ot, _mm_and_ps(sign_mask, ca));
        (store(printed), store(swapped), store(xor))
    };
    let comment: [f32; 4] = core::array::from_fn(|i| if ca[i] > 0.0 { ot[i] } else { -ot[i] });
    assert_eq!(printed, comment.map(|v| -v), "the printed select is the comment negated");
    assert_eq!(swapped, comment);
    assert_eq!(xor, comment);

    // What it would do in onlerp: interpolate along the longer arc, an error
    // of up to a full turn (here at t = 0.5 between rotations 60° apart).
    let h = (30f32).to_radians();
    let (l, r) = (Quat::IDENTITY, Quat::new(h.sin(), 0.0, 0.0, h.cos()));
    let ot = 0.5;
    let long = scalar::unit(&scalar::lerp(&l, &r, 1.0 - ot, -ot));
    let short = scalar::onlerp(l, r, 0.5);
    let e_long = angle_error(&long, &l, &r, 0.5);
    let e_short = angle_error(&short, &l, &r, 0.5);
    assert!(e_long > 3.0 && e_short < 1e-3, "long arc {e_long}, short {e_short}");
}

/// E2: the sign-bit XOR (`rt = ot ^ (ca & signMask)`, commented `ca > 0 ? ot
/// : -ot`) tests the sign bit, not `ca > 0`: at `ca = +0.0` the scalar code
/// takes `-ot` (towards `-r`) and the SIMD code `+ot` (towards `r`); at `ca
/// = -0.0` both take `-ot`. Both arcs are equally long there (`l` and `r`
/// are rotations half a turn apart), but the results are different
/// rotations: at `t = 0.5` half a turn apart from each other.
#[test]
fn erratum_e2_sign_bit_xor_at_zero_dot() {
    let l = Quat::new(1.0, 0.0, 0.0, 0.0);
    let r_pos = Quat::new(0.0, 1.0, 0.0, 0.0); // products +0: ca = +0.0
    let r_neg = Quat::new(-0.0, -1.0, -0.0, -0.0); // products -0: ca = -0.0 (= -r_pos)
    assert_eq!(scalar::dot(&l, &r_pos).to_bits(), 0.0f32.to_bits());
    assert_eq!(scalar::dot(&l, &r_neg).to_bits(), (-0.0f32).to_bits());
    let h = core::f32::consts::FRAC_1_SQRT_2;
    let towards = |s: f32| Quat::new(h, s * h, 0.0, 0.0);
    for f in FUNCS {
        for w in widths() {
            let q = run(f, w, &l, &[r_pos, r_neg], &[0.5, 0.5]);
            let ctx = format!("{} {w}", f.name());
            // -0.0: everyone goes towards -r_neg = r_pos... i.e. -ot on r_neg.
            assert!(max_diff(&q[1], &towards(1.0)) < 1e-6, "{ctx}: ca = -0 gives {:?}", q[1]);
            // +0.0: the scalar code (and NEON, which compares as it does)
            // towards -r_pos, the x86 SIMD code towards r_pos.
            let want = if scalar_bits(w) { towards(-1.0) } else { towards(1.0) };
            assert!(max_diff(&q[0], &want) < 1e-6, "{ctx}: ca = +0 gives {:?}, expected {want:?}", q[0]);
        }
    }
    // The two results are half a turn apart as rotations.
    let a = scalar::onlerp(l, r_pos, 0.5);
    for w in simd_widths().filter(|&w| !scalar_bits(w)) {
        let b = run(Func::Onlerp, w, &l, &[r_pos], &[0.5])[0];
        let angle = rotation_angle(f64q(&a), normalize_f64(f64q(&b)));
        assert!((angle - core::f64::consts::PI).abs() < 1e-5, "{w}: {angle}");
    }
}

/// E3: the article's lane diagram prints the first column of rows 2 to 4 as
/// `y2 y2 z2 w2`, `z4 y4 z4 w4`, `w6 y6 z6 w6`; the loaded rows are `x2 y2 z2
/// w2 | x3 ...`. The in-lane transpose on labelled data gives the corrected
/// diagram, and applied twice it restores the rows.
#[cfg(target_arch = "x86_64")]
#[test]
fn erratum_e3_lane_transpose_diagram() {
    use animasm::nlerp::avx2::transpose8_lane4;
    use core::arch::x86_64::*;
    if !std::is_x86_feature_detected!("avx") {
        common::cpu::skipped("nlerp: no AVX: the AVX part is not run");
        return;
    }
    // Element c of quaternion q is labelled 10 q + c (x = 0, ..., w = 3).
    let quats: [f32; 32] = core::array::from_fn(|i| (10 * (i / 4) + i % 4) as f32);
    let mut regs = [[0f32; 8]; 4];
    let mut back = [[0f32; 8]; 4];
    // SAFETY: AVX is present (checked); the loads read and the stores write
    // eight floats inside `quats`, `regs` and `back`.
    unsafe {
        let mut r: [__m256; 4] = core::array::from_fn(|i| _mm256_loadu_ps(quats.as_ptr().add(8 * i)));
        let [a, b, c, d] = &mut r;
        transpose8_lane4(a, b, c, d);
        for (i, v) in r.iter().enumerate() {
            _mm256_storeu_ps(regs[i].as_mut_ptr(), *v);
        }
        let [a, b, c, d] = &mut r;
        transpose8_lane4(a, b, c, d);
        for (i, v) in r.iter().enumerate() {
            _mm256_storeu_ps(back[i].as_mut_ptr(), *v);
        }
    }
    // x0 x2 x4 x6 x1 x3 x5 x7 / y0 y2 ... / z0 ... / w0 ...
    let order = [0, 2, 4, 6, 1, 3, 5, 7];
    for (c, row) in regs.iter().enumerate() {
        assert_eq!(*row, order.map(|q| (10 * q + c) as f32), "component {c}");
    }
    for (i, row) in back.iter().enumerate() {
        assert_eq!(row[..], quats[8 * i..8 * i + 8], "row {i} after two transposes");
    }
    // The printed first columns would be y, z, w of quaternions 2, 4, 6 in
    // the rows that hold x: they are not what the loads give.
    let printed_first_column = [0.0f32, 21.0, 42.0, 63.0];
    let loaded_first_column = [quats[0], quats[8], quats[16], quats[24]];
    assert_ne!(loaded_first_column, printed_first_column);
    assert_eq!(loaded_first_column, [0.0, 20.0, 40.0, 60.0]);
}

/// E4: fnlerp's published errors (6.97e-3, and 1.13e-4 up to 90°) do not
/// reproduce with `k = 0.931872 + d (-1.25654 + d 0.331442)` and `ot = t + t
/// (t - 0.5) (t - 1) k`, on the measure that reproduces nlerp's and onlerp's
/// figures to three digits: it gives 8.41e-3 and 3.91e-4. Not even the best
/// constant `k` at `d = 0` reaches 6.97e-3 with this form.
#[test]
fn erratum_e4_fnlerp_published_errors_do_not_reproduce() {
    // The error of `ot = t + t (t - 0.5) (t - 1) k` at d = 0 (90° in 4D), in
    // f64: the rotation angle between the nlerp with that factor and the
    // slerp, between two quaternions 90° apart in 4D (dot product 1e-300:
    // positive, so that both keep `r`; fnlerp's `k` there is its K0).
    let (l, r) = ([0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 1.0, 1e-300]);
    let err_at_d0 = |k: f64| {
        (0..=2000)
            .map(|j| {
                let t = j as f64 / 2000.0;
                let q = nlerp_with_f64(l, r, t, |_, t| t + t * (t - 0.5) * (t - 1.0) * k);
                rotation_angle(q, slerp_f64(l, r, t))
            })
            .fold(0.0, f64::max)
    };
    let fitted = err_at_d0(f64::from(animasm::consts::NLERP_FNLERP_K[0]));
    let best = (0..=2000).map(|i| err_at_d0(0.8 + 0.2 * i as f64 / 2000.0)).fold(f64::INFINITY, f64::min);
    eprintln!("fnlerp at d = 0: fitted k {fitted:.4e}, best constant k {best:.4e}, published 6.97e-3");
    assert!((fitted - 8.41e-3).abs() < 1e-5, "{fitted}");
    assert!(best > 7.8e-3, "{best}");
    // The same measure reproduces nlerp's 0.142 (k = 0).
    assert_eq!(format!("{:.2e}", err_at_d0(0.0)), "1.42e-1");
}

/// E5 (text): "similarly to nlerp but unlike slerp this function does not
/// have a singularity at t=0". slerp's `sin((1 - t) a) / sin(a)` is singular
/// where `sin(a) = 0`, at `l = ±r`, for every `t`, and harmless at `t = 0`.
#[test]
fn erratum_e5_slerp_singularity_is_at_equal_quaternions_not_t_zero() {
    let unguarded = |l: Quat, r: Quat, t: f32| {
        let a = scalar::dot(&l, &r).abs().min(1.0).acos();
        let s = a.sin();
        scalar::lerp(&l, &r, ((1.0 - t) * a).sin() / s, (t * a).sin() / s)
    };
    let mut rng = Rng::new(1);
    for _ in 0..100 {
        let (l, r) = (rng.unit_quat(), rng.unit_quat());
        let q = unguarded(l, r, 0.0);
        assert!(max_diff(&q, &l) < 1e-6, "t = 0 is regular: {q:?} vs {l:?}");
    }
    // Quaternions whose dot product with themselves rounds to exactly 1.
    for l in [Quat::IDENTITY, Quat::new(0.6, 0.8, 0.0, 0.0), Quat::new(0.5, -0.5, 0.5, 0.5)] {
        assert_eq!(scalar::dot(&l, &l), 1.0);
        for t in [0.0, 0.3, 1.0] {
            assert!(unguarded(l, l, t).x.is_nan(), "l = r is the singularity");
            for f in FUNCS {
                assert!(max_diff(&f.scalar()(l, l, t), &l) < 1e-6);
            }
            assert!(max_diff(&scalar::slerp(l, l, t), &l) < 1e-6, "the reference slerp has the fallback");
        }
    }
}

// ---------------------------------------------------------------- errors ---

/// Every width of every function (and the reference slerp): a length
/// mismatch in `r` or `t` is an `Err` naming it, and nothing is written.
#[test]
fn length_mismatch_writes_nothing() {
    let mut rng = Rng::new(2);
    let (l, r, t) = streams(&mut rng, 12);
    for n in [0, 1, 5, 8, 11] {
        let cases: [(usize, usize, &str, usize); 4] =
            [(n + 1, n, "r", n + 1), (n, n + 1, "t", n + 1), (n + 1, n + 1, "r", n + 1), (n, n, "", n)];
        for (rn, tn, what, found) in cases {
            let want = if what.is_empty() { None } else { Some(Error::LengthMismatch { what, expected: n, found }) };
            let rn = if what.is_empty() { n } else { rn };
            let check = |res: Result<(), Error>, dest: &[Quat], ctx: &str| match want {
                Some(e) => {
                    assert_eq!(res, Err(e), "{ctx}");
                    assert!(
                        dest.iter().all(|q| q.to_array().iter().all(|v| v.to_bits() == SENTINEL)),
                        "{ctx}: written"
                    );
                }
                None => assert_eq!(res, Ok(()), "{ctx}"),
            };
            for f in FUNCS {
                for w in widths() {
                    let mut dest = vec![sentinel(); n];
                    let res = f.safe()(w, &mut dest, &l, &r[..rn], &t[..tn]);
                    check(res, &dest, &format!("{} {w} n={n} r={rn} t={tn}", f.name()));
                }
            }
            let mut dest = vec![sentinel(); n];
            let res = animasm::nlerp::slerp(Impl::Scalar, &mut dest, &l, &r[..rn], &t[..tn]);
            check(res, &dest, &format!("slerp n={n} r={rn} t={tn}"));
        }
    }
    // r shorter than dest.
    let mut dest = vec![sentinel(); 6];
    let res = animasm::nlerp::onlerp(Impl::Scalar, &mut dest, &l, &r[..5], &t[..6]);
    assert_eq!(res, Err(Error::LengthMismatch { what: "r", expected: 6, found: 5 }));
    assert!(dest.iter().all(|q| q.to_array().iter().all(|v| v.to_bits() == SENTINEL)));
}

/// The safe functions consult the CPU: each form is available exactly when
/// the features its kernels enable are detected, and an unavailable form is
/// an `Err` with nothing written (`MissingCpuFeature` for the AVX2 forms
/// on an `x86_64` CPU without them, `Unsupported` off `x86_64` and for the
/// forms the family has not), checked before the lengths. (A CPU without
/// AVX2 cannot be faked; on this machine the branch that runs is printed.)
/// Without the `std` feature the crate detects nothing beyond SSE2, so the
/// AVX2 forms are refused whatever the CPU has (`tests/no_std.rs`).
/// Contract change: the widths are `Impl`s now (`Width` is gone);
/// `Impl::Sse2`/`Avx2NoFma`/`Avx2` replace `Width::Sse2x4`/`Avx2x8`/`Avx2Fma8`,
/// and `Intrinsics`/`Asm` are `Unsupported` for this family.
#[test]
fn unsupported_widths_follow_cpu_detection() {
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let (avx2, fma) = (std::is_x86_feature_detected!("avx2"), std::is_x86_feature_detected!("fma"));
    #[cfg(all(feature = "std", target_arch = "x86_64"))]
    let avx512 = common::cpu::cpu_has(&["avx512f", "avx512vl", "avx512dq", "avx512bw"]);
    #[cfg(not(all(feature = "std", target_arch = "x86_64")))]
    let (avx2, fma, avx512) = (false, false, false);
    let x86 = cfg!(target_arch = "x86_64");
    let aarch64 = cfg!(target_arch = "aarch64");
    for (w, avail) in [
        (Impl::Scalar, true),
        (Impl::Sse2, x86),
        (Impl::Avx2NoFma, avx2),
        (Impl::Avx2, avx2 && fma),
        (Impl::Avx512, avx512),
        (Impl::Neon, aarch64),
        (Impl::Simd128, animasm::Isa::Simd128.on_target()),
        (Impl::Intrinsics, false),
        (Impl::Asm, false),
        (Impl::Portable, false),
        (Impl::Deterministic, false),
    ] {
        eprintln!("{w}: available = {avail}");
        assert_eq!(animasm::nlerp::forms().any(|f| f == w), avail, "{w}");
        assert_eq!(animasm::nlerp::resolve(w).is_ok(), avail, "{w}");
        let (l, r, t) = (Quat::IDENTITY, vec![Quat::IDENTITY; 3], vec![0.5; 3]);
        for f in FUNCS {
            let mut dest = vec![sentinel(); 3];
            let res = f.safe()(w, &mut dest, &l, &r, &t);
            if avail {
                assert_eq!(res, Ok(()));
            } else {
                let want = match w {
                    Impl::Avx2NoFma if x86 => Error::MissingCpuFeature { needs: "avx2" },
                    Impl::Avx2 if x86 => Error::MissingCpuFeature { needs: "avx2 and fma" },
                    Impl::Avx512 if x86 => {
                        Error::MissingCpuFeature { needs: "avx512f, avx512vl, avx512dq and avx512bw" }
                    }
                    _ => Error::Unsupported(w),
                };
                assert_eq!(res, Err(want));
                assert!(dest.iter().all(|q| q.to_array().iter().all(|v| v.to_bits() == SENTINEL)));
                // The CPU check comes before the length check.
                let res = f.safe()(w, &mut dest, &l, &r[..1], &t);
                assert_eq!(res, Err(want));
            }
        }
    }
    // Auto resolves to the fastest form (the first of `forms()`).
    assert_eq!(animasm::nlerp::resolve(Impl::Auto), Ok(animasm::nlerp::forms().next().unwrap()));
}

/// The forms of the family, fastest first (`Avx2` before `Avx512`, which
/// loses at a character's size and after a pause): lanes 1, 4, 8, 8, 16, 4
/// are `Scalar`, `Sse2`, `Avx2NoFma`, `Avx2`, `Avx512` (`x86_64`; the
/// widened form, `Origin::Widened`), `Neon` (`aarch64`).
#[test]
fn width_metadata() {
    let all: Vec<Impl> = animasm::nlerp::forms().collect();
    let order = [Impl::Neon, Impl::Simd128, Impl::Avx2, Impl::Avx512, Impl::Avx2NoFma, Impl::Sse2, Impl::Scalar];
    let expected: Vec<Impl> = order.into_iter().filter(|w| all.contains(w)).collect();
    assert_eq!(all, expected);
    assert_eq!([Impl::Sse2, Impl::Avx2NoFma, Impl::Avx2].map(Impl::name), ["sse2", "avx2-nofma", "avx2"]);
    assert_eq!(Impl::Avx2.to_string(), "avx2");
    assert_eq!(Impl::Avx512.name(), "avx512");
    let wide = animasm::roster::find("nlerp").unwrap().all_forms().find(|f| f.imp == Impl::Avx512);
    if cfg!(target_arch = "x86_64") {
        let wide = wide.expect("nlerp has an AVX-512 form on x86_64");
        assert_eq!((wide.origin, wide.isa), (animasm::Origin::Widened, animasm::Isa::Avx512));
        assert_eq!(animasm::Origin::Widened.name(), "widened");
    } else {
        assert!(wide.is_none());
    }
    #[cfg(target_arch = "aarch64")]
    assert_eq!(all, [Impl::Neon, Impl::Scalar]);
    let neon = animasm::roster::find("nlerp").unwrap().all_forms().find(|f| f.imp == Impl::Neon);
    if cfg!(target_arch = "aarch64") {
        let neon = neon.expect("nlerp has a NEON form on aarch64");
        assert_eq!((neon.origin, neon.isa, neon.align), (animasm::Origin::Published, animasm::Isa::Neon, 1));
    } else {
        assert!(neon.is_none());
    }
    let simd128 = animasm::roster::find("nlerp").unwrap().all_forms().find(|f| f.imp == Impl::Simd128);
    if animasm::Isa::Simd128.on_target() {
        let simd128 = simd128.expect("nlerp has a SIMD128 form on wasm32 with SIMD128");
        assert_eq!(
            (simd128.origin, simd128.isa, simd128.align),
            (animasm::Origin::Published, animasm::Isa::Simd128, 1)
        );
        assert_eq!(all, [Impl::Simd128, Impl::Scalar]);
    } else {
        assert!(simd128.is_none());
    }
}
/// The constants the SIMD kernels (and the model) use are the literals the
/// scalar port writes, as printed; a drift would also show in
/// `every_width_against_the_scalar_function`.
#[test]
fn coefficients_are_the_printed_ones() {
    use animasm::consts::{NLERP_FNLERP_K, NLERP_ONLERP_A, NLERP_ONLERP_B};
    assert_eq!(NLERP_FNLERP_K, [0.931872, -1.25654, 0.331442]);
    assert_eq!(NLERP_ONLERP_A, [1.0904, -3.2452, 3.55645, 1.43519]);
    assert_eq!(NLERP_ONLERP_B, [0.848013, -1.06021, 0.215638]);
}

/// Every form of the nlerp family against its f64 function on the
/// properties' inputs.
#[test]
fn differential_against_the_f64_functions() {
    use devkit::measure::nlerp::{FUNCS, func_f64};
    for func in FUNCS {
        common::roster_checks::stream::against_f64(func.name(), &|l, r, t| func_f64(func, l, r, t), 5e-7);
    }
}

/// `slerp_stream` against the f64 slerp on the properties' inputs.
#[test]
fn slerp_stream_against_the_f64_slerp() {
    use common::oracle::{f64x4, slerp_f64};
    common::roster_checks::stream::against_f64(
        "slerp_stream",
        &|l, r, t| slerp_f64(f64x4(l.to_array()), f64x4(r.to_array()), f64::from(t)),
        1e-6,
    );
}
