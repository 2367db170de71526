//! `Skeleton`: hierarchies in any order and with several roots, checked once
//! and run through the skeleton kernels over their root-free runs.
#![cfg(feature = "alloc")]

mod common;

use animasm::{Error, Impl, JointMat, JointQuat, Skeleton};
use animasm_testkit::error::{mat_max_abs_diff, model_size};
use animasm_testkit::fox;
use animasm_testkit::inputs::{Rng, forest_parents, random_parents_from, rigid_mats_from, shuffle_parents};
use animasm_testkit::oracle::{local_to_model_f64, mats_f64, model_to_local_f64};
use common::mat_bits;

/// The structure `Skeleton::new` promises: `order` and `positions` are
/// inverse permutations, every parent comes before its child and is the
/// image of the caller's parent, the roots are the `-1`s, the runs are the
/// maximal root-free ranges.
fn check_structure(sk: &Skeleton, parents: &[i32]) {
    let n = parents.len();
    assert_eq!(sk.len(), n);
    for (k, &j) in sk.order().iter().enumerate() {
        assert_eq!(sk.positions()[j], k);
        let p = sk.parents()[k];
        if parents[j] < 0 {
            assert_eq!(p, -1, "position {k} (joint {j}) is a root");
        } else {
            assert!(p >= 0 && (p as usize) < k, "position {k}: parent {p} not before it");
            assert_eq!(sk.order()[p as usize], parents[j] as usize, "position {k}: wrong parent");
        }
    }
    let roots: Vec<usize> = (0..n).filter(|&k| sk.parents()[k] < 0).collect();
    assert_eq!(sk.roots(), roots);
    let covered: Vec<usize> = sk.runs().flatten().collect();
    let non_roots: Vec<usize> = (0..n).filter(|&k| sk.parents()[k] >= 0).collect();
    assert_eq!(covered, non_roots, "the runs cover exactly the non-roots");
    for r in sk.runs() {
        assert!(*r.start() == 0 || sk.parents()[r.start() - 1] < 0, "run {r:?} is not maximal");
        assert!(*r.end() + 1 == n || sk.parents()[r.end() + 1] < 0, "run {r:?} is not maximal");
    }
}

#[test]
fn a_parents_first_list_keeps_its_order() {
    let parents = fox::parents();
    let sk = Skeleton::new(&parents).unwrap();
    assert!(sk.is_parents_first());
    assert_eq!(sk.order(), (0..parents.len()).collect::<Vec<_>>());
    assert_eq!(sk.parents(), parents);
    assert_eq!(sk.roots(), [0]);
    assert_eq!(sk.runs().collect::<Vec<_>>(), [1..=parents.len() - 1]);
    check_structure(&sk, &parents);
}

/// Shuffled and multi-root hierarchies (the Fox's and random forests of up
/// to 300 joints with 1-7 roots): the structure holds, and the order only
/// moves joints that must move (a list already parents first is kept).
#[test]
fn shuffled_and_multi_root_hierarchies() {
    let mut rng = Rng::new(0x5ce1);
    let mut cases = vec![fox::parents()];
    for n in [1, 2, 3, 10, 64, 300] {
        for roots in [1, 2, 7] {
            cases.push(forest_parents(&mut rng, n, |i| i < roots.min(n)));
        }
    }
    for parents in cases {
        check_structure(&Skeleton::new(&parents).unwrap(), &parents);
        let (shuffled, _) = shuffle_parents(&mut rng, &parents);
        let sk = Skeleton::new(&shuffled).unwrap();
        check_structure(&sk, &shuffled);
        // The parents-first order of the parents-first order is itself.
        assert!(Skeleton::new(sk.parents()).unwrap().is_parents_first());
    }
}

