#!/usr/bin/env bash
# One golden-output case (see cases.txt): runs `roofline COMMAND` on the inputs in FORMAT and compares the
# output byte for byte with the expected file, or (update) rewrites the expected file. Inputs are copied
# (decompressed) into a temporary folder and named there by their file name, so that the output does not
# depend on where the repository lies. Expected outputs of recorded runs are large (one CSV row per
# benchmark entry) and stored gzipped; the comparison is on the decompressed bytes.
#   golden.sh check|update <roofline> <repo root> <name> <command> <format> <input>...
set -euo pipefail
mode="$1" exe="$2" root="$3" name="$4" command="$5" format="$6"
shift 6
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
files=()
for input in "$@"; do
  file="$(basename "$input" .gz)"
  case "$input" in
    *.gz) zcat "$root/$input" >"$tmp/$file" ;;
    *) cp "$root/$input" "$tmp/$file" ;;
  esac
  if [ "$command" = fleet ]; then
    # A node is named by its host; the recorded runs were all measured on hosts named "vm".
    sed -i -E "0,/\"hostname\": *\"[^\"]*\"/s//\"hostname\": \"${file%.json}\"/" "$tmp/$file"
  fi
  files+=("$file")
done
# Exit code of an analysis whose verdict is part of its output (compare, fleet), after the output.
with_exit_code() {
  local rc=0
  "$@" || rc=$?
  echo "exit code: $rc"
}
cd "$tmp"
case "$command:$format" in
  report:text) "$exe" report "${files[0]}" --rederive --text >out ;;
  report:csv) "$exe" report "${files[0]}" --rederive --csv out --force >/dev/null ;;
  compare:text) with_exit_code "$exe" compare "${files[@]}" >out 2>&1 ;;
  compare:markdown) with_exit_code "$exe" compare "${files[@]}" --markdown - >out 2>&1 ;;
  fleet:text) with_exit_code "$exe" fleet "${files[@]}" >out 2>&1 ;;
  fleet:markdown) with_exit_code "$exe" fleet "${files[@]}" --markdown - >out 2>&1 ;;
  llm:text) "$exe" llm --config "${files[0]}" --results "${files[1]}" >out ;;
  llm:json) "$exe" llm --config "${files[0]}" --results "${files[1]}" --json - >out ;;
  llm-q8_0:text) "$exe" llm --config "${files[0]}" --results "${files[1]}" --weights q8_0 --batches 1,8 >out ;;
  # A recorded `llm --measure` file of quantized weights read back beside the estimate: llm-measured-<format>.
  llm-measured-*:text) "$exe" llm --config "${files[0]}" --results "${files[1]}" --weights "${command#llm-measured-}" \
    --measured "${files[2]}" >out ;;
  llm-measured-*:json) "$exe" llm --config "${files[0]}" --results "${files[1]}" --weights "${command#llm-measured-}" \
    --measured "${files[2]}" --json - >out ;;
  *) echo "golden.sh: unknown command and format '$command $format'" >&2; exit 2 ;;
esac
expected="$root/tests/golden/expected/$name.$format"
if [ "$(stat -c %s out)" -gt 200000 ]; then expected="$expected.gz"; fi
if [ "$mode" = update ]; then
  case "$expected" in
    *.gz) gzip -9n <out >"$expected" ;;
    *) cp out "$expected" ;;
  esac
  echo "updated $expected"
  exit 0
fi
[ -f "$expected" ] || { echo "golden: $expected is missing (run scripts/update-golden)"; exit 1; }
case "$expected" in
  *.gz) zcat "$expected" >expected ;;
  *) cp "$expected" expected ;;
esac
if ! cmp -s expected out; then
  echo "golden: $name.$format differs from $expected (scripts/update-golden regenerates it; review the diff):"
  diff -u expected out | head -n 60
  exit 1
fi
echo "golden: $name.$format matches"
