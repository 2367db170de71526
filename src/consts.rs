//! The `SIMD_SP_*` / `SIMD_DW_*` constant tables of the listings, as
//! 16-byte-aligned statics shared by the asm and the intrinsics kernels.
//!
//! The asm kernels address them as `xmmword ptr [rip + {name}]` with
//! `name = sym SIMD_SP_NAME` (the absolute form of the 32-bit listings does
//! not link in a position-independent executable); the intrinsics kernels load
//! them with `Align16::ps` (x86_64). Constants the slerp listing uses without
//! defining them (`SIMD_SP_zero`, `SIMD_SP_tiny`, `SIMD_SP_absMask`,
//! `SIMD_SP_rsqrt_c0/c1`) take the values of `asm_notes/README.md`
//! ("Constants the listings use without defining").

// The coefficients are written as the paper prints them, with more digits
// than an f32 holds; the compiler rounds them as the C compiler did.
#![allow(clippy::excessive_precision)]

/// Four values behind one 16-byte-aligned address: the listings'
/// `ALIGN4_INIT1` / `ALIGN4_INIT4` statics.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug)]
pub struct Align16<T>(pub T);

const _: () = assert!(core::mem::align_of::<Align16<[f32; 4]>>() == 16);

/// `ALIGN4_INIT1( float X, I )`: a float broadcast to four lanes.
const fn f4(v: f32) -> Align16<[f32; 4]> {
    Align16([v; 4])
}

/// `ALIGN4_INIT1( unsigned long X, I )`: a bit pattern broadcast to four lanes.
const fn u4(v: u32) -> Align16<[u32; 4]> {
    Align16([v; 4])
}

/// `IEEE_SP_SIGN` of the listings: the sign bit of an IEEE single.
pub const IEEE_SP_SIGN: u32 = 1 << 31;

/// `SIMD_SP_signBit` = `IEEE_SP_SIGN` in every lane.
pub static SIMD_SP_SIGN_BIT: Align16<[u32; 4]> = u4(IEEE_SP_SIGN);
/// `SIMD_SP_absMask` = `0x7FFFFFFF` (used but not defined by Appendix A; `asm_notes/README.md`).
pub static SIMD_SP_ABS_MASK: Align16<[u32; 4]> = u4(0x7FFF_FFFF);
/// `SIMD_SP_zero` = `0.0f` (used but not defined by Appendix A; `asm_notes/README.md`).
pub static SIMD_SP_ZERO: Align16<[f32; 4]> = f4(0.0);
/// `SIMD_SP_one` = `1.0f`.
pub static SIMD_SP_ONE: Align16<[f32; 4]> = f4(1.0);
/// `SIMD_SP_tiny` = `1e-10f` (used but not defined by Appendix A; `asm_notes/README.md`).
pub static SIMD_SP_TINY: Align16<[f32; 4]> = f4(1e-10);
/// `SIMD_SP_halfPI` = `M_PI/2` rounded to a float.
pub static SIMD_SP_HALF_PI: Align16<[f32; 4]> = f4(core::f32::consts::FRAC_PI_2);

/// The successors' floor under the square of a polynomial's argument,
/// `2^-24` (not in any listing): `SinZeroHalfPI` and `ATanPositive` in
/// `s = a²` round to exactly `1` for every `s <= 2^-24` (the terms after the
/// first, `|s · (c1 + c2 s + ..)| < 0.34 · 2^-24 < 2^-25`, are below half
/// an ulp of 1), so evaluating them at `max(s, 2^-24)` gives the same bits
/// while `s²` and `s⁴` stay normal (a held pose has `a` near 1e-5 and
/// `a⁸` near 1e-40, a subnormal).
pub static SIMD_SP_POLY_FLOOR: Align16<[f32; 4]> = f4(1.0 / 16_777_216.0);

/// `SIMD_SP_rsqrt_c0` = `3.0f` (section 6 defines it as `SIMD_SP_rsqr_c0`).
pub static SIMD_SP_RSQRT_C0: Align16<[f32; 4]> = f4(3.0);
/// `SIMD_SP_rsqrt_c1` = `-0.5f` (section 6 defines it as `SIMD_SP_rsqr_c1`).
pub static SIMD_SP_RSQRT_C1: Align16<[f32; 4]> = f4(-0.5);

