// Building the answer of `roofline llm`: see summary.hpp.
#include "roofline/llm/summary.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/common/units.hpp"
#include "roofline/llm/quant.hpp"
#include "roofline/llm/speculative.hpp"
#include "roofline/llm/tensors.hpp"

namespace roofline::llm {
using nlohmann::json;

StepEstimate decode_step(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, std::int64_t batch,
                         std::int64_t new_tokens) {
  const std::vector<Op> ops = decode_ops(c, r.precisions, batch, r.context, new_tokens);
  return estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), r.precisions.weights);
}

namespace {

constexpr std::int64_t kBatchSearchLimit = 1 << 20;

bool is_projection(const std::string& name) { return name != "attn_scores" && name != "attn_values" && name != "final_norm"; }

json step_json(const StepEstimate& s) {
  return {{"seconds", s.seconds},
          {"layer_seconds", s.layer_seconds},
          {"flops", s.flops},
          {"bytes", s.bytes},
          {"bound", std::string(to_string(s.limit))},
          {"memory_bound_fraction", s.seconds > 0.0 ? s.memory_bound_seconds / s.seconds : 0.0},
          {"dequant_bound_fraction", s.seconds > 0.0 ? s.dequant_bound_seconds / s.seconds : 0.0},
          {"dequant_ops", s.dequant_ops},
          {"level", s.level},
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
    levels.push_back({{"level", l.level}, {"value", l.bandwidth}, {"max_bytes", l.max_bytes}, {"unit", "B/s"}});
  }
  for (const auto& [p, bw] : roofs.gemv_bandwidth) {
    levels.push_back({{"level", roofs.dram().level}, {"value", bw}, {"precision", std::string(to_string(p))},
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
      {"time", "Per operation the largest of FLOPs / compute roof, bytes / memory roof and, for quantized weights, "
               "dequantization operations / the vector units' rate, summed; the memory roof is the level the "
               "step's working set fits in (the whole model's for inference)."},
      {"bound", "Each operation is bound by the largest of its memory, compute and dequantization times; a step by "
                "the bound whose operations take the most time."},
      {"mbu_mfu", "MBU = bytes / time / that level's roof; MFU = FLOPs / time / the weights precision's FMA peak."},
      {"memory", "Sequences that fit = (the target's memory - weight bytes) / KV bytes per sequence (windowed layers "
                 "keep at most their window); the memory is what was available at the run (MemAvailable for the CPU) "
                 "when the results file says, else its total; activations and the runtime are not counted."},
      {"moe", "Mixture of experts: a step reads the weights of the distinct experts its tokens touch per layer "
              "(uniform routing: E x (1 - (1 - k/E)^T) for T tokens, unless --routing says otherwise) and multiplies "
              "T x k expert-token products; active parameters = every tensor but the routed experts, plus k of them."},
  };
}

json op_json(const OpEstimate& e) {
  json out = {{"name", e.op.name},
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
          {"dequant_seconds", e.dequant_seconds},
          {"estimated_seconds", e.seconds},
          {"layers", e.op.per_layer && e.op.layers_with > 0 ? json(e.op.layers_with) : json(nullptr)},
          {"experts_touched", e.op.experts_touched > 0.0 ? json(e.op.experts_touched) : json(nullptr)},
          {"format", e.op.format},
          {"bound", std::string(to_string(e.limit))},
          {"level", e.level}};
  if (!e.dequant_roof.empty()) out["dequant_roof"] = e.dequant_roof;
  return out;
}

namespace {

// The model's shape, storage and memory: parameters (total and active), weight bytes in their format,
// the KV cache (windowed layers capped), whether the weights fit the target's memory and how many
// sequences' KV cache fit beside them.
json model_json(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  const Precisions& p = r.precisions;
  const WeightFormat f = p.stored();
  const double weights = weight_bytes(c, p);
  const double kv_sequence = kv_cache_bytes_per_sequence(c, p.kv, r.context);
  json m = {{"name", c.name}, {"config", c.source}, {"architecture", c.architecture}, {"hidden_size", c.hidden},
            {"layers", c.layers}, {"heads", c.heads}, {"kv_heads", c.kv_heads}, {"head_dim", c.head_dim},
            {"intermediate_size", c.intermediate}, {"vocab_size", c.vocab}, {"tie_word_embeddings", c.tied_embeddings},
            {"parameters", parameters(c)}, {"active_parameters", active_parameters(c)},
            {"matmul_weights", matmul_weights(c)}, {"weights", f.name},
            {"compute_precision", std::string(to_string(f.compute))}, {"kernel", f.kernel},
            {"bits_per_weight", f.bits_per_weight}, {"kv", std::string(to_string(p.kv))}, {"weight_bytes", weights},
            {"kv_cache_bytes_per_token", kv_cache_bytes_per_token(c, p.kv)}, {"context", r.context},
            {"kv_cache_bytes_per_sequence", kv_sequence},
            {"sliding_window", c.sliding_window > 0 ? json(c.sliding_window) : json(nullptr)},
            {"windowed_layers", c.local_layers}, {"fused", c.fused}};
  json keep = json::object();
  for (const auto& [tensor, kept] : p.keep) keep[tensor] = kept.name;
  m["keep"] = keep;
  if (c.is_moe()) {
    m["moe"] = {{"experts", c.moe.experts}, {"top_k", c.moe.top_k}, {"expert_intermediate_size", c.moe.expert_intermediate},
                {"shared_intermediate_size", c.moe.shared_intermediate}, {"dense_layers", c.moe.dense_layers},
                {"routing", describe_routing(p.routing)}};
  }
  const double usable = roofs.memory_available_bytes > 0.0 ? roofs.memory_available_bytes : roofs.memory_total_bytes;
  m["memory_source"] = roofs.memory_source;
  if (roofs.memory_total_bytes > 0.0) m["memory_total_bytes"] = roofs.memory_total_bytes;
  if (roofs.memory_available_bytes > 0.0) m["memory_available_bytes"] = roofs.memory_available_bytes;
  m["weights_fit"] = usable > 0.0 ? json(weights <= usable) : json(nullptr);
  m["max_sequences"] = usable > 0.0 ? json(weights < usable ? static_cast<std::int64_t>(std::floor((usable - weights) / kv_sequence)) : 0)
                                    : json(nullptr);
  return m;
}

json decode_rows(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const json& model, json& notes) {
  json decode = json::array();
  const double kv_sequence = model["kv_cache_bytes_per_sequence"].get<double>();
  for (std::int64_t b : r.batches) {
    const StepEstimate s = decode_step(c, r, roofs, b);
    json row = step_json(s);
    row["batch"] = b;
    row["context"] = r.context;
    row["seconds_per_token"] = s.seconds;
    row["tokens_per_second"] = static_cast<double>(b) / s.seconds;
    row["tokens_per_second_per_sequence"] = 1.0 / s.seconds;
    row["kv_cache_bytes"] = kv_sequence * static_cast<double>(b);
    if (c.is_moe()) row["experts_touched_per_layer"] = experts_touched(r.precisions.routing, c.moe.experts, c.moe.top_k, b);
    row["fits_in_memory"] = model["max_sequences"].is_null() ? json(nullptr) : json(b <= model["max_sequences"].get<std::int64_t>());
    if (row["fits_in_memory"] == false) {
      notes.push_back(fmt::format("decode at batch {} needs {} of KV cache at context {} beside {} of weights: more than the "
                                  "{} of memory ({}; at most {} sequences fit); the estimate is what it would take if it fit",
                                  b, format_bytes(row["kv_cache_bytes"].get<double>()), r.context,
                                  format_bytes(model["weight_bytes"].get<double>()),
                                  format_bytes(roofs.memory_available_bytes > 0.0 ? roofs.memory_available_bytes : roofs.memory_total_bytes),
                                  roofs.memory_source, model["max_sequences"].get<std::int64_t>()));
    }
    decode.push_back(row);
  }
  return decode;
}

// Where the projections turn compute-bound (tokens/s rises with the batch until there), and where the
// whole step does (it may never: attention over the KV cache stays memory-bound at any batch).
json ridge_json(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
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
  return {{"projections_compute_bound_batch", projections > 0 ? json(projections) : json(nullptr)},
          {"decode_compute_bound_batch", step > 0 ? json(step) : json(nullptr)},
          {"search_limit", kBatchSearchLimit}};
}

StepEstimate prefill_step(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, std::int64_t prompt) {
  const std::vector<Op> ops = prefill_ops(c, r.precisions, prompt);
  return estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), r.precisions.weights);
}

// The observed speeds' MBU and MFU: decode at the first batch, prefill at the first prompt.
json observed_json(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  const Precision p = r.precisions.weights;
  const ComputeRoof& peak = roofs.compute.at(p);
  json out = {{"mfu_roof", fmt::format("{} {} {} FMA peak, {:.4g} {}", to_string(p), to_string(peak.engine), peak.isa, peak.peak,
                                       rate_unit(p))},
              {"mbu_roof", fmt::format("{} read roof, {:.4g} B/s", roofs.dram().level, roofs.dram().bandwidth)}};
  if (r.observed.decode > 0.0) {
    const std::int64_t b = r.batches.front();
    out["decode"] = utilisation_json(utilisation(decode_step(c, r, roofs, b), static_cast<double>(b), r.observed.decode,
                                                 roofs.dequant_rate), r.observed.decode);
    out["decode"]["batch"] = b;
  }
  if (r.observed.prefill > 0.0) {
    const std::int64_t p = r.prompts.front();
    out["prefill"] = utilisation_json(utilisation(prefill_step(c, r, roofs, p), static_cast<double>(p), r.observed.prefill,
                                                  roofs.dequant_rate), r.observed.prefill);
    out["prefill"]["prompt_tokens"] = p;
  }
  return out;
}

// The dequantization roof of every quantized format the step's weights use: the measured dequant-dot ceiling
// (roofline.dequant_ceilings) where the file has one at the thread count, else the stated convention (half the
// fp32 FMA peak in element operations), each said in a note.
json dequant_json(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  json out = json::array();
  std::vector<std::string> seen;
  for (const OpEstimate& e : decode_step(c, r, roofs, r.batches.front()).ops) {
    if (e.dequant_roof.empty() || std::find(seen.begin(), seen.end(), e.op.format) != seen.end()) continue;
    seen.push_back(e.op.format);
    const std::string family = dequant_family(e.op.format);
    const auto m = roofs.dequant.find(family);
    if (e.dequant_roof != "convention" && m != roofs.dequant.end()) {
      out.push_back({{"format", e.op.format}, {"source", "measured"}, {"value", m->second.weights_per_second},
                     {"unit", "weights/s"}, {"isa", m->second.isa}, {"level", m->second.level}, {"kernel", e.dequant_roof},
                     {"note", fmt::format("dequantization of the {} weights bound by the measured {} ceiling at {} threads: "
                                          "{} ({}, weights in {}), once per weight per step",
                                          e.op.format, family, roofs.threads, format_si(m->second.weights_per_second, "weights/s"),
                                          m->second.isa, m->second.level)}});
    } else {
      out.push_back({{"format", e.op.format}, {"source", "convention"}, {"value", roofs.dequant_rate},
                     {"unit", "element operations/s"}, {"isa", ""}, {"level", ""}, {"kernel", "convention"},
                     {"note", fmt::format("dequantization of the {} weights at the stated convention (half the fp32 FMA peak: "
                                          "{}): the results file has no {} dequant-dot ceiling at {} threads (a run from "
                                          "before issue 38, or one without the compute suite's dequant_dot rows)",
                                          e.op.format, format_si(roofs.dequant_rate, "operations/s"),
                                          family.empty() ? e.op.format : family, roofs.threads)}});
    }
  }
  return out;
}

json speculative_rows(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  json rows = json::array();
  for (std::int64_t b : r.batches) {
    const double target = decode_step(c, r, roofs, b).seconds;
    const double verify = decode_step(c, r, roofs, b, r.draft_tokens + 1).seconds;
    const double draft = decode_step(*r.draft, r, roofs, b).seconds;
    rows.push_back(speculative_json(speculative_bound(r.accept, r.draft_tokens, draft, target, verify), r.accept,
                                    r.draft_tokens, draft, target, verify, b));
  }
  return {{"draft", r.draft->name}, {"draft_config", r.draft->source}, {"rows", rows}};
}

}  // namespace

json summarize(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const std::string& results_file) {
  const Precisions& p = r.precisions;
  json out;
  out["results"] = results_file;
  out["target"] = roofs.target;
  out["model"] = model_json(c, r, roofs);
  out["roofs"] = roofs_json(roofs);
  json notes = json::array();
  out["decode"] = decode_rows(c, r, roofs, out["model"], notes);
  if (out["model"]["weights_fit"] == false) {
    notes.push_back(fmt::format("the weights ({}) do not fit the target's {} of memory ({})",
                                format_bytes(out["model"]["weight_bytes"].get<double>()),
                                format_bytes(roofs.memory_available_bytes > 0.0 ? roofs.memory_available_bytes : roofs.memory_total_bytes),
                                roofs.memory_source));
  }
  out["ridge"] = ridge_json(c, r, roofs);
  json prefill = json::array();
  for (std::int64_t prompt : r.prompts) {
    const StepEstimate s = prefill_step(c, r, roofs, prompt);
    json row = step_json(s);
    row["prompt_tokens"] = prompt;
    row["tokens_per_second"] = static_cast<double>(prompt) / s.seconds;
    prefill.push_back(row);
  }
  out["prefill"] = prefill;
  out["layer"] = {{"decode", {{"batch", r.batches.front()}, {"context", r.context},
                              {"ops", layer_table(decode_step(c, r, roofs, r.batches.front()))}}},
                  {"prefill", {{"prompt_tokens", r.prompts.front()},
                               {"ops", layer_table(prefill_step(c, r, roofs, r.prompts.front()))}}}};
  if (r.observed.decode > 0.0 || r.observed.prefill > 0.0) out["observed"] = observed_json(c, r, roofs);
  if (r.draft) out["speculative"] = speculative_rows(c, r, roofs);
  for (const char* phase : {"decode", "prefill"}) {
    const json& o = out.value("observed", json::object()).value(phase, json::object());
    if (!o.empty() && std::max({o["mbu"].get<double>(), o["mfu"].get<double>(), o["dequant_utilisation"].get<double>()}) > 1.0) {
      notes.push_back(fmt::format("the observed {} speed is above a roof (MBU, MFU or dequantization over 100 %): the step moves "
                                  "or computes less than counted (cache reuse, skipped work) or the roof was measured low; "
                                  "the figure is not clamped", phase));
    }
  }
  if (json dequant = dequant_json(c, r, roofs); !dequant.empty()) {
    out["roofs"]["dequant"] = dequant;
    for (const json& d : dequant) notes.push_back(d["note"]);
  }
  out["conventions"] = llm_conventions();
  if (p.stored().quantized() || !p.keep.empty()) {
    out["conventions"]["quantized"] = quant_conventions();
    out["conventions"]["time"] =
        "Per operation the largest of FLOPs / compute roof, bytes / memory roof and, for quantized weights, the "
        "dequantization time: the weights / the format's measured dequant-dot ceiling (roofline.dequant_ceilings), "
        "or without one the dequantization operations / the vector units' rate (the stated convention); summed; the "
        "memory roof is the level the step's working set fits in (the whole model's for inference).";
  }
  out["notes"] = notes;
  return out;
}

}  // namespace roofline::llm
