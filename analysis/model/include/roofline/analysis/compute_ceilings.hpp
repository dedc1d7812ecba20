// Compute ceilings per precision from the FMA / dot-product peak kernels (suite "compute"), with the
// theoretical peak at the measured clock (suite "clock").
//
// Method:
//  - A row's clock = the best clock_hz measured beside its own kernel calls (compute entries carry it), else
//    the best (max) clock_hz repetition of the clock benchmark at its thread count.
//  - A row is one precision x isa x vector width x thread count; its value is the best (max) repetition
//    of flop_per_second (op_per_second for int8), its median the median of the repetitions.
//  - Pipes (instructions per cycle per core) are measured, not assumed: the row's value at the lowest
//    thread count measured, divided by (threads x clock x ops per instruction), rounded to the nearest
//    plausible pipe count (plausible_pipes). ops_per_cycle_per_core = pipes x ops per instruction.
//  - theoretical = threads x the row's clock x ops_per_cycle_per_core; percent = 100 x value / theoretical.
//  - Cross-check: a small table of known microarchitectures (known_pipes, keyed by
//    context.machine.microarchitecture) gives the pipe counts datasheets imply; a disagreement is a note,
//    and a value more than 10% above either theoretical peak is flagged (exceeds_theoretical): that is a
//    counting bug (or a wrong clock), never something to clamp.
//
// Output keys (merged into the results file's `roofline` section):
//  compute_ceilings:  [{precision, isa, vector_bits, threads, value, unit, theoretical, percent, clock_hz,
//                       ops_per_cycle_per_core, benchmark}]  the best row per precision x threads
//  compute_table:     [{precision, isa, vector_bits, threads, status ("measured"|"not supported"|"failed"),
//                       value (or null), median, unit, theoretical, percent, clock_hz, kernel, variant,
//                       instruction, ops_per_instruction, instructions_per_cycle, pipes,
//                       ops_per_cycle_per_core, known_pipes (array, empty when unknown),
//                       exceeds_theoretical, reason, benchmark}]  every row, incl. unsupported ones
//  theoretical_peaks: [{precision, threads, isa, vector_bits, value, unit, clock_hz, ops_per_cycle_per_core,
//                       pipes, source}]  the highest theoretical per precision x threads
//  notes:             counting conventions, the clock method, disagreements and flags.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis/results_view.hpp"
#include "roofline/common/x86_pipes.hpp"  // known_pipes

namespace roofline {

// Returns {"compute_ceilings", "compute_table", "theoretical_peaks", "notes"} (see above).
// The CPU's ceilings (view.host_document(), the host's microarchitecture); the json overload builds a view.
nlohmann::json derive_compute_ceilings(const ResultsView& view);
nlohmann::json derive_compute_ceilings(const nlohmann::json& results);

// The plausible pipe count nearest (by ratio) to a measured instructions-per-cycle figure: one of
// 1, 2, 3, 4 or 1/2, 1/4 (one instruction every 2 or 4 cycles); 0 for a non-positive input.
double plausible_pipes(double instructions_per_cycle);

// threads x clock x operations per cycle per core.
double theoretical_peak(int threads, double clock_hz, double ops_per_cycle_per_core);

// Whether a measured value is more than `tolerance` (0.10 = 10%) above a theoretical peak.
bool exceeds_theoretical(double measured, double theoretical, double tolerance = 0.10);

}  // namespace roofline