/// `SIMD_SP_sin_c0` .. `c4`: the `SinZeroHalfPI` polynomial, highest degree first.
pub static SIMD_SP_SIN_C0: Align16<[f32; 4]> = f4(-2.39e-08);
/// See [`SIMD_SP_SIN_C0`].
pub static SIMD_SP_SIN_C1: Align16<[f32; 4]> = f4(2.7526e-06);
/// See [`SIMD_SP_SIN_C0`].
pub static SIMD_SP_SIN_C2: Align16<[f32; 4]> = f4(-1.98409e-04);
/// See [`SIMD_SP_SIN_C0`].
pub static SIMD_SP_SIN_C3: Align16<[f32; 4]> = f4(8.3333315e-03);
/// See [`SIMD_SP_SIN_C0`].
pub static SIMD_SP_SIN_C4: Align16<[f32; 4]> = f4(-1.666666664e-01);

/// `SIMD_SP_atan_c0` .. `c7`: the `ATanPositive` polynomial, highest degree first.
pub static SIMD_SP_ATAN_C0: Align16<[f32; 4]> = f4(0.0028662257);
/// See [`SIMD_SP_ATAN_C0`].
pub static SIMD_SP_ATAN_C1: Align16<[f32; 4]> = f4(-0.0161657367);
/// See [`SIMD_SP_ATAN_C0`].
pub static SIMD_SP_ATAN_C2: Align16<[f32; 4]> = f4(0.0429096138);
/// See [`SIMD_SP_ATAN_C0`].
pub static SIMD_SP_ATAN_C3: Align16<[f32; 4]> = f4(-0.0752896400);
/// See [`SIMD_SP_ATAN_C0`].
pub static SIMD_SP_ATAN_C4: Align16<[f32; 4]> = f4(0.1065626393);
/// See [`SIMD_SP_ATAN_C0`].
pub static SIMD_SP_ATAN_C5: Align16<[f32; 4]> = f4(-0.1420889944);
/// See [`SIMD_SP_ATAN_C0`].
pub static SIMD_SP_ATAN_C6: Align16<[f32; 4]> = f4(0.1999355085);
/// See [`SIMD_SP_ATAN_C0`].
pub static SIMD_SP_ATAN_C7: Align16<[f32; 4]> = f4(-0.3333314528);

// @quats_to_mats constants

/// `IEEE_SP_ZERO` of the listings: the bit pattern of `+0.0f` (an `xorps`
/// lane that leaves the value as it is).
pub const IEEE_SP_ZERO: u32 = 0;

/// `ALIGN4_INIT4( unsigned long X, I0, I1, I2, I3 )`: four bit patterns
/// behind one 16-byte-aligned address. Appendix A of *From Quaternion to
/// Matrix and Back* uses the macro without defining it (it defines only
/// `ALIGN4_INIT1`); settled as `__declspec(align(16)) static X[4] = { I0,
/// I1, I2, I3 }` (`asm_notes/quats_to_mats.md`, erratum E1).
const fn u4x4(i0: u32, i1: u32, i2: u32, i3: u32) -> Align16<[u32; 4]> {
    Align16([i0, i1, i2, i3])
}

/// `SIMD_SP_quat2mat_x0` = `{ +, -, -, - }` as sign masks (`IEEE_SP_ZERO`,
/// `IEEE_SP_SIGN` x3): `xorps` turns the products `yy2, xy2, xz2, yz2` into
/// `yy2, -xy2, -xz2, -yz2` (first row of `ConvertJointQuatsToJointMats`).
pub static SIMD_SP_QUAT2MAT_X0: Align16<[u32; 4]> = u4x4(IEEE_SP_ZERO, IEEE_SP_SIGN, IEEE_SP_SIGN, IEEE_SP_SIGN);
/// `SIMD_SP_quat2mat_x1` = `{ -, +, -, - }`: turns `zz2, wz2, wy2, wx2` into
/// `-zz2, wz2, -wy2, -wx2` (first row).
pub static SIMD_SP_QUAT2MAT_X1: Align16<[u32; 4]> = u4x4(IEEE_SP_SIGN, IEEE_SP_ZERO, IEEE_SP_SIGN, IEEE_SP_SIGN);
/// `SIMD_SP_quat2mat_x2` = `{ +, -, -, - }`, the same bits as
/// [`SIMD_SP_QUAT2MAT_X0`] (the listing defines both, and the OCR prints both
/// alike): flips `wz2, wy2, wx2` back for the second row.
pub static SIMD_SP_QUAT2MAT_X2: Align16<[u32; 4]> = u4x4(IEEE_SP_ZERO, IEEE_SP_SIGN, IEEE_SP_SIGN, IEEE_SP_SIGN);

