#!/usr/bin/env python3
"""Writes the seeds that tests/data has no file for: fleet files (tests/fuzz/corpus/fleet) built from the
small results files, history databases (tests/fuzz/corpus/history) in the schema of analysis/history, and
the dictionaries (tests/fuzz/<target>.dict). The other corpora are copies of tests/data files. Seeds are
inputs, not expectations: rerun this only to change them."""
import copy
import json
import os
import sqlite3

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")


def results(name, host):
    with open(os.path.join(DATA, name)) as f:
        doc = json.load(f)
    doc = copy.deepcopy(doc)
    doc["context"]["host_name"] = host
    doc["context"].setdefault("machine", {})["hostname"] = host
    return doc


def fleet(entries):
    return {"kind": "roofline-fleet", "fleet_schema_version": 1, "created": "2025-01-01T00:00:00Z",
            "launcher": {"mpi_library": "Open MPI", "world_size": len(entries)}, "nodes": entries}


def measured(rank, node, doc):
    return {"rank": rank, "node": node, "ok": True, "results": doc}


def write(folder, name, doc):
    os.makedirs(os.path.join(CORPUS, folder), exist_ok=True)
    with open(os.path.join(CORPUS, folder, name), "w") as f:
        json.dump(doc, f, separators=(",", ":"))


def fleet_seeds():
    write("fleet", "two_nodes.json", fleet([measured(0, "node-a", results("report_minimal.json", "node-a")),
                                            measured(1, "node-b", results("report_minimal.json", "node-b"))]))
    write("fleet", "one_failed.json", fleet([measured(0, "node-a", results("llm/results_2t.json", "node-a")),
                                             {"rank": 1, "node": "node-b", "ok": False, "error": "kernel failed"}]))
    same_host = results("llm/results_2t.json", "node-a")
    same_host["context"]["mpi"] = {"rank": 0}
    write("fleet", "same_host.json", fleet([measured(0, "node-a", same_host), measured(1, "node-a", same_host)]))
    write("fleet", "results_file.json", results("report_minimal.json", "node-a"))


def fresh_run():
    """A fresh run's file as `roofline run` wrote it (issue 45: the recorded Zen 5 quick run, whose roof_now
    probes every reader once refused), cut to one entry of each shape (suite, kernel, run type, the fields and
    labels it has) so that the seed holds every field and replays in milliseconds."""
    import gzip
    with gzip.open(os.path.join(DATA, "golden", "zen5-l3-32m-2vcpu_quick_a.json.gz"), "rt") as f:
        doc = json.load(f)
    seen, kept = set(), []
    for e in doc["benchmarks"]:
        labels = e.get("labels", {})
        shape = (labels.get("suite"), labels.get("kernel"), e.get("run_type"), tuple(sorted(e)), tuple(sorted(labels)))
        if shape not in seen:
            seen.add(shape)
            kept.append(e)
    doc["benchmarks"] = kept
    return doc


def fresh_run_seeds():
    doc = fresh_run()
    write("results", "fresh_run_zen5.json", doc)
    a, b = copy.deepcopy(doc), copy.deepcopy(doc)
    for d, host in ((a, "node-a"), (b, "node-b")):
        d["context"]["host_name"] = host
        d["context"]["machine"]["hostname"] = host
    write("fleet", "fresh_run_two_nodes.json", fleet([measured(0, "node-a", a), measured(1, "node-b", b)]))


def walk(node, keys, values):
    if isinstance(node, dict):
        for k, v in node.items():
            keys.add(k)
            walk(v, keys, values)
    elif isinstance(node, list):
        for v in node:
            walk(v, keys, values)
    elif isinstance(node, str) and 0 < len(node) <= 16 and " " not in node and '"' not in node and "\\" not in node:
        values.add(node)


