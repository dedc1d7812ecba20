// The roofline of a target other than the host CPU (issue 21), derived from its own benchmark entries and
// facts alone, target-blind: its memory levels are the names its facts list (innermost first, the last its
// main memory), found on its bandwidth curve by the same plateau detection as the CPU's; its compute
// ceilings come from the CPU's derivation (compute_ceilings.hpp), the theoretical peak from the model its facts
// name; GEMM points are placed on its own ceilings by the placement every target's points get (placement.cpp);
// transfers and kernel launches are roofs of their own. See target_roofline.hpp; its key figures are every
// target's, key_figures.cpp's.
#include "roofline/model/target_roofline.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "roofline/model/compute_ceilings.hpp"
#include "roofline/model/core_kind_ceilings.hpp"
#include "roofline/model/dequant_ceilings.hpp"
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/model.hpp"
#include "roofline/model/placement.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"
#include "roofline/common/statistics.hpp"
#include "roofline/common/units.hpp"

namespace roofline {

namespace {

// The target's transfers and kernel launches: the best and median of its measured repetitions.
void add_transfer_and_latency(const ResultsDocument& doc, const RecordedTarget& t, RooflineSection& out) {
  const auto label = [](const BenchmarkEntry& e, std::optional<std::string> EntryLabels::*member) {
    return e.labels && (*e.labels).*member ? *((*e.labels).*member) : std::string("?");
  };
  std::map<std::pair<std::string, std::string>, std::pair<std::vector<double>, std::string>> transfers;
  for (const BenchmarkEntry* e : benchmark_entries(doc, "transfer")) {
    const double v = fields::amount(ROOFLINE_FIELD(*e, bytes_per_second));
    if (v <= 0.0) continue;
    auto& row = transfers[{label(*e, &EntryLabels::direction), label(*e, &EntryLabels::memory)}];
    if (row.first.empty() || v > max_of(row.first)) row.second = e->run_name ? *e->run_name : e->name.value_or("");
    row.first.push_back(v);
  }
  for (const auto& [key, row] : transfers) {
    TransferCeilingRecord& c = out.transfer_ceilings ? out.transfer_ceilings->emplace_back()
                                                     : out.transfer_ceilings.emplace().emplace_back();
    c.target = t.id;
    c.direction = key.first;
    c.memory = key.second;
    c.value = max_of(row.first);
    c.median = median(row.first);
    c.unit = "B/s";
    c.benchmark = row.second;
  }
  std::vector<double> launches;
  for (const BenchmarkEntry* e : benchmark_entries(doc, "latency")) {
    if (const double s = fields::amount(ROOFLINE_FIELD(*e, seconds)); s > 0.0) launches.push_back(s);
  }
  if (!launches.empty()) {
    LaunchLatencyRecord& l = out.launch_latency.emplace().emplace_back();
    l.target = t.id;
    l.seconds = *std::min_element(launches.begin(), launches.end());
    l.median = median(launches);
    l.repetitions = static_cast<long long>(launches.size());
  }
}

// A part's rows appended to the target's, each stamped with the target.
template <class Row>
void add_rows(const RecordedTarget& t, const std::optional<std::vector<Row>>& from, std::optional<std::vector<Row>>& to) {
  if (!from) return;
  if (!to) to.emplace();
  for (Row row : *from) {
    row.target = t.id;
    to->push_back(std::move(row));
  }
}

// A part of the derivation (memory_ceilings.cpp's, compute_ceilings.cpp's, placement.cpp's, dequant_ceilings.cpp's)
// added to this target's part of the section: each row of its tables stamped with the target, each note prefixed
// with it (target_prefix: the CPU's notes stay as they were, a device's start with its id) unless the part's notes
// name it already (`notes_named`); the matrix engine's summary kept as it is, the first part's.
void add_part(const RecordedTarget& t, const RooflineSection& part, RooflineSection& out, bool notes_named = false) {
  const std::string prefix = target_prefix(t.id).empty() || notes_named ? std::string() : t.id + ": ";
  for_each_table([&](auto table) { add_rows(t, part.*table, out.*table); });
  for (const std::string& n : fields::records_of(part.notes)) add_note(out, prefix + n);
  if (!out.matrix_engine) out.matrix_engine = part.matrix_engine;
}

}  // namespace

RooflineSection derive_target_roofline(const ResultsDocument& results, const RecordedTarget& target) {
  // transfer_ceilings and launch_latency where it measured them (a target with a host link).
  RooflineSection out;
  out.compute_ceilings.emplace();
  out.memory_ceilings.emplace();
  out.memory_levels.emplace();
  out.ridge_points.emplace();
  out.placements.emplace();
  out.notes.emplace();
  if (!has_entries(results, target.id)) return out;
  const ResultsDocument part = target_document(results, target.id);
  if (target.memory_levels.empty()) {
    add_note(out, fmt::format("{}: its facts list no memory levels, so its bandwidth has no level", target.id));
  }
  add_part(target, derive_memory_ceilings(part, target), out);  // the one derivation every target's levels go through
  // The one compute derivation every target's go through; its notes name a device where they speak of one.
  add_part(target, derive_compute_ceilings(part, target), out, true);
  add_part(target, derive_dequant_ceilings(part, target, out), out);  // where it ran dequant-dot kernels
  // A hybrid CPU's figures per core kind (its entries of the suites *_kind, which nothing above reads), apart.
  add_part(target, derive_core_kind_ceilings(part, target), out, true);
  for (RidgePointRecord& r : derive_ridge_points(out)) {
    r.target = target.id;
    out.ridge_points->push_back(std::move(r));
  }
  add_transfer_and_latency(part, target, out);  // before placements: their offload roof is a transfer ceiling
  add_part(target, derive_placements(part, target, out), out);  // the one placement every target's points get
  return out;
}

}  // namespace roofline
