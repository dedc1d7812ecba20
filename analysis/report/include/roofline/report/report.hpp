// Rendering a results file for people: the terminal summary, the self-contained HTML report with its SVG
// charts, a standalone SVG of the roofline chart, and CSV. They take the typed results model (read_results,
// results_document.hpp) and an advertised-figures spec as read (load_spec). Every string taken from the file is
// escaped in HTML. Renderers never throw for missing sections: they skip them with a short note.
#pragma once

#include <optional>
#include <string>

#include "roofline/model/results_document.hpp"
#include "roofline/report/spec.hpp"

namespace roofline {

// Aligned tables with units: machine facts, compute ceilings, memory ceilings, placements, notes,
// conventions; with a spec (from load_spec) also advertised vs measured.
std::string render_text_summary(const ResultsDocument& results, const std::optional<Spec>& spec = std::nullopt);

// One self-contained HTML page (inline SVG, no network, no scripts); with a spec, advertised vs measured too.
std::string render_html_report(const ResultsDocument& results, const std::optional<Spec>& spec = std::nullopt);

// The roofline chart alone, as a standalone SVG file.
std::string render_svg_chart(const ResultsDocument& results);

// One row per benchmark entry (repetitions and aggregates) with its labels and all its counters.
std::string render_csv(const ResultsDocument& results);

}  // namespace roofline
