// The facts' one seam between the host machine and its architecture (issue 62): what the CPU says about itself,
// read by its own means (x86-64: cpuid, xgetbv and the AMX probe, cpu_x86_64.cpp; ARM64: MIDR and HWCAP,
// cpu_arm64.cpp), picked by the build (cmake/arch/<arch>.cmake). machine.cpp, hwloc and sysconf are the same
// for every architecture. Private to bench/facts.
#pragma once

#include <string_view>
#include <vector>

#include "roofline/facts/machine.hpp"

namespace roofline {

// Fills the CPU's identity (vendor, model, family/model/stepping, microarchitecture, hypervisor), its ISA features
// and the AMX fact.
void detect_cpu_identity(MachineFacts& m);
// The caches the architecture's own source reports (the fallback when hwloc has none), each with that source.
std::vector<CacheInfo> arch_caches();
// The names of those sources, as the facts' text says them: the caches' ("cpuid") and the ISA features'.
std::string_view arch_cache_source();
std::string_view arch_isa_source();
// The architecture this binary was built for, as uname's machine and the kernel's /proc/sys/kernel/arch name it
// ("x86_64", "aarch64"): what emulation.cpp compares the kernel's with.
std::string_view arch_machine_name();

}  // namespace roofline
