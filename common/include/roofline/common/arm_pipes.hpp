// The known ARM64 pipe counts (issue 62, step 3): arm64's side of x86_pipes.hpp, the table the theoretical peaks of an
// ARM core come from (pipes x lanes x 2 for a fused multiply-add, times the measured clock), read by the analysis's
// peak model and the plan alike. Keyed by the microarchitecture name of roofline/facts/arm_cpu.hpp ("neoverse_v2").
#pragma once

#include <string>
#include <vector>

namespace roofline {

// Instructions per cycle per core that the core can sustain for this kind of row: kernel "fma" (fp64, fp32, fp16) or
// "dot" (int8: SDOT/UDOT), isa "neon" (128-bit) or "sve" (SVE or SVE2, at `vector_bits`, the implementation's
// length: a narrower one is not what the core runs). Empty when the core or the row is not in the table (the bf16
// and i8mm matrix rows are not yet: their throughputs differ by core revision in the guides).
std::vector<double> known_arm_pipes(const std::string& microarchitecture, const std::string& kernel,
                                    const std::string& precision, const std::string& isa, int vector_bits);

// The SVE vector length, in bits, of the cores that implement SVE (their technical reference manuals); 0 for a core
// without SVE or not in the table. On the machine itself prctl(PR_SVE_GET_VL) says it; this is the table's word.
int known_sve_bits(const std::string& microarchitecture);

}  // namespace roofline
