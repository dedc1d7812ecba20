// AMX usability: the pure classification over recorded cpuid/XCR0 values and the fact's JSON, on every architecture
// (a results file of an x86 machine reads back anywhere). The process-level probe is x86-64's: amx_probe.cpp.
#include "roofline/facts/amx.hpp"


#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "roofline/common/errors.hpp"
#include "roofline/common/name_table.hpp"

namespace roofline {
namespace {

// The tile state's XCR0 bits.
constexpr std::uint64_t kXcr0Tile = (1ULL << 17) | (1ULL << 18);  // XTILECFG, XTILEDATA

constexpr NameTable<AmxStatus, 5> kNames{{
    {AmxStatus::usable, "usable"},
    {AmxStatus::not_enabled_by_os, "advertised but not enabled by the OS"},
    {AmxStatus::permission_refused, "permission refused"},
    {AmxStatus::faulted, "faulted"},
    {AmxStatus::absent, "absent"},
}};

bool bit(std::uint64_t reg, int n) { return ((reg >> n) & 1U) != 0; }

}  // namespace

std::string_view to_string(AmxStatus s) { return name_of(kNames, s, "absent"); }

AmxStatus parse_amx_status(std::string_view text) {
  if (const std::optional<AmxStatus> s = value_of(kNames, text)) return *s;
  throw InputError(fmt::format("machine facts: amx status '{}' is not one of usable, advertised but not enabled by "
                               "the OS, permission refused, faulted, absent", text));
}

bool amx_advertised_and_enabled(const AmxCpuid& c) {
  return c.max_leaf >= 7 && bit(c.leaf7_edx, 24) && c.osxsave && (c.xcr0 & kXcr0Tile) == kXcr0Tile;
}

AmxFact classify_amx(const AmxCpuid& c, const AmxProbe& p) {
  AmxFact f;
  if (c.max_leaf >= 7) {
    f.bf16 = bit(c.leaf7_edx, 22);
    f.tile = bit(c.leaf7_edx, 24);
    f.int8 = bit(c.leaf7_edx, 25);
    f.fp16 = bit(c.leaf7_1_eax, 21);
  }
  if (!f.tile) {
    f.status = AmxStatus::absent;
    f.source = "cpuid leaf 7 EDX bit 24 (AMX-TILE) clear";
    return f;
  }
  if (!amx_advertised_and_enabled(c)) {
    f.status = AmxStatus::not_enabled_by_os;
    f.source = "xgetbv: XCR0 bits 17-18 (XTILECFG, XTILEDATA) not both set";
    f.detail = c.osxsave ? fmt::format("XCR0 = {:#x}", c.xcr0) : "OSXSAVE clear: the OS enables no extended state";
    return f;
  }
  if (!p.permission_requested || p.permission_errno != 0) {
    f.status = AmxStatus::permission_refused;
    f.source = "arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)";
    f.detail = p.permission_requested ? std::strerror(p.permission_errno) : "not requested";
    return f;
  }
  if (!p.trial_ran || p.trial_faulted) {
    f.status = AmxStatus::faulted;
    f.source = "trial ldtilecfg/tilezero/tilerelease under a SIGILL guard";
    f.detail = p.trial_ran ? "SIGILL: the CPU or hypervisor advertises AMX but faults on it" : "trial not run";
    return f;
  }
  f.status = AmxStatus::usable;
  f.source = "cpuid leaf 7 + XCR0 bits 17-18 + arch_prctl permission + trial instruction";
  return f;
}

nlohmann::json to_json(const AmxFact& f) {
  return {{"status", std::string(to_string(f.status))}, {"source", f.source}, {"detail", f.detail},
          {"advertised", {{"amx_tile", f.tile}, {"amx_bf16", f.bf16}, {"amx_int8", f.int8}, {"amx_fp16", f.fp16}}}};
}

AmxFact amx_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("status") || !j["status"].is_string()) {
    throw InputError("machine facts: 'amx' must be an object with a 'status' string");
  }
  AmxFact f;
  f.status = parse_amx_status(j["status"].get<std::string>());
  try {
    f.source = j.value("source", "");
    f.detail = j.value("detail", "");
    const nlohmann::json adv = j.value("advertised", nlohmann::json::object());
    f.tile = adv.value("amx_tile", false);
    f.bf16 = adv.value("amx_bf16", false);
    f.int8 = adv.value("amx_int8", false);
    f.fp16 = adv.value("amx_fp16", false);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("machine facts: amx: {}", e.what()));
  }
  return f;
}

}  // namespace roofline
