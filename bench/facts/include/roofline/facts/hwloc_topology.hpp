// The one way this project loads an hwloc topology: quietly. hwloc prints its own diagnostics on stderr
// (e.g. "[hwloc/linux] failed to find sysfs cpu topology directory" in a chroot without /sys), which would
// break the one-line-on-stderr contract of every command; we silence them and say what happened in the
// machine facts' notes instead.
#pragma once

#include <string>

#include <hwloc.h>

namespace roofline {

// Loads this machine's topology with hwloc's messages hidden. Returns nullptr when hwloc cannot, and then
// sets `why` (when given) to a sentence for the notes. The caller destroys a returned topology.
hwloc_topology_t load_hwloc_topology_quietly(std::string* why = nullptr);

}  // namespace roofline
