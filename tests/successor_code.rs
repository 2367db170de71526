//! The successors' machine code keeps the one-answer rule that a
//! disassembly can check: no estimate instruction. Every `Origin::Successor`
//! form of the roster compiled for aarch64 (`Impl::Neon`, `Impl::Portable`),
//! with every function of animasm (and of the `libm` crate) it calls, has
//! none of `frsqrte`, `frecpe`, `frecpx`, their Newton steps `frsqrts` and
//! `frecps`, or the integer `ursqrte` and `urecpe`: square roots and
//! divisions are the correctly rounded `fsqrt` and `fdiv`, whose results are
//! the same on every core. A function that uses `vrsqrteq_f32` shows that
//! the check sees such an instruction.
//!
//! aarch64 only (natively, or on x86_64 under qemu: `cargo test --release
//! --target aarch64-unknown-linux-gnu --test successor_code`), with the
//! running binary disassembled by `aarch64-linux-gnu-objdump` (or `$OBJDUMP`,
//! or a native `objdump`): `devkit::mca_aarch64::kernel_code`. On other
//! targets it says so and checks nothing (the x86_64 listings are checked
//! by `tests/disasm.rs`).
//!
//! On x86_64, `avx512_successors_have_no_estimate_instruction` checks the
//! AVX-512 successors (issue 25) the same way in this test binary: no
//! `vrsqrt14ps`, `vrcp14ps` or the SSE/AVX estimates in any function of an
//! `avx512` module.

#[path = "common/cpu.rs"]
mod cpu;

/// The estimate instructions and their Newton steps.
#[cfg(all(target_arch = "aarch64", not(miri)))]
const ESTIMATES: [&str; 7] = ["frsqrte", "frecpe", "frecpx", "frsqrts", "frecps", "ursqrte", "urecpe"];

/// The estimate instructions in `code` (from `kernel_code`), as
/// `function: instruction`.
#[cfg(all(target_arch = "aarch64", not(miri)))]
fn estimates_in(code: &[(String, Vec<String>)]) -> Vec<String> {
    code.iter()
        .flat_map(|(f, instrs)| {
            instrs
                .iter()
                .filter(|i| ESTIMATES.contains(&i.split(' ').next().unwrap_or("")))
                .map(move |i| format!("{f}: {i}"))
        })
        .collect()
}

#[cfg(all(target_arch = "aarch64", not(miri)))]
#[test]
fn successors_have_no_estimate_instruction() {
    use animasm::Origin;
    use animasm::roster::ROUTINES;
    use devkit::mca_aarch64::{code_at, kernel_code};

    /// A reciprocal square root estimate, for the check to find.
    #[inline(never)]
    fn estimate(x: &[f32; 4]) -> [f32; 4] {
        let mut out = [0.0; 4];
        // SAFETY: NEON is the aarch64 baseline; `x` and `out` are 4 floats.
        unsafe {
            use core::arch::aarch64::{vld1q_f32, vrsqrteq_f32, vst1q_f32};
            vst1q_f32(out.as_mut_ptr(), vrsqrteq_f32(vld1q_f32(x.as_ptr())));
        }
        out
    }
    std::hint::black_box(estimate(&[1.0, 2.0, 3.0, 4.0]));
    let control = code_at(std::hint::black_box(estimate as fn(&[f32; 4]) -> [f32; 4] as usize))
        .unwrap_or_else(|e| panic!("disassembling this binary (objdump for aarch64 is needed): {e}"));
    assert!(!estimates_in(&control).is_empty(), "the check does not see `frsqrte` in {control:?}");

    let mut checked = 0;
    for r in ROUTINES {
        for form in r.all_forms().filter(|f| f.origin == Origin::Successor) {
            let code = kernel_code(r, form.imp).unwrap_or_else(|e| panic!("{} {}: {e}", r.name, form.imp));
            let found = estimates_in(&code);
            assert!(found.is_empty(), "{} {}: estimate instructions: {found:?}", r.name, form.imp);
            let functions: Vec<&str> = code.iter().map(|(f, _)| f.as_str()).collect();
            println!("{} {}: no estimate instruction in {functions:?}", r.name, form.imp);
            checked += 1;
        }
    }
    println!("{checked} successor forms checked");
}

#[cfg(not(all(target_arch = "aarch64", not(miri))))]
#[test]
fn successors_have_no_estimate_instruction() {
    cpu::skipped(
        "successors_have_no_estimate_instruction: this test disassembles an aarch64 build (cargo test --release \
         --target aarch64-unknown-linux-gnu --test successor_code); tests/disasm.rs checks the x86_64 listings",
    );
}

