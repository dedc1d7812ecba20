// Escaping text for HTML and SVG. Every string that comes from a results or spec file (host name, CPU
// model, benchmark name, notes) passes through here before it reaches a report, so a file cannot inject
// markup or script into the page.
#pragma once

#include <string>
#include <string_view>

namespace roofline {

// Escapes & < > " ' for use in element text and in double- or single-quoted attribute values.
std::string html_escape(std::string_view text);

// Escapes a Markdown table cell: HTML specials as entities, Markdown punctuation with a backslash,
// newlines as spaces.
std::string markdown_escape(std::string_view text);

}  // namespace roofline
