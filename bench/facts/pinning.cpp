// Thread binding through hwloc: see pinning.hpp.
#include "roofline/facts/pinning.hpp"

#include "roofline/facts/hwloc_topology.hpp"

#include <hwloc.h>
#include <omp.h>

#include <algorithm>
#include <atomic>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/name_table.hpp"

namespace roofline {

constexpr NameTable<BindPolicy, 3> kBindNames{
    {{BindPolicy::compact, "compact"}, {BindPolicy::spread, "spread"}, {BindPolicy::none, "none"}}};

std::string_view to_string(BindPolicy b) { return name_of(kBindNames, b, "none"); }

BindPolicy parse_bind_policy(const std::string& text) {
  if (const auto b = value_of(kBindNames, text)) return *b;
  throw InputError(fmt::format("--bind '{}': expected compact, spread or none", text));
}

std::vector<int> binding_plan(const MachineFacts& machine, int threads, BindPolicy policy) {
  std::vector<int> pus;
  if (policy == BindPolicy::none || threads <= 0) return pus;
  std::vector<int> cores = machine.core_first_pu;
  if (cores.empty()) {
    for (int i = 0; i < machine.pus; ++i) cores.push_back(i);
  }
  const int n = static_cast<int>(cores.size());
  for (int t = 0; t < threads; ++t) {
    int index = 0;
    if (policy == BindPolicy::compact || threads >= n) {
      index = t % n;
    } else {
      // spread: evenly spaced cores, so a half-populated two-socket machine uses both sockets.
      index = static_cast<int>((static_cast<long long>(t) * n) / threads);
    }
    pus.push_back(cores[static_cast<std::size_t>(index)]);
  }
  return pus;
}

int core_kind_pu(const MachineFacts& machine, const CoreKind& kind) {
  for (const int pu : kind.pus) {
    if (std::find(machine.core_first_pu.begin(), machine.core_first_pu.end(), pu) != machine.core_first_pu.end()) return pu;
  }
  return kind.pus.empty() ? 0 : kind.pus.front();
}

bool pin_openmp_threads(int threads, const std::vector<int>& pus) {
  if (pus.empty()) return false;
  // One topology for the whole process: loading it is slow, binding with it is thread-safe.
  static hwloc_topology_t topo = [] {
    return load_hwloc_topology_quietly();
  }();
  if (topo == nullptr) return false;
  std::atomic<bool> ok{true};
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    hwloc_bitmap_only(set, static_cast<unsigned>(pus[static_cast<std::size_t>(t) % pus.size()]));
    if (hwloc_set_cpubind(topo, set, HWLOC_CPUBIND_THREAD) != 0) ok = false;
    hwloc_bitmap_free(set);
  }
  return ok;
}

std::string describe_binding(const std::vector<int>& pus) {
  if (pus.empty()) return "unbound";
  return fmt::format("PUs {}", fmt::join(pus, ","));
}

}  // namespace roofline
