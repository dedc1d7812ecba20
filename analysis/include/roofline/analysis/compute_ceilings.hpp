// Compute ceilings per precision from the FMA/dot-product peak kernels, with the theoretical peak at the
// measured clock.
#pragma once

#include <nlohmann/json.hpp>

namespace roofline {

// Returns {"compute_ceilings": [...], "theoretical_peaks": [...], "notes": [...]} (see results/README.md).
nlohmann::json derive_compute_ceilings(const nlohmann::json& results);

}  // namespace roofline
