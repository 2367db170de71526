//! Instruction counts (gungraun 0.20, Callgrind) of every form of every
//! routine of `animasm::roster`, and of the glam peers, at the sizes of
//! `wall_clock` and the report.
//!
//! # Running it, and the filter
//!
//! Needs valgrind and `gungraun-runner` of the same version as the
//! `gungraun` library (`cargo install gungraun-runner --version 0.20.0`).
//! x86_64 only (the asm and intrinsics kernels exist only there).
//!
//! ```text
//! cargo bench --bench instr_count                          # everything
//! cargo bench --bench instr_count -- --list                # the benchmarks, each with its routine/form
//! cargo bench --bench instr_count -- slerp_joints          # one routine: its forms and its peer
//! cargo bench --bench instr_count -- slerp_joints/avx2     # one form
//! cargo bench --bench instr_count -- '*/asm'               # the asm form of every routine
//! cargo bench --bench instr_count -- '*nlerp'              # nlerp, fnlerp, onlerp
//! cargo bench --bench instr_count -- 'slerp_quats_*/*/67'  # the sized routines at one size
//! cargo bench --bench instr_count -- 'instr_count::stream::*'     # gungraun's own syntax
//! ```
//!
//! Every benchmark has a name `<routine>/<bench>` (`<routine>/<bench>/<n>`
//! for the routines benched at several sizes): `<bench>` is a form
//! ([`Impl::name`]: `scalar`, `asm`, `avx2`, ...), `glam` (the peer) or
//! `autovec` (the nlerp family's scalar loops as LLVM vectorises them). A
//! filter without `::` is a wildcard pattern (`*` any characters, `?` one,
//! `[a-c]`, `[!a]` one of, or not, a set) on these names; it also selects
//! every benchmark under a name it matches whole (`slerp_joints` selects
//! `slerp_joints/*`, and not `lerp_joints/*` nor `slerp_joints_x/*`). A
//! filter that selects nothing is an error (exit status 1), and prints the
//! routines' names.
//!
//! gungraun itself filters on a benchmark's module path,
//! `instr_count::<group>::<function>::<id>` (its `FILTER` argument, the same
//! wildcards, matched against the whole path), and a benchmark function
//! that iterates a list (`#[benches::cases(iter = ...)]`) numbers its
//! benchmarks `cases_0`, `cases_1`, ...: the id cannot carry the routine's
//! name. So before gungraun runs, this harness prints each selected
//! benchmark's path and name, and turns a name filter into the patterns of
//! the ids it selects (`instr_count::joint_blend::kernels::cases_[0123]`),
//! running gungraun once per pattern (one per function and run of ten ids:
//! usually one or two). A filter with `::` goes to gungraun as it is. The
//! path-to-name table is also written to `<gungraun home>/animasm/
//! instr_count/cases.tsv` (`<group>/<function>.<id>`, tab, name: the
//! layout of gungraun's result directories), for tools that read the
//! results.
//!
//! # What is counted
//!
//! The raw kernels of the roster's kernel tables ([`Form::kernel`]) are
//! called directly, so the count is the kernel alone, without the safe
//! functions' validation. Building the input happens in the `setup`
//! functions, which gungraun does not count; every benchmark returns its
//! input, so freeing it is not counted either. A benchmark runs once on
//! fresh data, so nothing needs restoring. Counts repeat exactly from run
//! to run.
//!
//! The benchmarks are written once per [`Shape`] (routines of one shape
//! take the same arguments): one file per family of shapes, one benchmark
//! function per shape for its kernels (every form compiled here of every
//! routine of the shape, in the roster's order, fastest form first, then
//! the shape's extra kernels) and one for its peers. A new form or a new
//! routine of an existing shape shows up here with no edit. The data are
//! those of the report (`examples/report/`) and `wall_clock` (`devkit::setup`):
//! the papers' two joint lists for the joint blends, unit quaternions (the
//! joint lists' first list) for `QuatsToMats`, random rigid matrices for
//! `MatsToQuats` and `TransformJoints`, and for the skeletons 1024 rigid
//! matrices (locals; their globals for the routine that takes globals back
//! to locals) under a random parents-first hierarchy, joints `1..=1023`.
//! The quaternion-pair routines run at 64, 67 and 1024 pairs
//! (`setup::SLERP_QUATS_COUNTS`) and the streams over 1024 elements.
//!
//! A form whose instruction set this CPU, as valgrind presents it, lacks
//! (CPU detection runs in the setup, under valgrind) prints why on stderr
//! (gungraun shows it with `--nocapture`) and runs nothing: its count is
//! the empty call's, so the run never stops on an instruction valgrind
//! cannot execute; the line before the run says which forms these are
//! natively. Valgrind 3.19 runs AVX, AVX2 and FMA but not AVX-512: a form
//! whose [`Isa`] is `Avx512` is not benched, with a line saying so.

