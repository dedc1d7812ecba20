// cpuid/xgetbv queries: see cpuid.hpp. Uses the compiler's <cpuid.h>; a feature counts only when both the
// CPU has it and the OS saves its register state (XCR0), else a kernel using it would fault.
#include "roofline/facts/cpuid.hpp"
#include "roofline/facts/amx.hpp"

#include <cpuid.h>

#include <array>
#include <cstring>

namespace roofline {
namespace {

struct Regs {
  unsigned a = 0, b = 0, c = 0, d = 0;
};

Regs cpuid(unsigned leaf, unsigned subleaf = 0) {
  Regs r;
  __cpuid_count(leaf, subleaf, r.a, r.b, r.c, r.d);
  return r;
}

unsigned max_leaf(unsigned base) { return __get_cpuid_max(base, nullptr); }

std::uint64_t xgetbv0() {
  unsigned lo = 0, hi = 0;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (static_cast<std::uint64_t>(hi) << 32) | lo;
}

bool bit(unsigned reg, int n) { return ((reg >> n) & 1U) != 0; }

std::string trim(std::string s) {
  const auto first = s.find_first_not_of(' ');
  if (first == std::string::npos) return {};
  const auto last = s.find_last_not_of(' ');
  return s.substr(first, last - first + 1);
}

}  // namespace

CpuIdentity cpuid_identity() {
  CpuIdentity id;
  const Regs v = cpuid(0);
  char vendor[13] = {};
  std::memcpy(vendor, &v.b, 4);
  std::memcpy(vendor + 4, &v.d, 4);
  std::memcpy(vendor + 8, &v.c, 4);
  id.vendor = vendor;

  const Regs f = cpuid(1);
  const int base_family = static_cast<int>((f.a >> 8) & 0xF);
  const int base_model = static_cast<int>((f.a >> 4) & 0xF);
  const int ext_family = static_cast<int>((f.a >> 20) & 0xFF);
  const int ext_model = static_cast<int>((f.a >> 16) & 0xF);
  id.family = base_family == 0xF ? base_family + ext_family : base_family;
  id.model = (base_family == 0x6 || base_family == 0xF) ? (ext_model << 4) + base_model : base_model;
  id.stepping = static_cast<int>(f.a & 0xF);
  id.hypervisor = bit(f.c, 31);

  if (max_leaf(0x80000000) >= 0x80000004) {
    std::array<char, 49> brand{};
    for (unsigned i = 0; i < 3; ++i) {
      const Regs r = cpuid(0x80000002 + i);
      std::memcpy(brand.data() + 16 * i, &r.a, 4);
      std::memcpy(brand.data() + 16 * i + 4, &r.b, 4);
      std::memcpy(brand.data() + 16 * i + 8, &r.c, 4);
      std::memcpy(brand.data() + 16 * i + 12, &r.d, 4);
    }
    id.brand = trim(brand.data());
  }
  return id;
}

IsaFeatures cpuid_features() {
  IsaFeatures f;
  const Regs l1 = cpuid(1);
  f.sse2 = bit(l1.d, 26);
  f.sse4_2 = bit(l1.c, 20);
  const bool osxsave = bit(l1.c, 27);
  const std::uint64_t xcr0 = osxsave ? xgetbv0() : 0;
  const bool os_avx = (xcr0 & 0x6) == 0x6;             // XMM and YMM state
  const bool os_avx512 = os_avx && (xcr0 & 0xE0) == 0xE0;  // opmask, ZMM_Hi256, Hi16_ZMM
  const bool os_amx = (xcr0 & 0x60000) == 0x60000;     // XTILECFG, XTILEDATA

  f.avx = bit(l1.c, 28) && os_avx;
  f.fma = bit(l1.c, 12) && os_avx;
  f.f16c = bit(l1.c, 29) && os_avx;
  if (max_leaf(0) >= 7) {
    const Regs l7 = cpuid(7, 0);
    f.avx2 = bit(l7.b, 5) && os_avx;
    f.avx512f = bit(l7.b, 16) && os_avx512;
    f.avx512dq = bit(l7.b, 17) && os_avx512;
    f.avx512bw = bit(l7.b, 30) && os_avx512;
    f.avx512vl = bit(l7.b, 31) && os_avx512;
    f.avx512_vnni = bit(l7.c, 11) && os_avx512;
    f.avx512_fp16 = bit(l7.d, 23) && os_avx512;
    f.amx_bf16 = bit(l7.d, 22) && os_amx;
    f.amx_tile = bit(l7.d, 24) && os_amx;
    f.amx_int8 = bit(l7.d, 25) && os_amx;
    const Regs l71 = cpuid(7, 1);
    f.avx_vnni = bit(l71.a, 4) && os_avx;
    f.avx512_bf16 = bit(l71.a, 5) && os_avx512;
    f.amx_fp16 = bit(l71.a, 21) && os_amx;
  }
  return f;
}

AmxCpuid read_amx_cpuid() {
  AmxCpuid c;
  c.max_leaf = max_leaf(0);
  c.osxsave = bit(cpuid(1).c, 27);
  c.xcr0 = c.osxsave ? xgetbv0() : 0;
  if (c.max_leaf >= 7) {
    c.leaf7_edx = cpuid(7, 0).d;
    c.leaf7_1_eax = cpuid(7, 1).a;
  }
  return c;
}

std::vector<CacheInfo> cpuid_caches() {
  std::vector<CacheInfo> out;
  const std::string vendor = cpuid_identity().vendor;
  unsigned leaf = 0;
  if (vendor == "GenuineIntel" && max_leaf(0) >= 4) {
    leaf = 4;
  } else if (vendor == "AuthenticAMD" && max_leaf(0x80000000) >= 0x8000001D) {
    leaf = 0x8000001D;
  } else {
    return out;
  }
  for (unsigned sub = 0; sub < 16; ++sub) {
    const Regs r = cpuid(leaf, sub);
    const unsigned type = r.a & 0x1F;  // 0 none, 1 data, 2 instruction, 3 unified
    if (type == 0) break;
    if (type == 2) continue;
    CacheInfo c;
    c.level = static_cast<int>((r.a >> 5) & 0x7);
    c.type = type == 1 ? "data" : "unified";
    const std::uint64_t ways = ((r.b >> 22) & 0x3FF) + 1;
    const std::uint64_t partitions = ((r.b >> 12) & 0x3FF) + 1;
    const std::uint64_t line = (r.b & 0xFFF) + 1;
    const std::uint64_t sets = static_cast<std::uint64_t>(r.c) + 1;
    c.size_bytes = ways * partitions * line * sets;
    // Logical processors sharing this cache (an upper bound the CPU reports, not what the VM gives us).
    c.cores_per_instance = static_cast<int>(((r.a >> 14) & 0xFFF) + 1);
    c.source = "cpuid";
    out.push_back(c);
  }
  return out;
}

std::string microarchitecture_name(const std::string& vendor, int family, int model) {
  struct Row {
    const char* vendor;
    int family;
    int model_lo;
    int model_hi;
    const char* name;
  };
  // Only families whose FMA/dot-product widths differ matter to the compute suite's cross-check.
  static constexpr std::array<Row, 18> kTable{{
      {"GenuineIntel", 6, 0x55, 0x55, "skylake_x"},  // also Cascade/Cooper Lake
      {"GenuineIntel", 6, 0x6A, 0x6C, "icelake_x"},
      {"GenuineIntel", 6, 0x7D, 0x7E, "icelake"},
      {"GenuineIntel", 6, 0x8F, 0x8F, "sapphire_rapids"},
      {"GenuineIntel", 6, 0xCF, 0xCF, "emerald_rapids"},
      {"GenuineIntel", 6, 0xAD, 0xAE, "granite_rapids"},
      {"GenuineIntel", 6, 0x97, 0x9A, "alder_lake"},
      {"GenuineIntel", 6, 0xB7, 0xBF, "raptor_lake"},
      {"GenuineIntel", 6, 0x3C, 0x3F, "haswell"},
      {"GenuineIntel", 6, 0x4E, 0x5E, "skylake"},
      {"GenuineIntel", 6, 0x8E, 0x9E, "skylake"},
      {"AuthenticAMD", 0x17, 0x00, 0x2F, "zen1"},
      {"AuthenticAMD", 0x17, 0x30, 0xFF, "zen2"},
      {"AuthenticAMD", 0x19, 0x00, 0x0F, "zen3"},
      {"AuthenticAMD", 0x19, 0x20, 0x5F, "zen3"},
      {"AuthenticAMD", 0x19, 0x10, 0x1F, "zen4"},
      {"AuthenticAMD", 0x19, 0x60, 0xAF, "zen4"},
      {"AuthenticAMD", 0x1A, 0x00, 0xFF, "zen5"},
  }};
  for (const Row& r : kTable) {
    if (vendor == r.vendor && family == r.family && model >= r.model_lo && model <= r.model_hi) return r.name;
  }
  return {};
}

}  // namespace roofline
