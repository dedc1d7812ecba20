// Estimated vs measured for the --measure chain: see measured.hpp.
#include "roofline/llm/measured.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/llm/estimate.hpp"

namespace roofline::llm {
using nlohmann::json;

bool quantized_chain(const Precisions& p) { return p.stored().quantized(); }

std::vector<Op> chain_ops(const ModelConfig& c, const Precisions& p, const MeasuredStep& step) {
  std::vector<Op> all = step.phase == Phase::decode ? decode_ops(c, p, step.batch, step.context) : prefill_ops(c, p, step.prompt);
  const bool with_lm_head = quantized_chain(p);
  std::vector<Op> layer;
  for (Op& op : all) {
    if (op.per_layer || (with_lm_head && op.weight_bytes > 0.0 && !op.calls.empty())) layer.push_back(as_chain_runs(op));
  }
  return layer;
}

namespace {

// The model step of the quantized chain: layers x the layer + lm_head, estimated and measured (null: not measured).
json step_json(const StepEstimate& e, const MeasuredStep& m) {
  const auto ratio = [](double estimated, double measured) { return measured > 0.0 ? json(estimated / measured) : json(nullptr); };
  const auto residual = [](double estimated, double measured) {
    return measured > 0.0 ? json((estimated - measured) / measured) : json(nullptr);
  };
  return {{"estimated_seconds", e.seconds},
          {"measured_seconds", m.step_seconds > 0.0 ? json(m.step_seconds) : json(nullptr)},
          {"measured_best_seconds", m.step_best_seconds > 0.0 ? json(m.step_best_seconds) : json(nullptr)},
          {"residual", residual(e.seconds, m.step_seconds)},
          {"residual_best", residual(e.seconds, m.step_best_seconds)},
          {"ratio", ratio(e.seconds, m.step_seconds)},
          {"ratio_best", ratio(e.seconds, m.step_best_seconds)},
          {"bound", std::string(to_string(e.limit))},
          {"memory_bound_seconds", e.memory_bound_seconds},
          {"dequant_bound_seconds", e.dequant_bound_seconds},
          {"compute_bound_seconds", e.compute_bound_seconds}};
}

}  // namespace

json compare_measured(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const std::vector<MeasuredStep>& steps) {
  json out = json::array();
  for (const MeasuredStep& m : steps) {
    const std::vector<Op> ops = chain_ops(c, r.precisions, m);
    // The chain's layer is the model's average layer: operations only some layers have count for their share.
    const double working_set = m.working_set_bytes > 0.0 ? m.working_set_bytes : step_bytes(ops, c.layers) / static_cast<double>(c.layers);
    const StepEstimate e = estimate_step(ops, c.layers, roofs, working_set, r.precisions.weights);
    json row;
    if (m.phase == Phase::decode) {
      row["id"] = fmt::format("decode-b{}", m.batch);
      row["title"] = fmt::format("Measured: one layer, decode at batch {}, context {}", m.batch, m.context);
      row["phase"] = "decode";
      row["batch"] = m.batch;
      row["context"] = m.context;
    } else {
      row["id"] = fmt::format("prefill-p{}", m.prompt);
      row["title"] = fmt::format("Measured: one layer, prefill of {} tokens", m.prompt);
      row["phase"] = "prefill";
      row["prompt_tokens"] = m.prompt;
    }
    row["level"] = e.level;
    row["estimated_seconds"] = e.layer_seconds;
    row["measured_seconds"] = m.layer_seconds > 0.0 ? json(m.layer_seconds) : json(nullptr);
    row["residual"] = m.layer_seconds > 0.0 ? json((e.layer_seconds - m.layer_seconds) / m.layer_seconds) : json(nullptr);
    row["measured_best_seconds"] = m.layer_best_seconds > 0.0 ? json(m.layer_best_seconds) : json(nullptr);
    row["residual_best"] =
        m.layer_best_seconds > 0.0 ? json((e.layer_seconds - m.layer_best_seconds) / m.layer_best_seconds) : json(nullptr);
    row["repetitions"] = m.repetitions;
    row["implementations"] = m.implementations;
    row["note"] = m.note;
    json op_rows = json::array();
    for (const OpEstimate& oe : e.ops) {
      json o = op_json(oe);
      const auto it = m.op_seconds.find(oe.op.name);
      o["measured_seconds"] = it != m.op_seconds.end() ? json(it->second) : json(nullptr);
      o["residual"] = it != m.op_seconds.end() ? json((oe.seconds - it->second) / it->second) : json(nullptr);
      const auto best = m.op_best_seconds.find(oe.op.name);
      o["measured_best_seconds"] = best != m.op_best_seconds.end() ? json(best->second) : json(nullptr);
      o["residual_best"] = best != m.op_best_seconds.end() ? json((oe.seconds - best->second) / best->second) : json(nullptr);
      op_rows.push_back(o);
    }
    row["ops"] = op_rows;
    if (quantized_chain(r.precisions)) {
      row["format"] = r.precisions.stored().name;
      row["step"] = step_json(e, m);
    }
    out.push_back(row);
  }
  json notes = json::array();
  for (const MeasuredStep& m : steps) {
    if (m.phase != Phase::prefill) continue;
    // What the chain's blocks compute beyond the causal pairs the model counts.
    const double p = static_cast<double>(m.prompt), b = static_cast<double>(std::min(kCausalBlock, m.prompt));
    const double blocks = std::ceil(p / b);
    const double chain_pairs = b * b * blocks * (blocks + 1) / 2;  // upper bound when the last block is full
    notes.push_back(fmt::format("prefill of {} tokens: the chain computes causal attention in query blocks of {} (the "
                                "diagonal block in full), up to {:.1f}% more score/value FLOPs than the P(P+1)/2 pairs "
                                "the model counts", m.prompt, static_cast<long long>(b),
                                100.0 * (chain_pairs / (p * (p + 1) / 2) - 1)));
  }
  for (const MeasuredStep& m : steps) {
    if (!quantized_chain(r.precisions) || m.phase != Phase::decode || m.batch <= 1) continue;
    notes.push_back(fmt::format("decode at batch {}: the chain's dequant-dot GEMV unpacks and multiplies every weight once per "
                                "activation column ({} times, ggml's vec_dot path), the estimate once per step (a kernel that "
                                "unpacks a tile once for the batch): the measured step can take up to {}x its dequant-bound time",
                                m.batch, m.batch, m.batch));
  }
  return {{"steps", out},
          {"notes", notes},
          {"residual", "(estimated - measured) / measured; measured = the median pass (residual_best: the fastest pass)"},
          {"working_set", "the chain repeats one layer: its estimate uses the level one layer's working set fits in"}};
}

Roofs at_memory_roof(const Roofs& roofs, double bandwidth) {
  Roofs moment = roofs;
  moment.levels.back().bandwidth = bandwidth;
  moment.gemv_bandwidth.clear();
  return moment;
}

namespace {

void copy_moment(json& row, const json& moment) {
  row["estimated_seconds_moment"] = moment["estimated_seconds"];
  row["residual_moment"] = moment["residual"];
  row["residual_best_moment"] = moment["residual_best"];
}

}  // namespace

void add_moment(json& measured, const json& moment, double before, double after) {
  json& steps = measured["steps"];
  for (std::size_t i = 0; i < steps.size(); ++i) {
    copy_moment(steps[i], moment["steps"][i]);
    if (steps[i].contains("step")) copy_moment(steps[i]["step"], moment["steps"][i]["step"]);
    for (std::size_t k = 0; k < steps[i]["ops"].size(); ++k) copy_moment(steps[i]["ops"][k], moment["steps"][i]["ops"][k]);
  }
  measured["notes"].push_back(fmt::format(
      "DRAM read roof measured beside the chain: {:.3g} GB/s before, {:.3g} GB/s after ({:+.1f} %); the 'roof now' "
      "residuals use their mean in place of the results file's DRAM roof (levels the chain fits in are unchanged)",
      before / 1e9, after / 1e9, before > 0.0 ? 100.0 * (after - before) / before : 0.0));
  measured["memory_roof_moment"] = {
      {"before", before}, {"after", after}, {"used", (before + after) / 2.0}, {"kernel", "read"},
      {"drift", before > 0.0 ? (after - before) / before : 0.0},
      {"method", "the DRAM read roof measured just before and just after the chain (best of 10 passes each, on the "
                 "chain's threads); the residual_moment columns use their mean in place of the results file's DRAM roof"}};
}

}  // namespace roofline::llm
