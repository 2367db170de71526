#!/usr/bin/env bash
# Builds and tests a user's crate outside the workspace whose only dependency
# is animasm-testkit (scripts/testkit-user/): its doc-style test and its
# differential tests (a correct slerp passes the one-line check, three
# broken ones fail it), approx on animasm's types, the Fox data and the
# proptest strategies, all through the testkit's re-exports. A crate that
# names `animasm`, `approx` or `proptest` directly would not compile here.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${TMPDIR:-/tmp}/animasm-testkit-user"
rm -rf "$work"
mkdir -p "$work"
cp -r "$root/scripts/testkit-user/src" "$root/scripts/testkit-user/tests" "$work/"
sed "s|@TESTKIT@|$root/animasm-testkit|" "$root/scripts/testkit-user/Cargo.toml.in" > "$work/Cargo.toml"
# The workspace's versions of the shared dependencies, as a starting point.
cp "$root/Cargo.lock" "$work/Cargo.lock"
cd "$work"
# Its own target directory: not the workspace's (another lock file, other features).
CARGO_TARGET_DIR="$work/target" cargo test --release
