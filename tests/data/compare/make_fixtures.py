#!/usr/bin/env python3
"""Writes the hand-made results files the compare/history tests read (tests/data/compare/*.json).

Deterministic (no randomness): run it again after changing it and commit the output. The files are small
roofline results files (schema version 1) and plain Google Benchmark JSON, shaped like real runs:
per-repetition entries (run_type "iteration") followed by aggregates.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# Relative offsets of the repetitions around the median: tight (+-0.4 %) and noisy (+-40 %).
TIGHT = [0.0, -0.002, 0.003, -0.004, 0.001]
NOISY = [0.0, -0.40, 0.35, -0.22, 0.25]

MACHINE = {
    "hostname": "ci-runner-1", "cpu_vendor": "GenuineIntel", "cpu_model": "Intel(R) Xeon(R) Processor",
    "cores": 2, "pus": 2, "isa": {"sse2": True, "avx2": True, "fma": True, "avx512f": True, "amx_tile": False},
}

# name -> (labels, counter, median value, work per iteration for real_time)
BENCHMARKS = [
    ("bandwidth/triad/threads:2/bytes:268435456",
     {"suite": "bandwidth", "kernel": "triad", "threads": 2}, "bytes_per_second", 20e9, 268435456),
    ("bandwidth/read/threads:2/bytes:16384",
     {"suite": "bandwidth", "kernel": "read", "threads": 2}, "bytes_per_second", 400e9, 16384),
    ("compute/fma/fp32/avx512/threads:2",
     {"suite": "compute", "kernel": "fma", "precision": "fp32", "isa": "avx512", "threads": 2},
     "flop_per_second", 400e9, 4e9),
    ("gemm/eigen/fp32/batch:16/threads:2",
     {"suite": "gemm", "kernel": "gemm", "backend": "eigen", "precision": "fp32", "batch": 16, "threads": 2},
     "flop_per_second", 150e9, 2 * 1024 * 1024 * 16),
]


def entries(name, labels, counter, median, work, offsets, scale=1.0):
    out = []
    values = []
    for i, off in enumerate(offsets):
        v = median * scale * (1.0 + off)
        values.append(v)
        seconds = work / v
        out.append({"name": name, "family_index": 0, "per_family_instance_index": 0, "run_name": name,
                    "run_type": "iteration", "repetitions": len(offsets), "repetition_index": i, "threads": 1,
                    "iterations": 10, "real_time": seconds * 1e9, "cpu_time": seconds * 1e9, "time_unit": "ns",
                    counter: v, "labels": labels, "label": json.dumps(labels)})
    s = sorted(values)
    med = s[len(s) // 2] if len(s) % 2 else (s[len(s) // 2 - 1] + s[len(s) // 2]) / 2
    out.append({"name": name + "_median", "run_name": name, "run_type": "aggregate", "aggregate_name": "median",
                "repetitions": len(offsets), "threads": 1, "iterations": len(offsets),
                "real_time": work / med * 1e9, "cpu_time": work / med * 1e9, "time_unit": "ns", counter: med,
                "labels": labels})
    out.append({"name": name + "_max", "run_name": name, "run_type": "aggregate", "aggregate_name": "max",
                "repetitions": len(offsets), "threads": 1, "iterations": len(offsets),
                "real_time": work / s[-1] * 1e9, "cpu_time": work / s[-1] * 1e9, "time_unit": "ns", counter: s[-1],
                "labels": labels})
    return out


def environment(canary_start=20e9, canary_end=20.2e9, steal=0.001, busy=0.01):
    """context.environment as bench/environment.cpp writes it."""
    sample = lambda canary: {"clock_hz": 3.0e9, "canary_bytes_per_second": canary, "load_avg": [0.1, 0.1, 0.1],
                             "governor": None, "turbo": None}
    return {"start": sample(canary_start), "end": sample(canary_end), "steal_fraction": steal,
            "other_busy_fraction": busy,
            "canary": {"kernel": "triad", "working_set_bytes": 134217728, "threads": 2, "passes": 4,
                       "start": canary_start, "end": canary_end, "drift": abs(canary_end / canary_start - 1)},
            "clock_drift": 0.0}


def roofline_doc(revision, date, scales=None, offsets=None, machine=None, reps=5, max_isa="avx512", env=None):
    scales = scales or {}
    offsets = offsets or {}
    benchmarks = []
    for name, labels, counter, median, work in BENCHMARKS:
        offs = offsets.get(name, TIGHT)[:reps]
        benchmarks += entries(name, labels, counter, median, work, offs, scales.get(name, 1.0))

    def best(name):
        return max(e[next(c for c in ("flop_per_second", "bytes_per_second") if c in e)]
                   for e in benchmarks if e["name"] == name and e["run_type"] == "iteration")

    triad = best(BENCHMARKS[0][0])
    l1 = best(BENCHMARKS[1][0])
    peak = best(BENCHMARKS[2][0])
    gemm = best(BENCHMARKS[3][0])
    return {
        "context": {
            "date": date, "host_name": "ci-runner-1", "executable": "roofline", "num_cpus": 2,
            "mhz_per_cpu": 2100, "cpu_scaling_enabled": False,
            "caches": [{"type": "Data", "level": 1, "size": 49152, "num_sharing": 1}],
            "library_build_type": "release", "schema_version": 1, "roofline_version": "0.1.0",
            "git_revision": revision, "compiler": "GNU 12.2.0", "compiler_flags": " -O3 -DNDEBUG",
            "build_type": "Release", "profile": "quick", "threads": [1, 2], "max_isa": max_isa,
            "machine": machine or MACHINE, "suites": {}, "notes": [],
            **({"environment": env} if env else {}),
        },
        "benchmarks": benchmarks,
        "roofline": {
            "schema_version": 1,
            "compute_ceilings": [{"precision": "fp32", "isa": "avx512", "threads": 2, "value": peak, "unit": "FLOP/s",
                                  "theoretical": 537.6e9}],
            "memory_ceilings": [
                {"level": "L1", "kernel": "read", "threads": 2, "value": l1, "unit": "B/s", "min_bytes": 8192,
                 "max_bytes": 32768},
                {"level": "DRAM", "kernel": "triad", "threads": 2, "value": triad, "unit": "B/s",
                 "min_bytes": 134217728, "max_bytes": 268435456}],
            "ridge_points": [],
            "placements": [
                {"kernel": "gemm", "backend": "eigen", "precision": "fp32", "batch": 16, "threads": 2, "m": 1024,
                 "k": 1024, "n": 16, "ai": 7.5, "value": gemm, "unit": "FLOP/s", "attainable": 150e9,
                 "bound": "memory", "efficiency": gemm / 150e9}],
            "notes": [],
        },
    }


def gbench_doc(times_ns, offsets, date):
    """Plain Google Benchmark JSON (no roofline additions): BM_* with real_time/cpu_time per repetition."""
    benchmarks = []
    for name, t in times_ns.items():
        for i, off in enumerate(offsets[name]):
            benchmarks.append({"name": name, "run_name": name, "run_type": "iteration", "repetitions": len(offsets[name]),
                               "repetition_index": i, "threads": 1, "iterations": 1000,
                               "real_time": t * (1 + off), "cpu_time": t * (1 + off * 0.5) * 0.98, "time_unit": "ns"})
        benchmarks.append({"name": name + "_mean", "run_name": name, "run_type": "aggregate", "aggregate_name": "mean",
                           "repetitions": len(offsets[name]), "threads": 1, "iterations": len(offsets[name]),
                           "real_time": t, "cpu_time": t, "time_unit": "ns"})
    return {"context": {"date": date, "host_name": "dev", "executable": "./bench", "num_cpus": 8, "mhz_per_cpu": 3000,
                        "cpu_scaling_enabled": False,
                        "caches": [{"type": "Data", "level": 1, "size": 32768, "num_sharing": 2}],
                        "load_avg": [0.5], "library_build_type": "release"},
            "benchmarks": benchmarks}


def write(name, doc):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


def main():
    triad = BENCHMARKS[0][0]
    write("base.json", roofline_doc("aaaa111", "2024-05-01T10:00:00+00:00"))
    # The same machine re-run: identical numbers (a clean compare must report nothing).
    write("same.json", roofline_doc("bbbb222", "2024-05-02T10:00:00+00:00"))
    write("slow20.json", roofline_doc("cccc333", "2024-05-03T10:00:00+00:00", scales={triad: 0.8}))
    write("slow3.json", roofline_doc("dddd444", "2024-05-04T10:00:00+00:00", scales={triad: 0.97}))
    write("fast20.json", roofline_doc("eeee555", "2024-05-05T10:00:00+00:00", scales={triad: 1.2}))
    write("noisy_base.json", roofline_doc("ffff666", "2024-05-06T10:00:00+00:00", offsets={triad: NOISY}))
    write("noisy20.json", roofline_doc("ffff777", "2024-05-07T10:00:00+00:00", scales={triad: 0.8},
                                       offsets={triad: [0.0, -0.31, 0.41, -0.16, 0.29]}))
    write("base_3reps.json", roofline_doc("gggg888", "2024-05-08T10:00:00+00:00", reps=3))
    write("slow20_3reps.json", roofline_doc("gggg999", "2024-05-09T10:00:00+00:00", scales={triad: 0.8}, reps=3))
    # Issue 15: the environment guard and the machine-vs-configuration rule.
    write("quiet_env.json", roofline_doc("llll111", "2024-05-14T10:00:00+00:00", env=environment()))
    write("disturbed.json", roofline_doc("llll222", "2024-05-15T10:00:00+00:00", scales={triad: 0.8},
                                         env=environment(canary_end=16e9)))
    write("stolen.json", roofline_doc("llll333", "2024-05-16T10:00:00+00:00", env=environment(steal=0.2)))
    # The host's memory state flipped between two runs (steady within each): the canary is 40% lower in the
    # new run, and so is its DRAM triad; a compute figure halved as well in the second file.
    flipped = environment(canary_start=12e9, canary_end=12.1e9)
    write("canary_flip.json", roofline_doc("llll444", "2024-05-16T11:00:00+00:00", scales={triad: 0.6}, env=flipped))
    write("canary_flip_compute.json", roofline_doc("llll555", "2024-05-16T12:00:00+00:00",
                                                   scales={triad: 0.6, BENCHMARKS[2][0]: 0.5}, env=flipped))
    peak = BENCHMARKS[2][0]
    write("avx2.json", roofline_doc("mmmm111", "2024-05-17T10:00:00+00:00", scales={peak: 0.5}, max_isa="avx2"))
    other = dict(MACHINE, cpu_model="AMD EPYC 9654 96-Core Processor", cores=96)
    other["isa"] = dict(MACHINE["isa"], amx_tile=False, avx512f=False)
    write("other_machine.json", roofline_doc("hhhh000", "2024-05-10T10:00:00+00:00", machine=other))

    names = {"BM_Same": 1000.0, "BM_Slower": 2000.0, "BM_Faster": 500.0, "BM_Noisy": 800.0}
    base_offs = {n: [0.0, 0.01, -0.01, 0.005, -0.005, 0.002, -0.002, 0.007, -0.007] for n in names}
    base_offs["BM_Noisy"] = [0.0, 0.3, -0.3, 0.2, -0.2, 0.1, -0.1, 0.25, -0.25]
    write("gbench_base.json", gbench_doc(names, base_offs, "2024-05-01T09:00:00+00:00"))
    new_times = dict(names, BM_Slower=2400.0, BM_Faster=400.0, BM_Noisy=880.0)
    new_offs = dict(base_offs)
    new_offs["BM_Same"] = [0.001, 0.011, -0.009, 0.006, -0.004, 0.003, -0.001, 0.008, -0.006]
    new_offs["BM_Noisy"] = [0.05, 0.28, -0.32, 0.22, -0.18, 0.12, -0.12, 0.27, -0.23]
    write("gbench_new.json", gbench_doc(new_times, new_offs, "2024-05-02T09:00:00+00:00"))

    # An AMX machine (issue 21): a vector and a matrix bf16 ceiling at the same threads, and two widths of one
    # precision and ISA. The new run's matrix engine is 20% slower; its vector rows are unchanged. Keyed by
    # precision and threads only, the matrix row would be matched with the vector one.
    def amx_ceilings(matrix_scale):
        return [
            {"precision": "fp32", "isa": "avx512", "vector_bits": 512, "threads": 2, "value": 400e9, "unit": "FLOP/s"},
            {"precision": "bf16", "isa": "avx512", "engine": "vector", "vector_bits": 256, "threads": 2, "value": 300e9,
             "unit": "FLOP/s"},
            {"precision": "bf16", "isa": "avx512", "engine": "vector", "vector_bits": 512, "threads": 2, "value": 600e9,
             "unit": "FLOP/s"},
            {"precision": "bf16", "isa": "amx", "engine": "matrix", "vector_bits": 8192, "threads": 2,
             "value": 3.2e12 * matrix_scale, "unit": "FLOP/s"}]
    for name, scale in (("amx_base.json", 1.0), ("amx_matrix_slow.json", 0.8)):
        doc = roofline_doc("nnnn111" if scale == 1.0 else "nnnn222", "2024-05-18T10:00:00+00:00")
        doc["context"]["machine"] = dict(MACHINE, isa=dict(MACHINE["isa"], amx_tile=True))
        doc["roofline"]["compute_ceilings"] = amx_ceilings(scale)
        write(name, doc)

    # Bad input: another schema version, no benchmark in common, neither kind of file, a truncated file.
    doc = roofline_doc("iiii111", "2024-05-11T10:00:00+00:00")
    doc["context"]["schema_version"] = 2
    doc["roofline"]["schema_version"] = 2
    write("schema2.json", doc)
    doc = roofline_doc("jjjj222", "2024-05-12T10:00:00+00:00")
    for e in doc["benchmarks"]:
        e["name"] = "other/" + e["name"]
    write("disjoint.json", doc)
    write("neither.json", {"name": "not results", "values": [1, 2, 3]})
    with open(os.path.join(HERE, "truncated.json"), "w") as f:
        f.write(json.dumps(roofline_doc("kkkk333", "2024-05-13T10:00:00+00:00"), indent=1)[:2000])


if __name__ == "__main__":
    main()
