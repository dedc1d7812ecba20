// An OpenCL device's facts as the target seam's TargetFacts (issue 22): kind, units, clock, memory levels (the
// global cache as a level when the device reports one, then global memory) and the theoretical-peak model
// ("units_clock" with per-vendor ops per unit per clock where we know one, else "" = unknown, said). Pure: built
// without OpenCL too, so a recorded device's facts are checked on any machine.
#pragma once

#include <cstdint>
#include <string>

#include "roofline/harness/target.hpp"
#include "roofline/opencl/device_facts.hpp"

namespace roofline::opencl {

// The host CPU's vector model, for a CPU device (PoCL runs kernels on the host's own cores): vector bits of its
// widest FMA, FMA pipes per core, and where both come from. bits 0: unknown (no model).
struct HostVectorModel {
  int vector_bits = 0;
  double fma_pipes = 0;
  bool vnni = false;   // int8 dot products in the vector unit (AVX512-VNNI / AVX-VNNI)
  std::string source;
};

// The host's model from cpuid (widest FMA ISA) and the microarchitecture's known FMA pipes (2 when unknown,
// said in source).
HostVectorModel host_vector_model();

// The host's caches as the CPU's plan believes them (plausible_caches.hpp: the one verdict), for a CPU device, whose
// kernels run on the host's cores in front of the host's memory (device_plan.hpp's host_caches builds it).
struct HostCaches {
  std::uint64_t largest_plausible_bytes = 0;  // the largest plausible cache all the host's cores use (0: none)
  bool last_unknown = false;                  // a last level is reported whose size is not plausible
  std::string source;                         // where the sizes come from ("hwloc", ...)
};

// `caches`: a CPU device's global cache is the host's last level; where the host's verdict says that level's size is
// not one a CPU has (a guest passed its host's 480 MiB L3) and the device reports more than the host's largest
// plausible cache, the size is not passed on: the level is listed with capacity 0 and the curve places it, as where
// the driver reports none.
TargetFacts target_facts(const DeviceFacts& d, const HostVectorModel& host, const HostCaches& caches = {});

}  // namespace roofline::opencl
