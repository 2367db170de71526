#!/usr/bin/env bash
# Runs the tests that exercise the kernels under valgrind's memcheck: any
# read or write outside an allocation (or of undefined memory) by any kernel
# fails the run. Every form of every routine is covered: the scalar ports,
# the listings (asm and intrinsics), the published forms and the successors
# (AVX2 + FMA, 8 lanes, masked or stack-copied tails), because the tests
# iterate each routine's forms in `animasm::roster`, which lists a form as
# soon as its row is in the routine's table and this CPU (as valgrind
# presents it: 3.19 runs AVX2 and FMA) has the features. `every_kernel_reaches_the_end_of_exact_buffers`
# prints the forms it ran per routine, so the log shows that the successors
# were covered (or why not). The AVX-512 forms (Impl::Avx512) are not run:
# valgrind 3.19 hides AVX-512 from CPUID, so they are not detected and their
# tests skip them with a printed line.
#
# tests/properties.rs (`every_kernel_reaches_the_end_of_exact_buffers`, and
# its property tests with PROPTEST_CASES cases) gives every kernel of every
# routine of the joint-list and matrix shapes of `animasm::roster` buffers
# of exactly the length it reads or writes, with the last element of each
# one reached, for every count 0..=67 (every tail length of the 4-wide
# listings and of the 8-wide successors, after zero to eight whole blocks)
# and a few larger ones, with distinct and with repeated indices, so a
# kernel that reads or writes one element past the end (a tail read a whole
# block wide) touches valgrind's red zone. tests/properties_streams.rs does
# the same for the stream shapes (`every_stream_kernel_reaches_the_end_of_exact_buffers`:
# every routine of `QuatPairs` with every form, the AVX ones on exact
# 32-byte-aligned allocations, and of `Stream` with every width), on every
# count 0..=67 and 127, 128, 129, 1023, each buffer beginning at its
# allocation's first byte and ending at its last, and its properties (the
# Skeleton methods too). The routines' own test files add their edge cases
# (NaN, infinities, every count and lerp) on the raw kernels, their
# successor tests (every count 0..=67 on exact allocations) and the generic
# harness (tests/common/harness.rs) every count of every form.
#
# The test files run: tests/properties.rs, tests/properties_streams.rs, and
# the test file of every routine module, tests/<module>.rs for every
# src/<module>/ that holds a scalar form (src/<module>/scalar.rs: every
# routine has one), so a new routine's test file is run with no edit here.
# A test file runs whole unless FILTERS names libtest filters for it.
#
# Usage: scripts/memcheck.sh [TEST...]   (default: the test files above;
# TEST is `name` or `name:filter`)
# Needs valgrind (apt-get install valgrind). Never build with
# `-C target-cpu=native`: valgrind 3.19 stops on AVX-512 instructions.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "valgrind not found: apt-get install valgrind" >&2; exit 1; }

# Filters of the test files that do not run whole under valgrind:
# tests/nlerp.rs's accuracy tests sweep grids of millions of pairs (hours
# under valgrind); its two exact-buffer tests run every width on every
# count and on special values in every lane.
declare -A FILTERS=(
    [nlerp]="every_count_writes_exactly_size_elements_of_the_model special_values_in_every_lane"
)

# One row per test run: `name` or `name:filter` (a libtest name filter).
# Tests that compare floating-point bits that valgrind's emulation does not
# reproduce: valgrind 3.19 gives the sign of some zero results of a fused
# multiply-add (`vfmadd`) differently from the CPU (seen: quats_to_mats'
# AVX2 successor, -0.0 where the CPU and the portable form give +0.0, on an
# edge case with zero products). Memory errors are what this script checks;
# those bits are checked natively by `cargo test` and under qemu.
declare -A SKIPS=(
    [quats_to_mats]="successor::every_successor_gives_the_portable_bits"
)

# The pose routines' own test (`tests/whole_pose.rs`; their module's
# `tests/pose.rs` below is the glTF pipeline's, which calls them too).
TESTS=(properties properties_streams whole_pose)
for scalar in src/*/scalar.rs; do
    module=$(basename "$(dirname "$scalar")")
    [ -f "tests/$module.rs" ] || continue
    if [ -n "${FILTERS[$module]:-}" ]; then
        for filter in ${FILTERS[$module]}; do TESTS+=("$module:$filter"); done
    else
        TESTS+=("$module")
    fi
done
if [ "$#" -gt 0 ]; then TESTS=("$@"); fi

# Fewer proptest cases under valgrind (about 30 times slower than native);
# every_kernel_reaches_the_end_of_exact_buffers does not depend on it.
export PROPTEST_CASES="${PROPTEST_CASES:-64}"

# Cargo runs the test binaries through valgrind; the build is the one of
# `cargo test --release`, reused as is.
host=$(rustc -vV | sed -n 's/^host: //p')
runner_var="CARGO_TARGET_$(echo "$host" | tr 'a-z.-' 'A-Z__')_RUNNER"
# Each valgrind process (one per test binary run) logs to its own file; the
# script prints every log's ERROR SUMMARY line and the total, and the whole
# log of any run with errors.
logdir=$(mktemp -d)
trap 'rm -rf "$logdir"' EXIT
export "$runner_var"="valgrind --tool=memcheck --error-exitcode=1 --redzone-size=128 --leak-check=no --log-file=$logdir/%p.log"

build=()
for row in "${TESTS[@]}"; do build+=(--test "${row%%:*}"); done
echo "== memcheck: ${TESTS[*]}" >&2
cargo test --release --no-run "${build[@]}"
failed=()
total_errors=0
for row in "${TESTS[@]}"; do
    name=${row%%:*}
    filter=${row#"$name"}
    filter=${filter#:}
    start=$SECONDS
    echo "== memcheck: tests/$name.rs ${filter:+(filter $filter)}" >&2
    rm -f "$logdir"/*.log
    status=0
    skips=()
    for skip in ${SKIPS[$name]:-}; do skips+=(--skip "$skip"); done
    cargo test --release -q --test "$name" -- ${filter:+"$filter"} "${skips[@]}" | tee "$logdir/run.out" || status=$?
    if grep -q '^running 0 tests' "$logdir/run.out"; then
        echo "== memcheck: tests/$name.rs: no test matches ${filter:-(no filter)}" >&2
        status=1
    fi
    summary=$(cat "$logdir"/*.log 2>/dev/null | grep -h 'ERROR SUMMARY' || true)
    errors=$(echo "$summary" | awk '{n += $4} END {print n + 0}')
    total_errors=$((total_errors + errors))
    if [ "$status" -eq 0 ] && [ -n "$summary" ] && [ "$errors" -eq 0 ]; then
        echo "== memcheck: tests/$name.rs clean ($((SECONDS - start)) s): ${summary#*== }" >&2
    else
        cat "$logdir"/*.log >&2 || true
        echo "== memcheck: tests/$name.rs FAILED ($((SECONDS - start)) s, $errors errors)" >&2
        failed+=("$name")
    fi
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "memcheck: $total_errors errors, in ${failed[*]}" >&2
    exit 1
fi
echo "memcheck: 0 errors in ${#TESTS[@]} test files (valgrind's ERROR SUMMARY, summed: $total_errors errors)" >&2
