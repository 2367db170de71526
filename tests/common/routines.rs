//! The [`Routine`] (and [`Interpolator`]) of every safe function, for the
//! generic checks of `harness.rs`. Inputs come from
//! `animasm_testkit::inputs`, oracles from `animasm_testkit::oracle`.

use core::ops::RangeInclusive;

use animasm::{Error, Impl, JointMat, JointQuat, Quat};
use animasm_testkit::error::{mat_max_abs_diff, max_abs_diff, quat_diff_up_to_sign};
use animasm_testkit::inputs::{Rng, joint_lists, paper_mats, random_parents, rigid_mats};
use animasm_testkit::oracle::{
    affine_mul_f64, affine_parts_f64, f64x4, joint_mat_paper_f64, lerp_f64, mat_f64, mat3_paper_to_quat_f64, mats_f64,
    slerp_f64, transform_skeleton_f64, untransform_skeleton_f64, vec4_lerp_f64,
};

use super::harness::{BadCall, Interpolator, Routine};

fn bad<R: Routine>(what: &str, f: impl Fn(Impl, &mut [R::Out]) -> Result<(), Error> + 'static, e: Error) -> BadCall<R> {
    (what.to_string(), Box::new(f), e)
}

// ------------------------------------------------------------ joint lists ---

/// `slerp_joints` / `lerp_joints` input: blend list, index, lerp.
pub struct JointIn {
    pub blend: Vec<JointQuat>,
    pub index: Vec<i32>,
    pub lerp: f32,
}

type JointFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

fn joint_inputs(seed: u64, n: usize) -> (Vec<JointQuat>, JointIn) {
    let (joints, blend, mut index) = joint_lists(seed, n);
    // A shuffled index that leaves every third joint out.
    index.retain(|j| j % 3 != 2);
    index.reverse();
    (joints, JointIn { blend, index, lerp: 0.37 })
}

fn joint_oracle_error(
    out: &[JointQuat],
    init: &[JointQuat],
    input: &JointIn,
    q: fn([f64; 4], [f64; 4], f64) -> [f64; 4],
) -> f64 {
    let t = f64::from(input.lerp);
    let mut e = 0f64;
    for (j, o) in out.iter().enumerate() {
        if input.index.contains(&(j as i32)) {
            let wq = q(f64x4(init[j].q.to_array()), f64x4(input.blend[j].q.to_array()), t);
            let wt = vec4_lerp_f64(f64x4(init[j].t.to_array()), f64x4(input.blend[j].t.to_array()), t);
            e = e.max(max_abs_diff(o.q.to_array(), wq)).max(max_abs_diff(o.t.to_array(), wt));
        } else if super::bits(&[*o]) != super::bits(&[init[j]]) {
            return f64::INFINITY;
        }
    }
    e
}

fn joint_bad_calls<R: Routine<Out = JointQuat>>(f: JointFn, n: usize) -> Vec<BadCall<R>> {
    let (_, input) = joint_inputs(1, n);
    let (b1, b2, b3) = (input.blend.clone(), input.blend.clone(), input.blend.clone());
    vec![
        bad::<R>(
            "blend too short",
            move |imp, out| f(imp, out, &b1[..n - 1], 0.5, &[0]),
            Error::TooShort { what: "blend", needed: n, found: n - 1 },
        ),
        bad::<R>(
            "index past the end",
            move |imp, out| f(imp, out, &b2, 0.5, &[0, n as i32]),
            Error::IndexOutOfRange { position: 1, value: n as i32, len: n },
        ),
        bad::<R>(
            "negative index",
            move |imp, out| f(imp, out, &b3, 0.5, &[-1]),
            Error::IndexOutOfRange { position: 0, value: -1, len: n },
        ),
        bad::<R>("no such form", move |_, out| f(Impl::Sse2, out, &[], 0.5, &[]), Error::Unsupported(Impl::Sse2)),
    ]
}

