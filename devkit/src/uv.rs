//! The `ultraviolet` 0.10 peers: the routines' work with
//! ultraviolet's 8-wide SoA types, wherever ultraviolet has the operation.
//! Each is looked up by routine name, per [`Shape`](animasm::roster::Shape)
//! ([`joint_blend`], [`quats_to_mats()`], [`mats_to_quats()`],
//! [`transform_joints()`]; `None` where ultraviolet has no peer):
//!
//! | routine | ultraviolet |
//! |---|---|
//! | `slerp_joints` | `Rotor3x8::slerp` (the `Slerp` trait) and `Vec3x8::lerp` |
//! | `lerp_joints` | `Rotor3x8::lerp` then `normalized()` (an nlerp) and `Vec3x8::lerp` |
//! | `quats_to_mats` | `Rotor3x8::into_matrix` (a `Mat3x8`) and the translation (`Vec3x8`) copied |
//! | `mats_to_quats` | `Mat3x8::into_rotor3` and the translation copied |
//! | `transform_joints` | `Mat3x8 * Mat3x8` and `Mat3x8 * Vec3x8 + Vec3x8` (the 3x4 affine product) |
//! | the skeleton routines (`Shape::Skeleton`) | none: see below |
//!
//! Each peer comes twice: on data already in ultraviolet's SoA layout
//! ([`JointsSoa`], [`MatsSoa`]: eight joints per element, one `f32x8` per
//! component), and `*_aos`, which also pays what a user with `JointQuat` /
//! `JointMat` arrays pays: the conversion of every input from the crate's
//! AoS layout into preallocated SoA buffers, and of the output back
//! (scratch buffers are allocated once, outside the timed region).
//!
//! **Conventions.** A rotor is ultraviolet's own `(s, bv.xy, bv.xz, bv.yz)`;
//! a quaternion `[x, y, z, w]` maps to it with ultraviolet's
//! `Rotor3x8::from_quaternion_array` (`s = w`, `xy = -z`, `xz = y`,
//! `yz = -x`), back with `into_quaternion_array`: sign flips, no arithmetic.
//! With that mapping `Rotor3x8::into_matrix` is the standard column-vector
//! rotation matrix of the quaternion, whose columns are the rows of the
//! paper's `JointMat` rotation (the paper stores the transpose: see
//! `src/quats_to_mats/mod.rs`); the conversions here transpose accordingly
//! ([`MatsSoa::load_paper_rotation`], [`MatsSoa::store_paper_rotation`]).
//! For `transform_joints` a `JointMat` is the affine `[R | t]` of the
//! skeleton paper (column vectors): `R` as a `Mat3x8` of its columns and `t`
//! as a `Vec3x8` ([`MatsSoa::load_affine`], [`MatsSoa::store_affine`]).
//! The unit tests check every `*_aos` peer against the crate's scalar port.
//!
//! **Differences in the work.** ultraviolet's wide `slerp` takes no shorter
//! arc (its doc: undefined for aligned rotors; no `dot < 0` flip), so the
//! peers flip the blend rotor's signs by the dot product's sign first (four
//! `xor`s and one extra dot product), as `slerp_joints` and glam do; it uses
//! `acos` and `sin_cos` (wide's polynomials) rather than the paper's
//! `ATanPositive` and `SinZeroHalfPI`. The translations are `Vec3x8`: the
//! `w` the kernels also lerp is not moved (the `*_aos` peers leave the
//! destination's `w` as it is). `Mat3x8::into_rotor3` is branch-free
//! (`sqrt(max(0, 1 ± m00 ± m11 ± m22)) / 2` per component, signs copied
//! from the off-diagonal differences), not the paper's four-case
//! conversion, and less accurate: a small component is the square root of
//! a sum that has cancelled, off by up to about `sqrt(f32::EPSILON)` (6e-4
//! measured in the unit test, against the scalar port's 1e-7 class); the
//! translation is written with `w = 0`, as the kernels write it. The peers ignore the index list of `slerp_joints` /
//! `lerp_joints`: ultraviolet has no gather, so they run over every joint
//! in order, which is the same work as the benchmark's identity index.
//!
//! **Width.** ultraviolet's `f32x8` is `wide`'s, which picks its
//! implementation by the target features the crate is *compiled* with: with
//! no global `target-feature` (this repository sets none),
//! an `f32x8` is two SSE `f32x4`, not one AVX register. A user building
//! with `-C target-cpu=native` would get AVX; the report measures the build
//! a user gets by default.
//!
//! **Skeletons.** The skeleton routines walk one joint at a time, each joint
//! reading its parent's matrix (just written, for the routine from local to
//! model space): there are no eight independent lanes to fill,
//! unless the joints are regrouped by depth, which is another algorithm and
//! another data layout. ultraviolet's SoA types do not apply; its scalar
//! `Mat4`/`Isometry3` would be a per-element loop like glam's, which
//! `peers` already measures.

