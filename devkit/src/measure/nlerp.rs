//! `nlerp` (zeux's nlerp family): the functions and widths, and the
//! article's accuracy measure (the absolute error of the full rotation
//! angle against the f64 slerp, on a grid over `t` and `|dot|`), which
//! `tests/nlerp.rs` asserts and the report (`devkit/examples/report/`) prints.

use animasm::nlerp::scalar;
use animasm::roster::Shape;
use animasm::{Error, Impl, Quat};
use animasm_testkit::cases::dot_grid;
use animasm_testkit::error::rotation_angle;

/// The three functions of the family.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Func {
    /// Normalised lerp.
    Nlerp,
    /// nlerp with `t` corrected by *Approximating slerp*'s `k(d)`.
    Fnlerp,
    /// nlerp with `t` corrected by *Optimizing slerp*'s `k(d, t)`.
    Onlerp,
}

/// The three functions, in the article's order.
pub const FUNCS: [Func; 3] = [Func::Nlerp, Func::Fnlerp, Func::Onlerp];

/// The safe functions' signature (`animasm::nlerp` and friends).
pub type Safe = fn(Impl, &mut [Quat], &Quat, &[Quat], &[f32]) -> Result<(), Error>;
/// The raw kernels' signature: `(dest, l, r, t, size)`.
pub type Raw = unsafe fn(*mut Quat, &Quat, *const Quat, *const f32, usize);

impl Func {
    /// The function's name (`"nlerp"`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Func::Nlerp => "nlerp",
            Func::Fnlerp => "fnlerp",
            Func::Onlerp => "onlerp",
        }
    }

    /// The safe function.
    pub fn safe(self) -> Safe {
        match self {
            Func::Nlerp => animasm::nlerp::nlerp,
            Func::Fnlerp => animasm::nlerp::fnlerp,
            Func::Onlerp => animasm::nlerp::onlerp,
        }
    }

    /// The scalar function of one element.
    pub fn scalar(self) -> fn(Quat, Quat, f32) -> Quat {
        match self {
            Func::Nlerp => scalar::nlerp,
            Func::Fnlerp => scalar::fnlerp,
            Func::Onlerp => scalar::onlerp,
        }
    }

    /// The raw stream kernel of a width: the row of the function's kernel
    /// table (`animasm::roster`) for `w`, runnable or not (calling it is
    /// the caller's business: [`widths`] are the ones this CPU runs).
    ///
    /// # Panics
    /// If the function has no form `w` on this target.
    pub fn raw(self, w: Impl) -> Raw {
        let routine = animasm::roster::find(self.name()).expect("the nlerp family is in the roster");
        let Shape::Stream { forms, .. } = routine.shape else { panic!("{} is not a stream routine", self.name()) };
        let form = forms.iter().find(|f| f.imp() == w);
        form.unwrap_or_else(|| panic!("{} has no form {w} on this target", self.name())).kernel()
    }
}

/// The widths (forms) this CPU runs, narrowest first.
pub fn widths() -> impl Iterator<Item = Impl> {
    let mut w: Vec<Impl> = animasm::nlerp::forms().collect();
    w.reverse();
    w.into_iter()
}

/// Runs the safe function.
pub fn run(f: Func, w: Impl, l: &Quat, r: &[Quat], t: &[f32]) -> Vec<Quat> {
    let mut dest = vec![Quat::default(); r.len()];
    f.safe()(w, &mut dest, l, r, t).unwrap_or_else(|e| panic!("{} {w}: {e}", f.name()));
    dest
}

/// A quaternion's components widened to f64 (`oracle::f64x4`).
pub fn f64q(q: &Quat) -> [f64; 4] {
    animasm_testkit::oracle::f64x4(q.to_array())
}

/// The 4D dot product in f64.
pub fn dot64(a: [f64; 4], b: [f64; 4]) -> f64 {
    (0..4).map(|i| a[i] * b[i]).sum()
}

