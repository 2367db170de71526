//! The [`Routine`]s and [`Interpolator`]s of the quaternion-stream safe
//! functions: `slerp_quats_as_published`, `slerp_quats_corrected` (AVX,
//! 32-byte-aligned buffers) and the nlerp family (`nlerp`, `fnlerp`,
//! `onlerp`, `slerp_stream`).

use animasm::{AlignedQuats, Error, Impl, Quat};
use animasm_testkit::error::max_abs_diff;
use animasm_testkit::inputs::Rng;
use animasm_testkit::oracle::{f64x4, slerp_f64};
use devkit::measure::nlerp::{Func, func_f64};

use super::harness::{BadCall, Interpolator, Routine};

fn bad<R: Routine>(what: &str, f: impl Fn(Impl, &mut [R::Out]) -> Result<(), Error> + 'static, e: Error) -> BadCall<R> {
    (what.to_string(), Box::new(f), e)
}

fn quat_err(q: &Quat, want: [f64; 4]) -> f64 {
    max_abs_diff(q.to_array(), want)
}

// ------------------------------------------------------------- slerp_quats ---

/// `slerp_quats_*` input: `from`, `to` (32-byte aligned) and the factor.
pub struct QuatsIn {
    pub from: AlignedQuats,
    pub to: AlignedQuats,
    pub factor: f32,
}

type QuatsFn = fn(Impl, &mut [Quat], &[Quat], &[Quat], f32) -> Result<(), Error>;

fn quats_inputs(seed: u64, n: usize) -> (Vec<Quat>, QuatsIn) {
    let mut rng = Rng::new(seed);
    let from: AlignedQuats = (0..n).map(|_| rng.unit_quat()).collect();
    let to: AlignedQuats = (0..n).map(|_| rng.unit_quat()).collect();
    (vec![Quat::IDENTITY; n], QuatsIn { from, to, factor: 0.37 })
}

/// What `resolve` gives for `slerp_quats_as_published`, which has no
/// `resolve` of its own: its forms are `forms_as_published()`, and a form it
/// lacks fails as `slerp_quats::resolve` (the corrected table) says, or as
/// `Unsupported` where the corrected one has it (`Sse2`).
fn resolve_as_published(imp: Impl) -> Result<Impl, Error> {
    let forms: Vec<Impl> = animasm::slerp_quats::forms_as_published().collect();
    match imp {
        Impl::Auto => Ok(forms[0]),
        _ if forms.contains(&imp) => Ok(imp),
        Impl::Sse2 => Err(Error::Unsupported(imp)),
        _ => animasm::slerp_quats::resolve(imp),
    }
}

fn quats_bad_calls<R: Routine<Out = Quat>>(f: QuatsFn, n: usize) -> Vec<BadCall<R>> {
    let (_, i) = quats_inputs(7, n + 1);
    let (a, b) = (i.from, i.to);
    let (a2, b2) = (a.clone(), b.clone());
    vec![
        bad::<R>(
            "from too short",
            move |imp, out| f(imp, out, &a[..n - 1], &b[..n], 0.5),
            Error::LengthMismatch { what: "from", expected: n, found: n - 1 },
        ),
        bad::<R>(
            "to too long",
            move |imp, out| f(imp, out, &a2[..n], &b2, 0.5),
            Error::LengthMismatch { what: "to", expected: n, found: n + 1 },
        ),
        bad::<R>(
            "no such form",
            move |_, out| f(Impl::Avx2NoFma, out, &[], &[], 0.5),
            Error::Unsupported(Impl::Avx2NoFma),
        ),
    ]
}

