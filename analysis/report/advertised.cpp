// Advertised vs measured: see advertised.hpp. Figures are never adjusted: a cpu spec's compute figures are
// scaled by cores measured / cores covered, and that factor is stated; everything else is shown as is.
#include "roofline/analysis/advertised.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report_roofs.hpp"
#include "report_view.hpp"
#include "roofline/analysis/report_facts.hpp"
#include "roofline/common/units.hpp"
#include "typed_fields.hpp"

namespace roofline {
using namespace report_detail;

double AdvertisedRow::measured_ratio() const {
  return comparable && advertised > 0 && measured > 0 ? measured / advertised : 0.0;
}
double AdvertisedRow::gemm_ratio() const {
  return comparable && advertised > 0 && best_gemm > 0 ? best_gemm / advertised : 0.0;
}

namespace {

std::string pct(double ratio) { return fmt::format("{:.0f}%", ratio * 100.0); }

// Why the spec cannot be compared with this run, or "" when it can.
std::string mismatch_reason(const HostFacts& machine, const Spec& spec) {
  if (spec.kind == "accelerator") {
    return fmt::format("not comparable: the spec covers an accelerator ({}), this run measured a CPU", spec.covers);
  }
  const std::string& vendor = machine.cpu_vendor;
  const int family = static_cast<int>(machine.cpu_family.value_or(-1));
  const int model = static_cast<int>(machine.cpu_model_number.value_or(-1));
  const bool vendor_differs = !spec.cpu_vendor.empty() && !vendor.empty() && vendor != spec.cpu_vendor;
  const bool family_differs = spec.cpu_family >= 0 && family >= 0 && family != spec.cpu_family;
  const bool model_differs = !spec.cpu_model_numbers.empty() && model >= 0 &&
                             std::find(spec.cpu_model_numbers.begin(), spec.cpu_model_numbers.end(), model) ==
                                 spec.cpu_model_numbers.end();
  if (vendor_differs || family_differs || model_differs) {
    return fmt::format("not comparable: the spec is for another CPU; this machine is {} family {} model {}",
                       vendor.empty() ? "unknown" : vendor, family, model);
  }
  return "";
}

int threads_of(const PlacementRecord& p) { return static_cast<int>(amount(ROOFLINE_FIELD(p, threads))); }

double best_gemm_value(const ResultsDocument& results, const std::string& precision, int threads) {
  double best = 0.0;
  for (const PlacementRecord& p : records_of(section_of(results).placements)) {
    if (cell(ROOFLINE_FIELD(p, precision)) == precision && threads_of(p) == threads) {
      best = std::max(best, amount(ROOFLINE_FIELD(p, value)));
    }
  }
  return best;
}

bool machine_lacks(const HostFacts& machine, const std::string& isa) {
  if (isa.empty()) return false;
  const auto it = machine.isa.find(isa);
  return it != machine.isa.end() && !it->second;
}

AdvertisedRow compute_row(const ResultsDocument& results, const HostFacts& machine, const Spec& spec, const SpecPeak& peak,
                          const AdvertisedComparison& cmp, double clock, const std::string& reason) {
  AdvertisedRow row;
  row.what = peak.precision;
  row.unit = rate_unit(peak.precision);
  row.stated = peak.stated;
  row.sparse = peak.sparse;
  row.advertised = peak.value * cmp.scale;
  row.dense = peak.sparse ? row.advertised / 2.0 : row.advertised;
  row.comparable = reason.empty();
  // An AMX figure is compared with the matrix engine's ceiling only: set beside AVX-512 it says nothing.
  const bool matrix_figure = peak.isa.rfind("amx", 0) == 0;
  if (const ComputeCeilingRecord* c = compute_roof(section_of(results), peak.precision, cmp.threads, matrix_figure ? "matrix" : "")) {
    row.measured = amount(ROOFLINE_FIELD(*c, value));
    row.theoretical = amount(ROOFLINE_FIELD(*c, theoretical));
  }
  row.best_gemm = best_gemm_value(results, peak.precision, cmp.threads);

  std::vector<std::string> parts;
  if (!row.comparable) parts.push_back(reason);
  if (peak.sparse) {
    parts.push_back(fmt::format("{} figure ({}) assumes 2:4 sparsity; dense peak is {}", peak.precision, peak.stated,
                                format_si(row.dense, row.unit)));
  }
  if (machine_lacks(machine, peak.isa)) {
    parts.push_back(fmt::format("the figure needs {}, which this machine does not report", peak.isa));
  }
  if (row.comparable) {
    if (row.measured <= 0) {
      parts.push_back(matrix_figure ? "an AMX figure, and this run measured no matrix-engine ceiling" : "not measured in this run");
    } else {
      const double datasheet_clock = peak.clock_hz > 0 ? peak.clock_hz : spec.clock_hz;
      if (datasheet_clock > 0 && clock > 0 && std::fabs(clock / datasheet_clock - 1.0) > 0.05) {
        // Same design, other clock: say what the datasheet figure would be at the clock this run measured.
        const double at_clock = row.advertised * clock / datasheet_clock;
        parts.push_back(fmt::format("datasheet clock {}, measured {} (at the measured clock: {}, ceiling {} of it)",
                                    format_si(datasheet_clock, "Hz"), format_si(clock, "Hz"), format_si(at_clock, row.unit),
                                    pct(row.measured / at_clock)));
      }
      parts.push_back(fmt::format("measured ceiling {} of advertised{}{}", pct(row.measured_ratio()),
                                  row.measured_ratio() > 1.05 ? " (above it)" : "",
                                  row.best_gemm > 0 ? fmt::format(", best GEMM {} (MFU)", pct(row.gemm_ratio())) : ""));
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) row.verdict += (i ? "; " : "") + parts[i];
  return row;
}

AdvertisedRow bandwidth_row(const ResultsDocument& results, const Spec& spec, const AdvertisedComparison& cmp,
                            const std::string& reason) {
  AdvertisedRow row;
  row.what = "memory bandwidth";
  row.unit = "B/s";
  row.stated = spec.bandwidth_stated;
  row.advertised = spec.memory_bandwidth;  // not scaled: a memory system is shared, not per core
  row.dense = row.advertised;
  row.comparable = reason.empty();
  std::string kernel;
  const RooflineSection& section = section_of(results);
  for (const MemoryCeilingRecord& c : records_of(section.memory_ceilings)) {
    const double value = amount(ROOFLINE_FIELD(c, value));
    if (cell(ROOFLINE_FIELD(c, level)) == "DRAM" && static_cast<int>(amount(ROOFLINE_FIELD(c, threads))) == cmp.threads &&
        value > row.measured) {
      row.measured = value;
      kernel = cell(ROOFLINE_FIELD(c, kernel));
    }
  }
  for (const PlacementRecord& p : records_of(section.placements)) {
    const double ai = amount(ROOFLINE_FIELD(p, ai));
    if (threads_of(p) == cmp.threads && ai > 0) row.best_gemm = std::max(row.best_gemm, amount(ROOFLINE_FIELD(p, value)) / ai);
  }
  std::vector<std::string> parts;
  if (!row.comparable) {
    parts.push_back(reason);
  } else if (row.measured <= 0) {
    parts.push_back("no DRAM ceiling in this run");
  } else {
    parts.push_back(fmt::format("best DRAM kernel ({}) reaches {} of advertised", kernel, pct(row.measured_ratio())));
    if (spec.kind == "cpu" && cmp.threads < spec.cores) {
      parts.push_back(fmt::format("the figure is for the whole memory system of {} cores; {} threads alone rarely draw it all",
                                  spec.cores, cmp.threads));
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) row.verdict += (i ? "; " : "") + parts[i];
  return row;
}

}  // namespace

AdvertisedComparison compare_to_spec(const ResultsDocument& results, const Spec& spec) {
  const HostFacts machine = host_facts(results.context);
  AdvertisedComparison cmp;
  cmp.spec_name = spec.name;
  cmp.spec_file = spec.file;
  cmp.notes = spec.notes;
  cmp.threads = report_threads(results);
  const std::string reason = mismatch_reason(machine, spec);
  cmp.comparable = reason.empty();
  if (spec.kind == "cpu" && spec.cores > 0 && cmp.threads > 0) {
    // One measured thread per core: that is how the harness binds (compact, one PU per core first).
    int cores_used = cmp.threads;
    const int machine_cores = static_cast<int>(machine.cores.value_or(0));
    if (machine_cores > 0) cores_used = std::min(cores_used, machine_cores);
    cmp.scale = static_cast<double>(cores_used) / spec.cores;
    cmp.basis = fmt::format("The spec covers {}; its compute figures are scaled by {}/{} to the {} core(s) this run's "
                            "{} thread(s) used. Bandwidth is not scaled.",
                            spec.covers, cores_used, spec.cores, cores_used, cmp.threads);
  } else {
    cmp.basis = fmt::format("The spec covers {}; figures are shown as stated.", spec.covers);
  }
  const double clock = measured_clock_hz(results);
  for (const SpecPeak& peak : spec.peaks) cmp.rows.push_back(compute_row(results, machine, spec, peak, cmp, clock, reason));
  if (spec.memory_bandwidth > 0) cmp.rows.push_back(bandwidth_row(results, spec, cmp, reason));
  return cmp;
}

}  // namespace roofline
