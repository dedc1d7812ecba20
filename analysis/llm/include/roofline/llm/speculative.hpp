// Speculative decoding on this roofline: a draft model proposes K tokens (K draft decode steps), the
// target model verifies them in one step over K + 1 tokens per sequence, and with each drafted token
// accepted with probability A (independently), the expected tokens a cycle yields are
// (1 - A^(K+1)) / (1 - A) (K + 1 when A = 1). The speed-up bound is those tokens over the cycle's time,
// against the target's plain decode: E x target_step / (K x draft_step + verify_step). A bound: the
// sampling, the rejected tokens' KV rollback and the runtime are not counted.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

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

nlohmann::json speculative_json(const SpeculativeBound& b, double accept, std::int64_t draft_tokens, double draft_step,
                                double target_step, double verify_step, std::int64_t batch);

}  // namespace roofline::llm
