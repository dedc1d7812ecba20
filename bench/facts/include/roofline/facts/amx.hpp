// Whether this process may run AMX tile instructions, as a machine fact with its source. Four gates, in
// order: the CPU advertises AMX (cpuid leaf 7: EDX bits 22/24/25 for BF16/TILE/INT8, subleaf 1 EAX bit 21
// for FP16), the OS saves the tile state (XCR0 bits 17-18), Linux grants this process the tile data state
// (arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA), once per process; threads inherit it), and a trial
// tile instruction runs without SIGILL (some VMs advertise AMX and fault). The classification is a pure
// function over recorded values, so tests feed it what other machines reported.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace roofline {

enum class AmxStatus { usable, not_enabled_by_os, permission_refused, faulted, absent };
// "usable", "advertised but not enabled by the OS", "permission refused", "faulted", "absent".
std::string_view to_string(AmxStatus s);
// Inverse of to_string; throws InputError for any other text.
AmxStatus parse_amx_status(std::string_view text);

// The raw cpuid/xgetbv values detection reads (recorded as they are, so other machines can be replayed).
struct AmxCpuid {
  unsigned max_leaf = 0;           // cpuid leaf 0 EAX
  std::uint32_t leaf7_edx = 0;     // cpuid(7, 0).EDX
  std::uint32_t leaf7_1_eax = 0;   // cpuid(7, 1).EAX
  bool osxsave = false;            // cpuid(1).ECX bit 27: xgetbv may be executed
  std::uint64_t xcr0 = 0;          // xgetbv(0), 0 when osxsave is clear
};

// What the process-level steps gave (probe_amx on the live machine; made up in tests).
struct AmxProbe {
  bool permission_requested = false;
  int permission_errno = 0;        // 0: granted
  bool trial_ran = false;
  bool trial_faulted = false;      // SIGILL caught during the trial
};

struct AmxFact {
  AmxStatus status = AmxStatus::absent;
  std::string source;              // which gate decided, e.g. "cpuid leaf 7 EDX bit 24"
  std::string detail;              // errno text, the XCR0 value, ...
  // Advertised by cpuid (whatever the later gates said).
  bool tile = false, bf16 = false, int8 = false, fp16 = false;
  [[nodiscard]] bool usable() const { return status == AmxStatus::usable; }
};

// Whether cpuid advertises AMX-TILE and XCR0 enables its state: the two gates probe_amx needs passed.
bool amx_advertised_and_enabled(const AmxCpuid& cpuid);
// The fact from recorded values: pure.
AmxFact classify_amx(const AmxCpuid& cpuid, const AmxProbe& probe);

// The live machine's values (cpuid.cpp).
AmxCpuid read_amx_cpuid();
// Requests the tile data permission and runs the guarded trial, once per process (later calls return the
// first outcome). Call only when amx_advertised_and_enabled.
AmxProbe probe_amx();
// The trial alone: loads a tile configuration, zeroes a tile, releases it, under a SIGILL handler; true
// when it faulted. Safe on any x86-64 (without AMX or without the permission it faults, and says so).
bool amx_trial_faults();
// read_amx_cpuid + probe_amx when the first gates pass + classify_amx.
AmxFact detect_amx();

nlohmann::json to_json(const AmxFact& fact);
// Throws InputError on a malformed object or an unknown status.
AmxFact amx_from_json(const nlohmann::json& j);

}  // namespace roofline