/// Every form of `transform_skeleton` through `local_to_model` on shuffled
/// multi-root forests: within 1e-5 of the model size of the f64 chain, and
/// bit for bit the same as the same form on the unshuffled list (each
/// joint's product depends only on its parent and itself). `model_to_local`
/// brings the locals back within 1e-5.
#[test]
fn local_to_model_and_back_on_shuffled_forests() {
    let mut rng = Rng::new(0xf0e5);
    for (n, roots) in [(1, 1), (5, 2), (24, 1), (64, 3), (257, 5), (1000, 9)] {
        let parents = forest_parents(&mut rng, n, |i| i < roots);
        let locals = rigid_mats_from(&mut rng, n);
        let want = local_to_model_f64(&mats_f64(&locals), &parents);
        let size = model_size(&want);
        let (shuffled, perm) = shuffle_parents(&mut rng, &parents);
        let mut shuffled_locals = vec![JointMat::IDENTITY; n];
        for (old, &new) in perm.iter().enumerate() {
            shuffled_locals[new] = locals[old];
        }
        let sk = Skeleton::new(&shuffled).unwrap();
        let plain = Skeleton::new(&parents).unwrap();
        for imp in animasm::transform_skeleton::forms() {
            let mut mats = sk.to_parents_first_vec(&shuffled_locals).unwrap();
            sk.local_to_model(imp, &mut mats).unwrap();
            let model = sk.from_parents_first_vec(&mats).unwrap();
            let err = (0..n).map(|j| mat_max_abs_diff(&model[perm[j]].mat, &want[j])).fold(0.0, f64::max);
            assert!(err <= 1e-5 * size, "{imp} n={n} roots={roots}: {err:e} (model size {size})");
            let mut unshuffled = locals.clone();
            plain.local_to_model(imp, &mut unshuffled).unwrap();
            let model_in_old_order: Vec<JointMat> = perm.iter().map(|&new| model[new]).collect();
            assert_eq!(mat_bits(&model_in_old_order), mat_bits(&unshuffled), "{imp} n={n}: the order changed bits");

            if animasm::untransform_skeleton::forms().any(|f| f == imp) {
                sk.model_to_local(imp, &mut mats).unwrap();
                let back = sk.from_parents_first_vec(&mats).unwrap();
                let local_want = model_to_local_f64(&want, &parents);
                let err = (0..n).map(|j| mat_max_abs_diff(&back[perm[j]].mat, &local_want[j])).fold(0.0, f64::max);
                assert!(err <= 1e-5 * size, "{imp} n={n}: model_to_local {err:e}");
            }
        }
    }
}

/// The successors through `Skeleton` (the one answer): `local_to_model` and
/// `model_to_local` give the same bits with every successor form this CPU
/// runs (`Impl::Portable`, `Impl::Avx2` where the CPU has AVX2 and FMA,
/// `Impl::Neon` on `aarch64`) and with `Impl::Deterministic`, on shuffled
/// multi-root forests, and the round trip comes back within 1e-5 of the
/// model size.
#[test]
fn successors_give_one_answer_through_the_skeleton() {
    let successors = |name: &str| -> Vec<Impl> {
        let r = animasm::roster::find(name).unwrap();
        let runnable: Vec<Impl> = r.forms().map(|f| f.imp).collect();
        r.all_forms()
            .filter(|f| f.origin == animasm::Origin::Successor && runnable.contains(&f.imp))
            .map(|f| f.imp)
            .chain([Impl::Deterministic])
            .collect()
    };
    let (to_model, to_local) = (successors("transform_skeleton"), successors("untransform_skeleton"));
    assert!(to_model.contains(&Impl::Portable) && to_local.contains(&Impl::Portable));
    assert_eq!(to_model.contains(&Impl::Neon), cfg!(target_arch = "aarch64"));
    let mut rng = Rng::new(0x0de7);
    for (n, roots) in [(1, 1), (5, 2), (24, 1), (67, 3), (300, 7)] {
        let parents = forest_parents(&mut rng, n, |i| i < roots);
        let (shuffled, _) = shuffle_parents(&mut rng, &parents);
        let sk = Skeleton::new(&shuffled).unwrap();
        let locals = sk.to_parents_first_vec(&rigid_mats_from(&mut rng, n)).unwrap();
        let mut model = locals.clone();
        sk.local_to_model(Impl::Portable, &mut model).unwrap();
        let mut back = model.clone();
        sk.model_to_local(Impl::Portable, &mut back).unwrap();
        let size = model_size(&mats_f64(&model));
        let err = (0..n).map(|k| mat_max_abs_diff(&back[k].mat, &mats_f64(&locals[k..=k])[0])).fold(0.0, f64::max);
        assert!(err <= 1e-5 * size, "n={n}: round trip {err:e} (model size {size})");
        for &imp in &to_model {
            let mut out = locals.clone();
            sk.local_to_model(imp, &mut out).unwrap();
            assert_eq!(mat_bits(&out), mat_bits(&model), "{imp} n={n}: local_to_model");
        }
        for &imp in &to_local {
            let mut out = model.clone();
            sk.model_to_local(imp, &mut out).unwrap();
            assert_eq!(mat_bits(&out), mat_bits(&back), "{imp} n={n}: model_to_local");
        }
    }
}

