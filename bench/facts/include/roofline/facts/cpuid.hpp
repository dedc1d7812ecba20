// What the CPU says about itself through the cpuid instruction: identity, ISA features (with the OS's
// consent from xgetbv for AVX/AVX-512/AMX state) and cache geometry. The fallback when hwloc knows less.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/facts/machine.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

struct CpuIdentity {
  std::string vendor;  // "GenuineIntel", "AuthenticAMD", ...
  std::string brand;   // brand string, trimmed
  int family = 0;      // display family (base + extended)
  int model = 0;       // display model (with extended model)
  int stepping = 0;
  bool hypervisor = false;
};

CpuIdentity cpuid_identity();
IsaFeatures cpuid_features();
// Caches from cpuid leaf 4 (Intel) or 0x8000001D (AMD): data and unified caches only, source "cpuid".
std::vector<CacheInfo> cpuid_caches();

// A microarchitecture name for known vendor/family/model triples ("sapphire_rapids", "zen4", ...), or "".
std::string microarchitecture_name(const std::string& vendor, int family, int model);

}  // namespace roofline
