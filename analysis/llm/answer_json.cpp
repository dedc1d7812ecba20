// The JSON document of `roofline llm --json`: see answer.hpp. The one place that names the answer's keys; an
// absent figure is written as null where the document has always had the key, and left out where it has not.
#include "roofline/llm/answer.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

template <class T>
json nullable(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json model_json(const ModelFacts& m) {
  const ModelConfig& c = m.config;
  const WeightFormat& f = m.weights;
  json out = {{"name", c.name}, {"config", c.source}, {"architecture", c.architecture}, {"hidden_size", c.hidden},
              {"layers", c.layers}, {"heads", c.heads}, {"kv_heads", c.kv_heads}, {"head_dim", c.head_dim},
              {"intermediate_size", c.intermediate}, {"vocab_size", c.vocab}, {"tie_word_embeddings", c.tied_embeddings},
              {"parameters", m.parameters}, {"active_parameters", m.active_parameters},
              {"matmul_weights", m.matmul_weights}, {"weights", f.name},
              {"compute_precision", std::string(to_string(f.compute))}, {"kernel", f.kernel},
              {"bits_per_weight", f.bits_per_weight}, {"kv", std::string(to_string(m.kv))}, {"weight_bytes", m.weight_bytes},
              {"kv_cache_bytes_per_token", m.kv_cache_bytes_per_token}, {"context", m.context},
              {"kv_cache_bytes_per_sequence", m.kv_cache_bytes_per_sequence},
              {"sliding_window", c.sliding_window > 0 ? json(c.sliding_window) : json(nullptr)},
              {"windowed_layers", c.local_layers}, {"fused", c.fused}};
  json keep = json::object();
  for (const auto& [tensor, format] : m.keep) keep[tensor] = format;
  out["keep"] = keep;
  if (c.is_moe()) {
    out["moe"] = {{"experts", c.moe.experts}, {"top_k", c.moe.top_k}, {"expert_intermediate_size", c.moe.expert_intermediate},
                  {"shared_intermediate_size", c.moe.shared_intermediate}, {"dense_layers", c.moe.dense_layers},
                  {"routing", m.routing}};
  }
  out["memory_source"] = m.memory_source;
  if (m.memory_total_bytes > 0.0) out["memory_total_bytes"] = m.memory_total_bytes;
  if (m.memory_available_bytes > 0.0) out["memory_available_bytes"] = m.memory_available_bytes;
  out["weights_fit"] = nullable(m.weights_fit);
  out["max_sequences"] = nullable(m.max_sequences);
  return out;
}

json dequant_json(const DequantRoofUsed& d) {
  return {{"format", d.format}, {"source", d.measured ? "measured" : "convention"}, {"value", d.value},
          {"unit", d.measured ? "weights/s" : "element operations/s"}, {"isa", d.isa}, {"level", d.level},
          {"kernel", d.kernel}, {"note", d.note}};
}

json roofs_json(const RoofsUsed& roofs) {
  json compute = json::array();
  for (const auto& [p, c] : roofs.compute) {
    compute.push_back({{"precision", std::string(to_string(p))}, {"value", c.value}, {"peak", c.peak},
                       {"engine", std::string(to_string(c.engine))}, {"isa", c.isa}, {"source", c.source},
                       {"unit", std::string(rate_unit(p))}});
  }
  json levels = json::array();
  for (const MemoryRoofUsed& l : roofs.memory) {
    json row = {{"level", l.level}, {"value", l.bandwidth}, {"max_bytes", l.max_bytes}, {"unit", "B/s"}};
    if (l.gemv) {
      row["precision"] = std::string(to_string(*l.gemv));
      row["source"] = "gemv";
    }
    levels.push_back(row);
  }
  json out = {{"threads", roofs.threads}, {"source", roofs.source == RoofSource::peak ? "peak" : "gemm"},
              {"compute", compute}, {"memory", levels}};
  if (!roofs.dequant.empty()) {
    json dequant = json::array();
    for (const DequantRoofUsed& d : roofs.dequant) dequant.push_back(dequant_json(d));
    out["dequant"] = dequant;
  }
  return out;
}

json step_json(const StepFigures& s) {
  return {{"seconds", s.seconds},
          {"layer_seconds", s.layer_seconds},
          {"flops", s.flops},
          {"bytes", s.bytes},
          {"bound", std::string(to_string(s.bound))},
          {"memory_bound_fraction", s.memory_bound_fraction},
          {"dequant_bound_fraction", s.dequant_bound_fraction},
          {"dequant_ops", s.dequant_ops},
          {"level", s.level},
          {"mbu", s.mbu},
          {"mfu", s.mfu}};
}

json decode_json(const DecodeRow& r) {
  json row = step_json(r.step);
  row["batch"] = r.batch;
  row["context"] = r.context;
  row["seconds_per_token"] = r.step.seconds;
  row["tokens_per_second"] = r.tokens_per_second;
  row["tokens_per_second_per_sequence"] = r.tokens_per_second_per_sequence;
  row["kv_cache_bytes"] = r.kv_cache_bytes;
  if (r.experts_touched_per_layer) row["experts_touched_per_layer"] = *r.experts_touched_per_layer;
  row["fits_in_memory"] = nullable(r.fits_in_memory);
  return row;
}

// One operation's estimate: name, flops, bytes by kind, ai, seconds, bound, level, ...
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

json ops_json(const std::vector<OpEstimate>& ops) {
  json out = json::array();
  for (const OpEstimate& e : ops) out.push_back(op_json(e));
  return out;
}

json utilisation_json(const Utilisation& u, double tps) {
  return {{"tokens_per_second", tps},
          {"step_seconds", u.step_seconds},
          {"mbu", u.mbu},
          {"mfu", u.mfu},
          {"dequant_utilisation", u.dequant},
          {"nearest_bound", std::string(to_string(u.nearest))},
          {"of_estimate", u.estimate_ratio}};
}

json observed_json(const ObservedAnswer& o) {
  json out = {{"mfu_roof", o.mfu_roof}, {"mbu_roof", o.mbu_roof}};
  if (o.decode) {
    out["decode"] = utilisation_json(o.decode->utilisation, o.decode->tokens_per_second);
    out["decode"]["batch"] = o.decode->tokens;
  }
  if (o.prefill) {
    out["prefill"] = utilisation_json(o.prefill->utilisation, o.prefill->tokens_per_second);
    out["prefill"]["prompt_tokens"] = o.prefill->tokens;
  }
  return out;
}

// A row with its tokens/s, the target's alone and the formula.
json speculative_json(const SpeculativeRow& r) {
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

json speculative_json(const SpeculativeAnswer& s) {
  json rows = json::array();
  for (const SpeculativeRow& r : s.rows) rows.push_back(speculative_json(r));
  return {{"draft", s.draft}, {"draft_config", s.draft_config}, {"rows", rows}};
}

// The figures of a Measurement, under the names the comparison has always used.
void set_measurement(json& row, const Measurement& m) {
  row["estimated_seconds"] = m.estimated_seconds;
  row["measured_seconds"] = nullable(m.measured_seconds);
  row["residual"] = nullable(m.residual());
  row["measured_best_seconds"] = nullable(m.measured_best_seconds);
  row["residual_best"] = nullable(m.residual_best());
  if (m.estimated_seconds_moment) {
    row["estimated_seconds_moment"] = *m.estimated_seconds_moment;
    row["residual_moment"] = nullable(m.residual_moment());
    row["residual_best_moment"] = nullable(m.residual_best_moment());
  }
}

json model_step_json(const MeasuredModelStep& s) {
  const Measurement& m = s.time;
  const auto ratio = [&](const std::optional<double>& measured) {
    return measured ? json(m.estimated_seconds / *measured) : json(nullptr);
  };
  json out = {{"ratio", ratio(m.measured_seconds)},
              {"ratio_best", ratio(m.measured_best_seconds)},
              {"bound", std::string(to_string(s.bound))},
              {"memory_bound_seconds", s.memory_bound_seconds},
              {"dequant_bound_seconds", s.dequant_bound_seconds},
              {"compute_bound_seconds", s.compute_bound_seconds}};
  set_measurement(out, m);
  return out;
}

json measured_row_json(const MeasuredRow& m) {
  json row = {{"id", m.id}, {"title", m.title}, {"phase", m.phase == Phase::decode ? "decode" : "prefill"}};
  if (m.phase == Phase::decode) {
    row["batch"] = m.batch;
    row["context"] = m.context;
  } else {
    row["prompt_tokens"] = m.prompt_tokens;
  }
  row["level"] = m.level;
  set_measurement(row, m.layer);
  row["repetitions"] = m.repetitions;
  row["implementations"] = m.implementations;
  row["note"] = m.note;
  json ops = json::array();
  for (const MeasuredOp& o : m.ops) {
    json op = op_json(o.estimate);
    set_measurement(op, o.time);
    ops.push_back(op);
  }
  row["ops"] = ops;
  if (m.step) {
    row["format"] = m.format;
    row["step"] = model_step_json(*m.step);
  }
  return row;
}

}  // namespace

StepFigures step_figures(const StepEstimate& s) {
  return {s.seconds, s.layer_seconds, s.flops, s.bytes, s.limit,
          s.seconds > 0.0 ? s.memory_bound_seconds / s.seconds : 0.0,
          s.seconds > 0.0 ? s.dequant_bound_seconds / s.seconds : 0.0,
          s.dequant_ops, s.level, s.mbu, s.mfu};
}

std::optional<double> Measurement::relative(double estimated, const std::optional<double>& measured) {
  if (!measured) return std::nullopt;
  return (estimated - *measured) / *measured;
}

std::optional<double> Measurement::residual_moment() const {
  return estimated_seconds_moment ? relative(*estimated_seconds_moment, measured_seconds) : std::nullopt;
}

std::optional<double> Measurement::residual_best_moment() const {
  return estimated_seconds_moment ? relative(*estimated_seconds_moment, measured_best_seconds) : std::nullopt;
}

json to_json(const MeasuredComparison& m) {
  json steps = json::array();
  for (const MeasuredRow& row : m.steps) steps.push_back(measured_row_json(row));
  json out = {{"steps", steps}, {"notes", m.notes}, {"residual", m.residual}, {"working_set", m.working_set}};
  if (m.memory_roof_moment) {
    const double before = m.memory_roof_moment->before, after = m.memory_roof_moment->after;
    out["memory_roof_moment"] = {
        {"before", before}, {"after", after}, {"used", (before + after) / 2.0}, {"kernel", "read"},
        {"drift", before > 0.0 ? (after - before) / before : 0.0},
        {"method", "the DRAM read roof measured just before and just after the chain (best of 10 passes each, on the "
                   "chain's threads); the residual_moment columns use their mean in place of the results file's DRAM roof"}};
  }
  if (m.run) {
    out["threads"] = m.run->threads;
    out["budget_bytes"] = nullable(m.run->budget_bytes);
    out["backends"] = m.run->backends;
    out["results_file"] = m.run->results_file;
  }
  return out;
}

json to_json(const LlmAnswer& a) {
  json out = {{"results", a.results}, {"target", a.target}, {"model", model_json(a.model)}, {"roofs", roofs_json(a.roofs)}};
  out["decode"] = json::array();
  for (const DecodeRow& r : a.decode) out["decode"].push_back(decode_json(r));
  const Ridge& ridge = a.ridge;
  out["ridge"] = {{"projections_compute_bound_batch", nullable(ridge.projections_compute_bound_batch)},
                  {"decode_compute_bound_batch", nullable(ridge.decode_compute_bound_batch)},
                  {"search_limit", ridge.search_limit}};
  out["prefill"] = json::array();
  for (const PrefillRow& r : a.prefill) {
    json row = step_json(r.step);
    row["prompt_tokens"] = r.prompt_tokens;
    row["tokens_per_second"] = r.tokens_per_second;
    out["prefill"].push_back(row);
  }
  out["layer"] = {{"decode", {{"batch", a.layer_decode.batch}, {"context", a.layer_decode.context},
                              {"ops", ops_json(a.layer_decode.ops)}}},
                  {"prefill", {{"prompt_tokens", a.layer_prefill.prompt_tokens}, {"ops", ops_json(a.layer_prefill.ops)}}}};
  if (a.observed) out["observed"] = observed_json(*a.observed);
  if (a.speculative) out["speculative"] = speculative_json(*a.speculative);
  if (a.measured) out["measured"] = to_json(*a.measured);
  out["conventions"] = a.conventions;
  out["notes"] = a.notes;
  return out;
}

}  // namespace roofline::llm