/// The Fox's key poses (glTF rotations through `JointQuat::from_gltf`) on a
/// shuffled Fox hierarchy: model space within 1e-5 of the model size of the
/// f64 reference stored with the data.
#[test]
fn fox_key_poses_on_a_shuffled_hierarchy() {
    let parents = fox::parents();
    let n = parents.len();
    let (shuffled, perm) = shuffle_parents(&mut Rng::new(7), &parents);
    let sk = Skeleton::new(&shuffled).unwrap();
    for pose in fox::key_poses() {
        let size = model_size(&pose.model);
        let mut local = vec![JointQuat::default(); n];
        for j in 0..n {
            local[perm[j]] = JointQuat::from_gltf(pose.rotations[j], pose.translations[j]);
        }
        let quats = sk.to_parents_first_vec(&local).unwrap();
        let mut mats = vec![JointMat::IDENTITY; n];
        animasm::quats_to_mats(Impl::Auto, &mut mats, &quats).unwrap();
        sk.local_to_model(Impl::Auto, &mut mats).unwrap();
        let model = sk.from_parents_first_vec(&mats).unwrap();
        let err = (0..n).map(|j| mat_max_abs_diff(&model[perm[j]].mat, &pose.model[j])).fold(0.0, f64::max);
        assert!(err <= 1e-5 * size, "{}: {err:e} (model size {size})", pose.name);
    }
}

#[test]
fn cycles_and_parents_out_of_range_are_errors() {
    let bad: [(&[i32], Error); 8] = [
        (&[0], Error::ParentCycle { joint: 0 }),
        (&[-1, 2, 1], Error::ParentCycle { joint: 1 }),
        (&[1, 2, 0, -1], Error::ParentCycle { joint: 0 }),
        (&[-1, 0, 4, 2, 3], Error::ParentCycle { joint: 2 }),
        (&[-1, 3], Error::InvalidParent { joint: 1, parent: 3 }),
        (&[-1, 2], Error::InvalidParent { joint: 1, parent: 2 }),
        (&[-1, 0, -2], Error::InvalidParent { joint: 2, parent: -2 }),
        (&[i32::MIN, 0], Error::InvalidParent { joint: 0, parent: i32::MIN }),
    ];
    for (parents, want) in bad {
        assert_eq!(Skeleton::new(parents), Err(want), "{parents:?}");
    }
    // A cycle anywhere, even after a valid tree, even when shuffled.
    let mut parents = fox::parents();
    parents.extend([25, 26, 24]);
    assert!(matches!(Skeleton::new(&parents), Err(Error::ParentCycle { .. })));
    let (shuffled, _) = shuffle_parents(&mut Rng::new(3), &parents);
    assert!(matches!(Skeleton::new(&shuffled), Err(Error::ParentCycle { .. })));
    // Too many joints: refused before any parent is read.
    let huge = vec![-1; Skeleton::MAX_JOINTS + 1];
    let want = Error::TooLong { what: "parents", len: Skeleton::MAX_JOINTS + 1, max: Skeleton::MAX_JOINTS };
    assert_eq!(Skeleton::new(&huge), Err(want));
    assert_eq!(Skeleton::new(&huge[..Skeleton::MAX_JOINTS]).map(|s| s.runs().len()), Ok(0));
}

/// Empty skeletons and skeletons of roots only: nothing to transform, `Ok`,
/// nothing written.
#[test]
fn no_joints_and_roots_only() {
    let empty = Skeleton::new(&[]).unwrap();
    assert!(empty.is_empty() && empty.runs().len() == 0);
    for imp in animasm::transform_skeleton::forms() {
        empty.local_to_model(imp, &mut []).unwrap();
        empty.model_to_local(Impl::Auto, &mut []).unwrap();
    }
    let roots = Skeleton::new(&[-1; 5]).unwrap();
    assert_eq!(roots.roots(), [0, 1, 2, 3, 4]);
    let mats = rigid_mats_from(&mut Rng::new(5), 5);
    let mut out = mats.clone();
    roots.local_to_model(Impl::Auto, &mut out).unwrap();
    roots.model_to_local(Impl::Auto, &mut out).unwrap();
    assert_eq!(mat_bits(&out), mat_bits(&mats));
}

