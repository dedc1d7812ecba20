// Assembles the roofline section from the parts each concern derives: see roofline_section.hpp.
#include "roofline/model/roofline_section.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "roofline/model/compute_ceilings.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/model/dequant_ceilings.hpp"
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/model.hpp"
#include "roofline/model/placement.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/target_roofline.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {
using nlohmann::json;

std::map<std::string, std::string> counting_conventions() {
  return {
      {"flop", "An FMA counts 2 FLOP. GEMM C(MxN) = A(MxK) B(KxN) counts 2*M*N*K FLOP."},
      {"int_ops", "Integer dot products count 2 OP per multiply-add: vpdpbusd = 4 multiply-adds per 32-bit lane = 8 OP/lane."},
      {"bf16", "vdpbf16ps = 2 multiply-adds per 32-bit lane = 4 FLOP/lane."},
      {"amx", "AMX on full tiles: one tdpbf16ps (or tdpfp16ps) = 16x16x32 multiply-adds = 16384 FLOP; one tdpbssd/tdpbusd = 16x16x64 = 32768 OP. Matrix-engine theoretical = threads x measured clock x 1024 FLOP (bf16, fp16) or 2048 OP (int8) per cycle per core."},
      {"placement", "A point is placed against the roof of what ran: the matrix engine's ceiling when its implementation says amx (the vector ceiling, flagged, when the run measured no matrix ceiling), and the memory roof of the smallest measured level its operands fit (DRAM otherwise). A point above 110% of its attainable is flagged: a ceiling is missing or a count is wrong."},
      {"bytes", "STREAM convention: the bytes the kernel names (copy 2 words/element, triad 3), used for roofs; beside it (bytes_per_second_write_allocate, value_write_allocate) the traffic with write-allocate: each cached store also reads its line (copy 3, triad 4, write 2); the _nt variants avoid it and count the same in both."},
      {"gemm_bytes", "GEMV/GEMM arithmetic intensity uses compulsory traffic: every input read once, the output written once."},
      {"ceilings", "A ceiling is the best (max) of the repetitions; comparisons use medians and their spread."},
      {"memory_roof", std::string("A level's memory roof (ridge points, placements) is its '") + kRoofKernel +
                          "' kernel ceiling (at DRAM, the better of its 2 MiB- and 4 KiB-page ceilings: the roof's pages says which)."},
      {"units", "Values in base units: FLOP/s, OP/s, B/s, bytes, FLOP/byte."},
  };
}

namespace {

template <class R>
bool at(const R& c, const std::string& level, int threads) {
  return c.level.value_or("") == level && c.threads.value_or(0) == threads;
}

}  // namespace

