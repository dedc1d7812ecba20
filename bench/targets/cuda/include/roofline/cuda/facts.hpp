// A CUDA device's TargetFacts (target.hpp) from its properties (issue 23): id "cuda:N", the SMs as compute units,
// the peak SM clock, HBM size, memory levels [L2 (its capacity), HBM], the peak model "units_clock" with the
// compute capability's row of the peak table (peak_table.hpp) as ops_per_unit_per_clock, and the properties
// themselves in `details`. Built in every configuration (no CUDA needed), so recorded devices are read back and
// tested anywhere.
#pragma once

#include <nlohmann/json.hpp>

#include "roofline/harness/target.hpp"
#include "roofline/cuda/properties.hpp"

namespace roofline::cuda {

inline constexpr const char* kCudaApi = "cuda";

TargetFacts cuda_target_facts(const CudaProperties& p);

nlohmann::json to_json(const CudaProperties& p);
// Reads what to_json wrote (a target's `details`, a recorded device); throws InputError naming the first missing
// or mistyped field.
CudaProperties cuda_properties_from_json(const nlohmann::json& j);

}  // namespace roofline::cuda
