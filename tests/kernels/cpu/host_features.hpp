// What this CPU has, for kernel tests, independent of bench/'s detection (the kernels library cannot depend on
// bench/, and a second opinion is what a test wants anyway): the tests' architecture seam, one file per architecture
// (host_features_x86_64.cpp: the compiler's cpuid helper; host_features_arm64.cpp: getauxval), picked by
// cmake/arch/<arch>.cmake.
#pragma once

#include <vector>

#include "roofline/common/vocabulary.hpp"

namespace roofline::testing {

// The running CPU's features.
IsaFeatures host_features();
// The architecture's vector ISA levels the STREAM loops are built for, lowest first (x86-64: sse, avx2, avx512).
std::vector<Isa> stream_isas();
// Features allowing exactly `isa` (and below) on a CPU of this architecture that has everything.
IsaFeatures features_for(Isa isa);
// Whether the running CPU can run `isa`'s kernels.
bool cpu_has(Isa isa);

}  // namespace roofline::testing
