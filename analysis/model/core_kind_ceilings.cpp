// A hybrid CPU's figures per core kind: see core_kind_ceilings.hpp. Nothing here measures or adjusts: each kind's
// entries are relabelled to the suites the derivations read, and their rows copied out with the kind named.
#include "roofline/model/core_kind_ceilings.hpp"

#include <algorithm>
#include <string_view>

#include "roofline/model/compute_ceilings.hpp"
#include "roofline/model/memory_ceilings.hpp"
#include "roofline/model/roofline_section.hpp"

namespace roofline {
namespace {

// A kind's suites and the suites the derivations read them as.
constexpr std::pair<std::string_view, std::string_view> kKindSuites[] = {
    {"clock_kind", "clock"}, {"compute_kind", "compute"}, {"bandwidth_kind", "bandwidth"}};

std::string kind_of(const BenchmarkEntry& e) { return e.labels ? e.labels->core_kind.value_or("") : std::string(); }

// `part` with only `kind`'s entries, each under the suite the derivations read.
ResultsDocument kind_document(const ResultsDocument& part, const std::string& kind) {
  ResultsDocument doc;
  doc.context = part.context;
  doc.extra = part.extra;
  for (const BenchmarkEntry& e : part.benchmarks) {
    if (kind_of(e) != kind) continue;
    BenchmarkEntry copy = e;
    for (const auto& [from, to] : kKindSuites) {
      if (copy.labels->suite.value_or("") == from) copy.labels->suite = std::string(to);
    }
    doc.benchmarks.push_back(std::move(copy));
  }
  return doc;
}

}  // namespace

std::vector<std::string> measured_core_kinds(const ResultsDocument& part) {
  std::vector<std::string> kinds;
  for (const BenchmarkEntry& e : part.benchmarks) {
    const std::string k = kind_of(e);
    if (!k.empty() && std::find(kinds.begin(), kinds.end(), k) == kinds.end()) kinds.push_back(k);
  }
  return kinds;
}

RooflineSection derive_core_kind_ceilings(const ResultsDocument& part, const RecordedTarget& target) {
  RooflineSection out;
  const std::vector<std::string> kinds = measured_core_kinds(part);
  if (kinds.empty()) return out;
  auto& rows = out.core_kind_ceilings.emplace();
  for (const std::string& kind : kinds) {
    const ResultsDocument doc = kind_document(part, kind);
    const RooflineSection compute = derive_compute_ceilings(doc, target);
    for (const ComputeCeilingRecord& c : compute.compute_ceilings.value_or(std::vector<ComputeCeilingRecord>{})) {
      CoreKindCeilingRecord& r = rows.emplace_back();
      r.integer_numbers = c.integer_numbers;  // the same names, written as the derivation wrote them
      r.core_kind = kind;
      r.figure = "compute";
      r.precision = c.precision;
      r.isa = c.isa;
      r.engine = c.engine;
      r.vector_bits = c.vector_bits;
      r.threads = c.threads;
      r.value = c.value;
      r.median = c.median;
      r.unit = c.unit;
      r.theoretical = c.theoretical;
      r.percent = c.percent;
      r.clock_hz = c.clock_hz;
      r.benchmark = c.benchmark;
    }
    const RooflineSection memory = derive_memory_ceilings(doc, target);
    for (const MemoryCeilingRecord& m : memory.memory_ceilings.value_or(std::vector<MemoryCeilingRecord>{})) {
      CoreKindCeilingRecord& r = rows.emplace_back();
      r.integer_numbers = m.integer_numbers;
      r.core_kind = kind;
      r.figure = "memory";
      r.level = m.level;
      r.kernel = m.kernel;
      r.threads = m.threads;
      r.value = m.value;
      r.median = m.median;
      r.unit = m.unit;
      r.min_bytes = m.min_bytes;
      r.max_bytes = m.max_bytes;
      r.benchmark = m.benchmark;
    }
    for (const RooflineSection* p : {&compute, &memory}) {
      for (const std::string& n : p->notes.value_or(std::vector<std::string>{})) add_note(out, "core kind " + kind + ": " + n);
    }
  }
  return out;
}

}  // namespace roofline
