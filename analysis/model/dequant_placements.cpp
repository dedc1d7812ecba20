// Quantized GEMVs placed on their own roofline (issue 38): the compute suite's dequant_gemv entries (a format's
// best kernel over weights in main memory, the CPU's DRAM, at batch 1..16, one activation column after another as
// ggml's vec_dot path runs them) against main memory's roof x their arithmetic intensity and the format's
// dequant-dot roof (its ceiling at the thread count, as FLOP/s: 2 per weight; a per-column kernel redoes the unpacking for every column, so
// the roof is flat in the batch). `bound` says which roof is lower at the point: memory or dequant.
#include <algorithm>
#include <map>
#include <tuple>

#include "roofline/model/dequant_ceilings.hpp"
#include "roofline/model/results.hpp"
#include "roofline/model/roofline_section.hpp"

namespace roofline {
using nlohmann::json;

json derive_dequant_placements(const ResultsView& view, const TargetView& target, const json& section, const json& ceilings) {
  const json& doc = view.target_document(target.id);
  const std::string& main = target.main_memory();
  // (format, threads, batch) -> the best repetition's entry
  std::map<std::tuple<std::string, int, int>, const json*> best;
  if (doc.contains("benchmarks") && doc["benchmarks"].is_array()) {
    for (const json& e : doc["benchmarks"]) {
      if (!e.is_object() || e.value("run_type", std::string("iteration")) != "iteration" || e.value("error_occurred", false)) continue;
      if (!e.contains("labels") || !e["labels"].is_object() || e["labels"].value("suite", std::string()) != "dequant_gemv") continue;
      const json& l = e["labels"];
      const auto key = std::make_tuple(l.value("format", std::string()), l.value("threads", 0), l.value("batch", 0));
      if (std::get<1>(key) <= 0 || std::get<2>(key) <= 0) continue;
      const json*& slot = best[key];
      if (slot == nullptr || counter(e, "flop_per_second") > counter(*slot, "flop_per_second")) slot = &e;
    }
  }
  json out = json::array();
  for (const auto& [key, e] : best) {
    const auto& [format, threads, batch] = key;
    const json& l = (*e)["labels"];
    const double value = counter(*e, "flop_per_second"), ai = counter(*e, "arithmetic_intensity");
    const json* main_roof = memory_roof(section, main, threads);
    const json* dequant = dequant_roof(ceilings, format, threads);
    json p = {{"kernel", "dequant_gemv"}, {"format", format}, {"isa", l.value("isa", std::string())}, {"batch", batch},
              {"threads", threads}, {"m", l.value("m", 0LL)}, {"k", l.value("k", 0LL)}, {"ai", ai}, {"value", value},
              {"unit", "FLOP/s"}, {"weights_per_second", counter(*e, "weights_per_second")},
              {"bytes_per_second", counter(*e, "bytes_per_second")}, {"latency_seconds", counter(*e, "latency_seconds")},
              {"attainable", nullptr}, {"bound", nullptr}, {"efficiency", nullptr}, {"roof", json::object()}};
    const double memory = main_roof != nullptr ? main_roof->value("value", 0.0) * ai : 0.0;
    const double unpack = dequant != nullptr ? 2.0 * dequant->value("value", 0.0) : 0.0;
    if (main_roof != nullptr) p["roof"]["memory"] = {{"level", main}, {"value", main_roof->value("value", 0.0)}, {"unit", "B/s"}};
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
