#!/usr/bin/env bash
# Runs the tests of the AVX-512 forms (`Impl::Avx512`) on a machine without
# AVX-512: the test binaries, built as usual (no -C target-cpu, the forms are
# chosen at run time), run in a Linux guest under Bochs, a full-system x86
# emulator whose "corei7_skylake_x" CPU model has AVX-512 F, CD, VL, DQ and
# BW. Neither qemu (TCG has no AVX-512, up to qemu 10.0) nor Miri (no shim
# for the AVX-512 permutes) can run these forms.
#
# What it checks: every test of the test files below passes in the guest,
# where feature detection sees AVX-512, and no test binary prints a
# `SKIPPED:` line that names AVX-512 (so the forms did run). An emulator is
# not the hardware: this catches a wrong lane, mask, permute index or tail
# in the AVX-512 forms and says nothing about their speed; the forms are
# also tested natively wherever the CPU has AVX-512 (`cargo test --release`).
#
# The guest: Debian's own kernel package (linux-image-amd64, unpacked, not
# installed), an initramfs with busybox-static, the static test binaries and
# the data files the tests read, booted from an isolinux ISO. The kernel is
# started with `clearcpuid=xsaves,xsavec`: Bochs 2.7 reports the compacted
# XSAVE area at its standard size (CPUID leaf 0xD, sub-leaf 1), which Linux
# 6.1 finds inconsistent, and it then turns XSAVE off, and with it AVX and
# AVX-512; without XSAVES and XSAVEC the kernel uses the standard format,
# whose sizes Bochs reports correctly.
#
# Installs what is missing (Debian's bochs, bochsbios, vgabios,
# busybox-static, isolinux, syslinux-common, xorriso, cpio). Work files go
# to $CARGO_TARGET_DIR/avx512-bochs (default target/avx512-bochs).
#
# Usage: scripts/avx512_bochs.sh [--force] [TEST...]
#   TEST: test files to run (default: the list below); --force runs even
#   where the CPU has AVX-512 (by default it then stops: the native
#   `cargo test --release` has already run these forms on the hardware).
# Time on 2 cores (AMD EPYC Zen 3): the static build about 5 minutes, the
# boot under Bochs about 3, the 16 test binaries 9 more (skeleton 97 s,
# accuracy 83 s and nlerp 75 s the longest): 11.8 minutes of guest.
# $AVX512_BOCHS_TIMEOUT (seconds, default 1800) bounds the guest.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD

force=0
tests=()
for a in "$@"; do
    case "$a" in
        --force) force=1 ;;
        -*) echo "unknown option $a" >&2; exit 2 ;;
        *) tests+=("$a") ;;
    esac
done
# The test files that run the AVX-512 forms: the per-routine files (every
# count 0..=67, the Fox poses, special values, duplicate indices, buffers
# that end at an allocation's end, the 16-entry blocks), the golden digests,
# the dispatch table, the property tests, the pose pipeline, the whole
# pose in one call (`whole_pose`: every form of slerp_pose / lerp_pose
# against its four routines chained, the successors against Portable),
# the accuracy bounds of every successor, the skeleton methods and the
# `std` feature's detection (`default_tests`). Every other file of tests/ is in
# `not_in_guest`, with its reason (tests/ci_scripts.rs checks that each
# file is in one list).
default_tests=(golden dispatch slerp_joints lerp_joints quats_to_mats mats_to_quats
    transform_skeleton untransform_skeleton transform_joints nlerp properties
    properties_streams pose whole_pose accuracy skeleton no_std)