/// The article's error measure: the absolute error of the full rotation
/// angle of `q` against the f64 slerp of `l`, `r`, `t`. Where `|dot(l, r)| <
/// 1e-6` both arcs are (nearly) equally short and the kernels may take
/// either (erratum E2), so the nearer arc counts.
pub fn angle_error(q: &Quat, l: &Quat, r: &Quat, t: f32) -> f64 {
    let q = f64q(q);
    animasm_testkit::error::either_arc(f64q(l), f64q(r), f64::from(t), 1e-6, |want| rotation_angle(q, want))
}

/// The function evaluated in f64 (exact normalisation, the sign of the f64
/// dot product): what the kernels approximate up to rounding
/// (`animasm_testkit::oracle::{nlerp_f64, fnlerp_f64, onlerp_f64}`).
pub fn func_f64(f: Func, l: &Quat, r: &Quat, t: f32) -> [f64; 4] {
    use animasm_testkit::oracle::{fnlerp_f64, nlerp_f64, onlerp_f64};
    let g = match f {
        Func::Nlerp => nlerp_f64,
        Func::Fnlerp => fnlerp_f64,
        Func::Onlerp => onlerp_f64,
    };
    g(f64q(l), f64q(r), f64::from(t))
}

/// The published maximum angle errors (radians), over `|dot|` in `[0, 1]` and
/// over rotations up to 90 degrees apart (`|dot| >= cos 45°`).
pub const PUBLISHED: [(Func, f64, f64); 3] =
    [(Func::Nlerp, 0.142, 1.60e-2), (Func::Fnlerp, 6.97e-3, 1.13e-4), (Func::Onlerp, 7.76e-4, 7.23e-5)];

/// The two ranges of the published figures: the lower end `d0` of
/// `|dot|` and a label.
pub const RANGES: [(f64, &str); 2] = [(0.0, "all"), (core::f64::consts::FRAC_1_SQRT_2, "<= 90 deg")];

/// Grid points per axis (`t` and `|dot|`).
pub const GRID: usize = 1000;

/// The maximum angle error of a result stream on a grid.
pub fn max_angle_error(out: &[Quat], l: &Quat, r: &[Quat], t: &[f32]) -> f64 {
    (0..r.len()).map(|i| angle_error(&out[i], l, &r[i], t[i])).fold(0.0, f64::max)
}

/// The maximum angle error of the f64 function on a grid (the approximation
/// alone).
pub fn max_angle_error_f64(f: Func, l: &Quat, r: &[Quat], t: &[f32]) -> f64 {
    (0..r.len())
        .map(|i| {
            let q = func_f64(f, l, &r[i], t[i]);
            let q = Quat::from_array(q.map(|v| v as f32));
            angle_error(&q, l, &r[i], t[i])
        })
        .fold(0.0, f64::max)
}

/// The maximum angle errors of one function over one range of
/// [`RANGES`] on the grid ([`dot_grid`] with [`GRID`] steps).
#[derive(Clone, Debug)]
pub struct AngleErrors {
    /// The function.
    pub func: Func,
    /// The range's label (`"all"`, `"<= 90 deg"`).
    pub label: &'static str,
    /// The article's figure.
    pub published: f64,
    /// The function evaluated in f64 (the approximation alone).
    pub exact: f64,
    /// Every width this CPU runs, through the safe functions.
    pub widths: Vec<(Impl, f64)>,
}

/// The article's accuracy table, measured: for each range of [`RANGES`]
/// and each function, the published figure, the f64 evaluation and every
/// available width, on a 1001 x 1001 grid over `t` and `|dot|` (both
/// signs of the dot product).
pub fn angle_error_table() -> Vec<AngleErrors> {
    let mut rows = Vec::new();
    for (d0, label) in RANGES {
        let (l, r, t) = dot_grid(d0, GRID);
        for (func, all, upto90) in PUBLISHED {
            let published = if d0 == 0.0 { all } else { upto90 };
            let exact = max_angle_error_f64(func, &l, &r, &t);
            let widths = widths().map(|w| (w, max_angle_error(&run(func, w, &l, &r, &t), &l, &r, &t))).collect();
            rows.push(AngleErrors { func, label, published, exact, widths });
        }
    }
    rows
}
