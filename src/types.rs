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
    /// A joint from a rotation and a translation.
    pub const fn new(q: Quat, t: Vec4) -> Self {
        JointQuat { q, t }
    }
}

impl JointMat {
    /// The identity transform.
    pub const IDENTITY: JointMat = JointMat { mat: [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0] };
}
