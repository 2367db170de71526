#!/usr/bin/env bash
# Runs the property tests with fresh random seeds, for exploration (CI runs
# them with the fixed seed of animasm_testkit::strategies::config, so that
# its inputs are the same on every run). Each round prints its seed; a
# failing round is reproduced by running the suite with that seed:
#   PROPTEST_RNG_SEED=<seed> cargo test --release
#
# Usage: scripts/explore_properties.sh [rounds] [cargo test args...]
#   (default: 5 rounds of `cargo test --release --workspace`)
set -euo pipefail
cd "$(dirname "$0")/.."

rounds="${1:-5}"
shift || true
for ((i = 1; i <= rounds; i++)); do
    seed=$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')
    echo "== round $i of $rounds: PROPTEST_RNG_SEED=$seed"
    if ! PROPTEST_RNG_SEED="$seed" cargo test --release --workspace "$@"; then
        echo "round $i failed: reproduce with PROPTEST_RNG_SEED=$seed cargo test --release --workspace $*" >&2
        exit 1
    fi
done
