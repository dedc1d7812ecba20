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

nlohmann::json speculative_json(const SpeculativeBound& b, double accept, std::int64_t draft_tokens, double draft_step,
                                double target_step, double verify_step, std::int64_t batch) {
  return {{"accept", accept},
          {"draft_tokens", draft_tokens},
          {"batch", batch},
          {"tokens_per_cycle", b.tokens_per_cycle},
          {"draft_step_seconds", draft_step},
          {"target_step_seconds", target_step},
          {"verify_step_seconds", verify_step},
          {"cycle_seconds", b.cycle_seconds},
          {"tokens_per_second", static_cast<double>(batch) * b.tokens_per_cycle / b.cycle_seconds},
          {"target_tokens_per_second", static_cast<double>(batch) / target_step},
          {"speedup", b.speedup},
          {"formula", "tokens per cycle (1 - A^(K+1)) / (1 - A); speed-up = tokens x target step / (K x draft step + "
                      "verify step over K + 1 tokens per sequence)"}};
}

}  // namespace roofline::llm
