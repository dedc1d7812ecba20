// The typed roofline section as the report reads it: the section of a document; the roofs themselves are the model's
// (roofline_section.hpp, over the typed records). Private to roofline::report.
#pragma once

#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"
#include "roofline/model/roofline_section.hpp"

namespace roofline::report_detail {

// The roofs of the typed section are the model's (roofline_section.hpp).
using roofline::compute_roof;
using roofline::memory_level_names;
using roofline::memory_roof;
using roofline::MemoryRoof;

// The section of a document, or an empty one (plain Google Benchmark JSON has none).
const RooflineSection& section_of(const ResultsDocument& results);

}  // namespace roofline::report_detail
