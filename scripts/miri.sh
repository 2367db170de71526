#!/usr/bin/env bash
# Runs the scalar and intrinsics paths of every safe function under Miri,
# which reports undefined behaviour: out-of-bounds or misaligned accesses,
# use of uninitialised memory, aliasing violations (Stacked Borrows), and
# (with -Zmiri-strict-provenance) integer-to-pointer casts.
#
# Miri cannot run `asm!`: the asm kernels are compiled out under
# `cfg(miri)`, so `Impl::Asm` is in no routine's `forms()` there (and
# returns `Error::Unsupported`). Miri's `rsqrtps` and `rcpps` are not the
# CPU's (it adds a random error within Intel's bound on every call), so only
# bounded comparisons run on the intrinsics' results.
#
# Three passes, each on the same subset (the whole suite would take hours
# in the interpreter, and most test files call the asm kernels directly):
# - the library's unit tests (first pass only);
# - the `contract::` tests of tests/slerp_joints.rs and tests/lerp_joints.rs:
#   every error with nothing written, and the endpoint rule (factor <= 0 /
#   >= 1), with every form;
# - tests/properties.rs: every kernel of the eight joint routines on every
#   count 0..=9 on exact buffers, and each routine's differential property
#   for a few cases on lists of up to 9 joints;
# - tests/properties_streams.rs: slerp_quats_as_published and
#   slerp_quats_corrected (16..=19 quaternions, so the AVX loop runs), nlerp,
#   fnlerp, onlerp (7..=11, so the 8-wide loop and its tail run),
#   slerp_stream and the Skeleton methods, two cases each, and every stream
#   kernel on exact buffers of 0..=9 and 15..=17 elements.
# The passes:
# 1. x86_64 as built by default (SSE2): the scalar ports, the SSE2 forms and
#    the SSE intrinsics of every routine. The AVX/AVX2 forms report
#    MissingCpuFeature there (Miri's feature detection sees only the build's
#    target features), so they are not in `forms()`.
# 2. x86_64 built with `-C target-feature=+avx,+avx2,+fma` (a build of its
#    own, in $CARGO_TARGET_DIR/miri-avx): the same tests now reach
#    slerp_quats' AVX intrinsics, the nlerp family's AVX2 and AVX2+FMA
#    widths and the Impl::Avx2 successors. Only Miri runs this build, never
#    the CPU, so it does not depend on this machine's CPU.
# 3. aarch64-unknown-linux-gnu: the scalar ports, the portable successors
#    (Impl::Portable) and the NEON forms (Impl::Neon: NEON is the target's
#    baseline, so every NEON row of the kernel tables runs, with no
#    detection). Miri interprets the NEON intrinsics these forms use
#    (vld1q/vst1q, vld4q/vst4q, vaddq/vsubq/vmulq, vfmaq/vfmsq and their
#    _laneq forms, vdivq, vsqrtq, vbslq, the comparisons vcltq/vcgtq/vceqq
#    and their zero forms, vand/vorr/veor/vbic/vmvn, vtrn/vzip/vuzp/vext,
#    vcopyq_laneq, vpaddq, vmaxvq_u32/vminvq_u32, vabsq, vnegq; Miri of
#    2026-05). It cannot run vrsqrteq/vrecpeq, vmaxq/vminq(nm)_f32,
#    vaddvq/vmaxvq_f32, vcvtq_s32_f32/vcvtnq, vrndnq or vld2q ("can't call
#    foreign function llvm.aarch64.neon...."): a form that uses one fails
#    here with that message. The runner of `.cargo/config.toml` (qemu for
#    the cross-built tests) would take the place of Miri's, which cargo-miri
#    sets for `cfg(all())` only, so this pass sets Miri's for the triple.
# There is no AVX-512 pass: Miri (2026-11) has no shim for the AVX-512
# permutes the Impl::Avx512 forms are built on ("can't call foreign function
# `llvm.x86.avx512.permvar.sf.512`", tried with -C
# target-feature=+avx512f,+avx512vl,+avx512dq,+avx512bw); the AVX pass does
# not enable AVX-512, so those forms report MissingCpuFeature there.
# On a machine without AVX-512 they run under Bochs instead:
# scripts/avx512_bochs.sh.
#
# Usage: scripts/miri.sh [--quick] [x86|avx|aarch64]...   (default: all three)
# --quick (what .ci/run runs): in each pass, of the properties only the
# exact-buffer tests (every kernel of tests/properties.rs and every stream
# kernel of tests/properties_streams.rs on exact buffers of every count, the
# accesses Miri checks), and the contract tests; no differential properties
# and no dispatch tests. All three passes then take about 3.5 minutes on 2
# cores once built, 7.5 cold (Miri's sysroots and the dev-dependencies);
# without --quick about 35 minutes.
# Needs: rustup toolchain install nightly --component miri rust-src
# (MIRI_TOOLCHAIN picks another, for example a pinned nightly-YYYY-MM-DD.)
set -euo pipefail
cd "$(dirname "$0")/.."

