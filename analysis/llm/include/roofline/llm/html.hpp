// The LLM section in HTML: tokens/s and latency per token against the batch, decode and prefill (the
// steps and one layer's operations) on the roofline chart of the ceilings used, and the same tables as
// the terminal. Every string from a file is escaped; SVG elements carry class and data-* attributes so
// tests and the browser check can find them.
#pragma once

#include <string>

#include "roofline/llm/answer.hpp"

namespace roofline::llm {

// The section alone (<section id="llm">...</section>), for a page that has the report's stylesheet.
std::string render_llm_section(const LlmAnswer& answer);

// A self-contained page around the section (inline CSS and SVG, no scripts, no network).
std::string render_llm_page(const LlmAnswer& answer);

}  // namespace roofline::llm