// @mats_to_quats constants

/// `SIMD_SP_not` = `0xFFFFFFFF` (Appendix B of *From Quaternion to Matrix and
/// Back*, which defines it with `ALIGN4_INIT1`): `xorps` with it inverts a mask.
pub static SIMD_SP_NOT: Align16<[u32; 4]> = u4(0xFFFF_FFFF);
/// `SIMD_DW_mat2quatShuffle0`: the byte indices `k0..k3` = 3, 2, 1, 0 of the
/// `w` case (trace > 0) of `ConvertJointMatsToJointQuats`, in every lane.
#[allow(clippy::identity_op)]
pub static SIMD_DW_MAT2QUAT_SHUFFLE0: Align16<[u32; 4]> = u4((3 << 0) | (2 << 8) | (1 << 16) | (0 << 24));
/// `SIMD_DW_mat2quatShuffle1`: `k0..k3` = 0, 1, 2, 3 (the `x` case).
#[allow(clippy::identity_op)]
pub static SIMD_DW_MAT2QUAT_SHUFFLE1: Align16<[u32; 4]> = u4((0 << 0) | (1 << 8) | (2 << 16) | (3 << 24));
/// `SIMD_DW_mat2quatShuffle2`: `k0..k3` = 1, 0, 3, 2 (the `y` case).
#[allow(clippy::identity_op)]
pub static SIMD_DW_MAT2QUAT_SHUFFLE2: Align16<[u32; 4]> = u4((1 << 0) | (0 << 8) | (3 << 16) | (2 << 24));
/// `SIMD_DW_mat2quatShuffle3`: `k0..k3` = 2, 3, 0, 1 (the `z` case).
#[allow(clippy::identity_op)]
pub static SIMD_DW_MAT2QUAT_SHUFFLE3: Align16<[u32; 4]> = u4((2 << 0) | (3 << 8) | (0 << 16) | (1 << 24));
/// `SIMD_SP_mat2quat_rsqrt_c1` = `-0.5f * 0.5f`: the Newton-Raphson constant
/// of `SIMD_SP_rsqrt_c1` premultiplied by the `0.5f` of `ReciprocalSqrt( t ) * 0.5f`.
pub static SIMD_SP_MAT2QUAT_RSQRT_C1: Align16<[f32; 4]> = f4(-0.5 * 0.5);

// @skeleton constants
/// `SIMD_SP_clearFirstThree` = `{ 0, 0, 0, 0xFFFFFFFF }` (*The Skeleton
/// Assembly Line*, Appendix A): `andps` with it keeps lane 3 of a 3x4 row, the
/// translation, and clears the rotation lanes 0..3 to `+0.0`.
pub static SIMD_SP_CLEAR_FIRST_THREE: Align16<[u32; 4]> = Align16([0, 0, 0, 0xFFFF_FFFF]);

// @slerp_quats constants

/// 32 bytes behind one 32-byte-aligned address: the `__m256` globals of
/// Mehrotra and Hubbard's AVX slerp (`DECLARE_INIT_M256( name, value )`),
/// which the VEX kernels of `crate::slerp_quats` read as `ymmword ptr`
/// operands (`vmovaps` and 256-bit memory operands need 32-byte alignment).
#[repr(C, align(32))]
#[derive(Clone, Copy, Debug)]
pub struct Align32<T>(pub T);

const _: () = assert!(core::mem::align_of::<Align32<[f32; 8]>>() == 32);

/// `DECLARE_INIT_M256( name, value )`: a float in all eight lanes.
const fn f8(v: f32) -> Align32<[f32; 8]> {
    Align32([v; 8])
}