macro_rules! joint_routine {
    ($ty:ident, $name:literal, $module:ident, $oracle:ident, $tol_s:expr, $tol_o:expr) => {
        #[doc = concat!("`", $name, "`")]
        pub struct $ty;

        impl Routine for $ty {
            const NAME: &'static str = $name;
            type Out = JointQuat;
            type Buf = Vec<JointQuat>;
            type In = JointIn;
            const TOL_SCALAR: f64 = $tol_s;
            const TOL_ORACLE: f64 = $tol_o;
            fn forms() -> Vec<Impl> {
                animasm::$module::forms().collect()
            }
            fn resolve(imp: Impl) -> Result<Impl, Error> {
                animasm::$module::resolve(imp)
            }
            fn buf(init: &[JointQuat]) -> Vec<JointQuat> {
                init.to_vec()
            }
            fn inputs(seed: u64, n: usize) -> (Vec<JointQuat>, JointIn) {
                joint_inputs(seed, n)
            }
            fn call(imp: Impl, out: &mut [JointQuat], i: &JointIn) -> Result<(), Error> {
                animasm::$module(imp, out, &i.blend, i.lerp, &i.index)
            }
            fn oracle_error(out: &[JointQuat], init: &[JointQuat], i: &JointIn) -> f64 {
                joint_oracle_error(out, init, i, $oracle)
            }
            fn bad_calls(n: usize) -> Vec<BadCall<Self>> {
                joint_bad_calls::<Self>(animasm::$module, n)
            }
        }

        impl Interpolator for $ty {
            fn call_at(imp: Impl, out: &mut [JointQuat], i: &JointIn, f: f32) -> Result<(), Error> {
                animasm::$module(imp, out, &i.blend, f, &i.index)
            }
            fn endpoint(init: &[JointQuat], i: &JointIn, one: bool) -> Vec<JointQuat> {
                let mut v = init.to_vec();
                if one {
                    for &j in &i.index {
                        v[j as usize] = i.blend[j as usize];
                    }
                }
                v
            }
            fn earlier_error(n: usize, f: f32) -> BadCall<Self> {
                let blend = joint_inputs(2, n).1.blend;
                bad::<Self>(
                    "blend too short and a non-finite lerp",
                    move |imp, out| animasm::$module(imp, out, &blend[..n - 1], f, &[0]),
                    Error::TooShort { what: "blend", needed: n, found: n - 1 },
                )
            }
            fn non_finite(f: f32) -> Error {
                Error::NonFiniteFactor { what: "lerp", position: None, value: f }
            }
        }
    };
}

// slerp_joints' forms differ from the scalar port by up to 5.96e-7 (10 ulp
// of a component near 0.5) on unit pairs at any angle from 1e-8 to 1 rad,
// found by the fuzz target (issue 14): 1e-6, not 5e-7.
joint_routine!(SlerpJoints, "slerp_joints", slerp_joints, slerp_f64, 1e-6, 2e-6);
joint_routine!(LerpJoints, "lerp_joints", lerp_joints, lerp_f64, 5e-7, 2e-6);

// --------------------------------------------------- quaternions, matrices ---

/// `quats_to_mats`.
pub struct QuatsToMats;

