//! Error against the angle between the two quaternions, for every slerp-like
//! routine: the data of the report's error plot (`devkit::plots`).

use animasm::slerp_quats::AlignedQuats;
use animasm::{Impl, JointQuat, Quat};
use animasm_testkit::oracle::f64x4;

/// Width of an angle bin in degrees; the bins cover 0 to 180.
pub const BIN_DEG: f64 = 5.0;
/// Number of bins.
pub const BINS: usize = (180.0 / BIN_DEG) as usize;
/// The factors swept.
pub const FACTORS: [f32; 5] = [0.1, 0.3, 0.5, 0.7, 0.9];

/// One routine's curve: the max abs component error against the f64
/// slerp in each angle bin (`None` for an empty bin; a NaN result counts
/// as an infinite error).
#[derive(Clone, Debug)]
pub struct Curve {
    /// The routine and form (the plot's legend).
    pub name: String,
    /// The max abs error per bin of [`BIN_DEG`] degrees.
    pub max_error: Vec<Option<f64>>,
}

impl Curve {
    /// (bin centre in degrees, error) of the non-empty bins.
    pub fn points(&self) -> Vec<(f64, f64)> {
        self.max_error.iter().enumerate().filter_map(|(i, e)| e.map(|e| ((i as f64 + 0.5) * BIN_DEG, e))).collect()
    }
}

/// The rotation angle between `a` and `b` in degrees, 0 to 180: twice the
/// 4D angle between `a` and the nearer of `±b`.
pub fn angle_deg(a: &Quat, b: &Quat) -> f64 {
    2.0 * animasm_testkit::error::omega_deg(a, b)
}

/// The pairs: the shared mix ([`animasm_testkit::cases::mixed_pairs`], 3072) and 6144 pairs
/// at rotation angles uniform over (0, 180) degrees, 32-byte aligned (a
/// multiple of 16 pairs: all go through the AVX kernels' vector loop).
pub fn pairs() -> (AlignedQuats, AlignedQuats) {
    let (mut a, mut b) = super::slerp_quats::pairs(0xa9_1e, 3072);
    let (c, d) = super::slerp_quats::pairs_at_angles(0xa9_1f, 6144, 1e-4, core::f64::consts::FRAC_PI_2 - 1e-4);
    for i in 0..c.len() {
        a.push(c[i]);
        b.push(d[i]);
    }
    (a, b)
}

/// Error of `got` against the f64 slerp of `a`, `b`, `t`; where `|a·b| <
/// 1e-6` both arcs are (nearly) equally short and either counts.
fn error(got: &Quat, a: &Quat, b: &Quat, t: f32) -> f64 {
    let got = got.to_array();
    animasm_testkit::error::either_arc(f64x4(a.to_array()), f64x4(b.to_array()), f64::from(t), 1e-6, |want| {
        animasm_testkit::error::max_abs_diff(got, want)
    })
}

/// The curve of a routine that maps (pairs, factor) to results.
fn curve(name: &str, a: &[Quat], b: &[Quat], run: impl Fn(f32) -> Vec<Quat>) -> Curve {
    let bins: Vec<usize> = (0..a.len()).map(|i| ((angle_deg(&a[i], &b[i]) / BIN_DEG) as usize).min(BINS - 1)).collect();
    let mut max_error = vec![None; BINS];
    for t in FACTORS {
        let out = run(t);
        for i in 0..a.len() {
            let e = error(&out[i], &a[i], &b[i], t);
            let slot: &mut Option<f64> = &mut max_error[bins[i]];
            *slot = Some(slot.map_or(e, |m: f64| m.max(e)));
        }
    }
    Curve { name: name.to_owned(), max_error }
}

/// The curves of every slerp-like routine this CPU runs: `slerp_joints`
/// scalar and asm (SSE), `slerp_quats` as published and corrected (AVX
/// only), and the scalar `nlerp`, `fnlerp`, `onlerp` (against the slerp,
/// as their article measures), over [`pairs`] and [`FACTORS`].
pub fn curves() -> Vec<Curve> {
    let (a, b) = pairs();
    let n = a.len();
    let mut out = Vec::new();
    let ja: Vec<JointQuat> = a.iter().map(|&q| JointQuat { q, t: Default::default() }).collect();
    let jb: Vec<JointQuat> = b.iter().map(|&q| JointQuat { q, t: Default::default() }).collect();
    let index: Vec<i32> = (0..n as i32).collect();
    for (imp, name) in [(Impl::Scalar, "slerp_joints scalar"), (Impl::Asm, "slerp_joints asm (SSE)")] {
        if animasm::slerp_joints::resolve(imp) != Ok(imp) {
            continue;
        }
        out.push(curve(name, &a, &b, |t| {
            let mut r = ja.clone();
            animasm::slerp_joints(imp, &mut r, &jb, t, &index).unwrap();
            r.iter().map(|j| j.q).collect()
        }));
    }
    #[cfg(target_arch = "x86_64")]
    if super::slerp_quats::avx() {
        use animasm::slerp_quats::asm;
        let kernels: [(&str, super::slerp_quats::Kernel); 2] = [
            ("slerp_quats AVX as published", asm::slerp_quats_as_published),
            ("slerp_quats AVX corrected", asm::slerp_quats_corrected),
        ];
        for (name, kernel) in kernels {
            out.push(curve(name, &a, &b, |t| {
                let mut r = AlignedQuats::zeroed(n);
                // SAFETY: three arrays of `n` (< 2^31) quaternions, 32-byte
                // aligned (`AlignedQuats`), `r` a distinct allocation; the
                // CPU has AVX (checked above).
                unsafe { kernel(r.as_mut_ptr(), a.as_ptr(), b.as_ptr(), t, n as i32) };
                r.to_vec()
            }));
        }
    }
    for f in super::nlerp::FUNCS {
        let g = f.scalar();
        out.push(curve(f.name(), &a, &b, |t| (0..n).map(|i| g(a[i], b[i], t)).collect()));
    }
    out
}
