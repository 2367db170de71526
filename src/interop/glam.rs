//! glam 0.30: `From` impls for the lane-for-lane conversions of [`Quat`] and
//! [`Vec4`], and the named functions [`JointQuat::from_glam`],
//! [`JointQuat::to_glam`], [`JointMat::from_glam`] and [`JointMat::to_glam`].
//!
//! glam's `Quat` is Hamilton's, as glTF's: `Affine3A::from_rotation_translation(r, t)`
//! applies `R(r)` to column vectors. The papers' kernels read a quaternion
//! `q` as the rotation `R(q)^T = R(conj q)` (README, "Conventions"), so a
//! rotation crosses with a conjugate, which [`JointQuat::from_glam`] and
//! [`JointQuat::to_glam`] apply and the `From` impls do not.

use crate::types::{JointMat, JointQuat, Quat, Vec4};
use ::glam::{Affine3A, Mat3A, Vec3, Vec3A};

/// Lane for lane: `(x, y, z, w)` as they are. Not the same rotation for the
/// kernels: glam reads the quaternion as Hamilton's, [`quats_to_mats`](crate::quats_to_mats())
/// as its conjugate. To hand a glam rotation to the kernels, use
/// [`JointQuat::from_glam`].
///
/// ```
/// let q = animasm::Quat::from(glam::Quat::from_xyzw(0.5, -0.5, 0.5, 0.5));
/// assert_eq!(q.to_array(), [0.5, -0.5, 0.5, 0.5]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<glam::Quat> for Quat {
    fn from(q: glam::Quat) -> Self {
        Quat::from_array(q.to_array())
    }
}

/// Lane for lane: `(x, y, z, w)` as they are. Not the same rotation for glam
/// as for the kernels (see `From<glam::Quat> for Quat`); to take a joint's
/// rotation back into glam's convention, use [`JointQuat::to_glam`].
///
/// ```
/// let q = glam::Quat::from(animasm::Quat::new(0.5, -0.5, 0.5, 0.5));
/// assert_eq!(q.to_array(), [0.5, -0.5, 0.5, 0.5]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Quat> for glam::Quat {
    fn from(q: Quat) -> Self {
        glam::Quat::from_array(q.to_array())
    }
}

/// Lane for lane: `(x, y, z, w)` as they are.
///
/// ```
/// let v = animasm::Vec4::from(glam::Vec4::new(1.0, 2.0, 3.0, 4.0));
/// assert_eq!(v, animasm::Vec4::new(1.0, 2.0, 3.0, 4.0));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<glam::Vec4> for Vec4 {
    fn from(v: glam::Vec4) -> Self {
        Vec4::from_array(v.to_array())
    }
}

