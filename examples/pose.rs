//! `cargo run --release --example pose [-- PATH] [--animation N] [--time T]`:
//! a skinned, animated glTF 2.0 file (default the bundled `data/Fox.glb`)
//! through the crate's kernels end to end, checked against an f64 reference
//! and timed per pose for every [`Impl`] the pipeline offers on this CPU
//! (each routine with its own forms: a routine that lacks the form runs its
//! nearest one, marked `*` and said below the table; see
//! `devkit::pipeline::Forms`) and for glam, with the report's
//! timer (`devkit::timer`: fenced TSC reads, converted to nanoseconds at the
//! measured TSC rate), so its figures and the report's agree.
//!
//! For each animation (or the one `--animation` names): the keys around
//! each time, `slerp_joints`, `quats_to_mats`, `transform_skeleton`,
//! `transform_joints` with the inverse bind matrices; see
//! `devkit::pipeline` for the pipeline and the convention it
//! resolves between `quats_to_mats` and `transform_skeleton`.
//!
//! A missing file, a file that is not glTF, a file without a skin or an
//! animation, or an animation the pipeline cannot pose (cubic splines, scale
//! that is not 1, ...) gets a message on stderr and exit code 1; a bad
//! command line exit code 2.

use std::path::PathBuf;
use std::process::ExitCode;

use animasm::Impl;

use devkit::pipeline::{self, Animation, Convention, PoseError};

const USAGE: &str = "usage: cargo run --release --example pose -- [PATH.glb|PATH.gltf] [--animation N] [--time T]
       [--poses N] [--rounds N]

  PATH         a glTF 2.0 file with a skin and an animation (default: data/Fox.glb)
  --animation  pose only animation N (default: every animation of the file)
  --time       check and time the pose at T seconds only (default: check every key and every
               midpoint, time N poses evenly spread over the keys)
  --poses      how many poses a timing round covers (default 64)
  --rounds     timing rounds per pipeline (default 201)";

struct Args {
    path: PathBuf,
    animation: Option<usize>,
    time: Option<f32>,
    poses: usize,
    rounds: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args =
        Args { path: PathBuf::from(pipeline::DEFAULT_PATH), animation: None, time: None, poses: 64, rounds: 201 };
    let mut path = None;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--animation" => {
                let v = value("--animation")?;
                args.animation = Some(v.parse().map_err(|_| format!("--animation {v}: not an index"))?);
            }
            "--time" => {
                let v = value("--time")?;
                let t: f32 = v.parse().map_err(|_| format!("--time {v}: not a number"))?;
                if !t.is_finite() {
                    return Err(format!("--time {v}: not a finite number"));
                }
                args.time = Some(t);
            }
            "--poses" => {
                let v = value("--poses")?;
                args.poses = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("--poses {v}: not a count"))?;
            }
            "--rounds" => {
                let v = value("--rounds")?;
                args.rounds = v.parse().ok().filter(|&n| n > 0).ok_or_else(|| format!("--rounds {v}: not a count"))?;
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s if path.is_none() => path = Some(PathBuf::from(s)),
            s => return Err(format!("one file at a time (got {} and {s})", args.path.display())),
        }
        if let Some(p) = &path {
            args.path = p.clone();
        }
    }
    Ok(args)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(msg) => {
            if msg.is_empty() {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            eprintln!("pose: {msg}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pose: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), PoseError> {
    let indices: Vec<usize> = match args.animation {
        Some(i) => vec![i],
        None => {
            let n = pipeline::animation_count(&args.path)?;
            // With no animation, load_animation says so.
            (0..n.max(1)).collect()
        }
    };
    println!("animasm pose pipeline: {}", args.path.display());
    println!(
        "  per pose: keys around t, slerp_joints (one call per key-time input), quats_to_mats,\n  \
         transform_skeleton over the whole skeleton, transform_joints with the inverse bind matrices"
    );
    println!(
        "  convention: quats_to_mats writes R(q)^T (paper 002's M), transform_skeleton composes [R|t] for\n  \
         column vectors (paper 004): the pipeline hands the kernels the conjugate rotations (negated once)"
    );
    let (mut posed, mut last_error) = (0, None);
    for &i in &indices {
        match pipeline::load_animation(&args.path, i) {
            Ok(anim) => {
                report(&anim, args)?;
                posed += 1;
            }
            Err(e) if args.animation.is_none() && indices.len() > 1 && matches!(e, PoseError::Unsupported { .. }) => {
                println!("\nanimation {i}: skipped: {e}");
                last_error = Some(e);
            }
            Err(e) => return Err(e),
        }
    }
    match (posed, last_error) {
        (0, Some(e)) => Err(e),
        _ => Ok(()),
    }
}

fn report(anim: &Animation, args: &Args) -> Result<(), PoseError> {
    println!();
    for line in anim.summary() {
        println!("  {line}");
    }
    println!(
        "  rest pose x inverse bind = identity within {:.1e} (about 1e-7 if the rest pose is the bind pose)",
        pipeline::rest_bind_error(anim)
    );

    let (check, timed) = match args.time {
        Some(t) => (vec![t], vec![t]),
        None => (anim.check_times(), anim.timing_times(args.poses)),
    };
    let imp = Impl::default();
    let wrong = pipeline::kernel_error(anim, imp, Convention::AsPublished, &check)?;
    println!("  the glTF quaternions handed to quats_to_mats as they are ({imp}): max error {wrong:.2e} (wrong)");
    println!(
        "  checked: {} pose{} against the f64 reference (exact slerp, no animasm kernel);",
        check.len(),
        if check.len() == 1 { "" } else { "s" }
    );
    println!("  error = max(rotation element error, translation error / model size {:.4})", anim.size);
    println!(
        "  timed: {} pose{} {}, {} rounds round-robin, with the report's timer ({}, at {:.3} GHz)",
        timed.len(),
        if timed.len() == 1 { "" } else { "s" },
        match args.time {
            Some(t) => format!("at t = {t} s"),
            None => format!("from {:.4} s to {:.4} s", anim.start, anim.end),
        },
        args.rounds,
        devkit::timer::UNIT,
        devkit::timer::rate_hz() / 1e9
    );
    let rows = pipeline::measure(anim, &check, &timed, args.rounds)?;
    println!();
    println!(
        "  {:<22} {:>16} {:>13} {:>13} {:>18}",
        "pipeline", "max error/size", "ns/pose", "min ns/pose", "poses per second"
    );
    for r in &rows {
        println!(
            "  {:<22} {:>16.2e} {:>13.0} {:>13.0} {:>18}",
            r.name,
            r.max_error,
            r.ns_per_pose,
            r.min_ns_per_pose,
            thousands(r.poses_per_second())
        );
    }
    // What each pipeline runs where a routine lacks the form (`*`), and
    // what `auto` resolves to (devkit::pipeline::Forms).
    for r in &rows {
        if let Some(note) = &r.note {
            println!("  {} {note}", if r.name.ends_with('*') { "*" } else { " " });
        }
    }
    Ok(())
}

/// `1234567.8` as `1,234,568`.
fn thousands(v: f64) -> String {
    let s = format!("{:.0}", v);
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
