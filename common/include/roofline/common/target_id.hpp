// A target's id and the prefix it puts before its names (issue 61, step 5), one definition for the measuring side
// and the analysis: the host CPU's id, `kCpuTargetId`, which is also what an entry or a file without target fields
// means (results/README.md, "Targets"); and `target_prefix`, the one rule of what goes before a target's benchmark
// names, suite contexts and plan keys as a run writes them (bench: Target::benchmark_prefix, RunPlan's suite keys),
// and before its key-figure ids and compare rows as the analysis reads them back: "" for the CPU (its names stay as
// in every file since the first), "<id>/" for every other target.
#pragma once

#include <string>
#include <string_view>

namespace roofline {

inline constexpr const char* kCpuTargetId = "cpu";
// The API through which the host CPU is reached: ids of other targets are "<api>:<index>", the CPU's is kCpuTargetId.
inline constexpr const char* kCpuApi = "native";

inline std::string target_prefix(std::string_view target) {
  return target == kCpuTargetId ? std::string() : std::string(target) + "/";
}

}  // namespace roofline