use animasm::{JointMat, JointQuat, Quat, Vec4};
use ultraviolet::{Lerp, Mat3x8, Rotor3x8, Slerp, Vec3x8, f32x8};

use crate::peers::Peer;

/// Lanes per SoA element.
pub const LANES: usize = 8;

/// Joints in ultraviolet's SoA layout: eight joints per element, the
/// rotations as rotors and the translations' `x, y, z`. The lanes past
/// `len` hold the identity and zero.
#[derive(Clone, Debug)]
pub struct JointsSoa {
    pub rot: Vec<Rotor3x8>,
    pub pos: Vec<Vec3x8>,
    pub len: usize,
}

/// 3x3 rotations and translations in ultraviolet's SoA layout (eight per
/// element). The lanes past `len` hold the identity and zero.
#[derive(Clone, Debug)]
pub struct MatsSoa {
    pub rot: Vec<Mat3x8>,
    pub pos: Vec<Vec3x8>,
    pub len: usize,
}

fn groups(n: usize) -> usize {
    n.div_ceil(LANES)
}

/// Lane `l` of `v`.
fn lane(v: f32x8, l: usize) -> f32 {
    v.as_array_ref()[l]
}

impl JointsSoa {
    /// `n` identity joints.
    pub fn new(n: usize) -> Self {
        JointsSoa { rot: vec![Rotor3x8::identity(); groups(n)], pos: vec![Vec3x8::zero(); groups(n)], len: n }
    }

    /// `joints` converted.
    pub fn from_joints(joints: &[JointQuat]) -> Self {
        let mut s = JointsSoa::new(joints.len());
        s.load(joints);
        s
    }

    /// Converts `joints` (AoS) into `self` (which has `joints.len()` lanes):
    /// eight joints transposed into seven `f32x8` per group.
    pub fn load(&mut self, joints: &[JointQuat]) {
        assert_eq!(joints.len(), self.len, "JointsSoa::load: lengths");
        for (g, chunk) in joints.chunks(LANES).enumerate() {
            let mut c = [[0.0f32; LANES]; 7];
            c[3] = [1.0; LANES];
            for (l, j) in chunk.iter().enumerate() {
                let (q, t) = (j.q.to_array(), j.t.to_array());
                for k in 0..4 {
                    c[k][l] = q[k];
                }
                for k in 0..3 {
                    c[4 + k][l] = t[k];
                }
            }
            let v = c.map(f32x8::from);
            self.rot[g] = Rotor3x8::from_quaternion_array([v[0], v[1], v[2], v[3]]);
            self.pos[g] = Vec3x8::new(v[4], v[5], v[6]);
        }
    }

    /// Converts `self` back into `joints` (AoS): the quaternions and the
    /// translations' `x, y, z`; each joint's `t.w` is left as it is.
    pub fn store(&self, joints: &mut [JointQuat]) {
        assert_eq!(joints.len(), self.len, "JointsSoa::store: lengths");
        for (g, chunk) in joints.chunks_mut(LANES).enumerate() {
            let q = self.rot[g].into_quaternion_array();
            let p = self.pos[g];
            for (l, j) in chunk.iter_mut().enumerate() {
                j.q = Quat::new(lane(q[0], l), lane(q[1], l), lane(q[2], l), lane(q[3], l));
                j.t = Vec4::new(lane(p.x, l), lane(p.y, l), lane(p.z, l), j.t.w);
            }
        }
    }
}

impl MatsSoa {
    /// `n` identity matrices.
    pub fn new(n: usize) -> Self {
        MatsSoa { rot: vec![Mat3x8::identity(); groups(n)], pos: vec![Vec3x8::zero(); groups(n)], len: n }
    }

