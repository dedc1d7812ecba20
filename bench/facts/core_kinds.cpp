// Core kinds from hwloc's cpukinds: see core_kinds.hpp.
#include "roofline/facts/core_kinds.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "roofline/facts/arm_cpu.hpp"

namespace roofline {
namespace {

long long info_number(std::string_view value) {
  long long n = 0;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
  return ec == std::errc() && n > 0 ? n : 0;
}

std::string clean(std::string_view text) {
  std::string out;
  for (const char c : text) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.';
    out += keep ? c : '_';
  }
  return out;
}

}  // namespace

std::vector<CoreKind> read_core_kinds(hwloc_topology_t topology) {
  std::vector<CoreKind> kinds;
  if (topology == nullptr) return kinds;
  const int n = hwloc_cpukinds_get_nr(topology, 0);
  if (n <= 0) return kinds;
  const std::vector<ArmCoreKind> arm = arm_cpu_facts();  // empty on a CPU that is not ARM64
  hwloc_bitmap_t set = hwloc_bitmap_alloc();
  for (int i = 0; i < n; ++i) {
    int efficiency = -1;
    unsigned nr_infos = 0;
    struct hwloc_info_s* infos = nullptr;
    if (hwloc_cpukinds_get_info(topology, static_cast<unsigned>(i), set, &efficiency, &nr_infos, &infos, 0) != 0) continue;
    CoreKind k;
    k.efficiency = efficiency;
    k.source = "hwloc cpukinds";
    for (int pu = hwloc_bitmap_first(set); pu >= 0; pu = hwloc_bitmap_next(set, pu)) k.pus.push_back(pu);
    for (unsigned j = 0; j < nr_infos; ++j) {
      const std::string_view name = infos[j].name != nullptr ? infos[j].name : "";
      const std::string_view value = infos[j].value != nullptr ? infos[j].value : "";
      // An info listed twice is the first's (hwloc 2.9 appends this system's LinuxCapacity to a recorded topology's).
      if (name == "CoreType" && k.core_type.empty()) k.core_type = value;
      else if (name == "FrequencyMaxMHz" && k.frequency_max_mhz == 0) k.frequency_max_mhz = info_number(value);
      else if (name == "FrequencyBaseMHz" && k.frequency_base_mhz == 0) k.frequency_base_mhz = info_number(value);
      else if (name == "LinuxCapacity" && k.linux_capacity == 0) k.linux_capacity = info_number(value);
    }
    for (const ArmCoreKind& a : arm) {
      if (k.pus.empty() || a.core == std::nullopt) continue;
      if (std::find(a.cpus.begin(), a.cpus.end(), k.pus.front()) != a.cpus.end()) {
        k.microarchitecture = a.core->microarchitecture;
      }
    }
    if (!k.pus.empty()) kinds.push_back(std::move(k));
  }
  hwloc_bitmap_free(set);
  name_core_kinds(kinds);
  return kinds;
}

void name_core_kinds(std::vector<CoreKind>& kinds) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const CoreKind& k = kinds[i];
    const std::string_view base = !k.core_type.empty() ? std::string_view(k.core_type)
                                  : !k.microarchitecture.empty() ? std::string_view(k.microarchitecture)
                                                                 : std::string_view();
    names.push_back(base.empty() ? fmt::format("kind{}", i) : clean(base));
  }
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const bool shared = std::count(names.begin(), names.end(), names[i]) > 1;
    kinds[i].name = shared ? fmt::format("{}_{}", names[i], i) : names[i];
  }
}

}  // namespace roofline
