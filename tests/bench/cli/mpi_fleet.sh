#!/usr/bin/env bash
# End-to-end under Open MPI (ctest label `mpi`, registered only in builds with MPI): two ranks on this one
# machine (`--oversubscribe`, `--allow-run-as-root` for CI containers) run a tiny measurement (the compute
# suite at one thread, seconds), rank 0 writes one fleet file with both ranks and the fleet report, and
# `roofline fleet` reads it back. Bad flags under mpirun stop every rank with exit 2 and one message.
#   mpi_fleet.sh ROOFLINE_EXE MPIEXEC
set -euo pipefail
exe=$1
mpiexec=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
launch=("$mpiexec" --oversubscribe --allow-run-as-root --bind-to none -np 2)

if ! "${launch[@]}" "$exe" run --mpi --suites compute --threads 1 --out "$tmp/fleet.json" >"$tmp/out" 2>"$tmp/err"; then
  echo "mpi_fleet: run --mpi failed"; cat "$tmp/out" "$tmp/err"; exit 1
fi
grep -q "^fleet    $tmp/fleet.json" "$tmp/out" || { echo "mpi_fleet: no fleet line"; cat "$tmp/out"; exit 1; }
grep -q "Roofline fleet: 2 node(s)" "$tmp/fleet.html" || { echo "mpi_fleet: report missing or wrong"; exit 1; }
python3 - "$tmp/fleet.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["kind"] == "roofline-fleet" and doc["fleet_schema_version"] == 1, doc.keys()
assert doc["launcher"]["world_size"] == 2 and doc["launcher"]["launched_by"] == "mpirun", doc["launcher"]
nodes = doc["nodes"]
assert [n["rank"] for n in nodes] == [0, 1], [n["rank"] for n in nodes]
for n in nodes:
    assert n["ok"] is True, n.get("error")
    mpi = n["results"]["context"]["mpi"]
    assert mpi["rank"] == n["rank"] and mpi["world_size"] == 2, mpi
    # one machine: both ranks share the host, so they took turns
    assert mpi["host_ranks"] == 2 and mpi["host_rank"] == n["rank"], mpi
    assert n["results"]["roofline"]["compute_ceilings"], "no compute ceilings"
PY

# The fleet file is an input of `roofline fleet` (0 or 1: two ranks of a noisy VM may differ by over 5 %).
set +e
"$exe" fleet "$tmp/fleet.json" --json "$tmp/analysis.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -le 1 ] || { echo "mpi_fleet: roofline fleet exit $rc"; cat "$tmp/err"; exit 1; }
python3 -c "import json,sys; a=json.load(open(sys.argv[1])); assert len(a['nodes']) == 2 and a['failed'] == 0, a['nodes']" "$tmp/analysis.json"

# Bad flags: every rank stops before measuring, exit 2, the message once.
set +e
"${launch[@]}" "$exe" run --mpi --threads 0 --out "$tmp/bad.json" >"$tmp/out" 2>"$tmp/err"
rc=$?
set -e
[ "$rc" -ne 0 ] || { echo "mpi_fleet: bad flags accepted"; exit 1; }
[ "$(grep -c '^roofline: ' "$tmp/err")" = 1 ] || { echo "mpi_fleet: expected one error line"; cat "$tmp/err"; exit 1; }
[ ! -e "$tmp/bad.json" ] || { echo "mpi_fleet: wrote a file on bad input"; exit 1; }
echo "mpi_fleet: ok"
