#!/usr/bin/env bash
# The install rules: `cmake --install` into a temporary prefix puts bin/roofline, share/roofline/specs and
# share/roofline/models there, and the installed binary runs from another folder, finding its data relative
# to itself (the source tree is hidden from it by running with ROOFLINE_DATA_DIR unset and from /).
#   installed_binary.sh <build dir> <a results file>
set -euo pipefail
build="$1"
results="$(realpath "$2")"
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
test -x "$prefix/bin/roofline" || { echo "FAIL: no bin/roofline under the prefix"; exit 1; }
ls "$prefix"/share/roofline/specs/*.json >/dev/null || { echo "FAIL: no share/roofline/specs/*.json"; exit 1; }
ls "$prefix"/share/roofline/models/*.json >/dev/null || { echo "FAIL: no share/roofline/models/*.json"; exit 1; }
cd /
unset ROOFLINE_DATA_DIR
out="$("$prefix/bin/roofline" model --peak 100T --bandwidth 2T --ai 10)"
grep -q "attainable   20.0 TFLOP/s" <<<"$out" || { echo "FAIL: model output: $out"; exit 1; }
# A shipped spec named by its name is found under the prefix, not in the source tree.
err="$("$prefix/bin/roofline" report "$results" --text --spec no-such-spec 2>&1 >/dev/null || true)"
grep -q "available in $prefix/share/roofline/specs" <<<"$err" \
  || { echo "FAIL: the spec lookup does not use the installed share/roofline: $err"; exit 1; }
spec="$(basename "$(ls "$prefix"/share/roofline/specs/*.json | head -n 1)" .json)"
text="$("$prefix/bin/roofline" report "$results" --text --spec "$spec")"
grep -q "Advertised vs measured" <<<"$text" \
  || { echo "FAIL: the shipped spec '$spec' was not used"; exit 1; }
# A shipped model config is found the same way (roofline llm --config NAME).
err="$("$prefix/bin/roofline" llm --config no-such-model --results "$results" 2>&1 >/dev/null || true)"
grep -q "available in $prefix/share/roofline/models" <<<"$err" \
  || { echo "FAIL: the model lookup does not use the installed share/roofline: $err"; exit 1; }
echo "installed binary OK: $prefix/bin/roofline runs from /, data in $prefix/share/roofline"
