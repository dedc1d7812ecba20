// The roofs the report draws and tables mark, read from the typed roofline section: roofline_section.hpp's
// memory_roof, compute_roof and memory_level_names over the typed records, by the same rules (the JSON ones stay
// the derivation's, which still builds the section as JSON). Private to roofline::report.
#pragma once

#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"

namespace roofline::report_detail {

// A level's memory roof: its roof kernel's ceiling, or that kernel's ceiling on another page size where that one
// measured more (at DRAM, 4 KiB pages), else the best ceiling of the level; one of the two pointers, or neither.
struct MemoryRoof {
  const MemoryCeilingRecord* ceiling = nullptr;
  const PageSizeCeilingRecord* pages = nullptr;
  [[nodiscard]] bool found() const { return ceiling != nullptr || pages != nullptr; }
  [[nodiscard]] double value() const;
  [[nodiscard]] double min_bytes() const;
  [[nodiscard]] double max_bytes() const;
};
MemoryRoof memory_roof(const RooflineSection& section, const std::string& level, int threads);

// The best compute ceiling of `precision` at `threads` threads on `engine` ("vector", "matrix"; empty: either),
// or nullptr. A ceiling without an engine is a vector one (files from before engines).
const ComputeCeilingRecord* compute_roof(const RooflineSection& section, const std::string& precision, int threads,
                                         const std::string& engine = "");

// The levels of the memory ceilings: L1, L2, L3, DRAM first (those present), then any other in file order.
std::vector<std::string> memory_level_names(const RooflineSection& section);

// The section of a document, or an empty one (plain Google Benchmark JSON has none).
const RooflineSection& section_of(const ResultsDocument& results);

// An array the typed model keeps in the section's `extra` (dequant_table, memory_levels, crossovers,
// best_backends, roof_violations, ...: JSON until the model types them), or an empty array.
const nlohmann::json& section_array(const ResultsDocument& results, const char* key);

}  // namespace roofline::report_detail
