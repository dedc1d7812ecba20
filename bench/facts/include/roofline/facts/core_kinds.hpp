// Core kinds (issue 62): hwloc's cpukinds read into the machine facts (machine.hpp's CoreKind), named for the figures
// measured on them (the PU a kind's 1-thread measurements are bound to: pinning.hpp's core_kind_pu).
#pragma once

#include <string>
#include <vector>

#include <hwloc.h>

#include "roofline/facts/machine.hpp"

namespace roofline {

// Every kind hwloc lists, in its order (least efficient first), each with its infos (CoreType, FrequencyMaxMHz,
// FrequencyBaseMHz, LinuxCapacity) and, on ARM, the core its first PU's MIDR names; named by name_core_kinds. Empty when
// hwloc lists none.
std::vector<CoreKind> read_core_kinds(hwloc_topology_t topology);

// Gives each kind its name: its CoreType, else its microarchitecture, else "kind<index>"; a name two kinds would share
// gets "_<index>" after it. Only letters, digits, '_', '-' and '.' are kept (the name is part of benchmark names).
void name_core_kinds(std::vector<CoreKind>& kinds);

}  // namespace roofline
