// Small readers the report renderers share: which thread count a chart shows, the measured clock, the unit
// of a precision. They read the typed results model (results_document.hpp) and never throw on a missing field
// (a report renders what is there and says what is not).
#pragma once

#include <string>
#include <vector>

#include "roofline/model/results_document.hpp"

namespace roofline {

// The thread count the main chart shows: the largest in the compute/memory ceilings and placements (0 when none).
int report_threads(const ResultsDocument& results);

// The measured clock in Hz: compute ceilings' clock_hz, else the clock benchmark, else
// context.machine.measured_clock_hz (files of older builds); 0 when none.
double measured_clock_hz(const ResultsDocument& results);

// "OP/s" for integer precisions, "FLOP/s" otherwise.
std::string rate_unit(const std::string& precision);

// A ceiling's or placement's unit: its own "unit" when it has one, else its precision's.
template <class Record>
std::string rate_unit_of(const Record& record) {
  const std::string unit = record.unit.value_or("");
  return unit.empty() ? rate_unit(record.precision.value_or("")) : unit;
}

// An emulated run's warning (context.machine.emulated, issue 62): its "ceilings" are the emulator's speed, so every
// report says so before its first figure; "" for a native run.
std::string emulation_warning(const ResultsDocument& results);

// Precisions present in the compute ceilings, in a fixed order (fp64, fp32, bf16, fp16, int8, others).
std::vector<std::string> report_precisions(const ResultsDocument& results);

}  // namespace roofline
