// What an ARM64 CPU says about itself (issue 62, step 3: facts): the MIDR of each core (implementer, part, variant,
// revision) from /sys or /proc/cpuinfo, the core it names, and the kernel's HWCAP feature names (the "Features" line of
// /proc/cpuinfo is the kernel's rendering of AT_HWCAP and AT_HWCAP2, bit for bit). Pure parsers over the files' text,
// so that they build and are tested on every architecture; arm_cpu_facts() reads the running machine's files and
// finds nothing on a CPU that is not ARM. Core kinds (big.LITTLE, DynamIQ) are the distinct MIDRs among the cores.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "roofline/common/vocabulary.hpp"

namespace roofline {

// MIDR_EL1's fields (Arm ARM D19.2: implementer [31:24], variant [23:20], architecture [19:16], part [15:4],
// revision [3:0]).
struct ArmMidr {
  unsigned implementer = 0;
  unsigned variant = 0;
  unsigned architecture = 0;
  unsigned part = 0;
  unsigned revision = 0;
  friend bool operator==(const ArmMidr&, const ArmMidr&) = default;
};

ArmMidr decode_midr(std::uint64_t value);
// The text of /sys/devices/system/cpu/cpuN/regs/identification/midr_el1 ("0x00000000410fd4f0\n"); nullopt when it is
// not a hexadecimal number.
std::optional<ArmMidr> parse_midr(std::string_view text);

// A known core: its name ("Neoverse V2"), the microarchitecture key the peak tables use ("neoverse_v2"), and its
// implementer's name ("Arm", "NVIDIA", "Apple", "Ampere", ...). Sources: Linux arch/arm64/include/asm/cputype.h (the
// part numbers) and the vendors' technical reference manuals.
struct ArmCore {
  std::string_view name;
  std::string_view microarchitecture;
  std::string_view implementer;
};
// nullopt when the implementer/part pair is not in the table (the implementer's name is still known when it is:
// arm_implementer_name).
std::optional<ArmCore> arm_core(unsigned implementer, unsigned part);
std::string_view arm_implementer_name(unsigned implementer);  // "" when unknown

// One logical CPU of /proc/cpuinfo on ARM64: its number, MIDR and feature names.
struct ArmCpuEntry {
  int processor = -1;
  ArmMidr midr;
  std::set<std::string> features;
};
// Every "processor" block of an ARM64 /proc/cpuinfo ("CPU implementer : 0x41", "CPU variant : 0x0", "CPU part :
// 0xd4f", "CPU revision : 1", "Features : fp asimd ..."). Empty for an x86 /proc/cpuinfo (no implementer lines).
std::vector<ArmCpuEntry> parse_arm_cpuinfo(std::string_view text);

// The ISA levels and extensions the measuring side chooses kernels by, from the HWCAP names.
struct ArmFeatures {
  bool asimd = false;     // NEON (Advanced SIMD)
  bool fp16 = false;      // half-precision arithmetic, scalar and NEON (fphp and asimdhp)
  bool dotprod = false;   // SDOT/UDOT (asimddp)
  bool i8mm = false;      // SMMLA/UMMLA/USMMLA on NEON
  bool bf16 = false;      // BFDOT/BFMMLA/BFCVT on NEON
  bool sve = false;
  bool sve2 = false;
  bool sve_i8mm = false;  // svei8mm
  bool sve_bf16 = false;  // svebf16
  bool sme = false;
};
ArmFeatures arm_features(const std::set<std::string>& hwcap_names);

// The kernels' features (vocabulary.hpp) from the running process's AT_HWCAP and AT_HWCAP2 bits (getauxval: what the
// kernel, or qemu-user, says this process may run): NEON, its dot product and fp16 arithmetic (HWCAP), its int8 matrix
// multiply and bf16 (HWCAP2), SVE. Pure, so every host tests it.
IsaFeatures arm_isa_features(std::uint64_t hwcap, std::uint64_t hwcap2);

// A kind of core of the machine: its MIDR (variant and revision included), what it is, and which logical CPUs are it.
struct ArmCoreKind {
  ArmMidr midr;
  std::optional<ArmCore> core;
  std::vector<int> cpus;
  ArmFeatures features;  // the first such CPU's
};
// The distinct core kinds of the entries, in the order their first CPU appears.
std::vector<ArmCoreKind> arm_core_kinds(const std::vector<ArmCpuEntry>& entries);

// The running machine's: /proc/cpuinfo's blocks, each CPU's MIDR taken from /sys when /proc/cpuinfo lacks it. Empty on
// a CPU that is not ARM64.
std::vector<ArmCoreKind> arm_cpu_facts();

}  // namespace roofline
