#!/bin/sh
# Test stub of `roofline run` for the paired A/B tests (tests/bench/cli/test_cli_gate.cpp): writes a
# prepared results file to --out. STUB_FILE_<side> names it; with STUB_ALT_<side>, two calls in three of
# that side write that file instead (STUB_COUNTER_<side> holds the count); STUB_FAIL_<side>=1 exits 1.
# With STUB_ARGS_<side>, each call appends its arguments as one line to that file.
# The side is the script's name: stub_base.sh or stub_new.sh (links to this file).
side=$(basename "$0" .sh | sed 's/^stub_//')
eval args_file=\${STUB_ARGS_$side:-}
[ -n "$args_file" ] && echo "$*" >> "$args_file"
out=""
while [ $# -gt 0 ]; do
  [ "$1" = "--out" ] && out="$2"
  shift
done
eval file=\${STUB_FILE_$side}
eval alt=\${STUB_ALT_$side:-}
eval counter=\${STUB_COUNTER_$side:-}
eval fail=\${STUB_FAIL_$side:-}
[ "$fail" = 1 ] && { echo "stub: failing as asked" >&2; exit 1; }
if [ -n "$alt" ]; then
  n=$(cat "$counter" 2>/dev/null || echo 0)
  echo $((n + 1)) > "$counter"
  [ $((n % 3)) != 0 ] && file="$alt"
fi
cp "$file" "$out"