macro_rules! quats_routine {
    ($ty:ident, $name:literal, $f:path, $forms:path, $resolve:path, $tol_s:expr, $tol_o:expr) => {
        #[doc = concat!("`", $name, "`")]
        pub struct $ty;

        impl Routine for $ty {
            const NAME: &'static str = $name;
            type Out = Quat;
            type Buf = AlignedQuats;
            type In = QuatsIn;
            const TOL_SCALAR: f64 = $tol_s;
            const TOL_ORACLE: f64 = $tol_o;
            fn forms() -> Vec<Impl> {
                $forms().collect()
            }
            fn resolve(imp: Impl) -> Result<Impl, Error> {
                $resolve(imp)
            }
            fn buf(init: &[Quat]) -> AlignedQuats {
                AlignedQuats::from_slice(init)
            }
            fn inputs(seed: u64, n: usize) -> (Vec<Quat>, QuatsIn) {
                quats_inputs(seed, n)
            }
            fn call(imp: Impl, out: &mut [Quat], i: &QuatsIn) -> Result<(), Error> {
                $f(imp, out, &i.from, &i.to, i.factor)
            }
            fn oracle_error(out: &[Quat], _: &[Quat], i: &QuatsIn) -> f64 {
                let t = f64::from(i.factor);
                (0..out.len())
                    .map(|k| quat_err(&out[k], slerp_f64(f64x4(i.from[k].to_array()), f64x4(i.to[k].to_array()), t)))
                    .fold(0.0, f64::max)
            }
            fn bad_calls(n: usize) -> Vec<BadCall<Self>> {
                quats_bad_calls::<Self>($f, n)
            }
        }

        impl Interpolator for $ty {
            fn call_at(imp: Impl, out: &mut [Quat], i: &QuatsIn, f: f32) -> Result<(), Error> {
                $f(imp, out, &i.from, &i.to, f)
            }
            fn endpoint(_: &[Quat], i: &QuatsIn, one: bool) -> Vec<Quat> {
                if one { i.to.to_vec() } else { i.from.to_vec() }
            }
            fn earlier_error(n: usize, f: f32) -> BadCall<Self> {
                let (_, i) = quats_inputs(8, n);
                bad::<Self>(
                    "from too short and a non-finite factor",
                    move |imp, out| $f(imp, out, &i.from[..n - 1], &i.to, f),
                    Error::LengthMismatch { what: "from", expected: n, found: n - 1 },
                )
            }
            fn non_finite(f: f32) -> Error {
                Error::NonFiniteFactor { what: "factor", position: None, value: f }
            }
        }
    };
}

// As published: E1/E3/E6 put it up to ~3.4e-3 from the f64 slerp, and its
// AVX loop and scalar loop compute differently (E7).
quats_routine!(
    SlerpQuatsAsPublished,
    "slerp_quats_as_published",
    animasm::slerp_quats_as_published,
    animasm::slerp_quats::forms_as_published,
    resolve_as_published,
    1e-2,
    1e-2
);
quats_routine!(
    SlerpQuatsCorrected,
    "slerp_quats_corrected",
    animasm::slerp_quats_corrected,
    animasm::slerp_quats::forms,
    animasm::slerp_quats::resolve,
    1e-6,
    1e-6
);

// ------------------------------------------------------------ nlerp family ---

/// The nlerp family's input: `l`, the stream `r` and the factors `t`.
pub struct StreamIn {
    pub l: Quat,
    pub r: Vec<Quat>,
    pub t: Vec<f32>,
}

type StreamFn = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;

fn stream_inputs(seed: u64, n: usize) -> (Vec<Quat>, StreamIn) {
    let mut rng = Rng::new(seed);
    let l = rng.unit_quat();
    let r = (0..n).map(|_| rng.unit_quat()).collect();
    let t = (0..n).map(|_| rng.range(0.01, 0.99) as f32).collect();
    (vec![Quat::IDENTITY; n], StreamIn { l, r, t })
}

/// `slerp_stream`'s forms: its one form is `Scalar`.
fn slerp_stream_forms() -> std::vec::IntoIter<Impl> {
    vec![Impl::Scalar].into_iter()
}

/// `slerp_stream`'s resolution: `Scalar` (and `Auto`), else `Unsupported`.
fn slerp_stream_resolve(imp: Impl) -> Result<Impl, Error> {
    match imp {
        Impl::Auto | Impl::Scalar => Ok(Impl::Scalar),
        _ => Err(Error::Unsupported(imp)),
    }
}

fn stream_bad_calls<R: Routine<Out = Quat>>(f: StreamFn, n: usize) -> Vec<BadCall<R>> {
    let (_, i) = stream_inputs(9, n + 1);
    let (l, r, t) = (i.l, i.r, i.t);
    let (r2, t2, r3, mut t3) = (r.clone(), t.clone(), r.clone(), t.clone());
    t3[n - 1] = f32::NAN;
    vec![
        bad::<R>(
            "r too short",
            move |imp, out| f(imp, out, &l, &r[..n - 1], &t[..n]),
            Error::LengthMismatch { what: "r", expected: n, found: n - 1 },
        ),
        bad::<R>(
            "t too long",
            move |imp, out| f(imp, out, &l, &r2[..n], &t2),
            Error::LengthMismatch { what: "t", expected: n, found: n + 1 },
        ),
        bad::<R>(
            "the last t is NaN",
            move |imp, out| f(imp, out, &l, &r3[..n], &t3[..n]),
            Error::NonFiniteFactor { what: "t", position: Some(n - 1), value: f32::NAN },
        ),
        bad::<R>("no such form", move |_, out| f(Impl::Asm, out, &l, &[], &[]), Error::Unsupported(Impl::Asm)),
    ]
}