#[cfg(target_arch = "x86_64")]
mod arrays;
#[cfg(target_arch = "x86_64")]
mod joints;
#[cfg(target_arch = "x86_64")]
mod matrices;

#[cfg(target_arch = "x86_64")]
use animasm::roster::{Form, Impl, Isa, ROUTINES, Routine, Shape};
#[cfg(target_arch = "x86_64")]
use arrays::{quat_pairs::quat_pairs, stream::stream};
#[cfg(target_arch = "x86_64")]
use gungraun::main;
#[cfg(target_arch = "x86_64")]
use joints::joint_blend;
#[cfg(target_arch = "x86_64")]
use matrices::{
    mats_to_quats::mats_to_quats, quats_to_mats::quats_to_mats, skeleton::skeleton, transform_joints::transform_joints,
};

/// One benchmark: a form of a routine, or one of its extras, at a size.
#[cfg(target_arch = "x86_64")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Case {
    pub(crate) routine: &'static Routine,
    /// The form's [`Impl::name`], or the extra's name (`glam`, `autovec`).
    pub(crate) bench: &'static str,
    /// The form (`None`: an extra).
    pub(crate) imp: Option<Impl>,
    /// The element count, for the shapes benched at several.
    pub(crate) size: Option<usize>,
}

#[cfg(target_arch = "x86_64")]
impl Case {
    /// `<routine>/<bench>`, or `<routine>/<bench>/<size>`.
    fn name(&self) -> String {
        match self.size {
            Some(n) => format!("{}/{}/{n}", self.routine.name, self.bench),
            None => format!("{}/{}", self.routine.name, self.bench),
        }
    }
}

/// A benchmark function that iterates [`Case`]s: its path under the bench
/// (`<group>::<function>`) and its cases.
#[cfg(target_arch = "x86_64")]
pub(crate) struct Function {
    pub(crate) path: &'static str,
    pub(crate) cases: fn() -> Vec<Case>,
}

/// The extras of a routine (see [`cases`]): none.
#[cfg(target_arch = "x86_64")]
pub(crate) fn no_extras(_: &Routine) -> &'static [&'static str] {
    &[]
}

/// The cases of one benchmark function: for each routine of the roster whose
/// shape `of_shape` accepts, in the roster's order, its forms compiled here
/// (fastest first; none if `!forms`; an AVX-512 form never: see
/// [`valgrind_runs`]) and then `extras(routine)`, each at every size of
/// `sizes`. Evaluated natively (to count and list them) and again under
/// valgrind (to take the n-th): the same list in both, since it depends on
/// the build only, not on the CPU.
#[cfg(target_arch = "x86_64")]
pub(crate) fn cases(
    of_shape: fn(&Shape) -> bool,
    sizes: &[Option<usize>],
    forms: bool,
    extras: fn(&Routine) -> &'static [&'static str],
) -> Vec<Case> {
    let mut out = Vec::new();
    for routine in ROUTINES.iter().filter(|r| of_shape(&r.shape)) {
        let forms = routine.all_forms().filter(|f| forms && valgrind_runs(f.isa)).map(|f| (f.imp.name(), Some(f.imp)));
        for (bench, imp) in forms.chain(extras(routine).iter().map(|&e| (e, None))) {
            for &size in sizes {
                out.push(Case { routine, bench, imp, size });
            }
        }
    }
    out
}

