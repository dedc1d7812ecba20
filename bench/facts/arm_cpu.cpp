// ARM64 CPU identity and features from /proc/cpuinfo and /sys: see arm_cpu.hpp.
// (By hand, not through Google's cpu_features (Debian's libcpu-features-dev 0.7): it reads the running CPU only, so its
// parsers cannot be tested on the x86 machines CI runs on, and it names no core; the part-number table is what a
// roofline needs from it, and that table is ours either way.)
#include "roofline/facts/arm_cpu.hpp"
#include "roofline/facts/memory.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include <fmt/format.h>

namespace roofline {
namespace {

struct KnownCore {
  unsigned implementer;
  unsigned part;
  ArmCore core;
};

// Part numbers: Linux arch/arm64/include/asm/cputype.h. Products built on a core identify as that core (Graviton2 and
// Ampere Altra: Neoverse N1; Graviton3: V1; Graviton4 and Grace: V2; Jetson Orin: Cortex-A78AE), except where the
// implementer has its own code (Microsoft's Cobalt 100, an N2, reports implementer 0x6d).
constexpr std::array kCores{
    KnownCore{0x41, 0xd03, {"Cortex-A53", "cortex_a53", "Arm"}},
    KnownCore{0x41, 0xd04, {"Cortex-A35", "cortex_a35", "Arm"}},
    KnownCore{0x41, 0xd05, {"Cortex-A55", "cortex_a55", "Arm"}},
    KnownCore{0x41, 0xd07, {"Cortex-A57", "cortex_a57", "Arm"}},
    KnownCore{0x41, 0xd08, {"Cortex-A72", "cortex_a72", "Arm"}},
    KnownCore{0x41, 0xd09, {"Cortex-A73", "cortex_a73", "Arm"}},
    KnownCore{0x41, 0xd0a, {"Cortex-A75", "cortex_a75", "Arm"}},
    KnownCore{0x41, 0xd0b, {"Cortex-A76", "cortex_a76", "Arm"}},
    KnownCore{0x41, 0xd0c, {"Neoverse N1", "neoverse_n1", "Arm"}},
    KnownCore{0x41, 0xd0d, {"Cortex-A77", "cortex_a77", "Arm"}},
    KnownCore{0x41, 0xd0e, {"Cortex-A76AE", "cortex_a76ae", "Arm"}},
    KnownCore{0x41, 0xd40, {"Neoverse V1", "neoverse_v1", "Arm"}},
    KnownCore{0x41, 0xd41, {"Cortex-A78", "cortex_a78", "Arm"}},
    KnownCore{0x41, 0xd42, {"Cortex-A78AE", "cortex_a78ae", "Arm"}},
    KnownCore{0x41, 0xd44, {"Cortex-X1", "cortex_x1", "Arm"}},
    KnownCore{0x41, 0xd46, {"Cortex-A510", "cortex_a510", "Arm"}},
    KnownCore{0x41, 0xd47, {"Cortex-A710", "cortex_a710", "Arm"}},
    KnownCore{0x41, 0xd48, {"Cortex-X2", "cortex_x2", "Arm"}},
    KnownCore{0x41, 0xd49, {"Neoverse N2", "neoverse_n2", "Arm"}},
    KnownCore{0x41, 0xd4b, {"Cortex-A78C", "cortex_a78c", "Arm"}},
    KnownCore{0x41, 0xd4c, {"Cortex-X1C", "cortex_x1c", "Arm"}},
    KnownCore{0x41, 0xd4d, {"Cortex-A715", "cortex_a715", "Arm"}},
    KnownCore{0x41, 0xd4e, {"Cortex-X3", "cortex_x3", "Arm"}},
    KnownCore{0x41, 0xd4f, {"Neoverse V2", "neoverse_v2", "Arm"}},
    KnownCore{0x41, 0xd80, {"Cortex-A520", "cortex_a520", "Arm"}},
    KnownCore{0x41, 0xd81, {"Cortex-A720", "cortex_a720", "Arm"}},
    KnownCore{0x41, 0xd82, {"Cortex-X4", "cortex_x4", "Arm"}},
    KnownCore{0x41, 0xd84, {"Neoverse V3", "neoverse_v3", "Arm"}},
    KnownCore{0x41, 0xd85, {"Cortex-X925", "cortex_x925", "Arm"}},
    KnownCore{0x41, 0xd87, {"Cortex-A725", "cortex_a725", "Arm"}},
    KnownCore{0x41, 0xd8e, {"Neoverse N3", "neoverse_n3", "Arm"}},
    KnownCore{0x46, 0x001, {"A64FX", "a64fx", "Fujitsu"}},
    KnownCore{0x48, 0xd01, {"TaiShan v110 (Kunpeng 920)", "tsv110", "HiSilicon"}},
    KnownCore{0x4e, 0x003, {"Denver", "denver", "NVIDIA"}},
    KnownCore{0x4e, 0x004, {"Carmel", "carmel", "NVIDIA"}},
    KnownCore{0x51, 0x001, {"Oryon", "oryon", "Qualcomm"}},
    KnownCore{0x61, 0x022, {"M1 Icestorm", "apple_icestorm", "Apple"}},
    KnownCore{0x61, 0x023, {"M1 Firestorm", "apple_firestorm", "Apple"}},
    KnownCore{0x61, 0x024, {"M1 Pro Icestorm", "apple_icestorm", "Apple"}},
    KnownCore{0x61, 0x025, {"M1 Pro Firestorm", "apple_firestorm", "Apple"}},
    KnownCore{0x61, 0x028, {"M1 Max Icestorm", "apple_icestorm", "Apple"}},
    KnownCore{0x61, 0x029, {"M1 Max Firestorm", "apple_firestorm", "Apple"}},
    KnownCore{0x61, 0x032, {"M2 Blizzard", "apple_blizzard", "Apple"}},
    KnownCore{0x61, 0x033, {"M2 Avalanche", "apple_avalanche", "Apple"}},
    KnownCore{0x61, 0x034, {"M2 Pro Blizzard", "apple_blizzard", "Apple"}},
    KnownCore{0x61, 0x035, {"M2 Pro Avalanche", "apple_avalanche", "Apple"}},
    KnownCore{0x61, 0x038, {"M2 Max Blizzard", "apple_blizzard", "Apple"}},
    KnownCore{0x61, 0x039, {"M2 Max Avalanche", "apple_avalanche", "Apple"}},
    KnownCore{0x6d, 0xd49, {"Azure Cobalt 100 (Neoverse N2)", "neoverse_n2", "Microsoft"}},
    KnownCore{0xc0, 0xac3, {"AmpereOne", "ampere1", "Ampere"}},
    KnownCore{0xc0, 0xac4, {"AmpereOne A", "ampere1a", "Ampere"}},
};

constexpr std::array<std::pair<unsigned, std::string_view>, 12> kImplementers{{{0x41, "Arm"},
                                                                               {0x42, "Broadcom"},
                                                                               {0x43, "Cavium"},
                                                                               {0x46, "Fujitsu"},
                                                                               {0x48, "HiSilicon"},
                                                                               {0x4e, "NVIDIA"},
                                                                               {0x50, "APM"},
                                                                               {0x51, "Qualcomm"},
                                                                               {0x61, "Apple"},
                                                                               {0x6d, "Microsoft"},
                                                                               {0xc0, "Ampere"},
                                                                               {0x70, "Phytium"}}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n')) s.remove_suffix(1);
  return s;
}

// A number written as /proc/cpuinfo writes them: "0x41", "0xd4f" or "1"; nullopt otherwise.
std::optional<std::uint64_t> number(std::string_view s) {
  s = trim(s);
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    s.remove_prefix(2);
    base = 16;
  }
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, base);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

}  // namespace