    fn load_with(&mut self, mats: &[JointMat], at: fn(&JointMat, usize, usize) -> f32) {
        assert_eq!(mats.len(), self.len, "MatsSoa::load: lengths");
        for (g, chunk) in mats.chunks(LANES).enumerate() {
            // c[col * 3 + row], then the translation at 9..12.
            let mut c = [[0.0f32; LANES]; 12];
            for k in [0, 4, 8] {
                c[k] = [1.0; LANES];
            }
            for (l, m) in chunk.iter().enumerate() {
                for col in 0..3 {
                    for row in 0..3 {
                        c[col * 3 + row][l] = at(m, row, col);
                    }
                }
                for row in 0..3 {
                    c[9 + row][l] = m.mat[row * 4 + 3];
                }
            }
            let v = c.map(f32x8::from);
            let col = |k: usize| Vec3x8::new(v[k * 3], v[k * 3 + 1], v[k * 3 + 2]);
            self.rot[g] = Mat3x8::new(col(0), col(1), col(2));
            self.pos[g] = col(3);
        }
    }

    fn store_with(&self, mats: &mut [JointMat], transposed: bool) {
        assert_eq!(mats.len(), self.len, "MatsSoa::store: lengths");
        for (g, chunk) in mats.chunks_mut(LANES).enumerate() {
            let r = &self.rot[g];
            let p = self.pos[g];
            for (l, m) in chunk.iter_mut().enumerate() {
                for col in 0..3 {
                    let c = r.cols[col];
                    let v = [lane(c.x, l), lane(c.y, l), lane(c.z, l)];
                    for (row, &v) in v.iter().enumerate() {
                        let at = if transposed { col * 4 + row } else { row * 4 + col };
                        m.mat[at] = v;
                    }
                }
                m.mat[3] = lane(p.x, l);
                m.mat[7] = lane(p.y, l);
                m.mat[11] = lane(p.z, l);
            }
        }
    }

    /// Converts affine `JointMat`s (`[R | t]`, column vectors, row-major)
    /// into `self`: `R`'s columns and `t`.
    pub fn load_affine(&mut self, mats: &[JointMat]) {
        self.load_with(mats, |m, row, col| m.mat[row * 4 + col]);
    }

    /// Converts `self` into affine `JointMat`s (the inverse of
    /// [`load_affine`](Self::load_affine)).
    pub fn store_affine(&self, mats: &mut [JointMat]) {
        self.store_with(mats, false);
    }

    /// Converts the paper's `JointMat`s (rotation stored transposed) into
    /// `self`: the column-vector rotation (its columns are the paper's rows)
    /// and the translation (column 3).
    pub fn load_paper_rotation(&mut self, mats: &[JointMat]) {
        self.load_with(mats, |m, row, col| m.mat[col * 4 + row]);
    }

    /// Converts `self` into the paper's `JointMat`s (the inverse of
    /// [`load_paper_rotation`](Self::load_paper_rotation)).
    pub fn store_paper_rotation(&self, mats: &mut [JointMat]) {
        self.store_with(mats, true);
    }
}

/// `b` with its signs flipped where `dot(a, b) < 0`: the shorter arc.
#[inline(always)]
fn shorter_arc(a: &Rotor3x8, mut b: Rotor3x8) -> Rotor3x8 {
    let d = a.dot(b);
    b.s = b.s.flip_signs(d);
    b.bv.xy = b.bv.xy.flip_signs(d);
    b.bv.xz = b.bv.xz.flip_signs(d);
    b.bv.yz = b.bv.yz.flip_signs(d);
    b
}

/// `slerp_joints` with ultraviolet on SoA data: for every joint, the
/// shorter-arc `Rotor3x8::slerp` towards `blend` and `Vec3x8::lerp`.
#[inline(never)]
pub fn uv_slerp_joints(joints: &mut JointsSoa, blend: &JointsSoa, t: f32) {
    let t = f32x8::splat(t);
    for ((r, p), (br, bp)) in joints.rot.iter_mut().zip(&mut joints.pos).zip(blend.rot.iter().zip(&blend.pos)) {
        *r = r.slerp(shorter_arc(r, *br), t);
        *p = p.lerp(*bp, t);
    }
}

/// `lerp_joints` with ultraviolet on SoA data: the shorter-arc
/// `Rotor3x8::lerp`, `normalized()` (an nlerp), and `Vec3x8::lerp`.
#[inline(never)]
pub fn uv_lerp_joints(joints: &mut JointsSoa, blend: &JointsSoa, t: f32) {
    let t = f32x8::splat(t);
    for ((r, p), (br, bp)) in joints.rot.iter_mut().zip(&mut joints.pos).zip(blend.rot.iter().zip(&blend.pos)) {
        *r = r.lerp(shorter_arc(r, *br), t).normalized();
        *p = p.lerp(*bp, t);
    }
}

