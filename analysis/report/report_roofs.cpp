// The report's typed roofs: see report_roofs.hpp.
#include "report_roofs.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "roofline/model/roofline_section.hpp"  // kRoofKernel
#include "roofline/common/errors.hpp"
#include "roofline/common/vocabulary.hpp"
#include "typed_fields.hpp"

namespace roofline::report_detail {
using nlohmann::json;

namespace {

template <class R>
bool at(const R& c, const std::string& level, int threads) {
  return c.level.value_or("") == level && c.threads.value_or(0) == threads;
}

// A ceiling's engine, "vector" when absent; anything else is a broken file (roofline_section.hpp's engine_field).
std::string engine_of(const ComputeCeilingRecord& c) {
  if (!written(ROOFLINE_FIELD(c, engine))) return std::string(to_string(Engine::vector));
  if (!c.engine || !parse_engine(*c.engine)) {
    const auto it = c.extra.find("engine");
    throw InputError(fmt::format("roofline.compute_ceilings: engine {} is not 'vector' or 'matrix'",
                                 c.engine ? json(*c.engine).dump() : it->dump()));
  }
  return *c.engine;
}

}  // namespace

double MemoryRoof::value() const {
  return ceiling != nullptr ? ceiling->value.value_or(0.0) : pages != nullptr ? pages->value.value_or(0.0) : 0.0;
}
double MemoryRoof::min_bytes() const {
  if (ceiling != nullptr) return amount(ROOFLINE_FIELD(*ceiling, min_bytes));
  return pages != nullptr ? amount(ROOFLINE_FIELD(*pages, min_bytes)) : 0.0;
}
double MemoryRoof::max_bytes() const {
  if (ceiling != nullptr) return amount(ROOFLINE_FIELD(*ceiling, max_bytes));
  return pages != nullptr ? amount(ROOFLINE_FIELD(*pages, max_bytes)) : 0.0;
}

MemoryRoof memory_roof(const RooflineSection& section, const std::string& level, int threads) {
  if (!section.memory_ceilings) return {};
  const MemoryCeilingRecord* best = nullptr;
  const MemoryCeilingRecord* roof = nullptr;
  for (const MemoryCeilingRecord& c : *section.memory_ceilings) {
    if (!at(c, level, threads)) continue;
    if (c.kernel.value_or("") == kRoofKernel && roof == nullptr) roof = &c;
    if (best == nullptr || c.value.value_or(0.0) > best->value.value_or(0.0)) best = &c;
  }
  if (roof == nullptr) return {best, nullptr};
  // The same kernel on another page size (4 KiB at DRAM) is the roof where it measured more.
  MemoryRoof out{roof, nullptr};
  if (!section.page_size_ceilings) return out;
  for (const PageSizeCeilingRecord& c : *section.page_size_ceilings) {
    if (!at(c, level, threads) || c.kernel.value_or("") != kRoofKernel) continue;
    if (c.value.value_or(0.0) > out.value()) out = {nullptr, &c};
  }
  return out;
}

const ComputeCeilingRecord* compute_roof(const RooflineSection& section, const std::string& precision, int threads,
                                         const std::string& engine) {
  if (!section.compute_ceilings) return nullptr;
  const ComputeCeilingRecord* best = nullptr;
  for (const ComputeCeilingRecord& c : *section.compute_ceilings) {
    if (c.precision.value_or("") != precision || c.threads.value_or(0) != threads) continue;
    if (!engine.empty() && engine_of(c) != engine) continue;
    if (best == nullptr || c.value.value_or(0.0) > best->value.value_or(0.0)) best = &c;
  }
  return best;
}

std::vector<std::string> memory_level_names(const RooflineSection& section) {
  if (!section.memory_ceilings) return {};
  std::vector<std::string> out;
  for (const Level l : all_levels()) {
    const std::string n(to_string(l));
    const auto& cs = *section.memory_ceilings;
    if (std::any_of(cs.begin(), cs.end(), [&](const MemoryCeilingRecord& c) { return c.level.value_or("") == n; })) {
      out.push_back(n);
    }
  }
  for (const MemoryCeilingRecord& c : *section.memory_ceilings) {
    const std::string n = c.level.value_or("");
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

const RooflineSection& section_of(const ResultsDocument& results) {
  static const RooflineSection kEmpty;
  return results.roofline ? *results.roofline : kEmpty;
}

const json& section_array(const ResultsDocument& results, const char* key) {
  static const json kEmpty = json::array();
  const json& extra = section_of(results).extra;
  const auto it = extra.find(key);
  return it != extra.end() && it->is_array() ? *it : kEmpty;
}

}  // namespace roofline::report_detail
