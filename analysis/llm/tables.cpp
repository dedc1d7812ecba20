// The tables of `roofline llm`: see tables.hpp.
#include "roofline/llm/tables.hpp"

#include <fmt/format.h>

#include "roofline/common/units.hpp"

namespace roofline::llm {

namespace {

std::string seconds(double s) { return format_si(s, "s"); }
std::string percent(double f) { return fmt::format("{:.1f} %", 100.0 * f); }
std::string count(const std::optional<std::int64_t>& v) { return v ? fmt::format("{}", *v) : "n/a"; }
std::string yes_no(const std::optional<bool>& v) { return v ? (*v ? "yes" : "no") : "n/a"; }
std::string flop_unit(Precision p) { return p == Precision::int8 ? "OP" : "FLOP"; }

ReportTable model_table(const LlmAnswer& a) {
  const ModelFacts& m = a.model;
  const ModelConfig& c = m.config;
  ReportTable t{"llm-model", "Model", {"quantity", "value"}, {false, true}, {}, ""};
  t.rows = {{"model", c.name + " (" + c.architecture + ")"},
            {"parameters", fmt::format("{} ({})", m.parameters, format_si(static_cast<double>(m.parameters), ""))}};
  if (c.is_moe()) {
    const MoeShape& e = c.moe;
    t.rows.push_back({"active parameters (per token)", fmt::format("{} ({})", m.active_parameters,
                                                                   format_si(static_cast<double>(m.active_parameters), ""))});
    t.rows.push_back({"experts", fmt::format("{} routed, top {}, {} wide; shared {} wide; {} dense layers", e.experts,
                                             e.top_k, e.expert_intermediate, e.shared_intermediate, e.dense_layers)});
  }
  t.rows.push_back({"weights", fmt::format("{} ({:.4g} bits/weight), multiplied in {}", m.weights.name,
                                           m.weights.bits_per_weight, to_string(m.weights.compute))});
  for (const auto& [tensor, format] : m.keep) t.rows.push_back({"kept: " + tensor, format});
  if (c.sliding_window > 0) {
    t.rows.push_back({"sliding window", fmt::format("{} tokens on {} of {} layers", c.sliding_window, c.local_layers, c.layers)});
  }
  t.rows.insert(t.rows.end(), {
            {"weight bytes (" + m.weights.name + "), fit in memory: " + yes_no(m.weights_fit), format_bytes(m.weight_bytes)},
            {"KV cache per token (" + std::string(to_string(m.kv)) + ")", format_bytes(m.kv_cache_bytes_per_token)},
            {fmt::format("KV cache per sequence at context {}", m.context), format_bytes(m.kv_cache_bytes_per_sequence)},
            {"sequences that fit in memory", count(m.max_sequences)}});
  if (m.memory_total_bytes > 0.0 || m.memory_available_bytes > 0.0) {
    t.note = fmt::format("memory: {} total, {} available, from {}; {}",
                         m.memory_total_bytes > 0.0 ? format_bytes(m.memory_total_bytes) : "n/a",
                         m.memory_available_bytes > 0.0 ? format_bytes(m.memory_available_bytes) : "n/a",
                         m.memory_source, m.weights.kernel);
  }
  return t;
}

ReportTable roofs_table(const LlmAnswer& a) {
  const RoofsUsed& r = a.roofs;
  // A target other than the CPU has no thread count (threads 0): its kernels run on the whole device.
  const std::string where = r.threads > 0 ? fmt::format("{} threads", r.threads) : fmt::format("{}, whole device", a.target);
  ReportTable t{"llm-roofs", fmt::format("Ceilings used ({}, compute roof: {})", where, r.source == RoofSource::peak ? "peak" : "gemm"),
                {"roof", "value", "engine / range", "source"}, {false, true, false, false}, {}, ""};
  for (const auto& [p, c] : r.compute) {
    t.rows.push_back({std::string(to_string(p)), format_si(c.value, rate_unit(p)),
                      std::string(to_string(c.engine)) + " " + c.isa, c.source});
  }
  for (const MemoryRoofUsed& l : r.memory) {
    t.rows.push_back({l.level, format_si(l.bandwidth, "B/s"), l.max_bytes > 0 ? "up to " + format_bytes(l.max_bytes) : "",
                      l.gemv ? std::string(to_string(*l.gemv)) + " GEMV (batch 1)" : "read ceiling"});
  }
  for (const DequantRoofUsed& d : r.dequant) {
    t.rows.push_back({d.format + " dequant", format_si(d.value, d.measured ? "weights/s" : "element operations/s"),
                      d.measured ? d.isa + " " + d.level : "",
                      d.measured ? "measured dequant-dot ceiling" : "convention: half the fp32 FMA peak (no dequant-dot row)"});
  }
  return t;
}

ReportTable decode_table(const LlmAnswer& a) {
  ReportTable t{"llm-decode", fmt::format("Decode at context {}", a.model.context),
                {"batch", "s/token", "tokens/s total", "tokens/s per sequence", "bound", "MBU", "MFU", "KV cache", "fits"},
                {true, true, true, true, false, true, true, true, false}, {}, ""};
  for (const DecodeRow& r : a.decode) {
    t.rows.push_back({fmt::format("{}", r.batch), seconds(r.step.seconds), fmt::format("{:.4g}", r.tokens_per_second),
                      fmt::format("{:.4g}", r.tokens_per_second_per_sequence), std::string(to_string(r.step.bound)),
                      percent(r.step.mbu), percent(r.step.mfu), format_bytes(r.kv_cache_bytes), yes_no(r.fits_in_memory)});
  }
  const Ridge& ridge = a.ridge;
  t.note = fmt::format("projections turn compute-bound at batch {}; the whole decode step at batch {} (n/a: not below {})",
                       count(ridge.projections_compute_bound_batch), count(ridge.decode_compute_bound_batch),
                       ridge.search_limit);
  if (a.model.config.is_moe()) {
    std::string touched;
    for (const DecodeRow& r : a.decode) {
      touched += fmt::format("{}batch {}: {:.3g}", touched.empty() ? "" : ", ", r.batch, r.experts_touched_per_layer.value_or(0.0));
    }
    t.note += "; experts read per layer (" + a.model.routing + "): " + touched;
  }
  return t;
}

ReportTable prefill_table(const LlmAnswer& a) {
  ReportTable t{"llm-prefill", "Prefill (time to first token)", {"prompt tokens", "seconds", "tokens/s", "bound", "MFU", "MBU"},
                {true, true, true, false, true, true}, {}, ""};
  for (const PrefillRow& r : a.prefill) {
    t.rows.push_back({fmt::format("{}", r.prompt_tokens), seconds(r.step.seconds), fmt::format("{:.4g}", r.tokens_per_second),
                      std::string(to_string(r.step.bound)), percent(r.step.mfu), percent(r.step.mbu)});
  }
  return t;
}

// Measured (median pass), its residual, fastest pass, its residual; "not measured" when absent.
void append_measured(std::vector<std::string>& row, const Measurement& m) {
  for (const auto& [value, residual] : {std::pair{m.measured_seconds, m.residual()},
                                        std::pair{m.measured_best_seconds, m.residual_best()}}) {
    row.push_back(value ? seconds(*value) : "not measured");
    row.push_back(value ? fmt::format("{:+.1f} %", 100.0 * residual.value_or(0.0)) : "");
  }
  const std::optional<double> moment = m.residual_moment();
  row.push_back(moment ? fmt::format("{:+.1f} %", 100.0 * *moment) : "");
}

// An operation's estimate: name, precision, FLOPs, bytes, AI, the roof's level, bound, seconds.
std::vector<std::string> op_cells(const OpEstimate& e) {
  const Op& op = e.op;
  const bool some = op.per_layer && op.layers_with > 0;
  return {op.name + (op.per_layer ? "" : " (once)") + (some ? fmt::format(" ({} layers)", op.layers_with) : ""),
          std::string(to_string(op.precision)), format_si(op.flops, flop_unit(op.precision)), format_bytes(op.bytes()),
          fmt::format("{:.3g}", e.ai), e.level, std::string(to_string(e.limit)), seconds(e.seconds)};
}

ReportTable ops_table(const std::string& id, const std::string& title, const std::vector<OpEstimate>& ops) {
  ReportTable t{id, title, {"operation", "precision", "FLOPs", "bytes", "AI (FLOP/B)", "roof", "bound", "estimated"},
                {false, false, true, true, true, false, false, true}, {}, ""};
  for (const OpEstimate& e : ops) t.rows.push_back(op_cells(e));
  return t;
}

// A measured step: its operations, the layer and (the quantized chain) the model step, estimated beside measured.
ReportTable measured_table(const MeasuredRow& m) {
  ReportTable t = ops_table("llm-measured-" + m.id, m.title, {});
  t.columns.insert(t.columns.end(), {"measured", "residual", "fastest", "residual", "residual, roof now"});
  t.right_aligned.insert(t.right_aligned.end(), {true, true, true, true, true});
  for (const MeasuredOp& o : m.ops) {
    t.rows.push_back(op_cells(o.estimate));
    append_measured(t.rows.back(), o.time);
  }
  std::vector<std::string> layer{"layer", "", "", "", "", "", "", seconds(m.layer.estimated_seconds)};
  append_measured(layer, m.layer);
  t.rows.push_back(layer);
  t.note = m.note;
  if (m.step) {
    const Measurement& st = m.step->time;
    std::vector<std::string> step{"step (layers x layer + lm_head)", m.format, "", "", "", "",
                                  std::string(to_string(m.step->bound)), seconds(st.estimated_seconds)};
    append_measured(step, st);
    t.rows.push_back(step);
    const auto ratio = [&](const std::optional<double>& measured) {
      return measured ? fmt::format("{:.2f}", st.estimated_seconds / *measured) : std::string("not measured");
    };
    t.note += fmt::format("{}step: estimated / measured {} (fastest pass {}); the bound of each operation is the "
                          "largest of its memory, compute and dequant-dot times", t.note.empty() ? "" : "; ",
                          ratio(st.measured_seconds), ratio(st.measured_best_seconds));
  }
  return t;
}

ReportTable observed_table(const ObservedAnswer& observed) {
  ReportTable t{"llm-observed", "Observed speeds on this roofline", {"step", "tokens/s", "MBU", "MFU", "dequant", "nearest bound", "of estimate"},
                {false, true, true, true, true, false, true}, {}, ""};
  for (const auto& [phase, o] : {std::pair{Phase::decode, &observed.decode}, std::pair{Phase::prefill, &observed.prefill}}) {
    if (!*o) continue;
    const Utilisation& u = (*o)->utilisation;
    const std::string step = phase == Phase::decode ? fmt::format("decode batch {}", (*o)->tokens)
                                                    : fmt::format("prefill {} tokens", (*o)->tokens);
    t.rows.push_back({step, fmt::format("{:.4g}", (*o)->tokens_per_second), percent(u.mbu), percent(u.mfu), percent(u.dequant),
                      std::string(to_string(u.nearest)), percent(u.estimate_ratio)});
  }
  t.note = fmt::format("MBU = the step's bytes / observed step time / the memory roof used ({}); MFU = its FLOPs / that time / the "
                       "FMA peak of the precision the weights are multiplied in ({}); nearest bound = the largest of the three",
                       observed.mbu_roof, observed.mfu_roof);
  return t;
}

ReportTable speculative_table(const SpeculativeAnswer& sp) {
  ReportTable t{"llm-speculative", "Speculative decoding with draft " + sp.draft,
                {"batch", "A", "K", "tokens/cycle", "draft step", "verify step", "target step", "speed-up bound"},
                {true, true, true, true, true, true, true, true}, {}, ""};
  for (const SpeculativeRow& r : sp.rows) {
    t.rows.push_back({fmt::format("{}", r.batch), fmt::format("{:.3g}", r.accept), fmt::format("{}", r.draft_tokens),
                      fmt::format("{:.4g}", r.bound.tokens_per_cycle), seconds(r.draft_step_seconds),
                      seconds(r.verify_step_seconds), seconds(r.target_step_seconds), fmt::format("{:.3g}x", r.bound.speedup)});
  }
  if (!sp.rows.empty()) t.note = kSpeculativeFormula;
  return t;
}

ReportTable conventions_table(const LlmAnswer& a) {
  ReportTable t{"llm-conventions", "Counting conventions", {"what", "convention"}, {false, false}, {}, ""};
  for (const auto& [what, convention] : a.conventions) t.rows.push_back({what, convention});
  return t;
}

}  // namespace

std::vector<std::string> llm_notes(const LlmAnswer& a) {
  std::vector<std::string> notes = a.notes;
  if (a.measured) notes.insert(notes.end(), a.measured->notes.begin(), a.measured->notes.end());
  return notes;
}

std::vector<ReportTable> llm_tables(const LlmAnswer& a) {
  std::vector<ReportTable> tables{model_table(a), roofs_table(a), decode_table(a), prefill_table(a)};
  const LayerDecode& d = a.layer_decode;
  tables.push_back(ops_table("llm-layer-decode", fmt::format("One layer, decode at batch {}, context {} (estimate)", d.batch, d.context),
                             d.ops));
  const LayerPrefill& p = a.layer_prefill;
  tables.push_back(ops_table("llm-layer-prefill", fmt::format("One layer, prefill of {} tokens (estimate)", p.prompt_tokens), p.ops));
  if (a.observed) tables.push_back(observed_table(*a.observed));
  if (a.speculative) tables.push_back(speculative_table(*a.speculative));
  if (a.measured) {
    for (const MeasuredRow& m : a.measured->steps) tables.push_back(measured_table(m));
  }
  tables.push_back(conventions_table(a));
  return tables;
}

std::string render_llm_text(const LlmAnswer& a) {
  std::string s;
  for (const ReportTable& t : llm_tables(a)) s += render_table_text(t) + "\n";
  for (const std::string& n : llm_notes(a)) s += "note: " + n + "\n";
  return s;
}

}  // namespace roofline::llm
