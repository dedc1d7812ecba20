// Binding the OpenMP threads that run a kernel to distinct cores through hwloc, so that first-touch
// initialization and the timed kernel run on the same cores every time.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "roofline/facts/machine.hpp"

namespace roofline {

// How a run's threads are bound to cores (--bind).
enum class BindPolicy { compact, spread, none };
std::string_view to_string(BindPolicy b);
// "compact", "spread" or "none"; InputError naming --bind otherwise.
BindPolicy parse_bind_policy(const std::string& text);

// OS PU indices thread 0..threads-1 are bound to under `policy`: compact fills cores in order,
// spread spaces them evenly over the machine's cores (and so over packages and NUMA nodes).
std::vector<int> binding_plan(const MachineFacts& machine, int threads, BindPolicy policy);

// The PU the 1-thread measurements of a core kind (a hybrid CPU's: machine.hpp's CoreKind) are bound to: the kind's first
// PU that is a core's first PU (core_first_pu, as compact binding picks), else its first PU.
int core_kind_pu(const MachineFacts& machine, const CoreKind& kind);

// Binds the threads of an OpenMP team of `threads` threads per binding_plan. Returns false (and leaves
// the threads unbound) when hwloc cannot bind here, e.g. in a container without the permission.
bool pin_openmp_threads(int threads, const std::vector<int>& pus);

// "PUs 0,1" style description for the output.
std::string describe_binding(const std::vector<int>& pus);

}  // namespace roofline
