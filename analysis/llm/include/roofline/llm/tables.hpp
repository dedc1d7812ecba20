// The tables of `roofline llm`, built once from its JSON answer (summary.hpp) and rendered by the terminal
// output and the HTML section alike, so both show the same numbers.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis/report_tables.hpp"

namespace roofline::llm {

// Model, ceilings used, decode per batch, prefill, one layer's operations (decode and prefill), the
// measured comparison when the answer has one, the conventions.
std::vector<ReportTable> llm_tables(const nlohmann::json& answer);

// The answer's notes and the measured comparison's, in that order.
nlohmann::json llm_notes(const nlohmann::json& answer);

// All tables as aligned text, with a one-paragraph reading of the answer first.
std::string render_llm_text(const nlohmann::json& answer);

}  // namespace roofline::llm
