// The tables of `roofline llm`: see tables.hpp.
#include "roofline/llm/tables.hpp"

#include <fmt/format.h>

#include "roofline/common/units.hpp"

namespace roofline::llm {
using nlohmann::json;

namespace {

std::string seconds(double s) { return format_si(s, "s"); }
std::string percent(double f) { return fmt::format("{:.1f} %", 100.0 * f); }
std::string count(const json& v) { return v.is_null() ? "n/a" : fmt::format("{}", v.get<long long>()); }
std::string rate_unit(const json& op) { return op.value("precision", "") == "int8" ? "OP" : "FLOP"; }

ReportTable model_table(const json& a) {
  const json& m = a["model"];
  ReportTable t{"llm-model", "Model", {"quantity", "value"}, {false, true}, {}, ""};
  t.rows = {{"model", m.value("name", "") + " (" + m.value("architecture", "") + ")"},
            {"parameters", fmt::format("{} ({})", m["parameters"].get<long long>(), format_si(m["parameters"].get<double>(), ""))}};
  if (m.contains("moe")) {
    const json& e = m["moe"];
    t.rows.push_back({"active parameters (per token)", fmt::format("{} ({})", m["active_parameters"].get<long long>(),
                                                                   format_si(m["active_parameters"].get<double>(), ""))});
    t.rows.push_back({"experts", fmt::format("{} routed, top {}, {} wide; shared {} wide; {} dense layers", e["experts"].get<long long>(),
                                             e["top_k"].get<long long>(), e["expert_intermediate_size"].get<long long>(),
                                             e["shared_intermediate_size"].get<long long>(), e["dense_layers"].get<long long>())});
  }
  t.rows.push_back({"weights", fmt::format("{} ({:.4g} bits/weight), multiplied in {}", m.value("weights", ""),
                                           m.value("bits_per_weight", 0.0), m.value("compute_precision", ""))});
  const json keep = m.value("keep", json::object());
  for (auto it = keep.begin(); it != keep.end(); ++it) t.rows.push_back({"kept: " + it.key(), it.value().get<std::string>()});
  if (!m["sliding_window"].is_null()) {
    t.rows.push_back({"sliding window", fmt::format("{} tokens on {} of {} layers", m["sliding_window"].get<long long>(),
                                                    m["windowed_layers"].get<long long>(), m["layers"].get<long long>())});
  }
  const std::string fit = m["weights_fit"].is_null() ? "n/a" : (m["weights_fit"].get<bool>() ? "yes" : "no");
  t.rows.insert(t.rows.end(), {
            {"weight bytes (" + m.value("weights", "") + "), fit in memory: " + fit, format_bytes(m["weight_bytes"].get<double>())},
            {"KV cache per token (" + m.value("kv", "") + ")", format_bytes(m["kv_cache_bytes_per_token"].get<double>())},
            {fmt::format("KV cache per sequence at context {}", m["context"].get<long long>()),
             format_bytes(m["kv_cache_bytes_per_sequence"].get<double>())},
            {"sequences that fit in memory", count(m["max_sequences"])}});
  if (m.contains("memory_total_bytes") || m.contains("memory_available_bytes")) {
    t.note = fmt::format("memory: {} total, {} available, from {}; {}",
                         m.contains("memory_total_bytes") ? format_bytes(m["memory_total_bytes"].get<double>()) : "n/a",
                         m.contains("memory_available_bytes") ? format_bytes(m["memory_available_bytes"].get<double>()) : "n/a",
                         m.value("memory_source", ""), m.value("kernel", ""));
  }
  return t;
}

ReportTable roofs_table(const json& a) {
  const json& r = a["roofs"];
  // A target other than the CPU has no thread count (threads 0): its kernels run on the whole device.
  const int threads = r["threads"].get<int>();
  const std::string where = threads > 0 ? fmt::format("{} threads", threads) : fmt::format("{}, whole device", a.value("target", "?"));
  ReportTable t{"llm-roofs", fmt::format("Ceilings used ({}, compute roof: {})", where, r.value("source", "")),
                {"roof", "value", "engine / range", "source"}, {false, true, false, false}, {}, ""};
  for (const json& c : r["compute"]) {
    t.rows.push_back({c.value("precision", ""), format_si(c["value"].get<double>(), c.value("unit", "")),
                      c.value("engine", "") + " " + c.value("isa", ""), c.value("source", "")});
  }
  for (const json& l : r["memory"]) {
    t.rows.push_back({l.value("level", ""), format_si(l["value"].get<double>(), "B/s"),
                      l["max_bytes"].get<double>() > 0 ? "up to " + format_bytes(l["max_bytes"].get<double>()) : "",
                      l.contains("precision") ? l.value("precision", "") + " GEMV (batch 1)" : "read ceiling"});
  }
  for (const json& d : r.value("dequant", json::array())) {
    const bool measured = d.value("source", "") == "measured";
    t.rows.push_back({d.value("format", "") + " dequant", format_si(d["value"].get<double>(), d.value("unit", "")),
                      measured ? d.value("isa", "") + " " + d.value("level", "") : "",
                      measured ? "measured dequant-dot ceiling" : "convention: half the fp32 FMA peak (no dequant-dot row)"});
  }
  return t;
}

ReportTable decode_table(const json& a) {
  ReportTable t{"llm-decode", fmt::format("Decode at context {}", a["model"]["context"].get<long long>()),
                {"batch", "s/token", "tokens/s total", "tokens/s per sequence", "bound", "MBU", "MFU", "KV cache", "fits"},
                {true, true, true, true, false, true, true, true, false}, {}, ""};
  for (const json& r : a["decode"]) {
    t.rows.push_back({fmt::format("{}", r["batch"].get<long long>()), seconds(r["seconds_per_token"].get<double>()),
                      fmt::format("{:.4g}", r["tokens_per_second"].get<double>()),
                      fmt::format("{:.4g}", r["tokens_per_second_per_sequence"].get<double>()), r.value("bound", ""),
                      percent(r["mbu"].get<double>()), percent(r["mfu"].get<double>()),
                      format_bytes(r["kv_cache_bytes"].get<double>()),
                      r["fits_in_memory"].is_null() ? "n/a" : (r["fits_in_memory"].get<bool>() ? "yes" : "no")});
  }
  const json& ridge = a["ridge"];
  t.note = fmt::format("projections turn compute-bound at batch {}; the whole decode step at batch {} (n/a: not below {})",
                       count(ridge["projections_compute_bound_batch"]), count(ridge["decode_compute_bound_batch"]),
                       ridge["search_limit"].get<long long>());
  if (a["model"].contains("moe")) {
    std::string touched;
    for (const json& r : a["decode"]) {
      touched += fmt::format("{}batch {}: {:.3g}", touched.empty() ? "" : ", ", r["batch"].get<long long>(),
                             r["experts_touched_per_layer"].get<double>());
    }
    t.note += "; experts read per layer (" + a["model"]["moe"].value("routing", "") + "): " + touched;
  }
  return t;
}

ReportTable prefill_table(const json& a) {
  ReportTable t{"llm-prefill", "Prefill (time to first token)", {"prompt tokens", "seconds", "tokens/s", "bound", "MFU", "MBU"},
                {true, true, true, false, true, true}, {}, ""};
  for (const json& r : a["prefill"]) {
    t.rows.push_back({fmt::format("{}", r["prompt_tokens"].get<long long>()), seconds(r["seconds"].get<double>()),
                      fmt::format("{:.4g}", r["tokens_per_second"].get<double>()), r.value("bound", ""),
                      percent(r["mfu"].get<double>()), percent(r["mbu"].get<double>())});
  }
  return t;
}

// Measured (median pass), its residual, fastest pass, its residual; "not measured" when absent.
void append_measured(std::vector<std::string>& row, const json& m) {
  for (const auto& [value, residual] : {std::pair{"measured_seconds", "residual"}, std::pair{"measured_best_seconds", "residual_best"}}) {
    const bool has = m.contains(value) && m[value].is_number();
    row.push_back(has ? seconds(m[value].get<double>()) : "not measured");
    row.push_back(has ? fmt::format("{:+.1f} %", 100.0 * m[residual].get<double>()) : "");
  }
  const bool moment = m.contains("residual_moment") && m["residual_moment"].is_number();
  row.push_back(moment ? fmt::format("{:+.1f} %", 100.0 * m["residual_moment"].get<double>()) : "");
}

ReportTable ops_table(const std::string& id, const std::string& title, const json& ops, bool measured) {
  ReportTable t{id, title, {"operation", "precision", "FLOPs", "bytes", "AI (FLOP/B)", "roof", "bound", "estimated"},
                {false, false, true, true, true, false, false, true}, {}, ""};
  if (measured) {
    t.columns.insert(t.columns.end(), {"measured", "residual", "fastest", "residual", "residual, roof now"});
    t.right_aligned.insert(t.right_aligned.end(), {true, true, true, true, true});
  }
  for (const json& op : ops) {
    const bool some = op.contains("layers") && op["layers"].is_number();
    std::vector<std::string> row{op.value("name", "") + (op.value("per_layer", true) ? "" : " (once)") +
                                     (some ? fmt::format(" ({} layers)", op["layers"].get<long long>()) : ""),
                                 op.value("precision", ""), format_si(op["flops"].get<double>(), rate_unit(op)),
                                 format_bytes(op["bytes"].get<double>()), fmt::format("{:.3g}", op["ai"].get<double>()),
                                 op.value("level", ""), op.value("bound", ""), seconds(op["estimated_seconds"].get<double>())};
    if (measured) {
      append_measured(row, op);
    }
    t.rows.push_back(row);
  }
  return t;
}

ReportTable observed_table(const json& a) {
  ReportTable t{"llm-observed", "Observed speeds on this roofline", {"step", "tokens/s", "MBU", "MFU", "dequant", "nearest bound", "of estimate"},
                {false, true, true, true, true, false, true}, {}, ""};
  for (const char* phase : {"decode", "prefill"}) {
    if (!a["observed"].contains(phase)) continue;
    const json& o = a["observed"][phase];
    const std::string step = o.contains("batch") ? fmt::format("decode batch {}", o["batch"].get<long long>())
                                                 : fmt::format("prefill {} tokens", o["prompt_tokens"].get<long long>());
    t.rows.push_back({step, fmt::format("{:.4g}", o["tokens_per_second"].get<double>()), percent(o["mbu"].get<double>()),
                      percent(o["mfu"].get<double>()), percent(o["dequant_utilisation"].get<double>()), o.value("nearest_bound", ""),
                      percent(o["of_estimate"].get<double>())});
  }
  t.note = fmt::format("MBU = the step's bytes / observed step time / the memory roof used ({}); MFU = its FLOPs / that time / the "
                       "FMA peak of the precision the weights are multiplied in ({}); nearest bound = the largest of the three",
                       a["observed"].value("mbu_roof", ""), a["observed"].value("mfu_roof", ""));
  return t;
}

ReportTable speculative_table(const json& a) {
  const json& sp = a["speculative"];
  ReportTable t{"llm-speculative", "Speculative decoding with draft " + sp.value("draft", ""),
                {"batch", "A", "K", "tokens/cycle", "draft step", "verify step", "target step", "speed-up bound"},
                {true, true, true, true, true, true, true, true}, {}, ""};
  for (const json& r : sp["rows"]) {
    t.rows.push_back({fmt::format("{}", r["batch"].get<long long>()), fmt::format("{:.3g}", r["accept"].get<double>()),
                      fmt::format("{}", r["draft_tokens"].get<long long>()), fmt::format("{:.4g}", r["tokens_per_cycle"].get<double>()),
                      seconds(r["draft_step_seconds"].get<double>()), seconds(r["verify_step_seconds"].get<double>()),
                      seconds(r["target_step_seconds"].get<double>()), fmt::format("{:.3g}x", r["speedup"].get<double>())});
  }
  if (!sp["rows"].empty()) t.note = sp["rows"][0].value("formula", "");
  return t;
}

ReportTable conventions_table(const json& a) {
  ReportTable t{"llm-conventions", "Counting conventions", {"what", "convention"}, {false, false}, {}, ""};
  for (auto it = a["conventions"].begin(); it != a["conventions"].end(); ++it) t.rows.push_back({it.key(), it.value().get<std::string>()});
  return t;
}

}  // namespace

json llm_notes(const json& a) {
  json notes = a.value("notes", json::array());
  if (a.contains("measured")) {
    for (const json& n : a["measured"].value("notes", json::array())) notes.push_back(n);
  }
  return notes;
}

std::vector<ReportTable> llm_tables(const json& a) {
  std::vector<ReportTable> tables{model_table(a), roofs_table(a), decode_table(a), prefill_table(a)};
  const json& d = a["layer"]["decode"];
  tables.push_back(ops_table("llm-layer-decode", fmt::format("One layer, decode at batch {}, context {} (estimate)",
                                                             d["batch"].get<long long>(), d["context"].get<long long>()),
                             d["ops"], false));
  const json& p = a["layer"]["prefill"];
  tables.push_back(ops_table("llm-layer-prefill", fmt::format("One layer, prefill of {} tokens (estimate)", p["prompt_tokens"].get<long long>()),
                             p["ops"], false));
  if (a.contains("observed")) tables.push_back(observed_table(a));
  if (a.contains("speculative")) tables.push_back(speculative_table(a));
  if (a.contains("measured")) {
    for (const json& m : a["measured"]["steps"]) {
      ReportTable t = ops_table("llm-measured-" + m.value("id", ""), m.value("title", ""), m["ops"], true);
      std::vector<std::string> layer{"layer", "", "", "", "", "", "", seconds(m["estimated_seconds"].get<double>())};
      append_measured(layer, m);
      t.rows.push_back(layer);
      t.note = m.value("note", "");
      if (m.contains("step")) {
        const json& st = m["step"];
        std::vector<std::string> step{"step (layers x layer + lm_head)", m.value("format", ""), "", "", "", "",
                                      st.value("bound", ""), seconds(st["estimated_seconds"].get<double>())};
        append_measured(step, st);
        t.rows.push_back(step);
        const auto ratio = [&](const char* key) {
          return st.contains(key) && st[key].is_number() ? fmt::format("{:.2f}", st[key].get<double>()) : std::string("not measured");
        };
        t.note += fmt::format("{}step: estimated / measured {} (fastest pass {}); the bound of each operation is the "
                              "largest of its memory, compute and dequant-dot times", t.note.empty() ? "" : "; ",
                              ratio("ratio"), ratio("ratio_best"));
      }
      tables.push_back(t);
    }
  }
  tables.push_back(conventions_table(a));
  return tables;
}

std::string render_llm_text(const json& a) {
  std::string s;
  for (const ReportTable& t : llm_tables(a)) s += render_table_text(t) + "\n";
  for (const json& n : llm_notes(a)) s += "note: " + n.get<std::string>() + "\n";
  return s;
}

}  // namespace roofline::llm