toolchain="${MIRI_TOOLCHAIN:-nightly}"
if ! cargo +"$toolchain" miri --version >/dev/null 2>&1; then
    echo "Miri not found: rustup toolchain install $toolchain --component miri rust-src" >&2
    exit 1
fi
quick=0
passes=()
for arg in "$@"; do
    if [ "$arg" = "--quick" ]; then quick=1; else passes+=("$arg"); fi
done
if [ "${#passes[@]}" -eq 0 ]; then passes=(x86 avx aarch64); fi
# The property tests' filter: every test, or with --quick the exact-buffer ones.
props=(--test properties --test properties_streams)
if [ "$quick" = 1 ]; then props_filter=(-- exact_buffers); else props_filter=(); fi

export MIRIFLAGS="${MIRIFLAGS:--Zmiri-strict-provenance}"
target_dir="${CARGO_TARGET_DIR:-target}"
# `-p animasm`: the workspace's default members also hold the testkit,
# devkit and the reading room, whose tests read files (Miri isolates them).
miri() { cargo +"$toolchain" miri test -p animasm "$@"; }
timed() {
    local start=$SECONDS
    echo "== miri: $1" >&2
    shift
    "$@"
    echo "== miri: done in $((SECONDS - start)) s" >&2
}

for pass in "${passes[@]}"; do
    case "$pass" in
    x86)
        if [ "$quick" = 1 ]; then
            timed "x86_64 (SSE2): unit tests" miri --lib
            timed "x86_64 (SSE2): properties on exact buffers" miri "${props[@]}" "${props_filter[@]}"
        else
            timed "x86_64 (SSE2): unit tests and properties" miri --lib "${props[@]}"
        fi
        timed "x86_64 (SSE2): contract" miri --test slerp_joints --test lerp_joints -- contract::
        # Unsupported and MissingCpuFeature for every safe function and Impl
        # (the test hooks); the float results are compared natively only.
        if [ "$quick" = 0 ]; then timed "x86_64 (SSE2): dispatch" miri --test dispatch; fi
        ;;
    avx)
        export_flags="-C target-feature=+avx,+avx2,+fma"
        timed "x86_64 with AVX, AVX2 and FMA: properties" \
            env RUSTFLAGS="$export_flags" CARGO_TARGET_DIR="$target_dir/miri-avx" \
            cargo +"$toolchain" miri test -p animasm "${props[@]}" "${props_filter[@]}"
        timed "x86_64 with AVX, AVX2 and FMA: contract" \
            env RUSTFLAGS="$export_flags" CARGO_TARGET_DIR="$target_dir/miri-avx" \
            cargo +"$toolchain" miri test -p animasm --test slerp_joints --test lerp_joints -- contract::
        ;;
    aarch64)
        # Build scripts of C dependencies (criterion's alloca) compile C for
        # the target. Miri links none of it and runs no C, so without a cross
        # compiler (gcc-aarch64-linux-gnu) the host's cc stands in.
        if [ -z "${CC_aarch64_unknown_linux_gnu:-}" ] && ! command -v aarch64-linux-gnu-gcc >/dev/null; then
            export CC_aarch64_unknown_linux_gnu=cc
        fi
        # `.cargo/config.toml`'s `target.aarch64-unknown-linux-gnu.runner`
        # (qemu) outranks cargo-miri's `target.'cfg(all())'.runner`: name
        # Miri's runner for the triple, where the environment outranks the
        # file.
        CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="$(rustup which --toolchain "$toolchain" cargo-miri) runner"
        export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER
        timed "aarch64 (scalar, portable and NEON forms): properties" \
            miri --target aarch64-unknown-linux-gnu "${props[@]}" "${props_filter[@]}"
        timed "aarch64 (scalar, portable and NEON forms): contract" \
            miri --target aarch64-unknown-linux-gnu --test slerp_joints --test lerp_joints -- contract::
        unset CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER
        ;;
    *)
        echo "unknown pass $pass (x86, avx, aarch64)" >&2
        exit 2
        ;;
    esac
done
