// Estimated vs measured for the --measure chain: see measured.hpp.
#include "roofline/llm/measured.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofline/llm/estimate.hpp"

namespace roofline::llm {
using nlohmann::json;

std::vector<Op> chain_ops(const ModelConfig& c, const Precisions& p, const MeasuredStep& step) {
  std::vector<Op> all = step.phase == Phase::decode ? decode_ops(c, p, step.batch, step.context) : prefill_ops(c, p, step.prompt);
  std::vector<Op> layer;
  for (Op& op : all) {
    if (op.per_layer) layer.push_back(std::move(op));
  }
  return layer;
}

json compare_measured(const ModelConfig& c, const LlmRequest& r, const Roofs& roofs, const std::vector<MeasuredStep>& steps) {
  json out = json::array();
  for (const MeasuredStep& m : steps) {
    const std::vector<Op> ops = chain_ops(c, r.precisions, m);
    const StepEstimate e = estimate_step(ops, 1, roofs, step_bytes(ops, 1), r.precisions.weights);
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
    row["level"] = std::string(to_string(e.level));
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
  return {{"steps", out},
          {"notes", notes},
          {"residual", "(estimated - measured) / measured; measured = the median pass (residual_best: the fastest pass)"},
          {"working_set", "the chain repeats one layer: its estimate uses the level one layer's working set fits in"}};
}

}  // namespace roofline::llm