def dictionary(name, files, extra=()):
    """tests/fuzz/<name>.dict: every key (and short word value) of these files, as JSON strings."""
    keys, values = set(), set()
    for f in files:
        with open(os.path.join(ROOT, f)) as src:
            walk(json.load(src), keys, values)
    words = sorted(keys | values | set(extra))
    with open(os.path.join(ROOT, "tests", "fuzz", name + ".dict"), "w") as out:
        out.write(f"# libFuzzer dictionary for fuzz_{name}: JSON keys and words of our files (tests/fuzz/make_seeds.py).\n")
        for w in words:
            out.write('"\\"%s\\""\n' % w)
        for token in ["{", "}", "[", "]", ":", ",", "null", "true", "false", "-1", "0", "1e308", "-0.0", "2147483648",
                      "18446744073709551616"]:
            out.write('"%s"\n' % token)


def dictionaries():
    import glob
    rel = lambda pattern: sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, pattern)))
    results_files = ["tests/data/report_minimal.json", "tests/data/report_full.json", "tests/data/llm/results_2t.json",
                     "tests/data/compare/base.json", "tests/fuzz/corpus/results/fresh_run_zen5.json"]
    dictionary("results", results_files)
    dictionary("spec", rel("analysis/specs/*.json"), ["TFLOP/s", "TOPS", "GB/s", "TB/s", "GHz", "MHz", "FLOP/s"])
    dictionary("llm_config", rel("analysis/llm/models/*.json"))
    dictionary("fleet", results_files + rel("tests/fuzz/corpus/fleet/*.json"))


# The schema of analysis/history/history.cpp (open_history), version 2, and its version-1 form; small pages
# keep the seeds small, so that mutations land on the header, schema and rows rather than on free space.
HISTORY_SCHEMA = """
PRAGMA page_size=512;
PRAGMA application_id=1380338766;
PRAGMA user_version={version};
CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT,
 added_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
 date TEXT, git_revision TEXT, host TEXT, cpu_model TEXT, profile TEXT, source TEXT,
 content_hash TEXT NOT NULL UNIQUE{identities});
CREATE TABLE figures(run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
 key TEXT NOT NULL, label TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL,
 threads INTEGER NOT NULL, detail TEXT NOT NULL, PRIMARY KEY(run_id, key));
"""


def history_db(path, version, runs):
    identities = ", machine_id TEXT, configuration_id TEXT" if version >= 2 else ""
    with sqlite3.connect(path) as con:
        con.executescript(HISTORY_SCHEMA.format(version=version, identities=identities))
        for i in range(runs):
            cols = "date, git_revision, host, cpu_model, profile, source, content_hash"
            vals = ["2025-01-0%dT00:00:00" % (i + 1), "abc123", "fuzz-host", "Test CPU", "quick", "run.json",
                    "%016x" % (i + 1)]
            if version >= 2:
                cols += ", machine_id, configuration_id"
                vals += ["m1", "c1"]
            cur = con.execute("INSERT INTO runs(%s) VALUES (%s)" % (cols, ",".join("?" * len(vals))), vals)
            con.execute("INSERT INTO figures VALUES (?,?,?,?,?,?,?)",
                        (cur.lastrowid, "memory/DRAM/triad/threads:1", "DRAM triad", 1.5e10 + i, "B/s", 1, "memory"))
            con.execute("INSERT INTO figures VALUES (?,?,?,?,?,?,?)",
                        (cur.lastrowid, "compute/fp32/vector/threads:1", "fp32 peak", 1e11, "FLOP/s", 1, "compute"))


def history_seeds():
    out = os.path.join(CORPUS, "history")
    os.makedirs(out, exist_ok=True)
    for name, version, runs in [("v2_two_runs.db", 2, 2), ("v2_empty.db", 2, 0), ("v1_one_run.db", 1, 1)]:
        path = os.path.join(out, name)
        if os.path.exists(path):
            os.remove(path)
        history_db(path, version, runs)
    with open(os.path.join(out, "zero_bytes.db"), "wb"):
        pass


if __name__ == "__main__":
    fresh_run_seeds()
    fleet_seeds()
    dictionaries()
    history_seeds()
