//! The safe functions' contract: every `Error` variant for bad input with
//! nothing written, and the paper's semantics for `lerp <= 0`, `lerp >= 1`
//! and empty input, for every implementation.

mod common;

use animasm::slerp_joints::MAX_JOINTS;
use animasm::{Error, Impl, JointQuat};
use common::{assert_bit_identical, inputs::joint_lists};

type SafeFn = fn(Impl, &mut [JointQuat], &[JointQuat], f32, &[i32]) -> Result<(), Error>;

const ROUTINES: [(&str, SafeFn); 2] = [("slerp_joints", animasm::slerp_joints), ("lerp_joints", animasm::lerp_joints)];

fn available() -> impl Iterator<Item = Impl> {
    Impl::ALL.into_iter().filter(|i| i.is_available())
}

/// Calls `f` on a fresh copy of 9 joints and asserts it returns `want` and
/// leaves the joints bit for bit as they were.
#[track_caller]
fn expect_err(f: SafeFn, imp: Impl, blend_len: usize, lerp: f32, index: &[i32], want: Error) {
    let (joints, blend, _) = joint_lists(7, 9);
    let mut out = joints.clone();
    let got = f(imp, &mut out, &blend[..blend_len], lerp, index);
    assert_eq!(got, Err(want));
    assert_bit_identical(&out, &joints, "joints after Err");
}

#[test]
fn index_out_of_range_or_negative() {
    for (name, f) in ROUTINES {
        for imp in available() {
            eprintln!("{name} {imp}");
            let want = Error::IndexOutOfRange { position: 5, value: 9, len: 9 };
            expect_err(f, imp, 9, 0.5, &[0, 1, 2, 3, 4, 9, 6], want);
            let want = Error::IndexOutOfRange { position: 0, value: -1, len: 9 };
            expect_err(f, imp, 9, 0.5, &[-1, 1, 2, 3, 4, 5], want);
            let want = Error::IndexOutOfRange { position: 8, value: i32::MIN, len: 9 };
            expect_err(f, imp, 9, 0.5, &[0, 1, 2, 3, 4, 5, 6, 7, i32::MIN], want);
            // A bad entry in the tail of the 4-wide loop, and in the copy path.
            let want = Error::IndexOutOfRange { position: 4, value: 100, len: 9 };
            expect_err(f, imp, 9, 1.0, &[0, 1, 2, 3, 100], want);
        }
    }
}

#[test]
fn blend_too_short() {
    for (_, f) in ROUTINES {
        for imp in available() {
            let want = Error::TooShort { what: "blend", needed: 9, found: 8 };
            expect_err(f, imp, 8, 0.5, &[0, 1], want);
            let want = Error::TooShort { what: "blend", needed: 9, found: 0 };
            expect_err(f, imp, 0, 0.5, &[], want);
        }
    }
}

#[test]
fn non_finite_lerp() {
    for (_, f) in ROUTINES {
        for imp in available() {
            for lerp in [f32::NAN, -f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let index = [0, 1, 2, 3, 4, 5, 6, 7, 8];
                let (joints, blend, _) = joint_lists(7, 9);
                let mut out = joints.clone();
                let got = f(imp, &mut out, &blend, lerp, &index);
                assert!(matches!(got, Err(Error::NonFiniteLerp(v)) if v.to_bits() == lerp.to_bits()), "{got:?}");
                assert_bit_identical(&out, &joints, "joints after Err");
            }
        }
    }
}

