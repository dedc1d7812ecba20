// Machine facts: topology, memory, caches and ISA, each with the source it came from (hwloc first,
// cpuid/sysconf next; the measured curve, in analysis/, last). Recorded in every results file's context.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofline/facts/amx.hpp"
#include "roofline/common/vocabulary.hpp"

namespace roofline {

struct CacheInfo {
  int level = 0;                  // 1, 2, 3
  std::string type;               // "data", "unified", "instruction"
  std::uint64_t size_bytes = 0;   // of one instance
  int instances = 0;              // how many of them in the machine (0 when unknown)
  int cores_per_instance = 0;     // cores sharing one instance (0 when unknown)
  std::string source;             // "hwloc", "cpuid", "sysconf"
};

// One kind of core of a hybrid CPU (big.LITTLE and DynamIQ, Intel's P and E cores), as hwloc's cpukinds list it
// (issue 62; bench/facts/core_kinds.cpp). Figures measured on it carry its name (the entry's labels.core_kind).
struct CoreKind {
  std::string name;               // the figures' label: its CoreType ("IntelCore"), else its core ("cortex_a78"), else "kindN"
  std::vector<int> pus;           // its PUs (OS indices), ascending
  int efficiency = -1;            // hwloc's rank, higher = more performance per core (-1: hwloc could not rank it)
  std::string core_type;          // hwloc's CoreType info (x86: IntelAtom, IntelCore), "" when none
  std::string microarchitecture;  // ARM: the core its PUs' MIDR names ("cortex_a78"), "" when unknown
  long long frequency_max_mhz = 0;   // hwloc's FrequencyMaxMHz (0: not reported)
  long long frequency_base_mhz = 0;  // hwloc's FrequencyBaseMHz (0: not reported)
  long long linux_capacity = 0;      // hwloc's LinuxCapacity, the kernel's cpu_capacity (0: not reported)
  std::string source;             // "hwloc cpukinds"
};

struct MachineFacts {
  std::string hostname;
  std::string cpu_vendor;         // "GenuineIntel", "AuthenticAMD"
  std::string cpu_model;          // brand string
  int cpu_family = 0;
  int cpu_model_number = 0;
  int cpu_stepping = 0;
  std::string microarchitecture;  // "sapphire_rapids", "zen5", ... or "" when not in our table
  bool hypervisor = false;
  // Run by a user-mode emulator (qemu-user: emulation.hpp), with what showed it; written only when true, so that a
  // native run's file is unchanged. An emulated run's timings are the emulator's, never the CPU's ceilings.
  bool emulated = false;
  std::string emulation;

  int packages = 0;
  int cores = 0;
  int pus = 0;
  int numa_nodes = 0;
  std::string topology_source;    // "hwloc" or "sysconf"
  // OS indices of one PU per core, in hwloc's logical core order (what compact/spread binding picks from).
  std::vector<int> core_first_pu;
  // The core kinds, least efficient first, when there are two or more (a hybrid CPU); empty on a homogeneous one, whose
  // one kind (or none) hwloc lists is not recorded, so that its results file is unchanged.
  std::vector<CoreKind> core_kinds;

  std::uint64_t memory_total_bytes = 0;
  std::uint64_t memory_available_bytes = 0;
  std::string memory_source;      // "/proc/meminfo MemAvailable", "cgroup memory.max", ...
  std::uint64_t hwloc_numa_memory_bytes = 0;  // what hwloc reports, kept to show disagreements
  // Transparent huge pages (memory.hpp's ThpMode): "madvise", "always", "never"; empty when the kernel shows none.
  std::string thp_enabled;
  std::string thp_defrag;
  std::string thp_source;

  std::vector<CacheInfo> caches;  // data and unified caches, by level
  IsaFeatures isa;                // as detected, before any --max-isa cap; amx_* only when amx.usable()
  AmxFact amx;                    // whether tile instructions may run here, and which gate decided

  std::string compiler;
  std::string compiler_flags;
  std::string build_type;
  std::string git_revision;
  std::string os;

  std::vector<std::string> notes; // fallbacks taken and disagreements seen, said in the output

  // Size of one data/unified cache at `level`, or 0 when unknown.
  [[nodiscard]] std::uint64_t cache_bytes(int level) const;
  // Two or more core kinds: the 1-thread compute and bandwidth rows are measured once on a PU of each.
  [[nodiscard]] bool hybrid() const { return core_kinds.size() > 1; }
};

// Detects the running machine. Never throws for a missing source: falls back and notes it.
MachineFacts detect_machine();

// The facts as the JSON object stored in results files' context.machine.
nlohmann::json to_json(const MachineFacts& facts);
// Reads the object written by to_json (for tests and re-rendering); throws InputError on missing fields.
MachineFacts machine_from_json(const nlohmann::json& j);

// Human-readable listing for `roofline machine`.
std::string format_machine(const MachineFacts& facts);

}  // namespace roofline
