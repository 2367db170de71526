//! mint 0.5: `From` impls for the lane-for-lane conversions of [`Quat`],
//! [`Vec4`] and [`JointMat`], and the named functions
//! [`JointQuat::from_mint`] and [`JointQuat::to_mint`].
//!
//! mint's `Quaternion` is Hamilton's ("corresponds to a right-handed
//! rotation matrix"), as glam's and glTF's; the papers' kernels read a
//! quaternion `q` as the rotation `R(q)^T = R(conj q)` (README,
//! "Conventions"). A rotation crosses with a conjugate, which
//! [`JointQuat::from_mint`] and [`JointQuat::to_mint`] apply and the `From`
//! impls do not. `RowMatrix3x4` and [`JointMat`] are the same layout and the
//! same meaning (three rows of four, column vectors, translation in column
//! 3), so their `From` impls copy lane for lane and keep the transform.

use crate::types::{JointMat, JointQuat, Quat, Vec4};
use ::mint::{Quaternion, RowMatrix3x4, Vector3, Vector4};

/// Lane for lane: `v.x, v.y, v.z` to `x, y, z` and `s` to `w`. Not the same
/// rotation for the kernels: mint means Hamilton's quaternion,
/// [`quats_to_mats`](crate::quats_to_mats()) reads its conjugate. To hand a
/// mint rotation to the kernels, use [`JointQuat::from_mint`].
///
/// ```
/// let m = mint::Quaternion { v: mint::Vector3 { x: 0.5, y: -0.5, z: 0.5 }, s: 0.5 };
/// assert_eq!(animasm::Quat::from(m).to_array(), [0.5, -0.5, 0.5, 0.5]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Quaternion<f32>> for Quat {
    fn from(q: Quaternion<f32>) -> Self {
        Quat::new(q.v.x, q.v.y, q.v.z, q.s)
    }
}

/// Lane for lane: `x, y, z` to `v.x, v.y, v.z` and `w` to `s`. Not the same
/// rotation for mint as for the kernels; to take a joint's rotation back
/// into mint's convention, use [`JointQuat::to_mint`].
///
/// ```
/// let m = mint::Quaternion::from(animasm::Quat::new(0.5, -0.5, 0.5, 0.5));
/// assert_eq!((m.v.x, m.v.y, m.v.z, m.s), (0.5, -0.5, 0.5, 0.5));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Quat> for Quaternion<f32> {
    fn from(q: Quat) -> Self {
        Quaternion { v: Vector3 { x: q.x, y: q.y, z: q.z }, s: q.w }
    }
}

/// Lane for lane: `(x, y, z, w)` as they are.
///
/// ```
/// let v = animasm::Vec4::from(mint::Vector4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 });
/// assert_eq!(v, animasm::Vec4::new(1.0, 2.0, 3.0, 4.0));
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Vector4<f32>> for Vec4 {
    fn from(v: Vector4<f32>) -> Self {
        Vec4::new(v.x, v.y, v.z, v.w)
    }
}

/// Lane for lane: `(x, y, z, w)` as they are.
///
/// ```
/// let v = mint::Vector4::from(animasm::Vec4::new(1.0, 2.0, 3.0, 4.0));
/// assert_eq!(v, mint::Vector4 { x: 1.0, y: 2.0, z: 3.0, w: 4.0 });
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<Vec4> for Vector4<f32> {
    fn from(v: Vec4) -> Self {
        Vector4 { x: v.x, y: v.y, z: v.z, w: v.w }
    }
}

/// Lane for lane: row `x` to `mat[0..4]`, `y` to `mat[4..8]`, `z` to
/// `mat[8..12]`. The same transform: both are row-major 3x4 matrices for
/// column vectors, the translation in column 3 (`w`).
///
/// ```
/// use mint::{RowMatrix3x4, Vector4};
///
/// let rows = RowMatrix3x4 {
///     x: Vector4 { x: 0.0, y: -1.0, z: 0.0, w: 5.0 },
///     y: Vector4 { x: 1.0, y: 0.0, z: 0.0, w: 6.0 },
///     z: Vector4 { x: 0.0, y: 0.0, z: 1.0, w: 7.0 },
/// };
/// let m = animasm::JointMat::from(rows);
/// assert_eq!(m.translation(), [5.0, 6.0, 7.0]);
/// assert_eq!(m.transform_point([1.0, 0.0, 0.0]), [5.0, 7.0, 7.0]);
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<RowMatrix3x4<f32>> for JointMat {
    fn from(m: RowMatrix3x4<f32>) -> Self {
        let (x, y, z) = (m.x, m.y, m.z);
        JointMat { mat: [x.x, x.y, x.z, x.w, y.x, y.y, y.z, y.w, z.x, z.y, z.z, z.w] }
    }
}

