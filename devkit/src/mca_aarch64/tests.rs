//! The unit tests of `mca_aarch64`: objdump lines, loops and llvm-mca's
//! source, elements per iteration, models and versions, the JSON round
//! trip, and every form of this build estimated.

use super::*;

fn body(lines: &[&str]) -> Vec<Instr> {
    lines.iter().map(|l| parse_line(l).unwrap_or_else(|| panic!("{l}"))).collect()
}

#[test]
fn parses_objdump_lines() {
    let i = parse_line("   68350:\tb.le\t682cc <animasm::slerp_joints::scalar::slerp_joints+0x5c>").unwrap();
    assert_eq!((i.text.as_str(), i.target, i.call.clone()), ("b.le 682cc", Some(0x682cc), None));
    let i = parse_line("   68304:\tb.eq\t683a8 <animasm::x+0x138>  // b.none").unwrap();
    assert_eq!((i.text.as_str(), i.target), ("b.eq 683a8", Some(0x683a8)));
    let i = parse_line("   6835c:\tbl\tf4d0 <acosf@plt>").unwrap();
    assert_eq!((i.target, i.call.clone()), (None, Some((0xf4d0, "acosf@plt".to_owned()))));
    let i = parse_line("   1000:\tcbnz\tx9, ff0 <k+0x10>").unwrap();
    assert_eq!((i.text.as_str(), i.target), ("cbnz x9, ff0", Some(0xff0)));
    let i = parse_line("   1004:\ttbz\tw8, #3, 1040 <k+0x50>").unwrap();
    assert_eq!(i.target, Some(0x1040));
    let i = parse_line("   6829c:\tmov\tw8, #0x37bd                \t// #14269").unwrap();
    assert_eq!((i.text.as_str(), i.target), ("mov w8, #0x37bd", None));
    let i = parse_line("   682d4:\tfcsel\ts0, s0, s1, lt\t// lt = tstop").unwrap();
    assert_eq!(i.text, "fcsel s0, s0, s1, lt");
    assert!(parse_line("0000000000068270 <animasm::slerp_joints::scalar::slerp_joints>:").is_none());
    assert!(parse_line("   683c8:\t.inst\t0x00000000 ; undefined").is_none());
}

#[test]
fn loops_and_llvm_mca_source() {
    let b = body(&[
        "   10:\tcmp\tw3, #0x1",
        "   14:\tldr\tq0, [x1], #16",
        "   18:\tbl\t400 <sinf@plt>",
        "   1c:\tb.ne\t40 <k+0x40>",
        "   20:\tsubs\tx3, x3, #0x1",
        "   24:\tb.ne\t14 <k+0x14>",
        "   28:\tret",
        "   2c:\tb\t10 <k>",
    ]);
    // The jump back over the `ret` is no loop.
    assert_eq!(loops(&b), vec![(1, 5)]);
    let s = mca_source(&b[1..=5], 0x14);
    assert_eq!(
        s,
        ".Lloop:\n    ldr q0, [x1], #16\n    bl .Lout\n    b.ne .Lout\n    subs x3, x3, #0x1\n    b.ne .Lloop\n.Lout:\n"
    );
}

#[test]
fn elements_per_iteration_from_steps() {
    // The scalar slerp_joints: the index list read with a post-index of
    // one entry.
    let b = body(&["   10:\tldrsw\tx8, [x19], #4", "   14:\tsubs\tx22, x22, #0x1"]);
    assert_eq!(elements_from_steps(&b, &[4]), Some(1));
    // Four joints' quaternions a pass: a pointer stepped by 4 x 32 bytes.
    let b = body(&["   10:\tldp\tq0, q1, [x0]", "   14:\tadd\tx0, x0, #0x80"]);
    assert_eq!(elements_from_steps(&b, &[48, 32]), Some(4));
    // A counter used as a scaled index counts elements.
    let b = body(&["   10:\tldr\tw9, [x2, x8, lsl #2]", "   14:\tadd\tx8, x8, #0x4"]);
    assert_eq!(elements_from_steps(&b, &[48]), Some(4));
    let b = body(&["   10:\tldrsw\tx8, [x21, w20, sxtw #2]", "   14:\tadd\tw20, w20, #0x1"]);
    assert_eq!(elements_from_steps(&b, &[48]), Some(1));
    // Pre-index writeback: one matrix.
    let b = body(&["   10:\tldp\tq0, q1, [x0, #48]!"]);
    assert_eq!(elements_from_steps(&b, &[48, 4]), Some(1));
    // The stack pointer and unrelated registers say nothing.
    assert_eq!(elements_from_steps(&body(&["   10:\tsub\tsp, sp, #0x40"]), &[4]), None);
    assert_eq!(elements_from_steps(&body(&["   10:\tadd\tx1, x2, #0x20"]), &[32]), None);
}

