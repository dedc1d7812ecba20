// Rendering a results file for people: the terminal summary, the self-contained HTML report with its SVG
// charts, and CSV. Every string taken from the file is escaped in HTML.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace roofline {

// Aligned tables with units: machine facts, compute ceilings, memory ceilings, placements, conventions.
std::string render_text_summary(const nlohmann::json& results);

// One self-contained HTML page (inline SVG, no network). `spec` is an advertised-figures spec or null.
std::string render_html_report(const nlohmann::json& results, const nlohmann::json& spec);

}  // namespace roofline
