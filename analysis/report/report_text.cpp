// The terminal summary: the report's tables as aligned text with units (the same tables as the HTML page).
#include <fmt/format.h>

#include "roofline/model/results_targets.hpp"
#include "roofline/report/report.hpp"
#include "roofline/report/report_facts.hpp"
#include "roofline/report/report_tables.hpp"

namespace roofline {

std::string render_text_summary(const ResultsDocument& results, const std::optional<Spec>& spec) {
  std::string s;
  const int threads = report_threads(target_document(results, kCpuTargetId));
  s += fmt::format("Roofline summary{}\n\n",
                   threads > 0 ? fmt::format(" (charts at {} thread(s), the largest measured)", threads) : "");
  if (const std::string warning = emulation_warning(results); !warning.empty()) s += warning + "\n\n";
  for (const ReportTable& t : report_tables(results, spec)) s += render_table_text(t) + "\n";
  return s;
}

}  // namespace roofline