/// Every `Err` of the methods writes nothing: wrong lengths, and a form the
/// routine does not have (checked before the first run, also when there is
/// no run).
#[test]
fn errors_write_nothing() {
    let mut rng = Rng::new(11);
    let parents = forest_parents(&mut rng, 40, |i| i < 3);
    let sk = Skeleton::new(&parents).unwrap();
    let mats = rigid_mats_from(&mut rng, 40);
    let mismatch = |what, found| Err(Error::LengthMismatch { what, expected: 40, found });
    let mut out = mats.clone();
    assert_eq!(sk.local_to_model(Impl::Auto, &mut out[..39]), mismatch("mats", 39));
    assert_eq!(sk.model_to_local(Impl::Auto, &mut out[..39]), mismatch("mats", 39));
    for imp in [Impl::Sse2, Impl::Avx2NoFma] {
        assert_eq!(sk.local_to_model(imp, &mut out), Err(Error::Unsupported(imp)));
        assert_eq!(sk.model_to_local(imp, &mut out), Err(Error::Unsupported(imp)));
        let roots = Skeleton::new(&[-1, -1]).unwrap();
        assert_eq!(roots.local_to_model(imp, &mut out[..2]), Err(Error::Unsupported(imp)));
    }
    assert_eq!(mat_bits(&out), mat_bits(&mats), "written on Err");

    let mut sorted = vec![JointMat::IDENTITY; 40];
    assert_eq!(sk.to_parents_first(&mats[..39], &mut sorted), mismatch("joints", 39));
    assert_eq!(sk.to_parents_first(&mats, &mut sorted[..39]), mismatch("out", 39));
    assert_eq!(sk.from_parents_first(&mats, &mut sorted[..39]), mismatch("out", 39));
    assert_eq!(sk.from_parents_first(&mats[..1], &mut sorted), mismatch("sorted", 1));
    assert_eq!(mat_bits(&sorted), mat_bits(&[JointMat::IDENTITY; 40]), "written on Err");
    assert_eq!(sk.to_parents_first_vec(&mats[..2]).map(drop), mismatch("joints", 2));
    assert_eq!(sk.from_parents_first_vec(&mats[..2]).map(drop), mismatch("sorted", 2));
}

/// `Skeleton::slerp_joints` / `lerp_joints` blend every joint: bit for bit
/// what the crate's functions give with the index `0..n`, for every form;
/// a wrong length is an `Err` that writes nothing.
#[test]
fn blending_every_joint_without_an_index() {
    let (a, b, _) = animasm_testkit::inputs::joint_lists(0xb1e, 77);
    let sk = Skeleton::new(&random_parents_from(&mut Rng::new(1), 77)).unwrap();
    let index: Vec<i32> = (0..77).collect();
    for imp in animasm::slerp_joints::forms() {
        let (mut got, mut want) = (a.clone(), a.clone());
        sk.slerp_joints(imp, &mut got, &b, 0.3).unwrap();
        animasm::slerp_joints(imp, &mut want, &b, 0.3, &index).unwrap();
        assert_eq!(common::bits(&got), common::bits(&want), "slerp {imp}");
        assert_ne!(common::bits(&got), common::bits(&a), "slerp {imp}: nothing blended");
    }
    for imp in animasm::lerp_joints::forms() {
        let (mut got, mut want) = (a.clone(), a.clone());
        sk.lerp_joints(imp, &mut got, &b, 0.3).unwrap();
        animasm::lerp_joints(imp, &mut want, &b, 0.3, &index).unwrap();
        assert_eq!(common::bits(&got), common::bits(&want), "lerp {imp}");
    }
    let mut short = a[..76].to_vec();
    let want = Err(Error::LengthMismatch { what: "joints", expected: 77, found: 76 });
    assert_eq!(sk.slerp_joints(Impl::Auto, &mut short, &b, 0.5), want);
    assert_eq!(sk.lerp_joints(Impl::Auto, &mut short, &b, 0.5), want);
    assert_eq!(common::bits(&short), common::bits(&a[..76]));
    let mut joints = a.clone();
    assert!(sk.slerp_joints(Impl::Auto, &mut joints, &b[..10], 0.5).is_err(), "a short blend list");
    assert_eq!(common::bits(&joints), common::bits(&a));
}