ArmMidr decode_midr(std::uint64_t v) {
  return {static_cast<unsigned>((v >> 24) & 0xff), static_cast<unsigned>((v >> 20) & 0xf),
          static_cast<unsigned>((v >> 16) & 0xf), static_cast<unsigned>((v >> 4) & 0xfff), static_cast<unsigned>(v & 0xf)};
}

std::optional<ArmMidr> parse_midr(std::string_view text) {
  const std::string_view t = trim(text);
  if (t.size() < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) return std::nullopt;
  const auto v = number(t);
  if (!v) return std::nullopt;
  return decode_midr(*v);
}

std::optional<ArmCore> arm_core(unsigned implementer, unsigned part) {
  for (const KnownCore& k : kCores) {
    if (k.implementer == implementer && k.part == part) return k.core;
  }
  return std::nullopt;
}

std::string_view arm_implementer_name(unsigned implementer) {
  for (const auto& [code, name] : kImplementers) {
    if (code == implementer) return name;
  }
  return {};
}

std::vector<ArmCpuEntry> parse_arm_cpuinfo(std::string_view text) {
  std::vector<ArmCpuEntry> out;
  ArmCpuEntry current;
  bool has_processor = false, has_implementer = false;
  const auto flush = [&] {
    if (has_processor && has_implementer) out.push_back(current);
    current = ArmCpuEntry{};
    has_processor = has_implementer = false;
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t eol = text.find('\n', pos);
    const std::string_view line = text.substr(pos, eol == std::string_view::npos ? std::string_view::npos : eol - pos);
    pos = eol == std::string_view::npos ? text.size() + 1 : eol + 1;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    if (key == "processor") {
      flush();
      if (const auto n = number(value)) {
        current.processor = static_cast<int>(*n);
        has_processor = true;
      }
    } else if (key == "CPU implementer") {
      if (const auto n = number(value)) {
        current.midr.implementer = static_cast<unsigned>(*n);
        has_implementer = true;
      }
    } else if (key == "CPU variant") {
      if (const auto n = number(value)) current.midr.variant = static_cast<unsigned>(*n);
    } else if (key == "CPU architecture") {
      // "8" on every ARM64 kernel; MIDR's architecture field is 0xf ("see the ID registers") on every ARMv8 core.
      current.midr.architecture = 0xf;
    } else if (key == "CPU part") {
      if (const auto n = number(value)) current.midr.part = static_cast<unsigned>(*n);
    } else if (key == "CPU revision") {
      if (const auto n = number(value)) current.midr.revision = static_cast<unsigned>(*n);
    } else if (key == "Features") {
      std::size_t p = 0;
      while (p < value.size()) {
        const std::size_t sp = value.find(' ', p);
        const std::string_view word = value.substr(p, sp == std::string_view::npos ? std::string_view::npos : sp - p);
        if (!word.empty()) current.features.emplace(word);
        p = sp == std::string_view::npos ? value.size() : sp + 1;
      }
    }
  }
  flush();
  return out;
}

