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
//! cargo bench -p devkit --bench instr_count                          # everything
//! cargo bench -p devkit --bench instr_count -- --list                # every benchmark's id, nothing run
//! cargo bench -p devkit --bench instr_count -- slerp_joints          # one routine: its forms and its peer
//! cargo bench -p devkit --bench instr_count -- slerp_joints::avx2    # one form
//! cargo bench -p devkit --bench instr_count -- ::asm                 # the asm form of every routine
//! cargo bench -p devkit --bench instr_count -- nlerp                 # nlerp, fnlerp, onlerp
//! cargo bench -p devkit --bench instr_count -- '::n67'               # the sized routines at 67 pairs
//! cargo bench -p devkit --bench instr_count -- ::lerp_joints::       # lerp_joints, not slerp_joints
//! cargo bench -p devkit --bench instr_count -- --list avx2           # the ids a filter selects
//! ```
//!
//! Every benchmark has a readable id, `<routine>::<bench>` (and
//! `::n<count>` for the routines benched at several sizes): `<bench>` is a
//! form ([`Impl::name`]: `scalar`, `asm`, `avx2`, ...), `glam` (the peer) or
//! `autovec` (the nlerp family's scalar loops as LLVM vectorises them). Its
//! full id is `instr_count::<shape group>::<kernels|peers>::<id>`, as
//! `--list` and gungraun's results show it (gungraun's result directory is
//! `<group>/<function>.<id>`, with each `:` of the id written `_`).
//!
//! **The filter** (the first argument that is not an option, else
//! `GUNGRAUN_FILTER`) selects the benchmarks whose full id *contains* it,
//! as `wall_clock`'s (criterion's) filter does; it may hold gungraun's
//! wildcards (`*` any characters, `?` one, `[a-c]`, `[!a]`), so
//! `slerp_quats_*::avx2` works too. With `--exact` the filter is gungraun's
//! own: a wildcard pattern that must match the whole full id. A filter that
//! selects nothing is an error (exit status 1) that lists the routines and
//! benches that exist.
//!
//! # How: gungraun's entry point with readable ids
//!
//! gungraun 0.20 names the benchmarks of a function that iterates a list
//! (`#[benches::cases(iter = ...)]`, how every form of the roster gets a
//! benchmark with no edit here) `cases_0`, `cases_1`, ..., and filters
//! with a wildcard pattern on the whole path. So this file does not use
//! `gungraun::main!`: its [`main`] is that macro's expansion (gungraun
//! 0.20.0's `main!` for library benchmarks), with three changes before the
//! benchmark list goes to `gungraun-runner`: each iterated function's
//! `cases_<i>` becomes one benchmark per case with the case's readable id
//! (and the runner's call for it is mapped back to the case's index); the
//! filter becomes `*<filter>*` (checked here first, natively, with the
//! same wildcard rules); and `--home` is set to
//! `devkit::paths::gungraun_dir()` unless given, so the results land in
//! the target directory the report and the reading room read (see
//! `devkit::paths`). It relies on gungraun's `__internal` module, which is
//! not gungraun's API: a gungraun upgrade must re-check it (`--list`, which
//! `scripts/instr_count_check.sh` runs, fails or shows `cases_*` if it
//! breaks). The path-to-id table is written to `<gungraun home>/animasm/
//! instr_count/cases.tsv` (`<group>/<function>.<id>`, tab, id), which the
//! reading room reads.
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
//! those of the report (`devkit/examples/report/`) and `wall_clock` (`devkit::setup`):
//! the papers' two joint lists for the joint blends, unit quaternions (the
//! joint lists' first list) for `QuatsToMats`, random rigid matrices for
//! `MatsToQuats` and `TransformJoints`, and for the skeletons 1024 rigid
//! matrices (locals; their globals for the routine that takes globals back
//! to locals) under a random parents-first hierarchy, joints `1..=1023`.
//! The quaternion-pair routines run at 64, 67 and 1024 pairs
//! (`setup::SLERP_QUATS_COUNTS`) and the streams over 1024 elements; the
//! whole pose (`Pose`: `slerp_pose`, `lerp_pose`) on the Fox's keyframe
//! pairs tiled to 24, 100 and 1024 joints under a random parents-first
//! hierarchy (`devkit::whole_pose`), without a skin.
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
mod pose;

