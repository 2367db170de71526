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
//! Each target adds the routine's own documented guarantees on `Ok`.

use animasm::{Error, Impl, JointMat, JointQuat, Quat, Vec4};
pub use libfuzzer_sys::arbitrary::Unstructured;

/// Bytes to fuzz inputs. Every method returns something when the bytes run
/// out (zeros, the smallest choice), so any byte string is an input.
///
/// The first byte decides whether the input may be bad (one time in four):
/// only then do lengths, `index` entries, parents and ranges stray outside
/// what the safe functions accept, each now and then, so that most inputs
/// reach the kernels even with long lists.
pub struct Gen<'a> {
    /// The bytes left.
    pub u: Unstructured<'a>,
    /// Whether this input may hold bad lengths, indices, parents or ranges.
    pub bad: bool,
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
        let mut u = Unstructured::new(data);
        let bad = u.arbitrary::<u8>().unwrap_or(0).is_multiple_of(4);
        Gen { u, bad }
    }

    /// A byte.
    pub fn byte(&mut self) -> u8 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// Four bytes.
    pub fn u32(&mut self) -> u32 {
        self.u.arbitrary().unwrap_or(0)
    }

    /// Whether the next choice is "true", one time in `n`.
    pub fn one_in(&mut self, n: u8) -> bool {
        self.byte().is_multiple_of(n)
    }

    /// A length: mostly `0..=max_small`, sometimes up to `max`.
    pub fn len(&mut self, max_small: usize, max: usize) -> usize {
        if self.one_in(8) {
            self.u.int_in_range(0..=max).unwrap_or(0)
        } else {
            self.u.int_in_range(0..=max_small).unwrap_or(0)
        }
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
    /// a unit-range value, or any bit pattern.
    pub fn f32(&mut self) -> f32 {
        match self.byte() % 8 {
            0 | 1 => f32::from_bits(SPECIAL[self.byte() as usize % SPECIAL.len()]),
            2 | 3 => {
                let v: i16 = self.u.arbitrary().unwrap_or(0);
                v as f32 / (1u32 << (self.byte() % 24)) as f32
            }
            4 | 5 => (self.u32() >> 8) as f32 / (1u32 << 23) as f32 * 2.0 - 1.0,
            _ => f32::from_bits(self.u32()),
        }
    }

    /// A quaternion: often a unit one (normalised in f32), otherwise four
    /// [`Gen::f32`]s.
    pub fn quat(&mut self) -> Quat {
        let q = [self.f32(), self.f32(), self.f32(), self.f32()];
        if self.one_in(2) {
            let n = q.iter().map(|v| v * v).sum::<f32>().sqrt();
            if n.is_finite() && n > 0.0 {
                return Quat::from_array(q.map(|v| v / n));
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

    /// A joint matrix: often a rotation (from a unit quaternion) with a
    /// translation, otherwise twelve [`Gen::f32`]s.
    pub fn mat(&mut self) -> JointMat {
        if self.one_in(2) {
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
/// any lengths of `joints`, `blend` and `index`, any `index` entries, any
/// `lerp`, any floats. On `Ok`, besides the common checks: joints not
/// indexed are kept, `lerp <= 0` keeps every joint and `lerp >= 1` copies
/// the indexed blend joints, with every `Impl`; the scalar port and the
/// listing agree on which joints they write.
pub fn joint_routine(data: &[u8], f: JointFn, forms: impl Iterator<Item = Impl>) {
    let mut g = Gen::new(data);
    let n = g.len(16, 300);
    let joints = g.joints(n);
    let blend_len = g.len_near(n);
    let blend = g.joints(blend_len);
    let index_len = g.len(24, 400);
    let index: Vec<i32> = (0..index_len).map(|_| g.index_entry(n)).collect();
    let lerp = g.lerp();
    let runs = run_every_impl(forms, &joints, |imp, out| f(imp, out, &blend, lerp, &index));
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

/// Fuzzes skeleton transforms: any number of matrices, any `parents` (length
/// and entries), any range (empty, exhausted, out of bounds), any floats.
/// On `Ok`: joints outside the range are kept; the scalar port agrees with
/// the intrinsics as `scalar` says; every function of `fns` (variants of
/// one routine, whose forms are `forms`) gives the same results as the
/// first.
pub fn skeleton_routine(data: &[u8], fns: &[SkeletonFn], forms: &[Impl], scalar: ScalarAgrees) {
    let mut g = Gen::new(data);
    let n = g.len(20, 200);
    let mats = g.mats(n);
    let parents_len = g.len_near(n);
    let parents: Vec<i32> = (0..parents_len).map(|i| g.parent(i)).collect();
    let range = g.range(n);
    let mut first: Option<Vec<Run<JointMat>>> = None;
    for (k, f) in fns.iter().enumerate() {
        let runs = run_every_impl(forms.iter().copied(), &mats, |imp, out| f(imp, out, &parents, range.clone()));
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
                for (a, b) in prev.iter().zip(&runs).filter(|(a, b)| a.result.is_ok() && b.result.is_ok()) {
                    assert_same(&a.out, &b.out, &format!("{}: variant 0 vs variant {k}", a.imp));
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
