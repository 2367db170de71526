//! The data layouts of the papers: `Quaternion`, `Vec4`, `JointQuat` and
//! `JointMat`, 16-byte aligned as the listings assert.

/// A quaternion `(x, y, z, w)`; `w` is the real part. The paper's `Quaternion`.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Quat {
    /// i component.
    pub x: f32,
    /// j component.
    pub y: f32,
    /// k component.
    pub z: f32,
    /// Real component.
    pub w: f32,
}

/// A 4D vector; the joints' translations (the listing lerps all four lanes).
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec4 {
    /// x.
    pub x: f32,
    /// y.
    pub y: f32,
    /// z.
    pub z: f32,
    /// w.
    pub w: f32,
}

/// A joint as a rotation and a translation: the paper's `JointQuat`,
/// `JOINTQUAT_SIZE` (32) bytes, `q` at `JOINTQUAT_Q_OFFSET` (0) and `t` at
/// `JOINTQUAT_T_OFFSET` (16).
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointQuat {
    /// Orientation.
    pub q: Quat,
    /// Position.
    pub t: Vec4,
}

/// A joint as a row-major 3x4 affine matrix: rotation in columns 0..3, the
/// translation in column 3. The papers' `JointMat`, `JOINTMAT_SIZE` (48) bytes.
#[repr(C, align(16))]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct JointMat {
    /// `mat[row * 4 + col]`.
    pub mat: [f32; 12],
}

/// `JOINTQUAT_SIZE` of the listings.
pub const JOINTQUAT_SIZE: usize = 8 * 4;
/// `JOINTQUAT_SIZE_SHIFT` of the listings: `log2(JOINTQUAT_SIZE)`.
pub const JOINTQUAT_SIZE_SHIFT: u32 = 5;
/// `JOINTQUAT_Q_OFFSET` of the listings.
pub const JOINTQUAT_Q_OFFSET: usize = 0;
/// `JOINTQUAT_T_OFFSET` of the listings.
pub const JOINTQUAT_T_OFFSET: usize = 4 * 4;
/// `JOINTMAT_SIZE` of the listings.
pub const JOINTMAT_SIZE: usize = 4 * 3 * 4;

const _: () = {
    assert!(core::mem::size_of::<Quat>() == 16 && core::mem::align_of::<Quat>() == 16);
    assert!(core::mem::size_of::<Vec4>() == 16 && core::mem::align_of::<Vec4>() == 16);
    assert!(core::mem::size_of::<JointQuat>() == JOINTQUAT_SIZE);
    assert!(core::mem::align_of::<JointQuat>() == 16);
    assert!(1 << JOINTQUAT_SIZE_SHIFT == JOINTQUAT_SIZE);
    assert!(core::mem::offset_of!(JointQuat, q) == JOINTQUAT_Q_OFFSET);
    assert!(core::mem::offset_of!(JointQuat, t) == JOINTQUAT_T_OFFSET);
    assert!(core::mem::size_of::<JointMat>() == JOINTMAT_SIZE);
    assert!(core::mem::align_of::<JointMat>() == 16);
};

impl Quat {
    /// The identity rotation.
    pub const IDENTITY: Quat = Quat::new(0.0, 0.0, 0.0, 1.0);

    /// A quaternion from its components.
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Self {
        Quat { x, y, z, w }
    }

    /// The components as `[x, y, z, w]`.
    pub const fn to_array(self) -> [f32; 4] {
        [self.x, self.y, self.z, self.w]
    }

    /// A quaternion from `[x, y, z, w]`.
    pub const fn from_array(a: [f32; 4]) -> Self {
        Quat::new(a[0], a[1], a[2], a[3])
    }

    /// The conjugate `(-x, -y, -z, w)`: for a unit quaternion, the inverse
    /// rotation. It is also how a rotation crosses between glTF's (and
    /// glam's) convention and the papers' (README, "Conventions").
    pub const fn conjugate(self) -> Self {
        Quat::new(-self.x, -self.y, -self.z, self.w)
    }
}

impl Vec4 {
    /// A vector from its components.
    pub const fn new(x: f32, y: f32, z: f32, w: f32) -> Self {
        Vec4 { x, y, z, w }
    }

    /// The components as `[x, y, z, w]`.
    pub const fn to_array(self) -> [f32; 4] {
        [self.x, self.y, self.z, self.w]
    }