#[cfg(target_arch = "x86_64")]
use animasm::roster::{Form, Impl, Isa, ROUTINES, Routine, Shape};
#[cfg(target_arch = "x86_64")]
use arrays::{quat_pairs::quat_pairs, stream::stream};
#[cfg(target_arch = "x86_64")]
use joints::joint_blend;
#[cfg(target_arch = "x86_64")]
use matrices::{
    mats_to_quats::mats_to_quats, quats_to_mats::quats_to_mats, skeleton::skeleton, transform_joints::transform_joints,
};
#[cfg(target_arch = "x86_64")]
use pose::whole_pose;

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
    /// The benchmark's readable id: `<routine>::<bench>`, or
    /// `<routine>::<bench>::n<size>`.
    fn id(&self) -> String {
        match self.size {
            Some(n) => format!("{}::{}::n{n}", self.routine.name, self.bench),
            None => format!("{}::{}", self.routine.name, self.bench),
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
        eprintln!("{}: needs {}, which this CPU lacks: not run", case.id(), form.info().isa.needs());
        None
    }
}

/// Every benchmark function, with its cases: `(group::function, cases)`.
#[cfg(target_arch = "x86_64")]
fn functions() -> Vec<(&'static str, Vec<Case>)> {
    [joints::FUNCTIONS, matrices::FUNCTIONS, arrays::FUNCTIONS, pose::FUNCTIONS]
        .into_iter()
        .flatten()
        .map(|f| (f.path, (f.cases)()))
        .collect()
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

/// The position of the filter among the arguments, if there is one: the
/// first argument without a leading `-` that is not the value of an option
/// ([`VALUE_OPTIONS`]).
#[cfg(target_arch = "x86_64")]
fn filter_at(args: &[String]) -> Option<usize> {
    args.iter().enumerate().position(|(at, arg)| {
        let value = at > 0 && args[at - 1].strip_prefix("--").is_some_and(|o| VALUE_OPTIONS.contains(&o));
        !arg.starts_with('-') && !value
    })
}

/// The gungraun pattern of a user's filter: `*<filter>*` (a substring of
/// the full id, wildcards allowed), or the filter itself with `--exact`.
#[cfg(target_arch = "x86_64")]
fn pattern_of(filter: &str, exact: bool) -> String {
    if exact { filter.to_owned() } else { format!("*{filter}*") }
}

/// The full id of a benchmark: `instr_count::<group>::<function>::<id>`.
#[cfg(target_arch = "x86_64")]
fn full_id(function: &str, case: &Case) -> String {
    format!("{}::{function}::{}", module_path!(), case.id())
}

/// The command-line arguments gungraun gets, from this process's `args`:
/// the filter (an argument, else `GUNGRAUN_FILTER`) as a gungraun pattern,
/// and `--home` unless given. Exits with status 1, listing what exists,
/// where the filter selects no benchmark. Prints the forms that are not
/// benched or that count an empty call.
#[cfg(target_arch = "x86_64")]
fn gungraun_args(mut args: Vec<String>, functions: &[(&'static str, Vec<Case>)]) -> Vec<String> {
    let exact = args.iter().any(|a| a == "--exact");
    let env_filter = std::env::var("GUNGRAUN_FILTER").ok().filter(|f| !f.is_empty());
    let filter = match filter_at(&args) {
        Some(at) => Some((at, args[at].clone())),
        None => env_filter.map(|f| (args.len(), f)),
    };
    let pattern = filter.as_ref().map(|(_, f)| pattern_of(f, exact));
    let selected: Vec<(&str, &Case)> = functions
        .iter()
        .flat_map(|(function, cases)| cases.iter().map(move |c| (*function, c)))
        .filter(|(function, case)| pattern.as_ref().is_none_or(|p| glob(p, &full_id(function, case))))
        .collect();
    if let Some((at, filter)) = &filter {
        if selected.is_empty() {
            let mut routines: Vec<String> = Vec::new();
            for (_, cases) in functions {
                for c in cases {
                    let bench = format!("{}::{}", c.routine.name, c.bench);
                    if !routines.contains(&bench) {
                        routines.push(bench);
                    }
                }
            }
            eprintln!(
                "instr_count: `{filter}` selects no benchmark: the filter is a substring of a benchmark's id \
                 (wildcards `*`, `?`, `[...]` allowed; with --exact a pattern on the whole id). The routines: {}\n\
                 The benches (`-- --list` lists every id, sizes included): {}",
                ROUTINES.iter().map(|r| r.name).collect::<Vec<_>>().join(" "),
                routines.join(" ")
            );
            std::process::exit(1);
        }
        let pattern = pattern.clone().expect("a filter has a pattern");
        eprintln!("instr_count: `{filter}` selects {} benchmarks (gungraun filter `{pattern}`)", selected.len());
        if *at < args.len() {
            args[*at] = pattern;
        } else {
            // From GUNGRAUN_FILTER: an argument overrides it.
            args.push(pattern);
        }
    }
    for r in ROUTINES {
        for f in r.all_forms().filter(|f| !valgrind_runs(f.isa)) {
            if pattern.is_none() || selected.iter().any(|(_, c)| c.routine.name == r.name) {
                eprintln!(
                    "instr_count: {}::{}: {}, which valgrind 3.19 cannot run: not benched",
                    r.name,
                    f.imp,
                    f.isa.name()
                );
            }
        }
    }
    for (_, case) in &selected {
        let form = case.imp.and_then(|imp| case.routine.all_forms().find(|f| f.imp == imp));
        if let Some(f) = form.filter(|f| !case.routine.forms().any(|g| g.imp == f.imp)) {
            eprintln!(
                "instr_count: {}: needs {}, which this CPU lacks: counts the empty call",
                case.id(),
                f.isa.needs()
            );
        }
    }
    if !args.iter().any(|a| a == "--home" || a.starts_with("--home=")) {
        args.push(format!("--home={}", devkit::paths::gungraun_dir().display()));
    }
    args
}

/// The value of gungraun's `--home` among `args`.
#[cfg(target_arch = "x86_64")]
fn home_of(args: &[String]) -> Option<std::path::PathBuf> {
    let at = args.iter().position(|a| a == "--home" || a.starts_with("--home="))?;
    let value = match args[at].strip_prefix("--home=") {
        Some(v) => v.to_owned(),
        None => args.get(at + 1)?.clone(),
    };
    Some(std::env::current_dir().unwrap_or_default().join(value))
}

/// Writes `cases.tsv` (each benchmark's result directory, relative to the
/// bench's, and its id) under gungraun's home `home`: the reading room
/// reads it, to show the benchmarks of this build only (a previous build's
/// result directories stay in the home). A failure is a line on stderr.
#[cfg(target_arch = "x86_64")]
fn write_table(home: &std::path::Path, functions: &[(&'static str, Vec<Case>)]) {
    let dir = home.join(env!("CARGO_PKG_NAME")).join(module_path!());
    let mut table = String::new();
    for (path, cases) in functions {
        let (group, function) = path.rsplit_once("::").expect("<group>::<function>");
        for case in cases {
            // gungraun's directory name: the id with `:` as `_` (its file name sanitising).
            table.push_str(&format!("{group}/{function}.{}\t{}\n", case.id().replace(':', "_"), case.id()));
        }
    }
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(dir.join("cases.tsv"), table)) {
        eprintln!("instr_count: writing {}: {e}", dir.join("cases.tsv").display());
    }
}

/// The benchmark list gungraun's `main!` would send the runner, with each
/// iterated function's `cases_<i>` replaced by one benchmark per case with
/// its readable id ([`Case::id`]): the runner then calls bench `i` of the
/// function with no iteration index, which [`main`] maps back to case `i`.
#[cfg(target_arch = "x86_64")]
fn readable(
    mut groups: gungraun::__internal::InternalLibraryBenchmarkGroups,
    functions: &[(&'static str, Vec<Case>)],
) -> gungraun::__internal::InternalLibraryBenchmarkGroups {
    for group in &mut groups.groups {
        for function in &mut group.library_benchmarks {
            let [bench] = function.benches.as_slice() else {
                panic!("instr_count: group {}: a function with one #[benches::cases(iter = ...)] each", group.id)
            };
            let path = format!("{}::{}", group.id, bench.function_name);
            let cases =
                &functions.iter().find(|(p, _)| *p == path).unwrap_or_else(|| panic!("{path}: not in FUNCTIONS")).1;
            assert_eq!(bench.iter_count, Some(cases.len()), "{path}: gungraun's count of the cases");
            let template = bench.clone();
            function.benches = cases
                .iter()
                .map(|case| gungraun::__internal::InternalLibraryBenchmarkBench {
                    id: Some(case.id()),
                    args: None,
                    iter_count: None,
                    ..template.clone()
                })
                .collect();
        }
    }
    groups
}

/// The groups, in `main`'s order: the group module's setup, teardown and
/// run functions (what `gungraun::main!` calls).
#[cfg(target_arch = "x86_64")]
macro_rules! groups {
    ($($group:ident),+) => {
        /// Each group's setup, teardown and run (by function, bench and
        /// iteration index).
        const GROUPS: &[(
            fn(bool) -> bool,
            fn(bool) -> bool,
            fn(gungraun::__internal::InternalBenchRunMode, usize, usize, Option<usize>),
        )] = &[$(($group::__run_setup, $group::__run_teardown, $group::__run)),+];

        /// Sends the benchmark list to `gungraun-runner` (gungraun 0.20's
        /// `main!`, with [`gungraun_args`] and [`readable`]).
        #[inline(never)]
        fn run_all() {
            let mut this_args = std::env::args();
            let runner = gungraun::__internal::Runner::new(
                option_env!("GUNGRAUN_RUNNER").or_else(|| option_env!("CARGO_BIN_EXE_gungraun-runner")),
                &gungraun::__internal::BenchmarkKind::LibraryBenchmark,
                env!("CARGO_MANIFEST_DIR"),
                env!("CARGO_PKG_NAME"),
                file!(),
                module_path!(),
                this_args.next().expect("the bench's own path"),
            );
            let functions = functions();
            let args = gungraun_args(this_args.collect(), &functions);
            if let Some(home) = home_of(&args) {
                write_table(&home, &functions);
            }
            let mut builder = gungraun::__internal::lib_bench::GroupsBuilder::new(None, args, false, false);
            $(
                builder.add_group(
                    stringify!($group).to_owned(),
                    $group::__get_config(),
                    $group::__compare_by_id(),
                    $group::__max_parallel(),
                    $group::__run_setup(false),
                    $group::__run_teardown(false),
                    $group::__BENCHES,
                );
            )+
            let groups = readable(builder.build(), &functions);
            let encoded = gungraun::bincode::serde::encode_to_vec(groups, gungraun::bincode::config::legacy())
                .expect("the encoded benchmarks");
            if let Err(errors) = runner.exec(encoded) {
                eprintln!("{errors}");
                std::process::exit(1);
            }
        }
    };
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
groups!(joint_blend, quats_to_mats, mats_to_quats, skeleton, transform_joints, quat_pairs, stream, whole_pose);

/// gungraun 0.20's `main!` for library benchmarks: `--gungraun-run <mode>
/// <group> <function> <bench>` (the runner, under valgrind) runs case
/// `<bench>` of the function ([`readable`] made each case a bench); any
/// other command line sends the benchmark list to the runner. The run
/// path stays in `main`, as in gungraun's macro.
#[cfg(target_arch = "x86_64")]
fn main() {
    devkit::refuse_test_hooks("instr_count");
    let mut args = std::hint::black_box(std::env::args()).skip(1);
    if args.next().as_deref() != Some("--gungraun-run") {
        run_all();
        return;
    }
    let mode = std::hint::black_box(
        gungraun::__internal::InternalBenchRunMode::from_id(&args.next().expect("a mode"))
            .expect("a valid benchmark run mode"),
    );
    let index = |a: Option<String>| a.and_then(|a| a.parse::<usize>().ok());
    let (group, function, bench) = (args.next(), args.next(), args.next());
    match (group.as_deref(), function.as_deref()) {
        (Some(which @ ("setup" | "teardown")), None) => panic!("instr_count: no main {which}"),
        (Some(_), Some(which @ ("setup" | "teardown"))) => {
            let g = index(group).expect("a group index");
            if which == "setup" {
                (GROUPS[g].0)(true)
            } else {
                (GROUPS[g].1)(true)
            };
        }
        _ => {
            let g = std::hint::black_box(index(group).expect("a group index"));
            let f = std::hint::black_box(index(function).expect("a function index"));
            let case = std::hint::black_box(index(bench).expect("a bench index"));
            // The function's one `#[benches::cases]`, at the case's index.
            (GROUPS[g].2)(mode, f, 0, Some(case));
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn main() {
    eprintln!("instr_count: the asm and intrinsics kernels exist on x86_64 only; nothing to count here");
}
