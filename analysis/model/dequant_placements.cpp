// Quantized GEMVs placed on their own roofline (issue 38): the compute suite's dequant_gemv entries (a format's
// best kernel over weights in main memory, the CPU's DRAM, at batch 1..16, one activation column after another as
// ggml's vec_dot path runs them) against main memory's roof x their arithmetic intensity and the format's
// dequant-dot roof (its ceiling at the thread count, as FLOP/s: 2 per weight; a per-column kernel redoes the unpacking for every column, so
// the roof is flat in the batch). `bound` says which roof is lower at the point: memory or dequant.
#include <algorithm>
#include <map>
#include <tuple>

#include "roofline/model/dequant_ceilings.hpp"
#include "dequant_placements.hpp"
#include "roofline/model/record_fields.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"

namespace roofline {

std::vector<DequantPlacementRecord> dequant_placements(const ResultsDocument& doc, const RecordedTarget& target,
                                                       const RooflineSection& section,
                                                       const std::vector<DequantCeilingRecord>& ceilings) {
  const std::string& main = target.main_memory();
  // (format, threads, batch) -> the best repetition's entry (its typed labels read as a reader of the file's JSON read
  // them: a number written in another kind truncated, record_fields.hpp)
  std::map<std::tuple<std::string, int, int>, const BenchmarkEntry*> best;
  const auto flops = [](const BenchmarkEntry& e) { return fields::amount(ROOFLINE_FIELD(e, flop_per_second)); };
  for (const BenchmarkEntry& e : doc.benchmarks) {
    if (e.run_type.value_or("iteration") != "iteration" || e.error_occurred.value_or(false)) continue;
    if (!e.labels || e.labels->suite.value_or("") != "dequant_gemv") continue;
    const EntryLabels& l = *e.labels;
    const auto key = std::make_tuple(l.format.value_or(""), static_cast<int>(fields::whole(ROOFLINE_FIELD(l, threads)).value_or(0)),
                                     static_cast<int>(fields::whole(ROOFLINE_FIELD(l, batch)).value_or(0)));
    if (std::get<1>(key) <= 0 || std::get<2>(key) <= 0) continue;
    const BenchmarkEntry*& slot = best[key];
    if (slot == nullptr || flops(e) > flops(*slot)) slot = &e;
  }
  std::vector<DequantPlacementRecord> out;
  for (const auto& [key, b] : best) {
    const auto& [format, threads, batch] = key;
    const BenchmarkEntry& e = *b;
    const EntryLabels& l = *e.labels;
    const double value = flops(e), ai = fields::amount(ROOFLINE_FIELD(e, arithmetic_intensity));
    const MemoryRoof main_roof = memory_roof(section, main, threads);
    const DequantCeilingRecord* dequant = dequant_roof(ceilings, format, threads);
    DequantPlacementRecord& p = out.emplace_back();
    p.kernel = "dequant_gemv";
    p.format = format;
    p.isa = l.isa.value_or("");
    p.batch = batch;
    p.threads = threads;
    p.m = fields::whole(ROOFLINE_FIELD(l, m)).value_or(0);
    p.k = fields::whole(ROOFLINE_FIELD(l, k)).value_or(0);
    p.ai = ai;
    p.value = value;
    p.unit = "FLOP/s";
    p.weights_per_second = fields::amount(ROOFLINE_FIELD(e, weights_per_second));
    p.bytes_per_second = fields::amount(ROOFLINE_FIELD(e, bytes_per_second));
    p.latency_seconds = fields::amount(ROOFLINE_FIELD(e, latency_seconds));
    DequantPlacementRoofs& roof = p.roof.emplace();
    const double memory = main_roof.found() ? main_roof.value() * ai : 0.0;
    const double unpack = dequant != nullptr ? 2.0 * dequant->value.value_or(0.0) : 0.0;
    if (main_roof.found()) {
      DequantMemoryRoof& m = roof.memory.emplace();
      m.level = main;
      m.value = main_roof.value();
      m.unit = "B/s";
    }
    if (dequant != nullptr) {
      DequantUnpackRoof& d = roof.dequant.emplace();
      d.value = unpack;
      d.unit = "FLOP/s";
      d.isa = dequant->isa.value_or("");
    }
    const bool placed = memory > 0.0 && unpack > 0.0;  // else attainable, bound and efficiency are null
    const double attainable = std::min(memory, unpack);
    fields::set(ROOFLINE_FIELD(p, attainable), placed ? std::optional<double>(attainable) : std::nullopt);
    fields::set(ROOFLINE_FIELD(p, bound), placed ? std::optional<std::string>(memory <= unpack ? "memory" : "dequant")
                                                  : std::nullopt);
    fields::set(ROOFLINE_FIELD(p, efficiency), placed ? std::optional<double>(value / attainable) : std::nullopt);
  }
  return out;
}

}  // namespace roofline
