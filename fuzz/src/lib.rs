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
//! harness's `TOL_SCALAR` of `tests/common/routines.rs`), on every element
//! whose inputs are in the domain where that tolerance holds (unit
//! quaternions, rigid matrices, finite translations: see [`unit_quat`],
//! [`rigid`]); elsewhere (NaN, infinities, huge or non-unit values) only the
//! common checks apply. One input in two is *tame* ([`Gen::tame`]): all its
//! quaternions unit and matrices rigid, so that most lists reach those
//! comparisons whole.
//!
//! Lengths cover every tail of the 4-wide listings and of the 8-wide
//! successors (counts up to 24 often, up to a few hundred sometimes), and the
//! joint-list targets repeat `index` entries on purpose one input in four.

use animasm::{Error, Impl, JointMat, JointQuat, Quat, Vec4};
pub use libfuzzer_sys::arbitrary::Unstructured;

/// Bytes to fuzz inputs. When the bytes run out, every method goes on with a
/// pseudo-random stream seeded by a hash of all the bytes (xorshift64*), so
/// any byte string is an input, and a short one already gives lists of many
/// distinct joints: libFuzzer starts from inputs of a few bytes and lengthens
/// them slowly, and a zero-filled rest (identity quaternions, a zero factor)
/// would leave the comparisons with the scalar port nothing to compare.
///
/// The first byte decides whether the input may be bad (one time in four):
/// only then do lengths, `index` entries, parents and ranges stray outside
/// what the safe functions accept, each now and then, so that most inputs
/// reach the kernels even with long lists. Another bit of it decides whether
/// the input is tame (one time in two, see [`Gen::tame`]).
pub struct Gen<'a> {
    /// The bytes left.
    pub u: Unstructured<'a>,
    /// The pseudo-random stream's state, used once `u` is empty.
    rng: u64,
    /// Whether this input may hold bad lengths, indices, parents or ranges.
    pub bad: bool,
    /// Whether every float is moderate (no special value, no arbitrary bit
    /// pattern), every quaternion unit and every matrix rigid: the domain of
    /// the comparisons with the scalar port.
    pub tame: bool,
}

/// Floats where IEEE arithmetic and the listings' comparisons have their
/// special cases.
const SPECIAL: [u32; 24] = [
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3F80_0000, // 1
    0xBF80_0000, // -1
    0x3F00_0000, // 0.5
    0x3F35_04F3, // 1/sqrt(2)
    0x7F80_0000, // +inf
    0xFF80_0000, // -inf
    0x7FC0_0000, // quiet NaN
    0xFFC0_0000, // -quiet NaN
    0x7F80_0001, // signalling NaN
    0xFFA5_A5A5, // -signalling NaN with payload
    0x0000_0001, // smallest subnormal
    0x807F_FFFF, // largest negative subnormal
    0x0080_0000, // smallest normal
    0x7F7F_FFFF, // f32::MAX
    0xFF7F_FFFF, // f32::MIN
    0x3F7F_FFFF, // 1 - eps/2
    0x3F80_0001, // 1 + eps
    0x2EDB_E6FF, // 1e-10 (SIMD_SP_tiny)
    0x5F00_0000, // 2^63
    0x1E3C_E508, // 1e-20
    0x3FC9_0FDB, // pi/2
    0x4040_0000, // 3
];

