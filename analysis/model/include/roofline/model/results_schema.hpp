// The types and signs of the fields a results file's roofline section must have, checked once when the
// file is read, so that no renderer or comparison meets a ceiling whose value is the string "fast" or a
// negative placement. Unknown fields are allowed (the schema grows by adding fields); known fields of the
// wrong type, sign or vocabulary are bad input.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace roofline {

// Throws InputError "<file>: roofline.<array>[i].<field> <what is wrong>" for the first bad field of the
// compute_ceilings, memory_ceilings, ridge_points and placements arrays.
void check_roofline_fields(const nlohmann::json& roofline, const std::string& file);

// Throws InputError "<file>: benchmarks[i].<field> <what is wrong>" (or "context.machine.<field> ...") for the
// first benchmark entry, label or machine fact the analysis reads whose type is wrong, so that `--rederive`
// and the renderers meet only well-typed input. `doc` has a "benchmarks" array and a "context" object.
void check_input_fields(const nlohmann::json& doc, const std::string& file);

}  // namespace roofline
