// `roofline llm --measure`: one transformer layer built at the model's real shapes from the GEMM
// backends (Eigen fp32, oneDNN bf16 and int8 with weights packed once, as the GEMM suite runs them) and
// timed as a chain: the projections and MLP over the layer's weights, attention as GEMMs over a KV cache
// of the given context (one per sequence and KV head; prefill in causal query blocks), for decode at
// each batch and for prefill. Every product is validated after timing. What does not fit in the memory
// budget is left out and said so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "roofline/bench/progress.hpp"
#include "roofline/common/vocabulary.hpp"
#include "roofline/llm/measured.hpp"
#include "roofline/llm/summary.hpp"

namespace roofline {

struct ChainRequest {
  llm::ModelConfig config;
  llm::LlmRequest request;
  int threads = 1;
  IsaFeatures features;
  std::vector<int> pus;            // the PUs to pin the OpenMP team to (empty: no pinning)
  double budget_bytes = 0.0;       // what the chain may allocate
  double min_seconds = 1.0;        // each step repeats until it has run this long (at least 3 times)
  Progress* progress = nullptr;    // shows the step being set up or timed (optional)
};

// The backend the chain uses for a precision: eigen for fp32, onednn for bf16 and int8. Throws
// InputError when it is not built into this binary or does not run that precision.
std::string chain_backend(Precision p);

// The DRAM read roof of the moment, measured beside the chain: the best of `passes` passes of the read
// kernel (the kernel of the results file's memory ceilings) over `bytes` on the chain's pinned threads,
// validated after timing (std::runtime_error on a wrong sum). 0 when the memory is not there now.
double measure_memory_roof(const ChainRequest& request, std::uint64_t bytes, int passes = 10);

// Times the chain. Throws InputError for precisions no backend here runs and std::runtime_error when a
// product is wrong (the run fails loudly).
std::vector<llm::MeasuredStep> measure_chain(const ChainRequest& request);

}  // namespace roofline
