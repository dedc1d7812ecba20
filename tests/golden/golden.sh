#!/usr/bin/env bash
# One golden-output case (see cases.txt): renders INPUT with `roofline report --rederive` in FORMAT (text
# or csv) and compares it byte for byte with the expected file, or (update) rewrites the expected file.
# Expected outputs of recorded runs are large (one CSV row per benchmark entry) and stored gzipped; the
# comparison is on the decompressed bytes.
#   golden.sh check|update <roofline> <repo root> <name> <input> <format>
set -euo pipefail
mode="$1" exe="$2" root="$3" name="$4" input="$5" format="$6"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
case "$input" in
  *.gz) zcat "$root/$input" >"$tmp/input.json" ;;
  *) cp "$root/$input" "$tmp/input.json" ;;
esac
case "$format" in
  text) "$exe" report "$tmp/input.json" --rederive --text >"$tmp/out" ;;
  csv) "$exe" report "$tmp/input.json" --rederive --csv "$tmp/out" --force >/dev/null ;;
  *) echo "golden.sh: unknown format '$format'" >&2; exit 2 ;;
esac
expected="$root/tests/golden/expected/$name.$format"
if [ "$(stat -c %s "$tmp/out")" -gt 200000 ]; then expected="$expected.gz"; fi
if [ "$mode" = update ]; then
  case "$expected" in
    *.gz) gzip -9n <"$tmp/out" >"$expected" ;;
    *) cp "$tmp/out" "$expected" ;;
  esac
  echo "updated $expected"
  exit 0
fi
[ -f "$expected" ] || { echo "golden: $expected is missing (run scripts/update-golden)"; exit 1; }
case "$expected" in
  *.gz) zcat "$expected" >"$tmp/expected" ;;
  *) cp "$expected" "$tmp/expected" ;;
esac
if ! cmp -s "$tmp/expected" "$tmp/out"; then
  echo "golden: $name.$format differs from $expected (scripts/update-golden regenerates it; review the diff):"
  diff -u "$tmp/expected" "$tmp/out" | head -n 60
  exit 1
fi
echo "golden: $name.$format matches"
