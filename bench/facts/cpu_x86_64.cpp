// x86-64's side of the facts' seam (cpu_arch.hpp): identity, features and caches from cpuid (cpuid.cpp), the
// OS's consent from xgetbv, AMX from its probe (amx_probe.cpp).
#include "cpu_arch.hpp"
#include "roofline/facts/cpuid.hpp"

namespace roofline {

void detect_cpu_identity(MachineFacts& m) {
  const CpuIdentity id = cpuid_identity();
  m.cpu_vendor = id.vendor;
  m.cpu_model = id.brand;
  m.cpu_family = id.family;
  m.cpu_model_number = id.model;
  m.cpu_stepping = id.stepping;
  m.hypervisor = id.hypervisor;
  m.microarchitecture = microarchitecture_name(id.vendor, id.family, id.model);
  m.isa = cpuid_features();
  m.amx = detect_amx();
  // Kernels see AMX only when every gate passed: a tile instruction without the OS's permission faults.
  if (!m.amx.usable()) m.isa.amx_tile = m.isa.amx_bf16 = m.isa.amx_int8 = m.isa.amx_fp16 = false;
}

std::vector<CacheInfo> arch_caches() { return cpuid_caches(); }
std::string_view arch_cache_source() { return "cpuid"; }
std::string_view arch_isa_source() { return "cpuid + xgetbv"; }
std::string_view arch_machine_name() { return "x86_64"; }

}  // namespace roofline