/// A SoA joint loop ([`uv_slerp_joints`], [`uv_lerp_joints`]).
pub type UvJointLoop = fn(&mut JointsSoa, &JointsSoa, f32);

/// Scratch SoA buffers for the `*_aos` joint peers, allocated once.
#[derive(Clone, Debug)]
pub struct JointScratch {
    pub joints: JointsSoa,
    pub blend: JointsSoa,
}

impl JointScratch {
    pub fn new(n: usize) -> Self {
        JointScratch { joints: JointsSoa::new(n), blend: JointsSoa::new(n) }
    }
}

/// A SoA joint loop run on `JointQuat` arrays: both lists converted to SoA,
/// the loop, the joints converted back (in place, as the routines).
#[inline(never)]
pub fn uv_joints_aos(f: UvJointLoop, joints: &mut [JointQuat], blend: &[JointQuat], t: f32, s: &mut JointScratch) {
    s.joints.load(joints);
    s.blend.load(blend);
    f(&mut s.joints, &s.blend, t);
    s.joints.store(joints);
}

/// `quats_to_mats` with ultraviolet on SoA data: `Rotor3x8::into_matrix`
/// and the translation copied.
#[inline(never)]
pub fn uv_quats_to_mats(mats: &mut MatsSoa, joints: &JointsSoa) {
    for ((m, p), (r, t)) in mats.rot.iter_mut().zip(&mut mats.pos).zip(joints.rot.iter().zip(&joints.pos)) {
        *m = r.into_matrix();
        *p = *t;
    }
}

/// [`uv_quats_to_mats`] on arrays: the joints converted to SoA, the
/// matrices converted to the paper's `JointMat`s.
#[inline(never)]
pub fn uv_quats_to_mats_aos(out: &mut [JointMat], joints: &[JointQuat], s: &mut (JointsSoa, MatsSoa)) {
    s.0.load(joints);
    uv_quats_to_mats(&mut s.1, &s.0);
    s.1.store_paper_rotation(out);
}

/// `mats_to_quats` with ultraviolet on SoA data: `Mat3x8::into_rotor3` and
/// the translation copied.
#[inline(never)]
pub fn uv_mats_to_quats(joints: &mut JointsSoa, mats: &MatsSoa) {
    for ((r, t), (m, p)) in joints.rot.iter_mut().zip(&mut joints.pos).zip(mats.rot.iter().zip(&mats.pos)) {
        *r = m.into_rotor3();
        *t = *p;
    }
}

/// [`uv_mats_to_quats`] on arrays: the paper's matrices converted to SoA,
/// the joints back to `JointQuat`s with `t.w = 0` (as the kernels write it).
#[inline(never)]
pub fn uv_mats_to_quats_aos(out: &mut [JointQuat], mats: &[JointMat], s: &mut (MatsSoa, JointsSoa)) {
    s.0.load_paper_rotation(mats);
    uv_mats_to_quats(&mut s.1, &s.0);
    for j in out.iter_mut() {
        j.t.w = 0.0;
    }
    s.1.store(out);
}

/// `transform_joints` with ultraviolet on SoA data: `r = a * b` as affine
/// transforms, `R = Ra * Rb` and `t = Ra * tb + ta`.
#[inline(never)]
pub fn uv_transform_joints(r: &mut MatsSoa, a: &MatsSoa, b: &MatsSoa) {
    for (((rr, rp), (ar, ap)), (br, bp)) in
        r.rot.iter_mut().zip(&mut r.pos).zip(a.rot.iter().zip(&a.pos)).zip(b.rot.iter().zip(&b.pos))
    {
        *rr = *ar * *br;
        *rp = *ar * *bp + *ap;
    }
}

/// [`uv_transform_joints`] on arrays: both inputs converted to SoA, the
/// products back to `JointMat`s.
#[inline(never)]
pub fn uv_transform_joints_aos(r: &mut [JointMat], a: &[JointMat], b: &[JointMat], s: &mut [MatsSoa; 3]) {
    let [sr, sa, sb] = s;
    sa.load_affine(a);
    sb.load_affine(b);
    uv_transform_joints(sr, sa, sb);
    sr.store_affine(r);
}

// ---------------------------------------------------------------------------
// The lookups, by shape.

