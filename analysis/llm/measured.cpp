// Estimated vs measured for the --measure chain: see measured.hpp.
#include "roofline/llm/measured.hpp"

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
    row["repetitions"] = m.repetitions;
    row["implementations"] = m.implementations;
    row["note"] = m.note;
    json op_rows = json::array();
    for (const OpEstimate& oe : e.ops) {
      json o = op_json(oe);
      const auto it = m.op_seconds.find(oe.op.name);
      o["measured_seconds"] = it != m.op_seconds.end() ? json(it->second) : json(nullptr);
      o["residual"] = it != m.op_seconds.end() ? json((oe.seconds - it->second) / it->second) : json(nullptr);
      op_rows.push_back(o);
    }
    row["ops"] = op_rows;
    out.push_back(row);
  }
  return {{"steps", out},
          {"residual", "(estimated - measured) / measured"},
          {"working_set", "the chain repeats one layer: its estimate uses the level one layer's working set fits in"}};
}

}  // namespace roofline::llm
