// Benchmark names (issue 47): the harness owns them. A target says what an entry is, as a BenchmarkKey, and
// benchmark_name() writes the name, so that a plan and the work it plans (built in different files) cannot disagree,
// and every target writes its fields in one order. The names are the identity `compare`, `history` and the run
// plan's hash use across files: this order is the one every name was already written in, and it must not change.
//
//   <suite>/<path...>/pages:P/width:W/bits:B/level:L/threads:T/m:M/n:N/k:K/batch:N/bytes:B/<tail...>
//
// e.g. "bandwidth/triad/pages:4K/threads:2/bytes:32768", "compute/fma_fp32_avx2/fp32/avx2/bits:256/threads:1",
// "gemm/eigen/fp32/threads:2/m:4096/k:4096/batch:8", "bandwidth/read/width:4/bytes:1048576",
// "gemm/cublaslt/fp16/m:8192/n:1/k:8192", "transfer/host_to_device/pinned/bytes:67108864".
// An absent field is left out. Two names put a field before this order, and keep it there as their results files
// have it: the llm suite's "kv:" and the DRAM GEMVs' "batch:" (dequant_gemv/q4_0/avx2/batch:1/threads:4); each is a
// `path` segment written by name_segment().
//
// Header-only: the CUDA probe (bench/targets/cuda/probe.cpp, scripts/device-check) builds the CUDA target's work
// with nvcc alone, without the harness library, and names its entries through this too (C++17 there).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace roofline {

struct BenchmarkKey {
  explicit BenchmarkKey(std::string suite_name, std::vector<std::string> path_segments = {})
      : suite(std::move(suite_name)), path(std::move(path_segments)) {}

  std::string suite;                 // "bandwidth", "compute", "gemm", "transfer", "latency", "llm", ...
  std::vector<std::string> path;     // plain segments: kernel or backend, precision or format, ISA, ...
  std::optional<std::string> pages;  // "4K": a CPU bandwidth run on 4 KiB pages
  std::optional<int> width;          // a device kernel's vector width
  std::optional<int> bits;           // a CPU compute kernel's vector bits
  std::optional<std::string> level;  // the memory level a working set was sized for: "L1"
  std::optional<int> threads;
  std::optional<std::int64_t> m, n, k, batch;  // a GEMM's shape; batch is its N where the name says "batch"
  std::optional<std::uint64_t> bytes;          // the working set or the bytes moved
  std::vector<std::string> tail;               // after every field: "setup"; the llm step "decode/batch:1/context:4096"
};

// "field:value", for a named segment outside the canonical order (in `path` or `tail`).
inline std::string name_segment(std::string_view field, std::string_view value) {
  std::string s(field);
  s += ':';
  s += value;
  return s;
}
inline std::string name_segment(std::string_view field, std::int64_t value) {
  return name_segment(field, std::to_string(value));
}

inline std::string benchmark_name(const BenchmarkKey& key) {
  std::string name = key.suite;
  const auto add = [&name](const std::string& segment) {
    name += '/';
    name += segment;
  };
  const auto add_field = [&add](std::string_view field, const auto& value) {
    if (!value) return;
    if constexpr (std::is_same_v<std::decay_t<decltype(*value)>, std::string>) {
      add(name_segment(field, *value));
    } else {
      add(name_segment(field, std::to_string(*value)));
    }
  };
  for (const std::string& segment : key.path) add(segment);
  add_field("pages", key.pages);
  add_field("width", key.width);
  add_field("bits", key.bits);
  add_field("level", key.level);
  add_field("threads", key.threads);
  add_field("m", key.m);
  add_field("n", key.n);
  add_field("k", key.k);
  add_field("batch", key.batch);
  add_field("bytes", key.bytes);
  for (const std::string& segment : key.tail) add(segment);
  return name;
}

// The names of the work every target with a host link and kernel launches runs alike (OpenCL's and CUDA's): a
// host-device transfer of `bytes` from `memory` ("pinned", "pageable") and the empty kernel's launch.
inline std::string transfer_benchmark_name(const std::string& direction, const std::string& memory, std::uint64_t bytes) {
  BenchmarkKey key("transfer", {direction, memory});
  key.bytes = bytes;
  return benchmark_name(key);
}
inline std::string latency_benchmark_name() { return benchmark_name(BenchmarkKey("latency", {"launch"})); }

}  // namespace roofline
