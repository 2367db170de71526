//! Helpers shared by every SSE kernel: the `R_SHUFFLE_PS` immediate, the
//! `TRANSPOSE_4x4` macro as `asm!` text and as intrinsics.

/// `R_SHUFFLE_PS( x, y, z, w )` of the listings (and `R_SHUFFLE_D`, which is
/// the same): the `shufps` / `pshufd` immediate that picks lane `x` for lane
/// 0, `y` for lane 1, `z` for lane 2 and `w` for lane 3.
pub const fn r_shuffle_ps(x: i32, y: i32, z: i32, w: i32) -> i32 {
    ((w & 3) << 6) | ((z & 3) << 4) | ((y & 3) << 2) | (x & 3)
}

/// `R_SHUFFLE_D`: the same immediate for `pshufd`.
pub const fn r_shuffle_d(x: i32, y: i32, z: i32, w: i32) -> i32 {
    r_shuffle_ps(x, y, z, w)
}

/// `TRANSPOSE_4x4( reg0, reg1, reg2, reg3, reg4 )` of the listings as `asm!`
/// template text: twelve instructions that transpose the 4x4 matrix held in
/// `reg0..reg3` (rows in, columns out), with `reg4` as a temporary.
///
/// The two `shufps` immediates are the named `const` operands `{t0101}` =
/// `r_shuffle_ps(0, 1, 0, 1)` and `{t2323}` = `r_shuffle_ps(2, 3, 2, 3)`, which
/// the `asm!` block using the macro must supply.
macro_rules! transpose_4x4_text {
    ($r0:literal, $r1:literal, $r2:literal, $r3:literal, $r4:literal) => {
        concat!(
            "movaps ",
            $r4,
            ", ",
            $r2,
            "\n", // reg4 = 8, 9, 10, 11
            "unpcklps ",
            $r2,
            ", ",
            $r3,
            "\n", // reg2 = 8, 12, 9, 13
            "unpckhps ",
            $r4,
            ", ",
            $r3,
            "\n", // reg4 = 10, 14, 11, 15
            "movaps ",
            $r3,
            ", ",
            $r0,
            "\n", // reg3 = 0, 1, 2, 3
            "unpcklps ",
            $r0,
            ", ",
            $r1,
            "\n", // reg0 = 0, 4, 1, 5
            "unpckhps ",
            $r3,
            ", ",
            $r1,
            "\n", // reg3 = 2, 6, 3, 7
            "movaps ",
            $r1,
            ", ",
            $r0,
            "\n", // reg1 = 0, 4, 1, 5
            "shufps ",
            $r0,
            ", ",
            $r2,
            ", {t0101}\n", // reg0 = 0, 4, 8, 12
            "shufps ",
            $r1,
            ", ",
            $r2,
            ", {t2323}\n", // reg1 = 1, 5, 9, 13
            "movaps ",
            $r2,
            ", ",
            $r3,
            "\n", // reg2 = 2, 6, 3, 7
            "shufps ",
            $r2,
            ", ",
            $r4,
            ", {t0101}\n", // reg2 = 2, 6, 10, 14
            "shufps ",
            $r3,
            ", ",
            $r4,
            ", {t2323}\n", // reg3 = 3, 7, 11, 15
        )
    };
}
pub(crate) use transpose_4x4_text;

#[cfg(target_arch = "x86_64")]
pub use x86::*;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::r_shuffle_ps;
    use core::arch::x86_64::*;

    /// `R_SHUFFLE_PS( 0, 1, 0, 1 )`.
    pub const S0101: i32 = r_shuffle_ps(0, 1, 0, 1);
    /// `R_SHUFFLE_PS( 2, 3, 2, 3 )`.
    pub const S2323: i32 = r_shuffle_ps(2, 3, 2, 3);
    /// `R_SHUFFLE_PS( 0, 0, 0, 0 )`: broadcast lane 0.
    pub const S0000: i32 = r_shuffle_ps(0, 0, 0, 0);
    /// `R_SHUFFLE_PS( 1, 0, 2, 3 )`: swap lanes 0 and 1.
    pub const S1023: i32 = r_shuffle_ps(1, 0, 2, 3);

    /// `TRANSPOSE_4x4( reg0, reg1, reg2, reg3, reg4 )` with intrinsics, the
    /// listing's twelve operations in the listing's order; `r4` ends holding
    /// what the macro leaves in its temporary register.
    ///
    /// Callable safely from the kernels, which enable SSE themselves.
    ///
    /// # Safety
    ///
    /// Outside a `#[target_feature(enable = "sse")]` context a call is
    /// `unsafe`; it is sound on every `x86_64` CPU (SSE is baseline).
    #[inline]
    #[target_feature(enable = "sse")]
    pub fn transpose_4x4(r0: &mut __m128, r1: &mut __m128, r2: &mut __m128, r3: &mut __m128, r4: &mut __m128) {
        *r4 = *r2; //                                      movaps   reg4, reg2
        *r2 = _mm_unpacklo_ps(*r2, *r3); //                unpcklps reg2, reg3
        *r4 = _mm_unpackhi_ps(*r4, *r3); //                unpckhps reg4, reg3
        *r3 = *r0; //                                      movaps   reg3, reg0
        *r0 = _mm_unpacklo_ps(*r0, *r1); //                unpcklps reg0, reg1
        *r3 = _mm_unpackhi_ps(*r3, *r1); //                unpckhps reg3, reg1
        *r1 = *r0; //                                      movaps   reg1, reg0
        *r0 = _mm_shuffle_ps::<S0101>(*r0, *r2); //        shufps   reg0, reg2, (0,1,0,1)
        *r1 = _mm_shuffle_ps::<S2323>(*r1, *r2); //        shufps   reg1, reg2, (2,3,2,3)
        *r2 = *r3; //                                      movaps   reg2, reg3
        *r2 = _mm_shuffle_ps::<S0101>(*r2, *r4); //        shufps   reg2, reg4, (0,1,0,1)
        *r3 = _mm_shuffle_ps::<S2323>(*r3, *r4); //        shufps   reg3, reg4, (2,3,2,3)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_immediates() {
        assert_eq!(r_shuffle_ps(0, 1, 2, 3), 0xE4);
        assert_eq!(r_shuffle_ps(0, 0, 0, 0), 0);
        assert_eq!(r_shuffle_ps(0, 1, 0, 1), 0x44);
        assert_eq!(r_shuffle_ps(2, 3, 2, 3), 0xEE);
        assert_eq!(r_shuffle_ps(1, 0, 2, 3), 0xE1);
        assert_eq!(r_shuffle_d(3, 2, 1, 0), 0x1B);
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn transpose_transposes() {
        use core::arch::x86_64::*;
        let rows: [[f32; 4]; 4] = core::array::from_fn(|r| core::array::from_fn(|c| (r * 4 + c) as f32));
        // SAFETY: SSE is baseline on x86_64; loadu/storeu take unaligned pointers.
        unsafe {
            let mut r: [__m128; 5] = core::array::from_fn(|i| _mm_loadu_ps(rows[i.min(3)].as_ptr()));
            let [a, b, c, d, e] = &mut r;
            transpose_4x4(a, b, c, d, e);
            for (col, reg) in r[..4].iter().enumerate() {
                let mut out = [0f32; 4];
                _mm_storeu_ps(out.as_mut_ptr(), *reg);
                assert_eq!(out, core::array::from_fn(|row| (row * 4 + col) as f32));
            }
        }
    }
}
