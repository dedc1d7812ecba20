// The known ARM64 pipe counts: see arm_pipes.hpp.
#include "roofline/common/arm_pipes.hpp"

namespace roofline {
namespace {

struct CorePipes {
  const char* uarch;
  int fp_pipes_128;  // FP/ASIMD pipes of 128 bits that each issue a NEON FMLA (and SDOT) per cycle
  int sve_bits;      // the SVE vector length; 0: no SVE
  int sve_pipes;     // pipes that each issue an SVE FMLA (and SDOT) per cycle, at sve_bits
  bool fp16;         // FP16 arithmetic (FMLA .8h) at the same rate
  bool dot;          // SDOT/UDOT at the same rate
};

// Sources: Arm Neoverse N1, V1, N2, V2, V3 and N3 Software Optimization Guides (the FP/ASIMD pipes V0-V3: FMLA and
// SDOT issue on each; V1's SVE runs 256-bit operations on pairs of 128-bit pipes), the Cortex-A78AE SOG (Jetson
// Orin's core: two 128-bit pipes), Fujitsu's A64FX Microarchitecture Manual (two 512-bit FLA/FLB pipes, no dot
// product at the same rate: left out).
constexpr CorePipes kCores[] = {
    {"neoverse_n1", 2, 0, 0, true, true},
    {"neoverse_v1", 4, 256, 2, true, true},
    {"neoverse_n2", 2, 128, 2, true, true},
    {"neoverse_v2", 4, 128, 4, true, true},
    {"neoverse_v3", 4, 128, 4, true, true},
    {"neoverse_n3", 2, 128, 2, true, true},
    {"cortex_a78ae", 2, 0, 0, true, true},
    {"a64fx", 0, 512, 2, true, false},
};

const CorePipes* find(const std::string& uarch) {
  for (const CorePipes& c : kCores) {
    if (uarch == c.uarch) return &c;
  }
  return nullptr;
}

}  // namespace

std::vector<double> known_arm_pipes(const std::string& uarch, const std::string& kernel, const std::string& precision,
                                    const std::string& isa, int bits) {
  const CorePipes* c = find(uarch);
  if (c == nullptr) return {};
  const bool fma = kernel == "fma" && (precision == "fp64" || precision == "fp32" || (precision == "fp16" && c->fp16));
  const bool dot = kernel == "dot" && precision == "int8" && c->dot;
  if (!fma && !dot) return {};
  if (isa == "neon" && bits == 128 && c->fp_pipes_128 > 0) return {static_cast<double>(c->fp_pipes_128)};
  if (isa == "sve" && c->sve_bits > 0 && bits == c->sve_bits) return {static_cast<double>(c->sve_pipes)};
  return {};
}

int known_sve_bits(const std::string& uarch) {
  const CorePipes* c = find(uarch);
  return c == nullptr ? 0 : c->sve_bits;
}

}  // namespace roofline
