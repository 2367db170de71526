//! [`Gen`]: libFuzzer's bytes to lengths, indices, parents, ranges,
//! interpolation factors and floats.

use crate::{Buf, CAP};
use animasm::{JointMat, JointQuat, Quat, Vec4};

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
    rest: &'a [u8],
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

/// The longest list a target makes (plus one for a bad length):
/// most bugs show with a few dozen elements, and short lists keep the
/// targets at tens of thousands of executions per second.
pub const MAX_LEN: usize = 40;
const _: () = assert!(MAX_LEN + 2 <= CAP);

impl<'a> Gen<'a> {
    /// A generator over `data`.
    pub fn new(data: &'a [u8]) -> Self {
        // FNV-1a of the bytes, never zero (xorshift's fixed point).
        let rng =
            data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)) | 1;
        let (first, rest) = data.split_first().map_or((0, data), |(&f, r)| (f, r));
        Gen { rest, rng, bad: first.is_multiple_of(4), tame: (first >> 2).is_multiple_of(2) }
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
        match self.rest.split_first() {
            Some((&b, rest)) => {
                self.rest = rest;
                b
            }
            None => (self.next_random() >> 56) as u8,
        }
    }

    /// Four bytes: the next four input bytes, or the stream's once they run
    /// out.
    pub fn u32(&mut self) -> u32 {
        match self.rest.split_first_chunk::<4>() {
            Some((&b, rest)) => {
                self.rest = rest;
                u32::from_le_bytes(b)
            }
            None => (self.next_random() >> 32) as u32,
        }
    }

    /// Whether the next choice is "true", one time in `n`.
    pub fn one_in(&mut self, n: u8) -> bool {
        self.byte().is_multiple_of(n)
    }

    /// A length: `0..=33` (every tail of the 4-wide listings and of the
    /// 8-wide successors, and the boundaries of blocks of 4, 8, 16 and 32)
    /// seven times in eight, otherwise `0..=MAX_LEN`.
    pub fn length(&mut self) -> usize {
        let top = if self.one_in(8) { MAX_LEN } else { 33 };
        self.u32() as usize % (top + 1)
    }

    /// A length that must be `n`: `n`, or, in a bad input, half of the time
    /// `n` plus or minus a few (saturating at 0) or any length up to
    /// `MAX_LEN + 1`.
    pub fn len_near(&mut self, n: usize) -> usize {
        if !self.bad {
            return n;
        }
        match self.byte() % 8 {
            0..=3 => n,
            4 => n.saturating_sub(1),
            5 => n + 1,
            6 => n.saturating_sub(1 + self.byte() as usize % 8),
            _ => self.byte() as usize % (MAX_LEN + 2),
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
    pub fn joints(&mut self, n: usize) -> Buf<JointQuat> {
        Buf::from_fn(n, |_| self.joint())
    }

    /// `n` quaternions.
    pub fn quats(&mut self, n: usize) -> Buf<Quat> {
        Buf::from_fn(n, |_| self.quat())
    }

    /// A joint matrix: often (in a tame input always) a rotation (from a unit
    /// quaternion) with a translation, otherwise twelve [`Gen::f32`]s.
    pub fn mat(&mut self) -> JointMat {
        if self.one_in(2) || self.tame {
            let q = self.quat();
            let t = [self.f32(), self.f32(), self.f32()];
            rotation_translation(q, t)
        } else {
            JointMat { mat: core::array::from_fn(|_| self.f32()) }
        }
    }

    /// `n` joint matrices.
    pub fn mats(&mut self, n: usize) -> Buf<JointMat> {
        Buf::from_fn(n, |_| self.mat())
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
    /// (`start > end`, or exhausted) that starts at most at `n`, otherwise `first..=last` with `1 <=
    /// first <= last < n` (where `n >= 2`); in a bad input, its bounds
    /// within `0..=n + 1` or anything.
    pub fn range(&mut self, n: usize) -> core::ops::RangeInclusive<usize> {
        if !self.bad {
            if n >= 2 && !self.one_in(8) {
                let first = 1 + self.u32() as usize % (n - 1);
                let last = first + self.u32() as usize % (n - first);
                return first..=last;
            }
            // An empty range starts at most at `n` (slice indexing); one
            // that starts later is a bad input.
            let s = self.byte() as usize % (n + 1);
            if n == 0 || self.one_in(2) {
                // An exhausted range: `is_empty()` although `start <= end`.
                let mut range = s..=s;
                range.next();
                return range;
            }
            let s = s.min(n - 1);
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

/// The joint matrix of the rotation `q` (a unit quaternion, for a rotation)
/// followed by the translation `t`, in f32.
pub fn rotation_translation(q: Quat, t: [f32; 3]) -> JointMat {
    let [x, y, z, w] = q.to_array();
    let r = [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ];
    JointMat { mat: core::array::from_fn(|i| if i % 4 == 3 { t[i / 4] } else { r[i / 4][i % 4] }) }
}
