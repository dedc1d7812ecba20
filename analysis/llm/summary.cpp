// Building the answer of `roofline llm`: see summary.hpp.
#include "roofline/llm/summary.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/common/units.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

constexpr std::int64_t kBatchSearchLimit = 1 << 20;

bool is_projection(const std::string& name) { return name != "attn_scores" && name != "attn_values" && name != "final_norm"; }

StepEstimate decode_step(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, std::int64_t batch) {
  const std::vector<Op> ops = decode_ops(c, r.precisions, batch, r.context);
  return estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), r.precisions.weights);
}

json step_json(const StepEstimate& s) {
  return {{"seconds", s.seconds},
          {"layer_seconds", s.layer_seconds},
          {"flops", s.flops},
          {"bytes", s.bytes},
          {"bound", std::string(to_string(s.bound))},
          {"memory_bound_fraction", s.seconds > 0.0 ? s.memory_bound_seconds / s.seconds : 0.0},
          {"level", std::string(to_string(s.level))},
          {"mbu", s.mbu},
          {"mfu", s.mfu}};
}

json layer_table(const StepEstimate& s) {
  json ops = json::array();
  for (const OpEstimate& e : s.ops) ops.push_back(op_json(e));
  return ops;
}

json roofs_json(const Roofs& roofs) {
  json compute = json::array();
  for (const auto& [p, c] : roofs.compute) {
    compute.push_back({{"precision", std::string(to_string(p))}, {"value", c.value}, {"peak", c.peak},
                       {"engine", std::string(to_string(c.engine))}, {"isa", c.isa}, {"source", c.source},
                       {"unit", std::string(rate_unit(p))}});
  }
  json levels = json::array();
  for (const MemoryRoof& l : roofs.levels) {
    levels.push_back({{"level", std::string(to_string(l.level))}, {"value", l.bandwidth}, {"max_bytes", l.max_bytes}, {"unit", "B/s"}});
  }
  for (const auto& [p, bw] : roofs.gemv_bandwidth) {
    levels.push_back({{"level", std::string(to_string(Level::DRAM))}, {"value", bw}, {"precision", std::string(to_string(p))},
                      {"source", "gemv"}, {"max_bytes", 0.0}, {"unit", "B/s"}});
  }
  return {{"threads", roofs.threads}, {"source", roofs.source == RoofSource::peak ? "peak" : "gemm"},
          {"compute", compute}, {"memory", levels}};
}

}  // namespace

json llm_conventions() {
  return {
      {"flop", "Matrix products only, 2 FLOP per multiply-add (GEMM 2MNK); norms, RoPE, softmax and SiLU are not counted."},
      {"bytes", "Compulsory traffic: weights once at their precision, KV cache read once and the new K and V written once "
                "at the KV precision, activations in and out at the GEMM operand sizes (bf16 x bf16 -> fp32, u8 x s8 -> s32)."},
      {"decode", "One new token per sequence at batch B, each attending to `context` tokens of KV cache."},
      {"prefill", "P prompt tokens of one sequence at once; causal attention counts P(P+1)/2 query-key pairs per head; "
                  "lm_head and the final norm run for the last token only."},
      {"time", "Per operation max(FLOPs / compute roof, bytes / memory roof), summed; the memory roof is the level the "
               "step's working set fits in (the whole model's for inference)."},
      {"bound", "A step is memory-bound when its memory-bound operations take at least half its time."},
      {"mbu_mfu", "MBU = bytes / time / that level's roof; MFU = FLOPs / time / the weights precision's FMA peak."},
      {"memory", "Sequences that fit = (memory total - weight bytes) / (KV bytes per token x context); activations "
                 "and the runtime are not counted."},
  };
}

json op_json(const OpEstimate& e) {
  return {{"name", e.op.name},
          {"per_layer", e.op.per_layer},
          {"precision", std::string(to_string(e.op.precision))},
          {"flops", e.op.flops},
          {"bytes", e.op.bytes()},
          {"weight_bytes", e.op.weight_bytes},
          {"kv_read_bytes", e.op.kv_read_bytes},
          {"kv_write_bytes", e.op.kv_write_bytes},
          {"activation_bytes", e.op.activation_bytes},
          {"ai", e.ai},
          {"compute_seconds", e.compute_seconds},
          {"memory_seconds", e.memory_seconds},
          {"estimated_seconds", e.seconds},
          {"bound", std::string(to_string(e.bound))},
          {"level", std::string(to_string(e.level))}};
}