/// Whether valgrind 3.19 runs code of `isa`: not AVX-512.
#[cfg(target_arch = "x86_64")]
fn valgrind_runs(isa: Isa) -> bool {
    isa != Isa::Avx512
}

/// The raw kernel of a form case, from its routine's kernel table `forms`,
/// or `None` (with a line on stderr) where this CPU, as valgrind presents
/// it, lacks the form's instruction set: the benchmark then counts the
/// empty call. Called in the setup, under valgrind.
#[cfg(target_arch = "x86_64")]
pub(crate) fn kernel<K: Copy>(case: &Case, forms: &'static [Form<K>]) -> Option<K> {
    let imp = case.imp?;
    let form = forms.iter().find(|f| f.imp() == imp).expect("a case's form is in its routine's table");
    if form.runnable() {
        Some(form.kernel())
    } else {
        eprintln!("{}: needs {}, which this CPU lacks: not run", case.name(), form.info().isa.needs());
        None
    }
}

/// Every benchmark function, with its cases.
#[cfg(target_arch = "x86_64")]
fn functions() -> Vec<(String, Vec<Case>)> {
    [joints::FUNCTIONS, matrices::FUNCTIONS, arrays::FUNCTIONS]
        .into_iter()
        .flatten()
        .map(|f| (format!("{}::{}", module_path!(), f.path), (f.cases)()))
        .collect()
}

/// Runs before gungraun, natively, in the process `cargo bench` starts (its
/// lines reach the terminal; a `setup` runs under valgrind, in a process
/// whose output gungraun captures): says which forms are not benched or
/// count an empty call, prints each selected benchmark's path and name,
/// writes the path-to-name table, and runs a name filter (see the top of
/// this file) as gungraun patterns, one gungraun run each, then exits.
#[cfg(target_arch = "x86_64")]
fn front_end() {
    let functions = functions();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((at, selected)) = name_filter(&args, &functions) else {
        // No filter, or gungraun's own: this run is gungraun's.
        for r in ROUTINES {
            for f in r.all_forms().filter(|f| !valgrind_runs(f.isa)) {
                eprintln!(
                    "instr_count: {}/{}: {}, which valgrind 3.19 cannot run: not benched",
                    r.name,
                    f.imp,
                    f.isa.name()
                );
            }
        }
        write_table(&functions);
        let filter = args.iter().find(|a| !a.starts_with('-') && a.contains("::"));
        print_cases(&functions, |path, i| filter.is_none_or(|f| glob(f, &format!("{path}::cases_{i}"))));
        return;
    };
    if selected.is_empty() {
        let names: Vec<&str> = ROUTINES.iter().map(|r| r.name).collect();
        eprintln!(
            "instr_count: `{}` selects no benchmark. Filters are wildcard patterns on `<routine>/<bench>` \
             (see the top of benches/instr_count/main.rs); the routines: {}",
            args[at],
            names.join(" ")
        );
        std::process::exit(1);
    }
    // One gungraun run per pattern (this bench again, with the pattern as
    // its filter: the branch above).
    let patterns = patterns(&selected);
    eprintln!("instr_count: `{}`: {} benchmarks, gungraun runs {}", args[at], selected.len(), patterns.join(" "));
    let exe = std::env::current_exe().expect("the bench's own path");
    let mut status = 0;
    for pattern in patterns {
        let mut child_args = args.clone();
        child_args[at] = pattern;
        let code = std::process::Command::new(&exe).args(&child_args).status().map_or(1, |s| s.code().unwrap_or(1));
        if status == 0 {
            status = code;
        }
    }
    std::process::exit(status);
}

