// The roof of the moment (issue 33): what a memory-bound GEMV/GEMM point is judged against beside the run's
// roof. A target's runner takes a short read probe of the level the point's operands sit in right before
// and right after the point's repetitions and stores both in each of the point's entries under "roof_now"
// (bench: SpecBracket, the CPU's roof_probe.hpp; any target can do the same: this reads the entry, never
// the target). The analysis places the point against both:
//   roof_now.bandwidth   = mean of the two probes' best samples (B/s, the probe's own kernel: read)
//   roof_now.attainable  = min(compute ceiling, roof_now.bandwidth x AI)
//   roof_now.efficiency  = value / roof_now.attainable   ("% of roof now")
//   roof_now.spread      = |after / before - 1|: how much memory moved while the point ran
//   roof_now.noise       = the larger of the two probes' own noise (best sample / next best - 1)
//   roof_now.moved       = spread > max(kRoofNowMovedFloor, noise): "memory moved while measuring"
//   roof_now.roof_ratio  = roof_now.bandwidth / the run's roof of that level (how far the memory state of
//                          the moment is from the one the roof was measured in)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/results_document.hpp"
#include "roofline/common/roof_probe.hpp"

namespace roofline {

// Two probes further apart than this (and than their own noise) say the memory moved while measuring.
inline constexpr double kRoofNowMovedFloor = 0.05;

// One read probe's record and its writer: roofline/common/roof_probe.hpp; its reader, over the typed probe: below.

struct RoofProbeReading {
  double bytes_per_second = 0.0;  // the best sample
  double noise = 0.0;             // best / next best sample - 1 (0 with one sample)
  double working_set_bytes = 0.0;
};

struct RoofNow {
  RoofProbeReading before, after;
  std::string kernel;  // the probe's kernel ("read")
  [[nodiscard]] double bandwidth() const { return 0.5 * (before.bytes_per_second + after.bytes_per_second); }
  [[nodiscard]] double spread() const;
  [[nodiscard]] double noise() const;
  [[nodiscard]] bool moved() const;
};

// A typed entry's "roof_now" (nullopt when it has none, or when a probe is missing: a failed probe's entry says
// so in its "error"), its probes read by their one reader, read_roof_probe. Throws InputError when the field has the
// wrong type (what the lenient reader kept in `extra`) or a value is not a positive number.
std::optional<RoofNow> read_roof_now(const BenchmarkEntry& entry);
// The same of an entry's JSON, for the schema's check of a file's entries before the typed read (results_schema.cpp):
// its roof_now read into the typed entry as the records' reader reads it, then the above.
std::optional<RoofNow> read_roof_now(const nlohmann::json& entry);

// One probe of a typed entry's roof_now (issue 61: the probes' one reader, over the typed probe; the writer and the
// record are roofline/common/roof_probe.hpp's). Throws InputError "<where>: ..." naming the first field that is not a
// probe's, or is missing or mistyped (kept in the probe's `extra` by the lenient reader).
RoofProbeRecord read_roof_probe(const RoofProbeFields& probe, const std::string& where);

// The placement's "roof_now" record (fields above), given the point's value, AI, compute ceiling (0: none)
// and the run's roof bandwidth of the level it was placed against (0: none).
PlacementRoofNow roof_now_placement(const RoofNow& r, double value, double ai, double compute_ceiling, double run_roof);

// The run's one note on its placements' roof-of-the-moment probes: how many were probed, how far the probes were
// from the run's roof, how many saw the memory move ("" when no placement has probes).
std::string roof_now_note(const std::vector<PlacementRecord>& placements);

}  // namespace roofline