impl Routine for QuatsToMats {
    const NAME: &'static str = "quats_to_mats";
    type Out = JointMat;
    type Buf = Vec<JointMat>;
    type In = Vec<JointQuat>;
    const TOL_SCALAR: f64 = 5e-7;
    const TOL_ORACLE: f64 = 5e-7;
    fn forms() -> Vec<Impl> {
        animasm::quats_to_mats::forms().collect()
    }
    fn resolve(imp: Impl) -> Result<Impl, Error> {
        animasm::quats_to_mats::resolve(imp)
    }
    fn buf(init: &[JointMat]) -> Vec<JointMat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<JointMat>, Vec<JointQuat>) {
        (vec![JointMat::IDENTITY; n], Rng::new(seed).joints(n))
    }
    fn call(imp: Impl, out: &mut [JointMat], q: &Vec<JointQuat>) -> Result<(), Error> {
        animasm::quats_to_mats(imp, out, q)
    }
    fn oracle_error(out: &[JointMat], _: &[JointMat], q: &Vec<JointQuat>) -> f64 {
        out.iter()
            .zip(q)
            .map(|(m, j)| {
                let t = f64x4(j.t.to_array());
                mat_max_abs_diff(&m.mat, &joint_mat_paper_f64(f64x4(j.q.to_array()), [t[0], t[1], t[2]]))
            })
            .fold(0.0, f64::max)
    }
    fn bad_calls(n: usize) -> Vec<BadCall<Self>> {
        let q = Rng::new(3).joints(n + 1);
        let q2 = q.clone();
        vec![
            bad::<Self>(
                "quats too short",
                move |imp, out| animasm::quats_to_mats(imp, out, &q[..n - 1]),
                Error::LengthMismatch { what: "quats", expected: n, found: n - 1 },
            ),
            bad::<Self>(
                "quats too long",
                move |imp, out| animasm::quats_to_mats(imp, out, &q2),
                Error::LengthMismatch { what: "quats", expected: n, found: n + 1 },
            ),
            bad::<Self>(
                "no such form",
                |_, out| animasm::quats_to_mats(Impl::Sse2, out, &[]),
                Error::Unsupported(Impl::Sse2),
            ),
        ]
    }
}

/// `mats_to_quats`.
pub struct MatsToQuats;

impl Routine for MatsToQuats {
    const NAME: &'static str = "mats_to_quats";
    type Out = JointQuat;
    type Buf = Vec<JointQuat>;
    type In = Vec<JointMat>;
    // The C port's `ReciprocalSqrt` (0x5f3759df and one Newton-Raphson step)
    // is good to 1.8e-3 (`tests/mats_to_quats.rs`' `C_BOUND`); the SSE forms
    // to 1e-6 (`SSE_BOUND`, checked there).
    const TOL_SCALAR: f64 = 1.81e-3;
    const TOL_ORACLE: f64 = 1.8e-3;
    fn forms() -> Vec<Impl> {
        animasm::mats_to_quats::forms().collect()
    }
    fn resolve(imp: Impl) -> Result<Impl, Error> {
        animasm::mats_to_quats::resolve(imp)
    }
    fn buf(init: &[JointQuat]) -> Vec<JointQuat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<JointQuat>, Vec<JointMat>) {
        (vec![JointQuat::new(Quat::IDENTITY, animasm::Vec4::new(0.0, 0.0, 0.0, 0.0)); n], paper_mats(seed, n))
    }
    fn call(imp: Impl, out: &mut [JointQuat], m: &Vec<JointMat>) -> Result<(), Error> {
        animasm::mats_to_quats(imp, out, m)
    }
    fn oracle_error(out: &[JointQuat], _: &[JointQuat], mats: &Vec<JointMat>) -> f64 {
        out.iter()
            .zip(mats)
            .map(|(j, m)| {
                let (r, t) = affine_parts_f64(&mat_f64(m));
                let q = quat_diff_up_to_sign(f64x4(j.q.to_array()), mat3_paper_to_quat_f64(r));
                max_abs_diff(j.t.to_array(), [t[0], t[1], t[2], 0.0]).max(q)
            })
            .fold(0.0, f64::max)
    }
    fn bad_calls(n: usize) -> Vec<BadCall<Self>> {
        let m = paper_mats(4, n + 1);
        let m2 = m.clone();
        vec![
            bad::<Self>(
                "mats too short",
                move |imp, out| animasm::mats_to_quats(imp, out, &m[..n - 1]),
                Error::LengthMismatch { what: "mats", expected: n, found: n - 1 },
            ),
            bad::<Self>(
                "mats too long",
                move |imp, out| animasm::mats_to_quats(imp, out, &m2),
                Error::LengthMismatch { what: "mats", expected: n, found: n + 1 },
            ),
        ]
    }
}

