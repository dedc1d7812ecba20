// Compute ceilings per precision and engine of one target, every target's by this one derivation (issue 47):
// the target's compute suite's entries (view.entries) grouped into rows by the dimensions they carry (precision,
// engine, isa, vector width, threads, a tile kernel's variant; a device's name no isa, width or threads: "" and
// 0), with the theoretical peak of the model its facts name (RecordedTarget::peak_model), never by which target it is.
//
// Method:
//  - A row's value is the best (max) repetition of flop_per_second (op_per_second for integers), its median the
//    median of the repetitions.
//  - Peak model "x86_pipes" (the CPU's facts name it):
//    - A row's clock = the best clock_hz measured beside its own kernel calls (compute entries carry it), else
//      the best (max) clock_hz repetition of the clock benchmark at its thread count.
//    - Pipes (instructions per cycle per core) are measured, not assumed: the row's value at the lowest
//      thread count measured, divided by (threads x clock x ops per instruction), rounded to the nearest
//      plausible pipe count (plausible_pipes). ops_per_cycle_per_core = pipes x ops per instruction.
//    - theoretical = threads x the row's clock x ops_per_cycle_per_core; percent = 100 x value / theoretical.
//    - Cross-check: a small table of known microarchitectures (known_pipes, keyed by the target's
//      RecordedTarget::microarchitecture, the CPU's context.machine.microarchitecture) gives the pipe counts
//      datasheets imply; a disagreement is a note.
//    - The matrix engine's summary (matrix_engine.hpp, from the target's matrix_engine_* facts) and the clock and
//      microarchitecture caveats.
//  - Peak model "units_clock": theoretical = the facts' compute_units x clock x
//    ops_per_unit_per_clock["<precision>/<engine>"], at the clock measured beside the best repetition, else the
//    clock benchmark's at its thread count, else the facts' clock_hz (clock_source "reported"); none, with a note,
//    where the facts lack the figure.
//  - Any other model: no theoretical peak, a note.
//  - A value more than 10% above its theoretical peak (or the known-pipes table's) is flagged
//    (exceeds_theoretical): that is a counting bug (or a wrong clock), never something to clamp.
//  - The CPU instructions' counting conventions (FMA, AMX) are noted where the rows name an isa or instruction.
//
// Output keys (merged into the results file's `roofline` section):
//  compute_ceilings:  [{target, precision, isa, engine, vector_bits, threads (where the entries name it), value,
//                       unit, theoretical, percent, clock_hz, benchmark} + x86_pipes: ops_per_cycle_per_core; the
//                       other models: median, clock_source]  the best row per precision x engine x threads
//  compute_table:     [{precision, isa, vector_bits, threads, status ("measured"|"not supported"|"failed"),
//                       value (or null), median, unit, theoretical, percent, clock_hz, kernel, variant,
//                       instruction, ops_per_instruction, instructions_per_cycle, pipes,
//                       ops_per_cycle_per_core, known_pipes (array, empty when unknown),
//                       exceeds_theoretical, reason, benchmark}]  every row, incl. unsupported ones (the rows the
//                       target's suite context, context.suites["<prefix>compute"].not_supported, lists)
//  theoretical_peaks: [{precision, threads, isa, vector_bits, value, unit, clock_hz, source} + x86_pipes:
//                       ops_per_cycle_per_core, pipes]  the highest theoretical per precision x engine x threads
//  matrix_engine:     x86_pipes only (matrix_engine.hpp)
//  notes:             counting conventions, the clock method, disagreements and flags.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/results_targets.hpp"
#include "roofline/common/x86_pipes.hpp"  // known_pipes

namespace roofline {

// Returns {"compute_ceilings", "compute_table", "theoretical_peaks", "matrix_engine", "notes"} (see above) of
// `target`, one of recorded_targets(), from its part of the typed document (target_document), as the typed part of
// the section, built typed (issue 61).
RooflineSection derive_compute_ceilings(const ResultsDocument& part, const RecordedTarget& target);

// The plausible pipe count nearest (by ratio) to a measured instructions-per-cycle figure: one of
// 1, 2, 3, 4 or 1/2, 1/4 (one instruction every 2 or 4 cycles); 0 for a non-positive input.
double plausible_pipes(double instructions_per_cycle);

// threads x clock x operations per cycle per core.
double theoretical_peak(int threads, double clock_hz, double ops_per_cycle_per_core);

// Whether a measured value is more than `tolerance` (0.10 = 10%) above a theoretical peak.
bool exceeds_theoretical(double measured, double theoretical, double tolerance = 0.10);

}  // namespace roofline