    /// A vector from `[x, y, z, w]`.
    pub const fn from_array(a: [f32; 4]) -> Self {
        Vec4::new(a[0], a[1], a[2], a[3])
    }
}

impl JointQuat {
    /// A joint from a rotation and a translation, as they are: `q` in the
    /// papers' convention (the conjugate of glTF's and glam's, see
    /// [`JointQuat::from_gltf`]).
    pub const fn new(q: Quat, t: Vec4) -> Self {
        JointQuat { q, t }
    }

    /// A joint from a glTF node's (or animation channel's) `rotation`
    /// `[x, y, z, w]` and `translation` `[x, y, z]`, crossing the quaternion
    /// convention: `q` is the conjugate of `rotation`, so that
    /// [`quats_to_mats`](crate::quats_to_mats()) gives the matrix glTF means,
    /// `[R(rotation) | translation]` for column vectors; `t.w` is 0, as
    /// [`mats_to_quats`](crate::mats_to_quats()) writes it.
    ///
    /// ```
    /// use animasm::{quats_to_mats, Impl, JointMat, JointQuat};
    ///
    /// // 90 degrees about z, glTF's convention: x turns into y.
    /// let h = core::f32::consts::FRAC_1_SQRT_2;
    /// let joint = JointQuat::from_gltf([0.0, 0.0, h, h], [1.0, 2.0, 3.0]);
    /// let mut mat = [JointMat::IDENTITY];
    /// quats_to_mats(Impl::Auto, &mut mat, &[joint])?;
    /// let p = mat[0].transform_point([1.0, 0.0, 0.0]);
    /// assert!((p[0] - 1.0).abs() < 1e-6 && (p[1] - 3.0).abs() < 1e-6 && (p[2] - 3.0).abs() < 1e-6);
    /// # Ok::<(), animasm::Error>(())
    /// ```
    pub const fn from_gltf(rotation: [f32; 4], translation: [f32; 3]) -> Self {
        JointQuat {
            q: Quat::from_array(rotation).conjugate(),
            t: Vec4::new(translation[0], translation[1], translation[2], 0.0),
        }
    }

    /// The inverse of [`JointQuat::from_gltf`]: glTF's `(rotation,
    /// translation)`, the rotation conjugated back and `t.w` dropped.
    pub const fn to_gltf(&self) -> ([f32; 4], [f32; 3]) {
        (self.q.conjugate().to_array(), [self.t.x, self.t.y, self.t.z])
    }
}

impl JointMat {
    /// The identity transform.
    pub const IDENTITY: JointMat = JointMat { mat: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] };

    /// The translation, column 3: `[mat[3], mat[7], mat[11]]`.
    pub const fn translation(&self) -> [f32; 3] {
        [self.mat[3], self.mat[7], self.mat[11]]
    }

    /// `M p + t` for the point `p`: the matrix read as a column-vector affine
    /// transform, the way [`transform_skeleton`](crate::transform_skeleton())
    /// composes matrices (`model = parent * local`).
    pub fn transform_point(&self, p: [f32; 3]) -> [f32; 3] {
        let m = &self.mat;
        core::array::from_fn(|r| m[r * 4] * p[0] + m[r * 4 + 1] * p[1] + m[r * 4 + 2] * p[2] + m[r * 4 + 3])
    }

    /// A matrix from glTF's column-major 4x4 (`matrix` of a node,
    /// `inverseBindMatrices`): `mat[r * 4 + c] = m[c][r]` for the top three
    /// rows; the bottom row (`0 0 0 1` for an affine transform) is dropped.
    /// Both read the matrix for column vectors, so nothing is transposed in
    /// meaning.
    pub const fn from_gltf(m: [[f32; 4]; 4]) -> Self {
        let mut mat = [0.0; 12];
        let mut i = 0;
        while i < 12 {
            mat[i] = m[i % 4][i / 4];
            i += 1;
        }
        JointMat { mat }
    }

    /// The inverse of [`JointMat::from_gltf`]: glTF's column-major 4x4, the
    /// bottom row `0 0 0 1`.
    pub const fn to_gltf(&self) -> [[f32; 4]; 4] {
        let m = &self.mat;
        [[m[0], m[4], m[8], 0.0], [m[1], m[5], m[9], 0.0], [m[2], m[6], m[10], 0.0], [m[3], m[7], m[11], 1.0]]
    }
}