// -------------------------------------------------------------- skeletons ---

/// The skeleton routines' input: parents and the joint range.
pub struct SkeletonIn {
    pub parents: Vec<i32>,
    pub range: RangeInclusive<usize>,
}

type SkeletonFn = fn(Impl, &mut [JointMat], &[i32], RangeInclusive<usize>) -> Result<(), Error>;

/// Every joint but the root, `1..=n - 1`; for no joints an empty range at
/// 0 (exhausted: `1..=0` would start past the end of an empty slice).
fn skeleton_inputs(seed: u64, n: usize) -> (Vec<JointMat>, SkeletonIn) {
    let range = if n == 0 {
        let mut r = 0..=0;
        r.next();
        r
    } else {
        1..=n - 1
    };
    (rigid_mats(seed, n), SkeletonIn { parents: random_parents(seed ^ 0x5eed, n), range })
}

fn skeleton_bad_calls<R: Routine<Out = JointMat>>(f: SkeletonFn, n: usize) -> Vec<BadCall<R>> {
    let parents = random_parents(5, n);
    let (p1, p2, mut p3) = (parents.clone(), parents.clone(), parents);
    p3[n - 1] = n as i32 - 1;
    vec![
        bad::<R>(
            "range past the end",
            move |imp, out| f(imp, out, &p1, 0..=n),
            Error::RangeOutOfBounds { start: 0, end: n, len: n },
        ),
        bad::<R>(
            "parents too short",
            move |imp, out| f(imp, out, &p2[..n - 1], 0..=n - 1),
            Error::TooShort { what: "parents", needed: n, found: n - 1 },
        ),
        bad::<R>(
            "a joint its own parent",
            move |imp, out| f(imp, out, &p3, n - 1..=n - 1),
            Error::InvalidParent { joint: n - 1, parent: n as i32 - 1 },
        ),
        // `Impl::Sse2`: a form no skeleton routine has (they have `Avx2`).
        bad::<R>("no such form", move |_, out| f(Impl::Sse2, out, &[], 0..=0), Error::Unsupported(Impl::Sse2)),
    ]
}

macro_rules! skeleton_routine {
    ($ty:ident, $name:literal, $f:path, $forms:path, $resolve:path, $oracle:ident, $tol_s:expr, $tol_o:expr) => {
        #[doc = concat!("`", $name, "`")]
        pub struct $ty;

        impl Routine for $ty {
            const NAME: &'static str = $name;
            type Out = JointMat;
            type Buf = Vec<JointMat>;
            type In = SkeletonIn;
            const TOL_SCALAR: f64 = $tol_s;
            const TOL_ORACLE: f64 = $tol_o;
            fn forms() -> Vec<Impl> {
                $forms().collect()
            }
            fn resolve(imp: Impl) -> Result<Impl, Error> {
                $resolve(imp)
            }
            fn buf(init: &[JointMat]) -> Vec<JointMat> {
                init.to_vec()
            }
            fn inputs(seed: u64, n: usize) -> (Vec<JointMat>, SkeletonIn) {
                skeleton_inputs(seed, n)
            }
            fn call(imp: Impl, out: &mut [JointMat], i: &SkeletonIn) -> Result<(), Error> {
                $f(imp, out, &i.parents, i.range.clone())
            }
            fn oracle_error(out: &[JointMat], init: &[JointMat], i: &SkeletonIn) -> f64 {
                let want = $oracle(init, i);
                out.iter().zip(&want).map(|(o, w)| mat_max_abs_diff(&o.mat, w)).fold(0.0, f64::max)
            }
            fn bad_calls(n: usize) -> Vec<BadCall<Self>> {
                skeleton_bad_calls::<Self>($f, n)
            }
        }
    };
}

