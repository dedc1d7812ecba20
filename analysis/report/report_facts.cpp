// Shared readers for the report renderers: see report_facts.hpp; and the private readers of the parts of a
// results file the typed model still keeps as JSON (table_cells.hpp).
#include "roofline/report/report_facts.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "roofline/model/results_targets.hpp"
#include "table_cells.hpp"
#include "report_roofs.hpp"
#include "typed_fields.hpp"

namespace roofline {
using nlohmann::json;
using namespace report_detail;

namespace report_detail {

std::string value_text(const json& v, const std::string& fallback) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return fmt::format("{}", v.get<long long>());
  if (v.is_number()) return fmt::format("{:g}", v.get<double>());
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  return fallback;
}

double num(const json& obj, const char* key, double fallback) {
  if (!obj.is_object() || !obj.contains(key) || !obj[key].is_number()) return fallback;
  return obj[key].get<double>();
}

std::string str(const json& obj, const char* key, const std::string& fallback) {
  if (!obj.is_object() || !obj.contains(key)) return fallback;
  return value_text(obj[key], fallback);
}

std::string rate_unit_of_row(const json& row) {
  const std::string unit = str(row, "unit");
  return unit.empty() ? rate_unit(str(row, "precision")) : unit;
}

}  // namespace report_detail

std::string emulation_warning(const ResultsDocument& results) {
  const HostFacts host = host_facts(results.context);
  if (!host.emulated) return "";
  return fmt::format("EMULATED RUN ({}): every time below is the emulator's, so the figures this report calls ceilings, "
                     "peaks and placements are not this CPU's; they show the kernels ran and validated, nothing about speed.",
                     host.emulation.empty() ? "context.machine.emulated" : host.emulation);
}

int report_threads(const ResultsDocument& results) {
  int best = 0;
  const RooflineSection& s = section_of(results);
  const auto see = [&best](const auto& records) {
    if (!records) return;
    for (const auto& r : *records) best = std::max(best, static_cast<int>(amount(ROOFLINE_FIELD(r, threads))));
  };
  see(s.compute_ceilings);
  see(s.memory_ceilings);
  see(s.placements);
  return best;
}

double measured_clock_hz(const ResultsDocument& results) {
  for (const ComputeCeilingRecord& c : records_of(section_of(results).compute_ceilings)) {
    if (amount(ROOFLINE_FIELD(c, clock_hz)) > 0) return amount(ROOFLINE_FIELD(c, clock_hz));
  }
  double best = 0.0;
  for (const char* aggregate : {"max", "median", ""}) {
    for (const BenchmarkEntry* e : benchmark_entries(results, "clock", aggregate)) {
      best = std::max(best, amount(ROOFLINE_FIELD(*e, clock_hz)));
    }
    if (best > 0) return best;
  }
  return host_facts(results.context).measured_clock_hz;
}

std::string rate_unit(const std::string& precision) {
  return precision.rfind("int", 0) == 0 ? "OP/s" : "FLOP/s";
}

std::vector<std::string> report_precisions(const ResultsDocument& results) {
  static constexpr std::array<const char*, 5> kOrder{"fp64", "fp32", "bf16", "fp16", "int8"};
  std::vector<std::string> seen;
  for (const ComputeCeilingRecord& c : records_of(section_of(results).compute_ceilings)) {
    const std::string p = cell(ROOFLINE_FIELD(c, precision));
    if (!p.empty() && std::find(seen.begin(), seen.end(), p) == seen.end()) seen.push_back(p);
  }
  std::vector<std::string> out;
  for (const char* p : kOrder) {
    if (std::find(seen.begin(), seen.end(), p) != seen.end()) out.emplace_back(p);
  }
  for (const std::string& p : seen) {
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  }
  return out;
}

}  // namespace roofline
