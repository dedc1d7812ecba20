#!/usr/bin/env bash
# test_device_check: scripts/device-check's host side (issue 34), no GPU needed: the CUDA library folders it finds
# (the toolkit's and PyTorch's nvidia/*/lib), the loader path that keeps LD_LIBRARY_PATH, the driver's CUDA
# version read from nvidia-smi, the bundle's MANIFEST.json and the mode it picks for a CUDA 12 or 13 driver, the
# FMA loop counted in SASS, and the dry run on a machine without a GPU: exit 2 and one line.
set -uo pipefail
src=${1:?usage: test_device_check.sh <source dir>}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
passes=0
expect() {  # name, got, expected
  if [[ "$2" == "$3" ]]; then echo "ok   $1"; passes=$((passes + 1)); else echo "FAIL $1: got '$2', expected '$3'"; failures=$((failures + 1)); fi
}
ROOFLINE_DEVICE_CHECK_LIB=1 source "$src/scripts/device-check"

mkdir -p "$tmp/cuda/lib64" "$tmp/site/nvidia/cublas/lib" "$tmp/site/nvidia/cu13/lib" "$tmp/site/nvidia/nccl" "$tmp/site2"
expect "CUDA library folders: toolkit, then every nvidia/*/lib" "$(cuda_library_dirs "$tmp/cuda" "$tmp/site" "$tmp/site2")" \
  "$tmp/cuda/lib64:$tmp/site/nvidia/cu13/lib:$tmp/site/nvidia/cublas/lib"
expect "CUDA library folders: none" "$(cuda_library_dirs "$tmp/none")" ""
expect "loader path appends LD_LIBRARY_PATH" "$(loader_library_path /b/lib "/c1:/c2" "/usr/local/nvidia/lib64:/x")" \
  "/b/lib:/c1:/c2:/usr/local/nvidia/lib64:/x"
expect "loader path without LD_LIBRARY_PATH" "$(loader_library_path /b/lib "/c1" "")" "/b/lib:/c1"
header='| NVIDIA-SMI 570.86.15              Driver Version: 570.86.15      CUDA Version: 12.8     |'
expect "driver CUDA major from nvidia-smi" "$(driver_cuda_major <<<"$header")" "12"
expect "driver CUDA major absent" "$(driver_cuda_major <<<"no header")" ""

mkdir -p "$tmp/bundle/bin"
touch "$tmp/bundle/bin/roofline"
write_manifest "$tmp/bundle" "13.0" "80-real;86-real;89-real;90-real;100" "abc1234"
expect "manifest: runtime" "$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["prebuilt"]["cuda_runtime"], m["prebuilt"]["min_driver_cuda_major"], m["files"])' "$tmp/bundle/MANIFEST.json")" \
  "13.0 13 ['bin/roofline']"
expect "manifest: states the CUDA 12 path" "$(python3 -c 'import json,sys; print("12.x" in json.load(open(sys.argv[1]))["rebuilt_there"]["accepts"])' "$tmp/bundle/MANIFEST.json")" "True"
expect "a CUDA 13 driver runs the bundle" "$(bundle_mode "$tmp/bundle/MANIFEST.json" 13)" "bundled"
expect "a CUDA 12 driver rebuilds" "$(bundle_mode "$tmp/bundle/MANIFEST.json" 12)" "rebuild"
expect "an unknown driver rebuilds" "$(bundle_mode "$tmp/bundle/MANIFEST.json" "")" "rebuild"

sass='		Function : _ZN8roofline4cuda10fma_kernelIfEEviffPdPm
        /*0100*/                   FFMA R1, R1, R2, R3 ;
        /*0110*/                   FFMA R4, R4, R2, R3 ;
        /*0120*/                   IADD3 R5, R5, 0x1, RZ ;
        /*0130*/                   ISETP.GE.AND P0, PT, R5, R6, PT ;
        /*0140*/              @!P0 BRA 0x100 ;
        /*0150*/                   EXIT ;
		Function : _ZN8roofline4cuda10fma_kernelIdEEviffPdPm
        /*0100*/                   DFMA R1, R1, R2, R3 ;'
expect "FMA loop counted in SASS" "$(fma_loop_counts <<<"$sass")" "2 3"

# The Done-when checks on a probe that lost rows (a failed GEMM, no copy, no PyTorch): FAIL lines, no traceback.
mkdir -p "$tmp/out"
cat >"$tmp/out/probe.json" <<'JSON'
{"runtime_cuda": "13.0", "driver_cuda": "13.0", "results": [
  {"name": "bandwidth/read/bytes:4294967280", "bytes_per_second": 4.2e12, "valid": true},
  {"name": "gemm/cublaslt/bf16/m:16384/n:1/k:16384", "valid": false, "error": "cudaMalloc gemm D: out of memory"}]}
JSON
done_when_checks "$tmp/out" "" 0 "128 3" bundled >"$tmp/checks.txt" 2>&1
expect "checks with missing rows exit 1" "$?" "1"
expect "checks: no traceback" "$(grep -c Traceback "$tmp/checks.txt")" "0"
expect "checks: a missing row fails, named" "$(grep -c "FAIL  HBM copy / torch device-to-device copy: copy or PyTorch's copy missing" "$tmp/checks.txt")" "1"
expect "checks: the FMA loop passes" "$(grep -c 'PASS  fp32 FMA loop' "$tmp/checks.txt")" "1"
expect "checks: the failed entry is listed" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["failed_results"])' "$tmp/out/checks.json")"   "['gemm/cublaslt/bf16/m:16384/n:1/k:16384']"

# The dry run where nvidia-smi finds no GPU: exit 2, one line on stderr, nothing on stdout.
mkdir -p "$tmp/path"
printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2\nexit 9\n' >"$tmp/path/nvidia-smi"
chmod +x "$tmp/path/nvidia-smi"
PATH="$tmp/path:$PATH" OUT="$tmp/out2" bash "$src/scripts/device-check" >"$tmp/stdout" 2>"$tmp/stderr"
expect "dry run exits 2" "$?" "2"
expect "dry run: one line on stderr" "$(wc -l <"$tmp/stderr" | tr -d ' ')" "1"
expect "dry run: says why" "$(grep -c 'no NVIDIA GPU or driver here' "$tmp/stderr")" "1"
expect "dry run: nothing on stdout" "$(wc -c <"$tmp/stdout" | tr -d ' ')" "0"

echo "$passes passed, $failures failed"
exit $(( failures > 0 ))
