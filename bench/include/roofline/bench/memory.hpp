// How much memory this run may use. hwloc's NUMA memory can be wrong in VMs (ours reports 8 GB of 24), so
// the budget comes from /proc/meminfo's MemAvailable and, when set, the cgroup memory limit.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace roofline {

struct MemoryInfo {
  std::uint64_t total_bytes = 0;      // MemTotal, or the cgroup limit when lower
  std::uint64_t available_bytes = 0;  // MemAvailable, or what the cgroup still allows when lower
  std::string source;                 // which files the figures came from
};

// Reads /proc/meminfo and the cgroup (v2 memory.max/memory.current, v1 memory.limit_in_bytes/usage).
MemoryInfo detect_memory();

// Parsers, pure for testing. A value in /proc/meminfo ("MemAvailable:  123 kB") in bytes.
std::optional<std::uint64_t> parse_meminfo_field(std::string_view meminfo, std::string_view field);
// A cgroup limit file: a byte count, or "max" / a huge v1 sentinel meaning no limit (nullopt).
std::optional<std::uint64_t> parse_cgroup_limit(std::string_view text);

// The working-set budget for benchmarks: 70% of available memory, leaving room for the OS and the run.
std::uint64_t memory_budget(const MemoryInfo& info);

}  // namespace roofline