/// A peer on SoA data and the same on arrays (the AoS conversion both ways
/// included), with its scratch buffers as the last argument.
#[derive(Clone, Copy, Debug)]
pub struct SoaAos<S, A> {
    /// On data in ultraviolet's SoA layout.
    pub soa: S,
    /// On the crate's arrays, converting to SoA and back.
    pub aos: A,
}

/// ultraviolet's peer of the `Shape::JointBlend` routine `routine` (run on
/// arrays with [`uv_joints_aos`]), if it has one.
pub fn joint_blend(routine: &str) -> Option<Peer<UvJointLoop>> {
    match routine {
        "slerp_joints" => Some(Peer {
            run: uv_slerp_joints,
            what: "`Rotor3x8::slerp` (after flipping the blend rotor to the shorter arc, which ultraviolet's wide \
                   slerp does not do) and `Vec3x8::lerp`, over every joint (no gather: the benchmark's index is the \
                   identity).",
        }),
        "lerp_joints" => Some(Peer {
            run: uv_lerp_joints,
            what: "`Rotor3x8::lerp` towards the shorter-arc blend rotor, `normalized()`, and `Vec3x8::lerp`.",
        }),
        _ => None,
    }
}

/// The SoA and array forms of a `Shape::QuatsToMats` peer.
pub type UvQuatsToMats =
    SoaAos<fn(&mut MatsSoa, &JointsSoa), fn(&mut [JointMat], &[JointQuat], &mut (JointsSoa, MatsSoa))>;

/// ultraviolet's peer of the `Shape::QuatsToMats` routine `routine`, if it
/// has one.
pub fn quats_to_mats(routine: &str) -> Option<Peer<UvQuatsToMats>> {
    (routine == "quats_to_mats").then_some(Peer {
        run: SoaAos { soa: uv_quats_to_mats, aos: uv_quats_to_mats_aos },
        what: "`Rotor3x8::into_matrix` and the translation; with conversion, the matrices are written back as the \
               paper's `JointMat`s (rotation transposed).",
    })
}

/// The SoA and array forms of a `Shape::MatsToQuats` peer.
pub type UvMatsToQuats =
    SoaAos<fn(&mut JointsSoa, &MatsSoa), fn(&mut [JointQuat], &[JointMat], &mut (MatsSoa, JointsSoa))>;

/// ultraviolet's peer of the `Shape::MatsToQuats` routine `routine`, if it
/// has one.
pub fn mats_to_quats(routine: &str) -> Option<Peer<UvMatsToQuats>> {
    (routine == "mats_to_quats").then_some(Peer {
        run: SoaAos { soa: uv_mats_to_quats, aos: uv_mats_to_quats_aos },
        what: "`Mat3x8::into_rotor3`, branch-free (four square roots, signs copied), less accurate than the paper's \
               four cases (up to about 6e-4 on a small component, `devkit::uv`'s unit test).",
    })
}

/// The SoA and array forms of a `Shape::TransformJoints` peer.
pub type UvTransformJoints =
    SoaAos<fn(&mut MatsSoa, &MatsSoa, &MatsSoa), fn(&mut [JointMat], &[JointMat], &[JointMat], &mut [MatsSoa; 3])>;

