// The terminal summary: the report's tables as aligned text with units (the same tables as the HTML page).
#include <fmt/format.h>

#include "roofline/analysis/report.hpp"
#include "roofline/analysis/report_facts.hpp"
#include "roofline/analysis/report_tables.hpp"

namespace roofline {
using nlohmann::json;

std::string render_text_summary(const json& results) { return render_text_summary(results, nullptr); }

std::string render_text_summary(const json& results, const json& spec) {
  std::string s;
  const ResultsView view(results);
  const int threads = report_threads(view.host_document());
  s += fmt::format("Roofline summary{}\n\n",
                   threads > 0 ? fmt::format(" (charts at {} thread(s), the largest measured)", threads) : "");
  for (const ReportTable& t : report_tables(results, spec)) s += render_table_text(t) + "\n";
  return s;
}

}  // namespace roofline
