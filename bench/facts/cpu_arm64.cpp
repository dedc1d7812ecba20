// ARM64's side of the facts' seam (cpu_arch.hpp): the identity from MIDR (/sys, else /proc/cpuinfo: arm_cpu.cpp), the
// features from this process's HWCAP and HWCAP2 (getauxval), no AMX. Caches come from hwloc (which reads /sys) or
// sysconf.
#include <sys/auxv.h>

#include <fmt/format.h>

#include "cpu_arch.hpp"
#include "roofline/facts/arm_cpu.hpp"

namespace roofline {

void detect_cpu_identity(MachineFacts& m) {
  const std::vector<ArmCoreKind> kinds = arm_cpu_facts();
  if (kinds.empty()) {
    // qemu-user shows the host's /proc/cpuinfo, and some kernels hide MIDR: the features below still hold.
    m.cpu_model = "ARM64 CPU (no MIDR in /proc/cpuinfo or /sys)";
    m.notes.push_back("no MIDR readable: the ARM64 core is unknown");
  } else {
    const ArmCoreKind& k = kinds.front();  // the first CPU's kind; big.LITTLE machines list more (arm_cpu_facts)
    m.cpu_vendor = std::string(arm_implementer_name(k.midr.implementer));
    m.cpu_model = k.core ? std::string(k.core->name) : fmt::format("ARM64 part {:#x}", k.midr.part);
    m.cpu_family = static_cast<int>(k.midr.architecture);
    m.cpu_model_number = static_cast<int>(k.midr.part);
    m.cpu_stepping = static_cast<int>(k.midr.variant << 4 | k.midr.revision);
    if (k.core) m.microarchitecture = std::string(k.core->microarchitecture);
    if (kinds.size() > 1) m.notes.push_back(fmt::format("{} kinds of ARM64 core; facts of the first", kinds.size()));
  }
  m.isa = arm_isa_features(getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
  m.amx.source = "not an x86-64 CPU";
}

std::vector<CacheInfo> arch_caches() { return {}; }
std::string_view arch_cache_source() { return "MIDR"; }
std::string_view arch_isa_source() { return "HWCAP and HWCAP2 (getauxval)"; }
std::string_view arch_machine_name() { return "aarch64"; }

}  // namespace roofline