/// Lane for lane: `mat[0..4]` to row `x`, `mat[4..8]` to `y`, `mat[8..12]`
/// to `z`; the same transform.
///
/// ```
/// let rows = mint::RowMatrix3x4::from(animasm::JointMat::IDENTITY);
/// assert_eq!(rows.y, mint::Vector4 { x: 0.0, y: 1.0, z: 0.0, w: 0.0 });
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl From<JointMat> for RowMatrix3x4<f32> {
    fn from(m: JointMat) -> Self {
        let row = |r: usize| Vector4 { x: m.mat[r * 4], y: m.mat[r * 4 + 1], z: m.mat[r * 4 + 2], w: m.mat[r * 4 + 3] };
        RowMatrix3x4 { x: row(0), y: row(1), z: row(2) }
    }
}

#[cfg_attr(docsrs, doc(cfg(feature = "mint")))]
impl JointQuat {
    /// A joint from a mint rotation and translation, crossing the quaternion
    /// convention: `q` is the conjugate of `rotation` (`(-v.x, -v.y, -v.z,
    /// s)`), so that [`quats_to_mats`](crate::quats_to_mats()) gives the
    /// column-vector matrix `[R(rotation) | translation]` mint means; `t.w`
    /// is 0, as [`mats_to_quats`](crate::mats_to_quats()) writes it. The
    /// same bits as [`JointQuat::from_gltf`] of the same numbers. Nothing is
    /// normalised: give a unit quaternion.
    ///
    /// ```
    /// use animasm::{quats_to_mats, Impl, JointMat, JointQuat};
    /// use mint::{Quaternion, Vector3};
    ///
    /// // 90 degrees about z, Hamilton's convention: x turns into y.
    /// let h = core::f32::consts::FRAC_1_SQRT_2;
    /// let r = Quaternion { v: Vector3 { x: 0.0, y: 0.0, z: h }, s: h };
    /// let joint = JointQuat::from_mint(r, Vector3 { x: 1.0, y: 2.0, z: 3.0 });
    /// let mut mat = [JointMat::IDENTITY];
    /// quats_to_mats(Impl::Auto, &mut mat, &[joint])?;
    /// let p = mat[0].transform_point([1.0, 0.0, 0.0]);
    /// assert!((p[0] - 1.0).abs() < 1e-6 && (p[1] - 3.0).abs() < 1e-6 && (p[2] - 3.0).abs() < 1e-6);
    /// # Ok::<(), animasm::Error>(())
    /// ```
    pub fn from_mint(rotation: Quaternion<f32>, translation: Vector3<f32>) -> Self {
        JointQuat::from_gltf([rotation.v.x, rotation.v.y, rotation.v.z, rotation.s], translation.into())
    }

    /// The inverse of [`JointQuat::from_mint`]: the rotation in mint's
    /// convention (`q` conjugated back) and the translation (`t.w`
    /// dropped). Exact.
    ///
    /// ```
    /// use animasm::JointQuat;
    /// use mint::{Quaternion, Vector3};
    ///
    /// let r = Quaternion { v: Vector3 { x: 0.6, y: 0.0, z: 0.0 }, s: 0.8 };
    /// let t = Vector3 { x: 1.0, y: -2.0, z: 3.0 };
    /// assert_eq!(JointQuat::from_mint(r, t).to_mint(), (r, t));
    /// ```
    pub fn to_mint(&self) -> (Quaternion<f32>, Vector3<f32>) {
        let (r, t) = self.to_gltf();
        (Quaternion { v: Vector3 { x: r[0], y: r[1], z: r[2] }, s: r[3] }, t.into())
    }
}
