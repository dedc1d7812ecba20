// The answer of `roofline llm` (answer.hpp), built from a model config and a results file's ceilings: the
// model (parameters, weight bytes, KV cache per token, sequences that fit in memory), one row per decode
// batch (seconds per token, tokens/s, bound, MBU, MFU), the batch where decode turns compute-bound, one row
// per prefill prompt length (time to first token, bound), and the per-operation table of one layer for the
// first batch and the first prompt. Text and HTML renderers read it; to_json writes it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofline/llm/answer.hpp"
#include "roofline/llm/config.hpp"
#include "roofline/llm/estimate.hpp"
#include "roofline/llm/observed.hpp"
#include "roofline/llm/ops.hpp"
#include "roofline/llm/roofs.hpp"

namespace roofline::llm {

struct LlmRequest {
  Precisions precisions;
  std::vector<std::int64_t> batches{1, 8, 64};
  std::int64_t context = 4096;
  std::vector<std::int64_t> prompts{512};
  ObservedSpeeds observed;  // decode at the first batch, prefill at the first prompt (0: not given)
  std::optional<ModelConfig> draft;  // speculative decoding's draft model (same precisions)
  double accept = 0.0;               // the draft's per-token acceptance rate
  std::int64_t draft_tokens = 0;     // K drafted tokens per cycle
};

// One decode step of `c` at `batch` sequences (and `new_tokens` each) on the roofs.
StepEstimate decode_step(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, std::int64_t batch,
                         std::int64_t new_tokens = 1);

// The counting conventions of the model, stated in every output, by topic.
std::map<std::string, std::string> llm_conventions();

// The whole answer; `results_file` names the run in the output.
LlmAnswer summarize(const ModelConfig& config, const LlmRequest& request, const Roofs& roofs,
                    const std::string& results_file);

// The smallest batch (up to `limit`) at which `compute_bound(batch)` holds, or 0 when none does.
template <class F>
std::int64_t first_batch_where(std::int64_t limit, F compute_bound) {
  // Bounds only switch once from memory to compute as the batch grows, so a doubling search then a
  // bisection finds the first one.
  std::int64_t hi = 1;
  while (hi < limit && !compute_bound(hi)) hi = std::min(limit, hi * 2);
  if (!compute_bound(hi)) return 0;
  std::int64_t lo = hi / 2;  // !compute_bound(lo) or lo == 0
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (compute_bound(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace roofline::llm
