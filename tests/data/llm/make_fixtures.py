#!/usr/bin/env python3
"""Writes the hand-made results files of the llm tests: round ceilings so that expected times can be
computed by hand (bf16 1 TFLOP/s, fp32 500 GFLOP/s, int8 2 TOP/s, DRAM read 50 GB/s at 2 threads), two
files that lack a ceiling the model needs, and bad model configs. Run from this folder; review the diff in the commit.
(tiny_moe.json, small_moe.json, mla.json and unknown_field.json are written by hand, not by this script.)"""
import copy
import json

GIB = 1 << 30


def compute(precision, threads, value):
    return {"precision": precision, "isa": "avx512", "engine": "vector", "threads": threads, "value": value,
            "unit": "OP/s" if precision == "int8" else "FLOP/s", "theoretical": value}


def memory(level, threads, value, lo, hi):
    return {"level": level, "kernel": "read", "threads": threads, "value": value, "unit": "B/s",
            "min_bytes": lo, "max_bytes": hi}


base = {
    "context": {"schema_version": 1, "host_name": "llm-test-host", "date": "2026-01-01T00:00:00",
                "machine": {"hostname": "llm-test-host", "cpu_model": "Test CPU", "cores": 2, "pus": 2,
                            "memory_total_bytes": 32 * GIB}},
    "benchmarks": [],
    "roofline": {
        "schema_version": 1,
        "compute_ceilings": [compute("fp32", 2, 5e11), compute("bf16", 2, 1e12), compute("int8", 2, 2e12),
                             compute("fp32", 1, 2.5e11), compute("bf16", 1, 5e11), compute("int8", 1, 1e12)],
        "memory_ceilings": [memory("L1", 2, 1e12, 16384, 65536), memory("L2", 2, 4e11, 131072, 2 << 20),
                            memory("L3", 2, 2e11, 4 << 20, 32 << 20), memory("DRAM", 2, 5e10, 64 << 20, GIB),
                            memory("DRAM", 1, 3e10, 64 << 20, GIB)],
        "ridge_points": [],
        "placements": [{"kernel": "gemm", "backend": "onednn", "precision": "bf16", "batch": 256, "threads": 2,
                        "m": 8192, "k": 8192, "ai": 234.0, "value": 8e11, "bound": "compute",
                        "roof": {"engine": "vector", "level": "DRAM"}},
                       {"kernel": "gemv", "backend": "onednn", "precision": "bf16", "batch": 1, "threads": 2,
                        "m": 8192, "k": 8192, "ai": 1.0, "value": 4e10, "bound": "memory",
                        "roof": {"engine": "vector", "level": "DRAM"}}],
        "notes": [],
    },
}

with open("results_2t.json", "w") as f:
    json.dump(base, f, indent=1)

no_bf16 = copy.deepcopy(base)
no_bf16["roofline"]["compute_ceilings"] = [c for c in no_bf16["roofline"]["compute_ceilings"] if c["precision"] != "bf16"]
with open("results_no_bf16.json", "w") as f:
    json.dump(no_bf16, f, indent=1)

no_dram = copy.deepcopy(base)
no_dram["roofline"]["memory_ceilings"] = [m for m in no_dram["roofline"]["memory_ceilings"] if m["level"] != "DRAM"]
with open("results_no_dram.json", "w") as f:
    json.dump(no_dram, f, indent=1)

# Bad configs, each one field away from tiny.json.
with open("tiny.json") as f:
    tiny = json.load(f)


def bad(name, **changes):
    doc = dict(tiny)
    for key, value in changes.items():
        if value is None:
            doc.pop(key)
        else:
            doc[key] = value
    with open(name, "w") as out:
        json.dump(doc, out, indent=1)


bad("missing_field.json", intermediate_size=None)
bad("heads_not_dividing.json", num_attention_heads=7, num_key_value_heads=7)
bad("kv_not_dividing.json", num_key_value_heads=3)
bad("zero_layers.json", num_hidden_layers=0)
bad("negative_vocab.json", vocab_size=-5)
bad("string_size.json", hidden_size="256")
with open("not_json.json", "w") as f:
    f.write('{"hidden_size": 4096,')
