#!/usr/bin/env bash
# The HTML report tested as a web page: renders reports of hand-made results files in headless Chromium,
# checks that the charts are in the rendered DOM (ceilings, ridge points, placements, level bands), that a
# host name like <script>alert(1)</script> stays text, and that the screenshot is not blank; then the same
# for the page of `roofline llm --html`.
# Usage: render_report.sh ROOFLINE_EXE DATA_DIR [SCREENSHOT_OUT]. Exit 77 (ctest SKIP) without Chromium.
set -euo pipefail
exe=$1
data=$2
keep=${3:-}
here=$(cd "$(dirname "$0")" && pwd)

browser=""
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [[ -z $browser ]]; then
  echo "SKIP: no chromium found (Debian package: chromium)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Flags: no sandbox (containers), no GPU, and nothing that talks to the network.
chrome() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync --disable-extensions \
    --hide-scrollbars --user-data-dir="$work/profile" "$@" 2>>"$work/chromium.log"
}

cp "$data/report_full.json" "$work/full.json"
cp "$data/report_xss.json" "$work/xss.json"
"$exe" report "$work/full.json" --spec "$data/spec_test_cpu.json" >/dev/null
"$exe" report "$work/xss.json" >/dev/null

chrome --dump-dom "file://$work/full.html" >"$work/full.dom" || fail "chromium could not render full.html"
count() { grep -o "$1" "$work/$2" | wc -l; }
for needle in 'id="roofline-chart"' 'id="bandwidth-chart"' 'id="throughput-chart"' 'id="latency-chart"' \
              'id="table-advertised"'; do
  [[ $(count "$needle" full.dom) -ge 1 ]] || fail "$needle missing from the rendered DOM"
done
[[ $(count 'class="ceiling compute"' full.dom) -ge 5 ]] || fail "compute ceilings missing from the rendered DOM"
[[ $(count 'class="ceiling memory"' full.dom) -eq 4 ]] || fail "expected 4 memory ceilings (L1, L2, L3, DRAM)"
[[ $(count 'class="ceiling theoretical"' full.dom) -ge 5 ]] || fail "theoretical peaks missing"
[[ $(count 'class="ridge"' full.dom) -eq 20 ]] || fail "expected 20 ridge points (5 precisions x 4 levels)"
[[ $(count 'class="point placement"' full.dom) -eq 36 ]] || fail "expected 36 GEMV/GEMM points"
[[ $(count 'class="level-band"' full.dom) -eq 4 ]] || fail "expected 4 shaded levels"

chrome --dump-dom "file://$work/xss.html" >"$work/xss.dom" || fail "chromium could not render xss.html"
grep -q '<script' "$work/xss.dom" && fail "a <script> element reached the DOM of xss.html"
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$work/xss.dom" || fail "the escaped host name is not shown as text"

chrome --screenshot="$work/full.png" --window-size=1400,3000 "file://$work/full.html" >/dev/null ||
  fail "chromium could not take a screenshot"
python3 "$here/png_not_blank.py" "$work/full.png" 1400 3000 || fail "the screenshot looks blank"
if [[ -n $keep ]]; then cp "$work/full.png" "$keep"; fi

# The LLM page (roofline llm --html): its charts reach the DOM, with one point per decode batch.
"$exe" llm --config llama-3-8b --results "$data/llm/results_2t.json" --batches 1,8,64 --html "$work/llm.html" >/dev/null
chrome --dump-dom "file://$work/llm.html" >"$work/llm.dom" || fail "chromium could not render llm.html"
for needle in 'id="llm-roofline-chart"' 'id="llm-throughput-chart"' 'id="llm-latency-chart"' 'id="llm-decode"'; do
  [[ $(count "$needle" llm.dom) -ge 1 ]] || fail "$needle missing from the rendered DOM of llm.html"
done
[[ $(count 'class="decode-point"' llm.dom) -eq 6 ]] || fail "expected 3 decode points in each batch chart"
[[ $(count 'class="llm-prefill"' llm.dom) -eq 1 ]] || fail "expected the prefill step on the roofline chart"
echo "OK: report and llm page rendered by $browser; charts present in the DOM; screenshot not blank"
