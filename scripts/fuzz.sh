#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ (cargo-fuzz, libFuzzer) for SECONDS seconds
# each (default 60), one after the other; stops at the first finding, which
# libFuzzer saves under fuzz/artifacts/<target>/ (reproduce it with
# `cargo +nightly fuzz run <target> fuzz/artifacts/<target>/crash-...` from
# fuzz/). The corpus grows in fuzz/corpus/<target>/ from run to run.
#
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Needs: rustup toolchain install nightly; cargo install cargo-fuzz
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

command -v cargo-fuzz >/dev/null || { echo "cargo-fuzz not found: cargo install cargo-fuzz" >&2; exit 1; }
toolchain="${FUZZ_TOOLCHAIN:-nightly}"
seconds="${1:-60}"
shift || true
if [ "$#" -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo +"$toolchain" fuzz list); fi

cargo +"$toolchain" fuzz build
for t in "${targets[@]}"; do
    echo "== fuzz: $t for $seconds s" >&2
    log="target/fuzz-$t.log"
    mkdir -p target
    if cargo +"$toolchain" fuzz run "$t" -- -max_total_time="$seconds" >"$log" 2>&1; then
        grep -E '^Done' "$log" >&2 || true
    else
        tail -n 60 "$log" >&2
        echo "fuzz: $t found a failure (see fuzz/artifacts/$t/ and fuzz/$log)" >&2
        exit 1
    fi
done
echo "fuzz: ${#targets[@]} targets, no findings" >&2