/// ultraviolet's peer of the `Shape::TransformJoints` routine `routine`, if
/// it has one.
pub fn transform_joints(routine: &str) -> Option<Peer<UvTransformJoints>> {
    (routine == "transform_joints").then_some(Peer {
        run: SoaAos { soa: uv_transform_joints, aos: uv_transform_joints_aos },
        what: "`Mat3x8 * Mat3x8` and `Mat3x8 * Vec3x8 + Vec3x8` (the 3x4 affine product in SoA).",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup;
    use animasm::Impl;
    use animasm::roster::{self, Shape};

    fn close(a: &[f32], b: &[f32], tol: f32, what: &str) {
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            assert!((x - y).abs() <= tol, "{what}: component {k}: {x} vs {y}");
        }
    }

    fn jq(j: &JointQuat) -> [f32; 7] {
        let (q, t) = (j.q.to_array(), j.t.to_array());
        [q[0], q[1], q[2], q[3], t[0], t[1], t[2]]
    }

    #[test]
    fn the_soa_conversions_round_trip() {
        let (joints, _, _) = setup::joint_lists_n(13);
        let mut back = joints.clone();
        JointsSoa::from_joints(&joints).store(&mut back);
        assert_eq!(joints, back);
        let mats = setup::mats_to_quats_input_n(13);
        for paper in [false, true] {
            let mut s = MatsSoa::new(13);
            let mut back = vec![JointMat::default(); 13];
            if paper {
                s.load_paper_rotation(&mats);
                s.store_paper_rotation(&mut back);
            } else {
                s.load_affine(&mats);
                s.store_affine(&mut back);
            }
            assert_eq!(mats, back);
        }
    }

    #[test]
    fn the_joint_peers_do_the_routines_work() {
        let n = 21;
        let (joints, blend, index) = setup::joint_lists_n(n);
        let mut found = 0;
        for r in roster::ROUTINES {
            let (Shape::JointBlend { safe, .. }, Some(peer)) = (r.shape, joint_blend(r.name)) else { continue };
            found += 1;
            let mut want = joints.clone();
            safe(Impl::Scalar, &mut want, &blend, 0.3, &index).unwrap();
            let mut got = joints.clone();
            uv_joints_aos(peer.run, &mut got, &blend, 0.3, &mut JointScratch::new(n));
            for (g, w) in got.iter().zip(&want) {
                close(&jq(g), &jq(w), 2e-4, r.name);
            }
        }
        assert!(found > 0, "no joint-blend routine has an ultraviolet peer");
    }

    #[test]
    fn the_matrix_peers_do_the_routines_work() {
        let n = 19;
        let quats = setup::quats_to_mats_input_n(n);
        // The conversion back runs on the matrices of ultraviolet's conversion
        // to matrices.
        let to_mats = roster::ROUTINES.iter().find_map(|r| quats_to_mats(r.name)).expect("a QuatsToMats peer");
        let mut mats = vec![JointMat::default(); n];
        (to_mats.run.aos)(&mut mats, &quats, &mut (JointsSoa::new(n), MatsSoa::new(n)));
        let (a, b) = setup::transform_joints_input_n(n);
        let mut found = [0; 3];
        for r in roster::ROUTINES {
            match r.shape {
                Shape::QuatsToMats { safe, .. } => {
                    let Some(peer) = quats_to_mats(r.name) else { continue };
                    found[0] += 1;
                    let mut want = vec![JointMat::default(); n];
                    safe(Impl::Scalar, &mut want, &quats).unwrap();
                    let mut got = vec![JointMat::default(); n];
                    (peer.run.aos)(&mut got, &quats, &mut (JointsSoa::new(n), MatsSoa::new(n)));
                    for (g, w) in got.iter().zip(&want) {
                        close(&g.mat, &w.mat, 1e-5, r.name);
                    }
                }
                Shape::MatsToQuats { safe, .. } => {
                    let Some(peer) = mats_to_quats(r.name) else { continue };
                    found[1] += 1;
                    let mut want = vec![JointQuat::default(); n];
                    safe(Impl::Scalar, &mut want, &mats).unwrap();
                    let mut back = vec![JointQuat::default(); n];
                    (peer.run.aos)(&mut back, &mats, &mut (MatsSoa::new(n), JointsSoa::new(n)));
                    for (g, w) in back.iter().zip(&want) {
                        let sign = if (g.q.w * w.q.w + g.q.x * w.q.x) < 0.0 { -1.0 } else { 1.0 };
                        let (mut g, w) = (jq(g), jq(w));
                        for v in &mut g[..4] {
                            *v *= sign;
                        }
                        // `into_rotor3` takes every component as `sqrt(max(0, 1 ± ...)) / 2`:
                        // a small component comes from the square root of a sum that has
                        // cancelled, so its error is about `sqrt(f32::EPSILON)` (measured
                        // up to 6e-4 here); the paper's four cases divide instead.
                        close(&g, &w, 2e-3, r.name);
                    }
                    assert!(back.iter().all(|j| j.t.w == 0.0));
                }
                Shape::TransformJoints { safe, .. } => {
                    let Some(peer) = transform_joints(r.name) else { continue };
                    found[2] += 1;
                    let mut want = vec![JointMat::default(); n];
                    safe(Impl::Scalar, &mut want, &a, &b).unwrap();
                    let mut got = vec![JointMat::default(); n];
                    let mut s = [MatsSoa::new(n), MatsSoa::new(n), MatsSoa::new(n)];
                    (peer.run.aos)(&mut got, &a, &b, &mut s);
                    for (g, w) in got.iter().zip(&want) {
                        close(&g.mat, &w.mat, 1e-4, r.name);
                    }
                }
                _ => {}
            }
        }
        assert!(found.iter().all(|&k| k > 0), "a matrix shape without an ultraviolet peer: {found:?}");
    }
}