/// gungraun 0.20's options that take a separate value (`--tools dhat`):
/// the arguments after them are not filters.
#[cfg(target_arch = "x86_64")]
const VALUE_OPTIONS: &[&str] = &[
    "bbv-args",
    "cachegrind-args",
    "cachegrind-limits",
    "cachegrind-metrics",
    "callgrind-args",
    "callgrind-limits",
    "callgrind-metrics",
    "color",
    "default-tool",
    "dhat-args",
    "dhat-limits",
    "dhat-metrics",
    "drd-args",
    "drd-metrics",
    "env-clear",
    "format",
    "helgrind-args",
    "helgrind-metrics",
    "home",
    "logfile",
    "massif-args",
    "memcheck-args",
    "memcheck-metrics",
    "output-format",
    "perf-args",
    "perf-bin",
    "perf-events",
    "perf-limits",
    "perf-record-args",
    "perf-run-mode",
    "shuffle-seed",
    "skip",
    "test-threads",
    "tool-runner",
    "tool-runner-args",
    "tool-runner-dest",
    "tool-runner-root",
    "tools",
    "valgrind-args",
    "valgrind-bin",
    "workspace-root",
];

/// The name filter among the arguments, if there is one: its position and
/// the (function path, case index) pairs it selects (empty: none). A name
/// filter is an argument without a leading `-` and without `::` that is not
/// the value of an option ([`VALUE_OPTIONS`]).
#[cfg(target_arch = "x86_64")]
fn name_filter(args: &[String], functions: &[(String, Vec<Case>)]) -> Option<(usize, Vec<(String, usize)>)> {
    let at = args.iter().enumerate().position(|(at, arg)| {
        let value = at > 0 && args[at - 1].strip_prefix("--").is_some_and(|o| VALUE_OPTIONS.contains(&o));
        !arg.starts_with('-') && !arg.contains("::") && !value
    })?;
    let (pattern, whole) = (&args[at], format!("{}/*", args[at]));
    let mut selected = Vec::new();
    for (path, cases) in functions {
        for (i, case) in cases.iter().enumerate() {
            let name = case.name();
            if glob(pattern, &name) || glob(&whole, &name) {
                selected.push((path.clone(), i));
            }
        }
    }
    Some((at, selected))
}

/// gungraun patterns that select exactly `selected` (each function's
/// indices, ascending): per function, one pattern per run of ids that
/// differ in their last digit only (`<path>::cases_1[0-3]`).
#[cfg(target_arch = "x86_64")]
fn patterns(selected: &[(String, usize)]) -> Vec<String> {
    let mut out: Vec<(String, usize, String)> = Vec::new();
    for (path, i) in selected {
        let (tens, digit) = (i / 10, char::from(b'0' + (i % 10) as u8));
        match out.last_mut() {
            Some((p, t, digits)) if p == path && *t == tens => digits.push(digit),
            _ => out.push((path.clone(), tens, digit.to_string())),
        }
    }
    out.into_iter()
        .map(|(path, tens, digits)| {
            let tens = if tens == 0 { String::new() } else { tens.to_string() };
            format!("{path}::cases_{tens}[{digits}]")
        })
        .collect()
}

/// Prints the path and name of every case `keep(function path, index)`
/// accepts, and for a form this CPU does not run, that it counts the empty
/// call.
#[cfg(target_arch = "x86_64")]
fn print_cases(functions: &[(String, Vec<Case>)], keep: impl Fn(&str, usize) -> bool) {
    for (path, cases) in functions {
        for (i, case) in cases.iter().enumerate() {
            if !keep(path, i) {
                continue;
            }
            let form = case.imp.and_then(|imp| case.routine.all_forms().find(|f| f.imp == imp));
            let note = match form {
                Some(f) if !case.routine.forms().any(|g| g.imp == f.imp) => {
                    format!(" (needs {}, which this CPU lacks: counts the empty call)", f.isa.needs())
                }
                _ => String::new(),
            };
            eprintln!("{path}::cases_{i} = {}{note}", case.name());
        }
    }
}