/// With the `glam` feature: the Fox's key poses through `from_glam`,
/// `quats_to_mats` and `Skeleton::local_to_model` (on a shuffled hierarchy,
/// every form) against glam's own `parent * local` chain of
/// `Affine3A::from_rotation_translation`: within 1e-5 of the model size.
#[cfg(feature = "glam")]
#[test]
fn local_to_model_matches_the_glam_chain() {
    use glam::{Affine3A, Quat, Vec3};
    let parents = fox::parents();
    let n = parents.len();
    let (shuffled, perm) = shuffle_parents(&mut Rng::new(13), &parents);
    let sk = Skeleton::new(&shuffled).unwrap();
    let mut worst = 0.0f64;
    for pose in fox::key_poses() {
        let (r, t): (Vec<Quat>, Vec<Vec3>) =
            (0..n).map(|j| (Quat::from_array(pose.rotations[j]), Vec3::from_array(pose.translations[j]))).unzip();
        let mut glam_model: Vec<Affine3A> = Vec::with_capacity(n);
        for j in 0..n {
            let local = Affine3A::from_rotation_translation(r[j], t[j]);
            glam_model.push(if parents[j] < 0 { local } else { glam_model[parents[j] as usize] * local });
        }
        let size = model_size(&pose.model);
        let mut local = vec![JointQuat::default(); n];
        for j in 0..n {
            local[perm[j]] = JointQuat::from_glam(r[j], t[j]);
        }
        let quats = sk.to_parents_first_vec(&local).unwrap();
        for imp in animasm::transform_skeleton::forms() {
            let mut mats = vec![JointMat::IDENTITY; n];
            animasm::quats_to_mats(imp, &mut mats, &quats).unwrap();
            sk.local_to_model(imp, &mut mats).unwrap();
            let model = sk.from_parents_first_vec(&mats).unwrap();
            for j in 0..n {
                let want = animasm_testkit::oracle::mat_f64(&JointMat::from_glam(glam_model[j]));
                let err = mat_max_abs_diff(&model[perm[j]].mat, &want) / size;
                assert!(err <= 1e-5, "{} {imp} joint {j}: {err:e} of the model size", pose.name);
                worst = worst.max(err);
            }
        }
    }
    println!("worst {worst:.2e} of the model size");
}

/// Whether following parents from `joint` comes back to it.
fn on_a_cycle(parents: &[i32], joint: usize) -> bool {
    let mut k = joint;
    for _ in 0..parents.len() {
        match usize::try_from(parents[k]) {
            Ok(p) if p < parents.len() => k = p,
            _ => return false,
        }
        if k == joint {
            return true;
        }
    }
    false
}

proptest::proptest! {
    #![proptest_config(animasm_testkit::strategies::config(256, 2))]

    /// Any parents list (roots, joints, now and then a parent out of range
    /// either way): `Skeleton::new` never panics; `Ok` has the structure of
    /// `check_structure` and no cycle exists; each `Err` names a joint that
    /// really is on a cycle or a parent that really is out of range (the
    /// first one).
    #[test]
    fn any_parents_list(raw in proptest::collection::vec(0u32..100_000, 0..40)) {
        let n = raw.len() as i32;
        let parents: Vec<i32> = raw
            .iter()
            .map(|&r| match r % 100 {
                0..=9 => -1,
                10 => n + (r / 100 % 3) as i32,
                11 => -2 - (r / 100 % 3) as i32,
                _ => (r / 100) as i32 % n,
            })
            .collect();
        match Skeleton::new(&parents) {
            Ok(sk) => {
                check_structure(&sk, &parents);
                proptest::prop_assert!((0..parents.len()).all(|j| !on_a_cycle(&parents, j)));
            }
            Err(Error::InvalidParent { joint, parent }) => {
                proptest::prop_assert_eq!(parents[joint], parent);
                let bad = |p: i32| p < -1 || p >= n;
                proptest::prop_assert!(bad(parent));
                proptest::prop_assert!(parents[..joint].iter().all(|&p| !bad(p)));
            }
            Err(Error::ParentCycle { joint }) => {
                proptest::prop_assert!(parents.iter().all(|&p| (-1..n).contains(&p)));
                proptest::prop_assert!(on_a_cycle(&parents, joint));
            }
            Err(e) => proptest::prop_assert!(false, "unexpected {e}"),
        }
    }
}
