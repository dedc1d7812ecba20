// Loading hwloc's topology with its diagnostics hidden (see hwloc_topology.hpp).
#include "roofline/facts/hwloc_topology.hpp"

#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace roofline {

hwloc_topology_t load_hwloc_topology_quietly(std::string* why) {
  // hwloc 2.0-2.9 read HWLOC_HIDE_ERRORS once, on the first message (2 = hide critical errors too);
  // hwloc 2.10 and later read HWLOC_SHOW_ERRORS instead (empty = show nothing). Set both before any load.
  ::setenv("HWLOC_HIDE_ERRORS", "2", 1);
  ::setenv("HWLOC_SHOW_ERRORS", "", 1);
  std::error_code ec;
  const bool have_sysfs = std::filesystem::is_directory("/sys/devices/system/cpu", ec);
  hwloc_topology_t topo = nullptr;
  if (hwloc_topology_init(&topo) != 0) {
    if (why != nullptr) *why = "hwloc could not be initialised";
    return nullptr;
  }
  if (hwloc_topology_load(topo) != 0) {
    hwloc_topology_destroy(topo);
    if (why != nullptr) *why = "hwloc could not load the topology";
    return nullptr;
  }
  if (!have_sysfs && why != nullptr) {
    *why = "hwloc could not read the topology: /sys/devices/system/cpu is missing (a chroot or minimal container?)";
  }
  return topo;
}

}  // namespace roofline
