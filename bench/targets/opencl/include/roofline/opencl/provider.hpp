// The OpenCL target's entry points for the harness (issue 22): the provider "opencl" (list: every device the ICD
// loader finds, as TargetFacts; open: a Target whose suites run the DeviceWork of work.hpp through the Runner).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "roofline/harness/run_config.hpp"
#include "roofline/harness/target.hpp"
#include "roofline/opencl/device_plan.hpp"
#include "roofline/opencl/work.hpp"

namespace roofline::opencl {

// Every OpenCL device as TargetFacts (nothing measured); notes say why the list is empty. `caches`: the host's, which a
// CPU device's facts take their cache's plausibility from (target_facts.hpp).
std::vector<TargetFacts> list_targets(std::vector<std::string>& notes, const HostCaches& caches = {});

// The run's options for the device suites: profile, --sizes, --gemm-shape, --batches.
WorkOptions work_options(const RunConfig& config);

// Opens a listed device (facts.details holds its DeviceFacts); TargetLost when it cannot be opened. `host`: the
// host's caches, which a CPU device's plan sizes its sweep from (device_plan.hpp).
std::unique_ptr<Target> open_target(const TargetFacts& facts, const HostCaches& host);

// {"opencl", list_targets, open_target with the caches of `host`}: what cli/targets.cpp registers.
TargetProvider opencl_provider(const MachineFacts& host);

}  // namespace roofline::opencl
