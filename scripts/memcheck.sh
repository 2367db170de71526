#!/usr/bin/env bash
# Runs the tests that exercise the kernels under valgrind's memcheck: any
# read or write outside an allocation (or of undefined memory) by any kernel
# fails the run. Every form of every routine is covered: the scalar ports,
# the listings (asm and intrinsics) and the Impl::Avx2 successors (AVX2 +
# FMA, 8 lanes, masked or stack-copied tails), because the tests iterate each
# routine's `forms()`, which lists a successor as soon as its row is in the
# routine's table and this CPU (as valgrind presents it: 3.19 runs AVX2 and
# FMA) has the features. `every_kernel_reaches_the_end_of_exact_buffers`
# prints the forms it ran per routine, so the log shows that the successors
# were covered (or why not). The crate has no AVX-512 form.
#
# tests/properties.rs (`every_kernel_reaches_the_end_of_exact_buffers`, and
# its property tests with PROPTEST_CASES cases) gives every kernel buffers of
# exactly the length it reads or writes, with the last element of each one
# reached, for every count 0..=67 (every tail length of the 4-wide listings
# and of the 8-wide successors, after zero to eight whole blocks) and a few
# larger ones, with distinct and with repeated indices, so a kernel that
# reads or writes one element past the end (a tail read a whole block wide)
# touches valgrind's red zone. tests/properties_streams.rs does the same for
# the quaternion-stream kernels (`every_stream_kernel_reaches_the_end_of_exact_buffers`:
# slerp_quats_as_published and slerp_quats_corrected with every form, the AVX
# ones on exact 32-byte-aligned allocations; nlerp, fnlerp and onlerp with
# every width; slerp_stream), on every count 0..=67 and 127, 128, 129, 1023,
# each buffer beginning at its allocation's first byte and ending at its
# last, and its properties (the Skeleton methods too). The per-routine test files add their edge
# cases (NaN, infinities, every count and lerp) on the raw kernels and their
# successor tests (every count 0..=67 on exact allocations), and the generic
# harness (tests/common/harness.rs) every count of every form.
# slerp_joints and lerp_joints hold what contract, differential and errata
# held (and the Fox data, which was realdata).
#
# Usage: scripts/memcheck.sh [TEST...]   (default: every test of the table)
# Needs valgrind (apt-get install valgrind). Never build with
# `-C target-cpu=native`: valgrind 3.19 stops on AVX-512 instructions.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v valgrind >/dev/null || { echo "valgrind not found: apt-get install valgrind" >&2; exit 1; }

# One row per test target: `name` or `name:filter` (a libtest name filter).
# A new routine adds its test file here.
TESTS=(
    properties
    properties_streams
    slerp_joints
    lerp_joints
    quats_to_mats
    mats_to_quats
    transform_skeleton
    untransform_skeleton
    transform_joints
    slerp_quats
    nlerp:every_count_writes_exactly_size_elements_of_the_model
    nlerp:special_values_in_every_lane
)
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
    cargo test --release -q --test "$name" -- ${filter:+"$filter"} || status=$?
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
