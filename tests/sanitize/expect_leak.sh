#!/usr/bin/env bash
# The deliberate-leak self-check (issue 37): runs one case of a deliberate_leak binary under the environment
# ctest gives it (the sanitize preset's ASAN_OPTIONS and LSAN_OPTIONS, with tests/sanitize/lsan.supp) and
# passes only when LeakSanitizer reports the leak with the case's function of ours in the leak's stack:
# proof that the suppressions do not hide a leak of ours. Exit 77 (a skip) where the case cannot run here.
#   expect_leak.sh BINARY CASE FUNCTION [--suppressions-used]
# --suppressions-used also requires that a suppression matched in that process (the case made PoCL leak).
set -uo pipefail
binary="$1" case_name="$2" function="$3" want_used="${4:-}"

supp="$(tr ':' '\n' <<<"${LSAN_OPTIONS:-}" | sed -n 's/^suppressions=//p')"
if [ -z "$supp" ] || [ ! -r "$supp" ]; then
  echo "expect_leak: LSAN_OPTIONS names no readable suppressions file (run it with ctest --preset sanitize-selfcheck)" >&2
  exit 1
fi
# A kernel cache of this run only, so that PoCL compiles the case's kernel here.
POCL_CACHE_DIR="$(mktemp -d)"
export POCL_CACHE_DIR
trap 'rm -rf "$POCL_CACHE_DIR"' EXIT
log="$POCL_CACHE_DIR/report.txt"
"$binary" "$case_name" >"$log" 2>&1
rc=$?
cat "$log"
[ "$rc" = 77 ] && exit 77
fail() { echo "expect_leak: $case_name: $*" >&2; exit 1; }
[ "$rc" = 0 ] && fail "exit code 0: the deliberate leak in $function was not reported (suppressed?)"
grep -q "ERROR: LeakSanitizer: detected memory leaks" "$log" || fail "exit code $rc without a LeakSanitizer report"
# One leak record (from "leak of" to the blank line after its stack) must name our function.
awk -v f="$function" '/leak of/ {rec = 1} rec && $1 ~ /^#[0-9]+$/ && index($0, f) {found = 1} /^$/ {rec = 0} END {exit !found}' "$log" ||
  fail "no leak record has $function in its stack: our leak was suppressed"
if [ "$want_used" = --suppressions-used ]; then
  grep -q "^Suppressions used:" "$log" || fail "no suppression matched: the case did not exercise them"
fi
echo "expect_leak: $case_name: the leak in $function was reported under $supp"
