// The speculative decoding bound: see speculative.hpp.
#include "roofline/llm/speculative.hpp"

#include <cmath>

namespace roofline::llm {

double expected_accepted_tokens(double accept, std::int64_t draft_tokens) {
  if (accept >= 1.0) return static_cast<double>(draft_tokens + 1);
  return (1.0 - std::pow(accept, static_cast<double>(draft_tokens + 1))) / (1.0 - accept);
}

SpeculativeBound speculative_bound(double accept, std::int64_t draft_tokens, double draft_step, double target_step,
                                   double verify_step) {
  SpeculativeBound b;
  b.tokens_per_cycle = expected_accepted_tokens(accept, draft_tokens);
  b.cycle_seconds = static_cast<double>(draft_tokens) * draft_step + verify_step;
  b.speedup = b.tokens_per_cycle * target_step / b.cycle_seconds;
  return b;
}

SpeculativeRow speculative_row(double accept, std::int64_t draft_tokens, double draft_step, double target_step,
                               double verify_step, std::int64_t batch) {
  return {batch, accept, draft_tokens, draft_step, target_step, verify_step,
          speculative_bound(accept, draft_tokens, draft_step, target_step, verify_step)};
}

}  // namespace roofline::llm
