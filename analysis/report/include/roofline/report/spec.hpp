// Specs of advertised figures: the datasheet numbers of a CPU or accelerator (peak per precision, memory
// bandwidth, clock) that a report sets beside what the run measured. The format is documented in
// analysis/specs/README.md; every value is a string with its unit, parsed with parse_quantity.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline {

struct SpecPeak {
  std::string precision;  // fp64, fp32, tf32, bf16, fp16, fp8, int8, int4
  double value = 0.0;     // FLOP/s or OP/s, as stated (with sparsity when `sparse`)
  std::string stated;     // the text as written, e.g. "3958 TOPS"
  bool sparse = false;    // the figure assumes 2:4 structured sparsity (dense is half)
  std::string isa;        // the instruction set the figure needs, e.g. "amx_tile" ("" when not said)
  std::string engine;     // "vector" or "matrix": the ceiling it is set beside ("": matrix for an AMX isa, else the best)
  double clock_hz = 0.0;  // the clock this figure assumes when it is not the spec's (0: the spec's clock)
};

struct Spec {
  std::string file;          // where it was read from, for messages
  std::string name;          // e.g. "NVIDIA H100 SXM5"
  std::string kind;          // "cpu" or "accelerator"
  std::string source;        // where the figures come from (datasheet, URL)
  int cores = 0;             // cpu: how many cores the figures cover (scaled to the threads measured)
  std::string covers;        // what the figures cover, in words ("one socket, 64 cores", "one GPU")
  double clock_hz = 0.0;     // the clock the peaks assume (0: not stated)
  std::string clock_stated;
  double memory_bandwidth = 0.0;  // B/s (0: not stated)
  std::string bandwidth_stated;
  std::vector<SpecPeak> peaks;
  // Which CPUs the spec describes (empty/negative: not said); used only to say "spec is for another CPU".
  std::string cpu_vendor;
  int cpu_family = -1;
  std::vector<int> cpu_model_numbers;
  std::vector<std::string> notes;
};

// Reads and validates a spec file: parse_spec of its text, `file` the path. Throws InputError (one line naming the
// file and the problem) for missing files, bad JSON, unknown keys, unknown units, negative or zero values.
Spec load_spec(const std::filesystem::path& path);

// The one reader of a spec's JSON: validates it and returns it typed (everything after it takes the Spec).
// `file` names it in messages. Throws InputError like load_spec.
Spec parse_spec(const nlohmann::json& doc, const std::string& file);

}  // namespace roofline
