// A speed measured elsewhere (tokens/s from llama.cpp, vLLM or Ollama) set against this roofline: at the
// observed step time, MBU = the step's bytes per second / the memory roof the estimate used (measured),
// MFU = its FLOP/s / the measured compute roof (FMA peak) of the precision and engine its weights are
// multiplied in, and for quantized weights the dequantization units' use (element operations per second
// / their rate). The bound the observed speed sits nearest is the one it uses most of: at 100 % it would
// be exactly on that roof.
#pragma once

#include <cstdint>
#include <string>

#include "roofline/llm/estimate.hpp"

namespace roofline::llm {

struct ObservedSpeeds {
  double decode = 0.0;   // tokens/s over all sequences of the batch (0: not given)
  double prefill = 0.0;  // prompt tokens/s (0: not given)
};

// "decode=TPS[,prefill=TPS]" (either or both, any order, positive numbers). Throws InputError naming
// --observed otherwise.
ObservedSpeeds parse_observed(const std::string& text);

struct Utilisation {
  double step_seconds = 0.0;  // tokens / observed tokens/s x sequences (decode) or prompt / tokens/s
  double mbu = 0.0;
  double mfu = 0.0;
  double dequant = 0.0;       // 0 for native weights
  Limit nearest = Limit::memory;
  double estimate_ratio = 0.0;  // the observed speed / the estimate's
};

// `tokens` = tokens one step makes (the batch for decode, the prompt for prefill); `tps` observed.
Utilisation utilisation(const StepEstimate& s, double tokens, double tps, double dequant_rate);

}  // namespace roofline::llm