json summarize(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const std::string& results_file) {
  const Precisions& p = r.precisions;
  const double weight_bytes = static_cast<double>(parameters(c)) * element_bytes(p.weights);
  const double kv_token = kv_cache_bytes_per_token(c, p.kv);
  json out;
  out["results"] = results_file;
  out["model"] = {{"name", c.name},
                  {"config", c.source},
                  {"hidden_size", c.hidden},
                  {"layers", c.layers},
                  {"heads", c.heads},
                  {"kv_heads", c.kv_heads},
                  {"head_dim", c.head_dim},
                  {"intermediate_size", c.intermediate},
                  {"vocab_size", c.vocab},
                  {"tie_word_embeddings", c.tied_embeddings},
                  {"parameters", parameters(c)},
                  {"matmul_weights", matmul_weights(c)},
                  {"weights", std::string(to_string(p.weights))},
                  {"kv", std::string(to_string(p.kv))},
                  {"weight_bytes", weight_bytes},
                  {"kv_cache_bytes_per_token", kv_token},
                  {"context", r.context},
                  {"kv_cache_bytes_per_sequence", kv_token * static_cast<double>(r.context)}};
  if (roofs.memory_total_bytes > 0.0) {
    const double left = roofs.memory_total_bytes - weight_bytes;
    out["model"]["memory_total_bytes"] = roofs.memory_total_bytes;
    out["model"]["max_sequences"] =
        left > 0.0 ? static_cast<std::int64_t>(std::floor(left / (kv_token * static_cast<double>(r.context)))) : 0;
  } else {
    out["model"]["max_sequences"] = nullptr;
  }
  out["roofs"] = roofs_json(roofs);

  json decode = json::array();
  json notes = json::array();
  for (std::int64_t b : r.batches) {
    const StepEstimate s = decode_step(c, r, roofs, b);
    json row = step_json(s);
    row["batch"] = b;
    row["context"] = r.context;
    row["seconds_per_token"] = s.seconds;
    row["tokens_per_second"] = static_cast<double>(b) / s.seconds;
    row["tokens_per_second_per_sequence"] = 1.0 / s.seconds;
    row["kv_cache_bytes"] = kv_token * static_cast<double>(r.context * b);
    row["fits_in_memory"] = out["model"]["max_sequences"].is_null() ? json(nullptr)
                                                                    : json(b <= out["model"]["max_sequences"].get<std::int64_t>());
    if (row["fits_in_memory"] == false) {
      notes.push_back(fmt::format("decode at batch {} needs {} of KV cache at context {} beside {} of weights: more than the "
                                  "machine's {} (at most {} sequences fit); the estimate is what it would take if it fit",
                                  b, format_bytes(row["kv_cache_bytes"].get<double>()), r.context, format_bytes(weight_bytes),
                                  format_bytes(roofs.memory_total_bytes), out["model"]["max_sequences"].get<std::int64_t>()));
    }
    decode.push_back(row);
  }
  out["decode"] = decode;

  // Where the projections turn compute-bound (tokens/s rises with the batch until there), and where the
  // whole step does (it may never: attention over the KV cache stays memory-bound at any batch).
  const std::int64_t projections = first_batch_where(kBatchSearchLimit, [&](std::int64_t b) {
    const StepEstimate s = decode_step(c, r, roofs, b);
    double compute = 0.0, memory = 0.0;
    for (const OpEstimate& e : s.ops) {
      if (is_projection(e.op.name) && e.op.per_layer) (e.bound == Bound::compute ? compute : memory) += e.seconds;
    }
    return compute >= memory;
  });
  const std::int64_t step = first_batch_where(kBatchSearchLimit, [&](std::int64_t b) {
    return decode_step(c, r, roofs, b).bound == Bound::compute;
  });
  out["ridge"] = {{"projections_compute_bound_batch", projections > 0 ? json(projections) : json(nullptr)},
                  {"decode_compute_bound_batch", step > 0 ? json(step) : json(nullptr)},
                  {"search_limit", kBatchSearchLimit}};

  json prefill = json::array();
  for (std::int64_t prompt : r.prompts) {
    const std::vector<Op> ops = prefill_ops(c, p, prompt);
    const StepEstimate s = estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), p.weights);
    json row = step_json(s);
    row["prompt_tokens"] = prompt;
    row["tokens_per_second"] = static_cast<double>(prompt) / s.seconds;
    prefill.push_back(row);
  }
  out["prefill"] = prefill;

  const std::vector<Op> first_decode = decode_ops(c, p, r.batches.front(), r.context);
  const std::vector<Op> first_prefill = prefill_ops(c, p, r.prompts.front());
  out["layer"] = {
      {"decode", {{"batch", r.batches.front()}, {"context", r.context},
                  {"ops", layer_table(estimate_step(first_decode, c.layers, roofs, step_bytes(first_decode, c.layers), p.weights))}}},
      {"prefill", {{"prompt_tokens", r.prompts.front()},
                   {"ops", layer_table(estimate_step(first_prefill, c.layers, roofs, step_bytes(first_prefill, c.layers), p.weights))}}}};
  out["conventions"] = llm_conventions();
  out["notes"] = notes;
  return out;
}

}  // namespace roofline::llm
