// Listing OpenCL devices as targets, and the host CPU's vector model a CPU device's peak is computed from.
#include <algorithm>

#include <fmt/format.h>

#include "roofline/facts/cpuid.hpp"
#include "roofline/common/x86_pipes.hpp"
#include "roofline/opencl/discovery.hpp"
#include "roofline/opencl/provider.hpp"
#include "roofline/opencl/target_facts.hpp"

namespace roofline::opencl {

HostVectorModel host_vector_model() {
  HostVectorModel m;
  const IsaFeatures isa = cpuid_features();
  m.vector_bits = isa.supports(Isa::avx512) ? 512 : isa.supports(Isa::avx2) ? 256 : isa.sse2 ? 128 : 0;
  m.vnni = isa.avx512_vnni || isa.avx_vnni;
  const CpuIdentity id = cpuid_identity();
  const std::string uarch = microarchitecture_name(id.vendor, id.family, id.model);
  const std::string isa_name = m.vector_bits == 512 ? "avx512" : "avx2";
  const std::vector<double> known = known_pipes(uarch, "fma", "fp32", isa_name, m.vector_bits);
  if (!known.empty()) {
    m.fma_pipes = *std::max_element(known.begin(), known.end());
    m.source = fmt::format("cpuid; FMA pipes of {} from the known-pipes table{}", uarch,
                           known.size() > 1 ? " (SKUs differ: the larger)" : "");
  } else {
    m.fma_pipes = 2;
    m.source = fmt::format("cpuid; 2 FMA pipes assumed ({} is not in the known-pipes table)",
                           uarch.empty() ? id.brand : uarch);
  }
  return m;
}

std::vector<TargetFacts> list_targets(std::vector<std::string>& notes, const HostCaches& caches) {
  const DeviceList list = discover_devices();
  notes.insert(notes.end(), list.notes.begin(), list.notes.end());
  std::vector<TargetFacts> targets;
  const HostVectorModel host = host_vector_model();
  for (const DeviceFacts& d : list.devices) targets.push_back(target_facts(d, host, caches));
  return targets;
}

}  // namespace roofline::opencl
