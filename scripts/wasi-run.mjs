#!/usr/bin/env -S node --no-turbo-fast-api-calls
// The runner of wasm32-wasip1 binaries (`.cargo/config.toml` names it for
// `cargo test --target wasm32-wasip1` and `cargo run --target
// wasm32-wasip1`): runs `<binary.wasm> [args...]` under Node's WASI
// (preview1) and exits with the binary's exit code.
//
// Cargo runs a test binary with the current directory at its package's
// root (the workspace root for animasm, `animasm-testkit/` for the
// testkit, ...), and the tests read files by paths relative to it
// (`data/SimpleSkin.gltf`, `tests/golden/digests.txt`, the README) and by
// absolute paths that `env!("CARGO_MANIFEST_DIR")` compiled in (the
// workspace root from a member, the target directory). So the guest sees
// the host's files at their own paths, and relative paths against the
// current directory: see `preopens` below. It gets the host's environment
// (RUST_BACKTRACE, PROPTEST_CASES, ...) and its binary's path as argv[0]
// (what devkit::paths reads on WASI, which has no `current_exe`).
//
// `--no-turbo-fast-api-calls` (the line above): with V8's fast API calls
// from optimised wasm into Node's WASI functions, Node 20 crashes (SIGSEGV
// or SIGBUS, JS heap corrupted) at or near the exit of a binary that has
// grown its memory to a few hundred MiB (tests/skeleton.rs, slerp_joints,
// lerp_joints: about one run in two, after every test has passed); a GC
// started inside a fast call is the known cause (nodejs/node#46777). Off,
// no crash in dozens of runs, at no measurable cost to the tests.
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import { WASI } from 'node:wasi';

const [binary, ...args] = process.argv.slice(2);
if (!binary) {
    console.error('usage: node scripts/wasi-run.mjs <binary.wasm> [args...]');
    process.exit(2);
}

// Node 20 warns once that WASI is experimental; the test output needs no
// such line, and every other warning still shows.
process.removeAllListeners('warning');
process.on('warning', (w) => {
    if (w.name !== 'ExperimentalWarning') console.warn(w);
});

// wasi-libc resolves an absolute path against the preopen with the longest
// matching prefix, and a relative one against the preopen `.`; but it
// takes both `/` and `.` as the empty prefix (the later one wins), so `/`
// cannot be preopened beside `.`. Each directory at the host's root is
// preopened at its own path instead (`/work`, `/tmp`, `/usr`, ...), and
// `.` as the current directory: absolute paths anywhere but `/` itself,
// and relative ones, then resolve as on the host.
const cwd = process.cwd();
const preopens = {};
for (const name of readdirSync('/')) {
    try {
        if (statSync(`/${name}`).isDirectory()) preopens[`/${name}`] = `/${name}`;
    } catch {
        // A dangling link or an unreadable entry: not preopened.
    }
}
preopens['.'] = cwd;

const wasi = new WASI({
    version: 'preview1',
    args: [binary, ...args],
    env: process.env,
    preopens,
    returnOnExit: true,
});

const module = await WebAssembly.compile(await readFile(binary));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
try {
    process.exit(wasi.start(instance));
} catch (e) {
    // A panic: wasm32-wasip1 has panic=abort, and Rust's abort is the
    // `unreachable` trap, which ends the whole binary (not one test). The
    // test harness had captured the panic's message: `--nocapture` shows it.
    if (e instanceof WebAssembly.RuntimeError) {
        console.error(`wasi-run: ${binary} aborted (${e.message}): a panic, with wasm32's panic=abort; ` +
            'pass --nocapture to the test binary to see its message');
        process.exitCode = 134;
    } else {
        throw e;
    }
}