impl<'a> Gen<'a> {
    /// A generator over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        // FNV-1a of the bytes, never zero (xorshift's fixed point).
        let rng =
            data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)) | 1;
        let mut u = Unstructured::new(data);
        let first = u.arbitrary::<u8>().unwrap_or(0);
        Gen { u, rng, bad: first.is_multiple_of(4), tame: (first >> 2).is_multiple_of(2) }
    }

    /// The next value of the pseudo-random stream (xorshift64*).
    fn next_random(&mut self) -> u64 {
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A byte: the next input byte, or the stream's once they run out.
    pub fn byte(&mut self) -> u8 {
        if self.u.is_empty() { (self.next_random() >> 56) as u8 } else { self.u.arbitrary().unwrap_or(0) }
    }

    /// Four bytes: the next four input bytes, or the stream's once they run
    /// out.
    pub fn u32(&mut self) -> u32 {
        if self.u.len() < 4 { (self.next_random() >> 32) as u32 } else { self.u.arbitrary().unwrap_or(0) }
    }

    /// Whether the next choice is "true", one time in `n`.
    pub fn one_in(&mut self, n: u8) -> bool {
        self.byte().is_multiple_of(n)
    }

    /// A length: mostly `0..=max_small`, sometimes up to `max`.
    pub fn len(&mut self, max_small: usize, max: usize) -> usize {
        let top = if self.one_in(8) { max } else { max_small };
        self.u32() as usize % (top + 1)
    }

    /// A length that must be `n`: `n`, or, in a bad input, half of the time
    /// `n` plus or minus a few (saturating at 0) or any small length.
    pub fn len_near(&mut self, n: usize) -> usize {
        if !self.bad {
            return n;
        }
        match self.byte() % 8 {
            0..=3 => n,
            4 => n.saturating_sub(1),
            5 => n + 1,
            6 => n.saturating_sub(1 + self.byte() as usize % 8),
            _ => self.byte() as usize % 64,
        }
    }

    /// A float: one of the special values, a moderate value (`i16 / 2^k`),
    /// a unit-range value, or any bit pattern; in a tame input only the
    /// moderate and unit-range ones.
    pub fn f32(&mut self) -> f32 {
        let pick = if self.tame { 2 + self.byte() % 4 } else { self.byte() % 8 };
        match pick {
            0 | 1 => f32::from_bits(SPECIAL[self.byte() as usize % SPECIAL.len()]),
            2 | 3 => {
                let v = self.u32() as u16 as i16;
                v as f32 / (1u32 << (self.byte() % 24)) as f32
            }
            4 | 5 => (self.u32() >> 8) as f32 / (1u32 << 23) as f32 * 2.0 - 1.0,
            _ => f32::from_bits(self.u32()),
        }
    }

    /// A quaternion: often (in a tame input always) a unit one (normalised
    /// in f32; the identity when the four floats are all zero), otherwise
    /// four [`Gen::f32`]s.
    pub fn quat(&mut self) -> Quat {
        let q = [self.f32(), self.f32(), self.f32(), self.f32()];
        if self.one_in(2) || self.tame {
            let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
            if n.is_finite() && n > 0.0 {
                return Quat::from_array(q.map(|v| v / n));
            }
            if self.tame {
                return Quat::IDENTITY;
            }
        }
        Quat::from_array(q)
    }

    /// Four [`Gen::f32`]s.
    pub fn vec4(&mut self) -> Vec4 {
        Vec4::new(self.f32(), self.f32(), self.f32(), self.f32())
    }

    /// A joint.
    pub fn joint(&mut self) -> JointQuat {
        JointQuat::new(self.quat(), self.vec4())
    }

    /// `n` joints.
    pub fn joints(&mut self, n: usize) -> Vec<JointQuat> {
        (0..n).map(|_| self.joint()).collect()
    }

    /// A joint matrix: often (in a tame input always) a rotation (from a unit
    /// quaternion) with a translation, otherwise twelve [`Gen::f32`]s.
    pub fn mat(&mut self) -> JointMat {
        if self.one_in(2) || self.tame {
            let [x, y, z, w] = self.quat().to_array();
            let t = [self.f32(), self.f32(), self.f32()];
            let r = [
                [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
                [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
                [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
            ];
            JointMat { mat: core::array::from_fn(|i| if i % 4 == 3 { t[i / 4] } else { r[i / 4][i % 4] }) }
        } else {
            JointMat { mat: core::array::from_fn(|_| self.f32()) }
        }
    }

    /// `n` joint matrices.
    pub fn mats(&mut self, n: usize) -> Vec<JointMat> {
        (0..n).map(|_| self.mat()).collect()
    }

    /// An `index` entry for `n` joints: in range, or, in a bad input, one
    /// time in four just outside it (`-1`, `n`) or any `i32`.
    pub fn index_entry(&mut self, n: usize) -> i32 {
        let pick = if self.bad { self.byte() % 16 } else { 15 };
        match pick {
            0 => -1,
            1 => n as i32,
            2 => self.u32() as i32,
            3 => [i32::MIN, i32::MAX, n as i32 + 1, -(n as i32)][self.byte() as usize % 4],
            _ => (self.u32() as usize % n.max(1)) as i32,
        }
    }

    /// A parent for joint `i`: a valid one (`0..i`; `-1` for the root), or,
    /// in a bad input, one time in four `-1`, `i` itself, a later joint or
    /// any `i32`.
    pub fn parent(&mut self, i: usize) -> i32 {
        let pick = if self.bad { self.byte() % 16 } else { 15 };
        match pick {
            0 => -1,
            1 => i as i32,
            2 => i as i32 + 1 + self.byte() as i32,
            3 => self.u32() as i32,
            _ if i == 0 => -1,
            _ => (self.u32() as usize % i) as i32,
        }
    }

    /// An interpolation factor: mostly in `[0, 1]`, sometimes special
    /// (NaN, infinities, subnormal, huge, negative) or any bit pattern.
    pub fn lerp(&mut self) -> f32 {
        match self.byte() % 4 {
            0 | 1 => (self.u32() >> 8) as f32 / (1u32 << 24) as f32,
            _ => self.f32(),
        }
    }

    /// A joint range for `n` joints: one time in eight an empty range
    /// (`start > end`, or exhausted), otherwise `first..=last` with `1 <=
    /// first <= last < n` (where `n >= 2`); in a bad input, its bounds
    /// within `0..=n + 1` or anything.
    pub fn range(&mut self, n: usize) -> core::ops::RangeInclusive<usize> {
        if !self.bad {
            if n >= 2 && !self.one_in(8) {
                let first = 1 + self.u32() as usize % (n - 1);
                let last = first + self.u32() as usize % (n - first);
                return first..=last;
            }
            let s = self.byte() as usize % (n + 2);
            if self.one_in(2) {
                // An exhausted range: `is_empty()` although `start <= end`.
                let mut range = s..=s;
                range.next();
                return range;
            }
            return s + 1..=s;
        }
        let bound = |g: &mut Self| match g.byte() % 16 {
            0 => g.u32() as usize,
            1 => usize::MAX - g.byte() as usize,
            _ => g.byte() as usize % (n + 2),
        };
        let (start, end) = (bound(self), bound(self));
        if self.one_in(16) {
            // An exhausted range: `is_empty()` although `start <= end`.
            let mut range = start..=start;
            range.next();
            return range;
        }
        start..=end
    }
}

/// Whether two floats are the same bit for bit, any two NaNs counting as the
/// same (see the crate docs above).
pub fn same_bits(x: f32, y: f32) -> bool {
    x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
}

/// The floats of a value made of `f32`s (`JointQuat`, `JointMat`).
pub trait Floats: Clone {
    /// Every float, in memory order.
    fn floats(&self) -> Vec<f32>;
}

impl Floats for JointQuat {
    fn floats(&self) -> Vec<f32> {
        let (q, t) = (self.q.to_array(), self.t.to_array());
        q.into_iter().chain(t).collect()
    }
}

impl Floats for JointMat {
    fn floats(&self) -> Vec<f32> {
        self.mat.to_vec()
    }
}

/// Panics unless `a` and `b` are the same bit for bit, exactly (no NaN
/// latitude: used where nothing may have been written).
#[track_caller]
pub fn assert_untouched<T: Floats>(a: &[T], b: &[T], ctx: &str) {
    assert_eq!(a.len(), b.len());
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        let (fx, fy) = (x.floats(), y.floats());
        for (l, (u, v)) in fx.iter().zip(&fy).enumerate() {
            assert!(
                u.to_bits() == v.to_bits(),
                "{ctx}: element {j} float {l} changed: {u:e} ({:#010x}) -> {v:e} ({:#010x})",
                u.to_bits(),
                v.to_bits()
            );
        }
    }
}

/// Panics unless `a` and `b` agree by [`same_bits`] in every float.
#[track_caller]
pub fn assert_same<T: Floats>(a: &[T], b: &[T], ctx: &str) {
    assert_eq!(a.len(), b.len());
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for (l, (u, v)) in x.floats().iter().zip(&y.floats()).enumerate() {
            assert!(
                same_bits(*u, *v),
                "{ctx}: element {j} float {l}: {u:e} ({:#010x}) vs {v:e} ({:#010x})",
                u.to_bits(),
                v.to_bits()
            );
        }
    }
}

/// Panics unless `a` and `b` agree by [`same_bits`] in every float, or are
/// both zeros (of either sign).
#[track_caller]
pub fn assert_same_up_to_sign_of_zero<T: Floats>(a: &[T], b: &[T], ctx: &str) {
    assert_eq!(a.len(), b.len());
    for (j, (x, y)) in a.iter().zip(b).enumerate() {
        for (l, (u, v)) in x.floats().iter().zip(&y.floats()).enumerate() {
            assert!(
                same_bits(*u, *v) || (*u == 0.0 && *v == 0.0),
                "{ctx}: element {j} float {l}: {u:e} ({:#010x}) vs {v:e} ({:#010x})",
                u.to_bits(),
                v.to_bits()
            );
        }
    }
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

/// What one implementation did: its result and its output.
pub struct Run<T> {
    /// The implementation.
    pub imp: Impl,
    /// What the safe function returned.
    pub result: Result<(), Error>,
    /// The output buffer after the call.
    pub out: Vec<T>,
}

/// Runs `f` with every form of [`Impl::ALL`] and [`Impl::Auto`], each on
/// its own copy of `init` (an allocation of exactly its length), and checks
/// the common guarantees (see the crate docs). `forms` is the routine's
/// `forms()`: what runs here, fastest first. Returns the runs, in
/// [`Impl::ALL`] order then `Auto`, for the target's own checks.
pub fn run_every_impl<T: Floats>(
    forms: impl Iterator<Item = Impl>,
    init: &[T],
    mut f: impl FnMut(Impl, &mut [T]) -> Result<(), Error>,
) -> Vec<Run<T>> {
    let forms: Vec<Impl> = forms.collect();
    assert!(!forms.is_empty(), "a routine with no form");
    let runs: Vec<Run<T>> = Impl::ALL
        .into_iter()
        .chain([Impl::Auto])
        .map(|imp| {
            let mut out = init.to_vec();
            let result = f(imp, &mut out);
            Run { imp, result, out }
        })
        .collect();
    let runs_here = |r: &&Run<T>| r.imp == Impl::Auto || forms.contains(&r.imp);
    for r in &runs {
        if !runs_here(&r) {
            assert!(refused(&r.result, r.imp), "{}, not among {forms:?}, returned {:?}", r.imp, r.result);
        }
        if r.result.is_err() {
            assert_untouched(init, &r.out, &format!("{} after {:?}", r.imp, r.result));
        }
    }
    let available: Vec<&Run<T>> = runs.iter().filter(runs_here).collect();
    for r in &available {
        assert!(
            same_result(&r.result, &available[0].result),
            "{} returned {:?}, {} returned {:?}",
            available[0].imp,
            available[0].result,
            r.imp,
            r.result
        );
    }
    // `get` returns only runs that returned `Ok`.
    if let (Some(a), Some(i)) = (get(&runs, Impl::Asm), get(&runs, Impl::Intrinsics)) {
        assert_same(&a.out, &i.out, "asm vs intrinsics");
    }
    if let (Some(auto), Some(first)) = (get(&runs, Impl::Auto), get(&runs, forms[0])) {
        assert_same(&auto.out, &first.out, &format!("auto vs {}", forms[0]));
    }
    runs
}

/// The run of `imp`, if it returned `Ok` (a form that cannot run here never
/// does: [`run_every_impl`] checks it).
pub fn get<T>(runs: &[Run<T>], imp: Impl) -> Option<&Run<T>> {
    runs.iter().find(|r| r.imp == imp && r.result.is_ok())
}

/// What the SSE listings make of a scalar matrix result: they add
/// `(0, 0, 0, t)` to every row, turning a `-0.0` in the rotation columns into
/// `+0.0` (and changing nothing else).
pub fn as_listing(m: &[JointMat]) -> Vec<JointMat> {
    m.iter()
        .map(|j| JointMat {
            mat: core::array::from_fn(|e| if e % 4 != 3 && j.mat[e].to_bits() == 0x8000_0000 { 0.0 } else { j.mat[e] }),
        })
        .collect()
}

// ---------------------------------------------------------------------------
// The routines' targets (one `fuzz_targets/<routine>.rs` each calls one).

/// A safe joint-list interpolator (`slerp_joints`, `lerp_joints`).
pub type JointFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

/// Fuzzes a joint-list interpolator with the forms `forms` (its `forms()`):
/// any lengths of `joints`, `blend` and `index`, any `index` entries (one
/// input in four with entries repeated on purpose, within and across blocks
/// of four and eight), any `lerp`, any floats. On `Ok`, besides the common
/// checks: joints not indexed are kept, `lerp <= 0` keeps every joint and
/// `lerp >= 1` copies the indexed blend joints, with every `Impl`; the
/// scalar port and the listing agree on which joints they write; every form
/// agrees with the scalar port within `tol_rot` (rotations) and
/// [`tol::JOINT_TRANSLATION`] (translations, relative above magnitude 1) on
/// every joint indexed once whose quaternions are unit
/// ([`joint_vs_scalar`]).
pub fn joint_routine(data: &[u8], f: JointFn, forms: impl Iterator<Item = Impl>, tol_rot: f64) {
    let mut g = Gen::new(data);
    let n = g.len(16, 300);
    let joints = g.joints(n);
    let blend_len = g.len_near(n);
    let blend = g.joints(blend_len);
    let index_len = g.len(24, 400);
    let mut index: Vec<i32> = (0..index_len).map(|_| g.index_entry(n)).collect();
    if index_len > 1 && g.one_in(4) {
        // Repeats: an entry copied from one of the eight before it.
        for k in 1..index_len {
            if g.one_in(3) {
                index[k] = index[k - 1 - g.byte() as usize % k.min(8)];
            }
        }
    }
    let lerp = g.lerp();
    let runs = run_every_impl(forms, &joints, |imp, out| f(imp, out, &blend, lerp, &index));
    joint_vs_scalar(&runs, &joints, &blend, lerp, &index, tol_rot);
    if let Some(Err(Error::NonFiniteFactor { what, position, value })) = runs.first().map(|r| r.result) {
        assert!(what == "lerp" && position.is_none() && same_bits(value, lerp), "{what} {position:?} {value}");
    }
    for r in runs.iter().filter(|r| r.result.is_ok()) {
        let indexed: Vec<bool> = (0..n).map(|j| index.contains(&(j as i32))).collect();
        for j in 0..n {
            let ctx = format!("{}: joint {j}, lerp {lerp:e}", r.imp);
            if !indexed[j] || lerp <= 0.0 {
                assert_untouched(&joints[j..=j], &r.out[j..=j], &format!("{ctx}: kept"));
            } else if lerp >= 1.0 {
                assert_same(&blend[j..=j], &r.out[j..=j], &format!("{ctx}: copied from blend"));
            }
        }
    }
}

/// A safe skeleton transform (`transform_skeleton`,
/// `transform_skeleton_movss_shufps`, `untransform_skeleton`).
pub type SkeletonFn = fn(Impl, &mut [JointMat], &[i32], core::ops::RangeInclusive<usize>) -> Result<(), Error>;

/// How the scalar port's results relate to the listing's, as documented.
#[derive(Clone, Copy, PartialEq)]
pub enum ScalarAgrees {
    /// Bit for bit (NaN payloads aside).
    Exactly,
    /// Bit for bit but for the sign of zeros: the listing adds `+0.0` to
    /// the rotation columns (turning a `-0.0` into `+0.0`, erratum E1 of
    /// `transform_skeleton`), and a child of a joint where that happened
    /// can then sum its zeros, translation included, to the other sign.
    /// The listing's written rotation elements are never `-0.0`.
    UpToSignOfZero,
}

/// The forms of `candidates` (a routine's `forms()`) that the skeleton
/// function `f` accepts: a call on an empty range checks the form before
/// anything else and returns `Err(Unsupported)` for a form `f` does not
/// have. For `transform_skeleton_movss_shufps`, which has no `forms()` of its
/// own and no successor.
pub fn skeleton_forms(f: SkeletonFn, candidates: impl Iterator<Item = Impl>) -> Vec<Impl> {
    candidates.filter(|&imp| f(imp, &mut [], &[], core::ops::RangeInclusive::new(1, 0)).is_ok()).collect()
}

/// What a skeleton routine computes, for [`skeleton_vs_scalar`].
#[derive(Clone, Copy, PartialEq)]
pub enum SkeletonOp {
    /// `transform_skeleton`: `M[i] = M[parents[i]] * M[i]`, parents first.
    Transform,
    /// `untransform_skeleton`: `M[i] = M[parents[i]]^-1 * M[i]` (the
    /// parents as they were), last joint first.
    Untransform,
}

/// Fuzzes skeleton transforms: any number of matrices, any `parents` (length
/// and entries), any range (empty, exhausted, out of bounds), any floats.
/// On `Ok`: joints outside the range are kept; the scalar port agrees with
/// the intrinsics as `scalar` says; every form agrees with the scalar port
/// within [`tol::SKELETON`] where the chain of matrices is rigid
/// ([`skeleton_vs_scalar`]); every function of `fns` (variants of one
/// routine, each with its forms: `skeleton_forms`) gives the same results as
/// the first with every form both have.
pub fn skeleton_routine(data: &[u8], fns: &[(SkeletonFn, Vec<Impl>)], op: SkeletonOp, scalar: ScalarAgrees) {
    let mut g = Gen::new(data);
    let n = g.len(24, 200);
    let mats = g.mats(n);
    let parents_len = g.len_near(n);
    let parents: Vec<i32> = (0..parents_len).map(|i| g.parent(i)).collect();
    let range = g.range(n);
    let mut first: Option<Vec<Run<JointMat>>> = None;
    for (k, (f, forms)) in fns.iter().enumerate() {
        let runs = run_every_impl(forms.iter().copied(), &mats, |imp, out| f(imp, out, &parents, range.clone()));
        skeleton_vs_scalar(&runs, &mats, &parents, &range, op);
        for r in runs.iter().filter(|r| r.result.is_ok()) {
            for j in (0..n).filter(|j| range.is_empty() || !range.contains(j)) {
                assert_untouched(&mats[j..=j], &r.out[j..=j], &format!("{}: joint {j} outside {range:?}", r.imp));
            }
        }
        if let (Some(s), Some(i)) = (get(&runs, Impl::Scalar), get(&runs, Impl::Intrinsics)) {
            match scalar {
                ScalarAgrees::Exactly => assert_same(&s.out, &i.out, "scalar vs intrinsics"),
                ScalarAgrees::UpToSignOfZero => {
                    assert_same_up_to_sign_of_zero(&s.out, &i.out, "scalar vs intrinsics");
                    for j in range.clone() {
                        let m = i.out[j].mat;
                        assert!(
                            (0..12).all(|e| e % 4 == 3 || m[e].to_bits() != 0x8000_0000),
                            "intrinsics: joint {j} has a -0.0 rotation element: {m:?}"
                        );
                    }
                }
            }
        }
        match &first {
            None => first = Some(runs),
            Some(prev) => {
                // Concrete forms both variants ran (`Auto` may pick
                // different forms in the two tables).
                for a in prev.iter().filter(|a| a.imp != Impl::Auto) {
                    if let (Some(a), Some(b)) = (get(prev, a.imp), get(&runs, a.imp)) {
                        assert_same(&a.out, &b.out, &format!("{}: variant 0 vs variant {k}", a.imp));
                    }
                }
            }
        }
    }
}

impl Floats for Quat {
    fn floats(&self) -> Vec<f32> {
        self.to_array().to_vec()
    }
}

// ---------------------------------------------------------------------------
// Every form against the scalar port.

/// The tolerances of the comparisons with the scalar port: the harness's
/// `TOL_SCALAR` of each routine (`tests/common/routines.rs`), the max abs
/// difference of any form from the scalar port that the tests accept. They
/// hold for values of magnitude up to about 1 (unit quaternions, rotations);
/// the fuzz targets apply them relative to the magnitude of the terms where
/// that is larger (translations, products with translations), since their
/// floats reach 3e4 where the tests' stay within 10.
pub mod tol {
    /// `slerp_joints`' rotations.
    pub const SLERP_JOINTS: f64 = 5e-7;
    /// `lerp_joints`' rotations.
    pub const LERP_JOINTS: f64 = 5e-7;
    /// The joint routines' translations (relative above magnitude 1).
    pub const JOINT_TRANSLATION: f64 = 5e-7;
    /// `quats_to_mats`.
    pub const QUATS_TO_MATS: f64 = 5e-7;
    /// `mats_to_quats` (up to sign: the C port's `ReciprocalSqrt` is good to
    /// 1.8e-3).
    pub const MATS_TO_QUATS: f64 = 1.81e-3;
    /// `transform_skeleton` and `untransform_skeleton`.
    pub const SKELETON: f64 = 1e-5;
    /// `transform_joints`.
    pub const TRANSFORM_JOINTS: f64 = 5e-6;
}

/// Whether `q` is a unit quaternion to within f32 normalisation (finite,
/// `| |q|^2 - 1 | <= 1e-5`): the domain of the interpolators' and
/// `quats_to_mats`' tolerances.
pub fn unit_quat(q: Quat) -> bool {
    let n2: f64 = q.to_array().iter().map(|&v| f64::from(v) * f64::from(v)).sum();
    n2.is_finite() && (n2 - 1.0).abs() <= 1e-5
}

/// Whether `m` is rigid (the rotation orthonormal with determinant 1 to
/// within 1e-5, every element finite) with a translation of magnitude at
/// most 1e6: the domain of the matrix routines' tolerances.
pub fn rigid(m: &JointMat) -> bool {
    let e = |r: usize, c: usize| f64::from(m.mat[r * 4 + c]);
    if !m.mat.iter().all(|v| v.is_finite()) || (0..3).any(|r| e(r, 3).abs() > 1e6) {
        return false;
    }
    for a in 0..3 {
        for b in 0..3 {
            let dot: f64 = (0..3).map(|k| e(k, a) * e(k, b)).sum();
            if (dot - if a == b { 1.0 } else { 0.0 }).abs() > 1e-5 {
                return false;
            }
        }
    }
    let det = e(0, 0) * (e(1, 1) * e(2, 2) - e(1, 2) * e(2, 1)) - e(0, 1) * (e(1, 0) * e(2, 2) - e(1, 2) * e(2, 0))
        + e(0, 2) * (e(1, 0) * e(2, 1) - e(1, 1) * e(2, 0));
    (det - 1.0).abs() <= 1e-5
}

/// The largest translation component of `m`, in magnitude.
pub fn translation_magnitude(m: &JointMat) -> f64 {
    [m.mat[3], m.mat[7], m.mat[11]].iter().map(|v| f64::from(v.abs())).fold(0.0, f64::max)
}

/// `|a - b|`, infinite where either is NaN.
fn diff(a: f32, b: f32) -> f64 {
    let d = (f64::from(a) - f64::from(b)).abs();
    if d.is_nan() { f64::INFINITY } else { d }
}

/// The runs to compare with the scalar port: every concrete form that
/// returned `Ok`, but the scalar port itself (`Auto` is compared bit for bit
/// with the form it picks by [`run_every_impl`]). Paired with the scalar run,
/// if that returned `Ok`.
fn vs_scalar_runs<T>(runs: &[Run<T>]) -> Option<(&Run<T>, Vec<&Run<T>>)> {
    let s = get(runs, Impl::Scalar)?;
    Some((s, runs.iter().filter(|r| r.result.is_ok() && r.imp != Impl::Scalar && r.imp != Impl::Auto).collect()))
}

/// The joint-list interpolators: every form against the scalar port, on
/// every joint that `index` names exactly once (a repeated joint's result
/// depends on the form's blocks, as documented) whose quaternion and blend
/// quaternion are unit and whose translations are at most 1e6 in magnitude
/// (beyond, the listing's `t0 + (t1 - t0) lerp` can overflow where the C's
/// form does not), for `0 < lerp < 1`. Rotations within `tol_rot`; translations within
/// [`tol::JOINT_TRANSLATION`] times the larger of 1 and their magnitude.
/// `slerp_joints`' shortest-arc choice is a sign test of the dot product:
/// joints whose dot product is within 1e-5 of zero (where the forms may
/// round it to different signs, and the listing takes `-0.0` as negative)
/// are left out.
pub fn joint_vs_scalar(
    runs: &[Run<JointQuat>],
    joints: &[JointQuat],
    blend: &[JointQuat],
    lerp: f32,
    index: &[i32],
    tol_rot: f64,
) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    if !(lerp > 0.0 && lerp < 1.0) {
        return;
    }
    let mut count = vec![0u32; joints.len()];
    for &j in index {
        count[j as usize] += 1;
    }
    for j in (0..joints.len()).filter(|&j| count[j] == 1) {
        let (a, b) = (joints[j], blend[j]);
        let dot: f64 = a.q.to_array().iter().zip(b.q.to_array()).map(|(&x, y)| f64::from(x) * f64::from(y)).sum();
        let t = a.t.to_array().into_iter().chain(b.t.to_array());
        // Translations of magnitude at most 1e6: beyond, `t1 - t0` (the
        // listing's lerp) may overflow where the C's form does not.
        if !unit_quat(a.q) || !unit_quat(b.q) || dot.abs() < 1e-5 || !t.clone().all(|v| v.abs() <= 1e6) {
            continue;
        }
        let scale = t.map(|v| f64::from(v.abs())).fold(1.0, f64::max);
        let want = s.out[j].floats();
        for r in &others {
            let got = r.out[j].floats();
            for (l, (&g, &w)) in got.iter().zip(&want).enumerate() {
                let bound = if l < 4 { tol_rot } else { tol::JOINT_TRANSLATION * scale };
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {j} float {l}: {g:e} vs the scalar port's {w:e} (difference {:e} > {bound:e}; \
                     lerp {lerp:e}, joint {:?}, blend {:?})",
                    r.imp,
                    diff(g, w),
                    a.floats(),
                    b.floats()
                );
            }
        }
    }
}