/// The x86_64 estimate instructions (SSE, AVX and AVX-512 forms).
#[cfg(all(target_arch = "x86_64", not(miri)))]
const X86_ESTIMATES: [&str; 10] =
    ["rsqrtps", "rsqrtss", "rcpps", "rcpss", "vrsqrtps", "vrcpps", "vrsqrt14ps", "vrcp14ps", "vrsqrt14ss", "vrcp14ss"];

/// The AVX-512 successors on x86_64 (issue 25): every function of this
/// test binary whose name has `::avx512::` (the kernels, their blocks,
/// closures and helpers, where the compiler kept them out of line) has
/// none of [`X86_ESTIMATES`]. A function that uses `vrsqrt14ps` shows that
/// the check sees such an instruction. Needs `objdump` (or `$OBJDUMP`).
#[cfg(all(target_arch = "x86_64", not(miri)))]
#[test]
fn avx512_successors_have_no_estimate_instruction() {
    use core::arch::x86_64::{__m512, _mm512_loadu_ps, _mm512_rsqrt14_ps, _mm512_storeu_ps};
    if cfg!(debug_assertions) {
        // Unoptimised, every intrinsic is a call to a function of
        // `core::arch`, so the kernels' own code holds no instruction to
        // check (nor the control's): the release build checks them.
        cpu::skipped("successor_code: a debug build calls the intrinsics out of line; run with --release");
        return;
    }

    /// A reciprocal square root estimate, for the check to find.
    #[inline(never)]
    #[target_feature(enable = "avx512f")]
    fn estimate_avx512_control(x: &[f32; 16]) -> [f32; 16] {
        let mut out = [0.0; 16];
        // SAFETY: 16 floats each; `loadu`/`storeu` take any alignment.
        unsafe {
            let v: __m512 = _mm512_rsqrt14_ps(_mm512_loadu_ps(x.as_ptr()));
            _mm512_storeu_ps(out.as_mut_ptr(), v);
        }
        out
    }
    std::hint::black_box(estimate_avx512_control as unsafe fn(&[f32; 16]) -> [f32; 16]);
    // Link the kernels' tables into this binary.
    let imp = animasm::Impl::Avx512;
    std::hint::black_box((
        animasm::quats_to_mats::kernel(imp).is_ok(),
        animasm::mats_to_quats::kernel(imp).is_ok(),
        animasm::transform_joints::kernel(imp).is_ok(),
        animasm::slerp_joints::kernel(imp).is_ok(),
        animasm::lerp_joints::kernel(imp).is_ok(),
    ));

    let exe = std::env::current_exe().expect("the test binary's path");
    let text = devkit::objdump::run_objdump(&[
        "-d".into(),
        "-C".into(),
        "--no-show-raw-insn".into(),
        exe.to_string_lossy().into_owned(),
    ]);
    // (function, its estimate instructions) for the functions of interest.
    let mut functions: Vec<(String, Vec<String>)> = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if let Some(name) = line.strip_suffix(">:").and_then(|l| l.split_once(" <")).map(|(_, n)| n) {
            // The nlerp family's widened forms (`nlerp::avx512`) use
            // `vrsqrt14ps` by design: they are no successors.
            let kernel = name.contains("::avx512::") && !name.contains("nlerp::avx512");
            current = (kernel || name.contains("estimate_avx512_control")).then(|| {
                functions.push((name.to_owned(), Vec::new()));
                functions.len() - 1
            });
            continue;
        }
        let (Some(i), Some(d)) = (current, devkit::objdump::parse_objdump_line(line)) else { continue };
        if X86_ESTIMATES.contains(&d.instr.mnemonic.as_str()) {
            functions[i].1.push(d.text);
        }
    }
    let (control, kernels): (Vec<_>, Vec<_>) =
        functions.into_iter().partition(|(name, _)| name.contains("estimate_avx512_control"));
    assert!(control.iter().any(|(_, e)| !e.is_empty()), "the check does not see `vrsqrt14ps` in {control:?}");
    for routine in ["slerp_joints", "lerp_joints", "mats_to_quats", "transform_joints", "quats_to_mats"] {
        let kernel = format!("animasm::{routine}::avx512::{routine}");
        assert!(kernels.iter().any(|(name, _)| name.starts_with(&kernel)), "{kernel} is not in this binary");
    }
    for (name, found) in &kernels {
        assert!(found.is_empty(), "{name}: estimate instructions: {found:?}");
    }
    println!("{} AVX-512 successor functions checked: no estimate instruction", kernels.len());
}
