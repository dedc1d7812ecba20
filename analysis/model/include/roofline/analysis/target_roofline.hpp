// The roofline of one target other than the host CPU (issue 21), from its own benchmark entries and facts:
//  memory_ceilings / memory_levels: levels named from its memory_levels (plateaus of its bandwidth curve,
//                   the reference kernel `read`; without plateaus, each size's level from the capacities), each
//                   kernel's curve in one vector width (the best geometric mean over the sizes all widths ran at:
//                   `width`, `reference_width`; the max over widths at each size would be lifted by noise);
//  compute_ceilings: derive_compute_ceilings (compute_ceilings.hpp), the CPU's derivation: precision x engine
//                   (its entries name no isa, width or threads), best repetition; theoretical from its peak_model
//                   ("units_clock": compute_units x clock x ops_per_unit_per_clock["<precision>/<engine>"], the clock
//                   the best repetition measured beside it (counter clock_hz; clock_source "measured") else the
//                   facts' clock_hz ("reported"); else null, noted);
//  ridge_points, transfer_ceilings, launch_latency;
//  placements, crossovers, best_backends, roof_violations: each GEMM point on this target's ceilings by the one
//                   placement every target's points get (placement.hpp: the resident level is the innermost measured
//                   level whose range holds its operands, else main memory; `offload`: the roof were its operands
//                   sent from the host on every call, min(peak, best host-to-device transfer x AI), null without
//                   transfers).
// Every entry carries `target`; none names a thread count (the whole device runs each kernel).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/analysis/results_view.hpp"

namespace roofline {

// {"compute_ceilings", "memory_ceilings", "memory_levels", "ridge_points", "placements", "transfer_ceilings",
//  "launch_latency", "notes"; with GEMM points "crossovers", "best_backends", "roof_violations"} of `target` (all
//  empty when the file has no entries of it). Its key figures are key_figures.hpp's, every target's alike.
nlohmann::json derive_target_roofline(const ResultsView& view, const TargetView& target);

}  // namespace roofline
