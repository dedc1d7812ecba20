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
StepEstimate decode_step(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, std::int64_t batch,
                         std::int64_t new_tokens) {
  const std::vector<Op> ops = decode_ops(c, r.precisions, batch, r.context, new_tokens);
  return estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), r.precisions.weights);
}

namespace {

constexpr std::int64_t kBatchSearchLimit = 1 << 20;

bool is_projection(const std::string& name) { return name != "attn_scores" && name != "attn_values" && name != "final_norm"; }

RoofsUsed roofs_used(const Roofs& roofs) {
  RoofsUsed out{roofs.threads, roofs.source, {}, {}, {}};
  for (const auto& [p, c] : roofs.compute) out.compute.push_back({p, c});
  for (const MemoryRoof& l : roofs.levels) out.memory.push_back({l.level, l.bandwidth, l.max_bytes, std::nullopt});
  for (const auto& [p, bw] : roofs.gemv_bandwidth) out.memory.push_back({roofs.dram().level, bw, 0.0, p});
  return out;
}

// What the target's memory holds at the run: what was available when the file says, else its total (0: unknown).
double usable_memory(const Roofs& roofs) {
  return roofs.memory_available_bytes > 0.0 ? roofs.memory_available_bytes : roofs.memory_total_bytes;
}

}  // namespace

