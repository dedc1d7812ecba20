// Reading the LLM estimate's ceilings from a results file: see roofs.hpp.
#include "roofline/llm/roofs.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofline/model/resident_level.hpp"
#include "roofline/model/results_targets.hpp"  // target_of, target_memory_facts
#include "roofline/llm/target.hpp"
#include "roofline/common/errors.hpp"
#include "roofline/model/roofline_section.hpp"

namespace roofline::llm {

namespace {

template <typename Record>
const std::vector<Record>& or_none(const std::optional<std::vector<Record>>& records) {
  static const std::vector<Record> none;
  return records ? *records : none;
}

int largest_threads_with(const RooflineSection& section, const std::string& main_memory) {
  long long best = 0;
  for (const MemoryCeilingRecord& c : or_none(section.memory_ceilings)) {
    if (c.level == main_memory) best = std::max(best, c.threads.value_or(0));
  }
  return static_cast<int>(best);
}

// The target's level names, innermost first: its facts' list (target_memory_facts: the results model's, alike
// for every target), else the order its ceilings give.
std::vector<std::string> level_names(const ResultsDocument& doc, const RooflineSection& section, const std::string& target) {
  std::vector<std::string> names = target_memory_facts(doc.context, target).level_names;
  return names.empty() ? memory_level_names(section) : names;
}

// The bandwidth of the best batch-1 placement of `precision` at `threads` (value / AI), or 0.
double best_gemv_bandwidth(const RooflineSection& section, Precision precision, int threads) {
  double best = 0.0;
  for (const PlacementRecord& p : or_none(section.placements)) {
    if (p.precision.value_or("") != to_string(precision) || p.threads.value_or(0) != threads || p.batch.value_or(0) != 1) {
      continue;
    }
    const double ai = p.ai.value_or(0.0);
    if (ai > 0.0) best = std::max(best, p.value.value_or(0.0) / ai);
  }
  return best;
}

// The best attained GEMM rate of `precision` at `threads` among the run's placements, or a zero roof.
ComputeRoof best_gemm(const RooflineSection& section, Precision precision, int threads) {
  ComputeRoof roof;
  for (const PlacementRecord& p : or_none(section.placements)) {
    if (p.precision.value_or("") != to_string(precision) || p.threads.value_or(0) != threads) continue;
    const double v = p.value.value_or(0.0);
    if (v > roof.value) {
      roof.value = v;
      roof.engine = p.roof ? engine_of(*p.roof) : Engine::vector;
      roof.source = fmt::format("gemm {} batch {}", p.backend.value_or("?"), p.batch.value_or(0));
    }
  }
  return roof;
}

Engine engine_named(const std::optional<std::string>& engine) {
  // A file from before engines has no field: its ceilings are the vector units'.
  return parse_engine(engine.value_or(std::string(to_string(Engine::vector)))).value_or(Engine::vector);
}

}  // namespace

Engine engine_of(const ComputeCeilingRecord& ceiling) { return engine_named(ceiling.engine); }
Engine engine_of(const PlacementRoof& roof) { return engine_named(roof.engine); }

double Roofs::bandwidth(const MemoryRoof& level, Precision p) const {
  const auto it = gemv_bandwidth.find(p);
  return &level == &dram() && it != gemv_bandwidth.end() ? it->second : level.bandwidth;
}

const MemoryRoof& Roofs::level_for(double working_set) const {
  // The model's resident-level rule (resident_level.hpp) over the levels but main memory, each reaching max_bytes.
  std::vector<LevelReach> inner;
  for (std::size_t i = 0; i + 1 < levels.size(); ++i) inner.push_back({levels[i].level, levels[i].max_bytes});
  return levels[resident_index(inner, working_set)];  // inner.size(): main memory, the last
}

Roofs read_roofs(const ResultsDocument& results, const std::string& file, int threads,
                 const std::vector<Precision>& needed, RoofSource source) {
  if (!results.roofline) {
    throw InputError(fmt::format("{}: plain Google Benchmark JSON, not a roofline results file", file));
  }
  // The model's roof rules over the typed section (memory_roof, compute_roof, memory_level_names: roofline_section.hpp).
  const RooflineSection& typed = *results.roofline;
  Roofs r;
  r.source = source;
  // The target whose ceilings the section holds (select_target keeps one), its levels and main memory; a
  // target other than the CPU has no thread counts (threads 0: the whole device).
  r.target = target_of(typed);
  const std::vector<std::string> names = level_names(results, typed, r.target);
  const std::string main_memory = names.empty() ? "DRAM" : names.back();
  r.threads = threads > 0 ? threads : largest_threads_with(typed, main_memory);
  if (!memory_roof(typed, main_memory, r.threads).found() && threads <= 0) {
    throw InputError(fmt::format("{}: no {} memory ceiling at any thread count; measure one with "
                                 "`roofline run --suites bandwidth`", file, main_memory));
  }
  for (const std::string& level : names) {
    // The roof may be a memory_ceilings or a page_size_ceilings row: read what both have.
    const roofline::MemoryRoof m = memory_roof(typed, level, r.threads);
    if (!m.found() || m.value() <= 0.0) continue;
    r.levels.push_back({level, m.value(), m.max_bytes()});
  }
  if (r.levels.empty() || r.levels.back().level != main_memory) {
    throw InputError(fmt::format("{}: no {} memory ceiling at {} threads; measure one with `roofline run --suites "
                                 "bandwidth --threads {}` (or pass --threads with a measured count)", file, main_memory,
                                 r.threads, r.threads));
  }
  for (Precision p : needed) {
    if (r.compute.count(p) != 0) continue;
    const ComputeCeilingRecord* c = compute_roof(typed, std::string(to_string(p)), r.threads);
    if ((c == nullptr || c->value.value_or(0.0) <= 0.0) && r.threads <= 0) {
      // A device (no thread counts): say what it measured instead of a CPU's --threads advice.
      std::vector<std::string> measured;
      for (const ComputeCeilingRecord& e : or_none(typed.compute_ceilings)) {
        const std::string name = e.precision.value_or("");
        if (std::find(measured.begin(), measured.end(), name) == measured.end()) measured.push_back(name);
      }
      throw InputError(fmt::format("{}: {} measured no {} compute ceiling (it has: {}); choose --weights and --kv among "
                                   "those", file, r.target, to_string(p), measured.empty() ? "none" : fmt::format("{}", fmt::join(measured, ", "))));
    }
    if (c == nullptr || c->value.value_or(0.0) <= 0.0) {
      throw InputError(fmt::format("{}: no {} compute ceiling at {} threads; measure it with `roofline run --suites "
                                   "compute --threads {}`", file, to_string(p), r.threads, r.threads));
    }
    ComputeRoof roof{*c->value, *c->value, engine_of(*c), c->isa.value_or(""), "compute ceiling"};
    if (source == RoofSource::gemm) {
      const ComputeRoof g = best_gemm(typed, p, r.threads);
      if (g.value <= 0.0) {
        throw InputError(fmt::format("{}: no {} GEMM point at {} threads for --roof gemm; measure it with `roofline run "
                                     "--suites gemm --threads {}`", file, to_string(p), r.threads, r.threads));
      }
      roof.value = g.value;
      roof.engine = g.engine;
      roof.source = g.source;
      if (const double bw = best_gemv_bandwidth(typed, p, r.threads); bw > 0.0) r.gemv_bandwidth[p] = bw;
    }
    r.compute[p] = roof;
  }
  if (const auto fp32 = r.compute.find(Precision::fp32); fp32 != r.compute.end()) {
    r.dequant_rate = fp32->second.peak / 2.0;  // one element operation per lane where an FMA is 2 FLOP
  }
  for (const DequantCeilingRecord& e : or_none(typed.dequant_ceilings)) {
    const double value = e.value.value_or(0.0);
    if (e.threads.value_or(0) != r.threads || !(value > 0.0)) continue;
    DequantRoof& d = r.dequant[e.format.value_or("")];
    if (value > d.weights_per_second) d = {value, e.isa.value_or(""), e.level.value_or("")};
  }
  const TargetMemory memory = target_memory(results, r.target);
  r.memory_total_bytes = memory.total_bytes;
  r.memory_available_bytes = memory.available_bytes;
  r.memory_source = memory.source;
  if (const HostFacts host = host_facts(results.context); host.emulated) {
    r.emulation = host.emulation.empty() ? "context.machine.emulated" : host.emulation;
  }
  return r;
}

}  // namespace roofline::llm