#[test]
fn too_many_joints() {
    // `vec![0; n]` is a lazily zeroed allocation: the 512 MiB are never
    // touched, as the length check comes first.
    let index = vec![0i32; MAX_JOINTS + 1];
    for (_, f) in ROUTINES {
        for imp in available() {
            let want = Error::TooManyJoints { len: MAX_JOINTS + 1, max: MAX_JOINTS };
            expect_err(f, imp, 9, 0.5, &index, want);
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[test]
fn simd_unsupported_off_x86_64() {
    for (_, f) in ROUTINES {
        for imp in [Impl::Asm, Impl::Intrinsics] {
            expect_err(f, imp, 9, 0.5, &[0], Error::Unsupported(imp));
        }
    }
}

#[test]
fn errors_name_the_problem() {
    let msg = |e: Error| e.to_string();
    assert!(msg(Error::IndexOutOfRange { position: 5, value: -3, len: 9 }).contains("index[5]"));
    assert!(msg(Error::IndexOutOfRange { position: 5, value: -3, len: 9 }).contains("-3"));
    assert!(msg(Error::TooShort { what: "blend", needed: 9, found: 8 }).contains("`blend`"));
    assert!(msg(Error::NonFiniteLerp(f32::NAN)).contains("lerp"));
    assert!(msg(Error::Unsupported(Impl::Asm)).contains("asm"));
    assert!(msg(Error::TooManyJoints { len: 10, max: 5 }).contains("at most 5"));
    assert!(msg(Error::MissingCpuFeature { needs: "avx2 and fma" }).contains("avx2 and fma"));
    assert!(msg(Error::InvalidParent { joint: 7, parent: 9 }).contains("parents[7]"));
    assert!(msg(Error::RangeOutOfBounds { start: 1, end: 30, len: 24 }).contains("1..=30"));
    assert!(msg(Error::LengthMismatch { what: "quats", expected: 3, found: 2 }).contains("`quats`"));
    let e: &dyn core::error::Error = &Error::NonFiniteLerp(1.0);
    assert!(e.source().is_none());
}

#[test]
fn lerp_at_or_below_zero_keeps_the_joints() {
    for (name, f) in ROUTINES {
        for imp in available() {
            for lerp in [0.0, -0.0, -1e-30, -0.5, -1e30, f32::MIN] {
                let (joints, blend, index) = joint_lists(11, 13);
                let mut out = joints.clone();
                f(imp, &mut out, &blend, lerp, &index).unwrap();
                assert_bit_identical(&out, &joints, &format!("{name} {imp} lerp {lerp}"));
            }
        }
    }
}

#[test]
fn lerp_at_or_above_one_copies_the_indexed_blend_joints() {
    for (name, f) in ROUTINES {
        for imp in available() {
            for lerp in [1.0, 1.0 + f32::EPSILON, 2.0, f32::MAX] {
                let (joints, blend, _) = joint_lists(11, 13);
                let index = [12, 0, 5, 3, 7, 1];
                let mut out = joints.clone();
                f(imp, &mut out, &blend, lerp, &index).unwrap();
                let mut want = joints.clone();
                for &j in &index {
                    want[j as usize] = blend[j as usize];
                }
                assert_bit_identical(&out, &want, &format!("{name} {imp} lerp {lerp}"));
            }
        }
    }
}

#[test]
fn empty_index_and_empty_lists() {
    for (_, f) in ROUTINES {
        for imp in available() {
            let (joints, blend, _) = joint_lists(3, 5);
            let mut out = joints.clone();
            f(imp, &mut out, &blend, 0.5, &[]).unwrap();
            assert_bit_identical(&out, &joints, "empty index");
            f(imp, &mut [], &[], 0.5, &[]).unwrap();
        }
    }
}

#[test]
fn only_indexed_joints_change() {
    for (name, f) in ROUTINES {
        for imp in available() {
            let (joints, blend, _) = joint_lists(5, 40);
            let index: Vec<i32> = (0..40).filter(|j| j % 3 == 1).collect();
            let mut out = joints.clone();
            f(imp, &mut out, &blend, 0.25, &index).unwrap();
            for j in 0..40 {
                let changed = out[j] != joints[j];
                assert_eq!(changed, j % 3 == 1, "{name} {imp} joint {j}");
            }
        }
    }
}

#[test]
fn default_impl_is_available() {
    assert!(Impl::default().is_available());
    assert!(Impl::Scalar.is_available());
}
