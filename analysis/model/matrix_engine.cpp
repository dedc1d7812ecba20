// The matrix engine's summary lines: see matrix_engine.hpp.
#include "roofline/model/matrix_engine.hpp"

#include <map>
#include <string>
#include <tuple>

#include <fmt/format.h>

#include "roofline/common/units.hpp"
#include "roofline/common/vocabulary.hpp"
#include "roofline/model/record_fields.hpp"

namespace roofline {
using nlohmann::json;

namespace {

// Why a run has no matrix-unit roofs, from what its context and the target's facts recorded (most specific
// reason first).
std::string missing_reason(const ResultsContext& context, const RecordedTarget& target) {
  const std::string& status = target.matrix_engine_status;
  const std::optional<Isa> cap = parse_isa(context.max_isa.value_or("amx"));
  if (!status.empty() && status != "usable") {
    return fmt::format("AMX is {} on this machine ({})", status,
                       target.matrix_engine_source.empty() ? std::string("machine facts") : target.matrix_engine_source);
  }
  // Files from before the AMX fact were measured by a version whose top level was avx512: their max_isa
  // says nothing about a cap.
  if (status.empty()) {
    return target.matrix_engine_advertised
               ? "this file was measured by a version without AMX tile kernels, although the CPU advertises AMX "
                 "(re-run to measure them)"
               : "the CPU does not advertise AMX";
  }
  if (cap && isa_rank(*cap) < isa_rank(Isa::amx)) {
    return fmt::format("--max-isa {} runs no tile kernel (and caps oneDNN below AMX)", to_string(*cap));
  }
  // context.suites is not typed yet: the typed context keeps it in `extra`.
  const json& compute = fields::object_or_empty(fields::object_or_empty(context.extra, "suites"), "compute");
  for (const json& u : compute.value("not_supported", json::array())) {
    if (u.is_object() && u.value("isa", std::string()) == "amx" && u.contains("reason")) {
      return u["reason"].get<std::string>();
    }
  }
  return "the tile kernels did not measure (see the compute table)";
}

}  // namespace

MatrixEngineRecord matrix_engine_summary(const ResultsContext& context, const RecordedTarget& target,
                                         const std::vector<ComputeCeilingRecord>& ceilings) {
  MatrixEngineRecord out;
  out.roofs = false;
  std::vector<std::string>& lines = out.lines.emplace();
  std::vector<MatrixRatioRecord>& ratios = out.ratios.emplace();
  if (ceilings.empty()) return out;
  // (precision, threads) -> best value per engine.
  std::map<std::tuple<int, std::string, int>, std::pair<double, std::string>> best;
  for (const ComputeCeilingRecord& c : ceilings) {
    const auto p = parse_precision(c.precision.value_or(""));
    const std::string engine = c.engine.value_or("vector");
    const double v = c.value.value_or(0.0);
    if (!p || v <= 0.0) continue;
    auto& slot = best[{static_cast<int>(*p), engine, static_cast<int>(c.threads.value_or(0))}];
    if (v > slot.first) slot = {v, c.isa.value_or("")};
  }
  for (const auto& [key, m] : best) {
    const auto& [p, engine, threads] = key;
    if (engine != "matrix") continue;
    out.roofs = true;
    const auto precision = static_cast<Precision>(p);
    const std::string unit(rate_unit(precision));
    const auto v = best.find({p, "vector", threads});
    if (v == best.end()) {
      lines.push_back(fmt::format("matrix engine: {} at {} thread(s) reaches {} on AMX tiles; no vector ceiling of "
                                  "that precision to compare with", to_string(precision), threads, format_si(m.first, unit)));
      continue;
    }
    const double ratio = m.first / v->second.first;
    MatrixRatioRecord& r = ratios.emplace_back();
    r.precision = std::string(to_string(precision));
    r.threads = threads;
    r.matrix = m.first;
    r.vector = v->second.first;
    r.vector_isa = v->second.second;
    r.ratio = ratio;
    lines.push_back(fmt::format("matrix engine: {} at {} thread(s): AMX {} is {:.1f}x the {} ceiling ({})",
                                to_string(precision), threads, format_si(m.first, unit), ratio, v->second.second,
                                format_si(v->second.first, unit)));
  }
  if (!*out.roofs) {
    lines.push_back("no matrix-unit roofs because " + missing_reason(context, target) +
                    ": bf16 and int8 ceilings are the vector units'");
  }
  return out;
}

}  // namespace roofline
