// Small readers the report renderers share: which thread count a chart shows, the measured clock, the unit
// of a precision. They never throw on a missing key (a report renders what is there and says what is not).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofline {

// The roofline section, or an empty object.
const nlohmann::json& roofline_of(const nlohmann::json& results);

// The array at roofline.<key>, or an empty array when absent or not an array.
const nlohmann::json& roofline_array(const nlohmann::json& results, const std::string& key);

// The thread count the main chart shows: the largest in the compute/memory ceilings (0 when none).
int report_threads(const nlohmann::json& results);

// The measured clock in Hz: compute ceilings' clock_hz, else the clock benchmark, else
// context.machine.measured_clock_hz; 0 when none.
double measured_clock_hz(const nlohmann::json& results);

// "OP/s" for integer precisions, "FLOP/s" otherwise (or the entry's own "unit" when it has one).
std::string rate_unit(const std::string& precision);
std::string rate_unit_of(const nlohmann::json& entry);

// Precisions present in the compute ceilings, in a fixed order (fp64, fp32, bf16, fp16, int8, others).
std::vector<std::string> report_precisions(const nlohmann::json& results);

// A number field of an object, or `fallback`.
double num(const nlohmann::json& obj, const char* key, double fallback = 0.0);
// A string field of an object (numbers converted), or `fallback`.
std::string str(const nlohmann::json& obj, const char* key, const std::string& fallback = "");

}  // namespace roofline
