// The known x86 pipe counts (issue 47: moved from analysis/model's compute ceilings, which cross-check measured
// pipes against them, so that the OpenCL target can give a CPU device the host's vector model without including
// an analysis header): one table, what datasheets and instruction tables say, read by both sides.
#pragma once

#include <string>
#include <vector>

namespace roofline {

// Instructions per cycle per core that the microarchitecture can sustain for this kind of row, as datasheets
// and instruction tables give them; several values where SKUs differ (e.g. Skylake-SP 512-bit FMA: 1 or 2);
// empty when the microarchitecture or the row is not in the table.
std::vector<double> known_pipes(const std::string& microarchitecture, const std::string& kernel,
                                const std::string& precision, const std::string& isa, int vector_bits);

}  // namespace roofline
