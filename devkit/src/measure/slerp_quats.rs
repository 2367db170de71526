//! `slerp_quats` (Mehrotra and Hubbard's AVX slerp of quaternion arrays):
//! the error measurements that `tests/slerp_quats.rs` asserts and
//! the report (`devkit/examples/report/`) prints. Max abs error against the f64 slerp, a NaN
//! counted as an infinite error, split at omega = 45 degrees (where the
//! article's `HALF_PI` enters).

use animasm::Quat;
use animasm::slerp_quats::AlignedQuats;
use animasm_testkit::cases;
use animasm_testkit::error::{max_abs_diff, omega_deg};
use animasm_testkit::oracle::{f64x4, slerp_f64};

/// A raw kernel: `(result, from, to, factor, count)`.
pub type Kernel = unsafe fn(*mut Quat, *const Quat, *const Quat, f32, i32);

/// [`cases::mixed_pairs`]' rotations (uniform, near parallel, near
/// opposite) in 32-byte-aligned storage.
pub fn pairs(seed: u64, n: usize) -> (AlignedQuats, AlignedQuats) {
    let (a, b) = cases::mixed_pairs(seed, n);
    (a.iter().map(|j| j.q).collect(), b.iter().map(|j| j.q).collect())
}

/// [`cases::pairs_at_angles`] (omega uniform in `[lo, hi)`) in
/// 32-byte-aligned storage.
pub fn pairs_at_angles(seed: u64, n: usize, lo: f64, hi: f64) -> (AlignedQuats, AlignedQuats) {
    let (a, b) = cases::pairs_at_angles(seed, n, lo, hi);
    (a.into_iter().collect(), b.into_iter().collect())
}

/// Max abs error against the f64 slerp: overall, for omega below 45
/// degrees and for omega at or above 45 degrees.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Errors {
    /// Over every pair.
    pub all: f64,
    /// Over the pairs less than 45 degrees apart.
    pub below45: f64,
    /// Over the pairs 45 degrees or more apart.
    pub above45: f64,
}

/// The factors the measurements sweep: 63 in (0, 1).
pub fn factors() -> impl Iterator<Item = f32> {
    super::lerps()
}

/// The measurement set: the shared mix of pairs plus a uniform sweep of
/// omega over (0, 90) degrees, 3072 + 2048 pairs (a multiple of 16: every
/// pair goes through the vector loop of the AVX kernels).
pub fn measurement_set() -> (AlignedQuats, AlignedQuats) {
    let (mut a, mut b) = pairs(0x51e7_a7c5, 3072);
    let (c, d) = pairs_at_angles(0xa7c5, 2048, 1e-4, std::f64::consts::FRAC_PI_2 - 1e-4);
    for i in 0..c.len() {
        a.push(c[i]);
        b.push(d[i]);
    }
    (a, b)
}

/// Whether this CPU runs the AVX forms of `slerp_quats` (the crate's
/// own dispatch says).
pub fn avx() -> bool {
    animasm::slerp_quats::forms().any(|i| i == animasm::Impl::Asm || i == animasm::Impl::Intrinsics)
}

/// Errors of `kernel` over [`measurement_set`] and [`factors`]. The
/// caller passes a kernel this CPU runs (an AVX one only where
/// [`avx`]).
pub fn errors(kernel: Kernel) -> Errors {
    let (a, b) = measurement_set();
    errors_on(kernel, &a, &b)
}

/// Errors of `kernel` over the pairs `a[i]`, `b[i]` and [`factors`]. `a`
/// and `b` start 32-byte aligned (`AlignedQuats`, or a slice of one from
/// index 0); the caller passes a kernel this CPU runs.
pub fn errors_on(kernel: Kernel, a: &[Quat], b: &[Quat]) -> Errors {
    assert_eq!(a.len(), b.len());
    let aligned = |p: *const Quat| (p as usize).is_multiple_of(32);
    assert!(a.len() < 16 || (aligned(a.as_ptr()) && aligned(b.as_ptr())), "misaligned");
    let omega: Vec<f64> = (0..a.len()).map(|i| omega_deg(&a[i], &b[i])).collect();
    let mut out = AlignedQuats::zeroed(a.len());
    let mut e = Errors::default();
    for t in factors() {
        // SAFETY: the three arrays hold `a.len()` (< 2^31) quaternions and
        // start 32-byte aligned (asserted; `out` is `AlignedQuats`), `out`
        // is a distinct allocation; the caller passes a kernel this CPU
        // runs.
        unsafe { kernel(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), t, a.len() as i32) };
        for i in 0..a.len() {
            let want = slerp_f64(f64x4(a[i].to_array()), f64x4(b[i].to_array()), f64::from(t));
            let d = max_abs_diff(out[i].to_array(), want);
            e.all = e.all.max(d);
            if omega[i] < 45.0 {
                e.below45 = e.below45.max(d);
            } else {
                e.above45 = e.above45.max(d);
            }
        }
    }
    e
}

/// The rows of the report's accuracy section: the published AVX kernel
/// (overall and split at 45 degrees), the corrected one and the 128-bit
/// SSE baseline, against the f64 slerp over [`measurement_set`] at 63
/// factors. The AVX rows only where the CPU has AVX. The article gives no
/// error figure.
pub fn report_rows() -> Vec<(String, f64, Option<f64>)> {
    #[cfg_attr(not(target_arch = "x86_64"), expect(unused_mut, reason = "every row is an x86_64 form"))]
    let mut rows = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        use animasm::slerp_quats::{asm, sse2};
        if avx() {
            let p = errors(asm::slerp_quats_as_published);
            rows.push(("slerp_quats as published (asm = intrinsics) vs f64 slerp, all".into(), p.all, None));
            rows.push(("slerp_quats as published, omega < 45 degrees (E3)".into(), p.below45, None));
            rows.push(("slerp_quats as published, omega >= 45 degrees (E1 + E3)".into(), p.above45, None));
            let c = errors(asm::slerp_quats_corrected);
            rows.push(("slerp_quats corrected (asm = intrinsics) vs f64 slerp".into(), c.all, None));
        }
        let s = errors(sse2::slerp_quats_sse);
        rows.push(("slerp_quats_sse (the 128-bit baseline) vs f64 slerp".into(), s.all, None));
    }
    rows
}
