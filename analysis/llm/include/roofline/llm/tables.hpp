// The tables of `roofline llm`, built once from its answer (answer.hpp) and rendered by the terminal output
// and the HTML section alike, so both show the same numbers.
#pragma once

#include <string>
#include <vector>

#include "roofline/report/report_tables.hpp"
#include "roofline/llm/answer.hpp"

namespace roofline::llm {

// Model, ceilings used, decode per batch, prefill, one layer's operations (decode and prefill), the
// measured comparison when the answer has one, the conventions.
std::vector<ReportTable> llm_tables(const LlmAnswer& answer);

// The answer's notes and the measured comparison's, in that order.
std::vector<std::string> llm_notes(const LlmAnswer& answer);

// All tables as aligned text, with a one-paragraph reading of the answer first.
std::string render_llm_text(const LlmAnswer& answer);

}  // namespace roofline::llm
