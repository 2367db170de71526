#!/usr/bin/env bash
# The reading room in a real browser: renders every page of the static site
# that `cargo run --release -p animasm-reading-room` writes from the report's
# input (`cargo run --release -p devkit --example report -- --html`), both in
# <target>/animasm-report/ (cargo's target directory, as `cargo metadata`
# gives it: CARGO_TARGET_DIR, build.target-dir, else target/), with
# headless Chromium, to one PNG per page under <that directory>/png/, and
# fails on a page that does not load (the browser's DOM is not the page: an
# error page, or the page's own marker missing) or renders empty (almost
# every pixel of the screenshot the background colour).
#
#   scripts/reading_room.sh             # the site as it is (renders it first if missing or older than its input,
#                                       # and runs the report first if there is no input either)
#   scripts/reading_room.sh --write     # run the report with --html and render the site first (about 2 minutes)
#
# Needs Chromium (Debian: apt-get install chromium) and python3. The network
# is cut off for the browser (every host name resolves to nothing), so a page
# that needs anything from outside the site shows it as missing.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium not found: apt-get install chromium" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 not found" >&2; exit 1; }
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
site=${SITE:-$target_dir/animasm-report}
png=$site/png

write=${1:-}
if [ "$write" = "--write" ] || { [ ! -f "$site/index.html" ] && [ ! -f "$site/site_input.json" ]; }; then
    echo "writing the site's input: cargo run --release -p devkit --example report -- --html" >&2
    cargo run --release -p devkit --example report -- --html >/dev/null
fi
if [ "$write" = "--write" ] || [ "$site/site_input.json" -nt "$site/index.html" ]; then
    echo "writing the site: cargo run --release -p animasm-reading-room" >&2
    cargo run --release -p animasm-reading-room
fi

mkdir -p "$png"
chrome() {
    # --no-sandbox: Chromium refuses to run as root with its sandbox.
    timeout 120 "$browser" --headless=new --no-sandbox --disable-gpu --hide-scrollbars \
        --host-resolver-rules="MAP * ~NOTFOUND" --allow-file-access-from-files "$@" 2>/dev/null
}

failed=0
pages=0
for page in "$site"/*.html; do
    name=$(basename "$page" .html)
    url="file://$(realpath "$page")"
    pages=$((pages + 1))
    # 1. It loads: the DOM Chromium built is the page, with its marker
    #    (every page of the site carries <meta name="generator" content="animasm reading room">).
    dom=$(chrome --dump-dom "$url" || true)
    if ! grep -q 'content="animasm reading room"' <<<"$dom"; then
        echo "FAIL $name: the page did not load (no reading-room marker in the DOM)"
        failed=$((failed + 1))
        continue
    fi
    # 2. It renders: a screenshot of the first 1400 x 1000 pixels that is not blank.
    chrome --window-size=1400,1000 --screenshot="$png/$name.png" "$url" >/dev/null || true
    if ! verdict=$(python3 - "$png/$name.png" <<'PY'
import struct, sys, zlib
path = sys.argv[1]
data = open(path, "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG")
pos, idat, ihdr = 8, b"", None
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
w, h, depth, ctype = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
bpp = {2: 3, 6: 4}.get(ctype)
if depth != 8 or bpp is None:
    sys.exit(f"unexpected PNG format (depth {depth}, colour type {ctype})")
raw, stride = zlib.decompress(idat), w * bpp
prev, rows, i = bytearray(stride), [], 0
for _ in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], (prev[x - bpp] if x >= bpp else 0)
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + b) & 255
        elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(line))
    prev = line
# The background is the most common colour; "empty" is under 0.5% of pixels
# in any other colour.
from collections import Counter
counts = Counter(r[x:x + 3] for r in rows for x in range(0, stride, bpp))
background, n = counts.most_common(1)[0]
ink = 1 - n / (w * h)
print(f"{w}x{h}, {ink:.1%} of pixels not background, {len(counts)} colours")
sys.exit(0 if ink >= 0.005 else 1)
PY
    ); then
        echo "FAIL $name: renders empty or unreadable: $verdict"
        failed=$((failed + 1))
        continue
    fi
    echo "ok   $name: $verdict -> $png/$name.png"
done

[ "$pages" -gt 0 ] || { echo "no pages under $site" >&2; exit 1; }
echo "$pages pages, $failed failed"
[ "$failed" -eq 0 ]