std::map<std::string, std::string> llm_conventions() {
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

namespace {

// The model's shape, storage and memory: parameters (total and active), weight bytes in their format,
// the KV cache (windowed layers capped), whether the weights fit the target's memory and how many
// sequences' KV cache fit beside them.
ModelFacts model_facts(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  const Precisions& p = r.precisions;
  ModelFacts m;
  m.config = c;
  m.weights = p.stored();
  m.kv = p.kv;
  for (const auto& [tensor, kept] : p.keep) m.keep[tensor] = kept.name;
  if (c.is_moe()) m.routing = describe_routing(p.routing);
  m.parameters = parameters(c);
  m.active_parameters = active_parameters(c);
  m.matmul_weights = matmul_weights(c);
  m.weight_bytes = weight_bytes(c, p);
  m.kv_cache_bytes_per_token = kv_cache_bytes_per_token(c, p.kv);
  m.context = r.context;
  m.kv_cache_bytes_per_sequence = kv_cache_bytes_per_sequence(c, p.kv, r.context);
  m.memory_source = roofs.memory_source;
  m.memory_total_bytes = roofs.memory_total_bytes;
  m.memory_available_bytes = roofs.memory_available_bytes;
  const double usable = usable_memory(roofs);
  if (usable > 0.0) {
    m.weights_fit = m.weight_bytes <= usable;
    m.max_sequences = m.weight_bytes < usable
                          ? static_cast<std::int64_t>(std::floor((usable - m.weight_bytes) / m.kv_cache_bytes_per_sequence))
                          : 0;
  }
  return m;
}

std::vector<DecodeRow> decode_rows(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const ModelFacts& model,
                                   std::vector<std::string>& notes) {
  std::vector<DecodeRow> decode;
  for (std::int64_t b : r.batches) {
    const StepEstimate s = decode_step(c, r, roofs, b);
    DecodeRow row{b, r.context, step_figures(s), static_cast<double>(b) / s.seconds, 1.0 / s.seconds,
                  model.kv_cache_bytes_per_sequence * static_cast<double>(b), std::nullopt, std::nullopt};
    if (c.is_moe()) row.experts_touched_per_layer = experts_touched(r.precisions.routing, c.moe.experts, c.moe.top_k, b);
    if (model.max_sequences) row.fits_in_memory = b <= *model.max_sequences;
    if (row.fits_in_memory == false) {
      notes.push_back(fmt::format("decode at batch {} needs {} of KV cache at context {} beside {} of weights: more than the "
                                  "{} of memory ({}; at most {} sequences fit); the estimate is what it would take if it fit",
                                  b, format_bytes(row.kv_cache_bytes), r.context, format_bytes(model.weight_bytes),
                                  format_bytes(usable_memory(roofs)), roofs.memory_source, *model.max_sequences));
    }
    decode.push_back(row);
  }
  return decode;
}

// Where the projections turn compute-bound (tokens/s rises with the batch until there), and where the
// whole step does (it may never: attention over the KV cache stays memory-bound at any batch).
Ridge ridge_of(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
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
  Ridge ridge;
  if (projections > 0) ridge.projections_compute_bound_batch = projections;
  if (step > 0) ridge.decode_compute_bound_batch = step;
  ridge.search_limit = kBatchSearchLimit;
  return ridge;
}

StepEstimate prefill_step(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, std::int64_t prompt) {
  const std::vector<Op> ops = prefill_ops(c, r.precisions, prompt);
  return estimate_step(ops, c.layers, roofs, step_bytes(ops, c.layers), r.precisions.weights);
}

// The observed speeds' MBU and MFU: decode at the first batch, prefill at the first prompt.
ObservedAnswer observed_of(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  const Precision p = r.precisions.weights;
  const ComputeRoof& peak = roofs.compute.at(p);
  ObservedAnswer out{fmt::format("{} {} {} FMA peak, {:.4g} {}", to_string(p), to_string(peak.engine), peak.isa, peak.peak,
                                 rate_unit(p)),
                     fmt::format("{} read roof, {:.4g} B/s", roofs.dram().level, roofs.dram().bandwidth), std::nullopt,
                     std::nullopt};
  if (r.observed.decode > 0.0) {
    const std::int64_t b = r.batches.front();
    out.decode = ObservedStep{b, r.observed.decode, utilisation(decode_step(c, r, roofs, b), static_cast<double>(b),
                                                                r.observed.decode, roofs.dequant_rate)};
  }
  if (r.observed.prefill > 0.0) {
    const std::int64_t prompt = r.prompts.front();
    out.prefill = ObservedStep{prompt, r.observed.prefill, utilisation(prefill_step(c, r, roofs, prompt),
                                                                       static_cast<double>(prompt), r.observed.prefill,
                                                                       roofs.dequant_rate)};
  }
  return out;
}

// The dequantization roof of every quantized format the step's weights use: the measured dequant-dot ceiling
// (roofline.dequant_ceilings) where the file has one at the thread count, else the stated convention (half the
// fp32 FMA peak in element operations), each said in a note.
std::vector<DequantRoofUsed> dequant_used(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  std::vector<DequantRoofUsed> out;
  std::vector<std::string> seen;
  for (const OpEstimate& e : decode_step(c, r, roofs, r.batches.front()).ops) {
    if (e.dequant_roof.empty() || std::find(seen.begin(), seen.end(), e.op.format) != seen.end()) continue;
    seen.push_back(e.op.format);
    const std::string family = dequant_family(e.op.format);
    const auto m = roofs.dequant.find(family);
    if (e.dequant_roof != "convention" && m != roofs.dequant.end()) {
      out.push_back({e.op.format, true, m->second.weights_per_second, m->second.isa, m->second.level, e.dequant_roof,
                     fmt::format("dequantization of the {} weights bound by the measured {} ceiling at {} threads: "
                                 "{} ({}, weights in {}), once per weight per step",
                                 e.op.format, family, roofs.threads, format_si(m->second.weights_per_second, "weights/s"),
                                 m->second.isa, m->second.level)});
    } else {
      out.push_back({e.op.format, false, roofs.dequant_rate, "", "", "convention",
                     fmt::format("dequantization of the {} weights at the stated convention (half the fp32 FMA peak: "
                                 "{}): the results file has no {} dequant-dot ceiling at {} threads (a run from "
                                 "before issue 38, or one without the compute suite's dequant_dot rows)",
                                 e.op.format, format_si(roofs.dequant_rate, "operations/s"),
                                 family.empty() ? e.op.format : family, roofs.threads)});
    }
  }
  return out;
}

SpeculativeAnswer speculative_of(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs) {
  SpeculativeAnswer out{r.draft->name, r.draft->source, {}};
  for (std::int64_t b : r.batches) {
    const double target = decode_step(c, r, roofs, b).seconds;
    const double verify = decode_step(c, r, roofs, b, r.draft_tokens + 1).seconds;
    const double draft = decode_step(*r.draft, r, roofs, b).seconds;
    out.rows.push_back(speculative_row(r.accept, r.draft_tokens, draft, target, verify, b));
  }
  return out;
}

// The notes on observed speeds above a roof: not clamped, said.
void note_above_roofs(const ObservedAnswer& observed, std::vector<std::string>& notes) {
  for (const auto& [phase, o] : {std::pair{"decode", &observed.decode}, std::pair{"prefill", &observed.prefill}}) {
    if (*o && std::max({(*o)->utilisation.mbu, (*o)->utilisation.mfu, (*o)->utilisation.dequant}) > 1.0) {
      notes.push_back(fmt::format("the observed {} speed is above a roof (MBU, MFU or dequantization over 100 %): the step moves "
                                  "or computes less than counted (cache reuse, skipped work) or the roof was measured low; "
                                  "the figure is not clamped", phase));
    }
  }
}

}  // namespace

LlmAnswer summarize(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const std::string& results_file) {
  const Precisions& p = r.precisions;
  LlmAnswer out;
  out.results = results_file;
  out.target = roofs.target;
  out.model = model_facts(c, r, roofs);
  out.roofs = roofs_used(roofs);
  if (!roofs.emulation.empty()) {
    out.notes.push_back(fmt::format("emulated run ({}): its roofs are the emulator's speed, not the CPU's, so every bound "
                                    "and time below shows the arithmetic only, nothing about this machine", roofs.emulation));
  }
  out.decode = decode_rows(c, r, roofs, out.model, out.notes);
  if (out.model.weights_fit == false) {
    out.notes.push_back(fmt::format("the weights ({}) do not fit the target's {} of memory ({})", format_bytes(out.model.weight_bytes),
                                    format_bytes(usable_memory(roofs)), roofs.memory_source));
  }
  out.ridge = ridge_of(c, r, roofs);
  for (std::int64_t prompt : r.prompts) {
    const StepEstimate s = prefill_step(c, r, roofs, prompt);
    out.prefill.push_back({prompt, step_figures(s), static_cast<double>(prompt) / s.seconds});
  }
  out.layer_decode = {r.batches.front(), r.context, decode_step(c, r, roofs, r.batches.front()).ops};
  out.layer_prefill = {r.prompts.front(), prefill_step(c, r, roofs, r.prompts.front()).ops};
  if (r.observed.decode > 0.0 || r.observed.prefill > 0.0) {
    out.observed = observed_of(c, r, roofs);
    note_above_roofs(*out.observed, out.notes);
  }
  if (r.draft) out.speculative = speculative_of(c, r, roofs);
  out.roofs.dequant = dequant_used(c, r, roofs);
  for (const DequantRoofUsed& d : out.roofs.dequant) out.notes.push_back(d.note);
  out.conventions = llm_conventions();
  if (p.stored().quantized() || !p.keep.empty()) {
    out.conventions["quantized"] = quant_conventions();
    out.conventions["time"] =
        "Per operation the largest of FLOPs / compute roof, bytes / memory roof and, for quantized weights, the "
        "dequantization time: the weights / the format's measured dequant-dot ceiling (roofline.dequant_ceilings), "
        "or without one the dequantization operations / the vector units' rate (the stated convention); summed; the "
        "memory roof is the level the step's working set fits in (the whole model's for inference).";
  }
  return out;
}

}  // namespace roofline::llm
