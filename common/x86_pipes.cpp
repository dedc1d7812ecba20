// The known x86 pipe counts: see x86_pipes.hpp.
#include "roofline/common/x86_pipes.hpp"

namespace roofline {

std::vector<double> known_pipes(const std::string& uarch, const std::string& kernel, const std::string& precision,
                                const std::string& isa, int bits) {
  // Only FMA (fp64/fp32/fp16) and int8 VNNI rows, where vendors' and instruction tables' figures agree.
  // Sources: Intel optimization manual (port 0/1 FMA on client cores, ports 0 and 5 for 512-bit on
  // server cores), AMD Zen 4/5 software optimization guides (Zen 4 runs 512-bit ops as 2 x 256).
  const bool fp = kernel == "fma" && (precision == "fp64" || precision == "fp32");
  const bool int8 = kernel == "dot" && precision == "int8";
  const bool fp16 = kernel == "fma" && precision == "fp16";
  const bool wide = bits == 512;
  if (uarch == "sapphire_rapids" || uarch == "emerald_rapids" || uarch == "granite_rapids") {
    if (fp || int8 || fp16) return {2.0};  // 2 FMA units of 512 bits (p0+p1 fused, p5)
  } else if (uarch == "icelake_x") {
    if (fp) return {2.0};
  } else if (uarch == "skylake_x") {
    if (fp) return wide ? std::vector<double>{1.0, 2.0} : std::vector<double>{2.0};  // 1 or 2 per SKU
  } else if (uarch == "icelake") {
    if (fp) return {wide ? 1.0 : 2.0};
  } else if (uarch == "haswell" || uarch == "skylake" || uarch == "zen2" || uarch == "zen3") {
    if (fp && !wide) return {2.0};
  } else if (uarch == "alder_lake" || uarch == "raptor_lake") {
    if ((fp || (int8 && isa == "avx_vnni")) && !wide) return {2.0};
  } else if (uarch == "zen4") {
    if (fp || int8) return {wide ? 1.0 : 2.0};
  } else if (uarch == "zen5") {
    if (fp || int8) return wide ? std::vector<double>{1.0, 2.0} : std::vector<double>{2.0};  // mobile: 2 x 256
  }
  return {};
}

}  // namespace roofline
