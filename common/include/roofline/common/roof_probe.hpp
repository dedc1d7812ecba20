// One read probe of the roof of the moment (issue 33) as it sits in a benchmark entry's roof_now.before/.after: its
// record, one writer (roof_probe_json, which the CPU target's RoofProbe calls) and one reader (read_roof_probe, since
// issue 61 over the typed probe the records read: analysis/model's roof_now.hpp), so that a field the harness adds is
// a field the analysis reads. Below both sides
// (issue 47: moved from analysis/model's roof_now.hpp), with the roof's kernel both name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline {

// The kernel whose ceiling serves as a level's memory roof for ridge points and placements, and the kernel of the
// roof-of-the-moment probes.
inline constexpr const char* kRoofKernel = "read";

// Fields of older files may be absent (all but bytes_per_second); an unknown one is refused.
struct RoofProbeRecord {
  std::string kernel = "read";
  int threads = 0;
  std::uint64_t working_set_bytes = 0;
  std::string pages;                // "2M" or "heap": how the probe's array was mapped
  int passes_per_sample = 0;
  std::vector<double> samples;      // bytes_per_second of each sample
  double bytes_per_second = 0.0;    // the best sample
  double seconds = 0.0;             // the probe's wall time, setup included
};
nlohmann::json roof_probe_json(const RoofProbeRecord& r);

}  // namespace roofline