/// A 32-bit pattern in all eight lanes: what `DECLARE_INIT_M256I( name,
/// value )` followed by `_mm256_castsi256_ps` is meant to give (erratum E4 of
/// `asm_notes/slerp_quats.md`: no compiler gives it).
const fn u8x8(v: u32) -> Align32<[u32; 8]> {
    Align32([v; 8])
}

/// `sinC0` = `SINC0` (-2.39e-08f): the `SinZeroHalfPI` polynomial of *Slerping
/// Clock Cycles*, highest degree first, as the AVX article prints it.
pub static AVX_SIN_C0: Align32<[f32; 8]> = f8(-2.39e-08);
/// `sinC1` = `SINC1`.
pub static AVX_SIN_C1: Align32<[f32; 8]> = f8(2.7526e-06);
/// `sinC2` = `SINC2`.
pub static AVX_SIN_C2: Align32<[f32; 8]> = f8(-1.98409e-04);
/// `sinC3` = `SINC3`.
pub static AVX_SIN_C3: Align32<[f32; 8]> = f8(8.3333315e-03);
/// `sinC4` = `SINC4`.
pub static AVX_SIN_C4: Align32<[f32; 8]> = f8(-1.666666664e-01);
/// `sqrtC0` = `RSQRT_C0` (3.0f).
pub static AVX_SQRT_C0: Align32<[f32; 8]> = f8(3.0);
/// `sqrtC1` **as published**: `DECLARE_INIT_M256(sqrtC1, RSQRT_C0)`, 3.0f
/// (erratum E2; `RSQRT_C1`, -0.5f, is meant). Harmless in the published
/// kernel only because its Newton-Raphson step is discarded (E3).
pub static AVX_SQRT_C1: Align32<[f32; 8]> = f8(3.0);
/// `sqrtC1` corrected: `RSQRT_C1` = -0.5f.
pub static AVX_SQRT_C1_CORRECTED: Align32<[f32; 8]> = f8(-0.5);
/// `atanC0` = `ATANC0`: the `ATanPositive` polynomial, highest degree first.
pub static AVX_ATAN_C0: Align32<[f32; 8]> = f8(0.0028662257);
/// `atanC1` = `ATANC1`.
pub static AVX_ATAN_C1: Align32<[f32; 8]> = f8(-0.0161657367);
/// `atanC2` = `ATANC2`.
pub static AVX_ATAN_C2: Align32<[f32; 8]> = f8(0.0429096138);
/// `atanC3` = `ATANC3`.
pub static AVX_ATAN_C3: Align32<[f32; 8]> = f8(-0.0752896400);
/// `atanC4` = `ATANC4`.
pub static AVX_ATAN_C4: Align32<[f32; 8]> = f8(0.1065626393);
/// `atanC5` = `ATANC5`.
pub static AVX_ATAN_C5: Align32<[f32; 8]> = f8(-0.1420889944);
/// `atanC6` = `ATANC6`.
pub static AVX_ATAN_C6: Align32<[f32; 8]> = f8(0.1999355085);
/// `atanC7` = `ATANC7`.
pub static AVX_ATAN_C7: Align32<[f32; 8]> = f8(-0.3333314528);
/// `allOnes` = `ALL_ONES` (1.0f).
pub static AVX_ALL_ONES: Align32<[f32; 8]> = f8(1.0);
/// `halfPi` **as published**: `HALF_PI` = `(float) (22.0f/7.0f/2.0f)` =
/// 1.5714285 (erratum E1: pi/2 = 1.5707964; 6.3e-4 too large).
pub static AVX_HALF_PI: Align32<[f32; 8]> = f8(22.0f32 / 7.0f32 / 2.0f32);
/// `halfPi` corrected: pi/2 rounded to a float.
pub static AVX_HALF_PI_CORRECTED: Align32<[f32; 8]> = f8(core::f32::consts::FRAC_PI_2);
/// `tiny` = `TINY` (0.1e-09f): replaces a zero `1 - cos²`.
pub static AVX_TINY: Align32<[f32; 8]> = f8(0.1e-09);
/// `clearSignBit` as intended: `CLEAR_SIGN_BIT` (0x7fffffff) in every lane.
/// The kernels use this value; erratum E4 describes what the article's
/// `DECLARE_INIT_M256I` really produces ([`AVX_CLEAR_SIGN_BIT_AS_GCC`],
/// [`AVX_CLEAR_SIGN_BIT_AS_MSVC`]).
pub static AVX_CLEAR_SIGN_BIT: Align32<[u32; 8]> = u8x8(0x7FFF_FFFF);
/// `setSignBit` as intended: `SET_SIGN_BIT` (0x80000000) in every lane.
pub static AVX_SET_SIGN_BIT: Align32<[u32; 8]> = u8x8(0x8000_0000);
/// `clearSignBit` as the article's `DECLARE_INIT_M256I` builds it where
/// `__m256i` is a vector of four `long long` (GCC, Clang, ICC on Linux and
/// macOS): the eight initialisers fill four 64-bit lanes (the excess is
/// dropped with a warning), so the odd 32-bit lanes are 0 (checked with GCC 12).
pub static AVX_CLEAR_SIGN_BIT_AS_GCC: Align32<[u32; 8]> =
    Align32([0x7FFF_FFFF, 0, 0x7FFF_FFFF, 0, 0x7FFF_FFFF, 0, 0x7FFF_FFFF, 0]);
