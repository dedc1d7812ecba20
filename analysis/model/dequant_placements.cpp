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
using nlohmann::json;

json dequant_placements(const ResultsDocument& doc, const RecordedTarget& target, const RooflineSection& section,
                        const json& ceilings) {
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
  json out = json::array();
  for (const auto& [key, b] : best) {
    const auto& [format, threads, batch] = key;
    const BenchmarkEntry& e = *b;
    const EntryLabels& l = *e.labels;
    const double value = flops(e), ai = fields::amount(ROOFLINE_FIELD(e, arithmetic_intensity));
    const MemoryRoof main_roof = memory_roof(section, main, threads);
    const json* dequant = dequant_roof(ceilings, format, threads);
    json p = {{"kernel", "dequant_gemv"}, {"format", format}, {"isa", l.isa.value_or("")}, {"batch", batch},
              {"threads", threads}, {"m", fields::whole(ROOFLINE_FIELD(l, m)).value_or(0)},
              {"k", fields::whole(ROOFLINE_FIELD(l, k)).value_or(0)}, {"ai", ai}, {"value", value},
              {"unit", "FLOP/s"}, {"weights_per_second", fields::amount(ROOFLINE_FIELD(e, weights_per_second))},
              {"bytes_per_second", fields::amount(ROOFLINE_FIELD(e, bytes_per_second))},
              {"latency_seconds", fields::amount(ROOFLINE_FIELD(e, latency_seconds))},
              {"attainable", nullptr}, {"bound", nullptr}, {"efficiency", nullptr}, {"roof", json::object()}};
    const double memory = main_roof.found() ? main_roof.value() * ai : 0.0;
    const double unpack = dequant != nullptr ? 2.0 * dequant->value("value", 0.0) : 0.0;
    if (main_roof.found()) p["roof"]["memory"] = {{"level", main}, {"value", main_roof.value()}, {"unit", "B/s"}};
    if (dequant != nullptr) p["roof"]["dequant"] = {{"value", unpack}, {"unit", "FLOP/s"}, {"isa", dequant->value("isa", "")}};
    if (memory > 0.0 && unpack > 0.0) {
      const double attainable = std::min(memory, unpack);
      p["attainable"] = attainable;
      p["bound"] = memory <= unpack ? "memory" : "dequant";
      p["efficiency"] = value / attainable;
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace roofline