/// Writes `cases.tsv` (each benchmark's result directory, relative to the
/// bench's, and its name) where gungraun writes its results: `GUNGRAUN_HOME`,
/// else `CARGO_TARGET_DIR/gungraun`, else the `gungraun` directory of the
/// target directory this bench was built in (a gungraun `--home` argument
/// is not followed). A failure is a line on stderr.
#[cfg(target_arch = "x86_64")]
fn write_table(functions: &[(String, Vec<Case>)]) {
    let home = std::env::var_os("GUNGRAUN_HOME").map(std::path::PathBuf::from).or_else(|| {
        std::env::var_os("CARGO_TARGET_DIR").map(|t| std::path::PathBuf::from(t).join("gungraun")).or_else(|| {
            // <target>/release/deps/instr_count-<hash>
            std::env::current_exe().ok()?.ancestors().nth(3).map(|t| t.join("gungraun"))
        })
    });
    let Some(home) = home else { return };
    let dir = home.join(env!("CARGO_PKG_NAME")).join(module_path!());
    let mut table = String::new();
    for (path, cases) in functions {
        let (group, function) = path.rsplit_once("::").expect("<crate>::<group>::<function>");
        let group = group.rsplit("::").next().expect("a group");
        for (i, case) in cases.iter().enumerate() {
            table.push_str(&format!("{group}/{function}.cases_{i}\t{}\n", case.name()));
        }
    }
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(dir.join("cases.tsv"), table)) {
        eprintln!("instr_count: writing {}: {e}", dir.join("cases.tsv").display());
    }
}

/// Whether the wildcard pattern `pattern` (`*`, `?`, `[...]`, `[!...]`,
/// `\` escapes: gungraun's filter syntax) matches all of `text`.
#[cfg(target_arch = "x86_64")]
fn glob(pattern: &str, text: &str) -> bool {
    fn class(p: &[char], c: char) -> Option<(bool, usize)> {
        // `p` starts after the `[`: whether `c` is in the set, and the
        // length of the set up to and including its `]`.
        let negated = p.first() == Some(&'!');
        let mut i = usize::from(negated);
        let mut hit = false;
        let mut first = true;
        while i < p.len() && (first || p[i] != ']') {
            first = false;
            if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
                hit |= (p[i]..=p[i + 2]).contains(&c);
                i += 3;
            } else {
                hit |= p[i] == c;
                i += 1;
            }
        }
        (i < p.len()).then_some((hit != negated, i + 1))
    }
    fn go(p: &[char], t: &[char]) -> bool {
        match p.first() {
            None => t.is_empty(),
            Some('*') => (0..=t.len()).any(|k| go(&p[1..], &t[k..])),
            Some('?') => !t.is_empty() && go(&p[1..], &t[1..]),
            Some('[') if !t.is_empty() => match class(&p[1..], t[0]) {
                Some((true, len)) => go(&p[1 + len..], &t[1..]),
                Some((false, _)) => false,
                None => t[0] == '[' && go(&p[1..], &t[1..]),
            },
            Some('\\') if p.len() > 1 => !t.is_empty() && t[0] == p[1] && go(&p[2..], &t[1..]),
            Some(&c) => !t.is_empty() && t[0] == c && go(&p[1..], &t[1..]),
        }
    }
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    go(&p, &t)
}

#[cfg(target_arch = "x86_64")]
main!(
    config = {
        front_end();
        gungraun::LibraryBenchmarkConfig::default()
    };
    library_benchmark_groups = joint_blend,
    quats_to_mats,
    mats_to_quats,
    skeleton,
    transform_joints,
    quat_pairs,
    stream
);

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("instr_count: the asm and intrinsics kernels exist on x86_64 only; nothing to count here");
}
