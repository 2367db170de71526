#!/usr/bin/env bash
# Runs the scalar and intrinsics paths of every routine under Miri, which
# reports undefined behaviour: out-of-bounds or misaligned accesses, use of
# uninitialised memory, aliasing violations (Stacked Borrows), and (with
# -Zmiri-strict-provenance) integer-to-pointer casts.
#
# Miri cannot run `asm!`: the asm kernels are compiled out under
# `cfg(miri)`, so `Impl::Asm` is in no routine's `forms()` there (and
# returns `Error::Unsupported`). Miri's `rsqrtps` and
# `rcpps` are not the CPU's (it adds a random error within Intel's bound),
# so only bounded comparisons run on the intrinsics' results.
#
# The subset (the whole suite would take hours in the interpreter, and most
# test files call the asm kernels directly):
# - the library's unit tests;
# - the `contract::` tests of tests/slerp_joints.rs and tests/lerp_joints.rs:
#   every error with nothing written, and the endpoint rule (factor <= 0 /
#   >= 1), with the scalar and intrinsics kernels;
# - tests/properties.rs: every kernel on every count 0..=9 on exact buffers
#   (`every_kernel_reaches_the_end_of_exact_buffers`), and each routine's
#   differential property for a few cases on lists of up to 9 joints.
# A new routine adds its test file to TESTS once it builds under Miri.
#
# Usage: scripts/miri.sh [extra `cargo miri test` arguments]
# Needs: rustup toolchain install nightly --component miri rust-src
# (MIRI_TOOLCHAIN picks another, for example a pinned nightly-YYYY-MM-DD.)
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain="${MIRI_TOOLCHAIN:-nightly}"
if ! cargo +"$toolchain" miri --version >/dev/null 2>&1; then
    echo "Miri not found: rustup toolchain install $toolchain --component miri rust-src" >&2
    exit 1
fi

export MIRIFLAGS="${MIRIFLAGS:--Zmiri-strict-provenance}"
cargo +"$toolchain" miri test --lib --test properties "$@"
cargo +"$toolchain" miri test --test slerp_joints --test lerp_joints "$@" -- contract::
