#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (cargo-fuzz, libFuzzer) one after the
# other, each for SECONDS seconds (default 60) or, with --runs N, for N
# executions; stops at the first finding, which libFuzzer saves under
# fuzz/artifacts/<target>/ (reproduce it with
# `cargo +nightly fuzz run --no-trace-compares <target> fuzz/artifacts/<target>/crash-...`
# from fuzz/). Each target starts from its committed seeds, fuzz/seeds/<target>/,
# and its working corpus, fuzz/corpus/<target>/ (not committed), which
# grows from run to run: libFuzzer reads both and writes new inputs to the
# working corpus only.
#
# The targets: `roster`, every routine of animasm::roster (the input's
# first byte picks the routine by name, fuzz/src/pick.rs), and `skeleton`,
# animasm::Skeleton. A TARGET `roster:<routine>` runs the `roster` target
# on that routine's inputs only (ANIMASM_FUZZ_ROUTINE=<routine>: the others
# return at once; the seeds and corpus are the roster's). Without TARGET:
# `roster:<routine>` for every routine of the roster (the target lists
# them), then every other target, each for SECONDS (or N executions): a
# routine added to the roster gets its own run with no edit here.
#
# Prints, per run, libFuzzer's final statistics (-print_final_stats=1):
# executions, seconds, executions per second, coverage (`cov`: edges;
# `ft`: features) and corpus size, as a table at the end, also written to
# fuzz/target/fuzz-summary.tsv.
#
# Usage: scripts/fuzz.sh [--runs N | SECONDS] [TARGET...]
#   scripts/fuzz.sh                   every routine and target, 60 s each
#   scripts/fuzz.sh 10 roster:nlerp   nlerp for 10 s
#   scripts/fuzz.sh 60 roster         every routine, mixed, for 60 s
#   scripts/fuzz.sh --runs 5000000    every routine and target, 5,000,000 executions each
# Environment: FUZZ_TOOLCHAIN (default nightly); FUZZ_ARGS, more libFuzzer
# flags (e.g. "-seed=1"); FUZZ_MERGE=1 to minimise each target's seeds from
# its working corpus afterwards (-merge=1 -use_counters=0 into
# fuzz/seeds/<target>/: the fewest inputs that reach every edge the corpus
# reaches, a few dozen small files per routine).
# Needs: rustup toolchain install nightly; cargo install cargo-fuzz
#
# Build and run flags, for speed (measured with perf on these targets):
# --no-trace-compares: the targets turn bytes into values through a hash
#   and a PRNG (animasm_fuzz::Gen), so libFuzzer's comparison tracing has
#   little to steer and costs half the executions;
# -entropic=0: the entropic scheduler's per-feature bookkeeping costs a
#   third of the executions of these short targets;
# ASAN_OPTIONS=detect_stack_use_after_return=0: no safe function returns a
#   pointer to its stack; the fake stack is a tenth of the time.
# AddressSanitizer itself stays on (the default): it checks every access of
# the intrinsics and of the scalar port to the callers' slices.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz not found: cargo install cargo-fuzz" >&2; exit 1; }
toolchain="${FUZZ_TOOLCHAIN:-nightly}"
limit=(-max_total_time=60)
what="60 s"
if [ "${1:-}" = "--runs" ]; then
    [ -n "${2:-}" ] || { echo "--runs needs a number" >&2; exit 2; }
    limit=(-runs="$2")
    what="$2 executions"
    shift 2
elif [ -n "${1:-}" ] && [[ "$1" =~ ^[0-9]+$ ]]; then
    limit=(-max_total_time="$1")
    what="$1 s"
    shift
fi
build=(--no-trace-compares)
read -r -a extra <<<"${FUZZ_ARGS:-}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_stack_use_after_return=0}"

cargo +"$toolchain" fuzz build "${build[@]}"
if [ "$#" -gt 0 ]; then
    targets=("$@")
else
    # Every routine of the roster, as the `roster` target lists them.
    mapfile -t routines < <(ANIMASM_FUZZ_ROUTINE=list cargo +"$toolchain" fuzz run "${build[@]}" roster -- -runs=0 2>/dev/null)
    [ "${#routines[@]}" -gt 0 ] || { echo "fuzz: the roster target listed no routine" >&2; exit 1; }
    targets=("${routines[@]/#/roster:}")
    mapfile -t -O "${#targets[@]}" targets < <(cargo +"$toolchain" fuzz list | grep -vx roster)
fi
mkdir -p target
summary=target/fuzz-summary.tsv
printf 'target\texecutions\tseconds\texec/s\tcov\tft\tcorpus\n' >"$summary"
merge=()
for t in "${targets[@]}"; do
    # `roster:<routine>`: the `roster` target with that routine only.
    base="${t%%:*}"
    focus=""
    [ "$base" = "$t" ] || focus="${t#*:}"
    echo "== fuzz: $t for $what" >&2
    log="target/fuzz-${t/:/-}.log"
    mkdir -p "corpus/$base" "seeds/$base"
    [[ " ${merge[*]} " == *" $base "* ]] || merge+=("$base")
    start=$(date +%s.%N)
    if ! ANIMASM_FUZZ_ROUTINE="$focus" cargo +"$toolchain" fuzz run "${build[@]}" "$base" "corpus/$base" "seeds/$base" -- \
        "${limit[@]}" -print_final_stats=1 -entropic=0 "${extra[@]}" >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "fuzz: $t found a failure (see fuzz/artifacts/$base/ and fuzz/$log)" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    final() { grep -E "^stat::$1:" "$log" | awk '{print $2}'; }
    # The last status line: `#N DONE cov: C ft: F corp: K/...`.
    status=$(grep -E '^#[0-9]+' "$log" | tail -n 1)
    field() { sed -nE "s/.* $1: ([0-9]+).*/\\1/p" <<<"$status"; }
    execs=$(final number_of_executed_units)
    # libFuzzer's own `Done N runs in S second(s)`, else the wall clock.
    secs=$(sed -nE 's/^Done [0-9]+ runs in ([0-9]+) second.*/\1/p' "$log")
    [ -n "$secs" ] || secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }')
    row=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s' "$t" "$execs" "$secs" "$(final average_exec_per_sec)" \
        "$(field cov)" "$(field ft)" "$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$status")")
    echo "$row" >>"$summary"
    echo "fuzz: $t: $(cut -f2- <<<"$row" | awk -F'\t' '{ printf "%s executions, %s s, %s exec/s, cov %s, ft %s, corpus %s", $1, $2, $3, $4, $5, $6 }')" >&2
done
if [ "${FUZZ_MERGE:-0}" = 1 ]; then
    for t in "${merge[@]}"; do
        rm -rf "target/seeds-$t" && mkdir -p "target/seeds-$t"
        ANIMASM_FUZZ_ROUTINE= cargo +"$toolchain" fuzz run "${build[@]}" "$t" "target/seeds-$t" "corpus/$t" "seeds/$t" -- \
            -merge=1 -use_counters=0 >"target/fuzz-$t-merge.log" 2>&1
        rm -rf "seeds/$t" && mv "target/seeds-$t" "seeds/$t"
        echo "fuzz: $t: seeds minimised to $(find "seeds/$t" -type f | wc -l) files" >&2
    done
fi
column -t -s $'\t' "$summary" >&2
echo "fuzz: ${#targets[@]} runs ($what each), no findings; CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')" >&2
