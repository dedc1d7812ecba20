// Deriving the `roofline` section of a results file from its benchmarks and context: memory ceilings per
// level, compute ceilings per precision, ridge points, and placements of GEMV/GEMM points. Only reads the
// results document, so a section can be re-derived from any results file long after the run.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/results_document.hpp"
#include "roofline/common/roof_probe.hpp"  // kRoofKernel

namespace roofline {

// The whole section (schema in results/README.md): every target's with entries by the one per-target derivation
// (target_roofline.hpp), the host CPU's first; every entry carries `target`. It reads the typed document and gives
// the typed section (issue 61): the records' writer (to_json) writes it where a file is written.
RooflineSection derive_roofline(const ResultsDocument& results);

// Ridge point per (precision, engine, threads) x memory level: peak / that level's roof bandwidth, from the typed
// section derived so far (its compute and memory ceilings).
std::vector<RidgePointRecord> derive_ridge_points(const RooflineSection& section);

// The counting conventions (topic -> sentence), stated in every results file and report.
std::map<std::string, std::string> counting_conventions();

// The roofs of the typed section (issue 61; their JSON twins are deleted): what the derivations after the memory and
// compute ceilings (ridge points, placements, dequant), the report and llm's read_roofs read.
// The memory roof of `level` at `threads` threads: the kRoofKernel's ceiling, or that kernel's ceiling on another page
// size (page_size_ceilings) where that one measured more (at DRAM, 4 KiB pages), else the best ceiling of the level
// when the roof kernel was not measured: one of the two pointers, or neither. A DRAM roof's page_size() says which
// page size it was measured on.
struct MemoryRoof {
  const MemoryCeilingRecord* ceiling = nullptr;
  const PageSizeCeilingRecord* pages = nullptr;
  [[nodiscard]] bool found() const { return ceiling != nullptr || pages != nullptr; }
  [[nodiscard]] double value() const;
  [[nodiscard]] double min_bytes() const;
  [[nodiscard]] double max_bytes() const;
  [[nodiscard]] std::string kernel() const;
  [[nodiscard]] std::optional<std::string> page_size() const;  // its `pages`, where it names them
};
MemoryRoof memory_roof(const RooflineSection& section, const std::string& level, int threads);
// The best compute ceiling of `precision` at `threads` threads on `engine` ("vector" or "matrix"; empty: either), or
// nullptr. Ceilings without an engine field (older files) are vector.
const ComputeCeilingRecord* compute_roof(const RooflineSection& section, const std::string& precision, int threads,
                                         const std::string& engine = "");
// The levels the section's memory ceilings name: the CPU's (L1..DRAM) in that order, then any other target's names in
// the order its ceilings list them (innermost first).
std::vector<std::string> memory_level_names(const RooflineSection& section);
// A typed ceiling's or entry's engine (its `engine` field or label), "vector" when it names none; throws InputError
// "<where>: engine <what it holds> is not 'vector' or 'matrix'" for anything else.
std::string engine_field(const ComputeCeilingRecord& ceiling, const std::string& where);
std::string engine_field(const EntryLabels& labels, const std::string& where);

// Appends a note (a sentence for people) to the section's notes, once.
void add_note(RooflineSection& section, const std::string& note);

}  // namespace roofline