#[test]
fn models_and_versions() {
    let out = "Block RThroughput: 14.0\n\nResources:\n[0]   - N1UnitB\n[1.0] - N1UnitD\n";
    assert_eq!(model_of(out).as_deref(), Some("Neoverse N1"));
    assert_eq!(model_of("Resources:\n[0.0] - CyUnitB\n").as_deref(), Some("Cyclone (Apple A7)"));
    assert_eq!(model_of("Resources:\n[0] - CortexA510UnitALU0\n").as_deref(), Some("CortexA510"));
    assert_eq!(major_version("Debian LLVM version 19.1.7"), Some(19));
    assert_eq!(major_version("LLVM version 14.0.6"), Some(14));
}

#[test]
fn the_estimates_read_back_from_json() {
    let e = Aarch64Estimates {
        llvm_mca: "llvm-mca: LLVM version 19.1.7".into(),
        cpus: AARCH64_CPUS.map(str::to_owned),
        models: [Some("Neoverse N1".into()), None],
        rows: vec![
            Aarch64Row {
                routine: "slerp_joints".into(),
                form: "scalar".into(),
                origin: "paper-c".into(),
                isa: "portable".into(),
                estimate: Ok(Aarch64Loop {
                    symbol: "animasm::slerp_joints::scalar::slerp_joints".into(),
                    kernel_instructions: 86,
                    loops: 2,
                    instructions: 54,
                    nested: 1,
                    callees: vec![],
                    calls_kept: vec!["acosf@plt".into()],
                    elements_per_iteration: 1.0,
                    elements_source: "pointer steps".into(),
                    cycles_per_iteration: [Some(20.5), None],
                    source: ".Lloop:\n".into(),
                    mca_error: Some("no model".into()),
                }),
            },
            Aarch64Row {
                routine: "slerp_joints".into(),
                form: "neon".into(),
                origin: "successor".into(),
                isa: "neon".into(),
                estimate: Err("no loop".into()),
            },
        ],
    };
    let text = format!("some runner line\n{}\n", e.to_json());
    assert_eq!(Aarch64Estimates::from_json(&text).unwrap(), e);
    assert!(Aarch64Estimates::from_json("nothing").is_err());
    let Ok(l) = &e.rows[0].estimate else { unreachable!() };
    assert_eq!((l.cycles_per_element(0), l.cycles_per_element(1)), (Some(20.5), None));
}

/// The whole path on this binary: every id routine's scalar port (and
/// any aarch64 successor) found, its loop estimated with both models.
#[cfg(target_arch = "aarch64")]
#[test]
fn every_form_of_this_build_is_estimated() {
    if llvm_mca().is_err() {
        println!("skipped: llvm-mca is not installed (`apt-get install llvm`)");
        return;
    }
    let objdump = objdump();
    if Command::new(&objdump).arg("--version").output().is_err() {
        println!("skipped: `{objdump}` is not installed (`apt-get install binutils-aarch64-linux-gnu`)");
        return;
    }
    let e = estimates().expect("the estimates");
    println!("{}: models {:?}", e.llvm_mca, e.models);
    for r in animasm::roster::id_routines() {
        assert!(e.find(r.name, "scalar").is_some(), "{}: no scalar row", r.name);
    }
    for row in &e.rows {
        let l = row.estimate.as_ref().unwrap_or_else(|err| panic!("{} {}: {err}", row.routine, row.form));
        println!(
            "{} {}: {} instr, {} elem/iter ({}), cycles/iter {:?}, calls kept {:?}",
            row.routine,
            row.form,
            l.instructions,
            l.elements_per_iteration,
            l.elements_source,
            l.cycles_per_iteration,
            l.calls_kept
        );
        assert!(l.instructions > 1 && l.elements_per_iteration >= 1.0, "{} {}", row.routine, row.form);
        assert!(l.cycles_per_iteration.iter().all(Option::is_some), "{} {}: {:?}", row.routine, row.form, l.mca_error);
    }
    assert!(e.models.iter().all(Option::is_some));
}
