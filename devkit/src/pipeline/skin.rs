//! A parsed [`File`]'s skin 0 and one animation as an [`Animation`]:
//! parents-first joint order, rest pose, inverse bind matrices, keyframes
//! grouped by time input, the model's size.

use super::load::{File, affine_from_gltf, unit};
use super::reference::{IDENTITY_F64, model_f64, reference_world, rest_locals};
use super::*;
use animasm_testkit::error::model_size;

impl File {
    pub(super) fn animation(&self, index: usize) -> Result<Animation, PoseError> {
        let path = self.path.clone();
        let doc = &self.gltf;
        let node_count = doc.nodes().len();
        let skin_count = doc.skins().len();
        let skin = doc.skins().next().ok_or_else(|| PoseError::NoSkin { path: path.clone() })?;
        let animation_count = doc.animations().len();
        if animation_count == 0 {
            return Err(PoseError::NoAnimation { path, reason: "the file has no animation".into() });
        }
        let anim = doc.animations().nth(index).ok_or_else(|| PoseError::NoAnimation {
            path: path.clone(),
            reason: format!("no animation {index}: the file has {animation_count} (0 to {})", animation_count - 1),
        })?;
        let name = self.animation_names.get(index).cloned().flatten().unwrap_or_else(|| format!("animation {index}"));
        let mut notes = Vec::new();
        if skin_count > 1 {
            notes.push(format!("the file has {skin_count} skins: skin 0 is posed"));
        }

        // The node hierarchy, upwards.
        let mut parent_of: Vec<Option<usize>> = vec![None; node_count];
        for node in doc.nodes() {
            for child in node.children() {
                if parent_of[child.index()].replace(node.index()).is_some() {
                    return Err(self.broken(format!("node {} is the child of two nodes", child.index())));
                }
            }
        }
        let ancestors = |mut n: usize| -> Result<Vec<usize>, PoseError> {
            let mut up = Vec::new();
            while let Some(p) = parent_of[n] {
                up.push(p);
                if up.len() > node_count {
                    return Err(self.broken(format!("the node hierarchy has a cycle through node {p}")));
                }
                n = p;
            }
            Ok(up)
        };

        // The skin's joints and their parents, in skin order.
        let skin_nodes: Vec<usize> = skin.joints().map(|n| n.index()).collect();
        if skin_nodes.is_empty() {
            return Err(self.broken("skin 0 has no joint"));
        }
        let mut joint_of: Vec<Option<usize>> = vec![None; node_count];
        for (j, &n) in skin_nodes.iter().enumerate() {
            if joint_of[n].replace(j).is_some() {
                return Err(self.broken(format!("skin 0 lists node {n} twice")));
            }
        }
        let mut skin_parent: Vec<Option<usize>> = Vec::with_capacity(skin_nodes.len());
        let mut root_parent_node: Vec<Option<usize>> = Vec::with_capacity(skin_nodes.len());
        for &n in &skin_nodes {
            let up = ancestors(n)?;
            match up.first() {
                Some(&p) if joint_of[p].is_some() => {
                    skin_parent.push(joint_of[p]);
                    root_parent_node.push(None);
                }
                first => {
                    if let Some(&a) = up.iter().find(|&&a| joint_of[a].is_some()) {
                        return Err(self.unsupported(format!(
                            "joint '{}' hangs from node '{}', which is not a joint of the skin, below joint '{}'",
                            self.node_name(n),
                            self.node_name(up[0]),
                            self.node_name(a)
                        )));
                    }
                    skin_parent.push(None);
                    root_parent_node.push(first.copied());
                }
            }
        }

        // Parents first: keep the file's order if it is, else walk depth
        // first from the roots (in skin order, children in skin order).
        let parents_first = skin_parent.iter().enumerate().all(|(j, p)| p.is_none_or(|p| p < j));
        let order: Vec<usize> = if parents_first {
            (0..skin_nodes.len()).collect()
        } else {
            let mut children: Vec<Vec<usize>> = vec![Vec::new(); skin_nodes.len()];
            for (j, p) in skin_parent.iter().enumerate() {
                if let Some(p) = *p {
                    children[p].push(j);
                }
            }
            let mut order = Vec::with_capacity(skin_nodes.len());
            let mut stack: Vec<usize> = (0..skin_nodes.len()).filter(|&j| skin_parent[j].is_none()).rev().collect();
            while let Some(j) = stack.pop() {
                order.push(j);
                stack.extend(children[j].iter().rev());
            }
            if order.len() != skin_nodes.len() {
                return Err(self.broken("the skin's joints do not form a tree"));
            }
            let shown = if order.len() <= 16 { format!(": skin joints {order:?}") } else { String::new() };
            notes.push(format!("the file's joint order is not parents first: reordered depth first{shown}"));
            order
        };
        let mut position = vec![0usize; skin_nodes.len()];
        for (i, &j) in order.iter().enumerate() {
            position[j] = i;
        }
        let nodes: Vec<usize> = order.iter().map(|&j| skin_nodes[j]).collect();
        let names: Vec<String> = nodes.iter().map(|&n| self.node_name(n)).collect();
        let parents: Vec<i32> = order.iter().map(|&j| skin_parent[j].map_or(-1, |p| position[p] as i32)).collect();
        debug_assert!(parents.iter().enumerate().all(|(i, &p)| p < i as i32));

        // Which nodes the animation moves, and how.
        let mut animated = vec![false; node_count];
        for ch in anim.channels() {
            animated[ch.target().node().index()] = true;
        }

        // The transforms above the skeleton (static: refused if animated).
        let node_matrix = |n: usize| -> Result<[f64; 12], PoseError> {
            let node = doc.nodes().nth(n).expect("a validated node index");
            affine_from_gltf(&node.transform().matrix()).ok_or_else(|| {
                self.unsupported(format!("node '{}' has a projective matrix (last row not 0 0 0 1)", self.node_name(n)))
            })
        };
        let mut bases: Vec<[f64; 12]> = Vec::new();
        let mut base_of_node: BTreeMap<Option<usize>, usize> = BTreeMap::new();
        let mut root_base = vec![None; nodes.len()];
        for (i, &j) in order.iter().enumerate() {
            if skin_parent[j].is_some() {
                continue;
            }
            let key = root_parent_node[j];
            let b = match base_of_node.get(&key) {
                Some(&b) => b,
                None => {
                    let mut world = IDENTITY_F64;
                    if let Some(p) = key {
                        let mut chain = vec![p];
                        chain.extend(ancestors(p)?);
                        if let Some(&a) = chain.iter().find(|&&a| animated[a]) {
                            return Err(self.unsupported(format!(
                                "node '{}' above the skeleton is animated (only the skin's joints may be)",
                                self.node_name(a)
                            )));
                        }
                        for &a in chain.iter().rev() {
                            world = animasm_testkit::oracle::affine_mul_f64(world, node_matrix(a)?);
                        }
                    }
                    bases.push(world);
                    base_of_node.insert(key, bases.len() - 1);
                    bases.len() - 1
                }
            };
            root_base[i] = Some(b);
        }
        if bases.iter().any(|b| *b != IDENTITY_F64) {
            notes.push(format!(
                "{} transform{} above the skeleton (rest transforms of the nodes above the roots) applied",
                bases.len(),
                if bases.len() == 1 { "" } else { "s" }
            ));
        }

        // The rest pose.
        let mut off_unit = (0usize, 0f64);
        let mut rest = Vec::with_capacity(nodes.len());
        for &n in &nodes {
            let node = doc.nodes().nth(n).expect("a validated node index");
            let (t, r, s) = node.transform().decomposed();
            if s.iter().any(|&s| s.is_nan() || (s - 1.0).abs() > SCALE_TOLERANCE) {
                return Err(self.unsupported(format!(
                    "joint '{}' has scale {s:?} at rest: the kernels carry rotation and translation only",
                    self.node_name(n)
                )));
            }
            if r.iter().chain(&t).any(|v| !v.is_finite()) {
                return Err(self.broken(format!("joint '{}' has a non-finite rest transform", self.node_name(n))));
            }
            let r = unit(r, &mut off_unit)
                .ok_or_else(|| self.broken(format!("joint '{}' has a zero rest rotation", self.node_name(n))))?;
            rest.push(JointQuat::new(Quat::from_array(r), Vec4::new(t[0], t[1], t[2], 1.0)));
        }

        // The inverse bind matrices (identity when absent).
        let inverse_bind: Vec<[f32; 12]> = match skin.inverse_bind_matrices() {
            None => {
                notes.push("the skin has no inverse bind matrices: identity, as glTF says".into());
                vec![IDENTITY_F64.map(|v| v as f32); nodes.len()]
            }
            Some(acc) => {
                let m = self.read::<16>(&acc, "inverse bind matrices", false)?;
                if m.len() < skin_nodes.len() {
                    return Err(self.broken(format!(
                        "{} inverse bind matrices for {} joints",
                        m.len(),
                        skin_nodes.len()
                    )));
                }
                let mut out = Vec::with_capacity(nodes.len());
                for &j in &order {
                    let cols: [[f32; 4]; 4] = std::array::from_fn(|c| std::array::from_fn(|r| m[j][c * 4 + r]));
                    let a = affine_from_gltf(&cols).ok_or_else(|| {
                        self.unsupported(format!("the inverse bind matrix of skin joint {j} is projective"))
                    })?;
                    out.push(a.map(|v| v as f32));
                }
                out
            }
        };

        // The keyframes, grouped by time input and interpolation.
        let mut samplers: Vec<Sampler> = Vec::new();
        let mut seen: BTreeSet<(usize, &str)> = BTreeSet::new();
        let (mut ignored, mut scales) = (0usize, 0usize);
        for ch in anim.channels() {
            let node = ch.target().node().index();
            let property = ch.target().property();
            let Some(j) = joint_of[node].map(|j| position[j]) else {
                ignored += 1;
                continue;
            };
            let path_name = match property {
                Property::Rotation => "rotation",
                Property::Translation => "translation",
                Property::Scale => "scale",
                Property::MorphTargetWeights => {
                    ignored += 1;
                    continue;
                }
            };
            if !seen.insert((j, path_name)) {
                return Err(self.broken(format!("two {path_name} channels for joint '{}'", names[j])));
            }
            let sampler = ch.sampler();
            let step = match sampler.interpolation() {
                Interpolation::Linear => false,
                Interpolation::Step => true,
                Interpolation::CubicSpline => {
                    return Err(self.unsupported(format!(
                        "the {path_name} of joint '{}' uses CUBICSPLINE interpolation: the pipeline slerps between \
                         two keys (LINEAR and STEP only)",
                        names[j]
                    )));
                }
            };
            let what = format!("{path_name} keys of joint '{}'", names[j]);
            let input = sampler.input();
            let times: Vec<f32> =
                self.read::<1>(&input, &format!("{what} (times)"), false)?.into_iter().map(|[t]| t).collect();
            if times.iter().any(|t| !t.is_finite()) || times.windows(2).any(|w| w[1] < w[0]) {
                return Err(self.broken(format!("{what}: key times are not finite and increasing")));
            }
            let output = sampler.output();
            let check_count = |n: usize| {
                if n == times.len() {
                    Ok(())
                } else {
                    Err(self.broken(format!("{what}: {n} values for {} key times", times.len())))
                }
            };
            let group = match samplers.iter().position(|s| s.input == input.index() && s.step == step) {
                Some(g) => g,
                None => {
                    samplers.push(Sampler {
                        input: input.index(),
                        times: times.clone(),
                        step,
                        rotations: Vec::new(),
                        translations: Vec::new(),
                    });
                    samplers.len() - 1
                }
            };
            match property {
                Property::Rotation => {
                    let keys = self.read::<4>(&output, &what, true)?;
                    check_count(keys.len())?;
                    if keys.iter().flatten().any(|v| !v.is_finite()) {
                        return Err(self.broken(format!("{what}: non-finite values")));
                    }
                    let keys = keys
                        .into_iter()
                        .map(|q| unit(q, &mut off_unit))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| self.broken(format!("{what}: a zero quaternion")))?;
                    samplers[group].rotations.push((j, keys));
                }
                Property::Translation => {
                    let keys = self.read::<3>(&output, &what, false)?;
                    check_count(keys.len())?;
                    if keys.iter().flatten().any(|v| !v.is_finite()) {
                        return Err(self.broken(format!("{what}: non-finite values")));
                    }
                    samplers[group].translations.push((j, keys));
                }
                _ => {
                    let keys = self.read::<3>(&output, &what, false)?;
                    check_count(keys.len())?;
                    if let Some(s) =
                        keys.iter().find(|s| s.iter().any(|&v| v.is_nan() || (v - 1.0).abs() > SCALE_TOLERANCE))
                    {
                        return Err(self.unsupported(format!(
                            "{what}: a key scales by {s:?}; the kernels carry rotation and translation only (scale \
                             keys are ignored when they are all 1 within {SCALE_TOLERANCE:e})"
                        )));
                    }
                    scales += 1;
                }
            }
        }
        samplers.retain(|s| !s.rotations.is_empty() || !s.translations.is_empty());
        if samplers.is_empty() {
            return Err(PoseError::NoAnimation {
                path,
                reason: format!("animation {index} ('{name}') moves no joint of skin 0"),
            });
        }
        if off_unit.0 > 0 {
            notes.push(format!(
                "{} rotation{} not of unit length (|q| off by up to {:.1e}): normalized at load",
                off_unit.0,
                if off_unit.0 == 1 { " was" } else { "s were" },
                off_unit.1
            ));
        }
        if scales > 0 {
            notes.push(format!("{scales} scale channel{} ignored: every key is 1", if scales == 1 { "" } else { "s" }));
        }
        if ignored > 0 {
            notes.push(format!(
                "{ignored} channel{} ignored: morph weights or nodes that are not joints of skin 0",
                if ignored == 1 { "" } else { "s" }
            ));
        }
        let start = samplers.iter().map(|s| s.times[0]).fold(f32::INFINITY, f32::min);
        let end = samplers.iter().map(|s| s.times[s.times.len() - 1]).fold(f32::NEG_INFINITY, f32::max);

        let mut animation = Animation {
            path,
            name,
            index,
            animation_count,
            skin_count,
            nodes,
            names,
            skin_joint: order,
            parents,
            reordered: !parents_first,
            bases,
            root_base,
            rest,
            inverse_bind,
            samplers,
            start,
            end,
            size: 1.0,
            size_source: "",
            notes,
        };
        (animation.size, animation.size_source) = Self::size(&animation);
        Ok(animation)
    }

    /// The model's size ([`Animation::size`]): the largest
    /// [`animasm_testkit::error::model_size`] of the f64 reference
    /// model-space pose over the rest pose and the pose at every key time.
    fn size(anim: &Animation) -> (f64, &'static str) {
        let mut times: Vec<f64> = anim.samplers.iter().flat_map(|s| s.times.iter().map(|&t| f64::from(t))).collect();
        times.sort_by(f64::total_cmp);
        times.dedup();
        let rest = model_size(&reference_world(anim, &rest_locals(anim)));
        let size = times.iter().map(|&t| model_size(&model_f64(anim, t))).fold(rest, f64::max);
        (size, if times.is_empty() { "the rest pose" } else { "the rest pose and every key pose" })
    }
}
