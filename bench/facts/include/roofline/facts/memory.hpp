// How much memory this run may use, and what pages it got. hwloc's NUMA memory can be wrong in VMs (ours
// reports 8 GB of 24), so the budget comes from /proc/meminfo's MemAvailable and, when set, the cgroup memory
// limit. The page record says whether the kernel granted the 2 MiB pages a buffer was asked for: under nested
// paging a 4 KiB page walk is expensive, so the same DRAM read differs by 1.4x between the two (issue 24).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "roofline/common/vocabulary.hpp"

namespace roofline {

// A file of /proc or /sys (or any text file) whole; nullopt when it cannot be read. The facts' one reader of them.
std::optional<std::string> read_text_file(const std::string& path);

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

// The transparent huge page mode: the bracketed words of /sys/kernel/mm/transparent_hugepage/{enabled,defrag}
// ("madvise", "always", "never", "defer+madvise", ...); empty when the file is absent (no THP in this kernel,
// or /sys not mounted), which `source` then says.
struct ThpMode {
  std::string enabled;
  std::string defrag;
  std::string source;
};
ThpMode detect_thp();
// The selected word of a THP setting file ("always [madvise] never" -> "madvise"); nullopt without brackets.
std::optional<std::string> parse_thp_setting(std::string_view text);

// A buffer's address range, [begin, end).
struct AddressRange {
  std::uintptr_t begin = 0;
  std::uintptr_t end = 0;
};

// What /proc/self/smaps says of the mappings that hold some buffers: each mapping overlapping any range
// counts once, whole (a mapping is the kernel's unit: smaps cannot split one).
struct SmapsTotals {
  int mappings = 0;
  std::uint64_t mapped_bytes = 0;    // Size
  std::uint64_t resident_bytes = 0;  // Rss
  std::uint64_t huge_bytes = 0;      // AnonHugePages: resident in transparent huge pages
  bool advised_huge = false;         // VmFlags "hg": madvise(MADV_HUGEPAGE)
  bool advised_no_huge = false;      // VmFlags "nh": madvise(MADV_NOHUGEPAGE)
};
// Parser, pure for testing: the totals of the mappings of `smaps` (the text of /proc/PID/smaps) that
// overlap `ranges`; mappings == 0 when none does.
SmapsTotals parse_smaps(std::string_view smaps, std::span<const AddressRange> ranges);

// The pages some buffers asked for and got, read after their first touch. One record serves any target
// whose buffers live in this process's address space: the CPU's arrays today, OpenCL/CUDA host buffers
// later (pinned, page-locked memory has its own story there).
struct PageRecord {
  PageSize requested = PageSize::huge_2m;
  bool recorded = false;  // smaps was read and some mapping held the buffers
  SmapsTotals totals;
  std::string source;     // "/proc/self/smaps", or why there is no record
  // The share of the resident bytes on huge pages (0 when nothing is resident).
  [[nodiscard]] double huge_fraction() const;
};
// From smaps text (nullopt: the file could not be read), pure for testing.
PageRecord page_record_from(const std::optional<std::string>& smaps, std::span<const AddressRange> buffers,
                            PageSize requested);
// Reads /proc/self/smaps now.
PageRecord page_record(std::span<const AddressRange> buffers, PageSize requested);

}  // namespace roofline
