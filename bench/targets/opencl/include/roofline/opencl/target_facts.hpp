// An OpenCL device's facts as the target seam's TargetFacts (issue 22): kind, units, clock, memory levels (the
// global cache as a level when the device reports one, then global memory) and the theoretical-peak model
// ("units_clock" with per-vendor ops per unit per clock where we know one, else "" = unknown, said). Pure: built
// without OpenCL too, so a recorded device's facts are checked on any machine.
#pragma once

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

TargetFacts target_facts(const DeviceFacts& d, const HostVectorModel& host);

}  // namespace roofline::opencl