macro_rules! stream_routine {
    ($ty:ident, $name:literal, $f:path, $forms:path, $resolve:path, $oracle:expr, $tol_s:expr, $tol_o:expr) => {
        #[doc = concat!("`", $name, "`")]
        pub struct $ty;

        impl Routine for $ty {
            const NAME: &'static str = $name;
            type Out = Quat;
            type Buf = Vec<Quat>;
            type In = StreamIn;
            const TOL_SCALAR: f64 = $tol_s;
            const TOL_ORACLE: f64 = $tol_o;
            fn forms() -> Vec<Impl> {
                $forms().collect()
            }
            fn resolve(imp: Impl) -> Result<Impl, Error> {
                $resolve(imp)
            }
            fn buf(init: &[Quat]) -> Vec<Quat> {
                init.to_vec()
            }
            fn inputs(seed: u64, n: usize) -> (Vec<Quat>, StreamIn) {
                stream_inputs(seed, n)
            }
            fn call(imp: Impl, out: &mut [Quat], i: &StreamIn) -> Result<(), Error> {
                $f(imp, out, &i.l, &i.r, &i.t)
            }
            fn oracle_error(out: &[Quat], _: &[Quat], i: &StreamIn) -> f64 {
                let oracle: fn(&Quat, &Quat, f32) -> [f64; 4] = $oracle;
                (0..out.len()).map(|k| quat_err(&out[k], oracle(&i.l, &i.r[k], i.t[k]))).fold(0.0, f64::max)
            }
            fn bad_calls(n: usize) -> Vec<BadCall<Self>> {
                stream_bad_calls::<Self>($f, n)
            }
        }

        impl Interpolator for $ty {
            fn call_at(imp: Impl, out: &mut [Quat], i: &StreamIn, f: f32) -> Result<(), Error> {
                $f(imp, out, &i.l, &i.r, &vec![f; i.r.len()])
            }
            fn endpoint(_: &[Quat], i: &StreamIn, one: bool) -> Vec<Quat> {
                if one { i.r.clone() } else { vec![i.l; i.r.len()] }
            }
            fn earlier_error(n: usize, f: f32) -> BadCall<Self> {
                let (_, i) = stream_inputs(10, n);
                bad::<Self>(
                    "r too short and a non-finite t",
                    move |imp, out| $f(imp, out, &i.l, &i.r[..n - 1], &vec![f; n]),
                    Error::LengthMismatch { what: "r", expected: n, found: n - 1 },
                )
            }
            fn non_finite(f: f32) -> Error {
                Error::NonFiniteFactor { what: "t", position: Some(0), value: f }
            }
        }
    };
}

stream_routine!(
    Nlerp,
    "nlerp",
    animasm::nlerp,
    animasm::nlerp::forms,
    animasm::nlerp::resolve,
    |l, r, t| func_f64(Func::Nlerp, l, r, t),
    5e-7,
    5e-7
);
stream_routine!(
    Fnlerp,
    "fnlerp",
    animasm::fnlerp,
    animasm::nlerp::forms,
    animasm::nlerp::resolve,
    |l, r, t| func_f64(Func::Fnlerp, l, r, t),
    5e-7,
    5e-7
);
stream_routine!(
    Onlerp,
    "onlerp",
    animasm::onlerp,
    animasm::nlerp::forms,
    animasm::nlerp::resolve,
    |l, r, t| func_f64(Func::Onlerp, l, r, t),
    5e-7,
    5e-7
);
stream_routine!(
    SlerpStream,
    "slerp_stream",
    animasm::slerp_stream,
    slerp_stream_forms,
    slerp_stream_resolve,
    |l, r, t| slerp_f64(f64x4(l.to_array()), f64x4(r.to_array()), f64::from(t)),
    0.0,
    1e-6
);
