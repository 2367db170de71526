#!/usr/bin/env bash
# Checks devkit/benches/instr_count's ids and filter without running valgrind
# (`--list` only; gungraun-runner 0.20.0 must be installed: `cargo install
# gungraun-runner --version 0.20.0`):
#
# - every benchmark has a readable id (`<routine>::<bench>[::n<count>]`,
#   never gungraun's `cases_<i>`), and every routine of the roster has one;
# - `-- slerp_joints` (the README's filter, a substring of the id) selects
#   slerp_joints' benchmarks and nothing else;
# - `--exact` takes gungraun's whole-id pattern;
# - a filter that selects nothing exits non-zero and lists the routines.
#
# With `--run`, also counts one benchmark under valgrind (about a second)
# and checks that gungraun wrote it under the target directory's
# `gungraun/` (devkit::paths::gungraun_dir), with its id in `cases.tsv`.
#
# Usage: scripts/instr_count_check.sh [--run]   (x86_64 only)
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "instr_count_check: $*" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] || { echo "instr_count_check: x86_64 only, skipped"; exit 0; }
command -v gungraun-runner >/dev/null || fail "gungraun-runner not found: cargo install gungraun-runner --version 0.20.0"

bench() { cargo bench -q -p devkit --bench instr_count -- "$@"; }
ids() { bench --list "$@" 2>/dev/null | sed -n 's/: benchmark$//p'; }

cargo bench -p devkit --bench instr_count --no-run

all=$(ids)
[ -n "$all" ] || fail "--list lists no benchmark"
! grep -q 'cases_' <<<"$all" || fail "gungraun's numbered ids are back: $(grep -m1 cases_ <<<"$all")"
grep -qvE '^instr_count::[a-z_]+::(kernels|peers)::[a-z0-9_]+::[a-z0-9_-]+(::n[0-9]+)?$' <<<"$all" \
    && fail "an id is not <group>::<function>::<routine>::<bench>[::n<count>]: $(grep -m1 -vE '::[a-z0-9_-]+(::n[0-9]+)?$' <<<"$all")"
[ "$(sort <<<"$all" | uniq -d)" = "" ] || fail "duplicate ids: $(sort <<<"$all" | uniq -d | head -3)"
for routine in $(bench nosuch-routine-xyz 2>&1 | sed -n 's/.*The routines: //p'); do
    grep -q "::$routine::" <<<"$all" || fail "routine $routine has no benchmark"
done

slerp=$(ids slerp_joints)
[ -n "$slerp" ] || fail "-- slerp_joints selects nothing"
! grep -qv '::slerp_joints::' <<<"$slerp" || fail "-- slerp_joints selects others: $(grep -v '::slerp_joints::' <<<"$slerp" | head -3)"
grep -q '::slerp_joints::scalar$' <<<"$slerp" || fail "-- slerp_joints misses slerp_joints::scalar"
[ "$(ids --exact 'instr_count::joint_blend::kernels::slerp_joints::scalar')" = \
    'instr_count::joint_blend::kernels::slerp_joints::scalar' ] || fail "--exact does not select one whole id"

if out=$(bench --list no_such_benchmark 2>&1); then
    fail "a filter that selects nothing exited 0"
fi
grep -q 'selects no benchmark' <<<"$out" || fail "no message for a filter that selects nothing: $out"
grep -q 'slerp_joints' <<<"$out" || fail "the message does not list the routines: $out"

echo "instr_count_check: $(wc -l <<<"$all") benchmarks with readable ids; -- slerp_joints selects $(wc -l <<<"$slerp"); a filter that selects nothing fails"

if [ "${1:-}" = --run ]; then
    command -v valgrind >/dev/null || fail "valgrind not found"
    log=$(bench slerp_joints::scalar 2>&1) || fail "-- slerp_joints::scalar failed: $log"
    grep -q 'slerp_joints::scalar' <<<"$log" || fail "the run does not show the id: $log"
    target=$(cargo metadata --format-version 1 --no-deps | sed -n 's/.*"target_directory":"\([^"]*\)".*/\1/p')
    home="${GUNGRAUN_HOME:-$target/gungraun}"
    ls "$home"/devkit/instr_count/joint_blend/kernels.slerp_joints__scalar/callgrind.*.out >/dev/null \
        || fail "no result under $home"
    grep -q $'\tslerp_joints::scalar$' "$home/devkit/instr_count/cases.tsv" || fail "cases.tsv lacks the id"
    echo "instr_count_check: slerp_joints::scalar counted, results in $home"
fi