/// `quats_to_mats`: every form against the scalar port on every joint with
/// a unit quaternion and a finite translation: rotation elements within
/// [`tol::QUATS_TO_MATS`], translations within it relative to their
/// magnitude (every form copies them).
pub fn quats_to_mats_vs_scalar(runs: &[Run<JointMat>], quats: &[JointQuat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for (j, q) in quats.iter().enumerate() {
        if !unit_quat(q.q) || !q.t.to_array().iter().all(|v| v.is_finite()) {
            continue;
        }
        for r in &others {
            for e in 0..12 {
                let (g, w) = (r.out[j].mat[e], s.out[j].mat[e]);
                let bound = tol::QUATS_TO_MATS * if e % 4 == 3 { f64::from(w.abs()).max(1.0) } else { 1.0 };
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {j} mat[{e}]: {g:e} vs the scalar port's {w:e} (bound {bound:e}; quat {:?})",
                    r.imp,
                    q.floats()
                );
            }
        }
    }
}

/// `mats_to_quats`: every form against the scalar port on every rigid
/// matrix: the quaternion within [`tol::MATS_TO_QUATS`] up to sign, the
/// translation within it relative to its magnitude, `t.w` the same.
pub fn mats_to_quats_vs_scalar(runs: &[Run<JointQuat>], mats: &[JointMat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for (j, m) in mats.iter().enumerate() {
        if !rigid(m) {
            continue;
        }
        let want = s.out[j].floats();
        for r in &others {
            let got = r.out[j].floats();
            let q = |sign: f64| (0..4).map(|k| diff(got[k], (sign * f64::from(want[k])) as f32)).fold(0.0, f64::max);
            let dq = q(1.0).min(q(-1.0));
            assert!(
                dq <= tol::MATS_TO_QUATS,
                "{}: joint {j}: quaternion {:?} vs the scalar port's {:?} up to sign: {dq:e} (matrix {:?})",
                r.imp,
                &got[..4],
                &want[..4],
                m.mat
            );
            for k in 4..8 {
                let bound = tol::MATS_TO_QUATS * f64::from(want[k].abs()).max(1.0);
                assert!(
                    diff(got[k], want[k]) <= bound,
                    "{}: joint {j}: translation {k}: {:e} vs {:e}",
                    r.imp,
                    got[k],
                    want[k]
                );
            }
        }
    }
}

/// `transform_joints`: every form against the scalar port on every joint
/// whose two matrices are rigid, within [`tol::TRANSFORM_JOINTS`] times the
/// larger of 1 and the sum of the two translations' magnitudes.
pub fn transform_joints_vs_scalar(runs: &[Run<JointMat>], a: &[JointMat], b: &[JointMat]) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for j in 0..s.out.len().min(a.len()).min(b.len()) {
        if !rigid(&a[j]) || !rigid(&b[j]) {
            continue;
        }
        let bound = tol::TRANSFORM_JOINTS * (1.0 + translation_magnitude(&a[j]) + translation_magnitude(&b[j]));
        for r in &others {
            for e in 0..12 {
                let (g, w) = (r.out[j].mat[e], s.out[j].mat[e]);
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {j} mat[{e}]: {g:e} vs the scalar port's {w:e} (bound {bound:e})",
                    r.imp
                );
            }
        }
    }
}