ArmFeatures arm_features(const std::set<std::string>& f) {
  const auto has = [&](const char* name) { return f.count(name) > 0; };
  ArmFeatures a;
  a.asimd = has("asimd");
  a.fp16 = has("fphp") && has("asimdhp");
  a.dotprod = has("asimddp");
  a.i8mm = has("i8mm");
  a.bf16 = has("bf16");
  a.sve = has("sve");
  a.sve2 = has("sve2");
  a.sve_i8mm = has("svei8mm");
  a.sve_bf16 = has("svebf16");
  a.sme = has("sme");
  return a;
}

std::vector<ArmCoreKind> arm_core_kinds(const std::vector<ArmCpuEntry>& entries) {
  std::vector<ArmCoreKind> kinds;
  for (const ArmCpuEntry& e : entries) {
    auto it = std::find_if(kinds.begin(), kinds.end(), [&](const ArmCoreKind& k) { return k.midr == e.midr; });
    if (it == kinds.end()) {
      kinds.push_back({e.midr, arm_core(e.midr.implementer, e.midr.part), {}, arm_features(e.features)});
      it = kinds.end() - 1;
    }
    it->cpus.push_back(e.processor);
  }
  return kinds;
}

IsaFeatures arm_isa_features(std::uint64_t hwcap, std::uint64_t hwcap2) {
  // Linux's AT_HWCAP and AT_HWCAP2 bits for ARM64 (arch/arm64/include/uapi/asm/hwcap.h: HWCAP_ASIMD, HWCAP_ASIMDHP,
  // HWCAP_ASIMDDP, HWCAP_SVE; HWCAP2_I8MM, HWCAP2_BF16), spelled here so that x86 builds test them.
  constexpr std::uint64_t kAsimd = 1u << 1, kAsimdHp = 1u << 10, kAsimdDp = 1u << 20, kSve = 1u << 22;
  constexpr std::uint64_t kI8mm = 1u << 13, kBf16 = 1u << 14;
  IsaFeatures f;
  f.neon = (hwcap & kAsimd) != 0;
  f.neon_fp16 = f.neon && (hwcap & kAsimdHp) != 0;
  f.neon_dotprod = f.neon && (hwcap & kAsimdDp) != 0;
  f.neon_i8mm = f.neon && (hwcap2 & kI8mm) != 0;
  f.neon_bf16 = f.neon && (hwcap2 & kBf16) != 0;
  f.sve = (hwcap & kSve) != 0;
  return f;
}

std::vector<ArmCoreKind> arm_cpu_facts() {
  const std::optional<std::string> cpuinfo = read_text_file("/proc/cpuinfo");
  if (!cpuinfo) return {};
  std::vector<ArmCpuEntry> entries = parse_arm_cpuinfo(*cpuinfo);
  // /sys's MIDR (the whole register, read by the kernel per CPU) over /proc/cpuinfo's fields where both exist.
  for (ArmCpuEntry& e : entries) {
    const auto midr = read_text_file(fmt::format("/sys/devices/system/cpu/cpu{}/regs/identification/midr_el1", e.processor));
    if (midr) {
      if (const auto m = parse_midr(*midr)) e.midr = *m;
    }
  }
  return arm_core_kinds(entries);
}

}  // namespace roofline
