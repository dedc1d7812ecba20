// Rendering a results file for people: the terminal summary, the self-contained HTML report with its SVG
// charts, a standalone SVG of the roofline chart, and CSV. Every string taken from the file is escaped in
// HTML. Renderers never throw for missing sections: they skip them with a short note.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace roofline {

// Aligned tables with units: machine facts, compute ceilings, memory ceilings, placements, notes,
// conventions; with a spec (from load_spec, or null) also advertised vs measured.
std::string render_text_summary(const nlohmann::json& results);
std::string render_text_summary(const nlohmann::json& results, const nlohmann::json& spec);

// One self-contained HTML page (inline SVG, no network, no scripts). `spec` is an advertised-figures spec
// (from load_spec) or null.
std::string render_html_report(const nlohmann::json& results, const nlohmann::json& spec);

// The roofline chart alone, as a standalone SVG file.
std::string render_svg_chart(const nlohmann::json& results);

// One row per benchmark entry (repetitions and aggregates) with its labels and all its counters.
std::string render_csv(const nlohmann::json& results);

}  // namespace roofline