/// `setSignBit` as GCC-compatible compilers build it (see
/// [`AVX_CLEAR_SIGN_BIT_AS_GCC`]).
pub static AVX_SET_SIGN_BIT_AS_GCC: Align32<[u32; 8]> =
    Align32([0x8000_0000, 0, 0x8000_0000, 0, 0x8000_0000, 0, 0x8000_0000, 0]);
/// `clearSignBit` as MSVC's `__m256i` (a union whose first member is
/// `__int8 m256i_i8[32]`) takes the initialiser, by the C rules: eight
/// `char`s, `(char)0x7fffffff` = 0xFF, then zeros: lanes 0 and 1 all ones,
/// lanes 2..7 zero (not checked with a compiler here).
pub static AVX_CLEAR_SIGN_BIT_AS_MSVC: Align32<[u32; 8]> = Align32([0xFFFF_FFFF, 0xFFFF_FFFF, 0, 0, 0, 0, 0, 0]);
/// `setSignBit` as MSVC takes it: `(char)0x80000000` = 0, all zero.
pub static AVX_SET_SIGN_BIT_AS_MSVC: Align32<[u32; 8]> = Align32([0; 8]);

// @nlerp constants
/// Kapoulkine's `fnlerp` correction ("Approximating slerp"):
/// `k = K[0] + d * (K[1] + d * K[2])` with `d = |dot(l, r)|`. Shared by the
/// SIMD kernels of `crate::nlerp`; the scalar port writes the literals.
pub const NLERP_FNLERP_K: [f32; 3] = [0.931872, -1.25654, 0.331442];
/// `onlerp`'s `A = A[0] + d * (A[1] + d * (A[2] - d * A[3]))` (*Optimizing
/// slerp*; note the minus before the last term, as printed).
pub const NLERP_ONLERP_A: [f32; 4] = [1.0904, -3.2452, 3.55645, 1.43519];
/// `onlerp`'s `B = B[0] + d * (B[1] + d * B[2])` (*Optimizing slerp*).
pub const NLERP_ONLERP_B: [f32; 3] = [0.848013, -1.06021, 0.215638];

#[cfg(target_arch = "x86_64")]
mod load {
    use super::Align16;
    use core::arch::x86_64::{__m128, _mm_castsi128_ps, _mm_load_ps, _mm_load_si128};

    impl Align16<[f32; 4]> {
        /// The four floats as an SSE register (`movaps xmm, SIMD_SP_x`).
        #[inline(always)]
        pub fn ps(&'static self) -> __m128 {
            // SAFETY: `self` is 16 bytes, 16-byte aligned (repr(align(16))) and
            // lives for 'static; SSE is part of the x86_64 baseline.
            unsafe { _mm_load_ps(self.0.as_ptr()) }
        }
    }

    impl Align16<[u32; 4]> {
        /// The four bit patterns as an SSE register, for `andps`/`xorps`.
        #[inline(always)]
        pub fn ps(&'static self) -> __m128 {
            // SAFETY: as above; the integers are reinterpreted, not converted.
            unsafe { _mm_castsi128_ps(_mm_load_si128(self.0.as_ptr().cast())) }
        }
    }
}
