// The targets this executable was built with: the one place that knows which optional targets (OpenCL,
// CUDA) were found at configure time, as kernels/cpu/gemm_registry.cpp is for GEMM backends.
#include <algorithm>

#include "commands.hpp"
#include "roofline/cpu/cpu_target.hpp"
#ifdef ROOFLINE_HAVE_OPENCL
#include "roofline/opencl/provider.hpp"
#endif
#if defined(ROOFLINE_HAVE_CUDA)
#include "roofline/cuda/target.hpp"
#endif

namespace roofline::cli {

void register_built_targets(const MachineFacts& machine) {
  register_target_provider(cpu_target_provider(machine));
#ifdef ROOFLINE_HAVE_OPENCL
  register_target_provider(opencl::opencl_provider(machine));
#endif
#if defined(ROOFLINE_HAVE_CUDA)
  register_target_provider(cuda::cuda_target_provider());
#endif
  // The CPU first: listings and `--target all` start with the host.
  auto& all = target_providers();
  std::stable_partition(all.begin(), all.end(), [](const TargetProvider& p) { return p.api == "native"; });
}

std::vector<std::pair<std::string, std::string>> missing_targets() {
  std::vector<std::pair<std::string, std::string>> missing;
#ifndef ROOFLINE_HAVE_OPENCL
  missing.emplace_back("opencl", "this roofline was built without OpenCL: run scripts/install-deps (ocl-icd-opencl-dev, "
                                 "opencl-c-headers; --test adds PoCL's CPU device) and rebuild (scripts/build, with "
                                 "-DROOFLINE_WITH_OPENCL=ON if it was turned off)");
#endif
#ifndef ROOFLINE_HAVE_CUDA
  missing.emplace_back("cuda", "this roofline was built without CUDA: it needs nvcc, the CUDA toolkit and cuBLASLt "
                               "(CMake finds them under /usr/local/cuda; -DROOFLINE_WITH_CUDA=ON)");
#endif
  return missing;
}

}  // namespace roofline::cli
