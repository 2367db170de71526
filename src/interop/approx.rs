//! The `approx` feature: [`approx`] 0.5's `AbsDiffEq`, `RelativeEq` and
//! `UlpsEq` for [`Quat`], [`Vec4`], [`JointQuat`] and [`JointMat`],
//! component by component, as glam implements them for its types: two
//! values are equal when every pair of components is (`JointQuat`: the
//! eight of `q` and `t`; `JointMat`: the twelve elements). The defaults are
//! `f32`'s (`f32::EPSILON`, a relative 1.19e-7, 4 ulps).
//!
//! Component-wise means `q` and `-q`, the same rotation, are not equal: to
//! compare rotations whatever their sign, use the testkit's
//! `animasm_testkit::error::rotation_angle`, or compare with both signs.
//!
//! ```
//! use animasm::{JointMat, JointQuat, Quat, Vec4};
//! use approx::{assert_abs_diff_eq, assert_relative_eq, assert_relative_ne, assert_ulps_eq};
//!
//! let q = Quat::new(0.0, 0.0, 0.6, 0.8);
//! let next = Quat::new(0.0, 0.0, f32::from_bits(0.6f32.to_bits() + 1), 0.8); // 1 ulp apart
//! assert_ulps_eq!(q, next);
//! assert_relative_eq!(q, next);
//! assert_abs_diff_eq!(Vec4::new(1.0, 2.0, 3.0, 0.0), Vec4::new(1.0, 2.001, 3.0, 0.0), epsilon = 0.01);
//! // q and -q: the same rotation, not the same components.
//! assert_relative_ne!(q, Quat::new(-0.0, -0.0, -0.6, -0.8));
//!
//! let joint = JointQuat::new(q, Vec4::new(1.0, 2.0, 3.0, 0.0));
//! assert_ulps_eq!(joint, JointQuat::new(next, Vec4::new(1.0, 2.0, 3.0, 0.0)));
//! let mut m = JointMat::IDENTITY;
//! m.mat[3] = 1e-9;
//! assert_abs_diff_eq!(m, JointMat::IDENTITY, epsilon = 1e-6);
//! ```

use ::approx::{AbsDiffEq, RelativeEq, UlpsEq};

use crate::{JointMat, JointQuat, Quat, Vec4};

/// The components of a type, in a fixed order, for the comparisons.
trait Components {
    type Array: AsRef<[f32]>;
    fn components(&self) -> Self::Array;
}

impl Components for Quat {
    type Array = [f32; 4];
    fn components(&self) -> [f32; 4] {
        self.to_array()
    }
}

impl Components for Vec4 {
    type Array = [f32; 4];
    fn components(&self) -> [f32; 4] {
        self.to_array()
    }
}

impl Components for JointQuat {
    type Array = [f32; 8];
    fn components(&self) -> [f32; 8] {
        let (q, t) = (self.q.to_array(), self.t.to_array());
        [q[0], q[1], q[2], q[3], t[0], t[1], t[2], t[3]]
    }
}

impl Components for JointMat {
    type Array = [f32; 12];
    fn components(&self) -> [f32; 12] {
        self.mat
    }
}

/// Whether `f` holds for every pair of components.
fn all<T: Components>(a: &T, b: &T, f: impl Fn(&f32, &f32) -> bool) -> bool {
    a.components().as_ref().iter().zip(b.components().as_ref()).all(|(x, y)| f(x, y))
}

macro_rules! approx_impls {
    ($($t:ty),*) => {$(
        impl AbsDiffEq for $t {
            type Epsilon = <f32 as AbsDiffEq>::Epsilon;

            fn default_epsilon() -> Self::Epsilon {
                f32::default_epsilon()
            }

            fn abs_diff_eq(&self, other: &Self, epsilon: Self::Epsilon) -> bool {
                all(self, other, |a, b| a.abs_diff_eq(b, epsilon))
            }
        }

        impl RelativeEq for $t {
            fn default_max_relative() -> Self::Epsilon {
                f32::default_max_relative()
            }

            fn relative_eq(&self, other: &Self, epsilon: Self::Epsilon, max_relative: Self::Epsilon) -> bool {
                all(self, other, |a, b| a.relative_eq(b, epsilon, max_relative))
            }
        }

        impl UlpsEq for $t {
            fn default_max_ulps() -> u32 {
                f32::default_max_ulps()
            }

            fn ulps_eq(&self, other: &Self, epsilon: Self::Epsilon, max_ulps: u32) -> bool {
                all(self, other, |a, b| a.ulps_eq(b, epsilon, max_ulps))
            }
        }
    )*};
}

approx_impls!(Quat, Vec4, JointQuat, JointMat);

#[cfg(test)]
mod tests {
    use super::*;

    /// `x` moved by `ulps` units in the last place.
    fn step(x: f32, ulps: i32) -> f32 {
        f32::from_bits((x.to_bits() as i32 + ulps) as u32)
    }

    #[test]
    fn every_component_counts() {
        let m = JointMat { mat: core::array::from_fn(|i| i as f32 + 1.0) };
        for i in 0..12 {
            let mut n = m;
            n.mat[i] = step(n.mat[i], 5);
            assert!(!m.ulps_eq(&n, 0.0, 4), "element {i}");
            assert!(m.ulps_eq(&n, 0.0, 5), "element {i}");
            assert!(!m.abs_diff_eq(&n, 0.0) && m.relative_eq(&n, 0.0, 1e-5), "element {i}");
        }
        let j = JointQuat::new(Quat::new(0.1, 0.2, 0.3, 0.9), Vec4::new(4.0, 5.0, 6.0, 0.0));
        for i in 0..8 {
            let mut c = j.components();
            c[i] += 0.5;
            let k =
                JointQuat::new(Quat::from_array([c[0], c[1], c[2], c[3]]), Vec4::from_array([c[4], c[5], c[6], c[7]]));
            assert!(!j.abs_diff_eq(&k, 0.4) && j.abs_diff_eq(&k, 0.6), "component {i}");
        }
    }

    #[test]
    fn nan_is_never_equal() {
        let q = Quat::new(f32::NAN, 0.0, 0.0, 1.0);
        assert!(!q.abs_diff_eq(&q, 1.0) && !q.relative_eq(&q, 1.0, 1.0) && !q.ulps_eq(&q, 1.0, 100));
    }
}