/// Local to model space over the range, in f64 (`parent * child`).
fn transform_oracle(init: &[JointMat], i: &SkeletonIn) -> Vec<[f64; 12]> {
    transform_skeleton_f64(&mats_f64(init), &i.parents, i.range.clone())
}

/// Model to local space over the range, in f64 (`parent^-1 * child`).
fn untransform_oracle(init: &[JointMat], i: &SkeletonIn) -> Vec<[f64; 12]> {
    untransform_skeleton_f64(&mats_f64(init), &i.parents, i.range.clone())
}

skeleton_routine!(
    TransformSkeleton,
    "transform_skeleton",
    animasm::transform_skeleton,
    animasm::transform_skeleton::forms,
    animasm::transform_skeleton::resolve,
    transform_oracle,
    1e-5,
    1e-4
);
skeleton_routine!(
    TransformSkeletonMovssShufps,
    "transform_skeleton_movss_shufps",
    animasm::transform_skeleton_movss_shufps,
    // The variant's own table: the listing forms, no successor.
    animasm::transform_skeleton::movss_shufps::forms,
    animasm::transform_skeleton::movss_shufps::resolve,
    transform_oracle,
    1e-5,
    1e-4
);
skeleton_routine!(
    UntransformSkeleton,
    "untransform_skeleton",
    animasm::untransform_skeleton,
    animasm::untransform_skeleton::forms,
    animasm::untransform_skeleton::resolve,
    untransform_oracle,
    1e-5,
    1e-4
);

/// `transform_joints`.
pub struct TransformJoints;

impl Routine for TransformJoints {
    const NAME: &'static str = "transform_joints";
    type Out = JointMat;
    type Buf = Vec<JointMat>;
    type In = (Vec<JointMat>, Vec<JointMat>);
    const TOL_SCALAR: f64 = 5e-6;
    const TOL_ORACLE: f64 = 1e-5;
    fn forms() -> Vec<Impl> {
        animasm::transform_joints::forms().collect()
    }
    fn resolve(imp: Impl) -> Result<Impl, Error> {
        animasm::transform_joints::resolve(imp)
    }
    fn buf(init: &[JointMat]) -> Vec<JointMat> {
        init.to_vec()
    }
    fn inputs(seed: u64, n: usize) -> (Vec<JointMat>, Self::In) {
        (vec![JointMat::IDENTITY; n], (rigid_mats(seed, n), rigid_mats(seed ^ 0xabc, n)))
    }
    fn call(imp: Impl, out: &mut [JointMat], (a, b): &Self::In) -> Result<(), Error> {
        animasm::transform_joints(imp, out, a, b)
    }
    fn oracle_error(out: &[JointMat], _: &[JointMat], (a, b): &Self::In) -> f64 {
        (0..out.len())
            .map(|k| mat_max_abs_diff(&out[k].mat, &affine_mul_f64(mat_f64(&a[k]), mat_f64(&b[k]))))
            .fold(0.0, f64::max)
    }
    fn bad_calls(n: usize) -> Vec<BadCall<Self>> {
        let m = rigid_mats(6, n + 1);
        let m2 = m.clone();
        vec![
            bad::<Self>(
                "joints1 too short",
                move |imp, out| animasm::transform_joints(imp, out, &m[..n - 1], &m[..n]),
                Error::LengthMismatch { what: "joints1", expected: n, found: n - 1 },
            ),
            bad::<Self>(
                "joints2 too long",
                move |imp, out| animasm::transform_joints(imp, out, &m2[..n], &m2),
                Error::LengthMismatch { what: "joints2", expected: n, found: n + 1 },
            ),
            // `Impl::Sse2`: a form the routine does not have (it has `Avx2`).
            bad::<Self>(
                "no such form",
                |_, out| animasm::transform_joints(Impl::Sse2, out, &[], &[]),
                Error::Unsupported(Impl::Sse2),
            ),
        ]
    }
}
