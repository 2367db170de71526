//! llvm-mca's estimates of the aarch64 forms' inner loops
//! (`devkit::mca_aarch64`), on an aarch64 build of this program:
//!
//! ```sh
//! cargo run --release --target aarch64-unknown-linux-gnu -p devkit --features animasm/std --example mca_aarch64 -- --text
//! ```
//!
//! (`animasm/std`: the kernels as a user's default build has them, with the
//! platform's C library and `f32::mul_add`.) Without `--text` it prints the estimates as one line of JSON, which the
//! report (`devkit/examples/report`, section 6) reads on an x86_64 host through
//! `devkit::mca_aarch64::cross_estimates`. Under qemu (the runner
//! `.cargo/config.toml` sets) the program runs the host's
//! `aarch64-linux-gnu-objdump` and `llvm-mca` on its own code. Built for
//! another target it says so and exits with status 2.

fn main() {
    #[cfg(all(target_arch = "aarch64", not(miri)))]
    {
        use devkit::mca_aarch64::estimates;
        let e = match estimates() {
            Ok(e) => e,
            Err(err) => {
                eprintln!("mca_aarch64: {err}");
                std::process::exit(1);
            }
        };
        if !std::env::args().skip(1).any(|a| a == "--text") {
            println!("{}", e.to_json());
            return;
        }
        println!("{} (static estimates: no ARM hardware)", e.llvm_mca);
        for (cpu, model) in e.cpus.iter().zip(&e.models) {
            println!("-mcpu={cpu}: scheduling model {}", model.as_deref().unwrap_or("-"));
        }
        let f = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.2}"));
        println!(
            "{:<24} {:<9} {:>6} {:>9} {:>10} {:>10}  calls kept",
            "routine",
            "form",
            "instr",
            "elem/iter",
            format!("{} /el", &e.cpus[0]),
            format!("{} /el", &e.cpus[1])
        );
        for r in &e.rows {
            match &r.estimate {
                Ok(l) => println!(
                    "{:<24} {:<9} {:>6} {:>9} {:>10} {:>10}  {}",
                    r.routine,
                    r.form,
                    l.instructions,
                    l.elements_per_iteration,
                    f(l.cycles_per_element(0)),
                    f(l.cycles_per_element(1)),
                    l.calls_kept.join(", ")
                ),
                Err(err) => println!("{:<24} {:<9} not estimated: {err}", r.routine, r.form),
            }
        }
    }
    #[cfg(not(all(target_arch = "aarch64", not(miri))))]
    {
        eprintln!(
            "mca_aarch64 estimates the code of an aarch64 build: cargo run --release --target \
             aarch64-unknown-linux-gnu -p devkit --features animasm/std --example mca_aarch64"
        );
        std::process::exit(2);
    }
}