/// The skeleton routines: every form against the scalar port on every joint
/// of the range whose matrices are rigid: for `transform_skeleton` every
/// matrix on its chain of parents back to the first joint outside the range
/// (`depth` of them), within [`tol::SKELETON`] times the larger of 1 and the
/// sum of the chain's translations' magnitudes, times the larger of 1 and
/// `depth / 8` (the error grows with the chain); for
/// `untransform_skeleton` its own and its parent's, within
/// [`tol::SKELETON`] times the larger of 1 and the sum of their
/// translations' magnitudes.
pub fn skeleton_vs_scalar(
    runs: &[Run<JointMat>],
    mats: &[JointMat],
    parents: &[i32],
    range: &core::ops::RangeInclusive<usize>,
    op: SkeletonOp,
) {
    let Some((s, others)) = vs_scalar_runs(runs) else { return };
    for i in range.clone() {
        let (mut ok, mut scale, mut depth) = (true, 1.0, 0usize);
        let mut j = i;
        loop {
            ok &= rigid(&mats[j]);
            scale += translation_magnitude(&mats[j]);
            depth += 1;
            let p = parents[j] as usize;
            if op == SkeletonOp::Untransform {
                ok &= rigid(&mats[p]);
                scale += translation_magnitude(&mats[p]);
                break;
            }
            if !range.contains(&p) {
                ok &= rigid(&mats[p]);
                scale += translation_magnitude(&mats[p]);
                break;
            }
            j = p;
        }
        if !ok {
            continue;
        }
        let bound = tol::SKELETON * scale * (depth as f64 / 8.0).max(1.0);
        for r in &others {
            for e in 0..12 {
                let (g, w) = (r.out[i].mat[e], s.out[i].mat[e]);
                assert!(
                    diff(g, w) <= bound,
                    "{}: joint {i} mat[{e}]: {g:e} vs the scalar port's {w:e} (bound {bound:e}, chain of {depth})",
                    r.imp
                );
            }
        }
    }
}
