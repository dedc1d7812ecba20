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

nlohmann::json speculative_json(const SpeculativeRow& r) {
  const SpeculativeBound& b = r.bound;
  const double batch = static_cast<double>(r.batch);
  return {{"accept", r.accept},
          {"draft_tokens", r.draft_tokens},
          {"batch", r.batch},
          {"tokens_per_cycle", b.tokens_per_cycle},
          {"draft_step_seconds", r.draft_step_seconds},
          {"target_step_seconds", r.target_step_seconds},
          {"verify_step_seconds", r.verify_step_seconds},
          {"cycle_seconds", b.cycle_seconds},
          {"tokens_per_second", batch * b.tokens_per_cycle / b.cycle_seconds},
          {"target_tokens_per_second", batch / r.target_step_seconds},
          {"speedup", b.speedup},
          {"formula", kSpeculativeFormula}};
}

}  // namespace roofline::llm
