// Speculative decoding on this roofline: a draft model proposes K tokens (K draft decode steps), the
// target model verifies them in one step over K + 1 tokens per sequence, and with each drafted token
// accepted with probability A (independently), the expected tokens a cycle yields are
// (1 - A^(K+1)) / (1 - A) (K + 1 when A = 1). The speed-up bound is those tokens over the cycle's time,
// against the target's plain decode: E x target_step / (K x draft_step + verify_step). A bound: the
// sampling, the rejected tokens' KV rollback and the runtime are not counted.
#pragma once

#include <cstdint>

namespace roofline::llm {

// (1 - a^(k+1)) / (1 - a); k + 1 at a = 1.
double expected_accepted_tokens(double accept, std::int64_t draft_tokens);

struct SpeculativeBound {
  double tokens_per_cycle = 0.0;
  double cycle_seconds = 0.0;   // K x draft step + verify step
  double speedup = 0.0;         // tokens_per_cycle x target step / cycle
};

SpeculativeBound speculative_bound(double accept, std::int64_t draft_tokens, double draft_step, double target_step,
                                   double verify_step);

// One decode batch's bound, with the steps it was computed from.
struct SpeculativeRow {
  std::int64_t batch = 1;
  double accept = 0.0;
  std::int64_t draft_tokens = 0;
  double draft_step_seconds = 0.0;
  double target_step_seconds = 0.0;
  double verify_step_seconds = 0.0;  // one target step over K + 1 tokens per sequence
  SpeculativeBound bound;
};

SpeculativeRow speculative_row(double accept, std::int64_t draft_tokens, double draft_step, double target_step,
                               double verify_step, std::int64_t batch);

// The formula, said under the table and in every row of `llm --json`.
inline constexpr const char* kSpeculativeFormula =
    "tokens per cycle (1 - A^(K+1)) / (1 - A); speed-up = tokens x target step / (K x draft step + verify step over K + "
    "1 tokens per sequence)";

}  // namespace roofline::llm
