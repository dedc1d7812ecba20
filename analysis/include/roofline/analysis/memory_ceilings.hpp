// Memory ceilings per level (L1/L2/L3/DRAM) from the bandwidth sweep: plateau detection on the
// bandwidth-vs-working-set curve, labelled with reported cache sizes when they agree with the curve.
#pragma once

#include <nlohmann/json.hpp>

namespace roofline {

// Returns {"memory_ceilings": [...], "memory_levels": [...], "notes": [...]} (see results/README.md).
nlohmann::json derive_memory_ceilings(const nlohmann::json& results);

}  // namespace roofline