not_in_guest=(
    ci_scripts      # reads this script and tests/: runs no form
    architecture    # reads src/ for its imports: runs no form
    concurrency     # every form of every routine from eight threads: over 5 min under Bochs (stopped); the files above run the same forms on one thread
    disasm          # disassembles the listings with objdump (not in the guest): runs no AVX-512 form
    every_cpu       # the examples' code paths with the dispatch hooks narrowing the host's CPU (an AVX-512 host runs the avx512 rows natively); pose runs the pipeline's AVX-512 forms in the guest
    gltf_example    # reads the README and data/ by relative paths and writes to cargo's target directory (not in the guest); the forms it calls are tested on the Fox above
    interop         # needs the glam or mint feature, which the guest's build leaves off (its tests compile to nothing)
    markdown_links  # the documentation's links: runs no form
    oracles         # the f64 oracles of the testkit: runs no form
    slerp_quats     # a routine with no AVX-512 form (AVX and SSE only)
    subnormals      # reads MXCSR's sticky denormal and underflow flags, which Bochs's model has not been checked to raise as hardware does; runs natively on AVX-512 hosts (checked on an Intel Xeon)
    workloads       # speed ratios between inputs: an emulator says nothing about a core's speed
    successor_code  # disassembles the AVX-512 forms with objdump: needs no AVX-512, runs natively on every x86_64 CPU
)
if [ ${#tests[@]} -eq 0 ]; then
    tests=("${default_tests[@]}")
fi

native=1
for f in avx512f avx512vl avx512dq avx512bw; do
    grep -q -w "$f" /proc/cpuinfo || native=0
done
if [ $native -eq 1 ] && [ $force -eq 0 ]; then
    echo "avx512_bochs: this CPU has AVX-512 F, VL, DQ and BW, so cargo test --release"
    echo "avx512_bochs: runs the AVX-512 forms natively; nothing to emulate (--force runs anyway)"
    exit 0
fi

# 1. The tools.
missing=()
command -v bochs-bin >/dev/null || missing+=(bochs)
[ -e /usr/share/bochs/BIOS-bochs-latest ] || missing+=(bochsbios)
[ -e /usr/share/vgabios/vgabios.bin ] || missing+=(vgabios)
# busybox-static, the static build (the guest has no shared libraries).
dpkg -s busybox-static >/dev/null 2>&1 || missing+=(busybox-static)
[ -e /usr/lib/ISOLINUX/isolinux.bin ] || missing+=(isolinux)
[ -e /usr/lib/syslinux/modules/bios/ldlinux.c32 ] || missing+=(syslinux-common)
command -v xorriso >/dev/null || missing+=(xorriso)
command -v cpio >/dev/null || missing+=(cpio)
if [ ${#missing[@]} -gt 0 ]; then
    echo "avx512_bochs: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

target_dir=${CARGO_TARGET_DIR:-$repo/target}
work=$target_dir/avx512-bochs
mkdir -p "$work"

# 2. The kernel: Debian's current linux-image package for amd64, unpacked.
if [ ! -s "$work/vmlinuz" ]; then
    kernel_pkg() {
        { apt-cache depends linux-image-amd64 2>/dev/null || true; } \
            | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
    }
    pkg=$(kernel_pkg)
    [ -n "$pkg" ] || { apt-get update -qq; pkg=$(kernel_pkg); }
    [ -n "$pkg" ] || { echo "avx512_bochs: no linux-image package for linux-image-amd64" >&2; exit 1; }
    echo "avx512_bochs: kernel package $pkg"
    rm -rf "$work/kernel" && mkdir -p "$work/kernel"
    # (apt warns that root downloads unsandboxed: that line is dropped.)
    (cd "$work/kernel" && apt-get download -qq "$pkg" 2> >(grep -v -i unsandboxed >&2) && dpkg-deb -x ./*.deb x)
    cp "$work"/kernel/x/boot/vmlinuz-* "$work/vmlinuz"
    rm -rf "$work/kernel"
fi

# 3. The test binaries, static (glibc's static build; only the test crate
# gets the flag, not build scripts or proc macros).
args=()
for t in "${tests[@]}"; do args+=(--test "$t"); done
CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static" \
    cargo test -p animasm --release --no-run --target x86_64-unknown-linux-gnu \
    --message-format=json "${args[@]}" > "$work/build.json"
mapfile -t exes < <(grep -o '"executable":"[^"]*"' "$work/build.json" | cut -d'"' -f4)
[ ${#exes[@]} -eq ${#tests[@]} ] || {
    echo "avx512_bochs: expected ${#tests[@]} test binaries, cargo built ${#exes[@]}" >&2
    exit 1
}

# Tests left out in the guest (each binary's list is printed with its run),
# for time: Bochs runs these binaries about 200 times slower than the host.
# The nlerp family's f64 accuracy models (no form runs in the last two;
# published_angle_errors spends its 8 native seconds in the f64 reference,
# and random_pairs_within_the_grid_maxima checks every width's error) and
# transform_joints' length check, which reads 2 GiB of zero pages. The
# property tests run PROPTEST_CASES=200 cases each (4000 and 2000 natively).
# And one test that Bochs fails: its `vrsqrt14ps` is wrong on a power of two
# with an odd exponent (it gives rsqrt14(0.5) = 2.0 and rsqrt14(2.0) = 1.0,
# where the hardware gives 1.41421 and 0.70711 within 2^-14; right on
# 0.7, 3.0 and 1e-3), which the nlerp family's AVX-512 widths use (the
# seven successors use no estimate), and erratum_e2_sign_bit_xor_at_zero_dot
# normalises exactly (0.5, 0.5, 0, 0).
declare -A guest_skip=(
    [nlerp]="published_angle_errors erratum_e4_fnlerp_published_errors_do_not_reproduce rsqrt_without_newton_raphson erratum_e2_sign_bit_xor_at_zero_dot"
    [transform_joints]="too_many_joints"
)

# 4. The initramfs: busybox, the binaries, the files the tests read at the
# path they were built with (CARGO_MANIFEST_DIR), and /init.
fs=$work/fs
rm -rf "$fs" && mkdir -p "$fs"/{bin,t,args,proc,sys,dev,tmp}
cp /bin/busybox "$fs/bin/"
for e in "${exes[@]}"; do
    name=$(basename "$e"); name=${name%-*}
    strip --strip-debug -o "$fs/t/$name" "$e"
    skips=${guest_skip[$name]:-}
    : > "$fs/args/$name"
    for k in $skips; do printf -- '--skip %s ' "$k" >> "$fs/args/$name"; done
done
# (devkit finds the Fox at devkit/../data, so devkit/ must exist; data/'s
# Fox files are links into animasm-testkit/data/, copied as files.)
mkdir -p "$fs$repo/tests" "$fs$repo/devkit"
cp -r tests/golden "$fs$repo/tests/"
cp -r -L data "$fs$repo/"
mkdir -p "$fs$repo/asm_notes"
cp asm_notes/*.s "$fs$repo/asm_notes/"
cat > "$fs/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin HOME=/tmp TMPDIR=/tmp
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tmpfs tmp /tmp
# The too-many-joints tests reserve 2 to 3 GiB that they never touch: the
# 2 GiB guest allows it only with overcommit.
echo 1 > /proc/sys/vm/overcommit_memory
echo "ANIMASM-FLAGS $(grep -o -w 'avx512[a-z]*' /proc/cpuinfo | sort -u | tr '\n' ' ')"
export PROPTEST_CASES=200
for t in /t/*; do
    name=${t##*/}
    args=$(cat "/args/$name")
    echo "ANIMASM-RUN $name $args"
    "$t" --test-threads=1 --exact $args 2>&1
    echo "ANIMASM-EXIT $name $?"
done
echo "ANIMASM-END"
sync
sleep 2
poweroff -f
EOF
chmod +x "$fs/init"
iso=$work/iso
rm -rf "$iso" && mkdir -p "$iso/isolinux"
(cd "$fs" && find . | cpio -o -H newc --quiet | gzip -1 > "$iso/initrd.gz")
cp "$work/vmlinuz" "$iso/vmlinuz"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$iso/isolinux/"
cat > "$iso/isolinux/isolinux.cfg" <<'EOF'
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  KERNEL /vmlinuz
  APPEND initrd=/initrd.gz console=ttyS0 quiet mitigations=off nokaslr tsc=reliable clearcpuid=xsaves,xsavec
EOF
xorriso -as mkisofs -quiet -o "$work/boot.iso" -b isolinux/isolinux.bin -c isolinux/boot.cat \
    -no-emul-boot -boot-load-size 4 -boot-info-table "$iso" 2>&1 | grep -v '^xorriso' || true

# 5. Bochs: no display (its VNC server, not waiting for a viewer), the
# serial port to a file, its debugger told to continue.
cat > "$work/bochsrc" <<EOF
display_library: rfb, options="timeout=0"
megs: 2048
cpu: model=corei7_skylake_x, count=1, ips=200000000, reset_on_triple_fault=1
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=/usr/share/vgabios/vgabios.bin
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path=$work/boot.iso, status=inserted
boot: cdrom
com1: enabled=1, mode=file, dev=$work/serial.txt
log: $work/bochs.log
panic: action=fatal
error: action=ignore
info: action=ignore
debug: action=ignore
clock: sync=none
EOF
echo "avx512_bochs: booting Bochs (corei7_skylake_x) with ${#exes[@]} test binaries; serial log $work/serial.txt"
start=$(date +%s)
# The guest's progress, with the seconds since the start, as it comes.
: > "$work/serial.txt"
tail --pid=$$ -F -n +1 "$work/serial.txt" 2>/dev/null | while IFS= read -r line; do
    line=${line%$'\r'}
    case "$line" in ANIMASM-*) echo "avx512_bochs: +$(( $(date +%s) - start )) s: $line" ;; esac
done &
watcher=$!
rc=0
printf 'c\n' | timeout "${AVX512_BOCHS_TIMEOUT:-1800}" bochs-bin -q -f "$work/bochsrc" > "$work/bochs.out" 2>&1 || rc=$?
sleep 1
kill "$watcher" 2>/dev/null || true
echo "avx512_bochs: Bochs exited ($rc) after $(( $(date +%s) - start )) s"

# 6. The verdict.
log=$work/serial.txt
[ -e "$log" ] || { echo "avx512_bochs: no serial output" >&2; tail -20 "$work/bochs.out" >&2; exit 1; }
# The serial log without its carriage returns, checked as a file: a
# `grep -q` at the end of a pipe exits at its first match, and under
# `set -o pipefail` the writer's SIGPIPE then fails the check (it did, once).
tr -d '\r' < "$log" > "$work/serial.lf"
log=$work/serial.lf
grep -a -E '^(ANIMASM-|test result|SKIPPED|test .* FAILED|failures:)' "$log" || true
fail=0
flags=$(grep -a '^ANIMASM-FLAGS' "$log" || true)
for f in avx512f avx512vl avx512dq avx512bw; do
    [[ " $flags " == *" $f "* ]] || { echo "avx512_bochs: the guest does not report $f" >&2; fail=1; }
done
grep -a -q '^ANIMASM-END' "$log" || { echo "avx512_bochs: the guest did not finish" >&2; fail=1; }
for e in "${exes[@]}"; do
    name=$(basename "$e"); name=${name%-*}
    grep -a -q -x "ANIMASM-EXIT $name 0" "$log" || { echo "avx512_bochs: $name did not pass" >&2; fail=1; }
done
if grep -a '^SKIPPED' "$log" | grep -i avx512 > /dev/null; then
    echo "avx512_bochs: a test skipped an AVX-512 form in the guest" >&2
    fail=1
fi
[ $fail -eq 0 ] && echo "avx512_bochs: every test passed with the AVX-512 forms (emulated)"
exit $fail