double MemoryRoof::value() const {
  return ceiling != nullptr ? ceiling->value.value_or(0.0) : pages != nullptr ? pages->value.value_or(0.0) : 0.0;
}
double MemoryRoof::min_bytes() const {
  if (ceiling != nullptr) return fields::amount(ROOFLINE_FIELD(*ceiling, min_bytes));
  return pages != nullptr ? fields::amount(ROOFLINE_FIELD(*pages, min_bytes)) : 0.0;
}
double MemoryRoof::max_bytes() const {
  if (ceiling != nullptr) return fields::amount(ROOFLINE_FIELD(*ceiling, max_bytes));
  return pages != nullptr ? fields::amount(ROOFLINE_FIELD(*pages, max_bytes)) : 0.0;
}
std::string MemoryRoof::kernel() const {
  return ceiling != nullptr ? ceiling->kernel.value_or("") : pages != nullptr ? pages->kernel.value_or("") : "";
}
std::optional<std::string> MemoryRoof::page_size() const {
  return ceiling != nullptr ? ceiling->pages : pages != nullptr ? pages->pages : std::nullopt;
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

namespace {

// A record's `engine`: the typed member, or what the file wrote there in another kind (kept in `extra`), refused.
template <class R>
std::string engine_of(const R& c, const std::string& where) {
  if (!fields::written(ROOFLINE_FIELD(c, engine))) return std::string(to_string(Engine::vector));
  if (!c.engine || !parse_engine(*c.engine)) {
    const auto it = c.extra.find("engine");
    throw InputError(fmt::format("{}: engine {} is not 'vector' or 'matrix'", where,
                                 c.engine ? json(*c.engine).dump() : it->dump()));
  }
  return *c.engine;
}

}  // namespace

std::string engine_field(const ComputeCeilingRecord& c, const std::string& where) { return engine_of(c, where); }
std::string engine_field(const EntryLabels& labels, const std::string& where) { return engine_of(labels, where); }

const ComputeCeilingRecord* compute_roof(const RooflineSection& section, const std::string& precision, int threads,
                                         const std::string& engine) {
  if (!section.compute_ceilings) return nullptr;
  const ComputeCeilingRecord* best = nullptr;
  for (const ComputeCeilingRecord& c : *section.compute_ceilings) {
    if (c.precision.value_or("") != precision || c.threads.value_or(0) != threads) continue;
    if (!engine.empty() && engine_field(c, "roofline.compute_ceilings") != engine) continue;
    if (best == nullptr || c.value.value_or(0.0) > best->value.value_or(0.0)) best = &c;
  }
  return best;
}

std::vector<std::string> memory_level_names(const RooflineSection& section) {
  if (!section.memory_ceilings) return {};
  std::vector<std::string> out;
  const auto& cs = *section.memory_ceilings;
  for (const Level l : all_levels()) {
    const std::string n(to_string(l));
    if (std::any_of(cs.begin(), cs.end(), [&](const MemoryCeilingRecord& c) { return c.level.value_or("") == n; })) {
      out.push_back(n);
    }
  }
  for (const MemoryCeilingRecord& c : cs) {
    const std::string n = c.level.value_or("");
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

namespace {

// The ridge points of one compute ceiling over every level's roof at its thread count.
void add_ridges(const RooflineSection& section, const ComputeCeilingRecord& c, const std::string& engine,
                const std::vector<std::string>& levels, std::vector<RidgePointRecord>& out) {
  const int threads = static_cast<int>(c.threads.value_or(0));
  for (const std::string& level : levels) {
    const MemoryRoof roof = memory_roof(section, level, threads);
    const double peak = c.value.value_or(0.0);
    const double bw = roof.value();
    if (!roof.found() || peak <= 0.0 || bw <= 0.0) continue;
    RidgePointRecord& r = out.emplace_back();
    r.precision = c.precision.value_or("");
    r.engine = engine;
    r.level = level;
    r.kernel = roof.kernel();
    r.ai = ridge_point(peak, bw);
    if (threads > 0) r.threads = threads;  // a device's ceilings name no thread count
    r.pages = roof.page_size();
  }
}

}  // namespace

std::vector<RidgePointRecord> derive_ridge_points(const RooflineSection& section) {
  std::vector<RidgePointRecord> out;
  if (!section.compute_ceilings || !section.memory_ceilings) return out;
  const std::vector<std::string> levels = memory_level_names(section);
  for (const ComputeCeilingRecord& c : *section.compute_ceilings) {
    const std::string engine = engine_field(c, "roofline.compute_ceilings");
    // One ridge per precision, engine and thread count: the best ISA's.
    if (compute_roof(section, c.precision.value_or(""), static_cast<int>(c.threads.value_or(0)), engine) != &c) continue;
    add_ridges(section, c, engine, levels, out);
  }
  return out;
}

namespace {

// Appends a part's rows to the section's, creating the array where the part has one (an empty one included).
template <class Row>
void append_rows(std::optional<std::vector<Row>>& to, const std::optional<std::vector<Row>>& from) {
  if (!from) return;
  if (!to) to.emplace();
  to->insert(to->end(), from->begin(), from->end());
}

// Appends a target's part to the section: its tables, its notes (once each) and its matrix engine's summary, where
// no target before it had one (the first target's, the CPU's).
void append(RooflineSection& section, const RooflineSection& part) {
  for_each_table([&](auto table) { append_rows(section.*table, part.*table); });
  for (const std::string& n : part.notes.value_or(std::vector<std::string>{})) add_note(section, n);
  if (!section.matrix_engine) section.matrix_engine = part.matrix_engine;
}

}  // namespace

void add_note(RooflineSection& section, const std::string& note) {
  if (!section.notes) section.notes.emplace();
  if (std::find(section.notes->begin(), section.notes->end(), note) == section.notes->end()) section.notes->push_back(note);
}

RooflineSection derive_roofline(const ResultsDocument& results) {
  RooflineSection section;
  section.schema_version = kSchemaVersion;
  section.conventions = counting_conventions();
  section.compute_ceilings.emplace();
  section.memory_ceilings.emplace();
  section.ridge_points.emplace();
  section.placements.emplace();
  section.notes.emplace();
  // Every benchmark and machine field read here was type-checked when the file was read
  // (check_input_fields): a type error past this point is our bug, not the file's.
  // One derivation for every target, the host CPU's first (results_targets.hpp: recorded_targets).
  for (const RecordedTarget& t : recorded_targets(results)) {
    if (has_entries(results, t.id)) append(section, derive_target_roofline(results, t));
  }
  return section;
}

}  // namespace roofline
