// The table of suites `roofline run` executes, in order.
#include "roofline/cpu/suite.hpp"

namespace roofline {

const std::vector<Suite>& all_suites() {
  static const std::vector<Suite> kSuites{
      {"bandwidth", "STREAM-style kernels swept over working-set sizes: memory ceilings per level",
       &run_bandwidth_suite},
      {"compute", "FMA / dot-product peak per precision and vector width, the measured clock, and the "
       "dequant-dot rows (block-format weights x quantized activations per ISA)",
       &run_compute_suite},
      {"gemm", "GEMV/GEMM at batch sizes 1..1024 per backend, placed on the roofline", &run_gemm_suite},
  };
  return kSuites;
}

}  // namespace roofline