/// Lane for lane: `(x, y, z, w)` as they are.
///
/// ```
/// let v = glam::Vec4::from(animasm::Vec4::new(1.0, 2.0, 3.0, 4.0));
/// assert_eq!(v, glam::Vec4::new(1.0, 2.0, 3.0, 4.0));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl From<Vec4> for glam::Vec4 {
    fn from(v: Vec4) -> Self {
        glam::Vec4::from_array(v.to_array())
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl JointQuat {
    /// A joint from a glam rotation and translation, crossing the quaternion
    /// convention: `q` is the conjugate of `rotation` (`(-x, -y, -z, w)`),
    /// so that [`quats_to_mats`](crate::quats_to_mats()) gives the matrix of
    /// `Affine3A::from_rotation_translation(rotation, translation)` (within
    /// the kernel's rounding; [`JointMat::to_glam`] reads it back); `t` is
    /// `translation` with `t.w = 0`, as [`mats_to_quats`](crate::mats_to_quats())
    /// writes it. The same bits as [`JointQuat::from_gltf`] of the same
    /// numbers. Nothing is normalised: give a unit quaternion.
    ///
    /// ```
    /// use animasm::{quats_to_mats, Impl, JointMat, JointQuat};
    /// use glam::{Affine3A, Quat, Vec3};
    ///
    /// let (r, t) = (Quat::from_rotation_z(core::f32::consts::FRAC_PI_2), Vec3::new(1.0, 2.0, 3.0));
    /// let mut mat = [JointMat::IDENTITY];
    /// quats_to_mats(Impl::Auto, &mut mat, &[JointQuat::from_glam(r, t)])?;
    /// let want = Affine3A::from_rotation_translation(r, t);
    /// assert!(mat[0].to_glam().abs_diff_eq(want, 1e-6));
    /// // x turns into y, as in glam.
    /// let p = mat[0].transform_point([1.0, 0.0, 0.0]);
    /// assert!(Vec3::from_array(p).abs_diff_eq(Vec3::new(1.0, 3.0, 3.0), 1e-6));
    /// # Ok::<(), animasm::Error>(())
    /// ```
    pub fn from_glam(rotation: glam::Quat, translation: Vec3) -> Self {
        JointQuat::from_gltf(rotation.to_array(), translation.to_array())
    }

    /// The inverse of [`JointQuat::from_glam`]: the rotation in glam's
    /// convention (`q` conjugated back) and the translation (`t.w` dropped).
    /// Exact: `JointQuat::from_glam(r, t).to_glam() == (r, t)` bit for bit.
    ///
    /// ```
    /// use animasm::JointQuat;
    /// use glam::{Quat, Vec3};
    ///
    /// let (r, t) = (Quat::from_rotation_x(0.3), Vec3::new(-1.0, 0.5, 2.0));
    /// assert_eq!(JointQuat::from_glam(r, t).to_glam(), (r, t));
    /// ```
    pub fn to_glam(&self) -> (glam::Quat, Vec3) {
        let (rotation, translation) = self.to_gltf();
        (glam::Quat::from_array(rotation), Vec3::from_array(translation))
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "glam")))]
impl JointMat {
    /// An `Affine3A` as a joint matrix. Both read the matrix for column
    /// vectors (`v' = M v + t`), so the numbers are copied, not transposed:
    /// `mat[r * 4 + c]` is row `r` of `matrix3`'s column `c`, and
    /// `mat[r * 4 + 3]` is `translation[r]`. Exact.
    ///
    /// ```
    /// use animasm::JointMat;
    /// use glam::{Affine3A, Quat, Vec3};
    ///
    /// let a = Affine3A::from_rotation_translation(Quat::from_rotation_y(1.0), Vec3::new(4.0, 5.0, 6.0));
    /// let m = JointMat::from_glam(a);
    /// assert_eq!(m.translation(), [4.0, 5.0, 6.0]);
    /// assert_eq!(m.mat[2], a.matrix3.z_axis.x); // row 0, column 2
    /// assert_eq!(m.to_glam(), a);
    /// ```
    pub fn from_glam(a: Affine3A) -> Self {
        let (x, y, z, t) = (a.matrix3.x_axis, a.matrix3.y_axis, a.matrix3.z_axis, a.translation);
        JointMat { mat: [x.x, y.x, z.x, t.x, x.y, y.y, z.y, t.y, x.z, y.z, z.z, t.z] }
    }

    /// The inverse of [`JointMat::from_glam`]: the matrix as an `Affine3A`,
    /// the numbers copied. Exact.
    ///
    /// Products match: for joint matrices `p` and `l`, `(p * l)` in glam is
    /// what [`transform_skeleton`](crate::transform_skeleton()) computes for a
    /// child `l` of `p` (within rounding).
    ///
    /// ```
    /// use animasm::{transform_skeleton, Impl, JointMat};
    /// use glam::{Affine3A, Quat, Vec3};
    ///
    /// let parent = Affine3A::from_rotation_translation(Quat::from_rotation_z(0.7), Vec3::new(1.0, 0.0, 0.0));
    /// let local = Affine3A::from_rotation_translation(Quat::from_rotation_x(-0.4), Vec3::new(0.0, 2.0, 0.0));
    /// let mut mats = [JointMat::from_glam(parent), JointMat::from_glam(local)];
    /// transform_skeleton(Impl::Auto, &mut mats, &[-1, 0], 1..=1)?;
    /// assert!(mats[1].to_glam().abs_diff_eq(parent * local, 1e-6));
    /// # Ok::<(), animasm::Error>(())
    /// ```
    pub fn to_glam(&self) -> Affine3A {
        let m = &self.mat;
        Affine3A {
            matrix3: Mat3A::from_cols(
                Vec3A::new(m[0], m[4], m[8]),
                Vec3A::new(m[1], m[5], m[9]),
                Vec3A::new(m[2], m[6], m[10]),
            ),
            translation: Vec3A::new(m[3], m[7], m[11]),
        }
    }
}
