// Advertised vs measured: see advertised.hpp. Figures are never adjusted: a cpu spec's compute figures are
// scaled by cores measured / cores covered, and that factor is stated; everything else is shown as is.
#include "roofline/report/advertised.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "report_roofs.hpp"
#include "roofline/model/results_targets.hpp"
#include "roofline/report/report_facts.hpp"
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

// The words of a name, lower case, letters and digits only: "NVIDIA H200 SXM" -> nvidia, h200, sxm.
std::vector<std::string> name_words(const std::string& name) {
  std::vector<std::string> out(1);
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
      out.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.back().empty()) {
      out.emplace_back();
    }
  }
  if (out.back().empty()) out.pop_back();
  return out;
}

// Whether an accelerator spec names this target: every word of the target's name is a word of the spec's ("NVIDIA
// H200" and "NVIDIA H200 SXM"), so that a datasheet is set beside the device it describes and no other.
bool spec_names(const Spec& spec, const RecordedTarget& target) {
  const std::vector<std::string> spec_words = name_words(spec.name), target_words = name_words(target.name);
  return !target_words.empty() && std::all_of(target_words.begin(), target_words.end(), [&](const std::string& w) {
    return std::find(spec_words.begin(), spec_words.end(), w) != spec_words.end();
  });
}

// Why the spec cannot be compared with this run, or "" when it can.
std::string mismatch_reason(const HostFacts& machine, const Spec& spec, const RecordedTarget* accelerator,
                            const std::vector<std::string>& others) {
  if (spec.kind == "accelerator") {
    if (accelerator != nullptr) return "";
    std::string measured;
    for (const std::string& o : others) measured += (measured.empty() ? "" : ", ") + o;
    return fmt::format("not comparable: the spec covers an accelerator ({}), and this run measured {}", spec.covers,
                       measured.empty() ? "a CPU alone" : "none it names (" + measured + ")");
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
  if (isa.empty() || !machine.present) return false;
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
  // An AMX figure is compared with the matrix engine's ceiling only: set beside AVX-512 it says nothing. A figure
  // that names its engine (an accelerator's CUDA-core or tensor-core figure) with that engine's ceiling only.
  const std::string engine = !peak.engine.empty() ? peak.engine : peak.isa.rfind("amx", 0) == 0 ? "matrix" : "";
  const bool matrix_figure = engine == "matrix";
  if (const ComputeCeilingRecord* c = compute_roof(section_of(results), peak.precision, cmp.threads, engine)) {
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
      parts.push_back(matrix_figure ? fmt::format("a {} figure, and this run measured no matrix-engine ceiling of it",
                                                  peak.isa.empty() ? "matrix-engine" : "AMX")
                                    : "not measured in this run");
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
                            const std::string& main_memory, const std::string& reason) {
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
    if (cell(ROOFLINE_FIELD(c, level)) == main_memory && static_cast<int>(amount(ROOFLINE_FIELD(c, threads))) == cmp.threads &&
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
    parts.push_back(fmt::format("no {} ceiling in this run", main_memory));
  } else {
    parts.push_back(fmt::format("best {} kernel ({}) reaches {} of advertised", main_memory, kernel, pct(row.measured_ratio())));
    if (spec.kind == "cpu" && cmp.threads < spec.cores) {
      parts.push_back(fmt::format("the figure is for the whole memory system of {} cores; {} threads alone rarely draw it all",
                                  spec.cores, cmp.threads));
    }
  }
  for (std::size_t i = 0; i < parts.size(); ++i) row.verdict += (i ? "; " : "") + parts[i];
  return row;
}

}  // namespace

AdvertisedComparison compare_to_spec(const ResultsDocument& document, const Spec& spec) {
  // The target the spec describes: a cpu spec the host CPU's, an accelerator spec the measured target it names.
  const std::vector<RecordedTarget> targets = recorded_targets(document);
  const HostFacts host = host_facts(document.context);
  const RecordedTarget* target = &targets.front();
  const RecordedTarget* accelerator = nullptr;
  std::vector<std::string> others;
  for (auto t = targets.begin() + 1; t != targets.end(); ++t) {
    if (!has_entries(document, t->id)) continue;
    others.push_back(fmt::format("{} ({})", t->name.empty() ? "unnamed" : t->name, t->id));
    if (accelerator == nullptr && spec_names(spec, *t)) accelerator = &*t;
  }
  if (spec.kind == "accelerator" && accelerator != nullptr) target = accelerator;
  const ResultsDocument results = target_document(document, target->id);
  const HostFacts machine = spec.kind == "cpu" ? host : HostFacts{};
  AdvertisedComparison cmp;
  cmp.spec_name = spec.name;
  cmp.spec_file = spec.file;
  cmp.notes = spec.notes;
  cmp.target = target->id;
  cmp.host = target == &targets.front();
  cmp.threads = report_threads(results);
  const std::string reason = mismatch_reason(host, spec, accelerator, others);
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
  } else if (accelerator != nullptr && spec.kind == "accelerator") {
    cmp.basis = fmt::format("The spec covers {}; figures are shown as stated, beside target {} ({}).", spec.covers,
                            target->id, target->name);
  } else {
    cmp.basis = fmt::format("The spec covers {}; figures are shown as stated.", spec.covers);
  }
  const double clock = measured_clock_hz(results);
  for (const SpecPeak& peak : spec.peaks) cmp.rows.push_back(compute_row(results, machine, spec, peak, cmp, clock, reason));
  const std::string main = target->main_memory().empty() ? std::string("DRAM") : target->main_memory();
  if (spec.memory_bandwidth > 0) cmp.rows.push_back(bandwidth_row(results, spec, cmp, main, reason));
  return cmp;
}

}  // namespace roofline
