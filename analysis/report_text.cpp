// Placeholder until the report lands (issue 7).
#include "roofline/analysis/report.hpp"

namespace roofline {
std::string render_text_summary(const nlohmann::json&) { return {}; }
std::string render_html_report(const nlohmann::json&, const nlohmann::json&) {
  return "<!doctype html><title>roofline</title><p>report not implemented yet</p>\n";
}
}  // namespace roofline
