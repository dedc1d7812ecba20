// The roofline of one target (issue 21; issue 47: every target's, the host CPU's included, by this one derivation),
// from its own benchmark entries and facts:
//  memory_ceilings / memory_levels / page_size_ceilings: derive_memory_ceilings (memory_ceilings.hpp): levels per
//                   thread count (none named: the whole device) on the combined curve of its swept kernels, named by
//                   its level names (level_names) with its reported levels as priors; each kernel's curve in one
//                   variant (`width`, `pattern`, `reference_width`) where it ran several;
//  compute_ceilings, compute_table, theoretical_peaks (matrix_engine on the x86 model): derive_compute_ceilings
//                   (compute_ceilings.hpp): rows by the dimensions its entries carry, the theoretical peak from the
//                   model its facts name ("x86_pipes", "units_clock"; else null, noted);
//  dequant_ceilings, ridge_points, transfer_ceilings and launch_latency (where it measured them);
//  placements, crossovers, best_backends, roof_violations: each GEMM point on this target's ceilings by the one
//                   placement every target's points get (placement.hpp: the resident level is the innermost measured
//                   level whose range holds its operands, else main memory; `offload`: the roof were its operands
//                   sent from the host on every call, min(peak, best host-to-device transfer x AI), null without
//                   transfers).
// Every entry carries `target`; a device's notes start with its id (target_prefix), the CPU's as they always were.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/model/results_targets.hpp"

namespace roofline {

// {"compute_ceilings", "memory_ceilings", "memory_levels", "ridge_points", "placements", "notes", and what the
//  parts above give} of `target` (the first six empty when the file has no entries of it), from its part of the typed
//  document (target_document, results_targets.hpp; issue 61, step 3). derive_roofline (roofline_section.hpp) appends every target's. Its key figures are
//  key_figures.hpp's, every target's alike.
RooflineSection derive_target_roofline(const ResultsDocument& results, const RecordedTarget& target);

}  // namespace roofline
