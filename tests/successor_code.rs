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
    println!(
        "skipped: this test disassembles an aarch64 build (cargo test --release --target \
         aarch64-unknown-linux-gnu --test successor_code); tests/disasm.rs checks the x86_64 listings"
    );
}
