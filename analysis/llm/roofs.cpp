// Reading the LLM estimate's ceilings from a results file: see roofs.hpp.
#include "roofline/llm/roofs.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/analysis/results_view.hpp"
#include "roofline/llm/target.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/analysis/roofline_section.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

int largest_threads_with(const json& section, const std::string& main_memory) {
  int best = 0;
  for (const json& c : section.value("memory_ceilings", json::array())) {
    if (c.value("level", "") == main_memory) best = std::max(best, c.value("threads", 0));
  }
  return best;
}

// The target's level names, innermost first: its facts' list, else the order its ceilings give.
std::vector<std::string> level_names(const ResultsView& view, const json& section, const std::string& target) {
  std::vector<std::string> names;
  if (const TargetView* t = view.target(target)) {
    for (const TargetLevelView& l : t->memory_levels) names.push_back(l.name);
  }
  return names.empty() ? memory_level_names(section) : names;
}

// The bandwidth of the best batch-1 placement of `precision` at `threads` (value / AI), or 0.
double best_gemv_bandwidth(const json& section, Precision precision, int threads) {
  double best = 0.0;
  for (const json& p : section.value("placements", json::array())) {
    if (p.value("precision", "") != to_string(precision) || p.value("threads", 0) != threads || p.value("batch", 0) != 1) {
      continue;
    }
    const double ai = p.value("ai", 0.0);
    if (ai > 0.0) best = std::max(best, p.value("value", 0.0) / ai);
  }
  return best;
}

// The best attained GEMM rate of `precision` at `threads` among the run's placements, or a zero roof.
ComputeRoof best_gemm(const json& section, Precision precision, int threads) {
  ComputeRoof roof;
  for (const json& p : section.value("placements", json::array())) {
    if (p.value("precision", "") != to_string(precision) || p.value("threads", 0) != threads) continue;
    const double v = p.value("value", 0.0);
    if (v > roof.value) {
      roof.value = v;
      roof.engine = p.contains("roof") && p["roof"].is_object() ? engine_of(p["roof"]) : Engine::vector;
      roof.source = fmt::format("gemm {} batch {}", p.value("backend", "?"), p.value("batch", 0));
    }
  }
  return roof;
}

}  // namespace

Engine engine_of(const json& ceiling) {
  // A file from before engines has no field: its ceilings are the vector units'.
  return parse_engine(ceiling.value("engine", std::string(to_string(Engine::vector)))).value_or(Engine::vector);
}

double Roofs::bandwidth(const MemoryRoof& level, Precision p) const {
  const auto it = gemv_bandwidth.find(p);
  return &level == &dram() && it != gemv_bandwidth.end() ? it->second : level.bandwidth;
}

const MemoryRoof& Roofs::level_for(double working_set) const {
  for (const MemoryRoof& l : levels) {
    if (&l != &dram() && l.max_bytes > 0.0 && working_set <= l.max_bytes) return l;
  }
  return dram();
}

Roofs read_roofs(const json& results, const std::string& file, int threads, const std::vector<Precision>& needed,
                 RoofSource source) {
  const json& section = results.at("roofline");
  Roofs r;
  r.source = source;
  // The target whose ceilings the section holds (select_target keeps one), its levels and main memory; a
  // target other than the CPU has no thread counts (threads 0: the whole device).
  const ResultsView view(results);
  const json& ceilings = section.value("memory_ceilings", json::array());
  r.target = ceilings.empty() ? view.cpu().id : entry_target(ceilings.front());  // none: the host's
  const std::vector<std::string> names = level_names(view, section, r.target);
  const std::string main_memory = names.empty() ? "DRAM" : names.back();
  r.threads = threads > 0 ? threads : largest_threads_with(section, main_memory);
  if (memory_roof(section, main_memory, r.threads) == nullptr && threads <= 0) {
    throw InputError(fmt::format("{}: no {} memory ceiling at any thread count; measure one with "
                                 "`roofline run --suites bandwidth`", file, main_memory));
  }
  for (const std::string& level : names) {
    const json* m = memory_roof(section, level, r.threads);
    if (m == nullptr || m->value("value", 0.0) <= 0.0) continue;
    r.levels.push_back({level, m->value("value", 0.0), m->value("max_bytes", 0.0)});
  }
  if (r.levels.empty() || r.levels.back().level != main_memory) {
    throw InputError(fmt::format("{}: no {} memory ceiling at {} threads; measure one with `roofline run --suites "
                                 "bandwidth --threads {}` (or pass --threads with a measured count)", file, main_memory,
                                 r.threads, r.threads));
  }
  for (Precision p : needed) {
    if (r.compute.count(p) != 0) continue;
    const json* c = compute_roof(section, std::string(to_string(p)), r.threads);
    if ((c == nullptr || c->value("value", 0.0) <= 0.0) && r.threads <= 0) {
      // A device (no thread counts): say what it measured instead of a CPU's --threads advice.
      std::vector<std::string> measured;
      for (const json& e : section.value("compute_ceilings", json::array())) {
        const std::string name = e.value("precision", "");
        if (std::find(measured.begin(), measured.end(), name) == measured.end()) measured.push_back(name);
      }
      throw InputError(fmt::format("{}: {} measured no {} compute ceiling (it has: {}); choose --weights and --kv among "
                                   "those", file, r.target, to_string(p), measured.empty() ? "none" : fmt::format("{}", fmt::join(measured, ", "))));
    }
    if (c == nullptr || c->value("value", 0.0) <= 0.0) {
      throw InputError(fmt::format("{}: no {} compute ceiling at {} threads; measure it with `roofline run --suites "
                                   "compute --threads {}`", file, to_string(p), r.threads, r.threads));
    }
    ComputeRoof roof{c->value("value", 0.0), c->value("value", 0.0), engine_of(*c), c->value("isa", ""),
                     "compute ceiling"};
    if (source == RoofSource::gemm) {
      const ComputeRoof g = best_gemm(section, p, r.threads);
      if (g.value <= 0.0) {
        throw InputError(fmt::format("{}: no {} GEMM point at {} threads for --roof gemm; measure it with `roofline run "
                                     "--suites gemm --threads {}`", file, to_string(p), r.threads, r.threads));
      }
      roof.value = g.value;
      roof.engine = g.engine;
      roof.source = g.source;
      if (const double bw = best_gemv_bandwidth(section, p, r.threads); bw > 0.0) r.gemv_bandwidth[p] = bw;
    }
    r.compute[p] = roof;
  }
  if (const auto fp32 = r.compute.find(Precision::fp32); fp32 != r.compute.end()) {
    r.dequant_rate = fp32->second.peak / 2.0;  // one element operation per lane where an FMA is 2 FLOP
  }
  if (const json* ceilings = section.contains("dequant_ceilings") ? &section["dequant_ceilings"] : nullptr;
      ceilings != nullptr && ceilings->is_array()) {
    for (const json& c : *ceilings) {
      if (c.value("threads", 0) != r.threads || !(c.value("value", 0.0) > 0.0)) continue;
      DequantRoof& d = r.dequant[c.value("format", "")];
      if (c.value("value", 0.0) > d.weights_per_second) d = {c.value("value", 0.0), c.value("isa", ""), c.value("level", "")};
    }
  }
  const TargetMemory memory = target_memory(results, r.target);
  r.memory_total_bytes = memory.total_bytes;
  r.memory_available_bytes = memory.available_bytes;
  r.memory_source = memory.source;
  return r;
}

}  // namespace roofline::llm
